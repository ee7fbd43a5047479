"""Write a shipped bundle's MODEL_CARD.md and model.json scores from the runs that made it.

    python -m training.model_card doctrans/models/zh-en --runs ~/runs --notes notes.md

Every number in the card is read from the run directories of ``training/recipes/default_models.sh``
(checkpoint hyper-parameters, log.jsonl, the dev-score JSONs of training/evaluate.py), so the card
cannot drift from what was measured. ``--notes`` appends the hand-written part: what the numbers
mean, known weaknesses.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import torch

from doctrans.bundle_manifest import BundleManifest, set_scores
from doctrans.errors import UserError

CORPORA = {"tvsub-zh-en": "TVsub dev (2 episodes, 1,086 subtitle lines)",
           "pydocs-en-zh": "pydocs dev (10 library-reference pages, 1,094 paragraphs)"}
SCORE_KEYS = {"tvsub-zh-en": "tvsub_dev", "pydocs-en-zh": "pydocs_dev"}
PAUSE_S = 600  # a gap this long between two log lines is a stopped run, not training time

DATA_LINE = ("TVsub zh–en train, first 800 of 2,959 episodes (624k subtitle pairs, weight 1) + pydocs en–zh "
             "train, all 488 pages (64k paragraph pairs, up-sampled x2). **TVsub is research-only (CC BY-NC-ND "
             "4.0) and this model inherits that restriction**; pydocs is under the PSF licence.")


@dataclass
class Stage:
    label: str
    run: Path

    def summary(self) -> str:
        ckpt = torch.load(self.run / "best.pt", map_location="cpu", weights_only=False)
        args = ckpt["args"]
        log = [json.loads(line) for line in (self.run / "log.jsonl").read_text().splitlines() if line.strip()]
        steps = max(r["step"] for r in log)
        times = [r["time"] for r in log]
        seconds = sum(b - a for a, b in itertools.pairwise(times) if b - a < PAUSE_S)
        speed = [r["tok_per_s"] for r in log if "tok_per_s" in r]
        hp = [f"LR {args['lr']}" + (f" (memory {args['lr_new']})" if args.get("stage") == "document" else ""),
              f"warm-up {args['warmup']}"]
        if args.get("stage") == "document":
            hp.append(f"{args['rows']} document streams, window {args['window']}")
        else:
            hp.append(f"{args['max_tokens']} tokens/batch")
        text = (f"{steps:,} steps, {seconds / 60:.0f} min, {sum(speed) / max(1, len(speed)):,.0f} target tok/s; "
                + ", ".join(hp) + f"; best.pt = step {ckpt['step']}")
        loss = self.dev_loss_at(ckpt["step"], log)
        return text + (f", dev loss {loss}" if loss else "")

    def dev_loss_at(self, step: int, log: list[dict]) -> str | None:
        """The combined dev loss of ``step``: re-measured on one scale (training/dev_loss.py) when
        the run has it, else as logged."""
        rescored = self.run / "dev_loss.json"
        if rescored.exists():
            for r in json.loads(rescored.read_text()).values():
                if r["step"] == step:
                    return f"{r['dev_loss']:.3f} (untokenized dev, `training/dev_loss.py`)"
        logged = [r["eval"]["dev_loss"] for r in log if "eval" in r and r["step"] == step]
        return f"{logged[-1]:.3f}" if logged else None


def read_scores(path: Path) -> dict | None:
    """The JSON training/evaluate.py wrote (s_bleu, d_bleu, signature, scoring...), or None."""
    return json.loads(path.read_text()) if path.exists() else None


def score_table(runs: Path, direction: str) -> tuple[list[str], dict[str, float]]:
    d = runs / direction.replace("-", "_")
    rows = [("sentence-level baseline (stage 1 continued on the stage-2 data, no memory), PyTorch", d / "s1c", ""),
            ("memory model (stage 2), PyTorch", d / "s2", ""),
            ("memory model with its memory switched off at inference", d / "s2", ".nomem"),
            ("memory model, ONNX int8 bundle (**shipped**)", d / "bundle_int8", "")]
    # The memory-side ablation, where it was run (same steps and data as stage 2, one side only).
    rows += [(f"ablation: memory on the {side} side only, PyTorch", d / f"s2_{side}", "")
             for side in ("src", "tgt") if (d / f"s2_{side}").is_dir()]
    lines, shipped = [], {}
    for corpus, title in CORPORA.items():
        lines += [f"### {title}", "", "| model | s-BLEU | d-BLEU |", "|---|---|---|"]
        got = [read_scores(run / f"dev.{corpus}{tag}.json") for _, run, tag in rows]
        base, mem, final = got[0], got[1], got[3]
        for (label, _, _), sc in zip(rows, got, strict=True):
            lines.append(f"| {label} | " + (f"{sc['s_bleu']:.2f} | {sc['d_bleu']:.2f} |" if sc else "not measured | |"))
        if base and mem:
            lines += ["", f"Memory vs baseline: {mem['s_bleu'] - base['s_bleu']:+.2f} s-BLEU, "
                          f"{mem['d_bleu'] - base['d_bleu']:+.2f} d-BLEU."]
        if mem:
            lines += ["", f"sacreBLEU `{mem['signature']}`; {mem['scoring']}."]
        lines.append("")
        lines += attached(d / "s2" / f"significance.{corpus}.md", "Paired bootstrap, baseline vs memory model "
                          "(`training/significance.py`):")
        lines += attached(d / "s2" / f"probe.{corpus}.md", "Memory probe (`training/memory_probe.py`): "
                          "teacher-forced dev loss of the memory model with its own memory, another document's, "
                          "the initial one and none; the baseline for reference:")
        if final:
            shipped[f"{SCORE_KEYS[corpus]}_s_bleu"] = round(final["s_bleu"], 2)
            shipped[f"{SCORE_KEYS[corpus]}_d_bleu"] = round(final["d_bleu"], 2)
    return lines, shipped


def attached(path: Path, title: str) -> list[str]:
    """A markdown table a recipe step wrote (``tee``), under ``title``; nothing if it was not run."""
    if not path.exists():
        return []
    body = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    return [title, "", *body, ""]


def stages_for(runs: Path, direction: str) -> list[Stage]:
    d = runs / direction.replace("-", "_")
    if direction == "zh-en":
        first = [Stage("stage 1a, sentence level, TVsub only, from scratch", runs / "tvsub_s1"),
                 Stage("stage 1b, sentence level, TVsub + pydocs, from 1a", d / "s1b")]
    else:
        first = [Stage("stage 1, sentence level, TVsub + pydocs, warm start from the zh→en stage 1a", d / "s1")]
    return [*first,
            Stage("stage 2, memory fine-tuning (both sides), TVsub only, from stage 1(b)", d / "s2"),
            Stage("baseline: stage 1(b) continued at sentence level on TVsub (as many target tokens as "
                  "stage 2 reads in its steps)", d / "s1c")]


def write_card(bundle: Path, runs: Path, notes: str) -> str:
    meta = BundleManifest.read(bundle).to_json()
    direction = f"{meta['src_lang']}-{meta['tgt_lang']}"
    m, mem = meta["model"], meta["memory"]
    size = sum(f.stat().st_size for f in bundle.iterdir() if f.is_file() and f.name != "MODEL_CARD.md")
    table, shipped = score_table(runs, direction)
    names = {"zh": "Chinese", "en": "English"}
    lines = [f"# {meta['src_lang']}→{meta['tgt_lang']} built-in model (CPU-trained)", "",
             f"{names.get(meta['src_lang'], meta['src_lang'])} → {names.get(meta['tgt_lang'], meta['tgt_lang'])}, "
             "document level with a recurrent memory (Feng et al. 2022). **Trained on 2 CPU cores only: no "
             "accelerator was available to this work.** A small model trained for a few hours of CPU: it shows the "
             "whole pipeline and gives rough translations; it is not a production translator.", "",
             "| | |", "|---|---|",
             f"| architecture | Transformer {m['enc_layers']}+{m['dec_layers']} layers, d_model {m['d_model']}, "
             f"FFN {m['d_ff']}, {m['n_heads']} heads, pre-norm, tied embeddings; memory of {mem['slots']} slots on "
             f"the {' and '.join(mem['sides'])} side(s), layers {mem['layers']} |",
             f"| vocabulary | joint SentencePiece unigram, {m['vocab_size']:,} pieces, byte fallback (TVsub + pydocs, "
             "both languages) |",
             f"| data | {DATA_LINE} |"]
    lines += [f"| {s.label} | {s.summary()} |" for s in stages_for(runs, direction)]
    lines += ["| hardware | 2 CPU cores (x86-64), PyTorch 2.13 CPU, one thread per run, two runs side by side |",
              f"| bundle | {meta.get('quantization') or 'fp32'} ONNX, {size / 1e6:.1f} MB |",
              f"| recipe | `bash training/recipes/default_models.sh {direction}` (after `tvsub_zh_en.sh` for zh→en) |",
              "", "## Dev scores (beam 5, same evaluation code for every row: `training/evaluate.py`)", "", *table]
    if notes:
        lines += [notes.strip(), ""]
    set_scores(bundle, shipped)
    card = "\n".join(lines)
    (bundle / "MODEL_CARD.md").write_text(card)
    return card


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Write MODEL_CARD.md and model.json scores of a bundle.")
    p.add_argument("bundle", type=Path)
    p.add_argument("--runs", type=Path, default=Path.home() / "runs")
    p.add_argument("--notes", type=Path, help="markdown appended to the card (interpretation, weaknesses)")
    a = p.parse_args(argv)
    try:
        print(write_card(a.bundle, a.runs, a.notes.read_text() if a.notes else ""))
    except (OSError, KeyError, ValueError, UserError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
