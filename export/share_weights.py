"""Store each distinct weight tensor of a bundle once: every graph's weights in one ``weights.bin``.

decoder.onnx and decoder_full.onnx hold the same decoder weights, and the tied embedding (and
the positional table) appear in the encoder too, so a bundle of self-contained graphs stores most
weights two or three times. :func:`share_weights` writes a copy of a bundle whose graphs keep
only their small tensors inline and point at one shared file with the ONNX external-data fields
(``location``, ``offset``, ``length``, ``data_location = EXTERNAL``); each distinct tensor
(dtype, shape and bytes, by hash) is written once. ONNX Runtime resolves ``location`` relative to
the model file, so a plain ``InferenceSession(bundle / "decoder.onnx")`` loads it.

The export calls it last, before its checks; an existing bundle is re-packed in place with::

    python -m export.share_weights BUNDLE_DIR
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper
from onnx.external_data_helper import set_external_data

from doctrans.bundle_manifest import GRAPH_FILES, MODEL_JSON, WEIGHTS_FILE, set_weights_file
from doctrans.errors import UserError
from export.files import DEFAULT_SENTENCES, replace_dir

INLINE_BELOW = 1024  # bytes: scales, zero points, norms of tiny models; not worth an indirection
ALIGN = 64  # every tensor starts on a 64-byte boundary in weights.bin (SIMD-friendly, little padding)

# Tensor types without raw_data that numpy_helper turns into raw bytes and back exactly
# (quantize_dynamic writes its scales and zero points as float_data / int32_data).
_NUMERIC = {TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16, TensorProto.INT8, TensorProto.UINT8,
            TensorProto.INT16, TensorProto.UINT16, TensorProto.INT32, TensorProto.UINT32, TensorProto.INT64,
            TensorProto.UINT64, TensorProto.BOOL}

TensorKey = tuple[int, tuple[int, ...], str]  # data type, shape, sha256 of the raw bytes


class WeightSharingError(UserError):
    """The shared weights file does not reproduce the graphs' tensors."""


@dataclass
class SharingReport:
    graphs: int = 0
    tensors: int = 0  # tensors moved to the weights file, over all graphs
    distinct: int = 0  # ... of which distinct (written once)
    separate_bytes: int = 0  # what those tensors took stored per graph
    weights_bytes: int = 0  # size of the weights file

    def summary(self) -> str:
        return (f"{self.tensors} weight tensors in {self.graphs} graphs, {self.distinct} distinct: "
                f"{self.separate_bytes / 1e6:.2f} MB stored per graph -> {self.weights_bytes / 1e6:.2f} MB shared")


# -- tensors ------------------------------------------------------------------------------------
def constants_to_initializers(model: onnx.ModelProto) -> None:
    """Turn large ``Constant`` nodes of the main graph into initializers, so they can be shared too.

    The tracer leaves e.g. the positional table and the memory slot embeddings as Constant nodes;
    an initializer of the same name is the same value to every consumer.
    """
    graph = model.graph
    keep = []
    for node in graph.node:
        tensor = _large_constant(node)
        if tensor is None:
            keep.append(node)
            continue
        tensor.name = node.output[0]
        graph.initializer.append(tensor)
    del graph.node[:]
    graph.node.extend(keep)


def _large_constant(node: onnx.NodeProto) -> TensorProto | None:
    if node.op_type != "Constant" or node.domain not in ("", "ai.onnx") or len(node.attribute) != 1:
        return None
    attr = node.attribute[0]
    if attr.name != "value" or attr.type != onnx.AttributeProto.TENSOR:
        return None
    raw = _raw_bytes(attr.t)
    if raw is None or len(raw) < INLINE_BELOW:
        return None
    tensor = TensorProto()
    tensor.CopyFrom(attr.t)
    return tensor


def _raw_bytes(tensor: TensorProto) -> bytes | None:
    """The tensor's little-endian contents, or None for a type kept inline (strings, exotic floats)."""
    if tensor.HasField("raw_data"):
        return tensor.raw_data
    if tensor.data_type in _NUMERIC:
        return numpy_helper.from_array(numpy_helper.to_array(tensor)).raw_data  # from_array writes ONNX's layout
    return None


def tensor_key(tensor: TensorProto, raw: bytes) -> TensorKey:
    return tensor.data_type, tuple(tensor.dims), hashlib.sha256(raw).hexdigest()


class _WeightsFile:
    """Appends each distinct tensor once and remembers where it went."""

    def __init__(self, f: BinaryIO):
        self.f = f
        self.places: dict[TensorKey, tuple[int, int]] = {}

    def place(self, key: TensorKey, raw: bytes) -> tuple[int, int]:
        if key not in self.places:
            end = self.f.tell()
            offset = end + -end % ALIGN  # the next boundary
            self.f.write(b"\0" * (offset - end) + raw)
            self.places[key] = (offset, len(raw))
        return self.places[key]


def externalize(model: onnx.ModelProto, weights: _WeightsFile, report: SharingReport) -> dict[str, TensorKey]:
    """Point the model's large initializers at ``weights``; return name -> key of what moved."""
    moved = {}
    for tensor in model.graph.initializer:
        raw = _raw_bytes(tensor)
        if raw is None or len(raw) < INLINE_BELOW:
            continue
        key = tensor_key(tensor, raw)
        offset, length = weights.place(key, raw)
        # set_external_data wants the bytes in raw_data first (it checks the field exists).
        _set_raw(tensor, raw)
        set_external_data(tensor, WEIGHTS_FILE, offset=offset, length=length)
        tensor.ClearField("raw_data")
        moved[tensor.name] = key
        report.tensors += 1
        report.separate_bytes += len(raw)
    return moved


def _set_raw(tensor: TensorProto, raw: bytes) -> None:
    """Move typed-field contents (float_data, int32_data, ...) to raw_data, which external data replaces."""
    if tensor.HasField("raw_data"):
        return
    for name in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):  # the numeric ones
        tensor.ClearField(name)
    tensor.raw_data = raw


# -- bundles ------------------------------------------------------------------------------------
def graph_files(bundle: Path) -> Iterator[str]:
    return (f for f in GRAPH_FILES.values() if (bundle / f).is_file())


def share_weights(src: Path, dst: Path) -> SharingReport:
    """Write a copy of bundle ``src`` into the new directory ``dst`` with the graphs' weights shared.

    ``src`` may be inline or already shared (``onnx.load`` reads its weights file). The copy is
    read back and every moved tensor compared with what it was (raises WeightSharingError).
    """
    src, dst = Path(src), Path(dst)
    dst.mkdir(parents=True)
    report = SharingReport()
    expected: dict[str, dict[str, TensorKey]] = {}
    with (dst / WEIGHTS_FILE).open("wb") as f:
        weights = _WeightsFile(f)
        for name in graph_files(src):
            model = onnx.load(str(src / name))  # also loads external data, relative to src
            constants_to_initializers(model)
            expected[name] = externalize(model, weights, report)
            (dst / name).write_bytes(model.SerializeToString())
            report.graphs += 1
        report.distinct = len(weights.places)
    report.weights_bytes = (dst / WEIGHTS_FILE).stat().st_size
    _copy_other_files(src, dst)
    # model.json names the file and its size (the loader reports a truncated file by that), and
    # recorded digests follow the rewritten graphs.
    set_weights_file(dst, report.weights_bytes, WEIGHTS_FILE)
    verify_shared(dst, expected)
    return report


def _copy_other_files(src: Path, dst: Path) -> None:
    graphs = set(GRAPH_FILES.values())
    for f in src.iterdir():
        if f.is_file() and f.name not in graphs and f.name != WEIGHTS_FILE:
            shutil.copy2(f, dst / f.name)


def verify_shared(bundle: Path, expected: dict[str, dict[str, TensorKey]]) -> None:
    """Load each graph through the external-data fields and compare every moved tensor's hash."""
    for name, tensors in expected.items():
        try:
            model = onnx.load(str(bundle / name))
        except (OSError, ValueError, onnx.checker.ValidationError) as e:  # e.g. a length past the end
            raise WeightSharingError(f"{bundle / name}: cannot read its weights back ({e})") from None
        got = {t.name: tensor_key(t, t.raw_data) for t in model.graph.initializer if t.name in tensors}
        for tname, key in tensors.items():
            if got.get(tname) != key:
                raise WeightSharingError(f"{bundle / name}: tensor {tname!r} does not read back from "
                                         f"{WEIGHTS_FILE} as written (offset or length wrong)")


def check_same_translations(ref: Path, new: Path, sentences: list[str]) -> None:
    """Bundle ``new`` must translate ``sentences`` as one document exactly as ``ref`` does (greedy),
    in every direction of the model: same tokens and scores, bit-identical memories after every
    sentence."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    each = [OnnxTranslator.load_each_direction(d, beam_size=1, providers=["CPUExecutionProvider"])
            for d in (ref, new)]
    for a, b in zip(*each, strict=True):
        sa, sb = a.new_document(), b.new_document()
        for i, sentence in enumerate(sentences, start=1):
            ra, rb = sa.translate(sentence), sb.translate(sentence)
            same = ra.tgt_tokens == rb.tgt_tokens and ra.score == rb.score
            same = same and all(np.array_equal(m, sb.memory[side]) for side, m in sa.memory.items())
            if not same:
                raise WeightSharingError(f"{new}: with shared weights, sentence {i} translates differently "
                                         f"({a.src_lang}->{a.tgt_lang}) from the bundle it was made from")


# -- command line -------------------------------------------------------------------------------
def repack(bundle: Path, sentences: list[str]) -> SharingReport:
    """Re-pack ``bundle`` in place (through a temp dir next to it, checked before it replaces it)."""
    if not (bundle / MODEL_JSON).is_file():
        raise WeightSharingError(f"{bundle}: not a model bundle (no {MODEL_JSON})")
    work = Path(tempfile.mkdtemp(dir=bundle.parent, prefix=f".{bundle.name}.share-"))
    try:
        new = work / bundle.name
        report = share_weights(bundle, new)
        check_same_translations(bundle, new, sentences)
        replace_dir(new, bundle)
        return report
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m export.share_weights", description=__doc__.splitlines()[0])
    ap.add_argument("bundle", type=Path, help="bundle directory, rewritten in place")
    args = ap.parse_args(argv)
    before = sum(f.stat().st_size for f in args.bundle.iterdir() if f.is_file())
    try:
        report = repack(args.bundle, DEFAULT_SENTENCES)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    after = sum(f.stat().st_size for f in args.bundle.iterdir() if f.is_file())
    print(f"{args.bundle}: {report.summary()}; bundle {before:,} -> {after:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
