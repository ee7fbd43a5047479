"""Are two systems' s-BLEU scores really different? Paired bootstrap resampling (sacreBLEU).

    python -m training.significance --data ../shared/data/tvsub-zh-en/dev.jsonl.xz --src zh --tgt en \\
        runs/zh_en/s1c/dev.tvsub-zh-en.hyp runs/zh_en/s2/dev.tvsub-zh-en.hyp

The first hypothesis file is the baseline; each other one is compared with it on the same
resampled sets of dev sentences (Koehn 2004; sacreBLEU's ``--paired-bs``), scored exactly as
training/evaluate.py scores them. Hypothesis files are the ``--out`` files of training/evaluate.py
(one line per sentence, a blank line between documents). Differences of a few tenths on a dev set
of two TVsub episodes are often noise; this says which ones are not.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import sacrebleu
from sacrebleu.significance import PairedTest

from training.data import DataError, folder_and_name
from training.evaluate import load_references, scoring_for


def read_hypotheses(path: Path, ref_docs: list[list[str]]) -> list[list[str]]:
    """Split an evaluate.py ``--out`` file into documents shaped like ``ref_docs``.

    Split by the references' lengths, not at blank lines: an empty translation is a blank line too.
    """
    lines = path.read_text(encoding="utf-8").split("\n")
    docs, i = [], 0
    for n, ref in enumerate(ref_docs):
        if n:
            i += 1  # the blank line between documents
        docs.append(lines[i:i + len(ref)])
        i += len(ref)
    if any(len(h) != len(r) for h, r in zip(docs, ref_docs, strict=True)) or any(x.strip() for x in lines[i:]):
        raise DataError(f"{path}: does not have the dev set's {sum(map(len, ref_docs))} sentences in "
                        f"{len(ref_docs)} documents (was it translated from this --data?)")
    return docs


def paired_bootstrap(systems: dict[str, list[list[str]]], ref_docs: list[list[str]], tgt_lang: str,
                     samples: int = 1000) -> list[tuple[str, float, float, float | None]]:
    """(name, s-BLEU, 95% CI half-width, p-value vs the first system or None) per system.

    sacreBLEU seeds its resampling with $SACREBLEU_SEED (12345 by default): repeatable.
    """
    named: list[tuple[str, Sequence[str]]] = []
    kw: dict[str, Any] = {}
    for name, hyp_docs in systems.items():
        prepared, kw, _ = scoring_for(hyp_docs, ref_docs, tgt_lang)
        named.append((name, [h for d in prepared for h in d]))
    refs = [[r for d in ref_docs for r in d]]
    test = PairedTest(named, {"BLEU": sacrebleu.BLEU(**kw)}, refs, test_type="bs", n_samples=samples)
    _, results = test()
    # results: {"System": [names], "BLEU": [sacrebleu Result with .score, .ci, .p_value]}
    scored = cast("list[Any]", results["BLEU"])
    return [(str(name), r.score, r.ci, r.p_value) for name, r in zip(results["System"], scored, strict=True)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("hypotheses", nargs="+", type=Path, help="baseline first, then the systems to compare")
    p.add_argument("--data", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--tgt", required=True)
    p.add_argument("--samples", type=int, default=1000)
    p.add_argument("--max-sentences", type=int, help="the first N sentences, as evaluate's --max-sentences")
    a = p.parse_args(argv)
    if len(a.hypotheses) < 2:
        p.error("give a baseline and at least one system")
    try:
        _, ref_docs = load_references(a.data, a.src, a.tgt, None, a.max_sentences)
        systems = {folder_and_name(h): read_hypotheses(h, ref_docs) for h in a.hypotheses}
    except (DataError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"paired bootstrap, {a.samples} resamples of {sum(map(len, ref_docs))} sentences:")
    print("| system | s-BLEU | 95% CI | p vs baseline |\n|---|---|---|---|")
    for name, bleu, ci, pv in paired_bootstrap(systems, ref_docs, a.tgt, a.samples):
        print(f"| {name} | {bleu:.2f} | ±{ci:.2f} | " + ("baseline" if pv is None else f"{pv:.3f}") + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
