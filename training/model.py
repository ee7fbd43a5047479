"""The memory Transformer of Feng et al. 2022 ("Learn to Remember"), in one file.

Reads top to bottom: config -> attention -> memory unit -> layers -> the model.

A standard encoder-decoder Transformer (pre-norm: LayerNorm before each sub-layer, which
trains stably from scratch without a long warm-up; final LayerNorm on both stacks), shared
SentencePiece vocabulary, tied embeddings. A **memory unit** sits on chosen encoder and/or
decoder layers (the top ones by default). Per side and layer it keeps ``M_t`` (slots x d):

- Output Attention, right after self-attention:  h' = h + MHA(LN(h), M_t+PE, M_t+PE)
- Update Attention, after the whole sentence:    M~ = AddNorm(M_t+PE + MHA(M_t+PE, LN(h), LN(h)))
                                                 M_{t+1} = AddNorm(M~ + FFN(M~))
  where ``h`` is that layer's self-attention output (residual stream) for the whole sentence.
  The update keeps the paper's post-norm AddNorm: the memory is not a residual stream, and a
  LayerNorm after every update keeps its scale fixed however many sentences pass through it.

With ``memory=None`` every memory sub-layer is skipped and the model *is* the plain
sentence-level Transformer (stage 1); a stage-1 checkpoint has exactly the non-memory weights.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import cast

import torch
import torch.nn.functional as F
from torch import Tensor, nn

SIDES = ("src", "tgt")


@dataclass
class ModelConfig:
    vocab_size: int = 8000
    d_model: int = 512
    n_heads: int = 8
    d_ff: int = 2048
    enc_layers: int = 6
    dec_layers: int = 6
    dropout: float = 0.1
    max_len: int = 512  # longest sentence in tokens the position table covers
    pad_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    mem_slots: int = 16
    # "none" = sentence-level model; "src", "tgt" or "both" = memory on those sides.
    mem_side: str = "both"
    # Layer indices carrying memory; negative counts from the top (-1 = top layer).
    mem_enc_layers: list[int] = field(default_factory=lambda: [-1])
    mem_dec_layers: list[int] = field(default_factory=lambda: [-1])
    # Dropout inside the memory units (Feng et al.'s code uses 0.3 there while the backbone keeps
    # its own); None = ``dropout``, which is what configs saved before this field meant.
    mem_dropout: float | None = None

    @property
    def memory_dropout(self) -> float:
        return self.dropout if self.mem_dropout is None else self.mem_dropout

    @property
    def sides(self) -> tuple[str, ...]:
        return {"none": (), "src": ("src",), "tgt": ("tgt",), "both": SIDES}[self.mem_side]

    def memory_layers(self, side: str) -> list[int]:
        """Absolute indices of the layers with memory on ``side`` (empty if none)."""
        if side not in self.sides:
            return []
        n = self.enc_layers if side == "src" else self.dec_layers
        layers = self.mem_enc_layers if side == "src" else self.mem_dec_layers
        return sorted({i % n for i in layers})

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> ModelConfig:
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


CONFIGS: dict[str, dict] = {
    # tiny: tests, trains in seconds on a CPU.
    "tiny": dict(d_model=64, n_heads=4, d_ff=128, enc_layers=2, dec_layers=2, dropout=0.0, max_len=128),
    # small: CPU experiments.
    "small": dict(d_model=256, n_heads=4, d_ff=1024, enc_layers=3, dec_layers=3, dropout=0.1, max_len=256),
    # base: the papers' setting.
    "base": dict(d_model=512, n_heads=8, d_ff=2048, enc_layers=6, dec_layers=6, dropout=0.1, max_len=512),
    # deep: the shipped zh<->en model (GPU run): a deep encoder and a shallow decoder (Kasai et al.
    # 2021), sized by benchmarks/model_size_speed.py for the laptop: 29.8M parameters with a 16k
    # vocabulary, a 38 MB int8 bundle, a 40-sentence page in ~3 s at beam 5 on one CPU thread.
    # (d=512 6+2 is 55 MB: every d=512 shape passes the ~40 MB a repository bundle may take.)
    "deep": dict(d_model=384, n_heads=6, d_ff=1536, enc_layers=8, dec_layers=2, dropout=0.1, max_len=512),
}


def make_config(name: str, **overrides) -> ModelConfig:
    if name not in CONFIGS:
        raise ValueError(f"unknown model config {name!r} (choose from {', '.join(CONFIGS)})")
    return ModelConfig(**{**CONFIGS[name], **overrides})


def sinusoid_table(n: int, d: int) -> Tensor:
    """The fixed position encoding of Vaswani et al. (used for tokens and for memory slots)."""
    pos = torch.arange(n, dtype=torch.float32)[:, None]
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, d)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe


class Attention(nn.Module):
    """Multi-head attention returning its weights when asked (the viewer and export need them).

    ``bias`` is additive (0 keep / MASKED drop), broadcast to (B, heads, Tq, Tk). ``causal``
    adds the causal mask (query i sees keys 0..i; needs Tq == Tk) on top of ``bias``.

    Two paths compute the same thing: ``F.scaled_dot_product_attention`` (fused kernels: flash /
    memory-efficient on GPU, fused CPU kernel; never materialises the weights) whenever the
    weights are not asked for, and the explicit softmax(QK^T/sqrt(d) + bias) V when they are,
    and while exporting to ONNX, so the exported graphs stay plain MatMul/Softmax as before.
    """

    # Class-wide switch: False forces the explicit path (parity tests, benchmarks/train_step_speed.py).
    fused: bool = True

    def __init__(self, d: int, n_heads: int, dropout: float):
        super().__init__()
        assert d % n_heads == 0, "d_model must be divisible by n_heads"
        self.h, self.dh = n_heads, d // n_heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.drop = nn.Dropout(dropout)

    def split(self, x: Tensor) -> Tensor:  # (B, T, d) -> (B, h, T, dh)
        return x.view(x.shape[0], x.shape[1], self.h, self.dh).transpose(1, 2)

    def kv(self, x: Tensor) -> tuple[Tensor, Tensor]:
        return self.split(self.k(x)), self.split(self.v(x))

    def forward(self, x: Tensor, kv: tuple[Tensor, Tensor], bias: Tensor | None = None,
                need_weights: bool = False, causal: bool = False) -> tuple[Tensor, Tensor | None]:
        q = self.split(self.q(x))
        k, v = kv
        if self.fused and not need_weights and not torch.onnx.is_in_onnx_export():
            out = self._fused(q, k, v, bias, causal)
            w = None
        else:
            scores = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
            if bias is not None:
                scores = scores + bias
            if causal:
                scores = scores + causal_bias(q.shape[2], q.device)
            w = scores.softmax(-1)
            out = self.drop(w) @ v
        out = out.transpose(1, 2).reshape(x.shape[0], x.shape[1], self.h * self.dh)
        return self.o(out), (w if need_weights else None)

    def _fused(self, q: Tensor, k: Tensor, v: Tensor, bias: Tensor | None, causal: bool) -> Tensor:
        p = self.drop.p if self.training else 0.0
        if bias is None:
            # No mask tensor at all: the only case PyTorch's flash kernel accepts.
            return F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=causal)
        if causal:  # SDPA takes a mask or is_causal, not both
            bias = bias + causal_bias(q.shape[2], q.device)
        # A float mask must have the query's dtype (bf16/fp16 under autocast). MASKED (-1e9) is
        # beyond fp16's range: clamp it to a finite value so an all-padding row stays a uniform
        # softmax (as on the explicit path) instead of -inf - -inf = NaN.
        if bias.dtype != q.dtype:
            bias = bias.clamp(min=torch.finfo(q.dtype).min / 2).to(q.dtype)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias, dropout_p=p)


class FeedForward(nn.Sequential):
    def __init__(self, d: int, d_ff: int, dropout: float):
        super().__init__(nn.Linear(d, d_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_ff, d))


class MemoryUnit(nn.Module):
    """Memory of one layer on one side: learned M_0, Output Attention and Update Attention."""

    slot_pe: Tensor  # buffer

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        d, p = cfg.d_model, cfg.memory_dropout
        self.init = nn.Parameter(torch.randn(cfg.mem_slots, d) * 0.02)  # M_0
        self.register_buffer("slot_pe", sinusoid_table(cfg.mem_slots, d), persistent=False)
        # Output Attention (read): sentence tokens query the memory slots.
        self.read_norm = nn.LayerNorm(d)
        self.read = Attention(d, cfg.n_heads, p)
        # The read's output projection starts at zero, so a memory added to a trained sentence
        # model (stage 2 from stage 1) leaves its translations as they were until training moves
        # it: a random read had cost the shipped model ~0.01 nats a token for as long as stage 2
        # was short (the device leases ran 1-9 steps of it). Its gradient is not zero (the read's
        # attention output), so the memory still learns from the first step.
        nn.init.zeros_(self.read.o.weight)
        nn.init.zeros_(self.read.o.bias)
        # Update Attention (write): memory slots query the sentence states.
        self.state_norm = nn.LayerNorm(d)
        self.write = Attention(d, cfg.n_heads, p)
        self.write_norm = nn.LayerNorm(d)
        self.ffn = FeedForward(d, cfg.d_ff, p)
        self.ffn_norm = nn.LayerNorm(d)
        self.drop = nn.Dropout(p)

    def positioned(self, mem: Tensor) -> Tensor:
        return mem + self.slot_pe  # so slots are distinguishable (paper eq. 4)

    def output_attention(self, h: Tensor, mem: Tensor, need_weights: bool = False):
        m = self.positioned(mem)
        out, w = self.read(self.read_norm(h), self.read.kv(m), need_weights=need_weights)
        return h + self.drop(out), w

    def update(self, mem: Tensor, h: Tensor, pad_bias: Tensor | None, need_weights: bool = False):
        """M_{t+1} from M_t (B, S, d) and the sentence states h (B, T, d); pad_bias (B,1,1,T)."""
        m = self.positioned(mem)
        hs = self.state_norm(h)
        out, w = self.write(m, self.write.kv(hs), pad_bias, need_weights=need_weights)
        m = self.write_norm(m + self.drop(out))
        return self.ffn_norm(m + self.drop(self.ffn(m))), w


class EncoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig, with_memory: bool):
        super().__init__()
        d = cfg.d_model
        self.self_norm, self.self_attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.ffn_norm, self.ffn = nn.LayerNorm(d), FeedForward(d, cfg.d_ff, cfg.dropout)
        self.memory = MemoryUnit(cfg) if with_memory else None
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: Tensor, pad_bias: Tensor, mem: Tensor | None, need_weights: bool = False):
        y = self.self_norm(x)
        a, _ = self.self_attn(y, self.self_attn.kv(y), pad_bias)
        h = x + self.drop(a)  # the self-attention state the memory update reads
        x, w = h, None
        if self.memory is not None and mem is not None:
            x, w = self.memory.output_attention(h, mem, need_weights)
        x = x + self.drop(self.ffn(self.ffn_norm(x)))
        return x, h, w


class DecoderBlocks(nn.Module):
    """A decoder layer's three sub-layers, each pre-norm with its residual; the memory model's
    layer (DecoderLayer) and the context-cache layer (training/context_cache.py) put their own
    attention between them and share these, with the same parameter names."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        d = cfg.d_model
        self.self_norm, self.self_attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.cross_norm, self.cross_attn = nn.LayerNorm(d), Attention(d, cfg.n_heads, cfg.dropout)
        self.ffn_norm, self.ffn = nn.LayerNorm(d), FeedForward(d, cfg.d_ff, cfg.dropout)
        self.drop = nn.Dropout(cfg.dropout)

    def self_block(self, x: Tensor, self_bias: Tensor | None, past: tuple[Tensor, Tensor] | None = None,
                   causal: bool = False) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        y = self.self_norm(x)
        k, v = self.self_attn.kv(y)
        if past is not None:
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
        a, _ = self.self_attn(y, (k, v), self_bias, causal=causal)
        return x + self.drop(a), (k, v)

    def cross_block(self, x: Tensor, cross_kv: tuple[Tensor, Tensor], cross_bias: Tensor) -> Tensor:
        c, _ = self.cross_attn(self.cross_norm(x), cross_kv, cross_bias)
        return x + self.drop(c)

    def ffn_block(self, x: Tensor) -> Tensor:
        return x + self.drop(self.ffn(self.ffn_norm(x)))


class DecoderLayer(DecoderBlocks):
    def __init__(self, cfg: ModelConfig, with_memory: bool):
        super().__init__(cfg)
        self.memory = MemoryUnit(cfg) if with_memory else None

    def forward(self, x: Tensor, self_bias: Tensor | None, cross_kv: tuple[Tensor, Tensor],
                cross_bias: Tensor, mem: Tensor | None, past: tuple[Tensor, Tensor] | None = None,
                need_weights: bool = False, causal: bool = False):
        """``past`` = this layer's cached self-attention (k, v); returns the extended cache.
        ``causal``: self-attention is causal over ``x`` (teacher forcing) on top of ``self_bias``."""
        h, kv = self.self_block(x, self_bias, past, causal)
        x, w = h, None
        if self.memory is not None and mem is not None:
            x, w = self.memory.output_attention(h, mem, need_weights)
        x = self.cross_block(x, cross_kv, cross_bias)
        return self.ffn_block(x), h, kv, w


# A large finite value rather than -inf: a row that is all padding (a document stream with no
# sentence at this step) then gives a harmless uniform attention instead of NaNs that would
# poison the gradients through the softmax backward.
MASKED = -1e9


def pad_bias(ids: Tensor, pad_id: int) -> Tensor:
    """(B, T) ids -> (B, 1, 1, T) additive mask hiding padding."""
    return (ids == pad_id).to(torch.float32)[:, None, None, :] * MASKED


def causal_bias(t: int, device: torch.device) -> Tensor:
    return torch.full((t, t), MASKED, device=device).triu(1)[None, None]


class MemoryTransformer(nn.Module):
    pos: Tensor  # buffer: sinusoidal positions

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        self.embed = nn.Embedding(cfg.vocab_size, d, padding_idx=cfg.pad_id)
        nn.init.normal_(self.embed.weight, std=d**-0.5)
        self.register_buffer("pos", sinusoid_table(cfg.max_len, d), persistent=False)
        enc_mem, dec_mem = set(cfg.memory_layers("src")), set(cfg.memory_layers("tgt"))
        # Registered as ModuleLists, typed as the lists of layers they are (``cast`` does nothing at run time).
        self.encoder = cast("list[EncoderLayer]", nn.ModuleList(EncoderLayer(cfg, i in enc_mem)
                                                                for i in range(cfg.enc_layers)))
        self.decoder = cast("list[DecoderLayer]", nn.ModuleList(DecoderLayer(cfg, i in dec_mem)
                                                                for i in range(cfg.dec_layers)))
        self.enc_norm, self.dec_norm = nn.LayerNorm(d), nn.LayerNorm(d)
        self.drop = nn.Dropout(cfg.dropout)

    # -- memory ---------------------------------------------------------------------------
    def memory_units(self, side: str) -> list[MemoryUnit]:
        layers = self.encoder if side == "src" else self.decoder
        return [layer.memory for layer in layers if layer.memory is not None]

    def init_memory(self, batch: int) -> dict[str, Tensor]:
        """M_0 for a batch of new documents: side -> (B, layers, slots, d)."""
        return {side: torch.stack([u.init for u in self.memory_units(side)])[None].expand(batch, -1, -1, -1)
                for side in self.cfg.sides}

    def update_memory(self, side: str, mem: Tensor, states: list[Tensor], ids: Tensor,
                      need_weights: bool = False) -> tuple[Tensor, list[Tensor | None]]:
        """Write one finished sentence into the memory of ``side``.

        ``states``: that side's self-attention states at each memory layer (from encode /
        decode); ``ids``: the sentence tokens (padding masked out of the update).
        """
        bias = pad_bias(ids, self.cfg.pad_id)
        new, weights = [], []
        for i, (unit, h) in enumerate(zip(self.memory_units(side), states, strict=True)):
            m, w = unit.update(mem[:, i], h, bias, need_weights)
            new.append(m)
            weights.append(w)
        return torch.stack(new, dim=1), weights

    def write_memory(self, memory: dict[str, Tensor], src: Tensor, src_states: list[Tensor], tgt_in: Tensor,
                     tgt_states: list[Tensor]) -> dict[str, Tensor]:
        """The memory after one finished sentence pair: every side's memory in ``memory`` updated
        with that side's states (source from ``encode``, target from ``decode`` over ``tgt_in``:
        the reference in training, the chosen translation at inference). The one place the
        memory update is spelled out: training, its stage-2 recomputation and the search call it."""
        new = {}
        if "src" in memory:
            new["src"], _ = self.update_memory("src", memory["src"], src_states, src)
        if "tgt" in memory:
            new["tgt"], _ = self.update_memory("tgt", memory["tgt"], tgt_states, tgt_in)
        return new

    # -- encoder / decoder ----------------------------------------------------------------
    def embed_tokens(self, ids: Tensor, start: int | Tensor = 0) -> Tensor:
        t = ids.shape[1]
        pos = self.pos[start:start + t] if isinstance(start, int) else self.pos[start + torch.arange(t)]
        return self.drop(self.embed(ids) * math.sqrt(self.cfg.d_model) + pos)

    def encode(self, src: Tensor, mem: Tensor | None = None, need_weights: bool = False):
        """-> (enc_out (B,T,d), states at memory layers, output-attention weights per memory layer)."""
        bias = pad_bias(src, self.cfg.pad_id)
        x, states, weights, j = self.embed_tokens(src), [], [], 0
        for layer in self.encoder:
            m = None
            if layer.memory is not None and mem is not None:
                m, j = mem[:, j], j + 1
            x, h, w = layer(x, bias, m, need_weights)
            if layer.memory is not None:
                states.append(h)
                weights.append(w)
        return self.enc_norm(x), states, weights

    def cross_kv(self, enc_out: Tensor) -> list[tuple[Tensor, Tensor]]:
        """Encoder keys/values per decoder layer: computed once per sentence, reused every step."""
        return [layer.cross_attn.kv(enc_out) for layer in self.decoder]

    def decode(self, tgt_in: Tensor, cross_kv: list[tuple[Tensor, Tensor]], src: Tensor,
               mem: Tensor | None = None, past: list[tuple[Tensor, Tensor]] | None = None,
               start: int | Tensor = 0, need_weights: bool = False, project: bool = True):
        """Teacher-forced over ``tgt_in`` (past=None) or incremental steps with a KV cache.

        -> (logits, states at memory layers, new cache, output-attention weights). ``project=False``
        skips the output projection (logits None) for callers that only write the memory: with a
        16k vocabulary and a 2-layer decoder it is more than half of the decoder's work.
        """
        # Target padding only ever follows the sentence, so the causal mask already keeps real
        # tokens from seeing it. Incremental steps (one new token) attend to the whole cache.
        # Passed as a flag, not a mask tensor: SDPA's is_causal lets PyTorch pick its flash kernel.
        causal = past is None
        cross_bias = pad_bias(src, self.cfg.pad_id)
        x, states, weights, cache, j = self.embed_tokens(tgt_in, start), [], [], [], 0
        for i, layer in enumerate(self.decoder):
            m = None
            if layer.memory is not None and mem is not None:
                m, j = mem[:, j], j + 1
            x, h, kv, w = layer(x, None, cross_kv[i], cross_bias, m,
                                None if past is None else past[i], need_weights, causal)
            cache.append(kv)
            if layer.memory is not None:
                states.append(h)
                weights.append(w)
        logits = self.dec_norm(x) @ self.embed.weight.T if project else None  # tied output projection
        return logits, states, cache, weights

    def decode_step(self, tokens: Tensor, cross_kv: list[tuple[Tensor, Tensor]], src: Tensor, mem: Tensor | None,
                    past: list[tuple[Tensor, Tensor]] | None, start: int) -> tuple[Tensor, list[tuple[Tensor, Tensor]]]:
        """One incremental step for the search (training.search): -> (logits, extended cache).
        ``mem`` is what the decoder reads, here the target-side memory."""
        logits, _, cache, _ = self.decode(tokens, cross_kv, src, mem, past=past, start=start)
        return logits, cache

    # -- training step --------------------------------------------------------------------
    def forward(self, src: Tensor, tgt_in: Tensor, memory: dict[str, Tensor] | None = None):
        """One sentence per row. -> (logits, next memory or None).

        ``memory=None``: sentence-level model (stage 1). Otherwise the memory of every side
        is read by this sentence and then updated with it (source states, and the target
        states of the teacher-forced reference).
        """
        enc, src_states, _ = self.encode(src, memory.get("src") if memory is not None else None)
        logits, tgt_states, _, _ = self.decode(tgt_in, self.cross_kv(enc), src,
                                               memory.get("tgt") if memory is not None else None)
        if memory is None:
            return logits, None
        return logits, self.write_memory(memory, src, src_states, tgt_in, tgt_states)

    def new_parameter_names(self) -> list[str]:
        """Parameters a sentence-level (stage 1) checkpoint does not train: the memory's."""
        return [n for n, _ in self.named_parameters() if ".memory." in n]


def label_smoothed_loss(logits: Tensor, target: Tensor, pad_id: int, smoothing: float = 0.1,
                        reduce: bool = True) -> Tensor:
    """Token-level label-smoothed cross entropy, padding ignored (sum over tokens if not reduce)."""
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), target.reshape(-1),
                           ignore_index=pad_id, label_smoothing=smoothing, reduction="sum")
    return loss / (target != pad_id).sum().clamp(min=1) if reduce else loss
