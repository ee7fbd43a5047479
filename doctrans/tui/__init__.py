"""The Textual TUI (``doctrans tui``): translate a document and inspect the memory's attention."""

from __future__ import annotations

from pathlib import Path

from doctrans.engine.interface import Translator


def run_tui(translator: Translator, path: Path | None = None, src_lang: str | None = None) -> None:
    """Run the app in this terminal until the user quits; ``src_lang`` (``--src``, or identified
    by the CLI) is the language of ``path``, so it is not identified again."""
    from doctrans.tui.app import DoctransApp  # Textual is imported only when the TUI runs

    DoctransApp(translator, path, src_lang=src_lang).run()


__all__ = ["run_tui"]
