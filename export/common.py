"""What the exports of every approach share (export.bundle, export.smdt_bundle): the error, the
report, the opset, the parity bound and the special ids a bundle records."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from doctrans.bundle_manifest import edit, record_hashes
from doctrans.errors import UserError
from export.files import replace_dir
from export.share_weights import SharingReport
from training.checkpoint import LoadedModel

OPSET = 17  # LayerNormalization is a single op from 17 on, which ORT fuses well
# The IR version of graphs doctrans builds itself: opset 17 needs IR 8, and every ONNX Runtime from
# 1.18 (the oldest doctrans supports) reads it; onnx.helper.make_model would stamp the installed
# onnx's newest (14 with onnx 1.23), which the GPU image's ONNX Runtime 1.30 refuses to load.
IR_VERSION = 8


class ExportError(UserError):
    """The export failed or the exported graphs disagree with the checkpoint."""


@dataclass
class ExportReport:
    out_dir: Path
    quantize: str | None
    files: dict[str, int] = field(default_factory=dict)  # file -> bytes
    graph_diffs: dict[str, float] = field(default_factory=dict)  # "graph.output" -> max |Δ| (random inputs)
    doc_logit_diff: float = 0.0
    doc_memory_diff: float = 0.0
    sentences: int = 0
    greedy_identical: bool = False
    beam: int = 5
    beam_identical: int = 0  # sentences whose beam-search output matched PyTorch (all directions)
    directions: int = 1  # the document is checked through each direction of the model
    int8: dict[str, Any] = field(default_factory=dict)
    with_pairs: int | None = None  # SMDT: checked instances that had retrieved pairs (None: not SMDT)
    weights: SharingReport | None = None
    seconds: float = 0.0

    def summary(self) -> str:
        lines = [f"bundle {self.out_dir} ({'int8' if self.quantize else 'fp32'}, {self.seconds:.1f}s)"]
        lines += [f"  {n:<20} {b / 1e6:8.2f} MB" for n, b in sorted(self.files.items())]
        if self.weights:
            lines.append(f"  {self.weights.summary()}")
        worst = max(self.graph_diffs.items(), key=lambda kv: kv[1])
        lines.append(f"  graphs vs PyTorch, random inputs: max |Δ| {worst[1]:.2e} ({worst[0]})")
        runs = self.sentences * self.directions
        beam = f"; beam {self.beam} identical {self.beam_identical}/{runs}" if self.beam > 1 else ""
        each = f" x {self.directions} directions" if self.directions > 1 else ""
        if self.with_pairs is not None:
            lines.append(f"  {self.sentences} one-sentence instances ({self.with_pairs} with retrieved pairs): greedy "
                         f"identical={self.greedy_identical}, max |Δ| logits {self.doc_logit_diff:.2e}{beam}")
        else:
            lines.append(f"  {self.sentences}-sentence document{each}: greedy identical={self.greedy_identical}, "
                         f"max |Δ| logits {self.doc_logit_diff:.2e}, memory {self.doc_memory_diff:.2e}{beam}")
        if self.int8:
            q = self.int8
            lines.append(f"  int8: {q['bytes'] / 1e6:.2f} MB vs fp32 {q['fp32_bytes'] / 1e6:.2f} MB; "
                         f"greedy same as fp32 on {q['same_sentences']}/{q['sentences']} sentences; "
                         f"max |Δ| logits {q['logit_diff']:.2e}")
        return "\n".join(lines)


def checkpoint_spm(loaded: LoadedModel):
    import sentencepiece as spm

    return spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)


def special_ids(loaded: LoadedModel) -> dict[str, int]:
    """pad/bos/eos as the model was trained with them, unk as the tokenizer assigns it; the
    SentencePiece model must agree with the model on the others (the engine feeds its ids)."""
    cfg, sp = loaded.config, checkpoint_spm(loaded)
    ids = {"pad": cfg.pad_id, "bos": cfg.bos_id, "eos": cfg.eos_id, "unk": sp.unk_id()}
    for key, got in (("pad", sp.pad_id()), ("bos", sp.bos_id()), ("eos", sp.eos_id())):
        if got != ids[key]:
            raise ExportError(f"the checkpoint's SentencePiece model has {key} id {got}, the model {ids[key]}; "
                              "they must agree")
    return ids


def allowed_diff(ref: np.ndarray, tol: float) -> float:
    """Allowed max |Δ|: ``tol`` relative to the output's scale (logits are ~10, memories ~1)."""
    return tol * max(1.0, float(np.abs(ref).max()) if ref.size else 1.0)


def finish_bundle(final: Path, out_dir: Path, decoding: dict[str, Any], report: ExportReport, started: float,
                  log: Callable[[str], None]) -> ExportReport:
    """The last steps of every export, in this order: the decoding defaults into model.json, the
    digests of every file the engine reads (after any model.json edit: the engine refuses a file
    that changed since, doctrans.engine.integrity), the checked bundle moved to ``out_dir``."""
    if decoding:
        edit(final, lambda m: setattr(m, "decoding", {**m.decoding, **decoding}))
    record_hashes(final)
    report.files = {f.name: f.stat().st_size for f in final.iterdir()}
    replace_dir(final, out_dir)
    report.seconds = time.time() - started
    log(report.summary())
    return report
