"""The one-step decoder written node by node, with ONNX Runtime's fused attention (issue 18).

The traced step decoder (``export.graphs.DecoderStepGraph`` through ``torch.onnx``) is exact but
fussy: ~470 nodes for a 3-layer decoder, most of them shape arithmetic (``Shape``/``Gather``/
``Unsqueeze``/``Concat``/``Reshape``) around each head split and merge, plus the cache grown by
``Concat``. For the small models doctrans ships, a decoder step is only a few MFLOP per row, so
that per-node overhead is most of what a step costs (ORT's profile: a long tail of shape ops,
``Concat`` 7 %). This builds the same function from the same weights with
``com.microsoft.MultiHeadAttention`` (head split, past/present cache, scaled softmax and head
merge in one kernel) for every attention, so a layer is ~25 nodes:

    self    LayerNorm -> MatMul q, k, v -> MHA(past_k[i], past_v[i], bias q|k|v) -> MatMul o -> +x
    memory  LayerNorm -> MatMul q; (M + slot PE) -> MatMul k, v -> MHA(bias q|k|v) -> MatMul o -> +h
    cross   LayerNorm -> MatMul q + b -> MHA(cross_k[i], cross_v[i] as BNSH, source padding mask)
            -> MatMul o -> +x
    ffn     LayerNorm -> MatMul -> ReLU -> MatMul -> +x

Inputs, outputs, their names and layouts are the traced graph's (``export.graphs.graph_io``), so
the engine, the GPU binding and the bundle checks see no difference; ``export.bundle`` checks it
against the PyTorch model on random inputs (empty cache included) and through a real document
like every other graph. Each weight is a separate initializer equal to the parameter (the linear
layers' transposed, as the tracer writes them), so ``export.share_weights`` stores the q/k/v/o,
FFN and embedding weights once for this graph and ``decoder_full``.

Why not ORT's transformer optimizer (``onnxruntime.transformers.optimizer``, which optimum's
ORTOptimizer drives): its fusions match the attention subgraphs of known model types (BERT, BART,
T5, GPT-2 ...); this model's pre-norm layers with a memory read between self- and cross-attention
match none of them, so it fuses the layer norms and leaves the attention as it was.
"""

from __future__ import annotations

import math

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

from export.common import OPSET
from training.model import Attention, MemoryTransformer

MS_DOMAIN = "com.microsoft"
# model.json provenance.decoder_step of a bundle whose one-step decoder this module wrote.
FUSED_STEP = "fused (export.step_graph: com.microsoft.MultiHeadAttention)"
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
             node_name: str | None = None, **attrs) -> list[str]:
        outs = [self.name(f"{hint}_out{i}") for i in range(n_out)]
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
                  mask: str = "", past: tuple[str, str] | None = None) -> list[str]:
        ins = [q, k, v, bias, mask, "", *(past or ())]
        while ins and ins[-1] == "":
            ins.pop()
        outs = self.node("MultiHeadAttention", ins, hint, n_out=3 if past else 1, domain=MS_DOMAIN,
                         num_heads=att.h, scale=1.0 / math.sqrt(att.dh))
        # ONNX's shape inference does not know the contrib op; ORT's quantizer needs the types.
        self.typed += [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs]
        return outs

    def qkv_bias(self, att: Attention, hint: str) -> str:
        return self.init(f"{hint}.qkv_bias", np.concatenate([_np(att.q.bias), _np(att.k.bias), _np(att.v.bias)]))


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().float().numpy()


def _value(name: str, elem: int, shape: list[int | str]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def step_graph(model: MemoryTransformer, embed_table: np.ndarray | None = None) -> onnx.ModelProto:
    """The one-step decoder of ``model`` (eval mode) as a self-contained ONNX model.

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

    presents_k: list[str] = []
    presents_v: list[str] = []
    states: list[str] = []  # h at the memory layers (the memory update's target states)
    mem_j = 0
    for i, layer in enumerate(model.decoder):
        p = f"decoder.{i}"
        idx = b.init(f"{p}.index", np.asarray(i, np.int64))
        # Self-attention over the cache and this token.
        y = b.layer_norm(x, layer.self_norm, f"{p}.self_norm")
        sa = layer.self_attn
        q, k, v = (b.matmul(y, lin, f"{p}.self_attn.{n}", bias=False)
                   for n, lin in (("q", sa.q), ("k", sa.k), ("v", sa.v)))
        pk = b.one("Gather", ["past_k", idx], f"{p}/past_k", axis=0)
        pv = b.one("Gather", ["past_v", idx], f"{p}/past_v", axis=0)
        a, nk, nv = b.attention(q, k, v, sa, f"{p}/self_attn", bias=b.qkv_bias(sa, f"{p}.self_attn"), past=(pk, pv))
        presents_k.append(nk)
        presents_v.append(nv)
        h = b.one("Add", [x, b.matmul(a, sa.o, f"{p}.self_attn.o")], f"{p}/self_res")
        x = h
        if layer.memory is not None and with_mem:
            states.append(h)
        # The memory read (Output Attention): h queries the positioned slots.
        unit = layer.memory
        if unit is not None and with_mem:
            m = b.one("Gather", ["mem_tgt", b.init(f"{p}.mem_index", np.asarray(mem_j, np.int64))],
                      f"{p}/mem", axis=1)
            mem_j += 1
            m = b.one("Add", [m, b.init(f"{p}.slot_pe", _np(unit.slot_pe))], f"{p}/mem_pe")
            ra = unit.read
            q = b.matmul(b.layer_norm(h, unit.read_norm, f"{p}.read_norm"), ra.q, f"{p}.read.q", bias=False)
            mk, mv = b.matmul(m, ra.k, f"{p}.read.k", bias=False), b.matmul(m, ra.v, f"{p}.read.v", bias=False)
            (r,) = b.attention(q, mk, mv, ra, f"{p}/read", bias=b.qkv_bias(ra, f"{p}.read"))
            x = b.one("Add", [h, b.matmul(r, ra.o, f"{p}.read.o")], f"{p}/read_res")
        # Cross-attention: the encoder's K/V, already split into heads (BNSH), computed once per sentence.
        ca = layer.cross_attn
        q = b.matmul(b.layer_norm(x, layer.cross_norm, f"{p}.cross_norm"), ca.q, f"{p}.cross_attn.q")
        ck = b.one("Gather", ["cross_k", idx], f"{p}/cross_k", axis=0)
        cv = b.one("Gather", ["cross_v", idx], f"{p}/cross_v", axis=0)
        (c,) = b.attention(q, ck, cv, ca, f"{p}/cross_attn", mask=keep)
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
    b.nodes.append(helper.make_node("Squeeze", [logits, axis1], ["logits"], name="logits/Squeeze"))
    axis0 = b.init("axis0", np.asarray([0], np.int64))
    for out, parts in (("new_k", presents_k), ("new_v", presents_v)):
        stacked = [b.one("Unsqueeze", [t, axis0], f"{out}/unsqueeze") for t in parts]
        b.nodes.append(helper.make_node("Concat", stacked, [out], name=f"{out}/Concat", axis=0))
    if states:  # (B, 1, d) each -> (B, memory layers, 1, d)
        stacked = [b.one("Unsqueeze", [t, axis1], "h_tgt/unsqueeze") for t in states]
        b.nodes.append(helper.make_node("Concat", stacked, ["h_tgt"], name="h_tgt/Concat", axis=1))

    def cache(name: str, length: str) -> onnx.ValueInfoProto:
        return _value(name, f32, [L, "batch", H, length, dh])

    inputs = [_value("tokens", i64, ["batch", 1]), _value("step", i64, []),
              _value("src_ids", i64, ["batch", "src_len"]), cache("cross_k", "src_len"), cache("cross_v", "src_len"),
              cache("past_k", "past_len"), cache("past_v", "past_len")]
    if with_mem:
        inputs.append(_value("mem_tgt", f32, ["batch", len(model.memory_units("tgt")), cfg.mem_slots, d]))
    outputs = [_value("logits", f32, ["batch", cfg.vocab_size]),
               cache("new_k", "new_len"), cache("new_v", "new_len")]
    if states:
        outputs.append(_value("h_tgt", f32, ["batch", len(states), 1, d]))
    graph = helper.make_graph(b.nodes, "decoder_step", inputs, outputs, initializer=b.inits,
                              value_info=b.typed)
    onnx_model = helper.make_model(graph, producer_name="doctrans",
                                   opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(MS_DOMAIN, 1)])
    onnx.checker.check_model(onnx_model)
    return onnx_model
