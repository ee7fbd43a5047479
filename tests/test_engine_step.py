"""The cheaper search step (issue 18): doctrans.engine.beam's top-k of the full-logits path (the
shipped bundles' default decoding, n-gram blocking on) without a full ``np.argpartition`` of the
K x V candidates must choose exactly what the full partition chose: the top-k itself on rows with
ties and -inf, and the engine's translations (token ids and scores) against the search run with the
old top-k -- beams 1 and 5, memory on (the tiny bundle) and off (its decoder without the memory),
one document and documents batched as rows, the verbatim-placeholder fallback, the shipped bundles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import doctrans.engine.beam as beam_module
import doctrans.engine.onnx_engine as engine
from doctrans.engine.batch import BatchedDocuments
from doctrans.engine.beam import _topk, beam_search_n_best
from doctrans.engine.onnx_engine import OnnxTranslator
from tests.shipped_models import shipped_translator
from tests.tiny_model import sentences

REPO = Path(__file__).resolve().parents[1]


def argpartition_topk(row: np.ndarray, k: int) -> np.ndarray:
    """The top-k as it was: a full ``np.argpartition`` of the row, then the k sorted."""
    k = min(k, row.shape[0])
    part = np.argpartition(-row, k - 1)[:k]
    return part[np.lexsort((part, -row[part]))]


def sorted_topk(row: np.ndarray, k: int) -> np.ndarray:
    """The top-k by definition: the stable descending sort's first k (equal values, lower index)."""
    return np.lexsort((np.arange(row.shape[0]), -row))[:k]


def test_topk_is_the_full_sort() -> None:
    """Ties by lower index, -inf, rows shorter than a block, k beyond the row."""
    rng = np.random.default_rng(3)
    for _ in range(400):
        n = int(rng.choice([1, 7, 64, 130, 3000, 50_000]))
        k = int(rng.integers(1, 30))
        row = (np.round(rng.normal(size=n) / 0.25) * 0.25).astype(np.float32)
        if rng.random() < 0.3:
            row[rng.random(n) < 0.6] = -np.inf
        assert _topk(row, k).tolist() == sorted_topk(row, k).tolist()
    row = np.array([1.0, np.nan, 3.0, 2.0] * 100, dtype=np.float32)
    assert _topk(row, 3).tolist() == sorted_topk(row, 3).tolist() == [2, 6, 10]  # NaN: no bound, still right


def test_topk_is_the_old_one_on_log_probabilities() -> None:
    """On what the search ranks (beam score + log-softmax of K x V logits) the old top-k's answer."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        K, V = int(rng.choice([1, 5, 8])), int(rng.choice([300, 10_000]))
        cand = (rng.normal(size=(K, 1)) + beam_module.log_softmax(3 * rng.normal(size=(K, V)))).astype(np.float32)
        if rng.random() < 0.3:
            cand[1:] = -np.inf  # the first step: only beam 0 is live
        row = cand.reshape(-1)
        assert _topk(row, 2 * K).tolist() == argpartition_topk(row, 2 * K).tolist()


def _old_topk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beam_module, "_topk", argpartition_topk)


def _translate(tr: OnnxTranslator, docs: list[list[str]], beam: int, ngram: int) -> list[list[tuple[Any, ...]]]:
    """Each document alone, then all of them as the rows of one batch."""
    out = []
    for doc in docs:
        session = tr.new_document(beam_size=beam, no_repeat_ngram=ngram)
        out.append([(r.tgt_tokens, r.score, r.translation) for r in map(session.translate, doc)])
    rows = BatchedDocuments(tr, rows=len(docs), beam_size=beam, no_repeat_ngram=ngram).translate_documents(docs)
    out.append([(r.tgt_tokens, r.score, r.translation) for d in rows for r in d])
    return out


@pytest.mark.parametrize("beam", [1, 5])
def test_engine_translates_as_with_the_old_topk(tiny_bundle: Path, beam: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory on (the tiny bundle), n-gram blocking on (the full-logits path) and off (ONNX top-k)."""
    tr = OnnxTranslator.load(tiny_bundle, threads=1)
    docs = [sentences(5, seed=21), sentences(3, seed=22)]
    for ngram in (2, 0):
        got = _translate(tr, docs, beam, ngram)
        with monkeypatch.context() as m:
            _old_topk(m)
            assert _translate(tr, docs, beam, ngram) == got


@pytest.mark.parametrize("beam", [1, 5])
def test_memory_off_decoder_searches_as_with_the_old_topk(tiny_bundle: Path, beam: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory off: the step decoder fed a zero target memory (no memory read), searched with each top-k."""
    tr = OnnxTranslator.load(tiny_bundle, threads=1)
    session = tr.new_document(beam_size=beam)
    s = tr.sessions
    for sentence in sentences(4, seed=23):
        src = np.asarray([tr.source_ids(sentence)], dtype=np.int64)
        enc = engine.encode(s, src, session._mem)
        limit = engine.max_new_tokens(src.shape[1], tr.info.max_len)
        results = []
        for old in (True, False):
            with monkeypatch.context() as m:
                if old:
                    _old_topk(m)
                dec = engine.make_decoder(s, tr.info, src, enc["cross_k"], enc["cross_v"],
                                          np.zeros((1, *session._mem["tgt"].shape[1:]), dtype=np.float32),
                                          beam=beam)
                results.append(beam_search_n_best(dec, 1, beam, [limit], tr.info.bos_id, tr.info.eos_id, 1.0, 2))
        assert results[1] == results[0]


def test_placeholder_fallback_as_with_the_old_topk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verbatim-placeholder fallback (n-best, then the wider beam) through the tiny model that
    copies placeholders, one document and batched."""
    from doctrans.engine.protect import Prepared
    from tests.test_placeholders import span_sentences
    from tests.tiny_model import shared_placeholder_bundle

    tr = OnnxTranslator.load(shared_placeholder_bundle(), threads=1)
    doc = [s for s, _ in span_sentences(12, seed=6)]
    widths: list[int] = []
    original = engine.make_decoder
    monkeypatch.setattr(engine, "make_decoder", lambda *a, **k: widths.append(k["beam"]) or original(*a, **k))
    # Whether the toy model drops a placeholder depends on the machine's floating point: every
    # hypothesis is refused, so the n-best and the wider beam both run on every machine.
    monkeypatch.setattr(Prepared, "acceptable", lambda self, decoded: False)
    got = _translate(tr, [doc[:7], doc[7:]], 2, 2)
    assert engine.FALLBACK_BEAM in widths  # the wider beam ran at least once
    _old_topk(monkeypatch)
    assert _translate(tr, [doc[:7], doc[7:]], 2, 2) == got


@pytest.mark.parametrize("bundle", ["zh-en", "en-zh"])
def test_shipped_bundles_translate_as_with_the_old_topk(bundle: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped int8 bundle with its own decoding defaults (n-gram blocking), beams 1 and 5, each direction."""
    tr = shipped_translator(*bundle.split("-"), threads=1)
    assert tr.options.no_repeat_ngram > 0  # the full-logits path
    zh = ["今天天气很好，我们去公园散步吧。", "这个版本修复了3个错误。", "他说：“我明天再来。”", "请把文件发给我。"]
    en = ["The weather is nice today, let's walk in the park.", "Version 2.1 fixes 3 bugs.", "Send me the file.",
          "He said he would come back tomorrow."]
    doc = zh if bundle == "zh-en" else en
    for beam in (1, 5):
        session = tr.new_document(beam_size=beam)
        got = [(r.tgt_tokens, r.score) for r in map(session.translate, doc)]
        with monkeypatch.context() as m:
            _old_topk(m)
            session = tr.new_document(beam_size=beam)
            assert [(r.tgt_tokens, r.score) for r in map(session.translate, doc)] == got, beam
