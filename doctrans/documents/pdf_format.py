"""PDF in, through pypdf's text extraction with positions; PDF (or docx/txt) out, reflowed.

Why pypdf: it is already a dependency, pure Python, and its ``visitor_text`` hook gives every
text fragment with its position, font and size -- all that is needed to rebuild lines and
paragraphs. (pdfminer.six/PyMuPDF give richer layout, but PyMuPDF is AGPL and neither is needed
for reflowed output.) A PDF has no paragraphs, so they are rebuilt:

- fragments on the same baseline form a line; lines form a paragraph until a larger vertical gap,
  a change of font size, or a short line ending a sentence; a word hyphenated at a line end is
  joined ("contin-" + "ues" -> "continues"), CJK lines are joined without a space;
- two columns: lines that start right of the page middle, next to lines that end left of it,
  form a band read left column first, then right;
- headings: text clearly larger than the body size (or bold and short);
- headers, footers and page numbers: lines near the top/bottom edge that repeat on most pages
  (digits ignored); translated once and redrawn on every output page, page numbers renumbered.

Output keeps page order, paragraph order, headings and page breaks: each source page starts a
new output page (the reflowed text may take more room: it flows onto extra pages, never out of
its box).
"""

from __future__ import annotations

import logging
import re
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.errors import DocumentError
from doctrans.segment import is_cjk

_EDGE = 0.09  # fraction of the page height where headers/footers live
_TERMINAL = tuple(".!?:。！？：\"”’)")


@dataclass
class _Frag:
    x: float
    y: float
    text: str
    size: float
    font: str


@dataclass
class _Line:
    page: int
    x0: float
    x1: float
    y: float
    size: float
    bold: bool
    text: str


@dataclass
class PdfLayout:
    page_sizes: list[tuple[float, float]]
    headers: list[str] = field(default_factory=list)  # texts of repeated headers (digits = page no.)
    footers: list[str] = field(default_factory=list)
    page_numbers: bool = False  # bare page numbers were found in the margins


def _open(path: Path):  # -> pypdf.PdfReader
    # pypdf logs recoverable damage as warnings; the user gets one clear line (or a result) instead.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    with open(path, "rb") as f:
        head = f.read(1024)
        f.seek(0, 2)
        size = f.tell()
        f.seek(max(0, size - 4096))
        tail = f.read()
    if b"%PDF-" not in head:
        raise DocumentError(f"{path}: not a PDF file (no %PDF header; wrong suffix?)")
    if b"%%EOF" not in tail:
        raise DocumentError(f"{path}: truncated or damaged PDF (no end-of-file marker)")
    from doctrans.documents.pdf_open import open_reader

    return open_reader(path)  # decryption and pypdf's failures on damaged files (issue 16)


def _fragments(page) -> list[_Frag]:
    frags: list[_Frag] = []

    def visit(text, cm, tm, font, size):  # type: ignore[no-untyped-def]
        if not text or not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        scale = (cm[3] ** 2 + cm[2] ** 2) ** 0.5 * (tm[3] ** 2 + tm[2] ** 2) ** 0.5 or 1.0
        name = str(font.get("/BaseFont", "")) if font else ""
        for i, piece in enumerate(text.split("\n")):
            if piece.strip():
                frags.append(_Frag(x, y - i * size * scale * 1.2, piece, size * scale, name))

    page.extract_text(visitor_text=visit)
    return frags


def _width(text: str, size: float) -> float:
    return sum(size if is_cjk(c) else size * 0.5 for c in text)


def _lines(page_no: int, frags: list[_Frag]) -> list[_Line]:
    lines: list[_Line] = []
    for f in frags:
        last = lines[-1] if lines else None
        if last and abs(last.y - f.y) < 0.5 * max(f.size, 1) and f.x >= last.x0 - 1:
            gap = f.x - last.x1
            sep = "" if gap < f.size * 0.15 or last.text.endswith(" ") or f.text.startswith(" ") else " "
            if gap > f.size * 3 and f.x > last.x0:  # far apart on one baseline: another column
                lines.append(_Line(page_no, f.x, f.x + _width(f.text, f.size), f.y, f.size,
                                   "bold" in f.font.lower(), f.text))
                continue
            last.text += sep + f.text
            last.x1 = max(last.x1, f.x + _width(f.text, f.size))
            last.size = max(last.size, f.size)
            continue
        lines.append(_Line(page_no, f.x, f.x + _width(f.text, f.size), f.y, f.size,
                           "bold" in f.font.lower(), f.text))
    for line in lines:
        line.text = re.sub(r"\s+", " ", line.text).strip()
    return [ln for ln in lines if ln.text]


def _reading_order(lines: list[_Line], page_width: float) -> list[_Line]:
    """Top to bottom; inside a two-column band, the left column first."""
    mid = page_width / 2
    ordered = sorted(lines, key=lambda ln: (-round(ln.y, 1), ln.x0))
    out: list[_Line] = []
    band: list[_Line] = []

    def flush() -> None:
        left = [ln for ln in band if ln.x0 < mid]
        right = [ln for ln in band if ln.x0 >= mid]
        out.extend(left if not right or not left else left + right)
        band.clear()

    for ln in ordered:
        in_column = ln.x1 <= mid + 5 or ln.x0 >= mid - 5
        if in_column:
            band.append(ln)
        else:
            flush()
            out.append(ln)
    flush()
    return out


def _norm(text: str) -> str:
    return re.sub(r"\d+", "#", text.strip().lower())


def _join_lines(a: str, b: str) -> str:
    if re.search(r"\w-$", a) and b[:1].islower():
        return a[:-1] + b  # de-hyphenate
    if is_cjk(a[-1]) or is_cjk(b[0]):
        return a + b
    return a + " " + b


class PdfAdapter:
    name = "pdf"
    suffixes = (".pdf",)

    def read(self, path: Path) -> Document:
        reader = _open(path)
        pages: list[list[_Line]] = []
        sizes = []
        try:
            for no, page in enumerate(reader.pages):
                box = page.mediabox
                w, h = float(box.width), float(box.height)
                sizes.append((w, h))
                pages.append(_reading_order(_lines(no, _fragments(page)), w))
        except DocumentError:
            raise
        except Exception as e:  # pypdf raises many types on broken content streams
            raise DocumentError(f"{path}: damaged PDF, cannot extract its text ({e})") from None
        if not any(pages):
            raise DocumentError(f"{path}: the PDF has no text layer (scanned images?); "
                                "run OCR on it first")
        layout = PdfLayout(sizes)
        body = self._strip_furniture(pages, sizes, layout)
        blocks = self._paragraphs(body)
        blocks += [Block("header", t) for t in layout.headers]
        blocks += [Block("footer", t) for t in layout.footers]
        return Document(path=path, format=self.name, _blocks=lambda: iter(blocks),
                        size_hint=sum(len(b.text) for b in blocks), state=layout)

    @staticmethod
    def _strip_furniture(pages: list[list[_Line]], sizes: list[tuple[float, float]],
                         layout: PdfLayout) -> list[_Line]:
        """Remove repeated headers/footers and page numbers; remember them in ``layout``."""
        counts: Counter[tuple[str, str]] = Counter()
        for lines, (_w, h) in zip(pages, sizes, strict=True):
            seen = set()
            for ln in lines:
                where = "header" if ln.y > h * (1 - _EDGE) else "footer" if ln.y < h * _EDGE else None
                if where:
                    seen.add((where, _norm(ln.text)))
            counts.update(seen)
        need = max(2, (len(pages) + 1) // 2)
        repeated = {k for k, n in counts.items() if n >= need}
        body: list[_Line] = []
        first_text: dict[tuple[str, str], str] = {}
        for lines, (_w, h) in zip(pages, sizes, strict=True):
            for ln in lines:
                where = "header" if ln.y > h * (1 - _EDGE) else "footer" if ln.y < h * _EDGE else None
                key = (where or "", _norm(ln.text))
                bare_number = where and re.fullmatch(r"[-–—\s]*(\d+|[ivxlc]+)[-–—\s]*", ln.text.lower())
                if bare_number:
                    layout.page_numbers = True
                elif key in repeated:
                    first_text.setdefault(key, ln.text)
                else:
                    body.append(ln)
        for (where, _), text in first_text.items():
            (layout.headers if where == "header" else layout.footers).append(text)
        return body

    @staticmethod
    def _paragraphs(lines: list[_Line]) -> list[Block]:
        if not lines:
            return []
        sizes = Counter()
        for ln in lines:
            sizes[round(ln.size, 1)] += len(ln.text)
        body_size = sizes.most_common(1)[0][0]
        heading_sizes = sorted({round(ln.size, 1) for ln in lines if ln.size > body_size * 1.15},
                               reverse=True)
        blocks: list[Block] = []
        cur: list[_Line] = []

        def flush() -> None:
            if not cur:
                return
            text = cur[0].text
            for ln in cur[1:]:
                text = _join_lines(text, ln.text)
            size = statistics.fmean(ln.size for ln in cur)
            heading = round(size, 1) in heading_sizes or (
                all(ln.bold for ln in cur) and len(text) < 120 and not text.endswith("."))
            if heading:
                level = heading_sizes.index(round(size, 1)) + 1 if round(size, 1) in heading_sizes else 3
                blocks.append(Block("heading", text, level=min(level, 6), page=cur[0].page))
            else:
                blocks.append(Block("paragraph", text, page=cur[0].page))
            cur.clear()

        for ln in lines:
            if cur:
                prev = cur[-1]
                gap = prev.y - ln.y
                width = max(x.x1 for x in cur) - min(x.x0 for x in cur)
                new = (
                    ln.page != prev.page
                    or abs(ln.size - prev.size) > 0.1 * prev.size
                    or ln.bold != prev.bold
                    or gap < 0  # moved up: next column
                    or gap > 1.6 * max(prev.size, ln.size)
                    or (abs(ln.x0 - prev.x0) > 3 * prev.size and abs(ln.x0 - min(x.x0 for x in cur)) > prev.size)
                    or (prev.text.endswith(_TERMINAL) and (prev.x1 - prev.x0) < 0.6 * width and len(cur) > 1)
                )
                if new:
                    flush()
            cur.append(ln)
        flush()
        return blocks

    def write(self, document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
        from doctrans.documents.rebuild import write_pdf

        write_pdf(document, translated, out_path)
