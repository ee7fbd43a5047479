"""The real pipeline through the CLI: checkpoint -> `doctrans export` -> `doctrans translate` with ONNX."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from doctrans.cli import app
from tests.tiny_model import one_torch_thread, sentences, shared_checkpoint  # noqa: F401 - fixture

runner = CliRunner()


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "bundle"
    result = runner.invoke(app, ["export", str(shared_checkpoint()), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "model.json").is_file() and (out / "encoder.onnx").is_file()
    return out


def test_export_reports_the_checks(bundle):
    # The bundle exists only because export verified it; running again replaces it atomically.
    result = runner.invoke(app, ["export", str(shared_checkpoint()), "-o", str(bundle)])
    assert result.exit_code == 0
    assert "wrote" in result.stdout


def test_export_of_a_missing_checkpoint_is_one_line(tmp_path):
    result = runner.invoke(app, ["export", str(tmp_path / "none.pt"), "-o", str(tmp_path / "b")])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "none.pt" in result.stderr
    assert not (tmp_path / "b").exists()


def test_translated_txt_keeps_paragraphs_blank_lines_and_indentation(bundle, tmp_path):
    s = sentences(6)
    text = f"{s[0]} {s[1]}\n\n\n  {s[2]}\n{s[3]}\n\n{s[4]} {s[5]}\n"
    src = tmp_path / "doc.txt"
    src.write_text(text, encoding="utf-8")
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["translate", str(src), "-o", str(out), "--model", str(bundle), "-q"])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(src.read_bytes()).hexdigest() == digest  # input untouched
    got = out.read_text(encoding="utf-8").split("\n")
    want = text.split("\n")
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (g == "") == (w == "")  # blank lines exactly where they were
        assert len(g) - len(g.lstrip(" ")) == len(w) - len(w.lstrip(" "))  # indentation kept
    # The tiny model reverses word order; each line was really translated by the engine.
    assert got[0] != want[0] and got[0].strip()


def test_models_lists_installed_bundles(bundle, monkeypatch):
    monkeypatch.setenv("DOCTRANS_MODELS", str(bundle.parent))
    result = runner.invoke(app, ["models"])
    assert result.exit_code == 0
    assert "en->xx" in result.stdout and str(bundle) in result.stdout
