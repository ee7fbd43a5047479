"""The TM store: SQLite, one row per (source language, target language, normalised source).

The table is ``WITHOUT ROWID`` with that triple as its primary key, so an exact lookup is one
B-tree search (benchmarks/tm_lookup.py measures it at 10 k, 100 k and 1 M segments). Adding a
segment that is already there replaces its translation: the newest translation wins. No FTS5 or
n-gram index yet (exact matches only; fuzzy matching is a later deliverable).

The local TM lives in ``$DOCTRANS_TM_DIR/tm.sqlite`` if that is set, else under the XDG data
directory: ``$XDG_DATA_HOME/doctrans/tm/tm.sqlite`` (an absolute ``XDG_DATA_HOME`` only, as the
XDG spec asks), else ``~/.local/share/doctrans/tm/tm.sqlite``. ``TMStore(":memory:")`` is the
in-memory store a ``--tm`` file is loaded into for one run.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from doctrans.errors import UserError
from doctrans.tm.normalise import clean_value, normalise_key, primary_language

TM_FILE = "tm.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS segments (
    src_lang TEXT NOT NULL,
    tgt_lang TEXT NOT NULL,
    key TEXT NOT NULL,
    source TEXT NOT NULL,
    target TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT '',
    added REAL NOT NULL,
    PRIMARY KEY (src_lang, tgt_lang, key)
) WITHOUT ROWID;
"""


def default_tm_path() -> Path:
    """Where the local TM is (see the module docstring); the directory may not exist yet."""
    override = os.environ.get("DOCTRANS_TM_DIR")
    if override:
        return Path(override).expanduser() / TM_FILE
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "doctrans" / "tm" / TM_FILE


class TMStore:
    """Exact-match TM over SQLite. ``path``: a database file (created with its directory when
    ``create``), or ``":memory:"``."""

    def __init__(self, path: Path | str, *, create: bool = True) -> None:
        self.path = path
        where = str(path)
        try:
            if where != ":memory:":
                p = Path(path)
                if not p.exists() and not create:
                    raise UserError(f"{p}: no translation memory yet (add one with `doctrans tm add FILE` or "
                                    "`doctrans translate ... --tm-update`)")
                p.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(where, timeout=30)
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            raise UserError(f"{path}: not a usable doctrans translation memory ({e}); move it away to start "
                            "a new one") from None
        except OSError as e:
            raise UserError(f"{path}: cannot create the translation memory there ({e.strerror or e})") from None

    def close(self) -> None:
        self.db.close()

    def add(self, pairs: Iterable[tuple[str, str]], src_lang: str, tgt_lang: str, origin: str = "") -> int:
        """Add (source, target) segments for ``src_lang`` -> ``tgt_lang``; returns how many rows
        were written (empty segments skipped). One transaction: all of them or none."""
        src, tgt = primary_language(src_lang), primary_language(tgt_lang)
        now = time.time()
        rows = []
        for source, target in pairs:
            key, value = normalise_key(source), clean_value(target)
            if key and value:
                rows.append((src, tgt, key, source, value, origin, now))
        try:
            with self.db:
                self.db.executemany("INSERT OR REPLACE INTO segments VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.DatabaseError as e:
            raise UserError(f"{self.path}: cannot write to the translation memory ({e})") from None
        return len(rows)

    def lookup(self, source: str, src_lang: str, tgt_lang: str) -> str | None:
        """The stored translation of ``source`` (exact match of the normalised key), or None."""
        row = self.db.execute("SELECT target FROM segments WHERE src_lang = ? AND tgt_lang = ? AND key = ?",
                              (primary_language(src_lang), primary_language(tgt_lang),
                               normalise_key(source))).fetchone()
        return None if row is None else str(row[0])

    def counts(self) -> list[tuple[str, str, int]]:
        """(source language, target language, segments) for every pair in the store."""
        rows = self.db.execute("SELECT src_lang, tgt_lang, COUNT(*) FROM segments GROUP BY src_lang, tgt_lang "
                               "ORDER BY src_lang, tgt_lang").fetchall()
        return [(str(s), str(t), int(n)) for s, t, n in rows]

    def __len__(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM segments").fetchone()[0])
