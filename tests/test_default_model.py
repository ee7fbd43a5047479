"""Smoke test of the built-in zh->en bundle: the README's main job, with no --model."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from doctrans.cli import app
from doctrans.models_registry import default_bundle

ROOT = Path(__file__).resolve().parents[1]


def test_readme_main_job_translates_the_example_with_the_builtin_model(tmp_path):
    assert default_bundle("zh", "en") is not None, "the zh-en bundle must ship inside the package"
    out = tmp_path / "dialogue.en.txt"
    result = CliRunner().invoke(app, ["translate", str(ROOT / "examples/dialogue.zh.txt"), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    src = (ROOT / "examples/dialogue.zh.txt").read_text(encoding="utf-8").split("\n")
    got = out.read_text(encoding="utf-8").split("\n")
    assert [line == "" for line in got] == [line == "" for line in src]
    for line in filter(None, got):
        # English out: Latin letters, no Chinese characters left over.
        assert re.search(r"[A-Za-z]{2,}", line) and not re.search(r"[\u4e00-\u9fff]", line), line
