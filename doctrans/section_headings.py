"""Section headings by their names in the other language (``Summary`` <-> ``概要``).

A report's, a paper's or a manual's one-word headings reach the model with no sentence around
them, and the built-in models, which learned from subtitles and software documentation, wrote
``Summary`` as ``正则`` (a regular expression), ``Highlights`` as ``慢点`` and ``Outlook`` as ``哈顿``.
A segment that is one of the headings of doctrans/data/section_headings.tsv and nothing else (a
colon after it allowed; a section number before it is kept by doctrans.engine.protect) is one
span whose target is the heading in the output language, so the segment is written without the
model:

| source                | target | written        |
|-----------------------|--------|----------------|
| Summary               | zh     | 概要           |
| KEY FINDINGS          | zh     | 主要发现       |
| Table of contents:    | zh     | 目录：         |
| 参考文献              | en     | References     |
| 结论：                | en     | Conclusion:    |
| Summary of results    | zh     | (the model's)  |
| 总结一下              | en     | (the model's)  |

English matches in any case; Chinese exactly. Between other languages nothing changes.
"""

from __future__ import annotations

import re
from functools import cache

from doctrans.data_lists import data_lines
from doctrans.language_id import base_language
from doctrans.verbatim import Span

_COLON = re.compile(r"\s*[:：]\s*$")


@cache
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(English heading in small letters -> Chinese, Chinese -> English)."""
    into_chinese: dict[str, str] = {}
    into_english: dict[str, str] = {}
    for line in data_lines("section_headings.tsv"):
        english, chinese = (side.split("|") for side in line.split("\t"))
        for name in english:
            into_chinese.setdefault(_key(name), chinese[0])
        for name in chinese:
            into_english.setdefault(name, english[0])
    return into_chinese, into_english


def _key(english: str) -> str:
    return " ".join(english.lower().replace("&", "and").split())


def find_section_heading(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``text`` as one ``heading`` span whose target is its name in ``tgt_lang`` when the whole of
    it is a known section heading (English <-> Chinese only); else none."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    colon = _COLON.search(text)
    body = text[:colon.start()] if colon else text
    start = len(body) - len(body.lstrip())
    word = body.strip()
    if not word:
        return []
    if tgt == "zh" and src != "zh":
        target = _tables()[0].get(_key(word))
        mark = "："
    elif tgt == "en" and src != "en":
        target = _tables()[1].get(word)
        mark = ":"
    else:
        return []
    if target is None:
        return []
    end = len(text.rstrip())
    return [Span(start, end, text[start:end], "heading", target + (mark if colon else ""))]
