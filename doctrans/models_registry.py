"""Installed model bundles: find one by language pair when ``--model`` is not given.

A bundle is a directory with a ``model.json`` holding at least ``src_lang`` and ``tgt_lang``
(see DESIGN.md, "Export"). Bundles are searched in the directories of ``$DOCTRANS_MODELS``
(os.pathsep-separated) first, then in ``doctrans/models/*/`` inside the package.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

PACKAGE_MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class BundleInfo:
    path: Path
    src_lang: str
    tgt_lang: str


def search_dirs() -> list[Path]:
    env = os.environ.get("DOCTRANS_MODELS", "")
    return [Path(p) for p in env.split(os.pathsep) if p] + [PACKAGE_MODELS]


def list_bundles() -> list[BundleInfo]:
    """Every readable bundle, in search order; unreadable model.json files are skipped."""
    found = []
    for root in search_dirs():
        for meta in sorted(root.glob("*/model.json")):
            try:
                data = json.loads(meta.read_text(encoding="utf-8"))
                found.append(BundleInfo(meta.parent, str(data["src_lang"]), str(data["tgt_lang"])))
            except (OSError, ValueError, KeyError, TypeError):
                continue
    return found


def default_bundle(src: str | None, tgt: str | None) -> Path | None:
    """The first installed bundle matching the given languages (None = any), or None."""
    for info in list_bundles():
        if (src is None or info.src_lang == src) and (tgt is None or info.tgt_lang == tgt):
            return info.path
    return None
