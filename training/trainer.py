"""The Trainer: one optimizer loop for every approach, from batches to checkpoints.

``training.train`` is the command line (flags and ``main``); ``training.approaches`` holds the
document-level approaches other than the memory model, each a subclass of :class:`Trainer` that
overrides only what differs (its model, its batches, its loss); this module is the memory model's
training and everything they share: corpora (JSONL or the pre-tokenized cache), the tokenizer,
learning-rate schedules, exact resume, evaluation and early stopping, the time budget, data
parallelism.

Stage 1 (``--stage sentence``) trains shuffled sentence pairs in token-bucketed batches with the
memory off. Stage 2 (``--stage document``) batches are document streams: row r of step t holds
sentence t of the document that row is reading. The memory written by sentence t-1 is read by
sentence t; gradients reach the current and the previous sentence only (the memory is detached
before that). Because an optimizer step in between would invalidate the previous sentence's
graph, the previous sentence's memory-layer states are recomputed at every step from its saved
input memory: one extra forward pass, in exchange for exact resumption at any step. Gradients are
accumulated over a window sampled from [1, --window] steps (the paper's "group optimization").

Runs on one CPU for tests, on a GPU with bf16/fp16 autocast, or on several GPUs with
``torchrun --nproc_per_node=N -m training.train ...``: each rank trains on its own share of
the batches and the gradients are averaged with an all-reduce before every optimizer step
(data parallelism done by hand rather than with the DDP wrapper, because a stage-2 step runs
the model's parts several times before one backward, which the wrapper's hooks do not allow).

On a GPU session with a hard wall-clock limit, ``--time-budget SECONDS`` stops cleanly before
the limit with a resumable ``last.pt`` (see ``Trainer.out_of_time``), and ``--compile`` runs the
training forward passes through ``torch.compile`` (see ``Trainer.compile_forward``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import time
from collections import deque
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.distributed as dist

from training import spm as spm_lib
from training.checkpoint import read_checkpoint, save_checkpoint
from training.data import (
    Batch,
    TokenizedCorpus,
    collate,
    document_streams,
    folder_and_name,
    length_chunks,
    sentence_batches,
    tokenize_corpus,
)
from training.model import MemoryTransformer, ModelConfig, label_smoothed_loss, make_config
from training.token_cache import direction_corpus, spm_sha256, tag_source


class TrainError(Exception):
    """A usage problem reported as one line."""


# ---------------------------------------------------------------------------------------
# Set-up helpers
# ---------------------------------------------------------------------------------------

def parse_corpus_arg(arg: str) -> tuple[Path, int]:
    path, _, weight = arg.rpartition(":") if arg.rsplit(":", 1)[-1].isdigit() else (arg, "", "1")
    return Path(path), int(weight)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def prepare_tokenizer(args: argparse.Namespace) -> tuple[Any, bytes]:
    if args.spm is None and parse_corpus_arg(args.data[0])[0].suffix == ".npz":
        args.spm = parse_corpus_arg(args.data[0])[0].parent / "spm.model"  # a cache carries its tokenizer
    if args.spm is None:
        path = args.out / "spm.model"
        if not path.exists():
            sents = spm_lib.collect_sentences([(parse_corpus_arg(d)[0], args.src, args.tgt) for d in args.data],
                                              2_000_000, args.seed)
            spm_lib.train_spm(sents, args.out / "spm", args.vocab_size)
        args.spm = path
    sp = spm_lib.load(args.spm)
    return sp, args.spm.read_bytes()


def directions(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The (source, target) pairs a run trains: one, or both ways with --bidirectional."""
    return [(args.src, args.tgt), (args.tgt, args.src)] if args.bidirectional else [(args.src, args.tgt)]


def direction_tag(sp, tgt: str) -> int:
    """Id of the target-language tag ``<2xx>`` a bidirectional model reads before the source."""
    piece = f"<2{tgt}>"
    tag = sp.piece_to_id(piece)
    if tag == sp.unk_id() or (not sp.is_control(tag) and sp.id_to_piece(tag) != piece):
        raise TrainError(f"the SentencePiece model has no {piece} symbol (retrain it with training.spm)")
    return int(tag)


def load_corpus(args, sp, spm_bytes: bytes, arg: str, max_len: int, src: str, tgt: str,
                dev: bool = False) -> TokenizedCorpus:
    """The ``src`` -> ``tgt`` corpus of ``arg`` (PATH[:WEIGHT]), tagged if the run is bidirectional.

    A JSONL corpus is tokenized once and cached next to the run (keyed by file, direction and
    tokenizer); a ``.npz`` is already tokenized (training.prepare_data) and is read directly.
    Dev splits are read untokenized (training.moses_text): the TVsub dev English is
    Moses-tokenized, and a dev loss over text unlike the training side would pick checkpoints
    for the wrong reason (and penalise the target memory, which writes the reference's states).
    """
    path, weight = parse_corpus_arg(arg)
    tag = direction_tag(sp, tgt) if args.bidirectional else None
    if path.suffix == ".npz":  # prepare_data already read dev splits untokenized
        corpus = direction_corpus(path, src, tgt, max_len, spm_sha256(spm_bytes), tag, args.max_docs)
        return repeat_corpus(corpus, weight)
    key = sha256_bytes(f"{path.resolve()}|{path.stat().st_mtime if path.exists() else 0}|{src}|"
                       f"{tgt}|{sha256_bytes(spm_bytes)}|{max_len}|{args.max_docs}{'|untokenized' if dev else ''}"
                       .encode())
    cache = args.out / "cache" / f"{path.name}.{key}.npz"
    if cache.exists():
        corpus = TokenizedCorpus.load(cache)
    else:
        corpus = tokenize_corpus(path, src, tgt, lambda xs: sp.encode(xs), max_len, args.max_docs,
                                 untokenize=dev)
        cache.parent.mkdir(parents=True, exist_ok=True)
        corpus.save(cache)
    if tag is not None:
        corpus = tag_source(corpus, tag, max_len)
    return repeat_corpus(corpus, weight)


def corpus_name(arg: str, src: str, tgt: str, bidirectional: bool) -> str:
    """A dev split's key in the logs: ``pydocs-en-zh/dev.jsonl.xz`` or, from a cache,
    ``pydocs-en-zh.dev`` (+ `` en-zh`` when both ways)."""
    path = parse_corpus_arg(arg)[0]
    name = path.stem if path.suffix == ".npz" else folder_and_name(path)
    return f"{name} {src}-{tgt}" if bidirectional else name


def repeat_corpus(c: TokenizedCorpus, times: int) -> TokenizedCorpus:
    return c if times == 1 else concat_corpora([c] * times)


def concat_corpora(parts: list[TokenizedCorpus]) -> TokenizedCorpus:
    if len(parts) == 1:
        return parts[0]

    def cat(tok: str, off: str) -> tuple[np.ndarray, np.ndarray]:
        tokens = np.concatenate([getattr(p, tok) for p in parts])
        shifts = np.cumsum([0] + [len(getattr(p, tok)) for p in parts[:-1]])
        offsets = np.concatenate([getattr(parts[0], off)[:1]] +
                                 [getattr(p, off)[1:] + s for p, s in zip(parts, shifts, strict=True)])
        return tokens, offsets

    st, so = cat("src_tokens", "src_offsets")
    tt, to = cat("tgt_tokens", "tgt_offsets")
    sent_shift = np.cumsum([0] + [p.n_sentences for p in parts[:-1]])
    docs = np.concatenate([parts[0].doc_offsets[:1]] +
                          [p.doc_offsets[1:] + s for p, s in zip(parts, sent_shift, strict=True)])
    return TokenizedCorpus(st, so, tt, to, docs, [i for p in parts for i in p.doc_ids])


def lr_lambda(schedule: str, warmup: int, max_steps: int):
    def f(step: int) -> float:
        step = max(step, 1)
        if step < warmup:
            return step / warmup
        if schedule == "inv_sqrt":
            return math.sqrt(warmup / step) if warmup > 0 else 1.0
        progress = (step - warmup) / max(1, max_steps - warmup)
        return 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
    return f


def rng_state() -> dict[str, Any]:
    return {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state(),
            "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None}


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if state.get("cuda") and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def to_tensors(b: Batch, device: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return (torch.from_numpy(b.src).to(device), torch.from_numpy(b.tgt_in).to(device),
            torch.from_numpy(b.tgt_out).to(device))


# The training forward passes, as plain functions of the model so that --compile can compile
# them (Trainer.compile_forward) while the module itself stays uncompiled.

def batch_loss(model: MemoryTransformer, src: torch.Tensor, tgt_in: torch.Tensor, tgt_out: torch.Tensor,
               memory: dict[str, torch.Tensor] | None, pad_id: int, smoothing: float) -> torch.Tensor:
    """Summed label-smoothed loss of one batch (fp32), reading ``memory`` if given."""
    enc, _, _ = model.encode(src, memory.get("src") if memory else None)
    logits, _, _, _ = model.decode(tgt_in, model.cross_kv(enc), src, memory.get("tgt") if memory else None)
    return label_smoothed_loss(logits, tgt_out, pad_id, smoothing, reduce=False)


def carried_memory(model: MemoryTransformer, src: torch.Tensor, tgt_in: torch.Tensor,
                   memory: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The memory after reading and writing one sentence pair (the stage-2 recomputation)."""
    enc, src_states, _ = model.encode(src, memory.get("src"))
    _, tgt_states, _, _ = model.decode(tgt_in, model.cross_kv(enc), src, memory.get("tgt"), project=False)
    return model.write_memory(memory, src, src_states, tgt_in, tgt_states)


def process_start_time() -> float:
    """Wall-clock time at which this process started (Linux /proc; elsewhere: now), so that
    --time-budget also counts the interpreter start and the imports."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])  # field 22: starttime
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return time.time() - (uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.time()


# ---------------------------------------------------------------------------------------
# The trainer
# ---------------------------------------------------------------------------------------

@dataclass
class DataPosition:
    """Where training is in the data: enough to regenerate the exact next batch."""
    epoch: int = 0
    index: int = 0  # batches (sentence stage) / stream steps (document stage) consumed in the epoch


class Trainer:
    """Trains the memory model; other approaches subclass it (training.approaches) and override
    ``add_arguments``, ``build_model``, ``batches``, ``micro_step`` and ``corpus_dev_loss``."""

    @staticmethod
    def add_arguments(p: argparse.ArgumentParser) -> None:
        """An approach's own flags; the memory model's are the common ones (training.train)."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        # The --time-budget clock: main() passes the process start; a Trainer built directly
        # (tests) counts from here.
        self.started: float = getattr(args, "started_at", None) or time.time()
        self.rank, self.world = (dist.get_rank(), dist.get_world_size()) if dist.is_initialized() else (0, 1)
        self.device = args.device if self.world == 1 or args.device == "cpu" else f"cuda:{self.rank}"
        self.main = self.rank == 0
        args.out.mkdir(parents=True, exist_ok=True)
        self.sp, self.spm_bytes = prepare_tokenizer(args)
        resume_ckpt = self._resume_checkpoint()
        init_ckpt = read_checkpoint(args.init) if args.init and not resume_ckpt else None
        self.cfg = self._model_config(resume_ckpt, init_ckpt)
        torch.manual_seed(args.seed)
        self.model = self.build_model(self.cfg).to(self.device)
        self.new_params: set[str] = set(self.model.new_parameter_names())
        if init_ckpt is not None:
            self._load_init(init_ckpt)
        self.directions = directions(args)
        self.train = concat_corpora([load_corpus(args, self.sp, self.spm_bytes, d, self.cfg.max_len, src, tgt)
                                     for d in args.data for src, tgt in self.directions])
        # Keyed by the corpus folder + file (every split is called dev.jsonl.xz) and the direction.
        self.devs = {corpus_name(d, src, tgt, args.bidirectional):
                     load_corpus(args, self.sp, self.spm_bytes, d, self.cfg.max_len, src, tgt, dev=True)
                     for d in args.dev for src, tgt in self.directions}
        self.from_init = init_ckpt is not None or bool((resume_ckpt or {}).get("from_init", False))
        self.optimizer = self._optimizer(self.from_init)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lr_lambda(args.schedule, args.warmup, args.max_steps))
        self.step = 0
        self.pos = DataPosition()
        self.best, self.bad_evals = float("inf"), 0
        self.window_rng = np.random.default_rng([args.seed, 7])
        self.prev: dict[str, Any] | None = None  # document stage: previous step's inputs + memory
        self.log_f = (args.out / "log.jsonl").open("a") if self.main else None
        if resume_ckpt:
            self._restore(resume_ckpt)
        use_amp = "cuda" in self.device and args.amp != "none"
        dtype = torch.bfloat16 if args.amp == "bf16" else torch.float16
        self.autocast = (lambda: torch.autocast("cuda", dtype=dtype)) if use_amp else nullcontext
        self.scaler = torch.amp.GradScaler("cuda", enabled=use_amp and args.amp == "fp16")
        # Sentence stage: every micro-batch backpropagates its summed loss / this fixed unit and
        # run() rescales the step's gradient by unit / (target tokens of the whole step), i.e.
        # the loss is normalised by all tokens of the accumulated batches (the standard), while
        # gradient magnitudes stay those of one batch (fp16's GradScaler needs that).
        self.grad_unit = float(max(1, args.max_tokens))
        self.forward_loss, self.forward_memory = batch_loss, carried_memory
        if getattr(args, "compile", False):
            self.compile_forward()
        self.save_times: list[float] = []  # seconds per checkpoint written, for --time-budget
        self.eval_times: list[float] = []  # seconds per dev evaluation
        self.spent = {"eval": 0.0, "save": 0.0}  # seconds since the last log record
        self.last_eval_step = self.last_save_step = -1
        self.run_start_step = self.step  # reset by run(): steps trained by this process start here
        if not hasattr(self, "tokens_seen"):  # _restore sets it when resuming
            self.tokens_seen = 0  # target tokens trained on since step 0 (logged; --max-target-tokens)
        self.recent_steps: deque[tuple[float, int, int]] = deque(maxlen=20)  # (seconds, micro-batches, tokens)

    def compile_forward(self) -> None:
        """--compile: the training forward passes (loss, and stage 2's memory recomputation) go
        through ``torch.compile``; ``self.model`` stays the plain module, so checkpoints, eval and
        export see ordinary parameter names (no ``_orig_mod.`` prefix) and eager code.

        Batches change shape every step (sentence lengths, batch sizes), so the graphs are
        compiled with dynamic shapes: one compilation serves all shapes, where static shapes
        would recompile for each new (B, T) (and give up after the recompile limit), at the cost
        of kernels that cannot specialise on the sizes. The first steps pay the compilation.
        """
        if type(self).micro_step is not Trainer.micro_step:
            raise TrainError(f"--compile: only the memory approach's training step is compiled, "
                             f"not --approach {self.args.approach}")
        self.forward_loss = torch.compile(batch_loss, dynamic=True)
        self.forward_memory = torch.compile(carried_memory, dynamic=True)

    # -- set-up ---------------------------------------------------------------------------
    def build_model(self, cfg: ModelConfig) -> Any:  # MemoryTransformer here; approaches return theirs
        """The model to train; other approaches override this (training/approaches.py)."""
        return MemoryTransformer(cfg)

    def _resume_checkpoint(self) -> dict | None:
        path = self.args.out / "last.pt"
        if not self.args.resume:
            return None
        if not path.exists():
            raise TrainError(f"--resume: no {path} to resume from")
        return read_checkpoint(path)

    def _model_config(self, resume_ckpt, init_ckpt):
        a = self.args
        if resume_ckpt is not None:
            return ModelConfig.from_dict(resume_ckpt["config"])
        over: dict[str, Any] = dict(vocab_size=len(self.sp), mem_slots=a.mem_slots,
                                    mem_side=a.mem_side if a.stage == "document" else "none",
                                    mem_enc_layers=a.mem_layers, mem_dec_layers=a.mem_layers)
        if a.dropout is not None:
            over["dropout"] = a.dropout
        if getattr(a, "mem_dropout", None) is not None:
            over["mem_dropout"] = a.mem_dropout
        if init_ckpt is not None:  # the architecture comes from the initialising checkpoint
            base = dict(init_ckpt["config"])
            keep = ("mem_side", "mem_slots", "mem_enc_layers", "mem_dec_layers", "dropout", "mem_dropout")
            base.update({k: over[k] for k in keep if k in over})
            if base["vocab_size"] != len(self.sp):
                raise TrainError(f"--init {a.init}: vocabulary of {base['vocab_size']} pieces, "
                                 f"but --spm has {len(self.sp)}")
            return ModelConfig.from_dict(base)
        return make_config(a.config, **over)

    def _load_init(self, ckpt: dict) -> None:
        """Load every weight of the initialising model; only memory parameters may be missing."""
        missing, unexpected = self.model.load_state_dict(ckpt["model"], strict=False)
        not_memory = [k for k in missing if ".memory." not in k]
        if not_memory or unexpected:
            raise TrainError(f"--init {self.args.init}: incompatible weights "
                             f"(missing {not_memory[:3]}, unexpected {unexpected[:3]})")
        self.new_params = set(missing)

    def _optimizer(self, from_init: bool) -> torch.optim.Optimizer:
        a = self.args
        named = list(self.model.named_parameters())
        if a.stage == "document" and getattr(a, "freeze_pretrained", False):
            # Only the memory learns: the sentence model cannot drift, and autograd skips the weight
            # gradients of every other layer (and the layers below the memory altogether). What a
            # CPU can afford: stage 2 of a shipped model whose sentence weights came from a GPU.
            for n, p in named:
                p.requires_grad_(n in self.new_params)
            groups = [{"params": [p for n, p in named if n in self.new_params], "lr": a.lr_new, "name": "new"}]
        elif from_init and a.stage == "document":
            groups = [{"params": [p for n, p in named if n not in self.new_params], "lr": a.lr, "name": "pretrained"},
                      {"params": [p for n, p in named if n in self.new_params], "lr": a.lr_new, "name": "new"}]
        else:
            groups = [{"params": [p for _, p in named], "lr": a.lr, "name": "all"}]
        groups = [g for g in groups if g["params"]]
        return torch.optim.AdamW(groups, betas=(0.9, 0.98), eps=1e-9, weight_decay=a.weight_decay)

    # -- checkpoints ----------------------------------------------------------------------
    def payload(self, metrics: dict | None = None) -> dict[str, Any]:
        prev = None
        if self.prev is not None:
            prev = {"idx": self.prev["idx"], "memory": {k: v.cpu() for k, v in self.prev["memory"].items()}}
        return {
            "model": self.model.state_dict(), "config": self.cfg.to_dict(), "spm": self.spm_bytes,
            "src_lang": self.args.src, "tgt_lang": self.args.tgt, "stage": self.args.stage,
            **({"directions": [list(d) for d in self.directions]} if self.args.bidirectional else {}),
            "step": self.step, "metrics": metrics or {}, "from_init": self.from_init,
            "optimizer": self.optimizer.state_dict(), "scheduler": self.scheduler.state_dict(),
            "data_state": {"epoch": self.pos.epoch, "index": self.pos.index, "prev": prev,
                           "window_rng": self.window_rng.bit_generator.state,
                           "best": self.best, "bad_evals": self.bad_evals, "tokens_seen": self.tokens_seen},
            "rng": rng_state(), "args": {k: str(v) for k, v in vars(self.args).items()},
        }

    def _restore(self, ckpt: dict) -> None:
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])
        self.scheduler.load_state_dict(ckpt["scheduler"])
        ds = ckpt["data_state"]
        self.step, self.pos = ckpt["step"], DataPosition(ds["epoch"], ds["index"])
        self.best, self.bad_evals = ds["best"], ds["bad_evals"]
        self.tokens_seen = int(ds.get("tokens_seen", 0))
        self.window_rng.bit_generator.state = ds["window_rng"]
        if ds["prev"] is not None:
            self.prev = {"idx": ds["prev"]["idx"],
                         "memory": {k: v.to(self.device) for k, v in ds["prev"]["memory"].items()}}
        set_rng_state(ckpt["rng"])

    def save(self, name: str, metrics: dict | None = None) -> None:
        if self.main:
            t = time.time()
            save_checkpoint(self.args.out / name, self.payload(metrics))
            self.save_times.append(time.time() - t)
            self.spent["save"] += self.save_times[-1]
        if name == "last.pt":
            self.last_save_step = self.step

    def log(self, record: dict) -> None:
        if self.log_f is None:  # not the main rank
            return
        record = {"step": self.step, "time": round(time.time(), 1), **record}
        self.log_f.write(json.dumps(record) + "\n")
        self.log_f.flush()
        if not self.args.quiet:
            print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in record.items()
                           if k != "time"), flush=True)

    # -- one forward ----------------------------------------------------------------------
    def loss(self, src, tgt_in, tgt_out, memory=None):
        """Summed token loss of one batch, reading ``memory`` if given (fp32: label_smoothed_loss
        upcasts the logits, and cross-entropy is on autocast's fp32 list)."""
        with self.autocast():
            return self.forward_loss(self.model, src, tgt_in, tgt_out, memory, self.cfg.pad_id,
                                     self.args.label_smoothing)

    def next_memory(self, prev_idx: list[int | None], prev_mem: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """Memory after the previous step's sentences, recomputed with gradients (see module doc)."""
        b = collate(self.train, prev_idx, self.cfg.pad_id, self.cfg.bos_id, self.cfg.eos_id)
        src, tgt_in, _ = to_tensors(b, self.device)
        mem = {k: v.detach() for k, v in prev_mem.items()}  # the detach boundary
        with self.autocast():
            new = self.forward_memory(self.model, src, tgt_in, mem)
        return {k: v.float() for k, v in new.items()}

    # -- training -------------------------------------------------------------------------
    def batches(self):
        """Endless (batch payload) iterator from the current data position, this rank's share."""
        a = self.args
        while True:
            if a.stage == "sentence":
                epoch = sentence_batches(self.train, a.max_tokens, a.seed, self.pos.epoch)
                for i in range(self.pos.index, len(epoch)):
                    self.pos.index = i + 1
                    if i % self.world == self.rank:
                        yield epoch[i], None
            else:
                streams = document_streams(self.train, a.rows * self.world, a.seed, self.pos.epoch)
                for i, (idx, reset) in enumerate(streams):
                    if i < self.pos.index:
                        continue
                    self.pos.index = i + 1
                    share = slice(self.rank * a.rows, (self.rank + 1) * a.rows)
                    yield idx[share], reset[share]
            self.pos = DataPosition(self.pos.epoch + 1, 0)
            self.prev = None

    def micro_step(self, idx: list[int | None], reset: np.ndarray | None) -> tuple[torch.Tensor | float, int]:
        """Forward + backward of one batch (one stream step in stage 2); returns (loss sum, tokens).

        The loss sum stays a tensor: reading it (``.item()``) would wait for the GPU every
        micro-batch; run() reads it only when it logs.
        """
        if self.args.stage == "document":
            return self.stream_step(idx, reset)
        b = collate(self.train, idx, self.cfg.pad_id, self.cfg.bos_id, self.cfg.eos_id)
        src, tgt_in, tgt_out = to_tensors(b, self.device)
        loss = self.loss(src, tgt_in, tgt_out)
        self.scaler.scale(loss / self.grad_unit).backward()
        return loss.detach(), b.n_tokens

    def stream_step(self, idx: list[int | None], reset: np.ndarray | None) -> tuple[torch.Tensor | float, int]:
        """One stage-2 stream step: each row's sentence read with the memory its previous sentence
        wrote (recomputed with gradients), normalised by the step's own tokens. The rows go through
        in parts of similar length (training.data.length_chunks, ``--chunk-tokens``), each part's
        graph freed by its own backward; what a row computes does not depend on the other rows."""
        prev = self.prev
        steps = [idx] if prev is None else [idx, prev["idx"]]
        parts = length_chunks(self.train, steps, self.args.chunk_tokens)
        batches = [collate(self.train, [idx[r] for r in part], self.cfg.pad_id, self.cfg.bos_id, self.cfg.eos_id)
                   for part in parts]
        n = sum(b.n_tokens for b in batches)  # the step's tokens: every part is normalised by them
        new_memory: dict[str, torch.Tensor] = {}
        loss_sum: torch.Tensor | float = 0.0
        for part, b in zip(parts, batches, strict=True):
            src, tgt_in, tgt_out = to_tensors(b, self.device)
            memory = None
            if self.cfg.sides:
                init = self.model.init_memory(len(part))
                memory = init
                where = torch.from_numpy(part).to(self.device)
                if prev is not None:
                    carried = self.next_memory([prev["idx"][r] for r in part],
                                               {k: v.index_select(0, where) for k, v in prev["memory"].items()})
                    assert reset is not None  # document streams always say which rows restart
                    keep = torch.from_numpy(~reset[part]).to(self.device)[:, None, None, None]
                    memory = {k: torch.where(keep, carried[k], init[k]) for k in init}
                for k, v in memory.items():
                    if k not in new_memory:
                        new_memory[k] = torch.empty((len(idx), *v.shape[1:]), dtype=v.dtype, device=v.device)
                    new_memory[k][where] = v.detach()
            loss = self.loss(src, tgt_in, tgt_out, memory)
            self.scaler.scale(loss / max(1, n)).backward()
            loss_sum = loss_sum + loss.detach()
        if self.cfg.sides:
            self.prev = {"idx": idx, "memory": new_memory}
        return loss_sum, n

    def optimizer_step(self) -> torch.Tensor:
        if self.world > 1:
            for p in self.model.parameters():
                if p.grad is not None:
                    dist.all_reduce(p.grad)
                    p.grad /= self.world
        self.scaler.unscale_(self.optimizer)
        norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.clip)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.optimizer.zero_grad(set_to_none=True)
        self.scheduler.step()
        self.step += 1
        return norm  # a device tensor: read when logged

    def run(self) -> dict[str, float]:
        a = self.args
        self.model.train()
        data = self.batches()
        # Since the last log: training seconds only (evaluation and saving are timed apart).
        last: dict[str, float] = {}
        t0, tokens, loss_sum = time.time(), 0, 0.0
        aside = 0.0  # seconds of evaluation + saving inside the current log interval
        self.run_start_step = self.step
        while self.step < a.max_steps:
            if a.time_budget is not None and self.out_of_time():
                last = self.stop_for_budget(last)
                break
            t_step = time.time()
            accum = a.accum if a.stage == "sentence" else int(self.window_rng.integers(1, a.window + 1))
            step_loss: torch.Tensor | float = 0.0
            step_tokens = 0
            for _ in range(accum):
                idx, reset = next(data)
                loss, n = self.micro_step(idx, reset)
                step_loss, step_tokens = step_loss + loss, step_tokens + n
            self.scale_gradients(accum, step_tokens)
            gnorm = self.optimizer_step()
            self.record_step(time.time() - t_step, accum, step_tokens)
            self.tokens_seen += step_tokens
            loss_sum, tokens = loss_sum + float(step_loss), tokens + step_tokens
            if self.step % a.log_every == 0 or self.step == a.max_steps:
                record = {"loss": float(loss_sum) / max(1, tokens), "lr": self.scheduler.get_last_lr()[0],
                          "gnorm": float(gnorm)}  # float(): the one wait for the GPU per log
                dt = time.time() - t0 - aside
                record.update(tok_per_s=round(tokens / max(dt, 1e-9) * self.world), epoch=self.pos.epoch,
                              tokens_seen=self.tokens_seen * self.world,
                              elapsed_s=round(time.time() - self.started, 1))
                # Seconds spent evaluating and saving since the previous log (not in tok_per_s).
                record.update({f"{k}_s": round(v, 2) for k, v in self.spent.items()})
                if "cuda" in self.device:
                    record["peak_mem_gb"] = round(torch.cuda.max_memory_allocated(self.device) / 2**30, 2)
                self.log(record)
                t0, tokens, loss_sum, aside = time.time(), 0, 0.0, 0.0
                self.spent = {"eval": 0.0, "save": 0.0}
            eval_due = bool(self.devs) and (self.step % a.eval_every == 0 or self.step == a.max_steps)
            save_due = self.step % a.save_every == 0 or self.step == a.max_steps
            enough = a.max_target_tokens is not None and self.tokens_seen * self.world >= a.max_target_tokens
            if enough:  # the control's token budget: a final evaluation and save, as at max_steps
                eval_due, save_due = bool(self.devs), True
                self.log({"stopped": "target tokens", "tokens_seen": self.tokens_seen * self.world})
            if not (eval_due or save_due):
                continue
            t_aside = self.sync_time()
            if eval_due:
                last = self.evaluate_and_keep_best()
                if self.bad_evals >= a.patience:
                    self.log({"early_stop": f"no dev improvement in {a.patience} evaluations"})
                    self.save("last.pt", last)
                    break
            if save_due:
                self.save("last.pt", last)
            aside += time.time() - t_aside
            if enough:
                break
        if not self.devs:
            self.save("best.pt", last)
        return last

    def sync_time(self) -> float:
        """time.time() once the GPU has finished the queued training work, so that it is not
        counted as evaluation or saving time."""
        if "cuda" in self.device:
            torch.cuda.synchronize(self.device)
        return time.time()

    def scale_gradients(self, accum: int, step_tokens: int) -> None:
        """Normalise the accumulated gradient of one optimizer step (see ``grad_unit``)."""
        a = self.args
        if a.stage == "sentence":
            total = step_tokens
            if self.world > 1:  # all ranks' tokens: optimizer_step then averages over ranks
                t = torch.tensor([step_tokens], dtype=torch.float64, device=self.device)
                dist.all_reduce(t)
                total = int(t.item())
            factor = self.grad_unit * self.world / max(1, total)
        else:
            # Each stream step was normalised by its own token count, so a window of k steps
            # weighs them equally; dividing by k keeps the step size independent of k.
            factor = 1.0 / accum
        for p in self.model.parameters():
            if p.grad is not None:
                p.grad *= factor

    def evaluate_and_keep_best(self, scheduled: bool = True) -> dict[str, float]:
        """Dev evaluation; saves best.pt on improvement. An unscheduled one (the --time-budget
        stop) never counts as a strike towards --patience."""
        t = self.sync_time()
        last = self.evaluate()
        self.eval_times.append(time.time() - t)
        self.spent["eval"] += self.eval_times[-1]
        self.last_eval_step = self.step
        self.log({"eval": last, "eval_s": round(self.eval_times[-1], 2)})
        if last["dev_loss"] < self.best - 1e-4:
            self.best = last["dev_loss"]
            if scheduled:
                self.bad_evals = 0
            self.save("best.pt", last)
        elif scheduled:
            self.bad_evals += 1
        return last

    # -- --time-budget --------------------------------------------------------------------
    def finish_estimate(self) -> float:
        """Seconds to wrap up after a step: an evaluation (with dev sets) and two checkpoints
        (best.pt + last.pt). Measured ones once seen (the slowest, to be safe), else priors."""
        params = sum(p.numel() * p.element_size() for p in self.model.parameters())
        # A checkpoint holds the weights and AdamW's two moments: ~3x the parameter bytes,
        # written at an assumed 200 MB/s until a save has been timed.
        save = max(self.save_times) if self.save_times else 0.5 + 3 * params / 200e6
        evaluation = 0.0
        if self.devs:
            if self.eval_times:
                evaluation = max(self.eval_times)
            elif self.recent_steps:  # dev tokens at the training speed: pessimistic (no backward)
                dev_tokens = sum(len(c.tgt_tokens) + c.n_sentences for c in self.devs.values())
                evaluation = dev_tokens / max(self.tokens_per_second(), 1.0)
        return evaluation + 2 * save

    def tokens_per_second(self) -> float:
        seconds = sum(s for s, _, _ in self.recent_steps)
        return sum(n for _, _, n in self.recent_steps) / seconds if seconds > 0 else 0.0

    def record_step(self, seconds: float, micro_batches: int, tokens: int) -> None:
        """Time a step for the budget's estimates. A run's first step pays the warm-up (CUDA
        context, allocator, kernel choice for new shapes): on the H100 stage 2's took 6-8 s a
        stream sentence against ~1.7 s later, and, times the largest window, the estimate stopped
        a 67 s stage after one step. It stands in until a later step is timed, then it goes."""
        if len(self.recent_steps) == 1 and self.step - self.run_start_step == 2:
            self.recent_steps.popleft()
        self.recent_steps.append((seconds, micro_batches, tokens))
        if self.step - self.run_start_step in (1, 2):  # where a short run's minutes go, in its log
            self.log({"timed_step": self.step - self.run_start_step, "step_s": round(seconds, 2),
                      "micro_batches": micro_batches, "elapsed_s": round(time.time() - self.started, 2)})

    def step_estimate(self) -> float:
        """Seconds the next optimizer step may take: the slowest recent time per micro-batch
        times the most micro-batches a step can have (stage 2 draws its window at random)."""
        if not self.recent_steps:
            return 0.0  # nothing measured yet: the first step (and its compilation) is let run
        per_micro = max(s / k for s, k, _ in self.recent_steps)
        return per_micro * (self.args.accum if self.args.stage == "sentence" else self.args.window)

    def out_of_time(self) -> bool:
        """Would the next step, then the wrap-up (eval + saves), overrun --time-budget?

        The clock runs from the process start (model building and data loading count). A 10%
        + 0.5 s margin covers timing noise and the exit. All ranks decide together (a rank that
        stopped alone would leave the others waiting in their all-reduce).
        """
        need = self.step_estimate() + self.finish_estimate()
        stop = time.time() - self.started + 1.1 * need + 0.5 > self.args.time_budget
        if self.world > 1:
            flag = torch.tensor([float(stop)], device=self.device)
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
            stop = bool(flag.item())
        return stop

    def stop_for_budget(self, last: dict[str, float]) -> dict[str, float]:
        """Evaluate if steps were trained since the last evaluation, save a resumable last.pt.
        (Out of time before the first step: only a fresh run writes its step-0 last.pt.)"""
        trained = self.step != self.run_start_step
        if self.devs and trained and self.last_eval_step != self.step:
            last = self.evaluate_and_keep_best(scheduled=False)
        if self.last_save_step != self.step and (trained or not (self.args.out / "last.pt").exists()):
            self.save("last.pt", last)
        self.log({"stopped": "time budget", "budget_s": self.args.time_budget,
                  "tokens_seen": self.tokens_seen * self.world,
                  "elapsed_s": round(time.time() - self.started, 2),
                  "step_s": round(self.step_estimate(), 3), "finish_s": round(self.finish_estimate(), 2)})
        return last

    @torch.no_grad()
    def evaluate(self) -> dict[str, float]:
        """Teacher-forced dev loss (per target token); documents in order with the memory loop."""
        self.model.eval()
        rng = rng_state()  # evaluation must not change the training RNG stream
        total, tokens = 0.0, 0
        per_corpus: dict[str, float] = {}
        for name, corpus in self.devs.items():
            t, n = self.corpus_dev_loss(corpus)
            total, tokens = total + t, tokens + n
            per_corpus[f"dev_loss[{name}]"] = t / max(1, n)
        set_rng_state(rng)
        self.model.train()
        loss = total / max(1, tokens)
        result = {"dev_loss": loss, "dev_ppl": math.exp(min(20.0, loss))}
        if len(per_corpus) > 1:
            result.update(per_corpus)
        return result

    def corpus_dev_loss(self, corpus: TokenizedCorpus) -> tuple[float, int]:
        """(summed loss, target tokens) of one dev corpus; other approaches override this."""
        return dev_loss(self.model, corpus, self.args.stage == "document", self.device)


@torch.no_grad()
def dev_loss(model: MemoryTransformer, corpus: TokenizedCorpus, with_memory: bool, device: str,
             rows: int = 64) -> tuple[float, int]:
    """Summed cross-entropy (no smoothing) and target tokens over a corpus, documents in order.

    Without memory the order does not matter, and sentences of similar length are batched
    together instead: one stream step per sentence position made a GPU evaluation of the dev
    splits (two TVsub episodes of 543 lines) hundreds of tiny sequential forward passes.
    """
    cfg = model.cfg
    total, tokens = 0.0, 0
    if not (with_memory and cfg.sides):
        ls, lt = corpus.lengths()
        order = np.argsort(np.maximum(ls, lt), kind="stable")
        for b0 in range(0, len(order), 256):
            b = collate(corpus, [int(i) for i in order[b0:b0 + 256]], cfg.pad_id, cfg.bos_id, cfg.eos_id)
            src, tgt_in, tgt_out = to_tensors(b, device)
            logits, _ = model(src, tgt_in, None)
            total += label_smoothed_loss(logits, tgt_out, cfg.pad_id, 0.0, reduce=False).item()
            tokens += b.n_tokens
        return total, tokens
    step_sum = torch.zeros((), dtype=torch.float64, device=device)
    for d0 in range(0, corpus.n_documents, rows):
        docs = list(range(d0, min(corpus.n_documents, d0 + rows)))
        starts = [int(corpus.doc_offsets[d]) for d in docs]
        lengths = [int(corpus.doc_offsets[d + 1]) - s for d, s in zip(docs, starts, strict=True)]
        memory = model.init_memory(len(docs)) if with_memory and cfg.sides else None
        for t in range(max(lengths)):
            idx = [s + t if t < n else None for s, n in zip(starts, lengths, strict=True)]
            b = collate(corpus, idx, cfg.pad_id, cfg.bos_id, cfg.eos_id)
            src, tgt_in, tgt_out = to_tensors(b, device)
            logits, memory = model(src, tgt_in, memory)
            # Summed on the device: an .item() per sentence position waited for the GPU ~1,000
            # times in a stage-2 evaluation (15-17 s on the H200 for the six dev splits).
            step_sum += label_smoothed_loss(logits, tgt_out, cfg.pad_id, 0.0, reduce=False).detach()
            tokens += b.n_tokens
    return total + float(step_sum), tokens


def setup_distributed(args: argparse.Namespace) -> None:
    if int(os.environ.get("WORLD_SIZE", "1")) > 1 and not dist.is_initialized():
        backend = "nccl" if args.device.startswith("cuda") else "gloo"
        dist.init_process_group(backend)
        if backend == "nccl":
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
