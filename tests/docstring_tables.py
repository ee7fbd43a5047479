"""The three-column tables (source | into English | into Chinese) that the docstrings of the
direction-term modules hold and their tests check row by row."""

from __future__ import annotations

import re
from types import ModuleType


def three_column_rows(module: ModuleType) -> list[tuple[str, str, str]]:
    """The table rows of ``module``'s docstring, without its header and rule lines."""
    rows = re.findall(r"^\| ([^|]+?) +\| ([^|]+?) +\| ([^|]+?) +\|$", module.__doc__ or "", re.M)
    return [r for r in rows if r[0] != "source" and not r[0].startswith("---")]


def two_column_rows(module: ModuleType) -> list[tuple[str, str]]:
    """The two-column table rows (source | written) of ``module``'s docstring."""
    rows = re.findall(r"^\| ([^|]+?) +\| ([^|]+?) +\|$", module.__doc__ or "", re.M)
    return [r for r in rows if r[0] != "source" and not r[0].startswith("---")]
