"""Build doctrans/data/transliteration_chars.txt: the characters Chinese writes foreign names in.

Chinese writes a Western name by its sound in a small set of characters, its parts joined by a
middle dot (``卡洛斯·阿尔卡拉斯``, ``比尔·盖茨``). doctrans.english_people asks the en->zh model for a
person's full name alone and takes the part after the dot for the surname alone; a part with a
character outside this set is a translation of the name's meaning (``Cook`` as 厨师, ``Sinner`` as
罪人), not its sound, and is not used.

A character is on the list when, in the Chinese side of the training pairs (never the dev splits),
it is one of the two characters on either side of a middle dot between two runs of 2-4 Han
characters at least ``--min-count`` times, and at least ``--min-share`` of its occurrences are
such: 尔 is 15 % of the time, 斯 and 克 more than 10 %, 内 3.4 %; 人 and 罪 never are.

    python -m training.transliteration_chars --data ../shared/data --out doctrans/data
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from training.data import ZH_EN_CORPORA, training_pairs, write_word_list

CORPORA = ZH_EN_CORPORA
_HAN = re.compile(r"[\u4e00-\u9fff]")
_DOTTED = re.compile(r"([\u4e00-\u9fff]{2,4})·([\u4e00-\u9fff]{2,4})")


def measure(data: Path) -> tuple[Counter[str], Counter[str]]:
    """(character -> occurrences, character -> times next to a name's middle dot) on the Chinese side."""
    seen: Counter[str] = Counter()
    dotted: Counter[str] = Counter()
    for _, zh in training_pairs(data, CORPORA):
        seen.update(_HAN.findall(zh))
        for m in _DOTTED.finditer(zh):
            dotted.update(m.group(1)[-2:] + m.group(2)[:2])
    return seen, dotted


def transliteration_chars(seen: Counter[str], dotted: Counter[str], min_count: int, min_share: float) -> list[str]:
    """The characters written next to a name's dot often enough, most often first."""
    return [c for c, n in dotted.most_common() if n >= min_count and n >= min_share * seen[c]]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=Path("../shared/data"))
    p.add_argument("--out", type=Path, default=Path("doctrans/data"))
    p.add_argument("--min-count", type=int, default=15)
    p.add_argument("--min-share", type=float, default=0.02)
    a = p.parse_args()
    seen, dotted = measure(a.data)
    chars = transliteration_chars(seen, dotted, a.min_count, a.min_share)
    write_word_list(a.out / "transliteration_chars.txt",
                    "Characters Chinese writes foreign names in (doctrans.english_people: a surname rendered "
                    "in others is a translation of its meaning).",
                    f"python -m training.transliteration_chars --min-count {a.min_count} --min-share {a.min_share} "
                    f"(corpora: {', '.join(CORPORA)}; training pairs only)", chars)
    print(f"{len(chars)} characters of {len(dotted)} seen by a name's dot -> {a.out / 'transliteration_chars.txt'}")


if __name__ == "__main__":
    main()
