"""Train every document-level approach on the same corpus with the same budget, then score them.

    python -m benchmarks.doc_approaches_train --out runs/approaches_syn          # the synthetic task
    python -m benchmarks.doc_approaches_train --out runs/approaches_ende --src en --tgt de \\
        --data ../shared/data/ende-small/train.jsonl.xz --dev ../shared/data/ende-small/dev.jsonl.xz \\
        --init runs/ende_s1/best.pt --spm runs/ende_s1/spm.model --steps 300 --eval-docs 20

Everything goes through ``training.train`` (``--approach``) and ``training.evaluate`` (s-BLEU,
d-BLEU with sacreBLEU's signature); this script only loops over the approaches and prints a
markdown table (dev s-BLEU, d-BLEU, pronoun accuracy on the synthetic task, parameters, training
wall time). Without ``--data`` it writes the synthetic pronoun corpus of ``tests/synthetic.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch

from training import evaluate as evaluate_mod
from training import train as train_mod
from training.checkpoint import load_model

# name -> extra training flags; all share the corpus, tokenizer, steps, LR and seed.
APPROACHES: dict[str, list[str]] = {
    "sentence-level": ["--approach", "memory", "--mem-side", "none"],
    "memory (both sides)": ["--approach", "memory", "--mem-side", "both"],
    "G-Transformer": ["--approach", "gtransformer"],  # --rows from --gt-rows: instances, not sentences
    "cache tokens k=4": ["--approach", "cache", "--shorten", "none", "--context-size", "4"],
    "grouping k=4": ["--approach", "cache", "--shorten", "grouping", "--context-size", "4", "--groups", "4"],
    "mean-pool k=4": ["--approach", "cache", "--shorten", "mean", "--context-size", "4"],
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--data")
    p.add_argument("--dev")
    p.add_argument("--src", default="xx")
    p.add_argument("--tgt", default="yy")
    p.add_argument("--config", default="tiny")
    p.add_argument("--init", help="stage-1 sentence-level checkpoint to start every approach from")
    p.add_argument("--spm")
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--lr", default="3e-3")
    p.add_argument("--lr-new", default="3e-3")
    p.add_argument("--beam", type=int, default=1)
    p.add_argument("--eval-docs", type=int, help="score only the first N dev documents")
    p.add_argument("--only", nargs="+", choices=list(APPROACHES), help="train only these")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--gt-rows", default="4",
                   help="G-Transformer instances per step (synthetic: 4 documents ~ the 16 sentences of the others; "
                        "a real 512-token instance holds ~25 sentences, so use 1 there)")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    a.out.mkdir(parents=True, exist_ok=True)
    synthetic = a.data is None
    if synthetic:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests.synthetic import write_corpus

        a.data = str(write_corpus(a.out / "train.jsonl", 600, seed=1))
        a.dev = str(write_corpus(a.out / "dev.jsonl", 40, seed=2))
    common = ["--stage", "document", "--src", a.src, "--tgt", a.tgt, "--data", a.data, "--dev", a.dev,
              "--config", a.config, "--vocab-size", "320" if synthetic else "8000", "--rows", "16", "--window", "1",
              "--lr", a.lr, "--lr-new", a.lr_new, "--warmup", "50", "--max-steps", str(a.steps), "--eval-every",
              str(max(1, a.steps // 3)), "--log-every", "100", "--seed", "3", "--threads", str(a.threads), "--quiet"]
    if a.init:
        common += ["--init", a.init]
    if a.spm:
        common += ["--spm", a.spm]
    rows = []
    for name, extra in APPROACHES.items():
        if a.only and name not in a.only:
            continue
        out = a.out / name.split(" (")[0].replace(" ", "_").replace("=", "")
        if name == "G-Transformer":
            extra = [*extra, "--rows", a.gt_rows]
        t0 = time.time()
        assert train_mod.main([*common, *extra, "--out", str(out)]) == 0, name
        seconds = time.time() - t0
        loaded = load_model(out / "best.pt")
        params = sum(p.numel() for p in loaded.model.parameters())
        scores, hyps = evaluate_mod.evaluate(out / "best.pt", a.dev, a.src, a.tgt, beam=a.beam, max_docs=a.eval_docs)
        row = {"approach": name, "s_bleu": scores.s_bleu, "d_bleu": scores.d_bleu, "params": params,
               "train_s": seconds, "steps": a.steps, "dev_loss": loaded.raw["metrics"].get("dev_loss")}
        if synthetic:
            from tests.synthetic import pronoun_accuracy

            refs = [json.loads(line)[a.tgt] for line in Path(a.dev).read_text().splitlines()][: len(hyps)]
            row["pronoun_acc"] = pronoun_accuracy(refs, hyps)[0]
        rows.append(row)
        print(json.dumps(row), flush=True)
    results = a.out / "results.json"
    if a.only and results.exists():  # keep the other approaches' rows from an earlier run
        rows = [r for r in json.loads(results.read_text()) if r["approach"] not in a.only] + rows
        rows.sort(key=lambda r: list(APPROACHES).index(r["approach"]))
    results.write_text(json.dumps(rows, indent=1))
    print(f"\n| approach | dev s-BLEU | dev d-BLEU | dev loss |{' pronoun acc. |' if synthetic else ''} "
          "parameters | training time |")
    print(f"|---|---|---|---|{'---|' if synthetic else ''}---|---|")
    for r in rows:
        acc = f" {100 * r['pronoun_acc']:.1f}% |" if synthetic else ""
        print(f"| {r['approach']} | {r['s_bleu']:.1f} | {r['d_bleu']:.1f} | {r['dev_loss']:.3f} |{acc} "
              f"{r['params'] / 1e6:.3f}M | {r['train_s']:.0f} s ({r['steps']} steps) |")
    print(f"\nsacreBLEU: {scores.signature} [{scores.scoring}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
