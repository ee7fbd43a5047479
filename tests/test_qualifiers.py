"""A figure's qualifier goes with it (doctrans.qualifiers)."""

from __future__ import annotations

import re

import pytest

from doctrans import qualifiers
from doctrans.direction_terms import automatic_terms
from doctrans.engine.protect import prepare
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(qualifiers)) == 33


@pytest.mark.parametrize(("text", "tgt", "written"), three_column_rows(qualifiers))
def test_docstring_table_row(text: str, tgt: str, written: str) -> None:
    src = "en" if tgt == "zh" else "zh"
    found = [t.target for t in automatic_terms(text, [], src, tgt) if t.kind == "number"]
    assert found == [written]


def test_a_qualified_figure_is_one_placeholder_and_comes_back_whole() -> None:
    prep = prepare("请确保磁盘剩余空间不少于500MB。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text is not None and "不少于" not in prep.model_text
    assert prep.restore("Make sure the disk has ⦅1⦆ free.").text == "Make sure the disk has at least 500MB free."
    # Between other languages, and without a figure, nothing changes.
    assert [t.text for t in automatic_terms("at least 2 GB", [], "en", "de")] == []
    assert [t.kind for t in automatic_terms("至少要努力", [], "zh", "en")] == []


def test_a_numbered_part_is_no_figure() -> None:
    for text, src, tgt in [("payable under Section 4", "en", "zh"), ("see up to Chapter 3", "en", "zh"),
                           ("约第3章", "zh", "en")]:
        assert all(t.text[:2] not in ("un", "up", "约第") for t in automatic_terms(text, [], src, tgt)), text


def test_how_about_is_a_question_not_an_approximation() -> None:
    assert [t.target for t in automatic_terms("How about 3 p.m.?", [], "en", "zh")] == ["下午3点"]


@pytest.mark.parametrize(("text", "written"), [
    ("预计增长5%～10%。", "up 5% to 10%"),
    ("价格在1000～2000元之间。", "1,000 to 2,000 yuan"),
    ("每年3至5次。", "3 to 5"),
    ("约5%～10%", "about 5% to 10%"),
])
def test_a_range_of_figures_is_one_span_into_english(text: str, written: str) -> None:
    """``增长5%～10%`` had come back ``up 5% 10%``: the model dropped the ～ between two placeholders."""
    found = [t.target for t in automatic_terms(text, [], "zh", "en") if t.kind == "number"]
    assert found == [written]
    assert [t.target for t in automatic_terms(text, [], "zh", "ja") if t.kind == "number"] != [written]


@pytest.mark.parametrize("text", ["revenue rose from 5% to 10%", "sales grew 3% to 5% this year",
                                  "between 5 to 10", "fell 2% to 1,200", "8% to 10 people"])
def test_a_start_a_change_or_two_kinds_of_figure_is_no_range_into_chinese(text: str) -> None:
    # (A change is a change: "rose from 5% to 10%" is 从5%增至10%, below.)
    terms = automatic_terms(text, [], "en", "zh")
    assert not [t for t in terms if re.fullmatch(r"[0-9.,%]+至[0-9.,%]+", t.target or "")]


@pytest.mark.parametrize(("text", "expected"), [
    ("你们当中有多少人昨晚睡了不到六个小时？", [("不到六个小时", "less than six hours")]),  # "last six hours"
    ("他工作了将近两年。", [("将近两年", "nearly two years")]),
    ("超过三次", [("超过三次", "more than three times")]),
    ("约三天后，总额达到一万亿", [("约三天", "about three days")]),
    ("不到两倍", []),
    ("他睡了六个小时。", []),  # no qualifier: the model's words
    ("撤销当前窗口的最近一次操作。", []),  # 最近: the last time
    ("我想预约一次。", []),  # 预约: to book
    ("这本书我看了不下十遍。", [("不下十遍", "at least ten times")]),  # "I don't see this book for ten times"
    ("他不下楼。", []),
])
def test_a_qualified_count_below_ten_in_chinese_numerals(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in qualifiers.find_qualified_counts(text, "zh", "en")] == expected
    assert qualifiers.find_qualified_counts(text, "zh", "ja") == []


@pytest.mark.parametrize(("text", "written"), [
    ("About one in three adults do not get enough sleep.", "约三分之一"),  # the "about" was lost
    ("Nearly two-thirds of voters agreed.", "近三分之二"),
    ("More than half of the staff left.", "超过一半"),
])
def test_a_share_in_words_takes_its_qualifier_into_chinese(text: str, written: str) -> None:
    assert written in [s.target for s in automatic_terms(text, [], "en", "zh")]


def test_a_versions_or_later_takes_its_version_word() -> None:
    """"SDK 需要 Python 3.9 及以上版本" came back "Python 3.9 or later version": 版本 was left to the
    model after the span's "or later"."""
    prep = prepare("SDK 需要 Python 3.9 及以上版本。", 16, tgt_lang="en", src_lang="zh")
    assert "版本" not in (prep.model_text or "")
    assert [s.target for s in prep.masked.spans][-1] == "3.9 or later"


def test_a_range_of_percentages_with_a_hyphen_is_one_span() -> None:
    """"Rates were held at 5.25%-5.5%" was masked as 5.25% and -5.5% (negative)."""
    prep = prepare("Rates were held at 5.25%-5.5%.", 16, tgt_lang="zh", src_lang="en")
    assert [(s.text, s.target) for s in prep.masked.spans] == [("5.25%-5.5%", "5.25%至5.5%")]


def test_two_figures_falling_are_no_range() -> None:
    """"The vote was 52% to 48%" was made one span 52%至48%, a range from 52 to 48."""
    prep = prepare("The vote was 52% to 48%.", 16, tgt_lang="zh", src_lang="en")
    assert [s.text for s in prep.masked.spans] == ["52%", "48%"]


@pytest.mark.parametrize(("text", "written"), [
    # A phone's 售价5999元起 came back "sales 5999 yuan"; 全球用户数突破10亿 "1 billion of the full-ball user".
    ("售价5999元起。", ["from 5,999 yuan"]),
    ("全球用户数突破10亿。", ["global", "more than 1 billion"]),
    ("自2015年起实行。", ["2015"]),  # since, not a price
])
def test_a_prices_from_and_a_counts_more_than(text: str, written: list[str]) -> None:
    prep = prepare(text, 16, tgt_lang="en", src_lang="zh")
    assert [s.target for s in prep.masked.spans] == written


def test_figures_of_two_units_are_no_range_and_a_units_dash_is_no_minus() -> None:
    """A kettle's 220V～50Hz (220 volts AC at 50 hertz) came back "220V to 50Hz"; its 40℃-100℃ was
    masked as 40 °C and -100 °C, a minus where the dash joins a range."""
    volts = prepare("请确认电源电压为220V～50Hz。", 16, tgt_lang="en", src_lang="zh")
    # (one rating, doctrans.units: the model wrote the ～ between two spans as "REMOTE")
    assert [(s.text, s.target) for s in volts.masked.spans if s.kind == "number"] == [("220V～50Hz", "220V~50Hz")]
    heat = prepare("选择所需温度（40℃-100℃）。", 16, tgt_lang="en", src_lang="zh")
    assert [(s.text, s.target) for s in heat.masked.spans] == [("40℃-100℃", "40 °C to 100 °C")]
    # A bare figure, a hyphen and a measure (适用面积：20-35平方米 came back "20- 35 m²"); two bare
    # figures are a score or a code.
    area = prepare("本机适用于20-35平方米的房间，价格20-35元。", 16, tgt_lang="en", src_lang="zh")
    assert [(s.text, s.target) for s in area.masked.spans] == [("20-35平方米", "20 to 35 m²"),
                                                                ("20-35元", "20 to 35 yuan")]
    score = prepare("比分3-1，电话0571-8765。", 16, tgt_lang="en", src_lang="zh")
    assert [s.text for s in score.masked.spans] == ["3", "1", "0571", "8765"]
    cold = prepare("气温-5℃，最低-10℃。", 16, tgt_lang="en", src_lang="zh")
    assert [s.target for s in cold.masked.spans] == ["-5 °C", "-10 °C"]


@pytest.mark.parametrize(("text", "written"), [
    # 整个过程大约需要 10 分钟 came back "The entire process needs to be 10 minutes", the about gone.
    ("整个过程大约需要 10 分钟。", ["takes about 10 minutes"]),
    ("审核一般约需3个工作日。", ["takes about 3 working days"]),
    ("费用大约需要80元。", ["80 yuan"]),  # money: no time it takes (the model's)
    ("大约需要 4 GB 内存。", [None]),  # a size, kept as written
])
def test_about_and_the_time_it_takes_go_with_the_duration(text: str, written: list[str | None]) -> None:
    prep = prepare(text, 16, tgt_lang="en", src_lang="zh")
    assert [s.target for s in prep.masked.spans] == written


@pytest.mark.parametrize(("text", "written"), [
    # "cut the average time ... from 90 days to 60 days" came back 将90天提交到60天的…, "The waiting
    # time fell from 12 weeks to 8 weeks" 等待时间从12周到8周开始: the fall gone, or turned round.
    ("We aim to cut the average time from 90 days to 60 days.", [("from 90 days to 60 days", "从90天降至60天")]),
    ("The waiting time fell from 12 weeks to 8 weeks.", [("fell from 12 weeks to 8 weeks", "从12周降至8周")]),
    ("Revenue rose from $40 million to $46.3 million last year.",
     [("rose from $40 million to $46.3 million", "从4000万美元增至4630万美元")]),
    ("Unemployment has fallen from 4.1% to 3.9% this year.",
     [("has fallen from 4.1% to 3.9%", "从4.1%降至3.9%")]),
    # No change: spans of time, or no verb of change before them.
    ("The library is open from 9 a.m. to 5 p.m. since we extended it.",
     [("from 9 a.m. to 5 p.m.", "从上午9点至下午5点")]),
    ("Prices increased from 2020 to 2024.", [("2020", "2020年"), ("2024", "2024年")]),
    ("Children from 6 to 12 years old are welcome.", [("12 years old", "12岁")]),
])
def test_a_change_from_one_figure_to_another_is_one_span_into_chinese(
        text: str, written: list[tuple[str, str | None]]) -> None:
    spans = automatic_terms(text, [], "en", "zh")
    assert [(s.text, s.target) for s in spans if s.kind in ("number", "date")] == written


@pytest.mark.parametrize(("text", "written"), [
    # 失业率从4.1%降至3.9% came back "Unemployment rate from 4.1% fell to 3.9%".
    ("失业率从4.1%降至3.9%。", [("从4.1%降至3.9%", "fell from 4.1% to 3.9%")]),
    ("出口额从3%升至5%。", [("从3%升至5%", "rose from 3% to 5%")]),
    # 提升至 whole (its 升至 alone left 提 to the model: "mentioned rose to 35%"), after 由 as after 从.
    ("海外收入占比由31%提升至35%。", [("由31%提升至35%", "rose from 31% to 35%")]),
    # The verb is the model's to read: it wrote "The wait time is reduced from 12 weeks to 8 weeks".
    ("等待时间从12周减少到8周。", [("12周", "12 weeks"), ("8周", "8 weeks")]),
    ("将税率从10%降至8%。", [("降至8%", "fell to 8%")]),  # 将 takes it as its object
])
def test_from_a_figure_and_the_level_it_fell_to_is_one_span_into_english(
        text: str, written: list[tuple[str, str | None]]) -> None:
    spans = automatic_terms(text, [], "zh", "en")
    assert [(s.text, s.target) for s in spans if s.kind in ("number", "date")] == written


@pytest.mark.parametrize(("text", "written"), [
    # A news item's "a ferry will run every 15 minutes" came back 运行每个15分钟 (each one of them).
    ("The ferry will run every 15 minutes.", [("every 15 minutes", "每15分钟")]),
    ("Take one tablet every 8 hours.", [("every 8 hours", "每8小时")]),
    ("He comes every 2nd day.", [("2nd", "第2")]),  # an ordinal: not 每第2
    # A report's "we kept our running costs below 8% of spending" lost its below.
    ("We kept our running costs below 8% of spending.", [("below 8%", "低于8%")]),
    ("Store it above 5 °C.", [("above 5 °C", "高于5摄氏度")]),
])
def test_every_below_and_above_go_with_their_figure_into_chinese(text: str, written: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in automatic_terms(text, [], "en", "zh")] == written


@pytest.mark.parametrize(("text", "written"), [
    # A contract's 服务期限自2027年1月1日起至2027年12月31日止 came back "the service period is limited to
    # December 31, 2027 for January 1, 2027": the dates turned round.
    ("服务期限自2027年1月1日起至2027年12月31日止。",
     [("自2027年1月1日起至2027年12月31日止", "from January 1, 2027 to December 31, 2027")]),
    ("从3月1日到3月10日放假。", [("从3月1日到3月10日", "from March 1 to March 10")]),
    ("3月1日和3月10日", [("3月1日", "March 1"), ("3月10日", "March 10")]),  # two dates, no period
])
def test_a_period_from_one_date_to_another_is_one_span_into_english(
        text: str, written: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in automatic_terms(text, [], "zh", "en") if s.kind == "date"] == written


@pytest.mark.parametrize(("text", "written"), [
    # A blog's "on 22 of 30 days" came back 2230天: the figures glued, the of gone.
    ("I finished it before lunch on 22 of 30 days.", [("22 of 30 days", "30天中的22天")]),
    ("Only 3 of the 10 countries agreed.", [("3 of the 10 countries", "10个国家中的3个")]),
    ("2 of 3", []),  # no unit: the model's
])
def test_a_part_of_a_whole_is_one_span_into_chinese(text: str, written: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in automatic_terms(text, [], "en", "zh")] == written


def test_a_range_that_things_vary_over_holds_its_budeng() -> None:
    """降价幅度为5%至10%不等 came back "5% to 10% not equal": the model read 不等 as "not equal"."""
    prep = prepare("本次降价幅度为5%至10%不等。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "本次降价幅度为⦅1⦆。"
    assert [s.target for s in prep.masked.spans] == ["from 5% to 10%"]
    # 不等于 is "is not equal to": the range stays a range, the words the model's.
    prep = prepare("5至10不等于15。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text is not None and "不等于" in prep.model_text


def test_a_qualifier_before_a_sum_with_its_currencys_code() -> None:
    """"The fee is USD 1,200 (about EUR 1,100)" came back 省略1,100欧元: "about" read as "omit"."""
    prep = prepare("The fee is USD 1,200 (about EUR 1,100).", 16, tgt_lang="zh", src_lang="en")
    assert [(s.text, s.target) for s in prep.masked.spans][-1] == ("about EUR 1,100", "约1,100欧元")


@pytest.mark.parametrize(("text", "copy"), [
    # "operating margin narrowed to 11.3% from 12.9% a year earlier" came back 缩小到11.3%的12.9%一年前:
    # the two figures swapped to a reader.
    ("Operating margin narrowed to 11.3% from 12.9% a year earlier.", "营业利润率从一年前的12.9%收窄至11.3%。"),
    ("Net debt fell to $2.1 billion from $2.6 billion.", "净负债从26亿美元降至21亿美元。"),
    ("Unemployment fell to 3.9% from 4.1% last year.", "失业从上年的4.1%降至3.9%。"),
])
def test_a_level_with_the_level_it_started_from_after_it_into_chinese(text: str, copy: str) -> None:
    assert prepare(text, 16, tgt_lang="zh", src_lang="en").copy == copy


@pytest.mark.parametrize("text", [
    "The price rose to 50% from 12.9 million.",  # a percentage and a count: no one level
    "He moved to Paris from London.",
])
def test_what_is_no_change_from_a_level(text: str) -> None:
    assert not any((s.target or "").startswith("从") for s in automatic_terms(text, [], "en", "zh"))


@pytest.mark.parametrize(("text", "copy"), [
    # 毛利率由上年的20.7%下降至18.6% came back "Gross margin Contributed by 20.7% fell to 18.6% in the previous year".
    ("毛利率由上年的20.7%下降至18.6%。", "Gross margin fell from 20.7% a year earlier to 18.6%."),
    # (a term in small letters with hyphens starts its sentence with a capital too)
    ("资产负债率从2024年末的58.1%降至54.2%。", "Debt-to-asset ratio fell from 58.1% at the end of 2024 to 54.2%."),
])
def test_a_fall_from_the_level_of_a_period_into_english(text: str, copy: str) -> None:
    assert prepare(text, 16, tgt_lang="en", src_lang="zh").copy == copy
