"""English number words reach an en->zh model as the figure they are (doctrans.number_words)."""

from __future__ import annotations

import pytest

from doctrans import number_words
from doctrans.chinese_numerals import write_numeral
from doctrans.engine.protect import prepare
from doctrans.number_words import (
    find_clock_words,
    find_digit_ordinals,
    find_halves,
    find_number_words,
    find_recent_periods,
    find_shares,
    find_words_and_digits,
)
from doctrans.report import sentence_warnings
from doctrans.verbatim import Span


def rows() -> list[tuple[str, str]]:
    import re

    return re.findall(r"^\| (\S[^|]*?) +\| (\S[^|]*?) +\|$", number_words.__doc__ or "", re.M)[1:]


def test_the_docstring_table_is_parsed() -> None:
    assert len(rows()) == 22


@pytest.mark.parametrize(("source", "target"), rows())
def test_docstring_table_row(source: str, target: str) -> None:
    text = f"We counted {source} here."
    found = sorted(find_number_words(text, "en", "zh") + find_digit_ordinals(text, "en", "zh"), key=lambda s: s.start)
    assert (" · ".join(s.target or "" for s in found) or "(none)") == target


def test_chinese_numerals() -> None:
    assert [write_numeral(n) for n in (10, 15, 20, 99, 100, 105, 110, 200, 1000, 1050, 2300, 20000, 120005)] == [
        "十", "十五", "二十", "九十九", "一百", "一百零五", "一百一十", "两百", "一千", "一千零五十", "两千三百",
        "两万", "十二万零五"]
    assert write_numeral(2300, "ja") == "二千三百"


def test_only_english_into_chinese_or_japanese_and_never_inside_code() -> None:
    assert [s.target for s in find_number_words("Ten years", "en", "ja")] == ["十"]
    assert find_number_words("Ten years", "en", "de") == [] and find_number_words("Ten years", "zh", "en") == []
    prep = prepare("Call NamedInt('ten') or `ten` twenty times.", 16, tgt_lang="zh", src_lang="en")
    assert [s.output for s in prep.masked.spans] == ["NamedInt", "`ten`", "二十"]  # 'ten' quoted: a string


def test_the_engine_masks_the_figure_and_the_check_looks_for_it() -> None:
    """The en->zh model wrote 'Ten years ago' as 几年前 (a few years ago)."""
    prep = prepare("Ten years ago, twenty-five people and three million cars.", 16, tgt_lang="zh", src_lang="en")
    assert [s.output for s in prep.masked.spans] == ["十", "二十五", "300万"]
    assert prep.restore("⦅1⦆年前，⦅2⦆人和⦅3⦆辆车").text == "十年前，二十五人和300万辆车。"
    warnings = sentence_warnings("Ten years ago I left.", "几年前我离开了。", tgt_lang="zh", src_lang="en")
    assert [(w.problem, w.span) for w in warnings] == [("missing", "十")]


def test_years_and_ages_in_words() -> None:
    found = find_number_words("Born in nineteen eighty-four, a ten-year-old in twenty oh five, seven years old.",
                              "en", "zh")
    assert [(s.text, s.target) for s in found] == [("nineteen eighty-four", "1984年"), ("ten-year-old", "十岁"),
                                                   ("twenty oh five", "2005年"), ("seven years old", "七岁")]
    # Counts stay counts: two numbers side by side are a year only as teen/twenty + tens.
    assert [s.target for s in find_number_words("fifteen hundred dollars, nineteen people", "en", "zh")] == [
        "一千五百", "十九"]


@pytest.mark.parametrize(("text", "found"), [
    ("共有一百六十多名代表出席", [("一百六十多", "more than 160")]),
    ("第十四届全国人大在二十一世纪", [("第十四", "14th"), ("二十一世纪", "21st century")]),
    ("两万人，十五亿元，三千余人，三万零五百", [("两万", "20,000"), ("十五亿", "1.5 billion"), ("三千余", "over 3,000"),
                                              ("三万零五百", "30,500")]),
    # Words, not figures: very, the people, in case, by all means, ranges, "third party", a grade, hexadecimal.
    ("十分重要，老百姓，万一，千万不要，三四十个，十几个，第三方，三年级，三万五，十六进制", []),
    # A bare 十 before what it counts is ten; before anything else a word (十字路口, 十足), and
    # 十月/十点 belong to dates and times.
    ("十年前，十多个人等了十分钟，十余家", [("十", "10"), ("十多", "more than 10"), ("十", "10"), ("十余", "over 10")]),
    ("十字路口，信心十足，十月，十点，第十名", []),
])
def test_chinese_numerals_into_english_figures(text: str, found: list[tuple[str, str]]) -> None:
    spans = find_number_words(text, "zh", "en")
    assert [(s.text, s.target) for s in spans] == found
    assert find_number_words(text, "zh", "de") == []


def test_an_ordinal_the_model_built_wrong_is_written_as_english_writes_it() -> None:
    """zh->en wrote 比三楼还高 as "higher than the threeth floor" in a talk; a correct ordinal or
    another word in -th is never touched, and the fix is part of every English translation."""
    from doctrans.engine.protect import prepare
    from doctrans.number_words import proper_ordinals

    assert proper_ordinals("higher than the threeth floor") == "higher than the third floor"
    assert proper_ordinals("Twentyth time, oneth, nineth") == "Twentieth time, first, ninth"
    kept = "the fourth and the thirtieth month, a ninth of the width, Smith's tenth birth"
    assert proper_ordinals(kept) == kept
    prep = prepare("现在，它们已经长得比那层楼还高了。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("Now higher than the threeth floor.").text == "Now higher than the third floor."
    # The floor itself is a span now (doctrans.units: 三楼 -> 3rd floor), masked and restored.
    prep = prepare("现在，它们已经长得比三楼还高了。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("Now higher than the ⦅1⦆.").text == "Now higher than the 3rd floor."
    into_chinese = prepare("It is on the threeth floor.", 16, tgt_lang="zh", src_lang="en")
    assert "threeth" in into_chinese.restore("它在threeth层。").text  # only English output is corrected


@pytest.mark.parametrize(("text", "ages"), [
    ("He was about ten, thin, with his mother's dark eyes.", [("ten", "十岁")]),  # came back 他大约十
    ("I was seven when my father died.", [("seven", "七岁")]),
    ("She is twenty-five and lives in Rome.", [("twenty-five", "二十五岁")]),
    ("He's twelve.", [("twelve", "十二岁")]),
    ("He was ten minutes late.", []),  # a count of something
    ("It was ten.", []),  # a time, not a person
    ("Is she a doctor? She is one.", []),  # a pronoun
    ("They were ten.", []),  # how many they were
])
def test_a_persons_age_stated_without_years_old(text: str, ages: list[tuple[str, str]]) -> None:
    found = find_number_words(text, "en", "zh")
    assert [(s.text, s.target) for s in found if (s.target or "").endswith("岁")] == ages


@pytest.mark.parametrize(("source", "decoded", "expected"), [
    ("We celebrated our 10th anniversary.", "我们庆祝了⦅1⦆年。", "我们庆祝了10周年。"),  # 10周年年
    ("She finished 2nd in the race.", "她在比赛中获得⦅1⦆号。", "她在比赛中获得第2。"),  # 第2号
    ("On the 11th, he left.", "⦅1⦆号,他走了。", "11日，他走了。"),  # 11日号
])
def test_an_ordinal_comes_back_without_the_counter_the_model_added(source: str, decoded: str, expected: str) -> None:
    assert prepare(source, 16, tgt_lang="zh", src_lang="en").restore(decoded).text == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("他获得了第2名。", [("第2名", "2nd place")]),
    ("这是他第5次来中国。", [("第5次", "5th time")]),
    ("第3届大会", [("第3届", "3rd")]),  # 届 the span's: left to the model it came back "3rd th"
    ("第3季度营收增长5%。", [("第3季度", "Q3")]),
    ("第5季度", []),  # no such quarter
    ("第11名", [("第11名", "11th place")]),
    ("比赛第12分钟，日本队首开纪录。", [("第12分钟", "12th minute")]),  # came back "The 12 minutes"
    ("第3天，他们到了。", [("第3天", "3rd day")]),
])
def test_a_chinese_ordinal_in_digits_into_english(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_digit_ordinals(text, "zh", "en")] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("The company cut 1 in 10 jobs.", [("1 in 10", "十分之一")]),  # came back 1号10
    ("its highest level in four decades", [("four decades", "四十年")]),  # the decades had gone
    ("two decades ago", []),  # a time ago: find_number_words'
])
def test_shares_and_decades_go_with_the_figures(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_shares(text, "en", "zh")] == expected


def test_the_counter_the_model_wrote_after_a_measure_goes() -> None:
    prep = prepare("The store is 200 yards from the station.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("店里是⦅1⦆号。").text == "店里是200码。"


@pytest.mark.parametrize(("text", "expected"), [
    ("payable within thirty (30) days of the invoice", [("thirty (30) days", "三十（30）天")]),  # lost its days
    ("upon ninety (90) days' prior written notice", [("ninety (90) days'", "九十（90）天")]),  # stayed English
    ("an initial term of twenty-four (24) months.", [("twenty-four (24) months", "二十四（24）个月")]),
    ("within ten (10) business days", [("ten (10) business days", "十（10）个工作日")]),
    ("in two (2) copies", [("two (2)", "二（2）")]),
    ("thirty (40) days", []),  # the words must say the digits' value
])
def test_an_agreements_figure_in_words_and_digits(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_words_and_digits(text, "en", "zh")] == expected
    assert find_words_and_digits(text, "en", "ja") == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Over the last 12 months, prices rose 3%.", [("Over the last 12 months", "在过去12个月里")]),  # 超过了12个月
    ("checked your phone in the last ten minutes?", [("in the last ten minutes", "在过去十分钟里")]),  # 十分钟后
    ("It has hired 200 people over the past two years.", [("over the past two years", "在过去两年里")]),  # lost
    ("In the past decade, the city grew.", [("In the past decade", "在过去十年里")]),
    ("the last 2 decades", [("the last 2 decades", "过去20年")]),
    ("in the past few weeks", [("in the past few weeks", "在过去几周里")]),
    ("the last two years of the war", []),  # its final years
    ("the past years", []),  # how many is not said
])
def test_a_span_of_time_that_ends_now(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_recent_periods(text, "en", "zh")] == expected
    assert find_recent_periods(text, "en", "ja") == []


@pytest.mark.parametrize(("text", "expected"), [
    ("过去五年，公司收入翻了一番。", [("过去五年", "the past five years")]),
    ("近三年来，该市人口增长了12%。", [("近三年来", "over the past three years")]),  # came back "Three years"
    ("近十年来，城市发展很快。", [("近十年来", "over the past 10 years")]),  # came back "Almost 10"
    ("过去的一年里，我们很忙。", [("过去的一年里", "over the past year")]),
    ("他工作了近10年。", []),  # nearly ten years
    ("近日，公司发布公告。", []),
])
def test_a_span_of_time_that_ends_now_into_english(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_recent_periods(text, "zh", "en")] == expected


@pytest.mark.parametrize(("text", "src", "tgt", "expected"), [
    ("该公司计划在未来三年内投资50亿元。", "zh", "en", [("在未来三年内", "within the next three years")]),  # "in the
    # future 5 billion yuan years"
    ("未来12个月，价格将上涨。", "zh", "en", [("未来12个月", "the next 12 months")]),
    ("We will invest $5 billion over the next three years.", "en", "zh", [("over the next three years", "未来三年内")]),
    ("The next day he left.", "en", "zh", []),  # 第二天, not a span from now
])
def test_a_span_of_time_from_now(text: str, src: str, tgt: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_recent_periods(text, src, tgt)] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("会议持续了两个半小时。", [("两个半小时", "2.5 hours")]),  # came back "two hours"
    ("项目用了三年半。", [("三年半", "3.5 years")]),  # "three years"
    ("她走了半年。", [("半年", "half a year")]),  # "half years", "six years"
    ("2个半月", [("2个半月", "2.5 months")]),
    ("上半年营收增长，半年报显示。", []),  # the first half of a year, a semi-annual report
])
def test_a_time_and_a_half_into_english(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_halves(text, "zh", "en")] == expected
    assert find_halves(text, "zh", "ja") == []


@pytest.mark.parametrize(("text", "expected"), [
    ("火车晚点了一个多小时。", [("一个多小时", "more than an hour")]),  # came back "A lot of hours"
    ("他等了两个多月。", [("两个多月", "more than two months")]),
])
def test_more_than_a_count_of_time_into_english(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_halves(text, "zh", "en")] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("It was a quarter past nine when the phone rang.", [("a quarter past nine", "九点一刻")]),  # 九十四分之一
    ("half past six", [("half past six", "六点半")]),
    ("We arrived at twenty to five.", [("twenty to five", "四点四十分")]),
    ("at nine o'clock", [("nine o'clock", "九点")]),
    ("The odds were five to one.", []),  # no time of day
    # An hour after a verb of the day's times and "at" ("Eleanor woke at six" came back 在六岁的时候, at six
    # years old).
    ("Eleanor woke at six, as she always did.", [("at six", "六点")]),
    ("The shop opens at nine in the morning.", [("at nine in the morning", "早上九点")]),
    ("We met at eight sharp.", [("at eight sharp", "八点整")]),
    ("They got home at eleven at night.", [("at eleven at night", "晚上十一点")]),
    ("He left at six years old; the kids were at six schools.", []),
])
def test_a_time_of_day_in_words_into_chinese(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_clock_words(text, "en", "zh")] == expected
    assert find_clock_words(text, "zh", "en") == []


@pytest.mark.parametrize(("text", "written"), [
    # A contract's "one and a half percent (1.5%)" came back 1.5% (1.5%): the words as Chinese words.
    ("Interest accrues at one and a half percent (1.5%) per month.", "百分之一点五"),
    ("a fee of five percent (5%) of the price", "百分之五"),
    ("fifteen percent of users", "15%"),  # no figure after it: the figure
])
def test_a_percentage_in_words_before_its_figure_into_chinese(text: str, written: str) -> None:
    spans = [s for s in find_number_words(text, "en", "zh") if "percent" in s.text]
    assert [s.target for s in spans] == [written]


@pytest.mark.parametrize(("text", "found"), [
    # An Olympic final's report: "up to ninth place" left "ninth" in English, "had finished fourth at
    # the Tokyo Games" came back 完成第四次 (the fourth time).
    ("It moves the country up to ninth place in the medal table.", [("ninth place", "第九名")]),
    ("Rivers had finished fourth at the Tokyo Games.", [("finished fourth", "获得第四名")]),
    ("She came second.", [("came second", "获得第二名")]),
    ("Why did you go there in the first place?", []),  # to begin with
    ("She finished first reading the book.", []),
])
def test_a_place_in_a_ranking_in_words(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_number_words(text, "en", "zh")] == found


@pytest.mark.parametrize(("source", "decoded", "written"), [
    # A story's 十年没回来 came back "It's not back in 10", a subtitle's 二十五年 "25.": the years
    # the model dropped go back after the figure.
    ("十年没回来，街上的店铺都换了名字。", "It's not back in ⦅1⦆. The shops all changed names.",
     "It's not back in 10 years. The shops all changed names."),
    ("二十五年", "⦅1⦆.", "25 years."),
    ("我认识他十年了。", "I've known him for ⦅1⦆ years.", "I've known him for 10 years."),  # the model's
    ("十年前，我搬到了这里。", "⦅1⦆ years ago, I moved here.", "10 years ago, I moved here."),
    ("十年抚恤金", "⦅1⦆-shirt gold.", "10-shirt gold."),  # a word joined to the figure: not the place
])
def test_years_the_model_dropped_after_a_numeral_go_back(source: str, decoded: str, written: str) -> None:
    prep = prepare(source, 16, tgt_lang="en", src_lang="zh")
    assert prep.restore(decoded).text == written


def test_a_few_tens_of_years_are_decades_not_ten() -> None:
    # 也可能影响未来几十年 came back "the future 10 years".
    assert number_words.chinese_numerals("也可能影响未来几十年。") == []


def test_years_go_back_only_where_the_figure_is_the_numerals_alone() -> None:
    # 十个人等了十年: "10 people waited 10": which 10 is the years' cannot be told; left as written.
    prep = prepare("十个人等了十年。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("⦅1⦆ people waited ⦅2⦆.").text == "10 people waited 10."
    prep = prepare("他等了十年。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("He waited ⦅1⦆.").text == "He waited 10 years."


@pytest.mark.parametrize(("text", "span", "written"), [
    ("City have now won 11 of their last 12 league games.", "11 of their last 12 league games",
     "最近12场联赛比赛中的11场"),
    ("They lost three of their last five matches.", "three of their last five matches", "最近五场比赛中的三场"),
])
def test_a_teams_record_over_its_recent_games(text: str, span: str, written: str) -> None:
    """"won 11 of their last 12 league games" came back 11的最后一12联赛比赛."""
    assert [(s.text, s.target) for s in find_recent_periods(text, "en", "zh")] == [(span, written)]


def test_the_last_games_of_a_season_are_left_to_the_model() -> None:
    assert find_recent_periods("one of the last two games of the season", "en", "zh") == []


def test_a_votes_tally_in_words_into_chinese() -> None:
    """"passed the bill by a vote of 69 to 30" came back 由69投票的30组成 (composed of 30 of 69 votes)."""
    from doctrans.number_words import find_recent_periods
    found = find_recent_periods("It passed by a vote of 69 to 30, sending it on.", "en", "zh")
    assert [(s.text, s.target) for s in found] == [("by a vote of 69 to 30", "以69票对30票")]
    assert find_recent_periods("a vote of confidence in 2020", "en", "zh") == []


def test_an_events_edition_in_numerals_into_english() -> None:
    """第五届数字经济论坛 came back "the fifth digital economy", the forum gone with its edition."""
    from doctrans.engine.protect import prepare
    spans = prepare("共同参加第五届数字经济论坛。", 16, tgt_lang="en", src_lang="zh").masked.spans
    assert [(s.text, s.target) for s in spans] == [("第五届", "5th"), ("数字经济", "digital economy")]
    assert prepare("各位来宾、各位朋友：", 16, tgt_lang="en", src_lang="zh").copy == "Distinguished guests, friends:"


@pytest.mark.parametrize(("text", "expected"), [
    # A purifier's 整机保修两年 came back "Warranty on the whole unit years", the two gone.
    ("整机保修两年。", [("两年", "two years")]),
    ("项目为期三天，耗时三个多月。", [("三天", "three days"), ("三个多月", "more than three months")]),
    ("租期为两年，至少五分钟。", [("两年", "two years"), ("五分钟", "five minutes")]),
    ("延长两年后", [("两年后", "two years later")]),
    # A grade, an idiom, 一 (一年四季), a figure's part (十三天 is the model's), a period (每两年), a half.
    ("超过三年级，持续三天两头，为期一年，至少十三天，超过每两年，超过五个小时半。", []),
    # Dialogue's durations stay the model's.
    ("已经三天了，过五分钟再说吧。", []),
])
def test_a_duration_in_a_small_numeral_into_english(text: str, expected: list[tuple[str, str]]) -> None:
    from doctrans.number_words import chinese_durations

    assert [(s.text, s.target) for s in chinese_durations(text)] == expected


def test_a_small_duration_right_after_another_span_is_one_too() -> None:
    from doctrans.number_words import chinese_durations

    warranty = Span(0, 4, "整机保修", "phrase", "warranty on the whole unit")
    assert [(s.text, s.target) for s in chinese_durations("整机保修两年。", [warranty])] == [("两年", "two years")]
