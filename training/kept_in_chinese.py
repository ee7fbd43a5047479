"""Build doctrans/data/kept_in_chinese.txt: common English words Chinese translations keep as they are.

doctrans.report warns about a common English word an English source's Chinese translation left
as it was (the en->zh model copies words it does not know: ``economy``, ``said``). But technical
Chinese keeps some of them on purpose -- a module or a program written as a word (``sys``,
``argparse``, ``gzip``, ``regex``, ``lambda``): those would only be noise. A word is on this list
when, in the training pairs (never the dev splits), the references keep it in at least
``--min-share`` of the sentences whose English source has it (outside verbatim spans), and the
sources have it at least ``--min-count`` times: ``gzip`` is kept in 33 of 34, ``regex`` 9 of 26,
``icon`` 1 of 32, ``economy`` 0 of 93.

    python -m training.kept_in_chinese --data ../shared/data --out doctrans/data
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from doctrans.kept_names import common_words
from doctrans.verbatim import find_spans
from training.data import ZH_EN_CORPORA, training_pairs, write_word_list

CORPORA = ZH_EN_CORPORA
# The words doctrans.report looks at: small letters, three or more, not part of a dotted or joined name.
WORD = re.compile(r"(?<![0-9A-Za-z_.\-])[a-z]{3,}(?![0-9A-Za-z_\-]|\.[A-Za-z])")


def _words_outside_spans(text: str) -> set[str]:
    chars = list(text)
    for span in find_spans(text):
        chars[span.start:span.end] = " " * (span.end - span.start)
    return set(WORD.findall("".join(chars)))


def measure(data: Path) -> tuple[Counter[str], Counter[str]]:
    """(common word -> sources with it, -> of those, references that keep it)."""
    common = common_words()
    seen: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    for en, zh in training_pairs(data, CORPORA):
        words = _words_outside_spans(en) & common
        if words:
            seen.update(words)
            kept.update(words & _words_outside_spans(zh))
    return seen, kept


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("doctrans/data"))
    ap.add_argument("--min-count", type=int, default=20)
    ap.add_argument("--min-share", type=float, default=0.3)
    args = ap.parse_args(argv)
    seen, kept = measure(args.data)
    words = sorted(w for w, n in seen.items() if n >= args.min_count and kept[w] >= args.min_share * n)
    write_word_list(args.out / "kept_in_chinese.txt",
                    "Common English words Chinese translations keep as written (doctrans.report does not warn "
                    "about them).",
                    f"python -m training.kept_in_chinese --min-count {args.min_count} --min-share "
                    f"{args.min_share} (corpora: {', '.join(CORPORA)}; training pairs only)", words)
    print(f"{len(words)} words of {len(seen)} -> {args.out / 'kept_in_chinese.txt'}")


if __name__ == "__main__":
    main()
