"""sha256 of every file a bundle's engine reads, written by the export into model.json and
checked when a bundle is opened.

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

from doctrans.engine.errors import BundleError
from doctrans.hashing import sha256_file

HASHES_KEY = "sha256"




def hashed_files(bundle: Path) -> list[str]:
    """The files of ``bundle`` whose digests model.json records: what the engine reads."""
    from doctrans.engine.bundle import GRAPH_FILES, MEMORY_INIT_FILE, SPM_FILE, WEIGHTS_FILE

    names = [*GRAPH_FILES.values(), SPM_FILE, MEMORY_INIT_FILE, WEIGHTS_FILE]
    return [n for n in names if (bundle / n).is_file()]


def bundle_hashes(bundle: Path) -> dict[str, str]:
    """``{file: sha256}`` for model.json (export.bundle writes it)."""
    return {name: sha256_file(bundle / name) for name in hashed_files(bundle)}


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


def verify_bundle_files(bundle: Path, raw: dict) -> None:
    """Check every digest model.json lists; one BundleError line naming the first file that differs."""
    listed = raw.get(HASHES_KEY)
    if listed is None:
        return  # exported before digests were recorded
    if not isinstance(listed, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in listed.items()):
        raise BundleError(f"{bundle}: model.json {HASHES_KEY!r} must map file names to hex digests")
    cache = _load_cache()
    changed = False
    for name, want in sorted(listed.items()):
        if not name or Path(name).name != name:
            raise BundleError(f"{bundle}: model.json {HASHES_KEY!r} names {name!r}, not a file of the bundle")
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
