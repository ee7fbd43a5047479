"""Progress of a text file counts characters, and a file without blank lines streams (issue 16, defect 11)."""

from __future__ import annotations

from pathlib import Path

from doctrans.documents import read_document
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator


def test_progress_total_is_characters_and_reaches_the_end(tmp_path: Path) -> None:
    src = tmp_path / "zh.txt"
    src.write_text("".join(f"这是第{i}个句子。\n\n" for i in range(300)), encoding="utf-8")
    doc = read_document(src)
    seen: list[int] = []
    translate_file(src, tmp_path / "out.txt", FakeTranslator(tgt_lang="en"), on_start=lambda d: None,
                   on_progress=lambda chars, *_: seen.append(chars))
    # UTF-8 Chinese is 3 bytes a character: a byte total ended the bar at ~38%.
    assert 0.9 <= seen[-1] / doc.size_hint <= 1.1


def test_file_without_blank_lines_is_streamed(tmp_path: Path) -> None:
    src = tmp_path / "long.txt"
    src.write_text("".join(f"Line {i} of a file without blank lines.\n" for i in range(5000)))
    blocks = read_document(src).blocks()
    first = next(blocks)
    assert first.text.count("Line") <= 200  # the first block comes before the rest is read
    out = tmp_path / "out.txt"
    translate_file(src, out, FakeTranslator())
    assert out.read_text() == src.read_text().upper()
