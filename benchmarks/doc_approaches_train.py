"""Train every document-level approach on the same corpus with the same budget, then score them.

    python -m benchmarks.doc_approaches_train --out runs/approaches_syn          # the synthetic task
    python -m benchmarks.doc_approaches_train --out runs/approaches_ende --src en --tgt de \\
        --data ../shared/data/ende-small/train.jsonl.xz --dev ../shared/data/ende-small/dev.jsonl.xz \\
        --init runs/ende_s1/best.pt --spm runs/ende_s1/spm.model --steps 300 --eval-docs 20

Everything goes through ``training.train`` (``--approach``) and ``training.evaluate`` (s-BLEU,
d-BLEU with sacreBLEU's signature); this script only loops over the approaches and prints a
markdown table (dev s-BLEU, d-BLEU, pronoun accuracy on the synthetic task, parameters, training
wall time). Without ``--data`` it writes the synthetic pronoun corpus of ``tests/synthetic.py``.
SMDT's checkpoints are scored twice: as trained (document instances with retrieved pairs) and one
sentence per instance (its retrieved pairs only: the auxiliary task's form).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch

from training import evaluate as evaluate_mod
from training import train as train_mod
from training.checkpoint import load_model

# name -> extra training flags; all share the corpus, tokenizer, steps, LR and seed.
APPROACHES: dict[str, list[str]] = {
    "sentence-level": ["--approach", "memory", "--mem-side", "none"],
    "memory (both sides)": ["--approach", "memory", "--mem-side", "both"],
    "G-Transformer": ["--approach", "gtransformer"],  # --rows from --gt-rows: instances, not sentences
    "cache tokens k=4": ["--approach", "cache", "--shorten", "none", "--context-size", "4"],
    "grouping k=4": ["--approach", "cache", "--shorten", "grouping", "--context-size", "4", "--groups", "4"],
    "mean-pool k=4": ["--approach", "cache", "--shorten", "mean", "--context-size", "4"],
    # Instances like G-Transformer (--gt-rows); retrieval from the training corpus, precomputed.
    "SMDT k=1": ["--approach", "smdt", "--retrieve-k", "1"],
    "SMDT k=1, document task only": ["--approach", "smdt", "--retrieve-k", "1", "--sentence-task", "0"],
}
# Checkpoints also scored one sentence per instance: the sentence with its retrieved pairs, no document.
SENTENCE_BY_SENTENCE = {"SMDT k=1": "SMDT k=1, read sentence by sentence (TM only)",
                        "SMDT k=1, document task only": "SMDT k=1 document task only, sentence by sentence"}
ORDER = [r for name in APPROACHES for r in (name, SENTENCE_BY_SENTENCE.get(name)) if r]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--data")
    p.add_argument("--dev")
    p.add_argument("--src", default="xx")
    p.add_argument("--tgt", default="yy")
    p.add_argument("--config", default="tiny")
    p.add_argument("--init", help="stage-1 sentence-level checkpoint to start every approach from")
    p.add_argument("--spm")
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--lr", default="3e-3")
    p.add_argument("--lr-new", default="3e-3")
    p.add_argument("--beam", type=int, default=1)
    p.add_argument("--eval-docs", type=int, help="score only the first N dev documents")
    p.add_argument("--only", nargs="+", choices=list(APPROACHES), help="train only these (other rows of an earlier "
                   "results.json in --out are kept)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--gt-rows", default="4",
                   help="G-Transformer and SMDT instances per step (synthetic: 4 documents ~ the 16 sentences of "
                        "the others; a real 512-token instance holds ~25 sentences, so use 1 there)")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    a.out.mkdir(parents=True, exist_ok=True)
    synthetic = a.data is None
    if synthetic:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests.synthetic import write_corpus

        a.data = str(write_corpus(a.out / "train.jsonl", 600, seed=1))
        a.dev = str(write_corpus(a.out / "dev.jsonl", 40, seed=2))
    # Synthetic: 336 pieces, as tests/synthetic.py (one piece per word of the task since the 16
    # placeholder symbols joined the vocabulary; 320 now splits words and G-Transformer falls to ~60%).
    common = ["--stage", "document", "--src", a.src, "--tgt", a.tgt, "--data", a.data, "--dev", a.dev,
              "--config", a.config, "--vocab-size", "336" if synthetic else "8000", "--rows", "16", "--window", "1",
              "--lr", a.lr, "--lr-new", a.lr_new, "--warmup", "50", "--max-steps", str(a.steps), "--eval-every",
              str(max(1, a.steps // 3)), "--log-every", "100", "--seed", "3", "--threads", str(a.threads), "--quiet"]
    if a.init:
        common += ["--init", a.init]
    if a.spm:
        common += ["--spm", a.spm]
    rows = []
    for name, extra in APPROACHES.items():
        if a.only and name not in a.only:
            continue
        out = a.out / name.split(" (")[0].replace(" ", "_").replace("=", "")
        if name == "G-Transformer" or name.startswith("SMDT"):
            extra = [*extra, "--rows", a.gt_rows]
        t0 = time.time()
        assert train_mod.main([*common, *extra, "--out", str(out)]) == 0, name
        seconds = time.time() - t0
        loaded = load_model(out / "best.pt")
        params = sum(p.numel() for p in loaded.model.parameters())
        scores, hyps = evaluate_mod.evaluate(out / "best.pt", a.dev, a.src, a.tgt, beam=a.beam, max_docs=a.eval_docs)
        row = {"approach": name, "s_bleu": scores.s_bleu, "d_bleu": scores.d_bleu, "params": params,
               "train_s": seconds, "steps": a.steps, "dev_loss": loaded.raw["metrics"].get("dev_loss")}
        if synthetic:
            from tests.synthetic import pronoun_accuracy

            refs = [json.loads(line)[a.tgt] for line in Path(a.dev).read_text().splitlines()][: len(hyps)]
            row["pronoun_acc"] = pronoun_accuracy(refs, hyps)[0]
        if name in SENTENCE_BY_SENTENCE:  # SMDT
            row["tm_kept"] = retrieved_kept(loaded, dev_sources(a))
        rows.append(row)
        print(json.dumps(row), flush=True)
        if name in SENTENCE_BY_SENTENCE:
            alone = dict(row, approach=SENTENCE_BY_SENTENCE[name], train_s=0.0, dev_loss=None)  # no own dev loss
            alone.pop("tm_kept")  # measured on document instances
            alone.update(sentence_by_sentence(loaded, a, synthetic))
            rows.append(alone)
            print(json.dumps(alone), flush=True)
    results = a.out / "results.json"
    if a.only and results.exists():  # keep the other approaches' rows from an earlier run
        done = {r["approach"] for r in rows}
        rows = [r for r in json.loads(results.read_text()) if r["approach"] not in done] + rows
        rows.sort(key=lambda r: ORDER.index(r["approach"]))
    results.write_text(json.dumps(rows, indent=1))
    print(f"\n| approach | dev s-BLEU | dev d-BLEU | dev loss |{' pronoun acc. |' if synthetic else ''} "
          "parameters | training time |")
    print(f"|---|---|---|---|{'---|' if synthetic else ''}---|---|")
    for r in rows:
        acc = f" {100 * r['pronoun_acc']:.1f}% |" if synthetic else ""
        trained = "(the checkpoint above)" if r["approach"] in SENTENCE_BY_SENTENCE.values() else \
            f"{r['train_s']:.0f} s ({r['steps']} steps)"
        loss = "–" if r["dev_loss"] is None else f"{r['dev_loss']:.3f}"
        print(f"| {r['approach']} | {r['s_bleu']:.1f} | {r['d_bleu']:.1f} | {loss} |{acc} "
              f"{r['params'] / 1e6:.3f}M | {trained} |")
    print(f"\nsacreBLEU: {scores.signature} [{scores.scoring}]")
    return 0


def sentence_by_sentence(loaded, a, synthetic: bool) -> dict:
    """s-BLEU / d-BLEU (and pronoun accuracy) of an SMDT checkpoint translating one sentence per
    instance, on the same dev documents as ``training.evaluate``."""
    import sentencepiece as spm

    from training import smdt

    src_docs, ref_docs = evaluate_mod.load_references(a.dev, a.src, a.tgt, a.eval_docs, None)
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    res = smdt.translate_documents(loaded.model, [[sp.encode(x) for x in d] for d in src_docs], beam=a.beam,
                                   instance_tokens=1)
    hyps = [[sp.decode(h) for h in r.hypotheses] for r in res]
    s_bleu, d_bleu, _, _ = evaluate_mod.score(hyps, ref_docs, a.tgt)
    out = {"s_bleu": s_bleu, "d_bleu": d_bleu}
    if synthetic:
        from tests.synthetic import pronoun_accuracy

        out["pronoun_acc"] = pronoun_accuracy(ref_docs, hyps)[0]
    return out


def dev_sources(a) -> list[list[str]]:
    """The dev source documents training.evaluate translates."""
    return evaluate_mod.load_references(a.dev, a.src, a.tgt, a.eval_docs, None)[0]


@torch.no_grad()
def retrieved_kept(loaded, src_docs: list[list[str]]) -> float:
    """Share of the retrieved tokens the selection layer keeps (evaluation: argmax), document instances."""
    import sentencepiece as spm

    from training.gtransformer import split_instances
    from training.smdt import instance_source, stack_sources

    model, sp = loaded.model.eval(), spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    kept = total = 0
    for doc in src_docs:
        ids = [sp.encode(x)[: model.cfg.max_len - 1] for x in doc]
        neighbours = model.retrieve(ids)
        for inst in split_instances([len(x) for x in ids], model.cfg.doc_max_len):
            source = instance_source([ids[i] for i in inst], [model.pairs(neighbours[i]) for i in inst], model.cfg)
            src, pos, meta = (torch.from_numpy(x) for x in stack_sources([source], model.cfg.pad_id))
            _, info = model.encode(src, pos, meta)
            retrieved = meta[..., 1] > 0
            kept, total = kept + int(info[..., 2][retrieved].sum()), total + int(retrieved.sum())
    return kept / max(1, total)


if __name__ == "__main__":
    sys.exit(main())
