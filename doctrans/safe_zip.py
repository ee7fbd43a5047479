"""Zip packages (docx) checked against decompression bombs before anything is decompressed.

A 330 KB docx can declare 192 MiB of empty paragraphs (lxml then needs gigabytes to parse them),
and a 1 MB docx a 1 GiB media part. The central directory declares every part's uncompressed
size, and zipfile never returns more than the declared size (it stops there and the CRC check
fails), so the declared sizes are a safe upper bound to check first:

- the whole package: at most ``DOCTRANS_MAX_UNZIPPED_MB`` (default 512) MiB uncompressed;
- the XML parts that are parsed (text, content types, relationships): at most
  ``DOCTRANS_MAX_XML_MB`` (default 64) MiB together -- parsed XML takes 10-30x its size in memory;
- any part over 8 MiB uncompressed: at most ``DOCTRANS_MAX_ZIP_RATIO`` (default 200) times its
  compressed size (text XML compresses 5-20x, images and fonts about 1x; 1000x is a bomb).

Each limit can be raised with its environment variable for a trusted file; the error names it.
Parts copied unchanged to the output are streamed (:func:`copy_part`), never read whole.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

from doctrans.errors import DocumentError

MIB = 1 << 20
RATIO_FLOOR = 8 * MIB  # small parts may compress as well as they like


def _limit(env: str, default: float) -> float:
    raw = os.environ.get(env)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise DocumentError(f"{env}={raw!r} must be a number") from None
    if value <= 0:
        raise DocumentError(f"{env}={raw!r} must be positive")
    return value


def is_parsed_xml(name: str) -> bool:
    return name.lower().endswith((".xml", ".rels"))


def check_zip(path: Path, zf: zipfile.ZipFile) -> None:
    """Refuse a package whose declared sizes exceed the limits (module docstring)."""
    max_total = _limit("DOCTRANS_MAX_UNZIPPED_MB", 512) * MIB
    max_xml = _limit("DOCTRANS_MAX_XML_MB", 64) * MIB
    max_ratio = _limit("DOCTRANS_MAX_ZIP_RATIO", 200)
    infos = zf.infolist()
    total = sum(i.file_size for i in infos)
    if total > max_total:
        raise DocumentError(f"{path}: unpacks to {total / MIB:,.0f} MiB, over the limit of {max_total / MIB:,.0f} "
                            "MiB (a zip bomb?); set DOCTRANS_MAX_UNZIPPED_MB to allow more for a file you trust")
    xml = sum(i.file_size for i in infos if is_parsed_xml(i.filename))
    if xml > max_xml:
        raise DocumentError(f"{path}: holds {xml / MIB:,.0f} MiB of XML, over the limit of {max_xml / MIB:,.0f} MiB "
                            "(a zip bomb?); set DOCTRANS_MAX_XML_MB to allow more for a file you trust")
    for i in infos:
        if i.file_size > RATIO_FLOOR and i.file_size > max_ratio * max(1, i.compress_size):
            raise DocumentError(f"{path}: part {i.filename} unpacks {i.file_size / max(1, i.compress_size):,.0f}x "
                                f"({i.file_size / MIB:,.0f} MiB), over the limit of {max_ratio:,.0f}x (a zip bomb?); "
                                "set DOCTRANS_MAX_ZIP_RATIO to allow more for a file you trust")


def copy_part(zin: zipfile.ZipFile, zout: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    """Copy one part unchanged, in chunks (a large image or font never sits in memory whole).

    The original ZipInfo keeps name, date, order and compression; zip64 is forced for parts that
    need it, as ``writestr`` would decide from the data size.
    """
    with zin.open(info) as src, zout.open(info, "w", force_zip64=info.file_size >= zipfile.ZIP64_LIMIT) as dst:
        shutil.copyfileobj(src, dst, MIB)
