"""Decoding time and peak memory per document as documents grow, for every document-level approach.

    python -m benchmarks.doc_approaches                      # tiny models, 250 -> 4000 source tokens
    python -m benchmarks.doc_approaches --config small --sizes 250 1000 4000 --png docs/approaches_scaling.png

Each (approach, document size) runs in its own subprocess, so the peak-memory figure (growth of the
process's peak RSS during decoding, over its RSS after loading and warming up) belongs to that
decoding alone. Models are randomly initialised (speed does not depend on training), and the
output is **forced**: every sentence decodes exactly as many target tokens as it has source tokens,
then ``</s>``, so every approach does the same amount of generation. Greedy (beam 1), batch of one
document, one CPU thread. Sentences are ``--sentence-len`` tokens long.

Approaches: the sentence-level Transformer; the memory Transformer (both sides); caching the encoder
tokens of the previous k=3 and k=10 sentences; shortening the cached sentences (k=10, Latent
Grouping into 9 groups, and mean pooling of 4 tokens); G-Transformer with the whole document as one
instance (its global attention sees everything: quadratic) and split into 512-token instances as
in the paper; SMDT with 512-token instances, each sentence with one pair retrieved (BM25, timed
with the rest) from a translation memory of 2,000 random pairs as long as the sentences. Prints
one table of ratios to the sentence-level model measured in the same run, and writes a PNG plot
with Pillow.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import torch

APPROACHES = {
    "sentence": "sentence-level",
    "memory": "memory (Feng+ 2022)",
    "cache3": "cache tokens k=3",
    "cache10": "cache tokens k=10",
    "group10": "shorten: grouping k=10",
    "mean10": "shorten: mean-pool k=10",
    "gt_doc": "G-Transformer, 1 instance",
    "gt_512": "G-Transformer, 512/instance",
    "smdt_512": "SMDT k=1, 512/instance",
}
VOCAB = 8000
CACHE = {"cache3": ("none", 3), "cache10": ("none", 10), "group10": ("grouping", 10), "mean10": ("mean", 10)}


def build(name: str, config: str) -> torch.nn.Module:
    from training.context_cache import CacheConfig, CacheTransformer
    from training.gtransformer import GTConfig, GTransformer
    from training.model import CONFIGS, MemoryTransformer, make_config

    base = {**CONFIGS[config], "vocab_size": VOCAB, "dropout": 0.0}
    if name in ("sentence", "memory"):
        return MemoryTransformer(make_config(config, vocab_size=VOCAB, dropout=0.0,
                                             mem_side="none" if name == "sentence" else "both"))
    if name in CACHE:
        shorten, k = CACHE[name]
        return CacheTransformer(CacheConfig(**base, context_size=k, shorten=shorten, n_groups=9, pool_size=4))
    if name == "smdt_512":
        return smdt_model(base)
    return GTransformer(GTConfig(**base, doc_max_len=512 if name == "gt_512" else 1 << 20))


def smdt_model(base: dict) -> torch.nn.Module:
    """SMDT (k=1, 512-token instances) with a TM of 2,000 random pairs (lengths as the documents')."""
    from training.retrieval import TranslationMemory, flatten
    from training.smdt import SMDT, SMDTConfig

    model = SMDT(SMDTConfig(**base, doc_max_len=512, retrieve_k=1))
    g = torch.Generator().manual_seed(1)
    (st, so), (tt, to) = (flatten([forced_tokens(25, g) for _ in range(2000)]) for _ in range(2))
    model.tm = TranslationMemory(st, so, tt, to)
    return model


def forced_tokens(n: int, g: torch.Generator) -> list[int]:
    return torch.randint(4, VOCAB, (n,), generator=g).tolist()


@torch.no_grad()
def decode_sentence_models(model, doc: list[list[int]], g: torch.Generator) -> None:
    """Sentence by sentence: sentence-level, memory (update after each sentence), cache/shortening."""
    from training.context_cache import CacheTransformer, pad_entries

    cfg = model.cfg
    cache_model = isinstance(model, CacheTransformer)
    memory = model.init_memory(1) if not cache_model else {}
    cache: list = []
    for sent in doc:
        src = torch.tensor([[*sent, cfg.eos_id]])
        if cache_model:
            enc = model.encode(src)
            z, zmask = model.shorten(enc, src)
            entries = [(z, zmask)] if model.includes_current else []
            entries += [pad_entries([e], cfg.d_model, None) for e in cache]
            ctx = model.context(entries)
        else:
            enc, src_states, _ = model.encode(src, memory.get("src"))
            ctx = memory.get("tgt")
        kv = model.cross_kv(enc)
        out = forced_tokens(len(sent), g)
        last, past = torch.tensor([[cfg.bos_id]]), None
        for t in range(len(out) + 1):  # the target tokens, then </s>
            logits, _, past, _ = model.decode(last, kv, src, ctx, past=past, start=t)
            logits[0, -1].argmax()  # the search's own work, kept in the timing
            last = torch.tensor([[out[t] if t < len(out) else cfg.eos_id]])
        if cache_model:
            cache = [(z[0][zmask[0]], zmask[0][zmask[0]]), *cache][: cfg.context_size]
        elif memory:
            tgt_in = torch.tensor([[cfg.bos_id, *out]])
            _, tgt_states, _, _ = model.decode(tgt_in, kv, src, memory["tgt"])
            memory = {"src": model.update_memory("src", memory["src"], src_states, src)[0],
                      "tgt": model.update_memory("tgt", memory["tgt"], tgt_states, tgt_in)[0]}


@torch.no_grad()
def decode_gtransformer(model, doc: list[list[int]], g: torch.Generator) -> None:
    """Each instance in one pass, group tags advancing after each forced </s>; SMDT's instances
    carry the pairs retrieved for their sentences."""
    from training.gtransformer import split_instances
    from training.smdt import SMDT, instance_source, stack_sources

    cfg = model.cfg
    neighbours = model.retrieve(doc) if isinstance(model, SMDT) else None
    for inst in split_instances([len(s) for s in doc], cfg.doc_max_len):
        sents = [doc[i] for i in inst]
        if neighbours is not None:
            source = instance_source(sents, [model.pairs(neighbours[i]) for i in inst], cfg)
            enc, src_tags = model.encode(*(torch.from_numpy(a) for a in stack_sources([source], cfg.pad_id)))
        else:
            enc, src_tags = model.encode(torch.tensor([[t for s in sents for t in (*s, cfg.eos_id)]]))
        cross = model.cross_kv(enc)
        out = [t for s in sents for t in (*forced_tokens(len(s), g), cfg.eos_id)]
        last, tag, past, past_tags = torch.tensor([[cfg.bos_id]]), torch.tensor([[1]]), None, None
        for t, tok in enumerate(out):
            logits, past = model.decode(last, tag, cross, src_tags, past, past_tags, start=t)
            logits[0, -1].argmax()
            past_tags = tag if past_tags is None else torch.cat([past_tags, tag], dim=1)
            tag = tag + int(tok == cfg.eos_id)
            last = torch.tensor([[cfg.bos_id if tok == cfg.eos_id else tok]])


def rss_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def measure(name: str, config: str, tokens: int, sentence_len: int) -> dict:
    """In a fresh process: build, warm up on a short document, then decode the timed one."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(tokens)
    model = build(name, config).eval()
    run = decode_gtransformer if name.startswith(("gt", "smdt")) else decode_sentence_models
    doc = [forced_tokens(sentence_len, g) for _ in range(max(1, tokens // sentence_len))]
    run(model, doc[:2], g)
    before = rss_peak_mb()
    t0 = time.perf_counter()
    run(model, doc, g)
    seconds = time.perf_counter() - t0
    return {"approach": name, "tokens": tokens, "seconds": seconds, "peak_mb": max(0.0, rss_peak_mb() - before),
            "params": sum(p.numel() for p in model.parameters())}


COLORS = ["#000000", "#d62728", "#1f77b4", "#17becf", "#2ca02c", "#bcbd22", "#9467bd", "#ff7f0e", "#8c564b"]


def plot(results: list[dict], sizes: list[int], path: Path) -> None:
    """Two log-log panels (time, peak memory) drawn with Pillow: matplotlib is not a dependency."""
    from PIL import Image, ImageDraw

    W, H = 1100, 480
    img = Image.new("RGB", (W, H), "white")
    draw = ImageDraw.Draw(img)
    panel(draw, (60, 40, W // 2 - 20, H - 60), results, sizes, "seconds", "decode time per document (s)", 1e-3)
    panel(draw, (W // 2 + 60, 40, W - 20, H - 60), results, sizes, "peak_mb", "peak memory growth (MB)", 0.1)
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)


def panel(draw, box: tuple[int, int, int, int], results: list[dict], sizes: list[int], key: str, title: str,
          floor: float) -> None:
    import math

    x0, y0, x1, y1 = box
    vals = [max(r[key], floor) for r in results]
    lo, hi = math.log10(min(vals)), math.log10(max(vals))
    hi = hi if hi > lo else lo + 1

    def sx(n: float) -> float:
        return x0 + (x1 - x0) * math.log(n / sizes[0]) / math.log(max(sizes[-1] / sizes[0], 1.01))

    def sy(v: float) -> float:
        return y1 - (y1 - y0) * (math.log10(max(v, floor)) - lo) / (hi - lo)

    draw.rectangle([x0, y0, x1, y1], outline="black")
    draw.text((x0, 12), title + " vs source tokens (log-log)", fill="black")
    for n in sizes:
        draw.text((sx(n) - 12, y1 + 6), str(n), fill="black")
    for e in range(math.ceil(lo), math.floor(hi) + 1):
        draw.text((x0 - 45, sy(10**e) - 6), f"1e{e}", fill="black")
    for c, name in enumerate(APPROACHES):
        pts = [(sx(r["tokens"]), sy(r[key])) for r in results if r["approach"] == name]
        if len(pts) > 1:
            draw.line(pts, fill=COLORS[c], width=2)
        if pts:
            draw.text((x0 + 10, y0 + 8 + 14 * c), APPROACHES[name], fill=COLORS[c])


def table(results: list[dict], sizes: list[int], names: list[str]) -> None:
    """Time per document as a ratio to the sentence-level model at the same size (so a flat row
    grows linearly like it), its growth from the smallest to the largest document, and the peak
    memory growth in MB (absolute: the sentence-level model's is near zero)."""
    at = {(r["approach"], r["tokens"]): r for r in results}
    head = "".join(f"{n:>8}" for n in sizes)
    print(f"{'time / sentence-level':<30}{head}{'growth':>9}   {'peak MB':<9}{head}")
    for name in names:
        ratio = "".join(f"{at[name, n]['seconds'] / at['sentence', n]['seconds']:>7.2f}x" if ("sentence", n) in at
                        else f"{'-':>8}" for n in sizes)
        growth = at[name, sizes[-1]]["seconds"] / at[name, sizes[0]]["seconds"]
        mem = "".join(f"{at[name, n]['peak_mb']:>8.1f}" for n in sizes)
        print(f"{APPROACHES[name]:<30}{ratio}{growth:>8.1f}x   {'':<9}{mem}")
    if all(("sentence", n) in at for n in sizes):
        print("sentence-level seconds: " + ", ".join(f"{n}: {at['sentence', n]['seconds']:.2f}" for n in sizes)
              + f"  (documents x{sizes[-1] // sizes[0]} longer)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", default="tiny", choices=["tiny", "small", "base"])
    p.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000, 2000, 4000])
    p.add_argument("--sentence-len", type=int, default=25)
    p.add_argument("--approaches", nargs="+", default=list(APPROACHES), choices=list(APPROACHES))
    p.add_argument("--png", type=Path, default=Path("docs/approaches_scaling.png"))
    p.add_argument("--json", type=Path, help="write the raw measurements here")
    p.add_argument("--one", nargs=2, metavar=("APPROACH", "TOKENS"), help=argparse.SUPPRESS)  # the child process
    a = p.parse_args(argv)
    if a.one:
        print(json.dumps(measure(a.one[0], a.config, int(a.one[1]), a.sentence_len)))
        return 0
    results = []
    for n in a.sizes:
        for name in a.approaches:
            cmd = [sys.executable, "-m", "benchmarks.doc_approaches", "--config", a.config, "--sentence-len",
                   str(a.sentence_len), "--one", name, str(n)]
            r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()[-1])
            results.append(r)
            print(f"  {APPROACHES[name]:<28} {n:>5} tokens  {r['seconds']:7.2f} s  {r['peak_mb']:8.1f} MB", flush=True)
    print(f"\n{a.config} models, greedy, forced output = source length, sentences of {a.sentence_len} tokens, "
          "1 thread, one run.")
    table(results, a.sizes, a.approaches)
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    plot(results, a.sizes, a.png)
    print(f"plot: {a.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
