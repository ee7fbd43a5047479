"""The ONNX engine: parity with training.search, the memory loop, attention, bundle validation."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from doctrans.engine import BundleError, Translator, load_translator
from doctrans.engine.beam import _topk, banned_tokens, beam_search, log_softmax
from doctrans.engine.onnx_engine import OnnxTranslator
from tests.tiny_model import one_torch_thread, sentences, shared_bundle, shared_checkpoint
from training.checkpoint import load_model
from training.search import translate_documents

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here

DOC = sentences(6)


def _reference(beam: int):
    loaded = load_model(shared_checkpoint())
    tr = OnnxTranslator.load(shared_bundle())
    ids = [tr.tokenizer.encode(s) for s in DOC]
    return tr, translate_documents(loaded.model, [ids], beam=beam, record_memory=True)[0]


@pytest.mark.parametrize("beam", [1, 5])
def test_document_parity_with_pytorch(beam: int) -> None:
    """Same tokens as training.search, memories after every sentence within 1e-4."""
    tr, ref = _reference(beam)
    assert isinstance(tr, Translator)
    session = tr.new_document(beam_size=beam)
    ended = 0
    for i, sentence in enumerate(DOC):
        r = session.translate(sentence)
        hyp = ref.hypotheses[i]
        assert r.tgt_tokens == ["<s>", *tr.tokenizer.pieces(hyp)], f"sentence {i + 1}"
        assert r.translation == tr.tokenizer.decode(hyp)
        ended += len(hyp) < 2 * (len(r.src_tokens)) + 10
        for side in ("src", "tgt"):
            np.testing.assert_allclose(session.memory[side], ref.memories[i][side].numpy(), atol=1e-4)
    assert ended == len(DOC)  # the trained model stops by itself (EOS), not at the length limit


def test_memory_is_per_document_and_resumable() -> None:
    tr = OnnxTranslator.load(shared_bundle(), beam_size=2)
    whole = tr.translate_document(DOC)
    # A fresh document starts from M_0 again: same results as the first run.
    assert [r.translation for r in tr.translate_document(DOC)] == [r.translation for r in whole]
    # Stop after 3 sentences, save the memory as the CLI does (np.savez), resume in a new session.
    first = tr.new_document()
    head = [first.translate(s) for s in DOC[:3]]
    saved = {k: np.array(v) for k, v in first.memory.items()}
    tail = tr.translate_document(DOC[3:], memory=saved)
    assert [r.translation for r in head + tail] == [r.translation for r in whole]
    # The memory carries information: the same sentence after other sentences reads a different M.
    assert not np.allclose(first.memory["src"], tr.new_document().memory["src"])
    with pytest.raises(ValueError, match="has shape"):
        tr.new_document({"src": np.zeros((1, 2, 3)), "tgt": np.zeros((1, 2, 3))})


def test_attention_maps_for_the_viewer() -> None:
    tr = load_translator(shared_bundle(), beam_size=3, return_attention=True)
    results = tr.translate_document(DOC[:2])
    heads = tr.info.n_heads
    for r in results:
        a = r.attention
        assert a is not None
        ns, nt, slots = len(r.src_tokens), len(r.tgt_tokens), tr.info.mem_slots
        assert r.src_tokens[-1] == "</s>" and r.tgt_tokens[0] == "<s>"
        assert a.src_update.shape == (heads, slots, ns)
        assert a.tgt_update.shape == (heads, slots, nt)
        assert a.src_output.shape == (heads, ns, slots)
        assert a.tgt_output.shape == (heads, nt, slots)
        for w in (a.src_update, a.tgt_update, a.src_output, a.tgt_output):
            np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-5)  # rows are distributions
    assert tr.translate_document(DOC[:1], return_attention=False)[0].attention is None


def test_options_and_token_counts() -> None:
    tr = OnnxTranslator.load(shared_bundle(), beam_size=1)
    assert tr.max_source_tokens == tr.info.max_len - 1
    assert tr.count_tokens(DOC[0]) == len(tr.tokenizer.encode(DOC[0]))
    short = tr.translate_document(DOC[:2], max_length=2)
    assert all(len(r.tgt_tokens) - 1 <= 2 for r in short)
    # A "sentence" longer than the model's positions is cut to fit, never an error.
    long = " ".join(DOC) * 20
    assert tr.count_tokens(long) > tr.max_source_tokens
    assert len(tr.translate_document([long], max_length=3)[0].src_tokens) == tr.max_source_tokens + 1
    # Nothing to translate (doctrans.verbatim.is_untranslatable): copied, the model not called.
    empty = tr.translate_document([""])[0]
    assert (empty.translation, empty.copied, empty.src_tokens) == ("", True, [])
    assert tr.source_ids("") == [tr.info.eos_id]
    assert tr.providers[-1] == "CPUExecutionProvider"


def test_beam_helpers_match_torch_conventions() -> None:
    row = np.array([0.5, 2.0, 2.0, -np.inf, 1.0], dtype=np.float32)
    assert _topk(row, 3).tolist() == [1, 2, 4]  # ties: lower index first
    lp = log_softmax(np.array([[1.0, 2.0, 3.0]], dtype=np.float32))
    np.testing.assert_allclose(np.exp(lp).sum(), 1.0, rtol=1e-6)


class _Stutter:
    """A decoder that always wants token 3 again, then 4, then EOS (2): the stuttering small models do."""

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        logits = np.full((tokens.shape[0], 6), -10.0, dtype=np.float32)
        logits[:, 3], logits[:, 4], logits[:, 2] = 5.0, 4.0, 3.0 - 0.5 * (t < 6)
        return logits

    def reorder(self, origin: np.ndarray) -> None:
        pass


@pytest.mark.parametrize("beam", [1, 3])
def test_no_repeat_ngram_stops_stuttering(beam: int) -> None:
    free = beam_search(_Stutter(), 1, beam, [12], 1, 2)[0].tokens
    assert free == [3] * 12  # stutters to the length limit
    for n in (1, 2, 3):
        hyp = beam_search(_Stutter(), 1, beam, [12], 1, 2, no_repeat_ngram=n)[0].tokens
        grams = [tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1)]
        assert len(grams) == len(set(grams)), (n, hyp)  # no n-gram twice
        assert beam > 1 or hyp[:n] == [3] * n  # greedy: what is allowed is still chosen
    assert banned_tokens([5, 6, 5], 2) == [6] and banned_tokens([5, 6], 3) == [] and banned_tokens([7], 0) == []


def test_bundle_decoding_default_and_override(tmp_path: Path) -> None:
    bundle = _copy(tmp_path)
    _edit_json(bundle, lambda m: m.update(decoding={"no_repeat_ngram": 3, "length_penalty": 0.6}))
    assert OnnxTranslator.load(bundle).options.no_repeat_ngram == 3
    assert OnnxTranslator.load(bundle).options.length_penalty == 0.6
    assert OnnxTranslator.load(bundle, no_repeat_ngram=0).options.no_repeat_ngram == 0
    assert OnnxTranslator.load(bundle, length_penalty=1.3).options.length_penalty == 1.3
    assert OnnxTranslator.load(shared_bundle()).options.no_repeat_ngram == 0  # absent: off
    assert OnnxTranslator.load(shared_bundle()).options.length_penalty == 1.0  # absent: the engine's 1.0
    _edit_json(bundle, lambda m: m.update(decoding={"no_repeat_ngram": -1}))
    with pytest.raises(BundleError, match=r"decoding\.'no_repeat_ngram' must be a non-negative integer"):
        OnnxTranslator.load(bundle)
    _edit_json(bundle, lambda m: m.update(decoding={"length_penalty": -1}))
    with pytest.raises(BundleError, match=r"decoding\.'length_penalty' must be a non-negative number"):
        OnnxTranslator.load(bundle)


def test_runtime_never_imports_torch() -> None:
    code = ("import sys; from doctrans.engine import load_translator; "
            f"tr = load_translator({str(shared_bundle())!r}, beam_size=2); tr.translate_document(['a cat .']); "
            "assert 'torch' not in sys.modules, 'torch was imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# -- bundle validation ---------------------------------------------------------------------------
def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "bundle"
    shutil.copytree(shared_bundle(), dst)
    return dst


def _edit_json(bundle: Path, fn) -> None:
    meta = json.loads((bundle / "model.json").read_text())
    fn(meta)
    (bundle / "model.json").write_text(json.dumps(meta))


def test_missing_bundle(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match=r"model bundle not found .*doctrans export"):
        load_translator(tmp_path / "nope")
    (tmp_path / "file").write_text("x")
    with pytest.raises(BundleError, match="is a file"):
        load_translator(tmp_path / "file")
    (tmp_path / "empty").mkdir()
    with pytest.raises(BundleError, match=r"not a model bundle \(no model.json\)"):
        load_translator(tmp_path / "empty")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda b: (b / "decoder.onnx").unlink(), "incomplete bundle, decoder.onnx is missing"),
    (lambda b: (b / "memory_update.onnx").unlink(), "memory_update.onnx is missing"),
    (lambda b: (b / "spm.model").unlink(), "spm.model is missing"),
    (lambda b: (b / "model.json").write_text("{not json"), "model.json is not valid JSON"),
    (lambda b: _edit_json(b, lambda m: m.update(format_version=99)), "format version 99 is not supported"),
    (lambda b: _edit_json(b, lambda m: m.pop("src_lang")), "model.json has no 'src_lang'"),
    (lambda b: _edit_json(b, lambda m: m["model"].update(d_model="64")), "'d_model' has the wrong type"),
    (lambda b: _edit_json(b, lambda m: m["model"].update(d_model=128, n_heads=4)),
     "encoder.onnx input 'mem_src' has shape .* model.json implies 128"),
    (lambda b: _edit_json(b, lambda m: m["memory"].update(slots=8)), "'mem_src' has shape .* implies 8 at axis 2"),
    (lambda b: np.savez(b / "memory_init.npz", src=np.zeros((1, 8, 64)), tgt=np.zeros((1, 16, 64))),
     "memory_init.npz side 'src' has shape"),
    (lambda b: _edit_json(b, lambda m: m["memory"].update(sides=["src"], layers={"src": [1]})),
     "decoder.onnx takes inputs .* memory sides \\['src'\\] need"),
    (lambda b: _edit_json(b, lambda m: m["model"].update(vocab_size=100)), "the model's vocabulary only 100"),
    (lambda b: (b / "encoder.onnx").write_bytes(b"garbage"), "encoder.onnx: ONNX Runtime cannot load it"),
])
def test_bad_bundles_give_one_clear_line(tmp_path: Path, edit, message: str) -> None:
    bundle = _copy(tmp_path)
    edit(bundle)
    with pytest.raises(BundleError, match=message) as info:
        OnnxTranslator.load(bundle)
    assert "\n" not in str(info.value) and str(bundle) in str(info.value)
