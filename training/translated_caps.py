"""Build doctrans/data/translated_caps.txt, common_words.txt, proper_words.txt and known_names.txt:
the acronyms a translation into Chinese renders rather than keeps (``FBI`` -> 联邦调查局, ``OK`` ->
好), and the common English words (``NOT``, ``NEVER`` in capitals are emphasis, ``EXECUTIVE
SUMMARY`` a heading: doctrans.case_fold gives them to the model in small letters).

doctrans.kept_names keeps every other all-capital word of an English sentence as it is in Chinese
(``GNOME``, ``KDE``, ``HTTP``): the shipped en->zh model garbled the ones it rarely saw (``GNOME`` ->
``GOMEN``), while a Chinese technical text keeps them (pydocs and django dev references keep 98-99 %
of them). The list is measured on the training pairs of every corpus, never the dev splits:

- an acronym: an all-capital word, not a common word, seen at least ``--min-count`` times in
  sentences that are not shouted (with a small letter somewhere; doctrans.kept_names.shouted) whose
  Chinese side keeps it less than half the time (``FBI``, ``TV``);
- a common word: one of the ``--common`` most frequent lower-case English words, unless its capital
  form is frequent (at least 5 % of the small form's count) and the corpora keep it at least
  ``--keep-share`` of the time (``WARNING`` as a log level, kept 86 of 86 times);
- a proper word (doctrans/data/proper_words.txt): a common word written with a capital inside a
  sentence at least ``--proper-share`` as often as in small letters (``Python``, ``Windows``,
  ``London``, ``God``): doctrans.case_fold keeps its capital in a title-case heading, where every
  other common word is read in small letters (``Risk Factors`` -> ``Risk factors``).

- a known name (doctrans/data/known_names.txt): a word that is not common, capitalised inside a
  sentence at least ``--name-count`` times (``Tom``, ``Emma``): the models learned to render it.

    python -m training.translated_caps --data ../shared/data --out doctrans/data
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from doctrans.kept_names import shouted
from training.data import ZH_EN_CORPORA, training_pairs

CORPORA = ZH_EN_CORPORA
_CAPS = re.compile(r"(?<![A-Za-z0-9_.\-'’])[A-Z]{2,}(?![A-Za-z0-9_'’])")
# A capitalised word inside a sentence (after a small letter, a digit or a comma: not a sentence's first).
_TITLE = re.compile(r"(?<=[a-z0-9,;] )[A-Z][a-z]+(?![A-Za-z0-9_'’.(])")
# A word of prose: not part of a dotted name, a path or a call (``os`` of ``os.path`` is code).
_WORD = re.compile(r"(?<![A-Za-z0-9_.'’@/\\-])[a-z]{2,}(?![A-Za-z0-9_'’(@/\\]|\.[A-Za-z0-9_]|-[a-z]|://)")


def measure(data: Path) -> tuple[Counter[str], Counter[str], Counter[str], Counter[str]]:
    """(capital word -> times seen, -> times its Chinese side keeps it, lower-case word -> times,
    word -> times capitalised inside a sentence, keyed in small letters)."""
    seen: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    words: Counter[str] = Counter()
    titled: Counter[str] = Counter()
    for en, zh in training_pairs(data, CORPORA):
        words.update(_WORD.findall(en))
        titled.update(w.lower() for w in _TITLE.findall(en))
        if shouted(en):
            continue
        for caps in _CAPS.findall(en):
            seen[caps] += 1
            kept[caps] += caps in zh
    return seen, kept, words, titled


def common_words(seen: Counter[str], kept: Counter[str], words: Counter[str], common: int = 10000,
                 min_count: int = 2, keep_share: float = 0.7, caps_share: float = 0.05) -> list[str]:
    """The ``common`` most frequent lower-case English words, less those whose capital form is
    frequent (``caps_share`` of the small form's count or more) and kept by the Chinese side
    (``WARNING``, ``SELECT``, ``JSON``: a log level, a keyword, a format), which read as acronyms.
    (``THE`` is kept too, in untranslated licence text, but it is 97 against ~500,000 ``the``), and
    those written in capitals more often than not (``OK``: the models learned it so)."""
    out = []
    for word, n in words.most_common(common):
        caps = word.upper()
        acronym = seen[caps] >= min_count and kept[caps] >= keep_share * seen[caps] and seen[caps] >= caps_share * n
        if not acronym and seen[caps] <= n:  # OK, written in capitals more than not, is learned as such
            out.append(word)
    return sorted(out)


def translated_caps(seen: Counter[str], kept: Counter[str], common: Sequence[str], min_count: int = 2) -> list[str]:
    """Capital words (not common words) the Chinese side renders rather than keeps (``FBI``, ``TV``)."""
    words = set(common)
    return sorted(c for c, n in seen.items() if n >= min_count and kept[c] < n / 2 and c.lower() not in words)


def proper_words(common: Sequence[str], words: Counter[str], titled: Counter[str], share: float = 0.2) -> list[str]:
    """Common words written with a capital inside a sentence at least ``share`` times as often as
    in small letters: names that are also words (``Python``, ``Windows``, ``God``)."""
    return sorted(w for w in common if titled[w] >= share * words[w])


def known_names(common: Sequence[str], titled: Counter[str], min_count: int = 5) -> list[str]:
    """Names the models saw often enough to have learned a rendering: words (not common ones)
    written with a capital inside a sentence at least ``min_count`` times (``tom``, ``emma``,
    ``django``). doctrans.kept_names keeps an organisation's name with a rarer word as it is in
    Chinese (``Acme Software Ltd.`` came back ``Acftware``)."""
    words = set(common)
    return sorted(w for w, n in titled.items() if n >= min_count and w not in words)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=Path("../shared/data"))
    p.add_argument("--out", type=Path, default=Path("doctrans/data"), help="folder of the two lists")
    p.add_argument("--min-count", type=int, default=2)
    p.add_argument("--common", type=int, default=10000)
    p.add_argument("--keep-share", type=float, default=0.7)
    p.add_argument("--proper-share", type=float, default=0.2)
    p.add_argument("--name-count", type=int, default=5)
    a = p.parse_args()
    seen, kept, words, titled = measure(a.data)
    common = common_words(seen, kept, words, a.common, a.min_count, a.keep_share)
    caps = translated_caps(seen, kept, common, a.min_count)
    built = (f"# Built by: python -m training.translated_caps --min-count {a.min_count} --common {a.common} "
             f"--keep-share {a.keep_share} --proper-share {a.proper_share} "
             f"(corpora: {', '.join(CORPORA)}; training pairs only)\n")
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "translated_caps.txt").write_text(
        "# Acronyms a translation into Chinese renders rather than keeps (doctrans.kept_names).\n" + built
        + "\n".join(caps) + "\n", encoding="utf-8")
    (a.out / "common_words.txt").write_text(
        "# Common English words: in capitals they are emphasis or a heading, not acronyms "
        "(doctrans.kept_names, doctrans.case_fold).\n" + built + "\n".join(common) + "\n", encoding="utf-8")
    proper = proper_words(common, words, titled, a.proper_share)
    (a.out / "proper_words.txt").write_text(
        "# Common English words that are also names, capitalised inside a sentence at least "
        f"{a.proper_share} times as often as not (doctrans.case_fold).\n" + built + "\n".join(proper) + "\n",
        encoding="utf-8")
    names = known_names(common, titled, a.name_count)
    (a.out / "known_names.txt").write_text(
        "# Names capitalised inside a sentence at least "
        f"{a.name_count} times in the training pairs, not common words: the models learned them "
        "(doctrans.kept_names keeps an organisation's name with a rarer word into Chinese).\n" + built
        + "\n".join(names) + "\n", encoding="utf-8")
    print(f"{len(names)} known names, {len(proper)} proper words, {len(caps)} acronyms, "
          f"{len(common)} common words -> {a.out} "
          f"({len(seen)} capital words seen, "
          f"{len(words)} lower-case words)")


if __name__ == "__main__":
    main()
