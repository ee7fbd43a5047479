"""A tiny SMDT model trained on a task only the retrieved pair can solve, for the export and engine tests.

Source and target are independent random word sequences (the "translation" of a sentence is
arbitrary), so a model that reads the sentence alone cannot know it; each training sentence comes
with a retrieved pair whose source is the sentence with one word changed (a fuzzy match, as a TM
gives it) and whose target is the sentence's own target. The model learns to copy the retrieved
target; a fifth of the instances have no pair (as in training when BM25 finds nothing). Test
sentences are new, so copying is the only way to their targets: the TM pair must reach the model.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path

import torch

from tests.tiny_model import _workdir
from training.checkpoint import LoadedModel
from training.model import CONFIGS, label_smoothed_loss
from training.smdt import SMDT, SMDTConfig, instance_source, stack_sources
from training.spm import train_spm


@dataclass(frozen=True)
class Example:
    source: str
    target: str
    tm_source: str  # the TM's fuzzy match of ``source``: one word changed, same target

    def tm_pair(self) -> tuple[str, str]:
        return self.tm_source, self.target


# One-letter words: SentencePiece keeps each as one piece ("▁q"), so a target is 4-5 pieces.
WORDS = tuple("abcdefghijklmnopqrstuvwxyz")


def examples(n: int, seed: int) -> list[Example]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        src = [rng.choice(WORDS) for _ in range(rng.randint(5, 7))]
        tgt = [rng.choice(WORDS) for _ in range(1)]
        near = list(src)
        at = rng.randrange(len(near))
        near[at] = rng.choice([w for w in WORDS if w != near[at]])  # never the sentence itself
        out.append(Example(" ".join(src) + " .", " ".join(tgt) + " .", " ".join(near) + " ."))
    return out


def build(out: Path, steps: int = 400, rows: int = 24, lr: float = 3e-3, seed: int = 0) -> LoadedModel:
    """SentencePiece + an fp32 tiny SMDT model (k = 1) trained ``steps`` steps on the copy task."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: one thread beats two on a shared CPU
    try:
        return _build(out, steps, rows, lr, seed)
    finally:
        torch.set_num_threads(threads)


def _build(out: Path, steps: int, rows: int, lr: float, seed: int) -> LoadedModel:
    import sentencepiece as spm

    train = examples(2000, seed)
    spm_path = train_spm([s for e in train for s in (e.source, e.target)], out / "spm", vocab_size=320)
    sp = spm.SentencePieceProcessor(model_file=str(spm_path))
    cfg = SMDTConfig(**{**CONFIGS["tiny"], "vocab_size": len(sp), "sep_id": sp.piece_to_id("<sep>"),
                        "word_dropout": 0.0, "max_len": 64, "doc_max_len": 64})
    torch.manual_seed(seed)
    model = SMDT(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    enc = [(sp.encode(e.source), sp.encode(e.target), sp.encode(e.tm_source)) for e in train]
    rng = random.Random(seed)
    model.train()
    for _ in range(steps):
        batch = rng.sample(enc, rows)
        sources = [instance_source([x], [[(near, y)] if rng.random() < 0.8 else []], cfg) for x, y, near in batch]
        src, pos, meta = (torch.from_numpy(a) for a in stack_sources(sources, cfg.pad_id))
        width = max(len(y) for _, y, _ in batch) + 1
        tin = torch.tensor([[cfg.bos_id, *y] + [cfg.pad_id] * (width - len(y) - 1) for _, y, _ in batch])
        tout = torch.tensor([[*y, cfg.eos_id] + [cfg.pad_id] * (width - len(y) - 1) for _, y, _ in batch])
        loss = label_smoothed_loss(model(src, pos, meta, tin), tout, cfg.pad_id, 0.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    return LoadedModel(model, cfg, spm_path.read_bytes(), "en", "xx", {"step": steps, "config": cfg.to_dict()})


@functools.cache
def shared_copy_model() -> LoadedModel:
    """The trained copy-task model, built once per test run."""
    return build(_workdir() / "smdt_copy")
