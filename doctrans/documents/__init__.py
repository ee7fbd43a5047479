"""Document formats behind one interface: ``read(path) -> Document`` and
``write(document, translated_blocks, out_path)``, with a registry by file suffix.

Public API (used by the translate job, the CLI and the TUI):
- :func:`read_document` -- open and validate a file (raises DocumentError with a clear message);
- :func:`writer_for` -- the writer for an output path: the input adapter's own writer when the
  suffix matches (docx in place, txt layout-preserving), else a rebuild writer (pdf/docx/txt);
- :func:`adapter_for`, :data:`SUFFIXES` -- the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from doctrans.documents.base import Adapter, Block, Document, Run, TranslatedBlock
from doctrans.documents.docx_format import DocxAdapter
from doctrans.documents.pdf_format import PDF_LAYOUTS, PdfAdapter
from doctrans.documents.txt_format import TxtAdapter
from doctrans.errors import DocumentError

Writer = Callable[[Document, Iterable[TranslatedBlock], Path], None]

ADAPTERS: list[Adapter] = [TxtAdapter(), DocxAdapter(), PdfAdapter()]
SUFFIXES: dict[str, Adapter] = {s: a for a in ADAPTERS for s in a.suffixes}


def adapter_for(path: Path) -> Adapter:
    adapter = SUFFIXES.get(Path(path).suffix.lower())
    if adapter is None:
        known = ", ".join(sorted(SUFFIXES))
        raise DocumentError(f"{path}: unsupported file type {Path(path).suffix or '(no suffix)'!r}; "
                            f"supported: {known}")
    return adapter


def read_document(path: Path) -> Document:
    path = Path(path)
    adapter = adapter_for(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DocumentError(f"{path}: no such file") from None
    except OSError as e:
        raise DocumentError(f"{path}: cannot read it ({e.strerror})") from None
    if size == 0:
        raise DocumentError(f"{path}: the file is empty, there is nothing to translate")
    try:
        # Damaged files make parsers fail in library-specific ways: one DocumentError line instead.
        from doctrans.documents.guard import read_guarded

        return read_guarded(adapter, path)
    except PermissionError:
        raise DocumentError(f"{path}: permission denied") from None


def writer_for(document: Document, out_path: Path, *, pdf_layout: str = "layout") -> Writer:
    """``pdf_layout``: for pdf -> pdf, ``layout`` (the source pages with the translation drawn in
    place) or ``reflow`` (a new, reflowed document)."""
    from doctrans.documents import rebuild

    if pdf_layout not in PDF_LAYOUTS:
        raise DocumentError(f"unknown PDF layout {pdf_layout!r}; choose one of: {', '.join(PDF_LAYOUTS)}")
    out = adapter_for(out_path)
    if out.name == document.format == "pdf" and pdf_layout == "reflow":
        return rebuild.write_pdf
    if out.name == document.format:
        return out.write
    return {"txt": rebuild.write_txt, "docx": rebuild.write_docx, "pdf": rebuild.write_pdf}[out.name]


__all__ = [
    "ADAPTERS", "PDF_LAYOUTS", "SUFFIXES", "Adapter", "Block", "Document", "DocumentError", "Run", "TranslatedBlock",
    "adapter_for", "read_document", "register", "writer_for",
]
