"""The engine seam the TUI needs: ``OnnxDocumentSession.force`` (a person's edited translation
written into the memory as if the model had produced it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from doctrans.engine import load_translator
from tests.tiny_model import sentences

DOC = sentences(3)


def test_force_of_the_models_own_output_is_translate(tiny_bundle: Path) -> None:
    """Forcing the beam's translation leaves the same memory, attention and (about) the same score."""
    tr = load_translator(tiny_bundle, beam_size=1, return_attention=True)
    a, b = tr.new_document(), tr.new_document()
    for sentence in DOC:
        ra = a.translate(sentence)
        rb = b.force(sentence, ra.translation)
        assert rb.translation == ra.translation and rb.tgt_tokens == ra.tgt_tokens
        assert abs(rb.score - ra.score) < 1e-3
        for side in ("src", "tgt"):
            np.testing.assert_allclose(b.memory[side], a.memory[side], atol=1e-5)
        np.testing.assert_allclose(rb.attention.tgt_update, ra.attention.tgt_update, atol=1e-5)


def test_force_writes_the_edit_into_the_target_memory(tiny_bundle: Path) -> None:
    tr = load_translator(tiny_bundle, beam_size=1)
    a, b = tr.new_document(), tr.new_document()
    ra = a.translate(DOC[0])
    rb = b.force(DOC[0], "red red red red .")
    assert rb.translation == "red red red red ."
    np.testing.assert_allclose(b.memory["src"], a.memory["src"], atol=1e-6)  # same source
    assert not np.allclose(b.memory["tgt"], a.memory["tgt"], atol=1e-4)  # different target
    assert rb.score < ra.score  # the model prefers its own output
