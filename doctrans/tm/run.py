"""The translation memory of one ``doctrans translate`` run: the ``--tm`` files (read and checked
before any model is loaded), the local TM with ``--local-tm``/``--tm-update``, and one lookup per
language pair the run translates."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from doctrans.tm.fuzzy import DEFAULT_THRESHOLD, FuzzyMatch
from doctrans.tm.readers import TMFile, read_tm_file
from doctrans.tm.store import TMStore, default_tm_path


class RunTM:
    def __init__(self, files: list[Path], *, use_local: bool = False, update_local: bool = False) -> None:
        self.files: list[TMFile] = [read_tm_file(p) for p in files]
        self.local = TMStore(default_tm_path()) if use_local or update_local else None
        self.use_local = use_local
        self._memory: dict[tuple[str, str], TMStore] = {}
        self._loading = threading.Lock()  # the TUI asks from two worker threads at once

    @property
    def active(self) -> bool:
        return bool(self.files) or self.use_local

    def _stores(self, src: str, tgt: str) -> list[TMStore]:
        """The stores a lookup for ``src`` -> ``tgt`` asks, in order: the ``--tm`` files (loaded
        into an in-memory store once per pair), then the local TM."""
        with self._loading:
            if self.files and (src, tgt) not in self._memory:
                store = TMStore(":memory:")
                for f in self.files:
                    store.add(f.pairs(src, tgt), src, tgt, origin=str(f.path))
                self._memory[(src, tgt)] = store
        return ([self._memory[(src, tgt)]] if self.files else []) + \
               ([self.local] if self.use_local and self.local is not None else [])

    def lookup(self, src: str, tgt: str) -> Callable[[str], str | None] | None:
        """Source sentence -> stored translation for ``src`` -> ``tgt``: the ``--tm`` files first,
        then the local TM; None without a TM."""
        if not self.active:
            return None
        stores = self._stores(src, tgt)

        def find(source: str) -> str | None:
            for store in stores:
                hit = store.lookup(source, src, tgt)
                if hit is not None:
                    return hit
            return None

        return find

    def suggest(self, src: str, tgt: str, threshold: float = DEFAULT_THRESHOLD,
                limit: int = 3) -> Callable[[str], list[FuzzyMatch]] | None:
        """Source sentence -> the most similar stored segments (fuzzy matches, best first, over
        every store of the run); None without a TM. The TUI shows them beside a sentence."""
        if not self.active:
            return None
        stores = self._stores(src, tgt)

        def find(source: str) -> list[FuzzyMatch]:
            found = [m for store in stores for m in store.fuzzy(source, src, tgt, threshold, limit)]
            return sorted(found, key=lambda m: -m.score)[:limit]

        return find

    def retriever(self, src: str, tgt: str, k: int,
                  threshold: float = DEFAULT_THRESHOLD) -> Callable[[str], list[tuple[str, str]]] | None:
        """Source sentence -> the (source, target) of its ``k`` best fuzzy matches scoring at least
        ``threshold``, best first: the pairs a retrieval-trained (SMDT) bundle reads with the
        sentence (doctrans.engine.smdt_engine). None without a TM or with ``k`` 0."""
        find = self.suggest(src, tgt, threshold, k) if k > 0 else None
        if find is None:
            return None
        return lambda source: [(m.source, m.target) for m in find(source)]

    def update(self, pairs: list[tuple[str, str]], src: str, tgt: str, origin: str) -> int:
        """``--tm-update``: add a finished document's sentence pairs to the local TM."""
        return self.local.add(pairs, src, tgt, origin) if self.local is not None else 0
