"""The two graphs of an SMDT bundle, as thin ``nn.Module`` wrappers over :class:`training.smdt.SMDT`.

The sentence-by-sentence form (``instance_tokens=1``, the auxiliary task's instances): one
sentence + ``</s>``, then its retrieved pairs ``x^r <sep> y^r </s>`` (docs/approaches.md, "What is
not here"). As in export/graphs.py the wrappers only *call* the model's own methods (``encode``,
``cross_kv``, ``decode``), so the graphs cannot drift from what training and
``training.smdt.translate_documents`` run.

- **smdt_encoder**: ``(src_ids, positions, meta)`` -> ``enc_out``, ``src_info`` (tag, kind,
  visible: the selection layer's argmax is inside, a dropped retrieved token is 0 in ``visible``
  and zero in ``enc_out``), the cross K/V of every decoder layer's local attention
  ``(dec_layers, B, heads, S, d_head)`` and of the top layers' global attention
  ``(global_layers, B, heads, S, d_head)``.
- **smdt_decoder**: one step for every row: ``(tokens, step, src_info, cross K/V, past K/V)`` ->
  ``logits`` and the cache with this step appended; the cache holds the local self-attention
  K/V of every layer and the global self-attention K/V of the top layers (G-Transformer's
  ``decode``: two pairs per top layer). The target tags are all 1 (one sentence per instance),
  made inside the graph from the shapes.

The encoder's selection is traced on inputs that have retrieved tokens, so it is in the graph; on
a sentence with none, ``SMDT.keep`` would skip it in PyTorch, and the graph computes it and keeps
every document token anyway (``torch.where`` on the retrieved mask): the same output.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from training.smdt import SMDT

ENCODER_IO = (["src_ids", "positions", "meta"],
              ["enc_out", "src_info", "cross_k", "cross_v", "cross_gk", "cross_gv"])
DECODER_IO = (["tokens", "step", "src_info", "cross_k", "cross_v", "cross_gk", "cross_gv",
               "past_k", "past_v", "past_gk", "past_gv"],
              ["logits", "new_k", "new_v", "new_gk", "new_gv"])
SMDT_GRAPH_IO = {"smdt_encoder": ENCODER_IO, "smdt_decoder": DECODER_IO}

_KV = {1: "batch", 3: "src_len"}
_PAST = {1: "batch", 3: "past_len"}
_NEW = {1: "batch", 3: "new_len"}
SMDT_DYNAMIC_AXES: dict[str, dict[int, str]] = {
    "src_ids": {0: "batch", 1: "src_len"}, "positions": {0: "batch", 1: "src_len"},
    "meta": {0: "batch", 1: "src_len"}, "enc_out": {0: "batch", 1: "src_len"},
    "src_info": {0: "batch", 1: "src_len"},
    "cross_k": _KV, "cross_v": _KV, "cross_gk": _KV, "cross_gv": _KV,
    "tokens": {0: "batch"}, "logits": {0: "batch"},
    "past_k": _PAST, "past_v": _PAST, "past_gk": _PAST, "past_gv": _PAST,
    "new_k": _NEW, "new_v": _NEW, "new_gk": _NEW, "new_gv": _NEW,
}


def smdt_dynamic_axes(names: list[str]) -> dict[str, dict[int, str]]:
    return {n: dict(SMDT_DYNAMIC_AXES[n]) for n in names if n in SMDT_DYNAMIC_AXES}  # "step" is a scalar


def first_global(model: SMDT) -> int:
    """Index of the first decoder layer with the global attention (the top ``global_layers``)."""
    return model.cfg.dec_layers - model.cfg.global_layers


class SMDTEncoderGraph(nn.Module):
    """(src_ids, positions, meta) -> enc_out, src_info, local cross K/V, global cross K/V."""

    def __init__(self, model: SMDT):
        super().__init__()
        self.model = model

    def forward(self, src_ids: Tensor, positions: Tensor, meta: Tensor):
        enc, info = self.model.encode(src_ids, positions, meta)
        cross = self.model.cross_kv(enc)
        top = cross[first_global(self.model):]
        return (enc, info, torch.stack([c[0] for c in cross]), torch.stack([c[1] for c in cross]),
                torch.stack([c[2] for c in top]), torch.stack([c[3] for c in top]))


class SMDTDecoderStepGraph(nn.Module):
    """One incremental step of every row; ``step`` is the position of ``tokens`` (= the cache length)."""

    def __init__(self, model: SMDT):
        super().__init__()
        self.model = model
        self.n = model.cfg.dec_layers
        self.g0 = first_global(model)

    def _layers(self, k: Tensor, v: Tensor, gk: Tensor, gv: Tensor) -> list[tuple[Tensor, ...]]:
        # Python ints (static layer counts) keep the graph free of loops.
        return [(k[i], v[i]) if i < self.g0 else (k[i], v[i], gk[i - self.g0], gv[i - self.g0])
                for i in range(self.n)]

    def forward(self, tokens: Tensor, step: Tensor, src_info: Tensor, cross_k: Tensor, cross_v: Tensor,
                cross_gk: Tensor, cross_gv: Tensor, past_k: Tensor, past_v: Tensor, past_gk: Tensor,
                past_gv: Tensor):
        tags = torch.ones_like(tokens)  # one sentence per instance: every target token is in group 1
        past_tags = torch.ones_like(past_k[0, :, 0, :, 0], dtype=torch.long)  # (B, past_len)
        logits, cache = self.model.decode(tokens, tags, self._layers(cross_k, cross_v, cross_gk, cross_gv),
                                          src_info, self._layers(past_k, past_v, past_gk, past_gv), past_tags,
                                          start=step)
        top = cache[self.g0:]
        return (logits[:, -1], torch.stack([c[0] for c in cache]), torch.stack([c[1] for c in cache]),
                torch.stack([c[2] for c in top]), torch.stack([c[3] for c in top]))


SMDT_GRAPHS: dict[str, type[nn.Module]] = {"smdt_encoder": SMDTEncoderGraph, "smdt_decoder": SMDTDecoderStepGraph}
