"""A report's periods (doctrans.report_periods): ``Q3 2024`` <-> ``2024年第三季度``, ``FY2024`` <-> ``2024财年``."""

from __future__ import annotations

import re

import pytest

from doctrans import report_periods
from doctrans.direction_terms import automatic_terms
from doctrans.report_periods import find_report_periods
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(report_periods)) == 25


@pytest.mark.parametrize(("source", "en", "zh"), three_column_rows(report_periods))
def test_docstring_table_row(source: str, en: str, zh: str) -> None:
    chinese = re.search("[\u4e00-\u9fff]", source) is not None
    text = f"营业收入在{source}增长。" if chinese else f"Revenue grew in {source}."
    src, tgt = ("zh", "en") if chinese else ("en", "zh")
    [span] = find_report_periods(text, src, tgt)
    assert (span.text, span.target) == (source, en if chinese else zh)
    assert find_report_periods(text, tgt, src) == []


def test_a_period_is_one_span_before_the_dates_and_the_quarters_terms() -> None:
    terms = automatic_terms("2024年第三季度营业收入增长12%。", [], "zh", "en")
    assert [(t.text, t.target) for t in terms if t.target][:1] == [("2024年第三季度", "Q3 2024")]
    terms = automatic_terms("Sales rose in Q3 2024.", [], "en", "zh")
    assert [(t.text, t.target) for t in terms] == [("Q3 2024", "2024年第三季度")]


def test_no_year_no_period() -> None:
    assert find_report_periods("Q3 was strong, FY is long, H1 headings.", "en", "zh") == []
    assert find_report_periods("In FY2024-25 and FY24/25 it grew.", "en", "zh") == []  # split fiscal years
    assert find_report_periods("第三季度增长。", "zh", "en") == []


def test_the_first_months_of_a_year_not_months_ago_nor_early() -> None:
    # 前10个月 came back "former 10 months".
    assert [s.target for s in find_report_periods("他指出，前10个月，投资增长3.4%。", "zh", "en")] == [
        "the first 10 months"]
    assert [s.target for s in find_report_periods("2025年前三个月", "zh", "en")] == ["the first 3 months of 2025"]
    assert find_report_periods("他10个月前来过，提前10个月完成。", "zh", "en") == []
