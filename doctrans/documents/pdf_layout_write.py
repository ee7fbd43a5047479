"""PDF out that keeps the page: the source pages with their text replaced by the translation.

Each source page is copied (pypdf), its text is removed (``PdfWriter.remove_text``: the text
showing operators go, images, vector graphics, annotations and page geometry stay), and a page
drawn with reportlab is laid over it: every block's translation in that block's box, at the
block's font size shrunk until it fits, with the block's alignment, weight, style and colour; a
list item's marker and code blocks (verbatim) are redrawn exactly where they were, as are bare
page numbers; a running header/footer, translated once, is drawn at each place it occurs with
that page's own numbers.

A one-line block (a heading, a table cell, a caption) may widen into the free space beside it --
the room up to the nearest other block on its baseline or the page's text margin -- before its
font is shrunk: a translation is often longer than its source, and a heading shrunk to half its
size reads worse than one that reaches a little further. Blocks of several lines keep their box.

Fonts: the standard PDF fonts (Helvetica or Times, by the source font's look) for Latin-1 text;
a TrueType CJK font from the system when one is installed (embedded, subset) or else reportlab's
built-in CID font for the script (STSong-Light etc.: nothing embedded, every PDF reader ships it);
DejaVu Sans (embedded) for other scripts.
"""

from __future__ import annotations

import io
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from doctrans.documents.base import Document, TranslatedBlock
from doctrans.documents.pdf_read import Pieces, Place
from doctrans.list_markers import marker_into
from doctrans.segment import NO_LINE_END, NO_LINE_START, is_cjk

if TYPE_CHECKING:  # reportlab is imported when a PDF is written
    from reportlab.pdfgen.canvas import Canvas

_MIN_SCALE = 0.45  # never shrink a block's font below this fraction of its source size
_CJK_TTF = [  # TrueType CJK fonts reportlab can embed (CFF-based Noto CJK .otf/.ttc it cannot)
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf", 0),
]


_WIDE = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
# Wrapping units: one CJK character (with the closing punctuation that must not start a line),
# a run of spaces, or a word of other scripts.
_TOKENS = re.compile(f"[{_WIDE}][、。，．！？：；）」』”’]*|\\s+|[^\\s{_WIDE}]+")


@dataclass
class _Item:
    place: Place
    text: str
    verbatim: bool
    marker: str = ""  # a list item's marker as the output numbers items (一、 -> 1.)


@cache
def _cjk_ttf() -> str | None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for path, index in _CJK_TTF:
        if Path(path).exists():
            try:
                pdfmetrics.registerFont(TTFont("DoctransCJK", path, subfontIndex=index))
            except Exception:  # a font reportlab cannot read: try the next
                continue
            return "DoctransCJK"
    return None


def font_for(text: str, place: Place) -> str:
    """The font to draw ``text`` (the translation of a block set as ``place``) with."""
    from doctrans.documents.rebuild import font_for as script_font

    font = script_font(text)
    if font in ("Helvetica", "Helvetica-Bold"):
        if place.serif:
            return {(False, False): "Times-Roman", (True, False): "Times-Bold",
                    (False, True): "Times-Italic", (True, True): "Times-BoldItalic"}[(place.bold, place.italic)]
        return {(False, False): "Helvetica", (True, False): "Helvetica-Bold",
                (False, True): "Helvetica-Oblique", (True, True): "Helvetica-BoldOblique"}[(place.bold, place.italic)]
    if any(is_cjk(c) for c in text):
        return _cjk_ttf() or font
    return font


def _width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, size)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Lines of ``text`` no wider than ``width``: broken at spaces, or between any two CJK
    characters (and inside a word only when the word alone is wider than the line)."""
    tokens = _TOKENS.findall(text.replace("\n", " "))
    lines: list[str] = []
    cur = ""
    for tok in tokens:
        if tok.isspace():
            if cur:
                cur += " "
            continue
        if _width(cur + tok, font, size) <= width or not cur.strip():
            if not cur.strip() and _width(tok, font, size) > width:  # a word wider than the line
                for ch in tok:
                    if cur and _width(cur + ch, font, size) > width:
                        lines.append(cur)
                        cur = ""
                    cur += ch
                continue
            cur += tok
        else:
            lines.append(cur.rstrip())
            cur = tok
    if cur.strip():
        lines.append(cur.rstrip())
    return lines or [""]


def _fit(text: str, font: str, place: Place, width: float) -> tuple[float, float, list[str]]:
    """(size, leading, lines): the largest size, down to _MIN_SCALE of the source's, at which the
    wrapped text fits the block's height."""
    ratio = place.leading / place.size if place.leading else 1.2
    height = place.y1 - place.y0
    size = place.size
    while True:
        lines = wrap(text, font, size, width)
        leading = size * ratio
        if (len(lines) - 1) * leading + size <= height + 0.5 or size <= place.size * _MIN_SCALE:
            return size, leading, lines
        size = max(size * 0.94, place.size * _MIN_SCALE)


def _free_width(place: Place, others: list[Place], left_margin: float, right_margin: float) -> tuple[float, float]:
    """How far a one-line block may widen: to the nearest block beside it on its height, or the margins."""
    lo, hi = min(left_margin, place.x0), max(right_margin, place.x1)
    for o in others:
        if o is place or o.y0 >= place.y1 or o.y1 <= place.y0:
            continue
        if o.x0 >= place.x1:
            hi = min(hi, o.x0 - 0.5 * place.size)
        elif o.x1 <= place.x0:
            lo = max(lo, o.x1 + 0.5 * place.size)
    return lo, hi


def _set_color(canvas: Canvas, color: tuple[float, ...] | None) -> None:
    if color is None:
        canvas.setFillColorRGB(0, 0, 0)
    elif len(color) == 1:
        canvas.setFillGray(color[0])
    elif len(color) == 3:
        canvas.setFillColorRGB(*color)
    else:
        canvas.setFillColorCMYK(*color)


def _draw_verbatim(canvas: Canvas, place: Place) -> None:
    """A code block or page number, line by line where it was, in a font of its kind."""
    from doctrans.documents.rebuild import font_for as script_font

    for ln in place.lines:
        font = "Courier" if ln.mono else script_font(ln.text, bold=ln.bold)
        if font.startswith("Courier") and not _latin1(ln.text):
            font = script_font(ln.text)
        canvas.setFont(font, ln.size)
        canvas.drawString(ln.x0, ln.base, ln.text)


def _latin1(text: str) -> bool:
    try:
        text.encode("cp1252")
        return True
    except UnicodeEncodeError:
        return False


def _align(place: Place, margins: tuple[float, float]) -> str:
    """The block's alignment; a one-line block is right-aligned when it ends at the right text
    margin and starts right of the middle, centred when it is centred between the margins."""
    if len(place.lines) > 1:
        return place.align
    mid = (margins[0] + margins[1]) / 2
    if place.x0 > mid and place.x1 >= margins[1] - 2:
        return "right"
    if abs((place.x0 + place.x1) / 2 - mid) <= 2 and place.x0 > margins[0] + 2 * place.size:
        return "center"
    return "left"


def _draw_block(canvas: Canvas, place: Place, text: str, others: list[Place], margins: tuple[float, float],
                marker: str = "") -> None:
    text = " ".join(text.split())
    if not text:
        return
    font = font_for(text, place)
    align = _align(place, margins)
    x0, x1 = (place.text_x if place.marker else place.x0), place.x1
    need = _width(text, font, place.size) - (x1 - x0) + 0.5  # + 0.5: rounding must not wrap it
    if len(place.lines) == 1 and need > 0:
        lo, hi = _free_width(place, others, *margins)
        if align == "right":
            x0 = max(lo, x0 - need)
        elif align == "center":
            grow = min(need / 2, x0 - lo, hi - x1)
            x0, x1 = x0 - grow, x1 + grow
        else:
            x1 = min(hi, x1 + need)
    size, leading, lines = _fit(text, font, place, x1 - x0)
    first = place.lines[0]
    base = place.y1 - (first.y1 - first.base) * size / place.size
    _set_color(canvas, place.color)
    if place.marker:
        marker = marker or place.marker
        canvas.setFont(font_for(marker, place), place.size)
        canvas.drawString(place.marker_x, first.base, marker)
    canvas.setFont(font, size)
    for i, line in enumerate(lines):
        y = base - i * leading
        if align == "right":
            canvas.drawRightString(x1, y, line)
        elif align == "center":
            canvas.drawCentredString((x0 + x1) / 2, y, line)
        else:
            canvas.drawString(x0, y, line)


def _cut_at(text: str, at: int) -> int:
    """``at`` moved to where a piece of ``text`` may end: between words where the text spaces its
    words (the nearer side), never before a closing mark nor after an opening one."""
    if 0 < at < len(text) and not (text[at - 1].isspace() or text[at].isspace()) \
            and not (is_cjk(text[at - 1]) or is_cjk(text[at])):
        left = text.rfind(" ", 0, at)
        right = text.find(" ", at)
        options = [p for p in (left, right) if p > 0]
        if options:
            at = min(options, key=lambda p: abs(p - at))
    while 0 < at < len(text) and text[at] in NO_LINE_START:
        at += 1
    while 0 < at < len(text) and text[at - 1] in NO_LINE_END:
        at -= 1
    return at


def shared_out(tb: TranslatedBlock, starts: list[int]) -> list[str]:
    """The translation of a paragraph set in several places (a page or column break cut it),
    shared out between them: each piece of the source maps to its image in the translation
    (``TranslatedBlock.project``: exact between sentences, proportional inside one), moved to a
    word boundary."""
    text, out, prev = tb.text, [], 0
    for at in tb.project(starts):
        at = max(prev, _cut_at(text, at))
        out.append(text[prev:at].strip())
        prev = at
    out.append(text[prev:].strip())
    return out


def renumber(translation: str, source: str, first_source: str) -> str:
    """The translation of a header/footer for one page: its numbers replaced by that page's own
    (``Page 1`` was translated once; page 7 gets ``Seite 7``)."""
    own, first = re.findall(r"\d+", source), re.findall(r"\d+", first_source)
    if own == first:
        return translation
    found = re.findall(r"\d+", translation)
    if len(found) != len(first):
        return translation
    it = iter(own)
    return re.sub(r"\d+", lambda _m: next(it), translation)


def write_layout_pdf(document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
    """Write the translation of a PDF read by :class:`PdfAdapter` over its own pages."""
    from pypdf import PdfReader, PdfWriter, Transformation
    from reportlab.pdfgen import canvas as rl_canvas

    from doctrans.documents.pdf_open import open_reader

    layout = document.state
    items: dict[int, list[_Item]] = defaultdict(list)
    furniture_texts: list[str] = []
    for tb in translated:  # pulls the translations: the engine runs here
        ref = tb.block.ref
        if isinstance(ref, Place):
            items[ref.page].append(_Item(ref, tb.text, tb.block.verbatim, marker_into(ref.marker, tb.tgt_lang).strip()))
        elif isinstance(ref, Pieces):
            for k, (place, text) in enumerate(zip(ref.places, shared_out(tb, ref.starts), strict=True)):
                marker = marker_into(place.marker, tb.tgt_lang).strip() if k == 0 else ""
                items[place.page].append(_Item(place, text, False, marker))
        elif tb.block.kind in ("header", "footer"):
            furniture_texts.append(tb.text)
    for furn, text in zip(layout.furniture, furniture_texts, strict=False):
        for place, own in furn.places:
            items[place.page].append(_Item(place, renumber(text, own, furn.text), False))
    for place in layout.kept:
        items[place.page].append(_Item(place, "", True))

    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, pagesize=layout.page_sizes[0] if layout.page_sizes else (595, 842))
    for no, size in enumerate(layout.page_sizes):
        c.setPageSize(size)
        page_items = items.get(no, [])
        places = [it.place for it in page_items]
        margins = (min((p.x0 for p in places), default=0.0), max((p.x1 for p in places), default=size[0]))
        for it in page_items:
            c.saveState()
            if it.verbatim:
                _draw_verbatim(c, it.place)
            else:
                _draw_block(c, it.place, it.text, places, margins, it.marker)
            c.restoreState()
        c.showPage()
    c.save()

    reader = open_reader(document.path)  # decrypts owner-password-only PDFs, as reading did
    writer = PdfWriter(clone_from=reader)
    writer.remove_text()
    overlay = PdfReader(io.BytesIO(buf.getvalue()))
    for page, over in zip(writer.pages, overlay.pages, strict=True):
        if page.rotation:
            page.transfer_rotation_to_content()  # the overlay is drawn in the page's upright view
        box = page.mediabox
        page.merge_transformed_page(over, Transformation().translate(float(box.left), float(box.bottom)))
    with open(out_path, "wb") as f:
        writer.write(f)
