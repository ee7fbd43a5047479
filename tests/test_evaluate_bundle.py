"""training.evaluate scores an exported bundle (the engine users run) like its checkpoint."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

from tests.tiny_model import one_torch_thread, shared_bundle, shared_checkpoint, synthetic_corpus
from training import evaluate as evaluate_mod

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here


def test_bundle_and_checkpoint_score_the_same(tmp_path: Path) -> None:
    dev = tmp_path / "dev.jsonl.xz"
    with lzma.open(dev, "wt", encoding="utf-8") as f:
        for d in range(2):
            pairs = synthetic_corpus(5, seed=50 + d)
            f.write(json.dumps({"id": f"d{d}", "xx": [s for s, _ in pairs], "yy": [t for _, t in pairs]}) + "\n")
    torch_scores, torch_hyps = evaluate_mod.evaluate(shared_checkpoint(), dev, "xx", "yy", beam=1)
    onnx_scores, onnx_hyps = evaluate_mod.evaluate(shared_bundle(), dev, "xx", "yy", beam=1, threads=1)
    assert onnx_hyps == torch_hyps  # fp32 graphs: the same greedy translations, document by document
    assert (onnx_scores.s_bleu, onnx_scores.d_bleu) == (torch_scores.s_bleu, torch_scores.d_bleu)
    assert onnx_scores.n_sentences == 10 and onnx_scores.n_documents == 2
    assert torch_scores.s_bleu > 0  # words of the task are produced: a real score, not an empty output


def test_a_bundle_with_no_memory_translates_each_sentence_as_its_own_document(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The memory ablation of a bundle: every sentence reads the initial memory (nothing carried),
    and the hypotheses come back grouped as the documents were."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    dev = tmp_path / "dev.jsonl.xz"
    with lzma.open(dev, "wt", encoding="utf-8") as f:
        for d in range(2):
            pairs = synthetic_corpus(3 + d, seed=70 + d)
            f.write(json.dumps({"id": f"d{d}", "xx": [s for s, _ in pairs], "yy": [t for _, t in pairs]}) + "\n")
    calls: list[int] = []
    original = OnnxTranslator.translate_document

    def spy(self, sentences, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(len(sentences))
        return original(self, sentences, *args, **kwargs)

    monkeypatch.setattr(OnnxTranslator, "translate_document", spy)
    scores, hyps = evaluate_mod.evaluate(shared_bundle(), dev, "xx", "yy", beam=1, threads=1, no_memory=True)
    assert calls == [1] * 7 and [len(d) for d in hyps] == [3, 4] and scores.n_documents == 2
    tr = OnnxTranslator.load(shared_bundle(), beam_size=1, threads=1)
    first_doc = [s for s, _ in synthetic_corpus(3, seed=70)]
    assert hyps[0] == [tr.translate_document([s])[0].translation for s in first_doc]


def test_no_masking_scores_a_bundle_as_one_without_placeholders(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from doctrans.engine.onnx_engine import OnnxTranslator
    from tests.tiny_model import shared_placeholder_bundle

    dev = tmp_path / "dev.jsonl.xz"
    with lzma.open(dev, "wt", encoding="utf-8") as f:
        f.write(json.dumps({"id": "d", "xx": ["the cat 320 ."], "yy": [". 320 cat the"]}) + "\n")
    seen: list[int] = []
    original = OnnxTranslator.translate_document

    def spy(self, sentences, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(self.placeholders)
        return original(self, sentences, *args, **kwargs)

    monkeypatch.setattr(OnnxTranslator, "translate_document", spy)
    for masking in (True, False):
        evaluate_mod.evaluate(shared_placeholder_bundle(), dev, "xx", "yy", beam=1, threads=1, masking=masking)
    assert seen[0] > 0 and seen[1] == 0
    code = evaluate_mod.main([str(shared_checkpoint()), "--data", str(dev), "--src", "xx", "--tgt", "yy",
                              "--no-masking"])
    assert code == 2


def test_kept_spans_counts_the_figures_a_translation_kept_byte_for_byte() -> None:
    src = [["Revenue rose 3.5% to 1,250 units.", "See https://example.org/a for v2.1.0."], ["No figures here."]]
    hyp = [["收入增长3.5%，达到1, 250台。", "见 https://example.org/a ，版本 v2.1.0。"], ["这里没有数字。"]]
    assert evaluate_mod.kept_spans(src, hyp) == (4, 3)  # "1,250" came back as "1, 250"
    # A figure in 万 must come back as its English value, not as its digits.
    zh = [["销售额达到1,250万元。"]]
    assert evaluate_mod.kept_spans(zh, [["Sales reached 12.5 million yuan."]], "en") == (1, 1)
    assert evaluate_mod.kept_spans(zh, [["Sales reached 1,250 yuan."]], "en") == (1, 0)
    assert evaluate_mod.kept_spans(zh, [["销售额达到1,250万元。"]], "zh") == (1, 1)
    # An amount is counted with its currency, the way the engine writes it (doctrans.currency).
    dollars = [["It cost $20,000."]]
    assert evaluate_mod.kept_spans(dollars, [["它花了20,000美元。"]], "zh", "en") == (1, 1)
    assert evaluate_mod.kept_spans(dollars, [["它花了$20,000。"]], "zh", "en") == (1, 0)
