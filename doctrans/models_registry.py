"""Installed model bundles: find one by language pair when ``--model`` is not given.

A bundle is a directory with a ``model.json`` holding at least ``src_lang`` and ``tgt_lang``
(written by export.bundle, read strictly by doctrans.engine.bundle), and for a model that
translates several directions (zh->en and en->zh in one bundle) ``directions``; each direction is
offered on its own, so one bidirectional bundle serves Chinese and English documents. Bundles
are searched in the directories of ``$DOCTRANS_MODELS`` (os.pathsep-separated) first, then in
``doctrans/models/*/`` inside the package.

The registry reads model.json leniently (``doctrans.bundle_manifest.read_json``: it only routes
documents); the engine checks the bundle strictly when it loads it
(``doctrans.bundle_manifest.BundleManifest.read``), so a damaged ``directions`` is reported there,
as one error line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doctrans.bundle_manifest import MODEL_JSON, read_json
from doctrans.engine.errors import BundleError
from doctrans.errors import UserError
from doctrans.language_id import same_language

PACKAGE_MODELS = Path(__file__).resolve().parent / "models"

Pair = tuple[str, str]  # (source language, target language)


@dataclass(frozen=True)
class InstalledBundle:
    """One bundle directory and the directions it translates (the first is src_lang -> tgt_lang)."""

    path: Path
    directions: tuple[Pair, ...]


@dataclass(frozen=True)
class BundleOffer:
    """One direction a bundle offers: what ``--src``/``--tgt`` and language identification pick."""

    path: Path
    src_lang: str
    tgt_lang: str


def search_dirs() -> list[Path]:
    env = os.environ.get("DOCTRANS_MODELS", "")
    return [Path(p) for p in env.split(os.pathsep) if p] + [PACKAGE_MODELS]


def directions_of(meta: dict[str, Any]) -> tuple[Pair, ...]:
    """The (src, tgt) pairs of a parsed model.json; a ``directions`` the registry cannot read
    counts as the one direction src_lang -> tgt_lang (loading the bundle then says what is wrong)."""
    first = (str(meta["src_lang"]), str(meta["tgt_lang"]))
    listed = meta.get("directions")
    if not isinstance(listed, list) or not listed:
        return (first,)
    pairs = []
    for entry in listed:
        if not (isinstance(entry, dict) and isinstance(entry.get("src"), str) and isinstance(entry.get("tgt"), str)):
            return (first,)
        pairs.append((entry["src"], entry["tgt"]))
    return tuple(dict.fromkeys(pairs))


def read_installed(path: Path) -> InstalledBundle | None:
    """The bundle at ``path``, or None when it has no readable model.json."""
    try:
        return InstalledBundle(path, directions_of(read_json(path)))
    except (BundleError, KeyError, TypeError):
        return None


def list_bundles() -> list[InstalledBundle]:
    """Every readable bundle, in search order; unreadable model.json files are skipped."""
    found = []
    for root in search_dirs():
        for meta in sorted(root.glob(f"*/{MODEL_JSON}")):
            bundle = read_installed(meta.parent)
            if bundle is not None:
                found.append(bundle)
    return found


def offers(bundles: list[InstalledBundle]) -> list[BundleOffer]:
    """Each direction of each bundle, in search order."""
    return [BundleOffer(b.path, src, tgt) for b in bundles for src, tgt in b.directions]


def source_languages(model: Path | None, tgt: str | None = None) -> set[str]:
    """The languages the run can translate from (into ``tgt``, when given): those of ``model``'s
    directions, or of every installed bundle's."""
    if model is not None:
        installed = read_installed(model)
        choices = offers([installed]) if installed is not None else []
    else:
        choices = offers(list_bundles())
    return {o.src_lang for o in choices if _matches(o, None, tgt)}


def _matches(offer: BundleOffer, src: str | None, tgt: str | None) -> bool:
    return (src is None or same_language(offer.src_lang, src)) and (tgt is None or same_language(offer.tgt_lang, tgt))


def matching_bundles(src: str | None, tgt: str | None,
                     bundles: list[InstalledBundle] | None = None) -> list[BundleOffer]:
    """The directions of installed bundles (or ``bundles``) for the given languages (None = any),
    in search order: a bidirectional zh<->en bundle is found for zh->en and for en->zh."""
    return [o for o in offers(list_bundles() if bundles is None else bundles) if _matches(o, src, tgt)]


def default_bundle(src: str | None, tgt: str | None) -> Path | None:
    """The first installed bundle matching the given languages (None = any), or None."""
    found = matching_bundles(src, tgt)
    return found[0].path if found else None


def describe(found: list[BundleOffer]) -> str:
    return ", ".join(f"{b.src_lang}->{b.tgt_lang}" for b in found) or "none"


def describe_bundle(bundle: InstalledBundle) -> str:
    return ", ".join(f"{s}->{t}" for s, t in bundle.directions)


def pick_bundle(src: str | None, tgt: str | None, *, detected: bool = False) -> BundleOffer:
    """The bundle direction that translates ``src`` (given or ``detected`` in the document) into ``tgt``.

    Several directions from one source language (en->zh and en->de) need ``--tgt``; the first one
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
    installed = describe(offers(bundles))
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


def pick_direction(bundle: Path, src: str | None, tgt: str | None, *, detected: bool = False) -> Pair | None:
    """The direction of the ``--model`` bundle for ``src`` (given or ``detected``) -> ``tgt``.

    None for a bundle with one direction (or no readable model.json): it translates what it
    translates, and a ``--src``/``--tgt`` that does not fit it is reported by the caller, as
    before bundles had directions. Raises UserError when a bidirectional bundle cannot tell.
    """
    installed = read_installed(bundle)
    if installed is None or len(installed.directions) < 2:
        return None
    choices = offers([installed])
    found = [o for o in choices if _matches(o, src, tgt)]
    if found and (len(found) == 1 or (src and tgt)):
        return found[0].src_lang, found[0].tgt_lang
    offered = describe(choices)
    if src is None:
        raise UserError(f"cannot tell the document's language (too little text); pass --src "
                        f"({bundle} translates {offered})")
    if found:
        raise UserError(f"{bundle} translates from {src} into several languages ({describe(found)}); "
                        "choose one with --tgt")
    how = "the document looks like" if detected else "--src"
    pair = f"{src}->{tgt}" if tgt else f"from {src}"
    hint = "; pass --src if the guess is wrong" if detected else ""
    raise UserError(f"{how} {src}, and {bundle} does not translate {pair} (it translates {offered}){hint}")
