"""The document model shared by all format adapters.

A :class:`Document` is an ordered sequence of :class:`Block` (paragraph, heading, list item, table
cell, header/footer, footnote, ...). Each block holds its plain text plus the formatting spans
(``Run``: a character range of that text and an adapter-private handle, e.g. a docx ``w:t``
element) that must survive translation. The job translates a block sentence by sentence and
hands the writer a :class:`TranslatedBlock` -- the target text plus, per sentence, which source
range became which target range -- from which :meth:`TranslatedBlock.project` carries any source
offset (a run boundary) onto the target text.

Blocks are produced by ``Document.blocks()``, a fresh iterator each call, so a format that can
stream (plain text) never holds the whole document in memory; docx and pdf build a list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from doctrans.segment import is_cjk

BLOCK_KINDS = (
    "paragraph", "heading", "list_item", "table_cell", "header", "footer",
    "footnote", "endnote", "comment", "textbox", "caption",
)


@dataclass
class Run:
    """A formatting span: ``text[start:end]`` of its block carries one formatting (``ref``)."""

    start: int
    end: int
    ref: Any = None


@dataclass
class Block:
    kind: str
    text: str
    runs: list[Run] = field(default_factory=list)
    level: int = 0  # heading level (1 = top), list nesting level
    page: int | None = None  # source page (pdf), for page breaks in rebuilt output
    ref: Any = None  # adapter-private: where the block lives in the source
    # Code (a monospace or code-styled paragraph, a fenced/indented/``::`` literal block): copied
    # to the output unchanged, never segmented nor sent to the model.
    verbatim: bool = False


@dataclass
class TranslatedBlock:
    block: Block
    text: str
    # One entry per translated segment: ((src_start, src_end), (tgt_start, tgt_end)), in order.
    # Gaps between segments (whitespace, tabs, line breaks) are copied or adapted by the job.
    alignment: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)

    def project(self, offsets: Iterable[int]) -> list[int]:
        """Map source offsets of the block text onto the target text, monotonically.

        Why proportional mapping per sentence (and not inline tags or attention): the sentence
        is the unit the model sees, so mapping inside it is all that is left to decide; tags
        like ``<b>`` in the source would be mangled by a model not trained on them (ours is not),
        and the engine's attention is memory attention, not a source-target alignment. Inside a
        sentence, a boundary at x% of the source lands at x% of the target, snapped to the
        nearest target word boundary when the source boundary was itself between words (so a
        bold word stays one bold word, not half of two). Equal-length translations map exactly.
        Offsets in the gaps between sentences map into the corresponding target gap.
        """
        out: list[int] = []
        last = 0
        for off in offsets:
            t = max(self._project_one(off), last)
            out.append(t)
            last = t
        return out

    def _project_one(self, off: int) -> int:
        src, tgt = self.block.text, self.text
        if not self.alignment:
            return round(off * len(tgt) / max(1, len(src)))
        prev_src_end, prev_tgt_end = 0, 0
        for (s0, s1), (t0, t1) in self.alignment:
            if off < s0:  # inside the gap before this segment
                return min(prev_tgt_end + (off - prev_src_end), t0)
            if off <= s1:
                if s1 - s0 == t1 - t0:
                    return t0 + (off - s0)
                t = t0 + round((off - s0) * (t1 - t0) / max(1, s1 - s0))
                if off in (s0, s1) or not _at_word_boundary(src, off):
                    return t if off not in (s0, s1) else (t0 if off == s0 else t1)
                return _snap(tgt, t, t0, t1)
            prev_src_end, prev_tgt_end = s1, t1
        return min(prev_tgt_end + (off - prev_src_end), len(tgt))


def _at_word_boundary(text: str, i: int) -> bool:
    if i <= 0 or i >= len(text):
        return True
    a, b = text[i - 1], text[i]
    return a.isspace() or b.isspace() or is_cjk(a) or is_cjk(b) or not (a.isalnum() and b.isalnum())


def _snap(text: str, t: int, lo: int, hi: int) -> int:
    """The word boundary in [lo, hi] of ``text`` nearest to ``t``."""
    for d in range(hi - lo + 1):
        for cand in (t - d, t + d):
            if lo <= cand <= hi and (cand in (lo, hi) or _at_word_boundary(text, cand)):
                return cand
    return t


@dataclass
class Document:
    path: Path
    format: str  # "txt", "docx", "pdf"
    _blocks: Callable[[], Iterator[Block]]
    size_hint: int = 0  # characters of text, roughly: the progress bar's total
    src_lang: str | None = None  # filled by pipeline.detect_language; None = unknown
    state: Any = None  # adapter-private (parsed package, page layout...)

    def blocks(self) -> Iterator[Block]:
        """The blocks in reading order; a fresh iterator on every call."""
        return self._blocks()


class Adapter(Protocol):
    """One per format (argos-translate-files style): a name, its suffixes, read and write."""

    # Read-only in the protocol: an adapter declares them as plain class attributes.
    @property
    def name(self) -> str: ...

    @property
    def suffixes(self) -> tuple[str, ...]: ...

    def read(self, path: Path) -> Document:
        """Open and validate ``path``; raise DocumentError with a clear message if unusable."""
        ...

    def write(self, document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
        """Write the translation of ``document`` (read by this adapter) to ``out_path``.

        ``translated`` yields one TranslatedBlock per block of ``document.blocks()``, in order; it
        may be lazy (translation happens while the writer pulls), so writers consume it once.
        """
        ...
