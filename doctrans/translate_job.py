"""Translate one document file: read, segment, run the memory loop, write back, resume.

The loop is the product's core (DESIGN.md): one :class:`DocumentSession` per document, sentences
fed in reading order, so the recurrent memory sees the document as a reader would. This module
owns everything around it that a user relies on:

- output is written to a temp file in the target directory and renamed (``os.replace``), so an
  interrupted run never leaves a half-written output, and the input is only ever read;
- Ctrl-C (KeyboardInterrupt) saves a progress file next to the output -- the finished
  translations and the session memory, with ``np.savez`` -- and ``resume=True`` replays the
  finished sentences without calling the engine and continues from the saved memory, so no
  finished sentence is lost or translated twice.

Finished translations are kept as a list of strings (the resume state must hold them anyway);
the document itself is streamed block by block for formats that can stream (plain text).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from doctrans.documents import read_document, writer_for
from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.engine.interface import DocumentSession, MemoryState, Translator
from doctrans.errors import DocumentError, UserError
from doctrans.segment import join_gap, segment_block

PROGRESS_SUFFIX = ".doctrans-progress.npz"
_PROGRESS_VERSION = 1
# Characters a model may emit that cannot go into XML or would break the layout.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

# chars_done, sentences_done, source_tokens_done
ProgressCallback = Callable[[int, int, int], None]


class Interrupted(UserError):
    """Ctrl-C during a translation; the progress file to resume from has been saved."""

    def __init__(self, progress_file: Path, sentences: int):
        super().__init__(
            f"interrupted after {sentences} sentences; progress saved to {progress_file} "
            f"-- run the same command with --resume to continue"
        )
        self.progress_file = progress_file
        self.sentences = sentences


def progress_path(output: Path) -> Path:
    """Where the resumable progress of ``output`` is kept: next to it, same name + suffix."""
    return output.with_name(output.name + PROGRESS_SUFFIX)


def detect_language(document: Document) -> str | None:
    """Source language of a document, identified on a sample of its text (doctrans.language_id);
    ``None`` means too little text to tell, and the caller falls back to ``--src`` or the model's
    language. The guess is cached on the document."""
    if document.src_lang is None:
        from doctrans.language_id import identify, sample_text

        guess = identify(sample_text(block.text for block in document.blocks()))
        document.src_lang = guess.lang if guess else None
    return document.src_lang


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@dataclass
class SavedProgress:
    input_sha256: str
    # The direction translated (of a bidirectional bundle too): a resume in the other direction
    # would mix languages in one output, so it is refused.
    src_lang: str
    tgt_lang: str
    translations: list[str]
    source_crcs: list[int]
    memory: MemoryState | None

    def save(self, path: Path) -> None:
        meta = {"version": _PROGRESS_VERSION, "input_sha256": self.input_sha256,
                "src_lang": self.src_lang, "tgt_lang": self.tgt_lang,
                "translations": self.translations}
        arrays: dict[str, np.ndarray] = {
            # JSON as UTF-8 bytes: no pickle needed to load it back, and 1 byte per ASCII char.
            "meta": np.frombuffer(json.dumps(meta, ensure_ascii=False).encode("utf-8"), dtype=np.uint8),
            "source_crcs": np.asarray(self.source_crcs, dtype=np.uint32),
        }
        for side, arr in (self.memory or {}).items():
            arrays[f"memory.{side}"] = np.asarray(arr)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".doctrans-", suffix=".npz.tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, **arrays)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)

    @classmethod
    def load(cls, path: Path) -> SavedProgress:
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(bytes(z["meta"]).decode("utf-8"))
                crcs = [int(x) for x in z["source_crcs"]]
                memory = {k.split(".", 1)[1]: z[k] for k in z.files if k.startswith("memory.")}
        except Exception as e:  # any damage to the file is one user-facing message
            raise UserError(f"{path}: progress file is damaged ({e}); delete it to start over") from None
        if meta.get("version") != _PROGRESS_VERSION:
            raise UserError(f"{path}: progress file from another doctrans version; delete it to start over")
        return cls(meta["input_sha256"], meta["src_lang"], meta["tgt_lang"], meta["translations"],
                   crcs, memory or None)


@dataclass
class JobResult:
    output: Path
    sentences: int  # all sentences of the document
    translated: int  # sentences sent to the engine in this run (the rest came from --resume)
    source_tokens: int
    blocks: int


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

    def blocks(self, document: Document) -> Iterator[TranslatedBlock]:
        chars = 0
        if self.saved is not None:
            self.memory = self.saved.memory
        for block in document.blocks():
            if block.verbatim:
                # Code is written back as it is: no sentences, no engine call, nothing in the
                # resume state (so a resumed run lines up with the same sentences).
                chars += len(block.text) + 1
                yield TranslatedBlock(block, block.text, [])
                continue
            spans = segment_block(block.text, self.lang, self.translator.count_tokens,
                                  self.translator.max_source_tokens)
            targets = []
            for s, e in spans:
                targets.append(self._translate(block.text[s:e]))
                if self.on_progress:
                    self.on_progress(chars + e, len(self.translations), self.tokens)
            chars += len(block.text) + 1
            if spans:
                self.text_blocks += 1
            yield assemble(block, spans, targets, self.translator.tgt_lang)

    def _translate(self, source: str) -> str:
        crc = zlib.crc32(source.encode("utf-8"))
        i = len(self.translations)
        if self.saved is not None and i < len(self.saved.translations):
            if self.saved.source_crcs[i] != crc:
                raise UserError("the progress file does not match this input (the document or the "
                                "sentence splitting changed); delete it to start over")
            target = self.saved.translations[i]
        else:
            if self.session is None:
                self.session = self.translator.new_document(memory=self.memory)
            result = self.session.translate(source)
            target = _CONTROL.sub(" ", result.translation).replace("\n", " ").strip()
            # Snapshot after each finished sentence: an interrupt inside the next call then
            # can never leave the memory one sentence ahead of the saved translations.
            self.memory = self.session.memory
            self.translated += 1
            self.tokens += len(result.src_tokens) or self.translator.count_tokens(source)
        self.translations.append(target)
        self.source_crcs.append(crc)
        return target


def assemble(block: Block, spans: list[tuple[int, int]], targets: list[str], tgt_lang: str) -> TranslatedBlock:
    """Put the translated segments of a block back between its original gaps."""
    text = block.text
    if not spans:
        return TranslatedBlock(block, text, [])
    parts = [text[: spans[0][0]]]
    length = len(parts[0])
    alignment = []
    prev_end = spans[0][0]
    for i, ((s, e), tgt) in enumerate(zip(spans, targets, strict=True)):
        if i:
            gap = join_gap(text[prev_end:s], tgt_lang, parts[-1], tgt)
            parts.append(gap)
            length += len(gap)
        parts.append(tgt)
        alignment.append(((s, e), (length, length + len(tgt))))
        length += len(tgt)
        prev_end = e
    parts.append(text[prev_end:])
    return TranslatedBlock(block, "".join(parts), alignment)


def _chmod_like_new_file(path: Path) -> None:
    """mkstemp creates 0600 files; the output should get the permissions a plain open() gives."""
    umask = os.umask(0)
    os.umask(umask)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o666 & ~umask)


def check_paths(input_path: Path, output: Path) -> None:
    if not input_path.exists():
        raise UserError(f"{input_path}: no such file")
    if input_path.is_dir():
        raise UserError(f"{input_path}: is a directory, not a document")
    if output.exists() and output.resolve() == input_path.resolve():
        raise UserError(f"{output}: the output must not be the input file (it is never overwritten)")
    if output.exists() and output.is_dir():
        raise UserError(f"{output}: is a directory; give a file name or several inputs")
    if not output.parent.exists():
        raise UserError(f"{output.parent}: output directory does not exist")


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
) -> JobResult:
    """Translate ``input_path`` into ``output`` (format chosen by the output suffix).

    Raises UserError/DocumentError for anything the user can fix, :class:`Interrupted` after
    saving the progress file on Ctrl-C. ``on_start`` sees the opened document (for a progress
    bar's total: ``document.size_hint`` characters); ``on_progress`` is called per sentence.
    ``document``: ``input_path`` already opened by the caller (to identify its language), so the
    file is not read twice.
    """
    input_path, output = Path(input_path), Path(output)
    check_paths(input_path, output)
    if document is None:
        document = read_document(input_path)
    write = writer_for(document, output)
    lang = src_lang or detect_language(document) or translator.src_lang
    progress_file = progress_path(output)
    digest = file_sha256(input_path)
    saved = None
    if resume and progress_file.exists():
        saved = SavedProgress.load(progress_file)
        if saved.input_sha256 != digest:
            raise UserError(f"{progress_file}: saved for a different version of {input_path.name}; "
                            "delete it to start over")
        if (saved.src_lang, saved.tgt_lang) != (translator.src_lang, translator.tgt_lang):
            raise UserError(f"{progress_file}: saved with a {saved.src_lang}->{saved.tgt_lang} model, "
                            f"not {translator.src_lang}->{translator.tgt_lang}")
    if on_start:
        on_start(document)
    loop = _Loop(translator, lang, saved, on_progress)
    fd, tmp_name = tempfile.mkstemp(dir=output.parent, prefix=f".{output.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(tmp_name)
    _chmod_like_new_file(tmp)
    try:
        write(document, loop.blocks(document), tmp)
        if loop.text_blocks == 0:
            raise DocumentError(f"{input_path}: the document has no text to translate")
        os.replace(tmp, output)
    except KeyboardInterrupt:
        SavedProgress(digest, translator.src_lang, translator.tgt_lang, loop.translations,
                      loop.source_crcs, loop.memory).save(progress_file)
        raise Interrupted(progress_file, len(loop.translations)) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    with contextlib.suppress(FileNotFoundError):
        progress_file.unlink()
    return JobResult(output, len(loop.translations), loop.translated, loop.tokens, loop.text_blocks)
