"""Two-column text tables a user brings (a glossary, a translation memory as CSV/TSV): the file
read as UTF-8 text and its rows as csv cells, read the same way by both."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from doctrans.errors import UserError


class TableRowError(Exception):
    """A row the csv module cannot read (e.g. an unclosed quote), with its line number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def read_utf8_text(path: Path, error: type[UserError], *, reading: str, not_utf8: str, not_text: str) -> str:
    """The file as text (UTF-8, a BOM dropped); ``error`` with the caller's words otherwise:
    ``reading`` (what could not be read), ``not_utf8`` (with ``{byte}``), ``not_text`` (NUL bytes)."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise error(f"{path}: cannot read {reading} ({e.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(f"{path}: {not_utf8.format(byte=e.start)}") from None
    if "\x00" in text:
        raise error(f"{path}: {not_text}")
    return text


def first_row_delimiter(text: str) -> str:
    """Tab when the first row that is not blank or a ``#`` comment has one, else comma."""
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
    return "\t" if "\t" in first else ","


def table_rows(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of every row that is not blank or a ``#`` comment: cells stripped,
    trailing empty cells dropped. A row csv cannot read raises TableRowError."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for cells in reader:
            cells = [c.strip() for c in cells]
            while cells and not cells[-1]:
                cells.pop()
            if cells and not cells[0].startswith("#"):
                yield reader.line_num, cells
    except csv.Error as e:
        raise TableRowError(reader.line_num, str(e)) from None
