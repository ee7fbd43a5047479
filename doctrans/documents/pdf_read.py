"""Reading a PDF as a person reads it: lines, paragraphs, lists, code, headings, reading order.

Why pdfminer.six (MIT) and not pypdf's ``visitor_text``: pdfminer gives every glyph with its
exact box (from the font's widths), font name and size, after the content stream's kerning and
positioning operators are applied. pypdf's visitor hands over runs of text with only a start
point, so the end of a line -- needed for right-aligned and centred lines, column gutters and
"did this line end early?" -- had to be guessed from a character count, which dropped right-hand
text and cut paragraphs. pdfminer's own layout analysis (LAParams) is not used: it merges
columns with narrow gutters and has no notion of lists or code; the rules below are ours.

From glyphs to blocks, per page:

1. **Lines**: glyphs whose vertical centres lie within half a glyph height of each other form a
   row; a row is cut where the horizontal gap exceeds about one em (a column gutter, a table cell
   boundary, a right-aligned word on the same baseline). A lone list marker (a bullet drawn apart
   from its text) is joined to the text after it. Spaces come from space glyphs or from gaps; in
   monospace lines a gap becomes as many spaces as characters would fit (code indentation).
2. **Paragraphs**: a line continues the block of the nearest line above it that overlaps it
   horizontally, when the font size, monospace-ness and weight agree, no ruling line of a table
   lies between them, the leading equals the document's usual leading for that size (measured,
   so 2x CJK leading joins and an extra paragraph gap does not) and the line above did not end
   early -- "early" meaning that the first word of the next line would have fitted in the room
   left (the way a reader sees a paragraph end, whatever the alignment). A line starting with a
   bullet or a number (``•``, ``1.``, ``a)``, ``一、``, ``（二）``, ``①``) starts a list item;
   a continuation indented to its text joins it.
3. **Kinds**: monospace blocks are code (``verbatim``: written back unchanged); blocks set
   larger than the body size are headings, levels by size rank; short bold blocks too.
4. **Furniture**: blocks in the top or bottom 9% of a page that repeat (digits ignored) on at
   least 30% of the pages, in any corner, are headers/footers -- one block, translated once,
   drawn back at every place it occurs; bare page numbers there are kept as they are.
5. **Reading order** of the blocks of a page (Breuel 2003): ``a`` before ``b`` when they overlap
   horizontally and ``a`` is above, or ``a`` is wholly left of ``b`` and no third block between
   them in height spans both; a topological sort, ties broken top to bottom. Columns, sidebars,
   right-aligned and centred lines all fall out of these two rules.
6. **Paragraphs across breaks**: a paragraph that ends mid-sentence in a full line at the foot
   of a page (or column) and goes on at the top of the next one, same size and weight, no
   first-line indent, is one block (``RawBlock.more``; ``Pieces`` tells the writer its places):
   the model gets the cut sentence whole. Tables of contents (dot leaders) never join.

All coordinates are PDF points with the origin at the bottom left of the (rotated) page.
"""

from __future__ import annotations

import bisect
import io
import itertools
import logging
import re
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doctrans.segment import FIELD_LINE, KEY_LINE, TOC_LINE, is_cjk

EDGE = 0.09  # fraction of the page height where headers/footers live
_MONO = re.compile(r"courier|mono|consol|typewriter|code|menlo|fixed|cmtt|lmtt|inconsolata|sfmt|nimbusmon",
                   re.IGNORECASE)
_BOLD = re.compile(r"bold|black|heavy|semibold|demi|-bd|,b\b", re.IGNORECASE)
_ITALIC = re.compile(r"italic|oblique|-it\b|,i\b", re.IGNORECASE)
_SERIF = re.compile(r"times|serif|roman|georgia|garamond|minion|palatino|cmr|lmroman|nimbusrom|book|song|ming|mincho",
                    re.IGNORECASE)
# A list marker at the start of a line: bullets, 1. 1) (1) a) iv. 1.2.3, CJK 一、（一）①. A section
# number (1.2, 3.1.4.) starts at 1 and comes before a capital or CJK, not a small letter: a
# wrapped sentence's "…improves BLEU by / 0.8 points on TVsub" is no list item "0.8".
MARKER = re.compile(
    r"^(?:[•●○◦▪▫■□‣⁃∙·*➢➤►▶✓✔–—-]\s+"
    r"|\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]\s+|\(\d{1,3}\)\s+|[1-9]\d?(?:\.\d{1,2})+\.?\s+(?![a-z])"
    r"|[一二三四五六七八九十百]+[、．.]\s*|[（(][一二三四五六七八九十]+[）)]\s*|[①-⑳]\s*)")
# WinAnsiEncoding shows its unused codes as a bullet (PDF 1.7, Annex D, note 5) -- reportlab and
# others write "•" as 0x7F -- but pdfminer has no character for them.
_WINANSI_BULLETS = {f"(cid:{n})": "•" for n in (127, 129, 141, 143, 144, 157)}
_BARE_NUMBER = re.compile(r"[-–—\s]*(\d+|[ivxlc]+)(\s*/\s*\d+)?[-–—\s]*", re.IGNORECASE)


@dataclass
class Glyph:
    x0: float
    x1: float
    y0: float
    y1: float
    base: float  # baseline
    size: float
    text: str
    font: str
    color: tuple[float, ...] | None


@dataclass
class Line:
    page: int
    x0: float
    x1: float
    y0: float  # bottom of the glyph boxes
    y1: float  # top
    base: float
    size: float
    font: str  # the font of most of the line's characters
    text: str
    first_word: float  # width of the first word (for "would it have fitted on the line above?")
    color: tuple[float, ...] | None = None
    xs: list[float] = field(default_factory=list)  # x where each character of ``text`` starts

    @property
    def mono(self) -> bool:
        return bool(_MONO.search(self.font))

    @property
    def bold(self) -> bool:
        return bool(_BOLD.search(self.font))


@dataclass
class Place:
    """Where and how a block was set: what the layout-preserving writer needs to redraw it."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    font: str
    lines: list[Line]
    align: str = "left"  # left | right | center | justify
    leading: float = 0.0  # baseline to baseline; 0 = one line
    marker: str = ""  # list marker ("•", "1.", "一、"), not part of the block text
    marker_x: float = 0.0
    text_x: float = 0.0  # where the text of a list item's first line starts (after its marker)
    color: tuple[float, ...] | None = None

    @property
    def serif(self) -> bool:
        return bool(_SERIF.search(self.font))

    @property
    def bold(self) -> bool:
        return bool(_BOLD.search(self.font))

    @property
    def italic(self) -> bool:
        return bool(_ITALIC.search(self.font))


@dataclass
class RawBlock:
    """A block before it becomes a :class:`Block`: its lines and what was decided about it."""

    lines: list[Line]
    kind: str = "paragraph"
    level: int = 0
    marker: str = ""
    marker_x: float = 0.0
    text_x: float = 0.0
    verbatim: bool = False
    text: str = ""
    # A paragraph that runs on past a page or column break: the blocks that continue it (their
    # text is joined to ``text``) and where each of them starts in ``text``.
    more: list[RawBlock] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)

    @property
    def page(self) -> int:
        return self.lines[0].page

    @property
    def x0(self) -> float:
        return min(ln.x0 for ln in self.lines)

    @property
    def x1(self) -> float:
        return max(ln.x1 for ln in self.lines)

    @property
    def y0(self) -> float:
        return min(ln.y0 for ln in self.lines)

    @property
    def y1(self) -> float:
        return max(ln.y1 for ln in self.lines)

    @property
    def size(self) -> float:
        return statistics.median(ln.size for ln in self.lines)

    def place(self) -> Place:
        lines = self.lines
        leading = (lines[0].base - lines[-1].base) / (len(lines) - 1) if len(lines) > 1 else 0.0
        fonts = Counter(ln.font for ln in lines)
        return Place(self.page, self.x0, self.y0, self.x1, self.y1, self.size, fonts.most_common(1)[0][0],
                     lines, _alignment(lines), leading, self.marker, self.marker_x, self.text_x or self.x0,
                     lines[0].color)


@dataclass
class Pieces:
    """Where a paragraph that runs on across a page or column break was set: one place per piece,
    and the offsets in the block's text where the second, third... pieces begin. The paragraph is
    translated whole (a sentence cut at the foot of a page is one sentence to the model) and its
    translation is shared out between the places again when written."""

    places: list[Place]
    starts: list[int]


@dataclass
class PageText:
    width: float
    height: float
    blocks: list[RawBlock] = field(default_factory=list)
    rules: list[tuple[float, float, float]] = field(default_factory=list)  # horizontal (x0, x1, y)


# ---------------------------------------------------------------- glyphs and lines


def _color(glyph: Any) -> tuple[float, ...] | None:
    try:
        c = glyph.graphicstate.ncolor
    except AttributeError:
        return None
    if isinstance(c, int | float):
        return (float(c),)
    if isinstance(c, list | tuple) and all(isinstance(v, int | float) for v in c) and len(c) in (1, 3, 4):
        return tuple(float(v) for v in c)
    return None


def _collect(item: Any, glyphs: list[Glyph], rules: list[tuple[float, float, float]],
             dashes: list[tuple[float, float, float]] | None = None) -> None:
    """The page's glyphs, its ruling lines (tables, separators) and, in ``dashes``, the short
    strokes that may be drawn underscores (``_underscores``)."""
    from pdfminer.layout import LTChar, LTCurve, LTLine, LTRect

    for obj in item:
        if isinstance(obj, LTChar):
            text = _WINANSI_BULLETS.get(obj.get_text(), obj.get_text())
            if text.strip():
                base = obj.matrix[5] if obj.upright else obj.y0
                glyphs.append(Glyph(obj.x0, obj.x1, obj.y0, obj.y1, base, obj.size, text,
                                    obj.fontname.split("+")[-1], _color(obj)))
        elif isinstance(obj, LTLine | LTRect) or (isinstance(obj, LTCurve) and not hasattr(obj, "__iter__")):
            x0, y0, x1, y1 = obj.bbox
            if y1 - y0 <= 2.5 and x1 - x0 > 5:
                rules.append((x0, x1, (y0 + y1) / 2))
            elif dashes is not None and y1 - y0 <= 1.0 and 1.0 <= x1 - x0 <= 5:
                dashes.append((x0, x1, (y0 + y1) / 2))
            elif isinstance(obj, LTRect) and x1 - x0 > 5:
                rules.extend([(x0, x1, y0), (x0, x1, y1)])  # a cell's top and bottom edges
        elif hasattr(obj, "__iter__"):
            _collect(obj, glyphs, rules, dashes)


def _underscores(glyphs: list[Glyph], dashes: list[tuple[float, float, float]]) -> list[Glyph]:
    """Underscores drawn as strokes, as glyphs. TeX and Texinfo set ``_`` in roman text as a short
    rule on the baseline (no character at all): ``asn1_write_value`` read as ``asn1 write value``,
    and the model translated the words of a function's name. A stroke of a third to two thirds
    of an em, lying on the baseline in a gap no wider than an em between two glyphs of the same
    line, is an underscore; an underline (under glyphs, not between them) is not."""
    found: list[Glyph] = []
    if not dashes or not glyphs:
        return found
    # Glyphs by baseline: a page of dashes (a dotted rule drawn stroke by stroke) looks at the
    # glyphs near each one, not at every glyph of the page.
    by_base = sorted(glyphs, key=lambda g: g.base)
    bases = [g.base for g in by_base]
    reach = 0.25 * max(g.size for g in glyphs)
    for x0, x1, y in dashes:
        near = by_base[bisect.bisect_left(bases, y - reach):bisect.bisect_right(bases, y + reach)]
        on_line = [g for g in near if abs(g.base - y) <= 0.25 * g.size]
        left = max((g for g in on_line if g.x1 <= x0 + 0.3), key=lambda g: g.x1, default=None)
        right = min((g for g in on_line if g.x0 >= x1 - 0.3), key=lambda g: g.x0, default=None)
        if left is None or right is None or not 0.15 * left.size <= x1 - x0 <= 0.7 * left.size:
            continue
        if right.x0 - left.x1 > 1.0 * left.size or any(g.x1 > x0 + 0.3 and g.x0 < x1 - 0.3 for g in on_line):
            continue
        found.append(Glyph(x0, x1, left.y0, left.y1, left.base, left.size, "_", left.font, left.color))
    return found


def _rows(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """Glyphs whose vertical centres are within half a height of the first (highest) one."""
    rows: list[list[Glyph]] = []
    lead: Glyph | None = None
    for g in sorted(glyphs, key=lambda g: -(g.y0 + g.y1) / 2):
        centre = (g.y0 + g.y1) / 2
        if lead is not None and abs((lead.y0 + lead.y1) / 2 - centre) <= 0.5 * min(lead.size, g.size):
            rows[-1].append(g)
        else:
            rows.append([g])
            lead = g
    return rows


def _is_marker_only(text: str) -> bool:
    m = MARKER.match(text + " ")
    return m is not None and m.end() >= len(text)


def _segments(row: list[Glyph]) -> list[list[Glyph]]:
    """Cut a row at gaps wider than about an em; a lone list marker stays with its text."""
    row = sorted(row, key=lambda g: g.x0)
    segs: list[list[Glyph]] = [[row[0]]]
    for g in row[1:]:
        prev = segs[-1][-1]
        size = max(prev.size, g.size)
        # Code keeps its aligned columns in one line (``id    INTEGER,``); other text is cut at an em.
        code = _MONO.search(prev.font) and _MONO.search(g.font) and g.x0 - prev.x1 < 12 * size
        if g.x0 - prev.x1 > 1.0 * size and not code:
            segs.append([g])
        else:
            segs[-1].append(g)
    merged: list[list[Glyph]] = []
    for seg in segs:
        if merged and _is_marker_only("".join(g.text for g in merged[-1])) \
                and seg[0].x0 - merged[-1][-1].x1 < 4 * seg[0].size:
            merged[-1] = merged[-1] + seg
        else:
            merged.append(seg)
    return merged


def _line(page: int, seg: list[Glyph]) -> Line:
    fonts: Counter[str] = Counter()
    for g in seg:
        fonts[g.font] += len(g.text)
    font = fonts.most_common(1)[0][0]
    mono_chars = sum(n for f, n in fonts.items() if _MONO.search(f))
    if _MONO.search(font) and mono_chars < 0.75 * sum(fonts.values()):
        # Prose with code words in it ("field 'id' of the 'Group' type") is prose: its font is
        # the most used proportional one.
        font = next(f for f, _ in fonts.most_common() if not _MONO.search(f))
    mono = bool(_MONO.search(font))
    size = statistics.median(g.size for g in seg)
    advance = statistics.median(g.x1 - g.x0 for g in seg if _MONO.search(g.font)) if mono else 0.0
    text = ""
    xs: list[float] = []
    first_word_end = None
    prev: Glyph | None = None
    for g in seg:
        if prev is not None:
            gap = g.x0 - prev.x1
            if mono and advance > 0 and _MONO.search(prev.font) and _MONO.search(g.font):
                spaces = max(1 if gap > 0.2 * size else 0, round(gap / advance))
            elif gap > 0.2 * size and not (is_cjk(prev.text[-1]) and is_cjk(g.text[0]) and gap < 0.8 * size):
                spaces = 0 if text.endswith(" ") else 1
            else:
                spaces = 0
            text += " " * spaces
            xs += [g.x0] * spaces
            if first_word_end is None and text.endswith(" "):
                first_word_end = prev.x1
        if first_word_end is None and is_cjk(g.text[0]):
            first_word_end = g.x1  # a CJK line breaks after any character
        text += g.text  # space glyphs were left out in _collect: spaces come from the gaps
        xs += [g.x0] * len(g.text)
        prev = g
    x0, x1 = seg[0].x0, max(g.x1 for g in seg)
    base = statistics.median(g.base for g in seg)
    cut = len(text.rstrip())
    return Line(page, x0, x1, min(g.y0 for g in seg), max(g.y1 for g in seg), base, size, font, text[:cut],
                (first_word_end or x1) - x0, seg[0].color, xs[:cut])


def page_lines(page_no: int, layout: Any) -> tuple[list[Line], list[tuple[float, float, float]]]:
    glyphs: list[Glyph] = []
    rules: list[tuple[float, float, float]] = []
    dashes: list[tuple[float, float, float]] = []
    _collect(layout, glyphs, rules, dashes)
    glyphs += _underscores(glyphs, dashes)
    lines = [_line(page_no, seg) for row in _rows(glyphs) for seg in _segments(row)]
    return [ln for ln in lines if ln.text.strip()], rules


# ---------------------------------------------------------------- paragraphs


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


def _alignment(lines: list[Line]) -> str:
    if len(lines) < 2:
        return "left"
    tol = 0.3 * lines[0].size
    lefts = max(ln.x0 for ln in lines[1:]) - min(ln.x0 for ln in lines[1:]) if len(lines) > 2 else 0
    left_ok = abs(lines[-1].x0 - lines[-2].x0) <= tol and lefts <= tol
    right_ok = max(ln.x1 for ln in lines) - min(ln.x1 for ln in lines) <= tol
    if left_ok and (right_ok or max(ln.x1 for ln in lines[:-1]) - min(ln.x1 for ln in lines[:-1]) <= tol):
        return "justify" if len(lines) > 2 or right_ok else "left"
    if right_ok:
        return "right"
    centres = [(ln.x0 + ln.x1) / 2 for ln in lines]
    if max(centres) - min(centres) <= tol:
        return "center"
    return "left"


def _ruled_between(rules: list[tuple[float, float, float]], above: Line, below: Line) -> bool:
    lo, hi = below.y1 - 0.5, above.y0 + 0.5
    x0, x1 = max(above.x0, below.x0), min(above.x1, below.x1)
    return any(lo < y < hi and _overlap(rx0, rx1, x0, x1) > 0 for rx0, rx1, y in rules)


# A statement of code set in the text's own font: a call, or an assignment of one.
_CODE_LINE = re.compile(r"\s*(?:[A-Za-z_][\w.]*\s*=\s*)?[A-Za-z_][\w.]*\(.*\)\s*;?\s*$"
                        r"|\s*[A-Za-z_][\w.]*\s*=\s*[\w.]+\(")


def _table_cells(lines: list[Line]) -> dict[int, int]:
    """Per line (by id) that is a table's cell, how many cells its row has: three or more lines on
    one baseline, each narrower than a quarter of the page's text (two are as often two columns of
    text, whose short lines a page sets side by side; a three-column newspaper's are about a
    third of the page wide)."""
    if not lines:
        return {}
    width = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
    out: dict[int, int] = {}
    row: list[Line] = []
    for ln in [*sorted(lines, key=lambda ln: -ln.base), None]:
        if ln is not None and row and abs(row[0].base - ln.base) <= 0.3 * min(row[0].size, ln.size):
            row.append(ln)
            continue
        if len(row) > 2 and all(r.x1 - r.x0 <= 0.25 * width for r in row):
            out.update((id(r), len(row)) for r in row)
        row = [ln] if ln is not None else []
    return out


def _cell_break(prev: Line, ln: Line, cells: dict[int, int]) -> bool:
    """Whether a table's row stands between ``prev`` and ``ln`` (the line under it): a report's table
    under a paragraph was read into it (``…at City Hall. Item``) and the cells of one column into one
    paragraph (``Revenue ($m) Headcount``, translated as one). A cell starts no paragraph's line
    and continues none; a line of its own under a cell continues it only within the cell's column
    (a cell's text wrapped), a cell under a cell only where its row has fewer cells (both wrapped)."""
    above, here = cells.get(id(prev), 1), cells.get(id(ln), 1)
    if here > 1:
        return above == 1 or here >= above
    return above > 1 and not (ln.x0 >= prev.x0 - 0.5 * ln.size and ln.x1 <= prev.x1 + 0.5 * ln.size)


def _continues(block: RawBlock, ln: Line, below: float | None, rules: list[tuple[float, float, float]],
               marker: str, cells: dict[int, int], margin_right: Callable[[float, float], float]) -> bool:
    """Whether ``ln`` continues ``block``, whose last line is the nearest line above it; ``below`` is
    the distance from ``ln`` to the next line under it (None: none); ``cells``: the page's table
    cells (:func:`_table_cells`); ``margin_right(x0, size)``: the furthest right the page's lines
    of that size starting at ``x0`` reach (:func:`_margin_right`)."""
    prev = block.lines[-1]
    if marker or ln.mono != prev.mono or abs(ln.size - prev.size) > 0.1 * max(ln.size, prev.size):
        return False
    if cells and _cell_break(prev, ln, cells):
        return False
    pitch = prev.base - ln.base
    if pitch <= 0 or _ruled_between(rules, prev, ln):
        return False
    if ln.mono:  # code: blank lines inside a listing keep it one block
        return pitch <= 3.2 * ln.size
    if ln.bold != prev.bold:
        return False
    if (FIELD_LINE.match(prev.text) and FIELD_LINE.match(ln.text)) or TOC_LINE.match(prev.text):
        return False  # a specification sheet's or a form's fields, a table of contents: one per line
    if KEY_LINE.match(block.lines[0].text) and KEY_LINE.match(ln.text):
        return False  # a function's parameters, one item each (``definitions: …`` / ``source_name: …``)
    if prev.text.endswith(":") and _CODE_LINE.match(ln.text):
        return False  # ``Using "pkix.asn":`` then the call it introduces
    # The leading is measured, not assumed (Chinese is often set at 1.6-2x, Latin at 1.2x): it must
    # match the block's own leading, or for a block's second line, not exceed the leading that
    # follows (a paragraph gap is a one-off larger distance).
    if pitch > 2.5 * ln.size:
        return False
    if len(block.lines) > 1:
        own = (block.lines[0].base - prev.base) / (len(block.lines) - 1)
        if abs(pitch - own) > 0.2 * own + 0.5:
            return False
    elif below is not None and pitch > below * 1.15 + 0.5:
        return False
    if block.kind == "list_item":  # a continuation is indented to the item's text
        if ln.x0 >= block.lines[0].x0 - 0.5 * ln.size and ln.x0 > block.marker_x + 0.5 * ln.size:
            return True
        # or back at the marker, as a Chinese document's enumerated paragraphs (一、…, （三）…) and
        # many plain lists wrap: the line must start where the marker does, under a line that ran
        # to the right edge of the lines set from that margin (a notice's "三、……请市民错峰出" /
        # "行。" was read as two paragraphs, the second translated "Fine.").
        return abs(ln.x0 - block.marker_x) <= 0.3 * ln.size \
            and _ran_full(margin_right(block.marker_x, ln.size) - prev.x1, ln)
    # Did the line above end early? Then the first word of this one would have fitted there.
    lines = [*block.lines, ln]
    left, right = min(x.x0 for x in lines), max(x.x1 for x in lines)
    if abs(ln.x1 - prev.x1) <= 0.3 * ln.size and abs(ln.x0 - prev.x0) > 0.3 * ln.size:
        room = prev.x0 - left  # right-aligned
    elif abs((ln.x0 + ln.x1) - (prev.x0 + prev.x1)) <= 0.6 * ln.size and abs(ln.x0 - prev.x0) > 0.3 * ln.size:
        room = (right - left) - (prev.x1 - prev.x0)  # centred
    else:
        if prev.x0 - ln.x0 > 5 * ln.size:
            # The line above starts far right of this one and is centred on neither: a centred
            # title over a heading at the margin (a report's "Annual Report 2025" and "Message from
            # the Chair" in one font were read as one line), not a paragraph's indented first line.
            return False
        room = right - prev.x1
    if not _ran_full(room, ln):
        return False
    # A first line indented further than the lines before it starts a new paragraph.
    return not (len(block.lines) > 1 and ln.x0 > prev.x0 + 0.8 * ln.size
                and abs(prev.x0 - block.lines[-2].x0) <= 0.3 * ln.size)


def _ran_full(room: float, ln: Line) -> bool:
    """Whether the line above, ``room`` short of its block's measure, ran full: ``ln``'s first
    word (and the space before it, but for Chinese) would not have fitted in what it left."""
    space = 0.0 if is_cjk(ln.text[0]) else 0.3 * ln.size
    return room <= ln.first_word + space + 0.25 * ln.size


def _code_text(lines: list[Line]) -> str:
    """A code block's text: indentation from the x offset, blank lines from the baseline gaps."""
    indent = min(ln.x0 for ln in lines)
    adv = statistics.median((ln.x1 - ln.x0) / max(1, len(ln.text)) for ln in lines)
    pitches = [a.base - b.base for a, b in itertools.pairwise(lines)]
    step = min(pitches) if pitches else 1.0
    out = []
    for i, ln in enumerate(lines):
        if i:
            out.append("\n" * max(1, round(pitches[i - 1] / step)))
        out.append(" " * max(0, round((ln.x0 - indent) / adv)) + ln.text)
    return "".join(out)


def _join_lines(a: str, b: str) -> str:
    if re.search(r"[^\W\d_]-$", a) and b[:1].islower():
        return a[:-1] + b  # de-hyphenate
    if not a or not b or is_cjk(a[-1]) or is_cjk(b[0]):
        return a + b
    return a + " " + b


def _split_marker(text: str) -> tuple[str, str]:
    m = MARKER.match(text)
    if not m or m.end() >= len(text):
        return "", text
    return text[: m.end()].rstrip(), text[m.end():]


def _distance_below(lines: list[Line]) -> dict[int, float]:
    """Per line (by id), the baseline distance to the nearest overlapping line of its size below."""
    out: dict[int, float] = {}
    for ln in lines:
        ds = [ln.base - o.base for o in lines if o.base < ln.base and abs(o.size - ln.size) <= 0.1 * ln.size
              and _overlap(o.x0, o.x1, ln.x0, ln.x1) > 0]
        if ds:
            out[id(ln)] = min(ds)
    return out


def _margin_right(lines: list[Line]) -> Callable[[float, float], float]:
    """For a left edge and a font size: the furthest right the page's lines of that size (within
    10 %) that start there (within a third of the size) reach -- the measure of a column."""
    def right(x0: float, size: float) -> float:
        return max((ln.x1 for ln in lines if not ln.mono and abs(ln.x0 - x0) <= 0.3 * size
                    and abs(ln.size - size) <= 0.1 * size), default=x0)
    return right


def paragraphs(lines: list[Line], rules: list[tuple[float, float, float]]) -> list[RawBlock]:
    """The blocks of one page, in no particular order yet."""
    below = _distance_below(lines)
    cells = _table_cells(lines)
    margin_right = _margin_right(lines)
    blocks: list[RawBlock] = []
    owner: dict[int, RawBlock] = {}  # id(line) -> its block
    done: list[Line] = []
    for ln in sorted(lines, key=lambda ln: (-ln.base, ln.x0)):
        marker = "" if ln.mono else _split_marker(ln.text)[0]
        above = [p for p in done if p.base > ln.base and _overlap(p.x0, p.x1, ln.x0, ln.x1) > 0]
        nearest = min(above, key=lambda p: p.base) if above else None
        block = owner.get(id(nearest)) if nearest is not None else None
        if block is not None and block.lines[-1] is nearest \
                and _continues(block, ln, below.get(id(ln)), rules, marker, cells, margin_right):
            block.lines.append(ln)
        else:
            block = RawBlock([ln])
            if marker:
                block.kind, block.marker, block.marker_x = "list_item", marker, ln.x0
                m = MARKER.match(ln.text)
                block.text_x = ln.xs[m.end()] if m and m.end() < len(ln.xs) else ln.x0
            blocks.append(block)
        owner[id(ln)] = block
        done.append(ln)
    for b in blocks:
        b.verbatim = all(ln.mono for ln in b.lines)
        if b.verbatim:
            b.text = _code_text(b.lines)
            continue
        b.text = _split_marker(b.lines[0].text)[1] if b.marker else b.lines[0].text
        for ln in b.lines[1:]:
            b.text = _join_lines(b.text, ln.text)
    return blocks


# ---------------------------------------------------------------- reading order


def _between(c: RawBlock, a: RawBlock, b: RawBlock, tol: float) -> bool:
    """Whether ``c`` lies vertically between ``a`` and ``b`` and spans both horizontally."""
    if _overlap(c.x0, c.x1, a.x0, a.x1) <= tol or _overlap(c.x0, c.x1, b.x0, b.x1) <= tol:
        return False
    return (c.y1 <= a.y0 + tol and c.y0 >= b.y1 - tol) or (c.y1 <= b.y0 + tol and c.y0 >= a.y1 - tol)


def _alone_above(b: RawBlock, a: RawBlock, blocks: list[RawBlock], tol: float) -> bool:
    """Whether ``b``, right of ``a`` and wholly above it, is a title across the middle of the page
    with nothing to its left at its height, read before what is under it; not a column's block,
    which comes after the column to its left (a report's centred title came after its first heading,
    ``一、总体情况``, which stands left of it and lower)."""
    if b.y0 < a.y1 - tol:
        return False
    middle = (min(c.x0 for c in blocks) + max(c.x1 for c in blocks)) / 2
    if not b.x0 < middle < b.x1:
        return False
    return not any(c is not b and c.x1 <= b.x0 + tol and _overlap(c.y0, c.y1, b.y0, b.y1) > tol for c in blocks)


def _tables(blocks: list[RawBlock]) -> list[list[list[int]]]:
    """The tables among ``blocks``: two or more rows (top to bottom) of three or more narrow
    blocks on one baseline (:func:`_table_cells`' rule), one under the other with no more than
    three lines' room between, each row's blocks by index, left to right."""
    if len(blocks) < 6:
        return []
    width = max(b.x1 for b in blocks) - min(b.x0 for b in blocks)
    rows: list[list[int]] = []
    row: list[int] = []
    for i in [*sorted(range(len(blocks)), key=lambda k: -blocks[k].lines[0].base), None]:
        b = blocks[i] if i is not None else None
        if b is not None and row and abs(blocks[row[0]].lines[0].base - b.lines[0].base) \
                <= 0.3 * min(blocks[row[0]].size, b.size):
            row.append(i)  # type: ignore[arg-type]
            continue
        if len(row) > 2 and all(blocks[k].x1 - blocks[k].x0 <= 0.25 * width for k in row):
            rows.append(sorted(row, key=lambda k: blocks[k].x0))
        row = [i] if i is not None else []
    tables: list[list[list[int]]] = []
    for r in rows:
        top = min(blocks[k].y0 for k in tables[-1][-1]) if tables else None
        size = max(blocks[k].size for k in r)
        if top is not None and top - max(blocks[k].y1 for k in r) <= 3 * size:
            tables[-1].append(r)
        else:
            tables.append([r])
    return [t for t in tables if len(t) > 1]


def reading_order(blocks: list[RawBlock]) -> list[RawBlock]:
    """Breuel's two rules as a topological sort; ties go top to bottom, then left to right. A
    table is one block to them, read row by row: a report's table, its cells blocks of their own,
    was read column by column, and a centred one after the heading under it (nothing spanned the
    two to say the heading was no column of its own)."""
    tables = _tables(blocks)
    if not tables:
        return _ordered(blocks)
    members = {k for t in tables for r in t for k in r}
    proxies = [RawBlock(lines=[ln for r in t for k in r for ln in blocks[k].lines]) for t in tables]
    rest = [b for k, b in enumerate(blocks) if k not in members]
    expanded: list[RawBlock] = []
    for b in _ordered([*rest, *proxies]):
        if any(b is p for p in proxies):
            t = tables[next(i for i, p in enumerate(proxies) if p is b)]
            expanded += [blocks[k] for r in t for k in r]
        else:
            expanded.append(b)
    return expanded


def _ordered(blocks: list[RawBlock]) -> list[RawBlock]:
    """:func:`reading_order` of blocks that are each one unit."""
    n = len(blocks)
    if n < 2:
        return list(blocks)
    tol = 1.0
    after: list[set[int]] = [set() for _ in range(n)]
    indeg = [0] * n
    for i, a in enumerate(blocks):
        for j, b in enumerate(blocks):
            if i == j:
                continue
            xo = _overlap(a.x0, a.x1, b.x0, b.x1)
            if xo > tol:
                before = a.y1 > b.y1 + tol or (abs(a.y1 - b.y1) <= tol and a.y0 > b.y0)
            elif a.x1 <= b.x0 + tol:
                before = not any(k not in (i, j) and _between(c, a, b, tol) for k, c in enumerate(blocks)) \
                    and not _alone_above(b, a, blocks, tol)
            else:
                before = False
            if before:
                after[i].add(j)
    for i in range(n):
        for j in after[i]:
            indeg[j] += 1
    order: list[int] = []
    ready = [i for i in range(n) if indeg[i] == 0]
    remaining = set(range(n))
    while remaining:
        if not ready:  # a cycle (overlapping boxes): take the topmost left block and go on
            ready = [min(remaining, key=lambda k: (-blocks[k].y1, blocks[k].x0))]
        ready.sort(key=lambda k: (-blocks[k].y1, blocks[k].x0))
        i = ready.pop(0)
        if i not in remaining:
            continue
        remaining.discard(i)
        order.append(i)
        for j in after[i]:
            indeg[j] -= 1
            if indeg[j] == 0 and j in remaining:
                ready.append(j)
    return [blocks[i] for i in order]


# ---------------------------------------------------------------- the whole document


def _where(block: RawBlock, height: float) -> str | None:
    if block.y0 > height * (1 - EDGE):
        return "header"
    if block.y1 < height * EDGE:
        return "footer"
    return None


def _norm(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", text.strip().lower()))


@dataclass
class Furniture:
    kind: str  # header | footer
    text: str  # the text of its first occurrence
    places: list[tuple[Place, str]]  # every occurrence: where, and its own text (page numbers differ)


@dataclass
class ReadResult:
    pages: list[PageText]
    body: list[RawBlock]  # reading order, page by page
    furniture: list[Furniture]
    kept: list[Place]  # page numbers: redrawn as they are
    body_size: float


def analyse(path: Path, data: bytes | None = None, password: str = "") -> ReadResult:
    """Read every page of the PDF at ``path`` (or of ``data``) into blocks; see the module doc."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    stream = io.BytesIO(data) if data is not None else open(path, "rb")  # noqa: SIM115
    with stream:
        doc = PDFDocument(PDFParser(stream), password=password)
        rsrc = PDFResourceManager(caching=True)
        device = PDFPageAggregator(rsrc, laparams=None)
        interp = PDFPageInterpreter(rsrc, device)
        raw: list[tuple[PageText, list[Line]]] = []
        for no, page in enumerate(PDFPage.create_pages(doc)):
            interp.process_page(page)
            layout = device.get_result()
            x0, y0, x1, y1 = layout.bbox
            lines, rules = page_lines(no, layout)
            raw.append((PageText(x1 - x0, y1 - y0, rules=rules), lines))
    sizes: Counter[float] = Counter()
    for _, lines in raw:
        for ln in lines:
            sizes[round(ln.size, 1)] += len(ln.text)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    for pt, lines in raw:
        pt.blocks = reading_order(paragraphs(lines, pt.rules))
    pages = [pt for pt, _ in raw]
    body, furniture, kept = _furniture(pages)
    _kinds(body, body_size)
    body = join_run_ons(body)
    return ReadResult(pages, body, furniture, kept, body_size)


def _slot(where: str, b: RawBlock) -> tuple[str, int, int, int]:
    """Where a page-edge block sits: edge, baseline, size, and left/centre/right by its x."""
    return where, round(b.lines[0].base), round(b.size), round(b.x0) if b.x0 < 200 else round(b.x1)


def _furniture(pages: list[PageText]) -> tuple[list[RawBlock], list[Furniture], list[Place]]:
    # Furniture is what repeats at a page edge: the same text (digits aside), or -- for running
    # heads that name the chapter -- the same place and size with changing text.
    counts: Counter[tuple[str, str]] = Counter()
    slots: Counter[tuple[str, int, int, int]] = Counter()
    for pt in pages:
        counts.update({(w, _norm(b.text)) for b in pt.blocks if (w := _where(b, pt.height))})
        slots.update({_slot(w, b) for b in pt.blocks if (w := _where(b, pt.height))})
    need = max(2, round(0.3 * len(pages)))
    found: dict[tuple[str, str], Furniture] = {}
    body: list[RawBlock] = []
    kept: list[Place] = []
    for pt in pages:
        for b in pt.blocks:
            where = _where(b, pt.height)
            if where and not b.verbatim and _BARE_NUMBER.fullmatch(b.text) and len(b.text) < 20:
                kept.append(b.place())
            elif where and (counts[(where, _norm(b.text))] >= need or slots[_slot(where, b)] >= need):
                key = (where, _norm(b.text))
                f = found.setdefault(key, Furniture(where, b.text, []))
                f.places.append((b.place(), b.text))
            else:
                body.append(b)
    order = sorted(found.values(), key=lambda f: f.kind != "header")
    return body, order, kept


def _kinds(blocks: list[RawBlock], body_size: float) -> None:
    heading_sizes = sorted({round(b.size, 1) for b in blocks
                            if b.size > body_size * 1.15 and not b.verbatim and len(b.text) < 200}, reverse=True)
    for b in blocks:
        if b.kind == "list_item" and round(b.size, 1) in heading_sizes and len(b.lines) == 1 \
                and re.match(r"\d", b.marker):
            # "2.1 ASN.1 syntax" set large is a numbered heading, not a list item.
            b.kind, b.text, b.marker = "paragraph", b.marker + " " + b.text, ""
        if b.verbatim or b.kind == "list_item":
            continue
        size = round(b.size, 1)
        if size in heading_sizes:
            b.kind, b.level = "heading", min(heading_sizes.index(size) + 1, 6)
        elif all(ln.bold for ln in b.lines) and len(b.lines) <= 2 and len(b.text) < 120 \
                and not b.text.endswith((".", "。", ":", "：")) and body_size <= size:
            b.kind, b.level = "heading", min(len(heading_sizes) + 1, 6)


# ---------------------------------------------------------------- paragraphs across breaks

# Dot leaders: a table of contents or an index.
_LEADERS = re.compile(r"\.{4,}|…{2,}|(?:\. ){4,}")
# A block whose text ends like this ends a sentence (or introduces what follows): it does not run on.
_ENDED = re.compile(r"[.!?。！？:：;；…]['\"”’」』)）\]]*$")


def _runs_on(a: RawBlock, b: RawBlock) -> bool:
    """Whether ``b`` continues the paragraph ``a`` past a page break (``b`` first on the next page)
    or a column break (``b`` next in reading order, higher up and to the right): ``a`` ends
    mid-sentence, in a full line (or ``b`` goes on in small letters), ``b`` has no first-line
    indent of its own, and both are body text of one size and weight."""
    if a.verbatim or b.verbatim or a.kind not in ("paragraph", "list_item") or b.kind != "paragraph":
        return False
    size = a.lines[-1].size
    if not a.text or not b.text or _ENDED.search(a.text.rstrip()) or abs(b.size - a.size) > 0.1 * a.size:
        return False
    if a.lines[-1].bold != b.lines[0].bold:
        return False
    if len(b.lines) > 1 and b.lines[0].x0 > b.lines[1].x0 + 0.8 * size:
        return False  # an indented first line starts a paragraph
    # "Full" as within a page: the first word of ``b`` would not have fitted at the end of ``a``.
    space = 0.0 if is_cjk(b.text[0]) else 0.3 * size
    full = len(a.lines) > 1 and a.x1 - a.lines[-1].x1 <= b.lines[0].first_word + space + 0.25 * size
    if _LEADERS.search(a.text) or _LEADERS.search(b.text):
        return False  # a table of contents or an index: entries, not prose
    if b.page == a.page + 1:
        # Not full: a one-line piece may go on in small letters on the same left margin.
        return full or (b.text[0].islower() and abs(b.x0 - a.x0) <= size)
    if b.page != a.page:
        return False
    # A column break: the next column starts higher, to the right, at the same measure.
    same_measure = 0.7 * (a.x1 - a.x0) <= b.x1 - b.x0 <= 1.1 * (a.x1 - a.x0)
    return full and same_measure and b.y1 > a.lines[-1].y1 and b.x0 >= a.x0 + 0.5 * (a.x1 - a.x0)


def join_run_ons(body: list[RawBlock]) -> list[RawBlock]:
    """Join each paragraph cut by a page or column break into one block (``RawBlock.more``).
    Footnotes (smaller text below the paragraph on its page) may stand between the two pieces;
    they follow the joined paragraph."""
    out: list[RawBlock] = []
    i = 0
    while i < len(body):
        a = body[i]
        out.append(a)
        i += 1
        while True:
            last = a.more[-1] if a.more else a
            j = i
            while j < len(body) and body[j].page == last.page and body[j].size < 0.9 * last.size \
                    and body[j].y1 < last.y0:
                j += 1  # footnotes under the paragraph
            if j >= len(body) or not _runs_on(last, body[j]):
                break
            b = body.pop(j)
            joined = _join_lines(a.text, b.text)
            a.starts.append(len(joined) - len(b.text))
            a.more.append(b)
            a.text = joined
    return out
