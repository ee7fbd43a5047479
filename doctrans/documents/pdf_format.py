"""PDF in and out: the adapter behind ``read``/``write``.

Reading (``doctrans/documents/pdf_read.py``, pdfminer.six glyph boxes) rebuilds what a reader
sees: lines, paragraphs, list items, code blocks (verbatim), headings, headers/footers in any
corner, page numbers, and the reading order of columns. See that module for the rules.

Writing a PDF (the default, ``layout``; ``doctrans/documents/pdf_layout_write.py``) keeps each
source page -- size, images, vector graphics -- removes its text and draws the translation in each
block's box. ``reflow`` (``--pdf-layout reflow``, :func:`doctrans.documents.rebuild.write_pdf`)
writes a new, reflowed document instead: block order, headings, lists, page breaks and
headers/footers are kept, the page design is not.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.documents.pdf_read import Furniture, Pieces, Place, ReadResult, analyse
from doctrans.errors import DocumentError

if TYPE_CHECKING:  # pypdf is imported when a PDF is opened, not with the package
    from pypdf import PdfReader

PDF_LAYOUTS = ("layout", "reflow")


@dataclass
class PdfLayout:
    page_sizes: list[tuple[float, float]]
    headers: list[str] = field(default_factory=list)  # texts of repeated headers (digits = page no.)
    footers: list[str] = field(default_factory=list)
    page_numbers: bool = False  # bare page numbers were found in the margins
    # Where each header/footer block (in block order: headers, then footers) occurs on the pages.
    furniture: list[Furniture] = field(default_factory=list)
    kept: list[Place] = field(default_factory=list)  # page numbers, redrawn as they are


def _open(path: Path) -> PdfReader:
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


def _analyse(path: Path, reader: PdfReader) -> ReadResult:
    """pdfminer on the file; when it cannot parse it (damage pypdf repaired while opening), on
    pypdf's rewritten copy of it."""
    try:
        return analyse(path)
    except DocumentError:
        raise
    except Exception:
        pass
    from pypdf import PdfWriter

    buf = io.BytesIO()
    PdfWriter(clone_from=reader).write(buf)
    return analyse(path, data=buf.getvalue())


class PdfAdapter:
    name = "pdf"
    suffixes = (".pdf",)

    def read(self, path: Path) -> Document:
        reader = _open(path)
        try:
            result = _analyse(path, reader)
        except DocumentError:
            raise
        except Exception as e:  # many exception types on broken content streams
            raise DocumentError(f"{path}: damaged PDF, cannot extract its text ({e})") from None
        if not result.body and not result.furniture:
            raise DocumentError(f"{path}: the PDF has no text layer (scanned images?); "
                                "run OCR on it first")
        layout = PdfLayout([(p.width, p.height) for p in result.pages], furniture=result.furniture,
                           kept=result.kept, page_numbers=bool(result.kept))
        blocks = [Block(b.kind, b.text, level=b.level, page=b.page, verbatim=b.verbatim,
                        ref=Pieces([b.place(), *(m.place() for m in b.more)], b.starts) if b.more else b.place())
                  for b in result.body]
        for f in result.furniture:
            # ref None: page furniture, drawn on every page by the reflow writer too.
            blocks.append(Block(f.kind, f.text))
            (layout.headers if f.kind == "header" else layout.footers).append(f.text)
        return Document(path=path, format=self.name, _blocks=lambda: iter(blocks),
                        size_hint=sum(len(b.text) for b in blocks), state=layout)

    def write(self, document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
        """The layout-preserving PDF (see the module doc); the reflowed one is
        :func:`doctrans.documents.rebuild.write_pdf`, chosen by ``writer_for(..., pdf_layout="reflow")``."""
        from doctrans.documents.pdf_layout_write import write_layout_pdf

        write_layout_pdf(document, translated, out_path)
