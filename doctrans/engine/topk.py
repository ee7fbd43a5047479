"""The beam search's candidate selection in ONNX Runtime: log_softmax + top-k per decoder row.

Choosing the next beams needs the best ``2K`` of ``K x V`` log-probabilities. In numpy that is a
log_softmax over every row and an ``argpartition`` over ``K x V`` values: measured on the shipped
zh-en model (V = 10,000, beam 5, one thread, shared machine) ~2.6 ms a step, more than the decoder
step itself. ONNX Runtime's ``LogSoftmax`` + ``TopK`` on the same logits take ~0.2 ms.

The per-row best ``2K`` are enough: a row contributes at most ``2K`` of the overall best ``2K``,
and adding the row's beam score keeps the row's order, so :func:`doctrans.engine.beam.beam_search_n_best`
merges ``K`` rows of ``2K`` candidates (ordered by value, then beam, then token: the order of its
numpy path) instead of sorting ``K x V``.

The graph is tiny and the same for every bundle, so it is not part of the bundle format (old
bundles get it too) and it is embedded here: the runtime does not depend on the ``onnx``
package. ``export.graphs.topk_graph`` builds it; a test checks these bytes are that graph.
"""

from __future__ import annotations

import base64

import numpy as np
import onnxruntime as ort

TOPK_GRAPH = base64.b64decode(
    "CAgSCGRvY3RyYW5zOpECCjQKBmxvZ2l0cxIIbG9ncHJvYnMiCkxvZ1NvZnRtYXgqFAoEYXhpcxj///////////8BoAECClgKCGxv"
    "Z3Byb2JzCgFrEgZ2YWx1ZXMSBnRva2VucyIEVG9wSyoUCgRheGlzGP///////////wGgAQIqDgoHbGFyZ2VzdBgBoAECKg0KBnNv"
    "cnRlZBgBoAECEg1kb2N0cmFuc190b3BrWiEKBmxvZ2l0cxIXChUIARIRCgYSBHJvd3MKBxIFdm9jYWJaDwoBaxIKCggIBxIECgII"
    "AWIdCgZ2YWx1ZXMSEwoRCAESDQoGEgRyb3dzCgMSAWtiHQoGdG9rZW5zEhMKEQgHEg0KBhIEcm93cwoDEgFrQgQKABAR")


# The same TopK without the LogSoftmax (export.graphs.topk_graph(log_softmax=False)), for a per-layer
# step, whose output is log-probabilities already: normalising them again cost ~40 us a step at
# beam 5 (~110 us instead of ~150 us for 5 x 10,016 values, one thread) and moved them by rounding.
# (Tried and dropped: this graph ranking the full-logits search's rows after its bans, merged per
# beam like the top-k path: 160 us a step against numpy's 135 us for the same choice.)
BEST_GRAPH = base64.b64decode(
    "CAgSCGRvY3RyYW5zOtkBClYKBmxvZ2l0cwoBaxIGdmFsdWVzEgZ0b2tlbnMiBFRvcEsqFAoEYXhpcxj///////////8BoAECKg4KB2xh"
    "cmdlc3QYAaABAioNCgZzb3J0ZWQYAaABAhINZG9jdHJhbnNfYmVzdFohCgZsb2dpdHMSFwoVCAESEQoGEgRyb3dzCgcSBXZvY2FiWg8K"
    "AWsSCgoICAcSBAoCCAFiHQoGdmFsdWVzEhMKEQgBEg0KBhIEcm93cwoDEgFrYh0KBnRva2VucxITChEIBxINCgYSBHJvd3MKAxIBa0IE"
    "CgAQEQ==")


# The k input as an array, one per k (the search asks for the same 2K every step).
_K: dict[int, np.ndarray] = {}


def topk_session(options: ort.SessionOptions, providers: list[str], log_softmax: bool = True) -> ort.InferenceSession:
    """The top-k graph (``log_softmax=False``: :data:`BEST_GRAPH`); :func:`topk` runs either."""
    return ort.InferenceSession(TOPK_GRAPH if log_softmax else BEST_GRAPH, options, providers=providers)


def topk(sess: ort.InferenceSession, logits: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(logits (rows, V), k) -> (log-probabilities (rows, k), token ids (rows, k))``, best first,
    equal values by lower token id."""
    k = min(k, logits.shape[-1])
    if k not in _K:
        _K[k] = np.array([k], dtype=np.int64)
    values, tokens = sess.run(None, {"logits": logits, "k": _K[k]})
    return values, tokens
