"""Translate one document file: read, segment, run the memory loop, write back, resume.

The loop is the product's core (DESIGN.md): one :class:`DocumentSession` per document, sentences
fed in reading order, so the recurrent memory sees the document as a reader would. This module
owns everything around it that a user relies on:

- output is written to a temp file in the target directory and renamed
  (``pipeline.write_atomically``), so an interrupted run never leaves a half-written output, and
  the input is only ever read;
- Ctrl-C (KeyboardInterrupt) saves a progress file next to the output -- the finished
  translations and the session memory, with ``np.savez`` -- and ``resume=True`` replays the
  finished sentences without calling the engine and continues from the saved memory, so no
  finished sentence is lost or translated twice.

Finished translations are kept as a list of strings (the resume state must hold them anyway);
the document itself is streamed block by block for formats that can stream (plain text). The
steps a sentence goes through -- segmenting, the session, cleaning, assembling, the atomic write
-- are :mod:`doctrans.pipeline`'s, shared with the TUI.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from doctrans.code_names import keeping_code_names
from doctrans.document_names import keeping_document_names
from doctrans.documents import read_document, writer_for
from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.engine.errors import BundleError
from doctrans.engine.interface import DocumentSession, MemoryState, Translator
from doctrans.errors import DocumentError, UserError
from doctrans.glossary import Glossary
from doctrans.hashing import sha256_file
from doctrans.pipeline import (
    TMLookup,
    assemble,
    check_paths,
    clean_translation,
    detect_language,
    feed,
    first_line,
    open_session,
    sentence_spans,
    write_atomically,
)
from doctrans.progress_store import Checkpointer, SavedProgress, clean_stale_temps
from doctrans.report import SentenceWarning, sentence_warnings
from doctrans.verbatim import SpanWarning

PROGRESS_SUFFIX = ".doctrans-progress.npz"

# chars_done, sentences_done, source_tokens_done
ProgressCallback = Callable[[int, int, int], None]


class Interrupted(UserError):
    """Ctrl-C (or SIGTERM/SIGHUP) during a translation; the progress file to resume from has been
    saved. ``exit_code``: 128 + the signal number, as a shell reports a process killed by it."""

    def __init__(self, progress_file: Path, sentences: int, signal_name: str = "SIGINT", exit_code: int = 130):
        what = "interrupted" if signal_name == "SIGINT" else f"stopped by {signal_name}"
        super().__init__(
            f"{what} after {sentences} sentences; progress saved to {progress_file} "
            f"-- run the same command with --resume to continue" if sentences else
            f"{what} before the first sentence was finished; nothing to resume"
        )
        self.progress_file = progress_file
        self.sentences = sentences
        self.exit_code = exit_code


def progress_path(output: Path) -> Path:
    """Where the resumable progress of ``output`` is kept: next to it, same name + suffix."""
    return output.with_name(output.name + PROGRESS_SUFFIX)


@dataclass
class JobResult:
    output: Path
    sentences: int  # all sentences of the document
    translated: int  # sentences done in this run, by the engine or the TM (the rest came from --resume)
    source_tokens: int
    blocks: int
    # Sentences whose translation lacks a number, code, URL or glossary term of the source, or
    # whose span the engine had to put back itself (doctrans.report); resumed sentences included.
    warnings: list[SentenceWarning] = field(default_factory=list)
    tm_hits: int = 0  # sentences taken verbatim from the translation memory (doctrans.tm) in this run
    # (source, translation) of every sentence, in order: only with keep_pairs (--tm-update).
    pairs: list[tuple[str, str]] = field(default_factory=list)


# Anchor runs translated alone per block (translate_job._Loop._phrases): at most so many, so long.
MAX_PHRASES = 12
MAX_PHRASE_CHARS = 80


@dataclass
class _Loop:
    """The memory loop over one document, with the resume bookkeeping."""

    translator: Translator
    lang: str
    saved: SavedProgress | None
    on_progress: ProgressCallback | None
    translations: list[str] = field(default_factory=list)
    source_crcs: list[int] = field(default_factory=list)
    memory: MemoryState | None = None
    session: DocumentSession | None = None
    translated: int = 0
    tokens: int = 0
    text_blocks: int = 0
    # Called after each finished sentence (the checkpointer: durable progress as it goes).
    on_sentence: Callable[[], None] | None = None
    # Set when an exception left blocks() (reading, segmenting, the engine) rather than the writer,
    # and when every block was handed to the writer: a writer failure keeps the translation.
    failed_inside: bool = False
    finished: bool = False
    warnings: list[SentenceWarning] = field(default_factory=list)
    name: str = ""  # the input file, for the warnings
    tm: TMLookup | None = None
    tm_hits: int = 0
    sources: list[str] | None = None  # kept when the caller wants the sentence pairs
    # Translate anchor runs alone for the writer (_phrases); off for a replay into plain text.
    phrases: bool = True

    def blocks(self, document: Document) -> Iterator[TranslatedBlock]:
        try:
            yield from self._blocks(document)
        except GeneratorExit:
            raise
        except BaseException:
            self.failed_inside = True
            raise
        self.finished = True

    def progress(self, digest: str) -> SavedProgress:
        return SavedProgress(digest, self.translator.src_lang, self.translator.tgt_lang, list(self.translations),
                             list(self.source_crcs), self.memory)

    def _blocks(self, document: Document) -> Iterator[TranslatedBlock]:
        chars = 0
        if self.saved is not None:
            self.memory = self.saved.memory
        for block in document.blocks():
            # A verbatim block (code) has no sentences: written back as it is, no engine call,
            # nothing in the resume state (so a resumed run lines up with the same sentences).
            spans = sentence_spans(block, self.lang, self.translator)
            targets = []
            for s, e in spans:
                targets.append(self._translate(block.text[s:e]))
                if self.on_progress:
                    self.on_progress(chars + e, len(self.translations), self.tokens)
            chars += len(block.text) + 1
            if spans:
                self.text_blocks += 1
            translated = assemble(block, spans, targets, self.translator.tgt_lang)
            if self.phrases:
                translated.phrases = self._phrases(block, spans)
            yield translated

    def _phrases(self, block: Block, spans: list[tuple[int, int]]) -> dict[str, str]:
        """The block's anchor runs (a Markdown link's words) translated alone, each in a fresh
        session (no context, the document's memory untouched), for the writer to find in the
        sentence's translation. A run that is a whole sentence needs none (its image is exact). A
        run that is wholly one term or name of the glossary (the document's people: a bold 林静)
        is written as the glossary writes it, without the model: its formatting follows the name
        wherever the translation put it (it had gone to the sentence's first word)."""
        out: dict[str, str] = {}
        glossary: Glossary | None = getattr(self.translator, "glossary", None)
        for run in block.runs:
            text = block.text[slice(*run.stretch)].strip()
            if glossary is not None and text and text not in out:
                found = glossary.find(text)
                if len(found) == 1 and (found[0].start, found[0].end) == (0, len(text)) and found[0].target:
                    out[text] = found[0].target
                    continue
            if (not run.anchor or text in out or not 2 <= len(text) <= MAX_PHRASE_CHARS
                    or not any(c.isalpha() for c in text)
                    or any(block.text[s:e].strip() == text for s, e in spans)):
                continue
            if len(out) == MAX_PHRASES:
                break
            translation = clean_translation(self.translator.new_document().translate(text).translation)
            out[text] = translation.strip().rstrip(".。!！?？").strip()
        return out

    def _translate(self, source: str) -> str:
        crc = zlib.crc32(source.encode("utf-8"))
        i = len(self.translations)
        if self.saved is not None and i < len(self.saved.translations):
            if self.saved.source_crcs[i] != crc:
                raise UserError("the progress file does not match this input (the document or the "
                                "sentence splitting changed); delete it to start over")
            target = self.saved.translations[i]
            notes: list[SpanWarning] = []  # the engine's notes are not saved; the check below is redone
        else:
            if self.session is None:
                self.session = open_session(self.translator, self.memory,
                                            saved_in=None if self.saved is None else "the progress file")
            try:  # a TM hit is forced: reused verbatim, the memory reads it as if the model had written it
                result = feed(self.session, source, tm=self.tm)
            except Exception as e:
                # ONNX Runtime failing inside a graph: a damaged bundle or a model.json that does
                # not describe its graphs (ids, lengths) -- not a bug of doctrans.
                if type(e).__module__.startswith("onnxruntime"):
                    raise BundleError(f"the model failed on sentence {i + 1} ({first_line(e)}); the bundle "
                                      "is damaged or its model.json does not match its graphs") from None
                raise
            target = clean_translation(result.translation)
            # Snapshot after each finished sentence: an interrupt inside the next call then
            # can never leave the memory one sentence ahead of the saved translations.
            self.memory = self.session.memory
            self.translated += 1
            if result.tm:
                self.tm_hits += 1
            else:  # tokens/s is the engine's speed
                self.tokens += len(result.src_tokens) or self.translator.count_tokens(source)
            notes = result.notes
        for w in sentence_warnings(source, target, self.translator.glossary, notes, self.translator.tgt_lang,
                                   self.translator.src_lang):
            self.warnings.append(SentenceWarning(self.name, i + 1, w.problem, w.kind, w.span, w.message, source,
                                                 target))
        self.translations.append(target)
        self.source_crcs.append(crc)
        if self.sources is not None:
            self.sources.append(source)
        if self.on_sentence is not None:
            self.on_sentence()
        return target


def translate_file(
    input_path: Path,
    output: Path,
    translator: Translator,
    *,
    resume: bool = False,
    src_lang: str | None = None,
    document: Document | None = None,
    on_progress: ProgressCallback | None = None,
    on_start: Callable[[Document], None] | None = None,
    notice: Callable[[str], None] | None = None,
    pdf_layout: str = "layout",
    tm: TMLookup | None = None,
    keep_pairs: bool = False,
) -> JobResult:
    """Translate ``input_path`` into ``output`` (format chosen by the output suffix).

    Raises UserError/DocumentError for anything the user can fix, :class:`Interrupted` after
    saving the progress file on Ctrl-C/SIGTERM/SIGHUP (see doctrans.signals). Progress is also
    saved during the run (progress_store.Checkpointer) and on every failure after the first
    finished sentence, so --resume always has the work done so far. If the writer of the output
    format fails, the translation is written as plain text next to it and the error says where.
    ``on_start`` sees the opened document (for a progress bar's total: ``document.size_hint``
    characters); ``on_progress`` is called per sentence; ``notice`` gets informational lines
    (what --resume reuses). ``document``: ``input_path`` already opened by the caller (to
    identify its language), so the file is not read twice. ``pdf_layout``: pdf -> pdf as the
    source pages with the translation in place (``layout``) or a reflowed document (``reflow``).
    ``tm``: the translation memory for the translator's language pair (doctrans.tm); a sentence it
    has is not sent to the model. ``keep_pairs``: return every (source, translation) pair (to add
    the document to the local TM).
    """
    input_path, output = Path(input_path), Path(output)
    check_paths(input_path, output)
    progress_file = progress_path(output)
    for target in (output, progress_file):
        clean_stale_temps(target)  # left by a run that was killed (kill -9, power loss)
    if document is None:
        document = read_document(input_path)
    write = writer_for(document, output, pdf_layout=pdf_layout)
    lang = src_lang or detect_language(document) or translator.src_lang
    translator = keeping_code_names(translator, document.blocks())
    translator = keeping_document_names(translator, document.blocks(), lang)
    digest = sha256_file(input_path)
    saved = _load_for_resume(progress_file, input_path, digest, translator, notice) if resume else None
    if on_start:
        on_start(document)
    loop = _Loop(translator, lang, saved, on_progress, name=str(input_path), tm=tm,
                 sources=[] if keep_pairs else None)
    # Saves only what this run added: a failure before the first new sentence keeps the old file.
    checkpoint = Checkpointer(progress_file, lambda: loop.progress(digest) if loop.translated else None)
    loop.on_sentence = checkpoint.tick
    def has_text() -> None:  # checked before the rename: an older output stays as it was
        if loop.text_blocks == 0:
            raise DocumentError(f"{input_path}: the document has no text to translate")

    try:
        write_atomically(write, document, loop.blocks(document), output, has_text)
    except KeyboardInterrupt as e:
        checkpoint.save()
        from doctrans.signals import Terminated, signal_name

        raise Interrupted(progress_file, len(loop.translations), signal_name(e),
                          e.exit_code if isinstance(e, Terminated) else 130) from None
    except Exception as e:
        if not loop.failed_inside and loop.translations and not isinstance(e, Interrupted):
            _write_fallback(e, input_path, output, document, loop, checkpoint, digest)  # raises
        kept = f"progress saved to {progress_file} ({len(loop.translations)} sentences): fix the problem and " \
               "run the same command with --resume" if checkpoint.save() else ""
        if isinstance(e, UserError) and kept:
            raise UserError(f"{e}; {kept}") from None
        if kept:
            e.add_note(kept)
        raise
    with contextlib.suppress(FileNotFoundError):
        progress_file.unlink()
    pairs = list(zip(loop.sources, loop.translations, strict=True)) if loop.sources is not None else []
    return JobResult(output, len(loop.translations), loop.translated, loop.tokens, loop.text_blocks, loop.warnings,
                     loop.tm_hits, pairs)


def _load_for_resume(progress_file: Path, input_path: Path, digest: str, translator: Translator,
                     notice: Callable[[str], None] | None) -> SavedProgress | None:
    if not progress_file.exists():
        if notice:
            notice(f"note: no progress file {progress_file.name} to resume from; translating from the start")
        return None
    saved = SavedProgress.load(progress_file)
    if saved.input_sha256 != digest:
        raise UserError(f"{progress_file}: saved for a different version of {input_path.name}; "
                        "delete it to start over")
    if (saved.src_lang, saved.tgt_lang) != (translator.src_lang, translator.tgt_lang):
        raise UserError(f"{progress_file}: saved with a {saved.src_lang}->{saved.tgt_lang} model, "
                        f"not {translator.src_lang}->{translator.tgt_lang}")
    if notice:
        notice(f"note: resuming from {progress_file.name}: {len(saved.translations)} sentences already translated")
    return saved


def fallback_path(output: Path, input_path: Path) -> Path:
    """Where the plain-text fallback of a failed output goes: ``out.txt``, else ``out.pdf.txt``."""
    alt = output.with_suffix(".txt")
    if alt == output or alt.exists() or alt.resolve() == input_path.resolve():
        alt = output.with_name(output.name + ".txt")
    return alt


def _write_fallback(error: Exception, input_path: Path, output: Path, document: Document, loop: _Loop,
                    checkpoint: Checkpointer, digest: str) -> None:
    """The writer of ``output``'s format failed (a layout the PDF builder cannot place, a legacy
    text encoding that cannot hold the translation...): keep the translation as UTF-8 text.

    The finished sentences are replayed (no engine call); any sentences the failed writer never
    asked for are translated now, from the saved memory. Always raises: the output asked for
    was not written, and the error says where the translation went instead.
    """
    from doctrans.documents.rebuild import write_txt

    checkpoint.save()
    reason = f"{type(error).__name__}: {first_line(error)}" if not isinstance(error, UserError) else str(error)
    alt = fallback_path(output, input_path)
    replay = _Loop(loop.translator, loop.lang, loop.progress(digest), loop.on_progress, tm=loop.tm, phrases=False)
    replay.on_sentence = loop.on_sentence
    try:
        write_atomically(write_txt, document, replay.blocks(document), alt)
    except KeyboardInterrupt:
        raise
    except Exception as e2:
        raise DocumentError(f"{output}: cannot write this output ({reason}), nor plain text to {alt} "
                            f"({type(e2).__name__}: {first_line(e2)}); progress saved to "
                            f"{checkpoint.path} for --resume") from None
    with contextlib.suppress(FileNotFoundError):
        checkpoint.path.unlink()
    raise DocumentError(f"{output}: cannot write this output ({reason}); the translation "
                        f"({len(replay.translations)} sentences) was written to {alt} instead")

