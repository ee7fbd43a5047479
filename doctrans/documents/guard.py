"""Reading a document defensively: library failures on damaged files become one clear line.

Parsers fail on damaged or hostile files in their own ways -- ``zlib.error`` and
``NotImplementedError`` from zipfile, ``RecursionError`` on absurdly nested XML, pypdf's
``LimitReachedError`` or an ``AttributeError`` deep inside it on an object of the wrong kind,
``UnicodeError`` from a text decoder. None of these is a doctrans bug, and none may end as one
(exit 1, "this is a bug"). :func:`read_guarded` maps them to a DocumentError naming the file,
both while opening it and while its blocks are produced (text files are read lazily).

What counts as the file's fault: an exception of a type only damage produces (listed below), or
any exception raised *inside* a parsing library (the innermost traceback frame is in pypdf,
zipfile, lxml, python-docx...). An exception raised in doctrans' own code stays a bug.

Blocks are also cleaned of lone surrogates (U+D800-U+DFFF, which a PDF's ToUnicode map can
produce): they cannot be encoded as UTF-8, so they would crash the tokenizer or a writer. Each
becomes U+FFFD, one code point for one, so every offset into the block text stays valid.
"""

from __future__ import annotations

import codecs
import re
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from doctrans.documents.base import Adapter, Block, Document
from doctrans.errors import DocumentError

_LIBRARIES = {"pypdf", "pdfminer", "zipfile", "zlib", "lxml", "docx", "charset_normalizer", "xml", "codecs",
              "encodings", "struct", "_compression", "gzip", "bz2", "lzma"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _innermost_module(tb: TracebackType | None) -> str:
    name = ""
    while tb is not None:
        name = tb.tb_frame.f_globals.get("__name__", "") or name
        tb = tb.tb_next
    return name.split(".")[0]


def damage_error(path: Path, fmt: str, exc: BaseException) -> DocumentError | None:
    """The DocumentError for ``exc`` raised while reading ``path``, or None if it is not the file's
    fault (a bug, Ctrl-C, out of memory)."""
    if isinstance(exc, (DocumentError, KeyboardInterrupt, SystemExit, MemoryError, GeneratorExit)):
        return None
    detail = " ".join(str(exc).split())[:160] or type(exc).__name__
    if isinstance(exc, RecursionError):
        return DocumentError(f"{path}: the document is nested too deeply to read (damaged, or built to break "
                             "readers)")
    module = _innermost_module(exc.__traceback__)
    if isinstance(exc, NotImplementedError) and module == "zipfile":
        return DocumentError(f"{path}: uses a zip compression method doctrans cannot read ({detail}); save it "
                             "again with Word or LibreOffice")
    known = isinstance(exc, (zlib.error, zipfile.BadZipFile, EOFError, UnicodeError))
    try:
        from pypdf.errors import PyPdfError

        known = known or isinstance(exc, PyPdfError)
    except ImportError:
        pass
    if known or module in _LIBRARIES:
        return DocumentError(f"{path}: damaged or unsupported {fmt} file ({type(exc).__name__}: {detail})")
    return None


def _clean(block: Block) -> Block:
    if _SURROGATE.search(block.text):
        block.text = _SURROGATE.sub("\ufffd", block.text)
    return block


def read_guarded(adapter: Adapter, path: Path) -> Document:
    """``adapter.read(path)`` with library failures mapped to DocumentError, for opening the file
    and for every later pass over its blocks."""
    try:
        document = adapter.read(path)
    except Exception as e:
        mapped = damage_error(path, adapter.name, e)
        if mapped is None:
            raise
        raise mapped from None
    produce = document._blocks

    def blocks() -> Iterator[Block]:
        try:
            for block in produce():
                yield _clean(block)
        except Exception as e:
            mapped = damage_error(path, adapter.name, e)
            if mapped is None:
                raise
            raise mapped from None

    document._blocks = blocks
    return document


def first_undecodable_byte(path: Path, encoding: str) -> int | None:
    """The file offset of the first byte ``encoding`` cannot decode (None if it all decodes).

    Decoding errors raised while reading text report a position inside the decoder's current
    buffer (byte 780 for an error at byte 1,056,372); this re-reads the file in binary.
    """
    decoder = codecs.getincrementaldecoder(encoding)()
    offset = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 20)
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as e:
                # Bytes the decoder held back from the previous chunk come first in its buffer.
                held = len(e.object) - len(chunk)
                return offset - held + e.start
            if not chunk:
                return None
            offset += len(chunk)
