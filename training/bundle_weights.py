"""A bundle's weights back into a PyTorch :class:`MemoryTransformer` (no checkpoint needed).

The shipped bundles come without their PyTorch checkpoints. Two users read the weights back out of
the ONNX graphs: the speed scoreboard, which compares the engine with other frameworks on *the same
weights* (benchmarks/vs_ctranslate2.py), and training.from_bundle, which continues training a
shipped model (its vocabulary grown by the verbatim placeholders). How:

- which parameter each initializer a node reads is comes from tracing a *random* model of the same
  configuration (every parameter random, so no two are equal) with the same exporter
  (``export.bundle.export_graphs``): node names (``/decoder.0/self_attn/q/MatMul``) are the same in
  both traces, and in the random trace each node input equals exactly one parameter (or its
  transpose: Linear weights become anonymous ``onnx::MatMul_777`` initializers). Names alone would
  not do: the exporter keeps one of several equal initializers (norms still at 1), under one name.
  An int8 bundle's weight node is that name + ``_quant`` (``MatMulInteger``), dequantized per output
  channel: ``(q - zero_point) * scale``;
- the memory's M_0 comes from memory_init.npz.

From an int8 bundle the weights are the dequantized ones (what the int8 engine computes with, up to
the activations' own quantization); the tied embedding is taken from the output projection's
per-channel copy, the more precise of its two int8 copies. Every parameter must be found, or
:class:`RecoveryError` says which are missing.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from doctrans.engine.bundle import read_bundle
from training.model import MemoryTransformer, ModelConfig

GRAPHS = ("encoder", "decoder_full", "memory_update")  # between them every parameter is used


class RecoveryError(RuntimeError):
    """The bundle's graphs do not account for every parameter of its configuration."""


@dataclass
class Recovered:
    model: MemoryTransformer
    config: ModelConfig
    spm_bytes: bytes
    src_lang: str
    tgt_lang: str
    quantized: bool
    directions: list[list[str]] | None  # [src, tgt] pairs of a bundle that translates several


def bundle_config(bundle: Path, mem_side: str | None = None) -> ModelConfig:
    """The ModelConfig the bundle was exported from (``mem_side`` overrides its memory sides)."""
    meta = json.loads((bundle / "model.json").read_text(encoding="utf-8"))
    m, mem, special = meta["model"], meta.get("memory") or {}, meta["special_ids"]
    sides = tuple(mem.get("sides", ()))
    side = {(): "none", ("src",): "src", ("tgt",): "tgt", ("src", "tgt"): "both"}[sides]
    layers = mem.get("layers", {})
    return ModelConfig(vocab_size=m["vocab_size"], d_model=m["d_model"], n_heads=m["n_heads"], d_ff=m["d_ff"],
                       enc_layers=m["enc_layers"], dec_layers=m["dec_layers"], max_len=m["max_len"], dropout=0.0,
                       pad_id=special["pad"], bos_id=special["bos"], eos_id=special["eos"],
                       mem_slots=mem.get("slots", 16), mem_side=mem_side or side,
                       mem_enc_layers=layers.get("src", [-1]), mem_dec_layers=layers.get("tgt", [-1]))


def _trace_map(cfg: ModelConfig) -> dict[tuple[str, str, int], tuple[str, bool]]:
    """(graph, node name, input index) -> (parameter name, transposed) for every initializer a node
    of a trace of a random model of ``cfg`` reads, found by value."""
    from export.bundle import export_graphs  # torch.onnx: only when recovering

    torch.manual_seed(0)
    model = MemoryTransformer(cfg).eval()
    with torch.no_grad():  # every parameter random, norms too: no two are equal, none is deduplicated
        for p in model.parameters():
            p.normal_()
    by_bytes: dict[bytes, tuple[str, bool]] = {}
    for n, p in model.named_parameters():
        a = p.detach().numpy().astype(np.float32)
        by_bytes[a.tobytes()] = (n, False)
        if a.ndim == 2:
            by_bytes[np.ascontiguousarray(a.T).tobytes()] = (n, True)
    out: dict[tuple[str, str, int], tuple[str, bool]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        export_graphs(model, Path(tmp))
        for g in GRAPHS:
            path = Path(tmp) / f"{g}.onnx"
            if not path.exists():
                continue
            graph = onnx.load(str(path)).graph
            inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
            alias = _aliases(graph, inits)
            for node in graph.node:
                for i, name in enumerate(node.input):
                    name = alias.get(name, name)
                    if name in inits and inits[name].dtype == np.float32:
                        hit = by_bytes.get(np.ascontiguousarray(inits[name]).tobytes())
                        if hit:
                            out[g, node.name, i] = hit
    return out


def _aliases(graph: onnx.GraphProto, inits: dict[str, np.ndarray]) -> dict[str, str]:
    """Identity outputs -> the initializer they copy: the exporter keeps one of several equal
    initializers and feeds the other consumers through Identity nodes."""
    return {n.output[0]: n.input[0] for n in graph.node if n.op_type == "Identity" and n.input[0] in inits}


def _dequantize(q: np.ndarray, zero: np.ndarray, scale: np.ndarray) -> np.ndarray:
    # (in, out) weights, per output channel: the zero point and scale broadcast along the rows.
    return (q.astype(np.float32) - zero.astype(np.float32)) * scale.astype(np.float32)


def recover(bundle: str | Path, mem_side: str | None = None) -> Recovered:
    """The bundle's model in PyTorch. ``mem_side="none"``: the sentence-level model (the same
    weights without the memory units, as stage 1 trains it)."""
    bundle = Path(bundle)
    info = read_bundle(bundle)
    full_cfg = bundle_config(bundle)
    where = _trace_map(full_cfg)
    state: dict[str, np.ndarray] = {}
    quantized = False
    for g in GRAPHS:
        path = bundle / f"{g}.onnx"
        if not path.exists():
            continue
        graph = onnx.load(str(path)).graph  # external data (weights.bin) resolved next to the file
        inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
        alias = _aliases(graph, inits)
        if "model.embed.weight_quantized" in inits:  # the Gather's per-tensor copy (see the docstring)
            state.setdefault("embed.weight", _dequantize(inits["model.embed.weight_quantized"],
                                                         inits["model.embed.weight_zero_point"],
                                                         inits["model.embed.weight_scale"]))
        for node in graph.node:
            if node.op_type == "MatMulInteger" and node.input[1] in inits:
                quantized = True
                hit = where.get((g, node.name.removesuffix("_quant"), 1))
                base = node.input[1].removesuffix("_quantized")
                if hit is None:
                    raise RecoveryError(f"{path.name}: node {node.name} has a weight no parameter of the "
                                        "configuration traces to (exported by another model version?)")
                weight = _dequantize(inits[node.input[1]], inits[node.input[3]], inits[f"{base}_scale"])
                state[hit[0]] = weight.T.copy() if hit[1] else weight
                continue
            for i, name in enumerate(node.input):
                name = alias.get(name, name)
                hit = where.get((g, node.name, i))
                if hit is not None and name in inits:
                    state[hit[0]] = inits[name].T.copy() if hit[1] else inits[name]
    for side, layers in (("src", "encoder"), ("tgt", "decoder")):
        if side in info.mem_sides:
            init = np.load(bundle / "memory_init.npz")[side]
            for j, i in enumerate(full_cfg.memory_layers(side)):
                state[f"{layers}.{i}.memory.init"] = init[j]
    cfg = bundle_config(bundle, mem_side)
    model = MemoryTransformer(cfg).eval()
    wanted = dict(model.named_parameters())
    missing = sorted(set(wanted) - set(state))
    if missing:
        raise RecoveryError(f"{bundle}: no weights found for {len(missing)} parameters: {', '.join(missing[:6])}")
    with torch.no_grad():
        for n, p in wanted.items():
            value = torch.from_numpy(np.array(state[n], dtype=np.float32))  # a writable copy
            if value.shape != p.shape:
                raise RecoveryError(f"{n}: bundle has shape {tuple(value.shape)}, the model {tuple(p.shape)}")
            p.copy_(value)
    directions = [[d.src, d.tgt] for d in info.directions] if any(d.tag for d in info.directions) else None
    return Recovered(model, cfg, (bundle / "spm.model").read_bytes(), info.src_lang, info.tgt_lang, quantized,
                     directions)
