"""The fused one-step decoder (export.step_graph) and the in-place rebuild of older bundles."""

from __future__ import annotations

import collections
import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch

from export.bundle import example_inputs, export_model
from export.graphs import GRAPHS, graph_io
from export.rebuild_step import main as rebuild_main
from export.rebuild_step import rebuild
from export.step_graph import PER_LAYER, in_step_terms, memory_read_graph, run_step, step_graph, step_provenance
from tests.tiny_model import one_torch_thread, sentences, shared_bundle, shared_checkpoint
from training.checkpoint import LoadedModel, load_model
from training.model import MemoryTransformer, make_config

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here


def _ops(path: Path) -> collections.Counter[str]:
    return collections.Counter(n.op_type for n in onnx.load(str(path), load_external_data=False).graph.node)


@pytest.mark.parametrize("per_layer", [True, False])
@pytest.mark.parametrize("mem_side", ["both", "src", "none"])
def test_the_fused_step_computes_what_pytorch_computes(mem_side: str, per_layer: bool) -> None:
    """Random weights (no trained peak to hide behind), padded sources, an empty and a long cache;
    the per-layer step fed as the engine feeds it (stacks split, the memory through memory_read)."""
    torch.manual_seed(3)
    cfg = make_config("tiny", vocab_size=97, mem_side=mem_side, max_len=40)
    model = MemoryTransformer(cfg).eval()
    graph = step_graph(model, per_layer=per_layer)
    sess = ort.InferenceSession(graph.SerializeToString(), providers=["CPUExecutionProvider"])
    read = None
    if per_layer and mem_side == "both":
        read = ort.InferenceSession(memory_read_graph(model).SerializeToString(), providers=["CPUExecutionProvider"])
    ins, outs = graph_io(model)["decoder"]
    if not per_layer:
        assert [i.name for i in sess.get_inputs()] == ins and [o.name for o in sess.get_outputs()] == outs
    for shape in [(3, 9, 0, 4), (1, 4, 6, 11), (4, 7, 30, 2)]:
        inputs = example_inputs(model, *shape, seed=shape[2])["decoder"]
        with torch.no_grad():
            ref = GRAPHS["decoder"](model).eval()(*inputs)
        got = run_step(sess, read, {n: x.numpy() for n, x in zip(ins, inputs, strict=True)})
        want = in_step_terms({o: r.numpy() for o, r in zip(outs, ref, strict=True)}, got)
        assert sorted(got) == sorted(want)
        assert ("log_probs" in got) == per_layer  # the per-layer step normalises in the graph
        for name, r in want.items():
            assert got[name].shape == r.shape, name
            np.testing.assert_allclose(got[name], r, atol=2e-5, err_msg=f"{name} {shape}")
    ops = collections.Counter(n.op_type for n in graph.graph.node)
    # Every attention is one fused kernel; no shape arithmetic is left around the head splits.
    reads = 1 if mem_side == "both" else 0
    assert ops["MultiHeadAttention"] == 2 * cfg.dec_layers + reads
    assert not {"Shape", "Reshape", "Transpose", "Softmax"} & set(ops)
    if per_layer:
        # Nothing split out of a stack or stacked again: the token's and the position's Gathers
        # only, and one Concat for h_tgt; the memory slots are not projected in the step.
        assert ops["Gather"] == 2 and ops["Concat"] == reads
        assert ops["MatMul"] == cfg.dec_layers * 8 + reads * 2 + 1


def test_export_writes_the_fused_per_layer_step_and_says_so() -> None:
    bundle = shared_bundle()
    assert _ops(bundle / "decoder.onnx")["MultiHeadAttention"] > 0
    manifest = json.loads((bundle / "model.json").read_text())
    assert manifest["provenance"]["decoder_step"] == step_provenance(PER_LAYER)
    assert manifest["format_version"] == 3 and manifest["files"]["memory_read"] == "memory_read.onnx"
    names = {i.name for i in onnx.load(str(bundle / "decoder.onnx"), load_external_data=False).graph.input}
    assert {"past_k_0", "cross_k_0", "mem_k_0"} <= names and not {"past_k", "mem_tgt"} & names


def _translate(bundle: Path, beam: int) -> list[list[str]]:
    from doctrans.engine.onnx_engine import OnnxTranslator

    session = OnnxTranslator.load(bundle, beam_size=beam).new_document()
    return [session.translate(s).tgt_tokens for s in sentences(6)]


@pytest.mark.parametrize(("form", "quantize"), [("traced", None), ("traced", "int8"), ("stacked", "int8")])
def test_an_older_bundle_gets_the_per_layer_step_and_translates_as_before(tmp_path: Path, form: str,
                                                                         quantize: str | None) -> None:
    loaded = load_model(shared_checkpoint())
    old = tmp_path / "old"
    export_model(loaded, old, quantize, sentences=sentences(2), beam=1, step=form, no_repeat_ngram=3)
    assert (_ops(old / "decoder.onnx")["MultiHeadAttention"] > 0) == (form == "stacked")
    assert not (old / "memory_read.onnx").exists()
    new = tmp_path / "new"
    shutil.copytree(old, new)
    before = json.loads((old / "model.json").read_text())

    report = rebuild(new, sentences(3))

    assert _ops(new / "decoder.onnx")["MultiHeadAttention"] > 0
    assert report.nodes_after < report.nodes_before / (2 if form == "traced" else 1)
    after = json.loads((new / "model.json").read_text())
    assert after["provenance"]["decoder_step"].startswith(step_provenance(PER_LAYER))
    assert after["decoding"] == before["decoding"] and after["model"] == before["model"]
    # Its step takes per-layer inputs and memory_read.onnx's: a doctrans reading only 1 and 2 refuses it.
    assert after["format_version"] == 3 and (new / after["files"]["memory_read"]).is_file()
    # The engine checks the recorded digests on load: they follow the new files.
    for beam in (1, 3):
        assert _translate(new, beam) == _translate(old, beam)
    # int8: the old Gather table is reproduced, so weights.bin holds only the fused biases more.
    assert report.weights_bytes_after - report.weights_bytes_before < 64 * 1024


def test_rebuild_refuses_what_it_cannot_rebuild_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "not-a-bundle"
    empty.mkdir()
    assert rebuild_main([str(empty)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err

    damaged = tmp_path / "damaged"
    shutil.copytree(shared_bundle(), damaged)
    (damaged / "encoder.onnx").unlink()
    files = sorted(p.name for p in damaged.iterdir())
    assert rebuild_main([str(damaged)]) == 1
    assert "\n" not in capsys.readouterr().err.strip()
    assert sorted(p.name for p in damaged.iterdir()) == files  # untouched, no temp dir left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged", "not-a-bundle"]


def test_a_sentence_level_model_gets_a_fused_step_too(tmp_path: Path) -> None:
    torch.manual_seed(1)
    spm_bytes = (shared_bundle() / "spm.model").read_bytes()
    vocab = json.loads((shared_bundle() / "model.json").read_text())["model"]["vocab_size"]
    cfg = make_config("tiny", vocab_size=vocab, mem_side="none", max_len=32)
    loaded = LoadedModel(MemoryTransformer(cfg).eval(), cfg, spm_bytes, "en", "xx", {"step": 0})
    report = export_model(loaded, tmp_path / "b", sentences=["big dog .", "a cat ."], beam=2)
    assert report.greedy_identical and report.graph_diffs["decoder.log_probs"] < 1e-4
    names = {i.name for i in onnx.load(str(tmp_path / "b" / "decoder.onnx")).graph.input}
    assert "past_k_0" in names and not any(n.startswith("mem_") for n in names)
    assert not (tmp_path / "b" / "memory_read.onnx").exists()


# -- the memory update from the search's own states ---------------------------------------------------
def _count_runs(tr, name: str) -> list[int]:
    calls = [0]
    sess = tr.sessions[name]
    real = sess.run

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    sess.run = counted
    return calls


@pytest.mark.parametrize("beam", [1, 3])
def test_the_memory_is_written_from_the_search_states_without_a_second_pass(beam: int) -> None:
    """Same translations and (to float rounding) the same memories as with decoder_full's states,
    which the viewer's return_attention still runs; at beam 3 the beams reorder, so a wrong walk
    back through them would write another hypothesis' states."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    bundle = shared_bundle()
    fast = OnnxTranslator.load(bundle, beam_size=beam)
    full = OnnxTranslator.load(bundle, beam_size=beam, return_attention=True)
    fast_calls, full_calls = _count_runs(fast, "decoder_full"), _count_runs(full, "decoder_full")
    a, b = fast.new_document(), full.new_document()
    for s in sentences(6):
        ra, rb = a.translate(s), b.translate(s)
        assert ra.tgt_tokens == rb.tgt_tokens
        for side in ("src", "tgt"):
            np.testing.assert_allclose(a.memory[side], b.memory[side], atol=1e-5)
    assert fast_calls[0] == 0 and full_calls[0] == 6


def test_a_step_without_states_falls_back_to_decoder_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bundles whose step decoder gives no h_tgt (exported before it) write the memory as before."""
    import doctrans.engine.onnx_engine as engine

    tr = engine.OnnxTranslator.load(shared_bundle(), beam_size=2)
    ref = tr.new_document()
    expected = [(ref.translate(s).tgt_tokens, {k: v.copy() for k, v in ref.memory.items()}) for s in sentences(4)]
    monkeypatch.setattr(engine, "STEP_STATES", "no_such_output")
    calls = _count_runs(tr, "decoder_full")
    session = tr.new_document()
    for s, (tokens, memory) in zip(sentences(4), expected, strict=True):
        assert session.translate(s).tgt_tokens == tokens
        for side, m in memory.items():
            np.testing.assert_allclose(session.memory[side], m, atol=1e-5)
    assert calls[0] == 4


def test_a_per_layer_bundle_without_its_memory_read_graph_is_refused_in_one_line(tmp_path: Path) -> None:
    """A format-3 bundle whose model.json lost memory_read.onnx (a hand-edited or half-copied
    bundle): the step cannot be fed, so loading says which file is missing, in one line."""
    from doctrans.engine.errors import BundleError
    from doctrans.engine.onnx_engine import OnnxTranslator

    bundle = tmp_path / "bundle"
    shutil.copytree(shared_bundle(), bundle)
    meta = json.loads((bundle / "model.json").read_text())
    del meta["files"]["memory_read"]
    (bundle / "model.json").write_text(json.dumps(meta))
    with pytest.raises(BundleError, match=r"memory_read\.onnx") as err:
        OnnxTranslator.load(bundle)
    assert "\n" not in str(err.value)
