"""Would a vocabulary shortlist pay? What it would save in the step, and what it would change.

A lexical shortlist (Marian's, CTranslate2's ``use_vmap``) computes the output projection only for
the target pieces a sentence's source makes likely: the ``--k`` pieces most associated with each
source piece in the training data (Dice coefficient of their co-occurrence in sentence pairs),
the ``--frequent`` most frequent target pieces, the source's own pieces (copies) and the special
pieces. The output projection is the step decoder's largest kernel (d x 16,000 int8), so a list of
a few thousand pieces would cut it, but every piece the model would have written and the list
lacks changes a translation. This measures both sides on the shipped model:

1. **Coverage**: the model's own translations (full vocabulary, the bundle's decoding) of the first
   ``--sentences`` dev sentences of each corpus in both directions, masked as ``translate``
   masks them: the share of their pieces in the sentence's shortlist, the share of translations
   whose every piece is in it (the others would change), the shortlist's median and 90th
   percentile size.
2. **Kernels**: the full projection as the bundle runs it (``DynamicQuantizeMatMul``, weights a
   prepacked initializer) against the same kernel on a shortlist's columns fed as an input (not
   prepacked: packed at every call), at beam 5 (5 rows), and the per-sentence gather of those
   columns (ONNX Runtime ``Gather`` + ``Transpose``), one thread::

    python -m benchmarks.shortlist_coverage --cache ~/runs/cache [--sentences 250] [--k 100 200 400]
        [--frequent 2000 3000 4000]

``--cache``: a token cache of ``training.prepare_data`` cut with the bundle's own SentencePiece
model (its ``*.train.npz`` give the co-occurrences; pairs of sentences over 40,000 piece pairs, a
few giant pydocs units, are skipped).
"""

from __future__ import annotations

import argparse
import json
import lzma
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "doctrans" / "models" / "zh-en-bidirectional"
DATA = REPO.parent / "shared" / "data"
CORPORA = ("tvsub-zh-en", "pydocs-en-zh", "django-en-zh")
MAX_PAIRS = 40_000  # piece pairs of one sentence pair: more is a giant unit, noise for co-occurrence
CHUNK = 20_000_000  # piece pairs counted at a time


def _pairs(src: np.ndarray, src_len: np.ndarray, tgt: np.ndarray, tgt_len: np.ndarray, lo: int, hi: int,
           vocab: int) -> np.ndarray:
    """Every (source piece, target piece) of sentence pairs lo..hi as ``s * vocab + t``."""
    so = np.concatenate([[0], np.cumsum(src_len, dtype=np.int64)])
    to = np.concatenate([[0], np.cumsum(tgt_len, dtype=np.int64)])
    ls, lt = src_len[lo:hi].astype(np.int64), tgt_len[lo:hi].astype(np.int64)
    n = ls * lt
    n[n > MAX_PAIRS] = 0
    sent = np.repeat(np.arange(lo, hi), n)
    within = np.arange(n.sum()) - np.repeat(np.concatenate([[0], np.cumsum(n)])[:-1], n)
    width = np.repeat(lt, n)
    return src[so[sent] + within // width].astype(np.int64) * vocab + tgt[to[sent] + within % width]


def _merge(keys: list[np.ndarray], counts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    k, c = np.concatenate(keys), np.concatenate(counts)
    order = np.argsort(k, kind="stable")
    k, c = k[order], c[order]
    unique, first = np.unique(k, return_index=True)
    return unique, np.add.reduceat(c, first)


def lexical_order(cache: Path, src: str, tgt: str, vocab: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every source piece's co-occurring target pieces by Dice coefficient, best first (``targets``
    from ``starts[s]`` to ``starts[s + 1]``), and every target piece's count."""
    keys: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    cs, ct = np.zeros(vocab, np.int64), np.zeros(vocab, np.int64)
    for corpus in CORPORA:
        z = np.load(cache / f"{corpus}.train.npz")
        st, sl, tt, tl = z[f"{src}_tokens"], z[f"{src}_lengths"], z[f"{tgt}_tokens"], z[f"{tgt}_lengths"]
        cs += np.bincount(st, minlength=vocab)
        ct += np.bincount(tt, minlength=vocab)
        n = sl.astype(np.int64) * tl.astype(np.int64)
        n[n > MAX_PAIRS] = 0
        cum = np.cumsum(n)
        lo = 0
        while lo < len(sl):
            hi = min(max(int(np.searchsorted(cum, (cum[lo - 1] if lo else 0) + CHUNK, side="right")), lo + 1), len(sl))
            u, c = np.unique(_pairs(st, sl, tt, tl, lo, hi, vocab), return_counts=True)
            keys.append(u)
            counts.append(c)
            if len(keys) >= 4:
                (u, c), keys, counts = _merge(keys, counts), [], []
                keys.append(u)
                counts.append(c)
            lo = hi
    pair, count = _merge(keys, counts)
    s, t = pair // vocab, pair % vocab
    dice = 2 * count / (cs[s] + ct[t])
    order = np.lexsort((-dice, s))
    s, t = s[order], t[order]
    return np.searchsorted(s, np.arange(vocab + 1)), t, ct


def lexical_table(order: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> list[np.ndarray]:
    """Per source piece its ``k`` best target pieces."""
    starts, targets, _ = order
    return [targets[starts[i]:min(starts[i + 1], starts[i] + k)] for i in range(len(starts) - 1)]


def own_translations(bundle: Path, src: str, tgt: str, corpus: str, n: int) -> list[tuple[list[int], list[int]]]:
    """(source ids, hypothesis ids) of the model's translations of the corpus' first n dev sentences."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    tr = OnnxTranslator.load(bundle, src=src, tgt=tgt, threads=1)
    sentences: list[str] = []
    with lzma.open(DATA / corpus / "dev.jsonl.xz", "rt", encoding="utf-8") as f:
        for line in f:
            sentences += json.loads(line)[src]
    session, out = tr.new_document(), []
    for sentence in sentences[:n]:
        prep = tr.prepare(sentence)
        if prep.model_text is None:
            continue
        ids = tr.source_ids(prep.model_text)
        hyp, _ = session.translate_ids(np.asarray([ids], dtype=np.int64))
        out.append((ids, hyp.tokens))
    return out


def coverage(pairs: list[tuple[list[int], list[int]]], lex: list[np.ndarray], always: set[int],
             eos: int) -> tuple[float, float, float, float]:
    """(share of pieces covered, share of translations wholly covered, median size, 90th pct size)."""
    missed = total = whole = 0
    sizes = []
    for ids, hyp in pairs:
        allowed = set(always) | set(ids)
        for x in set(ids):
            allowed.update(lex[x].tolist())
        m = sum(x not in allowed for x in [*hyp, eos])
        missed, total, whole = missed + m, total + len(hyp) + 1, whole + (m == 0)
        sizes.append(len(allowed))
    return 1 - missed / total, whole / len(pairs), float(np.median(sizes)), float(np.percentile(sizes, 90))


def _session(nodes: list, inputs: list, outputs: list, inits: list) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets)
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def _best_us(fn, calls: int = 50, rounds: int = 5) -> float:
    fn()
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t) / calls)
    return best * 1e6


def kernel_times(sizes: list[int], d: int = 384, vocab: int = 16000, rows: int = 5) -> list[str]:
    """The output projection (+ LogSoftmax) in full and on ``sizes`` columns, and the columns' gather."""
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((vocab, d)) * 0.05).astype(np.float32)
    scale = (np.abs(w).max(1) / 127).astype(np.float32)
    wq = np.round(w / scale[:, None]).astype(np.int8)
    f, i8, i64 = TensorProto.FLOAT, TensorProto.INT8, TensorProto.INT64
    y = rng.standard_normal((rows, d)).astype(np.float32)
    project = [helper.make_node("DynamicQuantizeMatMul", ["y", "B", "s", "z"], ["o"], domain="com.microsoft"),
               helper.make_node("LogSoftmax", ["o"], ["lp"], axis=-1)]
    y_in, lp_out = helper.make_tensor_value_info("y", f, [rows, d]), helper.make_tensor_value_info("lp", f, None)
    full = _session(project, [y_in], [lp_out], [numpy_helper.from_array(np.ascontiguousarray(wq.T), "B"),
                                                numpy_helper.from_array(scale, "s"),
                                                numpy_helper.from_array(np.zeros(vocab, np.int8), "z")])
    part = _session(project, [y_in, helper.make_tensor_value_info("B", i8, [d, "n"]),
                              helper.make_tensor_value_info("s", f, ["n"]),
                              helper.make_tensor_value_info("z", i8, ["n"])], [lp_out], [])
    gather = _session([helper.make_node("Gather", ["W", "ids"], ["rows"], axis=0),
                       helper.make_node("Transpose", ["rows"], ["B"], perm=[1, 0])],
                      [helper.make_tensor_value_info("ids", i64, ["n"])],
                      [helper.make_tensor_value_info("B", i8, None)],
                      [numpy_helper.from_array(wq, "W")])
    whole = _best_us(lambda: full.run(None, {"y": y}))
    lines = [f"full projection, {vocab:,} pieces, {rows} rows (weights prepacked): {whole:.0f} us a step"]
    for n in sizes:
        ids = {"ids": np.sort(rng.choice(vocab, n, replace=False)).astype(np.int64)}
        (cols,) = gather.run(None, ids)
        feed = {"y": y, "B": cols, "s": scale[ids["ids"]], "z": np.zeros(n, np.int8)}
        step = _best_us(lambda feed=feed: part.run(None, feed))
        columns = _best_us(lambda ids=ids: gather.run(None, ids), 20)
        lines.append(f"shortlist of {n:,}: {step:.0f} us a step, + {columns:.0f} us a sentence to gather its columns")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", type=Path, default=Path.home() / "runs" / "cache")
    p.add_argument("--bundle", type=Path, default=SHIPPED)
    p.add_argument("--sentences", type=int, default=250)
    p.add_argument("--k", type=int, nargs="+", default=[100, 200, 400])
    p.add_argument("--frequent", type=int, nargs="+", default=[2000, 3000, 4000])
    a = p.parse_args(argv)
    from doctrans.engine.bundle import read_bundle

    info = read_bundle(a.bundle)
    print("| direction | corpus | k | frequent | pieces covered | translations unchanged | size (median / 90th pct) |")
    print("|---|---|---|---|---|---|---|")
    for src, tgt in (("zh", "en"), ("en", "zh")):
        outputs = {c: own_translations(a.bundle, src, tgt, c, a.sentences) for c in CORPORA}
        order = lexical_order(a.cache, src, tgt, info.vocab_size)
        ct = order[2]
        for k in a.k:
            lex = lexical_table(order, k)
            for frequent in a.frequent:
                # The special pieces and placeholders (ids below 24 in the shipped vocabulary).
                always = set(range(24)) | set(np.argsort(-ct)[:frequent].tolist())
                for corpus, pairs in outputs.items():
                    tok, whole, med, p90 = coverage(pairs, lex, always, info.eos_id)
                    print(f"| {src}->{tgt} | {corpus} | {k} | {frequent} | {tok:.2%} | {whole:.1%} "
                          f"| {med:,.0f} / {p90:,.0f} |", flush=True)
    for line in kernel_times([2000, 3000, 5000], info.d_model, info.vocab_size):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
