"""A shipped bundle back into a training checkpoint, its vocabulary grown by the verbatim placeholders.

The built-in bundles were trained before the placeholders ``⦅1⦆…⦅16⦆`` existed: their SentencePiece
model has no such pieces, so the engine cannot mask a sentence's numbers and codes for them
(doctrans.engine.protect) and only the check after translation guards the spans. Training a new
model from scratch costs hours of CPU; teaching the shipped one to copy placeholders costs minutes.
This module writes the starting point of that fine-tuning:

- the weights, read out of the bundle's ONNX graphs (training.bundle_weights; from an int8 bundle,
  dequantized);
- the SentencePiece model with the missing placeholder pieces appended as user-defined symbols
  (ids after the last piece, so every existing id keeps its meaning and its embedding);
- one new embedding row per placeholder (the embedding is tied with the output projection, so the
  row is both what the model reads and the logit weight of writing it), started at the embedding
  of the placeholder's last digit (the pieces the model already copies best) plus noise, so the
  placeholders start out as "a number, to be copied" yet distinct from one another.

By default the sentence-level model is written (``--mem-side none``: stage 1 of the recipe, the
memory units left out); the fine-tuned model then gets its memory from a short document stage,
as every built-in model does (training/recipes/placeholder_finetune.sh)::

    python -m training.from_bundle doctrans/models/zh-en-bidirectional --out ~/runs/ph/zh-en/init.pt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import torch
from sentencepiece import sentencepiece_model_pb2

from doctrans.errors import UserError
from doctrans.verbatim import MAX_PLACEHOLDERS, placeholder
from training.bundle_weights import RecoveryError, recover
from training.checkpoint import save_checkpoint
from training.model import MemoryTransformer, ModelConfig

# Protobuf-generated at run time: no attributes for the type checker to see.
spm_pb: Any = sentencepiece_model_pb2
NOISE = 0.5  # of the embedding rows' standard deviation: placeholders distinct, still digit-like


class FromBundleError(Exception):
    """A bundle that cannot be turned into a checkpoint (one clear line for the user)."""


def add_placeholder_pieces(spm_bytes: bytes, count: int = MAX_PLACEHOLDERS) -> tuple[bytes, list[int]]:
    """The SentencePiece model with ``⦅1⦆…⦅count⦆`` as user-defined pieces (the type the engine's
    tokenizer counts, doctrans.engine.tokenizer.placeholder_count), appended after the existing
    pieces; returns the new model's bytes and the ids of the pieces it added (none if it had them)."""
    proto = spm_pb.ModelProto()
    proto.ParseFromString(spm_bytes)
    have = {p.piece for p in proto.pieces}
    added: list[int] = []
    for k in range(1, count + 1):
        piece = placeholder(k)
        if piece in have:
            continue
        new = proto.pieces.add()
        new.piece, new.score, new.type = piece, 0.0, spm_pb.ModelProto.SentencePiece.USER_DEFINED
        added.append(len(proto.pieces) - 1)
    return proto.SerializeToString(), added


def _digit_id(spm_bytes: bytes, k: int) -> int:
    """The id of the piece for the last digit of ``k`` (``split_digits`` vocabularies have one)."""
    proto = spm_pb.ModelProto()
    proto.ParseFromString(spm_bytes)
    digit = str(k)[-1]
    for i, p in enumerate(proto.pieces):
        if p.piece == digit:
            return i
    raise FromBundleError(f"the SentencePiece model has no piece {digit!r} to start the placeholders from")


def grow_vocabulary(model: MemoryTransformer, cfg: ModelConfig, spm_bytes: bytes, added: list[int],
                    seed: int = 1) -> tuple[MemoryTransformer, ModelConfig]:
    """A model with one embedding row per added piece (see the module docstring); the rest of the
    weights unchanged."""
    if not added:
        return model, cfg
    if added != list(range(cfg.vocab_size, cfg.vocab_size + len(added))):
        raise FromBundleError("the placeholder pieces must follow the model's vocabulary")
    old = model.embed.weight.detach()
    gen = torch.Generator().manual_seed(seed)
    rows = []
    for k in range(1, len(added) + 1):
        base = old[_digit_id(spm_bytes, k)]
        rows.append(base + NOISE * old.std() * torch.randn(old.shape[1], generator=gen))
    grown_cfg = ModelConfig.from_dict({**cfg.to_dict(), "vocab_size": cfg.vocab_size + len(added)})
    grown = MemoryTransformer(grown_cfg).eval()
    state = model.state_dict()
    state["embed.weight"] = torch.cat([old, torch.stack(rows)])
    grown.load_state_dict(state)
    return grown, grown_cfg


def checkpoint_from_bundle(bundle: str | Path, placeholders: int = MAX_PLACEHOLDERS, mem_side: str = "none",
                           dropout: float = 0.1, seed: int = 1) -> dict:
    """The checkpoint payload (training.checkpoint's format) of ``bundle`` with ``placeholders``
    placeholder pieces; ``dropout``: the training setting to record (a bundle is exported without)."""
    bundle = Path(bundle)
    try:
        rec = recover(bundle, None if mem_side == "keep" else mem_side)
    except UserError as e:  # not a bundle, or one this doctrans cannot read: its own one-line message
        raise FromBundleError(str(e)) from None
    except (RecoveryError, OSError, KeyError, ValueError) as e:
        raise FromBundleError(f"{bundle}: cannot read its weights back ({e})") from None
    spm_bytes, added = add_placeholder_pieces(rec.spm_bytes, placeholders)
    model, cfg = grow_vocabulary(rec.model, rec.config, spm_bytes, added, seed)
    cfg = ModelConfig.from_dict({**cfg.to_dict(), "dropout": dropout})
    stage = "sentence" if cfg.mem_side == "none" else "document"
    payload = {"model": model.state_dict(), "config": cfg.to_dict(), "spm": spm_bytes,
               "src_lang": rec.src_lang, "tgt_lang": rec.tgt_lang, "stage": stage, "step": 0,
               "metrics": {}, "from_bundle": {"path": str(bundle), "quantized": rec.quantized,
                                              "placeholders_added": len(added)}}
    if rec.directions:  # a bidirectional bundle (the built-in one): its tags stay in the vocabulary
        payload["directions"] = rec.directions
    return payload


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bundle", type=Path, help="a bundle directory (model.json, the ONNX graphs)")
    p.add_argument("--out", type=Path, required=True, help="checkpoint to write (.pt)")
    p.add_argument("--spm-out", type=Path, help="also write the grown SentencePiece model here "
                   "(for training.prepare_data --spm)")
    p.add_argument("--placeholders", type=int, default=MAX_PLACEHOLDERS, help="placeholder pieces to have")
    p.add_argument("--mem-side", default="none", choices=["none", "keep"],
                   help="none: the sentence-level model (stage 1); keep: with the bundle's memory units")
    p.add_argument("--dropout", type=float, default=0.1, help="the dropout training will use")
    a = p.parse_args(argv)
    try:
        payload = checkpoint_from_bundle(a.bundle, a.placeholders, a.mem_side, a.dropout)
    except FromBundleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    save_checkpoint(a.out, payload)
    if a.spm_out:
        a.spm_out.parent.mkdir(parents=True, exist_ok=True)
        a.spm_out.write_bytes(payload["spm"])
    info = payload["from_bundle"]
    print(f"{a.out}: {payload['config']['vocab_size']:,} pieces ({info['placeholders_added']} placeholders added), "
          f"stage {payload['stage']}, from {'an int8' if info['quantized'] else 'an fp32'} bundle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
