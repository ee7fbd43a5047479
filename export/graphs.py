"""The four exported graphs, as thin ``nn.Module`` wrappers over :class:`MemoryTransformer`.

Each wrapper only *calls* the model's own methods (encode / cross_kv / decode / update_memory),
so the ONNX graphs cannot drift from the PyTorch model the trainer and ``training.search`` use.
Per-layer lists become stacked tensors, because ONNX inputs/outputs are flat tensors:

- K/V caches and cross K/V: ``(dec_layers, B, heads, T, d_head)`` -- one array, so the engine
  reorders all layers' beams with a single ``np.take``.
- memory: ``(B, mem_layers, slots, d)``, states ``h``: ``(B, mem_layers, T, d)``, attention
  weights ``(B, mem_layers, heads, rows, cols)``.

A side without memory simply has no memory inputs/outputs (``graph_io`` lists what exists).

The one-step decoder returns no attention weights: the viewer wants the output attention of the
*chosen* hypothesis, which decoder_full gives in one pass after the search, so the hot loop does
not copy out K x heads x slots weights it would throw away for every pruned beam.
"""

from __future__ import annotations

import onnx
import torch
from onnx import TensorProto, helper
from torch import Tensor, nn

from export.common import IR_VERSION, OPSET
from training.model import MemoryTransformer


def graph_io(model: MemoryTransformer) -> dict[str, tuple[list[str], list[str]]]:
    """Input and output names of every graph for this model's memory configuration."""
    sides = model.cfg.sides
    src, tgt = "src" in sides, "tgt" in sides
    io = {
        "encoder": (["src_ids"] + (["mem_src"] if src else []),
                    ["enc_out", "cross_k", "cross_v"] + (["h_src", "src_output_attn"] if src else [])),
        "decoder": (["tokens", "step", "src_ids", "cross_k", "cross_v", "past_k", "past_v"]
                    + (["mem_tgt"] if tgt else []),
                    ["logits", "new_k", "new_v"] + (["h_tgt"] if tgt else [])),
        "decoder_full": (["tgt_ids", "src_ids", "cross_k", "cross_v"] + (["mem_tgt"] if tgt else []),
                         ["logits"] + (["h_tgt", "tgt_output_attn"] if tgt else [])),
    }
    if sides:
        ins: list[str] = []
        outs: list[str] = []
        for side in sides:
            ins += [f"mem_{side}", f"h_{side}", f"{side}_ids"]
            outs += [f"mem_{side}_next", f"{side}_update_attn"]
        io["memory_update"] = (ins, outs)
    return io


# Dynamic axes by input/output name (the same name always has the same layout).
DYNAMIC_AXES: dict[str, dict[int, str]] = {
    "src_ids": {0: "batch", 1: "src_len"},
    "mem_src": {0: "batch"}, "mem_tgt": {0: "batch"},
    "mem_src_next": {0: "batch"}, "mem_tgt_next": {0: "batch"},
    "enc_out": {0: "batch", 1: "src_len"},
    "cross_k": {1: "batch", 3: "src_len"}, "cross_v": {1: "batch", 3: "src_len"},
    "h_src": {0: "batch", 2: "src_len"}, "src_output_attn": {0: "batch", 3: "src_len"},
    "tokens": {0: "batch"},
    "past_k": {1: "batch", 3: "past_len"}, "past_v": {1: "batch", 3: "past_len"},
    "new_k": {1: "batch", 3: "new_len"}, "new_v": {1: "batch", 3: "new_len"},
    "logits": {0: "batch"},  # decoder_full adds its tgt_len axis below
    "tgt_ids": {0: "batch", 1: "tgt_len"},
    "h_tgt": {0: "batch", 2: "tgt_len"}, "tgt_output_attn": {0: "batch", 3: "tgt_len"},
    "src_update_attn": {0: "batch", 4: "src_len"}, "tgt_update_attn": {0: "batch", 4: "tgt_len"},
}


def dynamic_axes(graph: str, names: list[str]) -> dict[str, dict[int, str]]:
    axes = {n: dict(DYNAMIC_AXES[n]) for n in names if n in DYNAMIC_AXES}
    if graph == "decoder_full":
        axes["logits"] = {0: "batch", 1: "tgt_len"}
    return axes


def _stack_kv(kv: list[tuple[Tensor, Tensor]]) -> tuple[Tensor, Tensor]:
    return torch.stack([k for k, _ in kv]), torch.stack([v for _, v in kv])


def _unstack_kv(k: Tensor, v: Tensor, layers: int) -> list[tuple[Tensor, Tensor]]:
    # ``layers`` is the static layer count: a Python int keeps the exported graph free of loops.
    return [(k[i], v[i]) for i in range(layers)]


class EncoderGraph(nn.Module):
    """(src_ids [, mem_src]) -> enc_out, cross K/V of every decoder layer [, h_src, output attn].

    Cross K/V are computed here, once per sentence, instead of at every decoder step.
    """

    def __init__(self, model: MemoryTransformer):
        super().__init__()
        self.model = model
        self.with_mem = "src" in model.cfg.sides

    def forward(self, src_ids: Tensor, mem_src: Tensor | None = None):
        enc, states, weights = self.model.encode(src_ids, mem_src if self.with_mem else None,
                                                 need_weights=True)
        ck, cv = _stack_kv(self.model.cross_kv(enc))
        if not self.with_mem:
            return enc, ck, cv
        return enc, ck, cv, torch.stack(states, 1), torch.stack(weights, 1)


class DecoderStepGraph(nn.Module):
    """One incremental step for every row: (last token, step, cache [, mem_tgt]) -> logits, cache
    [, h_tgt].

    ``step`` is the position of ``tokens`` (= the cache length); the new cache is the old one
    with this step's K/V appended. The first step passes an empty cache (past_len = 0). With a
    target memory, ``h_tgt`` (B, memory layers, 1, d) is this token's state at each memory layer:
    the engine keeps the chosen hypothesis' states from the search, so the memory update needs no
    second, teacher-forced pass over it (decoder_full).
    """

    def __init__(self, model: MemoryTransformer):
        super().__init__()
        self.model = model
        self.with_mem = "tgt" in model.cfg.sides
        self.n = model.cfg.dec_layers

    def forward(self, tokens: Tensor, step: Tensor, src_ids: Tensor, cross_k: Tensor, cross_v: Tensor,
                past_k: Tensor, past_v: Tensor, mem_tgt: Tensor | None = None):
        logits, states, cache, _ = self.model.decode(
            tokens, _unstack_kv(cross_k, cross_v, self.n), src_ids, mem_tgt if self.with_mem else None,
            past=_unstack_kv(past_k, past_v, self.n), start=step)
        nk, nv = _stack_kv(cache)
        if not self.with_mem:
            return logits[:, -1], nk, nv
        return logits[:, -1], nk, nv, torch.stack(states, 1)


class DecoderFullGraph(nn.Module):
    """Teacher-forced over [BOS, y1..yn] -> logits, h_tgt (states for the memory update)
    [, output attention of the target tokens over the memory slots]."""

    def __init__(self, model: MemoryTransformer):
        super().__init__()
        self.model = model
        self.with_mem = "tgt" in model.cfg.sides
        self.n = model.cfg.dec_layers

    def forward(self, tgt_ids: Tensor, src_ids: Tensor, cross_k: Tensor, cross_v: Tensor,
                mem_tgt: Tensor | None = None):
        logits, states, _, weights = self.model.decode(
            tgt_ids, _unstack_kv(cross_k, cross_v, self.n), src_ids, mem_tgt if self.with_mem else None,
            need_weights=True)
        if not self.with_mem:
            return (logits,)
        return logits, torch.stack(states, 1), torch.stack(weights, 1)


class MemoryUpdateGraph(nn.Module):
    """For each side with memory: (M, h, ids) -> M_next, update-attention weights (slots x tokens)."""

    def __init__(self, model: MemoryTransformer):
        super().__init__()
        self.model = model
        self.sides = model.cfg.sides

    def forward(self, *args: Tensor):
        outs: list[Tensor] = []
        for i, side in enumerate(self.sides):
            mem, h, ids = args[3 * i: 3 * i + 3]
            states = [h[:, j] for j in range(len(self.model.memory_units(side)))]
            new, weights = self.model.update_memory(side, mem, states, ids, need_weights=True)
            outs += [new, torch.stack([w for w in weights if w is not None], 1)]  # need_weights: none is None
        return tuple(outs)


GRAPHS = {"encoder": EncoderGraph, "decoder": DecoderStepGraph, "decoder_full": DecoderFullGraph,
          "memory_update": MemoryUpdateGraph}


def topk_graph(log_softmax: bool = True) -> onnx.ModelProto:
    """The engine's search helper (doctrans.engine.topk embeds its bytes; runtime has no onnx):
    logits (rows, V) and k -> the k best log-probabilities per row and their token ids, best
    first, equal values by lower token id (ONNX TopK's rule, the numpy search's too).
    ``log_softmax=False``: the input is log-probabilities already (a per-layer step's), and only
    the k best are taken."""
    top = helper.make_node("TopK", ["logprobs" if log_softmax else "logits", "k"], ["values", "tokens"], axis=-1,
                           largest=1, sorted=1)
    nodes = [helper.make_node("LogSoftmax", ["logits"], ["logprobs"], axis=-1), top] if log_softmax else [top]
    graph = helper.make_graph(
        nodes, "doctrans_topk" if log_softmax else "doctrans_best",
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["rows", "vocab"]),
         helper.make_tensor_value_info("k", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("values", TensorProto.FLOAT, ["rows", "k"]),
         helper.make_tensor_value_info("tokens", TensorProto.INT64, ["rows", "k"])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="doctrans")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model


def reorder_graph(per_layer: bool = False) -> onnx.ModelProto:
    """The engine's KV-cache reorder on the decoder's device (doctrans.engine.device embeds its
    bytes): past_k, past_v (layers, rows, heads, T, d_head) and origin (rows,) -> both gathered
    along the rows axis, so a GPU's cache never travels to the host between steps. ``per_layer``:
    one layer's pair (rows, heads, T, d_head), for a per-layer step (export.step_graph)."""
    axis = 0 if per_layer else 1
    nodes = [helper.make_node("Gather", ["past_k", "origin"], ["new_k"], axis=axis),
             helper.make_node("Gather", ["past_v", "origin"], ["new_v"], axis=axis)]
    shape = ["layers", "rows", "heads", "past_len", "d_head"][1 - axis:]
    graph = helper.make_graph(
        nodes, "doctrans_reorder_layer" if per_layer else "doctrans_reorder",
        [helper.make_tensor_value_info("past_k", TensorProto.FLOAT, shape),
         helper.make_tensor_value_info("past_v", TensorProto.FLOAT, shape),
         helper.make_tensor_value_info("origin", TensorProto.INT64, ["rows"])],
        [helper.make_tensor_value_info("new_k", TensorProto.FLOAT, shape),
         helper.make_tensor_value_info("new_v", TensorProto.FLOAT, shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="doctrans")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model
