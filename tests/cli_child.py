"""``python -m tests.cli_child translate ...``: the real doctrans CLI in a child process, with a
fake engine whose output depends on its memory, for the signal / kill -9 / peak-memory tests.

The fake "translates" a sentence to its upper case plus ``#n``, n = sentences the session has
seen; the memory carries n, so a resume that restored the wrong memory (or replayed a sentence
twice) produces different bytes than an uninterrupted run. ``DOCTRANS_TEST_DELAY`` (seconds per
sentence) makes a run slow enough to be interrupted mid-way.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from doctrans.engine.interface import MemoryState, SentenceResult
from doctrans.glossary import Glossary


@dataclass
class CountingSession:
    count: int = 0
    delay: float = 0.0

    def translate(self, sentence: str) -> SentenceResult:
        if self.delay:
            time.sleep(self.delay)
        self.count += 1
        out = f"{sentence.upper()} #{self.count}"
        return SentenceResult(source=sentence, translation=out, src_tokens=sentence.split(), tgt_tokens=out.split())

    def force(self, sentence: str, translation: str) -> SentenceResult:
        self.count += 1
        return SentenceResult(source=sentence, translation=translation, src_tokens=sentence.split(),
                              tgt_tokens=translation.split())

    @property
    def memory(self) -> MemoryState:
        return {"src": np.full((1, 1, 1), float(self.count), dtype=np.float32)}


@dataclass
class CountingTranslator:
    src_lang: str = "en"
    tgt_lang: str = "de"
    max_source_tokens: int = 64
    delay: float = field(default_factory=lambda: float(os.environ.get("DOCTRANS_TEST_DELAY", "0")))
    glossary: Glossary | None = None  # the protocol's: a fake applies none

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    @property
    def directions(self) -> list[tuple[str, str]]:
        return [(self.src_lang, self.tgt_lang)]

    def with_direction(self, src: str | None = None, tgt: str | None = None) -> CountingTranslator:
        return self

    def new_document(self, memory: MemoryState | None = None, *, return_attention: bool = False) -> CountingSession:
        start = 0 if memory is None else int(memory["src"].ravel()[0])
        return CountingSession(start, self.delay)


def _record_peak(path: str) -> None:
    """Write this process's peak resident set (VmHWM, KiB) to ``path`` at exit. Why not rusage:
    Linux carries the RSS of the forked copy of the parent (pytest, hundreds of MB) into the
    child's ru_maxrss across exec; VmHWM belongs to the new program's own address space."""
    import atexit

    def write() -> None:
        with open("/proc/self/status") as f:
            peak = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
        with open(path, "w") as out:
            out.write(peak)

    atexit.register(write)


def main(argv: list[str]) -> None:
    from doctrans import cli

    if os.environ.get("DOCTRANS_TEST_PEAK_FILE"):
        _record_peak(os.environ["DOCTRANS_TEST_PEAK_FILE"])

    translator = CountingTranslator()
    cli.open_translator = lambda *_a, **_k: translator  # type: ignore[assignment]
    cli.app(args=argv, prog_name="doctrans")


if __name__ == "__main__":
    main(sys.argv[1:])
