"""Build doctrans/data/translated_caps.txt: the all-capital words a translation into Chinese renders
rather than keeps (``FBI`` -> 联邦调查局, ``OK`` -> 好, ``NEVER`` -> 绝不).

doctrans.kept_names keeps every other all-capital word of an English sentence as it is in Chinese
(``GNOME``, ``KDE``, ``HTTP``): the shipped en->zh model garbled the ones it rarely saw (``GNOME`` ->
``GOMEN``), while a Chinese technical text keeps them (pydocs and django dev references keep 98-99 %
of them). The list is measured on the training pairs of every corpus, never the dev splits:

- an all-capital word seen at least ``--min-count`` times in sentences that are not shouted (with a
  small letter somewhere; doctrans.kept_names.shouted) whose Chinese side keeps it less than half
  the time (``FBI``, ``TV``);
- plus the ``--common`` most frequent lower-case English words written in capitals (emphasis:
  ``I did NOT``), unless the corpora keep that capital form at least ``--keep-share`` of the time
  (``WARNING`` as a log level, kept 82 of 82 times).

    python -m training.translated_caps --data ../shared/data --out doctrans/data/translated_caps.txt
"""

from __future__ import annotations

import argparse
import json
import lzma
import re
from collections import Counter
from pathlib import Path

from doctrans.kept_names import shouted

CORPORA = ("tvsub-zh-en", "pydocs-en-zh", "django-en-zh")
_CAPS = re.compile(r"(?<![A-Za-z0-9_.\-'’])[A-Z]{2,}(?![A-Za-z0-9_'’])")
_WORD = re.compile(r"(?<![A-Za-z'’])[a-z]{2,}(?![A-Za-z'’])")


def measure(data: Path) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """(capital word -> times seen, -> times its Chinese side keeps it, lower-case word -> times)."""
    seen: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    words: Counter[str] = Counter()
    for corpus in CORPORA:
        with lzma.open(data / corpus / "train.jsonl.xz", "rt", encoding="utf-8") as fh:
            for line in fh:
                doc = json.loads(line)
                for en, zh in zip(doc["en"], doc["zh"], strict=True):
                    words.update(_WORD.findall(en))
                    if shouted(en):
                        continue
                    for caps in _CAPS.findall(en):
                        seen[caps] += 1
                        kept[caps] += caps in zh
    return seen, kept, words


def translated_caps(seen: Counter[str], kept: Counter[str], words: Counter[str], min_count: int = 2,
                    common: int = 3000, keep_share: float = 0.8) -> list[str]:
    rendered = {c for c, n in seen.items() if n >= min_count and kept[c] < n / 2}
    for word, _n in words.most_common(common):
        caps = word.upper()
        if not (seen[caps] >= min_count and kept[caps] >= keep_share * seen[caps]):
            rendered.add(caps)
    return sorted(rendered)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=Path("../shared/data"))
    p.add_argument("--out", type=Path, default=Path("doctrans/data/translated_caps.txt"))
    p.add_argument("--min-count", type=int, default=2)
    p.add_argument("--common", type=int, default=3000)
    p.add_argument("--keep-share", type=float, default=0.8)
    a = p.parse_args()
    seen, kept, words = measure(a.data)
    caps = translated_caps(seen, kept, words, a.min_count, a.common, a.keep_share)
    header = ("# All-capital words a translation into Chinese renders rather than keeps (doctrans.kept_names).\n"
              f"# Built by: python -m training.translated_caps --min-count {a.min_count} --common {a.common} "
              f"--keep-share {a.keep_share} (corpora: {', '.join(CORPORA)}; training pairs only)\n")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(header + "\n".join(caps) + "\n", encoding="utf-8")
    print(f"{len(caps)} words -> {a.out} ({len(seen)} capital words seen, {len(words)} lower-case words)")


if __name__ == "__main__":
    main()
