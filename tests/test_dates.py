"""Calendar dates written the target language's way (doctrans.dates): the rules (parsed from the
module docstring's table), masking and restoration, and the check after translation."""

from __future__ import annotations

import re

import pytest

from doctrans import dates
from doctrans.dates import drop_repeated_units, find_dates
from doctrans.direction_terms import automatic_terms
from doctrans.engine.protect import prepare
from doctrans.glossary import Glossary
from doctrans.report import sentence_warnings


def docstring_table() -> list[tuple[str, str, str]]:
    rows = re.findall(r"^\| (\S[^|]*?) +\| (\S[^|]*?) +\| (\S[^|]*?) +\|$", dates.__doc__ or "", re.M)
    return [r for r in rows if r[0] != "source"]


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 40


@pytest.mark.parametrize(("source", "en", "zh"), docstring_table())
def test_docstring_table_row(source: str, en: str, zh: str) -> None:
    chinese = re.search("[\u4e00-\u9fff]", source)
    text = f"会议于{source}举行。" if chinese else f"The meeting was held on {source} in Geneva."
    for lang, want in (("en", en), ("zh", zh)):
        spans = find_dates(text, lang)
        if want == "(as written)":
            assert spans == [], (lang, spans)
            continue
        [span] = spans
        assert (span.text, span.target, span.kind) == (source, want, "date")
    assert find_dates(text, "de") == [] and find_dates(text, None) == []


def test_what_is_not_a_date() -> None:
    assert find_dates("2月30日和13月5日，13月很冷", "en") == []  # no such day or month
    assert find_dates("May we go? We may; the april showers", "zh") == []  # May alone, no capital
    # A month alone: 3月 and 9月份 (the model wrote 'Accustom 990'), September (it wrote '萨尔·斯伯特').
    assert [(s.text, s.target) for s in find_dates("3月很冷，9月份零售额增长", "en")] == [
        ("3月", "March"), ("9月份", "September")]
    assert [(s.text, s.target) for s in find_dates("Sales fell in September and on 3 March 2024.", "zh")] == [
        ("September", "9月"), ("3 March 2024", "2024年3月3日")]
    assert [s.target for s in find_dates("本书2024年3月出版", "ja")] == []  # Chinese into Japanese: as written
    assert [s.target for s in find_dates("on 3 March 2024", "ja")] == ["2024年3月3日"]


def test_a_date_is_masked_whole_and_restored_in_the_target_form() -> None:
    prep = prepare("会议于2024年3月15日在大厅举行。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "会议于⦅1⦆在大厅举行。"
    assert prep.restore("The meeting was held in the hall on ⦅1⦆.").text == \
        "The meeting was held in the hall on March 15, 2024."
    prep = prepare("The report was published on 2 October 2018.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "The report was published on ⦅1⦆."
    assert prep.restore("报告于⦅1⦆发布。").text == "报告于2018年10月2日发布。"
    # A user's glossary entry wins.
    glossary = Glossary.from_pairs([("2 October 2018", "二〇一八年十月二日")])
    prep = prepare("The report was published on 2 October 2018.", 16, glossary, tgt_lang="zh", src_lang="en")
    assert [s.output for s in prep.masked.spans] == ["二〇一八年十月二日"]


def test_the_check_looks_for_the_date_in_the_target_form() -> None:
    source = "报告发布于2018年10月2日。"
    assert sentence_warnings(source, "The report was released on October 2, 2018.", tgt_lang="en") == []
    [warning] = sentence_warnings(source, "The report was released on 2 2018.", tgt_lang="en")
    assert (warning.problem, warning.kind, warning.span) == ("missing", "date", "October 2, 2018")


def test_a_day_character_the_model_added_after_a_whole_date_is_dropped() -> None:
    prep = prepare("Sales fell sharply in December 2023.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("销售额在⦅1⦆日日大幅下降。").text == "销售额在2023年12月大幅下降。"
    assert prep.restore("⦅1⦆日日。").text == "2023年12月。"
    # Words that start with 日 stay.
    assert prep.restore("⦅1⦆日程已定。").text == "2023年12月日程已定。"
    prep = prepare("Talks began on 2 October 2018 in the capital.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("会谈于⦅1⦆日本首都开始。").text == "会谈于2018年10月2日日本首都开始。"


@pytest.mark.parametrize(("text", "found"), [
    ("The novel was published in 1952.", [("1952", "1952年")]),
    ("Sales in the fourth quarter of 2023 were high.", [("2023", "2023年")]),
    ("By 2030, the plan is done; from 2019 to 2021 and in the 1990s.",
     [("By 2030", "2030年前"), ("2019", "2019年"), ("2021", "2021年"), ("1990s", "1990年代")]),
    ("In 1984 he left.", [("1984", "1984年")]),
    ("in 2000 cases, 1952 people, page 2024 of the log", []),  # counts, not years
    ("It rose by 2000. A total of 1500 and up to 2000.", []),  # counts too
    ("from 2019 through 2021, between 2010 and 2020.", [("2019", "2019年"), ("2021", "2021年"), ("2010", "2010年"),
                                                         ("2020", "2020年")]),
    ("since March 2020.", [("March 2020", "2020年3月")]),  # the date wins over the year inside it
])
def test_years_and_decades_alone_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_dates(text, "zh")] == found
    assert find_dates(text, "en") == []


def test_a_year_unit_the_model_repeats_is_dropped() -> None:
    assert dates.drop_repeated_units("1952年年出版。", ["1952年"]) == "1952年出版。"
    assert dates.drop_repeated_units("1990年代年代的音乐", ["1990年代"]) == "1990年代的音乐"
    assert dates.drop_repeated_units("2024年的计划", ["2024年"]) == "2024年的计划"
    # "on the 12th" came back 12日年爱丁堡; 年会 (an annual meeting) is a word.
    assert dates.drop_repeated_units("他会在12日年爱丁堡的火车上", ["12日"]) == "他会在12日爱丁堡的火车上"
    assert dates.drop_repeated_units("在12日年会上", ["12日"]) == "在12日年会上"


def test_may_is_a_month_only_where_english_makes_it_one() -> None:
    assert [(s.text, s.target) for s in find_dates("It was published in May, from May to June.", "zh")] == [
        ("May", "5月"), ("May", "5月"), ("June", "6月")]
    assert find_dates("May I come in? You may go.", "zh") == []


def test_months_in_chinese_numerals() -> None:
    found = find_dates("那是十一月的一个寒冷的早晨，十二月三十一日和三月份；2024年五月。", "en")
    assert [(s.text, s.target) for s in found] == [("十一月", "November"), ("十二月三十一日", "December 31"),
                                                   ("三月份", "March"), ("2024年五月", "May 2024")]
    # The moon, "a month", "every month", no such month.
    assert find_dates("月亮和一个月，每月一次，二十二月", "en") == []


def test_a_span_of_days_into_chinese() -> None:
    # "at its Dec. 17-18 meeting" came back 在其12月17日-18会议上.
    found = find_dates("at its Dec. 17-18 meeting", "zh")
    assert [(s.text, s.target) for s in found] == [("Dec. 17-18", "12月17日至18日")]
    assert [s.target for s in find_dates("on March 3-5, 2025", "zh")] == ["2025年3月3日至5日"]
    assert find_dates("on Dec. 18-17", "zh") == []  # no span backwards: the figures stay as written


@pytest.mark.parametrize(("source", "decoded", "expected"), [
    # "In 2024," is the year, not its middle (年中): the model's 在…中 for "in".
    ("In 2024, we reduced our emissions by 18%.", "在⦅1⦆中,我们将⦅2⦆减少了⦅3⦆。", "在2024年，我们将排放减少了18%。"),
    ("Sales grew in 2023.", "销售额在⦅1⦆中增长。", "销售额在2023年中增长。"),  # 中 before a verb: left to the model
    ("In the middle of 2024, prices rose.", "在⦅1⦆中,价格上涨。", "在2024年中，价格上涨。"),
    ("In 2024, China grew.", "⦅1⦆中国增长了。", "2024年中国增长了。"),
])
def test_a_year_is_not_made_its_middle(source: str, decoded: str, expected: str) -> None:
    prep = prepare(source, 16, tgt_lang="zh", src_lang="en")
    assert prep.restore(decoded).text == expected


@pytest.mark.parametrize(("text", "found"), [
    ("Applications must be submitted no later than March 31.", [("no later than March 31", "不迟于3月31日")]),
    ("The offer is valid until March 31, 2026.", [("until March 31, 2026", "2026年3月31日之前")]),
    ("Pay by 15 April.", [("by 15 April", "4月15日前")]),
    ("It opened after May 5.", [("after May 5", "5月5日之后")]),
    ("Sales in March rose.", [("March", "3月")]),
    ("It was built before 2020.", [("2020", "2020年")]),  # a year alone is dates' own
    # ... but after "by" ("expected to carry 38,000 riders a day by 2035" came back without the by)
    ("It should carry 38,000 riders a day by 2035.", [("by 2035", "2035年前")]),
    ("Sales fell by 2000 units.", []),
    # An annual report's "by 30% by 2030 against a 2019 baseline" came back 30%的2030与2019基线.
    ("Cut emissions by 30% by 2030 against a 2019 baseline.",
     [("by 2030", "2030年前"), ("2019 baseline", "2019年基线")]),
    ("It rose in 2024 compared with 2023.", [("2024", "2024年"), ("2023", "2023年")]),
    ("Sales of 3,000 compared with 1500 units.", []),
])
def test_a_deadline_goes_with_its_date_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    # "no later than March 31" came back 3月31日后, after it
    assert [(s.text, s.target) for s in find_dates(text, "zh")] == found


def test_a_day_of_a_month_with_of_is_a_date() -> None:
    """"The meeting is on the 3rd of May at noon" came back 会议是在中午月3日: May gone."""
    assert [(s.text, s.target) for s in find_dates("on the 3rd of May at noon", "zh")] == [("3rd of May", "5月3日")]
    assert [s.text for s in find_dates("3 of May, one of 12 of March", "zh")] == ["March"]  # no ordinal: no day


@pytest.mark.parametrize(("text", "found"), [
    # 上世纪九十年代初 came back "in the 90 generation".
    ("该公司成立于上世纪九十年代初。", [("上世纪九十年代初", "the early 1990s")]),
    ("80年代末", [("80年代末", "the late 1980s")]),
    ("本世纪二十年代", [("本世纪二十年代", "the 2020s")]),
    ("七十年代中期的音乐", [("七十年代中期", "the mid-1970s")]),
    ("二十年代", []),  # the 1920s or the 2020s: without its century, the model's
])
def test_a_chinese_decade_is_the_decade_in_english(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_dates(text, "en")] == found


@pytest.mark.parametrize(("text", "found"), [
    # "an old song from the seventies" came back 七个 (seven).
    ("an old song from the seventies", [("the seventies", "七十年代")]),
    ("in the early nineties", [("the early nineties", "九十年代初")]),
    ("a woman in her seventies", []),  # an age, not a decade
])
def test_a_decade_in_words_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_dates(text, "zh")] == found


@pytest.mark.parametrize(("text", "found"), [
    # A railway's news: 11月26日上午，福厦高铁正式开通运营 came back "It's official at November 26", the
    # morning gone.
    ("11月26日上午，高铁正式开通。", [("11月26日上午", "the morning of November 26")]),
    ("2026年3月5日下午", [("2026年3月5日下午", "the afternoon of March 5, 2026")]),
    ("3月5日晚上8点开会", [("3月5日", "March 5")]),  # a clock time's: 8 p.m.
    ("11月上午", [("11月", "November")]),  # a month has no morning
])
def test_a_part_of_the_day_after_a_date(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_dates(text, "en")] == found


@pytest.mark.parametrize(("text", "found"), [
    # An interview's 2018年，我决定回国 came back "2018, I decided".
    ("2018年，我决定回国。", [("2018年", "in 2018")]),
    ("他说：2018年，我回国了。", [("2018年", "in 2018")]),
    ("他2018年回国。", [("2018年", "2018")]),
])
def test_a_year_that_opens_a_sentence_is_in_that_year(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_dates(text, "en")] == found


@pytest.mark.parametrize(("text", "found"), [
    # A biography's opening came back "(born 1961年6月14日)", the word left in English.
    ("Margaret Okafor (born 14 June 1961) is a chemist.", [("born 14 June 1961", "生于1961年6月14日")]),
    ("He was born in 1961 and died on March 3, 2020.", [("was born in 1961", "生于1961年"),
                                                        ("died on March 3, 2020", "卒于2020年3月3日")]),
    ("She was born in Enugu.", []),
])
def test_a_birth_or_a_death_goes_with_its_date_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_dates(text, "zh")] == found


@pytest.mark.parametrize(("text", "found"), [
    # A CV's "March 2021 – Present" came back 2021年3月 – 存在 ("exists").
    ("March 2021 – Present", [("March 2021 – Present", "2021年3月至今")]),
    ("2019 - present", [("2019 - present", "2019年至今")]),
    ("June 2017 – February 2021", [("June 2017 – February 2021", "2017年6月至2021年2月")]),
    ("Q3 2026 - June 1 deadline", [("June 1", "6月1日")]),
])
def test_a_range_of_dates_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_dates(text, "zh")] == found


def test_a_year_that_ends_a_cvs_line() -> None:
    """"M.S. in Statistics, University of Texas at Austin, 2017" came back 2017号 ("No. 2017"): the year
    after a comma at the line's end is a year, and a 号 the model writes after it goes."""
    assert [(s.text, s.target) for s in find_dates("University of Texas at Austin, 2017", "zh")] == [
        ("2017", "2017年")]
    assert find_dates("The total was 1,500, 2017 units", "zh") == []
    assert find_dates('"v2.1.0", 2024', "zh") == []  # code's arguments
    assert drop_repeated_units("得克萨斯大学2017年号", ["2017年"]) == "得克萨斯大学2017年"
    assert drop_repeated_units("2017年号称", ["2017年"]) == "2017年号称"  # 号称, a word


@pytest.mark.parametrize(("text", "span", "written"), [
    ("中国地震台网正式测定：12月1日14时37分在四川发生6.8级地震。", "12月1日14时37分", "2:37 p.m. on December 1"),
    ("2025年3月5日下午3点，大会开幕。", "2025年3月5日下午3点", "3 p.m. on March 5, 2025"),
])
def test_a_time_right_after_its_date_is_the_time_on_the_date(text: str, span: str, written: str) -> None:
    """12月1日14时37分 came back "December 1 2:37 p.m.", the two run together."""
    assert (span, written) in [(t.text, t.target) for t in automatic_terms(text, [], "zh", "en")]


def test_a_date_and_a_time_apart_stay_two() -> None:
    found = [(t.text, t.target) for t in automatic_terms("12月1日 14时", [], "zh", "en")]
    assert found == [("12月1日", "December 1"), ("14时", "2 p.m.")]


@pytest.mark.parametrize(("text", "span", "written"), [
    ("学校图书馆每周二、周四上午9:00—11:30开放。", "每周二、周四", "every Tuesday and Thursday"),
    ("每周一至周五营业", "每周一至周五", "every Monday to Friday"),
    ("每周一、三、五上课", "每周一、三、五", "every Monday, Wednesday and Friday"),
])
def test_the_weekdays_of_a_timetable(text: str, span: str, written: str) -> None:
    """A library's 每周二、周四…开放 came back "books and Thursday", Tuesday lost."""
    assert [(s.text, s.target) for s in find_dates(text, "en")] == [(span, written)]


@pytest.mark.parametrize("text", ["每周一次", "每周一开会", "每周一至三次", "每周一到两次"])
def test_once_a_week_is_no_timetable(text: str) -> None:
    assert find_dates(text, "en") == []


def test_a_range_of_days_with_their_weekdays() -> None:
    """A holiday notice's 1月1日（星期五）至3日（星期日） came back "January 1 (Friday) to 3 day (Sunday)"."""
    from doctrans.dates import find_dates
    text = "1月1日（星期五）至3日（星期日）放假，10月1日(周三)至7日放假"
    found = [(s.text, s.target) for s in find_dates(text, "en")]
    assert found == [("1月1日（星期五）至3日（星期日）", "January 1 (Friday) to January 3 (Sunday)"),
                     ("10月1日(周三)至7日", "October 1 (Wednesday) to October 7")]


@pytest.mark.parametrize(("text", "written"), [
    # "won a second term on Saturday" came back 在星期六上赢了: English's "on" as 上 after the weekday.
    ("在星期六上赢了", "在星期六赢了"),
    ("星期六上，他走了", "星期六，他走了"),
    # a word 上 starts is kept: going to work, a film's opening, the morning
    ("星期一上班", "星期一上班"),
    ("星期五上映", "星期五上映"),
    ("星期六上午开会", "星期六上午开会"),
])
def test_no_on_after_a_weekday(text: str, written: str) -> None:
    from doctrans.dates import no_on_after_weekday

    assert no_on_after_weekday(text, "It happened on Saturday.") == written
