"""Retrieval of similar sentence pairs for SMDT (training/smdt.py): BM25 over source pieces, in numpy.

SMDT (Zhang et al. 2022, §2.2) retrieves for every source sentence similar bilingual pairs from the
training corpus with Lucene, and feeds them to the encoder. Here:

- **Terms**: the source side's SentencePiece pieces and piece bigrams (ids, not text, so a
  pre-tokenized ``.npz`` corpus needs no text; bigrams stand in for the phrase matches that
  whole words give Lucene). **Score**: Lucene's BM25 (k1 = 1.2, b = 0.75; idf
  ``log(1 + (N - df + 0.5) / (df + 0.5))``; sentence length in terms).
- **Index** (:class:`BM25Index`): an inverted index in flat arrays (terms sorted; per term the
  sentences holding it and their BM25 weights). Built in one pass of sorts, no Python loop over
  sentences.
- **Search**: a query's terms that occur in more than ``max_df`` sentences are not used
  (stop words: they would make every query touch most of the corpus, and their idf is small);
  the rest of its postings are summed per candidate, and the ``k`` best candidates are kept
  (ties: the lower sentence index). A sentence none of whose terms is rare enough retrieves
  nothing (``-1``). Queries run in chunks bounded by the postings they touch.
- **Own document excluded**: a training sentence never retrieves from a document with the same
  id (``doc_ids`` of the corpus, so a corpus up-sampled with ``PATH:3`` does not find its own
  copies either); an exact duplicate from another document is a legitimate TM match.
- **Precomputed once**: :func:`training_neighbours` returns, for every sentence of the training
  corpus, its ``k`` neighbours, cached in ``retrieval-<hash>.npz`` (keyed by the corpus's token
  arrays and the retrieval parameters) next to the tokenized corpus, so a training step only looks
  them up.

:class:`TranslationMemory` is what a trained SMDT model carries (in its checkpoint): the pairs
(token ids) and, built on first use, their index, to retrieve for new text.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from training.data import TokenizedCorpus

K1, B = 1.2, 0.75
BIGRAM = 1 << 40  # bigram term ids start here: (a << 20 | b) + BIGRAM, for piece ids below 2^20
VERSION = 1  # bump when the scoring changes: cached neighbours of another version are not reused


def sentence_terms(tokens: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(term id, sentence index) of every piece and every pair of adjacent pieces of each sentence."""
    lengths = np.diff(offsets)
    sent = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    uni = tokens[offsets[0]:offsets[-1]].astype(np.int64)
    if len(uni) and uni.max() >= 1 << 20:
        raise ValueError("piece ids must be below 2^20 to form bigram terms")
    same = sent[1:] == sent[:-1]
    bi = ((uni[:-1][same] << 20) | uni[1:][same]) + BIGRAM
    return np.concatenate([uni, bi]), np.concatenate([sent, sent[:-1][same]])


class BM25Index:
    """Inverted index of the source sentences ``tokens[offsets[i]:offsets[i+1]]``."""

    def __init__(self, tokens: np.ndarray, offsets: np.ndarray):
        self.n = len(offsets) - 1
        terms, sents = sentence_terms(tokens, offsets)
        order = np.lexsort((sents, terms))
        t, s = terms[order], sents[order]
        first = np.flatnonzero(np.r_[True, (t[1:] != t[:-1]) | (s[1:] != s[:-1])]) if len(t) else np.zeros(0, int)
        tf = np.diff(np.r_[first, len(t)]).astype(np.float64)
        pt, ps = t[first], s[first]  # one posting per (term, sentence), sorted by term then sentence
        self.terms, start = np.unique(pt, return_index=True)
        self.start = np.r_[start, len(pt)].astype(np.int64)
        self.df = np.diff(self.start)
        length = np.bincount(sents, minlength=self.n).astype(np.float64)
        avg = max(length.mean(), 1e-9) if self.n else 1.0
        idf = np.log(1 + (self.n - self.df + 0.5) / (self.df + 0.5))
        norm = tf + K1 * (1 - B + B * length[ps] / avg)
        self.post_sent = ps.astype(np.int64)
        self.post_weight = (np.repeat(idf, self.df) * tf * (K1 + 1) / norm).astype(np.float32)

    def search(self, tokens: np.ndarray, offsets: np.ndarray, k: int, max_df: int,
               query_docs: np.ndarray | None = None, index_docs: np.ndarray | None = None,
               chunk: int = 4_000_000) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` best index sentences for each query sentence -> (ids (Q, k), scores (Q, k));
        ``-1`` / 0 where there are fewer. ``query_docs``/``index_docs``: document keys; a query
        never retrieves a sentence of its own document (key ``-1``: no document to exclude)."""
        nq = len(offsets) - 1
        ids = np.full((nq, k), -1, np.int64)
        scores = np.zeros((nq, k), np.float32)
        if nq == 0 or len(self.terms) == 0 or k == 0:
            return ids, scores
        qt, qs = sentence_terms(tokens, offsets)
        pos = np.minimum(np.searchsorted(self.terms, qt), len(self.terms) - 1)
        found = self.terms[pos] == qt
        ti, qs = pos[found], qs[found]
        pairs = np.unique(qs * len(self.terms) + ti)  # each query's distinct terms, by query
        qs, ti = pairs // len(self.terms), pairs % len(self.terms)
        rare = self.df[ti] <= max_df
        qs, ti = qs[rare], ti[rare]
        # Whole queries per chunk, each chunk touching at most ``chunk`` postings (or one query).
        q_end = np.searchsorted(qs, np.arange(nq), side="right")  # end of each query's terms
        touched = np.r_[0, np.cumsum(self.df[ti])][q_end]  # postings up to each query's end
        lo = 0
        while lo < nq:
            base = touched[lo - 1] if lo > 0 else 0
            hi = min(nq, max(lo + 1, int(np.searchsorted(touched, base + chunk, side="right"))))
            a, b = (q_end[lo - 1] if lo > 0 else 0), q_end[hi - 1]
            self._score(qs[a:b], ti[a:b], k, ids, scores, query_docs, index_docs)
            lo = hi
        return ids, scores

    def _score(self, qs: np.ndarray, ti: np.ndarray, k: int, ids: np.ndarray, scores: np.ndarray,
               query_docs: np.ndarray | None, index_docs: np.ndarray | None) -> None:
        lens = self.df[ti]
        total = int(lens.sum())
        if total == 0:
            return
        at = np.repeat(self.start[ti] - (np.cumsum(lens) - lens), lens) + np.arange(total)
        rows = np.repeat(qs, lens)
        cand, w = self.post_sent[at], self.post_weight[at]
        if query_docs is not None and index_docs is not None:
            other = index_docs[cand] != query_docs[rows]
            rows, cand, w = rows[other], cand[other], w[other]
        key = rows * self.n + cand
        order = np.argsort(key, kind="stable")
        key, w = key[order], w[order].astype(np.float64)
        if len(key) == 0:
            return
        first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        total_w = np.add.reduceat(w, first)
        r, c = key[first] // self.n, key[first] % self.n  # sorted by query, then candidate
        seg = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
        seg_of = np.repeat(np.arange(len(seg)), np.diff(np.r_[seg, len(r)]))
        for j in range(k):  # k rounds of "best per query" (k is small): cheaper than sorting all pairs
            best = np.maximum.reduceat(total_w, seg)
            hit = np.flatnonzero(total_w == best[seg_of])
            hit = hit[np.r_[True, seg_of[hit][1:] != seg_of[hit][:-1]]]  # the lowest index among ties
            hit = hit[total_w[hit] > -np.inf]
            ids[r[hit], j], scores[r[hit], j] = c[hit], total_w[hit]
            total_w[hit] = -np.inf


# ---------------------------------------------------------------------------------------
# The translation memory a model carries, and the training corpus's precomputed neighbours
# ---------------------------------------------------------------------------------------

@dataclass
class TranslationMemory:
    """Sentence pairs as token ids (the training corpus, flat like TokenizedCorpus) + their index."""

    src_tokens: np.ndarray
    src_offsets: np.ndarray
    tgt_tokens: np.ndarray
    tgt_offsets: np.ndarray
    _index: BM25Index | None = None

    @classmethod
    def from_corpus(cls, corpus: TokenizedCorpus) -> TranslationMemory:
        return cls(corpus.src_tokens, corpus.src_offsets, corpus.tgt_tokens, corpus.tgt_offsets)

    @property
    def n(self) -> int:
        return len(self.src_offsets) - 1

    def pair(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        return (self.src_tokens[self.src_offsets[i]:self.src_offsets[i + 1]],
                self.tgt_tokens[self.tgt_offsets[i]:self.tgt_offsets[i + 1]])

    @property
    def index(self) -> BM25Index:
        if self._index is None:
            self._index = BM25Index(self.src_tokens, self.src_offsets)
        return self._index

    def search(self, sentences: Sequence[Sequence[int]], k: int, max_df: int) -> np.ndarray:
        """Neighbours (len(sentences), k) of new source sentences (no document excluded); -1 = none."""
        tokens, offsets = flatten(sentences)
        return self.index.search(tokens, offsets, k, max_df)[0]

    def payload(self) -> dict[str, np.ndarray]:
        """What a checkpoint stores (token ids as uint16 when they fit: half the bytes)."""
        small = max(int(self.src_tokens.max(initial=0)), int(self.tgt_tokens.max(initial=0))) < 1 << 16
        dtype = np.uint16 if small else np.int32
        return {"src_tokens": self.src_tokens.astype(dtype), "src_offsets": self.src_offsets.astype(np.int64),
                "tgt_tokens": self.tgt_tokens.astype(dtype), "tgt_offsets": self.tgt_offsets.astype(np.int64)}

    @classmethod
    def from_payload(cls, p: dict[str, np.ndarray]) -> TranslationMemory:
        return cls(p["src_tokens"].astype(np.int64), p["src_offsets"], p["tgt_tokens"].astype(np.int64),
                   p["tgt_offsets"])


def flatten(sentences: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(sentences) + 1, np.int64)
    offsets[1:] = np.cumsum([len(s) for s in sentences])
    tokens = np.fromiter((t for s in sentences for t in s), np.int64, count=int(offsets[-1]))
    return tokens, offsets


def document_keys(corpus: TokenizedCorpus) -> np.ndarray:
    """Per sentence, an integer for its document's id (the same id in two places = the same document)."""
    _, key = np.unique(np.array(corpus.doc_ids, dtype=str), return_inverse=True)
    return np.repeat(key.astype(np.int64), np.diff(corpus.doc_offsets))


def corpus_hash(corpus: TokenizedCorpus, k: int, max_df: int) -> str:
    h = hashlib.sha256(f"bm25-v{VERSION}|k={k}|max_df={max_df}|k1={K1}|b={B}".encode())
    for a in (corpus.src_tokens, corpus.src_offsets, corpus.tgt_offsets, corpus.doc_offsets):
        h.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
    h.update("\n".join(corpus.doc_ids).encode())
    return h.hexdigest()[:20]


def training_neighbours(corpus: TokenizedCorpus, k: int, max_df: int, cache_dir: Path | None = None,
                        log=None) -> np.ndarray:
    """(n_sentences, k) neighbours of every sentence of ``corpus`` in ``corpus`` itself, never from
    a document with the same id; read from / written to ``cache_dir/retrieval-<hash>.npz``."""
    path = None if cache_dir is None else Path(cache_dir) / f"retrieval-{corpus_hash(corpus, k, max_df)}.npz"
    if path is not None and path.exists():
        with np.load(path) as z:
            return z["neighbours"]
    docs = document_keys(corpus)
    ids, scores = BM25Index(corpus.src_tokens, corpus.src_offsets).search(
        corpus.src_tokens, corpus.src_offsets, k, max_df, query_docs=docs, index_docs=docs)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp.npz")
        os.close(fd)
        try:
            np.savez(tmp, neighbours=ids, scores=scores)
            os.chmod(tmp, 0o644)  # mkstemp's 0600 would keep other users' runs from sharing it
            os.replace(tmp, path)  # atomic: a parallel run sees the whole file or none
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        if log is not None:
            log(f"retrieval: {int((ids >= 0).any(1).sum())}/{len(ids)} sentences with a neighbour -> {path}")
    return ids
