"""The TM store: SQLite, one row per (source language, target language, normalised source).

The table is ``WITHOUT ROWID`` with that triple as its primary key, so an exact lookup is one
B-tree search (benchmarks/tm_lookup.py measures it at 10 k, 100 k and 1 M segments). Adding a
segment that is already there replaces its translation: the newest translation wins.

Fuzzy matches (:meth:`TMStore.fuzzy`, scored as doctrans.tm.fuzzy explains) read an FTS5 trigram
index of the keys, ``fuzzy_index``. It is built the first time a store is asked for a fuzzy match
(one ``INSERT ... SELECT``; a store that only ever answers exact lookups, such as a ``--tm`` file
loaded for one run, never pays for it) and kept up to date by :meth:`TMStore.add` from then on.

The local TM lives in ``$DOCTRANS_TM_DIR/tm.sqlite`` if that is set, else under the XDG data
directory: ``$XDG_DATA_HOME/doctrans/tm/tm.sqlite`` (an absolute ``XDG_DATA_HOME`` only, as the
XDG spec asks), else ``~/.local/share/doctrans/tm/tm.sqlite``. ``TMStore(":memory:")`` is the
in-memory store a ``--tm`` file is loaded into for one run.

A store may be used from several threads (the TUI's memory loop looks up exact matches in one
worker thread while another finds the selected sentence's fuzzy matches, and the local TM is
opened by the CLI's thread): the connection is opened with ``check_same_thread=False`` and every
method holds the store's lock, so one thread's statements never interleave with another's.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from doctrans.errors import UserError
from doctrans.tm.fuzzy import (
    DEFAULT_THRESHOLD,
    SHORTLIST,
    FuzzyMatch,
    best_matches,
    gram_counts,
    length_bounds,
    stretch_queries,
    trigrams,
)
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
# The fuzzy-match index (see the module docstring): the keys again, as trigrams; ``pair`` is
# "src>tgt", stored but not indexed. ``fuzzy_grams`` holds each trigram's document frequency:
# FTS5's own (fts5vocab) is counted by walking the trigram's whole posting list, ~0.5 ms for a
# common one, which would be most of a lookup.
_FUZZY_SCHEMA = """
CREATE VIRTUAL TABLE fuzzy_index USING fts5(key, pair UNINDEXED, tokenize = 'trigram');
CREATE TABLE fuzzy_grams (gram TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO fuzzy_index (key, pair) SELECT key, src_lang || '>' || tgt_lang FROM segments;
"""
_ADD_GRAMS = "INSERT INTO fuzzy_grams VALUES (?, ?) ON CONFLICT (gram) DO UPDATE SET df = df + excluded.df"


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _locked(method: Callable[Concatenate[TMStore, _P], _R]) -> Callable[Concatenate[TMStore, _P], _R]:
    """Run ``method`` holding the store's lock (see the module docstring)."""
    @wraps(method)
    def locked(self: TMStore, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self._lock:
            return method(self, *args, **kwargs)
    return locked


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
        self._lock = threading.RLock()
        where = str(path)
        try:
            if where != ":memory:":
                p = Path(path)
                if not p.exists() and not create:
                    raise UserError(f"{p}: no translation memory yet (add one with `doctrans tm add FILE` or "
                                    "`doctrans translate ... --tm-update`)")
                p.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(where, timeout=30, check_same_thread=False)
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            raise UserError(f"{path}: not a usable doctrans translation memory ({e}); move it away to start "
                            "a new one") from None
        except OSError as e:
            raise UserError(f"{path}: cannot create the translation memory there ({e.strerror or e})") from None

    @_locked
    def close(self) -> None:
        self.db.close()

    @_locked
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
                if self._has_fuzzy_index():
                    self._index_new_keys(rows)
                self.db.executemany("INSERT OR REPLACE INTO segments VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.DatabaseError as e:
            raise UserError(f"{self.path}: cannot write to the translation memory ({e})") from None
        return len(rows)

    def _has_fuzzy_index(self) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'fuzzy_index'").fetchone() is not None

    def _index_new_keys(self, rows: list[tuple[str, str, str, str, str, str, float]]) -> None:
        """Put the keys of ``rows`` that the store does not hold yet into the fuzzy index (a key
        already there keeps its index entry: only its translation changes)."""
        new: dict[tuple[str, str, str], None] = {}
        for src, tgt, key, *_ in rows:
            if (src, tgt, key) not in new and self._segment(src, tgt, key) is None:
                new[(src, tgt, key)] = None
        self.db.executemany("INSERT INTO fuzzy_index (key, pair) VALUES (?, ?)",
                            [(key, f"{src}>{tgt}") for src, tgt, key in new])
        self.db.executemany(_ADD_GRAMS, gram_counts(key for _, _, key in new).items())

    def _build_fuzzy_index(self) -> None:
        with self.db:
            self.db.executescript(_FUZZY_SCHEMA)
            keys = (str(k) for (k,) in self.db.execute("SELECT key FROM segments"))
            self.db.executemany(_ADD_GRAMS, gram_counts(keys).items())

    @_locked
    def fuzzy(self, source: str, src_lang: str, tgt_lang: str, threshold: float = DEFAULT_THRESHOLD,
              limit: int = 3) -> list[FuzzyMatch]:
        """The stored segments most similar to ``source`` scoring at least ``threshold`` (0-100),
        best first, at most ``limit``; an exact match scores 100. Builds the fuzzy index on the
        first call (see the module docstring)."""
        key = normalise_key(source)
        src, tgt = primary_language(src_lang), primary_language(tgt_lang)
        if len(key) < 3:  # no trigram: too short to be "similar" to anything but itself
            row = self._segment(src, tgt, key)
            return [FuzzyMatch(*row, 100.0)] if row is not None else []
        try:
            if not self._has_fuzzy_index():
                self._build_fuzzy_index()
            grams = trigrams(key.lower())
            marks = ",".join("?" * len(grams))
            frequency = dict(self.db.execute(f"SELECT gram, df FROM fuzzy_grams WHERE gram IN ({marks})", grams))
            queries = stretch_queries(grams, frequency)
            if not queries:
                return []
            # Segments matching the most stretches first, counted by SQLite (rowids only: no stored
            # text is read until the few best are known).
            union = " UNION ALL ".join(["SELECT rowid AS r FROM fuzzy_index WHERE fuzzy_index MATCH ?"] * len(queries))
            best = [int(r) for (r,) in self.db.execute(
                f"SELECT r FROM ({union}) GROUP BY r ORDER BY count(*) DESC LIMIT {SHORTLIST}", queries)]
            lo, hi = length_bounds(len(key), threshold)
            pair = f"{src}>{tgt}"
            found = [str(k) for k, p in self.db.execute(
                f"SELECT key, pair FROM fuzzy_index WHERE rowid IN ({','.join('?' * len(best))})", best)
                if p == pair and lo <= len(k) <= hi]
            matches = []
            for k, s in best_matches(key, found, threshold, limit):
                row = self._segment(src, tgt, k)
                if row is not None:
                    matches.append(FuzzyMatch(*row, s))
            return matches
        except sqlite3.DatabaseError as e:
            raise UserError(f"{self.path}: cannot search the translation memory ({e})") from None

    @_locked
    def lookup(self, source: str, src_lang: str, tgt_lang: str) -> str | None:
        """The stored translation of ``source`` (exact match of the normalised key), or None."""
        row = self._segment(primary_language(src_lang), primary_language(tgt_lang), normalise_key(source))
        return None if row is None else row[1]

    def _segment(self, src: str, tgt: str, key: str) -> tuple[str, str] | None:
        """(stored source, stored target) of one normalised key: the primary-key search."""
        row = self.db.execute("SELECT source, target FROM segments WHERE src_lang = ? AND tgt_lang = ? AND key = ?",
                              (src, tgt, key)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    @_locked
    def counts(self) -> list[tuple[str, str, int]]:
        """(source language, target language, segments) for every pair in the store."""
        rows = self.db.execute("SELECT src_lang, tgt_lang, COUNT(*) FROM segments GROUP BY src_lang, tgt_lang "
                               "ORDER BY src_lang, tgt_lang").fetchall()
        return [(str(s), str(t), int(n)) for s, t, n in rows]

    @_locked
    def __len__(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM segments").fetchone()[0])
