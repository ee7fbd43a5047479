"""Measures and times of day (doctrans.units): ``15公里`` <-> ``15 km``, ``下午3点30分`` <->
``3:30 p.m.``, through masking, restoration and the check after translation."""

from __future__ import annotations

import re

import pytest

from doctrans import units
from doctrans.engine.protect import prepare
from doctrans.units import find_units, one_period
from tests.docstring_tables import three_column_rows


def docstring_table() -> list[tuple[str, str, str]]:
    return three_column_rows(units)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 75


@pytest.mark.parametrize(("source", "en", "zh"), docstring_table())
def test_docstring_table_row(source: str, en: str, zh: str) -> None:
    chinese_source = bool(re.search(r"[\u4e00-\u9fff]", source))
    text = f"记录为{source}。" if chinese_source else f"It was {source} then."
    if en == zh == "(as written)":  # a symbol both languages write alike: one span either way
        for tgt in ("en", "zh"):
            assert [(s.text, s.target) for s in find_units(text, tgt)] == [(source, None)]
        return
    [span] = find_units(text, "en" if chinese_source else "zh")
    assert (span.text, span.target) == (source, en if chinese_source else zh)
    assert find_units(text, "zh" if chinese_source else "en") == []


@pytest.mark.parametrize(("text", "tgt"), [
    ("他吃了3碗米饭，3克服了困难。", "en"),  # 米饭 is rice, 克服 "overcome"
    ("He ran 3 laps on 5G with 5M users, 5 in all.", "zh"),
    ("It ended at 13 pm.", "zh"),  # no such time
    ("It is 15 km long.", "de"),  # only English and Chinese targets
    ("Press Ctrl+MS to open MB2 or 5MBs.", "zh"),  # no figure before, or more letters after
    ("In the 1990s, in her 30s, the mid-70s.", "zh"),  # decades, not seconds
    ("他提出了十点建议，收到三点意见，第三点。", "en"),  # points of a list, not times of day
    ("跑了三四公里，第三公里，他身高一米八，统一米价，一升一降。", "en"),  # a range, an ordinal, a height, words
    ("He stood on two feet and turned ninety degrees; one m.", "zh"),  # feet, an angle, a symbol after words
])
def test_what_is_not_a_measure(text: str, tgt: str) -> None:
    assert find_units(text, tgt) == []


def test_a_measure_and_a_time_reach_the_output_whole() -> None:
    prep = prepare("全长15公里，会议于下午3点30分开始。", 16, tgt_lang="en", src_lang="zh")
    # (全长 is a report term: "has a total length of"; the model wrote "all long 277.4 km")
    assert prep.model_text == "⦅1⦆⦅2⦆，会议于⦅3⦆开始。"
    # The time's own period and the sentence's are one.
    assert prep.restore("It ⦅1⦆ ⦅2⦆ and the meeting starts at ⦅3⦆.").text == \
        "It has a total length of 15 km and the meeting starts at 3:30 p.m."
    chinese = prepare("The road is 15 km long.", 16, tgt_lang="zh", src_lang="en")
    assert chinese.restore("这条路长⦅1⦆").text == "这条路长15公里。"


def test_a_unit_the_model_wrote_again_after_a_restored_measure_goes() -> None:
    age = prepare("When I was 8 years old, she taught me.", 16, tgt_lang="zh", src_lang="en")
    assert age.restore("当我⦅1⦆岁时，她教我。").text == "当我8岁时，她教我。"  # 8岁岁时
    road = prepare("It is 15 km long.", 16, tgt_lang="zh", src_lang="en")
    assert road.restore("它长⦅1⦆公里").text == "它长15公里。"
    assert road.restore("它长⦅1⦆里").text == "它长15公里。"
    assert road.restore("它长⦅1⦆里程").text == "它长15公里里程。"  # 里程: a word, not the unit again
    years = prepare("It happened 5 years ago.", 16, tgt_lang="zh", src_lang="en")
    assert years.restore("⦅1⦆年前的事了。").text == "5年前的事了。"  # 5年年前
    assert years.restore("⦅1⦆年底的事了。").text == "5年年底的事了。"  # 年底 is a word: left
    first = prepare("For the first time in 20 years, the river froze.", 16, tgt_lang="zh", src_lang="en")
    assert first.restore("⦅1⦆年第一次，河结冰了。").text == "20年第一次，河结冰了。"  # 20年年第一次
    money = prepare("Sales were 3 million dollars.", 16, tgt_lang="zh", src_lang="en")
    assert money.restore("销售额为⦅1⦆美元。").text == "销售额为300万美元。"
    # Into English the unit's word.
    english = prepare("这条路长15公里，收入1.25亿元。", 16, tgt_lang="en", src_lang="zh")
    assert english.restore("It is ⦅1⦆ km long, revenue ⦅2⦆ yuan.").text == (
        "It is 15 km long, revenue 125 million yuan.")
    assert english.restore("It is ⦅1⦆ kmh long, revenue ⦅2⦆.").text == "It is 15 km kmh long, revenue 125 million yuan."


@pytest.mark.parametrize(("text", "expected"), [
    ("We met at 3:30 p.m..", "We met at 3:30 p.m."),
    ("Party A: Beijing Wallace Co., Ltd..", "Party A: Beijing Wallace Co., Ltd."),  # the deep model's, stop 36
    ("Apples, pears, etc..", "Apples, pears, etc."),
    ("Acme Inc.. It grew.", "Acme Inc. It grew."),
    ("Wait for it, Ltd...", "Wait for it, Ltd..."),  # an ellipsis stays
    ("See fig.. 3", "See fig.. 3"),  # not an abbreviation the spans end with
])
def test_an_abbreviations_period_and_the_sentences_are_one(text: str, expected: str) -> None:
    assert one_period(text) == expected


@pytest.mark.parametrize(("text", "written", "expected"), [
    ("她波兰岁在1931年岁的时候", ["波兰", "1931年"], "她波兰在1931年的时候"),  # the GPU model's, stop 36
    ("我女儿现在8岁。", ["8"], "我女儿现在8岁。"),  # after a figure 岁 is an age
    ("中国万岁", ["中国"], "中国万岁"),  # "long live": not the span followed by 岁
])
def test_years_of_age_follow_a_figure_never_a_name_or_a_date(text: str, written: list[str], expected: str) -> None:
    assert units.no_age_after_a_name(text, written) == expected


def test_a_place_and_a_year_masked_in_one_sentence_come_back_without_an_age() -> None:
    prep = prepare("She was born in Poland in 1931, and she never went to school.", 16, tgt_lang="zh",
                   src_lang="en")
    assert prep.model_text == "She was born in ⦅1⦆ in ⦅2⦆, and she never went to school."
    assert prep.restore("她⦅1⦆岁在⦅2⦆岁的时候，她从没去上学。").text == "她波兰在1931年的时候，她从没去上学。"
    assert prepare("My daughter is 8 now.", 16, tgt_lang="zh", src_lang="en").restore("我女儿现在⦅1⦆岁。").text \
        == "我女儿现在8岁。"


def test_minutes_after_hours_are_no_metres() -> None:
    """libtasn1's manual: "at 12h 00m 01.12s Pacific Daylight Time" came back "12h 00米" in Chinese."""
    assert [(s.text, s.target) for s in find_units("at 12h 00m 01.12s Pacific Daylight Time", "zh")] == \
        [("12h 00m 01.12s", None)]  # one time, as written
    assert [s.text for s in find_units("a 1h30m run", "zh")] == ["1h30m"]
    assert [s.target for s in find_units("the 12h shift needs 5 m of cable", "zh")] == [None, "5米"]


def test_a_time_of_day_without_its_period_where_the_text_says_it_is_one() -> None:
    """A story's 十点过后 came back "After ten points", a meeting's 于三点开始 "with three points"."""
    found = [(s.text, s.target) for s in find_units("会议将于三点开始，从四点到五点半，火车七点前到站。", "en")]
    assert found == [("三点", "3 o'clock"), ("四点", "4 o'clock"), ("五点半", "5:30"), ("七点前", "before 7 o'clock")]
    assert [s.target for s in find_units("他每天晚上十一点钟睡觉。", "en")] == ["11 p.m."]
    assert [s.target for s in find_units("她晚上还要批改作业到十一点。", "en")] == ["11 o'clock"]


@pytest.mark.parametrize(("text", "written", "expected"), [
    ("股市号头骨折了。", ["股市"], "股市头骨折了。"),  # "The stock market fell sharply", the en->zh model's
    ("洪水年杀了12个人。", ["洪水"], "洪水杀了12个人。"),
    ("德国年在2023年增长。", ["德国", "2023年"], "德国在2023年增长。"),  # a figure's 年 stays
    ("山火年度报告", ["山火"], "山火年度报告"),  # 年度 is a word
])
def test_no_number_word_after_a_term(text: str, written: list[str], expected: str) -> None:
    assert units.no_counter_after(text, written, "号年") == expected


def test_the_sources_own_year_after_a_term_stays() -> None:
    prep = prepare("It is an election year.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("这是⦅1⦆年。").text == "这是选举年。"
    fell = prepare("The stock market fell.", 16, tgt_lang="zh", src_lang="en")
    assert fell.restore("⦅1⦆号下跌。").text == "股市下跌。"
    monday = prepare("On the first Monday of October, a car stopped.", 16, tgt_lang="zh", src_lang="en")
    assert monday.restore("⦅1⦆号，一辆车停了。").text == "10月的第一个星期一，一辆车停了。"


def test_no_years_the_source_does_not_count() -> None:
    """"18,450 employees in 27 countries" came back 在27年内 (in 27 years)."""
    staff = prepare("The company had 18,450 employees in 27 countries.", 16, tgt_lang="zh", src_lang="en")
    # The counts with their counters (doctrans.counted_nouns), the 年 and the noun written again gone.
    assert staff.restore("公司在⦅2⦆年内有⦅1⦆员工。").text == "公司在27个国家内有18,450名员工。"
    staff = prepare("The company had 18,450 staff in 27 offices.", 16, tgt_lang="zh", src_lang="en")
    assert staff.restore("公司在⦅2⦆年办事处有⦅1⦆员工。").text == "公司在27办事处有18,450员工。"
    assert units.no_counter_after("在2027年和27年代", ["27"], "年") == "在2027年和27年代"  # another figure; a decade
    more = prepare("It took 3 more years.", 16, tgt_lang="zh", src_lang="en")
    assert more.restore("又花了⦅1⦆年。").text == "又花了3年。"  # the source's years
    sales = prepare("Sales grew in 2023 and 2024.", 16, tgt_lang="zh", src_lang="en")
    assert sales.restore("销售额在⦅1⦆和⦅2⦆年增长。").text == "销售额在2023年和2024年增长。"  # a calendar year
    growth = prepare("We expect volumes to grow by 5% in 9 days.", 16, tgt_lang="zh", src_lang="en")
    assert growth.restore("我们预计⦅1⦆年在⦅2⦆年增长。").text == "我们预计5%在9天增长。"
    rate = prepare("A 5% annual increase.", 16, tgt_lang="zh", src_lang="en")
    assert rate.restore("⦅1⦆年增长。").text == "5%年增长。"


@pytest.mark.parametrize(("text", "ages"), [
    ('"Never," said Maria Rossi, 67, who has run a café for 30 years.', ["67岁"]),
    ("Tom, 12, and Ann, 14, were there.", ["12岁", "14岁"]),
    ("He thanked John Smith, 45.", ["45岁"]),
    ("Rossi, 67; Bianchi, 70.", ["67岁", "70岁"]),
    ("On May 5, 12 people died.", []),  # a date, then a count
    ("See Chapter Two, 12, 14.", []),  # numbers of a list
    ("Yes, 12.", []),
    ("In London, 12 people died.", []),  # a noun follows: a count
    ("Smith, 145, said.", []),  # no one is 145
])
def test_a_persons_age_after_their_name_as_news_writes_it(text: str, ages: list[str]) -> None:
    assert [s.output for s in find_units(text, "zh") if s.output.endswith("岁")] == ages


def test_an_age_the_model_took_for_a_number_loses_its_number_sign() -> None:
    prep = prepare('"Never," said Maria Rossi, 67, who runs a café.', 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("“从不，”玛利亚·罗西⦅1⦆号说，她经营一家咖啡馆。").text == \
        "“从不，”玛利亚·罗西67岁说，她经营一家咖啡馆。"


@pytest.mark.parametrize(("text", "tgt", "outputs"), [
    ("邮轮总吨位为13.55万吨。", "en", ["135,500 t"]),  # came back "Cruise ship is always 135,500"
    ("年产量达500万吨，面积960万平方公里。", "en", ["5 million t", "9.6 million km²"]),
    ("The mine produced 5 million tonnes and 1.2 billion litres.", "zh", ["500万吨", "12亿升"]),
    ("销售3万件，5万米饭。", "en", []),  # 件 is no measure; 米饭 is rice
    ("5 million people", "zh", []),
])
def test_a_measure_with_a_magnitude_is_one_span(text: str, tgt: str, outputs: list[str]) -> None:
    assert [s.output for s in units.find_large_measures(text, tgt)] == outputs


def test_a_large_measure_reaches_the_output_with_its_unit() -> None:
    prep = prepare("邮轮总吨位为13.55万吨。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("The cruise ship's gross tonnage is ⦅2⦆.").text.endswith("is 135,500 t.")


@pytest.mark.parametrize(("text", "ages"), [
    ("28岁", ["28 years old"]),  # a table's cell: it came back "28."
    (" 1岁 ", ["1 year old"]),
    ("一名28岁的男子被送往医院。", ["28-year-old"]),
    ("他今年28岁。", []),  # in a sentence the model writes it ("He's 28.")
    ("第28岁", []),
])
def test_an_age_alone_or_before_a_noun_into_english(text: str, ages: list[str]) -> None:
    assert [s.target for s in find_units(text, "en") if "year" in (s.target or "")] == ages


def test_minus_before_another_measure_is_a_minus_sign() -> None:
    # Only a temperature below zero is 零下; "minus 5 m" had come back "minus 5米".
    assert [(s.text, s.target) for s in find_units("The lake is minus 5 m below the marker.", "zh")] == [
        ("minus 5 m", "-5米")]


@pytest.mark.parametrize(("text", "found"), [
    ("Temperatures will drop to minus 10 degrees overnight.", [("minus 10 degrees", "零下10度")]),  # 降到10度
    ("The low tonight will be -10 degrees.", [("-10 degrees", "零下10度")]),
    ("Tilt the panel to a -3 degree angle.", []),  # an angle
])
def test_a_signed_figure_of_degrees_keeps_its_sign_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh") if "度" in (s.target or "")] == found


@pytest.mark.parametrize(("text", "tgt", "found"), [
    ("工厂离家有十二公里。", "en", [("十二公里", "12 km")]),
    ("他跑了三公里，又走了一千五百米。", "en", [("三公里", "3 km"), ("一千五百米", "1,500 m")]),
    ("十千米赛跑，十多公里，一英里。", "en",
     [("十千米", "10 km"), ("十多公里", "more than 10 km"), ("一英里", "1 mile")]),
    ("明天最低气温零下十二度。", "en", [("零下十二度", "minus 12 degrees")]),
    ("He ran three kilometres, then a two-mile walk.", "zh", [("three kilometres", "三公里"), ("two-mile", "两英里")]),
    ("It was minus ten degrees Celsius.", "zh", [("minus ten degrees Celsius", "零下十摄氏度")]),
])
def test_a_measure_whose_figure_is_written_in_words(text: str, tgt: str, found: list[tuple[str, str]]) -> None:
    """A story's 工厂离家有十二公里 came back "12 miles" and "He ran three kilometres" 三个基因 (three
    genes): the numeral was a figure or a word, the unit the model's."""
    assert [(s.text, s.target) for s in find_units(text, tgt)] == found


def test_a_measure_in_numerals_reaches_the_output_with_its_unit() -> None:
    prep = prepare("工厂离家有十二公里。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "工厂离家有⦅1⦆。"
    assert prep.restore("The factory is ⦅1⦆ from home.").text == "The factory is 12 km from home."
    chinese = prepare("The town is twelve miles away.", 16, tgt_lang="zh", src_lang="en")
    assert chinese.restore("小镇在⦅1⦆以外").text == "小镇在十二英里以外。"


@pytest.mark.parametrize(("text", "found"), [
    # "no more than four hours per month" came back without its four hours; "forty-eight hours'
    # notice" 四十八客户小时.
    ("for no more than four hours per month, with at least forty-eight hours' notice.",
     [("no more than four hours per month", "每月不超过四小时"), ("at least forty-eight hours'", "至少四十八小时")]),
    # Alone the numeral is number_words' figure and the unit the model's ("had known Peter for twenty-two
    # years" came back 二十二年他认识彼得 as one span).
    ("It took about twenty minutes, then fifteen minutes more.",
     [("about twenty minutes", "约二十分钟"), ("fifteen", "十五")]),
    # Below ten alone, a time ago, an age, one day and a war's name stay the model's (or the
    # number words').
    ("It hasn't been locked in five years. One day, two years ago, a two-year-old.",
     [("two years ago", "两年前"), ("two-year-old", "两岁")]),
    ("The Seven Years' War.", []),
])
def test_a_duration_in_english_words_keeps_its_figure(text: str, found: list[tuple[str, str]]) -> None:
    from doctrans.direction_terms import automatic_terms

    assert [(t.text, t.target) for t in automatic_terms(text, [], "en", "zh")] == found


def test_a_qualifier_before_a_measure_in_chinese_numerals_is_kept() -> None:
    """A talk's 我住在一间不到十平方米的地下室里 came back "a 10 m² basement": 不到 (less than) lost."""
    from doctrans.direction_terms import automatic_terms

    assert [(t.text, t.target) for t in automatic_terms("我住在一间不到十平方米的地下室里。", [], "zh", "en")] == \
        [("不到十平方米", "less than 10 m²")]


def test_dimensions_with_by_are_one_measure() -> None:
    """"measures 9.7 by 6.8 inches" came back 以6.8英寸测量9.7: the first figure apart from its unit."""
    assert [(s.text, s.target) for s in find_units("It measures 9.7 by 6.8 inches.", "zh")] == \
        [("9.7 by 6.8 inches", "9.7×6.8英寸")]


@pytest.mark.parametrize(("text", "found"), [
    # 60岁以上老人占21.3% came back "where 60 is older than 21.3%", and with the bound alone
    # "aged 60 and over s".
    ("其中60岁以上老人占21.3%。", [("60岁以上老人", "people aged 60 and over")]),
    ("18岁以下的儿童免费。", [("18岁以下的儿童", "children under 18")]),
    ("65岁及以上人口比重上升。", [("65岁及以上人口", "the population aged 65 and over")]),
    ("18岁以下不得入内。", [("18岁以下", "under 18")]),
])
def test_an_age_as_a_bound_with_the_people_it_counts(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "en")] == found


@pytest.mark.parametrize(("text", "found"), [
    # "£20 for children under 12" came back 20英镑用于子节点不到12: child nodes, and no age.
    ("Tickets cost £20 for children under 12.", [("children under 12", "12岁以下儿童")]),
    # A museum's "free for visitors over 65" came back 访问超过65.
    ("Admission is free for visitors over 65.", [("visitors over 65", "65岁以上的游客")]),
    ("People over 65 get a discount.", [("People over 65", "65岁以上的人")]),
    ("For children under 5 years old.", [("children under 5 years old", "5岁以下儿童")]),
    ("Adults over 50 kg, people over 100 percent.", [("50 kg", "50公斤")]),  # a weight, a share: no age
])
def test_people_under_or_over_an_age_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh")] == found


def test_no_classifier_after_a_measure_nor_year_after_an_age() -> None:
    """"up to 8 inches of rain" came back 最多8英寸个雨; "Mr. Tanaka, 58, joined…" 58岁年2019年."""
    rain = prepare("The storm will bring up to 8 inches of rain by Sunday night.", 16, tgt_lang="zh", src_lang="en")
    assert rain.restore("暴风雨将在⦅2⦆带来⦅1⦆个雨").text == "暴风雨将在星期日带来最多8英寸雨。"
    age = prepare("Mr. Tanaka, 58, joined the board in 2019.", 16, tgt_lang="zh", src_lang="en")
    assert age.restore("坦纳卡先生⦅1⦆年⦅2⦆加入董事会").text == "坦纳卡先生58岁2019年加入董事会。"
    young = prepare("A 20-year-old man.", 16, tgt_lang="zh", src_lang="en")
    assert young.restore("⦅1⦆年轻人").text == "20岁年轻人。"


@pytest.mark.parametrize(("text", "found"), [
    # A leaflet's "children aged 16 years and over" came back 孩子年龄的16年及以上, a trial's
    # "participants aged 65 to 80 years" 年龄的65到80年, "over the age of 60" lost its bound.
    ("Adults and children aged 16 years and over: take 1 or 2 tablets.",
     [("children aged 16 years and over", "16岁及以上儿童")]),
    ("Adults aged 65 or older.", [("Adults aged 65 or older", "65岁及以上的成年人")]),
    ("We enrolled participants aged 65 to 80 years.", [("aged 65 to 80 years", "65至80岁")]),
    ("Voters aged 18-24 stayed at home.", [("aged 18-24", "18至24岁")]),
    ("a man aged 45, who lives alone", [("aged 45", "45岁")]),
    ("Adults over the age of 60.", [("over the age of 60", "60岁以上")]),
    ("She retired at the age of 62.", [("the age of 62", "62岁")]),
    ("He is 12 years of age.", [("12 years of age", "12岁")]),
    ("babies aged 6 months", [("6 months", "6个月")]),  # months are no years of age
])
def test_an_age_after_aged_or_the_age_of_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh")] == found


def test_an_age_bound_and_its_years_are_one_span() -> None:
    """"Do not give to children under 10 years of age" was masked as ``⦅1⦆⦅2⦆`` (the bound, and its
    "10 years" a duration inside it) and came back 不要给10岁以下儿童 10年."""
    p = prepare("Do not give to children under 10 years of age.", 16, tgt_lang="zh", src_lang="en")
    assert p.model_text == "Do not give to ⦅1⦆."
    assert [(s.text, s.target) for s in p.masked.spans] == [("children under 10 years of age", "10岁以下儿童")]


@pytest.mark.parametrize(("text", "found"), [
    # A forecast's "highs of 8 to 10°C" came back 8的高于10摄氏度: the range broken.
    ("Highs of 8 to 10°C.", [("8 to 10°C", "8摄氏度至10摄氏度")]),
    ("Highs of 8–10 °C.", [("8–10 °C", "8摄氏度至10摄氏度")]),
    ("Bags of 5-10 kg.", [("5-10 kg", "5公斤至10公斤")]),
    ("It weighs between 5 and 10 kg.", [("5 and 10 kg", "5公斤至10公斤")]),
    ("Take 5 and 10 kg bags.", [("10 kg", "10公斤")]),  # two figures, no range
    ("The water rose from 8 to 10°C.", [("10°C", "10摄氏度")]),  # a change, no range
])
def test_a_range_whose_unit_comes_once_is_one_span(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh")] == found


@pytest.mark.parametrize(("text", "found"), [
    # A leaflet's "take 1 tablet every 4 to 6 hours" came back 每1 4至6小时表, then 4转换为6小时.
    ("Take 1 tablet every 4 to 6 hours.", [("4 to 6 hours", "4至6小时")]),
    ("Bake for 45–50 minutes.", [("45–50 minutes", "45至50分钟")]),
    ("It takes between 2 and 3 days.", [("2 and 3 days", "2至3天")]),
    ("It takes 2 and 3 days.", [("3 days", "3天")]),  # two figures, no range
    ("Shifts grew from 4 to 6 hours.", [("6 hours", "6小时")]),  # a change, no range
])
def test_a_range_of_durations_is_one_span(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh")] == found


@pytest.mark.parametrize(("text", "found"), [
    # A leaflet's 一日2次 came back "one day 2", and 一次1粒 "A grown-up 1 granular": the dose too.
    ("成人一次1粒，一日2次。", [("一次1粒", "1 capsule at a time"), ("一日2次", "twice a day")]),
    ("每天三次，每次一片。", [("每天三次", "three times a day"), ("每次一片", "1 tablet at a time")]),
    ("每次1～2袋，一次半片，每次3滴", [("每次1～2袋", "1-2 sachets at a time"), ("一次半片", "half a tablet at a time"),
                               ("每次3滴", "3 drops at a time")]),
    ("一次3剂。每片含0.2克。", [("0.2克", "0.2 g")]),  # a count of doses, a tablet's strength
    ("每年一次体检。", [("每年一次", "once a year")]),
    ("第一日2次", []),  # the first day's, no frequency
])
def test_how_often_per_period_into_english(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "en")] == found


@pytest.mark.parametrize(("text", "found"), [
    # A forecast's 南风二级左右 came back "southern two-degrees", 4到5级偏北风 "4 to 5-level preferences".
    # ... and its direction with it, one span (北风二三级 came back "northern force 2 to 3").
    ("北转南风二三级。", [("北转南风二三级", "north wind turning south, force 2 to 3")]),
    ("南风二级左右。", [("南风二级左右", "south wind of about force 2")]),
    ("北风三四级，阵风六级左右。", [("北风三四级", "north wind force 3 to 4"),
                                  ("阵风六级左右", "gusts of about force 6")]),
    ("偏北风4到5级。", [("偏北风4到5级", "northerly wind force 4 to 5")]),
    ("将有4到5级偏北风，阵风可达7级。", [("4到5级", "force 4 to 5"), ("阵风可达7级", "gusts of up to force 7")]),
    ("启动一级响应。", []),  # a level of response, no wind
])
def test_a_winds_force_into_english(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "en")] == found


def test_a_chinese_forecast_keeps_its_terms_forces_and_signs() -> None:
    """北转南风二三级，最低气温零下3℃ came back "northern three-degrees, lowest temperatures, -3 °C"
    and, with the terms masked, "minimum temperature-3 °C" (no space before the sign)."""
    p = prepare("今天夜间：晴转多云，北转南风二三级，最低气温零下3℃。", 16, tgt_lang="en", src_lang="zh")
    assert [s.target for s in p.masked.spans] == ["sunny becoming cloudy", "north wind turning south, force 2 to 3",
                                                  "minimum temperature", "-3 °C"]
    assert p.restore("Tonight: ⦅1⦆, ⦅2⦆, ⦅3⦆⦅4⦆.").text == \
        "Tonight: sunny becoming cloudy, north wind turning south, force 2 to 3, minimum temperature -3 °C."


@pytest.mark.parametrize(("text", "found"), [
    # A charity's "a 10,000-litre tank" came back 10,000铲酮.
    ("a solar pump and a 10,000-litre tank", [("10,000-litre", "10,000升")]),
    ("a 5-kilometre walk", [("5-kilometre", "5公里")]),
    ("a 3-metre-long snake", []),  # the hyphen goes on: the model's
])
def test_a_measure_as_a_compound_adjective_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh")] == found


@pytest.mark.parametrize(("text", "found"), [
    # A statistics release's 全年粮食产量13908亿斤 left 斤 to the model.
    ("全年粮食产量13908亿斤。", [("13908亿斤", "1.3908 trillion jin")]),
    ("买了5斤苹果。", [("5斤", "5 jin")]),
    ("四两拨千斤，千斤顶。", []),  # an idiom, a jack
])
def test_jin_into_english(text: str, found: list[tuple[str, str]]) -> None:
    spans = find_units(text, "en") + units.find_large_measures(text, "en")
    assert [(s.text, s.target) for s in spans] == found


def test_person_times_are_visits_into_english() -> None:
    """接待游客1712.3万人次 came back "17.123 million people", 超过1700万人次 "more than 17 million times
    for the military"."""
    spans = find_units("服务500人次。", "en") + units.find_large_measures("游客1712.3万人次。", "en")
    assert [(s.text, s.target) for s in spans] == [("500人次", "500 visits"), ("1712.3万人次", "17.123 million visits")]


def test_sizes_spelt_out_are_written_with_their_symbol() -> None:
    """A man page's "10 megabytes per second" came back 每秒10 megabytes."""
    found = find_units("Limit it to 10 megabytes per second for a 4-gigabyte file.", "zh")
    assert [(s.text, s.target) for s in found] == [("10 megabytes", "10MB"), ("4-gigabyte", "4GB")]


def test_a_chips_process_in_nanometres() -> None:
    """"built on a 3-nanometre process" kept its unit in English; 3纳米工艺 is a 3 nm process."""
    assert [(s.text, s.target) for s in find_units("a 3-nanometre process", "zh")] == [("3-nanometre", "3纳米")]
    assert [(s.text, s.target) for s in find_units("采用3纳米工艺", "en")] == [("3纳米", "3 nm")]


@pytest.mark.parametrize(("text", "tgt", "found"), [
    # A battery maker's press release: "1,250 megawatt-hours of storage" came back 1,250辅助工具
    # ("auxiliary tools"), "640 megawatt-hours" 640 megawatt 小时.
    ("installed 1,250 megawatt-hours of storage, double the 640 MWh of 2025", "zh",
     [("1,250 megawatt-hours", "1,250兆瓦时"), ("640 MWh", "640兆瓦时")]),
    ("a 2.4-gigawatt plant made 5 TWh and 300 kilowatt hours", "zh",
     [("2.4-gigawatt", "2.4吉瓦"), ("5 TWh", "5太瓦时"), ("300 kilowatt hours", "300千瓦时")]),
    ("发电量1.2万兆瓦时，装机容量3吉瓦。", "en", [("3吉瓦", "3 GW")]),  # 1.2万兆瓦时: a large measure
    # A kettle's descaling: "2 tablespoons of white vinegar" came back 2英尺 (two feet).
    ("2 tablespoons of white vinegar and 1 tsp of salt", "zh", [("2 tablespoons", "2汤匙"), ("1 tsp", "1茶匙")]),
    # A Chinese recipe: 生抽2汤匙 came back "2 soup spoons", 盐1茶匙 "1 uppoon".
    ("生抽2汤匙，盐1茶匙，白糖两汤匙。", "en",
     [("2汤匙", "2 tablespoons"), ("1茶匙", "1 teaspoon"), ("两汤匙", "2 tablespoons")]),
    # A home cook's spoons (番茄炒蛋: 白糖 1小勺 came back "1 thumbs", 1大勺油 "1 big oil", 盐 半小勺
    # "salt, half-stand").
    ("白糖 1小勺，油1大勺，盐 半小勺，两小匙醋。", "en",
     [("1小勺", "1 teaspoon"), ("1大勺", "1 tablespoon"), ("半小勺", "half a teaspoon"), ("两小匙", "2 teaspoons")]),
])
def test_energy_and_spoons(text: str, tgt: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, tgt)] == found


def test_a_large_measure_of_energy_into_english() -> None:
    found = units.find_large_measures("全年发电量1.2万兆瓦时。", "en")
    assert [(s.text, s.target) for s in found] == [("1.2万兆瓦时", "12,000 MWh")]


@pytest.mark.parametrize(("text", "found"), [
    # "Sales of 4.3m units" came back 4.3米 (metres).
    ("Sales of 4.3m units", [("4.3m", "430万")]),
    ("2m people live there.", [("2m", "200万")]),
    ("a 4.3m wall, 2m tall, jumps 8m across", [("4.3m", "4.3米"), ("2m", "2米"), ("8m", "8米")]),
])
def test_millions_before_what_they_count_are_no_metres(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh")] == found


def test_an_english_hour_is_written_with_its_part_of_the_day() -> None:
    """"runs from 6:30 a.m. to 1 a.m." came back 从上午6点30分运行到上午1点: one at night is 凌晨1点
    (and the two one range)."""
    found = find_units("from 6:30 a.m. to 1 a.m., at 12 p.m., 3 p.m., 8 p.m. and 12 a.m.", "zh")
    assert [s.target for s in found] == ["从上午6点30分至凌晨1点", "中午12点", "下午3点", "晚上8点", "午夜12点"]


@pytest.mark.parametrize(("text", "found"), [
    # A flu leaflet: 6月龄至5岁儿童 came back "June to 5-year-old children".
    ("60岁以上老年人、6月龄至5岁儿童、孕妇", [("60岁以上老年人", "people aged 60 and over"),
                                         ("6月龄至5岁儿童", "children aged 6 months to 5 years")]),
    ("6月龄以下婴儿不宜接种", [("6月龄以下婴儿", "infants under 6 months")]),
    ("满6月龄", [("6月龄", "6 months old")]),
    ("6月15日开始", [("6月15日", "June 15")]),  # a date is still a date
])
def test_an_infants_age_in_months_is_no_month(text: str, found: list[tuple[str, str]]) -> None:
    from doctrans.direction_terms import automatic_terms

    assert [(s.text, s.target) for s in automatic_terms(text, [], "zh", "en")] == found


def test_a_services_interval_into_english() -> None:
    """A West Lake boat's 约每20分钟一班 came back "for each 20 minutes class"."""
    from doctrans.direction_terms import automatic_terms

    found = automatic_terms("船票55元，约每20分钟一班；每隔2小时发车一次。", [], "zh", "en")
    assert [(s.text, s.target) for s in found] == [("55元", "55 yuan"), ("每20分钟一班", "every 20 minutes"),
                                                  ("每隔2小时发车一次", "every 2 hours")]


def test_basis_points_both_ways() -> None:
    assert [(s.text, s.target) for s in find_units("a cut of 25 basis points, 1 basis point", "zh")] == [
        ("25 basis points", "25个基点"), ("1 basis point", "1个基点")]
    assert [(s.text, s.target) for s in find_units("上升12个基点", "en")] == [("12个基点", "12 basis points")]


def test_a_phones_battery_charger_and_launch_time_and_a_planets_distance() -> None:
    """电池容量为5600毫安时 came back "5600 milligrating", 66瓦快充 "66", 上午10:08 "on 10:08"; "120
    light-years from Earth" 120年 (years). 瓦 is a tile too, and 瓦斯 gas."""
    from doctrans.direction_terms import automatic_terms

    found = automatic_terms("电池5600毫安时，66瓦快充，上午10:08开售；一片瓦，瓦斯。", [], "zh", "en")
    assert [(s.text, s.target) for s in found] == [("5600毫安时", "5600 mAh"), ("66瓦", "66 W"),
                                                  ("上午10:08", "10:08 a.m.")]
    assert [s.target for s in find_units("a planet 120 light-years from Earth", "zh")] == ["120光年"]


def test_a_speed_in_kilometres_is_per_hour() -> None:
    # A railway's 设计时速350公里 came back "designed to speed 350 km": a distance for a speed.
    assert [(s.text, s.target) for s in find_units("全长277公里，设计时速350公里，最高时速可达400公里。", "en")] == \
        [("277公里", "277 km"), ("350公里", "350 km/h"), ("400公里", "400 km/h")]


def test_a_month_takes_no_year_after_it() -> None:
    # A story's "He hasn't written since March" came back 他从3月年开始没写.
    prep = prepare("He hasn't written since March.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore(prep.model_text.replace("He hasn't written since ", "他从").replace(".", "年开始没写。")).text \
        == "他从3月开始没写。"


@pytest.mark.parametrize(("text", "tgt", "found"), [
    # A city's water quality report: "below 5 micrograms per litre" came back 低于5微粒度, "0.6 milligrams
    # per litre" 0.6毫米粒度 (millimetres).
    ("below 5 micrograms per litre, 0.6 milligrams per litre and 0.6 mg/L", "zh",
     [("5 micrograms per litre", "5微克/升"), ("0.6 milligrams per litre", "0.6毫克/升"), ("0.6 mg/L", "0.6毫克/升")]),
    ("PM2.5平均浓度为35微克/立方米，铅含量低于5微克/升。", "en",
     [("35微克/立方米", "35 µg/m³"), ("5微克/升", "5 µg/L")]),
])
def test_concentrations(text: str, tgt: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, tgt)] == found


def test_a_time_with_before_or_after_it_keeps_the_word() -> None:
    """A travel guide's 建议早上8点前出发 came back "to send out 8 a.m.", the "before" gone; 前往 is
    to head for a place, no "before"."""
    def spans(text: str) -> list[tuple[str, str | None]]:
        return [(s.text, s.target) for s in find_units(text, "en")]
    assert spans("下午5点以后，上午10:30前") == [("下午5点以后", "after 5 p.m."), ("上午10:30前", "before 10:30 a.m.")]
    assert spans("上午9点前往机场") == [("上午9点", "9 a.m.")]


def test_an_appliances_rating_is_one_span() -> None:
    """A manual's 220V～50Hz came back "220V REMOTE 50Hz": the voltage and the frequency were two
    spans, the tilde between them the model's to garble."""
    assert [(s.text, s.target) for s in find_units("电源电压应为220V～50Hz。", "en")] == [("220V～50Hz", "220V~50Hz")]
    assert [s.target for s in find_units("Input: 220-240V ~ 50/60Hz.", "zh")] == ["220-240V ~ 50/60Hz"]


def test_a_water_authoritys_volumes_into_chinese() -> None:
    """"184.6 million cubic metres" came back 1.846亿 cubic metal, "612 megalitres a day" 612补偿."""
    from doctrans.engine.protect import prepare
    prep = prepare("It supplied 184.6 million cubic metres and 612 megalitres.", 16, tgt_lang="zh", src_lang="en")
    assert [s.target for s in prep.masked.spans] == ["1.846亿立方米", "612兆升"]


def test_a_flow_rate_keeps_its_superscript() -> None:
    """A purifier's CADR值：500m³/h came back 500m3/h: the unit went to the model, which reads ³ as 3."""
    assert [(s.text, s.target) for s in find_units("CADR值：500m³/h", "en")] == [("500m³/h", None)]
    assert [(s.text, s.target) for s in find_units("a flow of 500 m³/h", "zh")] == [("500 m³/h", None)]


def test_minutes_abbreviated_after_a_space_into_chinese() -> None:
    """A paper's "centrifuged at 3,000 × g for 10 min at 4 °C" came back 10 min at 4摄氏度."""
    assert [(s.text, s.target) for s in find_units("for 10 min at 4 °C, then 2 hrs", "zh")] == [
        ("10 min", "10分钟"), ("4 °C", "4摄氏度"), ("2 hrs", "2小时")]


@pytest.mark.parametrize(("text", "span", "written"), [
    ("截至1日20时，地震已造成46人遇难", "1日20时", "8 p.m. on the 1st"),
    ("截至2日18时30分，共转移群众1万人", "2日18时30分", "6:30 p.m. on the 2nd"),
    ("12月1日14时37分发生地震", "14时37分", "2:37 p.m."),  # the date is doctrans.dates'
])
def test_a_day_of_the_month_before_a_time_of_day_is_one_span(text: str, span: str, written: str) -> None:
    assert (span, written) in [(s.text, s.target) for s in find_units(text, "en")]


@pytest.mark.parametrize(("text", "tgt", "span", "written"), [
    ("The filter captures particles as small as 0.3 microns.", "zh", "0.3 microns", "0.3微米"),
    ("细颗粒物直径小于等于2.5微米", "en", "2.5微米", "2.5 μm"),
])
def test_microns_are_a_measure(text: str, tgt: str, span: str, written: str) -> None:
    """A purifier's "particles as small as 0.3 microns" was copied into Chinese, unit and all."""
    assert (span, written) in [(s.text, s.target) for s in find_units(text, tgt)]


@pytest.mark.parametrize(("text", "found"), [
    # A heat advisory "from noon Saturday until 8 p.m. Sunday" came back 从中午星期六，直到晚上8点星期日,
    # "from 10 a.m. to 7 p.m." 在上午10点…打开晚上7点: the day first, and a range one span.
    # ("from" with the range: left between two spans it stayed in English)
    ("from noon Saturday until 8 p.m. Sunday.",
     [("from noon Saturday until 8 p.m. Sunday", "从星期六中午至星期日晚上8点")]),
    ("open from 10 a.m. to 7 p.m.", [("from 10 a.m. to 7 p.m.", "从上午10点至晚上7点")]),
    ("The vote is at 9 a.m. Tuesday, the call at 3 p.m. on Friday.",
     [("9 a.m. Tuesday", "星期二上午9点"), ("3 p.m. on Friday", "星期五下午3点")]),
    ("Open 9 a.m.-5 p.m.", [("9 a.m.-5 p.m.", "上午9点至下午5点")]),
    ("It was noon, and 10 a.m. and 4 p.m. were taken.", [("10 a.m.", "上午10点"), ("4 p.m.", "下午4点")]),
])
def test_a_time_of_day_with_its_weekday_and_a_range_of_them_into_chinese(
        text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "zh")] == found


def test_how_a_leaflets_medicine_is_taken() -> None:
    """【用法用量】口服。 came back "Glad.": orally; not an oral liquid (口服液) nor 心服口服 (won over)."""
    found = [(s.text, s.target) for s in find_units("【用法用量】口服。成人一次1粒", "en")]
    assert found == [("口服", "orally"), ("一次1粒", "1 capsule at a time")]
    assert prepare("口服，一次2片。", 16, tgt_lang="en", src_lang="zh").copy == "Orally, 2 tablets at a time."
    assert [s.target for s in find_units("他心服口服。口服液每次10毫升。", "en")] == ["10 ml"]


@pytest.mark.parametrize(("text", "found"), [
    # An API's plan: 免费版每天最多调用1000次 came back "at most 1000 times the free version of the year".
    ("免费版每天最多调用1000次", [("每天最多调用1000次", "up to 1,000 calls a day")]),
    ("每分钟最多请求60次，每月限下载20次", [("每分钟最多请求60次", "up to 60 requests a minute"),
                                  ("每月限下载20次", "up to 20 downloads a month")]),
    ("每天最多5次。", [("每天最多5次", "up to 5 times a day")]),
    # A field's unit: 当前气温（单位：摄氏度） came back "(measured)".
    ("当前气温（单位：摄氏度）", [("单位：摄氏度", "unit: °C")]),
    ("主要指标（单位：万元）", [("单位：万元", "unit: 10,000 yuan")]),
    ("计量单位：个人", []),
])
def test_a_quota_and_a_units_label_into_english(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_units(text, "en")] == found


def test_a_total_of_days_into_english() -> None:
    """放假调休，共3天 came back "days off, along with 3 days"; 共计两周的培训 (two weeks' training) is left."""
    spans = prepare("放假调休，共3天，本次共计两周。", 16, tgt_lang="en", src_lang="zh").masked.spans
    assert [(s.text, s.target) for s in spans if s.target and "total" in s.target] == [
        ("共3天", "3 days in total"), ("共计两周", "2 weeks in total")]
    assert all("total" not in (s.target or "") for s in find_units("共计两周的培训", "en"))


def test_an_appliances_volts_and_frequencies_into_english() -> None:
    # 请确认电源电压为220伏 came back "power is 220", the volts lost; 三伏天 is the dog days.
    found = [(s.text, s.target) for s in find_units("电源电压为220伏，输入100-240伏特，50/60赫兹，电流2安培。", "en")]
    assert ("220伏", "220 V") in found and ("50/60赫兹", "50/60 Hz") in found and ("2安培", "2 A") in found
    assert find_units("三伏天很热，敌人埋伏在山上。", "en") == []



def test_a_percentage_takes_no_counter() -> None:
    # "We did not meet our target of 8% organic growth" came back 我们没有看到8%个器官增长的目标.
    prep = prepare("We did not meet our target of 8% organic growth.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("我们没有达到⦅1⦆个⦅2⦆的目标").text == "我们没有达到8%有机增长的目标。"  # ⦅2⦆: the term
    assert prep.restore("⦅1⦆个人⦅2⦆").text == "8%个人有机增长。"  # 个人: a word
