"""The TUI's document model, without Textual: sentences, their translations, the memory loop.

Kept apart from the widgets so the loop and the save path are plain code the tests can call. The
steps are the CLI's (:mod:`doctrans.pipeline`): the same sentences (``sentence_spans``: a code
block has none and is kept as it is), the same session and forcing (``open_session``, ``feed``),
the same cleaning, ``assemble`` and atomic write through the writer from ``writer_for``.

The document is read once, when it is opened (or by the CLI, to identify its language, and handed
over): its blocks are kept, and saving writes from them and the parsed document. The writers read
the file's own bytes again (the txt layout, the docx parts, the PDF pages), so a file that changed
on disk since it was opened is refused at save time (its size and mtime are kept).

Re-running the loop after an edit: each sentence keeps the memory it was translated *with*
(``memory_before``), so the loop can restart at any sentence from that saved memory
(``pipeline.open_session(memory=...)``) instead of from the start of the document. An edited
sentence is fed to the engine as a forced translation (``session.force``), so the memory later
sentences read holds the person's words, not the model's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from doctrans.documents import read_document, writer_for
from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.engine.interface import MemoryState, SentenceResult, Translator
from doctrans.errors import DocumentError, UserError
from doctrans.glossary import Glossary
from doctrans.language_id import same_language
from doctrans.pipeline import (
    TMLookup,
    assemble,
    check_input,
    check_paths,
    clean_translation,
    detect_language,
    feed,
    open_session,
    sentence_spans,
    write_atomically,
)
from doctrans.report import sentence_warnings
from doctrans.verbatim import SpanWarning


def file_stamp(path: Path) -> tuple[int, int]:
    """(size, mtime in ns) of ``path``: whether it changed on disk, without reading it."""
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


@dataclass
class Sentence:
    index: int
    block: int  # index into DocumentState.blocks
    span: tuple[int, int]  # offsets into the block text
    source: str
    translation: str | None = None  # what will be saved: the model's output or the person's edit
    result: SentenceResult | None = None  # the engine's output (tokens, attention) for this sentence
    memory_before: MemoryState | None = None  # the memory this sentence was translated with
    edited: bool = False  # the translation is a person's; re-runs keep it (forced)
    tm_label: str | None = None  # "TM 87%": the edit is a fuzzy TM match the person accepted
    stale: bool = False  # an earlier sentence changed; this translation will be redone
    # A number, code, URL or glossary term of the source missing from the translation, or a span
    # the engine put back itself (doctrans.report): marked in the list, spelled out in the viewer.
    warnings: list[SpanWarning] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.translation is not None and not self.stale


@dataclass
class Step:
    """One finished sentence of a run, handed from the worker thread to the UI thread."""

    index: int
    result: SentenceResult
    memory_before: MemoryState | None
    memory_after: MemoryState
    forced: bool


def translator_for(translator: Translator, lang: str) -> Translator:
    """The direction of ``translator``'s bundle that reads ``lang``: a bidirectional zh<->en
    bundle opened for zh->en must translate an English document opened later as en->zh. The
    translator itself when it already reads ``lang`` or its bundle has no such direction."""
    directions = translator.directions
    if not directions or same_language(translator.src_lang, lang):
        return translator
    fits = [(s, t) for s, t in directions if same_language(s, lang)]
    if not fits:
        return translator
    # Prefer translating back into the current source language (zh->en, then en->zh).
    src, tgt = next(((s, t) for s, t in fits if same_language(t, translator.src_lang)), fits[0])
    return translator.with_direction(src, tgt)


@dataclass
class DocumentState:
    path: Path
    document: Document
    blocks: list[Block]
    sentences: list[Sentence]
    src_lang: str
    tgt_lang: str
    dirty: bool = False  # translations or edits not saved yet
    saved_to: Path | None = None
    block_sentences: list[list[int]] = field(default_factory=list)  # block -> its sentence indices
    glossary: Glossary | None = None  # the translator's (--glossary): the check looks for its targets
    stamp: tuple[int, int] | None = None  # file_stamp(path) when it was opened

    @classmethod
    def open(cls, path: Path, translator: Translator, src_lang: str | None = None,
             document: Document | None = None) -> DocumentState:
        """Read and segment a document (raises DocumentError/UserError with a clear message);
        ``src_lang`` (given with --src) skips the language identification. ``document``: ``path``
        already read by the caller (the CLI, to identify its language), so it is not read again."""
        path = Path(path)
        check_input(path)
        stamp = file_stamp(path)
        if document is None:
            document = read_document(path)
        blocks = list(document.blocks())
        lang = src_lang or detect_language(document, blocks) or translator.src_lang
        sentences: list[Sentence] = []
        per_block: list[list[int]] = []
        for b, block in enumerate(blocks):
            ids = []
            for s, e in sentence_spans(block, lang, translator):
                ids.append(len(sentences))
                sentences.append(Sentence(len(sentences), b, (s, e), block.text[s:e]))
            per_block.append(ids)
        if not sentences:
            raise DocumentError(f"{path}: the document has no text to translate")
        return cls(path, document, blocks, sentences, lang, translator.tgt_lang, block_sentences=per_block,
                   glossary=translator.glossary, stamp=stamp)

    # -- queries ------------------------------------------------------------------------------
    def first_pending(self) -> int | None:
        """The first sentence without a current translation (where a run continues)."""
        return next((s.index for s in self.sentences if not s.done), None)

    @property
    def complete(self) -> bool:
        return self.first_pending() is None

    def next_with_result(self, i: int) -> Sentence | None:
        """The sentence after ``i`` if it has been translated in this memory (its output
        attention read the memory ``i`` wrote)."""
        if i + 1 < len(self.sentences):
            nxt = self.sentences[i + 1]
            if nxt.result is not None and not nxt.stale:
                return nxt
        return None

    def default_output(self) -> Path:
        """``report.docx`` -> ``report.de.docx`` next to it: same format, never the input."""
        return self.path.with_name(f"{self.path.stem}.{self.tgt_lang}{self.path.suffix}")

    # -- the memory loop ----------------------------------------------------------------------
    def run(self, translator: Translator, start: int, cancelled: Callable[[], bool],
            tm: TMLookup | None = None) -> Iterator[Step]:
        """Translate sentences ``start``.. in order through one memory session; yields each.

        Runs in a worker thread: it only *reads* the state (sources, edits, the memory before
        ``start``); the UI thread applies each :class:`Step` with :meth:`apply`. Edited sentences
        are forced, so the memory carries the person's translation; so are exact matches of the
        translation memory ``tm`` (source -> stored translation, doctrans.tm), marked ``result.tm``.
        The session's results carry the memory-attention maps the viewer shows.
        """
        memory = self.sentences[start].memory_before if start else None
        session = open_session(translator, memory, return_attention=True)
        for s in self.sentences[start:]:
            if cancelled():
                return
            before = session.memory
            forced = s.translation if s.edited else None
            result = feed(session, s.source, forced=forced, tm=tm)
            yield Step(s.index, result, before, session.memory, forced is not None)

    def mark_stale_from(self, start: int) -> None:
        """Sentences from ``start`` on will be redone by a run (an edited one keeps its text, but
        its memory and attention are redone too)."""
        for s in self.sentences[start:]:
            if s.translation is not None:
                s.stale = True

    def apply(self, step: Step) -> None:
        s = self.sentences[step.index]
        s.result = step.result
        s.memory_before = step.memory_before
        # The next sentence will be (re)translated with this memory: a run cancelled here
        # continues from it, not from the memory of an older run.
        if step.index + 1 < len(self.sentences):
            self.sentences[step.index + 1].memory_before = step.memory_after
        if not s.edited:
            s.translation = clean_translation(step.result.translation)
        notes = [] if s.edited else step.result.notes
        s.warnings = sentence_warnings(s.source, s.translation or "", self.glossary, notes, self.tgt_lang,
                                       self.src_lang)
        s.stale = False
        self.dirty = True

    def edit(self, index: int, text: str, tm_label: str | None = None) -> bool:
        """A person's translation of sentence ``index``: typed, or a fuzzy TM match they accepted
        (``tm_label``, its score: ``TM 87%``). True when it changed the translation: the loop must
        then be re-run from here; accepting the text unchanged changes nothing."""
        s = self.sentences[index]
        text = clean_translation(text)
        if not text or text == s.translation:
            return False
        s.translation = text
        s.edited = True
        s.tm_label = tm_label
        # A person can drop a figure too.
        s.warnings = sentence_warnings(s.source, text, self.glossary, tgt_lang=self.tgt_lang, src_lang=self.src_lang)
        self.dirty = True
        return True

    # -- saving -------------------------------------------------------------------------------
    def translated_blocks(self) -> Iterator[TranslatedBlock]:
        """Every block of the document with its sentences' translations put back in."""
        for block, ids in zip(self.blocks, self.block_sentences, strict=True):
            spans = [self.sentences[i].span for i in ids]
            targets = [self.sentences[i].translation or "" for i in ids]
            yield assemble(block, spans, targets, self.tgt_lang)

    def save(self, output: Path) -> Path:
        """Write the translation through the CLI's writers and atomic write: temp file in the
        target directory, then rename, so a failed save never leaves a half-written file. Saving
        again (after more edits) writes from the same parsed document: the docx writer sets every
        translated run's text each time, so nothing of an earlier save is left over."""
        output = Path(output)
        pending = self.first_pending()
        if pending is not None:
            raise UserError(f"sentence {pending + 1} is not translated yet; wait for the translation "
                            "to finish (or press t to continue it) before saving")
        check_paths(self.path, output)
        if self.stamp is not None and file_stamp(self.path) != self.stamp:
            raise UserError(f"{self.path}: the file changed on disk since it was opened; reopen it")
        write_atomically(writer_for(self.document, output), self.document, self.translated_blocks(), output)
        self.dirty = False
        self.saved_to = output
        return output
