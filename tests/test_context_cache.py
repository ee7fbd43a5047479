"""Context caching and sequence shortening (training/context_cache.py): shortening modules, the cache
at inference = the context in training, init from the sentence model, the synthetic task."""

from __future__ import annotations

import pytest
import torch

from tests.synthetic import pronoun_accuracy, translate_dev
from tests.synthetic import train_synthetic as train
from training import approaches
from training import train as train_mod
from training.checkpoint import read_checkpoint
from training.context_cache import SHORTENINGS, CacheConfig, CacheTransformer, Shortener, sparsemax
from training.context_cache import translate_documents as cache_translate
from training.model import CONFIGS, MASKED

pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py

D = CONFIGS["tiny"]["d_model"]


def cfg(**over) -> CacheConfig:
    return CacheConfig(**{**CONFIGS["tiny"], "vocab_size": 50, **over})


def states(lengths=(9, 5)) -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    T = max(lengths)
    mask = torch.arange(T)[None] < torch.tensor(lengths)[:, None]
    return torch.randn(len(lengths), T, D, requires_grad=True), mask


@pytest.mark.parametrize("kind, length", [("none", 9), ("sentence", 1), ("mean", 3), ("max", 3), ("linear", 3),
                                          ("grouping", 6), ("selecting", 6)])
def test_shortening_shapes_and_masks(kind, length):
    h, mask = states()
    z, zmask = Shortener(cfg(shorten=kind, pool_size=4, n_groups=6)).eval()(h, mask)
    assert z.shape == (2, length, D) and zmask.shape == (2, length)
    if kind in ("mean", "max", "linear"):  # row 2 has 5 real tokens: windows [0-3], [4-7] real, [8] padding
        assert zmask.tolist() == [[True] * 3, [True, True, False]]
    assert torch.isfinite(z).all()


def test_pooling_windows_and_padding():
    h, mask = states()
    short = Shortener(cfg(shorten="mean", pool_size=4)).eval()
    # Before attending back, a mean-pooled window is the mean of its real tokens only.
    pooled = {}
    short.back.register_forward_hook(lambda m, args, out: pooled.setdefault("z", args[0]))
    short(h, mask)
    z = pooled["z"]
    assert torch.allclose(z[0, 0], h[0, 0:4].mean(0), atol=1e-6)
    assert torch.allclose(z[1, 1], h[1, 4:5].mean(0), atol=1e-6)  # window 2 of row 2: one real token
    maxed = {}
    mx = Shortener(cfg(shorten="max", pool_size=4)).eval()
    mx.back.register_forward_hook(lambda m, args, out: maxed.setdefault("z", args[0]))
    mx(h, mask)
    assert torch.equal(maxed["z"][1, 1], h[1, 4])


def test_sparsemax_is_a_sparse_distribution():
    x = torch.tensor([[3.0, 1.0, 0.2, MASKED], [0.1, 0.1, 0.1, 0.1]])
    p = sparsemax(x, dim=-1)
    assert torch.allclose(p.sum(-1), torch.ones(2)) and (p >= 0).all()
    assert p[0].tolist() == [1.0, 0.0, 0.0, 0.0] and torch.allclose(p[1], torch.full((4,), 0.25))
    y = torch.tensor([0.5, 0.4, -1.0], requires_grad=True)
    q = sparsemax(y, dim=0)
    assert torch.allclose(q, torch.tensor([0.55, 0.45, 0.0]))
    q[0].backward()  # Jacobian on the support: I - 1/|S|, zero off it
    assert torch.allclose(y.grad, torch.tensor([0.5, -0.5, 0.0]))


@pytest.mark.parametrize("categorize", ["softmax", "sparsemax"])
def test_latent_grouping_and_selecting_weights(categorize):
    h, mask = states()
    grouping = Shortener(cfg(shorten="grouping", n_groups=6, categorize=categorize)).eval()
    grouping(h, mask)
    a = grouping.weights  # (B, T, G): each real token shared out among the groups
    assert torch.allclose(a[mask].sum(-1), torch.ones(int(mask.sum())), atol=1e-5)
    assert (a[~mask] == 0).all()
    selecting = Shortener(cfg(shorten="selecting", n_groups=6, categorize=categorize)).eval()
    selecting(h, mask)
    s = selecting.weights  # each group selects among the real tokens of its sentence
    assert torch.allclose(s.sum(1), torch.ones(2, 6), atol=1e-5)
    assert (s[~mask] == 0).all()


@pytest.mark.parametrize("kind", SHORTENINGS)
def test_shortening_gradients_reach_every_parameter_and_the_states(kind):
    h, mask = states()
    short = Shortener(cfg(shorten=kind, n_groups=6))
    z, zmask = short(h, mask)
    (z * zmask[..., None]).pow(2).sum().backward()
    assert h.grad is not None and h.grad[mask].abs().sum() > 0
    assert (h.grad[~mask] == 0).all()  # padding never contributes
    for n, p in short.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, n


def test_only_the_nearest_context_sentences_train_the_shortening():
    torch.manual_seed(0)
    model = CacheTransformer(cfg(shorten="grouping", context_size=2, n_groups=4, shorten_grad=1))
    src, tgt = sources([5, 6, 7]), torch.tensor([[1, 20, 21]])
    seen = []
    model.shortener.register_forward_hook(lambda m, args, out: seen.append(out[0].requires_grad))
    model(src, tgt, [sources([8, 9]), sources([10, 11])]).sum().backward()
    assert seen == [True, True, False]  # current sentence, 1 back: trained; 2 back: not


def sources(*sents: list[int]) -> torch.Tensor:
    width = max(len(s) for s in sents) + 1
    return torch.tensor([[*s, 2] + [0] * (width - len(s) - 1) for s in sents])


@pytest.mark.parametrize("kind", ["none", "grouping"])
def test_context_is_read_and_segments_tell_sentences_apart(kind):
    torch.manual_seed(0)
    model = CacheTransformer(cfg(shorten=kind, context_size=2, n_groups=4)).eval()
    src, tgt = sources([5, 6, 7]), torch.tensor([[1, 20, 21]])
    a, b = sources([8, 9]), sources([10, 11, 12])
    alone = model(src, tgt, [])
    assert not torch.allclose(alone, model(src, tgt, [a]))  # the context is read
    # The same two sentences in swapped distances give another context (segment embeddings).
    assert not torch.allclose(model(src, tgt, [a, b]), model(src, tgt, [b, a]))
    # A row with no context sentence (all padding) reads nothing from the context.
    if kind == "none":
        assert torch.allclose(model(src, tgt, [torch.zeros_like(a)]), alone, atol=1e-6)


@pytest.mark.parametrize("kind", ["none", "mean", "selecting"])
def test_cached_decoding_sees_the_context_training_sees(kind):
    """Greedy decoding with the cache, re-scored teacher-forced with the training-time context
    (previous sentences re-encoded), must pick the same tokens: the cache holds what training reads."""
    torch.manual_seed(1)
    model = CacheTransformer(cfg(shorten=kind, context_size=2, n_groups=4, max_len=24)).eval()
    docs = [[[5, 6, 7], [8, 9], [10, 11, 12], [13, 14]], [[15, 16], [17, 18, 19]]]
    res = cache_translate(model, docs, beam=1)
    for d, r in zip(docs, res, strict=True):
        for t, hyp in enumerate(r.hypotheses):
            ctx = [sources(d[t - j]) for j in range(1, model.cfg.context_size + 1) if t - j >= 0]
            logits = model(sources(d[t]), torch.tensor([[1, *hyp]]), ctx)
            greedy = logits[0].argmax(-1).tolist()
            assert greedy[: len(hyp)] == hyp


def test_init_loads_the_sentence_model_and_only_context_parts_are_new(corpora, tmp_path):
    s1 = train(tmp_path, "s1", "--stage", "sentence", "--max-steps", "2", "--max-tokens", "256",
               data=corpora["train"])
    args = train_mod.parse_args(["--approach", "cache", "--shorten", "grouping", "--stage", "document", "--src", "xx",
                                 "--tgt", "yy", "--data", str(corpora["train"]), "--out", str(tmp_path / "c"),
                                 "--config", "tiny", "--init", str(s1 / "best.pt"), "--spm", str(s1 / "spm.model"),
                                 "--quiet"])
    tr = approaches.trainer_class("cache")(args)
    stage1, state = read_checkpoint(s1 / "best.pt")["model"], tr.model.state_dict()
    for k, v in stage1.items():
        assert torch.equal(state[k], v), k
    new = set(state) - set(stage1)
    assert new == set(tr.model.new_parameter_names()) == tr.new_params
    assert all(k.startswith(("segment.", "ctx_pos.", "shortener.")) or ".ctx_" in k for k in new)
    assert {g["name"] for g in tr.optimizer.param_groups} == {"pretrained", "new"}


@pytest.mark.parametrize("shorten", ["none", "grouping"])
def test_caching_solves_the_context_task(corpora, shorten):
    """The name is 1-4 sentences before its pronoun in tests/synthetic.py (4 when two fillers and a
    pronoun come between: 4% of cases), so k=4 keeps every name in the cache."""
    run = train(corpora["dir"], f"cache-{shorten}", "--approach", "cache", "--shorten", shorten, "--context-size",
                "4", "--groups", "4", "--stage", "document", "--rows", "16", "--window", "1", "--max-steps", "400",
                data=corpora["train"], dev=corpora["dev"])
    refs, hyps, _, _ = translate_dev(run / "best.pt", corpora["dev"], beam=1)
    acc, n = pronoun_accuracy(refs, hyps)
    print(f"cache ({shorten}) pronoun accuracy {acc:.3f} on {n}")
    assert n > 50 and acc >= 0.9, f"cache ({shorten}) pronoun accuracy {acc:.2f}"
