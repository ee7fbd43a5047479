"""A bundle whose memory is untrained, made to read nothing: memory on translates as memory off.

    python -m training.memory_silence doctrans/models/zh-en-bidirectional -o ~/runs/silenced

A device lease trains the sentence model well in minutes, but its memory stage (stage 2) runs only
a few steps in what is left (one step, 2026-11-27), and a memory read that has not learned
anything is noise added to every sentence: the bundle that run brought back scored 0.6 (zh->en) and
0.2 (en->zh) s-BLEU lower on TVsub dev with its memory on than as the sentence model it is. The memory units now start
with their read's output projection at zero (training.model.MemoryUnit), so a new stage 2 starts
from the sentence model; this module does the same to a bundle trained before that: its weights
read back (training.from_bundle, int8 dequantized), every memory read's output projection set to
zero, exported again with the bundle's quantization and decoding settings (export.bundle, with its
parity checks). The memory is still updated sentence by sentence and can be trained on from this
bundle (training/recipes/cpu_memory.sh): the read learns from the first step.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import torch

from doctrans.bundle_manifest import BundleManifest, edit
from doctrans.errors import UserError
from export.bundle import export_checkpoint
from training.checkpoint import save_checkpoint
from training.from_bundle import FromBundleError, checkpoint_from_bundle

READ_PROJECTION = (".memory.read.o.weight", ".memory.read.o.bias")


def silenced_checkpoint(bundle: Path) -> dict:
    """The bundle's checkpoint payload (memory kept) with every memory read's output projection zero."""
    payload = checkpoint_from_bundle(bundle, mem_side="keep")
    zeroed = [name for name in payload["model"] if name.endswith(READ_PROJECTION)]
    if not zeroed:
        raise UserError(f"{bundle}: the bundle has no memory to silence")
    for name in zeroed:
        payload["model"][name] = torch.zeros_like(payload["model"][name])
    return payload


def silence(bundle: Path, out: Path, sentences: list[str] | None = None) -> str:
    """Write the silenced bundle to ``out``; returns the export's summary."""
    payload = silenced_checkpoint(bundle)  # first: a directory that is not a bundle is a UserError
    meta = BundleManifest.read(bundle)
    decoding = meta.decoding
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = Path(tmp) / "silenced.pt"
        save_checkpoint(ckpt, payload)
        quantize = "int8" if meta.quantization == "int8" else None
        report = export_checkpoint(ckpt, out, quantize=quantize, sentences=sentences,
                                   no_repeat_ngram=decoding.get("no_repeat_ngram", 0),
                                   length_penalty=decoding.get("length_penalty", 1.0),
                                   max_repeat_run=decoding.get("max_repeat_run", 0))
    # Where the weights came from: the export's provenance names only the temporary checkpoint.
    def record(m: BundleManifest) -> None:
        m.provenance = {**(m.provenance or {}),
                        "memory_silenced": {"by": "training.memory_silence", "from": meta.provenance}}

    edit(out, record)
    return report.summary()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bundle", type=Path)
    p.add_argument("-o", "--out", type=Path, required=True, help="directory for the silenced bundle")
    a = p.parse_args(argv)
    try:
        print(silence(a.bundle, a.out))
    except (UserError, FromBundleError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
