"""The speed scoreboard: doctrans vs CTranslate2 vs PyTorch on the same weights (issue 18).

    python -m benchmarks.vs_ctranslate2                     # the shipped zh-en bundle, 240 TVsub dev sentences
    python -m benchmarks.vs_ctranslate2 --quick             # smoke test: 24 sentences, beam 1 and 5, 1 thread, 1 round
    python -m benchmarks.vs_ctranslate2 --bundle B --sentences 240 --rounds 3 --threads 1 2

Needs the benchmark-only extras (``pip install -e ".[bench]"``: ctranslate2, transformers), never
imported by ``doctrans/``.

1. **Same weights.** The bundle's weights are read back into PyTorch
   (:mod:`training.bundle_weights`; from an int8 bundle, dequantized). The memory model (memory
   on) and its sentence-level model (the same weights without the memory units: memory off) are
   exported to doctrans bundles, fp32 and int8, with ``export.bundle.export_model`` and its checks
   (cached in ``--work``; the shipped int8 bundle itself is the "memory on, int8" row). The
   sentence-level weights are mapped into a ``transformers`` M2M100 model (pre-norm, scaled
   embeddings, final LayerNorms, ReLU, tied output projection: the same network; the sinusoidal
   position table is overwritten with doctrans' own) and converted with CTranslate2's own M2M100
   loader, int8 and fp32.
2. **Same output.** CTranslate2 fp32 greedy vs doctrans memory-off fp32 greedy, token by token on
   the first 100 sentences: the count of identical translations is printed (the mapping is right
   when it is 100/100; int8 is each framework's own quantization, reported for information).
3. **Tokens/s.** Generated tokens (EOS counted) per second of wall time, each system translating the
   document's sentences in document order from the same source ids (SentencePiece and verbatim
   masking are outside the timing for every system): doctrans ``translate_ids`` (encoder, beam search
   over the step decoder, and with memory the decoder_full pass and memory update), doctrans with
   the sentences cut into ``--batch-docs`` documents translated as the rows of one batch, each with
   its own memory (``doctrans.engine.batch``: ``translate --batch-docs``), CTranslate2
   ``translate_batch`` one sentence at a time (one stream) and all sentences in one call (batched,
   ``max_batch_size`` 32, which is what it is for: the memory model's sentences cannot be batched
   within a document), PyTorch eager ``training.search`` on the sentence-level model. Beams 1 and 5,
   1 and 2 threads (ORT intra-op, CTranslate2 intra_threads, torch.set_num_threads), rounds
   interleaved (every system once per round, in turn) and the median per cell, so a neighbour's
   load spreads over all systems instead of landing on one. Printed as tok/s and as ratios to
   CTranslate2 int8 one stream.

The limits: CTranslate2 caps a sentence at ``max_decoding_length`` = the doctrans limit of the
longest source of the call (2 * src_len + 10), so a looping hypothesis may run longer in a batch.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "doctrans" / "models" / "zh-en-bidirectional"
DEV = REPO.parent / "shared" / "data" / "tvsub-zh-en" / "dev.jsonl.xz"
AGREEMENT_SENTENCES = 100


# -- the mapping ---------------------------------------------------------------------------------
# The search doctrans runs here, the same as CTranslate2's (translate_batch length_penalty=1.0).
SAME_SEARCH: dict[str, Any] = {"length_penalty": 1.0, "no_repeat_ngram": 0, "max_repeat_run": 0, "new_digits": True,
               "any_script": True, "any_spelling": True}

def to_m2m100(model: Any) -> Any:
    """A sentence-level :class:`training.model.MemoryTransformer` as a transformers
    ``M2M100ForConditionalGeneration`` computing the same function (memory units are ignored)."""
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration

    cfg = model.cfg
    hf_cfg = M2M100Config(
        vocab_size=cfg.vocab_size, d_model=cfg.d_model, encoder_layers=cfg.enc_layers,
        decoder_layers=cfg.dec_layers, encoder_attention_heads=cfg.n_heads, decoder_attention_heads=cfg.n_heads,
        encoder_ffn_dim=cfg.d_ff, decoder_ffn_dim=cfg.d_ff, activation_function="relu",
        max_position_embeddings=cfg.max_len, scale_embedding=True, dropout=0.0, attention_dropout=0.0,
        activation_dropout=0.0, encoder_layerdrop=0.0, decoder_layerdrop=0.0, pad_token_id=cfg.pad_id,
        bos_token_id=cfg.bos_id, eos_token_id=cfg.eos_id, decoder_start_token_id=cfg.bos_id,
        tie_word_embeddings=True)
    hf = M2M100ForConditionalGeneration(hf_cfg).eval()
    src = dict(model.state_dict())
    dst = hf.model
    pairs: list[tuple[Any, str]] = [(dst.shared.weight, "embed.weight"), (hf.lm_head.weight, "embed.weight"),
                                    (dst.encoder.embed_tokens.weight, "embed.weight"),
                                    (dst.decoder.embed_tokens.weight, "embed.weight")]

    def linear(mod: Any, name: str) -> None:
        pairs.extend([(mod.weight, f"{name}.weight"), (mod.bias, f"{name}.bias")])

    def norm(mod: Any, name: str) -> None:
        pairs.extend([(mod.weight, f"{name}.weight"), (mod.bias, f"{name}.bias")])

    def attention(mod: Any, name: str) -> None:
        for ours, theirs in (("q", "q_proj"), ("k", "k_proj"), ("v", "v_proj"), ("o", "out_proj")):
            linear(getattr(mod, theirs), f"{name}.{ours}")

    for side, layers in (("encoder", dst.encoder.layers), ("decoder", dst.decoder.layers)):
        for i, layer in enumerate(layers):
            p = f"{side}.{i}"
            attention(layer.self_attn, f"{p}.self_attn")
            norm(layer.self_attn_layer_norm, f"{p}.self_norm")
            if side == "decoder":
                attention(layer.encoder_attn, f"{p}.cross_attn")
                norm(layer.encoder_attn_layer_norm, f"{p}.cross_norm")
            linear(layer.fc1, f"{p}.ffn.0")
            linear(layer.fc2, f"{p}.ffn.3")
            norm(layer.final_layer_norm, f"{p}.ffn_norm")
    norm(dst.encoder.layer_norm, "enc_norm")
    norm(dst.decoder.layer_norm, "dec_norm")
    with torch.no_grad():
        for param, name in pairs:
            param.copy_(src[name])
        # M2M100's table is fairseq's (sin half, cos half, other frequencies) behind an offset of 2;
        # doctrans' is Vaswani's interleaved one: put it where position i is read.
        for emb in (dst.encoder.embed_positions, dst.decoder.embed_positions):
            table = torch.zeros(emb.offset + cfg.max_len, cfg.d_model)
            table[emb.offset:] = model.pos[: cfg.max_len]
            emb.weights = table
    return hf


def ct2_vocabulary(spm_bytes: bytes, vocab_size: int) -> list[str]:
    """The pieces by id, padded to the embedding's rows (an SPM may have fewer pieces)."""
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_proto=spm_bytes)
    tokens = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
    return tokens + [f"madeupword{i}" for i in range(vocab_size - len(tokens))]


def convert_to_ct2(hf_model: Any, tokens: list[str], out_dir: Path, quantization: str,
                   specials: tuple[str, str, str]) -> Path:
    """CTranslate2's converter on the in-memory model: its M2M100 loader maps the modules; the
    vocabulary is the SentencePiece pieces (no HF tokenizer exists for a doctrans model)."""
    import torch
    from ctranslate2.converters import TransformersConverter
    from ctranslate2.converters.transformers import M2M100Loader

    bos, eos, unk = specials

    class InMemory(TransformersConverter):
        def _load(self) -> Any:
            loader = M2M100Loader()
            with torch.no_grad():
                spec = loader.get_model_spec(hf_model)
            spec.config.bos_token, spec.config.eos_token, spec.config.unk_token = bos, eos, unk
            spec.config.decoder_start_token = bos
            loader.set_vocabulary(spec, tokens)
            return spec

    return Path(InMemory(str(out_dir)).convert(str(out_dir), quantization=quantization, force=True))


# -- systems -------------------------------------------------------------------------------------
@dataclass
class Doc:
    ids: list[list[int]]  # source ids per sentence, with the tag (if any) and EOS
    pieces: list[list[str]]  # the same as pieces (CTranslate2's input)
    limits: list[int]  # doctrans' generation limit per sentence


def document_parts(n: int, docs: int) -> list[range]:
    """The sentences 0..n-1 cut into ``docs`` contiguous documents (the last may be shorter)."""
    size = -(-n // docs)
    return [range(k, min(k + size, n)) for k in range(0, n, size)]


def batches_of(parts: list[range]) -> Iterator[tuple[list[int], list[int]]]:
    """Per step i, the documents that have an i-th sentence and those sentences' indices: the rows of
    one batch when documents are translated side by side, each in its own order."""
    for i in range(max(map(len, parts))):
        live = [r for r, part in enumerate(parts) if i < len(part)]
        yield live, [parts[r][i] for r in live]


class Systems:
    """Every system as a callable (beam, threads) -> (generated tokens, hypotheses as id lists)."""

    def __init__(self, bundles: dict[str, Path], ct2: dict[str, Path], torch_model: Any, doc: Doc, eos_id: int,
                 vocab: list[str]):
        self.bundles, self.ct2, self.torch_model, self.doc, self.eos, self.vocab = bundles, ct2, torch_model, doc, \
            eos_id, vocab
        self.index = {t: i for i, t in enumerate(vocab)}
        self._cache: dict[tuple[str, int], Any] = {}

    def _translator(self, kind: str, name: str, threads: int) -> Any:
        key = (f"{kind}:{name}", threads)
        if key not in self._cache:
            if kind == "doctrans":
                from doctrans.engine.onnx_engine import OnnxTranslator

                # CTranslate2's search: length penalty 1, no n-gram blocking (the shipped bundles'
                # model.json defaults differ since fc447c2; like for like needs the same search).
                self._cache[key] = OnnxTranslator.load(self.bundles[name], src="zh", threads=threads, **SAME_SEARCH)
            else:
                import ctranslate2

                self._cache[key] = ctranslate2.Translator(str(self.ct2[name]), device="cpu", inter_threads=1,
                                                          intra_threads=threads)
        return self._cache[key]

    def doctrans(self, name: str, beam: int, threads: int) -> list[list[int]]:
        tr = self._translator("doctrans", name, threads)
        session = tr.new_document(beam_size=beam)
        return [session.translate_ids(np.asarray([ids], dtype=np.int64))[0].tokens for ids in self.doc.ids]

    def doctrans_batched(self, name: str, beam: int, threads: int, docs: int) -> list[list[int]]:
        """The sentences as ``docs`` documents (contiguous pieces of the document order), each a row
        of one batch with its own memory (doctrans.engine.batch: what ``translate --batch-docs``
        runs); a row idles once its document has ended."""
        from doctrans.engine.batch import translate_ids_rows

        tr = self._translator("doctrans", name, threads)
        parts = document_parts(len(self.doc.ids), docs)
        sessions = [tr.new_document(beam_size=beam) for _ in parts]
        out: list[list[list[int]]] = [[] for _ in parts]
        for live, idx in batches_of(parts):
            hyps = translate_ids_rows([sessions[r] for r in live], [self.doc.ids[j] for j in idx])
            for r, hyp in zip(live, hyps, strict=True):
                out[r].append(hyp.tokens)
        return [tokens for part in out for tokens in part]

    def ct2_stream(self, name: str, beam: int, threads: int) -> list[list[int]]:
        tr = self._translator("ct2", name, threads)
        out = []
        for pieces, limit in zip(self.doc.pieces, self.doc.limits, strict=True):
            r = tr.translate_batch([pieces], beam_size=beam, max_decoding_length=limit, length_penalty=1.0)
            out.append([self.index[t] for t in r[0].hypotheses[0]])
        return out

    def ct2_batched(self, name: str, beam: int, threads: int, rows: int = 32) -> list[list[int]]:
        """Every sentence in one call, ``rows`` at a time (CTranslate2 sorts them by length first)."""
        tr = self._translator("ct2", name, threads)
        r = tr.translate_batch(self.doc.pieces, beam_size=beam, max_decoding_length=max(self.doc.limits),
                               length_penalty=1.0, max_batch_size=rows)
        return [[self.index[t] for t in x.hypotheses[0]] for x in r]

    def ct2_doc_rows(self, name: str, beam: int, threads: int, docs: int) -> list[list[int]]:
        """CTranslate2 given the batches doctrans's ``docs`` documents make (:meth:`doctrans_batched`):
        sentence i of every document that has one, one call each, in document order. CTranslate2
        with ``max_batch_size`` sorts all sentences by length first (:meth:`ct2_batched`), which a
        model reading the previous sentence's memory cannot: this is the schedule such a model has."""
        tr = self._translator("ct2", name, threads)
        parts = document_parts(len(self.doc.pieces), docs)
        out: list[list[list[int]]] = [[] for _ in parts]
        for live, idx in batches_of(parts):
            res = tr.translate_batch([self.doc.pieces[j] for j in idx], beam_size=beam,
                                     max_decoding_length=max(self.doc.limits[j] for j in idx), length_penalty=1.0)
            for r, x in zip(live, res, strict=True):
                out[r].append([self.index[t] for t in x.hypotheses[0]])
        return [tokens for part in out for tokens in part]

    def pytorch(self, beam: int, threads: int) -> list[list[int]]:
        import torch

        from training.search import translate_documents

        torch.set_num_threads(threads)
        with torch.inference_mode():
            # training.search appends the EOS itself.
            return translate_documents(self.torch_model, [[x[:-1] for x in self.doc.ids]], beam=beam)[0].hypotheses


def generated(hyps: list[list[int]]) -> int:
    return sum(len(h) + 1 for h in hyps)  # + EOS: every token the decoder produced


# -- preparation ---------------------------------------------------------------------------------
def dev_sentences(n: int, path: Path = DEV) -> list[str]:
    """The first ``n`` TVsub dev sentences in document order (documents one after another)."""
    from training.data import read_documents

    out: list[str] = []
    for doc in read_documents(path, "zh", "en"):
        out += [s for s in doc.src if s.strip()]
        if len(out) >= n:
            break
    return out[:n]


def build_bundles(bundle: Path, work: Path, say: Callable[[str], None], sentences: list[str]) -> tuple[
        dict[str, Path], Any, Any]:
    """doctrans bundles of the recovered weights (memory on fp32, memory off fp32/int8; the bundle
    itself as memory on int8 if it is int8), the recovered sentence-level model, the memory model."""
    from export.bundle import export_model
    from training.bundle_weights import recover
    from training.checkpoint import LoadedModel

    mem = recover(bundle)
    sent = recover(bundle, mem_side="none")
    out: dict[str, Path] = {}
    todo = [("mem-fp32", mem, None), ("nomem-fp32", sent, None), ("nomem-int8", sent, "int8")]
    if mem.quantized:
        out["mem-int8"] = bundle
    else:
        todo.append(("mem-int8", mem, "int8"))
    for name, rec, q in todo:
        dest = work / name
        if not (dest / "model.json").exists():
            say(f"exporting {name} (with the exporter's checks against PyTorch)")
            raw: dict[str, Any] = {"config": rec.config.to_dict(), "src_lang": rec.src_lang, "tgt_lang": rec.tgt_lang}
            if rec.directions:
                raw["directions"] = rec.directions
            loaded = LoadedModel(rec.model, rec.config, rec.spm_bytes, rec.src_lang, rec.tgt_lang, raw)
            export_model(loaded, dest, q, sentences=sentences[:4], beam=1)
        out[name] = dest
    return out, sent.model, mem


def source_doc(bundle: Path, sentences: list[str], vocab: list[str]) -> Doc:
    from doctrans.engine.beam import max_new_tokens
    from doctrans.engine.onnx_engine import OnnxTranslator

    tr = OnnxTranslator.load(bundle, src="zh", threads=1, **SAME_SEARCH)
    ids, pieces, limits = [], [], []
    for s in sentences:
        text = tr.prepare(s).model_text
        if text is None:  # nothing to translate (a bare number): no system is given it
            continue
        x = tr.source_ids(text)
        ids.append(x)
        pieces.append([vocab[i] for i in x])
        limits.append(max_new_tokens(len(x), tr.info.max_len))
    return Doc(ids, pieces, limits)


def _sha(path: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(path.iterdir()):
        if f.suffix == ".onnx" or f.name in ("weights.bin", "model.json"):
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


# -- main ----------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bundle", type=Path, default=SHIPPED)
    p.add_argument("--dev", type=Path, default=DEV, help="TVsub dev JSONL(.xz) (zh source)")
    p.add_argument("--sentences", type=int, default=240)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--beams", type=int, nargs="+", default=[1, 5])
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--batch-docs", type=int, nargs="+", default=[4],
                   help="documents (contiguous pieces of the sentences) as the rows of one batch in the "
                        "'docs batched' columns, each beside CTranslate2 with as many rows per batch")
    p.add_argument("--no-pytorch", action="store_true", help="leave PyTorch eager out (the slowest column)")
    p.add_argument("--only", nargs="+", metavar="WORD",
                   help="only the columns whose name has one of these words (ct2 int8, the base, stays): "
                        "e.g. --only doctrans, to measure an engine change")
    p.add_argument("--work", type=Path, default=Path.home() / ".cache" / "doctrans-bench")
    p.add_argument("--json", type=Path, help="write the medians here")
    p.add_argument("--quick", action="store_true", help="smoke test: 24 sentences, 1 round, 1 thread")
    args = p.parse_args(argv)
    if args.quick:
        args.sentences, args.rounds, args.threads = 24, 1, [1]

    import ctranslate2
    import onnxruntime as ort
    import torch

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    work = args.work / _sha(args.bundle)
    work.mkdir(parents=True, exist_ok=True)
    sentences = dev_sentences(max(args.sentences, AGREEMENT_SENTENCES), args.dev)
    torch.set_num_threads(1)
    bundles, sent_model, mem = build_bundles(args.bundle, work, say, sentences)
    vocab = ct2_vocabulary(mem.spm_bytes, mem.config.vocab_size)
    ct2: dict[str, Path] = {}
    for q in ("int8", "float32"):
        dest = work / f"ct2-{q}"
        if not (dest / "model.bin").exists():
            say(f"converting to CTranslate2 ({q})")
            # A fresh model per conversion: the converter changes the module's tensors in place.
            specials = (vocab[mem.config.bos_id], vocab[mem.config.eos_id], vocab[3])
            convert_to_ct2(to_m2m100(sent_model), vocab, dest, q, specials)
        ct2[q] = dest

    # Same output: greedy, the first 100 sentences (or all of them, if fewer).
    agree_doc = source_doc(bundles["nomem-fp32"], sentences[:AGREEMENT_SENTENCES], vocab)
    systems = Systems(bundles, ct2, sent_model, agree_doc, mem.config.eos_id, vocab)
    ours32, theirs32 = systems.doctrans("nomem-fp32", 1, 1), systems.ct2_stream("float32", 1, 1)
    ours8, theirs8 = systems.doctrans("nomem-int8", 1, 1), systems.ct2_stream("int8", 1, 1)
    torch32 = systems.pytorch(1, 1)
    n = len(agree_doc.ids)
    same = sum(a == b for a, b in zip(ours32, theirs32, strict=True))
    same8 = sum(a == b for a, b in zip(ours8, theirs8, strict=True))
    same_pt = sum(a == b for a, b in zip(ours32, torch32, strict=True))
    print(f"greedy, memory off, {n} sentences: CTranslate2 fp32 = doctrans fp32 on {same}/{n}; "
          f"int8 (each its own quantization) {same8}/{n}; PyTorch = doctrans fp32 on {same_pt}/{n}")

    doc = source_doc(bundles["nomem-fp32"], sentences[: args.sentences], vocab)
    cols: list[tuple[str, Callable[[int, int], list[list[int]]]]] = [
        ("doctrans int8 mem on", lambda b, t: systems.doctrans("mem-int8", b, t)),
        ("doctrans int8 mem off", lambda b, t: systems.doctrans("nomem-int8", b, t)),
        ("doctrans fp32 mem on", lambda b, t: systems.doctrans("mem-fp32", b, t)),
        ("doctrans fp32 mem off", lambda b, t: systems.doctrans("nomem-fp32", b, t)),
        (f"doctrans fp32 mem on, {args.batch_docs[0]} docs batched",
         lambda b, t: systems.doctrans_batched("mem-fp32", b, t, args.batch_docs[0])),
        ("ct2 int8", lambda b, t: systems.ct2_stream("int8", b, t)),
        ("ct2 fp32", lambda b, t: systems.ct2_stream("float32", b, t)),
        ("ct2 int8 batched", lambda b, t: systems.ct2_batched("int8", b, t)),
        ("ct2 fp32 batched", lambda b, t: systems.ct2_batched("float32", b, t)),
    ]
    # Like for like: N documents as the rows of one doctrans batch beside CTranslate2 given N rows
    # per batch (its 32 above is the most it would take here; a memory model has N rows at most).
    for n in args.batch_docs:
        cols += [(f"doctrans int8 mem on, {n} docs batched",
                  lambda b, t, n=n: systems.doctrans_batched("mem-int8", b, t, n)),
                 (f"ct2 int8, {n} rows", lambda b, t, n=n: systems.ct2_batched("int8", b, t, n)),
                 (f"ct2 int8, {n} docs' rows", lambda b, t, n=n: systems.ct2_doc_rows("int8", b, t, n))]
    if not args.no_pytorch:
        cols.append(("pytorch fp32", systems.pytorch))
    if args.only:
        cols = [(c, f) for c, f in cols if c == "ct2 int8" or any(w in c for w in args.only)]
    cells = [(b, t) for t in args.threads for b in args.beams]
    rates: dict[tuple[int, int, str], list[float]] = {}
    systems.doc = Doc(doc.ids[:8], doc.pieces[:8], doc.limits[:8])
    for t in args.threads:  # warm-up: sessions created, arenas allocated, outside the timing
        for _, fn in cols:
            fn(max(args.beams), t)
    systems.doc = doc
    for r in range(args.rounds):
        say(f"round {r + 1}/{args.rounds}")
        for b, t in cells:
            for name, fn in cols:
                t0 = time.perf_counter()
                hyps = fn(b, t)
                rates.setdefault((b, t, name), []).append(generated(hyps) / (time.perf_counter() - t0))

    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"\n{len(doc.ids)} TVsub dev sentences (zh->en) in document order, {args.rounds} interleaved rounds, "
          f"median tok/s (generated tokens incl. EOS); {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores shared with other work; onnxruntime {ort.__version__}, "
          f"ctranslate2 {ctranslate2.__version__}, torch {torch.__version__}")
    names = [c for c, _ in cols]
    print("| beam | threads | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for b, t in cells:
        print(f"| {b} | {t} | " + " | ".join(f"{med[b, t, c]:,.0f}" for c in names) + " |")
    print("\nratios to CTranslate2 int8, one stream (targets: doctrans int8 memory on >= 1.0, memory off >= 1.2)")
    print("| beam | threads | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for b, t in cells:
        base = med[b, t, "ct2 int8"]
        print(f"| {b} | {t} | " + " | ".join(f"{med[b, t, c] / base:.2f}x" for c in names) + " |")
    def batched_ratios(title: str, theirs: str) -> None:
        """doctrans N documents as rows over the CTranslate2 column ``theirs`` (with {n}), per cell."""
        pairs = [(n, f"doctrans int8 mem on, {n} docs batched", theirs.format(n=n)) for n in args.batch_docs]
        pairs = [(n, a, c) for n, a, c in pairs if a in names and c in names]
        if pairs:
            print(f"\n{title}")
            for b, t in cells:
                print(f"beam {b}, threads {t}: " + ", ".join(
                    f"N={n} {med[b, t, a] / med[b, t, c]:.2f}x" for n, a, c in pairs))

    batched_ratios("batched, like for like: doctrans N documents as rows / CTranslate2 int8 N rows per batch "
                   "(target >= 1.0)", "ct2 int8, {n} rows")
    batched_ratios("the same batches: doctrans N documents as rows / CTranslate2 int8 given the same N-row "
                   "batches in document order (no sorting by length, which a memory model cannot do)",
                   "ct2 int8, {n} docs' rows")
    if args.json:
        args.json.write_text(json.dumps({"agreement": {"fp32": [same, n], "int8": [same8, n]},
                                         "medians": {f"beam{b}_threads{t}_{c}": v for (b, t, c), v in med.items()}},
                                        indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
