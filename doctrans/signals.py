"""SIGTERM and SIGHUP behave like Ctrl-C during a translation; a second signal cannot crash it.

Why: SIGTERM is what ``timeout``, systemd, docker and CI send, and SIGHUP what a closed terminal
sends; Python's default for both is to die on the spot, skipping the job's save of the progress
file. Here they raise :class:`Terminated` (a KeyboardInterrupt, so everything that handles Ctrl-C
handles them), and once one signal has arrived further SIGINT/SIGTERM/SIGHUP are ignored while
the progress is saved and the process exits -- a double Ctrl-C used to interrupt the save and
print a traceback. The progress file is also written during the run (progress_store), so even a
signal that cannot be caught (kill -9) loses only the last few sentences.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_HANDLED = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None)


class Terminated(KeyboardInterrupt):
    """A termination signal (SIGTERM, SIGHUP, or SIGINT itself) arrived."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum  # the shell's convention: 130 for SIGINT, 143 for SIGTERM


def signal_name(exc: BaseException) -> str:
    return signal.Signals(exc.signum).name if isinstance(exc, Terminated) else "SIGINT"


@contextmanager
def graceful_signals() -> Iterator[None]:
    """Turn the first termination signal into :class:`Terminated`; ignore the ones after it.

    Only the main thread may set handlers: elsewhere (a TUI worker) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        if received:
            return  # already stopping: let the progress be saved
        received.append(signum)
        raise Terminated(signum)

    previous = {s: signal.signal(s, handler) for s in _HANDLED}
    try:
        yield
    finally:
        if not received:
            for s, h in previous.items():
                signal.signal(s, h)
        # After a signal the process is on its way out: the handlers stay, so a signal arriving
        # while the error is reported is ignored instead of printing a traceback.
