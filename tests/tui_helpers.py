"""Driving the Textual app in tests: waiting on a condition, a deterministic clock, plain
asyncio in a sync test (used by test_tui, test_tui_engine, test_bidirectional)."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Awaitable, Callable

from rich.console import Console
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


def screen_text(app: DoctransApp) -> str:
    """The screen as plain text, what ``export_screenshot`` draws without the styles."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines()) + "\n"
