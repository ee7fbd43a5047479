"""Engine benchmarks, measured side by side in one run (a script, not a test).

    python -m benchmarks.bench_engine                       # brief tiny model, synthetic document
    python -m benchmarks.bench_engine --config small --steps 40
    python -m benchmarks.bench_engine --checkpoint runs/doc/best.pt --document dev_doc.txt

(a) throughput: generated tokens/s of the ONNX engine (fp32 and int8) vs PyTorch eager
    (``training.search``, the same memory loop) on the same model and document, beam 1 and 5;
(b) growth: the document repeated 1x, 2x, 4x, 8x through the ONNX engine, time per sentence and
    peak RSS, each size in its own process (so peak RSS is that run's own), as ratios to 1x.
    The memory model's per-sentence cost must not grow with the document.

Both frameworks get the same number of threads (``--threads``). Without ``--document`` the
document is synthetic sentences the brief model was trained on.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child_growth(bundle: str, sentences_file: str, repeat: int, beam: int, threads: int) -> None:
    """Runs in a fresh process without torch: time per sentence and peak RSS of the engine."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    sents = Path(sentences_file).read_text(encoding="utf-8").splitlines() * repeat
    tr = OnnxTranslator.load(bundle, beam_size=beam, threads=threads)
    tr.translate_document(sents[:2])  # warm-up: ORT allocates its arenas on the first runs
    t = time.perf_counter()
    session = tr.new_document()
    tokens = sum(len(session.translate(s).tgt_tokens) for s in sents)
    dt = time.perf_counter() - t
    rss_mb = _peak_rss_mb()
    print(json.dumps({"sentences": len(sents), "seconds": dt, "tokens": tokens, "rss_mb": rss_mb}))


def _peak_rss_mb() -> float:
    """This process's peak RSS. VmHWM, not ru_maxrss: Linux keeps ru_maxrss across execve, so a
    child would report its (torch-loaded) parent's peak."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _time(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--checkpoint", help="a trained checkpoint (default: train a brief one)")
    p.add_argument("--config", default="tiny", help="model config for the brief model (tiny|small)")
    p.add_argument("--steps", type=int, default=80, help="training steps of the brief model")
    p.add_argument("--document", help="a text file, one source sentence per line")
    p.add_argument("--sentences", type=int, default=12, help="synthetic document length")
    # One thread by default: on a shared CPU more threads measure the neighbours, not the engine.
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeats", type=int, default=2, help="timed runs per cell (best is kept)")
    p.add_argument("--growth-beam", type=int, default=5)
    p.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        b, f, r, k, th = args.child
        _child_growth(b, f, int(r), int(k), int(th))
        return 0

    import torch

    from doctrans.engine.onnx_engine import OnnxTranslator
    from export.bundle import export_checkpoint
    from tests.tiny_model import build_checkpoint, sentences
    from training.checkpoint import load_model
    from training.search import translate_documents

    torch.set_num_threads(args.threads)
    work = Path(tempfile.mkdtemp(prefix="doctrans-bench-"))
    if args.checkpoint:
        ckpt = Path(args.checkpoint)
    else:
        t = time.perf_counter()
        ckpt = build_checkpoint(work / "model.pt", steps=args.steps, config=args.config)
        print(f"trained a brief {args.config} model ({args.steps} steps, {time.perf_counter() - t:.0f}s)")
    doc = (Path(args.document).read_text(encoding="utf-8").splitlines() if args.document
           else sentences(args.sentences, seed=7))
    doc = [s for s in doc if s.strip()]
    bundles = {}
    for q in (None, "int8"):
        rep = export_checkpoint(ckpt, work / (q or "fp32"), quantize=q, sentences=doc[:4], beam=1)
        bundles[q or "fp32"] = rep
    print(bundles["int8"].summary())
    loaded = load_model(ckpt)
    cfg = loaded.config
    print(f"model: d={cfg.d_model} layers={cfg.enc_layers}+{cfg.dec_layers} vocab={cfg.vocab_size} "
          f"memory={cfg.mem_side}; document: {len(doc)} sentences; threads={args.threads}")

    # (a) throughput ------------------------------------------------------------------------
    print("\n(a) generated tokens/s, same document, same threads")
    print(f"{'beam':>4} {'pytorch':>10} {'onnx fp32':>10} {'onnx int8':>10} {'fp32/pt':>8} {'int8/fp32':>9}")
    for beam in (1, 5):
        tr = {k: OnnxTranslator.load(work / k, beam_size=beam, threads=args.threads) for k in ("fp32", "int8")}
        ids = [tr["fp32"].tokenizer.encode(s) for s in doc]
        out: dict[str, int] = {}

        def run_torch(beam: int = beam, ids: list = ids, out: dict = out) -> None:
            res = translate_documents(loaded.model, [ids], beam=beam)[0]
            out["pytorch"] = sum(len(h) + 1 for h in res.hypotheses)  # + EOS: every generated token

        def run_onnx(k: str, tr: dict = tr, out: dict = out) -> None:
            res = tr[k].translate_document(doc)
            out[k] = sum(len(r.tgt_tokens) for r in res)  # BOS + tokens = tokens + EOS

        rate = {}
        for name, fn in (("pytorch", run_torch), ("fp32", lambda: run_onnx("fp32")),
                         ("int8", lambda: run_onnx("int8"))):
            fn()  # warm-up
            rate[name] = out[name] / _time(fn, args.repeats)
        print(f"{beam:>4} {rate['pytorch']:>10.0f} {rate['fp32']:>10.0f} {rate['int8']:>10.0f} "
              f"{rate['fp32'] / rate['pytorch']:>7.2f}x {rate['int8'] / rate['fp32']:>8.2f}x")

    # (b) growth --------------------------------------------------------------------------------
    print(f"\n(b) document growth through the ONNX engine (fp32, beam {args.growth_beam}), one process per size")
    sf = work / "doc.txt"
    sf.write_text("\n".join(doc), encoding="utf-8")
    base = None
    # ms/token too: the translations of repeated sentences differ a little (they read a different
    # memory), so per-sentence time also moves with their lengths.
    print(f"{'size':>5} {'sentences':>9} {'ms/sentence':>11} {'ratio':>6} {'ms/token':>8} {'ratio':>6} "
          f"{'peak RSS MB':>11} {'ratio':>6}")
    for repeat in (1, 2, 4, 8):
        res = subprocess.run([sys.executable, "-m", "benchmarks.bench_engine", "--child", str(work / "fp32"),
                              str(sf), str(repeat), str(args.growth_beam), str(args.threads)],
                             check=True, capture_output=True, text=True)
        r = json.loads(res.stdout.strip().splitlines()[-1])
        per, per_tok = 1000 * r["seconds"] / r["sentences"], 1000 * r["seconds"] / r["tokens"]
        base = base or (per, per_tok, r["rss_mb"])
        print(f"{repeat:>4}x {r['sentences']:>9} {per:>11.2f} {per / base[0]:>6.2f} {per_tok:>8.2f} "
              f"{per_tok / base[1]:>6.2f} {r['rss_mb']:>11.1f} {r['rss_mb'] / base[2]:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
