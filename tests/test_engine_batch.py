"""doctrans.engine.batch: documents as the rows of one batch give, sentence by sentence, what one
document at a time gives (fp32 tiny bundle), each row through its own memory."""

from __future__ import annotations

import numpy as np
import pytest

from doctrans.engine.batch import BatchedDocuments
from doctrans.engine.onnx_engine import OnnxTranslator
from tests.tiny_model import one_torch_thread, sentences, shared_bundle

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here

# Documents of different lengths and sentence lengths; "42" has nothing to translate (copied, the
# model not called, the memory untouched) while the other rows run the model at that step.
DOCS = [sentences(5, seed=1), [*sentences(2, seed=2), "42", *sentences(3, seed=3)], sentences(1, seed=4),
        sentences(7, seed=5)]


@pytest.mark.parametrize("beam", [1, 3])
def test_batched_documents_match_one_at_a_time(beam: int) -> None:
    tr = OnnxTranslator.load(shared_bundle(), beam_size=beam, return_attention=True)
    batch = BatchedDocuments(tr, rows=len(DOCS))
    got = batch.translate_documents(DOCS)
    for r, doc in enumerate(DOCS):
        session = tr.new_document()
        alone = [session.translate(s) for s in doc]
        assert [x.translation for x in got[r]] == [x.translation for x in alone], f"document {r}"
        assert [x.tgt_tokens for x in got[r]] == [x.tgt_tokens for x in alone]
        assert [x.copied for x in got[r]] == [x.copied for x in alone]
        np.testing.assert_allclose([x.score for x in got[r]], [x.score for x in alone], atol=1e-5)
        for side in ("src", "tgt"):  # each row wrote only its own document's memory
            np.testing.assert_allclose(batch.memory(r)[side], session.memory[side], atol=1e-5)
        for a, b in zip(got[r], alone, strict=True):
            if b.attention is None:
                assert a.attention is None
                continue
            assert a.attention is not None
            for name in ("src_update", "tgt_update", "src_output", "tgt_output"):
                np.testing.assert_allclose(getattr(a.attention, name), getattr(b.attention, name), atol=1e-5)
    assert len({x.translation for d in got for x in d}) > 5  # rows really differ


def test_rows_resume_and_idle() -> None:
    tr = OnnxTranslator.load(shared_bundle(), beam_size=2)
    doc = DOCS[0]
    first = tr.new_document()
    head = [first.translate(s) for s in doc[:2]]
    saved = first.memory
    # Row 0 resumes after two sentences, row 1 starts fresh and idles at the second step.
    batch = BatchedDocuments(tr, rows=2, memories=[saved, None])
    step1 = batch.translate([doc[2], doc[0]])
    step2 = batch.translate([doc[3], None])
    assert step2[1] is None
    whole = tr.translate_document(doc[:4])
    assert [x.translation for x in [*head, step1[0], step2[0]]] == [x.translation for x in whole]
    assert step1[1] is not None and step1[1].translation == whole[0].translation
    fresh = tr.new_document()
    fresh.translate(doc[0])
    np.testing.assert_allclose(batch.memory(1)["src"], fresh.memory["src"], atol=1e-5)
    with pytest.raises(ValueError, match="sentences for 2 rows"):
        batch.translate([doc[0]])
