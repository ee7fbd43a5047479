"""Decoding in PyTorch: beam search (greedy = beam 1) and the document memory loop.

This is the reference the ONNX engine (doctrans/engine) mirrors step for step, so the two
give the same translations. Beam search follows fairseq: at each step take the top 2K
candidates; an EOS among the first K ranks finishes a hypothesis with score
``logprob / gen_len ** length_penalty`` (gen_len counts the EOS); the other candidates fill
the K live beams; a sentence is done when K hypotheses have finished, or at the length limit
``min(max_len - 1, 2 * src_len + 10)`` where the live beams are finished as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from training.model import MemoryTransformer


def max_new_tokens(src_len: int, model_max_len: int) -> int:
    return min(model_max_len - 1, 2 * src_len + 10)


def pad_rows(rows: list[list[int]], pad: int, device: torch.device | None = None) -> Tensor:
    width = max(1, max(len(r) for r in rows))
    out = torch.full((len(rows), width), pad, dtype=torch.long, device=device)
    for i, r in enumerate(rows):
        out[i, : len(r)] = torch.tensor(r, dtype=torch.long)
    return out


@torch.no_grad()
def beam_search(model: MemoryTransformer, src: Tensor, enc_out: Tensor, mem_tgt: Tensor | None,
                beam: int = 5, length_penalty: float = 1.0) -> list[tuple[list[int], float]]:
    """Best hypothesis (tokens without BOS/EOS, normalized score) for each row of ``src``."""
    cfg = model.cfg
    B, K = src.shape[0], beam
    rep = torch.arange(B, device=src.device).repeat_interleave(K)
    src_r = src[rep]
    kv = [(k[rep], v[rep]) for k, v in model.cross_kv(enc_out)]
    mem_r = mem_tgt[rep] if mem_tgt is not None else None
    limits = [max_new_tokens(int((src[b] != cfg.pad_id).sum()), cfg.max_len) for b in range(B)]

    scores = torch.full((B, K), float("-inf"), device=src.device)
    scores[:, 0] = 0.0  # all beams start identical: expand only the first
    seqs: list[list[list[int]]] = [[[] for _ in range(K)] for _ in range(B)]
    finished: list[list[tuple[float, list[int]]]] = [[] for _ in range(B)]
    done = [False] * B
    last = torch.full((B * K, 1), cfg.bos_id, dtype=torch.long, device=src.device)
    past = None
    for t in range(max(limits)):
        logits, _, past, _ = model.decode(last, kv, src_r, mem_r, past=past, start=t)
        lp = logits[:, -1].float().log_softmax(-1).view(B, K, -1)
        V = lp.shape[-1]
        cand = (scores[:, :, None] + lp).view(B, K * V)
        top_v, top_i = cand.topk(2 * K, dim=-1)
        top_v, top_i = top_v.tolist(), top_i.tolist()
        origin = list(range(B * K))  # which old beam each new beam continues
        new_scores = scores.clone()
        tokens = [cfg.eos_id] * (B * K)
        for b in range(B):
            if done[b]:
                continue
            live = 0
            for rank, (v, i) in enumerate(zip(top_v[b], top_i[b], strict=True)):
                k, tok = divmod(i, V)
                if v == float("-inf"):
                    break
                if tok == cfg.eos_id:
                    if rank < K:
                        finished[b].append((v / (t + 1) ** length_penalty, seqs[b][k]))
                    continue
                if live < K:
                    origin[b * K + live] = b * K + k
                    tokens[b * K + live] = tok
                    new_scores[b, live] = v
                    live += 1
            seqs[b] = [seqs[b][origin[b * K + j] - b * K] + [tokens[b * K + j]] for j in range(live)] + \
                [[] for _ in range(K - live)]
            new_scores[b, live:] = float("-inf")
            if len(finished[b]) >= K:
                done[b] = True
            elif t + 1 >= limits[b]:
                finished[b] += [(new_scores[b, j].item() / (t + 1) ** length_penalty, seqs[b][j])
                                for j in range(live)]
                done[b] = True
        if all(done):
            break
        scores = new_scores
        idx = torch.tensor(origin, device=src.device)
        past = [(k[idx], v[idx]) for k, v in past]
        last = torch.tensor(tokens, device=src.device)[:, None]
    best = [max(f, key=lambda x: x[0]) if f else (0.0, []) for f in finished]
    return [(tokens, score) for score, tokens in best]


@dataclass
class DocumentTranslation:
    hypotheses: list[list[int]]  # token ids per sentence
    memories: list[dict[str, Tensor]]  # memory after each sentence (if recorded)


@torch.no_grad()
def translate_documents(model: MemoryTransformer, documents: list[list[list[int]]], beam: int = 5,
                        length_penalty: float = 1.0, record_memory: bool = False,
                        max_rows: int = 64) -> list[DocumentTranslation]:
    """Translate documents (lists of source token ids, no EOS) in order with the memory loop.

    Documents run side by side as rows (``max_rows`` at a time); each sentence reads the memory
    written by that document's earlier sentences, and after its translation is complete the
    source and target memories are updated (target states from the decoder over the chosen
    hypothesis, teacher-forced).
    """
    out: list[DocumentTranslation] = []
    for start in range(0, len(documents), max_rows):
        out += _translate_rows(model, documents[start:start + max_rows], beam, length_penalty, record_memory)
    return out


def _translate_rows(model, docs, beam, length_penalty, record_memory):
    cfg = model.cfg
    device = next(model.parameters()).device
    results = [DocumentTranslation([], []) for _ in docs]
    memory = {k: v.clone() for k, v in model.init_memory(len(docs)).items()}
    for t in range(max((len(d) for d in docs), default=0)):
        rows = [r for r, d in enumerate(docs) if t < len(d)]
        idx = torch.tensor(rows, device=device)
        src = pad_rows([[*docs[r][t][:cfg.max_len - 1], cfg.eos_id] for r in rows], cfg.pad_id, device)
        mem = {side: m[idx] for side, m in memory.items()}
        enc, src_states, _ = model.encode(src, mem.get("src"))
        best = beam_search(model, src, enc, mem.get("tgt"), beam, length_penalty)
        hyps = [h for h, _ in best]
        if memory:
            tgt_in = pad_rows([[cfg.bos_id, *h] for h in hyps], cfg.pad_id, device)
            _, tgt_states, _, _ = model.decode(tgt_in, model.cross_kv(enc), src, mem.get("tgt"))
            if "src" in memory:
                memory["src"][idx] = model.update_memory("src", mem["src"], src_states, src)[0]
            if "tgt" in memory:
                memory["tgt"][idx] = model.update_memory("tgt", mem["tgt"], tgt_states, tgt_in)[0]
        for j, r in enumerate(rows):
            results[r].hypotheses.append(hyps[j])
            if record_memory:
                results[r].memories.append({side: m[r].clone() for side, m in memory.items()})
    return results
