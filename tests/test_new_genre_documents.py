"""Documents of genres first tried at stop 50 -- a hospital's discharge summary, a court's judgment,
minutes, a recipe, a shop's FAQ, a README, a story, a script, an itinerary: what their translations
had lost, each rule on its own, and some of the documents whole through the CLI with the built-in
model."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from doctrans.cli import app
from doctrans.dialogue import split_dialogue
from doctrans.engine.protect import prepare
from doctrans.kept_names import half_translated
from doctrans.latin_spacing import spaced_after_marks

runner = CliRunner()

DISCHARGE = """出院小结

姓名：王秀英　性别：女　年龄：67岁
入院日期：2025年9月3日　出院日期：2025年9月12日
入院诊断：社区获得性肺炎；2型糖尿病

入院情况：患者因“发热、咳嗽5天”入院。体温38.9℃，血压135/82mmHg，心率96次/分。

诊疗经过：入院后给予头孢曲松2g静脉滴注，每日一次，共7天；同时控制血糖。

出院医嘱：
1. 继续口服二甲双胍0.5g，每日两次。
2. 两周后门诊复查血常规及胸部CT。
"""

JUDGMENT = """北京市朝阳区人民法院
民事判决书
（2024）京0105民初12345号

原告：张伟，男，1985年6月12日出生，汉族，住北京市朝阳区。
法定代表人：李强，该公司总经理。

原告向本院提出诉讼请求：1.判令被告支付拖欠工资共计人民币38,600元；2.判令被告支付经济补偿金15,000元。

依照《中华人民共和国劳动合同法》第三十条之规定，判决如下：

审判员　赵敏
二〇二四年五月二十日
书记员　刘洋
"""

MINUTES = """Minutes of the Board Meeting
Location: Conference Room B, 3rd floor

The minutes of the meeting held on 9 September 2025 were approved without changes.
The cash balance at the end of September stood at $1.9 million.

The meeting closed at 11:25. The next meeting will be held on 11 November 2025.
"""


@pytest.fixture(autouse=True)
def builtin_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCTRANS_MODELS", raising=False)


def test_a_clock_time_takes_no_year_after_it_into_chinese() -> None:
    prep = prepare("The meeting closed at 11:25.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("⦅1⦆年的会议结束。").text == "11:25的会议结束。"


def test_english_on_before_a_date_is_no_shang_after_the_day() -> None:
    prep = prepare("The next meeting will be held on 11 November 2025.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("下次会议将在⦅1⦆上举行。").text == "下次会议将在2025年11月11日举行。"
    prep = prepare("We meet on 11 November.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("我们⦅1⦆上午见面。").text == "我们11月11日上午见面。"  # 上午, the morning, stays


def test_a_term_written_with_a_figure_wins_over_the_figure() -> None:
    """2型糖尿病: the 2 alone had been masked and the model wrote "2 diaperia"."""
    prep = prepare("患者有2型糖尿病和高血压。", 16, tgt_lang="en", src_lang="zh")
    assert [(s.text, s.target) for s in prep.masked.spans][:1] == [("2型糖尿病", "type 2 diabetes")]
    prep = prepare("他有12型糖尿病。", 16, tgt_lang="en", src_lang="zh")  # no such term: the figure stays
    assert [s.text for s in prep.masked.spans] == ["12"]


def test_a_term_out_of_chinese_is_spaced_from_the_unit_before_it() -> None:
    prep = prepare("给予头孢曲松2g静脉滴注，每日一次。", 16, tgt_lang="en", src_lang="zh")
    out = prep.restore("Given ⦅1⦆ ⦅2⦆g⦅3⦆, ⦅4⦆.").text
    assert "2g intravenous drip" in out and "ceftriaxone" in out


def test_clinical_figures_keep_their_units() -> None:
    prep = prepare("体温38.9℃，血压135/82mmHg，心率96次/分，呼吸20次/分。", 16, tgt_lang="en", src_lang="zh")
    targets = {s.text: s.output for s in prep.masked.spans}
    assert targets["135/82mmHg"] == "135/82mmHg"
    assert targets["96次/分"] == "96 beats/min"
    assert targets["20次/分"] == "20 breaths/min"


def test_a_form_label_is_written_from_the_list() -> None:
    for source, label in (("姓名：王秀英", "Name:"), ("原告：张伟，男", "Plaintiff:"),
                          ("诊疗经过：入院后给予头孢曲松", "Course of Treatment:")):
        prep = prepare(source, 16, tgt_lang="en", src_lang="zh")
        assert prep.prefix.startswith(label) or (prep.copy or "").startswith(label), source


def _translate(tmp_path: Path, name: str, text: str) -> str:
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    out = tmp_path / f"out.{name}"
    result = runner.invoke(app, ["translate", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_a_discharge_summary_keeps_its_patient_figures_and_drugs(tmp_path: Path) -> None:
    out = _translate(tmp_path, "discharge.zh.txt", DISCHARGE)
    for kept in ("Discharge summary", "Wang Xiuying", "September 3, 2025", "September 12, 2025",
                 "community-acquired pneumonia", "type 2 diabetes", "38.9 °C", "135/82mmHg", "96 beats/min",
                 "ceftriaxone", "2g", "metformin", "0.5g", "complete blood count", "chest CT"):
        assert kept.lower() in out.lower(), (kept, out)  # a drug may start the sentence


def test_a_judgment_keeps_its_parties_judges_case_number_and_date(tmp_path: Path) -> None:
    out = _translate(tmp_path, "judgment.zh.txt", JUDGMENT)
    for kept in ("Civil judgment", "(2024) Jing 0105 Min Chu No. 12345", "Plaintiff:", "Zhang Wei",
                 "June 12, 1985", "Legal representative", "Li Qiang", "38,600", "15,000",
                 "Labor Contract Law of the People's Republic of China", "Article 30", "Zhao Min",
                 "May 20, 2024", "Court clerk", "Liu Yang"):
        assert kept in out, (kept, out)


def test_minutes_keep_their_times_and_dates_without_stray_counters(tmp_path: Path) -> None:
    out = _translate(tmp_path, "minutes.en.txt", MINUTES)
    for kept in ("会议室", "2025年9月9日", "现金余额", "190万美元", "11:25", "2025年11月11日"):
        assert kept in out, (kept, out)
    assert "11:25年" not in out and "11日上" not in out


def test_on_before_a_weekday_is_no_shang_after_it() -> None:
    prep = prepare("Airports cancelled 1,200 flights on Monday, stranding travellers.", 16, tgt_lang="zh",
                   src_lang="en")
    assert prep.restore("机场在⦅2⦆上的取消了⦅1⦆航班。").text == "机场在星期一的取消了1,200航班。"
    prep = prepare("We meet on Monday morning.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("我们⦅1⦆上午见面。").text == "我们星期一上午见面。"


def test_tibet_is_a_place_but_not_where_something_is_hidden() -> None:
    prep = prepare("偏远地区（新疆、西藏等）另行计算。", 16, tgt_lang="en", src_lang="zh")
    assert ("西藏", "Tibet") in [(s.text, s.target) for s in prep.masked.spans]
    for hidden in ("他把东西藏起来了。", "他一直东躲西藏。", "珀西藏有东西。"):
        prep = prepare(hidden, 16, tgt_lang="en", src_lang="zh")
        assert all(s.target != "Tibet" for s in prep.masked.spans), hidden


def test_a_readme_keeps_the_files_it_names() -> None:
    """"See LICENSE for details" was read as "license" and came back 驾照 (a driving licence), the
    Markdown link around other words."""
    prep = prepare("See LICENSE for details.", 16, tgt_lang="zh", src_lang="en")
    assert [s.text for s in prep.masked.spans] == ["LICENSE"]
    prep = prepare("SEE LICENSE FOR DETAILS.", 16, tgt_lang="zh", src_lang="en")  # shouted: the word
    assert prep.masked.spans == ()


def test_a_readme_link_to_its_license_lands_on_the_file_name(tmp_path: Path) -> None:
    out = _translate(tmp_path, "readme.md", "## License\n\nMIT. See [LICENSE](LICENSE) for details.\n")
    assert "[LICENSE](LICENSE)" in out, out


def test_a_named_persons_age_in_words_is_an_age() -> None:
    """A story's "Emma was eleven." came back 艾玛是十一, the age lost; "It was eleven" is a time."""
    prep = prepare("Emma was eleven. She stood in the doorway.", 16, tgt_lang="zh", src_lang="en")
    assert [(s.text, s.output) for s in prep.masked.spans] == [("eleven", "十一岁")]
    prep = prepare("It was eleven.", 16, tgt_lang="zh", src_lang="en")
    assert all(not s.output.endswith("岁") for s in prep.masked.spans)


def test_a_floor_of_a_building_keeps_its_number() -> None:
    """三楼第二会议室 came back "The second conference room th floor", the 3 lost."""
    prep = prepare("会议在三楼第二会议室举行。", 16, tgt_lang="en", src_lang="zh")
    assert ("三楼", "3rd floor") in [(s.text, s.target) for s in prep.masked.spans]
    for text in ("他住在3号楼。", "我们在同一楼层。", "楼梯很窄。"):
        prep = prepare(text, 16, tgt_lang="en", src_lang="zh")
        assert all("floor" not in (s.target or "") for s in prep.masked.spans), text


def test_a_days_deadline_keeps_its_before() -> None:
    """12月1日前提交报告 came back "December 1 commits", the deadline lost."""
    prep = prepare("李娜负责整理反馈，12月1日前提交报告。", 16, tgt_lang="en", src_lang="zh")
    assert ("12月1日前", "by December 1") in [(s.text, s.target) for s in prep.masked.spans]
    prep = prepare("3月5日前往北京。", 16, tgt_lang="en", src_lang="zh")  # 前往: to go to
    assert ("3月5日", "March 5") in [(s.text, s.target) for s in prep.masked.spans]


def test_a_weekday_in_full_width_brackets_after_a_date_is_spaced_as_english() -> None:
    prep = prepare("时间：2025年11月24日（周一）", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("⦅1⦆( Monday)").text.endswith("November 24, 2025 (Monday)")


def test_the_attendees_label_of_minutes() -> None:
    prep = prepare("参会人员：王磊、赵鹏", 16, tgt_lang="en", src_lang="zh")
    assert prep.prefix.startswith("Present:") or (prep.copy or "").startswith("Present:")


def test_a_stage_direction_after_its_speaker_is_translated_on_its_own() -> None:
    """林晓雨：（放下杯子）我们谈谈吧。 came back "Lin Xiaoyu: Let's talk.", the direction lost."""
    text = "林晓雨：（放下杯子）我们谈谈吧。"
    pieces = [text[a:b] for a, b in split_dialogue(text, [(0, len(text))])]
    assert pieces == ["林晓雨：", "（放下杯子）", "我们谈谈吧。"]
    for kept in ("（1）请填写表格。", "参数：(int) 数量", "（还有 3.11.10 和 3.8.20） 将发出审计事件。"):
        assert split_dialogue(kept, [(0, len(kept))]) == [(0, len(kept))], kept
    assert prepare("DANNY:", 16, tgt_lang="zh", src_lang="en").copy == "DANNY："  # as the other speakers'


def test_an_amount_for_each_person_keeps_its_unit() -> None:
    prep = prepare("游览乐山大佛，门票80元/人。", 16, tgt_lang="en", src_lang="zh")
    found = [(s.text, s.target) for s in prep.masked.spans]
    assert ("80元/人", "80 yuan per person") in found and ("乐山大佛", "Leshan Giant Buddha") in found


def test_an_itinerarys_flight_keeps_its_airline_and_airports() -> None:
    prep = prepare("乘坐东方航空MU5401航班，08:35从上海虹桥机场起飞，11:50抵达成都天府国际机场。", 16,
                   tgt_lang="en", src_lang="zh")
    targets = [s.target for s in prep.masked.spans]
    for kept in ("China Eastern Airlines", "Hongqiao Airport", "Tianfu International Airport"):
        assert kept in targets
    assert [s.text for s in prep.masked.spans if s.target is None] == ["MU5401", "08:35", "11:50"]


def test_a_colon_after_a_bracket_gets_its_space() -> None:
    assert spaced_after_marks("The first day (March 12):Shanghai", "第一天（3月12日）：上海") == \
        "The first day (March 12): Shanghai"


def test_a_word_cut_in_two_is_caught_after_a_space_too() -> None:
    """"Deutsche Bahn" came back 后 utsche Bahn: the engine translates such a sentence again with the
    name kept; a source word copied after a space is no cut word."""
    assert half_translated("Deutsche Bahn suspended trains.", "后 utsche Bahn 停用了火车。") == {"Deutsche"}
    assert half_translated("Scroll with the mousewheel.", "通过鼠标 wheel 滚动。") == {"mousewheel"}
    assert half_translated("Run the subprocess module.", "运行 subprocess 模块。") == frozenset()


def test_a_chats_speakers_are_labels() -> None:
    """顾客：太好了 came back "Princesss. That's great"."""
    for source, label in (("顾客：太好了，需要我寄回去吗？", "Customer:"), ("客服：是的。", "Customer Service:")):
        prep = prepare(source, 16, tgt_lang="en", src_lang="zh")
        assert prep.prefix.startswith(label) or (prep.copy or "").startswith(label), source


def test_an_obituarys_family_is_counted() -> None:
    """"five grandchildren" came back 五千个孙子, five thousand grandchildren."""
    prep = prepare("She is survived by two daughters, five grandchildren and three great-grandchildren.", 16,
                   tgt_lang="zh", src_lang="en")
    assert [s.output for s in prep.masked.spans] == ["两个女儿", "五个孙辈", "三个曾孙辈"]


def test_at_a_clock_time_is_no_shang_after_it() -> None:
    prep = prepare("A memorial service will be held at 2 p.m. on Saturday.", 16, tgt_lang="zh", src_lang="en")
    # one span, the day first (星期六下午2点); English's "at" as 上 goes before a verb too (在星期六下午2点上举行)
    outputs = [s.output for s in prep.masked.spans]
    assert [o for o, s in zip(outputs, prep.masked.spans, strict=True) if s.kind != "phrase"] == ["星期六下午2点"]
    k, service = outputs.index("星期六下午2点") + 1, outputs.index("追悼会") + 1  # the service is a term
    assert prep.restore(f"⦅{service}⦆将在⦅{k}⦆上举行。").text == "追悼会将在星期六下午2点举行。"
    assert prep.restore(f"⦅{service}⦆将在⦅{k}⦆上。").text == "追悼会将在星期六下午2点。"


def test_a_notices_deadline_before_jiang_is_by() -> None:
    prep = prepare("请于3月31日前将论文全文发送至邮箱。", 16, tgt_lang="en", src_lang="zh")
    assert ("3月31日前", "by March 31") in [(s.text, s.target) for s in prep.masked.spans]
