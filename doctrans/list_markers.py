"""A list item's marker written for the output language: ``一、`` / ``（二）`` / ``3、`` are Chinese
ways to number items, which an English translation writes ``1.`` / ``(2)`` / ``3.``.

The txt and PDF writers keep a list item's marker and translate the text after it; a Chinese
report translated into English came back with ``一、main priors`` and ``（一）150 million yuan...``.
Markers that every language reads (``1.``, ``-``, ``•``, ``①``) stay as they are, and so does any
marker written into Chinese or Japanese.

| marker  | into English |
|---------|--------------|
| 一、    | 1.           |
| 十二、  | 12.          |
| 3、     | 3.           |
| （二）  | (2)          |
| (三)    | (3)          |
| （4）   | (4)          |
| 1.      | 1.           |
| ①       | ①            |

A report also counts its points in prose, each sentence opening with ``一是``, ``二是``…
(``一是市场竞争日益激烈。二是应收账款周转天数偏长。`` came back "One is a market race… It's a 98
days…"): English opens them with ``First,``, ``Second,`` (:func:`counted_point`).
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language

_NUMERALS = "一二三四五六七八九"
_CHINESE_NUMBER = r"[一二三四五六七八九十]{1,3}"
_MARKER = re.compile(rf"^(\s*)(?:({_CHINESE_NUMBER}|[0-9]{{1,3}})[、．]|[（(]({_CHINESE_NUMBER})[）)]"
                     r"|（([0-9]{1,3})）)\s*$")
_CJK_TARGETS = frozenset({"zh", "ja"})


def chinese_number(text: str) -> int | None:
    """1-99 written in Chinese numerals (``十二``, ``二十``, ``九十九``); None for anything else."""
    if text == "十":
        return 10
    tens, sep, units = text.partition("十")
    if not sep:
        return _NUMERALS.index(text) + 1 if len(text) == 1 and text in _NUMERALS else None
    high = 1 if tens == "" else (_NUMERALS.index(tens) + 1 if len(tens) == 1 and tens in _NUMERALS else None)
    low = 0 if units == "" else (_NUMERALS.index(units) + 1 if len(units) == 1 and units in _NUMERALS else None)
    return None if high is None or low is None else high * 10 + low


def numbers_the_chinese_way(tgt_lang: str | None) -> bool:
    """Chinese and Japanese number items ``一、`` / ``（二）``: their markers, typed or Word's, stay."""
    return base_language(tgt_lang) in _CJK_TARGETS


def marker_into(marker: str, tgt_lang: str | None) -> str:
    """``marker`` (with the spaces around it) as a text in ``tgt_lang`` numbers its items."""
    if numbers_the_chinese_way(tgt_lang):
        return marker
    m = _MARKER.match(marker)
    if m is None:
        return marker
    indent, dotted, bracketed, digits = m.groups()
    if dotted is not None:
        n = int(dotted) if dotted.isdigit() else chinese_number(dotted)
        return marker if n is None else f"{indent}{n}. "
    n = int(digits) if digits is not None else chinese_number(bracketed)
    return marker if n is None else f"{indent}({n}) "


# 一是… 二是…: a point counted where a sentence starts, not the idiom 一是一，二是二 (one is one).
_COUNTED_POINT = re.compile(r"\s*([一二三四五六七八九十])是(?![一二三四五六七八九十])(?=[\u4e00-\u9fff“（《])")
_ORDINAL_WORDS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth")


def counted_point(sentence: str, src_lang: str | None, tgt_lang: str | None) -> tuple[int, str] | None:
    """(where the point starts, ``First, ``...) for a Chinese sentence that opens with 一是, 二是…
    into English; None otherwise."""
    if base_language(src_lang) != "zh" or base_language(tgt_lang) != "en":
        return None
    m = _COUNTED_POINT.match(sentence)
    if m is None:
        return None
    return m.end(), f"{_ORDINAL_WORDS['一二三四五六七八九十'.index(m.group(1))]}, "
