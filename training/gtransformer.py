"""G-Transformer (Bao et al., ACL 2021), in one file: the whole document is one sequence.

Reads top to bottom: config -> group tags and masks -> layers -> the model -> data -> decoding.

- A document is split into **instances** of at most ``doc_max_len`` source tokens (whole
  sentences; the paper uses 512). The source of an instance is ``x_1 </s> x_2 </s> ...``, the
  decoder input ``<s> y_1 <s> y_2 ...`` and the decoder output ``y_1 </s> y_2 </s> ...``: each
  sentence is framed exactly as the sentence-level model frames it (``training.data.collate``),
  so that model's weights fit. Positions run over the whole instance (paper: one sequence).
- **Group tags**: each token carries its sentence index (1, 2, ...; 0 = padding). Source tags
  increase after each ``</s>``; target tags increase at each ``<s>``, i.e. the token fed after a
  generated ``</s>`` starts the next group (paper eq. 3: "copy the predecessor's tag unless it is
  </s>, then +1").
- **Group attention** (eq. 6-8): self-attention and target-to-source attention masked to keys with
  the query's tag. Lower layers use only group attention; the top ``global_layers`` (paper: 2)
  use **combined attention** (eq. 10): ``g = sigmoid([h_l, h_g] W + b)``, ``h = h_l*g + h_g*(1-g)``
  with a separate, unmasked **global attention** ``h_g``. This is done on every attention of
  those layers: encoder self, decoder self and decoder cross (the paper's §5.4 removes the
  cross-sentence attention from encoder and decoder separately, so both have it).
- Parameter names follow ``training.model.MemoryTransformer``: a sentence-level checkpoint
  loads straight into the group attentions ("copy its parameters"); the global attentions and
  gates are new (randomly initialised, trained with the higher learning rate).
- **Word dropout** (Bowman et al. 2016; paper app. C.1: 0.1 when fine-tuned): during training,
  source and target input words are replaced by ``<unk>`` with that probability.
- Decoding generates the whole instance in **one beam search**; tags advance after each
  ``</s>``; each sentence has its own length limit; the instance ends after its n-th ``</s>``.

Masks are dense (the attention scores of other sentences are computed, then masked): simple and
exact, but the O(N^2/M) cost of group attention the paper promises would need block-sparse kernels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import numpy as np
import torch
from torch import Tensor, nn

from training.data import Batch, TokenizedCorpus
from training.model import MASKED, Attention, FeedForward, ModelConfig, causal_bias, sinusoid_table
from training.search import DocumentTranslation, max_new_tokens


@dataclass
class GTConfig(ModelConfig):
    approach: str = "gtransformer"
    mem_side: str = "none"  # no recurrent memory: the context is the instance itself
    global_layers: int = 2  # top layers with combined (group + global) attention
    word_dropout: float = 0.1
    doc_max_len: int = 512  # source tokens per instance
    unk_id: int = 3


# ---------------------------------------------------------------------------------------
# Group tags and masks
# ---------------------------------------------------------------------------------------

def source_tags(src: Tensor, eos_id: int, pad_id: int) -> Tensor:
    """``x_1 </s> x_2 </s>`` -> 1 1 1 2 2 2 (the ``</s>`` closes its own group); padding -> 0."""
    is_eos = (src == eos_id).long()
    tags = 1 + is_eos.cumsum(1) - is_eos
    return tags.masked_fill(src == pad_id, 0)


def target_tags(tgt_in: Tensor, bos_id: int, pad_id: int) -> Tensor:
    """``<s> y_1 <s> y_2`` -> 1 1 1 2 2 2: a new group starts at each ``<s>``; padding -> 0."""
    return (tgt_in == bos_id).long().cumsum(1).masked_fill(tgt_in == pad_id, 0)


def advance_tags(tags: Tensor, emitted: Tensor, eos_id: int) -> Tensor:
    """Tag of the next decoder input: +1 after a generated ``</s>`` (the ``<s>`` fed next)."""
    return tags + (emitted == eos_id).long()


def group_bias(q_tags: Tensor, k_tags: Tensor) -> Tensor:
    """(B, Tq), (B, Tk) -> (B, 1, Tq, Tk): 0 where the key is in the query's sentence, else MASKED."""
    same = (q_tags[:, :, None] == k_tags[:, None, :]) & (k_tags[:, None, :] > 0)
    return (~same).to(torch.float32)[:, None] * MASKED


def key_bias(k_tags: Tensor) -> Tensor:
    """Global attention: only padding (tag 0) is hidden. (B, Tk) -> (B, 1, 1, Tk)."""
    return (k_tags == 0).to(torch.float32)[:, None, None, :] * MASKED


# ---------------------------------------------------------------------------------------
# Layers
# ---------------------------------------------------------------------------------------

class CombinedAttention(nn.Module):
    """The global attention and the gate of a combined-attention sub-layer (paper eq. 10).

    The group attention is the layer's ordinary attention (pre-trained weights); this module
    holds only the new parts.
    """

    def __init__(self, cfg: GTConfig):
        super().__init__()
        self.attn = Attention(cfg.d_model, cfg.n_heads, cfg.dropout)
        self.gate = nn.Linear(2 * cfg.d_model, cfg.d_model)

    def forward(self, h_local: Tensor, y: Tensor, kv: tuple[Tensor, Tensor], bias: Tensor | None) -> Tensor:
        h_global, _ = self.attn(y, kv, bias)
        g = torch.sigmoid(self.gate(torch.cat([h_local, h_global], dim=-1)))
        return h_local * g + h_global * (1 - g)


class GTEncoderLayer(nn.Module):
    def __init__(self, cfg: GTConfig, combined: bool):
        super().__init__()
        d = cfg.d_model
        self.self_norm, self.self_attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.self_global = CombinedAttention(cfg) if combined else None
        self.ffn_norm, self.ffn = nn.LayerNorm(d), FeedForward(d, cfg.d_ff, cfg.dropout)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: Tensor, group_b: Tensor, global_b: Tensor) -> Tensor:
        y = self.self_norm(x)
        a, _ = self.self_attn(y, self.self_attn.kv(y), group_b)
        if self.self_global is not None:
            a = self.self_global(a, y, self.self_global.attn.kv(y), global_b)
        x = x + self.drop(a)
        return x + self.drop(self.ffn(self.ffn_norm(x)))


class GTDecoderLayer(nn.Module):
    def __init__(self, cfg: GTConfig, combined: bool):
        super().__init__()
        d = cfg.d_model
        self.self_norm, self.self_attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.cross_norm, self.cross_attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.self_global = CombinedAttention(cfg) if combined else None
        self.cross_global = CombinedAttention(cfg) if combined else None
        self.ffn_norm, self.ffn = nn.LayerNorm(d), FeedForward(d, cfg.d_ff, cfg.dropout)
        self.drop = nn.Dropout(cfg.dropout)

    def cross_kv(self, enc_out: Tensor) -> tuple[Tensor, ...]:
        kv = self.cross_attn.kv(enc_out)
        return kv if self.cross_global is None else (*kv, *self.cross_global.attn.kv(enc_out))

    def forward(self, x: Tensor, self_group_b: Tensor, self_global_b: Tensor | None, cross: tuple[Tensor, ...],
                cross_group_b: Tensor, cross_global_b: Tensor, past: tuple[Tensor, ...] | None):
        """``past``: cached self-attention keys/values (group k, v [, global k, v]); returns the new cache."""
        y = self.self_norm(x)
        kv: tuple[Tensor, ...] = self.self_attn.kv(y)
        if self.self_global is not None:
            kv = (*kv, *self.self_global.attn.kv(y))
        if past is not None:
            kv = tuple(torch.cat([p, n], dim=2) for p, n in zip(past, kv, strict=True))
        a, _ = self.self_attn(y, kv[:2], self_group_b)
        if self.self_global is not None:
            a = self.self_global(a, y, kv[2:], self_global_b)
        x = x + self.drop(a)
        y = self.cross_norm(x)
        c, _ = self.cross_attn(y, cross[:2], cross_group_b)
        if self.cross_global is not None:
            c = self.cross_global(c, y, cross[2:], cross_global_b)
        x = x + self.drop(c)
        return x + self.drop(self.ffn(self.ffn_norm(x))), kv


# ---------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------

class GTransformer(nn.Module):
    pos: Tensor  # buffer: sinusoidal positions

    def __init__(self, cfg: GTConfig):
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        self.embed = nn.Embedding(cfg.vocab_size, d, padding_idx=cfg.pad_id)
        nn.init.normal_(self.embed.weight, std=d**-0.5)
        # Sinusoids are fixed, so the table can grow when a translation runs long (see positions).
        self.register_buffer("pos", sinusoid_table(min(2 * cfg.doc_max_len, 4096) + cfg.max_len, d), persistent=False)
        top_enc = range(cfg.enc_layers - cfg.global_layers, cfg.enc_layers)
        top_dec = range(cfg.dec_layers - cfg.global_layers, cfg.dec_layers)
        self.encoder = cast("list[GTEncoderLayer]", nn.ModuleList(GTEncoderLayer(cfg, i in top_enc)
                                                                  for i in range(cfg.enc_layers)))
        self.decoder = cast("list[GTDecoderLayer]", nn.ModuleList(GTDecoderLayer(cfg, i in top_dec)
                                                                  for i in range(cfg.dec_layers)))
        self.enc_norm, self.dec_norm = nn.LayerNorm(d), nn.LayerNorm(d)
        self.drop = nn.Dropout(cfg.dropout)

    def new_parameter_names(self) -> list[str]:
        """Parameters a sentence-level checkpoint does not have: global attentions and gates."""
        return [n for n, _ in self.named_parameters() if "_global." in n]

    def embed_tokens(self, ids: Tensor, start: int | Tensor = 0) -> Tensor:
        t = ids.shape[1]
        if isinstance(start, Tensor):
            # The exported step decoder (export/smdt_graphs.py) passes its position as a tensor: a
            # gather keeps it an input of the ONNX graph (a slice would freeze the traced value).
            at = start + torch.arange(t, device=ids.device)
            return self.drop(self.embed(ids) * math.sqrt(self.cfg.d_model) + self.pos[at])
        if start + t > self.pos.shape[0]:
            self.pos = sinusoid_table(2 * (start + t), self.cfg.d_model).to(self.pos.device)
        return self.drop(self.embed(ids) * math.sqrt(self.cfg.d_model) + self.pos[start:start + t])

    def word_dropout(self, ids: Tensor) -> Tensor:
        """Replace words (not pad/<s>/</s>) by <unk> with probability ``word_dropout`` in training."""
        p, c = self.cfg.word_dropout, self.cfg
        if not self.training or p <= 0:
            return ids
        words = (ids != c.pad_id) & (ids != c.bos_id) & (ids != c.eos_id)
        return ids.masked_fill(words & (torch.rand(ids.shape, device=ids.device) < p), c.unk_id)

    def encode(self, src: Tensor) -> tuple[Tensor, Tensor]:
        """-> (enc_out (B, S, d), source tags (B, S))."""
        tags = source_tags(src, self.cfg.eos_id, self.cfg.pad_id)
        group_b, global_b = group_bias(tags, tags), key_bias(tags)
        x = self.embed_tokens(src)
        for layer in self.encoder:
            x = layer(x, group_b, global_b)
        return self.enc_norm(x), tags

    def cross_kv(self, enc_out: Tensor) -> list[tuple[Tensor, ...]]:
        return [layer.cross_kv(enc_out) for layer in self.decoder]

    def decode(self, tgt_in: Tensor, tags: Tensor, cross: list[tuple[Tensor, ...]], src_tags: Tensor,
               past: list[tuple[Tensor, ...]] | None = None, past_tags: Tensor | None = None, start: int | Tensor = 0):
        """Teacher-forced (past=None) or incremental with a KV cache; ``tags`` are the inputs' group tags
        and ``past_tags`` those of the cached positions. -> (logits, new cache)."""
        t = tgt_in.shape[1]
        key_tags = tags if past_tags is None else torch.cat([past_tags, tags], dim=1)
        self_group = group_bias(tags, key_tags)
        self_global = None
        if past is None:
            causal = causal_bias(t, tgt_in.device)
            self_group, self_global = self_group + causal, causal
        cross_group, cross_global = self.cross_biases(tags, src_tags)
        x, cache = self.embed_tokens(tgt_in, start), []
        for i, layer in enumerate(self.decoder):
            x, kv = layer(x, self_group, self_global, cross[i], cross_group, cross_global,
                          None if past is None else past[i])
            cache.append(kv)
        return self.dec_norm(x) @ self.embed.weight.T, cache

    def cross_biases(self, tags: Tensor, src_tags: Tensor) -> tuple[Tensor, Tensor]:
        """(group, global) biases of the target-to-source attention for decoder inputs ``tags``."""
        return group_bias(tags, src_tags), key_bias(src_tags)

    def forward(self, src: Tensor, tgt_in: Tensor) -> Tensor:
        """Teacher-forced logits for a batch of instances (word dropout when training)."""
        src, tgt_in = self.word_dropout(src), self.word_dropout(tgt_in)
        enc, src_tags = self.encode(src)
        tags = target_tags(tgt_in, self.cfg.bos_id, self.cfg.pad_id)
        return self.decode(tgt_in, tags, self.cross_kv(enc), src_tags)[0]


# ---------------------------------------------------------------------------------------
# Data: documents -> instances -> batches
# ---------------------------------------------------------------------------------------

def split_instances(src_lengths: list[int], max_tokens: int) -> list[list[int]]:
    """Cut a document into runs of whole sentences whose source (+</s> each) fits ``max_tokens``.
    Returns positions within the document; a sentence longer than the limit stands alone."""
    out: list[list[int]] = []
    cur: list[int] = []
    size = 0
    for i, n in enumerate(src_lengths):
        if cur and size + n + 1 > max_tokens:
            out.append(cur)
            cur, size = [], 0
        cur.append(i)
        size += n + 1
    return [*out, cur] if cur else out


def corpus_instances(corpus: TokenizedCorpus, max_tokens: int) -> list[list[int]]:
    """Every document of the corpus as instances of sentence indices (corpus order)."""
    ls, _ = corpus.lengths()
    out = []
    for d in range(corpus.n_documents):
        a, b = int(corpus.doc_offsets[d]), int(corpus.doc_offsets[d + 1])
        out += [[a + i for i in inst] for inst in split_instances([int(n) for n in ls[a:b]], max_tokens)]
    return out


def instance_batches(corpus: TokenizedCorpus, max_tokens: int, rows: int, seed: int, epoch: int
                     ) -> list[list[list[int]]]:
    """One epoch of shuffled batches of ``rows`` instances; a pure function of (seed, epoch)."""
    inst = corpus_instances(corpus, max_tokens)
    order = np.random.default_rng([seed, epoch, 3]).permutation(len(inst))
    return [[inst[i] for i in order[s:s + rows]] for s in range(0, len(order), rows)]


def collate_instances(corpus: TokenizedCorpus, batch: list[list[int]], pad: int, bos: int, eos: int,
                      max_len: int) -> Batch:
    """Instances -> padded ``x_1 </s> x_2 </s>`` / ``<s> y_1 <s> y_2`` / ``y_1 </s> y_2 </s>``
    (each sentence cut to ``max_len - 1`` tokens, as the sentence model's corpus is)."""
    srcs, tins, touts = [], [], []
    for inst in batch:
        s = [corpus.src(i)[: max_len - 1] for i in inst]
        t = [corpus.tgt(i)[: max_len - 1] for i in inst]
        srcs.append(np.concatenate([np.append(x, eos) for x in s]))
        tins.append(np.concatenate([np.concatenate([[bos], y]) for y in t]))
        touts.append(np.concatenate([np.append(y, eos) for y in t]))

    def pad_to(rows: list[np.ndarray]) -> np.ndarray:
        out = np.full((len(rows), max(len(r) for r in rows)), pad, np.int64)
        for i, r in enumerate(rows):
            out[i, : len(r)] = r
        return out

    return Batch(pad_to(srcs), pad_to(tins), pad_to(touts), pad)


# ---------------------------------------------------------------------------------------
# Decoding: one beam search per instance, tags advancing after each </s>
# ---------------------------------------------------------------------------------------

@torch.no_grad()
def beam_search_instance(model: GTransformer, sentences: list[list[int]], beam: int = 5,
                         length_penalty: float = 1.0, return_tags: bool = False):
    """Translate one instance (source sentences as ids, no EOS) in one beam search.

    Returns the best hypothesis as a list of sentences (ids, no EOS) and, if ``return_tags``, the
    group tag of every decoder input fed along that hypothesis (for tests and inspection).
    """
    cfg = model.cfg
    device = next(model.parameters()).device
    sents = [s[: cfg.max_len - 1] for s in sentences]
    src = torch.tensor([[t for s in sents for t in (*s, cfg.eos_id)]], device=device)
    enc, src_tags = model.encode(src)
    return beam_search_encoded(model, enc, src_tags, [len(s) for s in sents], beam, length_penalty, return_tags)


@torch.no_grad()
def beam_search_encoded(model: GTransformer, enc: Tensor, src_tags: Tensor, lengths: list[int], beam: int = 5,
                        length_penalty: float = 1.0, return_tags: bool = False):
    """The search of :func:`beam_search_instance` over an encoded instance of ``len(lengths)``
    sentences (source lengths without EOS): ``enc`` (1, S, d) and ``src_tags``, whatever the
    model's ``decode`` reads of the source (G-Transformer: tags (1, S); SMDT: (1, S, 3))."""
    cfg, K = model.cfg, beam
    device = enc.device
    n = len(lengths)
    cross = [tuple(t.expand(K, -1, -1, -1) for t in kv) for kv in model.cross_kv(enc)]
    src_tags = src_tags.expand(K, *src_tags.shape[1:])
    limits = [max_new_tokens(n_src + 1, cfg.max_len) for n_src in lengths]  # per sentence, counting </s>

    scores = torch.full((K,), float("-inf"), device=device)
    scores[0] = 0.0  # identical beams at the start: expand only the first
    seqs: list[list[int]] = [[] for _ in range(K)]
    fed_tags: list[list[int]] = [[] for _ in range(K)]
    tag, sent_len = [1] * K, [0] * K
    finished: list[tuple[float, list[int], list[int]]] = []
    last = torch.full((K, 1), cfg.bos_id, dtype=torch.long, device=device)
    past, past_tags = None, None
    for t in range(sum(limits)):
        cur = torch.tensor(tag, device=device)[:, None]
        logits, past = model.decode(last, cur, cross, src_tags, past, past_tags, start=t)
        past_tags = cur if past_tags is None else torch.cat([past_tags, cur], dim=1)
        for k in range(K):
            fed_tags[k] = [*fed_tags[k], tag[k]]
        lp = logits[:, -1].float().log_softmax(-1)
        lp[:, [cfg.pad_id, cfg.bos_id]] = float("-inf")  # <s> is fed by the search, never chosen
        at_limit = torch.tensor([sent_len[k] + 1 >= limits[tag[k] - 1] for k in range(K)], device=device)
        eos_only = torch.full_like(lp, float("-inf"))
        eos_only[:, cfg.eos_id] = lp[:, cfg.eos_id]
        lp = torch.where(at_limit[:, None], eos_only, lp)  # each sentence has its own length limit
        V = lp.shape[-1]
        top_v, top_i = (scores[:, None] + lp).view(-1).topk(2 * K)
        new: list[tuple[float, int, int]] = []  # (score, origin beam, token)
        for rank, (v, i) in enumerate(zip(top_v.tolist(), top_i.tolist(), strict=True)):
            k, tok = divmod(i, V)
            if v == float("-inf"):
                break
            if tok == cfg.eos_id and tag[k] == n:  # the instance's last </s>: a finished hypothesis
                if rank < K:
                    finished.append((v / (len(seqs[k]) + 1) ** length_penalty, [*seqs[k], tok], fed_tags[k]))
                continue
            if len(new) < K:
                new.append((v, k, tok))
        if len(finished) >= K or not new:
            break
        origin = [k for _, k, _ in new] + [0] * (K - len(new))
        seqs = [[*seqs[k], tok] for _, k, tok in new] + [[] for _ in range(K - len(new))]
        fed_tags = [list(fed_tags[k]) for k in origin]
        sent_len = [0 if tok == cfg.eos_id else sent_len[k] + 1 for _, k, tok in new] + [0] * (K - len(new))
        tag = [tag[k] + (tok == cfg.eos_id) for _, k, tok in new] + [1] * (K - len(new))
        scores = torch.tensor([v for v, _, _ in new] + [float("-inf")] * (K - len(new)), device=device)
        idx = torch.tensor(origin, device=device)
        past = [tuple(x[idx] for x in kv) for kv in past]
        past_tags = past_tags[idx]
        # After </s> the next input is <s>, carrying the next group tag (advance_tags).
        last = torch.tensor([cfg.bos_id if tok == cfg.eos_id else tok for _, _, tok in new]
                            + [cfg.bos_id] * (K - len(new)), device=device)[:, None]
    if not finished:  # cannot happen with the per-sentence limits, but never crash decoding
        finished = [(0.0, [*seqs[0], cfg.eos_id], fed_tags[0])]
    _, tokens, tags = max(finished, key=lambda x: x[0])
    hyp: list[list[int]] = [[]]
    for tok in tokens[:-1]:
        if tok == cfg.eos_id:
            hyp.append([])
        else:
            hyp[-1].append(tok)
    hyp += [[] for _ in range(n - len(hyp))]
    return (hyp, tags) if return_tags else hyp


@torch.no_grad()
def translate_documents(model: GTransformer, documents: list[list[list[int]]], beam: int = 5,
                        length_penalty: float = 1.0) -> list[DocumentTranslation]:
    """Translate documents (source sentences as ids) instance by instance."""
    model.eval()
    out = []
    for doc in documents:
        hyps: list[list[int]] = []
        for inst in split_instances([min(len(s), model.cfg.max_len - 1) for s in doc], model.cfg.doc_max_len):
            hyps += beam_search_instance(model, [doc[i] for i in inst], beam, length_penalty)
        out.append(DocumentTranslation(hyps, []))
    return out
