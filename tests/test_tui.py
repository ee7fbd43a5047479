"""The TUI (doctrans.tui): pilot-driven flows with a real tiny bundle, the viewer's numbers against
the engine's, edit + re-run semantics, cancel/continue, quit handling, and text snapshots.

Snapshots are the screen as plain text (the characters of Textual's public ``export_screenshot``:
tests/tui_helpers.screen_text), taken with a deterministic fake engine so they do not move when
the tiny model is retrained.
Update them with ``DOCTRANS_UPDATE_SNAPSHOTS=1 pytest tests/test_tui.py``.
"""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

import docx
import numpy as np
import pytest
from textual.widgets import Input
from typer.testing import CliRunner

from doctrans.documents.base import Document
from doctrans.engine.interface import MemoryState, SentenceAttention, SentenceResult
from doctrans.errors import UserError
from doctrans.tm.run import RunTM
from doctrans.tm.store import TMStore, default_tm_path
from doctrans.tui.app import DoctransApp
from doctrans.tui.heatmap import Palette, readers, slots_written, token_label, viewer_data
from doctrans.tui.screens import EditScreen, HelpScreen, MemoryViewer, OpenScreen, QuitScreen, SaveScreen
from doctrans.tui.state import DocumentState
from doctrans.tui.widgets import DIFF_STYLE, TM_MARK, HeatmapView, marked_differences
from tests.fakes import FakeTranslator
from tests.tui_helpers import TIMEOUT, Clock, run, screen_text, translated, wait_until

SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_tui"

# Sentences in the tiny model's vocabulary (tests/tiny_model.py), one per paragraph: the tiny
# vocabulary is lower-case, so the splitter would not cut "... . the ..." inside a paragraph.
TINY_DOC = ["the cat sees a house .", "the dog runs over the tree .", "a small bird eats slowly .",
            "the red fish sleeps near the old house ."]


# -- helpers ----------------------------------------------------------------------------------
def make_docx(path: Path, heading: str, paragraphs: list[str], bullets: list[str] = ()) -> Path:
    d = docx.Document()
    d.add_heading(heading, level=1)
    for p in paragraphs:
        d.add_paragraph(p)
    for b in bullets:
        d.add_paragraph(b, style="List Bullet")
    d.save(str(path))
    return path


def docx_texts(path: Path) -> list[str]:
    return [p.text for p in docx.Document(str(path)).paragraphs]


def check_snapshot(app: DoctransApp, name: str) -> None:
    text = screen_text(app)
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("DOCTRANS_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}; create it with DOCTRANS_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), f"screen differs from {path}:\n{text}"


# -- a fake engine with attention, deterministic -------------------------------------------------
@dataclass
class AttnSession:
    engine: AttnTranslator
    count: int = 0

    def translate(self, sentence: str) -> SentenceResult:
        if self.engine.gate is not None:  # let a test hold the loop between sentences
            self.engine.gate.acquire(timeout=TIMEOUT)
        return self._result(sentence, self.engine.fn(sentence))

    def force(self, sentence: str, translation: str) -> SentenceResult:
        self.engine.forced.append(translation)
        return self._result(sentence, translation)

    def _result(self, source: str, target: str) -> SentenceResult:
        self.engine.calls.append(source)
        src, tgt = [*source.split(), "</s>"], ["<s>", *target.split()]
        rng = np.random.default_rng(self.count)  # PCG64: the same numbers everywhere
        self.count += 1

        def dist(*shape: int) -> np.ndarray:
            x = rng.random(shape).astype(np.float32) ** 4
            return x / x.sum(-1, keepdims=True)

        att = SentenceAttention(src_update=dist(2, 16, len(src)), tgt_update=dist(2, 16, len(tgt)),
                                src_output=dist(2, len(src), 16), tgt_output=dist(2, len(tgt), 16))
        return SentenceResult(source, target, src, tgt, 0.0, att)

    @property
    def memory(self) -> MemoryState:
        return {"src": np.full((1, 1, 1), float(self.count), dtype=np.float32)}


@dataclass
class AttnTranslator(FakeTranslator):
    gate: threading.Semaphore | None = None
    forced: list[str] = field(default_factory=list)

    def new_document(self, memory: MemoryState | None = None, *, return_attention: bool = False) -> AttnSession:
        return AttnSession(self, 0 if memory is None else int(memory["src"].ravel()[0]))


FAKE_DOC = ("Learn to Remember", ["The woman walked in. She sat down by the window.",
                                  "It was raining, and nobody spoke."], ["Memory slots", "Attention maps"])


# -- the real engine ----------------------------------------------------------------------------


def test_open_translate_view_edit_save(tmp_path: Path, tiny_translator) -> None:  # type: ignore[no-untyped-def]
    """The issue's flow: open a generated docx, translate, move, view, edit, save."""
    src = make_docx(tmp_path / "story.docx", TINY_DOC[0], TINY_DOC[1:])
    app = DoctransApp(tiny_translator, src)

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            state = app.state
            assert state is not None and len(state.sentences) == 4
            assert all(s.result is not None and s.result.attention is not None for s in state.sentences)
            first = [s.translation for s in state.sentences]

            await pilot.press("down")
            assert app.selected() == 1
            await pilot.press("enter")
            assert isinstance(app.screen, MemoryViewer) and app.screen.index == 1
            view = app.screen.query_one("#src_write", HeatmapView)
            assert view.matrix is not None and view.cursor == 0
            await pilot.press("down", "down")
            assert view.cursor == 2
            assert "wrote to slot" in str(app.screen.query_one("#trace").render())
            assert app.screen.query_one("#src_read", HeatmapView).marked_slots == view.marked_slots != []
            await pilot.press("right")
            assert app.screen.index == 2 and app.selected() == 2
            await pilot.press("left", "escape")
            assert not isinstance(app.screen, MemoryViewer)

            # Edit sentence 2: the loop re-runs from it, with the edit forced into the memory.
            await pilot.press("e")
            assert isinstance(app.screen, EditScreen)
            app.screen.query_one(Input).value = "the old bird ."
            await pilot.press("enter")
            await wait_until(pilot, lambda: translated(app), "the re-run")
            s = state.sentences
            assert s[1].translation == "the old bird ." and s[1].edited
            assert s[0].translation == first[0]
            session = tiny_translator.new_document(memory=s[1].memory_before)
            session.force(s[1].source, "the old bird .")
            np.testing.assert_allclose(s[2].memory_before["tgt"], session.memory["tgt"], atol=1e-5)
            assert s[2].translation == session.translate(s[2].source).translation

            out = tmp_path / "story.xx.docx"
            await pilot.press("s")
            assert isinstance(app.screen, SaveScreen)
            assert app.screen.query_one(Input).value == str(out)
            await pilot.press("enter")
            await pilot.pause()
            assert out.exists() and not state.dirty
            texts = docx_texts(out)
            assert texts[0] == s[0].translation and texts[1] == "the old bird ."
            assert texts[2:] == [s[2].translation, s[3].translation]
            assert docx_texts(src) == TINY_DOC  # the input is never touched
            await pilot.press("q")  # saved: quits without asking
            await pilot.pause()
        assert app.return_code == 0

    run(flow)


def test_viewer_numbers_are_the_engines(tmp_path: Path, tiny_translator) -> None:  # type: ignore[no-untyped-def]
    """The heatmaps the viewer draws are the engine's return_attention maps (transposed for the
    update side), head-averaged, or one head after pressing h."""
    src = tmp_path / "doc.txt"
    src.write_text("\n\n".join(TINY_DOC) + "\n", encoding="utf-8")
    app = DoctransApp(tiny_translator, src)
    reference = tiny_translator.translate_document(TINY_DOC, beam_size=1, return_attention=True)

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            await pilot.press("down", "enter")
            viewer = app.screen
            assert isinstance(viewer, MemoryViewer)
            t, nxt = reference[1].attention, reference[2].attention

            def shown(name: str) -> np.ndarray:
                m = viewer.query_one(f"#{name}", HeatmapView).matrix
                assert m is not None
                return m

            for head, pick in ((None, lambda a: a.mean(0)), (0, lambda a: a[0]), (1, lambda a: a[1])):
                assert viewer.head == head
                np.testing.assert_allclose(shown("src_write"), pick(t.src_update).T, atol=1e-6)
                np.testing.assert_allclose(shown("tgt_write"), pick(t.tgt_update).T, atol=1e-6)
                np.testing.assert_allclose(shown("src_read"), pick(nxt.src_output), atol=1e-6)
                np.testing.assert_allclose(shown("tgt_read"), pick(nxt.tgt_output), atol=1e-6)
                await pilot.press("h")
            assert viewer.query_one("#src_write", HeatmapView).tokens == reference[1].src_tokens
            assert viewer.query_one("#tgt_read", HeatmapView).tokens == reference[2].tgt_tokens

    run(flow)


# -- the fake engine: behaviour and snapshots ---------------------------------------------------
def test_snapshots_of_the_main_screens(tmp_path: Path) -> None:
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    app = DoctransApp(AttnTranslator(), src, clock=Clock())

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            check_snapshot(app, "main_80x24")
            await pilot.press("down", "enter", "down", "down")
            check_snapshot(app, "viewer_80x24")
            await pilot.press("h", "tab")
            check_snapshot(app, "viewer_head1_target_80x24")
            await pilot.press("escape", "question_mark")
            assert isinstance(app.screen, HelpScreen)
            check_snapshot(app, "help_80x24")
            await pilot.press("escape", "e")
            check_snapshot(app, "edit_80x24")
            await pilot.press("escape", "q")
            assert isinstance(app.screen, QuitScreen)
            check_snapshot(app, "quit_80x24")
            await pilot.press("escape")
        await asyncio.sleep(0)

    run(flow)

    app = DoctransApp(AttnTranslator(), src, clock=Clock())

    async def wide() -> None:
        async with app.run_test(size=(140, 36)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            await pilot.press("down", "enter")
            check_snapshot(app, "viewer_140x36")

    run(wide)


def test_structure_edit_rerun_and_save_with_fake_engine(tmp_path: Path) -> None:
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    engine = AttnTranslator()
    app = DoctransApp(engine, src, clock=Clock())

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            state = app.state
            assert state is not None
            kinds = [state.blocks[s.block].kind for s in state.sentences]
            assert kinds == ["heading", "paragraph", "paragraph", "paragraph", "list_item", "list_item"]
            text = screen_text(app)
            assert "H1" in text and "\u00b6" in text and "\u2022" in text

            engine.calls.clear()
            await pilot.press("down", "down", "e", "enter")  # accepted unchanged: nothing to re-run
            await pilot.pause()
            assert engine.calls == [] and not state.sentences[2].edited and not app.running
            await pilot.press("e")  # "She sat down by the window."
            app.screen.query_one(Input).value = "SIE SETZTE SICH."
            await pilot.press("enter")
            await wait_until(pilot, lambda: translated(app), "the re-run")
            # Forced, then only the later sentences: the earlier ones are not translated again.
            assert engine.forced == ["SIE SETZTE SICH."]
            assert engine.calls == [s.source for s in state.sentences[2:]]
            assert "\u270e SIE SETZTE SICH." in screen_text(app)
            assert "1 edited" in screen_text(app)

            await pilot.press("s", "enter")
            await pilot.pause()
        out = tmp_path / "remember.de.docx"
        assert docx_texts(out) == ["LEARN TO REMEMBER", "THE WOMAN WALKED IN. SIE SETZTE SICH.",
                                   "IT WAS RAINING, AND NOBODY SPOKE.", "MEMORY SLOTS", "ATTENTION MAPS"]

    run(flow)


def test_cancel_and_continue_keep_the_memory_chain(tmp_path: Path) -> None:
    src = tmp_path / "doc.txt"
    src.write_text("One. Two. Three. Four. Five.\n", encoding="utf-8")
    gate = threading.Semaphore(0)
    engine = AttnTranslator(gate=gate)
    app = DoctransApp(engine, src, clock=Clock())

    async def flow() -> None:
        async with app.run_test() as pilot:
            state = app.state
            assert state is not None and len(state.sentences) == 5
            gate.release(2)
            await wait_until(pilot, lambda: state.sentences[1].done, "two sentences")
            assert "translating" in screen_text(app)
            await pilot.press("c")
            gate.release(1)  # the sentence in flight finishes, and is dropped: the run was cancelled
            await pilot.pause(0.2)
            assert not app.running and state.first_pending() == 2
            assert "cancelled" in screen_text(app)
            await pilot.press("s", "enter")  # not finished: refused, nothing written
            await pilot.pause()
            assert not (tmp_path / "doc.de.txt").exists()
            gate.release(10)
            await pilot.press("t")
            await wait_until(pilot, lambda: translated(app), "the rest")
            # Continued from the memory after sentence 2: the fake memory counts sentences seen.
            assert [float(s.memory_before["src"].ravel()[0]) for s in state.sentences[1:]] == [1, 2, 3, 4]
            assert [s.translation for s in state.sentences] == ["ONE.", "TWO.", "THREE.", "FOUR.", "FIVE."]

    run(flow)


def test_viewer_follows_the_run_and_the_list_follows_the_viewer(tmp_path: Path) -> None:
    """The viewer is given the state it shows: the app tells it of each new sentence (the read
    maps of the next sentence appear), and it posts a message when it moves (the list follows)."""
    src = tmp_path / "doc.txt"
    src.write_text("One. Two. Three.\n", encoding="utf-8")
    gate = threading.Semaphore(0)
    app = DoctransApp(AttnTranslator(gate=gate), src, clock=Clock())

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            state = app.state
            assert state is not None
            gate.release(1)
            await wait_until(pilot, lambda: state.sentences[0].done, "one sentence")
            await pilot.press("enter")
            viewer = app.screen
            assert isinstance(viewer, MemoryViewer) and viewer.state is state and viewer.index == 0
            assert viewer.query_one("#src_read", HeatmapView).matrix is None  # sentence 2 not there yet
            gate.release(10)
            await wait_until(pilot, lambda: translated(app), "the rest")
            assert viewer.query_one("#src_read", HeatmapView).matrix is not None
            await pilot.press("right", "right")
            assert viewer.index == 2 and app.selected() == 2
            await pilot.press("left")
            assert viewer.index == 1 and app.selected() == 1
            await pilot.press("escape")
            assert not isinstance(app.screen, MemoryViewer)

    run(flow)


def test_quit_while_translating(tmp_path: Path) -> None:
    """Quitting with a sentence in flight: the worker's late result finds no app, no error."""
    src = tmp_path / "doc.txt"
    src.write_text("One. Two. Three.\n", encoding="utf-8")
    gate = threading.Semaphore(0)
    app = DoctransApp(AttnTranslator(gate=gate), src, clock=Clock())

    async def flow() -> None:
        async with app.run_test() as pilot:
            gate.release(1)
            await wait_until(pilot, lambda: app.state is not None and app.state.sentences[0].done, "one sentence")
            await pilot.press("q", "d")
            await pilot.pause()
        gate.release(5)

    run(flow)
    assert app.return_code == 0


def test_quit_asks_when_unsaved(tmp_path: Path) -> None:
    src = tmp_path / "doc.txt"
    src.write_text("One. Two.\n", encoding="utf-8")
    app = DoctransApp(AttnTranslator(), src, clock=Clock())

    async def flow() -> None:
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            await pilot.press("q")
            assert isinstance(app.screen, QuitScreen)
            await pilot.press("escape")
            assert not isinstance(app.screen, QuitScreen) and app.is_running
            await pilot.press("q", "s")  # save and quit: the default output
            await pilot.pause()
        assert (tmp_path / "doc.de.txt").read_text(encoding="utf-8").strip() == "ONE. TWO."

    run(flow)

    app = DoctransApp(AttnTranslator(), src, clock=Clock())

    async def discard() -> None:
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            (tmp_path / "doc.de.txt").unlink()
            await pilot.press("q", "d")
            await pilot.pause()
        assert not (tmp_path / "doc.de.txt").exists()

    run(discard)


def test_file_picker_and_unreadable_documents(tmp_path: Path) -> None:
    bad = tmp_path / "broken.docx"
    bad.write_bytes(b"this is not a zip")
    good = tmp_path / "doc.txt"
    good.write_text("One. Two.\n", encoding="utf-8")
    app = DoctransApp(AttnTranslator(), None, clock=Clock())
    # What the app tells the person, through its public App.notify (not Textual's private list).
    said: list[str] = []
    notify = app.notify

    def record(message: str, **kw: object) -> None:
        said.append(message)
        notify(message, **kw)  # type: ignore[arg-type]  # passes the caller's keywords through

    app.notify = record  # type: ignore[method-assign]  # a spy on the instance, nothing else changes

    async def flow() -> None:
        async with app.run_test(notifications=True) as pilot:
            assert isinstance(app.screen, OpenScreen)  # no FILE: the picker opens
            app.screen.dismiss(bad)
            await pilot.pause()
            assert app.state is None and app.is_running  # one clear message, no crash
            assert any("broken.docx" in m for m in said)
            app.action_open()
            await pilot.pause()
            assert isinstance(app.screen, OpenScreen)
            app.screen.dismiss(good)
            await wait_until(pilot, lambda: translated(app), "the translation")

    run(flow)


# -- pure parts --------------------------------------------------------------------------------
def test_trace_helpers() -> None:
    write = np.array([[0.1, 0.8, 0.05, 0.5], [0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    assert slots_written(write, 0) == [1, 3]  # 0.1 is less than half of 0.8
    assert slots_written(write, 1) == []
    read = np.array([[0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25], [0.0, 0.9, 0.0, 0.1]], dtype=np.float32)
    assert readers(read, [1, 3]) == [(2, pytest.approx(1.0)), (0, pytest.approx(0.2))][:1]
    assert token_label("\u2581house", 4) == " ho\u2026" and token_label("\u2581house") == "house"


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "solarized-light", "nord"])
def test_heatmap_ramp_runs_from_background_to_foreground(theme: str) -> None:
    """On dark and light themes alike: weight 0 is the background, the maximum the foreground,
    and the contrast with the background grows with the weight."""
    from textual.app import App

    app = App()
    app.theme = theme
    p = Palette.from_variables(app.get_css_variables())
    assert p.cell(0.0) == p.background and p.cell(1.0) == p.foreground
    distance = [abs(p.cell(v).brightness - p.background.brightness) for v in np.linspace(0, 1, 11)]
    assert distance == sorted(distance) and distance[-1] > 0.5


def test_state_without_attention_or_force(tmp_path: Path) -> None:
    """An engine without attention or force (the plain fake) still translates and saves; the
    viewer data is empty rather than wrong."""
    src = tmp_path / "doc.txt"
    src.write_text("One. Two.\n", encoding="utf-8")
    tr = FakeTranslator()
    state = DocumentState.open(src, tr)
    assert DocumentState.open(src, tr, "de").src_lang == "de"  # --src wins over identification
    for step in state.run(tr, 0, lambda: False):
        state.apply(step)
    data = viewer_data(state.sentences[0].result, state.sentences[1].result, None)
    assert data.src_write is None and data.tgt_read is None
    assert state.save(state.default_output()).read_text(encoding="utf-8").strip() == "ONE. TWO."


def _translate_all(state: DocumentState, tr: FakeTranslator, start: int = 0) -> None:
    for step in state.run(tr, start, lambda: False):
        state.apply(step)


MARKDOWN = """# Using the tool

Install it and run it:

```bash
pip install doctrans
```

The end.
"""


@pytest.mark.parametrize("name", ["a.md", "remember.docx"])
def test_tui_saves_what_the_cli_writes(tmp_path: Path, name: str) -> None:
    """One pipeline: the TUI's save of a document is the CLI job's output, byte for byte; a code
    block is kept as it is and never reaches the engine in either."""
    from doctrans.translate_job import translate_file

    src = tmp_path / name
    if name.endswith(".md"):
        src.write_text(MARKDOWN, encoding="utf-8")
    else:
        make_docx(src, *FAKE_DOC)
    cli_engine, tui_engine = FakeTranslator(), FakeTranslator()
    cli_out, tui_out = tmp_path / f"cli.{name}", tmp_path / f"tui.{name}"
    translate_file(src, cli_out, cli_engine)
    state = DocumentState.open(src, tui_engine)
    _translate_all(state, tui_engine)
    state.save(tui_out)
    assert tui_out.read_bytes() == cli_out.read_bytes()
    assert tui_engine.calls == cli_engine.calls
    if name.endswith(".md"):
        assert "pip install doctrans" not in " ".join(tui_engine.calls)
        assert "```bash\npip install doctrans\n```" in tui_out.read_text(encoding="utf-8")


def test_the_document_is_read_once_and_saved_again_from_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening reads (parses) the file once; saving writes from that read, also a second time
    after an edit (the docx writer sets every translated run again)."""
    from doctrans.documents import read_document
    from doctrans.documents.docx_format import DocxAdapter

    reads: list[Path] = []
    real_read = DocxAdapter.read

    def read(self: DocxAdapter, path: Path) -> Document:
        reads.append(path)
        return real_read(self, path)

    monkeypatch.setattr(DocxAdapter, "read", read)
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    tr = FakeTranslator()
    state = DocumentState.open(src, tr)
    _translate_all(state, tr)
    first = state.save(tmp_path / "one.docx")
    assert state.edit(2, "Sie setzte sich.")
    _translate_all(state, tr, 2)
    second = state.save(tmp_path / "two.docx")
    assert reads == [src]
    upper = ["LEARN TO REMEMBER", "THE WOMAN WALKED IN. SHE SAT DOWN BY THE WINDOW.",
             "IT WAS RAINING, AND NOBODY SPOKE.", "MEMORY SLOTS", "ATTENTION MAPS"]
    assert docx_texts(first) == upper
    assert docx_texts(second) == [upper[0], "THE WOMAN WALKED IN. Sie setzte sich.", *upper[2:]]

    # The app, handed the document the CLI read to identify its language, does not read it again.
    document = read_document(src)
    app = DoctransApp(AttnTranslator(), src, clock=Clock(), document=document)

    async def flow() -> None:
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            assert app.state is not None and app.state.document is document

    run(flow)
    assert reads == [src, src]


def test_a_file_changed_on_disk_is_not_saved(tmp_path: Path) -> None:
    src = tmp_path / "doc.txt"
    src.write_text("One. Two.\n", encoding="utf-8")
    tr = FakeTranslator()
    state = DocumentState.open(src, tr)
    _translate_all(state, tr)
    src.write_text("One. Two. Three.\n", encoding="utf-8")
    with pytest.raises(UserError, match="changed on disk since it was opened"):
        state.save(tmp_path / "out.txt")
    assert not (tmp_path / "out.txt").exists() and state.dirty


def test_cli_tui_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from doctrans import cli

    runner = CliRunner()
    result = runner.invoke(cli.app, ["tui", str(tmp_path / "missing.docx")])
    assert result.exit_code == 2 and "missing.docx: no such file" in result.output
    (tmp_path / "a.xyz").write_text("x")
    result = runner.invoke(cli.app, ["tui", str(tmp_path / "a.xyz")])
    assert result.exit_code == 2 and "unsupported file type" in result.output

    seen = {}
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: FakeTranslator())
    monkeypatch.setattr("doctrans.tui.run_tui", lambda tr, path, lang, tm=None, document=None:
                        seen.update(tr=tr, path=path, lang=lang, tm=tm, document=document))
    doc = tmp_path / "doc.txt"
    doc.write_text("One.\n")
    result = runner.invoke(cli.app, ["tui", str(doc), "--model", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert seen["path"] == doc and isinstance(seen["tr"], FakeTranslator)
    result = runner.invoke(cli.app, ["tui", str(doc), "--model", str(tmp_path), "--src", "en"])
    assert result.exit_code == 0, result.output
    assert seen["lang"] == "en"  # --src reaches the app: the document is not identified again
    assert seen["document"] is None  # nor read: the app reads it
    result = runner.invoke(cli.app, ["tui", str(doc)])
    assert result.exit_code == 0, result.output
    # Read to pick the model by its language: handed to the app, which does not read it again.
    assert seen["document"] is not None and seen["document"].path == doc
    result = runner.invoke(cli.app, ["tui", str(doc), "--src", "fr"])
    assert result.exit_code == 2 and "does not match the model" in result.output
    # --tm reaches the app as the run's translation memory; a damaged TM file is one line, exit 2.
    assert seen["tm"] is None
    (tmp_path / "tm.csv").write_text("en,de\nOne.,Eins.\n", encoding="utf-8")
    result = runner.invoke(cli.app, ["tui", str(doc), "--model", str(tmp_path), "--tm", str(tmp_path / "tm.csv")])
    assert result.exit_code == 0, result.output
    assert seen["tm"] is not None and seen["tm"].lookup("en", "de")("One.") == "Eins."
    (tmp_path / "bad.tmx").write_text("<tmx><body><tu>", encoding="utf-8")
    result = runner.invoke(cli.app, ["tui", str(doc), "--tm", str(tmp_path / "bad.tmx")])
    assert result.exit_code == 2 and result.output.count("error:") == 1 and "Traceback" not in result.output


def test_translation_memory_matches_are_taken_and_marked(tmp_path: Path) -> None:
    """``doctrans tui --tm FILE``: an exact match is the stored translation, written into the
    memory as a forced one (the model does not translate it), and marked with its score."""
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    table = tmp_path / "tm.csv"
    table.write_text("en,de\nShe sat down by the window.,Sie setzte sich ans Fenster.\n", encoding="utf-8")
    engine = AttnTranslator()
    app = DoctransApp(engine, src, clock=Clock(), tm=RunTM([table]))

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            state = app.state
            assert state is not None
            by_source = {s.source: s for s in state.sentences}
            hit = by_source["She sat down by the window."]
            assert hit.translation == "Sie setzte sich ans Fenster." and hit.result is not None and hit.result.tm
            assert engine.forced == ["Sie setzte sich ans Fenster."]
            others = [s for s in state.sentences if s is not hit]
            assert all(s.translation == s.source.upper() and s.result is not None and not s.result.tm
                       for s in others)
            assert f"{TM_MARK} Sie setzte sich" in screen_text(app)

    run(flow)


# -- fuzzy TM matches: suggestions for the selected sentence --------------------------------------
# Sentence 3 of FAKE_DOC ("She sat down by the window.") has two near matches (81 % and 77 %),
# sentence 4 an exact one; the others none.
NEAR_TM = ("en\tde\n"
           "She sat down by the door.\tSie setzte sich an die T\u00fcr.\n"
           "She stood up by the window.\tSie stand am Fenster auf.\n"
           "It was raining, and nobody spoke.\tEs regnete, und niemand sprach.\n")


def test_fuzzy_suggestions_are_shown_and_one_can_be_taken(tmp_path: Path) -> None:
    """``doctrans tui --tm FILE``: the selected sentence's fuzzy matches are shown with their score,
    best first, the differences of the stored source marked; ``1`` takes the first as the
    translation the way an edit does (forced into the memory, kept, saved, marked ``TM 81% ✎``);
    the model never reads them, and the exact match is still taken by the loop."""
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    table = tmp_path / "tm.tsv"
    table.write_text(NEAR_TM, encoding="utf-8")
    engine = AttnTranslator()
    app = DoctransApp(engine, src, clock=Clock(), tm=RunTM([table]))

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            state = app.state
            assert state is not None
            s = state.sentences
            # The exact match keeps working: taken, forced, marked TM 100%.
            assert s[3].translation == "Es regnete, und niemand sprach." and s[3].result is not None
            assert s[3].result.tm and engine.forced == ["Es regnete, und niemand sprach."]
            assert f"{TM_MARK} Es regnete" in screen_text(app)

            await pilot.press("down", "down")
            assert app.selected() == 2
            await wait_until(pilot, lambda: app.suggestions_for(2) is not None, "the suggestions")
            matches = app.suggestions_for(2)
            assert matches is not None
            assert [(m.label(), m.target) for m in matches] == [("TM 81%", "Sie setzte sich an die T\u00fcr."),
                                                                ("TM 77%", "Sie stand am Fenster auf.")]
            text = screen_text(app)
            assert "TM suggestions for sentence 3" in text
            assert "1   She sat down by the door." in text and "TM 81% Sie setzte sich an die T\u00fcr." in text
            assert "2   She stood up by the window." in text and "TM 77% Sie stand am Fenster auf." in text
            assert text.index("TM 81%") < text.index("TM 77%")
            assert "1 Use TM" in text  # the footer offers the key with a TM
            # The suggestions are not context for the model: it translated the document's sentences
            # (the exact match aside), nothing of the memory.
            assert engine.calls == [x.source for x in s]

            engine.calls.clear()
            await pilot.press("3")  # there is no third suggestion: nothing happens
            await pilot.pause()
            assert s[2].translation == "SHE SAT DOWN BY THE WINDOW." and not s[2].edited and not app.running
            await pilot.press("1")
            assert s[2].translation == "Sie setzte sich an die T\u00fcr." and s[2].edited
            assert s[2].tm_label == "TM 81%"
            await wait_until(pilot, lambda: translated(app), "the re-run")
            # As an edit: forced into the memory, then only the later sentences (the exact match forced again).
            assert engine.forced[1:] == ["Sie setzte sich an die T\u00fcr.", "Es regnete, und niemand sprach."]
            assert engine.calls == [x.source for x in s[2:]]
            assert s[2].translation == "Sie setzte sich an die T\u00fcr."
            text = screen_text(app)
            assert "TM 81% \u270e Sie setzte sich an die T\u00fcr." in text  # the row
            assert "TM 81% \u2713 Sie setzte sich an die T\u00fcr." in text  # the suggestion in use
            assert "1 edited" in text

            await pilot.press("down")  # the exact match's sentence: its stored pair, in use
            await wait_until(pilot, lambda: "TM suggestions for sentence 4" in screen_text(app), "sentence 4")
            assert "TM 100% \u2713 Es regnete" in screen_text(app)
            await pilot.press("down")  # nothing similar in the memory
            await wait_until(pilot, lambda: app.suggestions_for(4) == [], "sentence 5")
            assert "no stored sentence is 70% similar" in screen_text(app)

            await pilot.press("s", "enter")
            await pilot.pause()
        assert docx_texts(tmp_path / "remember.de.docx") == [
            "LEARN TO REMEMBER", "THE WOMAN WALKED IN. Sie setzte sich an die T\u00fcr.",
            "Es regnete, und niemand sprach.", "MEMORY SLOTS", "ATTENTION MAPS"]

    run(flow)


def test_a_suggestion_taken_ahead_of_the_loop(tmp_path: Path) -> None:
    """A suggestion taken for a sentence the loop has not reached (it was cancelled before):
    the loop continues from where it stopped, through that sentence, forcing it; the memory chain
    is unbroken."""
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    table = tmp_path / "tm.tsv"
    table.write_text(NEAR_TM, encoding="utf-8")
    gate = threading.Semaphore(0)
    engine = AttnTranslator(gate=gate)
    app = DoctransApp(engine, src, clock=Clock(), tm=RunTM([table]))

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            state = app.state
            assert state is not None
            s = state.sentences
            gate.release(1)
            await wait_until(pilot, lambda: s[0].done, "one sentence")
            await pilot.press("c")
            gate.release(1)  # the sentence in flight finishes and is dropped
            await pilot.pause(0.2)
            assert not app.running and state.first_pending() == 1
            await pilot.press("down", "down")
            await wait_until(pilot, lambda: app.suggestions_for(2) is not None, "the suggestions")
            await pilot.press("2")
            assert s[2].translation == "Sie stand am Fenster auf." and s[2].tm_label == "TM 77%"
            gate.release(10)
            await wait_until(pilot, lambda: translated(app), "the rest")
            assert [x.translation for x in s] == ["LEARN TO REMEMBER", "THE WOMAN WALKED IN.",
                                                  "Sie stand am Fenster auf.", "Es regnete, und niemand sprach.",
                                                  "MEMORY SLOTS", "ATTENTION MAPS"]
            assert "Sie stand am Fenster auf." in engine.forced
            # Continued from the memory after sentence 1: the fake memory counts sentences seen.
            assert [float(x.memory_before["src"].ravel()[0]) for x in s[1:]] == [1, 2, 3, 4, 5]

    run(flow)


def test_no_suggestions_without_a_tm(tmp_path: Path) -> None:
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    app = DoctransApp(AttnTranslator(), src, clock=Clock())

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            state = app.state
            assert state is not None
            await pilot.press("down", "down", "1")
            await pilot.pause()
            assert not app.query_one("#suggestions").display
            assert state.sentences[2].translation == "SHE SAT DOWN BY THE WINDOW." and not state.sentences[2].edited
            text = screen_text(app)
            assert "TM" not in text and "Use TM" not in text

    run(flow)


def test_the_local_tm_is_read_from_the_worker_threads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--local-tm``: the CLI opens the local TM in its thread; the loop's exact matches and the
    suggestions are looked up in worker threads (SQLite refuses a connection used by another
    thread unless the store allows it)."""
    monkeypatch.setenv("DOCTRANS_TM_DIR", str(tmp_path / "tm"))
    store = TMStore(default_tm_path())
    store.add([("It was raining, and nobody spoke.", "Es regnete, und niemand sprach."),
               ("She sat down by the door.", "Sie setzte sich an die T\u00fcr.")], "en", "de")
    store.close()
    src = make_docx(tmp_path / "remember.docx", *FAKE_DOC)
    app = DoctransApp(AttnTranslator(), src, clock=Clock(), tm=RunTM([], use_local=True))

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: translated(app) or app._message == "failed", "the translation")
            state = app.state
            assert state is not None and translated(app)
            assert state.sentences[3].translation == "Es regnete, und niemand sprach."
            await pilot.press("down", "down")
            await wait_until(pilot, lambda: app.suggestions_for(2) is not None, "the suggestions")
            assert "TM 81% Sie setzte sich an die T\u00fcr." in screen_text(app)

    run(flow)


def test_marked_differences() -> None:
    def marked(stored: str, sentence: str) -> list[str]:
        text = marked_differences(stored, sentence)
        assert text.plain == stored
        return [text.plain[span.start:span.end] for span in text.spans if span.style == DIFF_STYLE]

    assert marked("She sat down by the door.", "She sat down by the window.") == ["door"]
    assert marked("She stood up by the window.", "She sat down by the window.") == ["stood", "up"]
    assert marked("我今天去了商店。", "我昨天去了商店。") == ["今"]  # Chinese: character by character
    assert marked("Same words.", "Same words.") == []

