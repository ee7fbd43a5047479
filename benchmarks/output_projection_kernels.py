"""ONNX Runtime kernels for the decoder's output projection (d=384 x 16k pieces), side by side.

The batched scoreboard cell (benchmarks.vs_ctranslate2, 32 documents x beam 5 = 160 decoder rows)
spends most of ONNX Runtime's time in the step decoder's int8 ``DynamicQuantizeMatMul``s, the
16k-piece output projection most of all. This times that one GEMM as the bundle writes it
(DynamicQuantizeLinear + MatMulInteger, fused by ORT) against fp32 ``MatMul`` and the block-quantized
``MatMulNBits`` (8 and 4 bits, accuracy level 4: int8 compute), on random weights of the shipped
shape, one thread, at 160, 40 and 5 rows::

    python -m benchmarks.output_projection_kernels [--rows 5 40 160] [--threads 1] [--shape 384 16000]

``--shape K N`` times another of the step's matmuls the same way: ``384 384`` (an attention
projection), ``384 1152`` (q, k and v as one), ``384 1536`` (the FFN's first).

It prints the best of 5 rounds of 20 calls per kernel and size, and each kernel's mean relative
error against fp32 numpy.

``--evict MB [MB ...]`` instead times the bundle's int8 kernel with that many megabytes of another
array written between two calls (the median of 60), as a decoder step's other weights pass through
the cache between two projections: how much of the cache the weights get to keep (2026-12-02,
this project's VM: fast up to 4 MB touched, 2-3x slower from 8 MB).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import onnxruntime as ort
from onnx import ModelProto, TensorProto, helper, numpy_helper

K, N = 384, 16000  # d_model, vocabulary: the shipped zh-en-bidirectional bundle


def _model(nodes: list, inits: list, k: int, n: int, contrib: bool = False) -> ModelProto:
    opsets = [helper.make_opsetid("", 17)] + ([helper.make_opsetid("com.microsoft", 1)] if contrib else [])
    io = (helper.make_tensor_value_info("X", TensorProto.FLOAT, ["M", k]),
          helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["M", n]))
    return helper.make_model(helper.make_graph(nodes, "g", [io[0]], [io[1]], inits), opset_imports=opsets,
                             ir_version=9)


def dynamic_int8(w: np.ndarray) -> ModelProto:
    """The bundle's form: per-tensor int8 weights, activations quantized per call."""
    scale = np.abs(w).max() / 127
    nodes = [helper.make_node("DynamicQuantizeLinear", ["X"], ["xq", "xs", "xz"]),
             helper.make_node("MatMulInteger", ["xq", "W", "xz", "wz"], ["acc"]),
             helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["xs", "ws"], ["s"]),
             helper.make_node("Mul", ["accf", "s"], ["Y"])]
    inits = [numpy_helper.from_array(np.clip(np.round(w / scale), -127, 127).astype(np.int8), "W"),
             numpy_helper.from_array(np.array(0, np.int8), "wz"),
             numpy_helper.from_array(np.array(scale, np.float32), "ws")]
    return _model(nodes, inits, *w.shape)


def fp32(w: np.ndarray) -> ModelProto:
    return _model([helper.make_node("MatMul", ["X", "W"], ["Y"])], [numpy_helper.from_array(w, "W")], *w.shape)


def nbits(w: np.ndarray, bits: int, block: int = 32) -> ModelProto:
    """``MatMulNBits``: symmetric per-block weights (zero point 2^(bits-1)), packed along K."""
    k, n = w.shape
    blocks = k // block
    wt = w.T.reshape(n, blocks, block)
    qmax = 2 ** (bits - 1) - 1
    scale = (np.abs(wt).max(axis=2, keepdims=True) / qmax).astype(np.float32)
    q = (np.clip(np.round(wt / scale), -qmax - 1, qmax).astype(np.int32) + 2 ** (bits - 1)).astype(np.uint8)
    if bits == 4:
        pairs = q.reshape(n, blocks, block // 2, 2)
        q = (pairs[..., 0] | (pairs[..., 1] << 4)).astype(np.uint8)
    node = helper.make_node("MatMulNBits", ["X", "B", "S"], ["Y"], domain="com.microsoft", K=k, N=n, bits=bits,
                            block_size=block, accuracy_level=4)
    return _model([node], [numpy_helper.from_array(q, "B"), numpy_helper.from_array(scale.reshape(-1), "S")], k, n,
                  True)


def evicted(sess: ort.InferenceSession, x: np.ndarray, megabytes: int, calls: int = 60) -> float:
    """Median seconds of a call with ``megabytes`` of another array written before each."""
    other = np.ones(megabytes * 262144, np.float32)  # 4-byte floats
    times = []
    for _ in range(calls):
        if megabytes:
            other += 1.0
        t = time.perf_counter()
        sess.run(None, {"X": x})
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, nargs="+", default=[5, 40, 160])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--shape", type=int, nargs=2, default=[K, N], metavar=("K", "N"))
    p.add_argument("--evict", type=int, nargs="+", metavar="MB",
                   help="time the int8 kernel with this many MB written between calls (0: none)")
    a = p.parse_args(argv)
    k, n = a.shape
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((k, n)) * 0.05).astype(np.float32)
    so = ort.SessionOptions()
    so.intra_op_num_threads = a.threads
    if a.evict:
        sess = ort.InferenceSession(dynamic_int8(w).SerializeToString(), so, providers=["CPUExecutionProvider"])
        x_all = rng.standard_normal((max(a.rows), k)).astype(np.float32)
        print(f"int8 matmul {k} x {n} ({k * n / 2**20:.1f} MiB of weights), {a.threads} thread(s): median ms "
              "of a call with MB written between calls")
        print("| rows | " + " | ".join(f"{mb} MB" for mb in a.evict) + " |")
        print("|---" * (len(a.evict) + 1) + "|")
        for m in a.rows:
            print(f"| {m} | " + " | ".join(f"{evicted(sess, x_all[:m], mb) * 1e3:.3f}" for mb in a.evict) + " |")
        return 0
    kernels = {"int8 DynamicQuantizeMatMul": dynamic_int8(w), "fp32 MatMul": fp32(w),
               "MatMulNBits 8-bit": nbits(w, 8), "MatMulNBits 4-bit": nbits(w, 4)}
    sessions = {k: ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
                for k, m in kernels.items()}
    x_all = rng.standard_normal((max(a.rows), k)).astype(np.float32)
    print(f"matmul {k} x {n}, {a.threads} thread(s), onnxruntime {ort.__version__}: best ms of 5 x 20 calls "
          "(mean relative error vs fp32 numpy)")
    print("| rows | " + " | ".join(sessions) + " |")
    print("|---" * (len(sessions) + 1) + "|")
    for m in a.rows:
        x, ref = x_all[:m], x_all[:m] @ w
        cells = []
        for sess in sessions.values():
            y = sess.run(None, {"X": x})[0]
            best = float("inf")
            for _ in range(5):
                t = time.perf_counter()
                for _ in range(20):
                    sess.run(None, {"X": x})
                best = min(best, (time.perf_counter() - t) / 20)
            cells.append(f"{best * 1e3:.3f} ({np.abs(y - ref).mean() / np.abs(ref).mean():.3f})")
        print(f"| {m} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
