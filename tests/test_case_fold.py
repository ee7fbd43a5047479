"""English in capitals read by the model in small letters when the output has no case
(doctrans.case_fold): the rules (parsed from the module docstring's table) and the engine's input."""

from __future__ import annotations

import re

import pytest

from doctrans import case_fold
from doctrans.case_fold import fold_case
from doctrans.engine.protect import prepare


def docstring_table() -> list[tuple[str, str, str]]:
    rows = re.findall(r"^\| (\w\w) +\| (.+?) +\| (.+?) +\|$", case_fold.__doc__ or "", re.M)
    return [r for r in rows if r[0] != "target"]


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 19


@pytest.mark.parametrize(("tgt", "text", "expected"), docstring_table())
def test_docstring_table_row(tgt: str, text: str, expected: str) -> None:
    assert fold_case(text, text, "en", tgt) == expected


def test_only_a_cased_source_into_a_caseless_target() -> None:
    assert fold_case("EXECUTIVE SUMMARY", "EXECUTIVE SUMMARY", "zh", "en") == "EXECUTIVE SUMMARY"
    assert fold_case("EXECUTIVE SUMMARY", "EXECUTIVE SUMMARY", None, "zh") == "EXECUTIVE SUMMARY"
    assert fold_case("EXECUTIVE SUMMARY", "EXECUTIVE SUMMARY", "en", "ja") == "Executive summary"


def test_the_model_reads_small_letters_and_spans_keep_their_case() -> None:
    # The label CAUTION: is written from the list (doctrans.section_headings), the rest is a
    # sentence of its own: its first word keeps the sentence's capital.
    prep = prepare("CAUTION: SET MAX_SIZE TO 320 BEFORE USE.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "Set ⦅1⦆ to ⦅2⦆ before use."
    assert prep.restore("使用前将⦅1⦆设为⦅2⦆。").text == "小心：使用前将MAX_SIZE设为320。"
    # In a heading too, an acronym is a name (kept) and the words are folded.
    prep = prepare("WARNING: GNOME USER GUIDE", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "⦅1⦆ User guide"  # the label WARNING: is 警告：, written before it
    assert [s.output for s in prep.masked.spans] == ["GNOME"]
    assert prep.restore("⦅1⦆用户指南").text == "警告：GNOME用户指南"
    # Acronyms in a mixed-case sentence are names (kept), emphasis is folded.
    prep = prepare("You MUST NOT unplug the GNOME session.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "You must not unplug the ⦅1⦆ session."
    # Into English nothing changes.
    assert prepare("You MUST NOT go.", 16, tgt_lang="en", src_lang="zh").model_text is None  # copied


@pytest.mark.parametrize("text", ["The ?LAST name indicates the last element.",
                                  'Write to "rdnSequence.?LAST" and set MODE=FAST.'])
def test_a_capital_word_glued_to_code_marks_keeps_its_case(text: str) -> None:
    # libtasn1's manual: ``?LAST`` (an ASN.1 path's last element) came back ``?last``.
    folded = fold_case(text, text, "en", "zh")
    assert "?LAST" in folded
    assert "FAST" in folded or "MODE" not in text


@pytest.mark.parametrize(("text", "output", "written"), [
    # A page's footer came back "annual review 2025 | 第1页", its header "ACME Water trust".
    ("Annual Review 2025 | Page 1", "annual review ⦅1⦆ | ⦅2⦆", "Annual Review 2025 | 第1页"),
    ("ACME WATER TRUST", "⦅1⦆ Water trust", "ACME WATER TRUST"),
    ("Reader Objects", "reader 对象", "Reader 对象"),  # pydocs dev; the reference writes Reader
    # A code span holds the word in small letters: it is the source's, never changed.
    ("CALL THE ``call()`` FUNCTION", "call ⦅1⦆ function", "CALL ``call()`` FUNCTION"),
])
def test_english_the_model_copied_comes_back_in_the_sources_case(text: str, output: str, written: str) -> None:
    prep = prepare(text, 16, tgt_lang="zh", src_lang="en")
    assert prep.restore(output).text == written


@pytest.mark.parametrize(("title", "read"), [
    # A story's title "The Lighthouse Keeper's Daughter" came back 灯塔·普莱特的女儿 (Keeper's a name), a
    # headline's "Inflation Eases for Third Straight Month" kept Eases a name.
    ("The Keeper's Daughter", "the keeper's daughter"),
    ("Prices Eases for Third Straight Month", "prices eases for third straight month"),
    ("Installing Python on Windows", "installing Python on Windows"),  # names stay
])
def test_a_titles_possessives_and_inflections_are_read_in_small_letters(title: str, read: str) -> None:
    assert fold_case(title, title, "en", "zh") == read
