"""Training speed (target tokens/s) of one optimizer step, attention and compile variants side by side.

    python -m benchmarks.train_step_speed                          # small + tiny, both stages
    python -m benchmarks.train_step_speed --compile --threads 1    # + torch.compile (slow to compile)
    python -m benchmarks.train_step_speed --configs base --device cuda --amp bf16 --compile

A step is what ``training.train`` does for one micro-batch: stage 1 (``sentence``) = forward +
label-smoothed loss + backward of a batch of sentences; stage 2 (``document``) = the memory
recomputation of the previous sentences (a forward with gradients through the memory update),
then forward + loss + backward of the current ones reading that memory; both followed by
gradient clipping and an AdamW step. The forward passes are the trainer's own functions
(``training.trainer.batch_loss`` / ``carried_memory``, the ones ``--compile`` compiles).

Batches are synthetic random ids of realistic shapes: ``--sentences`` x ~``--tokens`` (stage 1)
and ``--rows`` document streams (stage 2), sentence lengths drawn per row so that padding
masks are exercised, and the padded length changing from batch to batch as in training
(``--fixed-shape`` turns that off). Variants:

- ``explicit``: softmax(QK^T/sqrt(d) + bias) V, the attention as committed before SDPA;
- ``sdpa``: ``F.scaled_dot_product_attention`` (``training.model.Attention.fused``);
- ``+compile``: the same through ``torch.compile(dynamic=True)`` (with ``--compile``).

The machine may be shared, so variants are timed in interleaved rounds and the median round is
reported; ratios are against ``explicit`` of the same config and stage.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch

from training.model import Attention, MemoryTransformer, make_config
from training.trainer import batch_loss, carried_memory


@dataclass
class Variant:
    name: str
    fused: bool
    compiled: bool


def random_batch(g: torch.Generator, rows: int, max_len: int, vocab: int, device: str
                 ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(src, tgt_in, tgt_out) with per-row lengths in [max_len/2, max_len], padding id 0."""
    def side(extra: int) -> tuple[torch.Tensor, torch.Tensor]:
        t = max_len + extra
        ids = torch.randint(4, vocab, (rows, t), generator=g)
        lengths = torch.randint(max(1, max_len // 2), max_len + 1, (rows,), generator=g) + extra
        keep = torch.arange(t)[None] < lengths[:, None]
        return ids * keep, keep

    src, _ = side(0)
    tgt, keep = side(1)  # BOS + target / target + EOS
    tgt_in = torch.cat([torch.ones(rows, 1, dtype=torch.long), tgt[:, :-1]], 1) * keep
    return src.to(device), tgt_in.to(device), tgt.to(device)


class StepRunner:
    """One model + optimizer for one (config, stage, variant); ``run(n)`` -> (tokens, seconds)."""

    def __init__(self, config: str, stage: str, variant: Variant, a: argparse.Namespace):
        torch.manual_seed(0)
        over = {} if a.dropout is None else {"dropout": a.dropout}
        cfg = make_config(config, vocab_size=a.vocab, mem_side="both" if stage == "document" else "none", **over)
        self.cfg, self.stage, self.variant, self.a = cfg, stage, variant, a
        self.model = MemoryTransformer(cfg).to(a.device).train()
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
        self.loss_fn: Callable = batch_loss
        self.memory_fn: Callable = carried_memory
        if variant.compiled:
            self.loss_fn = torch.compile(batch_loss, dynamic=True)
            self.memory_fn = torch.compile(carried_memory, dynamic=True)
        self.g = torch.Generator().manual_seed(1)
        self.prev: tuple[torch.Tensor, torch.Tensor, dict[str, torch.Tensor]] | None = None
        self.shape_i = 0
        use_amp = a.device.startswith("cuda") and a.amp != "none"
        dtype = torch.bfloat16 if a.amp == "bf16" else torch.float16
        self.autocast = (lambda: torch.autocast("cuda", dtype=dtype)) if use_amp else (
            lambda: torch.autocast("cpu", enabled=False))

    def batch(self):
        a = self.a
        rows, t = (a.sentences, a.tokens) if self.stage == "sentence" else (a.rows, a.tokens)
        if not a.fixed_shape:  # padded lengths change every batch, as token-bucketed batches do
            t += (-2, 0, 2, -1, 1)[self.shape_i % 5]
            self.shape_i += 1
        return random_batch(self.g, rows, t, self.cfg.vocab_size, a.device)

    def step(self) -> int:
        Attention.fused = self.variant.fused
        src, tgt_in, tgt_out = self.batch()
        memory = None
        if self.stage == "document":
            if self.prev is None:
                memory = self.model.init_memory(src.shape[0])
            else:
                p_src, p_tgt, p_mem = self.prev
                with self.autocast():
                    memory = {k: v.float() for k, v in self.memory_fn(self.model, p_src, p_tgt, p_mem).items()}
            self.prev = (src, tgt_in, {k: v.detach() for k, v in memory.items()})
        with self.autocast():
            loss = self.loss_fn(self.model, src, tgt_in, tgt_out, memory, 0, 0.1)
        n = int((tgt_out != 0).sum())
        (loss / n).backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        return n

    def run(self, steps: int) -> tuple[int, float]:
        sync = torch.cuda.synchronize if self.a.device.startswith("cuda") else (lambda: None)
        sync()
        t, tokens = time.perf_counter(), 0
        for _ in range(steps):
            tokens += self.step()
        sync()
        return tokens, time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--configs", nargs="+", default=["small", "tiny"])
    p.add_argument("--stages", nargs="+", default=["sentence", "document"], choices=["sentence", "document"])
    p.add_argument("--sentences", type=int, default=64, help="stage 1: sentences per batch")
    p.add_argument("--rows", type=int, default=24, help="stage 2: document streams per batch")
    p.add_argument("--tokens", type=int, default=12, help="padded sentence length (+-2 per batch)")
    p.add_argument("--fixed-shape", action="store_true", help="the same padded length every batch")
    p.add_argument("--vocab", type=int, default=8000)
    p.add_argument("--dropout", type=float, help="override the config's dropout (small: 0.1, tiny: 0)")
    p.add_argument("--steps", type=int, default=10, help="timed steps per round")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the median is reported")
    p.add_argument("--warmup", type=int, default=3, help="untimed steps first (compilation happens here)")
    p.add_argument("--compile", action="store_true", help="also time the torch.compile variants")
    p.add_argument("--threads", type=int, help="torch CPU threads (default: torch's)")
    p.add_argument("--device", default="cpu")
    p.add_argument("--amp", choices=["none", "bf16", "fp16"], default="bf16", help="autocast on CUDA only")
    a = p.parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    variants = [Variant("explicit", False, False), Variant("sdpa", True, False)]
    if a.compile:
        variants += [Variant("explicit+compile", False, True), Variant("sdpa+compile", True, True)]
    print(f"torch {torch.__version__}, device {a.device}, threads {torch.get_num_threads()}, "
          f"{a.steps} steps x {a.rounds} rounds, warm-up {a.warmup}", flush=True)
    rows = []
    # Every runner compiles the same two functions for its own model: dynamo keeps one cache per
    # function, so a fresh one per (config, stage) and room for the runners' entries in it
    # (past the limit dynamo silently runs eager code). The trainer has one model: no issue there.
    torch._dynamo.config.recompile_limit = 64
    for config in a.configs:
        for stage in a.stages:
            torch._dynamo.reset()
            runners = {}
            for v in variants:
                t = time.perf_counter()
                runners[v.name] = r = StepRunner(config, stage, v, a)
                r.run(a.warmup)
                print(f"  {config} {stage} {v.name}: warm-up {time.perf_counter() - t:.1f}s", file=sys.stderr,
                      flush=True)
            speeds: dict[str, list[float]] = {v.name: [] for v in variants}
            for _ in range(a.rounds):
                for v in variants:
                    tokens, seconds = runners[v.name].run(a.steps)
                    speeds[v.name].append(tokens / seconds)
            base = statistics.median(speeds["explicit"])
            for v in variants:
                tps = statistics.median(speeds[v.name])
                spread = (max(speeds[v.name]) - min(speeds[v.name])) / tps
                rows.append((config, stage, v.name, tps, tps / base, spread))
            Attention.fused = True
    print("\n| config | stage | variant | tok/s | vs explicit | round spread |")
    print("|---|---|---|---:|---:|---:|")
    for config, stage, name, tps, ratio, spread in rows:
        print(f"| {config} | {stage} | {name} | {tps:,.0f} | {ratio:.2f}x | {spread:.0%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
