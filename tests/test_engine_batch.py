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


@pytest.mark.parametrize(("beam", "attention"), [(1, True), (3, True), (3, False)])
def test_batched_documents_match_one_at_a_time(beam: int, attention: bool) -> None:
    """With the viewer's attention (decoder_full runs) and without it (the memory written from
    the search's own states, rows cut out of the decoder as they finish: no decoder_full)."""
    tr = OnnxTranslator.load(shared_bundle(), beam_size=beam, return_attention=attention)
    full_runs = [0]
    real = tr.sessions["decoder_full"].run

    def counted(*args, **kwargs):
        full_runs[0] += 1
        return real(*args, **kwargs)

    tr.sessions["decoder_full"].run = counted
    batch = BatchedDocuments(tr, rows=len(DOCS))
    got = batch.translate_documents(DOCS)
    assert (full_runs[0] > 0) == attention
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


def test_rows_of_different_translators_and_ids() -> None:
    """Rows need only share the graphs and options: a row with a glossary (its own translator
    object) beside one without, and the ids-level step the benchmark times, give what each
    session gives alone."""
    from doctrans.engine.batch import batch_key, translate_ids_rows, translate_rows
    from doctrans.glossary import Glossary

    tr = OnnxTranslator.load(shared_bundle(), beam_size=2)
    with_terms = tr.with_glossary(Glossary.from_pairs([("cat", "KATZE")]))
    docs = [sentences(3, seed=6), sentences(3, seed=7)]
    docs[1][1] = "the cat sees a dog ."
    rows = [tr.new_document(), with_terms.new_document()]
    assert batch_key(rows[0]) == batch_key(rows[1])
    assert batch_key(tr.new_document(beam_size=3)) != batch_key(rows[0])  # other options: another batch
    got = [translate_rows(rows, [a, b]) for a, b in zip(*docs, strict=True)]
    for r, t in enumerate((tr, with_terms)):
        alone = t.translate_document(docs[r])
        assert [step[r].translation for step in got if step[r]] == [x.translation for x in alone]
    with pytest.raises(ValueError, match="one model with the same options"):
        translate_rows([rows[0], tr.new_document(beam_size=3)], ["a .", "b ."])

    sessions = [tr.new_document(), tr.new_document()]
    ids = [[tr.source_ids(s) for s in d] for d in docs[:1] * 2]
    for a, b in zip(*ids, strict=True):
        hyps = translate_ids_rows(sessions, [a, b])
        assert hyps[0].tokens == hyps[1].tokens
    alone = tr.translate_document(docs[0])
    assert tr.tokenizer.decode(hyps[0].tokens) == alone[-1].translation


def test_finished_rows_leave_the_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row whose search is over is cut out of the decoder's batch (a looping neighbour must not
    make it pay), and the rows left compute what they computed with it."""
    from doctrans.engine import batch as engine_batch

    shrunk: list[int] = []
    real_cut = engine_batch._LiveRows._cut

    def cut(self: engine_batch._LiveRows, tokens: np.ndarray) -> None:
        before = self.alive.shape[0]
        real_cut(self, tokens)
        if self.alive.shape[0] < before:
            shrunk.append(before - self.alive.shape[0])

    monkeypatch.setattr(engine_batch._LiveRows, "_cut", cut)
    tr = OnnxTranslator.load(shared_bundle(), beam_size=3)
    short, long = "the cat .", " ".join(sentences(4, seed=8))
    batch = engine_batch.translate_rows([tr.new_document(), tr.new_document()], [short, long])
    assert shrunk and shrunk[0] == 3  # the short sentence's three beams went first
    assert [x.translation for x in batch if x] == [tr.translate_document([s])[0].translation for s in (short, long)]
