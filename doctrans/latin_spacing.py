"""A space after a mark the zh→en model glued to the next word.

Chinese sets no space after ``，。；：？！``, and the zh→en model sometimes copies that into English:
``十年前，我搬到了北京。`` came back ``10 years ago,I moved to Beijing.`` (the piece ``I`` without
its word-start mark). Out of a Chinese source, English output gets a space after ``, ;`` before a
letter (after a word or a masked span), and after ``. ? ! :`` before a capital that follows a word
of small letters (so ``e.g.``, ``U.S.``, ``3.5``, ``os.path`` and ``http://`` stay as they are);
after a label's ``:`` before its figure where the source wrote ``：`` (``(BMI):26.4``).
Chinese glues its full-width brackets to the words around them, and the model copies that:
``2024年政府工作报告（摘要）`` came back ``2024 Government Work Report(digest)``; its “” too (点击“申请退款” came back
``clicking"apply for a refund"``). Where the source
wrote ``（``, an English ``(`` glued to a word or span before a word gets a space before it, and a
``)`` glued to the next word a space after it, unless the source glued them the same way (code
copied within the sentence: ``say_after(1, 'hello')`` next to a Chinese comment with its （）).
An English prefix's hyphen glued to its word again (``non- food`` -> ``non-food``).
Run before the verbatim spans go back, so code, URLs and figures in placeholders are never touched.
"""

from __future__ import annotations

import re

# After a word or a placeholder (a figure, a date: "1987年，你出生那年" came back "1987,you're born").
_AFTER_COMMA = re.compile(r"(?:(?<=[^\W\d_])|(?<=\u2986))([,;])(?=[^\W\d_])")
_AFTER_END = re.compile(r"(?:(?<=[a-z]{2})([.?!:])|(?<=\))(:))(?=[A-Z][a-z])")  # (March 12):Shanghai too
# ... and a label's colon glued to its value, a figure or a span, where the source wrote "：" (a
# checkup's 体重指数（BMI）：26.4 came back "body mass index (BMI):26.4", 电话：0755-… "call:0755-…").
# A label that is a span itself too (客服电话：400-820-1234 came back "customer service hotline:400-…").
_LABEL_COLON = re.compile(r"(?:(?<=[A-Za-z]{2})|(?<=[)\u2986]))(:)(?=[0-9\u2985])")
# A word (or span) glued to "(" before a word, and ")" glued to the next word.
_BEFORE_OPEN = re.compile(r"((?<=[^\W\d_]{2})|\u2986)\((?=[^\W_]|\u2985)")
_AFTER_CLOSE = re.compile(r"(?<=[^\W_]|\u2986)\)(?=([^\W\d_]{2}|\u2985))")
_INNER_OPEN = re.compile(r"\([ \t]+(?=[^\s)])")
_INNER_CLOSE = re.compile(r"(?<=[^\s(])[ \t]+\)")
_WORD_BEFORE = re.compile(r"\w+$")
_CALL = re.compile(r"\w\(")


def spaced_after_marks(text: str, source: str = "") -> str:
    """``text`` (English, placeholders masked) with a space after a mark glued to the next word;
    around its brackets where ``source`` wrote full-width ones."""
    text = _AFTER_END.sub(lambda m: (m.group(1) or m.group(2)) + " ", _AFTER_COMMA.sub(r"\1 ", text))
    if "：" in source:
        text = _LABEL_COLON.sub(": ", text)
    if "（" in source and "( " not in source:
        # ... and no space inside them ("（周一）" came back "( Monday)").
        text = _INNER_OPEN.sub("(", _INNER_CLOSE.sub(")", text))
    if "（" in source:
        text = _AFTER_CLOSE.sub(lambda m: m.group(0) if ")" + m.group(1) in source else ") ",
                                _BEFORE_OPEN.sub(lambda m: _spaced_open(m, source), text))
    if "“" in source and text.count('"') % 2 == 0:
        text = _spaced_quotes(text)
    return _PREFIX_SPACE.sub(r"\1-", text)


# An English prefix the model split from its word (非食品价格 came back "non- food price"): a Chinese
# source has no hyphen of its own to keep a space after.
_PREFIX_SPACE = re.compile(r"\b([Nn]on|[Aa]nti|[Ss]emi|[Mm]ulti|[Pp]re|[Pp]ost|[Ss]elf|[Cc]o)- (?=[a-z\u2985])")


def _spaced_quotes(text: str) -> str:
    """``text`` with a space before an opening ``"`` glued to the word before it and after a
    closing one glued to the next word (点击“申请退款” came back 'clicking"apply for a refund"'):
    Chinese glues its “” to the words around them; English does not."""
    out, opening = [], True
    for i, c in enumerate(text):
        if c == '"':
            before, after = text[i - 1:i], text[i + 1:i + 2]
            if opening and (before.isalnum() or before == "\u2986") and (after.isalnum() or after == "\u2985"):
                out.append(" ")
            out.append(c)
            if not opening and (after.isalpha() or after == "\u2985") and (before.isalnum() or before in ".!?\u2986"):
                out.append(" ")
            opening = not opening
            continue
        out.append(c)
    return "".join(out)


def _spaced_open(m: re.Match[str], source: str) -> str:
    """`` (`` for a bracket glued to a word, unless the source glued them too (code copied within
    the sentence: ``say_after(1, 'hello')`` beside a Chinese comment with its （）)."""
    if m.group(1):  # a placeholder: its span may be code the source called (``⦅5⦆(⦅6⦆, 'hello')``)
        return m.group(0) if _CALL.search(source) else m.group(1) + " ("
    word = _WORD_BEFORE.search(m.string, 0, m.start())
    if word and word.group(0) + "(" in source:
        return m.group(0)
    return m.group(1) + " ("
