"""The default model shipped in the package, one direction at a time, for the tests that need a
real vocabulary and real translations (not the search path: ``$DOCTRANS_MODELS`` is ignored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.models_registry import PACKAGE_MODELS, read_installed


def shipped_bundle(src: str, tgt: str) -> Path:
    """The packaged bundle that translates ``src`` into ``tgt`` (one bundle may hold both directions)."""
    for path in sorted(PACKAGE_MODELS.iterdir()):
        bundle = read_installed(path)
        if bundle is not None and (src, tgt) in bundle.directions:
            return path
    raise AssertionError(f"no {src}->{tgt} bundle ships in {PACKAGE_MODELS}")


def shipped_translator(src: str, tgt: str, **options: Any) -> OnnxTranslator:
    return OnnxTranslator.load(shipped_bundle(src, tgt), src=src, tgt=tgt, **options)
