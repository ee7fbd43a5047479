"""Translation engines behind one interface (see :mod:`doctrans.engine.interface`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from doctrans.engine.errors import BundleError
from doctrans.engine.interface import (
    DocumentSession,
    MemoryState,
    SentenceAttention,
    SentenceResult,
    Translator,
)


def load_translator(bundle_dir: Path, **options: Any) -> Translator:
    """Open a model bundle with ONNX Runtime. Options: beam_size, length_penalty, max_length,
    return_attention, providers, and src/tgt: the direction of a bundle that translates several
    (required for one; see ``OnnxTranslator.load``). An SMDT bundle (model.json ``smdt``) gets its
    own engine, ``doctrans.engine.smdt_engine.SMDTTranslator``, with the same options."""
    from doctrans.bundle_manifest import BundleManifest

    if BundleManifest.read(Path(bundle_dir)).smdt is not None:
        from doctrans.engine.smdt_engine import SMDTTranslator

        return SMDTTranslator.load(Path(bundle_dir), **options)
    from doctrans.engine.onnx_engine import OnnxTranslator

    return OnnxTranslator.load(Path(bundle_dir), **options)


__all__ = [
    "BundleError",
    "DocumentSession",
    "MemoryState",
    "SentenceAttention",
    "SentenceResult",
    "Translator",
    "load_translator",
]
