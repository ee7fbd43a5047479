"""The GPU run of the zh<->en model, phase by phase; each phase fits one device command (< 10 min).

    python -m training.device_run verify s1 --budget 500     # what arrived, then stage 1
    python -m training.device_run s1 --budget 540            # stage 1 again: resumes where it stopped
    python -m training.device_run s2 s1c --budget 300        # memory stage, then its control
    python -m training.device_run export score               # int8 bundle + scores into $OUT

(training/recipes/device_run.sh wraps these with the device's set-up; it documents the whole
device session.) Every phase leaves its state under ``--runs`` for the next one and can be
re-run: a training phase resumes from its ``last.pt``, the others redo their work.

- ``verify``: what travelled (sizes), Python/torch/CUDA/GPU, the token cache against its
  manifest (sha256), the packages the later phases import.
- ``s1``: stage 1, sentence level, both directions of every corpus (training.prepare_data's
  cache), up-sampled by ``--weights``; stops cleanly inside ``--budget`` seconds.
- ``s2``: stage 2 from ``s1/best.pt`` as Feng et al. 2022 ran it (their public code): 16 slots, memory
  on the top layer of each side, LR 3e-4 for the new parameters and 6e-5 for the pre-trained ones,
  memory dropout 0.3, one optimizer step per document window (1..4 sentences), the memory
  detached between windows and the previous sentence's states not detached.
- ``s1c``: the control: ``s1/best.pt`` continued at sentence level with the pre-trained LR of s2
  on as many target tokens as s2 read (``--max-target-tokens``), so s2 vs s1c isolates the memory.
- ``export``: ``s2/best.pt`` -> verified fp32 -> int8 bundle (export.bundle's parity checks),
  packed into ``$OUT`` at once (training.device_parts), so the bundle comes back even if scoring is cut.
- ``weights``: the fallback when ``export`` fails there: s2's weights in fp16 packed into ``$OUT``,
  exported here (``doctrans export``).
- ``score``: dev s-BLEU/d-BLEU (beam 5) of s2, s2 with the memory off and s1c on every dev split
  in both directions (in parallel processes), paired bootstrap s2 vs s1c, the memory probe (own vs
  another document's memory) on TVsub dev; logs and scores packed into ``$OUT``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

PHASES = ("verify", "s1", "s2", "s1c", "export", "score", "weights")
CORPORA = ("tvsub-zh-en", "pydocs-en-zh", "django-en-zh")
LANGS = ("zh", "en")
SHARE = {"s1": 1.0, "s2": 2.0, "s1c": 1.0}  # how training phases in one call split its budget
# What the phases import beyond torch (verify imports them all before any training).
PHASE_MODULES = ("export.bundle", "training.device_parts", "training.evaluate", "training.memory_probe",
                 "training.significance", "training.train")


@dataclass
class Plan:
    cache: Path
    runs: Path
    out: Path
    config: str
    budget: float
    weights: dict[str, int]
    max_tokens: int
    rows: int
    s1_steps: int
    s1_lr: float
    s1_warmup: int
    s1_schedule: str
    init_bundle: Path | None
    s2_steps: int
    eval_every: int
    compile: bool
    jobs: int
    beam: int
    max_sentences: int | None
    device: str | None
    threads: int | None

    def run_dir(self, name: str) -> Path:
        return self.runs / name

    def corpora(self) -> list[str]:
        return [c for c in CORPORA if (self.cache / f"{c}.train.npz").exists()]


def say(msg: str) -> None:
    print(f"[device_run {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# -- phases ------------------------------------------------------------------------------------

def verify(plan: Plan) -> None:
    import torch

    from training.prepare_data import verify as verify_cache

    root = Path.cwd()
    say(f"working tree {root}: {_du(root) / 2**20:.1f} MiB, cache {plan.cache}: {_du(plan.cache) / 2**20:.1f} MiB")
    say(f"python {sys.version.split()[0]}, torch {torch.__version__}, cuda {torch.cuda.is_available()}"
        + (f" ({torch.cuda.get_device_name(0)})" if torch.cuda.is_available() else ""))
    problems = verify_cache(plan.cache)
    if problems:
        raise SystemExit("error: " + "; ".join(problems))
    manifest = json.loads((plan.cache / "manifest.json").read_text())
    say(f"cache verified: vocabulary {manifest['vocab_size']}, files {', '.join(manifest['files'])}, "
        f"placeholder masking {manifest.get('masking')}")
    missing = []
    # The later phases' own modules, so that a package they import and the image lacks is found
    # here, not after stage 1 (pypinyin, through the exporter's parity checks, was in stop 36).
    for module in (*PHASE_MODULES, "onnx", "onnxruntime", "sentencepiece", "sacrebleu", "sacremoses", "numpy"):
        try:
            __import__(module)
        except ImportError as e:
            missing.append(e.name or module)
    if missing:
        raise SystemExit(f"error: missing packages on this machine: {', '.join(missing)} (carry wheels)")
    plan.runs.mkdir(parents=True, exist_ok=True)
    say(f"runs in {plan.runs}, results to {plan.out}")


def _du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def _data_args(plan: Plan) -> list[str]:
    train = [f"{plan.cache / f'{c}.train.npz'}:{plan.weights.get(c, 1)}" for c in plan.corpora()]
    dev = [str(plan.cache / f"{c}.dev.npz") for c in plan.corpora() if (plan.cache / f"{c}.dev.npz").exists()]
    return ["--src", LANGS[0], "--tgt", LANGS[1], "--bidirectional", "--data", *train, "--dev", *dev,
            "--spm", str(plan.cache / "spm.model")]


def _common(plan: Plan, out: Path, budget: float, eval_every: int | None = None) -> list[str]:
    from training.trainer import process_start_time

    # train's --time-budget counts from the process start; phases run one after another in this
    # process, so this phase's share is added to the time already spent.
    budget += time.time() - process_start_time()
    every = str(eval_every or plan.eval_every)
    args = ["--out", str(out), "--time-budget", f"{budget:.0f}", "--eval-every", every, "--save-every", every,
            "--log-every", "25", "--patience", "1000"]
    if plan.compile:
        args.append("--compile")
    if plan.device:
        args += ["--device", plan.device]
    if plan.threads:
        args += ["--threads", str(plan.threads)]
    if (out / "last.pt").exists():
        args.append("--resume")
    return args


def _train(argv: list[str]) -> None:
    from training.train import main as train_main

    say("python -m training.train " + " ".join(argv))
    rc = train_main(argv)
    if rc != 0:
        raise SystemExit(f"error: training exited with {rc}")


def stage1(plan: Plan, budget: float) -> None:
    out = plan.run_dir("s1")
    common = _common(plan, out, budget)
    init: list[str] = []
    if plan.init_bundle is not None and "--resume" not in common:
        init = ["--init", str(continued_from(plan))]
    _train(["--stage", "sentence", "--config", plan.config, *_data_args(plan), *common, *init,
            "--max-tokens", str(plan.max_tokens), "--lr", str(plan.s1_lr), "--warmup", str(plan.s1_warmup),
            "--schedule", plan.s1_schedule, "--max-steps", str(plan.s1_steps)])


def continued_from(plan: Plan) -> Path:
    """Stage 1's starting point when a run continues a shipped bundle (``--init-bundle``): its
    weights read back out of the ONNX graphs (training.from_bundle; int8 dequantized), sentence
    level. A device session has 15 minutes: each one continues the model the last one shipped
    instead of starting again from nothing."""
    from training.checkpoint import save_checkpoint
    from training.from_bundle import checkpoint_from_bundle

    assert plan.init_bundle is not None
    init = plan.runs / "init_from_bundle.pt"
    payload = checkpoint_from_bundle(plan.init_bundle)
    cache_pieces = json.loads((plan.cache / "manifest.json").read_text())["vocab_size"]
    if payload["config"]["vocab_size"] != cache_pieces:
        raise SystemExit(f"error: {plan.init_bundle} has {payload['config']['vocab_size']} pieces, the cache "
                         f"{cache_pieces}: build the cache with the bundle's spm.model (prepare_data --spm)")
    save_checkpoint(init, payload)
    say(f"stage 1 continues {plan.init_bundle} ({payload['config']['d_model']}-wide, read back from its graphs)")
    return init


def stage2(plan: Plan, budget: float) -> None:
    out = plan.run_dir("s2")
    init = plan.run_dir("s1") / "best.pt"
    # A stage-2 dev loss walks the dev documents sentence by sentence (the memory loop), ~1,700
    # forward passes for the six (split, direction) pairs: evaluate half as often as stage 1.
    _train(["--stage", "document", *_data_args(plan), *_common(plan, out, budget, 2 * plan.eval_every),
            "--init", str(init),
            "--mem-side", "both", "--mem-slots", "16", "--mem-layers", "-1", "--mem-dropout", "0.3",
            "--rows", str(plan.rows), "--window", "4", "--lr", "6e-5", "--lr-new", "3e-4", "--warmup", "200",
            "--max-steps", str(plan.s2_steps)])


def tokens_read(run: Path) -> int:
    """Target tokens a run has trained on, from its log (the control reads as many)."""
    total = 0
    for line in (run / "log.jsonl").read_text().splitlines():
        rec = json.loads(line)
        total = max(total, int(rec.get("tokens_seen", 0)))
    return total


def control(plan: Plan, budget: float) -> None:
    out = plan.run_dir("s1c")
    tokens = tokens_read(plan.run_dir("s2"))
    say(f"control: s1 continued at sentence level for the {tokens:,} target tokens s2 read")
    _train(["--stage", "sentence", *_data_args(plan), *_common(plan, out, budget),
            "--init", str(plan.run_dir("s1") / "best.pt"), "--max-tokens", str(plan.max_tokens),
            "--lr", "6e-5", "--warmup", "200", "--max-steps", str(plan.s2_steps * 100),
            "--max-target-tokens", str(tokens)])


def export(plan: Plan) -> None:
    from export.bundle import export_checkpoint
    from training.device_parts import pack

    bundle = plan.runs / "bundle_int8"
    report = export_checkpoint(plan.run_dir("s2") / "best.pt", bundle, "int8", log=say)
    (plan.runs / "export_report.txt").write_text(report.summary() + "\n")
    # The logs travel with the bundle: a 15-minute session never reaches the score phase, and
    # stop 38's card had to be pieced together from the 12,000 characters of output that came back.
    m = pack(plan.out, {"bundle_int8": bundle, "logs": collect_logs(plan)}, name="bundle")
    say(f"bundle packed into {plan.out}: {m['bytes'] / 2**20:.1f} MiB in {len(m['parts'])} parts")


def weights(plan: Plan) -> None:
    """The fallback when ``export`` fails there: s2's model weights in fp16 (no optimizer, data
    order or RNG state: 60 MB for ``deep``, where the whole best.pt is ~350 MB), packed into $OUT
    (64 MiB at most), for ``doctrans export`` here (the int8 bundle loses nothing to the fp16 copy).
    Stop 36 brought its model back this way when the device's exporter failed."""
    import torch

    from training.checkpoint import read_checkpoint
    from training.device_parts import pack

    folder = plan.runs / "weights"
    folder.mkdir(exist_ok=True)
    ckpt = read_checkpoint(plan.run_dir("s2") / "best.pt")
    kept = {k: v for k, v in ckpt.items() if k not in ("optimizer", "scheduler", "data_state", "rng")}
    kept["model"] = {n: t.half() if t.is_floating_point() else t for n, t in ckpt["model"].items()}
    torch.save(kept, folder / "s2.pt")
    m = pack(plan.out, {"weights": folder}, name="weights")
    say(f"s2 weights (fp16) packed into {plan.out}: {m['bytes'] / 2**20:.1f} MiB in {len(m['parts'])} parts")


def _evaluate_job(job: tuple) -> tuple[str, str]:
    """One (system, corpus, direction) scoring, in a worker process; returns (key, score line)."""
    import torch

    from training.evaluate import evaluate

    ckpt, data, src, tgt, beam, no_memory, device, max_sentences, threads, out = job
    torch.set_num_threads(threads)
    scores, hyps = evaluate(ckpt, data, src, tgt, beam=beam, no_memory=no_memory, device=device,
                            max_sentences=max_sentences)
    Path(out + ".hyp").write_text("\n\n".join("\n".join(d) for d in hyps) + "\n", encoding="utf-8")
    Path(out + ".json").write_text(json.dumps(scores.__dict__, indent=1))
    return out, scores.line()


def score(plan: Plan) -> None:
    from training.device_parts import pack

    scores_dir = plan.runs / "scores"
    scores_dir.mkdir(parents=True, exist_ok=True)
    device = plan.device or ("cuda" if _cuda() else "cpu")
    systems = {"s2": (plan.run_dir("s2") / "best.pt", False), "s2_nomem": (plan.run_dir("s2") / "best.pt", True),
               "s1c": (plan.run_dir("s1c") / "best.pt", False)}
    threads = plan.threads or max(1, (os.cpu_count() or 1) // plan.jobs)
    jobs = []
    for corpus in plan.corpora():
        data = plan.cache / f"{corpus}.dev.jsonl.xz"
        for src, tgt in (LANGS, LANGS[::-1]):
            for name, (ckpt, nomem) in systems.items():
                out = str(scores_dir / f"{name}.{corpus}.{src}-{tgt}")
                jobs.append((str(ckpt), str(data), src, tgt, plan.beam, nomem, device, plan.max_sentences, threads,
                             out))
    say(f"scoring {len(jobs)} (system, dev split, direction) on {device} with {plan.jobs} processes")
    if plan.jobs > 1:
        # fork: workers inherit the imported modules (no torch import each), unless this process
        # already initialised CUDA (an earlier phase in the same call), which a fork cannot share.
        torch = sys.modules.get("torch")
        method = "spawn" if torch is not None and torch.cuda.is_initialized() else "fork"
        with ProcessPoolExecutor(plan.jobs, mp_context=multiprocessing.get_context(method)) as pool:
            results = list(pool.map(_evaluate_job, jobs))
    else:
        results = [_evaluate_job(j) for j in jobs]
    for out, line in results:
        say(f"{Path(out).name}: {line}")
    _compare(plan, scores_dir)
    m = pack(plan.out, {"scores": scores_dir, "logs": collect_logs(plan)}, name="logs")
    say(f"scores and logs packed into {plan.out} ({m['bytes'] / 2**10:.0f} KiB)")


def collect_logs(plan: Plan) -> Path:
    """The stages' log.jsonl, the export report and device_run.log in one folder (a few hundred
    KiB), for training.device_card."""
    logs = plan.runs / "logs"
    logs.mkdir(exist_ok=True)
    for run in ("s1", "s2", "s1c"):
        if (plan.run_dir(run) / "log.jsonl").exists():
            shutil.copyfile(plan.run_dir(run) / "log.jsonl", logs / f"{run}.log.jsonl")
    for extra in ("export_report.txt", "device_run.log"):
        if (plan.runs / extra).exists():
            shutil.copyfile(plan.runs / extra, logs / extra)
    return logs


def _compare(plan: Plan, scores_dir: Path) -> None:
    """Paired bootstrap s2 vs s1c per split and direction; the memory probe on TVsub dev."""
    from training import memory_probe, significance

    for corpus in plan.corpora():
        data = str(plan.cache / f"{corpus}.dev.jsonl.xz")
        for src, tgt in (LANGS, LANGS[::-1]):
            tag = f"{corpus}.{src}-{tgt}"
            base, new = scores_dir / f"s1c.{tag}.hyp", scores_dir / f"s2.{tag}.hyp"
            if plan.max_sentences is None and base.exists() and new.exists():
                with (scores_dir / f"significance.{tag}.md").open("w") as f, redirect_stdout(f):
                    significance.main([str(base), str(new), "--data", data, "--src", src, "--tgt", tgt])
            if corpus == "tvsub-zh-en":
                args = [str(plan.run_dir("s2") / "best.pt"), str(plan.run_dir("s1c") / "best.pt"), "--data", data,
                        "--src", src, "--tgt", tgt, "--json", str(scores_dir / f"probe.{tag}.json")]
                with (scores_dir / f"probe.{tag}.md").open("w") as f, redirect_stdout(f):
                    memory_probe.main(args)


def _cuda() -> bool:
    # Asked in a child process so that this one never initialises CUDA before forking workers.
    probe = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    return subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0


# -- driver ------------------------------------------------------------------------------------

def parse_args(argv: list[str] | None) -> tuple[list[str], Plan]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("phases", nargs="+", choices=PHASES)
    p.add_argument("--cache", type=Path, default=Path(".device/cache"), help="training.prepare_data's output")
    p.add_argument("--runs", type=Path, default=Path(os.environ.get("DOCTRANS_RUNS", "/tmp/doctrans_runs")))
    p.add_argument("--out", type=Path, default=Path(os.environ["OUT"]) if os.environ.get("OUT") else None,
                   help="where results are packed (the device's $OUT)")
    p.add_argument("--config", default="deep", help="model size of stage 1 (training.model.CONFIGS)")
    p.add_argument("--budget", type=float, default=540, help="seconds for the training phases of this call")
    p.add_argument("--weights", nargs="*", default=["tvsub-zh-en=1", "pydocs-en-zh=3", "django-en-zh=3"],
                   help="up-sampling per corpus, NAME=N")
    p.add_argument("--max-tokens", type=int, default=32000, help="stage 1 / control: tokens per batch")
    p.add_argument("--rows", type=int, default=256, help="stage 2: document streams per step")
    p.add_argument("--s1-steps", type=int, default=20000, help="stage 1 LR schedule length")
    p.add_argument("--s1-lr", type=float, default=1e-3)
    p.add_argument("--s1-warmup", type=int, default=1000)
    p.add_argument("--s1-schedule", choices=["inv_sqrt", "cosine"], default="inv_sqrt",
                   help="cosine: decays to 0 at --s1-steps (a continuation that should end annealed)")
    p.add_argument("--init-bundle", type=Path, help="stage 1 continues this bundle (the shipped model) instead "
                   "of starting from nothing; its vocabulary must be the cache's")
    p.add_argument("--s2-steps", type=int, default=4000, help="stage 2 LR schedule length")
    p.add_argument("--eval-every", type=int, default=500)
    p.add_argument("--compile", action="store_true", help="torch.compile the training model")
    p.add_argument("--jobs", type=int, default=6, help="score: parallel processes")
    p.add_argument("--beam", type=int, default=5)
    p.add_argument("--max-sentences", type=int, help="score: only the first N sentences per split (rehearsals)")
    p.add_argument("--device", help="torch device (default: cuda if available)")
    p.add_argument("--threads", type=int, help="torch CPU threads (rehearsals on a busy CPU: 1)")
    a = p.parse_args(argv)
    weights = {}
    for item in a.weights:
        name, _, n = item.partition("=")
        weights[name] = int(n)
    out = a.out or a.runs / "out"
    return a.phases, Plan(a.cache, a.runs, out, a.config, a.budget, weights, a.max_tokens, a.rows, a.s1_steps,
                          a.s1_lr, a.s1_warmup, a.s1_schedule, a.init_bundle, a.s2_steps, a.eval_every, a.compile,
                          a.jobs, a.beam, a.max_sentences, a.device, a.threads)


def main(argv: list[str] | None = None) -> int:
    t0 = time.time()
    phases, plan = parse_args(argv)
    plan.runs.mkdir(parents=True, exist_ok=True)
    training_phases = [p for p in phases if p in SHARE]
    for phase in phases:
        # The call's budget is shared by its training phases, in order (s2 is the costly one);
        # the other phases take what they take.
        left = plan.budget - (time.time() - t0)
        share = left
        if phase in training_phases:
            share = left * SHARE[phase] / sum(SHARE[p] for p in training_phases)
            training_phases.remove(phase)
        say(f"phase {phase} (budget {share:.0f} s)")
        t = time.time()
        if phase in SHARE:
            {"s1": stage1, "s2": stage2, "s1c": control}[phase](plan, share)
        else:
            {"verify": verify, "export": export, "score": score, "weights": weights}[phase](plan)
        say(f"phase {phase} done in {time.time() - t:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
