"""Rebuild an existing bundle's one-step decoder as the fused per-layer graph (:mod:`export.step_graph`,
with ``memory_read.onnx`` beside it for a target memory: format 3), in place::

    python -m export.rebuild_step doctrans/models/zh-en-bidirectional

For bundles exported before it (traced or stacked step), the shipped ones among them (their
checkpoints are not kept). The weights come from the bundle itself (:func:`training.bundle_weights.recover`; an int8
bundle's are its dequantized int8 values, quantized again as the export does: symmetric per-channel
int8 maps each row's largest value to 127 again, so the same int8 values come back). Every other
graph and file is kept as it is; the weights are re-packed into one ``weights.bin``.

Checked before the bundle is replaced (through a temp dir next to it, like ``export.share_weights``):

1. the new step decoder against the old one on random inputs, an empty cache and source padding
   included (fp32: within the export's bound; int8: reported, the two graphs quantize their
   activations at different points);
2. a few sentences as one document through the engine, greedy, in every direction of the model:
   an fp32 bundle must translate them identically, an int8 one is reported (sentences identical).

model.json keeps everything it had; ``provenance.decoder_step`` says the step was rebuilt, and the
digests are recorded again. A bundle this cannot rebuild (SMDT, damaged, not a bundle) is one error
line and is left untouched.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch

from doctrans.bundle_manifest import (
    FORMAT_VERSION,
    GRAPH_FILES,
    MODEL_JSON,
    WEIGHTS_FILE,
    BundleManifest,
    edit,
    record_hashes,
)
from doctrans.engine.bundle import read_bundle
from doctrans.errors import UserError
from export.bundle import example_inputs, quantize_graph
from export.common import ExportError, allowed_diff
from export.files import DEFAULT_SENTENCES, replace_dir
from export.graphs import GRAPHS, graph_io
from export.share_weights import WeightSharingError, share_weights
from export.step_graph import PER_LAYER, in_step_terms, memory_read_graph, run_step, step_graph, step_provenance
from training.bundle_weights import RecoveryError, recover
from training.model import MemoryTransformer

DECODER = GRAPH_FILES["decoder"]
READ = GRAPH_FILES["memory_read"]


@dataclass
class RebuildReport:
    quantized: bool
    diffs: dict[str, float]  # max |Δ| per output on random inputs: vs the old step, h_tgt vs PyTorch
    same_sentences: int
    sentences: int
    nodes_before: int
    nodes_after: int
    weights_bytes_before: int
    weights_bytes_after: int

    def summary(self) -> str:
        diffs = ", ".join(f"{k} {v:.2e}" for k, v in self.diffs.items())
        return (f"step decoder {self.nodes_before} -> {self.nodes_after} nodes; max |Δ| ({diffs}) "
                f"({'int8' if self.quantized else 'fp32'}); greedy identical on "
                f"{self.same_sentences}/{self.sentences} sentences; weights {self.weights_bytes_before:,} -> "
                f"{self.weights_bytes_after:,} bytes")


def _session(path: Path):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def _node_count(path: Path) -> int:
    return len(onnx.load(str(path), load_external_data=False).graph.node)


def compare_steps(model: MemoryTransformer, old: Path, new: Path, bound: float | None) -> dict[str, float]:
    """Max |Δ| per output between two bundles' step decoders on random inputs (either form, fed
    as export.step_graph.run_step feeds them); over ``bound`` (relative) raises.

    An output the old step lacks (``h_tgt``, added with the fused step) is compared with the
    PyTorch model instead (the bundle's weights read back).
    """
    ins, outs = graph_io(model)["decoder"]

    def sessions(bundle: Path) -> tuple[Any, Any]:  # the step and memory_read.onnx (or None)
        read = bundle / READ
        return _session(bundle / DECODER), _session(read) if read.is_file() else None

    a, b = sessions(old), sessions(new)
    worst: dict[str, float] = {}
    for seed, shape in enumerate([(3, 9, 0, 4), (5, 13, 7, 3)], start=1):
        inputs = example_inputs(model, *shape, seed=seed)["decoder"]
        feed = {n: x.numpy() for n, x in zip(ins, inputs, strict=True)}
        with torch.no_grad():
            torch_out = dict(zip(outs, (t.numpy() for t in GRAPHS["decoder"](model).eval()(*inputs)), strict=True))
        after = run_step(b[0], b[1], feed)
        # The old step's outputs (the PyTorch model's for one it lacks), in the new step's terms.
        before = in_step_terms({**torch_out, **run_step(a[0], a[1], feed)}, after)
        if sorted(after) != sorted(in_step_terms(torch_out, after)):
            raise ExportError(f"rebuild check failed: the new step's outputs are {sorted(after)}")
        for name, o in after.items():
            r = before[name]
            if r.shape != o.shape:
                raise ExportError(f"rebuild check failed: {name} has shape {o.shape}, the old step {r.shape}")
            d = float(np.abs(r - o).max()) if r.size else 0.0
            if not np.isfinite(d) or (bound is not None and d > allowed_diff(r, bound)):
                raise ExportError(f"rebuild check failed: {name} differs from the old step by {d:.3g} on {shape}")
            worst[name] = max(worst.get(name, 0.0), d)
    return worst


def same_translations(old: Path, new: Path, sentences: list[str]) -> tuple[int, int]:
    """Greedy, one document per direction: (sentences translated identically, sentences)."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    each = [OnnxTranslator.load_each_direction(d, beam_size=1, providers=["CPUExecutionProvider"])
            for d in (old, new)]
    same = total = 0
    for a, b in zip(*each, strict=True):
        sa, sb = a.new_document(), b.new_document()
        for s in sentences:
            same += sa.translate(s).tgt_tokens == sb.translate(s).tgt_tokens
            total += 1
    return same, total


def _quantized_embedding(decoder: Path) -> np.ndarray | None:
    """The token embedding an int8 step decoder reads, dequantized (None if it has no such table).

    quantize_dynamic stores the tied embedding twice: per-tensor for the Gather, per-channel for
    the output projection, and recover() returns the second. Giving the new Gather the old one's
    values back makes the re-quantization reproduce its int8 table exactly (stored once again).
    """
    from onnx import numpy_helper

    graph = onnx.load(str(decoder)).graph
    inits = {t.name: t for t in graph.initializer}
    gathered = {n.output[0]: n.input[0] for n in graph.node if n.op_type == "Gather" and n.input[0] in inits}
    # quantize_dynamic's form: Gather(int8 table, ids) -> DequantizeLinear(rows, scale, zero point).
    for node in graph.node:
        if node.op_type != "DequantizeLinear" or len(node.input) < 3:
            continue
        names = (gathered.get(node.input[0]), *node.input[1:3])
        if all(n in inits for n in names):
            q, scale, zero = (numpy_helper.to_array(inits[n]) for n in names)
            if q.ndim == 2:
                return ((q.astype(np.float32) - zero.astype(np.float32)) * scale).astype(np.float32)
    return None


def rebuild(bundle: Path, sentences: list[str], tol: float = 1e-4) -> RebuildReport:
    """Rebuild ``bundle``'s decoder.onnx as the fused per-layer step (with memory_read.onnx for a
    target memory), checked, in place."""
    info = read_bundle(bundle)
    if info.smdt is not None:
        raise ExportError(f"{bundle}: an SMDT bundle; its step decoder is smdt_decoder.onnx, not rebuilt here")
    try:
        rec = recover(bundle)
    except RecoveryError as e:
        raise ExportError(f"{bundle}: cannot read the weights back ({e})") from None
    quantized = info.quantization == "int8"
    work = Path(tempfile.mkdtemp(dir=bundle.parent, prefix=f".{bundle.name}.rebuild-"))
    try:
        inline = work / "inline"  # every graph self-contained, the new step among them
        inline.mkdir()
        rebuilt = {DECODER, READ}
        for f in bundle.iterdir():
            if f.suffix == ".onnx" and f.name not in rebuilt:
                onnx.save(onnx.load(str(f)), str(inline / f.name))  # reads weights.bin, writes inline
            elif f.is_file() and f.suffix != ".onnx" and f.name != WEIGHTS_FILE:
                shutil.copy2(f, inline / f.name)
        table = _quantized_embedding(bundle / DECODER) if quantized else None
        model = rec.model.eval()
        with torch.no_grad():
            graphs = {DECODER: step_graph(model, table)}
            if "tgt" in model.cfg.sides:
                graphs[READ] = memory_read_graph(model)
        for name, graph in graphs.items():
            onnx.save(graph, str(work / name))
            if quantized:
                quantize_graph(work / name, inline / name)
            else:
                shutil.copy2(work / name, inline / name)
        stamp = time.strftime("%Y-%m-%d", time.gmtime())

        def stamped(m: BundleManifest) -> None:
            m.provenance = {**(m.provenance or {}), "decoder_step": f"{step_provenance(PER_LAYER)}, rebuilt {stamp}"}
            if READ in graphs:
                m.files = {**m.files, "memory_read": READ}
            m.format_version = FORMAT_VERSION  # a per-layer step: version 1 and 2 readers must refuse it

        edit(inline, stamped)
        new = work / bundle.name
        try:
            share_weights(inline, new)
        except WeightSharingError as e:
            raise ExportError(f"rebuild check failed: {e}") from None
        record_hashes(new)
        diffs = compare_steps(rec.model, bundle, new, None if quantized else tol)
        same, total = same_translations(bundle, new, sentences)
        if not quantized and same != total:
            raise ExportError(f"rebuild check failed: the fp32 bundle translates {total - same} of {total} "
                              "sentences differently with the rebuilt step")
        weights = info.weights_file
        report = RebuildReport(quantized, diffs, same, total, _node_count(bundle / DECODER),
                               _node_count(new / DECODER),
                               (bundle / weights).stat().st_size if weights else 0,
                               (new / WEIGHTS_FILE).stat().st_size)
        replace_dir(new, bundle)
        return report
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m export.rebuild_step", description=__doc__.splitlines()[0])
    ap.add_argument("bundle", type=Path, help="bundle directory, rewritten in place")
    args = ap.parse_args(argv)
    try:
        if not (args.bundle / MODEL_JSON).is_file():
            raise ExportError(f"{args.bundle}: not a model bundle (no {MODEL_JSON})")
        report = rebuild(args.bundle, DEFAULT_SENTENCES)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{args.bundle}: {report.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
