"""A paper's author-year citations, whole, the way the output's papers write them.

A paper names its sources in brackets, and the models broke them: ``(Bawden et al., 2018; Voita et
al., 2019)`` came back ``(Bawden etal al。2018; …)`` into Chinese, ``（张伟等，2020）`` ``(a great, etc.,
2020)`` into English. A citation is one span (masked, restored and checked like a figure):

| source                                          | into English                     | into Chinese |
|-------------------------------------------------|----------------------------------|--------------|
| (Bawden et al., 2018; Voita et al., 2019)       | (as written)                     | (as written) |
| (Smith and Lee, 2021, p. 14)                    | (as written)                     | (as written) |
| Voita et al. (2019)                             | (as written)                     | (as written) |
| （张伟等，2020）                                 | (Zhang et al., 2020)             | (as written) |
| （张伟和李明，2019）                             | (Zhang and Li, 2019)             | (as written) |
| （Bawden等，2018）                               | (Bawden et al., 2018)            | (as written) |
| 张伟等（2020）                                   | Zhang et al. (2020)              | (as written) |
| （2024）京0105民初12345号                        | (2024) Jing 0105 Min Chu No. 12345 | (as written) |
| （2022）最高法民再123号                          | (2022) Zui Gao Fa Min Zai No. 123 | (as written) |

A Chinese court's case number is cited as English translations of judgments write it, its
characters in pinyin: ``（2024）京0105民初12345号`` came back "2024, 0105 civilian 12345"; it is ``(2024)
Jing 0105 Min Chu No. 12345``.

English citations are kept as written in Chinese (Chinese papers cite Western authors so). A
Chinese author is cited by the surname in pinyin (doctrans.person_names: a surname of its list and
one or two characters a given name has; otherwise the citation is left to the model). English <->
Chinese only.
"""

from __future__ import annotations

import re

from pypinyin import lazy_pinyin

from doctrans.language_id import base_language
from doctrans.person_names import full_name_in_pinyin
from doctrans.verbatim import Span

_YEAR = r"(?:19|20)[0-9]{2}[a-z]?"
_SURNAME = r"(?:van |von |de |Van |Von |De )?[A-Z][A-Za-z'’\-]+"
_AUTHORS = rf"{_SURNAME}(?: et al\.| (?:and|&) {_SURNAME})?"
_PAGES = r"(?:, pp?\. [0-9]+(?:[-–][0-9]+)?)?"
_ONE = rf"{_AUTHORS},? {_YEAR}(?:, {_YEAR})*{_PAGES}"
# (Bawden et al., 2018; Voita et al., 2019) and Voita et al. (2019).
_ENGLISH = re.compile(rf"\((?:e\.g\., |see )?{_ONE}(?:; {_ONE})*\)|(?<![A-Za-z]){_AUTHORS} \({_YEAR}{_PAGES}\)")

_ZH_AUTHOR = r"[\u4e00-\u9fff]{2,4}?|[A-Z][A-Za-z'’\-]+"
# （张伟等，2020）, （张伟和李明，2019）, （Bawden等，2018）; 张伟等（2020）.
_CHINESE = re.compile(rf"[（(]({_ZH_AUTHOR})(?:(等)|(?:和|与|、)({_ZH_AUTHOR}))?[，,]\s?({_YEAR})[）)]"
                      rf"|(?:(?<![\u4e00-\u9fff])|(?<=[如据见由和与]))({_ZH_AUTHOR})(等)?[（(]({_YEAR})[）)]")


# A case number: the year in brackets, the court's abbreviation and number, the kind of case (民初, 刑终,
# 执, 行初...) and its number, then 号.
_CASE_NUMBER = re.compile(r"[（(]((?:19|20)[0-9]{2})[）)]\s?([\u4e00-\u9fff]{1,3}?)([0-9]{0,6})"
                          r"((?:民|刑|行|执|赔|破|知|商|司|财|监)[\u4e00-\u9fff]{0,3}?)([0-9]{1,7})号")


def _case_numbers(text: str) -> list[Span]:
    spans = []
    for m in _CASE_NUMBER.finditer(text):
        court, kind = (" ".join(w.capitalize() for w in lazy_pinyin(part)) for part in (m.group(2), m.group(4)))
        written = " ".join(w for w in (f"({m.group(1)})", court, m.group(3), kind, f"No. {m.group(5)}") if w)
        spans.append(Span(m.start(), m.end(), m.group(), "number", written))
    return spans


def _surname(author: str) -> str | None:
    """An author as an English citation names them: a Latin name as written, a Chinese one by its
    surname in pinyin; None when the Chinese is no name of the list."""
    if author[0].isascii():
        return author
    full = full_name_in_pinyin(author)
    return full.split()[0] if full else None


def find_citations(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The author-year citations of ``text`` as ``number`` spans (they hold years: checked like a
    figure) whose target is the citation the way ``tgt_lang`` writes it (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if src == "en" and tgt == "zh":
        return [Span(m.start(), m.end(), m.group(), "number", m.group()) for m in _ENGLISH.finditer(text)]
    if not (src == "zh" and tgt == "en"):
        return []
    spans = _case_numbers(text)
    for m in _CHINESE.finditer(text):
        if m.group(4):  # in brackets
            first, others, second, year = _surname(m.group(1)), m.group(2), m.group(3), m.group(4)
            other = _surname(second) if second else None
            if first is None or (second and other is None):
                continue
            who = f"{first} et al." if others else f"{first} and {other}" if other else first
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"({who}, {year})"))
        elif (first := _surname(m.group(5))) is not None and (m.group(6) or m.group(5)[0].isascii()):
            # 张伟等（2020）; a Chinese author alone before a year is left (王（2020） may be anything).
            who = f"{first} et al." if m.group(6) else first
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{who} ({m.group(7)})"))
    return sorted((s for i, s in enumerate(spans) if not s.overlaps_any(spans[:i])), key=lambda s: s.start)
