"""The engine before and after a change, timed interleaved in one run (issue 18: "keep only what helps").

    python -m benchmarks.engine_ab                          # HEAD vs the working tree, 60 TVsub dev sentences
    python -m benchmarks.engine_ab --before HEAD~1 --sentences 60 --rounds 5 --beams 1 5

On a shared machine absolute times from separate runs compare the neighbours' load, not the code.
Here the ``doctrans`` package of ``--before`` (a git ref, extracted with ``git archive``) and of the
working tree each run in a worker process of their own, both loaded once; every round runs every
cell (bundle x search x beam x one document / documents batched) in both, back to back, in
alternating order, and the ratio before/after is taken per round: the median of those ratios is the
speed-up, the load of the moment cancelling out of each. Both must produce the same token ids for
every sentence of every cell, or the run fails.

Cells: the shipped zh-en int8 bundle (memory on) and, if ``benchmarks.vs_ctranslate2`` has built it,
its sentence-level int8 bundle (memory off); the bundle's own decoding defaults (``model``: n-gram
blocking, length penalty) and CTranslate2's search (``same``: the scoreboard's); one document, and
the sentences cut into 4 documents batched as rows (``translate --batch-docs 4``). Source ids are
fixed in the parent (SentencePiece and masking are outside the timing, as in the scoreboard).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


# -- the worker: one doctrans package, every cell on request --------------------------------------
def _worker(doc_file: str) -> None:
    import numpy as np

    from doctrans.engine.batch import translate_ids_rows
    from doctrans.engine.onnx_engine import OnnxTranslator

    spec = json.loads(Path(doc_file).read_text())
    ids: list[list[int]] = spec["ids"]
    translators: dict[tuple[str, str], Any] = {}

    def translator(bundle: str, search: str) -> Any:
        if (bundle, search) not in translators:
            import inspect

            opts = {"length_penalty": 1.0, "no_repeat_ngram": 0, "max_repeat_run": 0, "new_digits": True,
                    "any_spelling": True, "any_script": True} \
                if search == "same" else {}
            # An older ref's engine may not know the newer options: the same search without them.
            known = inspect.signature(OnnxTranslator.load).parameters
            opts = {k: v for k, v in opts.items() if k in known}
            translators[bundle, search] = OnnxTranslator.load(bundle, src="zh", threads=spec["threads"], **opts)
        return translators[bundle, search]

    def run(bundle: str, search: str, beam: int, docs: int) -> list[list[int]]:
        tr = translator(bundle, search)
        if docs == 1:
            session = tr.new_document(beam_size=beam)
            return [session.translate_ids(np.asarray([x], dtype=np.int64))[0].tokens for x in ids]
        size = -(-len(ids) // docs)
        parts = [ids[k: k + size] for k in range(0, len(ids), size)]
        sessions = [tr.new_document(beam_size=beam) for _ in parts]
        out: list[list[list[int]]] = [[] for _ in parts]
        for i in range(max(map(len, parts))):
            live = [r for r, part in enumerate(parts) if i < len(part)]
            for r, hyp in zip(live, translate_ids_rows([sessions[r] for r in live], [parts[r][i] for r in live]),
                              strict=True):
                out[r].append(hyp.tokens)
        return [t for part in out for t in part]

    import doctrans

    print(json.dumps({"package": str(Path(doctrans.__file__).parent)}), flush=True)
    for line in sys.stdin:
        cell = json.loads(line)
        t = time.perf_counter()
        hyps = run(cell["bundle"], cell["search"], cell["beam"], cell["docs"])
        dt = time.perf_counter() - t
        digest = hashlib.sha256(json.dumps(hyps).encode()).hexdigest()
        print(json.dumps({"seconds": dt, "tokens": sum(len(h) + 1 for h in hyps), "sha": digest}), flush=True)


class Worker:
    def __init__(self, package_root: Path, doc_file: Path, label: str):
        # This file as a script (the ref's benchmarks/ may not have it), its doctrans the ref's.
        env = {**os.environ, "PYTHONPATH": str(package_root)}
        self.label = label
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", str(doc_file)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, cwd=package_root)
        self.package = self._read()["package"]

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} worker died")
        return json.loads(line)

    def run(self, cell: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cell) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def extract(ref: str, dest: Path) -> None:
    """``doctrans/`` of git ref ``ref`` under ``dest`` (a package root)."""
    data = subprocess.run(["git", "archive", "--format=tar", ref, "doctrans"], cwd=REPO, check=True,
                          capture_output=True).stdout
    tar = dest / "src.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as f:
        f.extractall(dest, filter="data")
    # The shipped bundles are large and the same in both: the working tree's are used by path.


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--before", default="HEAD", help="git ref of the 'before' engine (default HEAD)")
    p.add_argument("--sentences", type=int, default=60)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--beams", type=int, nargs="+", default=[1, 5])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--searches", nargs="+", default=["model", "same"], choices=["model", "same"])
    p.add_argument("--docs", type=int, nargs="+", default=[1, 4], help="1 = one document; N = N documents batched")
    p.add_argument("--bundle", type=Path, default=REPO / "doctrans" / "models" / "zh-en-bidirectional")
    p.add_argument("--no-memory-bundle", type=Path, help="a memory-off bundle (default: benchmarks.vs_ctranslate2's "
                   "nomem-int8 of --bundle, if built)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        _worker(args.worker)
        return 0

    from benchmarks.vs_ctranslate2 import _sha, dev_sentences
    from doctrans.engine.onnx_engine import OnnxTranslator

    bundles = {"mem-int8": args.bundle}
    nomem = args.no_memory_bundle or Path.home() / ".cache" / "doctrans-bench" / _sha(args.bundle) / "nomem-int8"
    if (nomem / "model.json").exists():
        bundles["nomem-int8"] = nomem
    tr = OnnxTranslator.load(args.bundle, src="zh", threads=1)
    ids = []
    for s in dev_sentences(args.sentences):
        text = tr.prepare(s).model_text
        if text is not None:
            ids.append(tr.source_ids(text))
    cells = [{"bundle": str(path), "name": name, "search": search, "beam": beam, "docs": docs}
             for name, path in bundles.items() for search in args.searches for beam in args.beams
             for docs in args.docs if not (docs > 1 and name != "mem-int8")]
    with tempfile.TemporaryDirectory(prefix="doctrans-ab-") as tmp:
        root = Path(tmp)
        (root / "before").mkdir()
        extract(args.before, root / "before")
        doc_file = root / "doc.json"
        doc_file.write_text(json.dumps({"ids": ids, "threads": args.threads}))
        workers = {"before": Worker(root / "before", doc_file, "before"), "after": Worker(REPO, doc_file, "after")}
        print(f"before: {args.before} ({workers['before'].package}); after: working tree "
              f"({workers['after'].package}); {len(ids)} sentences, {args.threads} thread(s), {args.rounds} rounds",
              flush=True)
        for cell in cells:  # warm-up (and the identity check once more)
            for w in workers.values():
                w.run(cell)
        times: dict[int, dict[str, list[float]]] = {i: {"before": [], "after": []} for i in range(len(cells))}
        ratios: dict[int, list[float]] = {i: [] for i in range(len(cells))}
        tokens: dict[int, int] = {}
        for r in range(args.rounds):
            for i, cell in enumerate(cells):
                order = ["before", "after"] if (r + i) % 2 == 0 else ["after", "before"]
                got = {k: workers[k].run(cell) for k in order}
                if got["before"]["sha"] != got["after"]["sha"]:
                    raise SystemExit(f"different token ids: {cell}")
                tokens[i] = got["after"]["tokens"]
                for k in order:
                    times[i][k].append(got[k]["seconds"])
                ratios[i].append(got["before"]["seconds"] / got["after"]["seconds"])
        for w in workers.values():
            w.close()
    print("\n| bundle | search | beam | docs | before tok/s | after tok/s | speed-up (median of per-round ratios) |")
    print("|---|---|---|---|---|---|---|")
    for i, cell in enumerate(cells):
        b, a = statistics.median(times[i]["before"]), statistics.median(times[i]["after"])
        q = sorted(ratios[i])
        print(f"| {cell['name']} | {cell['search']} | {cell['beam']} | {cell['docs']} | {tokens[i] / b:,.0f} | "
              f"{tokens[i] / a:,.0f} | {statistics.median(q):.2f}x ({q[0]:.2f}-{q[-1]:.2f}) |")
    print("\nevery cell: identical token ids before and after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
