"""The document-level approaches side by side, selected by ``--approach``: a small registry.

- ``memory``: the recurrent memory Transformer (``training/model.py``), trained by
  ``training.trainer.Trainer`` itself.
- ``gtransformer``: G-Transformer (``training/gtransformer.py``): batches of document instances.
- ``cache``: context caching with sequence shortening (``training/context_cache.py``): the same
  document streams (or sentence batches), each sentence reading its k previous sentences.

The other approaches reuse everything of the memory model's pipeline: SentencePiece, the
tokenized corpus, ``Trainer`` (two learning rates for new vs pre-trained parameters when
initialised with ``--init`` from a stage-1 sentence model, warm-up, clipping, the random
accumulation window of "group optimization", exact resume, early stopping on dev loss,
checkpoints) and ``training.evaluate`` (s-BLEU/d-BLEU). What an approach provides is the
protocol :class:`Trainer` calls: its flags (``add_arguments``), its model (``build_model``; the
model names its ``new_parameter_names()``, those a sentence-level checkpoint lacks), its batches
(``batches``), one micro-batch's loss and backward (``micro_step``) and the dev loss
(``corpus_dev_loss``). Checkpoints of every approach are loaded by ``training.checkpoint.load_model``.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from training import context_cache, gtransformer
from training import search as memory_search
from training.checkpoint import read_checkpoint
from training.data import TokenizedCorpus, collate
from training.model import MemoryTransformer, ModelConfig, label_smoothed_loss
from training.search import DocumentTranslation
from training.trainer import DataPosition, Trainer, TrainError, to_tensors

# -- shared ----------------------------------------------------------------------------------


class ApproachTrainer(Trainer):
    """Trainer of a model that is the sentence-level model plus new parts (not the memory)."""

    config_class: type[ModelConfig] = ModelConfig

    def approach_overrides(self) -> dict:
        raise NotImplementedError

    def _model_config(self, resume_ckpt, init_ckpt):
        if self.args.stage != "document":
            raise TrainError(f"--approach {self.args.approach} is a document stage; stage 1 is the "
                             "sentence-level model (--approach memory --stage sentence)")
        if resume_ckpt is not None:
            return self.config_class.from_dict(resume_ckpt["config"])
        base = super()._model_config(None, init_ckpt).to_dict()  # sizes, vocabulary, dropout
        return self.config_class.from_dict({**base, "mem_side": "none", **self.approach_overrides()})

    def _load_init(self, ckpt: dict) -> None:
        """Every weight of the sentence-level model is copied; only the approach's new parts may be missing."""
        missing, unexpected = self.model.load_state_dict(ckpt["model"], strict=False)
        new = set(self.model.new_parameter_names())
        not_new = [k for k in missing if k not in new]
        if not_new or unexpected:
            raise TrainError(f"--init {self.args.init}: incompatible weights "
                             f"(missing {not_new[:3]}, unexpected {unexpected[:3]})")
        self.new_params = set(missing)

    def backward(self, logits: torch.Tensor, tgt_out: torch.Tensor) -> tuple[float, int]:
        loss = label_smoothed_loss(logits, tgt_out, self.cfg.pad_id, self.args.label_smoothing, reduce=False)
        n = int((tgt_out != self.cfg.pad_id).sum())
        self.scaler.scale(loss / max(1, n)).backward()
        return loss.item(), n


# -- G-Transformer ---------------------------------------------------------------------------


class GTransformerTrainer(ApproachTrainer):
    config_class = gtransformer.GTConfig

    @staticmethod
    def add_arguments(p: argparse.ArgumentParser) -> None:
        g = p.add_argument_group("G-Transformer (--approach gtransformer)")
        g.add_argument("--global-layers", type=int, default=2, help="top layers with combined group+global attention")
        g.add_argument("--word-dropout", type=float, default=0.1, help="replace input words by <unk> (training)")
        g.add_argument("--instance-tokens", type=int, default=512, help="source tokens per document instance")

    def approach_overrides(self) -> dict:
        a = self.args
        return dict(global_layers=a.global_layers, word_dropout=a.word_dropout, doc_max_len=a.instance_tokens)

    def build_model(self, cfg):
        return gtransformer.GTransformer(cfg)

    def batches(self):
        """Endless batches of ``--rows`` document instances (this rank's share) from the data position."""
        a = self.args
        while True:
            epoch = gtransformer.instance_batches(self.train, self.cfg.doc_max_len, a.rows * self.world,
                                                  a.seed, self.pos.epoch)
            for i in range(self.pos.index, len(epoch)):
                self.pos.index = i + 1
                share = epoch[i][self.rank * a.rows:(self.rank + 1) * a.rows]
                if len(epoch[i]) >= self.world and share:  # a tail too small to share is skipped
                    yield share, None
            self.pos = DataPosition(self.pos.epoch + 1, 0)

    def collate(self, corpus: TokenizedCorpus, instances: list[list[int]]):
        c = self.cfg
        return to_tensors(gtransformer.collate_instances(corpus, instances, c.pad_id, c.bos_id, c.eos_id, c.max_len),
                          self.device)

    def micro_step(self, idx, reset):
        src, tgt_in, tgt_out = self.collate(self.train, idx)
        with self.autocast():
            logits = self.model(src, tgt_in)
        return self.backward(logits, tgt_out)

    @torch.no_grad()
    def corpus_dev_loss(self, corpus: TokenizedCorpus, rows: int = 16) -> tuple[float, int]:
        inst = gtransformer.corpus_instances(corpus, self.cfg.doc_max_len)
        total, tokens = 0.0, 0
        for s in range(0, len(inst), rows):
            src, tgt_in, tgt_out = self.collate(corpus, inst[s:s + rows])
            logits = self.model(src, tgt_in)
            total += label_smoothed_loss(logits, tgt_out, self.cfg.pad_id, 0.0, reduce=False).item()
            tokens += int((tgt_out != self.cfg.pad_id).sum())
        return total, tokens


# -- context caching / shortening ------------------------------------------------------------


def context_sources(corpus: TokenizedCorpus, idx: list[int | None], k: int, pad: int, bos: int, eos: int,
                    device: str) -> list[torch.Tensor]:
    """For sentences ``idx``: the source ids of the sentence 1..k back in the same document
    (all-padding rows where there is none); stops at the first distance no row has."""
    offsets = corpus.doc_offsets
    starts: list[int | None] = [None if i is None else int(offsets[np.searchsorted(offsets, i, "right") - 1])
                                for i in idx]
    out = []
    for j in range(1, k + 1):
        back = [None if i is None or s is None or i - j < s else i - j for i, s in zip(idx, starts, strict=True)]
        if all(b is None for b in back):
            break
        out.append(torch.from_numpy(collate(corpus, back, pad, bos, eos).src).to(device))
    return out


class CacheTrainer(ApproachTrainer):
    config_class = context_cache.CacheConfig

    @staticmethod
    def add_arguments(p: argparse.ArgumentParser) -> None:
        g = p.add_argument_group("context caching and shortening (--approach cache)")
        g.add_argument("--context-size", type=int, default=3, help="previous sentences read as context (k)")
        g.add_argument("--shorten", default="none", choices=list(context_cache.SHORTENINGS))
        g.add_argument("--pool-size", type=int, default=4, help="pooling window for mean/max/linear")
        g.add_argument("--groups", type=int, default=9, help="groups of latent grouping/selecting")
        g.add_argument("--categorize", choices=["softmax", "sparsemax"], default="softmax",
                       help="normalisation of latent grouping/selecting weights")
        g.add_argument("--shorten-grad", type=int, default=-1,
                       help="nearest context sentences whose shortening gets gradient (-1 = all)")
        g.add_argument("--context-gate", action=argparse.BooleanOptionalAction, default=True,
                       help="sigmoid gate on the decoder's context attention")

    def approach_overrides(self) -> dict:
        a = self.args
        return dict(context_size=a.context_size, shorten=a.shorten, pool_size=a.pool_size, n_groups=a.groups,
                    categorize=a.categorize, shorten_grad=a.shorten_grad, context_gate=a.context_gate)

    def build_model(self, cfg):
        return context_cache.CacheTransformer(cfg)

    def forward(self, corpus: TokenizedCorpus, idx: list[int | None]):
        c = self.cfg
        src, tgt_in, tgt_out = to_tensors(collate(corpus, idx, c.pad_id, c.bos_id, c.eos_id), self.device)
        ctx = context_sources(corpus, idx, c.context_size, c.pad_id, c.bos_id, c.eos_id, self.device)
        with self.autocast():
            return self.model(src, tgt_in, ctx), tgt_out

    def micro_step(self, idx, reset):
        return self.backward(*self.forward(self.train, idx))

    @torch.no_grad()
    def corpus_dev_loss(self, corpus: TokenizedCorpus, rows: int = 64) -> tuple[float, int]:
        total, tokens = 0.0, 0
        for s in range(0, corpus.n_sentences, rows):
            logits, tgt_out = self.forward(corpus, list(range(s, min(corpus.n_sentences, s + rows))))
            total += label_smoothed_loss(logits, tgt_out, self.cfg.pad_id, 0.0, reduce=False).item()
            tokens += int((tgt_out != self.cfg.pad_id).sum())
        return total, tokens


# -- registry --------------------------------------------------------------------------------

TRAINERS: dict[str, type[Trainer]] = {"memory": Trainer, "gtransformer": GTransformerTrainer, "cache": CacheTrainer}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Every approach's own flags (the memory model's are the common ones, in training.train)."""
    for trainer in TRAINERS.values():
        trainer.add_arguments(p)


def trainer_class(approach: str) -> type[Trainer]:
    return TRAINERS[approach]


def trainer_for(args) -> Trainer:
    """The Trainer of ``--approach``; a resumed run must keep the approach it was started with."""
    last = args.out / "last.pt"
    if args.resume and last.exists():
        started = read_checkpoint(last)["config"].get("approach", "memory")
        if started != args.approach:
            raise TrainError(f"--resume: {last} was trained with --approach {started}, not {args.approach}")
    return trainer_class(args.approach)(args)


def translate_documents(model: torch.nn.Module, documents: list[list[list[int]]], beam: int = 5,
                        length_penalty: float = 1.0, no_repeat_ngram: int = 0) -> list[DocumentTranslation]:
    """Translate documents (source sentences as ids) with whichever approach ``model`` is."""
    if isinstance(model, gtransformer.GTransformer):
        if no_repeat_ngram:  # its search decodes whole groups of sentences in one sequence
            raise ValueError("no_repeat_ngram is not supported for G-Transformer")
        return gtransformer.translate_documents(model, documents, beam, length_penalty)
    if isinstance(model, context_cache.CacheTransformer):
        return context_cache.translate_documents(model, documents, beam, length_penalty,
                                                 no_repeat_ngram=no_repeat_ngram)
    assert isinstance(model, MemoryTransformer)
    return memory_search.translate_documents(model, documents, beam=beam, length_penalty=length_penalty,
                                             no_repeat_ngram=no_repeat_ngram)
