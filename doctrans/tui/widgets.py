"""The TUI's own widgets: the sentence rows of the main screen and the heatmap view."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import MouseMove
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from doctrans.documents.base import Block
from doctrans.tui.heatmap import Palette, render_heatmap
from doctrans.tui.state import Sentence

# Short tags for the block kinds (doctrans.documents.base.BLOCK_KINDS), shown in the gutter of a
# block's first sentence: the document's structure at a glance without spending lines on it.
_KIND_TAGS = {"paragraph": "\u00b6", "list_item": "\u2022", "table_cell": "\u25a6", "header": "hdr",
              "footer": "ftr", "footnote": "fn", "endnote": "en", "comment": "cmt", "textbox": "box",
              "caption": "cap"}


WARNING_MARK = "\u26a0"  # ⚠, before a translation with sentence warnings (doctrans.report)
TM_MARK = "TM 100%"  # before a translation taken from the translation memory (exact match)


def block_tag(block: Block) -> str:
    if block.kind == "heading":
        return f"H{block.level or 1}"
    return _KIND_TAGS.get(block.kind, block.kind[:3])


def sentence_row(sentence: Sentence, block: Block, first_in_block: bool, running: bool) -> Table:
    """One row of the main list: gutter (block tag, edit mark), source | translation, wrapped."""
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(width=3, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    heading = block.kind == "heading"
    gutter = Text(block_tag(block) if first_in_block else "", style="bold" if heading else "dim")
    source = Text(sentence.source, style="bold" if heading else "")
    if sentence.translation is None:
        target = Text("translating\u2026" if running else "\u2026", style="italic dim")
    else:
        target = Text(sentence.translation, style="bold" if heading else "")
        if sentence.stale:  # will be redone: an earlier sentence changed
            target.stylize("dim")
            target.append(" \u21bb" if not running else " \u21bb translating\u2026", style="italic dim")
        if sentence.warnings:  # a number, code, URL or term of the source is not in it: look here
            target = Text(f"{WARNING_MARK} ", style="bold yellow") + target
        if sentence.result is not None and sentence.result.tm and not sentence.edited:
            target = Text(f"{TM_MARK} ", style="bold cyan") + target
        if sentence.edited:
            target = Text("\u270e ", style="bold") + target
    grid.add_row(gutter, source, target)
    return grid


class HeatmapView(Widget, can_focus=True):
    """One attention map, rows = tokens, columns = slots; a token cursor when focusable."""

    DEFAULT_CSS = """
    HeatmapView { height: auto; width: 1fr; padding: 0 0 1 0; }
    HeatmapView:focus { background: $boost; }
    """

    # On the widget, not the screen: the scrolling column around it would take up/down first.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "Token \u2191", show=False),
        Binding("down,j", "move(1)", "Token \u2193", show=False),
        Binding("pageup", "move(-10)", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("home", "move(-100000)", show=False),
        Binding("end", "move(100000)", show=False),
    ]

    cursor: reactive[int | None] = reactive(None)

    class CursorMoved(Message):
        def __init__(self, view: HeatmapView, row: int) -> None:
            super().__init__()
            self.view = view
            self.row = row

    def __init__(self, *, focusable: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.can_focus = focusable
        self.matrix: np.ndarray | None = None
        self.tokens: list[str] = []
        self.title = ""
        self.empty_note = ""
        self.marked_slots: list[int] = []
        self.marked_rows: list[int] = []

    # Rows above the first token: the title line and the two slot-number lines.
    HEADER_LINES = 3
    LABEL_WIDTH = 10

    def show(self, matrix: np.ndarray | None, tokens: list[str], title: str, empty_note: str) -> None:
        self.matrix, self.tokens, self.title, self.empty_note = matrix, tokens, title, empty_note
        self.marked_slots, self.marked_rows = [], []
        rows = 0 if matrix is None else matrix.shape[0]
        if self.can_focus:
            self.set_reactive(HeatmapView.cursor, (min(self.cursor or 0, rows - 1) if rows else None))
        self.refresh(layout=True)

    def mark(self, slots: list[int], rows: list[int]) -> None:
        self.marked_slots, self.marked_rows = slots, rows
        self.refresh()

    def watch_cursor(self, row: int | None) -> None:
        if row is not None:
            self.post_message(self.CursorMoved(self, row))
            # Keep the cursor row on screen inside the scrolling column.
            if self.parent is not None and isinstance(self.parent, Widget):
                region = self.virtual_region
                line = Region(region.x, region.y + self.HEADER_LINES + row, region.width, 1)
                self.parent.scroll_to_region(line, animate=False)
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, delta: int) -> None:
        if self.matrix is None or not self.matrix.shape[0]:
            return
        rows = self.matrix.shape[0]
        self.cursor = max(0, min(rows - 1, (self.cursor or 0) + delta))

    def on_mouse_move(self, event: MouseMove) -> None:
        """Hovering a token row moves the cursor there (the issue's "hover over a token")."""
        if not self.can_focus or self.matrix is None:
            return
        row = event.y - self.HEADER_LINES
        if 0 <= row < self.matrix.shape[0] and row != self.cursor:
            self.cursor = row

    def palette(self) -> Palette:
        return Palette.from_variables(self.app.get_css_variables())

    def cell_width(self, width: int) -> int:
        slots = self.matrix.shape[1] if self.matrix is not None else 16
        return 2 if width >= self.LABEL_WIDTH + 2 + 2 * slots else 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.matrix is None:
            return 2  # title + note
        return self.HEADER_LINES + self.matrix.shape[0]

    def render(self) -> Text:
        if self.matrix is None:
            return Text.assemble((self.title + "\n", "bold"), (self.empty_note, "italic dim"))
        return render_heatmap(self.matrix, self.tokens, self.palette(), title=self.title,
                              cell=self.cell_width(self.size.width), label_width=self.LABEL_WIDTH,
                              cursor=self.cursor if self.has_focus else None,  # one cursor on screen
                              marked_slots=self.marked_slots, marked_rows=self.marked_rows)
