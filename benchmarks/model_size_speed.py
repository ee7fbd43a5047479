"""Model size vs CPU speed of candidate shipped configs: randomly initialised models, real bundles.

    python -m benchmarks.model_size_speed                          # the default candidates below
    python -m benchmarks.model_size_speed --configs base:8+2:16000 base:6+2:16000:d_model=384,n_heads=6,d_ff=1536
    python -m benchmarks.model_size_speed --spm-data ../shared/data/tvsub-zh-en/train.jsonl.xz --spm-langs zh en

A config is ``PRESET:ENC+DEC:VOCAB[:key=value,...]`` -- ``training.model.make_config(PRESET,
enc_layers=ENC, dec_layers=DEC, vocab_size=VOCAB, mem_side="both", **overrides)`` (memory on the
top layer of each side, 16 slots, the presets' defaults). Defaults: the shipped reference
``small:3+3:10000`` (d=256), and at d=512 (``base``: 8 heads, d_ff 2048) 6+6, 6+2, 8+2, 6+3, 10+2
with vocabulary 16000, plus 6+2 and 8+2 with 24000.

Per config:

1. **Model.** ``MemoryTransformer`` with its random initialisation (the bundle's size and the
   CPU time do not depend on the values). One change: the EOS row of the tied embedding is set
   to zero, so EOS's logit is exactly 0 -- the median of ~V random logits -- and a random model
   never ends a sentence early (see 4). Parameters are counted per group: tied embedding,
   encoder (its layers without their memory unit, and the final norm), decoder (likewise), memory
   (every memory unit: M_0, read and write attention, its FFN and norms).
2. **Checkpoint.** Written with ``training.checkpoint.save_checkpoint`` in the layout train.py
   writes (``model``, ``config``, ``spm``, languages, stage, step). The exporter uses the
   SentencePiece model only through ``doctrans.engine.tokenizer.Tokenizer``, which requires
   ``len(spm) <= vocab_size`` (the embedding must cover every piece); a smaller SPM is accepted.
   So by default every candidate ships the repository's real zh-en SPM (10000 pieces,
   ``doctrans/models/zh-en-bidirectional/spm.model``): the weights are exactly those of a vocab-``VOCAB``
   model, and only ``spm.model`` is smaller than a real ``VOCAB``-piece one (the SPM is ~40
   bytes a piece: +0.24 MB at 16000, +0.55 MB at 24000). With ``--spm-data`` a real SPM of each
   vocabulary size is trained on that corpus (``training.spm``) and shipped instead.
3. **Bundles.** ``export.bundle.export_checkpoint`` -- the function behind ``doctrans export``,
   with all its checks (graphs vs PyTorch on random inputs, a document through the memory loop
   token-identical to ``training.search``, int8 re-check after weight sharing) -- once as fp32
   and once with ``quantize="int8"``. A random model's logits can tie closely enough that the
   greedy fp32-vs-PyTorch check flips a token; such an export is retried with another seed.
   Reported: total bytes of each bundle, ``weights.bin``, and where the vocabulary-shaped tensors
   went (dtype, bytes): whether the int8 bundle keeps an fp32 embedding for the ``Gather`` next to
   the int8 copy of the output projection.
4. **Speed.** The int8 bundle (what ships) through the engine itself, ``OnnxTranslator.load(...,
   threads=1)`` (ORT ``intra_op_num_threads=1``, sequential), beam 1 and beam 5: one document of
   40 sentences, each 20 random source ids + EOS, through ``OnnxDocumentSession.translate_ids``
   -- encoder, beam search over the one-step decoder with its KV-cache reorders, decoder_full
   over the chosen hypothesis, memory update: every graph and the numpy search a real sentence
   runs. The length is forced with the engine's own ``max_length`` = 21: a real 20-token
   translation takes 21 decoder steps (20 tokens, then the step that emits EOS); here the 21st
   step emits a token instead of EOS (EOS never wins, see 1), so the search runs exactly 21 steps
   at full beam width -- real beams also stay K wide to the end -- and decoder_full reads 22
   positions instead of 21 (one position of one teacher-forced pass, <1% of the sentence). Every
   hypothesis is checked to have 21 tokens. Real beam search can run a step or two past the best
   hypothesis' EOS until K hypotheses have finished; that is not included (``--tgt-tokens`` raises
   the length). SentencePiece encode/decode (microseconds a sentence) is skipped.
   Time: process CPU time (``time.process_time``; one ORT thread runs on the calling thread, so
   this is the work done, whatever the machine's load) and wall time, best of ``--repeats``
   documents after a warm-up.

Writes ``results.json`` and the bundles into ``--work`` (bundles are deleted unless ``--keep``).
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SHIPPED_SPM = REPO / "doctrans" / "models" / "zh-en-bidirectional" / "spm.model"

DEFAULT_CONFIGS = [
    "small:3+3:10000",
    "base:6+6:16000",
    "base:6+2:16000",
    "base:6+2:24000",
    "base:8+2:16000",
    "base:8+2:24000",
    "base:6+3:16000",
    "base:10+2:16000",
]


@dataclass
class Candidate:
    spec: str
    preset: str
    enc: int
    dec: int
    vocab: int
    overrides: dict[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        extra = "".join(f" {k}={v}" for k, v in self.overrides.items())
        return f"{self.preset} {self.enc}+{self.dec} v{self.vocab // 1000}k{extra}"

    @property
    def slug(self) -> str:
        extra = "".join(f"_{k}{v}" for k, v in self.overrides.items())
        return f"{self.preset}_{self.enc}x{self.dec}_v{self.vocab}{extra}"


def parse_candidate(spec: str) -> Candidate:
    parts = spec.split(":")
    if len(parts) not in (3, 4) or "+" not in parts[1]:
        raise argparse.ArgumentTypeError(f"{spec!r}: expected PRESET:ENC+DEC:VOCAB[:key=value,...]")
    enc, dec = (int(x) for x in parts[1].split("+"))
    overrides = {}
    if len(parts) == 4 and parts[3]:
        for kv in parts[3].split(","):
            k, v = kv.split("=")
            overrides[k.strip()] = int(v)
    return Candidate(spec, parts[0], enc, dec, int(parts[2]), overrides)


# -- model and checkpoint ---------------------------------------------------------------------------
def build_model(c: Candidate, seed: int):
    import torch

    from training.model import MemoryTransformer, make_config

    torch.manual_seed(seed)
    cfg = make_config(c.preset, enc_layers=c.enc, dec_layers=c.dec, vocab_size=c.vocab, mem_side="both",
                      **c.overrides)
    model = MemoryTransformer(cfg).eval()
    with torch.no_grad():
        model.embed.weight[cfg.eos_id].zero_()  # EOS logit = 0: a random model never stops early
    return model


def param_groups(model) -> dict[str, int]:
    groups = {"embedding": 0, "encoder": 0, "decoder": 0, "memory": 0}
    for name, p in model.named_parameters():
        if ".memory." in name:
            g = "memory"
        elif name.startswith("embed."):
            g = "embedding"
        elif name.startswith(("encoder.", "enc_norm.")):
            g = "encoder"
        elif name.startswith(("decoder.", "dec_norm.")):
            g = "decoder"
        else:
            raise ValueError(f"parameter {name} in no group")
        groups[g] += p.numel()
    groups["total"] = sum(groups.values())
    return groups


def spm_for(vocab: int, args: argparse.Namespace, work: Path) -> Path:
    """The SentencePiece model this vocabulary size ships with (see the module docstring, 2)."""
    if not args.spm_data:
        return Path(args.spm)
    from training.spm import collect_sentences, train_spm

    out = work / f"spm_{vocab}"
    model = out.with_suffix(".model")
    if not model.is_file():
        t = time.perf_counter()
        corpora = [(Path(d), *args.spm_langs) for d in args.spm_data]
        sents = collect_sentences(corpora, args.spm_sentences, seed=1)
        train_spm(sents, out, vocab)
        print(f"  trained SPM {vocab} on {len(sents)} sentences ({time.perf_counter() - t:.0f}s)", flush=True)
    return model


def save_random_checkpoint(model, spm_path: Path, path: Path) -> None:
    import sentencepiece as spm

    from training.checkpoint import save_checkpoint

    pieces = len(spm.SentencePieceProcessor(model_file=str(spm_path)))
    if pieces > model.cfg.vocab_size:
        raise SystemExit(f"{spm_path} has {pieces} pieces, more than the model's vocabulary {model.cfg.vocab_size} "
                         "(train one of that size with --spm-data)")
    save_checkpoint(path, {"model": model.state_dict(), "config": model.cfg.to_dict(),
                           "spm": spm_path.read_bytes(), "src_lang": "zh", "tgt_lang": "en",
                           "stage": "random-init", "step": 0, "metrics": {}})


# -- bundles ----------------------------------------------------------------------------------------
def export_with_retries(c: Candidate, spm_path: Path, work: Path, quantize: str | None, seed: int,
                        tries: int = 3) -> tuple[Path, Any]:
    from export.bundle import ExportError, export_checkpoint

    out = work / f"{c.slug}_{quantize or 'fp32'}"
    err: Exception | None = None
    for i in range(tries):
        model = build_model(c, seed + i)
        ckpt = work / f"{c.slug}.pt"
        save_random_checkpoint(model, spm_path, ckpt)
        del model
        try:
            report = export_checkpoint(ckpt, out, quantize=quantize)
            return out, report
        except ExportError as e:  # a near-tie of random logits flipped a greedy token; new weights
            print(f"  export ({quantize or 'fp32'}) seed {seed + i} failed: {e}; retrying", flush=True)
            err = e
        finally:
            ckpt.unlink(missing_ok=True)
    raise SystemExit(f"{c.spec}: export failed {tries} times: {err}")


def dir_bytes(d: Path) -> int:
    return sum(f.stat().st_size for f in d.iterdir() if f.is_file())


def vocab_tensors(bundle: Path, vocab: int) -> list[dict[str, Any]]:
    """The distinct vocabulary-shaped tensors (a dimension == vocab) in the bundle's weights, with
    the graphs and ops that use them: how the tied embedding is stored."""
    import onnx

    from doctrans.engine.bundle import GRAPH_FILES

    seen: dict[tuple[str, int], dict[str, Any]] = {}
    for gname, fname in GRAPH_FILES.items():
        path = bundle / fname
        if not path.is_file():
            continue
        m = onnx.load(str(path), load_external_data=False)
        users: dict[str, set[str]] = {}
        for node in m.graph.node:
            for i in node.input:
                users.setdefault(i, set()).add(node.op_type)
        for t in m.graph.initializer:
            if vocab not in t.dims:
                continue
            ext = {e.key: e.value for e in t.external_data}
            key = (ext.get("location", gname), int(ext.get("offset", 0)))
            nbytes = int(ext["length"]) if "length" in ext else len(t.raw_data)
            entry = seen.setdefault(key, {"name": t.name, "dims": list(t.dims), "bytes": nbytes,
                                          "dtype": onnx.TensorProto.DataType.Name(t.data_type),
                                          "graphs": set(), "used_by": set()})
            entry["graphs"].add(gname)
            entry["used_by"] |= users.get(t.name, set())
    out = []
    for e in seen.values():
        out.append({**e, "graphs": sorted(e["graphs"]), "used_by": sorted(e["used_by"])})
    return sorted(out, key=lambda e: -e["bytes"])


# -- speed ------------------------------------------------------------------------------------------
def time_page(bundle: Path, beam: int, args: argparse.Namespace) -> dict[str, float]:
    """One page through the engine on one thread (module docstring, 4): best of --repeats."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    steps = args.tgt_tokens + 1  # the tokens, then the step that would emit EOS
    tr = OnnxTranslator.load(bundle, beam_size=beam, max_length=steps, threads=1,
                             providers=["CPUExecutionProvider"])
    info = tr.info
    rng = np.random.default_rng(args.seed)
    page = [np.asarray([[*rng.integers(4, info.vocab_size, args.src_tokens), info.eos_id]], dtype=np.int64)
            for _ in range(args.sentences)]
    warm = tr.new_document()
    for src in page[:2]:
        warm.translate_ids(src)
    best_cpu, best_wall = float("inf"), float("inf")
    for _ in range(args.repeats):
        session = tr.new_document()
        c0, w0 = time.process_time(), time.perf_counter()
        lengths = [len(session.translate_ids(src)[0].tokens) for src in page]
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        if any(n != steps for n in lengths):
            raise SystemExit(f"{bundle}: beam {beam} produced lengths {sorted(set(lengths))}, "
                             f"not the forced {steps}; the timing would not be a full page")
        best_cpu, best_wall = min(best_cpu, cpu), min(best_wall, wall)
    return {"cpu_s": best_cpu, "wall_s": best_wall}


# -- main -------------------------------------------------------------------------------------------
def measure(c: Candidate, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    model = build_model(c, args.seed)
    params = param_groups(model)
    cfg = model.cfg.to_dict()
    del model
    spm_path = spm_for(c.vocab, args, work)
    row: dict[str, Any] = {"spec": c.spec, "label": c.label, "config": cfg, "params": params,
                           "spm": {"path": str(spm_path), "bytes": spm_path.stat().st_size}}
    int8, rep8 = export_with_retries(c, spm_path, work, "int8", args.seed)
    row["int8"] = {"bytes": dir_bytes(int8), "weights_bin": (int8 / "weights.bin").stat().st_size,
                   "files": rep8.files, "vocab_tensors": vocab_tensors(int8, c.vocab),
                   "greedy_same_as_fp32": f"{rep8.int8['same_sentences']}/{rep8.int8['sentences']}"}
    if not args.skip_fp32:
        fp32, _ = export_with_retries(c, spm_path, work, None, args.seed)
        row["fp32"] = {"bytes": dir_bytes(fp32), "weights_bin": (fp32 / "weights.bin").stat().st_size,
                       "vocab_tensors": vocab_tensors(fp32, c.vocab)}
    else:  # the fp32 graphs the int8 export built and checked, plus the same side files
        fp32 = None
        side = row["int8"]["bytes"] - rep8.int8["bytes"]
        row["fp32"] = {"bytes": rep8.int8["fp32_bytes"] + side, "derived": True}
    row["speed"] = {}
    for beam in args.beams:
        row["speed"][f"beam{beam}"] = {"int8": time_page(int8, beam, args)}
        if args.time_fp32 and fp32 is not None:
            row["speed"][f"beam{beam}"]["fp32"] = time_page(fp32, beam, args)
        s = row["speed"][f"beam{beam}"]["int8"]
        print(f"  beam {beam}: int8 {s['cpu_s']:.2f}s CPU ({s['wall_s']:.2f}s wall) per page", flush=True)
    if not args.keep:
        for d in (int8, fp32):
            if d is not None:
                shutil.rmtree(d, ignore_errors=True)
    row["seconds"] = time.perf_counter() - t0
    return row


def print_table(rows: list[dict[str, Any]], beams: list[int]) -> None:
    mb = 1e6
    head = ("| config | params (emb / enc / dec / mem) | int8 MB (weights.bin) | fp32 MB | "
            + " | ".join(f"s/page b{b} CPU (wall)" for b in beams) + " |")
    print(head)
    print("|" + "---|" * (4 + len(beams)))
    for r in rows:
        p = r["params"]
        cells = [r["speed"][f"beam{b}"]["int8"] for b in beams]
        speeds = " | ".join(f"{s['cpu_s']:.2f} ({s['wall_s']:.2f})" for s in cells)
        print(f"| {r['label']} | {p['total'] / mb:.1f}M ({p['embedding'] / mb:.1f} / {p['encoder'] / mb:.1f} / "
              f"{p['decoder'] / mb:.1f} / {p['memory'] / mb:.1f}) | {r['int8']['bytes'] / mb:.1f} "
              f"({r['int8']['weights_bin'] / mb:.1f}) | {r['fp32']['bytes'] / mb:.1f} | {speeds} |")
    print("\nvocabulary-shaped tensors in the int8 bundles (the tied embedding's copies):")
    for r in rows:
        parts = [f"{t['dtype']} {t['dims']} {t['bytes'] / mb:.2f} MB for {'/'.join(t['used_by'])}"
                 for t in r["int8"]["vocab_tensors"]]
        print(f"  {r['label']}: " + "; ".join(parts))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--configs", nargs="+", type=parse_candidate, default=[parse_candidate(s) for s in DEFAULT_CONFIGS],
                   help=f"PRESET:ENC+DEC:VOCAB[:key=value,...] (default: {' '.join(DEFAULT_CONFIGS)})")
    p.add_argument("--work", type=Path, default=Path("/tmp/model_size_speed"), help="bundles and results.json")
    p.add_argument("--spm", default=str(SHIPPED_SPM), help="SentencePiece model every candidate ships")
    p.add_argument("--spm-data", nargs="+", help="train a real SPM of each vocabulary size on these corpora")
    p.add_argument("--spm-langs", nargs=2, default=["zh", "en"], metavar=("A", "B"))
    p.add_argument("--spm-sentences", type=int, default=300_000)
    p.add_argument("--sentences", type=int, default=40, help="sentences per page")
    p.add_argument("--src-tokens", type=int, default=20, help="source tokens per sentence (EOS added)")
    p.add_argument("--tgt-tokens", type=int, default=20, help="target tokens per sentence (the EOS step added)")
    p.add_argument("--beams", nargs="+", type=int, default=[1, 5])
    p.add_argument("--repeats", type=int, default=2, help="timed pages per cell (best kept)")
    p.add_argument("--skip-fp32", action="store_true",
                   help="no separate fp32 export: its size from the fp32 graphs the int8 export checked")
    p.add_argument("--time-fp32", action="store_true", help="time the fp32 bundles too")
    p.add_argument("--torch-threads", type=int, default=1, help="PyTorch threads for the export checks")
    p.add_argument("--keep", action="store_true", help="keep the bundles in --work")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    import torch

    logging.getLogger().setLevel(logging.ERROR)  # quantize_dynamic's "consider pre-processing" warnings
    torch.set_num_threads(args.torch_threads)
    args.work.mkdir(parents=True, exist_ok=True)
    results = args.work / "results.json"
    rows = []
    for c in args.configs:
        print(f"{c.label}:", flush=True)
        rows.append(measure(c, args, args.work))
        r = rows[-1]
        print(f"  {r['params']['total'] / 1e6:.1f}M params, int8 {r['int8']['bytes'] / 1e6:.2f} MB, "
              f"fp32 {r['fp32']['bytes'] / 1e6:.2f} MB ({r['seconds']:.0f}s)", flush=True)
        results.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "rows": rows},
                                      indent=2, default=str), encoding="utf-8")
    print()
    print_table(rows, args.beams)
    print(f"\nwrote {results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
