"""MODEL_CARD.md and model.json scores of the bidirectional bundle a device run brought back.

    python -m training.device_parts join /path/to/files_at -o ~/runs/device_result
    python -m training.device_card ~/runs/device_result --notes notes.md   # writes into bundle_int8/

Every number is read from what the run returned (training/device_run.py packs it): the bundle's
model.json, the training logs of stage 1, stage 2 and the token-matched control (``logs/*.log.jsonl``),
the run's own log (``logs/device_run.log``: hardware, commands, where the minutes went) and the
dev scores (``scores/``: s-BLEU/d-BLEU of each system on each dev split in both directions, the
paired bootstrap and the memory probe). So the card cannot drift from the measurement; ``--notes``
appends the hand-written interpretation.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from pathlib import Path

from doctrans.bundle_manifest import BundleManifest, set_scores
from doctrans.errors import UserError
from training.model_card import PAUSE_S, attached, read_scores

SPLITS = {"tvsub-zh-en": "TVsub dev (subtitles)", "pydocs-en-zh": "pydocs dev (Python library reference)",
          "django-en-zh": "Django dev (web-framework documentation)"}
DIRECTIONS = ("zh-en", "en-zh")
SYSTEMS = [("s1c", "sentence-level baseline: stage 1 continued on as many target tokens as stage 2 read"),
           ("s2", "memory model (stage 2)"),
           ("s2_nomem", "memory model with its memory switched off at inference"),
           ("previous", "the bundle shipped before this run, same engine")]
STAGES = [("s1", "stage 1, sentence level, both directions, from scratch"),
          ("s2", "stage 2, memory fine-tuning (Feng et al. 2022 settings), from stage 1"),
          ("s1c", "control: stage 1 continued at sentence level, same target tokens as stage 2")]
LICENCE = ("**TVsub is research-only (CC BY-NC-ND 4.0) and this model inherits that restriction**; pydocs is "
           "under the PSF licence, Django's documentation under its BSD licence.")


def read_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def stage_summary(log: list[dict]) -> str:
    """Steps, target tokens, minutes of training, throughput and the best dev loss of one stage."""
    if not log:
        return "not run"
    steps = max(r["step"] for r in log)
    tokens = max((r.get("tokens_seen", 0) for r in log), default=0)
    seconds = sum(b - a for a, b in itertools.pairwise(r["time"] for r in log) if b - a < PAUSE_S)
    speed = [r["tok_per_s"] for r in log if "tok_per_s" in r]
    evals = [(r["eval"]["dev_loss"], r["step"]) for r in log if "eval" in r]
    text = f"{steps:,} steps, {tokens / 1e6:,.1f}M target tokens, {seconds / 60:.1f} min"
    if speed:  # a stage stopped before its first log line has no speed to give
        text += f", {sum(speed) / len(speed):,.0f} target tok/s"
    if evals:
        loss, step = min(evals)
        text += f"; best dev loss {loss:.3f} at step {step:,}"
    if any(r.get("stopped") for r in log):
        text += f" (stopped: {next(r['stopped'] for r in log if r.get('stopped'))})"
    return text


def run_facts(device_log: str) -> dict[str, str]:
    """Hardware, data weights and the time of each phase, from device_run.log."""
    facts: dict[str, str] = {}
    if m := re.search(r"python (\S+), torch (\S+), cuda (\w+)(?: \((.+)\))?", device_log):
        facts["hardware"] = f"{m.group(4) or 'CPU'}, PyTorch {m.group(2)}, Python {m.group(1)}"
    if m := re.search(r"--data ((?:\S+\.npz:\d+ ?)+)", device_log):
        facts["weights"] = ", ".join(f"{Path(p).name.split('.')[0]} ×{w}"
                                     for p, w in (x.rsplit(":", 1) for x in m.group(1).split()))
    if m := re.search(r"stage 1 continues (\S+)", device_log):
        facts["continues"] = f"`{m.group(1)}` (its weights read back from the graphs, int8 dequantized)"
    phases: dict[str, float] = {}
    for name, seconds in re.findall(r"phase (\w+) done in (\d+) s", device_log):
        phases[name] = phases.get(name, 0) + float(seconds)
    if phases:
        facts["phases"] = ", ".join(f"{k} {v / 60:.1f} min" for k, v in phases.items())
        facts["total"] = f"{sum(phases.values()) / 60:.1f} min"
    return facts


def score_section(scores: Path, baseline: str | None = None) -> tuple[list[str], dict[str, float]]:
    """A table per dev split (both directions side by side), the bootstrap and probe tables, and
    the shipped (memory model) scores for model.json. ``baseline``: what the s1c rows really are,
    where the run's control is not the token-matched one."""
    labels = {**dict(SYSTEMS), **({"s1c": baseline} if baseline else {})}
    lines: list[str] = []
    shipped: dict[str, float] = {}
    for split, title in SPLITS.items():
        got = {(s, d): read_scores(scores / f"{s}.{split}.{d}.json") for s, _ in SYSTEMS for d in DIRECTIONS}
        if not any(got.values()):
            continue
        lines += [f"### {title}", "", "| model | zh→en s-BLEU | zh→en d-BLEU | en→zh s-BLEU | en→zh d-BLEU |",
                  "|---|---|---|---|---|"]
        for system, _ in SYSTEMS:
            if not any(got[(system, d)] for d in DIRECTIONS):
                continue  # not scored (a first run has no previous bundle; a cut-short one no control)
            label = labels[system]
            cells = []
            for d in DIRECTIONS:
                sc = got[(system, d)]
                cells += [f"{sc['s_bleu']:.2f}", f"{sc['d_bleu']:.2f}"] if sc else ["—", "—"]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
        for d in DIRECTIONS:
            mem = got[("s2", d)]
            if not mem:
                continue
            key = f"{split.split('-')[0]}_dev_{d.replace('-', '_')}"
            shipped[f"{key}_s_bleu"] = round(mem["s_bleu"], 2)
            shipped[f"{key}_d_bleu"] = round(mem["d_bleu"], 2)
            for other, what in (("s1c", "memory vs baseline"), ("s2_nomem", "memory on vs off"),
                                ("previous", "this bundle vs the previous one")):
                if base := got[(other, d)]:
                    lines.append(f"- {d.replace('-', '→')}: {what} {mem['s_bleu'] - base['s_bleu']:+.2f} s-BLEU, "
                                 f"{mem['d_bleu'] - base['d_bleu']:+.2f} d-BLEU over {mem['n_sentences']:,} "
                                 f"sentences; sacreBLEU `{mem['signature']}`.")
        lines.append("")
        for d in DIRECTIONS:
            arrow = d.replace("-", "→")
            lines += attached(scores / f"significance.{split}.{d}.md",
                              f"Paired bootstrap {arrow}, baseline vs memory model (`training/significance.py`):")
            lines += attached(scores / f"significance_nomem.{split}.{d}.md",
                              f"Paired bootstrap {arrow}, memory off vs on (`training/significance.py`):")
            lines += attached(scores / f"significance_previous.{split}.{d}.md",
                              f"Paired bootstrap {arrow}, the previous bundle vs this one "
                              "(`training/significance.py`):")
            lines += attached(scores / f"probe.{split}.{d}.md",
                              f"Memory probe {arrow} (`training/memory_probe.py`): teacher-forced dev loss of the "
                              "memory model with its own memory, another document's, the initial one and none; "
                              "the baseline for reference:")
    return lines, shipped


SCORED = "`training/evaluate.py` on the run's PyTorch checkpoints, beam as in docs/gpu_run.md"


def write_card(result: Path, notes: str = "", bundle: Path | None = None, baseline: str | None = None,
               scored: str = SCORED) -> str:
    bundle = bundle or result / "bundle_int8"
    meta = BundleManifest.read(bundle).to_json()
    m, mem = meta["model"], meta["memory"]
    device_log = (result / "logs" / "device_run.log").read_text(encoding="utf-8") \
        if (result / "logs" / "device_run.log").exists() else ""
    facts = run_facts(device_log)
    size = sum(f.stat().st_size for f in bundle.iterdir() if f.is_file() and f.name != "MODEL_CARD.md")
    directions = ", ".join(f"{d['src']}→{d['tgt']}" for d in meta.get("directions", [])) \
        or f"{meta['src_lang']}→{meta['tgt_lang']}"
    scores, shipped = score_section(result / "scores", baseline)
    lines = [f"# Built-in model: {directions}", "",
             "One model for both directions, document level with a recurrent memory (Feng et al. 2022): the "
             "target language is a tag before the source (`<2en>`, `<2zh>`), numbers, codes and other verbatim "
             "spans reach it as placeholders it learned to copy.", "",
             "| | |", "|---|---|",
             f"| architecture | Transformer {m['enc_layers']}+{m['dec_layers']} layers, d_model {m['d_model']}, "
             f"FFN {m['d_ff']}, {m['n_heads']} heads, pre-norm, tied embeddings; memory of {mem['slots']} slots on "
             f"the {' and '.join(mem['sides'])} side(s) |",
             f"| vocabulary | joint SentencePiece, {m['vocab_size']:,} pieces, byte fallback, `<2xx>` tags and "
             "placeholders `⦅1⦆…⦅16⦆` as user symbols |",
             f"| data | TVsub zh–en (2,959 episodes), pydocs en–zh (488 pages), Django en–zh (154 pages), both "
             f"directions; up-sampling {facts.get('weights', 'see device_run.log')}. {LICENCE} |"]
    labels = dict(STAGES)
    if "continues" in facts:  # device_run --init-bundle: stage 1 started from the shipped model
        labels["s1"] = f"stage 1, sentence level, both directions, continuing {facts['continues']}"
    lines += [f"| {labels[name]} | {stage_summary(read_log(result / 'logs' / f'{name}.log.jsonl'))} |"
              for name, _ in STAGES]
    lines += [f"| hardware | {facts.get('hardware', 'not recorded')} |",
              f"| device time | {facts.get('total', '?')} of training, export and checks "
              f"({facts.get('phases', 'phases not recorded')}; scoring and machine starts not included) |",
              f"| bundle | {meta.get('quantization') or 'fp32'} ONNX, {size / 1e6:.1f} MB |",
              "| recipe | `training/recipes/device_run.sh`, explained in `docs/gpu_run.md` |", "",
              f"## Dev scores ({scored})",
              "", *scores]
    if notes:
        lines += [notes.strip(), ""]
    set_scores(bundle, shipped)
    card = "\n".join(lines)
    (bundle / "MODEL_CARD.md").write_text(card, encoding="utf-8")
    return card


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("result", type=Path, help="the joined device result (bundle_int8/, scores/, logs/)")
    p.add_argument("--bundle", type=Path, help="write into this bundle instead of RESULT/bundle_int8")
    p.add_argument("--notes", type=Path, help="markdown appended to the card (interpretation, weaknesses)")
    p.add_argument("--baseline", help="the baseline rows' label, where they are not the token-matched control")
    p.add_argument("--scored", help="how the dev scores were made, where not by the device's score phase")
    a = p.parse_args(argv)
    extra = {k: v for k, v in (("baseline", a.baseline), ("scored", a.scored)) if v}
    try:
        print(write_card(a.result, a.notes.read_text(encoding="utf-8") if a.notes else "", a.bundle, **extra))
    except (OSError, KeyError, ValueError, UserError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
