"""G-Transformer (training/gtransformer.py): group tags and masks, decoding tags, init, the synthetic task."""

from __future__ import annotations

import json

import pytest
import torch

from export.bundle import ExportError, export_checkpoint
from tests.synthetic import check_resume_continues_exactly, pronoun_accuracy, train_synthetic, translate_dev
from training import approaches
from training import train as train_mod
from training.checkpoint import CheckpointError, load_model, read_checkpoint
from training.gtransformer import (
    GTConfig,
    GTransformer,
    advance_tags,
    beam_search_instance,
    group_bias,
    source_tags,
    split_instances,
    target_tags,
)
from training.model import CONFIGS, MASKED

PAD, BOS, EOS = 0, 1, 2
pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py


def tiny(**over) -> GTransformer:
    torch.manual_seed(0)
    return GTransformer(GTConfig(**{**CONFIGS["tiny"], "vocab_size": 50, **over})).eval()


def doc(src: list[list[int]], tgt: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    return (torch.tensor([[t for s in src for t in (*s, EOS)]]), torch.tensor([[t for s in tgt for t in (BOS, *s)]]))


SRC = [[5, 6, 7], [8, 9], [10, 11, 12, 13]]
TGT = [[20, 21], [22, 23, 24], [25]]


def test_tags_follow_sentences():
    src, tin = doc(SRC, TGT)
    assert source_tags(src, EOS, PAD).tolist() == [[1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3]]
    assert target_tags(tin, BOS, PAD).tolist() == [[1, 1, 1, 2, 2, 2, 2, 3, 3]]
    padded = torch.tensor([[5, EOS, 6, EOS, PAD, PAD]])
    assert source_tags(padded, EOS, PAD).tolist() == [[1, 1, 2, 2, 0, 0]]
    # The tag of the next decoder input rises exactly when </s> was emitted.
    assert advance_tags(torch.tensor([1, 1, 2]), torch.tensor([7, EOS, EOS]), EOS).tolist() == [1, 2, 3]
    bias = group_bias(torch.tensor([[1, 2]]), torch.tensor([[1, 1, 2, 0]]))[0, 0]
    assert (bias == 0).tolist() == [[True, True, False, False], [False, False, True, False]]
    assert bias.max() == 0 and bias.min() == MASKED


def outputs(model: GTransformer, src_sents, tgt_sents):
    src, tin = doc(src_sents, tgt_sents)
    enc, _ = model.encode(src)
    return enc[0], model(src, tin)[0]


def test_group_attention_never_crosses_sentences():
    """Change the middle sentence (same lengths, so positions stay): with group attention only,
    nothing of sentences 1 and 3 moves, on either side; with the top layers global, they do."""
    other_src = [SRC[0], [30, 31], SRC[2]]
    other_tgt = [TGT[0], [40, 41, 42], TGT[2]]
    s1, s3 = slice(0, 4), slice(7, 12)  # source positions of sentences 1 and 3
    t1, t3 = slice(0, 3), slice(7, 9)  # decoder positions of sentences 1 and 3
    group_only = tiny(global_layers=0)
    (ea, la), (eb, lb) = outputs(group_only, SRC, TGT), outputs(group_only, other_src, other_tgt)
    for a, b, parts in ((ea, eb, (s1, s3)), (la, lb, (t1, t3))):
        for p in parts:
            assert torch.allclose(a[p], b[p], atol=1e-5)
    assert not torch.allclose(ea[4:7], eb[4:7])  # the changed sentence did change
    combined = tiny(global_layers=1)
    (ea, la), (eb, lb) = outputs(combined, SRC, TGT), outputs(combined, other_src, other_tgt)
    assert not torch.allclose(ea[s1], eb[s1], atol=1e-4) and not torch.allclose(la[t3], lb[t3], atol=1e-4)


def test_incremental_decoding_matches_teacher_forcing():
    model = tiny()
    src, tin = doc(SRC, TGT)
    full = model(src, tin)
    enc, src_tags = model.encode(src)
    cross, tags = model.cross_kv(enc), target_tags(tin, BOS, PAD)
    past, past_tags, steps = None, None, []
    for i in range(tin.shape[1]):
        logits, past = model.decode(tin[:, i:i + 1], tags[:, i:i + 1], cross, src_tags, past, past_tags, start=i)
        past_tags = tags[:, : i + 1]
        steps.append(logits)
    assert torch.allclose(torch.cat(steps, 1), full, atol=1e-4)


def expected_tags(hyp: list[list[int]]) -> list[int]:
    """Tags fed along a hypothesis: 1 for the first <s>, +1 for the input after each </s>."""
    out_tokens = [t for s in hyp for t in (*s, EOS)]
    return [1 + sum(t == EOS for t in out_tokens[:j]) for j in range(len(out_tokens))]


@pytest.mark.parametrize("beam", [1, 3])
def test_decoding_advances_target_tags_after_each_eos(beam):
    model = tiny()
    hyp, tags = beam_search_instance(model, SRC, beam=beam, return_tags=True)
    assert len(hyp) == len(SRC)  # one translation per source sentence, whatever the model does
    assert tags == expected_tags(hyp) and tags[-1] == len(SRC)


def test_instances_are_whole_sentences_within_the_limit():
    assert split_instances([3, 3, 3, 10, 1], max_tokens=8) == [[0, 1], [2], [3], [4]]
    assert split_instances([], 8) == []


def test_word_dropout_hits_words_only_and_only_in_training():
    model = tiny(word_dropout=0.5)
    ids = torch.tensor([[BOS, *range(10, 60 - 10), EOS, PAD, PAD]]).clamp(max=49)
    assert torch.equal(model.word_dropout(ids), ids)  # eval mode
    model.train()
    out = model.word_dropout(ids)
    dropped = out == model.cfg.unk_id
    assert 0.3 < dropped[:, 1:-3].float().mean() < 0.7
    assert torch.equal(out[:, [0, -3, -2, -1]], ids[:, [0, -3, -2, -1]])


# -- training --------------------------------------------------------------------------------


train = train_synthetic


def test_gtransformer_solves_the_context_task(corpora):
    """The whole document is one sequence, so the name is in view: same task and steps as the memory test.
    Rows are 4 documents (~20 sentences), about the memory test's 16 sentences per step."""
    run = train(corpora["dir"], "gt", "--approach", "gtransformer", "--stage", "document", "--rows", "4",
                "--window", "1", "--max-steps", "300", "--word-dropout", "0.1",
                data=corpora["train"], dev=corpora["dev"])
    refs, hyps, loaded, sp = translate_dev(run / "best.pt", corpora["dev"], max_docs=25, beam=1)
    acc, n = pronoun_accuracy(refs, hyps)
    print(f"G-Transformer pronoun accuracy {acc:.3f} on {n}")
    assert n > 50 and acc >= 0.9, f"G-Transformer pronoun accuracy {acc:.2f}"
    # A trained model's own decoding also advances its tags exactly after each </s>.
    src = [sp.encode(s) for s in json.loads(corpora["dev"].read_text().splitlines()[0])["xx"]]
    hyp, tags = beam_search_instance(loaded.model, src, beam=3, return_tags=True)
    assert tags == expected_tags(hyp) and len(hyp) == len(src)
    # One loader for every approach; tools built for the memory model refuse this one in one line.
    assert isinstance(loaded.model, GTransformer) and loaded.approach == "gtransformer"
    with pytest.raises(CheckpointError, match="gtransformer checkpoint; this needs a memory model"):
        load_model(run / "best.pt", require="memory")
    with pytest.raises(ExportError, match="--approach gtransformer model; bundles hold the memory and SMDT models"):
        export_checkpoint(run / "best.pt", run / "bundle")
    assert not (run / "bundle").exists()


def test_init_copies_the_sentence_model_into_group_attention(corpora, tmp_path):
    s1 = train(tmp_path, "s1", "--stage", "sentence", "--max-steps", "2", "--max-tokens", "256",
               data=corpora["train"])
    args = train_mod.parse_args(["--approach", "gtransformer", "--stage", "document", "--src", "xx", "--tgt", "yy",
                                 "--data", str(corpora["train"]), "--out", str(tmp_path / "gt"), "--config", "tiny",
                                 "--init", str(s1 / "best.pt"), "--spm", str(s1 / "spm.model"), "--lr", "1e-4",
                                 "--lr-new", "5e-4", "--quiet"])
    tr = approaches.trainer_class("gtransformer")(args)
    stage1, state = read_checkpoint(s1 / "best.pt")["model"], tr.model.state_dict()
    for k, v in stage1.items():
        assert torch.equal(state[k], v), k
    new = set(state) - set(stage1)
    assert new and all("_global." in k for k in new)  # global attentions and gates, top 2 layers only
    assert {k.split(".")[1] for k in new} == {"0", "1"} and tr.new_params == set(tr.model.new_parameter_names())
    lrs = {g["name"]: g["lr"] for g in tr.optimizer.param_groups}
    assert lrs == pytest.approx({"pretrained": 1e-4 / 1000, "new": 5e-4 / 1000})  # warm-up step 0 -> 1


def test_resume_continues_exactly(corpora, tmp_path):
    common = ["--approach", "gtransformer", "--stage", "document", "--dropout", "0.1", "--rows", "4",
              "--window", "3", "--log-every", "3", "--save-every", "1000"]
    _, split, _, _ = check_resume_continues_exactly(tmp_path, common, corpora["train"], 8)
    # Resuming with another approach is one clear error, not a traceback.
    argv = ["--src", "xx", "--tgt", "yy", "--data", str(corpora["train"]), "--out", str(split), "--config", "tiny",
            "--stage", "document", "--resume", "--quiet"]
    assert train_mod.main(argv) == 2
