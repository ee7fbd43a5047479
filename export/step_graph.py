"""The one-step decoder written node by node, with ONNX Runtime's fused attention (issue 18).

The traced step decoder (``export.graphs.DecoderStepGraph`` through ``torch.onnx``) is exact but
fussy: ~470 nodes for a 3-layer decoder, most of them shape arithmetic (``Shape``/``Gather``/
``Unsqueeze``/``Concat``/``Reshape``) around each head split and merge, plus the cache grown by
``Concat``. For the small models doctrans ships, a decoder step is only a few MFLOP per row, so
that per-node overhead is most of what a step costs (ORT's profile: a long tail of shape ops,
``Concat`` 7 %). This builds the same function from the same weights with
``com.microsoft.MultiHeadAttention`` (head split, past/present cache, scaled softmax and head
merge in one kernel) for every attention, so a layer is ~25 nodes:

    self    LayerNorm -> MatMul q, k, v -> MHA(past_k_i, past_v_i, bias q|k|v) -> MatMul o -> +x
    memory  LayerNorm -> MatMul q + b -> MHA(mem_k_j, mem_v_j as BNSH) -> MatMul o -> +h
    cross   LayerNorm -> MatMul q + b -> MHA(cross_k_i, cross_v_i as BNSH, source padding mask)
            -> MatMul o -> +x
    ffn     LayerNorm -> MatMul -> ReLU -> MatMul -> +x

Every input that is constant through a sentence is computed once per sentence outside the step:
the encoder's cross K/V, and the memory read's keys and values (``memory_read.onnx``,
:func:`memory_read_graph`: the 16 slots plus their position code through the read's k/v
projections). Each layer's cache is its own input and output (format 3 bundles). The first fused
step (format 2, ``per_layer=False``, kept for A/B runs and older bundles) had the traced graph's
I/O (``export.graphs.graph_io``: caches stacked over the layers, ``mem_tgt``): it sliced the
stacks at every step, stacked the new cache again and projected the slots at every token, ~20 %
of its kernel time (ORT's profile); the per-layer step runs 1.33x faster alone (int8, beam 5)
with bit-identical outputs. ``export.bundle`` checks the step (fed by :func:`run_step` as the
engine feeds it) against the PyTorch model on random inputs (empty cache included) and through a
real document like every other graph. Each weight is a separate initializer equal to the parameter (the linear
layers' transposed, as the tracer writes them), so ``export.share_weights`` stores the q/k/v/o,
FFN and embedding weights once for this graph and ``decoder_full``.

Why not ORT's transformer optimizer (``onnxruntime.transformers.optimizer``, which optimum's
ORTOptimizer drives): its fusions match the attention subgraphs of known model types (BERT, BART,
T5, GPT-2 ...); this model's pre-norm layers with a memory read between self- and cross-attention
match none of them, so it fuses the layer norms and leaves the attention as it was.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

from doctrans.engine.onnx_engine import run_graph
from doctrans.engine.step_inputs import LOG_PROBS, STACKED, StepLayout, layer_name
from export.common import IR_VERSION, OPSET, ExportError
from training.model import Attention, MemoryTransformer

if TYPE_CHECKING:
    import onnxruntime as ort

MS_DOMAIN = "com.microsoft"
# model.json provenance.decoder_step of a bundle whose one-step decoder this module wrote.
FUSED_STEP = "fused (export.step_graph: com.microsoft.MultiHeadAttention)"
# The forms of the one-step decoder an export can write: per-layer inputs (format 3, the default),
# the fused step with stacked inputs (format 2's), the traced graph (format 1's; both for A/B runs).
PER_LAYER = "per_layer"
STEP_FORMS = (PER_LAYER, "stacked", "traced")


def step_provenance(step: str) -> str:
    return {PER_LAYER: f"{FUSED_STEP}, per-layer inputs", "stacked": FUSED_STEP, "traced": "traced"}[step]
# int8 quantization leaves this Gather's table in fp32 (export.bundle.quantize_graph): the traced
# graphs read the positions in fp32 too, and the table is then stored once for every graph.
POSITION_NODE = "position/Gather"


class _Builder:
    """Nodes and initializers under unique names; each helper returns its output's name."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.typed: list[onnx.ValueInfoProto] = []  # outputs ONNX shape inference cannot type
        self._n = 0

    def name(self, hint: str) -> str:
        self._n += 1
        return f"{hint}_{self._n}"

    def init(self, hint: str, value: np.ndarray) -> str:
        name = self.name(hint)
        # np.array, not np.ascontiguousarray: that makes a 0-d index 1-d (and Gather's output one rank more).
        self.inits.append(numpy_helper.from_array(np.array(value, order="C"), name))
        return name

    def node(self, op: str, inputs: list[str], hint: str, n_out: int = 1, domain: str = "",
             node_name: str | None = None, outs: list[str] | None = None, **attrs) -> list[str]:
        outs = outs or [self.name(f"{hint}_out{i}") for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=node_name or self.name(hint), domain=domain,
                                           **attrs))
        return outs

    def one(self, op: str, inputs: list[str], hint: str, **attrs) -> str:
        return self.node(op, inputs, hint, **attrs)[0]

    # -- layers ---------------------------------------------------------------------------
    def layer_norm(self, x: str, ln: nn.LayerNorm, hint: str) -> str:
        return self.one("LayerNormalization", [x, self.init(f"{hint}.weight", _np(ln.weight)),
                                               self.init(f"{hint}.bias", _np(ln.bias))],
                        hint, axis=-1, epsilon=float(ln.eps))

    def matmul(self, x: str, lin: nn.Linear, hint: str, bias: bool = True) -> str:
        y = self.one("MatMul", [x, self.init(f"{hint}.weight", _np(lin.weight).T)], f"{hint}/MatMul")
        if bias:
            y = self.one("Add", [y, self.init(f"{hint}.bias", _np(lin.bias))], f"{hint}/Add")
        return y

    def attention(self, q: str, k: str, v: str, att: Attention, hint: str, bias: str = "",
                  mask: str = "", past: tuple[str, str] | None = None,
                  present: tuple[str, str] | None = None) -> list[str]:
        ins = [q, k, v, bias, mask, "", *(past or ())]
        while ins and ins[-1] == "":
            ins.pop()
        names = [self.name(f"{hint}_out0"), *present] if present else None
        outs = self.node("MultiHeadAttention", ins, hint, n_out=3 if past else 1, domain=MS_DOMAIN,
                         outs=names, num_heads=att.h, scale=1.0 / math.sqrt(att.dh))
        # ONNX's shape inference does not know the contrib op; ORT's quantizer needs the types.
        self.typed += [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs[:1 if present else 3]]
        return outs

    def qkv_bias(self, att: Attention, hint: str) -> str:
        return self.init(f"{hint}.qkv_bias", np.concatenate([_np(att.q.bias), _np(att.k.bias), _np(att.v.bias)]))


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().float().numpy()


def _value(name: str, elem: int, shape: list[int | str]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def step_feed(step: ort.InferenceSession, read: ort.InferenceSession | None,
              feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The stacked inputs ``export.graphs.graph_io`` names (the traced wrapper's) as ``step``
    takes them: as they are for a stacked step; for a per-layer one the stacks split and the
    memory read's keys and values from ``read`` (memory_read.onnx), as the engine feeds it."""
    layout = StepLayout.of(step, feed["past_k"].shape[0])
    if not layout.per_layer:
        return feed
    split = {k: v for k, v in feed.items() if k not in STACKED and k != "mem_tgt"}
    for name in STACKED:
        split.update(layout.split(name, np.ascontiguousarray(feed[name])))
    if "mem_tgt" in feed:
        if read is None:
            raise ExportError("a per-layer step decoder with a target memory needs memory_read.onnx")
        split.update(run_graph(read, {"mem_tgt": feed["mem_tgt"]}))
    return split


def run_step(step: ort.InferenceSession, read: ort.InferenceSession | None,
             feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A step decoder of either form run on the stacked inputs ``export.graphs.graph_io`` names
    (:func:`step_feed`), its outputs by those names (a per-layer step's ``log_probs`` in place of
    ``logits``: :func:`in_step_terms`; its per-layer caches stacked again)."""
    layout = StepLayout.of(step, feed["past_k"].shape[0])
    out = run_graph(step, step_feed(step, read, feed))
    if not layout.per_layer:
        return out
    stacked = {k: v for k, v in out.items() if k not in layout.present}
    stacked.update(new_k=layout.stack(out, "new_k"), new_v=layout.stack(out, "new_v"))
    return stacked


def in_step_terms(reference: dict[str, np.ndarray], got: Collection[str]) -> dict[str, np.ndarray]:
    """Reference outputs by graph_io's names (the traced wrapper's, or a stacked step's) in the
    terms of a step that gives ``got``: its log-probabilities in place of the logits."""
    if LOG_PROBS not in got or "logits" not in reference:
        return reference
    out = dict(reference)
    x = out.pop("logits").astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    out[LOG_PROBS] = (x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))).astype(np.float32)
    return out


def step_graph(model: MemoryTransformer, embed_table: np.ndarray | None = None,
               per_layer: bool = True) -> onnx.ModelProto:
    """The one-step decoder of ``model`` (eval mode) as a self-contained ONNX model.

    ``per_layer`` (the form exported since format 3): every layer's cross K/V and KV cache are an
    input (``cross_k_<i>``, ``past_k_<i>`` ... (B, heads, T, d_head)) and its new cache an output
    (``new_k_<i>``), the memory read takes its keys and values computed once per sentence
    (``mem_k_<j>``, ``mem_v_<j>``, :func:`memory_read_graph`), and the step gives the
    log-probabilities the search ranks (``log_probs``) instead of the logits. The stacked form (``past_k``
    (layers, B, heads, T, d_head), ``mem_tgt``: the traced graph's I/O) split the stacks into
    layers at every step (copies: ORT's profile, ``Split``/``Squeeze`` ~10 % of a step), stacked
    the new cache again (``Concat`` 3 %) and projected the 16 memory slots to keys and values at
    every token of every beam (~6 %).

    ``embed_table``: the table the token Gather reads, when it must differ from the output
    projection's (export.rebuild_step: an int8 bundle's two quantized copies of the tied embedding).
    """
    cfg = model.cfg
    b = _Builder()
    L, H, dh, d = cfg.dec_layers, cfg.n_heads, cfg.d_model // cfg.n_heads, cfg.d_model
    with_mem = "tgt" in cfg.sides
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64

    # Token embedding * sqrt(d) + the position of this step (embed_tokens).
    embed = _np(model.embed.weight)
    table = embed if embed_table is None else embed_table
    x = b.one("Gather", [b.init("embed.weight", table), "tokens"], "embed")
    x = b.one("Mul", [x, b.init("embed.scale", np.asarray(math.sqrt(d), np.float32))], "embed/scale")
    pos = b.one("Gather", [b.init("pos", _np(model.pos)), "step"], "pos", node_name=POSITION_NODE)
    x = b.one("Add", [x, pos], "embed/pos")
    # Source padding -> MHA's key_padding_mask (1 = attend), as pad_bias hides it.
    pad = b.one("Equal", ["src_ids", b.init("pad_id", np.asarray(cfg.pad_id, np.int64))], "mask/eq")
    keep = b.one("Cast", [b.one("Not", [pad], "mask/not")], "mask/cast", to=TensorProto.INT32)

    def stacked(name: str, i: int, axis: int = 0) -> str:
        """Layer i of a stacked input (the stacked form), else the layer's own input."""
        if per_layer:
            return layer_name(name, i)
        index = b.init(f"{name}.index{i}", np.asarray(i, np.int64))
        return b.one("Gather", [name, index], f"decoder.{i}/{name}", axis=axis)

    presents_k: list[str] = []
    presents_v: list[str] = []
    states: list[str] = []  # h at the memory layers (the memory update's target states)
    mem_j = 0
    for i, layer in enumerate(model.decoder):
        p = f"decoder.{i}"
        # Self-attention over the cache and this token.
        y = b.layer_norm(x, layer.self_norm, f"{p}.self_norm")
        sa = layer.self_attn
        q, k, v = (b.matmul(y, lin, f"{p}.self_attn.{n}", bias=False)
                   for n, lin in (("q", sa.q), ("k", sa.k), ("v", sa.v)))
        present = (layer_name("new_k", i), layer_name("new_v", i)) if per_layer else None
        a, nk, nv = b.attention(q, k, v, sa, f"{p}/self_attn", bias=b.qkv_bias(sa, f"{p}.self_attn"),
                                past=(stacked("past_k", i), stacked("past_v", i)), present=present)
        presents_k.append(nk)
        presents_v.append(nv)
        h = b.one("Add", [x, b.matmul(a, sa.o, f"{p}.self_attn.o")], f"{p}/self_res")
        x = h
        # The memory read (Output Attention): h queries the positioned slots.
        unit = layer.memory
        if unit is not None and with_mem:
            states.append(h)
            ra = unit.read
            y = b.layer_norm(h, unit.read_norm, f"{p}.read_norm")
            if per_layer:  # keys and values of the slots as inputs, BNSH, biases in
                q = b.matmul(y, ra.q, f"{p}.read.q")
                (r,) = b.attention(q, layer_name("mem_k", mem_j), layer_name("mem_v", mem_j), ra, f"{p}/read")
            else:
                m = b.one("Gather", ["mem_tgt", b.init(f"{p}.mem_index", np.asarray(mem_j, np.int64))],
                          f"{p}/mem", axis=1)
                m = b.one("Add", [m, b.init(f"{p}.slot_pe", _np(unit.slot_pe))], f"{p}/mem_pe")
                q = b.matmul(y, ra.q, f"{p}.read.q", bias=False)
                mk, mv = b.matmul(m, ra.k, f"{p}.read.k", bias=False), b.matmul(m, ra.v, f"{p}.read.v", bias=False)
                (r,) = b.attention(q, mk, mv, ra, f"{p}/read", bias=b.qkv_bias(ra, f"{p}.read"))
            mem_j += 1
            x = b.one("Add", [h, b.matmul(r, ra.o, f"{p}.read.o")], f"{p}/read_res")
        # Cross-attention: the encoder's K/V, already split into heads (BNSH), computed once per sentence.
        ca = layer.cross_attn
        q = b.matmul(b.layer_norm(x, layer.cross_norm, f"{p}.cross_norm"), ca.q, f"{p}.cross_attn.q")
        (c,) = b.attention(q, stacked("cross_k", i), stacked("cross_v", i), ca, f"{p}/cross_attn", mask=keep)
        x = b.one("Add", [x, b.matmul(c, ca.o, f"{p}.cross_attn.o")], f"{p}/cross_res")
        # Feed-forward.
        ff = layer.ffn
        assert isinstance(ff[0], nn.Linear) and isinstance(ff[3], nn.Linear)  # Linear, ReLU, Dropout, Linear
        f = b.matmul(b.layer_norm(x, layer.ffn_norm, f"{p}.ffn_norm"), ff[0], f"{p}.ffn.0")
        f = b.matmul(b.one("Relu", [f], f"{p}/relu"), ff[3], f"{p}.ffn.3")
        x = b.one("Add", [x, f], f"{p}/ffn_res")

    y = b.layer_norm(x, model.dec_norm, "dec_norm")
    logits = b.one("MatMul", [y, b.init("embed.weight_t", embed.T)], "logits/MatMul")  # tied projection
    axis1 = b.init("axis1", np.asarray([1], np.int64))
    if per_layer:
        # The search's log-probabilities: one kernel here, where numpy took four passes over the
        # K x V values at every step (~70 us of a ~1 ms step at beam 5).
        flat = b.one("Squeeze", [logits, axis1], "logits/Squeeze")
        b.nodes.append(helper.make_node("LogSoftmax", [flat], [LOG_PROBS], name="log_probs", axis=-1))
    else:
        b.nodes.append(helper.make_node("Squeeze", [logits, axis1], ["logits"], name="logits/Squeeze"))
    if not per_layer:
        axis0 = b.init("axis0", np.asarray([0], np.int64))
        for out, parts in (("new_k", presents_k), ("new_v", presents_v)):
            pieces = [b.one("Unsqueeze", [t, axis0], f"{out}/unsqueeze") for t in parts]
            b.nodes.append(helper.make_node("Concat", pieces, [out], name=f"{out}/Concat", axis=0))
    if states:  # (B, 1, d) each -> (B, memory layers, 1, d)
        pieces = [b.one("Unsqueeze", [t, axis1], "h_tgt/unsqueeze") for t in states]
        b.nodes.append(helper.make_node("Concat", pieces, ["h_tgt"], name="h_tgt/Concat", axis=1))

    def cache(name: str, length: str) -> list[onnx.ValueInfoProto]:
        if per_layer:
            return [_value(layer_name(name, i), f32, ["batch", H, length, dh]) for i in range(L)]
        return [_value(name, f32, [L, "batch", H, length, dh])]

    inputs = [_value("tokens", i64, ["batch", 1]), _value("step", i64, []),
              _value("src_ids", i64, ["batch", "src_len"]), *cache("cross_k", "src_len"), *cache("cross_v", "src_len"),
              *cache("past_k", "past_len"), *cache("past_v", "past_len")]
    if with_mem and per_layer:
        inputs += [_value(layer_name(n, j), f32, ["batch", H, cfg.mem_slots, dh])
                   for n in ("mem_k", "mem_v") for j in range(mem_j)]
    elif with_mem:
        inputs.append(_value("mem_tgt", f32, ["batch", len(model.memory_units("tgt")), cfg.mem_slots, d]))
    outputs = [_value(LOG_PROBS if per_layer else "logits", f32, ["batch", cfg.vocab_size]),
               *cache("new_k", "new_len"), *cache("new_v", "new_len")]
    if states:
        outputs.append(_value("h_tgt", f32, ["batch", len(states), 1, d]))
    return _model(b, "decoder_step", inputs, outputs)


def memory_read_graph(model: MemoryTransformer) -> onnx.ModelProto:
    """The memory read's keys and values of every target memory layer, once per sentence.

    ``mem_tgt`` (B, memory layers, slots, d) -> ``mem_k_<j>``, ``mem_v_<j>`` (B, heads, slots,
    d_head) for the per-layer step decoder: the memory (and so these) changes only between
    sentences, as the encoder's cross K/V do.
    """
    cfg = model.cfg
    b = _Builder()
    H, dh, d, S = cfg.n_heads, cfg.d_model // cfg.n_heads, cfg.d_model, cfg.mem_slots
    f32 = TensorProto.FLOAT
    to_heads = b.init("heads_shape", np.asarray([0, S, H, dh], np.int64))
    outputs = []
    units = model.memory_units("tgt")
    for j, unit in enumerate(units):
        p = f"memory.{j}"
        m = b.one("Gather", ["mem_tgt", b.init(f"{p}.mem_index", np.asarray(j, np.int64))], f"{p}/mem", axis=1)
        m = b.one("Add", [m, b.init(f"{p}.slot_pe", _np(unit.slot_pe))], f"{p}/mem_pe")
        for n, lin in (("k", unit.read.k), ("v", unit.read.v)):
            x = b.one("Reshape", [b.matmul(m, lin, f"{p}.read.{n}"), to_heads], f"{p}/{n}/heads")
            out = layer_name(f"mem_{n}", j)
            b.nodes.append(helper.make_node("Transpose", [x], [out], name=f"{p}/{n}/bnsh", perm=[0, 2, 1, 3]))
            outputs.append(_value(out, f32, ["batch", H, S, dh]))
    inputs = [_value("mem_tgt", f32, ["batch", len(units), S, d])]
    return _model(b, "memory_read", inputs, outputs)


def _model(b: _Builder, name: str, inputs: list[onnx.ValueInfoProto],
           outputs: list[onnx.ValueInfoProto]) -> onnx.ModelProto:
    graph = helper.make_graph(b.nodes, name, inputs, outputs, initializer=b.inits, value_info=b.typed)
    onnx_model = helper.make_model(graph, producer_name="doctrans",
                                   opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(MS_DOMAIN, 1)])
    onnx_model.ir_version = IR_VERSION  # not the installed onnx's newest (export.common)
    onnx.checker.check_model(onnx_model)
    return onnx_model
