"""Fuzzy translation-memory matches: stored segments whose source is *similar* to a sentence.

The score is the one translators know from CAT tools: ``100 * (1 - d / max(len(a), len(b)))``
over the normalised keys (doctrans.tm.normalise), ``d`` the character Levenshtein distance
(rapidfuzz computes it in C++; a pure-Python distance would cost milliseconds per candidate).
Characters rather than words, so Chinese (no spaces) and English are scored the same way.

Finding candidates among a million segments cannot score them all. The store keeps an SQLite
FTS5 index of the keys with the ``trigram`` tokenizer (every three-character substring, which
also works for Chinese) and each trigram's document frequency. :func:`stretch_queries` cuts the
sentence into :data:`STRETCHES` stretches and asks, for each, for the segments holding its two
rarest trigrams (an AND, intersected by FTS5 in C): a segment that scores 70 % or more shares
most stretches with the sentence, and a changed word spoils only the one or two it falls in.
Common trigrams alone (``" th"``, ``"的时候"``) would match half the memory; the rarest over the
whole sentence would cluster in its rarest word, often the changed one. SQLite counts the
stretches each segment matches; the :data:`SHORTLIST` best are fetched, kept if within the
length a score can reach (:func:`length_bounds`), and scored exactly by rapidfuzz in one call
(:func:`best_matches`). FTS5's bm25 ranking is not used (~20 ms over a few thousand matches), nor
Python-side counting of posting lists (~5 ms per 10,000 rows). benchmarks/tm_lookup.py measures
the lookup at 10 k, 100 k and 1 M segments.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

DEFAULT_THRESHOLD = 70.0  # the usual lower bound of a "fuzzy match" in CAT tools
STRETCHES = 8  # parts of a sentence, each asked for by its two rarest trigrams
SHORTLIST = 50  # segments whose text is read and scored exactly


@dataclass(frozen=True)
class FuzzyMatch:
    source: str  # the stored source segment, as stored
    target: str  # its stored translation
    score: float  # 0..100, 100 = same normalised key

    def label(self) -> str:
        """``TM 87%`` (rounded down, so 99.6 is never shown as a 100 % match)."""
        return f"TM {int(self.score)}%"


def score(a: str, b: str) -> float:
    """The fuzzy-match percentage of two normalised keys (see the module docstring); two empty
    keys are the same (100)."""
    return 100.0 * Levenshtein.normalized_similarity(a, b)


def length_bounds(n: int, threshold: float) -> tuple[int, int]:
    """The key lengths that can reach ``threshold`` against a key of length ``n``: the distance
    is at least the length difference, so ``len >= n * t`` and ``len <= n / t``."""
    t = max(threshold, 1.0) / 100.0
    return int(n * t), int(n / t) + 1


def best_matches(key: str, candidates: list[str], threshold: float, limit: int) -> list[tuple[str, float]]:
    """The ``limit`` candidates most similar to ``key`` scoring at least ``threshold``, best first."""
    found = process.extract(key, candidates, scorer=Levenshtein.normalized_similarity, limit=limit,
                            score_cutoff=threshold / 100.0)
    return [(str(c), 100.0 * s) for c, s, _ in found]


def gram_counts(keys: Iterable[str]) -> Counter[str]:
    """Document frequency of each (lower-cased) trigram over ``keys``."""
    counts: Counter[str] = Counter()
    for key in keys:
        counts.update(trigrams(key.lower()))
    return counts


def trigrams(key: str) -> list[str]:
    """The distinct three-character substrings of ``key``, in order of first appearance."""
    seen: dict[str, None] = {}
    for i in range(len(key) - 2):
        seen.setdefault(key[i:i + 3], None)
    return list(seen)


def fts_phrase(term: str) -> str:
    """``term`` as an FTS5 string literal (double quotes doubled), so no character is syntax."""
    return '"' + term.replace('"', '""') + '"'


def stretch_queries(grams: list[str], frequency: dict[str, int]) -> list[str]:
    """One FTS5 MATCH expression per stretch of the sentence (see the module docstring): its two
    rarest trigrams that the index holds, ANDed. Empty: no trigram of the sentence is stored, so
    nothing can be similar."""
    known = [g for g in grams if frequency.get(g, 0) > 0]
    n = len(known)
    queries = []
    for i in range(STRETCHES):
        stretch = known[i * n // STRETCHES:(i + 1) * n // STRETCHES]
        if stretch:
            rarest = sorted(stretch, key=lambda g: frequency[g])[:2]
            queries.append(" AND ".join(fts_phrase(g) for g in rarest))
    return list(dict.fromkeys(queries))
