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

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, Protocol

from doctrans.direction_terms import automatic_terms
from doctrans.language_id import base_language
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
    # The writer wants this run's image exact, not proportional (a Markdown link or emphasis: a
    # few words inside a sentence): the job translates its text alone as well, and the run maps
    # onto that translation where the sentence's translation holds it (TranslatedBlock.phrases).
    anchor: bool = False
    # The formatted stretch this run is a piece of, where a format keeps one formatting over several
    # runs (a .docx's bold phrase split into w:t pieces by spell checking or revisions): its text is
    # the one translated alone and its ends the ones mapped exactly.
    group: tuple[int, int] | None = None

    @property
    def stretch(self) -> tuple[int, int]:
        """Where the formatting of this run starts and ends in its block's text."""
        return self.group or (self.start, self.end)


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
    tgt_lang: str | None = None  # for the figures the engine writes the target's way (copied_anchors)
    # The text of an anchor run -> its translation alone (translate_job.phrase_translations).
    phrases: dict[str, str] = field(default_factory=dict)

    def copied_anchors(self, ranges: Iterable[tuple[int, int]]) -> dict[int, int]:
        """Exact images for the boundaries of the source ``ranges`` (formatting runs) whose text the
        translation copied: an inline code literal, a figure or a name found exactly once in its
        sentence's source and once in its translation maps onto that copy, wherever the model put
        it, instead of proportionally (a bold ``1,250`` or a monospace ``config.yaml`` stays bold
        or monospace over exactly those characters). A run whose text was translated alone
        (``phrases``) maps onto that translation where the sentence's holds it once (a link's
        ``installation guide`` onto ``安装指南``; Latin letters compared without case). Copies out
        of order with one another are dropped, so the runs still tile the target."""
        src, tgt = self.block.text, self.text
        found: list[tuple[int, int]] = []  # (source offset, its exact image)
        for s0, s1 in ranges:
            text = src[s0:s1].strip()
            if len(text) < 2 or not any(c.isalnum() for c in text):
                continue
            a0 = s0 + (len(src[s0:s1]) - len(src[s0:s1].lstrip()))
            a1 = a0 + len(text)
            seg = next((sg for sg in self.alignment if sg[0][0] <= a0 and a1 <= sg[0][1]), None)
            if seg is None:
                continue
            (ss0, ss1), (tt0, tt1) = seg
            if src[ss0:ss1].count(text) != 1:
                continue
            # The text as the model left it last: a link's ``FAQ`` is a heading alone (常见问题) but
            # stayed ``FAQ`` in its sentence, and mapped proportionally its link went round the
            # e-mail address beside it.
            written = (_written(text, self.tgt_lang), self.phrases.get(text), text)
            image = _image(tgt[tt0:tt1], [w for w in dict.fromkeys(written) if w])
            if image is None and (alone := self.phrases.get(text)):
                image = _near_image(tgt[tt0:tt1], alone)
            if image is None:
                continue
            t0, t1 = tt0 + image[0], tt0 + image[1]
            # The run's own spaces around the text: a side is exact only where the translation
            # has as many there (else that boundary is left to the proportional mapping).
            lead, trail = a0 - s0, s1 - a1
            if (t0 - lead >= 0 and tgt[t0 - lead:t0].isspace()) or not lead:
                found.append((s0, t0 - lead))
            if (tgt[t1:t1 + trail].isspace() and len(tgt[t1:t1 + trail]) == trail) or not trail:
                found.append((s1, t1 + trail))
        anchors: dict[int, int] = {}
        last = -1
        for off, t in sorted(found):
            # The block's own start and end stay the translation's: a bold name that starts the
            # source but not the translation (林静推开门… -> "The rain … when Lin Jing …") would
            # otherwise leave the words before it to no run, and they were lost.
            if (not src[:off].strip() and tgt[:t].strip()) or (not src[off:].strip() and tgt[t:].strip()):
                continue
            if t >= last and anchors.setdefault(off, t) == t:
                last = t
        return anchors

    def project(self, offsets: Iterable[int], anchors: dict[int, int] | None = None) -> list[int]:
        """Map source offsets of the block text onto the target text, monotonically.

        Why proportional mapping per sentence (and not inline tags or attention): the sentence
        is the unit the model sees, so mapping inside it is all that is left to decide; tags
        like ``<b>`` in the source would be mangled by a model not trained on them (ours is not),
        and the engine's attention is memory attention, not a source-target alignment. Inside a
        sentence, a boundary at x% of the source lands at x% of the target, snapped to the
        nearest target word boundary when the source boundary was itself between words (so a
        bold word stays one bold word, not half of two). Equal-length translations map exactly.
        Offsets in the gaps between sentences map into the corresponding target gap. ``anchors``
        (from :meth:`copied_anchors`) are exact images that win, and the offsets between two of
        them map between their images.
        """
        anchors = anchors or {}
        keys = sorted(anchors)
        out: list[int] = []
        last = 0
        for off in offsets:
            t = anchors[off] if off in anchors else self._project_one(off)
            if off not in anchors:
                before = [anchors[k] for k in keys if k < off]
                after = [anchors[k] for k in keys if k > off]
                t = min(max(t, before[-1] if before else 0), after[0] if after else len(self.text))
            t = max(t, last)
            out.append(t)
            last = t
        return out

    def _project_one(self, off: int) -> int:
        return _inside_brackets(self.block.text, off, self.text, self._proportional(off))

    def _proportional(self, off: int) -> int:
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


def _image(segment: str, candidates: list[str]) -> tuple[int, int] | None:
    """Where the first candidate found exactly once in ``segment`` as whole words is (Latin
    letters compared without case when lowering keeps the lengths), or None. Whole words: a
    candidate's letter or digit at an edge may not go on into one of the segment's (``model``
    is not found in ``models``)."""
    for cand in candidates:
        low, seg = cand.lower(), segment.lower()
        hay, needle = (seg, low) if len(low) == len(cand) and len(seg) == len(segment) else (segment, cand)
        found = [i for i in _occurrences(hay, needle) if _whole(segment, i, i + len(cand))]
        if len(found) == 1:
            return found[0], found[0] + len(cand)
    return None


def _near_image(segment: str, phrase: str) -> tuple[int, int] | None:
    """Where a Chinese ``phrase`` (a link's words translated alone) stands in ``segment`` in other
    words of nearly the same characters: the sentence wrote 系统需求 where the link alone was
    系统要求, and mapped proportionally the link cut a word in two (查看系[统需求以获取](…)). The
    window of ``segment``, as long as the phrase or one character either way, that shares the most
    of its characters, at least half of them, the longest run they share at the same end of both
    breaking ties (安装手册 is 安装指南 in 请阅读安装指南, not 阅读安装), then the phrase's own length;
    None when there is none or two windows still tie."""
    han = [c for c in phrase if is_cjk(c)]
    if len(han) < 2 or len(han) < len(phrase.replace(" ", "")) * 0.8:
        return None
    scored: dict[tuple[int, int], float] = {}
    for size in (len(phrase), len(phrase) - 1, len(phrase) + 1):
        for a in range(0, len(segment) - size + 1):
            window = segment[a:a + size]
            if not (is_cjk(window[0]) and is_cjk(window[-1])) or not _whole(segment, a, a + size):
                continue
            pool = list(window)
            shared = 0
            for c in phrase:
                if c in pool:
                    pool.remove(c)
                    shared += 1
            run = SequenceMatcher(None, phrase, window, autojunk=False).find_longest_match()
            aligned = run.size >= 2 and (run.a == run.b or len(phrase) - run.a == size - run.b)
            scored[(a, a + size)] = (shared / max(len(phrase), size) + (0.25 if aligned else 0.0)
                                     + (0.01 if size == len(phrase) else 0.0))
    if not scored:
        return None
    top = max(scored.values())
    best = [w for w, v in scored.items() if v == top]
    if top < 0.51 or len(best) > 1:
        return None
    return best[0]


def _occurrences(hay: str, needle: str) -> list[int]:
    out, i = [], hay.find(needle)
    while i >= 0 and needle:
        out.append(i)
        i = hay.find(needle, i + 1)
    return out


def _whole(text: str, a: int, b: int) -> bool:
    """``text[a:b]`` does not cut a Latin word or number at either edge (CJK has no such edges)."""
    def word(ch: str) -> bool:
        return ch.isalnum() and not is_cjk(ch)

    return not (a > 0 and word(text[a - 1]) and word(text[a])) and not (b < len(text) and word(text[b - 1])
                                                                          and word(text[b]))


def _written(text: str, tgt_lang: str | None) -> str:
    """How the engine writes ``text`` (a run's whole text) into ``tgt_lang``: converted when it is
    one figure, amount, date or numbered part the direction writes its own way
    (doctrans.direction_terms: ``$4.2 billion`` -> ``42亿美元``), else as it is."""
    terms = automatic_terms(text, [], None, tgt_lang) if tgt_lang else []
    # The whole run, or a figure and the counter or noun after it (a bold 1,285.6万人: its image is
    # the figure, 12.856 million, where the model put it; the noun is the model's word).
    if len(terms) == 1 and terms[0].start == 0 and terms[0].target and (
            terms[0].end == len(text) or _COUNTER_AFTER.fullmatch(text, terms[0].end)):
        return terms[0].target
    # A term in quotes, as a contract sets its defined parties in bold ("Provider" is “提供方” in
    # its definition: the bold had landed on other words).
    quoted = _QUOTED_RUN.fullmatch(text)
    if quoted and tgt_lang:
        inner = automatic_terms(quoted.group(1), [], None, tgt_lang)
        if len(inner) == 1 and inner[0].target and (inner[0].start, inner[0].end) == (0, len(quoted.group(1))):
            return f"“{inner[0].target}”" if base_language(tgt_lang) == "zh" else f'"{inner[0].target}"'
    return text


_QUOTED_RUN = re.compile(r"[\"“](.+)[\"”]")


_COUNTER_AFTER = re.compile(r"[\u4e00-\u9fff]{1,2}")


def _at_word_boundary(text: str, i: int) -> bool:
    if i <= 0 or i >= len(text):
        return True
    a, b = text[i - 1], text[i]
    return a.isspace() or b.isspace() or is_cjk(a) or is_cjk(b) or not (a.isalnum() and b.isalnum())


_OPENING = {"(": "(（", "（": "(（", "[": "[【", "“": "“\"「", "\"": "“\"「", "「": "「“\"", "‘": "‘'", "'": "‘'"}
_CLOSING = {")": ")）", "）": ")）", "]": "]】", "”": "”\"」", "\"": "”\"」", "」": "」”\"", "’": "’'", "'": "’'"}


def _inside_brackets(src: str, off: int, tgt: str, t: int) -> int:
    """``t`` moved past the bracket or quote it lands before when ``off`` is just inside that
    bracket in the source (and back before a closing one): a link's words inside brackets,
    ``(see [here](url))``, came back ``[(在这里](url))``."""
    after = len(tgt[t:]) - len(tgt[t:].lstrip(" "))  # spaces the model set before the bracket
    if off > 0 and t + after < len(tgt) and tgt[t + after] in _OPENING.get(src[off - 1], ""):
        return t + after + 1
    before = len(tgt[:t]) - len(tgt[:t].rstrip(" "))
    if off < len(src) and t - before > 0 and tgt[t - before - 1] in _CLOSING.get(src[off], ""):
        return t - before - 1
    return t


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
