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

from doctrans.errors import UserError
from doctrans.language_id import same_language

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


def matching_bundles(src: str | None, tgt: str | None, bundles: list[BundleInfo] | None = None) -> list[BundleInfo]:
    """Installed bundles (or ``bundles``) for the given languages (None = any), in search order."""
    return [info for info in (list_bundles() if bundles is None else bundles)
            if (src is None or same_language(info.src_lang, src))
            and (tgt is None or same_language(info.tgt_lang, tgt))]


def default_bundle(src: str | None, tgt: str | None) -> Path | None:
    """The first installed bundle matching the given languages (None = any), or None."""
    found = matching_bundles(src, tgt)
    return found[0].path if found else None


def describe(bundles: list[BundleInfo]) -> str:
    return ", ".join(f"{b.src_lang}->{b.tgt_lang}" for b in bundles) or "none"


def pick_bundle(src: str | None, tgt: str | None, *, detected: bool = False) -> BundleInfo:
    """The bundle that translates ``src`` (given or ``detected`` in the document) into ``tgt``.

    Several bundles from one source language (en->zh and en->de) need ``--tgt``; the first one
    in search order wins only when the user named both languages (a $DOCTRANS_MODELS bundle
    shadows the built-in one for the same pair). Raises UserError with the installed pairs.
    """
    bundles = list_bundles()
    if not bundles:
        raise UserError("no default model is installed; pass --model BUNDLE, a directory "
                        "written by `doctrans export` (model.json, spm.model, *.onnx)")
    found = matching_bundles(src, tgt, bundles)
    if found and (len({(b.src_lang, b.tgt_lang) for b in found}) == 1 or (src and tgt)):
        return found[0]
    installed = describe(bundles)
    if src is None:  # language unknown and no single answer
        raise UserError(f"cannot tell the document's language (too little text); pass --src "
                        f"(installed models: {installed})")
    if found:
        raise UserError(f"several installed models translate from {src}: {describe(found)}; "
                        "choose one with --tgt")
    how = "the document looks like" if detected else "--src"
    pair = f"{src}->{tgt}" if tgt else f"from {src}"
    hint = "; pass --src if the guess is wrong, or --model BUNDLE" if detected else "; or pass --model BUNDLE"
    raise UserError(f"{how} {src}, and no installed model translates {pair} "
                    f"(installed: {installed}){hint}")
