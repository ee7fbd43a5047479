"""Markdown pipe tables in text files: each cell translated on its own, the pipes kept."""

from __future__ import annotations

from pathlib import Path

from doctrans.documents import read_document
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator

TABLE = (
    "Results\n"
    "\n"
    "| beam | speed | note |\n"
    "|---|---:|:--:|\n"
    "| 1 | 1,761 (0.68×) | memory on |\n"
    "|   5   |  | the slow one \\| really |\r\n"
    "\n"
    "  | indented | row |\n"
    "A line with a | pipe is prose.\n"
)


def test_cells_are_blocks_and_the_rest_is_copied(tmp_path: Path) -> None:
    src = tmp_path / "t.md"
    src.write_bytes(TABLE.encode())
    blocks = [(b.kind, b.text) for b in read_document(src).blocks()]
    assert blocks == [
        ("paragraph", "Results"),
        ("table_cell", "beam"), ("table_cell", "speed"), ("table_cell", "note"),
        ("table_cell", "1"), ("table_cell", "1,761 (0.68×)"), ("table_cell", "memory on"),
        ("table_cell", "5"), ("table_cell", "the slow one \\| really"),
        ("table_cell", "indented"), ("table_cell", "row"),
        ("paragraph", "A line with a | pipe is prose."),
    ]


def test_a_translated_table_keeps_its_pipes_spacing_and_line_ends(tmp_path: Path) -> None:
    src = tmp_path / "t.md"
    src.write_bytes(TABLE.encode())
    out = tmp_path / "out.md"
    tr = FakeTranslator()
    translate_file(src, out, tr)
    assert "memory on" in tr.calls and "beam" in tr.calls  # one cell, one sentence
    assert out.read_bytes().decode() == TABLE.upper()
