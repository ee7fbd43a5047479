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
| Outlook for 2026      | zh     | 2026年展望     |
| 2025年度报告          | en     | Annual Report 2025 |
| Revenue by Region     | zh     | 按地区划分的收入 |
| 分地区收入            | en     | Revenue by Region |
| Annual Report 2025: Key Findings | zh | 2025年年度报告：主要发现 |
| Summary of results    | zh     | (the model's)  |
| 总结一下              | en     | (the model's)  |
| 否                    | en     | No             |
| Operating profit (£m) | zh     | 营业利润（百万英镑） |
| 客运总量（亿人次）    | en     | Total passenger volume (100 million visits) |

A heading followed by a colon and more text is a label (``Note:``, ``**Warning:**``, ``注意：``):
the label alone is written from the list (the model wrote ``**Note:**`` as ``**不能：**``, "cannot");
at the start of a sentence it is not given to the model at all (:func:`leading_label`), nor is a
heading of the list in 【】 before its text into English (``【贮藏】遮光`` -> ``[Storage] ...``).
A heading of the list may come with its year (``Outlook for 2026``, ``2025年度报告``: the year
before it in Chinese, after it in English), be broken down by another (``Revenue by Region``,
``按地区划分的收入``), or be joined to another by a colon (a report's title). A table's column, a heading of the list or
a report term (doctrans.report_terms) with its unit in brackets, is written with the unit the other
language's way.
English matches in any case; Chinese exactly. Between other languages nothing changes.
"""

from __future__ import annotations

import re
from functools import cache

from doctrans.data_lists import two_way
from doctrans.kept_names import common_words, proper_words
from doctrans.language_id import base_language
from doctrans.part_numbers import find_part_numbers
from doctrans.report_periods import find_report_periods
from doctrans.verbatim import Span

_COLON = re.compile(r"\s*[:：]\s*$")
_RUN_IN_STOP = re.compile(r"(?<=[A-Za-z]{3})\.\s*$")
# A label: a heading and its colon at the start of a segment, maybe in bold, text after it.
# The colon right after the heading: "Example::" is reST's literal marker, "参见 :ref:`x`" a role.
_LABEL = re.compile(r"\s*(?:\*\*|__)?([A-Za-z][A-Za-z &'’]{0,30}?|[\u4e00-\u9fff]{1,8})(：|:(?=(?:\*\*|__)?\s))"
                    r"(?=(?:\*\*|__)?\s*[^\s:：])")


# A Chinese leaflet's or label's heading in 【】 before its text (【用法用量】口服。 came back 'The "Using
# measurement" graces.', and with the heading translated alone "costume [Dosage and Administration]").
_BRACKETED_ALONE = re.compile(r"【\s*([\u4e00-\u9fff]{1,8})\s*】")
_BRACKETED_LABEL = re.compile(r"\s*【([\u4e00-\u9fff]{1,8})】[ \t\u3000]*(?=\S)")


@cache
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(English heading in small letters -> Chinese, Chinese -> English)."""
    return two_way("section_headings.tsv", lambda heading: (_key(heading),))


def _key(english: str) -> str:
    return " ".join(english.lower().replace("&", "and").replace("’", "'").split())


def find_section_heading(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``text`` as one ``heading`` span whose target is its name in ``tgt_lang`` when the whole of
    it is a known section heading (English <-> Chinese only); else none."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if not ((tgt == "zh" and src != "zh") or (tgt == "en" and src != "en")):
        return []
    mark = "：" if tgt == "zh" else ":"
    # An agreement's run-in heading ends with a full stop (``1. Services. Provider shall…``: the
    # model wrote Services. as 服务生, a waiter, and Fees. as 朋友): written with the stop.
    colon = _COLON.search(text)
    stop = None if colon else _RUN_IN_STOP.search(text)
    if stop and (target := _heading(text[:stop.start()].strip(), tgt)) is not None:
        start = len(text) - len(text.lstrip())
        return [Span(start, len(text.rstrip()), text[start:len(text.rstrip())], "heading", target + "。")]
    body = text[:colon.start()] if colon else text
    start = len(body) - len(body.lstrip())
    word = body.strip()
    if not word:
        return []
    target = _heading(word, tgt) or _headings_joined(word, tgt)
    if target is None and tgt == "en" and (inner := _BRACKETED_ALONE.fullmatch(word)):
        # A shop page's heading alone in 【】 (【售后服务】 came back 【 after-sales service 】, and its
        # 【主要参数】 went to the model): [After-Sales Service], as a heading before its text is.
        heading = _heading(inner.group(1), tgt)
        target = f"[{heading}]" if heading else None
    if target is None:
        numbered = _numbered(text, src_lang, tgt_lang)
        return [numbered[1]] if numbered else _templated(word, start, tgt) or _label(text, tgt)
    end = len(text.rstrip())
    return [Span(start, end, text[start:end], "heading", target + (mark if colon else ""))]


def _heading(word: str, tgt: str | None) -> str | None:
    """``word`` (stripped) written in ``tgt`` when it is a heading of the list, maybe with its unit
    in brackets (a table's column), else None."""
    if not word:
        return None
    unit = _UNIT_AFTER.fullmatch(word)
    if unit and (units := _UNITS_INTO_CHINESE if tgt == "zh" else _UNITS_INTO_ENGLISH).get(unit.group(2)):
        heading = _heading(unit.group(1), tgt) or _broken_down(unit.group(1), tgt) or _term(unit.group(1), tgt)
        if heading is not None:
            written = units[unit.group(2)]
            return f"{heading}（{written}）" if tgt == "zh" else f"{heading} ({written})"
    if tgt == "zh":
        return _tables()[0].get(_key(word))
    return _tables()[1].get(word) or _CELLS_INTO_ENGLISH.get(word)


def _term(label: str, tgt: str | None) -> str | None:
    """A column's label that is a report term as a whole (doctrans.report_terms: 营业利润, Operating
    profit), written in ``tgt``; the unit after it is the column's (Operating profit (£m) came back
    营业利润 (±), 客运总量（亿人次） "Total passenger volume", the unit gone)."""
    from doctrans.report_terms import find_report_terms  # report_terms reads figures: not at import

    found = find_report_terms(label, "zh" if tgt == "en" else "en", tgt)
    if len(found) != 1 or (found[0].start, found[0].end) != (0, len(label)) or not found[0].target:
        return None
    target = found[0].target
    return target[0].upper() + target[1:] if tgt == "en" else target


# A heading of the list with its year (Outlook for 2026 came back 查看2026, "view"; Annual Report
# 2025, 2025 Highlights, 2025年工作总结): the year as Chinese writes it, before the heading, and as
# English does, after it (2026年展望 -> Outlook 2026). A year of this century or the last only.
_YEAR = r"(?:19|20)[0-9]{2}"
_ENGLISH_YEARED = (re.compile(rf"(?P<heading>.+?)\s+(?:(?:for|in|of)\s+(?:the\s+year\s+)?)?(?P<year>{_YEAR})",
                              re.IGNORECASE),
                   re.compile(rf"(?P<year>{_YEAR})\s+(?P<heading>.+)"))
_CHINESE_YEARED = re.compile(rf"(?P<year>{_YEAR})\s*年(?P<heading>.+)")


def _yeared(word: str, tgt: str | None) -> str | None:
    """``word`` (stripped) written in ``tgt`` when it is a heading of the list and its year, else None."""
    if tgt == "zh":
        for pattern in _ENGLISH_YEARED:
            m = pattern.fullmatch(word)
            if m and (heading := _heading(m.group("heading").strip(), tgt)) is not None:
                return f"{m.group('year')}年{heading}"
        return None
    m = _CHINESE_YEARED.fullmatch(word)
    if m is None:
        return None
    rest = m.group("heading").strip()
    # 2025年度报告 is 2025 + 年度报告 (annual report), 2025年度工作计划 2025 + 工作计划 (年度 the year's).
    heading = _heading(rest, tgt) or (_heading("年" + rest, tgt) or _heading(rest[1:].strip(), tgt)
                                      if rest.startswith("度") else None)
    return f"{heading} {m.group('year')}" if heading is not None else None


# A table's or a chart's heading of one figure broken down by another (Revenue by Region came back
# 收入由Region): 按地区划分的收入 <-> Revenue by Region, both headings of the list.
_ENGLISH_BY = re.compile(r"(?P<what>.+?)\s+by\s+(?P<by>.+)", re.IGNORECASE)
_CHINESE_BY = re.compile(r"按(?P<by>.+?)划分的(?P<what>.+)")
# ... and a statistics table's shorter way (a quarterly report's 分地区收入 came back "In the middle of
# the area"): 分 and a two-character heading (地区, 行业, 产品) before the figure's.
_CHINESE_SHORT_BY = re.compile(r"分(?P<by>[\u4e00-\u9fff]{2})(?P<what>[\u4e00-\u9fff]{2,8})")


def _broken_down(word: str, tgt: str | None) -> str | None:
    m = (_ENGLISH_BY if tgt == "zh" else _CHINESE_BY).fullmatch(word)
    if m is None and tgt == "en":
        m = _CHINESE_SHORT_BY.fullmatch(word)
    if m is None or _UNIT_AFTER.fullmatch(m.group("by")):  # the unit is the whole heading's
        return None
    what, by = _heading(m.group("what").strip(), tgt), _heading(m.group("by").strip(), tgt)
    if what is None or by is None:
        return None
    return f"按{by}划分的{what}" if tgt == "zh" else f"{what} by {by}"


def _period(text: str, tgt: str | None) -> str | None:
    """``text`` written in ``tgt`` when the whole of it is a report's period (Q3 2026, 2026年上半年)."""
    found = find_report_periods(text, "zh" if tgt == "en" else "en", tgt)
    whole = len(found) == 1 and (found[0].start, found[0].end) == (0, len(text))
    return found[0].target if whole else None


# A title of two headings of the list (or one and its year) joined by a colon: Annual Report 2025:
# Key Findings (the model wrote 年度报告2025：键查找, "key lookup").
_JOINING_COLON = re.compile(r"\s*[:：]\s*")


def _headings_joined(word: str, tgt: str | None) -> str | None:
    """``word`` (stripped) written in ``tgt`` when it is a heading of the list with its year, one
    broken down by another, or two such joined by a colon, else None."""
    whole = _yeared(word, tgt) or _broken_down(word, tgt)
    if whole is not None:
        return whole
    parts = _JOINING_COLON.split(word, maxsplit=1)
    if len(parts) != 2:
        return None
    written = [_heading(part, tgt) or _yeared(part, tgt) for part in parts]
    if written[0] is not None and written[1] is None:
        written[1] = _period(parts[1], tgt)  # Quarterly Sales Review: Q3 2026
    if None in written:
        return None
    return ("：" if tgt == "zh" else ": ").join(w for w in written if w is not None)


# A table's column heading with its unit in brackets (收入（亿元） came back "Introduction", the unit
# gone; Revenue ($m) 收入 ($m)): the heading from the list, the unit written the other language's way.
_UNIT_AFTER = re.compile(r"(.+?)\s*[（(]\s*([^()（）]{1,12}?)\s*[）)]")
_UNITS_INTO_ENGLISH = {"亿元": "100 million yuan", "万元": "10,000 yuan", "元": "yuan", "百万元": "million yuan",
                       "千元": "thousand yuan", "亿美元": "100 million USD", "万美元": "10,000 USD", "美元": "USD",
                       "%": "%", "％": "%", "人": "people", "万人": "10,000 people", "吨": "tonnes",
                       "万吨": "10,000 tonnes", "人民币": "RMB", "元/吨": "yuan/tonne", "年": "years", "天": "days",
                       "个": "number", "条": "number", "辆": "number", "家": "number", "项": "number",
                       "亿人次": "100 million visits", "万人次": "10,000 visits", "人次": "visits", "公里": "km",
                       "万辆": "10,000 vehicles", "分钟": "minutes", "小时": "hours"}
_UNITS_INTO_CHINESE = {"$m": "百万美元", "$ m": "百万美元", "$mn": "百万美元", "$bn": "十亿美元", "$ bn": "十亿美元",
                       "£m": "百万英镑", "£bn": "十亿英镑", "€m": "百万欧元", "€bn": "十亿欧元", "%": "%",
                       "USD": "美元", "US$": "美元", "$": "美元", "RMB": "人民币", "EUR": "欧元", "GBP": "英镑",
                       "USD m": "百万美元", "USD million": "百万美元", "$ million": "百万美元", "millions": "百万",
                       "people": "人", "years": "年", "days": "天"}


# A table's yes/no cells, into English only (是否必填: 是 came back "Yeah", 否 "Oh, no"); into Chinese
# a subtitle's "No" is 不, not 否.
_CELLS_INTO_ENGLISH = {"是": "Yes", "否": "No", "无": "None"}


# A manual's headings about a named thing (Getting Started with Acme CLI came back 使用 Acmem CLI开始):
# (English pattern, Chinese pattern), {} the name, kept as written.
_TEMPLATES = [("Getting Started with {}", "{} 入门"), ("Introduction to {}", "{} 简介"),
              ("Installing {}", "安装 {}"), ("Configuring {}", "配置 {}"), ("Using {}", "使用 {}"),
              ("Overview of {}", "{} 概述"), ("{} Overview", "{} 概述"), ("What's New in {}", "{} 新增功能"),
              ("Upgrading to {}", "升级到 {}"), ("{} Changelog", "{} 更新日志"), ("{} Release Notes", "{} 发行说明")]
# A name: words each in capitals, with a digit or a capital inside, or rare (not a common word);
# versions and dots allowed (Acme CLI, Python 3.12, Node.js, GitHub Actions).
_NAME_WORD = re.compile(r"(?:[A-Z0-9]|v(?=[0-9]))[A-Za-z0-9.+#\-]*")  # v2.4.0 too


def _a_name(text: str) -> bool:
    words = text.split()
    return bool(words) and len(words) <= 4 and all(
        _NAME_WORD.fullmatch(w) and (w.isupper() or any(c.isdigit() for c in w) or any(c.isupper() for c in w[1:])
                                     or w.lower() not in common_words() or w.lower() in proper_words())
        for w in words)


def _templated(word: str, start: int, tgt: str | None) -> list[Span]:
    """``word`` (a whole segment, stripped, at ``start``) as a heading of :data:`_TEMPLATES` about
    a name, written the other language's way with the name as it is."""
    english_source = tgt == "zh"
    for english, chinese in _TEMPLATES:
        pattern, target = (english, chinese) if english_source else (chinese, english)
        head, _, tail = (part.strip() for part in pattern.partition("{}"))
        seen = word.lower() if english_source else word
        if not (seen.startswith(head.lower() if english_source else head)
                and seen.endswith(tail.lower() if english_source else tail)):
            continue
        name = word[len(head):len(word) - len(tail)]
        if english_source and ((head and not name.startswith(" ")) or (tail and not name.endswith(" "))):
            continue  # whole words: "Usingfoo" is no "Using foo"
        if _a_name(name.strip()):
            return [Span(start, start + len(word), word, "heading", target.format(name.strip()))]
    return []


def _leading_part(text: str, tgt_lang: str | None) -> Span | None:
    """The part number (doctrans.part_numbers) that starts ``text``, or None."""
    parts = find_part_numbers(text, tgt_lang)
    return parts[0] if parts and not text[:parts[0].start].strip() else None


def _numbered(text: str, src_lang: str | None, tgt_lang: str | None,
              part: Span | None = None) -> tuple[Span, Span] | None:
    """(the part number, the heading after it, at its place in ``text``) of a contract's or a
    law's numbered heading (``第四条 违约责任``, ``Article 8 Termination``); ``part``: the
    :func:`_leading_part` of ``text`` when the caller has it."""
    part = part or _leading_part(text, tgt_lang)
    if part is None:
        return None
    rest = text[part.end:]
    body = rest.lstrip(" \t\u3000:：").lstrip(" \t\u3000")  # Appendix A: Glossary
    if body == rest:
        return None
    shift = len(text) - len(body)
    found = [Span(f.start + shift, f.end + shift, f.text, f.kind, f.target)
             for f in find_section_heading(body, src_lang, tgt_lang) if f.start == 0]
    return (part, found[0]) if found else None


def numbered_heading(text: str, src_lang: str | None, tgt_lang: str | None) -> tuple[int, str] | None:
    """A numbered heading (``第三条 费用及支付方式``) as (where the heading begins, the part number
    written in ``tgt_lang`` and what parts it from the heading: a space, or a colon as the source
    has one), or a part number and its colon before any text (``第一步：安装 Nginx``); None for
    anything else. doctrans.engine.protect writes the number before the heading
    (as a placeholder beside 第三条 the heading was not seen: "The Article 3 Field and payments")."""
    part = _leading_part(text, tgt_lang)
    if part is None:
        return None
    colon_mark = "：" if base_language(tgt_lang) == "zh" else ": "
    numbered = _numbered(text, src_lang, tgt_lang, part)
    if numbered is not None:
        heading = numbered[1]
        colon = any(c in text[part.end:heading.start] for c in ":：")
        return heading.start, (part.target or part.text) + (colon_mark if colon else " ")
    # A part number as the label of what follows its colon (第一步：安装 Nginx, Figure 3: Revenue):
    # the model wrote the step's placeholder and the rest as "The first step: Nginx".
    label = _LABEL_COLON.match(text, part.end)
    return (label.end(), (part.target or part.text) + colon_mark) if label else None


# A colon after a part number that starts a segment, then the text it labels.
_LABEL_COLON = re.compile(r"[ \t\u3000]*[:：][ \t\u3000]*(?=\S)")


# Labels that are no heading alone: a FAQ's question and answer (问：为什么无法连接服务器？ came
# back "Ask: why can't…", 答： as "Support:"). Not ``A:`` into Chinese: a transcript's speakers are
# ``A:`` and ``B:`` too.
_LABELS_ONLY: dict[tuple[str, str | None], str] = {("问", "en"): "Q", ("答", "en"): "A", ("Q", "zh"): "问",
                                                   # a specification sheet's (Memory: 32 GB came back copied)
                                                   ("Memory", "zh"): "内存", ("RAM", "zh"): "内存",
                                                   ("内存", "en"): "Memory"}


# A paper's abstract labels its parts with an ideographic space, no colon (目的　探讨… came back "For
# purpose explosion of…", 方法　选取… "The method selects…"): the label, written with its colon.
_SPACED_LABEL = re.compile(r"\s*(目的|方法|结果|结论|背景|对象|关键词)(\u3000+)(?=\S)")


def _label(text: str, tgt: str | None) -> list[Span]:
    """A heading used as the label of what follows it (``Note: Administrator rights are...``,
    ``**Warning:** do not...``, ``注意：请勿...``): the label and its colon as one span."""
    m = _LABEL.match(text) or (_SPACED_LABEL.match(text) if tgt == "en" else None)
    if m is None:
        return []
    word = m.group(1).strip()
    target = _tables()[0].get(_key(word)) if tgt == "zh" else _tables()[1].get(word)
    target = _LABELS_ONLY.get((word, tgt), target)
    if target is None:
        return []
    return [Span(m.start(1), m.end(2), text[m.start(1):m.end(2)], "heading", target + ("：" if tgt == "zh" else ":"))]


def leading_label(text: str, src_lang: str | None, tgt_lang: str | None) -> tuple[int, str] | None:
    """A label that starts ``text`` (``Note: the rest``, ``**注意：**请勿…``) as (where what it labels
    begins, the label written in ``tgt_lang`` with its markup and the space that language puts
    after it), or None. The engine translates the rest alone and writes the label before it: the
    model given ``⦅1⦆Windows 用户需要…`` wrote ``The Note:Windows user needs…``."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if not ((tgt == "zh" and src != "zh") or (tgt == "en" and src != "en")):
        return None
    bracketed = _BRACKETED_LABEL.match(text) if tgt == "en" else None
    if bracketed and (heading := _heading(bracketed.group(1), tgt)) is not None:
        return bracketed.end(), f"[{heading}] "  # 【用法用量】口服。 -> [Dosage and Administration] Oral.
    spans = _label(text, tgt)
    if not spans:
        return None
    label = spans[0]
    if label.target is None:
        return None
    after = re.match(r"(?:\*\*|__)?[ \t\u3000]*", text[label.end:])
    assert after is not None  # the pattern matches the empty string
    written = text[:label.start] + label.target + after.group().strip() + ("" if tgt == "zh" else " ")
    return label.end + after.end(), written


# A chapter's or a part's number, a space and its title (第三章 雨夜), and the comma or full stop the
# model put after the number in English ("Chapter 3, rain").
_TITLED_PART = re.compile(r"\s*第[^\s，。：]{1,6}[章节回卷篇部][ \t\u3000]+[\u4e00-\u9fff][^。！？，：:]{0,15}$")
_MARK_AFTER = re.compile(r"\s*[,.;]\s+(?=\S)")


def titled_part(source: str, translation: str, part: str) -> str:
    """``translation`` (English) of a Chinese chapter heading ``source`` (第三章 雨夜) with a colon
    between the number (``part``, as written in it) and the title, which starts with a capital
    (``Chapter 3, rain`` -> ``Chapter 3: Rain``); anything else as it is."""
    if not _TITLED_PART.fullmatch(source) or not translation.startswith(part):
        return translation
    mark = _MARK_AFTER.match(translation, len(part))
    if mark is None:
        return translation
    rest = translation[mark.end():]
    return f"{part}: {rest[:1].upper()}{rest[1:]}"
