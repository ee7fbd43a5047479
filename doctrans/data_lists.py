"""The word and name lists of doctrans/data, read the one way: a line per entry, blank lines and
``#`` comments skipped (doctrans.kept_names, doctrans.place_names, doctrans.section_headings)."""

from __future__ import annotations

from importlib import resources


def data_lines(name: str) -> list[str]:
    """The entries of doctrans/data/``name``, one line each, as written (without the line end)."""
    text = resources.files("doctrans").joinpath(f"data/{name}").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
