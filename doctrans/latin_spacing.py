"""A space after a mark the zh→en model glued to the next word.

Chinese sets no space after ``，。；：？！``, and the zh→en model sometimes copies that into English:
``十年前，我搬到了北京。`` came back ``10 years ago,I moved to Beijing.`` (the piece ``I`` without
its word-start mark). Out of a Chinese source, English output gets a space after ``, ;`` before a
letter (after a word or a masked span), and after ``. ? ! :`` before a capital that follows a word
of small letters (so ``e.g.``, ``U.S.``, ``3.5``, ``os.path`` and ``http://`` stay as they are).
Chinese glues its full-width brackets to the words around them, and the model copies that:
``2024年政府工作报告（摘要）`` came back ``2024 Government Work Report(digest)``. Where the source
wrote ``（``, an English ``(`` glued to a word or span before a word gets a space before it, and a
``)`` glued to the next word a space after it, unless the source glued them the same way (code
copied within the sentence: ``say_after(1, 'hello')`` next to a Chinese comment with its （）).
Run before the verbatim spans go back, so code, URLs and figures in placeholders are never touched.
"""

from __future__ import annotations

import re

# After a word or a placeholder (a figure, a date: "1987年，你出生那年" came back "1987,you're born").
_AFTER_COMMA = re.compile(r"(?:(?<=[^\W\d_])|(?<=\u2986))([,;])(?=[^\W\d_])")
_AFTER_END = re.compile(r"(?<=[a-z]{2})([.?!:])(?=[A-Z][a-z])")
# A word (or span) glued to "(" before a word, and ")" glued to the next word.
_BEFORE_OPEN = re.compile(r"((?<=[^\W\d_]{2})|\u2986)\((?=[^\W_]|\u2985)")
_AFTER_CLOSE = re.compile(r"(?<=[^\W_]|\u2986)\)(?=([^\W\d_]{2}|\u2985))")
_WORD_BEFORE = re.compile(r"\w+$")
_CALL = re.compile(r"\w\(")


def spaced_after_marks(text: str, source: str = "") -> str:
    """``text`` (English, placeholders masked) with a space after a mark glued to the next word;
    around its brackets where ``source`` wrote full-width ones."""
    text = _AFTER_END.sub(r"\1 ", _AFTER_COMMA.sub(r"\1 ", text))
    if "（" in source:
        text = _AFTER_CLOSE.sub(lambda m: m.group(0) if ")" + m.group(1) in source else ") ",
                                _BEFORE_OPEN.sub(lambda m: _spaced_open(m, source), text))
    return text


def _spaced_open(m: re.Match[str], source: str) -> str:
    """`` (`` for a bracket glued to a word, unless the source glued them too (code copied within
    the sentence: ``say_after(1, 'hello')`` beside a Chinese comment with its （）)."""
    if m.group(1):  # a placeholder: its span may be code the source called (``⦅5⦆(⦅6⦆, 'hello')``)
        return m.group(0) if _CALL.search(source) else m.group(1) + " ("
    word = _WORD_BEFORE.search(m.string, 0, m.start())
    if word and word.group(0) + "(" in source:
        return m.group(0)
    return m.group(1) + " ("
