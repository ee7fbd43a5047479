"""Plain text and markdown-ish text, streamed line by line.

Layout rules (so a translated file looks like the original):
- blank lines, fenced code blocks (```), and the exact line endings are copied verbatim;
- a heading (``# ...``), list item (``- ``, ``* ``, ``1. ``) or quote (``> ``) keeps its marker and
  indentation, and only the text after it is translated;
- a hard-wrapped paragraph (lines filled to a similar width) is translated as one text and
  re-wrapped to the original width and indentation; lines that do not look wrapped (addresses,
  verse, short lists) stay one block per line, so the line structure is kept.

Both reading and writing walk the file with the same generator, so memory stays bounded by the
longest paragraph, however long the file is (the writer pulls translations as it goes).
"""

from __future__ import annotations

import codecs
import re
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.errors import DocumentError
from doctrans.segment import is_cjk

_SAMPLE = 1 << 20  # bytes used to detect the encoding
_MARKER = re.compile(r"^(\s*)(#{1,6}\s+|[-*+•]\s+|\d{1,3}[.)]\s+|>\s*)?(.*?)(\s*)$", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~)")
# A "paragraph" of more lines than this (a file without blank lines) is cut into blocks of it,
# so reading stays streamed and the first sentence is translated without reading the whole file.
_MAX_PARAGRAPH_LINES = 200


def _estimate_chars(path: Path, encoding: str) -> int:
    """Characters in the file, estimated from its first MiB: the progress bar counts characters,
    and bytes overstate them (3x for Chinese in UTF-8: the bar ended at 38%)."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        sample = f.read(_SAMPLE)
    chars = len(sample.decode(encoding, errors="replace"))
    return max(1, round(size * chars / max(1, len(sample))))


@dataclass
class _Layout:
    prefix: str  # indentation + marker of the first line
    indent: str  # indentation of continuation lines
    width: int  # 0 = single line, else re-wrap to this width
    eol: str  # between wrapped lines
    trailing: str  # whitespace at the end of the last line
    end: str  # line ending of the last line ("" at the end of a file without a final newline)


def detect_encoding(path: Path) -> str:
    """The text encoding of ``path``: BOMs, then UTF-8, then charset-normalizer; or DocumentError."""
    with open(path, "rb") as f:
        sample = f.read(_SAMPLE)
    if not sample.strip():
        raise DocumentError(f"{path}: the file is empty, there is nothing to translate")
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                     (codecs.BOM_UTF16_BE, "utf-16")):
        if sample.startswith(bom):
            return enc
    if b"\x00" in sample:
        raise DocumentError(f"{path}: this is a binary file, not text (wrong suffix?)")
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=len(sample) < _SAMPLE)
        return "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(sample).best()
    if best is None:
        raise DocumentError(f"{path}: cannot detect the text encoding; save it as UTF-8")
    return best.encoding


def _join(lines: list[str]) -> str:
    out = lines[0]
    for line in lines[1:]:
        out += ("" if out and line and is_cjk(out[-1]) and is_cjk(line[0]) else " ") + line
    return out


def _looks_wrapped(lines: list[str]) -> bool:
    """Hard-wrapped prose: every line but the last is filled to most of the longest one."""
    width = max(len(x) for x in lines)
    return width >= 30 and all(len(x) >= 0.6 * width for x in lines[:-1])


class TxtAdapter:
    name = "txt"
    suffixes = (".txt", ".md", ".markdown", ".text")

    def read(self, path: Path) -> Document:
        encoding = detect_encoding(path)
        return Document(path=path, format=self.name, _blocks=lambda: self._blocks(path, encoding),
                        size_hint=_estimate_chars(path, encoding), state=encoding)

    def _blocks(self, path: Path, encoding: str) -> Iterator[Block]:
        for _raw, block in _parse(path, encoding):
            if block is not None:
                yield block

    def write(self, document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
        encoding = document.state
        out_enc = "utf-8" if encoding in ("utf-16", "utf-8-sig") else encoding
        it = iter(translated)
        with open(out_path, "w", encoding=out_enc, newline="", errors="strict") as out:
            if encoding == "utf-8-sig":
                out.write("\ufeff")
            for raw, block in _parse(document.path, encoding):
                out.write(raw)
                if block is not None:
                    out.write(render(next(it)))


def render(tb: TranslatedBlock) -> str:
    lay: _Layout = tb.block.ref
    text = tb.text.strip()
    if not lay.width:
        return lay.prefix + text + lay.trailing + lay.end
    lines = _wrap(text, max(20, lay.width - len(lay.prefix)))
    body = [lay.prefix + lines[0]] + [lay.indent + x for x in lines[1:]]
    return lay.eol.join(body) + lay.trailing + lay.end


def _wrap(text: str, width: int) -> list[str]:
    if sum(is_cjk(c) for c in text) > len(text) // 3:
        # CJK has no spaces to wrap at; a full-width character is two columns wide.
        lines, cur, cols = [], "", 0
        for ch in text:
            w = 2 if is_cjk(ch) else 1
            if cols + w > width and cur:
                lines.append(cur)
                cur, cols = "", 0
            cur, cols = cur + ch, cols + w
        return [*lines, cur] if cur else lines or [""]
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def _split_eol(line: str) -> tuple[str, str]:
    if line.endswith("\r\n"):
        return line[:-2], "\r\n"
    if line.endswith(("\n", "\r")):
        return line[:-1], line[-1]
    return line, ""


def _parse(path: Path, encoding: str) -> Iterator[tuple[str, Block | None]]:
    """Yield (verbatim text, block or None) in file order; verbatim text precedes the block."""
    try:
        with open(path, encoding=encoding, newline="") as f:
            yield from _parse_lines(f)
    except UnicodeDecodeError:
        # The error's position counts from the decoder's last buffer, not the file: find the real offset.
        from doctrans.documents.guard import first_undecodable_byte

        where = first_undecodable_byte(path, encoding)
        at = f"at byte {where}" if where is not None else "somewhere"
        raise DocumentError(f"{path}: not valid {encoding} text {at}; save it as UTF-8") from None


def _parse_lines(lines: Iterable[str]) -> Iterator[tuple[str, Block | None]]:
    raw: list[str] = []  # verbatim text waiting to be emitted
    para: list[tuple[str, str, str, str]] = []  # (indent, content, trailing, eol) of a paragraph
    in_fence = False

    def flush() -> Iterator[tuple[str, Block | None]]:
        nonlocal raw, para
        if not para:
            return
        contents = [p[1] for p in para]
        if len(para) > 1 and not _looks_wrapped([p[0] + p[1] for p in para]):
            # Not wrapped prose: one block per line keeps the line structure.
            for indent, content, trailing, eol in para:
                yield "".join(raw), Block("paragraph", content, ref=_Layout(indent, indent, 0, eol, trailing, eol))
                raw = []
        else:
            width = max(len(p[0]) + len(p[1]) for p in para) if len(para) > 1 else 0
            lay = _Layout(para[0][0], para[-1][0] if len(para) > 1 else para[0][0], width,
                          para[0][3], para[-1][2], para[-1][3])
            yield "".join(raw), Block("paragraph", _join(contents), ref=lay)
            raw = []
        para = []

    for line in lines:
        body, eol = _split_eol(line)
        if in_fence or _FENCE.match(body):
            yield from flush()
            raw.append(line)
            if _FENCE.match(body):
                in_fence = not in_fence
            continue
        if not body.strip():
            yield from flush()
            raw.append(line)
            continue
        m = _MARKER.match(body)
        assert m is not None  # the pattern matches any line
        indent, marker, content, trailing = m.group(1), m.group(2), m.group(3), m.group(4)
        if marker:
            yield from flush()
            kind = "heading" if marker.startswith("#") else "list_item" if marker[0] != ">" else "paragraph"
            level = marker.count("#") if kind == "heading" else len(indent) // 2
            if not content:
                raw.append(line)
                continue
            block = Block(kind, content, level=level, ref=_Layout(indent + marker, indent, 0, eol, trailing, eol))
            yield "".join(raw), block
            raw = []
            continue
        para.append((indent, content, trailing, eol))
        if len(para) >= _MAX_PARAGRAPH_LINES:
            yield from flush()  # a file without blank lines streams too, not buffered whole
    yield from flush()
    if raw:
        yield "".join(raw), None
