"""training.memory_silence: a bundle whose untrained memory reads nothing translates a document as
it translates each sentence alone, and keeps its sentence model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from doctrans.engine.onnx_engine import OnnxTranslator
from tests.tiny_model import sentences, shared_bidi_bundle
from training.memory_silence import main, silence


def _whole_and_alone(bundle: Path, doc: list[str]) -> tuple[list[float], list[float]]:
    tr = OnnxTranslator.load(bundle, beam_size=2, src="en", tgt="zh", threads=1)
    whole = [r.score for r in tr.translate_document(doc)]
    alone = [tr.translate_document([s])[0].score for s in doc]
    return whole, alone


def test_a_silenced_bundle_reads_nothing_from_its_memory(tmp_path: Path) -> None:
    original, out, doc = shared_bidi_bundle(), tmp_path / "silenced", sentences(5)
    silence(original, out, sentences=doc[:3])
    whole, alone = _whole_and_alone(original, doc)
    assert not np.allclose(whole[1:], alone[1:], atol=1e-4)  # the toy's memory is read...
    whole, alone = _whole_and_alone(out, doc)
    assert np.allclose(whole, alone, atol=1e-5)  # ...and the silenced one's is not
    meta, before = (json.loads((b / "model.json").read_text()) for b in (out, original))
    assert meta["provenance"]["memory_silenced"]["from"] == before["provenance"]
    assert meta["directions"] == before["directions"]


def test_silencing_what_is_not_a_bundle_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a model")
    assert main([str(tmp_path), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()
