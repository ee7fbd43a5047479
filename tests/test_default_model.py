"""Smoke tests of the built-in bundles: the README's main jobs, with no --model and no language
options (the source language is identified in the document and picks the bundle)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from doctrans.cli import app
from doctrans.models_registry import PACKAGE_MODELS, default_bundle

ROOT = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.mark.parametrize(("example", "src", "tgt"), [("dialogue.zh.txt", "zh", "en"), ("notes.en.txt", "en", "zh")])
def test_readme_main_job_translates_the_example_with_the_builtin_model(tmp_path, monkeypatch, example, src, tgt):
    monkeypatch.delenv("DOCTRANS_MODELS", raising=False)
    bundle = default_bundle(src, tgt)
    assert bundle is not None and bundle.parent == PACKAGE_MODELS, f"the {src}-{tgt} bundle must ship in the package"
    out = tmp_path / f"out.{tgt}.txt"
    result = CliRunner().invoke(app, ["translate", str(ROOT / "examples" / example), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    source = (ROOT / "examples" / example).read_text(encoding="utf-8").split("\n")
    got = out.read_text(encoding="utf-8").split("\n")
    assert [line == "" for line in got] == [line == "" for line in source]  # paragraphs kept
    for line in filter(None, got):
        if tgt == "en":  # English out: Latin letters, no Chinese characters left over
            assert LATIN_WORD.search(line) and not CJK.search(line), line
        else:  # Chinese out: mostly Chinese characters (code names like read() may stay Latin)
            assert len(CJK.findall(line)) >= len(line) / 3, line
