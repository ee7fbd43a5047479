"""Fixed terms of reports and news by their translation (doctrans.report_terms)."""

from __future__ import annotations

import pytest

from doctrans import report_terms
from doctrans.data_lists import data_lines
from doctrans.direction_terms import automatic_terms
from doctrans.engine.protect import prepare
from doctrans.report_terms import find_changes, find_report_terms
from tests.docstring_tables import three_column_rows


def docstring_table() -> list[tuple[str, str, str]]:
    return three_column_rows(report_terms)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 11


@pytest.mark.parametrize(("text", "tgt", "expected"), docstring_table())
def test_docstring_table_row(text: str, tgt: str, expected: str) -> None:
    src = "zh" if tgt == "en" else "en"
    found = [s.target for s in find_report_terms(text, src, tgt)]
    assert (" · ".join(found) or "(none)") == expected


def test_every_term_reads_back_both_ways_unless_marked() -> None:
    for line in data_lines("report_terms.tsv"):
        english, chinese, *_ = line.split("\t")
        if english.startswith("!"):  # written into English only: never read (a term inside it may be)
            read = find_report_terms(f"We read the {english[1:]} today.", "en", "zh")
            assert all(s.text != english[1:] for s in read), line
            assert [s.target for s in find_report_terms(f"我们今天读了{chinese}。", "zh", "en")] == [english[1:]]
            continue
        [span] = find_report_terms(f"We read the {english} today.", "en", "zh")
        assert span.target == chinese.lstrip("!")
        back = find_report_terms(f"我们今天读了{chinese.lstrip('!')}。", "zh", "en")
        if chinese.startswith("!"):  # written only: read as nothing, or as another term's
            assert all(s.target != english for s in back), line
        else:
            assert [s.target for s in back] == [english], line


def test_each_english_spelling_has_one_row() -> None:
    """Two rows of one English spelling: the second is dead weight, or a second translation that
    only the row's order would choose (16 such pairs had been written twice). Extra Chinese
    spellings go in the row's third column."""
    seen: dict[str, str] = {}
    for line in data_lines("report_terms.tsv"):
        english = line.split("\t")[0].lstrip("!")
        assert english not in seen, f"{line!r} after {seen[english]!r}"
        seen[english] = line


def test_ambiguous_chinese_contexts_are_left_to_the_model() -> None:
    for text in ("我们上一季度买的原料", "法国外交部长来了", "纽约董事会开会", "下一季度"):
        assert find_report_terms(text, "zh", "en") == [], text
    assert [s.target for s in find_report_terms("美国国务院和国务院", "zh", "en")] == [
        "US State Department", "State Council"]


def test_english_terms_need_whole_words_and_names_their_capitals() -> None:
    assert find_report_terms("the third quarterly report", "en", "zh") == []
    assert find_report_terms("the united nations of birds", "en", "zh") == []
    assert [s.text for s in find_report_terms("UNITED NATIONS, June 12", "en", "zh")] == ["UNITED NATIONS"]
    assert find_report_terms("third quarter", "en", "de") == [] and find_report_terms("三季度", "zh", None) == []


def test_the_model_sees_a_placeholder_and_the_term_comes_back() -> None:
    prepared = prepare("一季度国内生产总值增速加快，董事会同比未变。", 16, tgt_lang="en", src_lang="zh")
    assert prepared.model_text == "⦅1⦆⦅2⦆增速加快，董事会同比未变。"  # 董事会, 同比: written, never read
    out = prepared.restore("In the ⦅1⦆, ⦅2⦆ grew faster, the board unchanged.")
    assert out.text == "In the first quarter, gross domestic product grew faster, the board unchanged."


@pytest.mark.parametrize(("text", "src", "tgt", "found"), [
    ("营业收入同比增长8.3%，成本环比下降2％。", "zh", "en", [("同比增长8.3%", "up 8.3% year on year"),
                                                       ("环比下降2％", "down 2% month on month")]),
    ("Revenue rose 5.2% year-on-year; prices were down by 2% month on month.", "en", "zh",
     [("rose 5.2% year-on-year", "同比增长5.2%"), ("down by 2% month on month", "环比下降2%")]),
    ("up 5% from a year earlier", "en", "zh", [("up 5% from a year earlier", "同比增长5%")]),
    # "up 8.3% from the same period last year" came back 增长8.3%的去年期限, "last year's time limit".
    ("revenue of $412.6 million, up 8.3% from the same period last year.", "en", "zh",
     [("up 8.3% from the same period last year", "同比增长8.3%")]),
    ("Sales fell 2% compared with the same quarter a year earlier.", "en", "zh",
     [("fell 2% compared with the same quarter a year earlier", "同比下降2%")]),
    ("同比增长显著，预算增加5%的部分", "zh", "en", []),  # no figure right after; 5%的 describes a noun
    # A change without its period keeps its direction (净利润下降2.1% came back "Net profit ... 2.1%").
    ("净利润较上年同期下降2.1%，收入增长5%", "zh", "en", [("较上年同期下降2.1%", "down 2.1% year on year"),
                                                    ("增长5%", "up 5%")]),
    # A share's change in points (较上年同期提高6.1个百分点 came back "faster than prior-year period for
    # 6.1 percentage points").
    ("占比41.4%，较上年同期提高6.1个百分点", "zh", "en",
     [("较上年同期提高6.1个百分点", "up 6.1 percentage points year on year")]),
    ("Its share rose 2.5 percentage points year on year.", "en", "zh",
     [("rose 2.5 percentage points year on year", "同比提高2.5个百分点")]),
    ("Costs fell by 2.1% while sales rose 4%, up to 5% of users", "en", "zh",
     [("fell by 2.1%", "下降2.1%"), ("rose 4%", "增长4%")]),
])
def test_changes_on_the_year_before(text: str, src: str, tgt: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in report_terms.find_changes(text, src, tgt)] == found


def test_a_chinese_sentence_of_terms_only_is_written_the_english_way() -> None:
    """Nothing left for the model: the terms come back spaced, the full stop an English one (they
    were glued: 'first quartergross domestic productup 5.3% year on year。'), a sentence with its
    capital ('earnings per share 0.52 yuan.'), and so does a heading that starts with a term (a docx's
    季度经营情况 came back "quarterly business performance")."""
    prepared = prepare("一季度国内生产总值同比增长5.3%。", 16, tgt_lang="en", src_lang="zh")
    assert prepared.model_text is None
    assert prepared.copy == "First quarter gross domestic product up 5.3% year on year."
    assert prepare("每股收益0.52元。", 16, tgt_lang="en", src_lang="zh").copy == "Earnings per share 0.52 yuan."
    assert prepare("国内生产总值", 16, tgt_lang="en", src_lang="zh").copy == "Gross domestic product"
    assert prepare("季度经营情况", 16, tgt_lang="en", src_lang="zh").copy == "Quarterly business performance"


def test_report_terms_give_way_past_the_phrase_budget() -> None:
    """Past eight placeholders the report terms are left to the model and the figures and changes
    keep theirs (the CPU models put seven out of order, two figures swapped; the GPU model of
    2026-11-27 keeps seven in order, and with the terms wrote "operating revenue" and "net profit"
    where alone it wrote "the camping" and "tails")."""
    figures = ["in 2024", "125.06 billion yuan", "up 8.3% year on year", "9.64 billion yuan", "up 12.1% year on year"]
    seven = prepare("2024年，公司实现营业收入1,250.6亿元，同比增长8.3%；净利润96.4亿元，同比增长12.1%。", 16,
                    tgt_lang="en", src_lang="zh")
    assert [s.output for s in seven.masked.spans] == [figures[0], "posted operating revenue", *figures[1:3],
                                                      "net profit", *figures[3:]]
    more = prepare("2024年，公司实现营业收入1,250.6亿元，同比增长8.3%；净利润96.4亿元，同比增长12.1%；毛利率32.5%，"
                   "同比下降1.2个百分点；研发投入15.3亿元，同比增长20.4%。", 16, tgt_lang="en", src_lang="zh")
    assert more.model_text is not None
    assert "营业收入" in more.model_text and "净利润" in more.model_text
    assert [s.output for s in more.masked.spans][:5] == figures and len(more.masked.spans) == 9


def test_past_the_budget_a_one_word_place_is_left_to_the_model_before_an_institutions_name() -> None:
    """Eleven spans for eight placeholders: the Office for National Statistics, the last, had been
    left to the model (即星期三的军数) while Britain and London, words it knows, were masked. Now the
    term in small letters and the one-word places give way and the institution keeps its name."""
    p = prepare("Consumer prices in Britain rose 2.8% in February and 3.0% in January, while wages in London "
                "rose 5.6% in March, the Office for National Statistics said on Wednesday.", 8,
                tgt_lang="zh", src_lang="en")
    outputs = [s.output for s in p.masked.spans]
    assert "英国国家统计局" in outputs and "增长2.8%" in outputs and "增长5.6%" in outputs and len(outputs) == 8
    assert p.model_text is not None and "consumer prices" in p.model_text and "London" in p.model_text
    # A Chinese name is ranked by its English: 中国汽车工业协会 keeps its placeholder before 我国 does.
    p = prepare("中国汽车工业协会12日发布数据显示，2024年我国新能源汽车产销量分别完成1288.8万辆和1286.6万辆，"
                "同比分别增长34.4%和35.5%，连续10年位居全球第一。", 8, tgt_lang="en", src_lang="zh")
    assert "China Association of Automobile Manufacturers" in [s.output for s in p.masked.spans]


def test_a_work_reports_new_jobs_and_a_rate_kept_under_a_ceiling() -> None:
    """全年新增城镇就业3.2万人，城镇调查失业率控制在5.5%以内 came back "New urban jobs 32,000 people, …
    controls in 5.5%": the jobs counted, the ceiling kept."""
    found = find_changes("全年新增城镇就业3.2万人，城镇调查失业率控制在5.5%以内。", "zh", "en")
    assert [s.target for s in found] == ["32,000 new urban jobs were created over the year", "kept within 5.5%"]
    found = find_changes("城镇新增就业1200万人以上，居民消费价格涨幅控制在3%左右。", "zh", "en")
    assert [s.target for s in found] == ["over 12 million new urban jobs", "kept at around 3%"]
    assert find_changes("新增就业岗位3.2万个。", "zh", "en") == []


def test_a_contracts_parties_and_defined_terms() -> None:
    """Defined terms are in Title Case in an agreement; 甲方 came back as "Packy"."""
    found = find_report_terms("on the Effective Date, subject to Force Majeure", "en", "zh")
    assert [s.target for s in found] == ["生效日期", "不可抗力"]
    found = find_report_terms("甲方应向乙方支付违约金。", "zh", "en")
    assert [s.target for s in found] == ["Party A", "Party B", "liquidated damages"]


def test_no_article_is_left_before_a_term_that_brings_its_own_determiner() -> None:
    """``本季度公司…`` came back "The this quarter company…": the model's article before ⦅1⦆."""
    from doctrans.engine.protect import no_article_before_determiner, prepare

    prep = prepare("本季度公司实现增长。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text is not None and "本季度" not in prep.model_text
    assert prep.restore("The ⦅1⦆ company grew.").text == "This quarter company grew."
    assert no_article_before_determiner("He saw a the dog; the theory holds.") == "He saw the dog; the theory holds."


def test_a_translation_that_starts_with_a_term_starts_with_a_capital() -> None:
    """双击 setup.exe came back "double-click setup.exe": the term's capital is put back; a kept
    name or code (numpy) and a glossary term keep the case they have."""
    from doctrans.engine.protect import prepare
    from doctrans.glossary import Glossary

    prep = prepare("双击 setup.exe，按照提示完成安装。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text.startswith("⦅1⦆ ⦅2⦆")
    assert prep.restore("⦅1⦆ ⦅2⦆ and follow the hints.").text == "Double-click setup.exe and follow the hints."
    assert prep.restore("Please ⦅1⦆ ⦅2⦆.").text == "Please double-click setup.exe."
    code = prepare("numpy 是一个库。", 16, tgt_lang="en", src_lang="zh")
    assert code.restore("⦅1⦆ is a library.").text == "numpy is a library."
    phone = prepare("苹果手机很贵。", 16, Glossary.from_pairs([("苹果手机", "iPhone")]), tgt_lang="en", src_lang="zh")
    assert phone.restore("⦅1⦆ is expensive.").text == "iPhone is expensive."


def test_a_term_that_begins_a_later_sentence_of_the_segment_starts_with_a_capital() -> None:
    """。净利润为1.2亿元 came back "... down 2.1%. net profit is 120 million yuan": a term after a
    sentence end in the source and after ". " in the translation gets its capital; elsewhere not."""
    from doctrans.engine.protect import prepare

    prep = prepare("营业收入增长8.3%。净利润为1.2亿元。", 16, tgt_lang="en", src_lang="zh")
    terms = [s.output for s in prep.masked.spans if s.kind == "phrase"]
    assert terms == ["operating revenue", "net profit"]
    assert prep.restore("⦅1⦆ ⦅2⦆. ⦅3⦆ is ⦅4⦆.").text == "Operating revenue up 8.3%. Net profit is 120 million yuan."
    assert prep.restore("⦅1⦆ ⦅2⦆, ⦅3⦆ is ⦅4⦆.").text == "Operating revenue up 8.3%, net profit is 120 million yuan."


def test_a_term_after_a_closing_quote_is_a_word_of_its_own() -> None:
    """勾选“记住密码”复选框: the model wrote the label, its closing quote and the term's placeholder
    glued ("remember the password"check box); an opening quote keeps the span glued to it."""
    from doctrans.engine.protect import prepare

    prep = prepare("勾选“记住密码”复选框。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore('Check "remember the password"⦅1⦆.').text == 'Check "remember the password" check box.'
    assert prep.restore('Check the "⦅1⦆" for the password.').text == 'Check the "check box" for the password.'


def test_a_listed_companys_results_in_chinese() -> None:
    # A quarterly report came back "2025 years ago, ... net profit 520 million yuan belonging to the
    # upper east company stock", "The board long Zhang Jianguo means".
    text = "2025年前三季度，归属于上市公司股东的净利润5.2亿元。董事长张建国表示，将坚持创新驱动发展战略。"
    terms = automatic_terms(text, [], "zh", "en")
    assert [(t.text, t.target) for t in terms if t.kind != "number" or "季度" in t.text] == [
        ("2025年前三季度", "Q1–Q3 2025"),
        ("归属于上市公司股东的净利润", "net profit attributable to shareholders of the listed company"),
        ("董事长", "chairman"), ("张建国表示", "Zhang Jianguo said"),
        ("创新驱动发展战略", "innovation-driven development strategy")]
    # "chairman" is only written: the chair of a committee is 主席.
    assert find_report_terms("The chairman of the committee spoke.", "en", "zh") == []


def test_a_sustainability_report() -> None:
    # "Annual Sustainability Report 2024" came back 概述的概率报告2024, "net-zero emissions" 网络零的 net-zero.
    found = find_report_terms("Annual Sustainability Report: net-zero emissions through energy efficiency.", "en", "zh")
    assert [s.target for s in found] == ["可持续发展报告", "净零排放", "能效"]
    assert find_report_terms("有什么我能效劳的吗", "zh", "en") == []  # 能效 is only written


def test_an_economys_news_into_chinese() -> None:
    # "The U.S. economy grew ..., the Commerce Department said" came back 美国  economy …, Commerce
    # Department said: the model copied the words it did not know.
    found = find_report_terms("The economy grew at a 2.8% annual rate, the Commerce Department said.", "en", "zh")
    assert [s.target for s in found] == ["经济", "年率", "美国商务部"]
    assert find_report_terms("经济活动", "zh", "en") == []  # 经济 is only written


@pytest.mark.parametrize(("text", "tgt", "expected"), [
    ("利润翻了一番，达到34亿美元。", "en", [("翻了一番", "doubled")]),
    ("It doubled. He doubled over in pain.", "zh", []),  # doubled over, doubled back: not read
    ("Unemployment fell to 3.4%.", "zh", [("Unemployment", "失业")]),
    ("他失业了。", "en", []),  # a verb: only written
    ("地区生产总值的主要指标", "en", [("地区生产总值", "gross regional product"), ("指标", "indicator")]),
    ("When the indicator light turns red", "zh", [("indicator light", "指示灯")]),  # not 指标, an economy's
    ("It starts at noon and ends at midnight.", "zh", [("noon", "中午"), ("midnight", "午夜")]),  # noon had been 午夜
])
def test_multiples_and_unemployment(text: str, tgt: str, expected: list[tuple[str, str]]) -> None:
    src = "en" if tgt == "zh" else "zh"
    assert [(s.text, s.output) for s in find_report_terms(text, src, tgt)] == expected



@pytest.mark.parametrize(("text", "found"), [
    # "Sales fell 3.2 percent" came back 3.2%第三季度的销售员: the fall gone.
    ("Sales fell 3.2 percent in the third quarter.", [("fell 3.2 percent", "下降3.2%")]),
    ("Shares slipped 0.8 per cent, then jumped 2%.", [("slipped 0.8 per cent", "下降0.8%"), ("jumped 2%", "增长2%")]),
    ("It fell 3 percentage points.", [("fell 3 percentage points", "下降3个百分点")]),  # points, no percentage
])
def test_a_change_with_its_percentage_in_words_keeps_its_direction(text: str, found: list[tuple[str, str]]) -> None:
    from doctrans.report_terms import find_changes

    assert [(s.text, s.target) for s in find_changes(text, "en", "zh")] == found


def test_a_closing_is_no_as_of_and_a_rise_in_prices_keeps_its_direction() -> None:
    """优惠活动将于…晚上11点59分截止 came back "…11:59 p.m.as of" (a closing read as 截至, glued to the
    time); 价格上涨了5% "is fulfilled 5%"."""
    from doctrans.report_terms import find_changes, find_report_terms

    assert [s.target for s in find_report_terms("活动将于晚上截止。截止9月30日，", "zh", "en")] == ["as of"]
    assert [(s.text, s.target) for s in find_changes("价格上涨了5%，成本降低3%。", "zh", "en")] == \
        [("上涨了5%", "up 5%"), ("降低3%", "down 3%")]
    prep = prepare("优惠活动将于12月5日晚上11点59分截止。", 16, tgt_lang="en", src_lang="zh")
    # The date and its time are one span (direction_terms._dates_with_times), 截止 none.
    assert prep.model_text == "优惠活动将于⦅1⦆截止。"
    assert prep.restore("The offer ends ⦅1⦆.").text == "The offer ends 11:59 p.m. on December 5."


def test_a_term_after_a_time_glued_to_it_in_chinese_is_spaced_in_english() -> None:
    prep = prepare("下午3点30分截至9月30日的数据", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("Data ⦅1⦆⦅2⦆ ⦅3⦆").text == "Data 3:30 p.m. as of September 30"


def test_no_counter_after_a_change_into_chinese() -> None:
    """"Sales fell 3.2 percent in the third quarter." came back 下降3.2%号第三季度: a date's 号 after
    a percentage."""
    prep = prepare("Sales fell 3.2 percent in the third quarter.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("⦅1⦆号⦅2⦆号").text.startswith("下降3.2%第三季度")


def test_a_change_to_a_level_keeps_its_direction_both_ways() -> None:
    """"Unemployment fell to 3.9%" came back 失业…为3.9%, the fall gone."""
    from doctrans.report_terms import find_changes

    found = find_changes("Unemployment fell to 3.9%; rates rose to 5 percent.", "en", "zh")
    assert [(s.text, s.target) for s in found] == [("fell to 3.9%", "降至3.9%"), ("rose to 5 percent", "升至5%")]
    assert [(s.text, s.target) for s in find_changes("失业率降至3.9%，同比增长3%。", "zh", "en")] == \
        [("降至3.9%", "fell to 3.9%"), ("同比增长3%", "up 3% year on year")]


def test_a_chinese_forecasts_terms_and_no_shower_in_a_subtitle() -> None:
    """北京市气象台 came back "The Beijing tum gas station", 偏北风 "preferences"; "hit those showers"
    (TVsub dev) is a bathroom's, so 阵雨's English is only written."""
    found = report_terms.find_report_terms("北京市气象台发布天气预报：有4到5级偏北风和阵雨。", "zh", "en")
    assert [s.target for s in found] == ["meteorological observatory", "weather forecast", "northerly winds",
                                         "showers"]
    assert report_terms.find_report_terms("so let us hit those showers", "en", "zh") == []


def test_an_agreements_payment_clause_into_chinese() -> None:
    """"each invoice" came back 每个投票 (a vote), "remains unpaid" 未分页 (unpaged), "the other party"
    其他第三方 (a third party), "an initial term" 初始术语 (a terminology's)."""
    text = ("Late payments shall bear interest; an invoice that remains unpaid after the invoice date lets "
            "either party notify the other party before the initial term ends.")
    assert [s.target for s in report_terms.find_report_terms(text, "en", "zh")] == [
        "逾期付款", "计息", "发票", "未付", "发票日期", "任何一方", "另一方", "初始期限"]


def test_a_statistics_releases_sectors_into_english() -> None:
    """分三大门类看 came back "The trivial classes are seen", 采矿业 "clothings", 制造业 "making
    business"; "data mining" and "a manufacturing process" stay the model's into Chinese."""
    text = "分三大门类看，采矿业增长4.6%，制造业增长6.1%，电力、热力、燃气及水生产和供应业增长3.2%，国内需求不足。"
    assert [s.target for s in report_terms.find_report_terms(text, "zh", "en")] == [
        "by sector", "mining", "manufacturing", "the production and supply of electricity, heat, gas and water",
        "domestic demand"]
    assert report_terms.find_report_terms("data mining in a manufacturing process", "en", "zh") == []


def test_a_companys_results_into_chinese() -> None:
    """"pre-tax profit" was left in English, "a share buyback" came back 在buyback上共享它, "Analysts
    at Barclays" 安雅斯 (a name)."""
    text = "Analysts expect pre-tax profit to beat the full-year profit forecast after a share buyback."
    assert [s.target for s in report_terms.find_report_terms(text, "en", "zh")] == [
        "分析师", "税前利润", "全年", "利润预期", "股票回购"]


def test_a_quarterly_update_into_chinese() -> None:
    """"Figures are unaudited" came back 嫌犯被审讯 (suspects interrogated), "enterprise customers"
    新入门的顾客, "Churn fell to 4.1%" lost its churn, "operating margin improved to 18.5%" 改进了18.5%,
    "since 2021" 第2021年以来."""
    text = "Churn fell to 4.1% and enterprise customers grew; figures are unaudited."
    found = report_terms.find_report_terms(text, "en", "zh")
    assert [s.target for s in found] == ["客户流失率", "企业客户", "未经审计"]
    changes = report_terms.find_changes("Operating margin improved to 18.5%.", "en", "zh")
    assert [(s.text, s.target) for s in changes] == [("improved to 18.5%", "升至18.5%")]
    prep = prepare("Churn fell to 4.1%, the lowest level since 2021.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("⦅1⦆⦅2⦆，第⦅3⦆以来最低。").text == "客户流失率降至4.1%，2021年以来最低。"


def test_inflation_eased_to_a_level() -> None:
    """"Inflation eased to 2.3%" left "eased" to the model: a fall to a level."""
    changes = report_terms.find_changes("Inflation eased to 2.3% in October.", "en", "zh")
    assert [(s.text, s.target) for s in changes] == [("eased to 2.3%", "降至2.3%")]


def test_english_fictions_words_into_chinese() -> None:
    """"Anna nodded" came back 安娜拒绝了 (she refused), "the corridor" 尸体 (a corpse), "a radio was
    playing" 一个单选中 (a radio button's); a radio button stays a button."""
    text = "She nodded; in the corridor a radio was playing. Click the radio button, Mum."
    assert [s.target for s in report_terms.find_report_terms(text, "en", "zh")] == [
        "点了点头", "走廊", "收音机", "单选按钮", "妈妈"]
    # A radio's other senses in a technical page or the news.
    found = report_terms.find_report_terms("a radio frequency from the radio station", "en", "zh")
    assert [s.target for s in found] == ["射频", "电台"]


def test_a_government_work_reports_phrases_into_english() -> None:
    """稳中求进工作总基调 came back "sympathetic benchmarks", 居民消费价格 "The center consumption",
    再创历史新高 "revolve history newer"; 增长5%左右 "about up 5%"."""
    text = "坚持稳中求进工作总基调，城镇新增就业1244万人，居民消费价格涨幅3%左右，粮食产量再创历史新高。"
    assert [s.target for s in report_terms.find_report_terms(text, "zh", "en")] == [
        "the general principle of pursuing progress while ensuring stability", "new urban jobs", "consumer prices",
        "increase", "grain output", "hit another record high"]
    prep = prepare("国内生产总值增长5%左右。", 16, tgt_lang="en", src_lang="zh")
    assert prep.copy == "Gross domestic product up about 5%."


def test_excluding_keeps_its_negation() -> None:
    """"every night at 2:30 a.m., excluding caches" came back 每晚都包含缓存 (including them)."""
    found = report_terms.find_report_terms("Back up every night, excluding caches.", "en", "zh")
    assert [s.target for s in found] == ["备份", "不包括"]


def test_an_apps_release_notes_into_english() -> None:
    """深色模式 came back "deep mode", 验证码短信 "validation code text", 拖拽上传 "Draging uploads",
    单个文件最大 50 MB "the individual file 50 MB is supported", “设置 > 外观” "Settings > Surprise"."""
    found = report_terms.find_report_terms("新增深色模式，修复无法收到验证码短信的问题，拖拽上传暂不可用。", "zh", "en")
    assert [s.target for s in found] == ["dark mode", "SMS verification codes", "drag-and-drop upload"]
    prep = prepare("支持导出为 PDF，单个文件最大 50 MB，可在“设置 > 外观”中开启。", 16, tgt_lang="en", src_lang="zh")
    assert [s.target for s in prep.masked.spans if s.kind != "name"] == ["up to 50 MB", "Settings > Appearance"]


def test_parties_and_parliaments_into_chinese() -> None:
    """"The Democrats won" came back 德玛克拉特斯, "The Labour Party won" 拉波尔 Party, "The Conservative
    Party lost 250 seats" 议员; "Liberal Democrats" is one party."""
    text = "The Democrats and the Labour Party beat the Conservative Party; the Liberal Democrats lost."
    assert [s.target for s in report_terms.find_report_terms(text, "en", "zh")] == ["民主党人", "工党", "保守党",
                                                                                   "自由民主党"]


def test_chinas_companies_and_a_tech_news_items_words() -> None:
    """华为发布了新款手机 came back "to publish a new cell phone" (Huawei gone), 续航里程 "resequentially";
    小米 is millet too (小米粥), so Xiaomi is only written."""
    found = report_terms.find_report_terms("华为和比亚迪公布续航里程，喝小米粥。", "zh", "en")
    assert [s.target for s in found] == ["Huawei", "BYD", "driving range"]
    assert [s.target for s in report_terms.find_report_terms("Xiaomi and Tencent", "en", "zh")] == ["小米", "腾讯"]


def test_a_central_banks_cut_into_english() -> None:
    """下调存款准备金率0.5个百分点 left its ratio to the model; 利率下调0.25个百分点 its direction."""
    found = report_terms.find_report_terms("下调存款准备金率，贷款市场报价利率不变。", "zh", "en")
    assert [s.target for s in found] == ["reserve requirement ratio", "loan prime rate"]
    changes = report_terms.find_changes("利率下调0.25个百分点，上调5%", "zh", "en")
    assert [s.target for s in changes] == ["down 0.25 percentage points", "up 5%"]


def test_a_market_report_into_english() -> None:
    """上证指数收涨0.5%，报3050.12点 came back "The previous expensed 0.5%, datagram 3050.12"; 创业板指跌1.2%
    "The foundation board is falling in 1.2%"."""
    prep = prepare("上证指数收涨0.5%，报3050.12点。", 16, tgt_lang="en", src_lang="zh")
    assert prep.copy == "The Shanghai Composite Index closed up 0.5%, at 3050.12 points."
    assert prepare("创业板指跌1.2%。", 16, tgt_lang="en", src_lang="zh").copy == "The ChiNext Index down 1.2%."
    assert prepare("会议于3点开始。", 16, tgt_lang="en", src_lang="zh").masked.spans[0].target == "3 o'clock"


def test_a_markets_close_into_chinese() -> None:
    """"The S&P 500 closed up 0.5%" came back 关闭了增长0.5% (closed as shut)."""
    changes = report_terms.find_changes("The S&P 500 closed up 0.5% and the Nasdaq fell 0.3%.", "en", "zh")
    assert [(s.text, s.target) for s in changes] == [("closed up 0.5%", "收涨0.5%"), ("fell 0.3%", "下降0.3%")]
    # "The STOXX 600 index closed 1.4% lower" came back 关闭了1.4%; "Germany's DAX lost 1.8%" kept no verb.
    changes = report_terms.find_changes("The index closed 1.4% lower. The DAX lost 1.8%.", "en", "zh")
    assert [(s.text, s.target) for s in changes] == [("closed 1.4% lower", "收跌1.4%"), ("lost 1.8%", "下降1.8%")]
    found = report_terms.find_report_terms("the Nasdaq Composite and the Dow Jones Industrial Average", "en", "zh")
    assert [s.target for s in found] == ["纳斯达克综合指数", "道琼斯工业平均指数"]


def test_the_chinese_super_leagues_clubs_and_beijing_time_into_english() -> None:
    """北京时间 came back "Beijing Times" (a newspaper), 上海海港队 "the Shanghai harbor team", 山东泰山
    "Shandong Taracis", 成都蓉城队 "Chengdu crease City"; 海港 and 泰山 alone are a harbour and a mountain."""
    found = report_terms.find_report_terms("北京时间晚，上海海港队战胜山东泰山队，领先成都蓉城队。", "zh", "en")
    assert [s.target for s in found] == ["Beijing time", "Shanghai Port", "Shandong Taishan", "Chengdu Rongcheng"]
    assert [s.target for s in report_terms.find_report_terms("海港队击败泰山队。", "zh", "en")] == \
        ["Shanghai Port", "Shandong Taishan"]
    assert report_terms.find_report_terms("我们去海港看船，再去泰山。", "zh", "en") == []
    # The port is only written: "Shanghai Port handled more containers" is 上海港's.
    assert report_terms.find_report_terms("Shanghai Port handled more containers.", "en", "zh") == []


def test_a_headings_hyphenated_term_in_title_case() -> None:
    """"Northwind Energy Announces Record Third-Quarter Results" came back 第三修正案, the third amendment."""
    found = report_terms.find_report_terms("Northwind Energy Announces Record Third-Quarter Results", "en", "zh")
    assert [(s.text, s.target) for s in found] == [("Third-Quarter", "第三季度")]


def test_a_rise_or_fall_to_a_sum_of_money_is_one_span() -> None:
    """"Net income rose to $37.2 million" came back 净利润 rose 至3720万美元: the verb kept in English."""
    changes = report_terms.find_changes("Net income rose to $37.2 million, from $29.5 million; costs fell to €2.1 "
                                        "billion.", "en", "zh")
    assert [(s.text, s.target) for s in changes] == [("rose to $37.2 million", "增至3720万美元"),
                                                    ("fell to €2.1 billion", "降至21亿欧元")]
    changes = report_terms.find_changes("净利润增至3720万美元，营业收入降至12.5亿元。", "zh", "en")
    assert [s.target for s in changes] == ["rose to $37.2 million", "fell to 1.25 billion yuan"]
    assert report_terms.find_changes("Sales fell to 3,000 units.", "en", "zh") == []  # no money, no level


def test_a_shops_price_line_of_terms_is_written_with_english_spacing() -> None:
    """价格：¥1299（包邮） came back "Price: ¥1299 (Package Post)"; with the term, written without the
    model, "Price: ¥1299(free shipping)": English puts a space before the bracket."""
    prep = prepare("价格：¥1299（包邮）", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text is None and prep.copy == "Price: ¥1299 (free shipping)"
    assert prepare("收入（亿元）", 16, tgt_lang="en", src_lang="zh").copy == "Revenue (100 million yuan)"


def test_an_official_notices_holiday_terms_into_english() -> None:
    """关于2027年元旦放假安排的通知 came back "I'm not sure about the 2027 nean", 值班电话 "Value phone",
    行政办公室 "A politic office"; 各部门、各单位： "Groups, units:", 特此通知。 "This notification."."""
    found = report_terms.find_report_terms("元旦放假安排，值班人员和值班电话，行政办公室，重大突发事件。", "zh", "en")
    assert [s.target for s in found] == ["New Year's Day", "holiday arrangements", "staff on duty", "duty phone",
                                         "Administrative Office", "major emergencies"]
    assert prepare("各部门、各单位：", 16, tgt_lang="en", src_lang="zh").copy == "To All Departments and Units:"
    assert prepare("特此通知。", 16, tgt_lang="en", src_lang="zh").copy == "Notice is hereby given."


def test_a_faq_and_a_kettle_manuals_words_into_chinese() -> None:
    """"Can I get a refund?" came back 我能买下衣服吗 (buying clothes), "third parties" 第三部分 (a third
    part), "this kettle" 此番茄 (a tomato), "the appliance" 应用 (an application), Descaling 计算."""
    found = report_terms.find_report_terms("Refunds go to third parties; descale the kettle and other appliances.",
                                           "en", "zh")
    assert [s.target for s in found] == ["退款", "第三方", "除垢", "水壶", "电器"]
    assert report_terms.find_report_terms("第三方库和退款", "zh", "en") == []  # only written


def test_a_business_letters_and_a_papers_terms_into_english() -> None:
    """贵公司 came back "the expensive company", 销售部 "The sales", 均方根误差 "the root" (its figure's
    metric gone), 图神经网络 "neuro networks"."""
    found = report_terms.find_report_terms("贵公司的采购合同由销售部负责；图神经网络的均方根误差。", "zh", "en")
    assert [s.target for s in found] == ["your company", "purchase contract", "Sales Department",
                                         "graph neural network", "root mean square error"]
    assert report_terms.find_report_terms("Thanks to your company.", "en", "zh") == []  # only written


def test_a_central_banks_move_in_basis_points_into_chinese() -> None:
    """"The Federal Reserve cut interest rates by 25 basis points" came back 由25基点切断利率 (cut as
    severed); "rose 12 basis points" 12基点 without its rise."""
    changes = report_terms.find_changes("The Fed cut interest rates by 25 basis points; yields rose 12 basis points.",
                                        "en", "zh")
    assert [(s.text, s.target) for s in changes] == [("cut interest rates by 25 basis points", "下调利率25个基点"),
                                                    ("rose 12 basis points", "提高12个基点")]
    changes = report_terms.find_changes("It raised its benchmark rate by 0.5 percentage points.", "en", "zh")
    assert [s.target for s in changes] == ["上调基准利率0.5个百分点"]


def test_chinas_universities_and_a_news_items_words_into_english() -> None:
    """毕业于清华大学 came back "graduated to Owner", 博士学位 "a degree", 新冠疫苗 "new champ vaccine",
    34.5亿剂次 "3.45 billion" (the doses gone)."""
    found = automatic_terms("毕业于清华大学，获得博士学位；累计接种新冠疫苗34.5亿剂次。", [], "zh", "en")
    assert [s.target for s in found] == ["Tsinghua University", "doctorate", "COVID-19 vaccine", "3.45 billion doses"]


def test_a_press_conferences_speakers_and_trade_terms_into_english() -> None:
    """发言人： came back "Short:", 我国货物贸易 "China dolls", 外贸 "surrogate", 稳中提质 "sympathetics"."""
    prep = prepare("发言人：今年我国货物贸易稳中提质。", 16, tgt_lang="en", src_lang="zh")
    assert prep.prefix == "Spokesperson: "
    assert [s.target for s in prep.masked.spans] == ["China", "trade in goods", "stable growth with improved quality"]
    assert prepare("记者：外贸形势如何？", 16, tgt_lang="en", src_lang="zh").prefix == "Reporter: "


def test_a_science_news_items_and_a_phone_launchs_terms() -> None:
    """"the James Webb Space Telescope" came back "James Webbace Telescope", "the journal Nature" 日记
    (a diary); 折叠屏手机 "a folder cell phone", 无线快充 "ugly"."""
    found = report_terms.find_report_terms("Using the James Webb Space Telescope, the journal Nature says a red "
                                           "dwarf star...", "en", "zh")
    assert [s.target for s in found] == ["詹姆斯·韦布空间望远镜", "《自然》杂志", "红矮星"]
    found = report_terms.find_report_terms("新品发布会推出折叠屏手机，支持无线快充。", "zh", "en")
    assert [s.target for s in found] == ["product launch event", "foldable phone", "wireless fast charging"]


def test_a_terms_possessive_is_the_term() -> None:
    """"without the Landlord's prior written consent" came back 兰德尔·德尔德的前任 ("Randall Dell's ex"):
    the term was not read before its 's."""
    found = [(s.text, s.target) for s in report_terms.find_report_terms(
        "No pets without the Landlord's prior written consent, and the Tenant’s too.", "en", "zh")]
    assert found == [("Landlord", "出租方"), ("prior written consent", "事先书面同意"), ("Tenant", "承租方")]
    assert report_terms.find_report_terms("the Landlord'd say", "en", "zh") == []  # a contraction


@pytest.mark.parametrize(("text", "found"), [
    # "published in the journal Nature Energy" came back 《自然》杂志英格: a name going on in capitals.
    ("It was published in the journal Nature Medicine on Monday.", []),
    ("It was published in the journal Nature Energy on Monday.", [("the journal Nature Energy", "《自然-能源》杂志")]),
    ("It was published in the journal Nature on Monday.", [("the journal Nature", "《自然》杂志")]),
    ("Tenant Obligations", [("Tenant", "承租方")]),  # a heading: every word goes on in capitals
])
def test_a_name_of_the_list_that_goes_on_in_capitals_is_another_name(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in report_terms.find_report_terms(text, "en", "zh")] == found


def test_a_quarterly_briefs_change_on_the_quarter_and_its_shopping_festival() -> None:
    """较上季度提高2.3个百分点 came back "above season up 2.3 percentage points"; “双十一” "double 11"
    (its 十一 read as the number 11 before the festival's name)."""
    found = [(s.text, s.target) for s in report_terms.find_changes("占比39.8%，较上季度提高2.3个百分点。", "zh", "en")]
    assert found == [("较上季度提高2.3个百分点", "up 2.3 percentage points quarter on quarter")]
    assert [s.target for s in report_terms.find_changes("较上月下降3%", "zh", "en")] == ["down 3% month on month"]
    from doctrans.direction_terms import automatic_terms

    terms = automatic_terms("公司将重点做好“双十一”促销活动。", [], "zh", "en")
    assert [(s.text, s.target) for s in terms] == [("双十一", "Singles' Day")]


def test_an_olympic_reports_terms_in_a_headline_and_a_possessive_place() -> None:
    """"Rivers Claims First Olympic Gold" came back 第Olympic季，金发 (blonde hair); "Jamaica's Alicia
    Rivers" was left in English."""
    found = [(s.text, s.target) for s in report_terms.find_report_terms(
        "Rivers Claims First Olympic Gold in Paris", "en", "zh")]
    assert found == [("Olympic Gold", "奥运金牌")]
    from doctrans.place_names import find_place_names

    assert [s.target for s in find_place_names("Jamaica's Alicia Rivers won.", "en", "zh")] == ["牙买加"]


def test_an_acquisitions_terms() -> None:
    """An acquisition's "subject to regulatory approvals" was left in English; "9,000 organisations"
    had no counter."""
    from doctrans.counted_nouns import find_counted_nouns

    assert [s.target for s in find_counted_nouns("more than 9,000 organisations in 40 countries", "en", "zh")] == [
        "9,000家机构", "40个国家"]
    found = [(s.text, s.target) for s in report_terms.find_report_terms(
        "It is expected to close in 2027, subject to regulatory approvals and customary closing conditions.",
        "en", "zh")]
    assert found == [("subject to regulatory approvals", "尚需获得监管部门批准"),
                     ("customary closing conditions", "惯例成交条件")]


@pytest.mark.parametrize(("text", "expected"), [
    # An inflation report: "Consumer prices rose 2.4% in October from a year earlier" came back
    # 来自一个早期的10月中的居民消费价格增长2.4% ("from an early one"), "expected a rise of 2.6%" 2.6%的启发
    # (an inspiration).
    ("Consumer prices rose 2.4% in October from a year earlier.", [("rose 2.4% in October from a year earlier",
                                                                     "10月同比增长2.4%")]),
    ("Economists had expected a rise of 2.6%.", [("a rise of 2.6%", "增长2.6%")]),
    ("a drop of 3 percent", [("a drop of 3 percent", "下降3%")]),
    ("It rose 2.4% in October.", [("rose 2.4%", "增长2.4%")]),  # no comparison: the month is the model's
])
def test_a_months_change_on_the_year_and_a_change_named_as_a_noun(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in report_terms.find_changes(text, "en", "zh")] == expected


def test_a_change_by_a_sum_of_money_against_the_year_before_into_english() -> None:
    # A work summary's 合同金额较上年增加2.3亿元 came back "230 million yuan has been added to the last year".
    found = report_terms.find_changes("合同金额较上年增加2.3亿元，净利润同比减少1200万元。", "zh", "en")
    assert [(s.text, s.target) for s in found] == [("较上年增加2.3亿元", "up 230 million yuan year on year"),
                                                   ("同比减少1200万元", "down 12 million yuan year on year")]
    assert report_terms.find_changes("收入增加2.3亿元。", "zh", "en") == []  # no period: the model's


def test_an_before_a_restored_span_that_starts_with_a_vowel() -> None:
    # An app's 一个账号可以… came back "A account can…" (账号 a report term: account).
    from doctrans.engine.protect import an_before_a_vowel

    assert an_before_a_vowel("A account can log in. It is a app.", ["account", "app"]) == \
        "An account can log in. It is an app."
    assert an_before_a_vowel("a unit, a one-off, a EU law", ["unit", "one-off", "EU"]) == \
        "a unit, a one-off, a EU law"
    prep = prepare("一个账号可以登录。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore(prep.model_text.replace("一个", "A ").replace("可以登录。", " can log in.")).text == \
        "An account can log in."


def test_an_official_notices_fixed_phrases_into_english() -> None:
    # A city's notice: its salutation 各区人民政府，市政府各部门 came back "Community governments, the city
    # department", 本通知自发布之日起施行 "This notices the line of the release of the Sunday".
    found = find_report_terms("各区人民政府，市政府各部门：", "zh", "en")
    assert [s.target for s in found] == ["the people's governments of all districts",
                                         "all departments of the municipal government"]
    assert [s.target for s in find_report_terms("本通知自发布之日起施行。", "zh", "en")] == \
        ["This notice shall take effect on the date of its release"]



@pytest.mark.parametrize(("text", "found"), [
    # A UN agency's report in the news: "rose to 295 million last year, up from 282 million in 2024" came
    # back 从2.95亿发布到2.82亿, the figures swapped.
    ("Hunger rose to 295 million last year, up from 282 million in 2024.",
     [("rose to 295 million last year, up from 282 million", "去年从2.82亿增至2.95亿")]),
    ("Sales fell to 1,200, down from 1,500.", [("fell to 1,200, down from 1,500", "从1,500降至1,200")]),
    ("It rose to 5%, up from 3%.", [("rose to 5%", "升至5%")]),  # a level's percentage: the level alone
])
def test_a_change_to_a_level_with_where_it_started(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in report_terms.find_changes(text, "en", "zh")] == found


@pytest.mark.parametrize(("text", "titled"), [
    ("Rovers Edge Past City in Late Thriller", True),
    ("Apple Unveils iPhone 17 Pro", True),
    ("The Landlord's Duties", True),
    ("How to use the API", False),
    # Mostly names, but a verb in small letters: a sentence (a lease's parties).
    ("This Lease Agreement is made on March 3, 2026 between Harbor View Properties LLC and Daniel Ortiz.", False),
])
def test_a_title_case_heading_writes_only_its_small_words_in_small_letters(text: str, titled: bool) -> None:
    assert report_terms.title_case(text) is titled


def test_a_leases_common_words() -> None:
    """"the lease ends" was left in English (only the defined term, the Lease, was read); "A late fee of
    $75 applies" came back 75美元适用, the fee gone."""
    found = find_report_terms("After the lease ends, a late fee and the security deposit remain.", "en", "zh")
    assert [s.target for s in found] == ["租约", "滞纳金", "押金"]
    # Its name in a sentence (no title-case heading, so "Lease" before "Agreement" read as a longer name)
    found = find_report_terms("This Lease Agreement is made on March 3, 2026.", "en", "zh")
    assert [s.target for s in found] == ["租赁合同"]


def test_an_institution_speaking_of_itself() -> None:
    """我校将于12月5日举行… came back "I'm going to open …": 我校 is our school, but not inside 自我校准
    (self-calibration) or 我校准了 (I calibrated), which TVsub's lines hold; 我市 not in 我市场."""
    def targets(text: str) -> list[str]:
        return [s.target for s in find_report_terms(text, "zh", "en")]
    assert targets("我校将于12月5日举行活动，我市今年新增岗位。") == ["our school", "our city"]
    assert targets("更好地进行自我校准。我校准了扫描仪。我市场调查做完了。") == []
    assert targets("总金额77万元（含税），价格包含税费。") == ["tax included"]
    assert targets("每日两次，饭后服用。午饭后继续，晚饭前回来。") == ["after meals"]


def test_a_change_against_a_year_named() -> None:
    """二氧化碳排放量较2005年下降了48.4% came back "Carbon dioxide ranks 2005 down 48.4%"."""
    changes = report_terms.find_changes("二氧化碳排放量较2005年下降了48.4%，收入比2019年增长12%。", "zh", "en")
    assert [s.target for s in changes] == ["down 48.4% from 2005", "up 12% from 2019"]


def test_a_rows_other_chinese_spellings_are_in_the_third_column() -> None:
    """Two spellings written with a comma in the second column were one term no text writes (单位地区生产
    总值能耗,单位GDP能耗): the others go in the third column, comma-separated."""
    for line in data_lines("report_terms.tsv"):
        chinese = line.split("\t")[1]
        assert "," not in chinese and "，" not in chinese, line


def test_a_clinical_papers_finding() -> None:
    """两组差异有统计学意义（P<0.05） came back "both diffs have statistics meaning"."""
    assert [s.target for s in find_report_terms("两组差异有统计学意义（P<0.05）。", "zh", "en")] == [
        "the difference was statistically significant"]


@pytest.mark.parametrize(("text", "src", "tgt", "term", "target"), [
    ("专家提醒，可能发生5级左右余震。", "zh", "en", "余震", "aftershock"),
    ("另有16人失联。", "zh", "en", "失联", "lost contact"),
    ("据应急管理部消息", "zh", "en", "应急管理部", "Ministry of Emergency Management"),
    ("中国地震台网正式测定", "zh", "en", "中国地震台网", "China Earthquake Networks Center"),
    ("请群众远离危房。", "zh", "en", "危房", "unsafe buildings"),
    ("We returned $620 million through dividends and share repurchases.", "en", "zh", "share repurchases",
     "股票回购"),
    ("Before first use, charge the battery for at least 4 hours.", "en", "zh", "charge the battery", "给电池充电"),
    ("Press and hold the power button.", "en", "zh", "Press and hold", "按住"),
    ("insert a paperclip into the hole", "en", "zh", "paperclip", "回形针"),
    ("根据国务院办公厅通知精神", "zh", "en", "国务院办公厅", "General Office of the State Council"),
    ("1月1日至1月3日放假调休，共3天。", "zh", "en", "放假调休", "days off"),
    ("The postmark read Edinburgh.", "en", "zh", "postmark", "邮戳"),
    ("10月份国民经济保持总体平稳、稳中有进发展态势。", "zh", "en", "稳中有进", "steady progress"),
    ("10月份国民经济保持总体平稳", "zh", "en", "国民经济", "the national economy"),
    ("全国固定资产投资（不含农户）41.8万亿元", "zh", "en", "不含农户", "excluding rural households"),
    ("A hit rate below 60% means the TTL is too short.", "en", "zh", "hit rate", "命中率"),
    ("| Time to live, in seconds |", "en", "zh", "Time to live", "生存时间"),
    ("killed by the OOM killer.", "en", "zh", "OOM killer", "OOM killer"),
    ("She studied physics at MIT.", "en", "zh", "MIT", "麻省理工学院"),
    ("you said Harvard or West Point.", "en", "zh", "Harvard", "哈佛"),
    ("他毕业于麻省理工学院。", "zh", "en", "麻省理工学院", "the Massachusetts Institute of Technology"),
    ("keeping its benchmark rate in the 4.25%-4.50% range", "en", "zh", "benchmark rate", "基准利率"),
    ("Policymakers still expect two quarter-point cuts", "en", "zh", "quarter-point cuts", "25个基点的降息"),
    ("according to their median projection.", "en", "zh", "median projection", "中值预测"),
    ("最近我们把服务从单体架构迁移到了微服务。", "zh", "en", "微服务", "microservices"),
    ("采用了基于消息队列的最终一致性方案，用 Kafka 做事件总线。", "zh", "en", "事件总线", "event bus"),
    ("通过 HPA 根据 CPU 使用率自动扩缩容。", "zh", "en", "自动扩缩容", "autoscaling"),
    ("a non-exclusive, non-transferable license to use the Software.", "en", "zh", "non-transferable", "不可转让"),
    ("governed by the laws of the State of New York.", "en", "zh", "the State of New York", "纽约州"),
    ("黄山是中国著名的风景名胜区。", "zh", "en", "风景名胜区", "scenic area"),
    ("1990年被列入世界文化与自然遗产名录。", "zh", "en", "世界文化与自然遗产名录",
     "the World Cultural and Natural Heritage List"),
    ("景区门票旺季190元/人，淡季150元/人", "zh", "en", "淡季", "off-season"),
    ("也可以乘坐云谷索道，单程票价80元。", "zh", "en", "单程票价", "one-way fare"),
    ("Arsenal equalised shortly after half-time through Saka.", "en", "zh", "equalised", "扳平比分"),
    ("but Foden's late strike sealed the win.", "en", "zh", "sealed the win", "锁定胜局"),
    ("We conducted a randomized controlled trial of 1,204 participants.", "en", "zh", "randomized controlled trial",
     "随机对照试验"),
    ("significantly improved glycemic control in adults", "en", "zh", "glycemic control", "血糖控制"),
    ("续航比上一代强很多，重度使用一天一充没问题。", "zh", "en", "续航", "battery life"),
    ("白天成像清晰，夜景模式一般。", "zh", "en", "夜景模式", "night mode"),
    ("will receive compensatory time off or overtime pay", "en", "zh", "overtime pay", "加班费"),
    ("Requests for leave must be submitted through the HR portal", "en", "zh", "HR portal", "HR门户"),
    ("受强冷空气影响，预计气温将下降8～10℃。", "zh", "en", "强冷空气", "strong cold air"),
    ("华为发布了新一代旗舰手机Mate 80系列，起售价为5499元。", "zh", "en", "起售价", "starting price"),
    ("将进一步推动供应链本土化。", "zh", "en", "供应链本土化", "supply chain localization"),
    ("Free shipping on orders over $50. 30-day money-back guarantee.", "en", "zh", "money-back guarantee", "退款保证"),
    ("如有疑问，请联系班主任。", "zh", "en", "班主任", "head teacher"),
    ("Astronomers have discovered a rocky planet orbiting a star.", "en", "zh", "rocky planet", "岩石行星"),
    ("published on Tuesday in the journal Nature Astronomy.", "en", "zh", "the journal Nature Astronomy",
     "《自然-天文学》"),
])

def test_terms_of_a_quake_report_a_manual_and_a_notice(text: str, src: str, tgt: str, term: str, target: str) -> None:
    assert (term, target) in [(s.text, s.target) for s in find_report_terms(text, src, tgt)]


@pytest.mark.parametrize("text", ["按住她的腿", "你血流不止 用力按住伤口", "在六年前的一场地震中部分倒塌",
                                  "命中率不错吧", "根据当前 Dialect 来解析。", "TNT炸药的性价比可不怎么高"])
def test_words_only_written_are_not_read(text: str) -> None:
    """按住 is to hold someone down as often (TVsub), 震中 (the epicentre) is inside 地震中, and TVsub's
    命中率 is a shooter's."""
    only_written = ("按住", "震中", "命中率", "根据", "性价比")
    assert [s.text for s in find_report_terms(text, "zh", "en") if s.text in only_written] == []


@pytest.mark.parametrize(("text", "change", "written"), [
    ("with the S&P 500 closing up 0.4% and", "closing up 0.4%", "收涨0.4%"),
    ("and the Nasdaq gaining 0.3%.", "gaining 0.3%", "增长0.3%"),
    ("the Dow falling 1.2% on the day", "falling 1.2%", "下降1.2%"),
])
def test_a_markets_moves_in_the_participle_are_changes(text: str, change: str, written: str) -> None:
    """A wire story's "closing up 0.4%" came back 关闭增长0.4% (shut), "gaining 0.3%" 获得0.3%."""
    assert (change, written) in [(s.text, s.target) for s in report_terms.find_changes(text, "en", "zh")]


def test_a_title_before_a_persons_name_is_a_term() -> None:
    """"Senate Majority Leader Chuck Schumer" came back 军队Chuck Schumer: a given name after the title
    is no longer name of it (as "the journal Nature Energy" is one)."""
    spans = prepare("Senate Majority Leader Chuck Schumer called it a success.", 16, tgt_lang="zh", src_lang="en")
    assert [(s.text, s.target) for s in spans.masked.spans] == [("Senate Majority Leader", "参议院多数党领袖")]
    found = report_terms.find_report_terms("the Senate Majority Leader Office said", "en", "zh")
    assert [t.text for t in found] == []


def test_a_change_before_a_sentences_final_de() -> None:
    """A blog's title 我们是如何把接口延迟降低80%的 came back "delay the interface to 80%"; 增长5%的目标
    (a 5% growth target) is no change."""
    changes = report_terms.find_changes("我们是如何把接口延迟降低80%的", "zh", "en")
    assert [(s.text, s.target) for s in changes] == [("降低80%", "down 80%")]
    assert report_terms.find_changes("实现增长5%的目标。", "zh", "en") == []


@pytest.mark.parametrize(("text", "src", "tgt", "found"), [
    # 公司全年研发投入4.3亿元，占营业收入的比例为5.0% came back "430 million yuan of operating revenue is 5.0%".
    ("研发投入4.3亿元，占营业收入的比例为5.0%。", "zh", "en",
     ("占营业收入的比例为5.0%", "accounting for 5.0% of operating revenue")),
    ("出口增长，占GDP的18%。", "zh", "en", ("占GDP的18%", "accounting for 18% of GDP")),
    ("R&D spending was $4.3 billion, accounting for 5.0% of revenue.", "en", "zh",
     ("accounting for 5.0% of revenue", "占收入的5.0%")),
    # 以总股本12亿股为基数，向全体股东每10股派发现金红利1.5元 came back "fits in base 1.2 billion shares, 10 stock
    # dispatch to the full share of 1.5 yuan".
    ("公司拟以总股本12亿股为基数，向全体股东每10股派发现金红利1.5元（含税）。", "zh", "en",
     ("拟以总股本12亿股为基数，向全体股东每10股派发现金红利1.5元",
      "plans to pay a cash dividend of 1.5 yuan for every 10 shares to all shareholders, "
      "based on a total share capital of 1.2 billion shares")),
    ("每10股派发现金红利2.5元。", "zh", "en",
     ("每10股派发现金红利2.5元", "a cash dividend of 2.5 yuan for every 10 shares")),
])
def test_a_share_of_a_named_whole_and_a_cash_dividend(text: str, src: str, tgt: str, found: tuple[str, str]) -> None:
    assert found in [(s.text, s.target) for s in automatic_terms(text, [], src, tgt)]


@pytest.mark.parametrize("text", [
    "他占了30%的股份。",  # 占 and a figure, no whole the report names
    "出口额占GDP的18%。",  # the sentence's verb: its tense is the model's
    "占营业收入的5%的目标",  # before 的: a target of 5%
])
def test_a_share_the_model_writes(text: str) -> None:
    assert not any(s.target and "accounting for" in s.target for s in automatic_terms(text, [], "zh", "en"))


@pytest.mark.parametrize(("text", "found"), [
    # 猪肉价格……仍比去年同期低15.6% came back "it's still less than last 15.6%".
    ("猪肉价格环比上涨3.2%，但仍比去年同期低15.6%。", ("比去年同期低15.6%", "15.6% lower than a year earlier")),
    ("销量较上月高5%。", ("较上月高5%", "5% higher than a month earlier")),
])
def test_a_level_above_or_below_the_period_before(text: str, found: tuple[str, str]) -> None:
    assert found in [(s.text, s.target) for s in automatic_terms(text, [], "zh", "en")]
