"""The TUI's own widgets: the sentence rows of the main screen, the TM suggestions of the selected
sentence, and the heatmap view."""

from __future__ import annotations

import difflib
import re
from typing import ClassVar

import numpy as np
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import MouseMove
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from doctrans.documents.base import Block
from doctrans.tm.fuzzy import DEFAULT_THRESHOLD, FuzzyMatch
from doctrans.tui.heatmap import Palette, render_heatmap
from doctrans.tui.state import Sentence

# Short tags for the block kinds (doctrans.documents.base.BLOCK_KINDS), shown in the gutter of a
# block's first sentence: the document's structure at a glance without spending lines on it.
_KIND_TAGS = {"paragraph": "\u00b6", "list_item": "\u2022", "table_cell": "\u25a6", "header": "hdr",
              "footer": "ftr", "footnote": "fn", "endnote": "en", "comment": "cmt", "textbox": "box",
              "caption": "cap"}


WARNING_MARK = "\u26a0"  # ⚠, before a translation with sentence warnings (doctrans.report)
TM_MARK = "TM 100%"  # before a translation taken from the translation memory (exact match)
EDIT_MARK = "\u270e"  # ✎, before a person's translation (typed, or a TM suggestion they accepted)
IN_USE_MARK = "\u2713"  # ✓, after the TM suggestion that is the sentence's translation now
DIFF_STYLE = "reverse"  # the words of a suggestion's source that the sentence does not have
# Words compared by the suggestions' highlighting: a Han or kana character on its own (Chinese and
# Japanese put no spaces between words), else a run of word characters, a run of spaces, or one
# other character.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+|\s+|.", re.S)


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
            target = Text(f"{EDIT_MARK} ", style="bold") + target
            if sentence.tm_label:  # an accepted fuzzy match: "TM 87% ✎"
                target = Text(f"{sentence.tm_label} ", style="bold cyan") + target
    grid.add_row(gutter, source, target)
    return grid


def marked_differences(stored: str, sentence: str) -> Text:
    """``stored`` (a TM suggestion's source) with the words ``sentence`` does not have in that
    place marked (:data:`DIFF_STYLE`): what the stored translation may translate differently."""
    a, b = _WORD.findall(sentence), _WORD.findall(stored)
    out = Text()
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for word in b[j1:j2]:
            out.append(word, style=DIFF_STYLE if tag != "equal" and not word.isspace() else "")
    return out


def suggestions_view(index: int, source: str, matches: list[FuzzyMatch] | None, translation: str | None,
                     keys: int) -> Group:
    """The TM suggestions of sentence ``index``, laid out as the list's rows: the key (1..``keys``)
    in the gutter, the stored source (its differences from ``source`` marked) under the sentence,
    the score and the stored translation under the translation (``✓``: the one in use).
    ``matches`` None: still being looked up."""
    head = Text(f"TM suggestions for sentence {index + 1}", style="bold")
    if matches is None:
        return Group(head + Text(": looking up\u2026", style="italic dim"))
    if not matches:
        return Group(head + Text(f": no stored sentence is {DEFAULT_THRESHOLD:.0f}% similar or more", style="dim"))
    shown = min(keys, len(matches))
    head.append(" \u00b7 press " + ("1 to use it" if shown == 1 else f"1\u2013{shown} to use one"), style="dim")
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(width=3, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    for n, m in enumerate(matches[:keys], 1):
        target = Text(f"{m.label()} ", style="bold cyan")
        if translation is not None and m.target == translation:
            target.append(f"{IN_USE_MARK} ", style="bold")
        target.append(m.target)
        grid.add_row(Text(str(n), style="bold"), marked_differences(m.source, source), target)
    return Group(head, grid)


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
