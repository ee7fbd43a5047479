"""Export: a checkpoint becomes a verified bundle, and a bundle that disagrees is never written."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import pytest
import torch

from doctrans.engine.bundle import GRAPH_FILES
from doctrans.engine.errors import BundleError
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.hashing import sha256_file
from export import graphs, share_weights
from export.bundle import ExportError, export_checkpoint, export_model
from export.common import IR_VERSION
from tests.tiny_model import one_torch_thread, sentences, shared_bundle, shared_checkpoint
from training.checkpoint import LoadedModel, load_model
from training.model import MemoryTransformer, make_config
from training.search import translate_documents

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here


def test_bundle_layout_and_model_json() -> None:
    bundle = shared_bundle()
    names = {p.name for p in bundle.iterdir()}
    assert names == {"model.json", "spm.model", "memory_init.npz", "encoder.onnx", "decoder.onnx",
                     "decoder_full.onnx", "memory_update.onnx", "memory_read.onnx", "weights.bin"}
    meta = json.loads((bundle / "model.json").read_text())
    assert meta["files"]["weights"] == "weights.bin"
    assert meta["weights_bytes"] == (bundle / "weights.bin").stat().st_size
    ckpt = shared_checkpoint()
    assert meta["format_version"] == 3
    assert (meta["src_lang"], meta["tgt_lang"]) == ("en", "xx")
    assert meta["memory"] == {"sides": ["src", "tgt"], "slots": 16, "layers": {"src": [1], "tgt": [1]}}
    assert meta["special_ids"] == {"pad": 0, "bos": 1, "eos": 2, "unk": 3}
    assert meta["provenance"]["checkpoint_sha256"] == sha256_file(ckpt)
    assert meta["provenance"]["step"] == 80
    assert "train_loss" in meta["scores"]
    assert meta["quantization"] is None
    # No temp dirs left next to the bundle.
    assert not [p for p in bundle.parent.iterdir() if p.name.startswith(".bundle")]


SHIPPED = sorted((Path(__file__).resolve().parent.parent / "doctrans" / "models").iterdir())


def test_graphs_carry_an_ir_version_every_supported_runtime_reads() -> None:
    # onnx.helper.make_model stamps the installed onnx's newest IR version (14 with onnx 1.23); the
    # GPU image's ONNX Runtime 1.30 refused such a memory_read graph in the middle of a device run,
    # and a user's onnxruntime 1.18 (pyproject's floor) would refuse a shipped bundle the same way.
    for bundle in [shared_bundle(), *SHIPPED]:
        for name in GRAPH_FILES.values():
            if (bundle / name).is_file():
                version = onnx.load(str(bundle / name), load_external_data=False).ir_version
                assert version <= IR_VERSION, f"{bundle.name}/{name}: IR {version}"
    assert graphs.topk_graph().ir_version == graphs.reorder_graph().ir_version == IR_VERSION


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
    assert json.loads((out / "model.json").read_text())["format_version"] == 3


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

    def export_then_break(model, out, step="per_layer"):
        real(model, out, step)
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
    with pytest.raises(ExportError, match="no_repeat_ngram must be >= 0"):
        export_checkpoint(shared_checkpoint(), tmp_path / "b", no_repeat_ngram=-2)
    with pytest.raises(ExportError, match="length_penalty must be a non-negative number"):
        export_checkpoint(shared_checkpoint(), tmp_path / "b", length_penalty=-0.5)
    with pytest.raises(ExportError, match="max_repeat_run must be >= 0"):
        export_checkpoint(shared_checkpoint(), tmp_path / "b", max_repeat_run=-1)


def test_int8_bundle_loads_and_translates(tmp_path: Path) -> None:
    out = tmp_path / "int8"
    report = export_checkpoint(shared_checkpoint(), out, quantize="int8", sentences=sentences(4), beam=1,
                               no_repeat_ngram=3, length_penalty=1.3, max_repeat_run=2)
    q = report.int8
    assert q["bytes"] < 0.6 * q["fp32_bytes"]
    # Quantization may flip a close call (the toy model, 80 steps old, has many: 2 or 3 of 4
    # sentences differ, depending on the machine and the toy's initialisation, max |Δ| logits
    # 1.4-1.6), but a working int8 bundle agrees with fp32 on some sentences and its logits stay
    # near fp32's (a broken quantization is off by tens: the logit bound is the real check).
    assert q["sentences"] == 4 and q["same_sentences"] >= 1, {k: v for k, v in q.items() if k != "per_sentence"}
    assert q["logit_diff"] < 5.0, str(q)
    assert "int8:" in report.summary()
    meta = json.loads((out / "model.json").read_text())
    assert meta["quantization"] == "int8" and meta["decoding"] == {"no_repeat_ngram": 3, "length_penalty": 1.3,
                                                                      "max_repeat_run": 2}
    tr = OnnxTranslator.load(out, beam_size=2)
    assert tr.options.no_repeat_ngram == 3  # the bundle's decoding defaults reach the engine
    assert tr.options.length_penalty == 1.3 and tr.options.max_repeat_run == 2
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


# -- shared weights -------------------------------------------------------------------------------
def _external_refs(bundle: Path) -> list[tuple[str, str, int, tuple[int, ...], int, int]]:
    """(graph, tensor, dtype, shape, offset, length) of every initializer stored in weights.bin;
    asserts the rest are small and inline."""
    import onnx

    refs = []
    for name in GRAPH_FILES.values():
        model = onnx.load(str(bundle / name), load_external_data=False)
        for t in model.graph.initializer:
            if t.data_location != onnx.TensorProto.EXTERNAL:
                assert len(onnx.numpy_helper.to_array(t).tobytes()) < share_weights.INLINE_BELOW, (name, t.name)
                continue
            info = {e.key: e.value for e in t.external_data}
            assert info["location"] == "weights.bin"
            refs.append((name, t.name, t.data_type, tuple(t.dims), int(info["offset"]), int(info["length"])))
    return refs


def test_each_distinct_weight_is_stored_once() -> None:
    bundle = shared_bundle()
    refs = _external_refs(bundle)
    data = (bundle / "weights.bin").read_bytes()
    regions = {(off, n) for *_, off, n in refs}
    assert all(off + n <= len(data) for off, n in regions)
    ends = sorted(regions)
    assert all(a[0] + a[1] <= b[0] for a, b in itertools.pairwise(ends)), "regions overlap"
    # No content twice: distinct regions hold distinct (dtype, shape, bytes).
    contents = {(dt, shape, data[off:off + n]) for _, _, dt, shape, off, n in refs}
    assert len(contents) == len(regions)
    # The decoder graphs share their weights, the encoder shares the tied embedding with them.
    by_graph = {g: {(off, n) for gg, *_, off, n in refs if gg == g} for g in GRAPH_FILES.values()}
    assert by_graph["decoder.onnx"] & by_graph["decoder_full.onnx"] & by_graph["encoder.onnx"]
    separate = sum(n for *_, n in refs)  # the same tensors stored once per graph that uses them
    assert len(data) < 0.75 * separate
    # ... which is most of what a bundle of self-contained graphs weighs.
    graphs_now = sum((bundle / f).stat().st_size for f in GRAPH_FILES.values()) + len(data)
    assert graphs_now < 0.8 * (sum((bundle / f).stat().st_size for f in GRAPH_FILES.values()) + separate)


def _inline_copy(bundle: Path, out: Path) -> Path:
    """The bundle as exported before weights were shared: self-contained graphs, no weights.bin."""
    import onnx

    shutil.copytree(bundle, out)
    for name in GRAPH_FILES.values():
        onnx.save(onnx.load(str(bundle / name)), str(out / name))  # load reads weights.bin; save inlines
    (out / "weights.bin").unlink()
    meta = json.loads((out / "model.json").read_text())
    del meta["files"]["weights"], meta["weights_bytes"]
    meta.pop("sha256", None)  # bundles of that time recorded no digests either
    (out / "model.json").write_text(json.dumps(meta))
    return out


def test_shared_weights_translate_like_self_contained_graphs(tmp_path: Path) -> None:
    """Same greedy output and memories with and without weights.bin; an old bundle still loads,
    and re-packing it in place gives the exporter's weights file byte for byte."""
    bundle = shared_bundle()
    old = _inline_copy(bundle, tmp_path / "old")
    doc = sentences(6, seed=7)
    a, b = (OnnxTranslator.load(d, beam_size=1).new_document() for d in (old, bundle))
    for s in doc:
        ra, rb = a.translate(s), b.translate(s)
        assert ra.tgt_tokens == rb.tgt_tokens and ra.score == rb.score
        for side, m in a.memory.items():
            np.testing.assert_array_equal(m, b.memory[side])
    assert share_weights.main([str(old)]) == 0
    assert (old / "weights.bin").read_bytes() == (bundle / "weights.bin").read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name != "old"]  # no temp dir left
    r = OnnxTranslator.load(old, beam_size=1).translate_document(doc)
    assert [x.tgt_tokens for x in r] == [x.tgt_tokens for x in OnnxTranslator.load(bundle, beam_size=1)
                                         .translate_document(doc)]


def _truncate(bundle: Path) -> None:
    w = bundle / "weights.bin"
    w.write_bytes(w.read_bytes()[:-100])


@pytest.mark.parametrize(("edit", "message"), [
    (_truncate, r"weights.bin is truncated \([\d,]+ bytes, model.json says [\d,]+\)"),
    (lambda b: (b / "weights.bin").unlink(), "incomplete bundle, weights.bin is missing"),
])
def test_damaged_weights_file_gives_one_clear_error(tmp_path: Path, edit, message: str) -> None:
    bundle = shutil.copytree(shared_bundle(), tmp_path / "b")
    edit(bundle)
    with pytest.raises(BundleError, match=message) as info:
        OnnxTranslator.load(bundle)
    assert "\n" not in str(info.value) and str(bundle) in str(info.value)


def test_wrong_offsets_are_caught_when_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = share_weights._WeightsFile.place
    monkeypatch.setattr(share_weights._WeightsFile, "place", lambda self, key, raw: (0, real(self, key, raw)[1]))
    with pytest.raises(share_weights.WeightSharingError, match=r"does not read back from weights\.bin"):
        share_weights.share_weights(shared_bundle(), tmp_path / "b")


@pytest.mark.parametrize("quantize", [None, "int8"])
def test_export_checks_the_shared_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         quantize: str | None) -> None:
    """Weights that do not read back as traced (here: the file scrambled after sharing) fail the export."""
    import export.bundle as eb

    real = eb._share

    def share_then_scramble(src: Path, dst: Path):
        report = real(src, dst)
        if quantize is None or "int8" in dst.name:
            w = dst / "weights.bin"
            w.write_bytes(w.read_bytes()[::-1])  # same size: only the checks on the graphs can tell
        return report

    monkeypatch.setattr(eb, "_share", share_then_scramble)
    expected = "translates differently" if quantize else "differs from PyTorch"
    with pytest.raises(ExportError, match=expected):
        export_checkpoint(shared_checkpoint(), tmp_path / "b", quantize=quantize, sentences=sentences(2), beam=1)
    assert list(tmp_path.iterdir()) == []
