"""training.from_bundle: a bundle made before the verbatim placeholders existed, back into a training
checkpoint whose vocabulary has them (how the built-in bundles learn to copy numbers and codes).

The "old" bundle here is exported from a tiny model over a SentencePiece model trained in the test
the way the built-in ones were: byte fallback, split digits, NFKC, the direction tags but no
``⦅k⦆`` pieces -- so the engine cannot mask for it, exactly the built-in bundles' situation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sentencepiece as spm
import torch

from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.verbatim import MAX_PLACEHOLDERS, placeholder
from export.bundle import export_checkpoint
from tests.tiny_model import one_torch_thread, sentences, shared_bundle, shared_checkpoint, synthetic_corpus
from tests.zh_en_corpora import write_zh_en
from training import train as train_mod
from training.bundle_weights import recover
from training.checkpoint import load_model, save_checkpoint
from training.from_bundle import add_placeholder_pieces, checkpoint_from_bundle, main
from training.model import MemoryTransformer, make_config

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here

OLD_SYMBOLS = ["<sep>", "<2en>", "<2zh>", "<2de>"]  # the built-in vocabulary's, from before the placeholders


def _old_spm(tmp: Path) -> bytes:
    text = tmp / "text.txt"
    lines = [s for pair in synthetic_corpus(300) for s in pair]
    lines += [f"room {i} costs {i * 7} dollars ." for i in range(60)]
    text.write_text("\n".join(lines), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(tmp / "old"), vocab_size=330, model_type="unigram", byte_fallback=True,
        pad_id=0, bos_id=1, eos_id=2, unk_id=3, user_defined_symbols=OLD_SYMBOLS, split_digits=True,
        normalization_rule_name="nmt_nfkc", hard_vocab_limit=False, minloglevel=2)
    return (tmp / "old.model").read_bytes()


@pytest.fixture(scope="module")
def old_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An fp32 memory bundle over the old vocabulary (random weights: only their fate is tested)."""
    tmp = tmp_path_factory.mktemp("old")
    spm_bytes = _old_spm(tmp)
    sp = spm.SentencePieceProcessor(model_proto=spm_bytes)
    torch.manual_seed(3)
    cfg = make_config("tiny", vocab_size=len(sp), mem_side="both", max_len=32)
    model = MemoryTransformer(cfg)
    save_checkpoint(tmp / "old.pt", {"model": model.state_dict(), "config": cfg.to_dict(), "spm": spm_bytes,
                                     "src_lang": "zh", "tgt_lang": "en", "stage": "document", "step": 0})
    export_checkpoint(tmp / "old.pt", tmp / "bundle", sentences=sentences(2))
    return tmp / "bundle"


def test_bundle_weights_read_back_exactly() -> None:
    ref = load_model(shared_checkpoint()).model.state_dict()
    got = recover(shared_bundle()).model.state_dict()
    assert set(got) == set(ref)
    for name, value in ref.items():
        assert torch.equal(got[name], value), name


def test_placeholders_are_appended_as_single_pieces_and_old_text_keeps_its_ids(tmp_path: Path) -> None:
    old = _old_spm(tmp_path)
    new, added = add_placeholder_pieces(old)
    before = spm.SentencePieceProcessor(model_proto=old)
    after = spm.SentencePieceProcessor(model_proto=new)
    assert added == list(range(len(before), len(before) + MAX_PLACEHOLDERS))
    assert len(after) == len(before) + MAX_PLACEHOLDERS
    text = "the red cat sees room 12 , it costs 84 dollars ."
    assert after.encode(text) == before.encode(text)
    # One piece per placeholder, whether written ⦅3⦆ or in the fullwidth ｟3｠ NFKC maps to it.
    for written in (placeholder(3), "\uff5f3\uff60"):
        ids = after.encode(f"room {written} costs {placeholder(12)} dollars")
        assert after.piece_to_id(placeholder(3)) in ids and after.piece_to_id(placeholder(12)) in ids
    assert add_placeholder_pieces(new) == (new, [])  # already there: nothing added


def test_old_bundle_becomes_a_checkpoint_that_trains_and_exports_with_placeholders(
        old_bundle: Path, tmp_path: Path) -> None:
    assert OnnxTranslator.load(old_bundle).placeholders == 0  # what the built-in bundles are today
    payload = checkpoint_from_bundle(old_bundle)
    old = recover(old_bundle, "none")
    cfg = payload["config"]
    assert cfg["vocab_size"] == old.config.vocab_size + MAX_PLACEHOLDERS
    assert payload["stage"] == "sentence" and cfg["mem_side"] == "none" and cfg["dropout"] == 0.1
    # Every weight the bundle had is kept; the new embedding rows are distinct from each other.
    state = payload["model"]
    for name, value in old.model.state_dict().items():
        if name == "embed.weight":
            assert torch.equal(state[name][: old.config.vocab_size], value)
            rows = state[name][old.config.vocab_size:]
            assert torch.cdist(rows, rows).add(torch.eye(len(rows)) * 1e9).min() > 0
        else:
            assert torch.equal(state[name], value), name

    # It is a checkpoint the trainer continues (--init), on a corpus tokenized with its vocabulary.
    assert main([str(old_bundle), "--out", str(tmp_path / "init.pt"), "--spm-out", str(tmp_path / "spm.model")]) == 0
    corpus = write_zh_en(tmp_path / "c" / "train.jsonl.xz", 8, seed=1)
    args = ["--stage", "sentence", "--src", "zh", "--tgt", "en", "--data", str(corpus),
            "--spm", str(tmp_path / "spm.model"), "--init", str(tmp_path / "init.pt"), "--out", str(tmp_path / "ft"),
            "--max-steps", "3", "--max-tokens", "200", "--warmup", "1", "--eval-every", "3", "--save-every", "3",
            "--threads", "1", "--quiet"]
    assert train_mod.main(args) == 0
    # ... and the bundle exported from it has the placeholders, so the engine masks for it.
    export_checkpoint(tmp_path / "ft" / "last.pt", tmp_path / "new", sentences=sentences(2))
    assert OnnxTranslator.load(tmp_path / "new").placeholders == MAX_PLACEHOLDERS


def test_a_bidirectional_bundle_becomes_a_checkpoint_of_both_directions(tmp_path: Path) -> None:
    """The built-in model is one bundle for zh->en and en->zh: continuing it (on a GPU, or here)
    starts from a checkpoint that keeps both directions and their tags, and translates as it did."""
    from tests.tiny_model import shared_bidi_bundle, to_chinese
    from training.search import translate_documents

    bundle = shared_bidi_bundle()
    payload = checkpoint_from_bundle(bundle, mem_side="keep")
    listed = json.loads((bundle / "model.json").read_text())["directions"]
    assert payload["directions"] == [[d["src"], d["tgt"]] for d in listed] and len(listed) == 2
    save_checkpoint(tmp_path / "init.pt", payload)
    loaded = load_model(tmp_path / "init.pt")
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    english = sentences(2)
    for src, tgt in loaded.directions:
        doc = english if src == "en" else [to_chinese(s) for s in english]
        prefix = loaded.source_prefix(sp, src, tgt)
        ids = [[prefix + sp.encode(s) for s in doc]]
        got = [[sp.id_to_piece(i) for i in h] for h in translate_documents(loaded.model, ids, beam=1)[0].hypotheses]
        # The model's own pieces (after BOS): the engine's finished text also carries its rules (a
        # sentence ends as its source does), which the PyTorch search does not apply.
        # (any_spelling: the tiny model makes up words, which the engine would search past.)
        want = [r.tgt_tokens[1:] for r in OnnxTranslator.load(bundle, beam_size=1, src=src, tgt=tgt, threads=1,
                                                              any_spelling=True).translate_document(doc)]
        assert got == want, (src, tgt)


def test_a_bundle_that_is_not_one_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "model.json").write_text("{}", encoding="utf-8")
    assert main([str(tmp_path), "--out", str(tmp_path / "x.pt")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err and not (tmp_path / "x.pt").exists()
