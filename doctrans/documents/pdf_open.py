"""Opening a PDF with pypdf: decryption and every way a damaged file can make pypdf fail.

Why a module of its own: ``PdfReader()`` and ``decrypt()`` are where encrypted and damaged files
show up, and pypdf reports them with a zoo of exception types -- ``DependencyError`` when the AES
backend (``cryptography``, a declared dependency) is missing, ``FileNotDecryptedError``,
``LimitReachedError`` for decompression bombs, and plain ``AttributeError``/``TypeError`` from
objects of the wrong kind. Each becomes one DocumentError line about the file, never a "bug".

Owner-password-only PDFs (the common "protected" kind: copying restricted, no password to open)
decrypt with the empty user password and are translated; a PDF that needs a password to open is
refused with a clear line.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

from doctrans.errors import DocumentError


def open_reader(path: Path) -> Any:  # -> pypdf.PdfReader
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PyPdfError

    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted:
            _decrypt(path, reader)
        _ = len(reader.pages)
    except DocumentError:
        raise
    except DependencyError as e:
        raise DocumentError(f"{path}: the PDF is encrypted with AES and the 'cryptography' package is missing "
                            f"({e}); pip install cryptography") from None
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError, EOFError,
            RecursionError, NotImplementedError, zlib.error) as e:
        raise DocumentError(f"{path}: damaged PDF ({type(e).__name__}: {_short(e)})") from None
    return reader


def _decrypt(path: Path, reader: Any) -> None:
    from pypdf.errors import DependencyError, PyPdfError

    try:
        ok = reader.decrypt("")  # owner-password-only PDFs open without a password
    except DependencyError:
        raise
    except (PyPdfError, NotImplementedError, ValueError, KeyError, TypeError) as e:
        raise DocumentError(f"{path}: the PDF is encrypted in a way doctrans cannot open ({_short(e)}); "
                            "remove the protection first") from None
    if not ok:
        raise DocumentError(f"{path}: the PDF is encrypted with a password; remove the protection first")


def _short(e: BaseException, limit: int = 160) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."
