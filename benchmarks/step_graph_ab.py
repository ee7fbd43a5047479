"""The one-step decoder's three forms side by side (export.step_graph), same weights, one run.

    python -m benchmarks.step_graph_ab                                   # shipped zh-en, int8 and fp32
    python -m benchmarks.step_graph_ab --bundle doctrans/models/zh-en-bidirectional --sentences 120 --rounds 5

The arms are exported from the bundle's own weights (training.bundle_weights.recover) by
``export.bundle.export_model``, once per form of the step (``step=``: traced, fused with stacked
inputs, fused with per-layer inputs and memory_read.onnx), each with the export's checks, so the
bundles differ in their step decoder only. Then:

- the step graph alone: ms a call at beam 5 (B=5 rows, a 15-token cache, a 20-token source),
  median of interleaved rounds;
- the engine on TVsub dev sentences in document order (the bundle's source language side),
  memory on, beam 5 and 1, one thread, rounds interleaved in alternating order: generated tok/s,
  the median of the per-round ratios (range), and how many sentences came out token-identical.
  Three arms: the traced step with the memory written from decoder_full's states (the engine
  before the fused step), the fused stacked step (format 2) and the fused per-layer step
  (format 3), both as the engine runs them (states from the search, no decoder_full); the last
  column is the per-layer arm over the stacked one, round by round.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DEV = REPO.parent / "shared" / "data" / "tvsub-zh-en" / "dev.jsonl.xz"


def dev_side(n: int, lang: str, path: Path = DEV) -> list[str]:
    from training.data import read_documents

    out: list[str] = []
    for doc in read_documents(path, "zh", "en"):
        out += [s for s in (doc.src if lang == "zh" else doc.tgt) if s.strip()]
        if len(out) >= n:
            break
    return out[:n]


def build(bundle: Path, work: Path, quantize: str | None) -> dict[str, Path]:
    from export.bundle import export_model
    from training.bundle_weights import recover
    from training.checkpoint import LoadedModel

    rec = recover(bundle)
    raw: dict[str, Any] = {"config": rec.config.to_dict(), "src_lang": rec.src_lang, "tgt_lang": rec.tgt_lang}
    if rec.directions:
        raw["directions"] = rec.directions
    out = {}
    for arm in STEP_ARMS:
        dest = work / f"{arm}-{quantize or 'fp32'}"
        loaded = LoadedModel(rec.model, rec.config, rec.spm_bytes, rec.src_lang, rec.tgt_lang, raw)
        export_model(loaded, dest, quantize, beam=1, step=arm)
        out[arm] = dest
    return out


def time_step(arms: dict[str, Path], rounds: int, calls: int = 200) -> dict[str, float]:
    import onnxruntime as ort

    from export.bundle import example_inputs
    from export.graphs import graph_io
    from training.bundle_weights import recover

    model = recover(arms["traced"]).model.eval()
    ins, _ = graph_io(model)["decoder"]
    stacked = {n: x.numpy() for n, x in zip(ins, example_inputs(model, 5, 20, 15, 3, seed=2)["decoder"], strict=True)}
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sessions, feeds = {}, {}
    for a, p in arms.items():
        sessions[a] = ort.InferenceSession(str(p / "decoder.onnx"), so, providers=["CPUExecutionProvider"])
        feeds[a] = engine_feed(sessions[a], p, stacked)
    times: dict[str, list[float]] = {a: [] for a in arms}
    for _ in range(rounds):
        for a, s in sessions.items():
            feed = feeds[a]
            t = time.perf_counter()
            for _ in range(calls):
                s.run(None, feed)
            times[a].append((time.perf_counter() - t) / calls * 1e3)
    return {a: float(np.median(v)) for a, v in times.items()}


def engine_feed(step: Any, bundle: Path, stacked: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The step's inputs as the engine feeds them (export.step_graph.step_feed; memory_read.onnx
    runs once per sentence: not timed)."""
    import onnxruntime as ort

    from export.step_graph import step_feed

    read_path = bundle / "memory_read.onnx"
    read = ort.InferenceSession(str(read_path), providers=["CPUExecutionProvider"]) if read_path.is_file() else None
    return step_feed(step, read, stacked)


# The one-step decoder's forms (export.step_graph.STEP_FORMS), oldest first.
STEP_ARMS = ("traced", "stacked", "per_layer")
# arm -> (bundle, return_attention: decoder_full runs for the memory update)
ENGINE_ARMS = {"traced": ("traced", True), "fused stacked, search states": ("stacked", False),
               "fused per-layer, search states": ("per_layer", False)}


def time_engine(arms: dict[str, Path], sents: list[str], beam: int, rounds: int) -> str:
    from doctrans.engine.onnx_engine import OnnxTranslator

    trs = {a: OnnxTranslator.load(arms[bundle], src="zh", beam_size=beam, threads=1, return_attention=full)
           for a, (bundle, full) in ENGINE_ARMS.items()}
    for tr in trs.values():
        tr.translate_document(sents[:2])  # ORT allocates its arenas on the first runs
    times: dict[str, list[float]] = {a: [] for a in trs}
    toks: dict[str, list[list[str]]] = {}
    for r in range(rounds):
        order = list(trs.items()) if r % 2 == 0 else list(reversed(trs.items()))
        for a, tr in order:
            t = time.perf_counter()
            session = tr.new_document()
            toks[a] = [session.translate(s).tgt_tokens for s in sents]
            times[a].append(time.perf_counter() - t)
    cells = []
    first = next(iter(trs))
    for a in trs:
        rate = sum(len(t) for t in toks[a]) / float(np.median(times[a]))
        ratios = [t / x for t, x in zip(times[first], times[a], strict=True)]
        same = sum(x == y for x, y in zip(toks[first], toks[a], strict=True))
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        cells.append(f"{rate:,.0f} ({np.median(ratios):.2f}x, {spread}; {same}/{len(sents)})")
    # The last arm against the one before it, round by round (the change this benchmark measures now).
    prev, last = list(trs)[-2:]
    ratios = [p / x for p, x in zip(times[prev], times[last], strict=True)]
    same = sum(x == y for x, y in zip(toks[prev], toks[last], strict=True))
    cells.append(f"{np.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}; {same}/{len(sents)})")
    return f"| {beam} | " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bundle", type=Path, default=REPO / "doctrans" / "models" / "zh-en-bidirectional")
    ap.add_argument("--sentences", type=int, default=120)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quantize", nargs="+", default=["int8", "fp32"], choices=["int8", "fp32"])
    args = ap.parse_args()
    import json

    src = json.loads((args.bundle / "model.json").read_text(encoding="utf-8"))["src_lang"]
    sents = dev_side(args.sentences, src)
    with tempfile.TemporaryDirectory() as tmp:
        for q in args.quantize:
            arms = build(args.bundle, Path(tmp), None if q == "fp32" else q)
            step = time_step(arms, args.rounds)
            print(f"\n{args.bundle.name} {q}: step graph at beam 5 (ms a call): "
                  + ", ".join(f"{a} {step[a]:.3f}" for a in STEP_ARMS)
                  + f"; per-layer over stacked {step['stacked'] / step['per_layer']:.2f}x")
            print("tok/s (speed-up over the traced step, range; sentences identical to it); the last two arms")
            print("| beam | " + " | ".join(ENGINE_ARMS) + " | per-layer over stacked |")
            print("|---" * (len(ENGINE_ARMS) + 2) + "|")
            for beam in (5, 1):
                print(time_engine(arms, sents, beam, args.rounds))


if __name__ == "__main__":
    main()
