"""Fractions in words reach the model as the fraction they are, both ways (doctrans.fraction_words):
the docstring's table row by row through the direction's terms, restoration, and the check after
translation."""

from __future__ import annotations

import re

import pytest

from doctrans import fraction_words
from doctrans.direction_terms import automatic_terms
from doctrans.engine.protect import prepare
from doctrans.fraction_words import (
    chinese_discounts,
    chinese_fractions,
    chinese_tenths,
    english_fractions,
    english_shares,
)
from doctrans.report import sentence_warnings
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(fraction_words)) == 30


@pytest.mark.parametrize(("source", "target"), two_column_rows(fraction_words))
def test_docstring_table_row(source: str, target: str) -> None:
    chinese = bool(re.search(r"[\u4e00-\u9fff]", source))
    src, tgt = ("zh", "en") if chinese else ("en", "zh")
    if chinese:
        found = chinese_fractions(source) + chinese_tenths(source) + chinese_discounts(source)
    else:
        shares = english_shares(source)
        found = shares + english_fractions(source, shares)
    assert [s.output for s in found] == ([] if target == "(none)" else [target])
    # and through the direction's terms, which the engine masks
    if target != "(none)":
        assert any(target in s.output for s in automatic_terms(source, [], src, tgt))  # with its qualifier


def test_the_fraction_comes_back_whole_and_a_lost_one_is_reported() -> None:
    source = "Consumer spending accounts for more than two-thirds of economic activity."
    prep = prepare(source, 16, tgt_lang="zh", src_lang="en")
    # "more than" goes with the fraction (doctrans.qualifiers)
    assert prep.model_text == "⦅1⦆ accounts for ⦅2⦆ of economic activity."
    assert prep.restore("⦅1⦆占经济活动的⦅2⦆。").text == "消费者支出占经济活动的超过三分之二。"
    warnings = sentence_warnings(source, "消费者支出超过两倍的经济活动。", tgt_lang="zh", src_lang="en")
    assert any(w.problem == "missing" and w.span == "超过三分之二" for w in warnings)


def test_into_english_the_fraction_is_written_in_words() -> None:
    prep = prepare("超过三分之二的受访者表示满意。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("⦅1⦆ of respondents were satisfied.").text == \
        "More than two-thirds of respondents were satisfied."


@pytest.mark.parametrize(("text", "written"), [
    ("广东、江苏、浙江三省合计占全国的近三分之一。", "nearly one-third"),  # came back "compensive one-third"
    ("超过三分之二的受访者表示满意。", "more than two-thirds"),
    ("约四成的企业亏损。", "about 40%"),
])
def test_a_fractions_qualifier_goes_with_it(text: str, written: str) -> None:
    assert written in [s.output for s in prepare(text, 16, tgt_lang="en", src_lang="zh").masked.spans]


@pytest.mark.parametrize(("text", "found"), [
    # "fuel costs fell by a fifth" came back 被第五次损失了 (the fifth time).
    ("while fuel costs fell by a fifth.", ["下降了五分之一"]),
    ("Sales grew by a third last year.", ["增长了三分之一"]),
    ("Costs were cut by a quarter in the spring.", ["下降了四分之一"]),
    ("It is smaller by a third.", ["三分之一"]),  # no change verb: the fraction alone
    ("It was approved by a third party.", []),  # a noun follows: no size of a change
])
def test_a_changes_size_as_a_fraction(text: str, found: list[str]) -> None:
    assert [s.target for s in fraction_words.english_fractions(text)] == found


def test_a_discount_with_digits_is_one_span_with_them() -> None:
    """低至5折起 (down to half price) and 打8.5折 (15% off): the digits are verbatim spans, the
    discount holds them; 折叠 (folding) and 骨折 (a fracture) are no discounts."""
    found = automatic_terms("低至5折起，会员打8.5折，折叠椅骨折了。", [], "zh", "en")
    assert [(s.text, s.target) for s in found] == [("5折", "50% off"), ("8.5折", "15% off")]
