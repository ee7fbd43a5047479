"""doctrans.pipeline, the steps the CLI job and the TUI share: cleaning a translation, the
sentences of a block, forcing edits and TM hits into the memory, assembling a block, and the
atomic write (no partial file on any error, the permissions of a new file)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pytest

from doctrans.documents import read_document, writer_for
from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.engine.interface import MemoryState
from doctrans.errors import UserError
from doctrans.pipeline import (
    assemble,
    check_paths,
    clean_translation,
    feed,
    open_session,
    sentence_spans,
    write_atomically,
)
from tests.fakes import FakeSession, FakeTranslator


# -- cleaning ----------------------------------------------------------------------------------------
def test_clean_translation() -> None:
    assert clean_translation("  Hello\x00world\x07!\n") == "Hello world !"
    assert clean_translation("a\nb\r\nc") == "a b  c"  # line breaks are spaces: one block, one line
    assert clean_translation("tab\tkept\x0b\x0c\x1f\x7fend") == "tab\tkept    end"
    assert clean_translation("\u00e4\u2028\u4e2d") == "\u00e4\u2028\u4e2d"  # not ASCII control: kept
    assert clean_translation("\x01\n ") == ""


# -- sentences through the memory ----------------------------------------------------------------------
def test_a_verbatim_block_has_no_sentences() -> None:
    tr = FakeTranslator()
    assert sentence_spans(Block("paragraph", "One. Two."), "en", tr) == [(0, 4), (5, 9)]
    assert sentence_spans(Block("paragraph", "print(1). x = 2.", verbatim=True), "en", tr) == []


def test_feed_forces_edits_and_tm_hits_and_translates_the_rest() -> None:
    tr = FakeTranslator()
    session = tr.new_document()
    tm = {"Two.": "Zwei."}.get
    edited = feed(session, "One.", forced="Eins!", tm=tm)
    assert edited.translation == "Eins!" and not edited.tm  # an edit wins over the TM
    hit = feed(session, "Two.", tm=tm)
    assert hit.translation == "Zwei." and hit.tm
    model = feed(session, "Three.", tm=tm)
    assert model.translation == "THREE." and not model.tm
    assert tr.calls == ["Three."]  # only the last one reached the model
    assert session.memory["src"].ravel()[0] == 3  # all three went into the memory


class Strict(FakeTranslator):
    def new_document(self, memory: MemoryState | None = None, *, return_attention: bool = False) -> FakeSession:
        if memory is not None and memory["src"].shape != (1, 1, 1):
            raise ValueError(f"memory of shape {memory['src'].shape}, expected (1, 1, 1)")
        return super().new_document(memory, return_attention=return_attention)


def test_a_saved_memory_that_does_not_fit_is_a_user_error() -> None:
    wrong = {"src": np.zeros((2, 1, 1), dtype=np.float32)}
    with pytest.raises(UserError, match=r"the progress file's memory does not fit this model \(memory of shape"):
        open_session(Strict(), wrong, saved_in="the progress file")
    with pytest.raises(ValueError):  # not from a file: the engine's own error (a bug, not the user's)
        open_session(Strict(), wrong)
    session = open_session(Strict(), {"src": np.full((1, 1, 1), 4.0, dtype=np.float32)}, saved_in="x")
    assert session.memory["src"].ravel()[0] == 4  # continues from the saved memory


# -- assembling --------------------------------------------------------------------------------------
def test_assemble_keeps_the_gaps_and_aligns_the_sentences() -> None:
    block = Block("paragraph", "  One.  Two.\t")
    tb = assemble(block, [(2, 6), (8, 12)], ["Eins.", "Zwei."], "de")
    assert tb.text == "  Eins.  Zwei.\t"
    assert tb.alignment == [((2, 6), (2, 7)), ((8, 12), (9, 14))]
    assert assemble(block, [], [], "de") == TranslatedBlock(block, block.text, [], "de")
    # No spaces between sentences in Chinese.
    assert assemble(Block("paragraph", "One. Two."), [(0, 4), (5, 9)], ["一。", "二。"], "zh").text == "一。二。"
    # A statement after a semicolon goes on the sentence (a report's 增长5.8%；一般公共预算收入…, translated
    # a statement at a time): its first common word in small letters, a name as it is.
    text = "全市生产总值增长5.8%；一般公共预算收入增长4.1%；北京的生产总值增长3%。"
    first, second = text.index("；") + 1, text.rindex("；") + 1
    spans = [(0, first), (first, second), (second, len(text))]
    assert [text[a:b] for a, b in spans] == ["全市生产总值增长5.8%；", "一般公共预算收入增长4.1%；",
                                              "北京的生产总值增长3%。"]
    tb = assemble(Block("paragraph", text), spans, ["Output up 5.8%;", "General public budget revenue up 4.1%;",
                                                    "Beijing's output up 3%."], "en")
    assert tb.text == "Output up 5.8%; general public budget revenue up 4.1%; Beijing's output up 3%."


# -- the atomic write --------------------------------------------------------------------------------
def _doc(tmp_path: Path) -> tuple[Document, list[TranslatedBlock]]:
    src = tmp_path / "in.txt"
    src.write_text("One.\n\nTwo.\n", encoding="utf-8")
    document = read_document(src)
    return document, [TranslatedBlock(b, b.text.upper()) for b in document.blocks()]


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("existing", [False, True])
def test_a_failing_writer_leaves_no_partial_file(tmp_path: Path, existing: bool) -> None:
    document, blocks = _doc(tmp_path)
    out = tmp_path / "out.txt"
    if existing:
        out.write_text("the previous translation\n", encoding="utf-8")

    def failing(blocks: list[TranslatedBlock]) -> Iterator[TranslatedBlock]:
        yield blocks[0]
        raise RuntimeError("the engine failed on the second block")

    def unchanged() -> bool:
        before = "the previous translation\n"
        return out.read_text(encoding="utf-8") == before if existing else not out.exists()

    write = writer_for(document, out)
    with pytest.raises(RuntimeError, match="second block"):
        write_atomically(write, document, failing(blocks), out)
    assert _temps(tmp_path) == [] and unchanged()

    def no_text() -> None:
        raise UserError("no text")

    with pytest.raises(UserError):  # the check after the writer, before the rename
        write_atomically(write, document, iter(blocks), out, no_text)
    assert _temps(tmp_path) == [] and unchanged()

    def interrupted(document: Document, blocks: Iterable[TranslatedBlock], path: Path) -> None:
        path.write_text("half a transl", encoding="utf-8")
        raise KeyboardInterrupt  # Ctrl-C inside the writer

    with pytest.raises(KeyboardInterrupt):
        write_atomically(interrupted, document, iter(blocks), out)
    assert _temps(tmp_path) == [] and unchanged()


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_the_output_gets_the_permissions_of_a_new_file(tmp_path: Path, umask: int) -> None:
    document, blocks = _doc(tmp_path)
    out = tmp_path / "out.txt"
    old = os.umask(umask)
    try:
        write_atomically(writer_for(document, out), document, iter(blocks), out)
        plain = tmp_path / "plain.txt"
        plain.write_text("x")  # what open() creates under this umask
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask == stat.S_IMODE(plain.stat().st_mode)
    assert out.read_text(encoding="utf-8") == "ONE.\n\nTWO.\n"
    assert _temps(tmp_path) == []


def test_the_output_is_never_the_input(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("One.\n", encoding="utf-8")
    with pytest.raises(UserError, match="must not be the input"):
        check_paths(src, tmp_path / "." / "in.txt")
    with pytest.raises(UserError, match="no such file"):
        check_paths(tmp_path / "missing.txt", tmp_path / "out.txt")
    with pytest.raises(UserError, match="is a directory, not a document"):
        check_paths(tmp_path, tmp_path / "out.txt")
    with pytest.raises(UserError, match="output directory does not exist"):
        check_paths(src, tmp_path / "nowhere" / "out.txt")
