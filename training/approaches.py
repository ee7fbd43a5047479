"""The document-level approaches side by side, selected by ``--approach``: a small registry.

- ``memory``: the recurrent memory Transformer (``training/model.py``), trained by
  ``training.trainer.Trainer`` itself.
- ``gtransformer``: G-Transformer (``training/gtransformer.py``): batches of document instances.
- ``cache``: context caching with sequence shortening (``training/context_cache.py``): the same
  document streams (or sentence batches), each sentence reading its k previous sentences.
- ``smdt``: SMDT (``training/smdt.py``): G-Transformer's instances plus, for every sentence, the
  pairs retrieved for it from the training corpus (``training/retrieval.py``, precomputed once and
  cached), with the sentence-level task mixed in.

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
from pathlib import Path

import numpy as np
import torch

from training import context_cache, gtransformer, retrieval, smdt
from training import search as memory_search
from training.checkpoint import read_checkpoint
from training.data import TokenizedCorpus, collate
from training.model import MemoryTransformer, ModelConfig, label_smoothed_loss
from training.search import DocumentTranslation
from training.trainer import DataPosition, Trainer, TrainError, parse_corpus_arg, to_tensors

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
        g = p.add_argument_group("G-Transformer (--approach gtransformer; also smdt)")
        g.add_argument("--global-layers", type=int, default=2, help="top layers with combined group+global attention")
        g.add_argument("--word-dropout", type=float, default=0.1, help="replace input words by <unk> (training)")
        g.add_argument("--instance-tokens", type=int, default=512,
                       help="source tokens per document instance (smdt: the document part, retrieved pairs apart)")

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


# -- SMDT ------------------------------------------------------------------------------------


class SMDTTrainer(GTransformerTrainer):
    """G-Transformer's instances, each sentence with its retrieved pairs; a ``--sentence-task``
    share of the batches splits its instances into one-sentence instances (the auxiliary task)."""

    config_class = smdt.SMDTConfig

    @staticmethod
    def add_arguments(p: argparse.ArgumentParser) -> None:
        g = p.add_argument_group("SMDT (--approach smdt; also --global-layers, --word-dropout, --instance-tokens)")
        g.add_argument("--retrieve-k", type=int, default=1, help="retrieved sentence pairs per sentence")
        g.add_argument("--global-heads", type=int, nargs=3, metavar=("MEMORY", "DOCUMENT", "ADJACENT"),
                       help="global heads of each kind (default: the paper's 3:3:2 of 8, scaled to --config's heads)")
        g.add_argument("--adjacent", type=int, default=2,
                       help="adjacent-sentence heads: sentences within this distance")
        g.add_argument("--selection", action=argparse.BooleanOptionalAction, default=True,
                       help="selection layer: keep or drop each retrieved token")
        g.add_argument("--sentence-task", type=float, default=0.5,
                       help="share of batches given as one-sentence instances (the auxiliary task)")
        g.add_argument("--retrieval-max-df", type=int, default=2000,
                       help="retrieval: terms in more sentences than this are not searched (stop words)")
        g.add_argument("--retrieval-cache", type=Path,
                       help="folder of the cached retrieval (default: next to the first --data if it is a "
                            "pre-tokenized .npz, else OUT/cache with the tokenized corpus)")

    def __init__(self, args: argparse.Namespace):
        if args.bidirectional:
            raise TrainError("--approach smdt: one direction per model (the translation memory is one "
                             "direction's pairs)")
        super().__init__(args)
        self.model.tm = retrieval.TranslationMemory.from_corpus(self.train)
        self.neighbours = retrieval.training_neighbours(self.train, self.cfg.retrieve_k, self.cfg.retrieval_max_df,
                                                        self.retrieval_cache(), log=self.log_line)
        self.dev_neighbours: dict[int, np.ndarray] = {}

    def log_line(self, line: str) -> None:
        if self.main and not self.args.quiet:
            print(line, flush=True)

    def retrieval_cache(self) -> Path:
        """Next to the tokenized training data: the folder of a pre-tokenized ``.npz`` (training.prepare_data
        writes them into the user's run folders), else OUT/cache, where a JSONL corpus is tokenized
        (never into the corpus's own folder: shared data stays read-only)."""
        a = self.args
        if a.retrieval_cache is not None:
            return a.retrieval_cache
        data = parse_corpus_arg(a.data[0])[0]
        return data.parent if data.suffix == ".npz" else a.out / "cache"

    def approach_overrides(self) -> dict:
        a = self.args
        sep = self.sp.piece_to_id("<sep>")
        return dict(super().approach_overrides(), retrieve_k=a.retrieve_k, adjacent=a.adjacent, selection=a.selection,
                    retrieval_max_df=a.retrieval_max_df,
                    sep_id=int(sep) if sep != self.sp.unk_id() else self.sp.eos_id())

    def _model_config(self, resume_ckpt, init_ckpt):
        cfg = super()._model_config(resume_ckpt, init_ckpt)
        if resume_ckpt is None:  # the head split is recorded for the heads the model has
            try:
                cfg.head_split = smdt.head_split(cfg.n_heads, self.args.global_heads or ())
            except ValueError as e:
                raise TrainError(f"--global-heads: {e}") from None
        return cfg

    def build_model(self, cfg):
        return smdt.SMDT(cfg)

    def batches(self):
        for share, reset in super().batches():
            sentence_task = np.random.default_rng([self.args.seed, self.pos.epoch, self.pos.index, 5]).random()
            if sentence_task < self.args.sentence_task:
                share = [[i] for inst in share for i in inst]  # the same sentences, one per instance
            yield share, reset

    def collate(self, corpus: TokenizedCorpus, instances: list[list[int]], neighbours: np.ndarray | None = None):
        b = smdt.collate_instances(corpus, instances, self.neighbours if neighbours is None else neighbours,
                                   self.model.tm, self.cfg)
        return b, [torch.from_numpy(x).to(self.device) for x in (b.src, b.pos, b.meta, b.tgt_in, b.tgt_out)]

    def micro_step(self, idx, reset):
        _, (src, pos, meta, tgt_in, tgt_out) = self.collate(self.train, idx)
        with self.autocast():
            logits = self.model(src, pos, meta, tgt_in)
        return self.backward(logits, tgt_out)

    @torch.no_grad()
    def corpus_dev_loss(self, corpus: TokenizedCorpus, cells: int = 16_000_000) -> tuple[float, int]:
        """Document instances of ``corpus``, each sentence with its pairs from the training TM; a batch
        holds at most ``cells`` rows x (source tokens)^2 (the dense masks grow with the square)."""
        if id(corpus) not in self.dev_neighbours:
            self.dev_neighbours[id(corpus)] = self.model.tm.index.search(
                corpus.src_tokens, corpus.src_offsets, self.cfg.retrieve_k, self.cfg.retrieval_max_df)[0]
        neighbours = self.dev_neighbours[id(corpus)]
        inst = gtransformer.corpus_instances(corpus, self.cfg.doc_max_len)
        lengths = smdt.source_lengths(corpus, inst, neighbours, self.model.tm, self.cfg)
        total, tokens = 0.0, 0
        for s, e in smdt.square_batches(lengths, cells):
            b, (src, pos, meta, tgt_in, tgt_out) = self.collate(corpus, inst[s:e], neighbours)
            logits = self.model(src, pos, meta, tgt_in)
            total += label_smoothed_loss(logits, tgt_out, self.cfg.pad_id, 0.0, reduce=False).item()
            tokens += b.n_tokens
        return total, tokens

    def payload(self, metrics: dict | None = None) -> dict:
        """The checkpoint also holds the translation memory (the training pairs) the model retrieves from."""
        return {**super().payload(metrics), "tm": self.model.tm.payload()}


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

TRAINERS: dict[str, type[Trainer]] = {"memory": Trainer, "gtransformer": GTransformerTrainer, "cache": CacheTrainer,
                                      "smdt": SMDTTrainer}


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
    if isinstance(model, smdt.SMDT):  # before G-Transformer: SMDT is one
        if no_repeat_ngram:
            raise ValueError("no_repeat_ngram is not supported for SMDT")
        return smdt.translate_documents(model, documents, beam, length_penalty)
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
