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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from doctrans.engine.beam import Hypothesis, beam_search_n_best, max_new_tokens
from doctrans.engine.interface import MemoryState, SentenceAttention, SentenceResult
from doctrans.engine.onnx_engine import (
    FALLBACK_BEAM,
    MAX_FALLBACK_BEAM,
    OnnxDocumentSession,
    OnnxTranslator,
    decode_full,
    encode,
    make_decoder,
    update_memory,
)
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
        tr, info, opt = self.tr, self.tr.info, self.options
        results: list[SentenceResult | None] = [None] * len(sentences)
        active, ids, preps = [], [], []
        for r, sentence in enumerate(sentences):
            if sentence is None:
                continue
            prep = tr.prepare(sentence)
            if prep.model_text is None:  # as OnnxDocumentSession.translate: copied, memory untouched
                results[r] = SentenceResult(source=sentence, translation=prep.copy or "", copied=True)
                continue
            active.append(r)
            ids.append(tr.source_ids(prep.model_text))
            preps.append(prep)
        if not active:
            return results
        hyps, extras = self._run(active, ids, preps, opt)
        for i, r in enumerate(active):
            hyp, prep, sentence = hyps[i], preps[i], sentences[r]
            assert sentence is not None
            restored = prep.restore(tr.tokenizer.decode(hyp.tokens))
            attention = None
            if opt.return_attention:
                attention = SentenceAttention(**{k: v[i] for k, v in extras.items()})
            results[r] = SentenceResult(
                source=sentence, translation=restored.text, src_tokens=tr.tokenizer.pieces(ids[i]),
                tgt_tokens=tr.tokenizer.pieces([info.bos_id, *hyp.tokens]), score=hyp.score, attention=attention,
                notes=restore_warnings(restored, prep.masked))
        return results

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

    # -- the graphs over the active rows ---------------------------------------------------------
    def _run(self, active: list[int], ids: list[list[int]], preps: list, opt: Any,
             ) -> tuple[list[Hypothesis], dict[str, list[np.ndarray | None]]]:
        tr, info, s = self.tr, self.tr.info, self.tr.sessions
        A, lengths = len(active), [len(x) for x in ids]
        src = np.full((A, max(lengths)), info.pad_id, dtype=np.int64)
        for i, x in enumerate(ids):
            src[i, : len(x)] = x
        sessions: list[OnnxDocumentSession] = [self.rows[r] for r in active]
        mem = {side: np.concatenate([d._mem[side] for d in sessions]) for side in sessions[0]._mem}
        enc = encode(s, src, mem)
        mem_tgt = mem.get("tgt")

        def search(rows: slice, K: int, n: int | None = None) -> list[list[Hypothesis]]:
            """The beam search over ``rows`` of the batch (``n``: cut the sources to n tokens)."""
            cut = slice(None) if n is None else slice(0, n)
            x = src[rows, cut]
            dec = make_decoder(s, info, np.repeat(x, K, axis=0), np.repeat(enc["cross_k"][:, rows, :, cut], K, axis=1),
                               np.repeat(enc["cross_v"][:, rows, :, cut], K, axis=1),
                               None if mem_tgt is None else np.repeat(mem_tgt[rows], K, axis=0))
            limits = []
            for length in lengths[rows]:
                limit = max_new_tokens(length, info.max_len)
                limits.append(limit if opt.max_length is None else max(1, min(limit, opt.max_length)))
            return beam_search_n_best(dec, x.shape[0], K, limits, info.bos_id, info.eos_id, opt.length_penalty,
                                      opt.no_repeat_ngram)

        hyps = []
        wider = min(MAX_FALLBACK_BEAM, max(FALLBACK_BEAM, 2 * opt.beam_size))
        for i, nbest in enumerate(search(slice(None), opt.beam_size)):
            nbest = nbest or [Hypothesis([], 0.0)]
            hyp = nbest[0]
            prep = preps[i]
            if prep.masked.spans:  # the placeholder fallback, as OnnxDocumentSession.translate_ids
                def copied(hs: list[Hypothesis], prep: Any = prep) -> Hypothesis | None:
                    return next((h for h in hs if prep.acceptable(tr.tokenizer.decode(h.tokens))), None)

                picked = copied(nbest)
                if picked is None and wider > opt.beam_size:
                    picked = copied(search(slice(i, i + 1), wider, lengths[i])[0] or [])
                hyp = picked or hyp
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
