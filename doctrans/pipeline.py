"""The translation pipeline the CLI job (``translate_job``) and the TUI (``tui/state``) share.

One document goes through the same steps in both; only the driving differs (the job streams the
document through the writer in one pass and keeps a progress file for ``--resume``; the TUI holds
the sentences, lets a person edit them and re-runs the loop from an edit):

1. :func:`check_input` / :func:`check_paths` -- the input is a file, the output is not the input
   and can be written (:func:`check_output_location`, before any model is loaded);
2. the document is read once (``documents.read_document``) and its language identified on its
   blocks (:func:`detect_language`);
3. :func:`sentence_spans` cuts a block into sentences -- none for a verbatim (code) block, which
   is copied unchanged and never reaches the model;
4. :func:`open_session` opens the document's memory session, fresh or continuing from a memory
   saved after an earlier sentence (``--resume``'s progress file, the TUI's re-run from an edit);
5. :func:`feed` gives one sentence to the session: a person's edit or an exact match of the
   translation memory is forced into the memory (``result.tm`` marks the latter), anything else
   is translated; :func:`clean_translation` makes the text fit the document;
6. :func:`assemble` puts a block's translated sentences back between its original gaps;
7. :func:`write_atomically` writes through the format's writer into a temp file next to the
   output and renames it, with the permissions a newly created file gets.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path

from doctrans.dialogue import narration_case, split_dialogue
from doctrans.documents import Writer
from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.engine.interface import DocumentSession, MemoryState, SentenceResult, Translator
from doctrans.errors import UserError
from doctrans.kept_names import common_words
from doctrans.language_id import base_language
from doctrans.progress_store import temp_prefix
from doctrans.segment import join_gap, segment_block
from doctrans.sentence_end import capitalised_start, common_first_word_in_small_letters, without_added_end

# Characters a model may emit that cannot go into XML or would break the layout of the block a
# sentence is put back into (tab and line feed are handled apart: a tab stays, a line feed is a space).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

# A translation memory for one language pair: source sentence -> stored translation, or None.
TMLookup = Callable[[str], str | None]


# -- 1. paths -------------------------------------------------------------------------------------
def check_input(input_path: Path) -> None:
    """That ``input_path`` is there and is a file (what it holds is the reader's to check)."""
    if not input_path.exists():
        raise UserError(f"{input_path}: no such file")
    if input_path.is_dir():
        raise UserError(f"{input_path}: is a directory, not a document")


def check_paths(input_path: Path, output: Path) -> None:
    check_input(input_path)
    if output.exists() and output.resolve() == input_path.resolve():
        raise UserError(f"{output}: the output must not be the input file (it is never overwritten)")
    check_output_location(output)


def check_output_location(output: Path) -> None:
    """That ``output`` can be written -- checked before any model is loaded, by trying: a parent
    that is a file, a read-only or virtual file system, a missing folder all fail here."""
    if output.exists() and output.is_dir():
        raise UserError(f"{output}: is a directory; give a file name or several inputs")
    parent = output.parent
    if not parent.exists():
        raise UserError(f"{parent}: output directory does not exist")
    if not parent.is_dir():
        raise UserError(f"{parent}: not a directory, cannot write {output.name} into it")
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=temp_prefix(output), suffix=".tmp")
    except OSError as e:
        raise UserError(f"{output}: cannot write there ({e.strerror or e})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


# -- 2. language ----------------------------------------------------------------------------------
def detect_language(document: Document, blocks: Iterable[Block] | None = None,
                    among: Collection[str] = ()) -> str | None:
    """Source language of a document, identified on a sample of its text (doctrans.language_id);
    ``None`` means too little text to tell, and the caller falls back to ``--src`` or the model's
    language. ``among``: the source languages the installed models translate, one of which a
    short document is taken to be when it clearly leads the others (language_id.likeliest_of).
    The guess is cached on the document. ``blocks``: the document's blocks when the caller
    already holds them (the TUI), so a streamed format is not read again for this."""
    if document.src_lang is None:
        from doctrans.language_id import identify, likeliest_of, sample_text

        sample = sample_text(block.text for block in (document.blocks() if blocks is None else blocks))
        guess = identify(sample)
        document.src_lang = guess.lang if guess else likeliest_of(sample, among)
    return document.src_lang


# -- 3.-5. sentences through the memory -----------------------------------------------------------
def sentence_spans(block: Block, lang: str, translator: Translator) -> list[tuple[int, int]]:
    """The sentences of ``block`` as (start, end) offsets into its text, each short enough for the
    model; none for a verbatim block (code is written back as it is, never sent to the model)."""
    if block.verbatim:
        return []
    spans = segment_block(block.text, lang, translator.count_tokens, translator.max_source_tokens)
    return split_dialogue(block.text, spans)  # "Not yet," | she said. (doctrans.dialogue)


def open_session(translator: Translator, memory: MemoryState | None = None, *, return_attention: bool = False,
                 saved_in: str | None = None) -> DocumentSession:
    """A memory session for one document: fresh (``memory`` None) or continuing from the memory
    saved after an earlier sentence. The engine checks the sides and shapes of that memory;
    ``saved_in`` names where it was saved (a progress file), and a memory that does not fit the
    model is then a UserError that says so instead of the engine's exception."""
    try:
        return translator.new_document(memory=memory, return_attention=return_attention)
    except (ValueError, KeyError, TypeError, IndexError) as e:
        if memory is None or saved_in is None:
            raise
        raise UserError(f"{saved_in}'s memory does not fit this model ({first_line(e)}); "
                        f"delete {saved_in} to start over") from None


def feed(session: DocumentSession, source: str, *, forced: str | None = None,
         tm: TMLookup | None = None) -> SentenceResult:
    """One sentence through the memory: ``forced`` (a person's edit) or an exact match of the
    translation memory ``tm`` is written into the memory as if the model had produced it (the TM
    one marked ``result.tm``); otherwise the model translates it."""
    if forced is not None:
        return session.force(source, forced)
    hit = tm(source) if tm is not None else None
    if hit is not None:
        result = session.force(source, hit)
        result.tm = True
        return result
    return session.translate(source)


def clean_translation(text: str) -> str:
    """A translation as a sentence of a block can hold it: control characters and line breaks as
    spaces, none at the ends (model output, a person's edit, a TM entry alike)."""
    return _CONTROL.sub(" ", text).replace("\n", " ").strip()


def first_line(e: BaseException, limit: int = 200) -> str:
    """An exception's message on one line, cut to ``limit`` characters (for an error line)."""
    text = " ".join(str(e).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- 6.-7. the translated document ----------------------------------------------------------------
def assemble(block: Block, spans: Sequence[tuple[int, int]], targets: Sequence[str], tgt_lang: str) -> TranslatedBlock:
    """Put the translated segments of a block back between its original gaps."""
    text = block.text
    if not spans:
        return TranslatedBlock(block, text, [], tgt_lang)
    parts = [text[: spans[0][0]]]
    length = len(parts[0])
    alignment = []
    prev_end = spans[0][0]
    for i, ((s, e), tgt) in enumerate(zip(spans, targets, strict=True)):
        tgt = capitalised_start(text[s:e], without_added_end(text[s:e], tgt, block.kind == "heading"), tgt_lang)
        if i and base_language(tgt_lang) == "en":
            tgt = narration_case(text[spans[i - 1][0]:spans[i - 1][1]], text[s:e], tgt, common_words())
            if parts[-1].rstrip().endswith((";", "；")):  # a statement after ；(doctrans.segment)
                tgt = common_first_word_in_small_letters(tgt, common_words())
        if i:
            gap = join_gap(text[prev_end:s], tgt_lang, parts[-1], tgt)
            parts.append(gap)
            length += len(gap)
        parts.append(tgt)
        alignment.append(((s, e), (length, length + len(tgt))))
        length += len(tgt)
        prev_end = e
    parts.append(text[prev_end:])
    return TranslatedBlock(block, "".join(parts), alignment, tgt_lang)


def _chmod_like_new_file(path: Path) -> None:
    """mkstemp creates 0600 files; the output gets the permissions a plain open() gives."""
    umask = os.umask(0)
    os.umask(umask)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o666 & ~umask)


def write_atomically(write: Writer, document: Document, blocks: Iterable[TranslatedBlock], output: Path,
                     check: Callable[[], None] | None = None) -> None:
    """Write ``blocks`` with ``write`` into a temp file next to ``output`` (hidden, named with our
    pid: progress_store.clean_stale_temps), then rename it over ``output``; on any error the temp
    file is removed and an existing ``output`` is left as it was. ``check`` runs after the writer,
    before the rename (the job's "no text to translate"). The file gets the permissions a newly
    created file gets (umask), not mkstemp's 0600."""
    fd, tmp_name = tempfile.mkstemp(dir=output.parent, prefix=temp_prefix(output), suffix=".tmp")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        _chmod_like_new_file(tmp)
        write(document, blocks, tmp)
        if check is not None:
            check()
        os.replace(tmp, output)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
