"""The Textual TUI (``doctrans tui``): translate a document and inspect the memory's attention."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from doctrans.engine.interface import Translator

if TYPE_CHECKING:
    from doctrans.documents.base import Document
    from doctrans.tm.run import RunTM


def run_tui(translator: Translator, path: Path | None = None, src_lang: str | None = None,
            tm: RunTM | None = None, document: Document | None = None) -> None:
    """Run the app in this terminal until the user quits; ``src_lang`` (``--src``, or identified
    by the CLI) is the language of ``path``, so it is not identified again, and ``document`` is
    ``path`` if the CLI had to read it for that, so it is not read again."""
    from doctrans.tui.app import DoctransApp  # Textual is imported only when the TUI runs

    DoctransApp(translator, path, src_lang=src_lang, tm=tm, document=document).run()


__all__ = ["run_tui"]
