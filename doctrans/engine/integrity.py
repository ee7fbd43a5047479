"""sha256 of every file a bundle's engine reads, recorded in model.json by the export
(``doctrans.bundle_manifest.record_hashes``) and checked here when a bundle is opened.

Why: a ``weights.bin`` replaced by garbage of the same size passes every structural check (file
sizes, graph inputs, memory shapes) and translates silently into garbage. model.json lists
``"sha256": {file name: hex digest}`` for the graphs, the weights, the SentencePiece model and
the initial memory (not for model.json itself, nor for documentation such as MODEL_CARD.md).

Hashing ~14 MB on every start would cost ~30 ms per file read from a cold cache; the fast path
keeps each verified digest in a small cache keyed by the file's real path, size and mtime, so a
bundle that has not changed since it was last verified is checked with one ``stat`` per file.
Bundles exported before this (no ``sha256`` key) load as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from doctrans.bundle_manifest import HASHES_KEY, BundleManifest, bundle_hashes, check_hashes, hashed_files
from doctrans.engine.errors import BundleError
from doctrans.hashing import sha256_file

# Kept importable from here (the tests and older callers); they live with model.json's other parts.
__all__ = ["HASHES_KEY", "bundle_hashes", "hashed_files", "verify_bundle_files"]


def _cache_file() -> Path:
    root = os.environ.get("DOCTRANS_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "doctrans" / "verified-files.json"


def _load_cache() -> dict[str, list]:
    try:
        data = json.loads(_cache_file().read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_cache(cache: dict[str, list]) -> None:
    """Best effort (a read-only home just means hashing again next time), atomic."""
    path = _cache_file()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".verified-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(cache, f)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def verify_bundle_files(bundle: Path, listed: dict[str, Any] | BundleManifest) -> None:
    """Check every digest model.json lists (``listed``: the bundle's manifest, or a parsed
    model.json); one BundleError line naming the first file that differs."""
    hashes = listed.hashes if isinstance(listed, BundleManifest) else check_hashes(listed, bundle)
    if hashes is None:
        return  # exported before digests were recorded
    cache = _load_cache()
    changed = False
    for name, want in sorted(hashes.items()):
        path = bundle / name
        try:
            st = path.stat()
        except OSError:
            raise BundleError(f"{bundle}: incomplete bundle, {name} is missing") from None
        key = str(path.resolve())
        hit = cache.get(key)
        if isinstance(hit, list) and hit[:2] == [st.st_size, st.st_mtime_ns] and len(hit) == 3:
            have = hit[2]
        else:
            have = sha256_file(path)
            cache[key] = [st.st_size, st.st_mtime_ns, have]
            changed = True
        if have != want.lower():
            raise BundleError(f"{bundle}: {name} is not the file this bundle was exported with (its sha256 differs "
                              "from model.json: damaged or replaced); copy the bundle again or re-export it")
    if changed:
        _save_cache(cache)
