"""The sha256 of a file, read in chunks: documents (the resume check), bundle files (their
integrity), token-cache files and checkpoints (manifests, provenance) all use this one."""

from __future__ import annotations

import hashlib
from pathlib import Path


def sha256_file(path: Path) -> str:
    """Hex sha256 of the file at ``path`` (streamed: weights and corpora can be large)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()
