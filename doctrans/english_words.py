"""Words an English translation makes up: small-letter words English does not write.

The zh->en model builds words from pieces and now and then builds one that is no word
(``occupied`` came back ``occupted``, ``self-preservation`` ``self-servation``, ``cancellations``
``cancelments``): a reader sees a misspelling. doctrans/data/english_words.txt.xz holds the words
the training pairs write (training.english_words); a word of four letters or more in small letters
that it lacks and the source does not write either is made up. Capitalised words are left alone
(a name the model wrote in pinyin or spelled as it heard it is no misspelling to this list), as is
anything the engine masked (a placeholder stands for it in what the model wrote). The engine keeps
a hypothesis without such a word when its n-best, or a wider search, has one
(doctrans.engine.protect.Prepared.pick).
"""

from __future__ import annotations

import lzma
import re
from functools import cache
from importlib import resources

_SMALL_WORD = re.compile(r"(?<![A-Za-z0-9_'’/.@])[a-z]{4,}(?![A-Za-z0-9_'’/@]|\.[A-Za-z])")
_ANY_WORD = re.compile(r"[A-Za-z]+")


@cache
def english_words() -> frozenset[str]:
    """The words of doctrans/data/english_words.txt.xz."""
    data = resources.files("doctrans").joinpath("data/english_words.txt.xz").read_bytes()
    text = lzma.decompress(data).decode("utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def made_up_words(source: str, translation: str) -> frozenset[str]:
    """The small-letter words of an English ``translation`` that English does not write and the
    ``source`` does not either (``occupted``, ``cancelments``)."""
    known = english_words()
    source_words = {w.lower() for w in _ANY_WORD.findall(source)}
    return frozenset(w for w in _SMALL_WORD.findall(translation) if w not in known and w not in source_words)
