"""Driving the Textual app in tests: waiting on a condition, a deterministic clock, plain
asyncio in a sync test (used by test_tui, test_tui_engine, test_bidirectional)."""

from __future__ import annotations

import asyncio
import html
import re
import time
from collections.abc import Awaitable, Callable

from rich.cells import cell_len
from textual.app import App
from textual.pilot import Pilot

from doctrans.tui.app import DoctransApp

TIMEOUT = 30.0


async def wait_until(pilot: Pilot, cond: Callable[[], bool], what: str = "condition") -> None:
    deadline = time.monotonic() + TIMEOUT
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)
    await pilot.pause()


def translated(app: DoctransApp) -> bool:
    return app.state is not None and app.state.complete and not app.running


def run(coro: Callable[[], Awaitable[None]]) -> None:
    """Plain asyncio in a sync test: no pytest-asyncio needed."""
    asyncio.run(coro())


class Clock:
    """A deterministic clock: each reading is one second later."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def screen_text(app: App[object]) -> str:
    """The screen as plain text: the characters of ``App.export_screenshot()`` (public API), one
    line per screen row, trailing blanks stripped. Modal screens show the screens under them, as
    on the terminal.

    The SVG holds one ``<text>`` per run of characters that is not all blanks, placed at its
    column (``x`` = column x cell width) on its row (``clip-path`` ``...-line-N``); the cell width
    is that of the runs themselves (``textLength`` = characters x cell width)."""
    width, height = app.size
    runs = [(float(x), float(length), int(row), html.unescape(raw.replace("&#160;", " ")))
            for x, length, row, raw in _TEXT_RUN.findall(app.export_screenshot())]
    cell = next((length / len(text) for _x, length, _row, text in runs if text), 1.0)
    rows = [[" "] * width for _ in range(height)]
    for x, _length, row, text in runs:
        col = round(x / cell)
        for ch in text.replace("\n", ""):
            w = cell_len(ch)
            if 0 <= row < height and col + w <= width:
                rows[row][col] = ch
                if w == 2:
                    rows[row][col + 1] = ""  # the right half of a wide character
            col += w
    return "\n".join("".join(cells).rstrip() for cells in rows) + "\n"


# A run of text in rich's SVG export (Console.export_svg), attributes in the order rich writes them.
_TEXT_RUN = re.compile(r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="([\d.]+)" '
                       r'clip-path="url\(#[^)]*-line-(\d+)\)">([^<]*)</text>')
