"""Does the memory carry document context? Teacher-forced dev loss under controlled memories.

    python -m training.memory_probe runs/zh_en/s2/best.pt runs/zh_en/s1c/best.pt \\
        --data ../shared/data/tvsub-zh-en/dev.jsonl.xz --src zh --tgt en --json probe.json

BLEU differences of a few tenths cannot tell "the memory is not used" from "the memory is used but
does not help". This probe scores the reference translation of every dev sentence (cross-entropy
per target token, no smoothing) with the same memory model under four memories:

- ``carried``  the memory written by the previous sentences of the same document (normal use);
- ``foreign``  the memory written, sentence by sentence, by a *different* document (the rows are
  rotated by one), so it is a real memory at the same depth but about the wrong context;
- ``initial``  the learned start memory M_0 at every sentence (context of length zero);
- ``none``     no memory read at all (the stage-1 architecture inside the stage-2 weights).

If the memory carries document context, ``carried`` must beat ``foreign`` at the same position;
``initial`` vs ``carried`` mixes that with how the memory's depth matters. Losses are reported per
position of the sentence in its document, because context can only help from the second sentence
on. A sentence-level checkpoint given alongside gets its plain loss (``none``) for reference.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import sentencepiece as spm
import torch

from training.checkpoint import CheckpointError, load_model
from training.data import DataError, TokenizedCorpus, collate, folder_and_name, tokenize_corpus
from training.model import MemoryTransformer
from training.token_cache import tag_source

CONDITIONS = ("carried", "foreign", "initial", "none")
# Sentence positions (0-based, within the document) grouped for the report: the first sentence has
# no context at all, so every memory condition must agree there.
BUCKETS = ((0, 1), (1, 5), (5, 20), (20, 100), (100, 10**9))


def bucket_name(lo: int, hi: int) -> str:
    return f"{lo + 1}" if hi == lo + 1 else (f"{lo + 1}+" if hi >= 10**9 else f"{lo + 1}-{hi}")


@dataclass
class Tally:
    """Summed loss and token counts per position bucket."""
    loss: np.ndarray = field(default_factory=lambda: np.zeros(len(BUCKETS)))
    tokens: np.ndarray = field(default_factory=lambda: np.zeros(len(BUCKETS), dtype=np.int64))

    def add(self, position: int, loss: float, tokens: int) -> None:
        b = next(i for i, (lo, hi) in enumerate(BUCKETS) if lo <= position < hi)
        self.loss[b] += loss
        self.tokens[b] += tokens

    def per_token(self) -> dict[str, float]:
        out = {bucket_name(lo, hi): float(self.loss[i] / self.tokens[i])
               for i, (lo, hi) in enumerate(BUCKETS) if self.tokens[i]}
        later = self.tokens[1:].sum()
        out["all"] = float(self.loss.sum() / self.tokens.sum())
        if later:
            out["2+"] = float(self.loss[1:].sum() / later)
        return out


def _row_losses(logits: torch.Tensor, tgt_out: torch.Tensor, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-row summed cross-entropy and token counts."""
    ce = torch.nn.functional.cross_entropy(logits.float().transpose(1, 2), tgt_out, ignore_index=pad,
                                           reduction="none")
    return ce.sum(dim=1).numpy(), (tgt_out != pad).sum(dim=1).numpy()


@torch.no_grad()
def probe(model: MemoryTransformer, corpus: TokenizedCorpus, conditions: tuple[str, ...] = CONDITIONS
          ) -> dict[str, Tally]:
    """Loss of every dev sentence under each memory condition (all documents as rows at once).

    A sentence-level model (no memory sides) only has the ``none`` condition.
    """
    cfg = model.cfg
    if not cfg.sides:
        conditions = ("none",)
    if "foreign" in conditions and corpus.n_documents < 2:
        raise DataError("the foreign-memory condition needs at least two documents")
    docs = range(corpus.n_documents)
    starts = [int(corpus.doc_offsets[d]) for d in docs]
    lengths = [int(corpus.doc_offsets[d + 1]) - s for d, s in zip(docs, starts, strict=True)]
    tallies = {c: Tally() for c in conditions}
    carried = model.init_memory(len(starts)) if cfg.sides else {}
    initial = dict(carried)
    for t in range(max(lengths)):
        idx = [s + t if t < n else None for s, n in zip(starts, lengths, strict=True)]
        b = collate(corpus, idx, cfg.pad_id, cfg.bos_id, cfg.eos_id)
        src, tgt_in, tgt_out = (torch.from_numpy(a) for a in (b.src, b.tgt_in, b.tgt_out))
        memories = {"carried": carried, "initial": initial, "none": None,
                    # Row r reads the memory of row r-1: another document at the same depth (a
                    # document that already ended keeps its last memory, as `carried` does).
                    "foreign": {k: v.roll(1, dims=0) for k, v in carried.items()}}
        updated = carried
        for c in conditions:
            logits, new = model(src, tgt_in, memories[c])
            if c == "carried":
                updated = new
            loss, tokens = _row_losses(logits, tgt_out, cfg.pad_id)
            for r, i in enumerate(idx):
                if i is not None:
                    tallies[c].add(t, float(loss[r]), int(tokens[r]))
        if cfg.sides:
            # Rows whose document has ended keep their memory (no padding sentence written in).
            active = torch.tensor([i is not None for i in idx])[:, None, None, None]
            carried = {k: torch.where(active, updated[k], carried[k]) for k in carried}
    return tallies


def report(results: dict[str, dict[str, dict[str, float]]]) -> str:
    """A markdown table: one row per (checkpoint, condition), one column per position bucket."""
    cols = [bucket_name(lo, hi) for lo, hi in BUCKETS] + ["2+", "all"]
    present = [c for c in cols if any(c in v for r in results.values() for v in r.values())]
    lines = ["| model | memory | " + " | ".join(f"sent. {c}" for c in present) + " |",
             "|---|---|" + "---|" * len(present)]
    for name, by_condition in results.items():
        for cond, values in by_condition.items():
            cells = [f"{values[c]:.4f}" if c in values else "" for c in present]
            lines.append(f"| {name} | {cond} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoints", nargs="+", help="memory model first; sentence-level baselines may follow")
    p.add_argument("--data", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--tgt", required=True)
    p.add_argument("--max-docs", type=int)
    p.add_argument("--raw", action="store_true", help="keep Moses-tokenized English as it is (by default it "
                   "is untokenized, as for the dev loss: training.moses_text)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--json", type=Path, help="write the per-token losses here")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    results: dict[str, dict[str, dict[str, float]]] = {}
    try:
        for path in a.checkpoints:
            loaded = load_model(path, require="memory")
            sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
            prefix = loaded.source_prefix(sp, a.src, a.tgt)
            corpus = tokenize_corpus(a.data, a.src, a.tgt, lambda xs, sp=sp: sp.encode(xs),
                                     loaded.config.max_len, a.max_docs, untokenize=not a.raw)
            if prefix:  # a bidirectional model reads the target-language tag first
                corpus = tag_source(corpus, prefix[0], loaded.config.max_len)
            assert isinstance(loaded.model, MemoryTransformer)  # load_model(require='memory')
            tallies = probe(loaded.model, corpus)
            results[folder_and_name(path)] = {c: t.per_token() for c, t in tallies.items()}
    except (CheckpointError, DataError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"cross-entropy per target token (nats), teacher-forced, {a.data}, by sentence position:")
    print(report(results))
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
