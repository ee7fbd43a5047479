"""A real tiny checkpoint for export/engine tests and benchmarks: SentencePiece + briefly trained model.

The task is synthetic (target = the source words in reverse order), enough for the model to learn
to stop with EOS after a few hundred CPU steps, so greedy/beam decoding behaves like a trained
model (peaked distributions, sentences that end) instead of random argmaxes that run to the
length limit. Memory is trained too (document streams, memory detached between sentences), so the
memory weights are not just their initialisation.

The bidirectional variant (:func:`shared_bidi_checkpoint`) is a toy zh<->en model: sentences of the
same words in English and in Chinese (a word-for-word dictionary), both directions trained into one
model with the target-language tag (``<2en>``/``<2zh>``) before the source, as the real
bidirectional checkpoints are; ``directions`` is set, so the export writes it into model.json.
"""

from __future__ import annotations

import atexit
import functools
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

from training.checkpoint import save_checkpoint
from training.model import MemoryTransformer, label_smoothed_loss, make_config
from training.spm import train_spm

_WORDS = ("the cat dog sees a house tree small big red blue runs jumps over under near green old new bird "
          "fish eats sleeps quickly slowly with and on in")
WORDS = tuple(_WORDS.split())
# The toy Chinese side: one word per English word (written without spaces, like Chinese).
_ZH = "这 猫 狗 看见 一个 房子 树 小 大 红 蓝 跑 跳 越过 下面 附近 绿 老 新 鸟 鱼 吃 睡觉 快 慢 和 并且 上 里"
ZH_WORDS = dict(zip(WORDS, _ZH.split(), strict=True))
BIDI_DIRECTIONS = [["zh", "en"], ["en", "zh"]]


def synthetic_corpus(n: int, seed: int = 0) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(3, 7))]
        pairs.append((" ".join(words) + " .", " ".join(reversed(words)) + " ."))
    return pairs


def sentences(n: int = 6, seed: int = 123) -> list[str]:
    """A test document (source side)."""
    return [s for s, _ in synthetic_corpus(n, seed)]


def to_chinese(sentence: str) -> str:
    """A :func:`sentences` sentence in the toy Chinese of the bidirectional model."""
    return "".join(ZH_WORDS.get(w, "") for w in sentence.split()) + "。"


def bidi_corpus(n: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """(source, target, tag) examples of both directions, half each: zh->en tagged <2en>, en->zh <2zh>."""
    out = []
    for i, (en, _) in enumerate(synthetic_corpus(n, seed)):
        zh = to_chinese(en)
        out.append((zh, en, "<2en>") if i % 2 else (en, zh, "<2zh>"))
    return out


def build_checkpoint(out: Path, *, steps: int = 80, streams: int = 8, lr: float = 5e-3, mem_side: str = "both",
                     config: str = "tiny", seed: int = 0, bidirectional: bool = False,
                     corpus: list[tuple[str, str]] | None = None, langs: tuple[str, str] | None = None,
                     **overrides) -> Path:
    """Train SentencePiece and a model briefly; write ``out`` (a checkpoint like train.py's).
    ``bidirectional``: the toy zh<->en model with direction tags (see the module docstring).
    ``corpus``/``langs``: another one-direction task (e.g. :func:`placeholder_corpus`) and its
    (src, tgt) languages, instead of the word-reversal task."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: one thread is faster than two fighting over a shared CPU
    try:
        return _build(out, steps, streams, lr, mem_side, config, seed, bidirectional, overrides, corpus, langs)
    finally:
        torch.set_num_threads(threads)


def _build(out: Path, steps: int, streams: int, lr: float, mem_side: str, config: str, seed: int,
           bidirectional: bool, overrides: dict, corpus: list[tuple[str, str]] | None = None,
           task_langs: tuple[str, str] | None = None) -> Path:
    torch.manual_seed(seed)
    examples = bidi_corpus(400, seed) if bidirectional else [(s, t, None) for s, t in synthetic_corpus(400, seed)]
    if corpus is not None:
        examples = [(s, t, None) for s, t in corpus]
    # The Chinese characters need room beside the 256 byte pieces and the user symbols.
    spm_path = train_spm([s for src, tgt, _ in examples for s in (src, tgt)], out.parent / f"{out.stem}_spm",
                         vocab_size=420 if bidirectional or corpus is not None else 320)
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(spm_path))
    cfg = make_config(config, vocab_size=len(sp), mem_side=mem_side, **overrides)
    model = MemoryTransformer(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    # The tag goes before the source, as the engine feeds it: [<2xx>] + pieces + [EOS].
    enc = [([*([sp.piece_to_id(tag)] if tag else []), *sp.encode(s), cfg.eos_id], [cfg.bos_id, *sp.encode(t)],
            [*sp.encode(t), cfg.eos_id]) for s, t, tag in examples]
    # A document stream stays in one direction (a document is in one language).
    groups = [enc[0::2], enc[1::2]] if bidirectional else [enc]

    def pad(rows: list[list[int]]) -> torch.Tensor:
        w = max(len(r) for r in rows)
        return torch.tensor([r + [cfg.pad_id] * (w - len(r)) for r in rows])

    per_doc = 3  # document streams of 3 sentences per step
    model.train()
    for step in range(steps):
        rng = random.Random(step)
        batch = [rng.sample(rng.choice(groups) if len(groups) > 1 else enc, per_doc) for _ in range(streams)]
        memory = model.init_memory(streams) if cfg.sides else None
        loss = torch.tensor(0.0)
        for t in range(per_doc):
            src, tin, tout = (pad([b[t][i] for b in batch]) for i in range(3))
            logits, memory = model(src, tin, memory)
            loss = loss + label_smoothed_loss(logits, tout, cfg.pad_id, 0.0)
            if memory is not None:
                memory = {k: v.detach() for k, v in memory.items()}
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    langs = {"src_lang": "zh", "tgt_lang": "en", "directions": BIDI_DIRECTIONS} if bidirectional else \
        {"src_lang": "en", "tgt_lang": "xx"}
    if task_langs is not None:
        langs = {"src_lang": task_langs[0], "tgt_lang": task_langs[1]}
    save_checkpoint(out, {"model": model.state_dict(), "config": cfg.to_dict(), "spm": spm_path.read_bytes(),
                          **langs, "stage": "doc", "step": steps,
                          "metrics": {"train_loss": float(loss.detach()) / per_doc}})
    return out


_tmp: Path | None = None


def _workdir() -> Path:
    """One temp dir per test run for the shared artefacts (removed at exit)."""
    global _tmp
    if _tmp is None:
        _tmp = Path(tempfile.mkdtemp(prefix="doctrans-tiny-"))
        atexit.register(shutil.rmtree, _tmp, True)
    return _tmp


@functools.cache
def shared_checkpoint() -> Path:
    """The trained tiny checkpoint, built once per test run and shared by test modules."""
    return build_checkpoint(_workdir() / "tiny.pt")


@functools.cache
def shared_bundle() -> Path:
    """The fp32 bundle exported (and verified) from :func:`shared_checkpoint`."""
    from export.bundle import export_checkpoint  # keep importing this module cheap

    out = _workdir() / "bundle"
    export_checkpoint(shared_checkpoint(), out, sentences=sentences())
    return out


@functools.cache
def shared_bidi_checkpoint() -> Path:
    """The toy bidirectional zh<->en checkpoint (directions, tags), built once per test run."""
    return build_checkpoint(_workdir() / "bidi.pt", steps=120, bidirectional=True)


@functools.cache
def shared_bidi_bundle() -> Path:
    """The fp32 bundle exported (and verified in both directions) from :func:`shared_bidi_checkpoint`."""
    from export.bundle import export_checkpoint

    out = _workdir() / "bidi-bundle"
    doc = sentences(3)
    export_checkpoint(shared_bidi_checkpoint(), out, sentences=[*doc, *map(to_chinese, doc)], beam=2)
    return out


def placeholder_corpus(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """The toy en->zh task of a model that copies verbatim placeholders: English words to their toy
    Chinese word for word, in order, with 0-3 placeholders ``⦅1⦆``, ``⦅2⦆``... among the words,
    copied to the same place on the target side -- the pairs as doctrans.verbatim.mask writes a
    sentence with numbers, URLs or identifiers in it (training masks real pairs the same way)."""
    from doctrans.verbatim import placeholder

    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        words: list[str | int] = [rng.choice(WORDS) for _ in range(rng.randint(2, 6))]
        for _k in range(rng.choice((0, 1, 1, 2, 2, 3))):
            words.insert(rng.randint(0, len(words)), 0)
        k = 0
        src, tgt = [], []
        for w in words:
            if isinstance(w, int):
                k += 1
                src.append(placeholder(k))
                tgt.append(placeholder(k))
            else:
                src.append(w)
                tgt.append(ZH_WORDS[w])
        pairs.append((" ".join(src) + " .", "".join(tgt) + "。"))
    return pairs


@functools.cache
def shared_placeholder_checkpoint() -> Path:
    """The toy en->zh model whose vocabulary has the placeholder pieces and which learned to copy
    them (:func:`placeholder_corpus`), built once per test run."""
    return build_checkpoint(_workdir() / "placeholders.pt", steps=PLACEHOLDER_STEPS, corpus=placeholder_corpus(600),
                            langs=("en", "zh"))


PLACEHOLDER_STEPS = 300


@functools.cache
def shared_placeholder_bundle() -> Path:
    """The fp32 bundle exported (and verified) from :func:`shared_placeholder_checkpoint`."""
    from export.bundle import export_checkpoint

    out = _workdir() / "placeholder-bundle"
    export_checkpoint(shared_placeholder_checkpoint(), out, sentences=[s for s, _ in placeholder_corpus(3, 7)],
                      beam=2)
    return out


@pytest.fixture(autouse=True, scope="module")
def one_torch_thread() -> Iterator[None]:
    """Run PyTorch on one thread in the export/engine tests (import this fixture to use it).

    The tiny model's matrices are too small to split, and on a shared 2-core runner two torch
    threads spin against the other processes: the PyTorch reference search ran 20x slower.
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
