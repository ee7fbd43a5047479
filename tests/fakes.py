"""A fake engine behind the real :class:`Translator` interface, for structure tests.

It "translates" by upper-casing (or by a given function), so a test can check that every
piece of text went through the engine exactly once and landed back in the right place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from doctrans.engine.interface import MemoryState, SentenceResult
from doctrans.glossary import Glossary


@dataclass
class FakeSession:
    engine: FakeTranslator
    _count: int = 0

    def translate(self, sentence: str) -> SentenceResult:
        self.engine.calls.append(sentence)
        self._count += 1
        return SentenceResult(source=sentence, translation=self.engine.fn(sentence),
                              src_tokens=sentence.split(), tgt_tokens=self.engine.fn(sentence).split())

    def force(self, sentence: str, translation: str) -> SentenceResult:
        """A person's translation: no engine call, the memory moves on as for a translated one."""
        self._count += 1
        return SentenceResult(source=sentence, translation=translation, src_tokens=sentence.split(),
                              tgt_tokens=translation.split())

    @property
    def memory(self) -> MemoryState:
        # The "memory" counts sentences seen, so resume tests can check it was restored.
        return {"src": np.full((1, 1, 1), float(self._count), dtype=np.float32)}


@dataclass
class FakeTranslator:
    fn: Callable[[str], str] = str.upper
    src_lang: str = "en"
    tgt_lang: str = "de"
    max_source_tokens: int = 64
    calls: list[str] = field(default_factory=list)
    glossary: Glossary | None = None  # the protocol's: a fake applies none

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    @property
    def directions(self) -> list[tuple[str, str]]:
        return [(self.src_lang, self.tgt_lang)]

    def with_direction(self, src: str | None = None, tgt: str | None = None) -> FakeTranslator:
        return self  # one direction only

    def new_document(self, memory: MemoryState | None = None, *, return_attention: bool = False) -> FakeSession:
        session = FakeSession(self)
        if memory is not None:
            session._count = int(memory["src"].ravel()[0])
        return session
