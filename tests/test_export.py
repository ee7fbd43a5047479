"""Export: a checkpoint becomes a verified bundle, and a bundle that disagrees is never written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from doctrans.engine.onnx_engine import OnnxTranslator
from export import graphs
from export.bundle import ExportError, export_checkpoint, export_model, sha256
from tests.tiny_model import one_torch_thread, sentences, shared_bundle, shared_checkpoint
from training.checkpoint import LoadedModel, load_model
from training.model import MemoryTransformer, make_config
from training.search import translate_documents

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here


def test_bundle_layout_and_model_json() -> None:
    bundle = shared_bundle()
    names = {p.name for p in bundle.iterdir()}
    assert names == {"model.json", "spm.model", "memory_init.npz", "encoder.onnx", "decoder.onnx",
                     "decoder_full.onnx", "memory_update.onnx"}
    meta = json.loads((bundle / "model.json").read_text())
    ckpt = shared_checkpoint()
    assert meta["format_version"] == 1
    assert (meta["src_lang"], meta["tgt_lang"]) == ("en", "xx")
    assert meta["memory"] == {"sides": ["src", "tgt"], "slots": 16, "layers": {"src": [1], "tgt": [1]}}
    assert meta["special_ids"] == {"pad": 0, "bos": 1, "eos": 2, "unk": 3}
    assert meta["provenance"]["checkpoint_sha256"] == sha256(ckpt)
    assert meta["provenance"]["step"] == 80
    assert "train_loss" in meta["scores"]
    assert meta["quantization"] is None
    # No temp dirs left next to the bundle.
    assert not [p for p in bundle.parent.iterdir() if p.name.startswith(".bundle")]


def test_export_report_bounds(tmp_path: Path) -> None:
    # A second export over an existing bundle replaces it (and reports what it checked).
    out = tmp_path / "b"
    out.mkdir()
    (out / "model.json").write_text("{}")
    report = export_checkpoint(shared_checkpoint(), out, sentences=sentences(3), beam=5)
    assert report.greedy_identical
    assert max(report.graph_diffs.values()) < 1e-4
    assert report.doc_memory_diff < 1e-4
    assert report.beam_identical == 3
    assert "greedy identical=True" in report.summary()
    assert json.loads((out / "model.json").read_text())["format_version"] == 1


def test_export_refuses_a_graph_that_disagrees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A memory update that drifts by 1% from the model must not become a bundle."""
    real = graphs.MemoryUpdateGraph.forward

    def tampered(self, *args):
        out = list(real(self, *args))
        out[0] = out[0] * 1.01
        return tuple(out)

    monkeypatch.setattr(graphs.MemoryUpdateGraph, "forward", tampered)
    out = tmp_path / "bad"
    with pytest.raises(ExportError, match="memory after sentence 1 differs from PyTorch"):
        export_checkpoint(shared_checkpoint(), out, sentences=sentences(2), beam=1)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # the temp export dir is gone too


def test_export_refuses_logits_that_disagree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The random-input check compares graphs to the wrappers; break the graph after tracing."""
    import export.bundle as eb

    real = eb.export_graphs

    def export_then_break(model, out):
        real(model, out)
        with torch.no_grad():  # perturb the model the checks compare against, not the ONNX file
            model.dec_norm.bias.add_(0.05 * torch.randn_like(model.dec_norm.bias))

    monkeypatch.setattr(eb, "export_graphs", export_then_break)
    loaded = load_model(shared_checkpoint())
    with pytest.raises(ExportError, match=r"differs from PyTorch by .* on random inputs"):
        export_model(loaded, tmp_path / "bad", sentences=sentences(2), beam=1)
    assert not (tmp_path / "bad").exists()


def test_export_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no such checkpoint"):
        export_checkpoint(tmp_path / "missing.pt", tmp_path / "b")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep me")
    with pytest.raises(ExportError, match="not a model bundle; refusing to overwrite"):
        export_checkpoint(shared_checkpoint(), tmp_path / "notes")
    assert (tmp_path / "notes" / "mine.txt").read_text() == "keep me"
    with pytest.raises(ExportError, match="unknown quantization"):
        export_checkpoint(shared_checkpoint(), tmp_path / "b", quantize="int4")


def test_int8_bundle_loads_and_translates(tmp_path: Path) -> None:
    out = tmp_path / "int8"
    report = export_checkpoint(shared_checkpoint(), out, quantize="int8", sentences=sentences(4), beam=1)
    q = report.int8
    assert q["bytes"] < 0.6 * q["fp32_bytes"]
    assert q["sentences"] == 4 and 0 <= q["same_sentences"] <= 4
    assert "int8:" in report.summary()
    assert json.loads((out / "model.json").read_text())["quantization"] == "int8"
    tr = OnnxTranslator.load(out, beam_size=2)
    results = tr.translate_document(sentences(3))
    assert all(r.translation and np.isfinite(r.score) for r in results)


@pytest.mark.parametrize("mem_side", ["none", "src", "tgt"])
def test_export_other_memory_sides(tmp_path: Path, mem_side: str) -> None:
    """Sentence-level (memory off) and one-sided memory models export and match PyTorch too.

    Random initialisation: generation runs to the length limit, which is fine for parity.
    """
    torch.manual_seed(1)
    spm_bytes = (shared_bundle() / "spm.model").read_bytes()
    vocab = json.loads((shared_bundle() / "model.json").read_text())["model"]["vocab_size"]
    cfg = make_config("tiny", vocab_size=vocab, mem_side=mem_side, max_len=32)
    model = MemoryTransformer(cfg).eval()
    loaded = LoadedModel(model, cfg, spm_bytes, "en", "xx", {"step": 0})
    out = tmp_path / "b"
    report = export_model(loaded, out, sentences=["big dog .", "a cat ."], beam=2)
    assert report.greedy_identical
    names = {p.name for p in out.iterdir()}
    assert ("memory_update.onnx" in names) == (mem_side != "none")

    tr = OnnxTranslator.load(out, beam_size=2)
    sp_ids = [tr.tokenizer.encode(s) for s in ["big dog .", "a cat .", "the old bird ."]]
    ref = translate_documents(model, [sp_ids], beam=2, record_memory=True)[0]
    session = tr.new_document()
    for i, s in enumerate(["big dog .", "a cat .", "the old bird ."]):
        r = session.translate(s)
        assert r.tgt_tokens[1:] == tr.tokenizer.pieces(ref.hypotheses[i])
        assert set(session.memory) == set(cfg.sides)
        for side, m in session.memory.items():
            np.testing.assert_allclose(m, ref.memories[i][side].numpy(), atol=1e-4)
