"""Numbered parts of a document (``第五条``, ``Chapter 3``, ``Section 4.2``), written the target's way.

A contract's articles, a book's chapters and a report's sections are how a reader finds their way;
the models lost them: ``第五条`` came back as ``Pificifics``, ``第二十一条`` as ``One second``,
``Chapter 3`` as ``更改3`` and ``Part II`` as ``我部分``. Each becomes one span whose target is the
same part and number the target's way (masked, restored and checked like a glossary term):

| source            | into English    | into Chinese |
|-------------------|-----------------|--------------|
| 第一章            | Chapter 1       | (as written) |
| 第二十一条        | Article 21      | (as written) |
| 第4.2节           | Section 4.2     | (as written) |
| 第二部分          | Part 2          | (as written) |
| 第3页             | page 3          | (as written) |
| 第十集            | Episode 10      | (as written) |
| 第25轮           | Round 25        | (as written) |
| Chapter 3         | (as written)    | 第3章        |
| Section 4.2       | (as written)    | 第4.2节      |
| Article 21        | (as written)    | 第21条       |
| Clause 7          | (as written)    | 第7条        |
| Part II           | (as written)    | 第2部分      |
| page 12           | (as written)    | 第12页       |
| Act IV            | (as written)    | 第4幕        |
| Phase II          | (as written)    | 第2阶段      |
| 图3               | Figure 3        | (as written) |
| 表2.1             | Table 2.1       | (as written) |
| 附录B             | Appendix B      | (as written) |
| Figure 3          | (as written)    | 图3          |
| Fig. 12           | (as written)    | 图12         |
| Table 2.1         | (as written)    | 表2.1        |
| Appendix B        | (as written)    | 附录B        |
| Scope 2           | (as written)    | 范围2        |
| Chapter One       | (as written)    | 第一章       |
| PART TWELVE       | (as written)    | 第十二部分   |
| 步骤 3            | Step 3          | (as written) |
| Step 2            | (as written)    | 第2步        |
| step 4            | (as written)    | 第4步        |
| status 301        | (as written)    | 状态码301    |
| 地铁1号线         | Metro Line 1    | (as written) |
| 2号线             | Line 2          | (as written) |
| Metro Line 4      | (as written)    | 地铁4号线    |
| Tram 28           | (as written)    | 28路有轨电车 |
| Model X200        | (as written)    | 型号X200     |

A Chinese part followed by another Han character is left alone (``第一条消息`` is "the first
message": 条 is also a classifier), except a few that end a reference (``第五条的规定``). Chinese
numerals up to 9,999 are read (``二十一``, ``一百零五``, ``两``); Roman numerals only in
capitals after a capitalised word (``Part II``, not ``part ii``), and ``Act``/``Scene``/``Part``
only capitalised (``act 5`` is not a play's act).

A manual's steps: ``Step 2`` (or ``step 2``) is ``第2步`` anywhere; into English ``步骤 3`` is ``Step 3``
anywhere, but ``第一步`` only as the label that starts a segment, before its colon (``迈出了第一步`` is
"took the first step"). The model wrote ``第一步：安装 Nginx`` as ``The first step: Nginx``.

A city's metro and tram lines (a travel guide's 乘坐地铁1号线至龙翔桥站 came back "1 on the tunnel
radius bridge", the line gone; "Avoid Tram 28" 避免 Tram 28): into Chinese only with their capital
(``line 2`` of a file is no metro line).

Figures, tables and appendices have no 第 (``Figure 3`` -> ``图3``; the model wrote ``See Figure 3
and Table 2`` as ``查看3和 Table 2`` and ``如图3所示`` as ``As 3``). English needs the capital; a
Chinese label stands after a boundary or a word that refers (``如图3``, ``见表2``, ``（图1）``), never
inside a word (``地图3`` is map 3, ``发表3篇`` published three papers, ``代表2名`` two delegates) nor
before a measure (``表2个``).
"""

from __future__ import annotations

import re

from doctrans.chinese_numerals import read_numeral, write_numeral
from doctrans.language_id import base_language
from doctrans.magnitudes import ascii_digits
from doctrans.verbatim import Span

# Chinese unit -> the English word; the English words (small letters) -> the Chinese unit.
_UNITS = {"章": "Chapter", "节": "Section", "節": "Section", "条": "Article", "條": "Article",
          "部分": "Part", "篇": "Part", "卷": "Volume", "页": "page", "頁": "page", "课": "Lesson",
          "課": "Lesson", "集": "Episode", "季": "Season", "幕": "Act", "场": "Scene", "場": "Scene",
          "轮": "Round"}  # a league's round (中超联赛第25轮 came back "the 25th wheels")
_WORDS = {"chapter": "章", "section": "节", "article": "条", "part": "部分", "volume": "卷", "page": "页",
          "lesson": "课", "episode": "集", "season": "季", "act": "幕", "scene": "场",
          # A project's phases and stages ("Phase II of the project" came back 项目的阶段, its II gone).
          "phase": "阶段", "stage": "阶段", "round": "轮",
          # A contract's clauses ("in accordance with Clause 7" kept Clause 7 in English).
          "clause": "条"}
_CAPITALISED_ONLY = {"act", "scene", "part", "stage", "round"}  # on stage 5 minutes late, round 2 numbers
_DIGITS = "零〇一二两三四五六七八九"
_CHINESE_NUMBER = rf"[{_DIGITS}十百千]+"
_ARABIC = r"[0-9０-９]{1,4}(?:[.．][0-9０-９]{1,3}){0,3}"
# Not before another Han character, but for a few that end a reference (第五条的规定, 第3章中):
# 条, 节 and 集 are also classifiers (第一条消息 is "the first message").
_CHINESE_PART = re.compile(rf"第\s?({_ARABIC}|{_CHINESE_NUMBER})\s?"
                           rf"({'|'.join(sorted(_UNITS, key=len, reverse=True))})"
                           r"(?:(?![\u4e00-\u9fff])|(?=[的中之和及或至到所规])|(?<=轮))")  # 第25轮比赛: Round 25
_ROMAN = r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_ENGLISH_PART = re.compile(rf"(?<![A-Za-z0-9_])({'|'.join(_WORDS)})\s(?:([0-9]{{1,4}}(?:\.[0-9]{{1,3}}){{0,3}})"
                           rf"|({_ROMAN}))(?![A-Za-z0-9_]|\.[0-9])", re.IGNORECASE)

# A manual's steps (not in _UNITS: 第一步 in prose is "the first step", a step label only at the start).
# ... and a plan's days and weeks the same way (an itinerary's 第二天：前往西溪 came back "Second: Go"): Day 2.
_CHINESE_STEP = re.compile(rf"^\s*第\s?({_ARABIC}|{_CHINESE_NUMBER})\s?(步|天|日|周)(?=\s*[:：])"
                           rf"|步骤\s?({_ARABIC}|{_CHINESE_NUMBER})(?![0-9０-９.%个])")
_CHINESE_STEP_WORDS = {"步": "Step", "天": "Day", "日": "Day", "周": "Week", None: "Step"}
_ENGLISH_STEP = re.compile(r"(?<![A-Za-z0-9_])[Ss]tep\s([0-9]{1,3})(?![0-9A-Za-z_]|\.[0-9])")


def _steps(text: str, lang: str) -> list[Span]:
    if lang == "en":
        spans = []
        for m in _CHINESE_STEP.finditer(text):
            group = 1 if m.group(1) else 3
            if (number := _number(m.group(group))) is not None:
                start = m.start() + len(m.group()) - len(m.group().lstrip())  # after the leading space
                spans.append(Span(start, m.end(), text[start:m.end()], "number",
                                  f"{_CHINESE_STEP_WORDS[m.group(2)]} {number}"))
        return spans
    steps = [Span(m.start(), m.end(), m.group(0), "number", f"第{m.group(1)}步") for m in _ENGLISH_STEP.finditer(text)]
    # A diary's or a plan's "Week 1: Anxiety" came back 星期1 (a weekday): 第1周, Day 3 第3天.
    return steps + [Span(m.start(), m.end(), m.group(0), "number", f"第{m.group(2)}{_PERIODS[m.group(1)]}")
                    for m in _ENGLISH_PERIOD.finditer(text)]


# An HTTP status by its code ("redirected to https:// with status 301" left "with status 301" in English).
_ENGLISH_STATUS = re.compile(r"(?<![A-Za-z0-9_])(HTTP\s)?[Ss]tatus(?:\s[Cc]ode)?\s([1-5][0-9]{2})"
                             r"(?![0-9A-Za-z_]|\.[0-9])")


def _status(m: re.Match[str]) -> Span:
    return Span(m.start(), m.end(), m.group(0), "number", f"{'HTTP' if m.group(1) else ''}状态码{m.group(2)}")


_PERIODS = {"Week": "周", "Day": "天", "Month": "个月"}
_ENGLISH_PERIOD = re.compile(r"(?<![A-Za-z0-9_])(Week|Day|Month)\s([0-9]{1,3})(?![0-9A-Za-z_]|[.:][0-9])")


# Figures, tables, appendices: no 第 in Chinese. A number (2.1) or an appendix letter.
_FIGURES_ZH = {"图": "Figure", "表": "Table", "附录": "Appendix", "图表": "Chart", "公式": "Equation"}
_FIGURES_EN = {"Figure": "图", "Fig.": "图", "Table": "表", "Appendix": "附录", "Chart": "图表", "Equation": "公式",
               "Eq.": "公式",
               # The GHG Protocol's scopes ("our Scope 1 and Scope 2 emissions" came back 1和 Scope 2排放);
               # into English 范围一 is a report term (doctrans/data/report_terms.tsv): 范围3 may be a range.
               "Scope": "范围"}
_LABEL_NUMBER = r"(?:[0-9]{1,3}(?:[.\-][0-9]{1,3}){0,2}|[A-Z](?![A-Za-z]))"
_CHINESE_FIGURE = re.compile(
    rf"(?:(?<![\u4e00-\u9fff])|(?<=[如见由据从在按和与及即参照]))"
    rf"({'|'.join(sorted(_FIGURES_ZH, key=len, reverse=True))})\s?({_LABEL_NUMBER})"
    r"(?![0-9.%％个年月日名人次篇万亿元岁张项])")
_ENGLISH_FIGURE = re.compile(rf"(?<![A-Za-z0-9_])({'|'.join(re.escape(w) for w in _FIGURES_EN)})\s({_LABEL_NUMBER})"
                             r"(?![A-Za-z0-9_]|\.[0-9])")


def _figures(text: str, lang: str) -> list[Span]:
    if lang == "en":
        return [Span(m.start(), m.end(), m.group(0), "number", f"{_FIGURES_ZH[m.group(1)]} {ascii_digits(m.group(2))}")
                for m in _CHINESE_FIGURE.finditer(text)]
    return [Span(m.start(), m.end(), m.group(0), "number", f"{_FIGURES_EN[m.group(1)]}{m.group(2)}")
            for m in _ENGLISH_FIGURE.finditer(text)]


_CHINESE_LINE = re.compile(r"(?<![0-9０-９.])(地铁\s?)?([0-9０-９]{1,2})号线")
_ENGLISH_LINE = re.compile(r"(?<![A-Za-z0-9_])(?:(?:Metro|Subway) Line|(Tram)) ([0-9]{1,2})(?![0-9A-Za-z_]|\.[0-9])")


def _lines(text: str, lang: str) -> list[Span]:
    if lang == "en":
        return [Span(m.start(), m.end(), m.group(0), "number",
                     f"{'Metro ' if m.group(1) else ''}Line {ascii_digits(m.group(2))}")
                for m in _CHINESE_LINE.finditer(text)]
    return [Span(m.start(), m.end(), m.group(0), "number",
                 f"{m.group(2)}路有轨电车" if m.group(1) else f"地铁{m.group(2)}号线")
            for m in _ENGLISH_LINE.finditer(text)]


# A product's model before its code of letters and digits ("The Model X200 weighs 4.5 kg" came back
# 模型X200, a model as in a machine-learning one): 型号X200. Not a code of digits or letters alone: a
# car's "Model 3", "Model S" are names Chinese writes as they are.
_ENGLISH_MODEL = re.compile(r"(?<![A-Za-z0-9_-])Model\s+"
                            r"((?=[A-Z0-9-]*[0-9])(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]*[A-Z0-9])(?![A-Za-z0-9_-])")


def _models(text: str) -> list[Span]:
    return [Span(m.start(), m.end(), m.group(0), "number", f"型号{m.group(1)}") for m in _ENGLISH_MODEL.finditer(text)]


def find_part_numbers(text: str, tgt_lang: str | None) -> list[Span]:
    """The numbered parts in ``text`` as ``number`` spans whose target is the part written for
    ``tgt_lang`` (English or Chinese; none for another target)."""
    lang = base_language(tgt_lang)
    if lang == "en":
        parts = [Span(m.start(), m.end(), m.group(0), "number", f"{_UNITS[m.group(2)]} {number}")
                 for m in _CHINESE_PART.finditer(text) if (number := _number(m.group(1))) is not None]
        return _with_figures(parts, [*_figures(text, lang), *_steps(text, lang), *_lines(text, lang),
                                     *_grades(text)])
    if lang == "zh":
        spans = []
        for m in _ENGLISH_PART.finditer(text):
            word, arabic, roman = m.group(1), m.group(2), m.group(3)
            if (word.lower() in _CAPITALISED_ONLY or roman) and not word[0].isupper():
                continue
            number = arabic or str(_roman(roman.upper()))
            if roman and roman != roman.upper():
                continue
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"第{number}{_WORDS[word.lower()]}"))
        return _with_figures(spans, [*_figures(text, lang), *_spelled(text), *_steps(text, lang), *_lines(text, lang),
                                     *map(_status, _ENGLISH_STATUS.finditer(text)), *_models(text)])
    return []


# A grade in Roman numerals, as a water or an air quality report writes it (地表水水质优良（Ⅰ～Ⅲ类）断面 came
# back "(ILINEish IIII)"): Grade I–III, Grade IV; 劣Ⅴ类 worse than Grade V.
_UNICODE_ROMAN = {"Ⅰ": "I", "Ⅱ": "II", "Ⅲ": "III", "Ⅳ": "IV", "Ⅴ": "V", "Ⅵ": "VI"}
_GRADE_NUMERAL = "(?:[ⅠⅡⅢⅣⅤⅥ]|I{1,3}|IV|VI?)"
_CHINESE_GRADE = re.compile(rf"(?<![A-Za-z])(劣)?({_GRADE_NUMERAL})(?:\s?[～~至到\-–—]\s?({_GRADE_NUMERAL}))?类")


def _grades(text: str) -> list[Span]:
    def roman(numeral: str) -> str:
        return _UNICODE_ROMAN.get(numeral, numeral)
    return [Span(m.start(), m.end(), m.group(0), "number", ("worse than " if m.group(1) else "")
                 + f"Grade {roman(m.group(2))}" + (f"–{roman(m.group(3))}" if m.group(3) else ""))
            for m in _CHINESE_GRADE.finditer(text)]


# "Chapter One" .. "Part Twenty": a capitalised number word after a capitalised part word.
_WORD_NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                 "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
_SPELLED_PART = re.compile(rf"(?<![A-Za-z0-9_])({'|'.join(_WORDS)})\s({'|'.join(_WORD_NUMBERS)})(?![A-Za-z0-9_-])",
                           re.IGNORECASE)
def _spelled(text: str) -> list[Span]:
    return [Span(m.start(), m.end(), m.group(0), "number",
                 f"第{write_numeral(_WORD_NUMBERS.index(m.group(2).lower()) + 1)}{_WORDS[m.group(1).lower()]}")
            for m in _SPELLED_PART.finditer(text) if m.group(1)[0].isupper() and m.group(2)[0].isupper()]


def _with_figures(parts: list[Span], figures: list[Span]) -> list[Span]:
    """The parts and the figure labels that overlap none of them, in text order."""
    new = [f for f in figures if not any(f.start < p.end and p.start < f.end for p in parts)]
    return sorted([*parts, *new], key=lambda s: s.start)


def _number(text: str) -> str | None:
    """A part's number as Arabic digits: ``4.2``, ``二十一`` -> ``21``; None if it is no number."""
    if re.fullmatch(_ARABIC, text):
        return ascii_digits(text)
    value = read_numeral(text)
    return None if value is None else str(value)


def _roman(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for a, b in zip(text, [*text[1:], ""], strict=True):
        total += -values[a] if b and values[b] > values[a] else values[a]
    return total
