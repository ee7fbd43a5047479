"""The contract between the translation engine and everything that uses it.

Document adapters, the CLI and the TUI only ever talk to a :class:`Translator`; the ONNX
engine implements it, and so do the fakes the tests use. A document is translated **in
order** through a :class:`DocumentSession`, which owns the recurrent memory of that one
document, so the caller decides the sentence order and can save/restore the memory
(``--resume`` after Ctrl-C, or the TUI re-running the loop from an edited sentence).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from doctrans.glossary import Glossary
    from doctrans.verbatim import SpanWarning


@dataclass
class SentenceAttention:
    """Attention maps of one sentence, averaged over nothing: shape (heads, rows, cols).

    - ``src_update`` / ``tgt_update``: Update Attention written by this sentence,
      memory slots (rows) attending over its source / target tokens (cols) -- what the
      sentence wrote into the memory (Feng et al. 2022, Fig. 6).
    - ``src_output`` / ``tgt_output``: Output Attention read by this sentence, its
      source / target tokens (rows) attending over the memory slots (cols) -- what it read
      back from the memory written by the sentences before it (Fig. 7).
    A side without memory has ``None``.
    """

    src_update: np.ndarray | None = None
    tgt_update: np.ndarray | None = None
    src_output: np.ndarray | None = None
    tgt_output: np.ndarray | None = None


@dataclass
class SentenceResult:
    source: str
    translation: str
    src_tokens: list[str] = field(default_factory=list)
    tgt_tokens: list[str] = field(default_factory=list)
    score: float = 0.0
    attention: SentenceAttention | None = None
    # The engine's notes on verbatim spans (doctrans.verbatim.SpanWarning): a placeholder the model
    # dropped and that was put back by position, one it repeated. The check of the finished
    # translation (doctrans.verbatim.check) is the caller's, so it covers every engine and edits.
    notes: list[SpanWarning] = field(default_factory=list)
    copied: bool = False  # nothing to translate (a number, a URL): the source, the model not called
    tm: bool = False  # an exact match of the user's translation memory (doctrans.tm), the model not called


# The memory of a document between two sentences: side name ("src"/"tgt") -> array
# (layers, slots, d_model). Plain numpy so it can be saved with np.savez for --resume.
MemoryState = dict[str, np.ndarray]


@runtime_checkable
class DocumentSession(Protocol):
    """Translates one document sentence by sentence, carrying its memory."""

    def translate(self, sentence: str) -> SentenceResult: ...

    def force(self, sentence: str, translation: str) -> SentenceResult:
        """Take ``translation`` (a person's edit) as this sentence's translation: the memory is
        written from it as if the model had produced it, so later sentences read the edit."""
        ...

    @property
    def memory(self) -> MemoryState: ...


@runtime_checkable
class Translator(Protocol):
    src_lang: str
    tgt_lang: str
    # The longest source a single call may take, in model tokens; callers split longer
    # "sentences" (no punctuation for pages) at word boundaries to fit -- never drop text.
    max_source_tokens: int

    def count_tokens(self, text: str) -> int: ...

    @property
    def glossary(self) -> Glossary | None:
        """The user's glossary this translator applies (``--glossary``), or None; the check of a
        finished translation looks for its target terms (doctrans.report)."""
        ...

    @property
    def directions(self) -> list[tuple[str, str]]:
        """Every (source, target) pair the model translates (both ways for a bidirectional one)."""
        ...

    def with_direction(self, src: str | None = None, tgt: str | None = None) -> Translator:
        """The same model translating ``src`` -> ``tgt`` (one of ``directions``)."""
        ...

    def new_document(self, memory: MemoryState | None = None, *, return_attention: bool = False) -> DocumentSession:
        """A session with a fresh memory, or one resumed from a saved ``memory``; with
        ``return_attention`` its results carry the memory-attention maps (the TUI's viewer)."""
        ...
