"""SMDT (training/smdt.py) and its retrieval (training/retrieval.py): neighbours from other documents
only, the cached index, the source layout and masks, the selection gate, decoding, a short training
run through the CLI with its checkpoint, evaluation and init; the synthetic task (slow)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from export.bundle import export_checkpoint
from tests.synthetic import check_resume_continues_exactly, pronoun_accuracy, translate_dev
from tests.synthetic import train_synthetic as train
from training import approaches, retrieval
from training import evaluate as evaluate_mod
from training import train as train_mod
from training.checkpoint import load_model, read_checkpoint
from training.data import TokenizedCorpus
from training.gtransformer import target_tags
from training.model import CONFIGS, MASKED
from training.retrieval import BM25Index, TranslationMemory, flatten, training_neighbours
from training.smdt import (
    DOC,
    SMDT,
    TM_SRC,
    TM_TGT,
    SMDTConfig,
    collate_instances,
    encoder_masks,
    head_split,
    instance_source,
    source_lengths,
    square_batches,
    stack_sources,
    translate_documents,
)

pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py
PAD, BOS, EOS, SEP = 0, 1, 2, 4


def corpus(docs: list[list[list[int]]], ids: list[str] | None = None) -> TokenizedCorpus:
    """A TokenizedCorpus of documents of source sentences; targets are the sources + 100."""
    sents = [s for d in docs for s in d]
    st, so = flatten(sents)
    tt, to = flatten([[t + 100 for t in s] for s in sents])
    doc_offsets = np.r_[0, np.cumsum([len(d) for d in docs])].astype(np.int64)
    return TokenizedCorpus(st, so, tt, to, doc_offsets, ids or [f"d{i}" for i in range(len(docs))])


# Document 0 holds two copies of one sentence; its nearest neighbour elsewhere is in document 1.
TOY = [
    [[10, 11, 12, 13], [10, 11, 12, 13], [20, 21]],
    [[10, 11, 12, 14], [30, 31, 32]],
    [[10, 11, 40], [20, 21, 22], [50, 51]],
]


def test_retrieval_excludes_the_own_document_and_ranks_by_bm25():
    c = corpus(TOY)
    ids = training_neighbours(c, k=2, max_df=100)
    # Sentence 0's copy (sentence 1) is in its own document: never retrieved. Best elsewhere:
    # [10 11 12 14] (3 pieces + 2 bigrams shared), then [10 11 40] (2 pieces + 1 bigram).
    assert ids[0].tolist() == [3, 5] and ids[1].tolist() == [3, 5]
    assert ids[2].tolist() == [6, -1]  # [20 21] -> [20 21 22]; nothing else shares a piece
    assert ids[4].tolist() == [-1, -1]  # [30 31 32]: no other document shares a piece
    docs = retrieval.document_keys(c)
    for i, row in enumerate(ids):
        assert all(docs[j] != docs[i] for j in row if j >= 0)
    # A corpus up-sampled (PATH:2) holds each document twice under the same id: not its own neighbour.
    twice = corpus(TOY + TOY, ids=["d0", "d1", "d2"] * 2)
    ids2 = training_neighbours(twice, k=2, max_df=100)
    keys = retrieval.document_keys(twice)
    assert all(keys[j] != keys[i] for i, row in enumerate(ids2) for j in row if j >= 0)
    # Terms in more than max_df sentences are stop words: [10 11 ...] is then found by its rarer pieces only.
    assert training_neighbours(c, k=1, max_df=3)[0].tolist() == [3]  # through 12 and "11 12" (df 3)
    assert training_neighbours(c, k=1, max_df=2)[0].tolist() == [-1]  # only 13, "12 13" left: own document


def test_search_of_new_sentences_and_ties():
    index = BM25Index(*flatten([[5, 6], [5, 6], [7, 8, 9]]))
    ids, scores = index.search(*flatten([[5, 6], [9, 7], [99]]), k=2, max_df=10)
    assert ids.tolist() == [[0, 1], [2, -1], [-1, -1]]  # ties: the lower index first
    assert scores[0, 0] == scores[0, 1] > 0 and scores[2].tolist() == [0, 0]
    # Small chunks give the same answer as one big chunk.
    big = BM25Index(*flatten([list(range(i, i + 6)) for i in range(0, 300, 3)]))
    q = flatten([list(range(i, i + 4)) for i in range(0, 300, 7)])
    assert np.array_equal(big.search(*q, k=3, max_df=50)[0], big.search(*q, k=3, max_df=50, chunk=5)[0])


def test_training_neighbours_are_computed_once_and_cached(tmp_path, monkeypatch):
    c = corpus(TOY)
    first = training_neighbours(c, k=2, max_df=100, cache_dir=tmp_path)
    (cached,) = tmp_path.glob("retrieval-*.npz")

    def no_search(*a, **kw):
        raise AssertionError("searched again")

    monkeypatch.setattr(BM25Index, "search", no_search)
    assert np.array_equal(training_neighbours(c, k=2, max_df=100, cache_dir=tmp_path), first)
    # Another k (or corpus) is another file.
    monkeypatch.undo()
    training_neighbours(c, k=1, max_df=100, cache_dir=tmp_path)
    assert len(list(tmp_path.glob("retrieval-*.npz"))) == 2 and cached.exists()


def test_translation_memory_round_trip():
    tm = TranslationMemory.from_corpus(corpus(TOY))
    again = TranslationMemory.from_payload(tm.payload())
    assert tm.payload()["src_tokens"].dtype == np.uint16
    assert again.search([[10, 11, 12, 14], [50, 51]], k=1, max_df=100).tolist() == [[3], [7]]
    x, y = again.pair(3)
    assert x.tolist() == [10, 11, 12, 14] and y.tolist() == [110, 111, 112, 114]


# -- the model ---------------------------------------------------------------------------------


def cfg(**over) -> SMDTConfig:
    return SMDTConfig(**{**CONFIGS["tiny"], "vocab_size": 160, "sep_id": SEP, **over})


def tiny(**over) -> SMDT:
    torch.manual_seed(0)
    return SMDT(cfg(**over)).eval()


SRC = [[5, 6, 7], [8, 9], [10, 11, 12, 13]]
TGT = [[20, 21], [22, 23, 24], [25]]
PAIRS = [[([5, 6, 30], [40, 41])], [], [([10, 11, 31], [42])]]


def encoded_inputs(src=SRC, pairs=PAIRS, **over):
    s = instance_source(src, pairs, cfg(**over))
    return [torch.from_numpy(a) for a in stack_sources([s], PAD)]


def test_dev_batches_bound_rows_times_length_squared():
    c = corpus(TOY)
    inst = [[0, 1, 2], [3, 4], [5, 6, 7]]
    neighbours = training_neighbours(c, k=1, max_df=100)
    lengths = source_lengths(c, inst, neighbours, TranslationMemory.from_corpus(c), cfg())
    batch = collate_instances(c, inst, neighbours, TranslationMemory.from_corpus(c), cfg())
    assert lengths == [int((batch.meta[r, :, 2] > 0).sum()) for r in range(3)] == [41, 19, 27]
    assert square_batches(lengths, 2 * 41**2) == [(0, 2), (2, 3)]
    assert square_batches(lengths, 1) == [(0, 1), (1, 2), (2, 3)] and square_batches([], 9) == []


def test_head_split_scales_the_papers_3_3_2():
    assert head_split(8) == [3, 3, 2] and head_split(4) == [2, 1, 1] and head_split(6) == [2, 2, 2]
    assert head_split(4, [1, 1, 2]) == [1, 1, 2]
    with pytest.raises(ValueError, match="summing to 4"):
        head_split(4, [2, 2, 2])


def test_source_layout():
    ids, pos, meta = encoded_inputs()
    assert ids[0].tolist() == [5, 6, 7, EOS, 8, 9, EOS, 10, 11, 12, 13, EOS,  # the document
                               5, 6, 30, SEP, 40, 41, EOS,  # pair of sentence 1
                               10, 11, 31, SEP, 42, EOS]  # pair of sentence 3
    tag, kind, group = meta[0].T.tolist()
    assert tag == [1] * 4 + [2] * 3 + [3] * 5 + [1] * 7 + [3] * 6
    assert kind == [DOC] * 12 + [TM_SRC] * 3 + [TM_TGT] * 4 + [TM_SRC] * 3 + [TM_TGT] * 3
    assert group == [1] * 4 + [2] * 3 + [3] * 5 + [4] * 7 + [5] * 6
    assert pos[0].tolist() == [*range(12), *range(7), *range(6)]  # document positions run on; a pair's restart


def test_masks_route_each_head_to_its_span():
    _, _, meta = encoded_inputs(adjacent=1)
    heads = torch.tensor([0, 1, 2])  # memory-focus, document, adjacent
    local, diverse, _ = encoder_masks(meta, heads, adjacent=1)
    seen = [(b == 0)[0] for b in (local[:, 0], diverse[:, 0], diverse[:, 1], diverse[:, 2])]
    doc1, doc3, pair1 = 0, 7, 12  # first token of sentence 1, sentence 3, sentence 1's pair
    cols = {n: set(torch.nonzero(m).flatten().tolist()) for n, m in
            (("local", seen[0][doc1]), ("memory", seen[1][doc1]), ("document", seen[2][doc1]),
             ("adjacent", seen[3][doc1]), ("memory3", seen[1][doc3]), ("adjacent3", seen[3][doc3]),
             ("pair_local", seen[0][pair1]), ("pair_document", seen[2][pair1]))}
    assert cols["local"] == set(range(4))  # its own sentence
    assert cols["memory"] == set(range(4)) | set(range(12, 19))  # + its retrieved pair
    assert cols["document"] == set(range(12))  # every document sentence, no pair
    assert cols["adjacent"] == set(range(7))  # sentences 1-2 (distance 1)
    assert cols["memory3"] == set(range(7, 12)) | set(range(19, 25))
    assert cols["adjacent3"] == set(range(4, 12))
    assert cols["pair_local"] == set(range(12, 19))  # a pair reads itself locally,
    assert cols["pair_document"] == set(range(4)) | set(range(12, 19))  # its sentence + pair on global heads
    assert local.max() == 0 and local.min() == MASKED


def test_retrieved_pairs_reach_only_their_sentence():
    """One global layer: changing sentence 3's pair moves sentence 3's encoder states, not sentence 1's."""
    model = tiny(global_layers=1)
    other = [PAIRS[0], [], [([10, 11, 32], [43, 44])]]
    a, _ = model.encode(*encoded_inputs())
    b, _ = model.encode(*encoded_inputs(pairs=other))
    assert torch.allclose(a[0, :7], b[0, :7], atol=1e-5)  # sentences 1 and 2
    assert not torch.allclose(a[0, 7:12], b[0, 7:12], atol=1e-4)  # sentence 3
    # Without a pair for sentence 1, its states change (memory-focus heads read the pair).
    c, _ = model.encode(*encoded_inputs(pairs=[[], [], PAIRS[2]]))
    assert not torch.allclose(a[0, :4], c[0, :4], atol=1e-4)


def decode_logits(model: SMDT, enc: torch.Tensor, info: torch.Tensor) -> torch.Tensor:
    tin = torch.tensor([[t for s in TGT for t in (BOS, *s)]])
    return model.decode(tin, target_tags(tin, BOS, PAD), model.cross_kv(enc), info)[0]


def test_selection_gate_keeps_or_drops_retrieved_tokens():
    model = tiny()
    src, pos, meta = encoded_inputs()
    retrieved = meta[0, :, 1] > DOC
    layers, focus = model.encode_layers(src, pos, meta)
    keep, logits = model.keep(layers, focus, meta)
    # Evaluation: sigma = argmax softmax(W_s h) on retrieved tokens; document tokens always kept.
    assert logits is not None and set(keep.unique().tolist()) <= {0.0, 1.0}
    assert torch.equal(keep[0, retrieved], (logits[0, retrieved, 1] > logits[0, retrieved, 0]).float())
    assert (keep[0, ~retrieved] == 1).all()
    # Training: a hard 0/1 sample whose gradient reaches W_s (straight-through Gumbel-softmax).
    model.train()
    model.zero_grad()
    tin = torch.tensor([[t for s in TGT for t in (BOS, *s)]])
    model(src, pos, meta, tin).pow(2).mean().backward()
    assert model.select is not None and model.select.out.weight.grad.abs().sum() > 0
    assert model.select.mix.grad.abs().sum() > 0
    keep, _ = model.keep(layers, focus, meta)
    assert set(keep.unique().tolist()) <= {0.0, 1.0}
    model.eval()
    # Dropped tokens are invisible to the decoder: perturbing them changes nothing; kept ones do.
    for bias, moves in (([10.0, -10.0], False), ([-10.0, 10.0], True)):
        with torch.no_grad():
            model.select.out.bias.copy_(torch.tensor(bias))
        enc, info = model.encode(src, pos, meta)
        assert info[0, retrieved, 2].eq(int(moves)).all() and info[0, ~retrieved, 2].eq(1).all()
        noisy = enc.clone()
        noisy[0, retrieved] += torch.randn(int(retrieved.sum()), enc.shape[-1])
        changed = not torch.allclose(decode_logits(model, enc, info), decode_logits(model, noisy, info), atol=1e-5)
        assert changed == moves
    # --no-selection: every retrieved token stays visible.
    _, info = tiny(selection=False).encode(src, pos, meta)
    assert info[0, :, 2].eq(1).all()


def test_incremental_decoding_matches_teacher_forcing():
    model = tiny()
    src, pos, meta = encoded_inputs()
    tin = torch.tensor([[t for s in TGT for t in (BOS, *s)]])
    full = model(src, pos, meta, tin)
    enc, info = model.encode(src, pos, meta)
    cross, tags = model.cross_kv(enc), target_tags(tin, BOS, PAD)
    past, steps = None, []
    for i in range(tin.shape[1]):
        logits, past = model.decode(tin[:, i:i + 1], tags[:, i:i + 1], cross, info, past, tags[:, :i] if i else None,
                                    start=i)
        steps.append(logits)
    assert torch.allclose(torch.cat(steps, 1), full, atol=1e-4)


@pytest.mark.parametrize("instance_tokens", [None, 1])
def test_translation_reads_the_tm_and_gives_one_hypothesis_per_sentence(instance_tokens):
    model = tiny()
    model.tm = TranslationMemory.from_corpus(corpus(TOY))
    docs = [SRC, [[10, 11, 12, 14], [50, 51]]]
    seen = []
    real_encode = model.encode
    model.encode = lambda src, pos, meta: seen.append(src[0].tolist()) or real_encode(src, pos, meta)  # type: ignore
    res = translate_documents(model, docs, beam=2, instance_tokens=instance_tokens)
    assert [len(r.hypotheses) for r in res] == [3, 2]
    assert len(seen) == (2 if instance_tokens is None else 5)  # one encoder pass per instance
    assert any(SEP in s for s in seen)  # retrieved pairs were fed
    without = tiny()  # no TM: the document alone
    assert [len(r.hypotheses) for r in translate_documents(without, docs, beam=1)] == [3, 2]


# -- training through the command line ------------------------------------------------------------


SHORT = ["--approach", "smdt", "--stage", "document", "--rows", "4", "--window", "1", "--log-every", "5"]


def test_short_training_run_checkpoint_and_evaluation(corpora, tmp_path):
    """20 steps: the loss falls, the retrieval is cached with the tokenized corpus (OUT/cache, never in
    the corpus's folder), the checkpoint loads back
    with its TM and translates as evaluation does, and exports to a bundle that decodes as PyTorch
    does (export/smdt_bundle.py; tests/test_smdt_export.py tests the bundle)."""
    run = train(tmp_path, "smdt", *SHORT, "--max-steps", "20", data=corpora["train"])
    assert list((run / "cache").glob("retrieval-*.npz")) and not list(corpora["dir"].glob("retrieval-*"))
    losses = [r["loss"] for r in map(json.loads, (run / "log.jsonl").read_text().splitlines()) if "loss" in r]
    assert losses[-1] < 0.7 * losses[0], losses
    loaded = load_model(run / "best.pt")
    assert isinstance(loaded.model, SMDT) and loaded.approach == "smdt" and loaded.model.tm is not None
    assert loaded.model.tm.n == read_checkpoint(run / "best.pt")["tm"]["src_offsets"].shape[0] - 1 > 1000
    refs, hyps, _, _ = translate_dev(run / "best.pt", corpora["dev"], max_docs=2, beam=1)
    assert all(len(h) == len(r) for h, r in zip(hyps, refs, strict=True))
    scores, hyp_docs = evaluate_mod.evaluate(run / "best.pt", corpora["dev"], "xx", "yy", beam=1, max_docs=2)
    assert scores.n_documents == 2 and 0 <= scores.d_bleu <= 100 and hyp_docs == hyps
    report = export_checkpoint(run / "best.pt", run / "bundle", sentences=["dann schlief ta", "mia kam heim"], beam=2)
    assert report.greedy_identical and report.with_pairs and report.beam_identical == report.sentences == 4
    assert json.loads((run / "bundle" / "model.json").read_text())["smdt"]["retrieve_k"] == 1


def test_init_copies_the_sentence_model_and_refuses_both_directions(corpora, tmp_path):
    s1 = train(tmp_path, "s1", "--stage", "sentence", "--max-steps", "2", "--max-tokens", "256", data=corpora["train"])
    argv = ["--approach", "smdt", "--stage", "document", "--src", "xx", "--tgt", "yy", "--data", str(corpora["train"]),
            "--out", str(tmp_path / "smdt"), "--config", "tiny", "--init", str(s1 / "best.pt"), "--spm",
            str(s1 / "spm.model"), "--retrieval-cache", str(tmp_path / "ret"), "--max-docs", "100", "--quiet"]
    tr = approaches.trainer_class("smdt")(train_mod.parse_args(argv))
    stage1, state = read_checkpoint(s1 / "best.pt")["model"], tr.model.state_dict()
    for k, v in stage1.items():
        assert torch.equal(state[k], v), k
    new = set(state) - set(stage1)
    assert new == set(tr.model.new_parameter_names()) == tr.new_params
    assert all("_global." in k or k.startswith(("select.", "tm_kind.")) for k in new)
    assert tr.cfg.head_split == [2, 1, 1] and tr.cfg.sep_id == tr.sp.piece_to_id("<sep>") != tr.sp.unk_id()
    assert list((tmp_path / "ret").glob("retrieval-*.npz"))
    assert train_mod.main([*argv, "--bidirectional", "--out", str(tmp_path / "bi")]) == 2


@pytest.mark.slow
def test_resume_continues_exactly(corpora, tmp_path):
    common = [*SHORT, "--dropout", "0.1", "--window", "3", "--log-every", "3", "--save-every", "1000"]
    check_resume_continues_exactly(tmp_path, common, corpora["train"], 8)


@pytest.mark.slow
def test_smdt_solves_the_context_task(corpora):
    """Document heads see the name: same task, steps and LR as G-Transformer's test. Retrieved pairs
    come from other documents (another character's pronoun), so the sentence-by-sentence mode
    (one-sentence instances, TM only) stays near chance."""
    run = train(corpora["dir"], "smdt", *SHORT, "--max-steps", "600", data=corpora["train"], dev=corpora["dev"])
    refs, hyps, loaded, sp = translate_dev(run / "best.pt", corpora["dev"], max_docs=25, beam=1)
    acc, n = pronoun_accuracy(refs, hyps)
    print(f"SMDT pronoun accuracy {acc:.3f} on {n}")
    assert n > 50 and acc >= 0.9, f"SMDT pronoun accuracy {acc:.2f}"
    docs = [json.loads(line)["xx"] for line in corpora["dev"].read_text().splitlines()[:25]]
    res = translate_documents(loaded.model, [[sp.encode(s) for s in d] for d in docs], beam=1, instance_tokens=1)
    alone, _ = pronoun_accuracy(refs, [[sp.decode(h) for h in r.hypotheses] for r in res])
    print(f"SMDT sentence by sentence (TM only) {alone:.3f}")
    assert alone < 0.75
