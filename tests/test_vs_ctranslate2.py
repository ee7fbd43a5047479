"""benchmarks.vs_ctranslate2's mapping on the tiny model: a bundle's weights read back exactly, and
CTranslate2 (converted from the M2M100 mapping) translating greedily exactly like the model itself.
Skipped without the benchmark extras (``pip install -e ".[bench]"``; CI does not install them)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ctranslate2", reason="benchmark extra: pip install -e '.[bench]'")
pytest.importorskip("transformers", reason="benchmark extra: pip install -e '.[bench]'")

import ctranslate2

from benchmarks.vs_ctranslate2 import convert_to_ct2, ct2_vocabulary, to_m2m100
from doctrans.engine.beam import max_new_tokens
from doctrans.engine.onnx_engine import OnnxTranslator
from tests.tiny_model import one_torch_thread, sentences, shared_bundle
from training.bundle_weights import recover
from training.search import translate_documents

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here


def test_ctranslate2_greedy_matches_the_sentence_level_model(tmp_path: Path) -> None:
    sent = recover(shared_bundle(), mem_side="none")
    vocab = ct2_vocabulary(sent.spm_bytes, sent.config.vocab_size)
    out = convert_to_ct2(to_m2m100(sent.model), vocab, tmp_path / "ct2", "float32", ("<s>", "</s>", "<unk>"))
    tr = OnnxTranslator.load(shared_bundle())
    ids = [tr.tokenizer.encode(s) for s in sentences(12, seed=5)]
    ref = translate_documents(sent.model, [ids], beam=1)[0].hypotheses
    ct2 = ctranslate2.Translator(str(out), device="cpu", intra_threads=1)
    got = []
    for x in ids:  # one at a time: each with doctrans' own length limit
        src = [vocab[i] for i in [*x, sent.config.eos_id]]
        limit = max_new_tokens(len(src), sent.config.max_len)
        got.append(ct2.translate_batch([src], beam_size=1, max_decoding_length=limit)[0].hypotheses[0])
    # Without its memory the tiny model rambles (it was trained with one) up to the length limit:
    # dozens of tokens per sentence that a wrong weight or position table would change.
    assert got == [[vocab[i] for i in h] for h in ref]
    assert sum(map(len, ref)) > 10 * len(ref)


def test_ctranslate2_given_the_documents_rows_keeps_document_order(tmp_path: Path) -> None:
    """The "docs' rows" column: CTranslate2 translating the batches that N documents as rows make
    (sentence i of each) gives every sentence what it gives alone, back in document order."""
    from benchmarks.vs_ctranslate2 import Doc, Systems

    sent = recover(shared_bundle(), mem_side="none")
    vocab = ct2_vocabulary(sent.spm_bytes, sent.config.vocab_size)
    out = convert_to_ct2(to_m2m100(sent.model), vocab, tmp_path / "ct2", "float32", ("<s>", "</s>", "<unk>"))
    tr = OnnxTranslator.load(shared_bundle())
    ids = [[*tr.tokenizer.encode(s), sent.config.eos_id] for s in sentences(7, seed=9)]
    doc = Doc(ids, [[vocab[i] for i in x] for x in ids], [max_new_tokens(len(x), sent.config.max_len) for x in ids])
    systems = Systems({}, {"float32": out}, None, doc, sent.config.eos_id, vocab)
    alone = systems.ct2_stream("float32", 1, 1)
    assert systems.ct2_doc_rows("float32", 1, 1, 3) == alone  # 7 sentences: documents of 3, 3 and 1
    assert systems.ct2_doc_rows("float32", 1, 1, 1) == alone
