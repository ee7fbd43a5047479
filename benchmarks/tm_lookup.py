"""Exact-match TM lookup time per sentence at 10 k, 100 k (and 1 M) segments, and the size on disk.

    python -m benchmarks.tm_lookup [SIZES...]     # default: 10000 100000 1000000

For each size: a fresh on-disk store (doctrans.tm.TMStore, a temp folder) filled with that many
synthetic en->de sentence pairs in one transaction; then 2,000 lookups of sentences that are in the
TM (hits) and 2,000 that are not (misses), each a full ``TMStore.lookup`` (key normalisation + one
SQLite primary-key search), timed per call. Prints the median and 99th percentile in microseconds,
the build time and the database size.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from doctrans.tm import TMStore

_TEXT = ("the model reads every sentence of the document in order and writes what it needs into a memory "
         "that later sentences attend to when they are translated one after another by the engine")
WORDS = _TEXT.split(" ")


def sentence(rng: random.Random, i: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 24))).capitalize() + f" ({i})."


def bench(size: int, probes: int = 2000) -> dict[str, float]:
    rng = random.Random(size)
    sources = [sentence(rng, i) for i in range(size)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tm.sqlite"
        store = TMStore(path)
        t0 = time.perf_counter()
        store.add(((s, s.upper()) for s in sources), "en", "de")
        build = time.perf_counter() - t0
        hits = rng.sample(sources, min(probes, size))
        misses = [sentence(rng, size + i) for i in range(probes)]
        times: dict[str, list[float]] = {"hit": [], "miss": []}
        for kind, queries in (("hit", hits), ("miss", misses)):
            for q in queries:
                t = time.perf_counter()
                found = store.lookup(q, "en", "de")
                times[kind].append(time.perf_counter() - t)
                assert (found is not None) == (kind == "hit")
        store.close()
        size_mb = path.stat().st_size / 1e6
    out = {"build_s": build, "mb": size_mb}
    for kind, ts in times.items():
        ts.sort()
        out[f"{kind}_median_us"] = statistics.median(ts) * 1e6
        out[f"{kind}_p99_us"] = ts[int(len(ts) * 0.99)] * 1e6
    return out


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [10_000, 100_000, 1_000_000]
    print("| segments | hit median µs | hit p99 µs | miss median µs | miss p99 µs | build s | size MB |")
    print("|---|---|---|---|---|---|---|")
    for n in sizes:
        r = bench(n)
        print(f"| {n:,} | {r['hit_median_us']:.1f} | {r['hit_p99_us']:.1f} | {r['miss_median_us']:.1f} | "
              f"{r['miss_p99_us']:.1f} | {r['build_s']:.1f} | {r['mb']:.1f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
