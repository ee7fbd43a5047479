"""Section and list numbers before a heading or item (``1. Summary``) are written back as they are
(doctrans.engine.protect): the model reads the text after them."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from typer.testing import CliRunner

from doctrans.cli import app
from doctrans.engine.protect import prepare


@pytest.mark.parametrize(("sentence", "prefix", "model_text"), [
    ("1. Sales summary", "1. ", "Sales summary"),
    ("一、主要成绩", "一、", "主要成绩"),  # into Chinese as written (into English: 1.)
    ("2.1 Results and discussion", "2.1 ", "Results and discussion"),
    ("3.2.1. Data cleaning", "3.2.1. ", "Data cleaning"),  # (Scope, Data Sources: headings from the list)
    ("(3) 总则", "(3) ", "总则"),
    ("（4）附则", "", "（⦅1⦆）附则"),  # no space after it: part of the sentence, the number masked
    ("1) Install the tool.", "1) ", "Install the tool."),
    ("1. Set ttl_seconds to 300.", "1. ", "Set ⦅1⦆ to ⦅2⦆."),
    # Sentences that start with a figure are not numbered.
    ("3 apples are red.", "", "⦅1⦆ apples are red."),
    ("1.5 times more people came.", "", "⦅1⦆ times more people came."),
    ("3.5% growth was reported.", "", "⦅1⦆ growth was reported."),
    ("2024. That was the year.", "", "⦅1⦆. That was the year."),
])
def test_the_number_is_kept_and_the_rest_translated(sentence: str, prefix: str, model_text: str) -> None:
    prep = prepare(sentence, 16, tgt_lang="zh")
    assert (prep.prefix, prep.model_text) == (prefix, model_text)
    assert prep.restore(model_text).text == sentence  # an identity "translation" gives it back
    assert prep.restore("摘要").text.startswith(prefix)


def test_a_numbered_line_with_nothing_to_translate_is_copied() -> None:
    for text in ("1.", "12. 320", "(3) v2.1.0"):
        prep = prepare(text, 16, tgt_lang="zh")
        assert prep.model_text is None and prep.copy == text


def test_a_persons_translation_is_read_without_its_number() -> None:
    prep = prepare("1. Set ttl_seconds to 300.", 16, tgt_lang="zh")
    assert prep.model_target("1. 将 ttl_seconds 设为 300。") == "将 ⦅1⦆ 设为 ⦅2⦆。"
    assert prep.model_target("将 ttl_seconds 设为 300。") == "将 ⦅1⦆ 设为 ⦅2⦆。"


def test_numbered_docx_headings_keep_their_numbers_with_the_builtin_model(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCTRANS_MODELS", raising=False)
    d = docx.Document()
    for text in ("1. Summary", "2.1 Results and discussion", "3) Next steps"):
        d.add_heading(text, level=1)
        d.add_paragraph("The results are described below.")
    src, out = tmp_path / "report.docx", tmp_path / "report.zh.docx"
    d.save(str(src))
    result = CliRunner().invoke(app, ["translate", str(src), "-o", str(out), "--src", "en", "-q"])
    assert result.exit_code == 0, result.output
    headings = [p.text for p in docx.Document(str(out)).paragraphs if p.style.name.startswith("Heading")]
    assert [h.split(" ")[0] for h in headings] == ["1.", "2.1", "3)"], headings
    assert all(len(h.split(" ", 1)) == 2 and h.split(" ", 1)[1].strip() for h in headings), headings


@pytest.mark.parametrize(("sentence", "src", "tgt", "written"), [
    ("1 Introduction", "en", "zh", "1 简介"), ("4 结论", "zh", "en", "4 Conclusion"),
])
def test_a_bare_section_number_before_a_known_heading_is_kept(sentence: str, src: str, tgt: str,
                                                              written: str) -> None:
    """``1 Introduction`` (a paper's or a table of contents' section) came back ``1 introduction``."""
    prep = prepare(sentence, 16, tgt_lang=tgt, src_lang=src)
    assert (prep.model_text, prep.copy) == (None, written)
    # Not before anything else: "3 Apples fell" is a sentence.
    assert prepare("3 Apples fell.", 16, tgt_lang="zh", src_lang="en").prefix == ""
