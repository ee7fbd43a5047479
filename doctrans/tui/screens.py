"""Screens of the TUI: the memory viewer, and the modal dialogs (edit, save, open, help, quit)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

import numpy as np
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DirectoryTree, Footer, Input, Label, Markdown, Static

from doctrans.documents import SUFFIXES
from doctrans.tui.heatmap import n_heads, readers, slots_written, token_label, viewer_data
from doctrans.tui.state import DocumentState
from doctrans.tui.widgets import WARNING_MARK, HeatmapView

# How many later sentences the trace line follows a slot into. The memory is rewritten by every
# sentence, so beyond a few sentences "reads slot 8" says little about what sentence t wrote.
TRACE_SENTENCES = 3


class MemoryViewer(Screen[None]):
    """Update Attention of sentence t (what it wrote) next to the Output Attention of sentence
    t+1 (what it read back), as in Feng et al. 2022, Figs. 6/7.

    Shows the :class:`DocumentState` it is given and only reads it; moving to another sentence
    posts :class:`SentenceChanged` (the app's list follows), and the app tells it of each newly
    translated sentence (:meth:`sentence_translated`)."""

    class SentenceChanged(Message):
        """The viewer now shows sentence ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    DEFAULT_CSS = """
    MemoryViewer #vtitle { height: auto; max-height: 3; padding: 0 1; background: $panel; }
    MemoryViewer #maps { height: 1fr; }
    MemoryViewer #maps VerticalScroll { width: 1fr; padding: 0 1; }
    MemoryViewer #trace { height: 3; padding: 0 1; background: $panel; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back"),
        Binding("tab", "switch_map", "Src/Tgt"),
        Binding("h", "head(1)", "Head"),
        Binding("H", "head(-1)", "Head back", show=False),
        Binding("left,p", "sentence(-1)", "Prev"),
        Binding("right,n", "sentence(1)", "Next"),
        Binding("question_mark,f1", "app.help", "Help"),
    ]

    def __init__(self, state: DocumentState, index: int) -> None:
        super().__init__()
        self.state = state
        self.index = index
        self.head: int | None = None  # None = mean over heads

    def compose(self) -> ComposeResult:
        yield Static(id="vtitle")
        with Horizontal(id="maps"):
            with VerticalScroll(id="write"):
                yield HeatmapView(id="src_write")
                yield HeatmapView(id="tgt_write")
            with VerticalScroll(id="read"):
                yield HeatmapView(focusable=False, id="src_read")
                yield HeatmapView(focusable=False, id="tgt_read")
        yield Static(id="trace")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_maps()
        self.query_one("#src_write", HeatmapView).focus()

    # -- data ---------------------------------------------------------------------------------
    def sentence_translated(self, index: int) -> None:
        """Sentence ``index`` has a new translation: redraw if it is this one or the next (whose
        read attention is shown)."""
        if index in (self.index, self.index + 1):
            self.refresh_maps()

    def refresh_maps(self) -> None:
        state = self.state
        s = state.sentences[self.index]
        nxt = state.next_with_result(self.index)
        heads = n_heads(s.result)
        if self.head is not None and self.head >= heads:
            self.head = None
        data = viewer_data(s.result, nxt.result if nxt else None, self.head)
        head = "mean of heads" if self.head is None else f"head {self.head + 1}/{heads}"
        title = Text()
        title.append(f"Sentence {self.index + 1}/{len(state.sentences)}", style="bold")
        title.append(f"  \u00b7  {head}  \u00b7  ")
        if s.result is None or s.result.attention is None:
            title.append("not translated yet" if s.result is None else "this engine returns no attention",
                         style="italic")
        else:
            title.append("rows: tokens, columns: memory slots")
        title.append(f"\n{s.source}\n", style="dim")
        title.append(s.translation or "\u2026")
        for w in s.warnings:  # what the check found (doctrans.report): the figure to look at
            title.append(f"\n{WARNING_MARK} {w.message}", style="bold yellow")
        vtitle = self.query_one("#vtitle", Static)
        vtitle.styles.max_height = 3 + min(3, len(s.warnings))  # room for the warnings, the maps keep the rest
        vtitle.update(title)

        res, nres = s.result, nxt.result if nxt else None
        n = self.index + 1
        no_next = ("no next sentence" if self.index + 1 >= len(state.sentences)
                   else "the next sentence is not translated yet")
        self._show("#src_write", data.src_write, res.src_tokens if res else [], f"s{n} wrote \u2190 source",
                   "no source memory")
        self._show("#tgt_write", data.tgt_write, res.tgt_tokens if res else [], f"s{n} wrote \u2190 target",
                   "no target memory")
        self._show("#src_read", data.src_read, nres.src_tokens if nres else [], f"s{n + 1} read \u2192 source",
                   no_next if nres is None else "no source memory")
        self._show("#tgt_read", data.tgt_read, nres.tgt_tokens if nres else [], f"s{n + 1} read \u2192 target",
                   no_next if nres is None else "no target memory")
        self.update_trace()

    def _show(self, selector: str, matrix: np.ndarray | None, tokens: list[str], title: str, note: str) -> None:
        self.query_one(selector, HeatmapView).show(matrix, tokens, title, note)

    def focused_map(self) -> HeatmapView:
        focused = self.focused
        if isinstance(focused, HeatmapView):
            return focused
        return self.query_one("#src_write", HeatmapView)

    def update_trace(self) -> None:
        """Highlight, for the token under the cursor, the slots it wrote to and the tokens of the
        next sentence that read them; list the readers in the following sentences too."""
        view = self.focused_map()
        src_read = self.query_one("#src_read", HeatmapView)
        tgt_read = self.query_one("#tgt_read", HeatmapView)
        trace = self.query_one("#trace", Static)
        for v in self.query(HeatmapView):
            v.mark([], [])
        if view.matrix is None or view.cursor is None:
            trace.update(Text("Move over a token (\u2191\u2193, Tab for the other side, or the mouse) to trace "
                              "what it wrote into the memory.", style="dim"))
            return
        slots = slots_written(view.matrix, view.cursor)
        view.mark(slots, [])
        for r in (src_read, tgt_read):
            if r.matrix is not None:
                r.mark(slots, [t for t, _ in readers(r.matrix, slots)])
        side = "source" if view.id == "src_write" else "target"
        text = Text()
        text.append(token_label(view.tokens[view.cursor]), style="bold")
        text.append(f" ({side}) wrote to slot{'s' if len(slots) != 1 else ''} ")
        text.append(", ".join(str(s) for s in slots) or "-", style="bold")
        text.append(" \u2192 read by: ")
        text.append_text(self._later_readers(slots))
        trace.update(text)

    def _later_readers(self, slots: list[int]) -> Text:
        state = self.state
        out = Text()
        found = False
        for u in range(self.index + 1, min(len(state.sentences), self.index + 1 + TRACE_SENTENCES)):
            r = state.sentences[u].result
            if r is None or r.attention is None or state.sentences[u].stale:
                break
            data = viewer_data(None, r, self.head)
            names = []
            for matrix, tokens in ((data.src_read, r.src_tokens), (data.tgt_read, r.tgt_tokens)):
                if matrix is None:
                    continue
                names += [f"{token_label(tokens[t])} {mass:.2f}"
                          for t, mass in readers(matrix, slots, top=2)]
            if names:
                found = True
                out.append(f"s{u + 1}: ", style="bold")
                out.append(", ".join(names) + "  ")
        if not found:
            out.append("no later token reads these slots more than a uniform share", style="dim")
        return out

    # -- actions ------------------------------------------------------------------------------
    def on_heatmap_view_cursor_moved(self, message: HeatmapView.CursorMoved) -> None:
        if message.view is self.focused_map():
            self.update_trace()

    def on_descendant_focus(self) -> None:
        self.update_trace()

    def action_close(self) -> None:
        self.dismiss()

    def action_switch_map(self) -> None:
        other = "#tgt_write" if self.focused_map().id == "src_write" else "#src_write"
        self.query_one(other, HeatmapView).focus()

    def action_head(self, delta: int) -> None:
        heads = n_heads(self.state.sentences[self.index].result)
        if not heads:
            return
        # Cycle mean -> 1 -> 2 -> ... -> heads -> mean.
        order: list[int | None] = [None, *range(heads)]
        self.head = order[(order.index(self.head) + delta) % len(order)]
        self.refresh_maps()

    def action_sentence(self, delta: int) -> None:
        self.index = max(0, min(len(self.state.sentences) - 1, self.index + delta))
        self.post_message(self.SentenceChanged(self.index))
        self.refresh_maps()


class EditScreen(ModalScreen[str | None]):
    """Edit one translation; accepting re-runs the memory loop from this sentence on."""

    DEFAULT_CSS = """
    EditScreen { align: center middle; }
    EditScreen > Vertical { width: 90%; max-width: 120; height: auto; padding: 1 2;
                            background: $panel; border: thick $primary; }
    EditScreen .note { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, index: int, source: str, translation: str, later: int) -> None:
        super().__init__()
        self.index, self.source, self.translation, self.later = index, source, translation, later

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(f"Sentence {self.index + 1}", style="bold"))
            yield Static(Text(self.source, style="dim"))
            yield Input(self.translation, id="edit")
            note = ("Enter accepts, Esc cancels. Accepting writes your translation into the memory and "
                    f"re-runs the loop from here: the {self.later} later sentence"
                    f"{'s' if self.later != 1 else ''} read it and may change.")
            yield Static(note, classes="note")

    @on(Input.Submitted)
    def accept(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SaveScreen(ModalScreen[Path | None]):
    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    SaveScreen > Vertical { width: 90%; max-width: 120; height: auto; padding: 1 2;
                            background: $panel; border: thick $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text("Save the translation as (same format as the original):", style="bold"))
            yield Input(str(self.default), id="path")
            yield Static("Enter saves, Esc cancels. The original is never overwritten.", classes="note")

    @on(Input.Submitted)
    def accept(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(Path(value).expanduser() if value else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class DocumentTree(DirectoryTree):
    """Directories and the document types doctrans reads; hidden files left out."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".")
                and (p.is_dir() or p.suffix.lower() in SUFFIXES)]


class OpenScreen(ModalScreen[Path | None]):
    DEFAULT_CSS = """
    OpenScreen { align: center middle; }
    OpenScreen > Vertical { width: 90%; height: 90%; padding: 0 1; background: $panel;
                            border: thick $primary; }
    OpenScreen DocumentTree { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, start: Path) -> None:
        super().__init__()
        self.start = start

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(f"Open a document ({', '.join(sorted(SUFFIXES))})", style="bold"))
            yield DocumentTree(self.start)
            yield Static("Enter opens, Esc cancels.", classes="note")

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        self.dismiss(event.path)

    def action_cancel(self) -> None:
        self.dismiss(None)


HELP = """\
# doctrans

Translates the document **sentence by sentence, in order**, carrying a small memory
(16 slots per side) from one sentence to the next (Feng et al. 2022).

## Main screen
| Key | |
|---|---|
| ↑ ↓ | move through the sentences (source left, translation right) |
| Enter, v | memory viewer for the sentence |
| e | edit the translation (the memory loop re-runs from that sentence) |
| s | save in the document's format |
| t | translate / continue after a cancel |
| c | cancel the translation |
| r | restart: translate the whole document again (your edits are kept) |
| o | open another document |
| 1 2 3 | use TM suggestion 1, 2 or 3 as the translation (with --tm / --local-tm) |
| q | quit (asks when there are unsaved changes) |

The gutter marks the first sentence of each block: H1.. headings, ¶ paragraphs, • list items,
▦ table cells. ✎ = your edit; ↻ = will be redone because an earlier sentence changed.

## Translation memory (--tm, --local-tm)
A sentence stored in the memory is taken as stored, not translated: TM 100%.
For the selected sentence, the panel under the list shows the most similar stored sentences
(fuzzy matches, 70 % or more) with their score: the stored source, the words that differ from
the sentence highlighted, beside its stored translation. 1–3 uses one as the sentence's
translation, as an edit would (TM 87% ✎). The model does not read the suggestions.

## Memory viewer
Left: what sentence *t* **wrote** into the memory — its Update Attention, each memory slot's
weights over the sentence's tokens (source, then target). Right: what sentence *t+1*
**read** back — its Output Attention, each token's weights over the slots.
Brighter = more attention, scaled to each map's maximum; head-averaged unless a head is chosen.

| Key | |
|---|---|
| ↑ ↓ (or the mouse) | token cursor: marks the slots it wrote to, and the next sentence's tokens that read them |
| Tab | source / target side |
| h, H | next / previous head (mean → 1 → 2 …) |
| ← → | previous / next sentence |
| Esc | back |

Press Esc to close this help.
"""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; background: $panel; border: thick $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[str]):
    """Unsaved changes: save and quit, quit anyway, or stay."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Grid { grid-size: 3; grid-gutter: 1 2; grid-rows: auto 3; width: 72; height: auto;
                        padding: 1 2; background: $panel; border: thick $warning; }
    QuitScreen #question { column-span: 3; width: 1fr; }
    QuitScreen Button { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose('cancel')", "Cancel"),
        Binding("s", "choose('save')", "Save"),
        Binding("d", "choose('quit')", "Discard"),
    ]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Grid():
            yield Label(self.message, id="question")
            yield Button("Save and quit", variant="primary", id="save")
            yield Button("Quit, discard", variant="error", id="quit")
            yield Button("Cancel", id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "cancel")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
