"""The word and name lists of doctrans/data, read the one way: a line per entry, blank lines and
``#`` comments skipped (doctrans.kept_names, doctrans.place_names, doctrans.section_headings,
doctrans.ui_labels)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources


def data_lines(name: str) -> list[str]:
    """The entries of doctrans/data/``name``, one line each, as written (without the line end)."""
    text = resources.files("doctrans").joinpath(f"data/{name}").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


@cache
def word_set(name: str) -> frozenset[str]:
    """The entries of doctrans/data/``name`` as a set, read once (doctrans.kept_names' lists,
    doctrans.verbatim's common words, doctrans.english_people's given names)."""
    return frozenset(line.strip() for line in data_lines(name))


def two_way(name: str, english_keys: Callable[[str], Iterable[str]] = lambda e: (e,)
            ) -> tuple[dict[str, str], dict[str, str]]:
    """A two-column list of English and Chinese forms (``|`` between a side's forms, the first
    written) as (English key -> Chinese, Chinese -> English): each English form is keyed as
    ``english_keys`` gives it (in small letters, in capitals...); the first entry of a key wins."""
    into_chinese: dict[str, str] = {}
    into_english: dict[str, str] = {}
    for line in data_lines(name):
        english, chinese = (side.split("|") for side in line.split("\t"))
        for form in english:
            for key in english_keys(form):
                into_chinese.setdefault(key, chinese[0])
        for form in chinese:
            into_english.setdefault(form, english[0])
    return into_chinese, into_english
