"""Decoding in PyTorch: beam search (greedy = beam 1) and the document memory loop.

This is the reference the ONNX engine (doctrans/engine) is checked against: the memory loop is
the same, and the beam search is literally the engine's (``doctrans.engine.beam``, fairseq's
rules: top 2K candidates, EOS among the first K finishes a hypothesis scored
``logprob / gen_len ** length_penalty``, length limit ``min(max_len - 1, 2 * src_len + 10)``)
driven by the PyTorch decoder, so the two can only differ in the networks themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import torch
from torch import Tensor

from doctrans.engine import beam as engine_beam
from doctrans.engine.beam import max_new_tokens
from training.model import MemoryTransformer, ModelConfig


class StepModel(Protocol):
    """What the search needs of a model: the memory model, or the context-cache model whose
    ``mem`` is its Context (anything indexable by row)."""

    @property
    def cfg(self) -> ModelConfig: ...

    def cross_kv(self, enc_out: Tensor) -> list[tuple[Tensor, Tensor]]: ...

    def decode_step(self, tokens: Tensor, cross_kv: list[tuple[Tensor, Tensor]], src: Tensor, mem: Any,
                    past: list[tuple[Tensor, Tensor]] | None, start: int, /,
                    ) -> tuple[Tensor, list[tuple[Tensor, Tensor]]]: ...


__all__ = ["DocumentTranslation", "beam_search", "max_new_tokens", "pad_rows", "translate_documents"]


def pad_rows(rows: list[list[int]], pad: int, device: torch.device | None = None) -> Tensor:
    width = max(1, max(len(r) for r in rows))
    out = torch.full((len(rows), width), pad, dtype=torch.long, device=device)
    for i, r in enumerate(rows):
        out[i, : len(r)] = torch.tensor(r, dtype=torch.long)
    return out


class _TorchStepDecoder:
    """The PyTorch decoder behind the engine's search: one incremental step for all B*K rows."""

    def __init__(self, model: StepModel, cross_kv: list[tuple[Tensor, Tensor]], src: Tensor, mem: Any):
        self.model, self.cross_kv, self.src, self.mem = model, cross_kv, src, mem
        self.past: list[tuple[Tensor, Tensor]] | None = None

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        last = torch.from_numpy(tokens).to(self.src.device)
        logits, self.past = self.model.decode_step(last, self.cross_kv, self.src, self.mem, self.past, t)
        return logits[:, -1].float().cpu().numpy()

    def reorder(self, origin: np.ndarray) -> None:
        idx = torch.from_numpy(origin).to(self.src.device)
        self.past = [(k[idx], v[idx]) for k, v in self.past or []]


@torch.no_grad()
def beam_search(model: StepModel, src: Tensor, enc_out: Tensor, mem_tgt: Any,
                beam: int = 5, length_penalty: float = 1.0, no_repeat_ngram: int = 0) -> list[tuple[list[int], float]]:
    """Best hypothesis (tokens without BOS/EOS, normalized score) for each row of ``src``.

    The search itself is the engine's (doctrans.engine.beam): one implementation of the beam
    bookkeeping, so the PyTorch reference and the ONNX engine can only differ in the networks.
    """
    cfg = model.cfg
    B, K = src.shape[0], beam
    rep = torch.arange(B, device=src.device).repeat_interleave(K)
    decoder = _TorchStepDecoder(model, [(k[rep], v[rep]) for k, v in model.cross_kv(enc_out)], src[rep],
                                mem_tgt[rep] if mem_tgt is not None else None)
    limits = [max_new_tokens(int((src[b] != cfg.pad_id).sum()), cfg.max_len) for b in range(B)]
    hyps = engine_beam.beam_search(decoder, B, K, limits, cfg.bos_id, cfg.eos_id, length_penalty, no_repeat_ngram)
    return [(h.tokens, h.score) for h in hyps]


@dataclass
class DocumentTranslation:
    hypotheses: list[list[int]]  # token ids per sentence
    memories: list[dict[str, Tensor]]  # memory after each sentence (if recorded)


@torch.no_grad()
def translate_documents(model: MemoryTransformer, documents: list[list[list[int]]], beam: int = 5,
                        length_penalty: float = 1.0, record_memory: bool = False,
                        max_rows: int = 64, no_repeat_ngram: int = 0) -> list[DocumentTranslation]:
    """Translate documents (lists of source token ids, no EOS) in order with the memory loop.

    Documents run side by side as rows (``max_rows`` at a time); each sentence reads the memory
    written by that document's earlier sentences, and after its translation is complete the
    source and target memories are updated (target states from the decoder over the chosen
    hypothesis, teacher-forced).
    """
    out: list[DocumentTranslation] = []
    for start in range(0, len(documents), max_rows):
        out += _translate_rows(model, documents[start:start + max_rows], beam, length_penalty, record_memory,
                               no_repeat_ngram)
    return out


def _translate_rows(model, docs, beam, length_penalty, record_memory, no_repeat_ngram):
    cfg = model.cfg
    device = next(model.parameters()).device
    results = [DocumentTranslation([], []) for _ in docs]
    memory = {k: v.clone() for k, v in model.init_memory(len(docs)).items()}
    for t in range(max((len(d) for d in docs), default=0)):
        rows = [r for r, d in enumerate(docs) if t < len(d)]
        idx = torch.tensor(rows, device=device)
        src = pad_rows([[*docs[r][t][:cfg.max_len - 1], cfg.eos_id] for r in rows], cfg.pad_id, device)
        mem = {side: m[idx] for side, m in memory.items()}
        enc, src_states, _ = model.encode(src, mem.get("src"))
        best = beam_search(model, src, enc, mem.get("tgt"), beam, length_penalty, no_repeat_ngram)
        hyps = [h for h, _ in best]
        if memory:
            tgt_in = pad_rows([[cfg.bos_id, *h] for h in hyps], cfg.pad_id, device)
            _, tgt_states, _, _ = model.decode(tgt_in, model.cross_kv(enc), src, mem.get("tgt"), project=False)
            for side, m in model.write_memory(mem, src, src_states, tgt_in, tgt_states).items():
                memory[side][idx] = m
        for j, r in enumerate(rows):
            results[r].hypotheses.append(hyps[j])
            if record_memory:
                results[r].memories.append({side: m[r].clone() for side, m in memory.items()})
    return results
