"""Pre-tokenized corpora: SentencePiece ids of both languages in compact numpy files.

One file per corpus split (``tvsub-zh-en.train.npz``), written once on the CPU by
``python -m training.prepare_data`` so a GPU run spends no time tokenizing. A file holds, for
each language ``L`` of the pair, ``L_tokens`` (uint16 ids, all sentences concatenated) and
``L_lengths`` (tokens per sentence), plus ``doc_lengths`` (sentences per document),
``doc_ids`` and ``spm_sha256`` (the tokenizer it was made with: a run refuses a file made with
another one). Lengths rather than offsets: they compress far better, and offsets are one
cumulative sum away.

Both directions are read from the same file: :func:`direction_corpus` picks which language is
the source, cuts sentences to the model's position table and, for a bidirectional model, puts
the target-language tag (``<2en>``) before each source sentence.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from training.data import DataError, TokenizedCorpus


def spm_sha256(spm_bytes: bytes) -> str:
    return hashlib.sha256(spm_bytes).hexdigest()


def write_cache_file(path: Path, sides: dict[str, list[list[int]]], doc_lengths: list[int], doc_ids: list[str],
                     spm_hash: str) -> dict[str, int]:
    """Write one corpus split; ``sides``: language -> token ids per sentence. Returns counts."""
    arrays: dict[str, np.ndarray] = {}
    counts = {"documents": len(doc_lengths), "sentences": sum(doc_lengths)}
    for lang, sents in sides.items():
        if len(sents) != counts["sentences"]:
            raise DataError(f"{path}: {lang} has {len(sents)} sentences, documents hold {counts['sentences']}")
        lengths = np.array([len(s) for s in sents], dtype=np.int64)
        tokens = np.fromiter((t for s in sents for t in s), dtype=np.int64, count=int(lengths.sum()))
        if len(tokens) and tokens.max() > np.iinfo(np.uint16).max:
            raise DataError(f"{path}: token id {tokens.max()} does not fit uint16 (vocabulary over 65,536)")
        arrays[f"{lang}_tokens"] = tokens.astype(np.uint16)
        arrays[f"{lang}_lengths"] = np.minimum(lengths, np.iinfo(np.uint16).max).astype(np.uint16)
        counts[f"{lang}_tokens"] = len(tokens)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    arrays.update(doc_lengths=np.array(doc_lengths, dtype=np.uint32), doc_ids=np.array(doc_ids),
                  spm_sha256=np.array(spm_hash))
    np.savez_compressed(tmp, allow_pickle=False, **arrays)
    tmp.replace(path)  # a crash mid-write never leaves a file that looks finished
    return counts


def _cut(tokens: np.ndarray, lengths: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """Each sentence's first ``keep`` tokens (vectorised: no Python loop over millions of sentences)."""
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    position = np.arange(len(tokens)) - starts
    return tokens[position < keep], np.minimum(lengths, keep)


def _offsets(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


def direction_corpus(path: Path, src: str, tgt: str, max_len: int, expect_spm: str | None,
                     tag_id: int | None = None, max_docs: int | None = None) -> TokenizedCorpus:
    """The ``src`` -> ``tgt`` corpus of a cache file, sentences cut to fit ``max_len`` positions
    with EOS (and the tag, which then takes the source's first position)."""
    if not path.is_file():
        raise DataError(f"{path}: no such cache file (make it with python -m training.prepare_data)")
    try:
        z = np.load(path, allow_pickle=False)
        made_with = str(z["spm_sha256"])
        for lang in (src, tgt):
            if f"{lang}_tokens" not in z.files:
                langs = sorted(f[: -len("_tokens")] for f in z.files if f.endswith("_tokens"))
                raise DataError(f"{path}: no {lang!r} side (languages here: {', '.join(langs)})")
        doc_lengths = z["doc_lengths"].astype(np.int64)
        doc_ids = [str(x) for x in z["doc_ids"]]
        sides = {lang: (z[f"{lang}_tokens"].astype(np.int32), z[f"{lang}_lengths"].astype(np.int64))
                 for lang in (src, tgt)}
    except (OSError, ValueError, KeyError) as e:
        raise DataError(f"{path}: not a readable token cache ({e})") from None
    if expect_spm is not None and made_with != expect_spm:
        raise DataError(f"{path}: made with another SentencePiece model ({made_with[:12]}, this run's is "
                        f"{expect_spm[:12]}); rebuild the cache with python -m training.prepare_data")
    if max_docs is not None and max_docs < len(doc_lengths):
        n_sent = int(doc_lengths[:max_docs].sum())
        doc_lengths, doc_ids = doc_lengths[:max_docs], doc_ids[:max_docs]
        sides = {lang: (t[: int(n[:n_sent].sum())], n[:n_sent]) for lang, (t, n) in sides.items()}
    room = 1 + (tag_id is not None)  # EOS, and the tag
    src_tokens, src_lengths = _cut(*sides[src], max_len - room)
    if tag_id is not None:
        src_tokens = np.insert(src_tokens, _offsets(src_lengths)[:-1], np.int32(tag_id))
        src_lengths = src_lengths + 1
    tgt_tokens, tgt_lengths = _cut(*sides[tgt], max_len - 1)
    return TokenizedCorpus(src_tokens.astype(np.int32), _offsets(src_lengths), tgt_tokens.astype(np.int32),
                           _offsets(tgt_lengths), _offsets(doc_lengths), [f"{i}:{src}-{tgt}" for i in doc_ids])


def tag_source(corpus: TokenizedCorpus, tag_id: int, max_len: int) -> TokenizedCorpus:
    """``corpus`` with ``tag_id`` before every source sentence (cut so tag + sentence + EOS fit)."""
    lengths = np.diff(corpus.src_offsets)
    tokens, lengths = _cut(corpus.src_tokens, lengths, max_len - 2)
    tokens = np.insert(tokens, _offsets(lengths)[:-1], np.int32(tag_id))
    return TokenizedCorpus(tokens.astype(np.int32), _offsets(lengths + 1), corpus.tgt_tokens, corpus.tgt_offsets,
                           corpus.doc_offsets, corpus.doc_ids)
