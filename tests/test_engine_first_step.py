"""The step decoder's first step computes each search row once (issue 18): the beams of a row are
the same before the first token (BOS on the same source and memory), so doctrans.engine's decoder
runs rows, not rows x beam, at step 0 and repeats its outputs and cache to the beams after it. The
translations must be exactly those of the decoder fed rows x beam from the start (tokens and
scores), one document and documents batched, and the first run must really be the smaller one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import doctrans.engine.batch as batch_module
import doctrans.engine.onnx_engine as engine
from doctrans.engine.batch import BatchedDocuments
from doctrans.engine.onnx_engine import OnnxTranslator
from tests.tiny_model import sentences


def _rows_x_beam_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decoder as it was: every input repeated to rows x beam before the first step."""
    original = engine.make_decoder

    def make(s: Any, info: Any, src: np.ndarray, cross_k: np.ndarray, cross_v: np.ndarray,
             mem_tgt: np.ndarray | None, keep_states: bool = False, beam: int = 1) -> Any:
        return original(s, info, np.repeat(src, beam, axis=0), np.repeat(cross_k, beam, axis=1),
                        np.repeat(cross_v, beam, axis=1), None if mem_tgt is None else np.repeat(mem_tgt, beam, axis=0),
                        keep_states, beam=1)

    monkeypatch.setattr(engine, "make_decoder", make)
    monkeypatch.setattr(batch_module, "make_decoder", make)


def _translate(tr: OnnxTranslator, docs: list[list[str]], beam: int) -> list[tuple[list[str], float]]:
    if len(docs) == 1:
        session = tr.new_document(beam_size=beam)
        results = [session.translate(s) for s in docs[0]]
        return [(r.tgt_tokens, r.score) for r in results]
    out = BatchedDocuments(tr, rows=len(docs), beam_size=beam).translate_documents(docs)
    return [(r.tgt_tokens, r.score) for doc in out for r in doc]


@pytest.mark.parametrize("beam", [1, 4])
@pytest.mark.parametrize("documents", [1, 3])
def test_first_step_once_a_row_translates_as_rows_x_beam(tiny_bundle: Path, beam: int, documents: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    tr = OnnxTranslator.load(tiny_bundle, threads=1)
    doc = sentences(9, seed=41)
    docs = [doc[k::documents] for k in range(documents)]
    got = _translate(tr, docs, beam)
    _rows_x_beam_from_the_start(monkeypatch)
    want = _translate(tr, docs, beam)
    assert [tokens for tokens, _ in got] == [tokens for tokens, _ in want]
    np.testing.assert_allclose([score for _, score in got], [score for _, score in want], atol=1e-6)


def test_first_run_computes_each_row_once(tiny_bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tr = OnnxTranslator.load(tiny_bundle, threads=1)
    fed: list[int] = []
    original = engine._Decoder._run

    def run(self: engine._Decoder, tokens: np.ndarray, t: int) -> Any:
        out = original(self, tokens, t)
        fed.append(out[0].shape[0])  # the rows the graph computed
        return out

    monkeypatch.setattr(engine._Decoder, "_run", run)
    BatchedDocuments(tr, rows=3, beam_size=4).translate(sentences(3, seed=5))
    assert fed[0] == 3  # three documents' rows, not 3 x 4
    assert all(rows <= 12 for rows in fed[1:]) and max(fed[1:]) == 12
