"""A paper's author-year citations, whole (doctrans.citations): the docstring's table row by row."""

from __future__ import annotations

import pytest

from doctrans import citations
from doctrans.citations import find_citations
from doctrans.direction_terms import automatic_terms
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(citations)) == 9


@pytest.mark.parametrize(("source", "en", "zh"), three_column_rows(citations))
def test_docstring_table_row(source: str, en: str, zh: str) -> None:
    chinese = not source.isascii()
    src, tgt = ("zh", "en") if chinese else ("en", "zh")
    before = "" if source.startswith("（") else "如"  # a narrative citation after a word that refers
    text = f"研究{before}{source}所述。" if chinese else f"As shown {source}, it works."
    [span] = find_citations(text, src, tgt)
    want = en if chinese else zh
    assert (span.text, span.target) == (source, source if want == "(as written)" else want)
    assert span.target in [s.target for s in automatic_terms(text, [], src, tgt)]


@pytest.mark.parametrize(("text", "src", "tgt"), [
    ("在（2020）年", "zh", "en"),  # no author
    ("（上海，2020）", "zh", "en"),  # a place, no name of the list
    ("（王芳，2021）", "zh", "de"),
    ("the year (2020) and (see below)", "en", "zh"),
])
def test_what_is_no_citation(text: str, src: str, tgt: str) -> None:
    assert find_citations(text, src, tgt) == []


def test_a_papers_citations_reach_the_translation_whole() -> None:
    """(Bawden et al., 2018; Voita et al., 2019) came back (Bawden etal al。2018; …) in Chinese, （张伟等，
    2020） "(a great, etc., 2020)" in English."""
    from doctrans.engine.protect import prepare

    prep = prepare("Interest has grown (Bawden et al., 2018; Voita et al., 2019).", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "interest has grown ⦅1⦆."  # case_fold: the model reads a capital as a name
    assert prep.restore("兴趣增长了⦅1⦆。").text == "兴趣增长了(Bawden et al., 2018; Voita et al., 2019)。"
    prep = prepare("现有方法忽略了路网结构（张伟等，2020）。", 16, tgt_lang="en", src_lang="zh")
    assert [s.target for s in prep.masked.spans] == ["(Zhang et al., 2020)"]
