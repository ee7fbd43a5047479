"""A paragraph cut by a page or column break is one paragraph: read whole, translated whole (the
sentence cut at the foot of a page is one sentence to the model) and written back over both
places. Before, each piece was a block of its own and the model got half-sentences
("Information found in a" / "database…")."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from doctrans.documents import read_document
from doctrans.documents.base import Block, TranslatedBlock
from doctrans.documents.pdf_layout_write import shared_out
from doctrans.documents.pdf_read import Pieces, Place
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator
from tests.layout_fixtures import _wrap

FIRST = ("The inventory of every site was checked against the purchase records kept at the head "
         "office, and each unit that could not be found in those records was listed separately so "
         "that the regional managers could")
REST = ("explain where it came from before the end of the quarter. Most of them did so within a week, "
        "and the list was closed.")
NEXT = "A second paragraph starts on the new page and ends the note."


def _page_break_pdf(path: Path, first: str = FIRST, rest: str = REST, indent_rest: float = 0.0) -> Path:
    """A paragraph filling the foot of page 1 and running on at the top of page 2 (lines cut by
    the font's own metrics), then a paragraph of its own; a page number on each page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    w, h = A4
    left, width = 56.0, A4[0] - 112.0
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 11)
    lines = _wrap(first, "Helvetica", 11, width)
    for i, line in enumerate(lines):
        c.drawString(left, 120 + (len(lines) - 1 - i) * 14, line)
    c.drawCentredString(w / 2, 30, "1")
    c.showPage()
    c.setFont("Helvetica", 11)
    y = h - 90
    for i, line in enumerate(_wrap(rest, "Helvetica", 11, width)):
        c.drawString(left + (indent_rest if i == 0 else 0), y, line)
        y -= 14
    for line in _wrap(NEXT, "Helvetica", 11, width):
        y -= 10
        c.drawString(left, y, line)
    c.drawCentredString(w / 2, 30, "2")
    c.showPage()
    c.save()
    return path


def _fill(text: str, width: float = 483.0, size: float = 11) -> str:
    """``text`` cut so that its last line is full: the words that fill whole lines."""
    lines = _wrap(text, "Helvetica", size, width)
    return " ".join(lines[:-1]) if len(lines) > 1 else text


def test_a_paragraph_across_a_page_break_is_one_block(tmp_path: Path) -> None:
    first = _fill(FIRST)
    doc = read_document(_page_break_pdf(tmp_path / "p.pdf", first=first))
    body = [b for b in doc.blocks() if b.kind not in ("header", "footer")]
    assert [b.text for b in body] == [first + " " + REST, NEXT]
    ref = body[0].ref
    assert isinstance(ref, Pieces) and [p.page for p in ref.places] == [0, 1]
    assert body[0].text[ref.starts[0]:].startswith("explain")
    assert isinstance(body[1].ref, Place)


def test_the_translation_is_drawn_over_both_pages(tmp_path: Path) -> None:
    first = _fill(FIRST)
    src = _page_break_pdf(tmp_path / "p.pdf", first=first)
    out = tmp_path / "out.pdf"
    tr = FakeTranslator()
    translate_file(src, out, tr)
    # The cut sentence reached the engine whole.
    assert any(c.startswith("Most of them") for c in tr.calls)
    assert first + " " + REST.split(" Most")[0] in tr.calls
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(out).pages]
    # Upper-casing keeps lengths: each page gets its own piece back, cut where the source was.
    assert pages[0].startswith(first.upper())
    assert pages[1].startswith(REST.upper()) and NEXT.upper() in pages[1]
    assert [p[-1] for p in pages] == ["1", "2"]  # page numbers kept as they were
    # A reflowed document sets the joined paragraph as one paragraph.
    reflow = tmp_path / "reflow.pdf"
    translate_file(src, reflow, FakeTranslator(), pdf_layout="reflow")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(reflow).pages)
    assert (first + " " + REST).upper() in text


@pytest.mark.parametrize("first, rest, indent", [
    (FIRST + ".", REST, 0.0),  # the first piece ends a sentence
    (None, "Explain where it came from. " + REST, 22.0),  # the next page starts an indented paragraph
], ids=["sentence-ended", "indented-start"])
def test_paragraphs_that_end_at_the_foot_stay_apart(tmp_path: Path, first: str | None, rest: str,
                                                    indent: float) -> None:
    first = first or _fill(FIRST)
    doc = read_document(_page_break_pdf(tmp_path / "p.pdf", first=first, rest=rest, indent_rest=indent))
    body = [b.text for b in doc.blocks()]
    assert body == [first, rest, NEXT]


def _two_column_pdf(path: Path) -> tuple[Path, str, str]:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    w, h = A4
    col = (w - 112 - 24) / 2
    first = _fill(FIRST + " " + FIRST, col, 10)
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    lines = _wrap(first, "Helvetica", 10, col)
    for i, line in enumerate(lines):  # the left column, to the foot of the page
        c.drawString(56, 200 + (len(lines) - 1 - i) * 12.5, line)
    for i, line in enumerate(_wrap(REST, "Helvetica", 10, col)):  # the top of the right column
        c.drawString(56 + col + 24, h - 90 - i * 12.5, line)
    c.showPage()
    c.save()
    return path, first, REST


def test_a_paragraph_across_a_column_break_is_one_block(tmp_path: Path) -> None:
    path, first, rest = _two_column_pdf(tmp_path / "cols.pdf")
    blocks = list(read_document(path).blocks())
    assert [b.text for b in blocks] == [first + " " + rest]
    assert [round(p.x0) for p in blocks[0].ref.places] == [56, 56 + round((595.28 - 136) / 2) + 24]


def _translated(source: str, translation: str, starts: list[int]) -> TranslatedBlock:
    block = Block("paragraph", source)
    return TranslatedBlock(block, translation, [((0, len(source)), (0, len(translation)))])


def test_shared_out_cuts_between_words_and_never_before_a_closing_mark() -> None:
    src = "one two three four five six seven eight"
    tb = _translated(src, "eins zwei drei vier fünf sechs sieben acht", [])
    pieces = shared_out(tb, [src.index("five")])
    assert " ".join(pieces) == tb.text and all(not p.startswith(" ") for p in pieces)
    assert pieces[0].split()[-1] in ("drei", "vier", "fünf") and pieces[1].split()[0] in ("vier", "fünf", "sechs")
    zh = "每个站点的库存都与总部的采购记录进行了核对，无法找到的设备另行列出。"
    cut = shared_out(_translated(src, zh, []), [src.index("five")])
    assert "".join(cut) == zh
    assert not cut[1].startswith(("，", "。"))
    # A hyphenated word cut by the break ("infor-" / "mation") was joined; the cut snaps to a space.
    tb = _translated("the information found", "die gefundene Information hier", [])
    assert shared_out(tb, [9]) in (["die", "gefundene Information hier"], ["die gefundene", "Information hier"])
