"""Document corpora: reading the JSONL format, tokenizing once, and batching.

Corpus files hold one document per line (optionally xz-compressed)::

    {"id": "tvsub-100", "zh": ["你没问题的", ...], "en": ["You'll be great.", ...]}

Reading streams line by line and reports a malformed line by file, line number and what is
wrong. Training tokenizes a corpus once into flat numpy arrays (:class:`TokenizedCorpus`), so
every epoch's order is a pure function of (seed, epoch): batches are reproducible and a
resumed run continues at exactly the batch where it stopped.
"""

from __future__ import annotations

import json
import lzma
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from training.moses_text import untokenized_side


def folder_and_name(path: str | Path) -> str:
    """``../data/pydocs-en-zh/dev.jsonl.xz`` -> ``pydocs-en-zh/dev.jsonl.xz``: short enough for a log key
    or a table, long enough to tell apart files of the same name (every split is dev.jsonl.xz)."""
    path = Path(path)
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name


class DataError(Exception):
    """A corpus problem the user can fix; the message is one line naming file and line."""


@dataclass
class Document:
    id: str
    src: list[str]
    tgt: list[str]


def _open_text(path: Path):
    if path.suffix == ".xz":
        return lzma.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


def read_documents(path: str | Path, src: str, tgt: str, untokenize: bool = False) -> Iterator[Document]:
    """Stream documents from a JSONL(.xz) corpus in direction ``src`` -> ``tgt``.

    ``untokenize``: Moses-tokenized English sides are read back as plain text (dev splits;
    training.moses_text says why).
    """
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: no such corpus file")
    try:
        with _open_text(path) as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                doc = _parse_line(path, lineno, line, src, tgt)
                if untokenize:
                    doc = Document(doc.id, untokenized_side(doc.src, src), untokenized_side(doc.tgt, tgt))
                yield doc
    except (lzma.LZMAError, EOFError) as e:
        raise DataError(f"{path}: not a readable xz file ({e})") from None
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None


# The zh<->en corpora whose training pairs the word lists of doctrans/data are measured on
# (training.translated_caps, han_doubles, surname_words, kept_in_chinese, english_words).
ZH_EN_CORPORA = ("tvsub-zh-en", "pydocs-en-zh", "django-en-zh")


def training_pairs(data: Path, corpora: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Every (English, Chinese) sentence pair of the corpora's training splits (never the dev
    splits), in order: what the lists of doctrans/data are measured on (training.han_doubles,
    training.translated_caps, training.surname_words, training.kept_in_chinese)."""
    for corpus in corpora:
        for doc in read_documents(data / corpus / "train.jsonl.xz", "en", "zh"):
            yield from zip(doc.src, doc.tgt, strict=True)


def write_word_list(path: Path, about: str, built_by: str, words: Sequence[str]) -> None:
    """A list of doctrans/data: a line saying what it is, one saying how it was built, one entry a line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {about}\n# Built by: {built_by}\n" + "".join(w + "\n" for w in words), encoding="utf-8")


def _parse_line(path: Path, lineno: int, line: str, src: str, tgt: str) -> Document:
    where = f"{path}:{lineno}"
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise DataError(f"{where}: invalid JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(obj, dict):
        raise DataError(f"{where}: expected a JSON object per line, got {type(obj).__name__}")
    for lang in (src, tgt):
        if lang not in obj:
            langs = sorted(k for k, v in obj.items() if isinstance(v, list))
            raise DataError(f"{where}: no {lang!r} side (languages here: {', '.join(langs) or 'none'})")
        value = obj[lang]
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise DataError(f"{where}: {lang!r} must be a list of strings")
    if len(obj[src]) != len(obj[tgt]):
        raise DataError(f"{where}: {src!r} has {len(obj[src])} sentences but {tgt!r} has {len(obj[tgt])}")
    return Document(str(obj.get("id", f"line-{lineno}")), obj[src], obj[tgt])


# ---------------------------------------------------------------------------------------
# Tokenized corpus
# ---------------------------------------------------------------------------------------

@dataclass
class TokenizedCorpus:
    """All sentence pairs of a corpus as token ids, documents kept in order.

    ``src_tokens``/``tgt_tokens``: flat int32 arrays; ``src_offsets``/``tgt_offsets``: where
    each sentence starts (length n+1); ``doc_offsets``: first sentence of each document (+ end).
    Sentences carry no BOS/EOS: batching adds them.
    """

    src_tokens: np.ndarray
    src_offsets: np.ndarray
    tgt_tokens: np.ndarray
    tgt_offsets: np.ndarray
    doc_offsets: np.ndarray
    doc_ids: list[str]

    @property
    def n_sentences(self) -> int:
        return len(self.src_offsets) - 1

    @property
    def n_documents(self) -> int:
        return len(self.doc_offsets) - 1

    def src(self, i: int) -> np.ndarray:
        return self.src_tokens[self.src_offsets[i]:self.src_offsets[i + 1]]

    def tgt(self, i: int) -> np.ndarray:
        return self.tgt_tokens[self.tgt_offsets[i]:self.tgt_offsets[i + 1]]

    def lengths(self) -> tuple[np.ndarray, np.ndarray]:
        return np.diff(self.src_offsets), np.diff(self.tgt_offsets)

    def save(self, path: Path) -> None:
        np.savez(path, src_tokens=self.src_tokens, src_offsets=self.src_offsets,
                 tgt_tokens=self.tgt_tokens, tgt_offsets=self.tgt_offsets,
                 doc_offsets=self.doc_offsets, doc_ids=np.array(self.doc_ids))

    @classmethod
    def load(cls, path: Path) -> TokenizedCorpus:
        z = np.load(path)
        return cls(z["src_tokens"], z["src_offsets"], z["tgt_tokens"], z["tgt_offsets"],
                   z["doc_offsets"], [str(x) for x in z["doc_ids"]])


def tokenize_corpus(path: str | Path, src: str, tgt: str, encode, max_tokens: int,
                    max_docs: int | None = None, untokenize: bool = False) -> TokenizedCorpus:
    """Tokenize a corpus with ``encode(list[str]) -> list[list[int]]``; sentences are cut to
    ``max_tokens`` so they fit the model's position table (BOS/EOS included). ``untokenize``:
    see :func:`read_documents`."""
    srcs: list[list[int]] = []
    tgts: list[list[int]] = []
    doc_offsets, doc_ids = [0], []
    for n, doc in enumerate(read_documents(path, src, tgt, untokenize)):
        if max_docs is not None and n >= max_docs:
            break
        srcs += [s[: max_tokens - 1] for s in encode(doc.src)]  # room for EOS
        tgts += [t[: max_tokens - 1] for t in encode(doc.tgt)]
        doc_offsets.append(len(srcs))
        doc_ids.append(doc.id)
    if len(doc_ids) == 0:
        raise DataError(f"{path}: no documents")

    def flat(seqs: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(s) for s in seqs])
        tokens = np.fromiter((t for s in seqs for t in s), dtype=np.int32, count=int(offsets[-1]))
        return tokens, offsets

    st, so = flat(srcs)
    tt, to = flat(tgts)
    return TokenizedCorpus(st, so, tt, to, np.array(doc_offsets, dtype=np.int64), doc_ids)


# ---------------------------------------------------------------------------------------
# Batches
# ---------------------------------------------------------------------------------------

@dataclass
class Batch:
    src: np.ndarray  # (B, S)  source + EOS, padded
    tgt_in: np.ndarray  # (B, T)  BOS + target, padded
    tgt_out: np.ndarray  # (B, T)  target + EOS, padded
    pad_id: int  # the padding id the arrays were filled with

    @property
    def n_tokens(self) -> int:
        """Target tokens (EOS included) the loss counts."""
        return int((self.tgt_out != self.pad_id).sum())


def _gather(tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int, pad: int) -> np.ndarray:
    """(B, width) array: row r holds tokens[starts[r]:starts[r]+lengths[r]], then ``pad``."""
    cols = np.arange(width)
    keep = cols[None, :] < lengths[:, None]
    at = np.where(keep, starts[:, None] + cols[None, :], 0)
    return np.where(keep, tokens[at] if len(tokens) else 0, pad).astype(np.int64)


def collate(corpus: TokenizedCorpus, idx: list[int | None], pad: int, bos: int, eos: int) -> Batch:
    """Pad sentence pairs ``idx`` into a batch; ``None`` gives an all-padding row.

    Vectorised (no Python loop over sentences): a GPU step on a 32k-token batch of subtitle
    lines takes a few tens of milliseconds, and a per-sentence loop over ~3,000 lines cost as much.
    """
    real = np.array([i is not None for i in idx], dtype=bool)
    rows = np.array([i if i is not None else 0 for i in idx], dtype=np.int64)
    src_len = np.where(real, corpus.src_offsets[rows + 1] - corpus.src_offsets[rows], 0)
    tgt_len = np.where(real, corpus.tgt_offsets[rows + 1] - corpus.tgt_offsets[rows], 0)
    S = max(1, int((src_len + real).max(initial=0)))  # + EOS
    T = max(1, int((tgt_len + 1).max(initial=0)) if real.any() else 1)  # + BOS / EOS
    src = _gather(corpus.src_tokens, corpus.src_offsets[rows], src_len, S, pad)
    src[real, src_len[real]] = eos
    tgt = _gather(corpus.tgt_tokens, corpus.tgt_offsets[rows], tgt_len, T, pad)
    tin = np.full((len(idx), T), pad, np.int64)
    tin[:, 1:] = tgt[:, :-1]
    tin[real, 0] = bos
    tin[~real] = pad
    tout = tgt.copy()
    tout[real, tgt_len[real]] = eos
    return Batch(src, tin, tout, pad)


def sentence_batches(corpus: TokenizedCorpus, max_tokens: int, seed: int, epoch: int,
                     pool: int = 100) -> list[list[int]]:
    """One epoch of shuffled, token-bucketed batches of sentence indices (stage 1).

    Sentences are shuffled, then sorted by length inside pools of ``pool`` batches so a batch
    holds similar lengths (little padding), then the batches are shuffled. A batch holds at most
    ``max_tokens`` padded tokens on its longer side (a longer sentence alone is a batch).
    Pure function of (seed, epoch). Loops over batches, not sentences: an epoch of the full
    bidirectional corpus is ~5 million sentences.
    """
    rng = np.random.default_rng([seed, epoch])
    ls, lt = corpus.lengths()
    length = np.maximum(ls, lt) + 1
    order = rng.permutation(corpus.n_sentences)
    batches: list[list[int]] = []
    approx = max(1, max_tokens // max(1, int(np.median(length))))
    chunk = approx * pool
    for start in range(0, len(order), chunk):
        part = order[start:start + chunk]
        part = part[np.argsort(length[part], kind="stable")]
        lens = length[part]
        p = 0
        while p < len(part):
            # Sorted ascending, so a batch of n from p is padded to lens[p+n-1]: the largest n
            # with lens[p+n-1] * n <= max_tokens (the product grows with n), at least 1.
            window = lens[p:p + max_tokens]
            fits = window * np.arange(1, len(window) + 1) <= max_tokens
            n = max(1, int(np.argmin(fits)) if not fits.all() else len(window))
            batches.append(part[p:p + n].tolist())
            p += n
    return [batches[i] for i in rng.permutation(len(batches))]


def document_streams(corpus: TokenizedCorpus, rows: int, seed: int, epoch: int
                     ) -> Iterator[tuple[list[int | None], np.ndarray]]:
    """One epoch of document streams (stage 2): yields (sentence index per row, reset mask).

    Each row reads whole documents in order, one sentence per step; when a row's document ends
    it takes the next document of the (shuffled) queue and its ``reset`` flag is set, so the
    trainer restarts that row's memory from M_0. Rows with no documents left yield ``None``.
    Pure function of (seed, epoch), so a resumed run skips ahead by replaying indices only.
    """
    rng = np.random.default_rng([seed, epoch, 2])
    queue = list(rng.permutation(corpus.n_documents))
    pos: list[int | None] = [None] * rows
    end: list[int] = [0] * rows
    while True:
        reset = np.zeros(rows, dtype=bool)
        for r in range(rows):
            p = pos[r]
            if p is None or p >= end[r]:
                pos[r] = None
                while queue:
                    d = int(queue.pop(0))
                    a, b = int(corpus.doc_offsets[d]), int(corpus.doc_offsets[d + 1])
                    if b > a:
                        pos[r], end[r], reset[r] = a, b, True
                        break
        if all(p is None for p in pos):
            return
        yield list(pos), reset
        pos = [p + 1 if p is not None else None for p in pos]


def length_chunks(corpus: TokenizedCorpus, steps: Sequence[Sequence[int | None]], budget: int) -> list[np.ndarray]:
    """The rows of one stage-2 stream step as sub-batches of similar length (row indices each).

    A stream step holds one sentence per row (``steps``: that step's indices and, when the memory
    is recomputed, the previous step's), padded to the longest: mixing subtitle lines with code
    blocks, the H200's stage 2 padded 256 rows of sentences 16 tokens long on average to the
    longest of each step (the zh<->en cache, 300 steps: 9 % of the padded positions were tokens),
    60x fewer tokens/s than stage 1, and 72 GB. The rows are independent (each reads and writes
    its own memory), so they can go through in parts: by their longest sentence (source + EOS or
    BOS + target, over ``steps``) in buckets that at most double (up to 16, 17-32, 33-64, ...),
    each cut where ``rows x longest`` would pass ``budget`` positions. One part, in the rows' own
    order, when the whole step fits the budget with at most half of it padding. On the same 300
    steps: 4.8 parts a step, 51 % of the positions tokens, 5.8x fewer positions (untimed on a GPU)."""
    lengths = np.zeros(len(steps[0]), dtype=np.int64)
    for idx in steps:
        real = np.array([i is not None for i in idx], dtype=bool)
        rows = np.array([i if i is not None else 0 for i in idx], dtype=np.int64)
        src = corpus.src_offsets[rows + 1] - corpus.src_offsets[rows]
        tgt = corpus.tgt_offsets[rows + 1] - corpus.tgt_offsets[rows]
        lengths = np.maximum(lengths, np.where(real, np.maximum(src, tgt) + 1, 1))
    longest = int(lengths.max(initial=1))
    if len(lengths) * longest <= min(budget, 2 * int(lengths.sum())):
        return [np.arange(len(lengths))]
    order = np.argsort(lengths, kind="stable")
    bucket = np.ceil(np.log2(np.maximum(lengths[order], 16))).astype(np.int64)
    parts: list[np.ndarray] = []
    start = 0
    for k in range(1, len(order)):
        # Ascending lengths: order[k] would be the longest of order[start:k + 1].
        if bucket[k] != bucket[start] or (k + 1 - start) * int(lengths[order[k]]) > budget:
            parts.append(order[start:k])
            start = k
    parts.append(order[start:])
    return parts
