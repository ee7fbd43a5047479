"""Amounts of money keep their currency (doctrans.currency): the figure and its currency as one
span, written the target's way, through masking, restoration and the check after translation."""

from __future__ import annotations

import re

import pytest

from doctrans import currency
from doctrans.currency import find_amounts
from doctrans.engine.protect import prepare
from doctrans.magnitudes import find_magnitudes
from tests.docstring_tables import three_column_rows


def docstring_table() -> list[tuple[str, str, str]]:
    return three_column_rows(currency)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 28


@pytest.mark.parametrize(("source", "en", "zh"), docstring_table())
def test_docstring_table_row(source: str, en: str, zh: str) -> None:
    chinese_source = bool(re.search(r"[\u4e00-\u9fff]", source))
    text = f"收入为{source}。" if chinese_source else f"Revenue was {source} last year."
    tgt = "en" if chinese_source else "zh"
    [span] = currency.find_amounts(text, tgt)
    assert span.text == source
    assert span.target == (en if chinese_source else zh)
    # As written into its own language: nothing to convert.
    assert currency.find_amounts(text, "zh" if chinese_source else "en") == []


@pytest.mark.parametrize(("text", "tgt"), [
    ("返回一个3元组。", "en"),  # a 3-tuple
    ("元素个数为5元素", "en"),
    ("解一元二次方程，一元复始，吃了三块蛋糕。", "en"),  # unary, an idiom, pieces of cake
    ("他拿了一块毛巾，画了两块三角形，等了五分钟，十分满意。", "en"),  # a towel, triangles, minutes, very
    ("It weighs 5 pounds and costs ¥300.", "zh"),  # pounds and ¥ are ambiguous
    ("It costs 5 Canadian dollars.", "zh"),
    ("It costs $5 million.", "de"),  # only English and Chinese targets
])
def test_what_is_not_converted(text: str, tgt: str) -> None:
    assert currency.find_amounts(text, tgt) == []


def test_a_clause_comma_before_a_figure_does_not_hide_it() -> None:
    assert [s.target for s in currency.find_amounts("费用为500元，30美元。", "en")] == ["500 yuan", "$30"]
    assert [s.target for s in find_magnitudes("增长5%，30万人。", "en")] == ["300,000"]
    assert [s.target for s in find_magnitudes("共1，250万人。", "en")] == ["12.5 million"]


def test_the_amount_reaches_the_output_whole() -> None:
    prep = prepare("他们花了300万欧元。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "他们花了⦅1⦆。"
    assert prep.restore("They spent ⦅1⦆").text == "They spent €3 million."
    chinese = prepare("The project cost $4.2 billion.", 16, tgt_lang="zh", src_lang="en")
    assert chinese.model_text == "The project cost ⦅1⦆."
    assert chinese.restore("项目花费了⦅1⦆").text == "项目花费了42亿美元。"


@pytest.mark.parametrize(("text", "written"), [
    # A contract's 人民币壹佰贰拾万元整（¥1,200,000.00） came back "a human coincion, ¥1,200,000.00".
    ("本合同总金额为人民币壹佰贰拾万元整（¥1,200,000.00）。", ["RMB One Million Two Hundred Thousand Only"]),
    ("合计：人民币贰万圆整", ["RMB Twenty Thousand Only"]),
    ("金额：叁仟零伍元伍角整", ["RMB 3,005.50"]),  # with jiao and fen: in digits
    ("人民币壹拾贰元", ["RMB Twelve"]),
])
def test_an_amount_in_capital_numerals_is_written_in_words(text: str, written: list[str]) -> None:
    assert [s.target for s in find_amounts(text, "en")] == written


def test_english_words_for_an_amount() -> None:
    from doctrans.chinese_numerals import english_words, read_capital_numeral

    assert [english_words(n) for n in (21, 115, 3005, 1200000, 10**9)] == [
        "Twenty-One", "One Hundred Fifteen", "Three Thousand and Five", "One Million Two Hundred Thousand",
        "One Billion"]
    assert read_capital_numeral("壹佰贰拾万") == 1200000 and read_capital_numeral("叁肆") is None


@pytest.mark.parametrize(("text", "found"), [
    # A charity's "We spent 86p of every pound" came back 86个磅.
    ("We spent 86p of every pound on our projects.", [("86p", "86便士")]),
    ("A stamp costs 1.5p more.", [("1.5p", "1.5便士")]),
    ("Meet at 5p.m. on a 1080p screen, see p. 12.", []),  # a time, a resolution, a page
])
def test_pence_after_a_figure_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_amounts(text, "zh")] == found


def test_a_capital_amounts_label_goes_with_it() -> None:
    """（大写：肆拾捌万元整） came back "(uppercase:RMB Four Hundred Eighty Thousand Only)"."""
    found = [(s.text, s.target) for s in find_amounts("人民币480,000元（大写：肆拾捌万元整）", "en")]
    assert ("大写：肆拾捌万元整", "in words: RMB Four Hundred Eighty Thousand Only") in found


@pytest.mark.parametrize(("text", "found"), [
    # An opinion column's "to save $180,000 a year" came back 180,000美元年, the year glued to the money.
    ("to save $180,000 a year.", [("$180,000 a year", "每年180,000美元")]),
    ("It costs $5 per month and 10 dollars an hour.",
     [("$5 per month", "每月5美元"), ("10 dollars an hour", "每小时10美元")]),
    ("$5 a piece", [("$5", "5美元")]),
    # A pricing page's table: $9/month came back 9美元/month.
    ("$9/month, $29 / mo", [("$9/month", "每月9美元"), ("$29 / mo", "每月29美元")]),
    # ... and for each thing a market counts in: an earnings release's "$1.43 per diluted share"
    # came back 1.43美元每股摊薄, "$0.38 per share" 0.38美元每股.
    ("or $1.43 per diluted share, a dividend of $0.38 per share and 45 cents a share",
     [("$1.43 per diluted share", "每股摊薄1.43美元"), ("$0.38 per share", "每股0.38美元"),
      ("45 cents a share", "每股45美分")]),
    ("Brent at $82 a barrel, gold at $2,400 an ounce, rooms $120 per night, tickets $25 per person, $3.10 a gallon",
     [("$82 a barrel", "每桶82美元"), ("$2,400 an ounce", "每盎司2,400美元"), ("$120 per night", "每晚120美元"),
      ("$25 per person", "每人25美元"), ("$3.10 a gallon", "每加仑3.10美元")]),
    ("$5 a shareholder", [("$5", "5美元")]),
])
def test_an_amount_for_each_period(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_amounts(text, "zh")] == found


def test_an_amount_for_each_period_into_english() -> None:
    """最低工资标准提高至每月2690元 came back "to every month 2690 yuan": 2,690 yuan a month."""
    assert [(s.text, s.target) for s in find_amounts("提高至每月2690元，会员费每年199元，每人500元。", "en")] == [
        # 每人 too, since an exam notice's 报名费为每人30元 came back "paid for each other 30 yuan"
        ("每月2690元", "2,690 yuan a month"), ("每年199元", "199 yuan a year"), ("每人500元", "500 yuan per person")]
    # ... and a price for each thing a market counts in (每股 before the amount, as 每月).
    assert [(s.text, s.target) for s in find_amounts("每股派发0.38元，油价每桶82美元，金价每盎司2400美元。", "en")] == [
        ("0.38元", "0.38 yuan"), ("每桶82美元", "$82 a barrel"), ("每盎司2400美元", "$2,400 an ounce")]


def test_an_amount_into_english_is_written_in_groups_of_three() -> None:
    """A statistics release's 人均可支配收入52316元 came back "52316 yuan": English groups the digits."""
    found = [(s.text, s.target) for s in find_amounts("收入52316元，房租3500元，车费28.5元，另付1,250元。", "en")]
    assert found == [("52316元", "52,316 yuan"), ("3500元", "3,500 yuan"), ("28.5元", "28.5 yuan"),
                     ("1,250元", "1,250 yuan")]
