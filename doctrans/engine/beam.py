"""Beam search in numpy (greedy = beam 1): the one search of the engine and of ``training.search``.

Per batch row K beams. At each step the candidates are ``beam score + log_softmax(logits)``
over K x V (only beam 0 at step 0, the others start at -inf); take the top 2K; walk them in
rank order: an EOS among the first K ranks finishes a hypothesis with the normalized score
``logprob / gen_len ** length_penalty`` (gen_len counts the EOS), the other candidates fill
the K live beams. A row is done when K hypotheses have finished, or at its length limit,
where the live beams are finished as they are. The best normalized hypothesis wins.

``training.search`` drives this same function with the PyTorch decoder (``StepDecoder`` is all
it needs), so the ONNX engine and the PyTorch reference can only differ in the networks' logits;
ties go to the lower index (the first maximum) so the order of equal candidates is fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from doctrans.engine.repeats import RepeatGuard


class StepDecoder(Protocol):
    """The decoder the search drives: one step for all B*K rows, and a cache reorder."""

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        """tokens (B*K, 1) int64 at position t -> logits (B*K, V), or log-probabilities when the
        decoder has ``gives_log_probs`` True (the search then does not log_softmax them again)."""
        ...

    def reorder(self, origin: np.ndarray) -> None:
        """New row i continues old row origin[i] (reorder the KV cache)."""
        ...


class TopKStepDecoder(StepDecoder, Protocol):
    """A decoder that also gives each row's best candidates itself (the ONNX engine: see
    doctrans.engine.topk), so the search does not log_softmax and sort K x V values in numpy."""

    def step_topk(self, tokens: np.ndarray, t: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """tokens (B*K, 1) at position t -> the k best log-probabilities per row (B*K, k) float32
        and their token ids, best first, equal values by lower token id."""
        ...


@dataclass
class Hypothesis:
    tokens: list[int]  # without BOS/EOS
    score: float  # normalized log-probability
    # (1, memory layers, 1 + len(tokens), d): the target states of [BOS, *tokens] when the decoder
    # kept them (the ONNX engine's ``states_of``), for the memory update; None otherwise.
    states: np.ndarray | None = field(default=None, repr=False, compare=False)


def max_new_tokens(src_len: int, model_max_len: int) -> int:
    """Generation limit for a source of src_len tokens (EOS counted), as in training.search."""
    return min(model_max_len - 1, 2 * src_len + 10)


def log_softmax(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float32, copy=False)
    m = x.max(axis=-1, keepdims=True)
    z = x - m
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


# _topk's groups: the row's maxima over this many groups bound the k-th largest from below.
_TOPK_GROUPS = 64


def _topk(row: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest values, largest first; equal values by lower index first.

    Without a full partition of the row (K x V values for the search: 80,000 for the shipped
    models at beam 5, ~0.7 ms with ``np.argpartition``): the k-th largest of the maxima of
    disjoint groups of the row is a value with at least k values at or above it, so only the
    values at or above it can be among the k largest; those few are sorted. The same indices as
    a full sort (the full partition it replaced took any one of several equal values at the k-th
    place; this takes the lowest index, as the sort order says).

    The groups are strided (column j of the row seen as ``_TOPK_GROUPS`` x n/64), not blocks of
    64 neighbours: the maxima are then an element-wise maximum down 64 contiguous rows, which
    numpy vectorises, where a maximum along each block's short axis did not (2026-11-28, one
    thread, 80,000 values: 12 us against 200 us; the whole function 64 us against 250 us).
    """
    n = row.shape[0]
    k = min(k, n)
    width = n // _TOPK_GROUPS
    if width > k:
        maxima = row[: _TOPK_GROUPS * width].reshape(_TOPK_GROUPS, width).max(axis=0)
        kth = np.partition(maxima, width - k)[width - k]
        part = np.flatnonzero(row >= kth)
        if part.shape[0] < k:  # NaN in the row: no bound to trust
            part = np.arange(n)
    else:
        part = np.arange(n)
    return part[np.lexsort((part, -row[part]))][:k]


# Up to this many banned ids per row are written as -inf through their ids; more, as an additive row.
_FEW_BANS = 512


def _forbid_rows(forbid: Sequence[np.ndarray], vocab: int) -> np.ndarray | list[np.ndarray]:
    """The search's bans in the cheaper of two forms: a few ids per row (the source's missing
    placeholders, ~16) written as -inf through the ids, or else one additive row per batch row (0,
    or -inf where banned): adding it costs ~0.05 ms a step where writing -inf through the ids cost
    ~0.85 ms (4 rows x 5 beams, the ~8,000 Han pieces banned into English). Both give the same
    values (x + 0 is x, x + -inf is -inf)."""
    if max(f.size for f in forbid) <= _FEW_BANS:
        return [np.asarray(f, dtype=np.int64) for f in forbid]
    add = np.zeros((len(forbid), 1, vocab), dtype=np.float32)
    for b, ids in enumerate(forbid):
        add[b, 0, ids] = -np.inf
    return add


def banned_tokens(seq: list[int], n: int) -> list[int]:
    """Tokens that would repeat an n-gram already in ``seq`` (fairseq's ``--no-repeat-ngram-size``)."""
    if n <= 0 or len(seq) < n:
        return []
    if n == 1:
        return list(set(seq))
    prefix = seq[len(seq) - n + 1:]
    return [seq[i + n - 1] for i in range(len(seq) - n + 1) if seq[i:i + n - 1] == prefix]


def beam_search(decoder: StepDecoder, batch: int, beam: int, limits: list[int], bos_id: int, eos_id: int,
                length_penalty: float = 1.0, no_repeat_ngram: int = 0,
                guard: RepeatGuard | None = None, forbid: Sequence[np.ndarray] | None = None,
                once: Sequence[np.ndarray] | None = None) -> list[Hypothesis]:
    """Best hypothesis per batch row. ``limits[b]``: max generated tokens of row b.

    ``no_repeat_ngram`` > 0 forbids any n-gram of that many tokens to occur twice in a hypothesis:
    small models stutter, and this is the standard cure (0 = off). It cannot stop one piece or one
    character written many times in a row (``点点点点点``): ``guard`` does (doctrans.engine.repeats).
    ``forbid[b]``: tokens row b may never write (the digits of a source without any); ``once[b]``:
    tokens a hypothesis of row b may write at most once (the source's verbatim placeholders).
    """
    rows = beam_search_n_best(decoder, batch, beam, limits, bos_id, eos_id, length_penalty, no_repeat_ngram, guard,
                              forbid, once)
    return [hyps[0] if hyps else Hypothesis([], 0.0) for hyps in rows]


def beam_search_n_best(decoder: StepDecoder, batch: int, beam: int, limits: list[int], bos_id: int,
                       eos_id: int, length_penalty: float = 1.0,
                       no_repeat_ngram: int = 0, guard: RepeatGuard | None = None,
                       forbid: Sequence[np.ndarray] | None = None,
                       once: Sequence[np.ndarray] | None = None) -> list[list[Hypothesis]]:
    """Every finished hypothesis per batch row (at least ``beam`` unless the limit cut the
    search), best first; equal scores keep their finishing order, so the first is exactly
    :func:`beam_search`'s choice. The engine looks down this list for a hypothesis that copied
    every verbatim placeholder (doctrans.engine.protect)."""
    B, K = batch, beam
    neg_inf = np.float32(-np.inf)
    scores = np.full((B, K), neg_inf, dtype=np.float32)
    scores[:, 0] = 0.0  # all beams start identical: expand only the first
    seqs: list[list[list[int]]] = [[[] for _ in range(K)] for _ in range(B)]
    finished: list[list[tuple[float, list[int], np.ndarray | None]]] = [[] for _ in range(B)]
    # A decoder that keeps each token's states hands a hypothesis those of its row as it finishes
    # (the row is reused by another beam after this step).
    states_of = getattr(decoder, "states_of", None) or (lambda _row: None)
    done = [False] * B
    last = np.full((B * K, 1), bos_id, dtype=np.int64)
    # Banned n-grams and runs need every candidate's score: only the full path can mask them.
    if forbid is not None and not any(f.size for f in forbid):
        forbid = None
    once_sets = None if once is None or not any(o.size for o in once) else [frozenset(o.tolist()) for o in once]
    step_topk = getattr(decoder, "step_topk", None) \
        if no_repeat_ngram <= 0 and guard is None and forbid is None and once_sets is None else None
    beam_of = np.empty(0, dtype=np.int64)
    # forbid as the search applies it, built at the first step (_forbid_rows).
    forbid_add: np.ndarray | list[np.ndarray] | None = None
    # A decoder whose step gives log-probabilities already (a per-layer ONNX step) is not normalised again.
    given_log_probs = getattr(decoder, "gives_log_probs", False)
    for t in range(max(limits)):
        # Per row, the best 2K candidates as (value, beam, token), best first; equal values by
        # lower beam, then lower token (the first maximum, as the reference's max()).
        ranked: list[list[tuple[float, int, int]]] = [[] for _ in range(B)]
        if step_topk is not None:
            # Each row's best 2K (its share of the best 2K overall can be no more), plus the row's
            # beam score (which keeps the row's order), merged: K x 2K values instead of K x V.
            vals, toks = step_topk(last, t, 2 * K)
            M = vals.shape[1]
            sums = (scores.reshape(B * K, 1) + vals).reshape(B, K * M)
            toks = toks.reshape(B, K * M)
            if beam_of.shape[0] != K * M:
                beam_of = np.repeat(np.arange(K), M)
            for b in range(B):
                if not done[b]:
                    order = np.lexsort((toks[b], beam_of, -sums[b]))[: 2 * K]
                    ranked[b] = list(zip(sums[b][order].tolist(), beam_of[order].tolist(),
                                         toks[b][order].tolist(), strict=True))
        else:
            out = decoder.step(last, t)
            # Written in place from here on (a decoder's step hands over a fresh array): a new
            # K x V array a step cost more than the arithmetic, its pages faulted in every time.
            lp = (out if given_log_probs else log_softmax(out)).reshape(B, K, -1)
            if not lp.flags.writeable:
                lp = lp.copy()
            V = lp.shape[-1]
            if forbid is not None:
                if forbid_add is None:
                    forbid_add = _forbid_rows(forbid, V)
                if isinstance(forbid_add, list):
                    for b, ids in enumerate(forbid_add):
                        lp[b, :, ids] = neg_inf
                else:
                    np.add(lp, forbid_add, out=lp)
            np.add(lp, scores[:, :, None], out=lp)
            cand = lp.reshape(B, K * V)
            if no_repeat_ngram > 0 or guard is not None or once_sets is not None:
                for b in range(B):
                    for k in range(K):
                        if not done[b] and scores[b, k] > neg_inf:
                            for tok in banned_tokens(seqs[b][k], no_repeat_ngram):
                                cand[b, k * V + tok] = neg_inf
                            if guard is not None:
                                cand[b, k * V + guard.banned(seqs[b][k])] = neg_inf
                            if once_sets is not None and once_sets[b]:
                                for tok in once_sets[b].intersection(seqs[b][k]):
                                    cand[b, k * V + tok] = neg_inf
            for b in range(B):
                if not done[b]:
                    ranked[b] = [(float(cand[b, i]), *divmod(i, V)) for i in _topk(cand[b], 2 * K).tolist()]
        origin = np.arange(B * K)
        new_scores = scores.copy()
        tokens = np.full(B * K, eos_id, dtype=np.int64)
        for b in range(B):
            if done[b]:
                continue
            live = 0
            for rank, (v, k, tok) in enumerate(ranked[b]):
                if v == -np.inf:
                    break
                if tok == eos_id:
                    if rank < K:
                        finished[b].append((v / (t + 1) ** length_penalty, seqs[b][k], states_of(b * K + k)))
                    continue
                if live < K:
                    origin[b * K + live] = b * K + k
                    tokens[b * K + live] = tok
                    new_scores[b, live] = v
                    live += 1
            seqs[b] = [seqs[b][origin[b * K + j] - b * K] + [int(tokens[b * K + j])] for j in range(live)] + \
                [[] for _ in range(K - live)]
            new_scores[b, live:] = neg_inf
            if len(finished[b]) >= K:
                done[b] = True
            elif t + 1 >= limits[b]:
                # Cut at the limit: the last token was never fed, its state is not known (None).
                finished[b] += [(float(new_scores[b, j]) / (t + 1) ** length_penalty, seqs[b][j], None)
                                for j in range(live)]
                done[b] = True
        if all(done):
            break
        scores = new_scores
        decoder.reorder(origin)
        last = tokens[:, None]
    # A stable sort: the first maximum comes first, like the reference's max().
    return [[Hypothesis(tokens, score, states) for score, tokens, states in sorted(f, key=lambda x: -x[0])]
            for f in finished]
