"""A translated sentence ends the way its source does: its final mark and its closing quote.

The built-in models learned from subtitles, whose lines end without ``。`` and mostly without
``?``: the en→zh model wrote ``你确定你想这么做吗`` for ``you sure you wanna do this ?`` (the
reference: ``确定要这么做?``) and ran the sentences of a paragraph together, since Chinese sets no
space between them (``雨不停三天了窗口和窗口的左边边`` for two sentences of a story). The zh→en
model opened a quotation and never closed it (``He said: "It's ...`` for ``他说：“…。”``).

:func:`end_like_source` gives a translation whose source ends in ``.``/``?``/``!`` (or
``。``/``？``/``！``) the target language's mark when the translation ends in none, and a quotation
or bracket the source closes at its end and the translation left open its closing character. A
mark the model chose (``:``, ``;``, ``…``, another of the three) stands. A source that ends in
``;`` or ``:`` (a list's clause, the line before a list) gets that mark where the translation ends
in a period or in nothing. Into Chinese the marks
are ``。？！`` (the model writes ASCII ones after Chinese text, which doctrans.zh_punctuation sets
full-width before this runs). Measured on the shipped round-4 en→zh model's full dev output (beam 5):
TVsub s-BLEU 12.65 → 13.46, pydocs 33.01 → 33.02, django 40.34 → 40.35; zh→en unchanged (the
model already ends its sentences).
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language

# What may follow a sentence's final mark: closing quotes and brackets.
_CLOSERS = "\"'”’」』）)]》"
_PAIRS = {"“": "”", "「": "」", "『": "』", "（": "）", "(": ")", "《": "》"}
_INTO_CHINESE = {".": "。", "。": "。", "?": "？", "？": "？", "!": "！", "！": "！"}
_INTO_LATIN = {".": ".", "。": ".", "?": "?", "？": "?", "!": "!", "！": "!"}
# A translation ending in one of these has its end already: the model's choice stands.
_ANY_END = ".。!?！？:：;；…~～"


# Languages whose sentences end in 。 / in . ? ! (others: the model's output stands).
_CJK_ENDS = frozenset({"zh", "ja"})
_LATIN_ENDS = frozenset({"en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "pl", "cs", "ru", "uk"})


def end_marks(tgt_lang: str | None) -> str:
    """``"cjk"`` or ``"latin"``: how sentences of ``tgt_lang`` end; ``""`` when not known here."""
    lang = base_language(tgt_lang)
    return "cjk" if lang in _CJK_ENDS else "latin" if lang in _LATIN_ENDS else ""


def end_like_source(source: str, translation: str, chinese_output: bool) -> str:
    """``translation`` with the final mark and closing quote its ``source`` ends with, where it
    has neither (see the module's docstring)."""
    marks = _INTO_CHINESE if chinese_output else _INTO_LATIN
    src = source.rstrip()
    src_core = src.rstrip(_CLOSERS)
    if src_core != src and src_core[-1:] in ",，":
        # An utterance its speaker goes on from (``"Not yet," she said``, cut by doctrans.dialogue)
        # keeps its comma inside the quotes: the model dropped it (``“还没有”她说``).
        marks = {**marks, ",": "，" if chinese_output else ",", "，": "，" if chinese_output else ","}
    mark = src_core[-1:]
    body = translation.rstrip()
    if body and src_core == src and mark in _CLAUSE_ENDS and not src.endswith("::"):  # reST's marker
        return _clause_end(body, _CLAUSE_ENDS[mark][0 if chinese_output else 1]) + translation[len(body):]
    if not body or mark not in marks or src_core.endswith(("..", "…")):
        return translation
    trailing_space = translation[len(body):]
    if src_core != src:  # the source closes a quotation or bracket at its end
        body += _unclosed(body)
    core = body.rstrip(_CLOSERS)
    if not core or core[-1] in _ANY_END or (mark in ",，" and core[-1] in ",，"):
        return body + trailing_space
    # ``"Not yet."``: the mark goes inside the closers, as in the source; ``he said "no".``: after.
    inside = src[-1:] in _CLOSERS
    if inside:
        return core + marks[mark] + body[len(core):] + trailing_space
    return body + marks[mark] + trailing_space


# A clause of a list (``(a) respond within 24 hours;``) and a line that opens one (``The Provider
# shall:``) end in their mark, not in a sentence's: the en->zh model wrote ``(a) …请求。``.
_CLAUSE_ENDS = {";": ("；", ";"), "；": ("；", ";"), ":": ("：", ":"), "：": ("：", ":")}


def _clause_end(body: str, mark: str) -> str:
    """``body`` ending in ``mark`` instead of a sentence's period, or with it where it has no end."""
    if body[-1] in ".。":
        return body[:-1] + mark
    return body if body[-1] in _ANY_END + _CLOSERS else body + mark


def _unclosed(text: str) -> str:
    """The closing characters ``text`` lacks for a quotation or bracket it opened and left open,
    innermost first (an odd number of ASCII ``"`` counts as one left open, unless the last ends
    the text: a quote there closes, and the stray one is earlier — the en->zh model wrote
    ``"最糟糕的是"是什么意思"`` for ``"What's the worst that could happen?"``, and a fourth quote
    appended to it came out as an empty ``“”``)."""
    stack: list[str] = []
    for i, ch in enumerate(text):
        if ch in _PAIRS:
            stack.append(_PAIRS[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
        elif ch == '"':
            if stack and stack[-1] == '"':
                stack.pop()
            elif i < len(text) - 1:
                stack.append('"')
    return "".join(reversed(stack))


_OPENERS = {")": "(", "）": "（", "]": "[", "】": "【"}


def drop_unopened(source: str, translation: str) -> str:
    """``translation`` without the closing brackets it never opened, when ``source`` opens every
    bracket it closes: the models dropped a ``(`` and kept its ``)`` (``1,250来自980中的Q2)。`` for
    ``1,250 (up from 980 in Q2).``). Run while verbatim spans are placeholders, so a code span's
    brackets are not seen."""
    if not any(c in translation for c in _OPENERS):
        return translation
    for close, open_ in _OPENERS.items():
        if source.count(close) > source.count(open_):
            return translation  # the source itself closes what it did not open (``a)``, ``1)``)
    out: list[str] = []
    depth = dict.fromkeys(_OPENERS.values(), 0)
    for ch in translation:
        if ch in depth:
            depth[ch] += 1
        elif ch in _OPENERS:
            if depth[_OPENERS[ch]] == 0:
                while out and out[-1] in " \t":
                    out.pop()
                continue
            depth[_OPENERS[ch]] -= 1
        out.append(ch)
    return "".join(out)


def without_added_end(source: str, translation: str, heading: bool = False) -> str:
    """``translation`` without the final ``.``/``。`` (or ``?``) the model put after a segment that ends in no
    mark: a heading, a list item, a table cell (``# 安装指南`` came back ``# Installing the
    guide.``, ``- 至少 4 GB 内存`` as ``- At least 4 GB memory.``). For a document's blocks only:
    subtitle lines end in no mark in Chinese and in ``.`` in English, which the scores reward."""
    core = source.rstrip().rstrip(_CLOSERS)
    # A heading's last full stop may be an abbreviation's (# Why I Stopped Checking Email Before
    # 10 a.m. came back 为什么在上午10点之前停止检查邮件。): a heading ends in no mark.
    abbreviated = heading and _ABBREVIATED_END.search(core) is not None
    if not core or (core[-1] in _ANY_END and not abbreviated):
        return translation
    body = translation.rstrip()
    if _ABBREVIATION.search(body):  # a company's ``Co., Ltd.`` (有限公司) keeps its period
        return translation
    if body.endswith((".", "。", "?", "？")) and not body.endswith(("..", "。。", "??", "？？")) and len(body) > 1:
        # (A heading's question mark too: # 如何更换内存条 came back "# How to change the memory?".)
        return body[:-1] + translation[len(body):]
    return translation


# Abbreviations whose full stop ends a segment without ending its sentence; a heading's may also
# be a clock's (a.m.), a translation's also a street's, a number's or an initial's.
_ABBREVIATIONS = "Ltd|Inc|Co|Corp|Jr|Sr|etc|vs"
_ABBREVIATED_END = re.compile(rf"(?<![A-Za-z])(?:[ap]\.m|{_ABBREVIATIONS})\.$")
_ABBREVIATION = re.compile(rf"(?<![A-Za-z])(?:{_ABBREVIATIONS}|Bros|St|No|[A-Z])\.$")


def common_first_word_in_small_letters(translation: str, common: frozenset[str]) -> str:
    """``translation`` (English) with its first word in small letters when it is a common word
    (``common``; not ``I``, not a name): the translation of what goes on a sentence written before
    it (a narration after its utterance, the point after ``First, ``)."""
    m = re.match(r"([A-Z][a-z]*)\b", translation)
    if not m or m.group(1) == "I" or m.group(1).lower() not in common:
        return translation
    return translation[0].lower() + translation[1:]


def capitalised_start(source: str, translation: str, tgt_lang: str | None) -> str:
    """``translation`` with its first letter a capital when it starts a sentence of a cased
    language (English, the European languages) translated from a source without case (Chinese,
    Japanese): ``一、主要成绩`` came back ``1. main priors``. A source that has case decides itself
    (``iPhone``, ``npm install`` stay). For a document's blocks only, as :func:`without_added_end`:
    the subtitle references are lower-cased in parts."""
    if end_marks(tgt_lang) != "latin":
        return translation
    first = next((c for c in source if c.isalnum()), "")
    if not first or first.isascii() or not first.isalpha() or first.upper() != first.lower():
        return translation  # no source letter, or a cased one (Latin, Greek, Cyrillic)
    for i, c in enumerate(translation):
        if c.isalpha():
            word = translation[i:].split(maxsplit=1)[0]
            if c.islower() and c.isascii() and not any(x.isupper() for x in word):  # not iPhone, eBay
                return translation[:i] + c.upper() + translation[i + 1:]
            return translation
        if c.isdigit() or c in "`<{[/\\$%@#_":  # a figure or code first: as it is
            return translation
    return translation

