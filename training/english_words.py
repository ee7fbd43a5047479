"""Build doctrans/data/english_words.txt.xz: the English words the training pairs write.

doctrans.english_words reads an English translation's small-letter words against it: the zh->en
model builds words from pieces and now and then builds one that English does not have
(``occupied`` came back ``occupted``, ``self-preservation`` ``self-servation``, ``cancellations``
``cancelments``: 14 of 792 dev translations had such a word). Every word of the English side of
every corpus's training pairs (never the dev splits) written at least ``--min-count`` times, in
small letters, one a line, xz-compressed (47,517 words at 3: 404 KB as text, ~110 KB packed).

    python -m training.english_words --data ../shared/data --out doctrans/data
"""

from __future__ import annotations

import argparse
import lzma
import re
from collections import Counter
from pathlib import Path

from training.data import ZH_EN_CORPORA, training_pairs

CORPORA = ZH_EN_CORPORA
_WORD = re.compile(r"[A-Za-z]+")


def count_words(data: Path) -> Counter[str]:
    """Each English word of the training pairs (in small letters) -> times written."""
    words: Counter[str] = Counter()
    for en, _zh in training_pairs(data, CORPORA):
        words.update(w.lower() for w in _WORD.findall(en))
    return words


def write_words(words: Counter[str], min_count: int, out: Path) -> int:
    """The words written at least ``min_count`` times to ``out`` (xz); how many."""
    kept = sorted(w for w, n in words.items() if n >= min_count)
    header = (f"# English words written at least {min_count} times in the training pairs ({', '.join(CORPORA)}),"
              " in small letters (doctrans.english_words). Built by: python -m training.english_words "
              f"--min-count {min_count}\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(out, "wt", encoding="utf-8", preset=9) as fh:
        fh.write(header + "\n".join(kept) + "\n")
    return len(kept)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=Path("../shared/data"))
    p.add_argument("--out", type=Path, default=Path("doctrans/data"), help="folder of the list")
    p.add_argument("--min-count", type=int, default=3)
    a = p.parse_args()
    n = write_words(count_words(a.data), a.min_count, a.out / "english_words.txt.xz")
    print(f"{n} English words -> {a.out / 'english_words.txt.xz'}")


if __name__ == "__main__":
    main()
