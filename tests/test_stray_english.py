"""doctrans.stray_english: the docstring's table, and the restore step that applies it."""

from __future__ import annotations

import pytest

from doctrans import stray_english
from doctrans.engine.protect import prepare
from doctrans.stray_english import chinese_conjunctions
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(stray_english)) == 10


@pytest.mark.parametrize(("decoded", "written"), two_column_rows(stray_english))
def test_docstring_table_row(decoded: str, written: str) -> None:
    assert chinese_conjunctions(decoded) == written


def test_a_spans_own_and_is_kept_and_the_models_is_written_in_chinese() -> None:
    """A leaflet's "… and reduces fever" came back 痛经，and 退烧; a span's "Research and Development"
    goes back as written."""
    prep = prepare("Read `Research and Development` notes, and ask your doctor.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and "⦅1⦆" in prep.model_text
    assert prep.restore("阅读⦅1⦆笔记，and 询问医生。").text == "阅读`Research and Development`笔记，和询问医生。"
