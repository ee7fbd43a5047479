"""The memory Transformer and its training pipeline (issue: foundation)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import sentencepiece as spm
import torch

from tests.synthetic import check_resume_continues_exactly, pronoun_accuracy, synthetic_corpora, train_synthetic
from training import dev_loss as dev_loss_mod
from training import evaluate as evaluate_mod
from training import memory_probe
from training import train as train_mod
from training import trainer as trainer_mod
from training.checkpoint import load_model, read_checkpoint
from training.data import TokenizedCorpus, length_chunks, read_documents, tokenize_corpus
from training.model import MemoryTransformer, MemoryUnit, make_config
from training.moses_text import looks_tokenized, untokenized_side
from training.search import translate_documents

ROOT = Path(__file__).resolve().parents[1]


def train(tmp: Path, name: str, *extra: str, data: Path, dev: Path | None = None) -> Path:
    return train_synthetic(tmp, name, "--rows", "16", *extra, data=data, dev=dev)


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> dict[str, Path]:
    return synthetic_corpora(tmp_path_factory.mktemp("syn"))


@pytest.fixture(scope="module")
def memory_run(corpora) -> Path:
    torch.set_num_threads(1)
    return train(corpora["dir"], "mem", "--stage", "document", "--window", "1", "--max-steps", "300",
                 data=corpora["train"], dev=corpora["dev"])


def translate_dev(ckpt: Path, dev: Path) -> tuple[list[list[str]], list[list[str]]]:
    loaded = load_model(ckpt)
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    docs = [json.loads(line) for line in dev.read_text().splitlines()]
    res = translate_documents(loaded.model, [[sp.encode(s) for s in d["xx"]] for d in docs], beam=1)
    return [d["yy"] for d in docs], [[sp.decode(h) for h in r.hypotheses] for r in res]


def test_memory_carries_context_a_sentence_model_cannot(memory_run, corpora):
    """The pronoun (he/she) is decided only by a name in an earlier sentence: chance is 50%."""
    baseline = train(corpora["dir"], "nomem", "--stage", "document", "--mem-side", "none", "--window", "1",
                     "--max-steps", "300", data=corpora["train"], dev=corpora["dev"])
    acc_mem, n = pronoun_accuracy(*translate_dev(memory_run / "best.pt", corpora["dev"]))
    acc_base, _ = pronoun_accuracy(*translate_dev(baseline / "best.pt", corpora["dev"]))
    assert n > 50
    assert acc_mem >= 0.9, f"memory model pronoun accuracy {acc_mem:.2f}"
    assert acc_base <= 0.6, f"sentence model pronoun accuracy {acc_base:.2f} (should be near chance)"


def test_memory_off_is_the_sentence_model_with_the_same_weights():
    cfg = make_config("tiny", vocab_size=50)
    mem_model = MemoryTransformer(cfg).eval()
    plain = MemoryTransformer(make_config("tiny", vocab_size=50, mem_side="none")).eval()
    missing, unexpected = plain.load_state_dict(mem_model.state_dict(), strict=False)
    assert not missing and set(unexpected) == set(mem_model.new_parameter_names())
    src, tgt = torch.randint(4, 50, (2, 6)), torch.randint(4, 50, (2, 5))
    assert torch.allclose(mem_model(src, tgt, None)[0], plain(src, tgt, None)[0], atol=1e-6)
    # A new memory reads as nothing (its read projection starts at zero): added to a trained
    # sentence model, it changes no translation until stage 2 trains it...
    assert torch.allclose(mem_model(src, tgt, mem_model.init_memory(2))[0], plain(src, tgt, None)[0], atol=1e-6)
    # ...and once the read has weights, the output differs (the memory is actually read).
    with torch.no_grad():
        for unit in (m for m in mem_model.modules() if isinstance(m, MemoryUnit)):
            unit.read.o.weight.normal_(std=0.02)
    assert not torch.allclose(mem_model(src, tgt, mem_model.init_memory(2))[0], plain(src, tgt, None)[0])


def test_incremental_decoding_matches_teacher_forcing():
    model = MemoryTransformer(make_config("tiny", vocab_size=50)).eval()
    src, tgt = torch.randint(4, 50, (2, 7)), torch.randint(4, 50, (2, 6))
    mem = model.init_memory(2)
    enc, _, _ = model.encode(src, mem["src"])
    kv = model.cross_kv(enc)
    full, *_ = model.decode(tgt, kv, src, mem["tgt"])
    past, steps = None, []
    for i in range(tgt.shape[1]):
        logits, _, past, _ = model.decode(tgt[:, i:i + 1], kv, src, mem["tgt"], past=past, start=i)
        steps.append(logits)
    assert torch.allclose(torch.cat(steps, 1), full, atol=1e-4)


def make_trainer(tmp: Path, data: Path, *extra: str) -> trainer_mod.Trainer:
    args = train_mod.parse_args(["--stage", "document", "--src", "xx", "--tgt", "yy", "--data", str(data),
                                 "--out", str(tmp), "--config", "tiny", "--vocab-size", "320", "--rows", "4",
                                 "--quiet", *extra])
    return trainer_mod.Trainer(args)


def test_gradients_reach_memory_and_stop_at_the_detach_boundary(corpora, tmp_path):
    tr = make_trainer(tmp_path, corpora["train"])
    data = tr.batches()
    idx, reset = next(data)
    tr.micro_step(idx, reset)
    params = dict(tr.model.named_parameters())
    # A new memory's read starts at zero (MemoryUnit): its output projection learns from the
    # first step, and nothing it reads has a gradient yet.
    assert all(params[n].grad.abs().sum() > 0 for n in params if n.endswith(".memory.read.o.weight"))
    assert all(params[n].grad is None or params[n].grad.abs().sum() == 0 for n in params if n.endswith(".memory.init"))
    # The same step again once the read has weights (as after that first update):
    tr.optimizer.zero_grad(set_to_none=True)
    with torch.no_grad():
        for unit in (m for m in tr.model.modules() if isinstance(m, MemoryUnit)):
            unit.read.o.weight.normal_(std=0.02)
    tr.prev = None
    tr.micro_step(idx, reset)
    # The first sentence reads the learned initial memory M_0, so M_0 learns from it; the
    # update attention has had no loss to learn from yet.
    assert all(params[n].grad.abs().sum() > 0 for n in params if n.endswith(".memory.init"))
    assert all(params[n].grad is None or params[n].grad.abs().sum() == 0 for n in params if ".memory.write." in n)
    tr.optimizer.zero_grad(set_to_none=True)
    idx, reset = next(data)
    # Make the memory that entered the previous sentence a leaf that would collect gradients.
    tr.prev["memory"] = {k: v.clone().requires_grad_(True) for k, v in tr.prev["memory"].items()}
    leaves = dict(tr.prev["memory"])
    tr.micro_step(idx, reset)
    # The loss of sentence t reached the update that sentence t-1 wrote (update attention,
    # memory FFN, output attention)...
    grads = {n: p.grad for n, p in tr.model.named_parameters() if ".memory." in n and not n.endswith(".init")}
    assert all(g is not None and g.abs().sum() > 0 for g in grads.values()), \
        [n for n, g in grads.items() if g is None or g.abs().sum() == 0]
    # ...but nothing flowed back past it into the memory that came before.
    assert all(leaf.grad is None for leaf in leaves.values())


def test_stage2_rows_in_parts_of_similar_length_train_as_one_batch(corpora, tmp_path):
    """--chunk-tokens: a stream step's rows in parts (training.data.length_chunks) give the loss and
    gradients of the whole step at once, with the memory carried from the step before."""
    def run(budget: str) -> tuple[list[float], dict[str, torch.Tensor], dict[str, torch.Tensor]]:
        tr = make_trainer(tmp_path / budget, corpora["train"], "--dropout", "0", "--mem-dropout", "0",
                          "--chunk-tokens", budget)
        data, losses = tr.batches(), []
        for _ in range(3):
            idx, reset = next(data)
            if budget == "8":  # every row a part of its own
                steps = [idx] if tr.prev is None else [idx, tr.prev["idx"]]
                assert len(length_chunks(tr.train, steps, 8)) == len(idx)
            loss, _ = tr.micro_step(idx, reset)
            losses.append(float(loss))
        grads = {n: p.grad.clone() for n, p in tr.model.named_parameters() if p.grad is not None}
        return losses, grads, tr.prev["memory"]

    whole, parts = run("100000"), run("8")
    assert whole[0] == pytest.approx(parts[0], rel=1e-5)
    assert whole[1].keys() == parts[1].keys()
    for n, g in whole[1].items():
        assert torch.allclose(g, parts[1][n], atol=1e-5, rtol=1e-4), n
    for k, m in whole[2].items():
        assert torch.allclose(m, parts[2][k], atol=1e-5), k


def test_length_chunks_cut_sorted_rows_at_the_budget() -> None:
    offsets = np.array([0, 2, 12, 15, 45, 46])  # sentence lengths 2, 10, 3, 30, 1 (source = target)
    corpus = TokenizedCorpus(np.zeros(46, np.int32), offsets, np.zeros(46, np.int32), offsets,
                             np.array([0, 5]), ["d"])
    # Longest + EOS per row: 3, 11, 4, 31, 2. Rows 0, 2, 4 fit 1000 with 12 positions for 9 tokens: one part.
    assert [p.tolist() for p in length_chunks(corpus, [[0, 2, 4]], 1000)] == [[0, 1, 2]]
    # All five would pad 51 tokens to 155 positions: sorted 4, 0, 2, 1 | 3 (up to 16, 17-32).
    assert [p.tolist() for p in length_chunks(corpus, [[0, 1, 2, 3, 4]], 1000)] == [[4, 0, 2, 1], [3]]
    # And cut at the budget: 3 x 4 = 12 fits 24, 4 x 11 does not.
    assert [p.tolist() for p in length_chunks(corpus, [[0, 1, 2, 3, 4]], 24)] == [[4, 0, 2], [1], [3]]
    # The previous step's sentences count too; an idle row (None) is one position.
    assert [p.tolist() for p in length_chunks(corpus, [[0, None, 2, 3, 4], [3, 0, 0, 0, 0]], 40)] == \
        [[1, 4, 2], [0], [3]]


def test_stage2_init_loads_every_stage1_weight_and_only_memory_is_new(corpora, tmp_path):
    s1 = train(tmp_path, "s1", "--stage", "sentence", "--max-steps", "3", "--max-tokens", "256",
               data=corpora["train"])
    stage1 = read_checkpoint(s1 / "best.pt")["model"]
    tr = make_trainer(tmp_path / "s2", corpora["train"], "--init", str(s1 / "best.pt"), "--spm",
                      str(s1 / "spm.model"), "--lr", "6e-5", "--lr-new", "3e-4")
    state = tr.model.state_dict()
    for k, v in stage1.items():
        assert torch.equal(state[k], v), k
    assert tr.new_params == set(tr.model.new_parameter_names())
    assert set(state) - set(stage1) == {k for k in state if ".memory." in k}
    lrs = {g["name"]: g["lr"] for g in tr.optimizer.param_groups}
    assert lrs == pytest.approx({"pretrained": 6e-5 * 1 / 1000, "new": 3e-4 / 1000})  # warm-up step 0->1


def test_stage2_with_the_sentence_model_frozen_trains_only_the_memory(corpora, tmp_path):
    s1 = train(tmp_path, "s1", "--stage", "sentence", "--max-steps", "3", "--max-tokens", "256",
               data=corpora["train"])
    stage1 = read_checkpoint(s1 / "best.pt")["model"]
    s2 = train(tmp_path, "s2", "--stage", "document", "--init", str(s1 / "best.pt"), "--spm", str(s1 / "spm.model"),
               "--freeze-pretrained", "--window", "2", "--max-steps", "4", "--warmup", "1", data=corpora["train"])
    after = read_checkpoint(s2 / "best.pt")["model"]
    for k, v in stage1.items():
        assert torch.equal(after[k], v), k
    fresh = make_trainer(tmp_path / "fresh", corpora["train"], "--init", str(s1 / "best.pt"), "--spm",
                         str(s1 / "spm.model"))
    memory = [k for k in after if ".memory." in k]
    assert memory and any(not torch.equal(after[k], fresh.model.state_dict()[k]) for k in memory)


@pytest.mark.parametrize("stage", ["sentence", "document"])
def test_resume_continues_exactly(corpora, tmp_path, stage):
    common = ["--stage", stage, "--dropout", "0.1", "--log-every", "3", "--window", "3", "--max-tokens", "300",
              "--save-every", "1000",
              "--dev", str(corpora["dev"]), "--eval-every", "4"]
    straight, split, a, b = check_resume_continues_exactly(tmp_path, common, corpora["train"], 12)
    assert a["step"] == b["step"] == 12
    loss = [[r["loss"] for r in map(json.loads, (d / "log.jsonl").read_text().splitlines()) if "loss" in r]
            for d in (straight, split)]
    assert loss[0][-1] == pytest.approx(loss[1][-1], rel=1e-4)
    assert a["metrics"]["dev_loss"] == pytest.approx(b["metrics"]["dev_loss"], rel=1e-4)


def test_memory_probe_tells_own_context_from_a_foreign_one(memory_run, corpora, tmp_path, capsys):
    """The probe that diagnoses the real models: on the pronoun task, the document's own memory
    must beat another document's memory and the initial memory, from the second sentence on."""
    loaded = load_model(memory_run / "best.pt")
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    corpus = tokenize_corpus(corpora["dev"], "xx", "yy", sp.encode, loaded.config.max_len)
    res = {c: t.per_token() for c, t in memory_probe.probe(loaded.model, corpus).items()}
    first = [res[c]["1"] for c in ("carried", "foreign", "initial")]
    assert first == pytest.approx([first[0]] * 3, abs=1e-5)  # no context yet: all memories are M_0
    assert res["carried"]["2+"] < res["foreign"]["2+"] - 0.05
    assert res["carried"]["2+"] < res["initial"]["2+"] - 0.05
    total, tokens = trainer_mod.dev_loss(loaded.model, corpus, True, "cpu")  # the training's own dev loss
    assert res["carried"]["all"] == pytest.approx(total / tokens, rel=1e-4)

    out = tmp_path / "probe.json"
    assert memory_probe.main([str(memory_run / "best.pt"), "--data", str(corpora["dev"]), "--src", "xx",
                              "--tgt", "yy", "--threads", "1", "--json", str(out)]) == 0
    table = capsys.readouterr().out
    assert "| carried |" in table and "| foreign |" in table
    assert json.loads(out.read_text())[f"{memory_run.name}/best.pt"]["carried"]["all"] == pytest.approx(
        res["carried"]["all"], rel=1e-5)


def test_dev_loss_of_a_saved_checkpoint_matches_what_training_logged(memory_run, corpora, tmp_path):
    """training.dev_loss re-measures a checkpoint on the scale training logs (to re-select best.pt
    after the dev reading changed); on unchanged data it must give the logged number."""
    best = read_checkpoint(memory_run / "best.pt")
    log = [json.loads(x) for x in (memory_run / "log.jsonl").read_text().splitlines()]
    logged = [r["eval"] for r in log if "eval" in r and r["step"] == best["step"]][-1]
    out = tmp_path / "dl.json"
    assert dev_loss_mod.main([str(memory_run / "best.pt"), "--dev", str(corpora["dev"]), "--src", "xx",
                              "--tgt", "yy", "--threads", "1", "--json", str(out)]) == 0
    (measured,) = json.loads(out.read_text()).values()
    assert measured["step"] == best["step"]
    assert measured["dev_loss"] == pytest.approx(logged["dev_loss"], rel=1e-4)


def test_evaluate_prints_sbleu_dbleu_with_signature(memory_run, corpora, tmp_path, capsys):
    hyp = tmp_path / "dev.hyp"
    assert evaluate_mod.main([str(memory_run / "best.pt"), "--data", str(corpora["dev"]), "--src", "xx",
                              "--tgt", "yy", "--beam", "5", "--out", str(hyp)]) == 0
    line = capsys.readouterr().out
    assert "s-BLEU" in line and "d-BLEU" in line and "nrefs:1" in line
    # Sentences of 3-4 words have almost no 4-grams, so s-BLEU says little here; d-BLEU does.
    d_bleu = float(line.split("d-BLEU")[1].split()[0])
    assert d_bleu > 80  # the task is learnt; beam 5 must not break it
    docs = hyp.read_text().strip().split("\n\n")
    assert len(docs) == 40


def test_tokenized_references_are_detected_and_scored_consistently():
    refs = [["it 's fine , ok .", "i don 't know ."]]  # as in the TVsub dev references
    hyps = [["It's fine, ok.", "I don't know."]]
    assert looks_tokenized(refs[0])
    s, d, _, how = evaluate_mod.score(hyps, refs, "en")
    assert s == pytest.approx(100.0) and d == pytest.approx(100.0)
    assert "Moses" in how
    assert not looks_tokenized(["It's fine, ok.", "Hello there."])


def test_tokenized_dev_english_is_read_untokenized_for_loss_and_source(tmp_path):
    """TVsub dev English is Moses-tokenized; the dev loss and an en->zh source must see ordinary
    text (as in training), while BLEU references stay untouched."""
    dev = tmp_path / "dev.jsonl"
    en = ["what ?", "we didn 't get married . no , we didn 't !", "I 'm drunk right now ."]
    zh = ["什么?", "我们没有结婚", "我现在醉了"]
    dev.write_text(json.dumps({"id": "d", "zh": zh, "en": en}, ensure_ascii=False) + "\n", encoding="utf-8")
    (doc,) = read_documents(dev, "en", "zh", untokenize=True)
    assert doc.src == ["What?", "We didn't get married. No, we didn't!", "I'm drunk right now."]
    assert doc.tgt == zh  # only English is Moses-tokenized here
    assert next(read_documents(dev, "zh", "en")).tgt == en  # raw unless asked
    src_docs, refs = evaluate_mod.load_references(dev, "en", "zh", None, None)
    assert src_docs == [doc.src] and refs == [zh]
    src_docs, refs = evaluate_mod.load_references(dev, "zh", "en", None, None)
    assert refs == [en]  # references keep their tokenization: score() handles it
    ordinary = ["It's fine, ok.", "Hello there."]
    assert untokenized_side(ordinary, "en") is ordinary


BAD_LINES = {
    "json": ('{"xx": ["a"], "yy": ["b"]}\n{"xx": [\n', ".jsonl:2: invalid JSON"),
    "lengths": ('{"xx": ["a", "b"], "yy": ["c"]}\n', "'xx' has 2 sentences but 'yy' has 1"),
    "language": ('{"de": ["a"], "en": ["b"]}\n', "no 'xx' side (languages here: de, en)"),
    "type": ('{"xx": "a", "yy": ["b"]}\n', "'xx' must be a list of strings"),
}


@pytest.mark.parametrize("case", sorted(BAD_LINES))
def test_malformed_corpus_gives_one_clear_line(tmp_path, capsys, case):
    text, expected = BAD_LINES[case]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text)
    code = train_mod.main(["--stage", "sentence", "--src", "xx", "--tgt", "yy", "--data", str(bad), "--spm",
                           str(tmp_path / "missing.model"), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("error:")
    assert "missing.model" in err  # the tokenizer is checked first...
    spm_dir = tmp_path / "o"
    code = train_mod.main(["--stage", "sentence", "--src", "xx", "--tgt", "yy", "--data", str(bad), "--out",
                           str(spm_dir), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and expected in err and "bad.jsonl" in err


def test_missing_files_from_the_command_line_no_traceback(tmp_path):
    for cmd in (["training.train", "--stage", "sentence", "--src", "a", "--tgt", "b", "--data", "nope.jsonl",
                 "--out", str(tmp_path)],
                ["training.evaluate", str(tmp_path / "nope.pt"), "--data", "x", "--src", "a", "--tgt", "b"]):
        r = subprocess.run([sys.executable, "-m", *cmd], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 2, r.stderr
        assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1 and "nope" in r.stderr


# -- GPU speed work: fused attention, memory dropout, accumulation, --compile, --time-budget -------


def explicit_vs_fused(fn):
    """``fn()`` computed with the explicit attention path and with scaled_dot_product_attention."""
    from training.model import Attention

    try:
        Attention.fused = False
        explicit = fn()
    finally:
        Attention.fused = True
    return explicit, fn()


def assert_close(a, b, atol=1e-5):
    if isinstance(a, torch.Tensor):
        assert torch.allclose(a, b, atol=atol), (a - b).abs().max()
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            assert_close(a[k], b[k], atol)
    else:
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert_close(x, y, atol)


@torch.no_grad()
def test_fused_attention_matches_the_explicit_path():
    """Eval mode: encoder with padding (and an all-padding row, as in document streams), causal
    teacher-forced decoder, incremental decoding with a KV cache, memory read and update."""
    torch.manual_seed(0)
    model = MemoryTransformer(make_config("tiny", vocab_size=50)).eval()
    src, tgt = torch.randint(4, 50, (3, 7)), torch.randint(4, 50, (3, 6))
    src[0, 4:], src[2] = 0, 0
    tgt[1, 3:] = 0
    mem = model.init_memory(3)

    def encode():
        enc, states, _ = model.encode(src, mem["src"])
        return enc, states

    def teacher_forced():
        return model(src, tgt, mem)  # logits and the updated memory of both sides

    def incremental():
        enc, _, _ = model.encode(src, mem["src"])
        kv, past, steps = model.cross_kv(enc), None, []
        for i in range(tgt.shape[1]):
            logits, _, past, _ = model.decode(tgt[:, i:i + 1], kv, src, mem["tgt"], past=past, start=i)
            steps.append(logits)
        return torch.cat(steps, 1), past

    for fn in (encode, teacher_forced, incremental):
        assert_close(*explicit_vs_fused(fn))
    # Asking for the weights (viewer, export) still gives them, and the same outputs.
    enc, _, weights = model.encode(src, mem["src"], need_weights=True)
    assert weights[0].shape == (3, 4, 7, 16)
    assert_close(enc, encode()[0])
    # The approaches that reuse Attention with their own masks: G-Transformer's group masks.
    from training import gtransformer

    gt = gtransformer.GTransformer(gtransformer.GTConfig(**{**make_config("tiny", vocab_size=50).to_dict(),
                                                             "global_layers": 1})).eval()
    doc_src = torch.tensor([[5, 6, 2, 7, 8, 9, 2], [5, 2, 6, 2, 0, 0, 0]])
    doc_tgt = torch.tensor([[1, 5, 6, 1, 7, 8], [1, 5, 1, 6, 0, 0]])
    assert_close(*explicit_vs_fused(lambda: gt(doc_src, doc_tgt)))


def test_fused_attention_keeps_dropout_on_the_weights():
    """Training mode: dropout on the attention weights, inverted scaling, on both paths: the mean
    over many samples is the dropout-free output, and single samples differ from it."""
    from training.model import Attention, pad_bias

    torch.manual_seed(0)
    attn = Attention(16, 2, dropout=0.5)
    x, ids = torch.randn(2, 5, 16), torch.tensor([[5, 6, 7, 0, 0], [5, 6, 7, 8, 9]])
    kv, bias = attn.kv(x), pad_bias(ids, 0)
    n = 4000  # samples, as one batch of n copies (each row draws its own dropout mask)
    copies = (x.repeat(n, 1, 1), tuple(t.repeat(n, 1, 1, 1) for t in kv), bias.repeat(n, 1, 1, 1))
    with torch.no_grad():
        reference = attn.eval()(x, kv, bias)[0]
        attn.train()
        means = [out[0].view(n, *x.shape).mean(0) for out in explicit_vs_fused(lambda: attn(*copies))]
        sample = attn(x, kv, bias)[0]
    for mean in means:
        assert torch.allclose(mean, reference, atol=0.03), (mean - reference).abs().max()
    assert not torch.allclose(sample, reference, atol=1e-3)


def test_memory_dropout_is_its_own_and_old_configs_keep_theirs(corpora, tmp_path):
    from training.model import Attention, ModelConfig

    def rates(model: torch.nn.Module, memory: bool) -> set[float]:
        return {m.p if isinstance(m, torch.nn.Dropout) else m.drop.p for n, m in model.named_modules()
                if isinstance(m, torch.nn.Dropout | Attention) and (".memory." in f".{n}.") == memory}

    old = make_config("small", vocab_size=50).to_dict()
    del old["mem_dropout"]  # a config saved before the field existed
    cfg = ModelConfig.from_dict(old)
    assert cfg.mem_dropout is None and cfg.memory_dropout == cfg.dropout == 0.1
    assert rates(MemoryTransformer(cfg), memory=True) == {0.1}
    model = MemoryTransformer(make_config("small", vocab_size=50, mem_dropout=0.3))
    assert rates(model, memory=True) == {0.3} and rates(model, memory=False) == {0.1}
    tr = make_trainer(tmp_path, corpora["train"], "--dropout", "0.2", "--mem-dropout", "0.3")
    assert (tr.cfg.dropout, tr.cfg.mem_dropout) == (0.2, 0.3)
    assert rates(tr.model, memory=True) == {0.3} and rates(tr.model, memory=False) == {0.2}


def test_sentence_accumulation_normalises_by_the_tokens_of_the_whole_step(corpora, tmp_path):
    """--accum 3: the step's gradient is that of (sum of the batches' losses) / (all their tokens),
    not the mean of per-batch means."""
    args = train_mod.parse_args(["--stage", "sentence", "--src", "xx", "--tgt", "yy", "--data",
                                 str(corpora["train"]), "--out", str(tmp_path), "--config", "tiny",
                                 "--vocab-size", "320", "--max-tokens", "64", "--accum", "3", "--quiet"])
    tr = trainer_mod.Trainer(args)
    data = tr.batches()
    batches = [next(data)[0] for _ in range(3)]
    tensors = [trainer_mod.to_tensors(trainer_mod.collate(tr.train, idx, 0, 1, 2), "cpu") for idx in batches]
    total = sum(int((out != 0).sum()) for _, _, out in tensors)
    assert len({int((out != 0).sum()) for _, _, out in tensors}) > 1  # batches of different sizes
    (sum(tr.loss(*t) for t in tensors) / total).backward()
    expected = {n: p.grad.clone() for n, p in tr.model.named_parameters() if p.grad is not None}
    tr.optimizer.zero_grad(set_to_none=True)
    tokens = sum(tr.micro_step(idx, None)[1] for idx in batches)
    tr.scale_gradients(3, tokens)
    assert tokens == total
    for n, p in tr.model.named_parameters():
        if n in expected:
            assert torch.allclose(p.grad, expected[n], atol=1e-6, rtol=1e-4), n


def log_records(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]


def test_time_budget_stops_in_time_and_resumes_exactly(corpora, tmp_path, monkeypatch):
    """A --time-budget run stops before its budget with a resumable last.pt (evaluated first), and
    resuming it without a budget ends with the weights of the uninterrupted run."""
    torch.set_num_threads(1)  # as memory_run: two threads on a busy 2-core machine are 10x slower
    common = ["--stage", "document", "--dropout", "0.1", "--log-every", "3", "--window", "3",
              "--save-every", "1000", "--dev", str(corpora["dev"]), "--eval-every", "5", "--max-steps", "24"]
    straight = train(tmp_path, "straight", *common, data=corpora["train"])
    spm_flags = ["--spm", str(straight / "spm.model")]
    real_step = trainer_mod.Trainer.optimizer_step

    def slow_step(self):  # make steps slow enough that the budget, not --max-steps, ends the run
        time.sleep(0.6)
        return real_step(self)

    monkeypatch.setattr(trainer_mod.Trainer, "optimizer_step", slow_step)
    budget, t0 = 12.0, time.time()
    assert train_mod.main(["--src", "xx", "--tgt", "yy", "--data", str(corpora["train"]), "--out",
                           str(tmp_path / "split"), "--config", "tiny", "--lr", "3e-3", "--warmup", "50",
                           "--seed", "3", "--quiet", "--rows", "16", *common, *spm_flags,
                           "--time-budget", str(budget)], started=t0) == 0
    assert time.time() - t0 < budget
    stopped = [r for r in log_records(tmp_path / "split") if "stopped" in r]
    assert len(stopped) == 1 and stopped[0]["stopped"] == "time budget" and stopped[0]["elapsed_s"] < budget
    cut = read_checkpoint(tmp_path / "split" / "last.pt")
    assert 0 < cut["step"] < 24 and cut["step"] == stopped[0]["step"]
    assert cut["metrics"]["dev_loss"] > 0  # the steps since the last evaluation were evaluated
    assert (tmp_path / "split" / "best.pt").exists()
    monkeypatch.setattr(trainer_mod.Trainer, "optimizer_step", real_step)
    split = train(tmp_path, "split", *common, *spm_flags, "--resume", data=corpora["train"])
    a, b = read_checkpoint(straight / "last.pt"), read_checkpoint(split / "last.pt")
    assert a["step"] == b["step"] == 24
    for k in a["model"]:
        assert torch.allclose(a["model"][k], b["model"][k], atol=1e-5), k
    assert a["metrics"]["dev_loss"] == pytest.approx(b["metrics"]["dev_loss"], rel=1e-4)
    logged = [r for r in log_records(split) if "loss" in r]
    assert all({"tok_per_s", "eval_s", "save_s", "elapsed_s"} <= set(r) for r in logged)
    assert all("eval_s" in r for r in log_records(split) if "eval" in r)


def test_time_budget_does_not_judge_by_the_warm_up_step():
    """A run's first step pays one-time costs (on the H100, stage 2's took 4x a later one): it is
    the budget's estimate until a later step is timed, then it is dropped, so a slow first step
    does not stop a stage that has time for many more (the device run's stage 2 stopped after one
    step of its 67 s)."""
    logged: list[dict] = []
    run = SimpleNamespace(recent_steps=deque(maxlen=20), run_start_step=10, step=11, started=time.time(),
                          args=SimpleNamespace(stage="document", window=4, accum=1), log=logged.append)
    trainer_mod.Trainer.record_step(run, 8.0, 1, 100)  # the warm-up: 8 s for one stream sentence
    assert trainer_mod.Trainer.step_estimate(run) == pytest.approx(32.0)  # all we know yet
    run.step = 12
    trainer_mod.Trainer.record_step(run, 3.0, 2, 200)
    assert trainer_mod.Trainer.step_estimate(run) == pytest.approx(6.0)  # 1.5 s a sentence x 4
    run.step = 13
    trainer_mod.Trainer.record_step(run, 2.0, 1, 100)  # later steps all count (the slowest rules)
    assert trainer_mod.Trainer.step_estimate(run) == pytest.approx(8.0)
    assert len(run.recent_steps) == 2
    # the first two steps' times are in the log (what a short device stage spent its minutes on)
    assert [(r["timed_step"], r["step_s"]) for r in logged] == [(1, 8.0), (2, 3.0)]


def inductor_unavailable() -> str | None:
    """Why torch.compile cannot run here (None if it can): tried on a trivial function."""
    try:
        torch.compile(lambda x: x * 2 + 1, dynamic=True)(torch.ones(3))
    except Exception as e:  # any failure of the backend means: cannot test here
        return f"torch.compile does not work on this machine: {type(e).__name__}: {e}"[:300]
    return None


def test_compile_trains_like_eager_and_saves_plain_names(corpora, tmp_path):
    """--compile (inductor, dynamic shapes): a few sentence-stage steps give the eager run's
    weights, and the checkpoint has the module's own parameter names. Slow on a CPU the first
    time (inductor compiles C++; later runs hit its cache)."""
    torch.set_num_threads(1)
    reason = inductor_unavailable()
    if reason:
        pytest.skip(reason)
    flags = ["--stage", "sentence", "--max-steps", "3", "--max-tokens", "256", "--log-every", "1"]
    eager = train(tmp_path, "eager", *flags, data=corpora["train"])
    compiled = train(tmp_path, "compiled", *flags, "--compile", "--spm", str(eager / "spm.model"),
                     data=corpora["train"])
    a, b = read_checkpoint(eager / "last.pt")["model"], read_checkpoint(compiled / "last.pt")["model"]
    assert a.keys() == b.keys() and not any("_orig_mod" in k for k in b)
    for k in a:
        assert torch.allclose(a[k], b[k], atol=1e-4), k


@pytest.mark.parametrize("stage", ["sentence", "document"])
def test_bf16_autocast_gives_the_fp32_loss_and_finite_gradients(corpora, tmp_path, stage):
    """The GPU run trains under bf16 autocast (--amp bf16); CPU autocast runs the same ops in bf16,
    so a dtype mismatch (a mask filled in bf16, SDPA fed mixed dtypes, a memory kept in bf16 between
    steps) fails here instead of in the GPU's first minute."""
    tr = make_trainer(tmp_path, corpora["train"], "--stage", stage)
    data = tr.batches()
    idx, _ = next(data)
    src, tgt_in, tgt_out = trainer_mod.to_tensors(trainer_mod.collate(tr.train, idx, 0, 1, 2), "cpu")
    memory = tr.next_memory(idx, tr.model.init_memory(len(idx))) if stage == "document" else None
    reference = tr.loss(src, tgt_in, tgt_out, memory).item()
    tr.autocast = lambda: torch.autocast("cpu", dtype=torch.bfloat16)
    if stage == "document":
        memory = tr.next_memory(idx, tr.model.init_memory(len(idx)))
        assert all(v.dtype == torch.float32 for v in memory.values())  # carried between steps in fp32
    loss = tr.loss(src, tgt_in, tgt_out, memory)
    assert loss.dtype == torch.float32
    assert loss.item() == pytest.approx(reference, rel=0.03)
    loss.backward()
    grads = [p.grad for p in tr.model.parameters() if p.grad is not None]
    assert grads and all(torch.isfinite(g).all() for g in grads)
