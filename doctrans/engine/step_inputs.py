"""The one-step decoder's inputs in the two layouts a bundle's ``decoder.onnx`` may have.

- **stacked** (format 1 and 2 bundles): every layer's cross K/V and KV cache in one array
  ``cross_k``/``past_k`` ... (layers, B, heads, T, d_head), the new cache ``new_k``/``new_v`` the
  same, and the target memory ``mem_tgt`` (B, memory layers, slots, d) read as is;
- **per layer** (format 3, export.step_graph): one array per layer, ``cross_k_<i>``,
  ``past_k_<i>`` ... (B, heads, T, d_head), ``new_k_<i>``; and the memory read's keys and values
  ``mem_k_<j>``/``mem_v_<j>``, which ``memory_read.onnx`` computes from ``mem_tgt`` once per
  sentence. The stacked step split its stacks into layers and stacked the new cache again at
  every step (copies), and projected the memory slots at every token.

The engine's own arrays stay stacked (the encoder gives the cross K/V so): a per-layer input is a
view of layer i of the stack, no copy. This module knows the names, which axis of each input is
the batch (the rows the search reorders and a batch of documents cuts), and an empty cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import onnxruntime as ort

# Inputs holding every layer, (layers, B, ...): the batch is axis 1 (every other input's is axis 0).
STACKED = ("cross_k", "cross_v", "past_k", "past_v")
# A per-layer step's first output: log_softmax of the logits, which the search ranks (a stacked
# step gives the logits themselves).
LOG_PROBS = "log_probs"
# Graph inputs that are not per-row arrays.
NOT_ROWS = ("tokens", "step")


def layer_name(name: str, i: int) -> str:
    """The per-layer form of a stacked input or output (``past_k`` -> ``past_k_0``)."""
    return f"{name}_{i}"


def batch_axis(name: str) -> int:
    return 1 if name in STACKED else 0


@dataclass(frozen=True)
class StepLayout:
    per_layer: bool
    layers: int
    log_probs: bool = False  # the first output is log_probs, not logits

    @classmethod
    def of(cls, sess: ort.InferenceSession, layers: int) -> StepLayout:
        names = {i.name for i in sess.get_inputs()}
        outputs = {o.name for o in sess.get_outputs()}
        return cls(layer_name("past_k", 0) in names, layers, LOG_PROBS in outputs)

    @classmethod
    def of_names(cls, names: Sequence[str], layers: int) -> StepLayout:
        """The layout of a step with these input names (its outputs unknown: logits assumed)."""
        return cls(layer_name("past_k", 0) in names, layers)

    def names(self, name: str) -> list[str]:
        """The graph's names for the stacked ``name``: itself, or one per layer."""
        return [layer_name(name, i) for i in range(self.layers)] if self.per_layer else [name]

    @property
    def scores(self) -> str:
        """The step's first output: log-probabilities (the per-layer step) or logits."""
        return LOG_PROBS if self.log_probs else "logits"

    @property
    def past(self) -> list[str]:
        return [*self.names("past_k"), *self.names("past_v")]

    @property
    def present(self) -> list[str]:
        """The new cache's outputs, in the order of :attr:`past`."""
        return [*self.names("new_k"), *self.names("new_v")]

    def split(self, name: str, stacked: np.ndarray) -> dict[str, np.ndarray]:
        """A stacked (layers, B, ...) array as the graph's input(s): views, no copies."""
        if not self.per_layer:
            return {name: stacked}
        return {layer_name(name, i): stacked[i] for i in range(self.layers)}

    def empty_past(self, rows: int, heads: int, d_head: int) -> dict[str, np.ndarray]:
        shape = (rows, heads, 0, d_head) if self.per_layer else (self.layers, rows, heads, 0, d_head)
        return {name: np.zeros(shape, dtype=np.float32) for name in self.past}

    def stack(self, outputs: dict[str, np.ndarray], name: str) -> np.ndarray:
        """The stacked form of an output (``new_k``) from either layout's outputs."""
        if not self.per_layer:
            return outputs[name]
        return np.stack([outputs[layer_name(name, i)] for i in range(self.layers)])
