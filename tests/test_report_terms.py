"""Fixed terms of reports and news by their translation (doctrans.report_terms)."""

from __future__ import annotations

import re

import pytest

from doctrans import report_terms
from doctrans.data_lists import data_lines
from doctrans.engine.protect import prepare
from doctrans.report_terms import find_report_terms


def docstring_table() -> list[tuple[str, str, str]]:
    rows = re.findall(r"^\| ([^|]+?) +\| (zh|en) +\| ([^|]+?) +\|$", report_terms.__doc__ or "", re.M)
    return list(rows)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 8


@pytest.mark.parametrize(("text", "tgt", "expected"), docstring_table())
def test_docstring_table_row(text: str, tgt: str, expected: str) -> None:
    src = "zh" if tgt == "en" else "en"
    found = [s.target for s in find_report_terms(text, src, tgt)]
    assert (" · ".join(found) or "(none)") == expected


def test_every_term_reads_back_both_ways_unless_marked() -> None:
    for line in data_lines("report_terms.tsv"):
        english, chinese, *_ = line.split("\t")
        [span] = find_report_terms(f"We read the {english} today.", "en", "zh")
        assert span.target == chinese.lstrip("!")
        back = find_report_terms(f"我们今天读了{chinese.lstrip('!')}。", "zh", "en")
        if chinese.startswith("!"):  # written only: read as nothing, or as another term's
            assert all(s.target != english for s in back), line
        else:
            assert [s.target for s in back] == [english], line


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
    prepared = prepare("一季度国内生产总值同比增长5.3%。", 16, tgt_lang="en", src_lang="zh")
    assert "一季度" not in prepared.model_text and "国内生产总值" not in prepared.model_text
    assert "同比" in prepared.model_text  # written, never read
    assert prepared.model_text == "⦅1⦆⦅2⦆同比增长⦅3⦆。"
    out = prepared.restore("In the ⦅1⦆, ⦅2⦆ grew by ⦅3⦆ year on year.")
    assert out.text == "In the first quarter, gross domestic product grew by 5.3% year on year."
