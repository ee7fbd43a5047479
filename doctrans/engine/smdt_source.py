"""What an SMDT bundle's encoder reads for one sentence: the layout of ``training.smdt.instance_source``
for an instance of one sentence, in numpy (the runtime has no torch).

``x </s>`` then, for each retrieved pair, ``x^r <sep> y^r </s>``; positions run over the sentence
and restart at 0 in each pair; per token (tag, kind, local group): the sentence is (1, DOC, 1),
pair j's source tokens (1, TM_SRC, 2 + j) and its ``<sep>``, target and ``</s>`` (1, TM_TGT, 2 + j).
Every piece is cut to ``max_len - 1`` tokens, as in training. No pair: the sentence alone, which is
what the model saw in training when the retrieval found nothing (``instance_source`` with no pairs).
tests/test_smdt_export.py checks this against ``instance_source``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

DOC, TM_SRC, TM_TGT = 0, 1, 2  # token kinds, as training/smdt.py numbers them


@dataclass(frozen=True)
class EncoderInput:
    """One instance as the encoder graph takes it: arrays of shape (1, S) and (1, S, 3), int64."""

    src_ids: np.ndarray
    positions: np.ndarray
    meta: np.ndarray

    @property
    def sentence_tokens(self) -> int:
        """The sentence's tokens with its ``</s>`` (the search's length limit is taken from it)."""
        return int((self.meta[0, :, 1] == DOC).sum())


def sentence_instance(sentence: Sequence[int], pairs: Sequence[tuple[Sequence[int], Sequence[int]]],
                      max_len: int, eos_id: int, sep_id: int) -> EncoderInput:
    """The encoder input of ``sentence`` (ids, no EOS) with its retrieved ``pairs`` (source ids,
    target ids)."""
    keep = max_len - 1
    ids = [*(int(t) for t in sentence[:keep]), eos_id]
    pos = list(range(len(ids)))
    meta = [(1, DOC, 1)] * len(ids)
    for j, (x, y) in enumerate(pairs):
        xs = [int(t) for t in x[:keep]]
        ys = [sep_id, *(int(t) for t in y[:keep]), eos_id]
        ids += xs + ys
        pos += range(len(xs) + len(ys))
        meta += [(1, TM_SRC, 2 + j)] * len(xs) + [(1, TM_TGT, 2 + j)] * len(ys)
    return EncoderInput(np.asarray([ids], dtype=np.int64), np.asarray([pos], dtype=np.int64),
                        np.asarray([meta], dtype=np.int64).reshape(1, len(ids), 3))
