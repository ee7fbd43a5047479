"""Teach the model to copy placeholders: training pairs masked the way the engine masks a source.

At translation time the engine (doctrans.verbatim) replaces every verbatim span of a source
sentence -- numbers, codes, URLs, identifiers, inline code -- by ``⦅1⦆``, ``⦅2⦆``… and puts the
spans back after decoding. The model has to copy each placeholder once, to the right place in the
translation. It learns that here: in a training pair, a span that appears *identically on both
sides* (``9毫米自动6发手枪`` / ``9mm auto 6-round.``: ``9`` and ``6``) is replaced on both sides by the
same placeholder, numbered in source order as the engine numbers them, so the target may move it
(``2024年3月⦅2⦆日`` → ``March ⦅2⦆, ⦅1⦆``).

Only a fraction of the pairs that have such spans are masked (:data:`DEFAULT_FRACTION`), chosen
by a hash of the pair's text and a seed, so the choice is reproducible and independent of the
order the corpus is read in; the rest keep their plain numbers, so the model still reads and
writes digits (a bundle used without masking, or a span the rules miss).

A source span whose text is not a span of the target (``3月`` / ``March``; ``3 apples`` / ``三个苹果``)
is left as it is: masking it would teach the model to drop a placeholder. When a span text occurs
a different number of times on the two sides, its occurrences cannot be paired and it is left
alone too.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass

from doctrans.verbatim import MAX_PLACEHOLDERS, Span, find_spans, placeholder

DEFAULT_FRACTION = 0.5
VERSION = 1  # bump when the rules of this module change: cached training files are rebuilt


@dataclass(frozen=True)
class MaskedPair:
    src: str
    tgt: str
    placeholders: int  # how many spans were masked (0: the pair is unchanged)


def shared_spans(src: str, tgt: str) -> list[tuple[Span, Span]]:
    """Pairs (source span, target span) of identical text, the j-th occurrence of a text in the
    source with its j-th in the target, in source order; at most MAX_PLACEHOLDERS."""
    src_spans, tgt_spans = find_spans(src), find_spans(tgt)
    src_count = Counter(s.text for s in src_spans)
    tgt_count = Counter(s.text for s in tgt_spans)
    seen: Counter[str] = Counter()
    pairs: list[tuple[Span, Span]] = []
    for s in src_spans:
        if src_count[s.text] != tgt_count.get(s.text, 0):
            continue
        j = seen[s.text]
        seen[s.text] += 1
        t = [x for x in tgt_spans if x.text == s.text][j]
        pairs.append((s, t))
        if len(pairs) == MAX_PLACEHOLDERS:
            break
    return pairs


def _replace(text: str, spans: list[tuple[Span, int]]) -> str:
    out: list[str] = []
    pos = 0
    for span, k in sorted(spans, key=lambda x: x[0].start):
        out += [text[pos:span.start], placeholder(k)]
        pos = span.end
    out.append(text[pos:])
    return "".join(out)


def mask_pair(src: str, tgt: str) -> MaskedPair:
    """Mask every span shared by both sides (see the module docstring)."""
    pairs = shared_spans(src, tgt)
    if not pairs:
        return MaskedPair(src, tgt, 0)
    numbered = list(enumerate(pairs, 1))
    return MaskedPair(_replace(src, [(s, k) for k, (s, _) in numbered]),
                      _replace(tgt, [(t, k) for k, (_, t) in numbered]), len(pairs))


def chosen(src: str, tgt: str, fraction: float, seed: int) -> bool:
    """Whether this pair is among the masked fraction: a hash of (seed, pair), not a random
    stream, so a pair's fate does not depend on which pairs were read before it."""
    if fraction >= 1:
        return True
    if fraction <= 0:
        return False
    h = hashlib.blake2b(f"{seed}\x00{src}\x00{tgt}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") / 2**64 < fraction


def mask_pairs(src: list[str], tgt: list[str], fraction: float = DEFAULT_FRACTION,
               seed: int = 1) -> tuple[list[str], list[str], int, int]:
    """Mask the chosen fraction of the pairs that share spans. Returns the two sides, the number
    of pairs masked and of placeholders written."""
    out_src, out_tgt = list(src), list(tgt)
    pairs_masked = placeholders = 0
    for i, (s, t) in enumerate(zip(src, tgt, strict=True)):
        if not chosen(s, t, fraction, seed):
            continue
        m = mask_pair(s, t)
        if m.placeholders:
            out_src[i], out_tgt[i] = m.src, m.tgt
            pairs_masked += 1
            placeholders += m.placeholders
    return out_src, out_tgt, pairs_masked, placeholders
