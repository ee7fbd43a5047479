"""Train a document-level translation model: the command line (``--approach``, default the memory
Transformer of Feng et al. 2022, in two stages, §3.4 and §5).

Stage 1, sentence-level (memory off), shuffled pairs in token-bucketed batches::

    python -m training.train --stage sentence --config small --src zh --tgt en \\
        --data ../shared/data/tvsub-zh-en/train.jsonl.xz --dev ../shared/data/tvsub-zh-en/dev.jsonl.xz \\
        --spm runs/spm/zh_en.model --out runs/zh_en_s1

Stage 2, document-level, initialised from stage 1 (only the memory parameters are new)::

    python -m training.train --stage document --init runs/zh_en_s1/best.pt ... --out runs/zh_en_s2

The training loop is ``training.trainer.Trainer`` (how stage 2 batches documents, resume, the
time budget, several GPUs); the other approaches and their flags are in ``training.approaches``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch
import torch.distributed as dist

from training import approaches
from training.checkpoint import CheckpointError
from training.data import DataError
from training.model import CONFIGS
from training.trainer import TrainError, process_start_time, setup_distributed


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Train the doctrans memory Transformer.",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--stage", choices=["sentence", "document"], required=True)
    p.add_argument("--approach", choices=sorted(approaches.TRAINERS), default="memory",
                   help="document-level model: recurrent memory (model.py), G-Transformer (gtransformer.py), "
                        "context caching/shortening (context_cache.py) or SMDT with retrieved pairs (smdt.py); "
                        "see training/approaches.py")
    p.add_argument("--data", required=True, nargs="+",
                   help="training corpora; PATH or PATH:WEIGHT (integer up-sampling factor); a PATH is a "
                        "JSONL(.xz) corpus or a pre-tokenized .npz of training.prepare_data")
    p.add_argument("--dev", nargs="*", default=[], help="dev corpora for evaluation / early stopping")
    p.add_argument("--src", required=True)
    p.add_argument("--tgt", required=True)
    p.add_argument("--bidirectional", action="store_true",
                   help="one model for SRC->TGT and TGT->SRC: every corpus in both directions, the target "
                        "language's tag (<2en>, a SentencePiece user symbol) before each source sentence")
    p.add_argument("--out", required=True, type=Path, help="run directory (checkpoints, log)")
    p.add_argument("--spm", type=Path, help="SentencePiece model; trained into --out if omitted")
    p.add_argument("--vocab-size", type=int, default=8000, help="when training the SentencePiece model")
    p.add_argument("--config", default="small", choices=sorted(CONFIGS))
    p.add_argument("--mem-side", default="both", choices=["none", "src", "tgt", "both"],
                   help="document stage: which sides carry memory")
    p.add_argument("--mem-layers", type=int, nargs="+", default=[-1], help="layers with memory (-1 = top)")
    p.add_argument("--mem-slots", type=int, default=16)
    p.add_argument("--dropout", type=float)
    p.add_argument("--mem-dropout", type=float,
                   help="dropout inside the memory units (Feng et al. use 0.3); default: --dropout")
    approaches.add_arguments(p)  # each approach's own flags
    p.add_argument("--init", type=Path, help="start from this checkpoint's weights (stage 2: a stage-1 model)")
    p.add_argument("--resume", action="store_true", help="continue from OUT/last.pt exactly")
    p.add_argument("--max-docs", type=int, help="use only the first N documents of each corpus")
    # Optimisation
    p.add_argument("--max-tokens", type=int, default=4096, help="sentence stage: target tokens per batch")
    p.add_argument("--rows", type=int, default=32, help="document stage: document streams per batch")
    p.add_argument("--chunk-tokens", type=int, default=32768,
                   help="document stage: the rows of a step go through in parts of similar length, at most "
                        "this many padded positions (rows x longest sentence) each (training.data.length_chunks)")
    p.add_argument("--window", type=int, default=4,
                   help="document stage: accumulate gradients over a random 1..WINDOW steps")
    p.add_argument("--accum", type=int, default=1, help="sentence stage: batches per optimizer step")
    p.add_argument("--lr", type=float, default=7e-4, help="peak LR (document stage: pre-trained params)")
    p.add_argument("--lr-new", type=float, default=3e-4, help="document stage: LR of the new memory params")
    p.add_argument("--freeze-pretrained", action="store_true",
                   help="document stage: train the memory parameters only (the sentence model stays as it is)")
    p.add_argument("--schedule", choices=["inv_sqrt", "cosine"], default="inv_sqrt")
    p.add_argument("--warmup", type=int, default=1000)
    p.add_argument("--max-steps", type=int, default=10000, help="optimizer steps")
    p.add_argument("--weight-decay", type=float, default=0.0)
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--amp", choices=["none", "bf16", "fp16"], default="bf16", help="autocast on GPU only")
    p.add_argument("--compile", action="store_true",
                   help="torch.compile the training forward passes (dynamic shapes; the first steps "
                        "pay the compilation, minutes on a CPU)")
    p.add_argument("--max-target-tokens", type=int, metavar="N",
                   help="stop once this many target tokens were trained on (over resumes): a control run "
                        "reads as many tokens as the run it is compared with")
    p.add_argument("--time-budget", type=float, metavar="SECONDS",
                   help="wall-clock seconds from the process start: stop (with eval + last.pt) before "
                        "the next step would overrun it; --max-steps stays the LR schedule length")
    # Bookkeeping
    p.add_argument("--eval-every", type=int, default=500)
    p.add_argument("--save-every", type=int, default=500)
    p.add_argument("--patience", type=int, default=5, help="stop after N evaluations without improvement")
    p.add_argument("--log-every", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, help="torch CPU threads")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--quiet", action="store_true")
    return p.parse_args(argv)


def main(argv: list[str] | None = None, started: float | None = None) -> int:
    """``started``: when the --time-budget clock starts; default: the process start, also for an
    in-process call (training.device_run adds the time already spent to each phase's budget;
    a test passes its own start)."""
    args = parse_args(argv)
    args.started_at = started if started is not None else process_start_time()
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        setup_distributed(args)
        trainer = approaches.trainer_for(args)
        if trainer.main and not args.quiet:
            n = sum(p.numel() for p in trainer.model.parameters())
            print(f"stage={args.stage} params={n / 1e6:.2f}M train={trainer.train.n_documents} docs/"
                  f"{trainer.train.n_sentences} sents device={trainer.device} world={trainer.world} "
                  f"resume_step={trainer.step}", flush=True)
        metrics = trainer.run()
    except (DataError, TrainError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except FileNotFoundError as e:
        print(f"error: {e.filename}: no such file", file=sys.stderr)
        return 2
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
    if trainer.main and not args.quiet:
        print(f"done: step={trainer.step} {json.dumps(metrics)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
