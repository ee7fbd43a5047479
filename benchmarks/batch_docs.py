"""``doctrans translate --batch-docs N`` on a few real documents: wall time per N and thread count.

    python -m benchmarks.batch_docs                                  # N = 1 2 4 8, 1 and 2 threads, 2 rounds
    python -m benchmarks.batch_docs --batch-docs 1 4 --threads 1 --rounds 3

The documents are real text from the dev splits in ``../shared/data``: the first 16 sentences of
six pydocs documents (Chinese side; one sentence a paragraph) and three 40-line TVsub excerpts
(one subtitle a line), written as .txt files into ``--work``. Each configuration is the whole
command line (``doctrans translate *.txt -o OUT --src zh -q --batch-docs N`` with
``DOCTRANS_THREADS``), so model loading, reading and writing are in the time, as a user sees it;
rounds are interleaved and the median is printed with the ratio to ``--batch-docs 1``. The
outputs of each N are also scored against the references (sacreBLEU, the documents whose output
lines up with its reference sentence by sentence): an int8 model's rounding moves a little with
the other rows of a batch, and this shows whether that changes the quality.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"


def write_documents(folder: Path, data: Path = DATA) -> dict[str, tuple[list[str], str]]:
    """The documents as .txt files; returns name -> (reference sentences, the output's separator)."""
    from training.data import read_documents

    folder.mkdir(parents=True, exist_ok=True)
    refs: dict[str, tuple[list[str], str]] = {}
    pydocs = list(read_documents(data / "pydocs-en-zh" / "dev.jsonl.xz", "zh", "en"))
    for k, doc in enumerate(pydocs[:6]):
        pairs = [(s, t) for s, t in zip(doc.src, doc.tgt, strict=True) if s.strip()][:16]
        (folder / f"pydocs{k}.zh.txt").write_text("\n\n".join(s for s, _ in pairs) + "\n", encoding="utf-8")
        refs[f"pydocs{k}.zh.txt"] = ([t for _, t in pairs], "\n\n")
    tvsub = list(read_documents(data / "tvsub-zh-en" / "dev.jsonl.xz", "zh", "en"))
    for k, (d, start) in enumerate([(0, 0), (1, 0), (1, 300)]):
        pairs = [(s, t) for s, t in zip(tvsub[d].src, tvsub[d].tgt, strict=True) if s.strip()][start:start + 40]
        (folder / f"tvsub{k}.zh.txt").write_text("\n".join(s for s, _ in pairs) + "\n", encoding="utf-8")
        refs[f"tvsub{k}.zh.txt"] = ([t for _, t in pairs], "\n")
    return refs


def bleu(out: Path, refs: dict[str, tuple[list[str], str]]) -> tuple[float, int]:
    import sacrebleu

    hyps: list[str] = []
    wanted: list[str] = []
    for name, (ref, sep) in refs.items():
        lines = [x.strip() for x in (out / name).read_text(encoding="utf-8").strip().split(sep)]
        if len(lines) == len(ref):  # a paragraph the reader joined or split cannot be scored by sentence
            hyps += lines
            wanted += ref
    return sacrebleu.corpus_bleu(hyps, [wanted]).score, len(hyps)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--batch-docs", type=int, nargs="+", default=[1, 2, 4, 8])
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--model", type=Path, default=REPO / "doctrans" / "models" / "zh-en-bidirectional")
    p.add_argument("--work", type=Path, default=Path.home() / ".cache" / "doctrans-bench" / "batch_docs")
    args = p.parse_args(argv)

    refs = write_documents(args.work / "in")
    docs = sorted((args.work / "in").glob("*.txt"))
    times: dict[tuple[int, int], list[float]] = {}
    sentences = 0
    for r in range(args.rounds):
        for t in args.threads:
            for n in args.batch_docs:
                out = args.work / f"out-t{t}-n{n}"
                shutil.rmtree(out, ignore_errors=True)
                env = {**os.environ, "DOCTRANS_THREADS": str(t)}
                cmd = [sys.executable, "-c", "from doctrans.cli import app; app()", "translate", *map(str, docs),
                       "-o", str(out), "--src", "zh", "-q", "--model", str(args.model), "--batch-docs", str(n)]
                t0 = time.perf_counter()
                run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
                seconds = time.perf_counter() - t0
                if run.returncode:
                    print(run.stderr, file=sys.stderr)
                    return run.returncode
                sentences = sum(int(x) for x in re.findall(r"\((\d+) sentences", run.stdout))
                times.setdefault((t, n), []).append(seconds)
                print(f"round {r + 1}: {t} thread(s), --batch-docs {n}: {seconds:.1f} s", file=sys.stderr, flush=True)

    print(f"\n{len(docs)} documents, {sentences} sentences, {args.model.name}; median wall seconds of the whole "
          f"command over {args.rounds} interleaved rounds (speed-up over --batch-docs 1); {os.cpu_count()} cores")
    print("| threads | " + " | ".join(f"--batch-docs {n}" for n in args.batch_docs) + " |")
    print("|---|" + "---|" * len(args.batch_docs))
    for t in args.threads:
        base = statistics.median(times[t, args.batch_docs[0]])
        cells = [statistics.median(times[t, n]) for n in args.batch_docs]
        print(f"| {t} | " + " | ".join(f"{c:.1f} s ({base / c:.2f}x)" for c in cells) + " |")
    t = args.threads[0]
    scores = [bleu(args.work / f"out-t{t}-n{n}", refs) for n in args.batch_docs]
    print(f"\nsacreBLEU ({scores[0][1]} sentences that line up with their references), {t} thread(s): " +
          ", ".join(f"--batch-docs {n}: {s:.1f}" for n, (s, _) in zip(args.batch_docs, scores, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
