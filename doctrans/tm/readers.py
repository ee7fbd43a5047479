"""Reading TM files: TMX 1.4 and two-column CSV/TSV, with one :class:`TMError` per bad file.

- **TMX** (``.tmx``, or any file that starts like XML): streamed with
  ``xml.etree.ElementTree.iterparse`` (each ``<tu>`` is cleared once read, so a large TMX does not
  sit in memory twice). Each ``<tu>`` gives its ``<tuv xml:lang="..">`` (``lang`` in TMX 1.1)
  segments by primary language subtag (``zh-CN`` ~ ``zh``; the first variant of a language wins).
  Inline markup in ``<seg>``: the text of ``<hi>`` and ``<sub>`` is kept, the native codes of
  ``<bpt>``, ``<ept>``, ``<ph>``, ``<it>`` and ``<ut>`` are not. The header's ``srclang`` is kept
  for ``doctrans tm add``. Python's expat does not fetch external entities and limits entity
  expansion, so a hostile file cannot read local files or blow up memory.
- **CSV/TSV** (any other file): two columns, source and target; UTF-8 with or without a BOM; the
  delimiter is sniffed (the first of tab, comma, semicolon that splits every row into two
  columns); blank lines and ``#`` comments are skipped. An optional header row: two language
  codes (``en,de``) give the columns' languages; generic names (``source,target``) are skipped,
  and then the columns are the run's source and target language.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from doctrans.errors import UserError
from doctrans.text_table import TableRowError, first_row_delimiter, read_utf8_text, table_rows
from doctrans.tm.normalise import primary_language

_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_CODES = {"bpt", "ept", "ph", "it", "ut"}  # inline native codes: not text to match or reuse
_HEADERS = {"source", "target", "src", "tgt", "translation", "source text", "target text", "原文", "译文"}
_LANG_CODE = re.compile(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$")
_DELIMITERS = ("\t", ",", ";")


class TMError(UserError):
    """A TM file that cannot be used (the CLI prints it as one ``error:`` line, exit 2)."""


@dataclass
class TMFile:
    """The segments of one TM file.

    ``units``: one dict per translation unit, primary language -> segment (TMX, or a CSV/TSV
    whose header names the languages). ``plain``: (source, target) rows of a CSV/TSV without
    language header, taken in whatever direction the run translates.
    """

    path: Path
    units: list[dict[str, str]] = field(default_factory=list)
    plain: list[tuple[str, str]] = field(default_factory=list)
    srclang: str | None = None  # TMX header srclang (primary subtag), None for *all* or CSV

    def __len__(self) -> int:
        return len(self.units) + len(self.plain)

    def pairs(self, src: str, tgt: str) -> Iterator[tuple[str, str]]:
        """The (source, target) segments for translating ``src`` -> ``tgt`` (any subtags)."""
        src, tgt = primary_language(src), primary_language(tgt)
        for unit in self.units:
            s, t = unit.get(src), unit.get(tgt)
            if s is not None and t is not None:
                yield s, t
        yield from self.plain

    def languages(self) -> set[str]:
        return {lang for unit in self.units for lang in unit}


def read_tm_file(path: Path) -> TMFile:
    """Read a TMX or CSV/TSV TM file (see the module docstring); TMError for any problem."""
    path = Path(path)
    if not path.exists():
        raise TMError(f"{path}: no such translation memory file")
    if path.is_dir():
        raise TMError(f"{path}: is a directory, not a translation memory file")
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError as e:
        raise TMError(f"{path}: cannot read the translation memory ({e.strerror})") from None
    stripped = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if path.suffix.lower() == ".tmx" or stripped.startswith(b"<"):
        return read_tmx(path)
    return read_table(path)


def _seg_text(seg: ET.Element) -> str:
    parts = [seg.text or ""]
    for child in seg:
        tag = child.tag.rsplit("}", 1)[-1] if isinstance(child.tag, str) else ""
        if tag not in _CODES:
            parts.append(_seg_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def read_tmx(path: Path) -> TMFile:
    out = TMFile(path)
    n_tu = 0
    try:
        root: ET.Element | None = None
        body: ET.Element | None = None
        for event, elem in ET.iterparse(path, events=("start", "end")):
            tag = elem.tag.rsplit("}", 1)[-1]
            if event == "start":
                if root is None:
                    root = elem
                    if tag != "tmx":
                        raise TMError(f"{path}: not a TMX file (its root element is <{tag}>, not <tmx>)")
                elif tag == "body":
                    body = elem
                elif tag == "header" and elem.get("srclang") and elem.get("srclang", "").lower() != "*all*":
                    out.srclang = primary_language(elem.get("srclang", ""))
                continue
            if tag != "tu":
                continue
            n_tu += 1
            unit: dict[str, str] = {}
            for tuv in elem:
                if tuv.tag.rsplit("}", 1)[-1] != "tuv":
                    continue
                lang = tuv.get(_XML_LANG) or tuv.get("lang")
                if not lang:
                    raise TMError(f"{path}: translation unit {n_tu} has a <tuv> without xml:lang")
                seg = next((c for c in tuv if c.tag.rsplit("}", 1)[-1] == "seg"), None)
                if seg is None:
                    raise TMError(f"{path}: translation unit {n_tu} has a <tuv xml:lang=\"{lang}\"> without <seg>")
                text = _seg_text(seg).strip()
                if text:
                    unit.setdefault(primary_language(lang), text)
            if len(unit) >= 2:
                out.units.append(unit)
            elem.clear()
            if body is not None and len(body) and body[-1] is elem:
                body.remove(elem)  # free each <tu> once read: the tree never holds more than one
    except ET.ParseError as e:
        line, col = e.position
        reason = str(e).split(":", 1)[0]
        raise TMError(f"{path}: not a valid TMX file (XML error at line {line}, column {col + 1}: {reason})") from None
    except OSError as e:
        raise TMError(f"{path}: cannot read the translation memory ({e.strerror})") from None
    if not out.units:
        raise TMError(f"{path}: no translation units with two languages in this TMX file")
    return out


def _rows(text: str, delimiter: str) -> list[tuple[int, list[str]]] | None:
    """Every non-blank, non-comment row split by ``delimiter``; None if one is not two columns."""
    try:
        rows = list(table_rows(text, delimiter))
    except TableRowError:
        return None
    return rows if all(len(cells) == 2 for _, cells in rows) else None


def read_table(path: Path) -> TMFile:
    text = read_utf8_text(path, TMError, reading="the translation memory",
                          not_utf8="not UTF-8 text (byte {byte}); save the translation memory as UTF-8 CSV/TSV or TMX",
                          not_text="not a text file; a translation memory is a TMX or a UTF-8 CSV/TSV file")
    rows = None
    for delimiter in _DELIMITERS:
        rows = _rows(text, delimiter)
        if rows:
            break
    if rows is None:
        bad = _first_bad_row(text, first_row_delimiter(text))
        raise TMError(f"{path}: line {bad[0]}: expected two columns (source, target) separated by a tab, comma "
                      f"or semicolon, got {bad[1]}")
    out = TMFile(path)
    languages: tuple[str, str] | None = None
    for i, (line, (a, b)) in enumerate(rows):
        if i == 0 and {a.casefold(), b.casefold()} <= _HEADERS:
            continue
        if i == 0 and _LANG_CODE.match(a) and _LANG_CODE.match(b) and primary_language(a) != primary_language(b):
            languages = (primary_language(a), primary_language(b))
            continue
        if not a or not b:
            raise TMError(f"{path}: line {line}: empty {'source' if not a else 'target'} segment")
        if languages:
            out.units.append({languages[0]: a, languages[1]: b})
        else:
            out.plain.append((a, b))
    if not out:
        raise TMError(f"{path}: no segments in the translation memory (two columns: source, target)")
    return out


def _first_bad_row(text: str, delimiter: str) -> tuple[int, str]:
    """The first row that is not two columns, or csv cannot read (the file was refused for it)."""
    try:
        for line, cells in table_rows(text, delimiter):
            if len(cells) != 2:
                return line, f"{len(cells)} column{'s' if len(cells) != 1 else ''}"
    except TableRowError as e:
        return e.line, f"a CSV error ({e})"
    return len(text.splitlines()), "an unreadable row"
