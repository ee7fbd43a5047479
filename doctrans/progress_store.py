"""Durable, validated progress files and the temp files of a translation run.

Why a separate module: the translate job must not lose finished work on *any* exit -- Ctrl-C,
SIGTERM/SIGHUP (what ``timeout``, systemd, docker and CI send), a late error, or kill -9, which
runs no handler at all. So progress is written *as it goes* (:class:`Checkpointer`), not only
when an exception reaches the job, and every write is atomic (temp file, fsync, ``os.replace``,
fsync of the folder): a crash mid-write leaves the previous progress file, never a torn one.

Temp files carry the writer's process id in their name (``.NAME.<pid>-XXXX.tmp``), so a later
run can tell the leftovers of a dead run (removed, :func:`clean_stale_temps`) from the files of a
run that is still going (kept).

A progress file is untrusted input on load (it may be damaged, truncated or edited):
:meth:`SavedProgress.load` checks every key, type and length and reports any problem as one
:class:`~doctrans.errors.UserError` line, never a library exception or advice about pickles.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from doctrans.engine.interface import MemoryState
from doctrans.errors import UserError

PROGRESS_VERSION = 1
# Between checkpoints during a run. Overridable; 0 = after every sentence.
DEFAULT_INTERVAL_S = 2.0
INTERVAL_ENV = "DOCTRANS_PROGRESS_SECONDS"
# Saving rewrites the whole file, which grows with the document: never spend more than about
# 1/SAVE_COST_FACTOR of the run on it (a 100,000-sentence text with a fast engine stays linear).
SAVE_COST_FACTOR = 10
# Temp files of older doctrans versions had no pid; left alone this long, they are leftovers.
_LEGACY_STALE_S = 3600


def temp_prefix(target: Path) -> str:
    """Prefix of the temp files written for ``target``: hidden, named after it, with our pid."""
    return f".{target.name}.{os.getpid()}-"


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def clean_stale_temps(target: Path) -> list[Path]:
    """Remove temp files of ``target`` left by runs that died (kill -9, power loss); return them.

    Files of a live process (same name, its pid running) are kept: two runs writing the same
    output would otherwise delete each other's files.
    """
    removed: list[Path] = []
    pattern = re.compile(re.escape(f".{target.name}.") + r"(?:(\d+)-)?[^/]*\.tmp$")
    try:
        candidates = list(target.parent.glob(f".{glob_escape(target.name)}.*.tmp"))
    except OSError:
        return removed
    for p in candidates:
        m = pattern.match(p.name)
        if not m:
            continue
        if m.group(1) is not None:
            stale = not _pid_alive(int(m.group(1)))
        else:
            try:
                stale = time.time() - p.stat().st_mtime > _LEGACY_STALE_S
            except OSError:
                continue
        if stale:
            with contextlib.suppress(OSError):
                p.unlink()
                removed.append(p)
    return removed


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@dataclass
class SavedProgress:
    input_sha256: str
    # The direction translated (of a bidirectional bundle too): a resume in the other direction
    # would mix languages in one output, so it is refused.
    src_lang: str
    tgt_lang: str
    translations: list[str]
    source_crcs: list[int]
    memory: MemoryState | None

    def save(self, path: Path) -> None:
        """Atomically replace ``path`` (fsynced: it survives a crash right after)."""
        meta = {"version": PROGRESS_VERSION, "input_sha256": self.input_sha256,
                "src_lang": self.src_lang, "tgt_lang": self.tgt_lang,
                "translations": self.translations}
        arrays: dict[str, np.ndarray] = {
            # JSON as UTF-8 bytes: no pickle needed to load it back, and 1 byte per ASCII char.
            "meta": np.frombuffer(json.dumps(meta, ensure_ascii=False).encode("utf-8"), dtype=np.uint8),
            "source_crcs": np.asarray(self.source_crcs, dtype=np.uint32),
        }
        for side, arr in (self.memory or {}).items():
            arrays[f"memory.{side}"] = np.asarray(arr)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=temp_prefix(path), suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, allow_pickle=False, **arrays)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)

    @classmethod
    def load(cls, path: Path) -> SavedProgress:
        """Read and fully validate a progress file; any problem is one UserError line."""

        def damaged(why: str) -> UserError:
            return UserError(f"{path}: progress file is damaged ({why}); delete it to start over")

        try:
            z = np.load(path, allow_pickle=False)
            if not isinstance(z, np.lib.npyio.NpzFile):  # a bare .npy array
                raise damaged("not a progress archive")
            with z:
                names = set(z.files)
                for key in ("meta", "source_crcs"):
                    if key not in names:
                        raise damaged(f"no {key!r} entry")
                raw_meta, raw_crcs = z["meta"], z["source_crcs"]
                memory = {k.split(".", 1)[1]: np.array(z[k]) for k in z.files if k.startswith("memory.")}
        except UserError:
            raise
        except ValueError as e:
            # numpy's message for object arrays suggests allow_pickle=True: never advise loading
            # pickles from a file that may have been tampered with.
            why = ("not a file doctrans writes: unknown format, or Python objects" if "pickle" in str(e)
                   else str(e))
            raise damaged(why) from None
        except (OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
            raise damaged(str(e) or type(e).__name__) from None
        if raw_meta.dtype != np.uint8 or raw_meta.ndim != 1:
            raise damaged("its 'meta' entry is not UTF-8 JSON bytes")
        if raw_crcs.dtype != np.uint32 or raw_crcs.ndim != 1:
            raise damaged("its 'source_crcs' entry is not a list of checksums")
        try:
            meta = json.loads(raw_meta.tobytes().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise damaged(f"its 'meta' entry is not valid JSON: {e}") from None
        if not isinstance(meta, dict):
            raise damaged("its 'meta' entry is not a JSON object")
        if meta.get("version") != PROGRESS_VERSION:
            raise UserError(f"{path}: progress file from another doctrans version; delete it to start over")
        for key in ("input_sha256", "src_lang", "tgt_lang"):
            if not isinstance(meta.get(key), str) or not meta[key]:
                raise damaged(f"'{key}' is missing or not a string")
        translations = meta.get("translations")
        if not isinstance(translations, list) or not all(isinstance(t, str) for t in translations):
            raise damaged("'translations' is not a list of strings")
        if len(translations) != len(raw_crcs):
            raise damaged(f"{len(translations)} translations but {len(raw_crcs)} source checksums")
        for side, arr in memory.items():
            if arr.dtype.kind != "f" or arr.ndim != 3 or not np.isfinite(arr).all():
                raise damaged(f"memory side {side!r} is not a finite float array of 3 dimensions")
        return cls(meta["input_sha256"], meta["src_lang"], meta["tgt_lang"], translations,
                   [int(x) for x in raw_crcs], memory or None)


def checkpoint_interval() -> float:
    raw = os.environ.get(INTERVAL_ENV)
    if raw is None:
        return DEFAULT_INTERVAL_S
    try:
        return max(0.0, float(raw))
    except ValueError:
        raise UserError(f"{INTERVAL_ENV}={raw!r}: must be a number of seconds") from None


class Checkpointer:
    """Writes the progress file during a run: at most every ``interval`` seconds, and never
    spending more than ~1/SAVE_COST_FACTOR of the time on it. ``state()`` gives the progress to
    save, or None when nothing new was translated."""

    def __init__(self, path: Path, state: Callable[[], SavedProgress | None], interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path, self.state, self.clock = path, state, clock
        self.interval = checkpoint_interval() if interval is None else interval
        self.next_at = clock() + self.interval
        self.saves = 0

    def tick(self) -> None:
        """Called after each finished sentence."""
        if self.clock() >= self.next_at:
            self.save()

    def save(self) -> bool:
        t0 = self.clock()
        progress = self.state()
        if progress is None:
            return False
        progress.save(self.path)
        cost = self.clock() - t0
        self.saves += 1
        # interval 0 asks for every sentence (tests, or a user who wants it): no cost bound then.
        self.next_at = self.clock() + (max(self.interval, SAVE_COST_FACTOR * cost) if self.interval else 0.0)
        return True
