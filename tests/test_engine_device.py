"""The I/O-bound step decoder (doctrans.engine.device): on the CPU it must translate exactly as the
plain decoder; on a GPU (onnxruntime-gpu) the engine picks CUDA and the cache stays there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

import doctrans.engine.onnx_engine as engine
from doctrans.engine.device import REORDER_GRAPH, REORDER_LAYER_GRAPH
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.engine.topk import BEST_GRAPH, TOPK_GRAPH, topk, topk_session
from tests.tiny_model import one_torch_thread, sentences, shared_bundle, shared_checkpoint

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here

DOC = sentences(5, seed=9)


def test_embedded_graphs_are_the_exported_ones() -> None:
    graphs = pytest.importorskip("export.graphs")  # onnx is the export extra's, not the runtime's
    assert graphs.topk_graph().SerializeToString() == TOPK_GRAPH
    assert graphs.topk_graph(log_softmax=False).SerializeToString() == BEST_GRAPH
    assert graphs.reorder_graph().SerializeToString() == REORDER_GRAPH
    assert graphs.reorder_graph(per_layer=True).SerializeToString() == REORDER_LAYER_GRAPH


def test_topk_graph_matches_numpy() -> None:
    from doctrans.engine.beam import _topk, log_softmax

    sess = topk_session(ort.SessionOptions(), ["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(4, 50)).astype(np.float32)
    logits[1, [3, 7, 9]] = 9.0  # ties: lower token id first
    values, tokens = topk(sess, logits, 6)
    for row in range(4):
        want = _topk(log_softmax(logits)[row], 6)
        assert tokens[row].tolist() == want.tolist()
        np.testing.assert_allclose(values[row], log_softmax(logits)[row][want], atol=1e-6)
    assert topk(sess, logits, 80)[1].shape == (4, 50)  # k beyond the vocabulary: all of it


def test_best_graph_takes_the_k_largest_of_log_probabilities_as_numpy_does() -> None:
    from doctrans.engine.beam import _topk, log_softmax

    sess = topk_session(ort.SessionOptions(), ["CPUExecutionProvider"], log_softmax=False)
    rng = np.random.default_rng(1)
    lp = log_softmax(rng.normal(size=(5, 60)).astype(np.float32))
    lp[0, [2, 5, 11]] = -np.inf  # banned (the search's n-gram ban writes -inf)
    lp[2, :] = lp[2, 0]  # all tied: lower token id first
    lp[3, :57] = -np.inf  # fewer live tokens than k
    values, tokens = topk(sess, lp, 6)
    for row in range(5):
        want = _topk(lp[row], 6)
        assert tokens[row].tolist() == want.tolist()
        assert values[row].tolist() == lp[row][want].tolist()  # not renormalised: the values as given


@pytest.fixture(scope="module")
def stacked_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared checkpoint exported with the format-2 step (stacked inputs, no memory_read.onnx)."""
    from export.bundle import export_model
    from training.checkpoint import load_model

    out = tmp_path_factory.mktemp("stacked") / "bundle"
    export_model(load_model(shared_checkpoint()), out, sentences=sentences(2), beam=1, step="stacked")
    return out


@pytest.mark.parametrize(("beam", "form"), [(1, "per_layer"), (4, "per_layer"), (4, "stacked")])
def test_bound_decoder_translates_like_the_plain_one(beam: int, form: str, monkeypatch: pytest.MonkeyPatch,
                                                     request: pytest.FixtureRequest) -> None:
    bundle = shared_bundle() if form == "per_layer" else request.getfixturevalue("stacked_bundle")
    tr = OnnxTranslator.load(bundle, beam_size=beam)
    plain = tr.translate_document(DOC)
    monkeypatch.setattr(engine, "BIND_ON_CPU", True)
    made = []
    original = engine.make_decoder
    monkeypatch.setattr(engine, "make_decoder", lambda *a, **k: made.append(original(*a, **k)) or made[-1])
    bound = tr.translate_document(DOC)
    assert made and all(type(d).__name__ == "BoundDecoder" for d in made)
    assert [r.tgt_tokens for r in bound] == [r.tgt_tokens for r in plain]
    np.testing.assert_allclose([r.score for r in bound], [r.score for r in plain], atol=1e-6)


@pytest.mark.skipif("CUDAExecutionProvider" not in ort.get_available_providers(),
                    reason="no GPU: onnxruntime-gpu with a CUDA device is needed (CPU stays the default)")
def test_cuda_provider_keeps_the_cache_on_the_device() -> None:
    gpu = OnnxTranslator.load(shared_bundle(), beam_size=3)
    assert gpu.providers[0] == "CUDAExecutionProvider"
    cpu = OnnxTranslator.load(shared_bundle(), beam_size=3, providers=["CPUExecutionProvider"])
    assert cpu.providers == ["CPUExecutionProvider"]
    got, want = gpu.translate_document(DOC), cpu.translate_document(DOC)
    assert [r.translation for r in got] == [r.translation for r in want]


def test_a_stacked_step_bundle_translates_as_the_per_layer_one(stacked_bundle: Path) -> None:
    """Format-2 bundles (the stacked step, the memory read inside it) keep working, and the
    per-layer step with memory_read.onnx computes the same function: same tokens, same memory."""
    assert not (stacked_bundle / "memory_read.onnx").exists()
    for beam in (1, 4):
        new, old = (OnnxTranslator.load(b, beam_size=beam).new_document() for b in (shared_bundle(), stacked_bundle))
        for s in DOC:
            assert new.translate(s).tgt_tokens == old.translate(s).tgt_tokens
        for side, m in new.memory.items():
            np.testing.assert_allclose(m, old.memory[side], atol=1e-5)
