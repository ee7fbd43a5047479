"""What a non-editable install carries: every data file the runtime reads is package data (the
place-name list was not: ``pip install .`` would have shipped doctrans without it)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_every_runtime_data_file_is_package_data() -> None:
    globs = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["doctrans"]
    data = [p.relative_to(REPO / "doctrans").as_posix() for p in (REPO / "doctrans" / "data").iterdir()]
    assert data
    assert [f for f in data if not any(fnmatch(f, g) for g in globs)] == []
