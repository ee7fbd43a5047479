"""Several documents translated as the rows of one batch, each row its own memory loop (issue 18).

A document's sentences are sequential (each reads the memory the one before wrote), so a single
document cannot be batched; several documents can: at every step, sentence i of each document
goes through the encoder, the beam search (rows x beams decoder rows), decoder_full and the
memory update together, and every row reads and writes only its own document's memory.

    batch = BatchedDocuments(translator, rows=3)
    results = batch.translate(["first of doc A", "first of doc B", None])   # None: row idle this step
    batch.memory(1)                                                          # doc B's memory (--resume)

or :meth:`BatchedDocuments.translate_documents` for whole documents. Per sentence the results are
those of one document at a time (``OnnxDocumentSession.translate``, same options): sources are
padded to the longest of the step, and padding is masked everywhere (attention weights of exactly
0), so a row computes what it computes alone up to the order of float additions -- with an fp32
bundle the tokens are the same (tests/test_engine_batch.py). With an **int8** bundle they can
differ a little: ONNX Runtime quantizes a MatMul's activations with one scale per tensor, so the
other rows of the batch move a row's rounding (as the other beams already do within a sentence).
Verbatim placeholders and the wider-beam fallback work per row as in the one-document session
(the fallback search runs for that row alone, on its own unpadded inputs).

:func:`translate_rows` is the same step over any document sessions that share a model's graphs
and decoding options (:func:`batch_key`): each row may have its own translator object -- its own
direction of a bidirectional bundle, its own glossary -- since only the source preparation and
the decoding differ per row. ``doctrans translate --batch-docs N`` drives it (doctrans.batch).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from doctrans.engine.beam import Hypothesis, beam_search_n_best, max_new_tokens
from doctrans.engine.interface import MemoryState, SentenceAttention, SentenceResult
from doctrans.engine.onnx_engine import (
    OnnxDocumentSession,
    OnnxTranslator,
    _Decoder,
    decode_full,
    encode,
    fallback_beam,
    make_decoder,
    update_memory,
    walk_states,
)
from doctrans.engine.protect import Prepared
from doctrans.verbatim import restore_warnings


class BatchedDocuments:
    """``rows`` documents translated together; ``memories[r]``: row r resumed from a saved memory."""

    def __init__(self, tr: OnnxTranslator, rows: int, memories: Sequence[MemoryState | None] | None = None,
                 **options: Any):
        if memories is not None and len(memories) != rows:
            raise ValueError(f"{len(memories)} memories for {rows} rows")
        # One document session per row holds (and checks) that row's memory, exactly as alone.
        self.rows = [tr.new_document(None if memories is None else memories[r], **options) for r in range(rows)]
        self.tr = tr
        self.options = self.rows[0].options if rows else tr.options.override(**options)

    def memory(self, row: int) -> MemoryState:
        return self.rows[row].memory

    def translate(self, sentences: Sequence[str | None]) -> list[SentenceResult | None]:
        """The next sentence of every row (None: that row has none this step; its memory is kept)."""
        if len(sentences) != len(self.rows):
            raise ValueError(f"{len(sentences)} sentences for {len(self.rows)} rows")
        return translate_rows(self.rows, sentences)

    def translate_documents(self, documents: Sequence[Sequence[str]]) -> list[list[SentenceResult]]:
        """Whole documents, one per row, sentence i of each at step i (a row idles once its
        document has ended)."""
        if len(documents) != len(self.rows):
            raise ValueError(f"{len(documents)} documents for {len(self.rows)} rows")
        out: list[list[SentenceResult]] = [[] for _ in documents]
        for i in range(max((len(d) for d in documents), default=0)):
            step = self.translate([d[i] if i < len(d) else None for d in documents])
            for r, res in enumerate(step):
                if res is not None:
                    out[r].append(res)
        return out


def batch_key(session: object) -> Hashable | None:
    """Sessions with equal keys can be rows of one :func:`translate_rows` step: the same ONNX graphs
    (one bundle, loaded once; any of its directions) and the same decoding options. None: not an
    ONNX session (another engine translates its sentences one at a time)."""
    if not isinstance(session, OnnxDocumentSession):
        return None
    return id(session.tr.sessions), tuple(sorted(session.options.__dict__.items()))


def translate_rows(rows: Sequence[OnnxDocumentSession], sentences: Sequence[str | None],
                   ) -> list[SentenceResult | None]:
    """The next sentence of each session, all through one batch (None: that row has none this step;
    its memory is kept). Every row's memory moves on as ``rows[r].translate(sentences[r])`` would move
    it; the sessions must share one :func:`batch_key`."""
    if len(sentences) != len(rows):
        raise ValueError(f"{len(sentences)} sentences for {len(rows)} rows")
    if len({batch_key(d) for d in rows}) > 1 or (rows and batch_key(rows[0]) is None):
        raise ValueError("the rows of one batch must be sessions of one model with the same options")
    results: list[SentenceResult | None] = [None] * len(sentences)
    active: list[OnnxDocumentSession] = []
    ids, preps, where = [], [], []
    for r, (row, sentence) in enumerate(zip(rows, sentences, strict=True)):
        if sentence is None:
            continue
        prep = row.tr.prepare(sentence, quoted_alone=True)  # each row its own glossary and direction tag
        if prep.model_text is None:  # as OnnxDocumentSession.translate: copied, memory untouched
            results[r] = SentenceResult(source=sentence, translation=prep.copy or "", copied=True)
            continue
        active.append(row)
        ids.append(row.tr.source_ids(prep.model_text))
        preps.append(prep)
        where.append(r)
    if not active:
        return results
    opt = active[0].options
    # Each row's memory before this step: the update rebinds arrays (never writes into them), so
    # a shallow copy of the dict keeps them (OnnxDocumentSession.translate does the same).
    memory_before = [dict(row._mem) for row in active]
    hyps, extras = _run(active, ids, preps, opt)
    for i, r in enumerate(where):
        hyp, prep, sentence, tr = hyps[i], preps[i], sentences[r], active[i].tr
        assert sentence is not None
        restored = prep.restore(tr.tokenizer.decode(hyp.tokens))
        if prep.names_to_keep(restored.text):
            # The row's translation names a place its source does not: that row alone, from its
            # memory before, as OnnxDocumentSession.translate does it (the same search, then again
            # with the source's rare names kept), so a batch gives what one at a time gives.
            active[i]._mem = memory_before[i]
            results[r] = active[i].translate(sentence)
            continue
        attention = None
        if opt.return_attention:
            attention = SentenceAttention(**{k: v[i] for k, v in extras.items()})
        results[r] = SentenceResult(
            source=sentence, translation=restored.text, src_tokens=tr.tokenizer.pieces(ids[i]),
            tgt_tokens=tr.tokenizer.pieces([tr.info.bos_id, *hyp.tokens]), score=hyp.score, attention=attention,
            notes=restore_warnings(restored, prep.masked))
    return results


def translate_ids_rows(rows: Sequence[OnnxDocumentSession], ids: Sequence[list[int]]) -> list[Hypothesis]:
    """One sentence per row as source ids (``tr.source_ids``: tag, pieces, EOS) -> each row's best
    hypothesis; every row's memory moves on. No verbatim spans (nothing was masked): the step of
    :func:`translate_rows` without the text around it (benchmarks/vs_ctranslate2.py times it)."""
    if len({batch_key(d) for d in rows}) > 1 or (rows and batch_key(rows[0]) is None):
        raise ValueError("the rows of one batch must be sessions of one model with the same options")
    if not rows:
        return []
    return _run(list(rows), [list(x) for x in ids], [None] * len(rows), rows[0].options)[0]


# -- the graphs over the active rows -------------------------------------------------------------
def _run(sessions: list[OnnxDocumentSession], ids: list[list[int]], preps: Sequence[Prepared | None], opt: Any,
         ) -> tuple[list[Hypothesis], dict[str, list[np.ndarray | None]]]:
    tr = sessions[0].tr
    info, s = tr.info, tr.sessions
    A, lengths = len(sessions), [len(x) for x in ids]
    src = np.full((A, max(lengths)), info.pad_id, dtype=np.int64)
    for i, x in enumerate(ids):
        src[i, : len(x)] = x
    mem = {side: np.concatenate([d._mem[side] for d in sessions]) for side in sessions[0]._mem}
    enc = encode(s, src, mem)
    mem_tgt = mem.get("tgt")

    def search(rows: slice, K: int, n: int | None = None) -> list[list[Hypothesis]]:
        """The beam search over ``rows`` of the batch (``n``: cut the sources to n tokens)."""
        cut = slice(None) if n is None else slice(0, n)
        x = src[rows, cut]
        dec: Any = make_decoder(s, info, x, enc["cross_k"][:, rows, :, cut], enc["cross_v"][:, rows, :, cut],
                                None if mem_tgt is None else mem_tgt[rows],
                                keep_states=mem_tgt is not None and not opt.return_attention, beam=K)
        if isinstance(dec, _Decoder) and x.shape[0] > 1:
            dec = _LiveRows(dec, K, info.eos_id)
        limits = []
        for length in lengths[rows]:
            limit = max_new_tokens(length, info.max_len)
            limits.append(limit if opt.max_length is None else max(1, min(limit, opt.max_length)))
        bans = [tr.tokenizer.search_bans(row[:n], opt.new_digits, opt.bans_for(tr.tgt_lang))
                for row, n in zip(ids[rows], lengths[rows], strict=True)]
        return beam_search_n_best(dec, x.shape[0], K, limits, info.bos_id, info.eos_id, opt.length_penalty,
                                  opt.no_repeat_ngram, tr.tokenizer.repeat_guard(opt.max_repeat_run),
                                  [never for never, _ in bans], [once for _, once in bans])

    hyps = []
    wider = fallback_beam(opt.beam_size)
    for i, nbest in enumerate(search(slice(None), opt.beam_size)):
        nbest = nbest or [Hypothesis([], 0.0)]
        hyp = nbest[0]
        prep = preps[i]
        if prep is not None:  # the choice and the wider search, as OnnxDocumentSession.translate_ids
            def again(i: int = i, wider: int = wider or 0) -> list[Hypothesis]:
                return search(slice(i, i + 1), wider, lengths[i])[0] or [Hypothesis([], 0.0)]

            hyp = prep.choose(nbest, lambda h: tr.tokenizer.decode(h.tokens), again if wider else None)
        hyps.append(hyp)

    extras: dict[str, list[np.ndarray | None]] = {}
    if "src_output_attn" in enc:
        extras["src_output"] = [enc["src_output_attn"][i, -1][:, : lengths[i]] for i in range(A)]
    if not mem:
        return hyps, extras
    tgt_lengths = [len(h.tokens) + 1 for h in hyps]
    tgt = np.full((A, max(tgt_lengths)), info.pad_id, dtype=np.int64)
    for i, h in enumerate(hyps):
        tgt[i, : tgt_lengths[i]] = [info.bos_id, *h.tokens]
    if mem_tgt is None or (not opt.return_attention and all(h.states is not None for h in hyps)):
        # The search's own target states, as OnnxDocumentSession.translate_ids uses them (padding
        # positions are zeros: the memory update masks them by tgt_ids).
        full = {} if mem_tgt is None else {"h_tgt": _padded_states(hyps, tgt.shape[1])}
    else:
        full = decode_full(s, tgt, src, enc, mem_tgt)
    if "tgt_output_attn" in full:
        extras["tgt_output"] = [full["tgt_output_attn"][i, -1][:, : tgt_lengths[i]] for i in range(A)]
    upd = update_memory(s, mem, src, enc, tgt, full)
    for side in mem:
        n = lengths if side == "src" else tgt_lengths
        for i, d in enumerate(sessions):
            d._mem[side] = upd[f"mem_{side}_next"][i: i + 1].copy()
        extras[f"{side}_update"] = [upd[f"{side}_update_attn"][i, -1][:, :, : n[i]] for i in range(A)]
    return hyps, extras


def _padded_states(hyps: list[Hypothesis], length: int) -> np.ndarray:
    first = hyps[0].states
    assert first is not None  # checked by the caller
    out = np.zeros((len(hyps), first.shape[1], length, first.shape[3]), dtype=first.dtype)
    for i, h in enumerate(hyps):
        assert h.states is not None
        out[i, :, : h.states.shape[2]] = h.states[0]
    return out


class _LiveRows:
    """The step decoder of a batch of documents that stops computing the rows whose search is over.

    The beam search runs until every row of the batch is done; a row that finished early (or
    whose beams all ended) would still go through every decoder step up to the last row's end --
    and a small model looping up to its length limit (2 x source + 10 tokens) in one document
    made the whole batch pay for it (measured on the shipped zh-en int8 model: batching was
    slower than one document at a time). Such a row is recognised by its K last tokens all being
    EOS (beam.py feeds EOS to every beam that is not live, and a live beam never has EOS), and is
    cut out of the decoder's batch -- source, cross K/V, memory and KV cache -- from then on; its
    outputs are filled with zeros, which the search never reads (done rows are skipped, and a row
    with no live beam has every score at -inf). The other rows compute exactly what they did.
    """

    def __init__(self, inner: _Decoder, beam: int, eos_id: int):
        self.inner, self.K, self.eos = inner, beam, eos_id
        self.gives_log_probs = inner.gives_log_probs
        n = inner.identity.shape[0]
        self.alive = np.arange(n)  # the search's row of each row the decoder still computes
        self.where = np.arange(n)  # the decoder's row of each row of the search (-1: cut out)
        # The inner decoder's target states, kept here in the search's rows (its own rows shrink).
        self.states: list[np.ndarray] = []
        self.origins: list[np.ndarray | None] = []

    def _keep(self, rows: int) -> None:
        if self.inner.keep_states:
            last = self.inner.states[-1]
            self.states.append(last if last.shape[0] == rows else self._spread(last, rows))

    def states_of(self, row: int) -> np.ndarray | None:
        return walk_states(self.states, self.origins, row) if self.inner.keep_states else None

    def _cut(self, tokens: np.ndarray) -> None:
        over = (tokens[:, 0].reshape(-1, self.K) == self.eos).all(axis=1)
        keep = np.flatnonzero(~over[self.alive // self.K])
        if keep.shape[0] == self.alive.shape[0]:
            return
        self.inner.take_rows(keep)
        self.alive = self.alive[keep]
        self.where = np.full(tokens.shape[0], -1)
        self.where[self.alive] = np.arange(keep.shape[0])

    def _spread(self, part: np.ndarray, rows: int) -> np.ndarray:
        full = np.zeros((rows, *part.shape[1:]), dtype=part.dtype)
        full[self.alive] = part
        return full

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        self._cut(tokens)
        if self.alive.shape[0] == tokens.shape[0]:
            logits = self.inner.step(tokens, t)
        else:
            logits = self._spread(self.inner.step(tokens[self.alive], t), tokens.shape[0])
        self._keep(tokens.shape[0])
        return logits

    def step_topk(self, tokens: np.ndarray, t: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        self._cut(tokens)
        if self.alive.shape[0] == tokens.shape[0]:
            values, ids = self.inner.step_topk(tokens, t, k)
        else:
            values, ids = self.inner.step_topk(tokens[self.alive], t, k)
            values, ids = self._spread(values, tokens.shape[0]), self._spread(ids, tokens.shape[0])
        self._keep(tokens.shape[0])
        return values, ids

    def reorder(self, origin: np.ndarray) -> None:
        if self.inner.keep_states:  # in the search's rows; the inner decoder records its own
            self.origins.append(origin.copy())
        # A beam continues a beam of its own row, and a row that is cut out never moves.
        self.inner.reorder(origin if self.alive.shape[0] == origin.shape[0] else self.where[origin[self.alive]])
