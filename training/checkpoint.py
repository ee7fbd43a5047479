"""Checkpoints: one ``.pt`` file holding a plain dict (nanoGPT style).

Keys: ``model`` (state dict), ``config`` (ModelConfig as dict), ``spm`` (the SentencePiece
model's bytes, so a checkpoint is self-contained), ``src_lang``/``tgt_lang`` (for a bidirectional
model the first of ``directions``, a list of [src, tgt] pairs; its source sentences start with
the target-language tag ``<2xx>``), ``stage``, ``step``, ``metrics`` (last dev scores), and for
resuming: ``optimizer``, ``scheduler``, ``data_state``, ``rng``, ``args``.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from training.context_cache import CacheConfig, CacheTransformer
from training.gtransformer import GTConfig, GTransformer
from training.model import MemoryTransformer, ModelConfig
from training.retrieval import TranslationMemory
from training.smdt import SMDT, SMDTConfig

# Every approach's model class, under the ``approach`` its config records (training.approaches).
DocumentModel = MemoryTransformer | GTransformer | CacheTransformer | SMDT
MODELS: dict[str, tuple[type[ModelConfig], type[DocumentModel]]] = {
    "memory": (ModelConfig, MemoryTransformer),
    "gtransformer": (GTConfig, GTransformer),
    "cache": (CacheConfig, CacheTransformer),
    "smdt": (SMDTConfig, SMDT),
}


class CheckpointError(Exception):
    """A checkpoint that is missing or not one of ours (one clear line for the user)."""


@dataclass
class LoadedModel:
    model: DocumentModel  # MemoryTransformer unless ``approach`` says otherwise
    config: ModelConfig
    spm_bytes: bytes
    src_lang: str
    tgt_lang: str
    raw: dict[str, Any]

    @property
    def approach(self) -> str:
        return str(self.raw["config"].get("approach", "memory"))

    @property
    def directions(self) -> list[tuple[str, str]]:
        """The (source, target) pairs the model translates (both ways for a bidirectional one)."""
        pairs = self.raw.get("directions")
        return [(str(a), str(b)) for a, b in pairs] if pairs else [(self.src_lang, self.tgt_lang)]

    def source_prefix(self, sp, src: str, tgt: str) -> list[int]:
        """Ids to put before every source sentence for ``src`` -> ``tgt``: the target-language tag
        (``<2en>``) of a bidirectional model, nothing for a one-direction one."""
        if "directions" not in self.raw:
            return []
        if (src, tgt) not in self.directions:
            pairs = ", ".join(f"{a}-{b}" for a, b in self.directions)
            raise CheckpointError(f"the model translates {pairs}, not {src}-{tgt}")
        tag = sp.piece_to_id(f"<2{tgt}>")
        if sp.id_to_piece(tag) != f"<2{tgt}>":
            raise CheckpointError(f"the model's SentencePiece vocabulary has no <2{tgt}> tag")
        return [int(tag)]


def save_checkpoint(path: Path, payload: dict[str, Any]) -> None:
    """Write atomically (temp file + rename): a crash mid-save never leaves a broken checkpoint."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.close(fd)
    try:
        torch.save(payload, tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_checkpoint(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"{path}: no such checkpoint")
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as e:  # torch raises many types for a bad file
        raise CheckpointError(f"{path}: not a readable checkpoint ({type(e).__name__})") from None
    if not isinstance(ckpt, dict) or not {"model", "config"} <= ckpt.keys():
        raise CheckpointError(f"{path}: not a doctrans checkpoint (no model/config)")
    return ckpt


def load_model(path: str | Path, require: str | None = None) -> LoadedModel:
    """The model of a checkpoint of any approach, in eval mode on the CPU (the only loader: export,
    evaluation, dev loss and the memory probe all read checkpoints through it). ``require``: the
    approach the caller works with (``"memory"`` for the memory probe); another is refused."""
    ckpt = read_checkpoint(path)
    approach = ckpt["config"].get("approach", "memory")
    if approach not in MODELS:
        raise CheckpointError(f"{path}: unknown approach {approach!r} (known: {', '.join(MODELS)})")
    if require is not None and approach != require:
        raise CheckpointError(f"{path}: a --approach {approach} checkpoint; this needs a {require} model")
    config_class, model_class = MODELS[approach]
    cfg = config_class.from_dict(ckpt["config"])
    model = model_class(cfg)  # type: ignore[arg-type]  # MODELS pairs each model with its own config class
    try:
        model.load_state_dict(ckpt["model"])
    except RuntimeError as e:  # weights that do not fit the recorded config
        raise CheckpointError(f"{path}: weights do not match its config ({str(e).splitlines()[0]})") from None
    if isinstance(model, SMDT) and "tm" in ckpt:  # the pairs it retrieves from (the training corpus)
        model.tm = TranslationMemory.from_payload(ckpt["tm"])
    model.eval()
    return LoadedModel(model, cfg, ckpt.get("spm", b""), ckpt.get("src_lang", "src"),
                       ckpt.get("tgt_lang", "tgt"), ckpt)
