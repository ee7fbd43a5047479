"""A space after a mark the zh→en model glued to the next word.

Chinese sets no space after ``，。；：？！``, and the zh→en model sometimes copies that into English:
``十年前，我搬到了北京。`` came back ``10 years ago,I moved to Beijing.`` (the piece ``I`` without
its word-start mark). Out of a Chinese source, English output gets a space after ``, ;`` before a
letter (after a word or a masked span), and after ``. ? ! :`` before a capital that follows a word
of small letters (so ``e.g.``, ``U.S.``, ``3.5``, ``os.path`` and ``http://`` stay as they are).
Chinese glues its full-width brackets to the words around them, and the model copies that:
``2024年政府工作报告（摘要）`` came back ``2024 Government Work Report(digest)``. Where the source
wrote ``（``, an English ``(`` glued to a word or span before a word gets a space before it, and a
``)`` glued to the next word a space after it (a function call in prose, ``print(x)``, has no
full-width bracket in its source).
Run before the verbatim spans go back, so code, URLs and figures in placeholders are never touched.
"""

from __future__ import annotations

import re

# After a word or a placeholder (a figure, a date: "1987年，你出生那年" came back "1987,you're born").
_AFTER_COMMA = re.compile(r"(?:(?<=[^\W\d_])|(?<=\u2986))([,;])(?=[^\W\d_])")
_AFTER_END = re.compile(r"(?<=[a-z]{2})([.?!:])(?=[A-Z][a-z])")
_WORD_OR_SPAN = r"(?:(?<=[^\W\d_]{2})|(?<=\u2986))"
_BEFORE_OPEN = re.compile(_WORD_OR_SPAN + r"\((?=[^\W_]|\u2985)")
_AFTER_CLOSE = re.compile(r"(?<=[^\W_]|\u2986)\)(?=[^\W\d_]{2}|\u2985)")


def spaced_after_marks(text: str, source: str = "") -> str:
    """``text`` (English, placeholders masked) with a space after a mark glued to the next word;
    around its brackets where ``source`` wrote full-width ones."""
    text = _AFTER_END.sub(r"\1 ", _AFTER_COMMA.sub(r"\1 ", text))
    if "（" in source:
        text = _AFTER_CLOSE.sub(") ", _BEFORE_OPEN.sub(" (", text))
    return text
