"""Writers that rebuild a document from its translated blocks, in any output format.

Used for PDF output (a PDF cannot be edited in place: the text is reflowed) and whenever ``-o``
asks for another format than the input's (pdf -> docx, pdf -> txt, docx -> pdf, ...). They keep
what the block model knows: block order, headings (with levels), list items, page breaks
between source pages, and headers/footers (drawn on every page).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from doctrans.documents.base import Document, TranslatedBlock
from doctrans.segment import is_cjk

if TYPE_CHECKING:  # reportlab is imported when a PDF is written
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import BaseDocTemplate

_FURNITURE = ("header", "footer")
_DEJAVU = [
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
]


def _split(translated: Iterable[TranslatedBlock]) -> tuple[list[TranslatedBlock], list[TranslatedBlock]]:
    body: list[TranslatedBlock] = []
    furniture: list[TranslatedBlock] = []
    for tb in translated:
        (furniture if tb.block.kind in _FURNITURE and tb.block.ref is None else body).append(tb)
    return body, furniture


def write_txt(document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
    markdown = out_path.suffix.lower() in (".md", ".markdown")
    with open(out_path, "w", encoding="utf-8", newline="\n") as out:
        page = None
        first = True
        for tb in translated:
            b = tb.block
            if b.kind in _FURNITURE and b.ref is None:
                continue  # page furniture repeats on every page; a text file has no pages
            if not first:
                out.write("\n\f\n" if b.page is not None and page is not None and b.page != page else "\n")
            text = tb.text.strip()
            if markdown and b.kind == "heading":
                text = "#" * max(1, b.level) + " " + text
            elif b.kind == "list_item":
                text = "  " * b.level + "- " + text
            out.write(text + "\n")
            page, first = b.page, False


def write_docx(document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
    import docx
    from docx.enum.text import WD_BREAK

    out = docx.Document()
    body, furniture = _split(translated)
    section = out.sections[0]
    for tb in furniture:
        target = section.header if tb.block.kind == "header" else section.footer
        target.add_paragraph(tb.text.strip())
    page = None
    last_para = None
    for tb in body:
        b = tb.block
        if b.page is not None and page is not None and b.page != page and last_para is not None:
            last_para.add_run().add_break(WD_BREAK.PAGE)
        text = tb.text.strip()
        if b.kind == "heading":
            last_para = out.add_heading(text, level=min(max(b.level, 1), 9))
        elif b.kind == "list_item":
            last_para = out.add_paragraph(text, style="List Bullet" if b.level == 0 else "List Bullet 2")
        else:
            last_para = out.add_paragraph(text)
        page = b.page
    out.save(str(out_path))


@cache
def _cid_font(name: str) -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont(name))
    return name


@cache
def _ttf_font() -> str | None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for path in _DEJAVU:
        if path.exists():
            pdfmetrics.registerFont(TTFont("DejaVuSans", str(path)))
            return "DejaVuSans"
    return None


def font_for(text: str, bold: bool = False) -> str:
    """A font that covers ``text``: reportlab's built-in CID fonts for CJK (nothing to ship),
    Helvetica for Latin-1 text, DejaVu Sans (when installed) for other scripts."""
    if any(0xAC00 <= ord(c) <= 0xD7AF for c in text):
        return _cid_font("HYSMyeongJo-Medium")
    if any(0x3040 <= ord(c) <= 0x30FF for c in text):
        return _cid_font("HeiseiMin-W3")
    if any(is_cjk(c) for c in text):
        return _cid_font("STSong-Light")
    try:
        text.encode("cp1252")
        return "Helvetica-Bold" if bold else "Helvetica"
    except UnicodeEncodeError:
        # GB2312 (STSong-Light) also covers Greek and Cyrillic: the fallback when DejaVu is absent.
        return _ttf_font() or _cid_font("STSong-Light")


def write_pdf(document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

    layout = document.state if document.format == "pdf" else None
    page_size = layout.page_sizes[0] if layout and layout.page_sizes else A4
    body, furniture = _split(translated)
    headers = [tb.text.strip() for tb in furniture if tb.block.kind == "header"]
    footers = [tb.text.strip() for tb in furniture if tb.block.kind == "footer"]
    numbers = bool(layout and layout.page_numbers)

    story = []
    page = None
    for tb in body:
        b = tb.block
        if b.page is not None and page is not None and b.page != page:
            story.append(PageBreak())
        page = b.page
        text = tb.text.strip()
        heading = b.kind == "heading"
        size = {1: 18, 2: 15, 3: 13}.get(b.level, 12) if heading else 10.5
        style = ParagraphStyle(
            "h" if heading else "p", fontName=font_for(text, bold=heading), fontSize=size,
            leading=size * 1.3, spaceBefore=size * 0.6 if heading else 0, spaceAfter=size * 0.5,
            leftIndent=12 * (b.level + 1) if b.kind == "list_item" else 0,
            wordWrap="CJK" if any(is_cjk(c) for c in text) else None,
        )
        prefix = "• " if b.kind == "list_item" else ""
        story.append(Paragraph(prefix + html.escape(text, quote=False).replace("\n", "<br/>"), style))
    if not story:
        story.append(Spacer(1, 1))

    def furniture_on_page(canvas: Canvas, doc: BaseDocTemplate) -> None:
        import re

        width, height = page_size
        canvas.saveState()
        no = str(doc.page)
        for i, text in enumerate(headers):
            canvas.setFont(font_for(text), 8)
            canvas.drawCentredString(width / 2, height - 30 - 10 * i, re.sub(r"\d+", no, text, count=1))
        for i, text in enumerate(footers):
            canvas.setFont(font_for(text), 8)
            canvas.drawCentredString(width / 2, 30 + 10 * i, re.sub(r"\d+", no, text, count=1))
        if numbers:
            canvas.setFont("Helvetica", 8)
            canvas.drawCentredString(width / 2, 18, no)
        canvas.restoreState()

    doc = SimpleDocTemplate(str(out_path), pagesize=page_size, leftMargin=56, rightMargin=56,
                            topMargin=56, bottomMargin=56, title=document.path.stem)
    doc.build(story, onFirstPage=furniture_on_page, onLaterPages=furniture_on_page)
