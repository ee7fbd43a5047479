"""Context caching with sequence shortening ("Sequence Shortening for Context-Aware MT"), in one file.

Reads top to bottom: config -> shortening -> decoder layer with context attention -> model -> decoding.

The sentence-level Transformer, plus:

- **Cache**: the encoder output of each source sentence is kept and reused as context by the
  next ``context_size`` sentences (k; the paper goes up to 10). Only source-side context, as in
  the paper. Training does not cache: the previous k sentences are re-encoded with the current
  weights (no gradient past the encoder for context sentences, the paper's choice for caching and
  pooling), so a training step depends only on sentence indices and resumes exactly.
- **Shortening** of each cached sentence, directly after the encoder (``shorten``):
  ``none`` (Caching Tokens), ``sentence`` (Caching Sentence: the mean of all tokens),
  ``mean``/``max``/``linear`` pooling of non-overlapping windows of ``pool_size`` tokens, and
  the paper's **Latent Grouping** / **Latent Selecting**: a small FFN scores every token against
  ``n_groups`` groups; Grouping takes the softmax over groups (each token is shared out among
  the groups), Selecting over tokens (each group picks the tokens it wants, and may ignore some);
  group g = sum_i a_ig h_i. ``categorize="sparsemax"`` (the paper's choice) instead of softmax
  makes the weights sparse; ``shorten_grad`` limits which context sentences train the shortening
  (the paper: the nearest 1 for Selecting, 2 for Grouping). Pooled/grouped tokens then
  **attend back to the full sentence**: ``z = LayerNorm(z + MHA(z, h, h))``.
- **Decoder**: a separate context attention after the cross-attention in every layer (serial),
  gated by ``sigmoid(w . c_i)`` per token (paper eq. 5; ``context_gate=False`` gives the
  ungated serial variant the paper found best for most models). Pre-norm residual like the rest.
- **Segment embeddings** (learned) tell the context sentences apart (0 = the current sentence,
  j = j sentences back), and learned positions number the shortened tokens within a sentence.
  With shortening, the shortened current sentence is part of the context too (the paper does
  this against the "two-fold sparsity" of context: the context attention always has something
  useful to read); raw tokens (``none``) are not repeated.

Parameter names follow ``training.model.MemoryTransformer``, so a sentence-level checkpoint
loads into everything but the context parts, which are new.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from training.model import (
    MASKED,
    Attention,
    DecoderBlocks,
    EncoderLayer,
    ModelConfig,
    causal_bias,
    pad_bias,
    sinusoid_table,
)
from training.search import DocumentTranslation, beam_search, pad_rows

SHORTENINGS = ("none", "sentence", "mean", "max", "linear", "grouping", "selecting")


@dataclass
class CacheConfig(ModelConfig):
    approach: str = "cache"
    mem_side: str = "none"
    context_size: int = 3  # k previous sentences read as context
    shorten: str = "none"  # one of SHORTENINGS
    pool_size: int = 4  # pooling window (mean/max/linear)
    n_groups: int = 9  # latent grouping/selecting: tokens per shortened sentence
    categorize: str = "softmax"  # or "sparsemax" (the paper's choice: sparser, more readable groups)
    shorten_grad: int = -1  # context sentences whose shortening gets gradient (-1 = all; paper: 1-2)
    context_gate: bool = True


# ---------------------------------------------------------------------------------------
# Shortening
# ---------------------------------------------------------------------------------------

def sparsemax(x: Tensor, dim: int) -> Tensor:
    """Sparsemax (Martins & Astudillo 2016): the Euclidean projection onto the simplex, so weights
    sum to 1 like softmax but many are exactly 0. Entries at MASKED come out 0."""
    z = x.transpose(dim, -1)
    zs = z.sort(-1, descending=True).values
    k = torch.arange(1, z.shape[-1] + 1, device=x.device, dtype=x.dtype)
    cumulative = zs.cumsum(-1) - 1
    support = (zs * k > cumulative).sum(-1, keepdim=True)  # size of the support
    tau = cumulative.gather(-1, support - 1) / support.to(x.dtype)
    return (z - tau).clamp(min=0).transpose(dim, -1)


class Shortener(nn.Module):
    """(B, T, d) encoder states + (B, T) real-token mask -> (B, L, d) shortened states + (B, L) mask."""

    def __init__(self, cfg: CacheConfig):
        super().__init__()
        if cfg.shorten not in SHORTENINGS:
            raise ValueError(f"unknown shortening {cfg.shorten!r} (choose from {', '.join(SHORTENINGS)})")
        d, self.kind, self.k = cfg.d_model, cfg.shorten, cfg.pool_size
        self.normalize = sparsemax if cfg.categorize == "sparsemax" else torch.softmax
        if self.kind == "linear":
            self.proj = nn.Linear(self.k * d, d)  # Nawrot et al. 2022: a linear map of the window
        if self.kind in ("grouping", "selecting"):
            self.categorize = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, cfg.n_groups))
        if self.kind not in ("none", "sentence"):
            self.back = Attention(d, cfg.n_heads, cfg.dropout)  # shortened tokens attend back
            self.back_norm = nn.LayerNorm(d)
        self.weights: Tensor | None = None  # last grouping/selection weights (B, T, G), for inspection

    def forward(self, h: Tensor, mask: Tensor) -> tuple[Tensor, Tensor]:
        B, T, d = h.shape
        m = mask.to(h.dtype)
        if self.kind == "none":
            return h, mask
        if self.kind == "sentence":
            z = (h * m[..., None]).sum(1, keepdim=True) / m.sum(1).clamp(min=1)[:, None, None]
            return z, mask.any(1, keepdim=True)
        if self.kind in ("mean", "max", "linear"):
            L = -(-T // self.k)
            hw = F.pad(h, (0, 0, 0, L * self.k - T)).view(B, L, self.k, d)
            mw = F.pad(m, (0, L * self.k - T)).view(B, L, self.k)
            if self.kind == "mean":
                z = (hw * mw[..., None]).sum(2) / mw.sum(2).clamp(min=1)[..., None]
            elif self.kind == "max":
                z = hw.masked_fill(mw[..., None] == 0, -1e4).amax(2)
            else:
                z = self.proj((hw * mw[..., None]).reshape(B, L, self.k * d))
            zmask = mw.sum(2) > 0
            z = z * zmask[..., None]  # windows of padding only stay zero
        else:
            scores = self.categorize(h)  # (B, T, G)
            if self.kind == "grouping":  # each token shared out among the groups
                a = self.normalize(scores, dim=-1) * m[..., None]
            else:  # each group selects among the tokens (padding never selected)
                a = self.normalize(scores.masked_fill(~mask[..., None], MASKED), dim=1) * m[..., None]
            self.weights = a
            z = a.transpose(1, 2) @ h  # (B, G, d)
            zmask = mask.any(1, keepdim=True).expand(B, z.shape[1])
        out, _ = self.back(z, self.back.kv(h), (~mask).to(h.dtype)[:, None, None, :] * MASKED)
        return self.back_norm(z + out), zmask


# ---------------------------------------------------------------------------------------
# Decoder layer with context attention
# ---------------------------------------------------------------------------------------

@dataclass
class Context:
    """Context states (B, L, d) and their additive mask (B, 1, 1, L). Indexing selects rows, so
    ``training.search.beam_search`` can carry it per beam like the memory model's memory."""

    states: Tensor
    bias: Tensor

    def __getitem__(self, idx: Tensor) -> Context:
        return Context(self.states[idx], self.bias[idx])

    @property
    def present(self) -> Tensor:
        """(B, 1, 1) 1.0 for rows with at least one context token (others read nothing)."""
        return (self.bias > MASKED / 2).any(-1).to(self.states.dtype).view(-1, 1, 1)


class CacheDecoderLayer(DecoderBlocks):
    """The sentence-level decoder layer (same parameter names) + a serial, gated context attention."""

    def __init__(self, cfg: CacheConfig):
        super().__init__(cfg)
        d = cfg.d_model
        self.ctx_norm, self.ctx_attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.ctx_gate = nn.Linear(d, 1) if cfg.context_gate else None

    def forward(self, x: Tensor, self_bias: Tensor | None, cross_kv: tuple[Tensor, Tensor], cross_bias: Tensor,
                ctx: Context | None, past: tuple[Tensor, Tensor] | None = None):
        x, kv = self.self_block(x, self_bias, past)
        x = self.cross_block(x, cross_kv, cross_bias)
        if ctx is not None and ctx.states.shape[1] > 0:
            # Keys/values of the context are recomputed each step: a few dozen vectors at most.
            c, _ = self.ctx_attn(self.ctx_norm(x), self.ctx_attn.kv(ctx.states), ctx.bias)
            if self.ctx_gate is not None:
                c = torch.sigmoid(self.ctx_gate(c)) * c
            x = x + self.drop(c * ctx.present)
        return self.ffn_block(x), kv


# ---------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------

class CacheTransformer(nn.Module):
    pos: Tensor  # buffer: sinusoidal positions

    def __init__(self, cfg: CacheConfig):
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        self.embed = nn.Embedding(cfg.vocab_size, d, padding_idx=cfg.pad_id)
        nn.init.normal_(self.embed.weight, std=d**-0.5)
        self.register_buffer("pos", sinusoid_table(cfg.max_len, d), persistent=False)
        self.encoder = cast("list[EncoderLayer]",
                            nn.ModuleList(EncoderLayer(cfg, False) for _ in range(cfg.enc_layers)))
        self.decoder = cast("list[CacheDecoderLayer]",
                            nn.ModuleList(CacheDecoderLayer(cfg) for _ in range(cfg.dec_layers)))
        self.enc_norm, self.dec_norm = nn.LayerNorm(d), nn.LayerNorm(d)
        self.drop = nn.Dropout(cfg.dropout)
        self.shortener = Shortener(cfg)
        self.segment = nn.Embedding(cfg.context_size + 1, d)  # 0 = current sentence, j = j back
        self.ctx_pos = nn.Embedding(cfg.max_len, d)  # position of a shortened token in its sentence
        nn.init.normal_(self.segment.weight, std=0.02)
        nn.init.normal_(self.ctx_pos.weight, std=0.02)

    def new_parameter_names(self) -> list[str]:
        new = ("ctx_", "shortener.", "segment.")
        return [n for n, _ in self.named_parameters() if any(s in n for s in new)]

    @property
    def includes_current(self) -> bool:
        return self.cfg.shorten != "none"

    def embed_tokens(self, ids: Tensor, start: int = 0) -> Tensor:
        return self.drop(self.embed(ids) * math.sqrt(self.cfg.d_model) + self.pos[start:start + ids.shape[1]])

    def encode(self, src: Tensor) -> Tensor:
        bias = pad_bias(src, self.cfg.pad_id)
        x = self.embed_tokens(src)
        for layer in self.encoder:
            x, _, _ = layer(x, bias, None)
        return self.enc_norm(x)

    def shorten(self, enc_out: Tensor, src: Tensor) -> tuple[Tensor, Tensor]:
        """What the cache stores for a sentence: shortened states (B, L, d) and mask (B, L)."""
        return self.shortener(enc_out, src != self.cfg.pad_id)

    def context(self, entries: list[tuple[Tensor, Tensor]]) -> Context | None:
        """Context from cache entries ordered by distance (``entries[j]`` = j sentences back,
        or the current sentence at j = 0 when ``includes_current``); each is (states, mask)."""
        if not entries:
            return None
        parts, masks = [], []
        for j, (z, zmask) in enumerate(entries):
            seg = j if self.includes_current else j + 1
            parts.append(z + self.segment.weight[seg] + self.ctx_pos.weight[: z.shape[1]])
            masks.append(zmask)
        mask = torch.cat(masks, dim=1)
        return Context(torch.cat(parts, dim=1), (~mask).to(torch.float32)[:, None, None, :] * MASKED)

    def cross_kv(self, enc_out: Tensor) -> list[tuple[Tensor, Tensor]]:
        return [layer.cross_attn.kv(enc_out) for layer in self.decoder]

    def decode(self, tgt_in: Tensor, cross_kv: list[tuple[Tensor, Tensor]], src: Tensor, ctx: Context | None = None,
               past: list[tuple[Tensor, Tensor]] | None = None, start: int = 0
               ) -> tuple[Tensor, list[tuple[Tensor, Tensor]]]:
        """Teacher-forced (past=None) or incremental with a KV cache, reading the context ``ctx``.
        -> (logits, new cache); also the search's ``decode_step`` (training.search.beam_search)."""
        self_bias = causal_bias(tgt_in.shape[1], tgt_in.device) if past is None else None
        cross_bias = pad_bias(src, self.cfg.pad_id)
        x, cache = self.embed_tokens(tgt_in, start), []
        for i, layer in enumerate(self.decoder):
            x, kv = layer(x, self_bias, cross_kv[i], cross_bias, ctx, None if past is None else past[i])
            cache.append(kv)
        return self.dec_norm(x) @ self.embed.weight.T, cache

    decode_step = decode

    def forward(self, src: Tensor, tgt_in: Tensor, ctx_srcs: list[Tensor]) -> Tensor:
        """Training / scoring: ``ctx_srcs[j-1]`` holds, per row, the sentence j back (all padding
        where there is none). Context sentences are encoded without gradient (the cache)."""
        enc = self.encode(src)
        entries = [self.shorten(enc, src)] if self.includes_current else []
        for j, c in enumerate(ctx_srcs[: self.cfg.context_size], start=1):
            with torch.no_grad():
                c_enc = self.encode(c)
            learn = self.cfg.shorten_grad < 0 or j <= self.cfg.shorten_grad  # the paper: only the nearest 1-2
            with torch.set_grad_enabled(torch.is_grad_enabled() and learn):
                entries.append(self.shorten(c_enc, c))
        return self.decode(tgt_in, self.cross_kv(enc), src, self.context(entries))[0]


# ---------------------------------------------------------------------------------------
# Decoding: sentence by sentence, the cache holding the last k shortened encodings per document
# ---------------------------------------------------------------------------------------

def pad_entries(per_row: Sequence[tuple[Tensor, Tensor] | None], d: int, device) -> tuple[Tensor, Tensor]:
    """Stack per-row cache entries (L_r, d)/(L_r,) of different lengths; ``None`` = no sentence."""
    L = max((z.shape[0] for e in per_row if e is not None for z in e[:1]), default=0)
    z = torch.zeros(len(per_row), L, d, device=device)
    m = torch.zeros(len(per_row), L, dtype=torch.bool, device=device)
    for r, e in enumerate(per_row):
        if e is not None:
            z[r, : e[0].shape[0]], m[r, : e[1].shape[0]] = e
    return z, m


@torch.no_grad()
def translate_documents(model: CacheTransformer, documents: list[list[list[int]]], beam: int = 5,
                        length_penalty: float = 1.0, max_rows: int = 64, no_repeat_ngram: int = 0
                        ) -> list[DocumentTranslation]:
    """Translate documents in order, documents side by side as rows (``max_rows`` at a time)."""
    model.eval()
    out: list[DocumentTranslation] = []
    for s in range(0, len(documents), max_rows):
        out += _translate_rows(model, documents[s:s + max_rows], beam, length_penalty, no_repeat_ngram)
    return out


def _translate_rows(model: CacheTransformer, docs, beam, length_penalty, no_repeat_ngram=0):
    cfg = model.cfg
    device = next(model.parameters()).device
    results = [DocumentTranslation([], []) for _ in docs]
    cache: list[list[tuple[Tensor, Tensor]]] = [[] for _ in docs]  # newest first, at most k
    for t in range(max((len(d) for d in docs), default=0)):
        rows = [r for r, d in enumerate(docs) if t < len(d)]
        src = pad_rows([[*docs[r][t][: cfg.max_len - 1], cfg.eos_id] for r in rows], cfg.pad_id, device)
        enc = model.encode(src)
        z, zmask = model.shorten(enc, src)
        current = [(z[j][zmask[j]], zmask[j][zmask[j]]) for j in range(len(rows))]
        entries = [pad_entries(current, cfg.d_model, device)] if model.includes_current else []
        for j in range(cfg.context_size):
            per_row = [cache[r][j] if j < len(cache[r]) else None for r in rows]
            if all(e is None for e in per_row):
                break
            entries.append(pad_entries(per_row, cfg.d_model, device))
        best = beam_search(model, src, enc, model.context(entries), beam, length_penalty, no_repeat_ngram)
        for j, r in enumerate(rows):
            results[r].hypotheses.append(best[j][0])
            cache[r] = [current[j], *cache[r]][: cfg.context_size]
    return results
