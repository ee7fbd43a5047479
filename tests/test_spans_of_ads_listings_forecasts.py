"""What a job ad, a property listing, a health story, a weather forecast, a market close and an
appliance's manual must keep (2026-12-02: each case came back wrong from a CLI translation of such a
document): the spans ``prepare`` gives the model, and what restoring puts back."""

from __future__ import annotations

import pytest

from doctrans.engine.protect import latin_copy, no_doubled_lead_word, prepare
from tests.prepared_spans import spans


@pytest.mark.parametrize(("text", "expected"), [
    # 4日至5日本市将出现大风 came back "the 4 th to 5 Japan": 本市 is this city, 日本 no place after a day.
    ("4日至5日本市将出现大风降温天气。", ("4日至5日", "from the 4th to the 5th")),
    ("5日早晨最低气温将降至零下12℃。", ("5日早晨", "on the morning of the 5th")),
])
def test_a_forecasts_days_are_dates_not_japan(text: str, expected: tuple[str, str]) -> None:
    found = spans(text, "zh", "en")
    assert expected in found
    assert all(target != "Japan" for _, target in found)


def test_japan_is_still_japan_after_a_word() -> None:
    assert ("日本", "Japan") in spans("他5日去日本。", "zh", "en")


def test_a_winds_direction_and_force_are_one_span() -> None:
    assert ("北风二三级", "north wind force 2 to 3") in spans("今天夜间晴转多云，北风二三级。", "zh", "en")


def test_us_in_mixed_case_is_the_united_states_and_a_word_when_shouted() -> None:
    """A job ad's heading "Senior Data Engineer (Remote, US time zones)" came back 我们时区 (us)."""
    assert ("US", "美国") in spans("Senior Data Engineer (Remote, US time zones)", "en", "zh")
    assert prepare("LET US GO", 16, None, "zh", "en").model_text == "Let us go"


def test_a_telephone_number_with_its_area_code_is_one_span() -> None:
    """"Contact Maria Gonzalez at (212) 555-0148" came back "Cont Maria Gonzalez at (212) 555-0148"."""
    p = prepare("Contact Maria Gonzalez at (212) 555-0148 to schedule a viewing.", 16, None, "zh", "en")
    assert [s.text for s in p.masked.spans] == ["(212) 555-0148"]
    # (with the verb that calls it: doctrans.phone_calls)
    assert [(s.text, s.target) for s in prepare("Call +1 212 555 0148 today.", 16, None, "zh", "en").masked.spans] \
        == [("Call +1 212 555 0148", "拨打+1 212 555 0148")]


@pytest.mark.parametrize(("text", "span"), [
    # "Open house ... from 1 to 3 p.m." came back 从1到下午3点.
    ("Open house: Sunday, December 6, from 1 to 3 p.m.", ("from 1 to 3 p.m.", "从下午1点至3点")),
    ("Lunch is served 11 to 1 p.m. daily.", ("11 to 1 p.m.", "上午11点至下午1点")),
    ("The shop is open 9-5 p.m. on weekdays.", ("9-5 p.m.", "上午9点至下午5点")),
])
def test_an_hour_before_a_times_range_end_takes_its_part_of_the_day(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "en", "zh")


def test_a_salary_range_is_one_amount_with_its_period() -> None:
    """"$145,000 to $175,000 per year" came back 145,000美元到每年175,000美元."""
    found = spans("The salary range is $145,000 to $175,000 per year.", "en", "zh")
    assert ("$145,000 to $175,000 per year", "每年145,000美元至175,000美元") in found
    assert ("salary range", "薪资范围") in found
    # ... but not a change from one amount to another (上涨5美元至10美元 would be a rise by them).
    assert [t for _, t in spans("Prices rose from $5 to $10.", "en", "zh")] == ["从5美元增至10美元"]
    assert [t for _, t in spans("It went from $5 to $10.", "en", "zh")] == ["5美元", "10美元"]


def test_people_counted_with_their_ages_are_one_span() -> None:
    found = spans("Researchers at the University of Leeds followed 2,418 adults aged 45 to 70.", "en", "zh")
    assert ("2,418 adults aged 45 to 70", "2,418名45至70岁的成年人") in found
    assert ("University of Leeds", "利兹大学") in found


def test_two_days_with_one_year_are_one_range() -> None:
    """"between January 12 and February 6, 2027" came back 1月12日到2027年2月6日之间."""
    assert ("between January 12 and February 6, 2027", "2027年1月12日至2月6日之间") in \
        spans("Interviews take place between January 12 and February 6, 2027.", "en", "zh")
    assert ("March 3 to April 20, 2026", "2026年3月3日至4月20日") in \
        spans("The exhibition runs from March 3 to April 20, 2026.", "en", "zh")
    assert [t for _, t in spans("We met on March 3 and March 5.", "en", "zh")] == ["3月3日", "3月5日"]


def test_a_weekday_range_and_a_weekday_written_zhou() -> None:
    """工作时间：周一至周五 came back "Monday", Friday lost; 指数周二集体收涨 "weeks"."""
    assert ("周一至周五", "Monday to Friday") in spans("工作时间：周一至周五，上午9点至下午6点。", "zh", "en")
    copy = prepare("三大指数周二集体收涨。", 16, None, "en", "zh").copy  # terms only: written without the model
    assert copy is not None and "Tuesday" in copy
    assert "Wednesday" not in str(spans("一周三次。", "zh", "en"))  # three times a week


def test_an_unknown_companys_name_is_kept() -> None:
    """"Northwind Analytics is hiring" came back 北欧分析组."""
    assert ("Northwind Analytics", "Northwind Analytics") in \
        spans("Northwind Analytics is hiring a data engineer.", "en", "zh")


@pytest.mark.parametrize(("text", "expected"), [
    ("个股方面，全市场超过3600只股票上涨，52只股票涨停。", [("超过3600只股票", "more than 3,600 stocks"),
                                                       ("52只股票", "52 stocks")]),
    ("Thanks to the 37 contributors who made this release possible.", [("37 contributors", "37位贡献者")]),
])
def test_counted_stocks_and_contributors(text: str, expected: list[tuple[str, str]]) -> None:
    src, tgt = ("zh", "en") if "股" in text else ("en", "zh")
    found = spans(text, src, tgt)
    assert all(e in found for e in expected), found


@pytest.mark.parametrize(("text", "src", "term"), [
    ("薪资待遇：月薪15000元至25000元。", "zh", ("月薪", "monthly salary")),  # came back "January"
    ("请将简历发送至hr@example.cn。", "zh", ("简历", "resume")),  # "a short calendar"
    ("We offer 16 weeks of parental leave.", "en", ("parental leave", "育儿假")),
    ("额定电压：220V", "zh", ("额定电压", "rated voltage")),
    ("气象部门提醒市民注意防寒保暖。", "zh", ("气象部门", "meteorological department")),
    ("The subway station is a five-minute walk away.", "en", ("subway station", "地铁站")),
])
def test_terms_of_these_documents(text: str, src: str, term: tuple[str, str]) -> None:
    found = spans(text, src, "en" if src == "zh" else "zh")
    copy = prepare(text, 16, None, "en" if src == "zh" else "zh", src).copy
    assert term in found or (copy is not None and term[1] in copy.lower())


def test_a_copied_line_of_labels_spaces_after_each_colon() -> None:
    """额定电压：220V　额定功率：1500W came back "rated voltage: 220V rated power:1500W"."""
    p = prepare("额定电压：220V　额定功率：1500W", 16, None, "en", "zh")
    assert p.copy is not None and "rated power: 1500W" in p.copy
    assert latin_copy("价格：¥1299（包邮）", []) == "价格: ¥1299 (包邮)"


def test_the_models_word_before_a_term_that_starts_with_it_goes() -> None:
    """请于⦅1⦆ with ⦅1⦆ "by January 15, 2027" came back "by by January 15, 2027"."""
    assert no_doubled_lead_word("Send it by by January 15, 2027.", ["by January 15, 2027"]) == \
        "Send it by January 15, 2027."
    assert no_doubled_lead_word("By by January 15, send it.", ["by January 15"]) == "By January 15, send it."
    assert no_doubled_lead_word("Stand by the door.", ["by January 15"]) == "Stand by the door."
    p = prepare("有意者请于2027年1月15日前将简历发送至hr@example.cn。", 16, None, "en", "zh")
    assert p.restore("Send ⦅2⦆ by ⦅1⦆ to ⦅3⦆.").text == "Send resume by January 15, 2027 to hr@example.cn."


# -- a recall notice, a traffic notice, a basketball report (2026-12-02) --------------------------
def test_a_weekday_range_and_a_time_zone_into_chinese() -> None:
    """"from 8 a.m. to 8 p.m. ET Monday through Friday" came back 上午8点至晚上8点ET星期一的调用，星期五."""
    found = spans("Lines are open from 8 a.m. to 8 p.m. ET Monday through Friday.", "en", "zh")
    assert ("from 8 a.m. to 8 p.m. ET", "从美国东部时间上午8点至晚上8点") in found
    assert ("Monday through Friday", "星期一至星期五") in found
    # With the call before it the sentence is its spans, written without the model (doctrans.phone_calls).
    call = prepare("Call 1-800-555-0199 from 8 a.m. to 8 p.m. ET Monday through Friday.", 16, None, "zh", "en")
    assert call.copy == "拨打1-800-555-0199从美国东部时间上午8点至晚上8点星期一至星期五。"
    assert ("9 p.m. PT", "美国太平洋时间晚上9点") in spans("The show starts at 9 p.m. PT.", "en", "zh")


@pytest.mark.parametrize(("text", "expected"), [
    # 中山东一路、南京西路、淮海中路 came back "the Shandong route, Nanjing West roads, surrounding".
    ("管制期间，中山东一路、南京西路、淮海中路等路段禁止机动车通行。",
     [("中山东一路", "Zhongshan East No. 1 Road"), ("南京西路", "Nanjing West Road"),
      ("淮海中路", "Huaihai Middle Road")]),
    ("工作地点：杭州市西湖区文三路478号。", [("文三路478号", "478 Wensan Road")]),  # "crib three route 478"
    # A lease's flat (3单元502室 came back "3 unit 502 room"): first, as English writes an address.
    ("位于杭州市西湖区文三路478号3单元502室的房屋", [("文三路478号3单元502室", "Room 502, Unit 3, 478 Wensan Road")]),
    ("公司位于杭州市中山路12号5号楼2单元301室。",
     [("中山路12号5号楼2单元301室", "Room 301, Unit 2, Building 5, 12 Zhongshan Road")]),
])
def test_a_citys_roads_in_pinyin(text: str, expected: list[tuple[str, str]]) -> None:
    found = spans(text, "zh", "en")
    assert all(e in found for e in expected), found


@pytest.mark.parametrize("text", ["这条思路很好。", "我们一路走来。", "中国路线图", "江苏、山东和中山东部"])
def test_words_with_a_roads_character_are_no_road(text: str) -> None:
    assert all(not t.endswith(("Road", "Street")) for _, t in spans(text, "zh", "en"))


@pytest.mark.parametrize(("text", "expected"), [
    # 贡献25分8次助攻 came back "contributes 25 8 to help out", 14个篮板 "14 basketballs".
    ("赵继伟全场贡献25分8次助攻，莫兰德拿下18分14个篮板。",
     [("25分8次助攻", "25 points and 8 assists"), ("18分14个篮板", "18 points and 14 rebounds")]),
    ("首节比赛双方战成28平。", [("战成28平", "tied at 28")]),  # "fights to 28"
    ("辽宁队主场以108比89战胜北京队，取得五连胜。", [("五连胜", "five straight wins")]),  # lost
    ("本场比赛共有12568名观众到场观战。", [("12568名观众", "12,568 spectators")]),
])
def test_a_basketball_reports_figures(text: str, expected: list[tuple[str, str]]) -> None:
    found = spans(text, "zh", "en")
    assert all(e in found for e in expected), found


def test_a_teams_side_is_no_persons_name() -> None:
    """北京队方面， came back "Beijing Fang Mian"."""
    assert all(t != "Fang Mian" for _, t in spans("北京队方面，翟晓川得到16分。", "zh", "en"))


# -- a clinical abstract, a travel guide (2026-12-02) ----------------------------------------------
def test_an_abstracts_labels_with_an_ideographic_space() -> None:
    """目的　探讨… came back "For purpose explosion of…": the label is written, the rest translated."""
    p = prepare("目的　探讨二甲双胍联合生活方式干预的疗效。", 16, None, "en", "zh")
    assert p.prefix == "Objective: " and p.model_text is not None and not p.model_text.startswith("目的")
    assert prepare("结果　治疗后血糖下降。", 16, None, "en", "zh").prefix == "Results: "
    assert prepare("目的地　北京", 16, None, "en", "zh").prefix == ""  # a destination, no label


def test_a_price_for_each_ride() -> None:
    assert ("€3.10 a ride", "每次3.10欧元") in spans("Tram 28 costs €3.10 a ride.", "en", "zh")


# -- a phone's launch, an exam notice (2026-12-02) ------------------------------------------------
@pytest.mark.parametrize(("text", "span"), [
    ("Its main camera uses a 50-megapixel sensor.", ("50-megapixel", "5000万像素")),  # came back 50毫米
    ("The front camera has 32 megapixels.", ("32 megapixels", "3200万像素")),
    ("A 108 MP mode.", ("108 MP", "1.08亿像素")),
])
def test_a_cameras_megapixels_in_wan(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "en", "zh")


def test_a_fee_for_each_person() -> None:
    """报名费为每人30元 came back "paid for each other 30 yuan"."""
    assert ("每人30元", "30 yuan per person") in spans("四级考试报名费为每人30元。", "zh", "en")


def test_unveiled_is_no_cancellation() -> None:
    """"Orbit Labs on Wednesday unveiled the Nova X1" came back 取消了 (cancelled)."""
    assert ("unveiled", "发布了") in spans("Orbit Labs on Wednesday unveiled the Nova X1.", "en", "zh")


@pytest.mark.parametrize(("line", "written"), [
    ("各位业主：", "Dear Residents:"),  # came back "Guys, the business owner:"
    ("给您带来的不便，敬请谅解。", "We apologize for any inconvenience."),  # "For an inconvenience, to be forgiven."
])
def test_a_compounds_notice_salutation_and_apology(line: str, written: str) -> None:
    assert prepare(line, 16, None, "en", "zh").copy == written


# -- a paper's abstract, a model's release (2026-12-02) -------------------------------------------
@pytest.mark.parametrize(("text", "span"), [
    ("It runs at 450 frames per second on one core.", ("450 frames per second", "每秒450帧")),  # 运行450帧
    ("Vibration recordings from 48 pumps.", ("48 pumps", "48台泵")),  # 从48狙记录
    ("Code is available under the MIT license.", ("MIT license", "MIT许可证")),  # 麻省理工学院许可证
    ("We collect sensor data from machines.", ("sensor data", "传感器数据")),  # 实例化器数据
])
def test_a_papers_figures_and_terms(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "en", "zh")
