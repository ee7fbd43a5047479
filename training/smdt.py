"""SMDT (Zhang et al. 2022, "Selective Memory-augmented Neural Document Translation"), in one file.

Reads top to bottom: config -> the source layout -> masks -> selection layer -> the model -> data ->
decoding. SMDT extends G-Transformer's two-stream attention (training/gtransformer.py, whose layers,
parameter names and instance search it reuses) with retrieved sentence pairs:

- **Input** (§2.2): an instance is a run of whole document sentences (``x_1 </s> x_2 </s> ...``,
  positions over the instance, as in G-Transformer), followed by the **translation memory** part:
  for each sentence i, its ``retrieve_k`` retrieved pairs ``z = x^r <sep> y^r </s>`` (training/
  retrieval.py: BM25 over the training corpus, never the sentence's own document). ``<sep>`` is
  the paper's "special separator" (the SentencePiece user symbol); each pair's positions start at
  0, and a learned kind embedding (zero at init) marks retrieved-source / retrieved-target tokens.
- Every source token carries its sentence **tag** i (retrieved tokens: the tag of the sentence
  they were retrieved for), a **kind** (document / retrieved source / retrieved target) and a
  **local group** (its document sentence, or its retrieved pair).
- **Local attention** (§2.3), every layer: encoder self-attention within the local group; the
  decoder attends to its own target sentence and (cross) to its own source sentence only, as in
  G-Transformer.
- **Diverse global attention** in the top ``global_layers`` (paper: 2) layers, combined with the
  local attention by G-Transformer's gate-sum ``g = sigmoid([h_l, h_g] W + b)``; each head of the
  global attention has its own span (paper: 3 / 3 / 2 of 8 heads; ``head_split``):
  **memory-focus** heads see the query's sentence and its retrieved pairs, **document** heads all
  document sentences, **adjacent** heads the document sentences within ``adjacent`` of the query's.
  Retrieved tokens as queries read their sentence and its pairs on every global head. This holds
  for the encoder's self-attention and the decoder's cross-attention; the decoder's global
  self-attention is G-Transformer's (every earlier target token: the target has no retrieved part).
- **Selection layer** (eq. 4), on top of the encoder: ``h = SelfAttn(sum_i a_i h_i)`` over the
  outputs of the L encoder layers (a = softmax of learned weights; the self-attention is
  pre-norm with a residual and reads the query's sentence and its pairs), then
  ``sigma = argmax softmax(W_s h)`` decides for every **retrieved** token whether it is kept
  (document tokens always are). A dropped token is invisible to the decoder (masked in its
  cross-attention and zeroed). The paper gives no gradient estimator for the argmax; here training
  samples the choice with straight-through Gumbel-softmax (hard 0/1 forward, softmax gradient), and
  evaluation takes the argmax. ``W_s``'s bias starts at (0, 2): a retrieved token is kept with
  probability ~0.88 at initialisation.
- **Multi-task** (§2.4): the sentence-level task is the same model on instances of one sentence
  with its retrieved pairs (training/approaches.py mixes them in with ``--sentence-task``).
  Translating with ``instance_tokens=1`` is that task's sentence-by-sentence mode.

Masks are dense (B, heads, S, S), like G-Transformer's; the retrieved part makes an instance about
(1 + 2k) times longer than its document part.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from training.data import TokenizedCorpus
from training.gtransformer import GTConfig, GTransformer, beam_search_encoded, split_instances, target_tags
from training.model import MASKED, Attention, sinusoid_table
from training.retrieval import TranslationMemory
from training.search import DocumentTranslation

DOC, TM_SRC, TM_TGT = 0, 1, 2  # token kinds
MEMORY, DOCUMENT, ADJACENT = 0, 1, 2  # global head kinds
KEEP_BIAS = 2.0


@dataclass
class SMDTConfig(GTConfig):
    approach: str = "smdt"
    retrieve_k: int = 1  # retrieved pairs per sentence
    head_split: list[int] = field(default_factory=list)  # global heads: [memory, document, adjacent]; [] = 3:3:2
    adjacent: int = 2  # adjacent heads: sentences within this distance
    selection: bool = True  # the selection layer over retrieved tokens
    select_tau: float = 1.0  # Gumbel-softmax temperature while training
    retrieval_max_df: int = 2000  # retrieval: terms in more sentences are not searched (training/retrieval.py)
    sep_id: int = 4  # "<sep>" between a retrieved source and its target


def head_split(n_heads: int, split: Sequence[int] = ()) -> list[int]:
    """Global heads per kind [memory, document, adjacent]: ``split`` if given, else the paper's
    3:3:2 of 8 heads scaled to ``n_heads`` (largest remainder; 4 heads -> 2, 1, 1)."""
    if split:
        if len(split) != 3 or sum(split) != n_heads or min(split) < 0:
            raise ValueError(f"head split {list(split)} must be 3 counts summing to {n_heads} heads")
        return list(split)
    exact = [3 * n_heads / 8, 3 * n_heads / 8, 2 * n_heads / 8]
    out = [math.floor(x) for x in exact]
    for i in sorted(range(3), key=lambda i: -(exact[i] - out[i]))[: n_heads - sum(out)]:
        out[i] += 1
    return out


# ---------------------------------------------------------------------------------------
# The source layout of an instance
# ---------------------------------------------------------------------------------------

@dataclass
class Source:
    """One instance's encoder input: ids, positions and (tag, kind, local group) per token."""

    ids: list[int]
    pos: list[int]
    meta: list[tuple[int, int, int]]


Ids = Sequence[int] | np.ndarray  # token ids of one sentence
Pair = tuple[Ids, Ids]


def instance_source(sentences: Sequence[Ids], retrieved: Sequence[Sequence[Pair]], cfg: SMDTConfig) -> Source:
    """``x_1 </s> x_2 </s> ...`` then, for each sentence i, its pairs ``x^r <sep> y^r </s>``."""
    ids: list[int] = []
    pos: list[int] = []
    meta: list[tuple[int, int, int]] = []
    for i, s in enumerate(sentences, 1):
        toks = [*s[: cfg.max_len - 1], cfg.eos_id]
        pos += range(len(ids), len(ids) + len(toks))
        ids += toks
        meta += [(i, DOC, i)] * len(toks)
    group = len(sentences)
    for i, pairs in enumerate(retrieved, 1):
        for x, y in pairs:
            group += 1
            xs, ys = [int(t) for t in x[: cfg.max_len - 1]], [cfg.sep_id, *(int(t) for t in y[: cfg.max_len - 1]),
                                                              cfg.eos_id]
            ids += xs + ys
            pos += range(len(xs) + len(ys))
            meta += [(i, TM_SRC, group)] * len(xs) + [(i, TM_TGT, group)] * len(ys)
    return Source(ids, pos, meta)


def stack_sources(sources: list[Source], pad: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """-> ids (B, S) padded with ``pad``, positions (B, S), meta (B, S, 3) (0 = padding)."""
    S = max(1, max(len(s.ids) for s in sources))
    ids = np.full((len(sources), S), pad, np.int64)
    pos = np.zeros((len(sources), S), np.int64)
    meta = np.zeros((len(sources), S, 3), np.int64)
    for r, s in enumerate(sources):
        ids[r, : len(s.ids)], pos[r, : len(s.pos)] = s.ids, s.pos
        if s.meta:
            meta[r, : len(s.meta)] = s.meta
    return ids, pos, meta


# ---------------------------------------------------------------------------------------
# Masks
# ---------------------------------------------------------------------------------------

def to_bias(allowed: Tensor) -> Tensor:
    return (~allowed).to(torch.float32) * MASKED


def encoder_masks(meta: Tensor, head_kinds: Tensor, adjacent: int) -> tuple[Tensor, Tensor, Tensor]:
    """meta (B, S, 3) -> biases: local (B, 1, S, S), diverse global (B, H, S, S), and the
    memory-focus one (B, 1, S, S) the selection layer reads."""
    tag, kind, group = meta.unbind(-1)
    real_k = (group > 0)[:, None, :]
    local = (group[:, :, None] == group[:, None, :]) & real_k
    same = (tag[:, :, None] == tag[:, None, :]) & real_k
    doc_k = ((kind == DOC) & (group > 0))[:, None, :].expand_as(same)
    near = doc_k & ((tag[:, :, None] - tag[:, None, :]).abs() <= adjacent)
    tm_q = (kind > DOC)[:, :, None]
    # (q & a) | (~q & b) rather than torch.where: ONNX Runtime has no Where kernel for booleans,
    # and the exported encoder (export/smdt_graphs.py) builds these masks inside the graph.
    spans = torch.stack([same, (tm_q & same) | (~tm_q & doc_k), (tm_q & same) | (~tm_q & near)], 1)
    return to_bias(local)[:, None], to_bias(spans[:, head_kinds]), to_bias(same)[:, None]


def cross_masks(tags: Tensor, src_info: Tensor, head_kinds: Tensor, adjacent: int) -> tuple[Tensor, Tensor]:
    """Decoder inputs' tags (B, T) and the encoded source's (tag, kind, visible) (B, S, 3) ->
    local (B, 1, T, S): the query's own source sentence; diverse global (B, H, T, S)."""
    stag, kind, visible = src_info.unbind(-1)
    seen = (visible > 0)[:, None, :]
    doc_k = ((kind == DOC) & (visible > 0))[:, None, :]
    same = (tags[:, :, None] == stag[:, None, :]) & seen
    docs = doc_k.expand_as(same)
    near = docs & ((tags[:, :, None] - stag[:, None, :]).abs() <= adjacent)
    spans = torch.stack([same, docs, near], 1)
    return to_bias(same & doc_k)[:, None], to_bias(spans[:, head_kinds])


# ---------------------------------------------------------------------------------------
# Selection layer (eq. 4)
# ---------------------------------------------------------------------------------------

class Selection(nn.Module):
    """Keep or drop each retrieved token: logits (B, S, 2) = W_s SelfAttn(sum_i a_i h_i)."""

    def __init__(self, cfg: SMDTConfig):
        super().__init__()
        d = cfg.d_model
        self.mix = nn.Parameter(torch.zeros(cfg.enc_layers))  # a_i = softmax(mix)_i
        self.norm, self.attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.out_norm, self.out = nn.LayerNorm(d), nn.Linear(d, 2)  # W_s: [drop, keep]
        with torch.no_grad():
            self.out.bias.copy_(torch.tensor([0.0, KEEP_BIAS]))

    def forward(self, layers: list[Tensor], focus_bias: Tensor) -> Tensor:
        a = self.mix.softmax(0)
        h = sum((w * x for w, x in zip(a, layers, strict=True)), torch.zeros_like(layers[0]))
        y = self.norm(h)
        h = h + self.attn(y, self.attn.kv(y), focus_bias)[0]
        return self.out(self.out_norm(h))


# ---------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------

class SMDT(GTransformer):
    """G-Transformer's layers with SMDT's source (document + retrieved pairs), diverse global heads
    and selection layer. ``tm``: the translation memory it retrieves from when translating."""

    cfg: SMDTConfig
    head_kinds: Tensor  # buffer: (H,) MEMORY / DOCUMENT / ADJACENT per global head

    def __init__(self, cfg: SMDTConfig):
        super().__init__(cfg)
        split = head_split(cfg.n_heads, cfg.head_split)
        self.register_buffer("head_kinds", torch.tensor([k for k, n in enumerate(split) for _ in range(n)]),
                             persistent=False)
        self.tm_kind = nn.Embedding(3, cfg.d_model, padding_idx=DOC)  # zero for document tokens, learned for TM
        nn.init.zeros_(self.tm_kind.weight)
        self.select = Selection(cfg) if cfg.selection else None
        self.tm: TranslationMemory | None = None

    def new_parameter_names(self) -> list[str]:
        """Parameters a sentence-level checkpoint lacks: global attentions + gates, selection, kind embedding."""
        return [n for n, _ in self.named_parameters() if "_global." in n or n.startswith(("select.", "tm_kind."))]

    def word_dropout(self, ids: Tensor) -> Tensor:
        """G-Transformer's word dropout, never on ``<sep>``."""
        dropped = super().word_dropout(ids)
        return torch.where(ids == self.cfg.sep_id, ids, dropped)

    def embed_at(self, ids: Tensor, pos: Tensor, meta: Tensor) -> Tensor:
        need = int(pos.max()) + 1 if pos.numel() else 0
        if need > self.pos.shape[0]:
            self.pos = sinusoid_table(2 * need, self.cfg.d_model).to(self.pos.device)
        x = self.embed(ids) * math.sqrt(self.cfg.d_model) + self.pos[pos] + self.tm_kind(meta[..., 1])
        return self.drop(x)

    def encode_layers(self, src: Tensor, pos: Tensor, meta: Tensor) -> tuple[list[Tensor], Tensor]:
        """-> (the output of every encoder layer, the memory-focus bias the selection reads)."""
        local, diverse, focus = encoder_masks(meta, self.head_kinds, self.cfg.adjacent)
        x, layers = self.embed_at(src, pos, meta), []
        for layer in self.encoder:
            x = layer(x, local, diverse)
            layers.append(x)
        return layers, focus

    def keep(self, layers: list[Tensor], focus: Tensor, meta: Tensor) -> tuple[Tensor, Tensor | None]:
        """Per source token: 1 = the decoder may read it, 0 = padding or a dropped retrieved token
        (training: straight-through Gumbel-softmax sample; eval: argmax) -> (keep (B, S), logits)."""
        real = meta[..., 2] > 0
        retrieved = real & (meta[..., 1] > DOC)
        if self.select is None or not bool(retrieved.any()):
            return real.to(layers[-1].dtype), None
        logits = self.select(layers, focus)
        if self.training:
            choice = F.gumbel_softmax(logits.float(), tau=self.cfg.select_tau, hard=True)[..., 1]
        else:
            choice = (logits[..., 1] > logits[..., 0]).float()
        return torch.where(retrieved, choice.to(layers[-1].dtype), real.to(layers[-1].dtype)), logits

    def encode(self, src: Tensor, pos: Tensor, meta: Tensor) -> tuple[Tensor, Tensor]:  # type: ignore[override]
        """-> (encoder output (B, S, d), zero at dropped retrieved tokens; (tag, kind, visible) (B, S, 3))."""
        layers, focus = self.encode_layers(src, pos, meta)
        keep, _ = self.keep(layers, focus, meta)
        enc = self.enc_norm(layers[-1]) * keep[..., None]
        visible = (keep.detach() > 0.5).long()
        return enc, torch.stack([meta[..., 0], meta[..., 1], visible], -1)

    def cross_biases(self, tags: Tensor, src_tags: Tensor) -> tuple[Tensor, Tensor]:
        return cross_masks(tags, src_tags, self.head_kinds, self.cfg.adjacent)

    def forward(self, src: Tensor, pos: Tensor, meta: Tensor, tgt_in: Tensor) -> Tensor:  # type: ignore[override]
        """Teacher-forced logits for a batch of instances (word dropout and sampled selection when training)."""
        src, tgt_in = self.word_dropout(src), self.word_dropout(tgt_in)
        enc, info = self.encode(src, pos, meta)
        tags = target_tags(tgt_in, self.cfg.bos_id, self.cfg.pad_id)
        return self.decode(tgt_in, tags, self.cross_kv(enc), info)[0]

    def retrieve(self, sentences: Sequence[Sequence[int]]) -> np.ndarray:
        """Neighbours (n, k) in ``tm`` of new source sentences; -1 where none (or no TM)."""
        if self.tm is None:
            return np.full((len(sentences), self.cfg.retrieve_k), -1, np.int64)
        return self.tm.search(sentences, self.cfg.retrieve_k, self.cfg.retrieval_max_df)

    def pairs(self, neighbours: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        assert self.tm is not None or (neighbours < 0).all()
        return [self.tm.pair(int(j)) for j in neighbours if j >= 0] if self.tm is not None else []


# ---------------------------------------------------------------------------------------
# Data: instances of the corpus with their retrieved pairs
# ---------------------------------------------------------------------------------------

@dataclass
class SMDTBatch:
    src: np.ndarray  # (B, S) document sentences, then retrieved pairs
    pos: np.ndarray  # (B, S)
    meta: np.ndarray  # (B, S, 3) tag, kind, local group
    tgt_in: np.ndarray  # (B, T) <s> y_1 <s> y_2 ...
    tgt_out: np.ndarray  # (B, T) y_1 </s> y_2 </s> ...
    n_tokens: int


def collate_instances(corpus: TokenizedCorpus, instances: list[list[int]], neighbours: np.ndarray,
                      tm: TranslationMemory, cfg: SMDTConfig) -> SMDTBatch:
    """Instances (sentence indices of ``corpus``) -> a padded batch; ``neighbours[i]``: the TM
    pairs retrieved for sentence i (-1 = none)."""
    sources, tins, touts = [], [], []
    for inst in instances:
        retrieved = [[tm.pair(int(j)) for j in neighbours[i] if j >= 0] for i in inst]
        sources.append(instance_source([corpus.src(i) for i in inst], retrieved, cfg))
        t = [corpus.tgt(i)[: cfg.max_len - 1] for i in inst]
        tins.append([x for y in t for x in (cfg.bos_id, *y)])
        touts.append([x for y in t for x in (*y, cfg.eos_id)])
    src, pos, meta = stack_sources(sources, cfg.pad_id)
    T = max(1, max(len(t) for t in tins))
    tin = np.full((len(tins), T), cfg.pad_id, np.int64)
    tout = np.full((len(tins), T), cfg.pad_id, np.int64)
    for r, (a, b) in enumerate(zip(tins, touts, strict=True)):
        tin[r, : len(a)], tout[r, : len(b)] = a, b
    return SMDTBatch(src, pos, meta, tin, tout, int((tout != cfg.pad_id).sum()))


def source_lengths(corpus: TokenizedCorpus, instances: list[list[int]], neighbours: np.ndarray,
                   tm: TranslationMemory, cfg: SMDTConfig) -> list[int]:
    """Encoder tokens of each instance: its sentences + </s>, and each retrieved pair + <sep> + </s>."""
    keep = cfg.max_len - 1
    ls, _ = corpus.lengths()
    xs, ys = np.minimum(np.diff(tm.src_offsets), keep), np.minimum(np.diff(tm.tgt_offsets), keep)
    out = []
    for inst in instances:
        n = sum(min(int(ls[i]), keep) + 1 for i in inst)
        out.append(n + sum(int(xs[j] + ys[j]) + 2 for i in inst for j in neighbours[i] if j >= 0))
    return out


def square_batches(lengths: list[int], cells: int) -> list[tuple[int, int]]:
    """Consecutive (start, end) runs of instances with rows x longest^2 <= ``cells`` (at least one row)."""
    out, start, longest = [], 0, 0
    for i, n in enumerate(lengths):
        if i > start and (i - start + 1) * max(longest, n) ** 2 > cells:
            out.append((start, i))
            start, longest = i, 0
        longest = max(longest, n)
    return [*out, (start, len(lengths))] if lengths else out


# ---------------------------------------------------------------------------------------
# Decoding: one beam search per instance (G-Transformer's), the TM read by the encoder
# ---------------------------------------------------------------------------------------

@torch.no_grad()
def translate_documents(model: SMDT, documents: list[list[list[int]]], beam: int = 5, length_penalty: float = 1.0,
                        instance_tokens: int | None = None) -> list[DocumentTranslation]:
    """Translate documents (source sentences as ids) instance by instance, each sentence with the
    pairs retrieved for it from ``model.tm``. ``instance_tokens``: document tokens per instance
    (default: the model's ``doc_max_len``; 1 = sentence by sentence, the auxiliary task's form)."""
    model.eval()
    cfg = model.cfg
    device = next(model.parameters()).device
    limit = cfg.doc_max_len if instance_tokens is None else instance_tokens
    neighbours = model.retrieve([s[: cfg.max_len - 1] for d in documents for s in d])
    out, at = [], 0
    for doc in documents:
        hyps: list[list[int]] = []
        for inst in split_instances([min(len(s), cfg.max_len - 1) for s in doc], limit):
            sents = [doc[i][: cfg.max_len - 1] for i in inst]
            source = instance_source(sents, [model.pairs(neighbours[at + i]) for i in inst], cfg)
            src, pos, meta = (torch.from_numpy(a).to(device) for a in stack_sources([source], cfg.pad_id))
            enc, info = model.encode(src, pos, meta)
            hyps += beam_search_encoded(model, enc, info, [len(s) for s in sents], beam, length_penalty)
        at += len(doc)
        out.append(DocumentTranslation(hyps, []))
    return out
