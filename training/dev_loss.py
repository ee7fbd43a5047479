"""Dev loss of saved checkpoints, measured now (e.g. after the dev reading changed).

    python -m training.dev_loss runs/zh_en/s2_ckpt/*.pt --dev ../shared/data/tvsub-zh-en/dev.jsonl.xz \\
        ../shared/data/pydocs-en-zh/dev.jsonl.xz --src zh --tgt en --json runs/zh_en/s2/dev_loss.json

The same quantity training logs at each evaluation (``training.trainer.dev_loss``: cross-entropy
per target token, no smoothing, documents in order through the memory for a memory model; dev
splits read untokenized) per corpus, and over all of them weighted by target tokens -- the number
that picks best.pt. Checkpoint selection can then be checked, or redone, on one scale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import sentencepiece as spm
import torch

from training.checkpoint import CheckpointError, load_model
from training.data import DataError, folder_and_name, tokenize_corpus
from training.model import MemoryTransformer
from training.token_cache import tag_source
from training.trainer import dev_loss


def checkpoint_dev_loss(path: str | Path, devs: list[str], src: str, tgt: str) -> dict[str, float]:
    """{"step": .., "dev_loss": combined, "dev_loss[<corpus>]": ..} of one checkpoint."""
    loaded = load_model(path, require="memory")
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    with_memory = bool(loaded.config.sides) and loaded.raw.get("stage") == "document"
    out: dict[str, float] = {"step": loaded.raw.get("step", -1)}
    total, tokens = 0.0, 0
    for dev in devs:
        prefix = loaded.source_prefix(sp, src, tgt)
        corpus = tokenize_corpus(dev, src, tgt, lambda xs: sp.encode(xs), loaded.config.max_len, untokenize=True)
        if prefix:
            corpus = tag_source(corpus, prefix[0], loaded.config.max_len)
        assert isinstance(loaded.model, MemoryTransformer)  # load_model(require='memory')
        loss, n = dev_loss(loaded.model, corpus, with_memory, "cpu")
        out[f"dev_loss[{folder_and_name(dev)}]"] = loss / n
        total, tokens = total + loss, tokens + n
    out["dev_loss"] = total / tokens
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoints", nargs="+")
    p.add_argument("--dev", nargs="+", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--tgt", required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--json", type=Path, help="write {checkpoint: losses} here")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    results = {}
    try:
        for path in a.checkpoints:
            results[path] = r = checkpoint_dev_loss(path, a.dev, a.src, a.tgt)
            print(f"{path}: step {r['step']}  " + "  ".join(f"{k} {v:.4f}" for k, v in r.items() if k != "step"),
                  flush=True)
    except (CheckpointError, DataError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
