"""TM lookup time per sentence at 10 k, 100 k (and 1 M) segments, exact and fuzzy, and the size on disk.

    python -m benchmarks.tm_lookup [SIZES...]     # default: 10000 100000 1000000

The segments are real English sentences (the English side of ../shared/data's TVsub, pydocs and
Django training files, deduplicated; $DOCTRANS_DATA points elsewhere) with a running number
appended where more are needed than the corpora hold; without the corpora, synthetic sentences
over a 5,000-word made-up lexicon. For each size: a fresh on-disk store (doctrans.tm.TMStore, a
temp folder) filled with that many en->de pairs in one transaction; then

- exact: 2,000 lookups of sentences in the TM (hits) and 2,000 not (misses), each a full
  ``TMStore.lookup`` (key normalisation + one SQLite primary-key search);
- fuzzy: the fuzzy index built (timed), then 500 ``TMStore.fuzzy`` lookups of stored sentences
  with one word changed (their original should come back first: "recall@1", over the probes
  whose original still scores at least the 70 % threshold) and 500 of sentences not in the TM.

Prints the median and 99th percentile in microseconds, the build times and the database size
before and after the fuzzy index.
"""

from __future__ import annotations

import json
import lzma
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from doctrans.tm import DEFAULT_THRESHOLD, TMStore, normalise_key
from doctrans.tm.fuzzy import score

_TEXT = ("the model reads every sentence of the document in order and writes what it needs into a memory "
         "that later sentences attend to when they are translated one after another by the engine")
WORDS = _TEXT.split(" ")


def sentence(rng: random.Random, i: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 24))).capitalize() + f" ({i})."


def _lexicon(rng: random.Random, n: int = 5000) -> list[str]:
    letters = "etaoinshrdlucmfwypvbgkjqxz"
    return ["".join(rng.choice(letters[:18] if j % 2 else letters) for j in range(rng.randint(2, 10)))
            for _ in range(n)]


def corpus_sentences(limit: int) -> list[str]:
    """Up to ``limit`` distinct English sentences of 20-200 characters from the shared corpora."""
    data = Path(os.environ.get("DOCTRANS_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"))
    seen: dict[str, None] = {}
    for name in ("tvsub-zh-en", "pydocs-en-zh", "django-en-zh"):
        f = data / name / "train.jsonl.xz"
        if not f.exists():
            continue
        with lzma.open(f, "rt", encoding="utf-8") as lines:
            for line in lines:
                for s in json.loads(line)["en"]:
                    if 20 <= len(s) <= 200:
                        seen.setdefault(s.strip(), None)
                if len(seen) >= limit:
                    return list(seen)
    return list(seen)


def make_sources(size: int, rng: random.Random, pool: list[str]) -> list[str]:
    if not pool:
        lexicon = _lexicon(rng)
        pool = [" ".join(rng.choice(lexicon) for _ in range(rng.randint(6, 20))).capitalize() + "."
                for _ in range(min(size, 200_000))]
    if size <= len(pool):
        return rng.sample(pool, size)
    return pool + [f"{rng.choice(pool)[:-1]} ({i})." for i in range(size - len(pool))]


def one_word_changed(rng: random.Random, s: str) -> str:
    words = s.split(" ")
    i = rng.randrange(len(words))
    words[i] = "different" if words[i] != "different" else "other"
    return " ".join(words)


def timed(f, queries: list[str]) -> tuple[list[float], list]:  # type: ignore[no-untyped-def]
    times, results = [], []
    for q in queries:
        t = time.perf_counter()
        results.append(f(q))
        times.append(time.perf_counter() - t)
    return times, results


def bench(size: int, pool: list[str], probes: int = 2000, fuzzy_probes: int = 500) -> dict[str, float]:
    rng = random.Random(size)
    sources = make_sources(size, rng, pool)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tm.sqlite"
        store = TMStore(path)
        t0 = time.perf_counter()
        store.add(((s, s.upper()) for s in sources), "en", "de")
        build = time.perf_counter() - t0
        hits = rng.sample(sources, min(probes, size))
        misses = [f"Nothing like this was stored {i} times." for i in range(probes)]
        times: dict[str, list[float]] = {}
        for kind, queries in (("hit", hits), ("miss", misses)):
            times[kind], found = timed(lambda q: store.lookup(q, "en", "de"), queries)
            assert all((f is not None) == (kind == "hit") for f in found)
        size_mb = path.stat().st_size / 1e6
        t0 = time.perf_counter()
        store.fuzzy("warm up: build the fuzzy index", "en", "de")
        fuzzy_build = time.perf_counter() - t0
        originals = rng.sample(sources, min(fuzzy_probes, size))
        near = [one_word_changed(rng, s) for s in originals]
        far = [f"Nothing like this was stored {i} times, said nobody." for i in range(fuzzy_probes)]
        times["fuzzy_near"], found = timed(lambda q: store.fuzzy(q, "en", "de"), near)
        # recall@1 over the probes whose original can be found: a one-word change to a short
        # sentence can take it below the threshold, and then "no match" is the right answer.
        eligible = [(m, o) for m, o, q in zip(found, originals, near, strict=True)
                    if score(normalise_key(q), normalise_key(o)) >= DEFAULT_THRESHOLD]
        recall = sum(bool(m) and m[0].source == o for m, o in eligible) / max(1, len(eligible))
        times["fuzzy_far"], _ = timed(lambda q: store.fuzzy(q, "en", "de"), far)
        store.close()
        fuzzy_mb = path.stat().st_size / 1e6
    out = {"build_s": build, "mb": size_mb, "fuzzy_build_s": fuzzy_build, "fuzzy_mb": fuzzy_mb, "recall": recall}
    for kind, ts in times.items():
        ts.sort()
        out[f"{kind}_median_us"] = statistics.median(ts) * 1e6
        out[f"{kind}_p99_us"] = ts[int(len(ts) * 0.99)] * 1e6
    return out


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [10_000, 100_000, 1_000_000]
    pool = corpus_sentences(max(sizes))
    print(f"{len(pool):,} distinct corpus sentences" if pool else "no corpora found: synthetic sentences")
    print("| segments | exact hit median / p99 µs | exact miss median / p99 µs | fuzzy (1 word changed) median / "
          "p99 ms | recall@1 | fuzzy miss median / p99 ms | build s (exact + fuzzy index) | size MB (+ fuzzy) |")
    print("|---|---|---|---|---|---|---|---|")
    for n in sizes:
        r = bench(n, pool)
        print(f"| {n:,} | {r['hit_median_us']:.0f} / {r['hit_p99_us']:.0f} | {r['miss_median_us']:.0f} / "
              f"{r['miss_p99_us']:.0f} | {r['fuzzy_near_median_us'] / 1e3:.2f} / {r['fuzzy_near_p99_us'] / 1e3:.2f} | "
              f"{r['recall']:.1%} | {r['fuzzy_far_median_us'] / 1e3:.2f} / {r['fuzzy_far_p99_us'] / 1e3:.2f} | "
              f"{r['build_s']:.1f} + {r['fuzzy_build_s']:.1f} | {r['mb']:.0f} ({r['fuzzy_mb']:.0f}) |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
