"""Build doctrans/data/surname_words.txt: strings of a name's form that are words, not names.

doctrans.document_names reads a surname followed by one or two given-name characters as a person's
name when a document writes it as one; but many such strings are words (高兴 glad, 黄金 gold, 周围
around, 金华 a city, 马上 at once), and so are many pairs of given-name characters, the form of a
given name written alone (明天 tomorrow, 中国 China, 文明 civilisation). A string of those forms is
on this list when the Chinese side of the training corpora (never the dev splits) writes it at
least ``--min-count`` times: a common word is written thousands of times there, a person's name of
a Chinese document hardly ever (the subtitles' names are foreign ones written in Chinese
characters, which the name rules leave alone).

    python -m training.surname_words --data ../shared/data --out doctrans/data
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from doctrans.document_names import GIVEN, candidates
from training.data import ZH_EN_CORPORA, training_pairs, write_word_list

CORPORA = ZH_EN_CORPORA


def measure(data: Path) -> Counter[str]:
    """Every candidate name and given name of the corpora's Chinese side -> how many times it is written."""
    seen: Counter[str] = Counter()
    for _, zh in training_pairs(data, CORPORA):
        seen.update(surname + given for _, surname, given in candidates(zh))
        seen.update(zh[i:i + 2] for i in range(len(zh) - 1) if zh[i] in GIVEN and zh[i + 1] in GIVEN)
    return seen


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("doctrans/data"))
    ap.add_argument("--min-count", type=int, default=20)
    args = ap.parse_args(argv)
    seen = measure(args.data)
    words = sorted(w for w, n in seen.items() if n >= args.min_count)
    write_word_list(args.out / "surname_words.txt",
                    "Strings of a Chinese name's form (surname + given-name characters, or two given-name "
                    "characters) that are words: "
                    "doctrans.document_names leaves them alone.",
                    f"python -m training.surname_words --min-count {args.min_count} "
                    f"(corpora: {', '.join(CORPORA)}; training pairs only)", words)
    print(f"{len(words)} words of {len(seen)} candidates -> {args.out / 'surname_words.txt'}")


if __name__ == "__main__":
    main()
