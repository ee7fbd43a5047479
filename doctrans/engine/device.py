"""The step decoder with ONNX Runtime I/O binding: the KV cache stays where the decoder runs.

On a GPU (CUDAExecutionProvider, from ``onnxruntime-gpu``), feeding numpy arrays to every step
would copy the cross K/V and the whole growing KV cache to the device and back at every token. Here
the sentence's constant inputs are copied to the device once, each step's new cache (an ORT
value on the device) is bound as the next step's past, the beam reorder is a ``Gather`` run on
the device (the embedded graph below, built by ``export.graphs.reorder_graph``), and the logits go
through the top-k graph (doctrans.engine.topk) on the device too: per step only the tokens go in
and ``2K`` values and token ids per row come out.

On the CPU the plain :class:`doctrans.engine.onnx_engine._Decoder` is as fast (measured: binding
buys nothing when the arrays already are in host memory), so the engine uses this class for CUDA
only; tests run it on the CPU to check it computes exactly what the plain decoder does.
"""

from __future__ import annotations

import base64

import numpy as np
import onnxruntime as ort

from doctrans.bundle_manifest import BundleManifest
from doctrans.engine.step_inputs import LOG_PROBS, StepLayout

REORDER_GRAPH = base64.b64decode(
    "CAgSCGRvY3RyYW5zOpIDCiwKBnBhc3RfawoGb3JpZ2luEgVuZXdfayIGR2F0aGVyKgsKBGF4aXMYAaABAgosCgZwYXN0X3YKBm9y"
    "aWdpbhIFbmV3X3YiBkdhdGhlcioLCgRheGlzGAGgAQISEGRvY3RyYW5zX3Jlb3JkZXJaQQoGcGFzdF9rEjcKNQgBEjEKCBIGbGF5"
    "ZXJzCgYSBHJvd3MKBxIFaGVhZHMKChIIcGFzdF9sZW4KCBIGZF9oZWFkWkEKBnBhc3RfdhI3CjUIARIxCggSBmxheWVycwoGEgRy"
    "b3dzCgcSBWhlYWRzCgoSCHBhc3RfbGVuCggSBmRfaGVhZFoYCgZvcmlnaW4SDgoMCAcSCAoGEgRyb3dzYkAKBW5ld19rEjcKNQgB"
    "EjEKCBIGbGF5ZXJzCgYSBHJvd3MKBxIFaGVhZHMKChIIcGFzdF9sZW4KCBIGZF9oZWFkYkAKBW5ld192EjcKNQgBEjEKCBIGbGF5"
    "ZXJzCgYSBHJvd3MKBxIFaGVhZHMKChIIcGFzdF9sZW4KCBIGZF9oZWFkQgQKABAR")
# The same for one layer's pair (rows, heads, T, d_head): a per-layer step (reorder_graph(per_layer=True)).
REORDER_LAYER_GRAPH = base64.b64decode(
    "CAgSCGRvY3RyYW5zOvACCiwKBnBhc3RfawoGb3JpZ2luEgVuZXdfayIGR2F0aGVyKgsKBGF4aXMYAKABAgosCgZwYXN0X3YKBm9y"
    "aWdpbhIFbmV3X3YiBkdhdGhlcioLCgRheGlzGACgAQISFmRvY3RyYW5zX3Jlb3JkZXJfbGF5ZXJaNwoGcGFzdF9rEi0KKwgBEicK"
    "BhIEcm93cwoHEgVoZWFkcwoKEghwYXN0X2xlbgoIEgZkX2hlYWRaNwoGcGFzdF92Ei0KKwgBEicKBhIEcm93cwoHEgVoZWFkcwoK"
    "EghwYXN0X2xlbgoIEgZkX2hlYWRaGAoGb3JpZ2luEg4KDAgHEggKBhIEcm93c2I2CgVuZXdfaxItCisIARInCgYSBHJvd3MKBxIF"
    "aGVhZHMKChIIcGFzdF9sZW4KCBIGZF9oZWFkYjYKBW5ld192Ei0KKwgBEicKBhIEcm93cwoHEgVoZWFkcwoKEghwYXN0X2xlbgoI"
    "EgZkX2hlYWRCBAoAEBE=")


def device_of(sess: ort.InferenceSession) -> str:
    """Where a session's first provider computes: "cuda" or "cpu" (ORT's device names)."""
    return "cuda" if sess.get_providers()[0] == "CUDAExecutionProvider" else "cpu"


def reorder_session(options: ort.SessionOptions, providers: list[str], per_layer: bool = False) -> ort.InferenceSession:
    return ort.InferenceSession(REORDER_LAYER_GRAPH if per_layer else REORDER_GRAPH, options, providers=providers)


class BoundDecoder:
    """:class:`doctrans.engine.beam.TopKStepDecoder` over decoder.onnx with I/O binding on ``device``.

    ``memory``: the step's memory inputs (doctrans.engine.onnx_engine.memory_inputs); the cache is
    one pair or a pair per layer (doctrans.engine.step_inputs), reordered by ``reorder_sess``, the
    graph for that layout.
    """

    def __init__(self, sess: ort.InferenceSession, info: BundleManifest, src: np.ndarray, cross_k: np.ndarray,
                 cross_v: np.ndarray, memory: dict[str, np.ndarray], topk_sess: ort.InferenceSession,
                 reorder_sess: ort.InferenceSession, device: str):
        self.sess, self.topk_sess, self.reorder_sess, self.device = sess, topk_sess, reorder_sess, device
        n = src.shape[0]
        layout = StepLayout.of(sess, info.dec_layers)
        self.io = sess.io_binding()
        constants = {"src_ids": src, **layout.split("cross_k", cross_k), **layout.split("cross_v", cross_v), **memory}
        # Kept referenced: a bound OrtValue must outlive the runs that read it.
        self._constants = {k: self._to_device(np.ascontiguousarray(v)) for k, v in constants.items()}
        for name, value in self._constants.items():
            self.io.bind_ortvalue_input(name, value)
        self.names, self.present, self.scores = layout.past, layout.present, layout.scores
        self.gives_log_probs = self.scores == LOG_PROBS
        self.past = [self._to_device(v) for v in layout.empty_past(n, info.n_heads, info.d_head).values()]
        self.identity = np.arange(n)

    def _to_device(self, x: np.ndarray) -> ort.OrtValue:
        return ort.OrtValue.ortvalue_from_numpy(x, self.device, 0)

    def _run(self, tokens: np.ndarray, t: int) -> ort.OrtValue:
        io = self.io
        io.bind_cpu_input("tokens", np.ascontiguousarray(tokens, dtype=np.int64))
        io.bind_cpu_input("step", np.array(t, dtype=np.int64))
        for name, value in zip(self.names, self.past, strict=True):
            io.bind_ortvalue_input(name, value)
        for name in (self.scores, *self.present):
            io.bind_output(name, self.device)
        self.sess.run_with_iobinding(io)
        logits, *self.past = io.get_outputs()
        return logits

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        return self._run(tokens, t).numpy()

    def step_topk(self, tokens: np.ndarray, t: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        logits = self._run(tokens, t)
        io = self.topk_sess.io_binding()
        io.bind_ortvalue_input("logits", logits)
        io.bind_cpu_input("k", np.array([min(k, logits.shape()[-1])], dtype=np.int64))
        io.bind_output("values", "cpu")
        io.bind_output("tokens", "cpu")
        self.topk_sess.run_with_iobinding(io)
        values, ids = io.copy_outputs_to_cpu()
        return values, ids

    def reorder(self, origin: np.ndarray) -> None:
        if np.array_equal(origin, self.identity):
            return
        half = len(self.past) // 2  # keys, then values: one (k, v) pair per reorder run
        ks, vs = [], []
        for k, v in zip(self.past[:half], self.past[half:], strict=True):
            io = self.reorder_sess.io_binding()
            io.bind_ortvalue_input("past_k", k)
            io.bind_ortvalue_input("past_v", v)
            io.bind_cpu_input("origin", np.ascontiguousarray(origin, dtype=np.int64))
            io.bind_output("new_k", self.device)
            io.bind_output("new_v", self.device)
            self.reorder_sess.run_with_iobinding(io)
            new_k, new_v = io.get_outputs()
            ks.append(new_k)
            vs.append(new_v)
        self.past = [*ks, *vs]
