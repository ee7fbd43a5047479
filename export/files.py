"""Files shared by the exporter (export.bundle) and the weight packer (export.share_weights):
the sentences a bundle is checked on, and the atomic replacement of a bundle directory."""

from __future__ import annotations

import contextlib
import shutil
import time
from pathlib import Path

# Checked through the exported graphs against PyTorch (export) and before/after re-packing.
DEFAULT_SENTENCES = [
    "The meeting has been moved to Thursday.",
    "她说她明天会来。",
    "Please send me the report before noon.",
    "我们下周再讨论这个问题。",
]


def replace_dir(new: Path, target: Path) -> None:
    """Move ``new`` to ``target``, replacing an older bundle there only once the new one is complete."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{time.time_ns()}")
        target.rename(old)
    try:
        new.rename(target)
    except OSError:
        if old is not None:
            old.rename(target)
        raise
    if old is not None:
        with contextlib.suppress(OSError):
            shutil.rmtree(old)
