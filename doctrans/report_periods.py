"""A report's periods, written the target's way: quarters, halves and fiscal years with their year.

A financial report dates its figures by period, and the models lost the period's year or its
number: ``Q3 2024`` came back ``Q3的精度来显式2024`` ("Q3's precision shows 2024"), ``FY2024``
as ``FY2024年，月``. Each period with its year is one span whose target is the same period in the
output's usual form, masked, restored and checked like a glossary term:

| source              | into English | into Chinese   |
|---------------------|--------------|----------------|
| Q3 2024             | (as written) | 2024年第三季度 |
| Q1 FY2025           | (as written) | 2025财年第一季度 |
| FY2024              | (as written) | 2024财年       |
| fiscal year 2023    | (as written) | 2023财年       |
| FY24                | (as written) | 2024财年       |
| H1 2024             | (as written) | 2024年上半年   |
| 2024年第三季度      | Q3 2024      | (as written)   |
| 2024年三季度        | Q3 2024      | (as written)   |
| 2026年第三季度报告  | Q3 2026 report | (as written) |
| 2024财年            | FY2024       | (as written)   |
| 2023年上半年        | H1 2023      | (as written)   |
| 2025年前三季度      | Q1–Q3 2025   | (as written)   |
| 2025年前两个季度    | H1 2025      | (as written)   |
| Q1-Q3 2025          | (as written) | 2025年前三季度 |
| first nine months of 2025 | (as written) | 2025年前三季度 |
| Third Quarter 2026  | (as written) | 2026年第三季度 |
| for the first half of 2027 | (as written) | 2027年上半年 |
| the first half of the year | (as written) | 上半年 |
| the third quarter of last year | (as written) | 去年第三季度 |
| for the three months ended September 30, 2026 | (as written) | 截至2026年9月30日的三个月 |
| in the 12 months to February | (as written) | 截至2月的十二个月 |
| first three quarters of 2025 | (as written) | 2025年前三季度 |
| 2025年前10个月      | the first 10 months of 2025 | (as written) |
| 前10个月            | the first 10 months | (as written) |
| 2025年度            | 2025         | (as written)   |

Into English the compact forms of English reports (``Q3 2024``, ``H1 2023``): they read in any
place of a sentence, where ``the third quarter of 2024`` needs its article. A quarter or a half
without a year is doctrans.report_terms' (``third quarter`` <-> ``第三季度``); ``Q3`` alone stays a
verbatim code. English <-> Chinese only.
"""

from __future__ import annotations

import re

from doctrans.chinese_numerals import read_numeral
from doctrans.dates import find_dates
from doctrans.language_id import base_language
from doctrans.verbatim import Span

_NUMERALS = "一二三四"
_YEAR = r"(?:19|20)[0-9]{2}"
_QUARTER_EN = re.compile(rf"(?<![0-9A-Za-z_])Q([1-4])\s?(?:(FY\s?)?({_YEAR}))(?![0-9A-Za-z_])")
# Not a split fiscal year (FY2024-25, FY24/25): which calendar year it names is the writer's convention.
_FISCAL_EN = re.compile(rf"(?<![0-9A-Za-z_])(?:FY\s?|[Ff]iscal (?:[Yy]ear )?)({_YEAR}|[0-9]{{2}})"
                        r"(?![0-9A-Za-z_]|[-–/][0-9])")
_HALF_EN = re.compile(rf"(?<![0-9A-Za-z_])H([12])\s?({_YEAR})(?![0-9A-Za-z_])")
_QUARTER_ZH = re.compile(rf"(?<![0-9.])({_YEAR})年(?:第)?([一二三四1-4])季度")
_FISCAL_ZH = re.compile(rf"(?<![0-9.])({_YEAR})(?:财年|财政年度)")
_HALF_ZH = re.compile(rf"(?<![0-9.])({_YEAR})年([上下])半年")
# A report's year (2025年度经营情况报告): the model read 年度 as "degrees" ("In 2025 degrees business
# performance"); the year is what it says, in English as in an annual report's title.
_REPORT_YEAR_ZH = re.compile(rf"(?<![0-9.])({_YEAR})年度(?!财)")
# The first three quarters of a year (a listed company's 前三季度 results: "2025年前三季度" came back
# "2025 years ago"), and the first two, which are its first half.
_FIRST_QUARTERS_ZH = re.compile(rf"(?<![0-9.])({_YEAR})年前([两二三])个?季度")
# The first months of a year, as statistics count them (前10个月 came back "former 10 months"), with
# or without the year; not 10个月前 (ten months ago), nor after a Han character that makes 前 part
# of a word (提前10个月 is ten months early) but 在 (在前10个月, in the first ten months).
_FIRST_MONTHS_ZH = re.compile(rf"(?:(?<![0-9.])({_YEAR})年|(?<![\u4e00-\u9fff0-9.])|(?<=在))"
                              r"前([1-9]|1[01]|[一二三四五六七八九十]|十一)个月")
_FIRST_QUARTERS_EN = re.compile(rf"(?<![0-9A-Za-z_])(?:Q1\s?[-–]\s?Q3\s?({_YEAR})"
                                rf"|(?:[Ff]irst (?:three quarters|nine months) of ({_YEAR})))(?![0-9A-Za-z_])")


# A quarter or a half of a year in words ("expected to close in the first quarter of 2027" came back
# 第一季度的2027年, the year after its quarter): 2027年第一季度, 2026年下半年.
# ... and with its year straight after it, as a release's title writes it ("Quarterly Results: Third
# Quarter 2026" came back 第三季度2026, the year after its quarter). "for the" goes with it (the model
# wrote "Revenue for the first half of 2026" 收入用于, "used for").
_QUARTER_OF_EN = re.compile(rf"(?<![A-Za-z])(?:(?i:for\s+the)\s+)?"
                            rf"((?i:first|second|third|fourth)[\s-]+(?i:quarter)|(?i:first|second)[\s-]+(?i:half))"
                            rf"(?:\s+of(?:\s+the\s+(?:fiscal\s+)?year)?)?\s+({_YEAR})(?![0-9A-Za-z_])")
# ... and of a year named by a word ("We will not raise prices in the first half of the year" came back
# 今年第一半年, "the first half-year", its half read as 一半): 上半年, 明年第一季度.
_QUARTER_OF_YEAR_EN = re.compile(r"(?<![A-Za-z])(?i:the)\s+((?i:first|second|third|fourth)[\s-]+(?i:quarter)"
                                 r"|(?i:first|second)[\s-]+(?i:half))\s+of\s+((?i:the|this|next|last))\s+year"
                                 r"(?![A-Za-z])")
_YEAR_WORDS = {"the": "", "this": "今年", "next": "明年", "last": "去年"}
# A report's period of months up to a date ("revenue of $412.6 million for the three months ended September
# 30, 2026" came back 用于去年的三月结束2026年9月30日, "used for last year's March ending"): 截至2026年9月30日的三个月,
# the date first, as Chinese reports write it. "for" goes with it: 截至 says it.
_MONTHS_ENDED_EN = re.compile(r"(?<![A-Za-z])(?:(?i:for)\s+)?(?i:the)\s+(three|six|nine|twelve|3|6|9|12)\s+months\s+"
                              r"(?:ended|ending)\s+")
# ... and British news's "in the 12 months to February" (came back 在12个月至2月中): 截至2月的12个月, a month
# alone enough.
_MONTHS_TO_EN = re.compile(r"(?<![A-Za-z])(?:(?i:in|for|over)\s+)?(?i:the)\s+(three|six|nine|twelve|3|6|9|12)\s+"
                           r"months\s+to\s+")
# Each with the date it must end at, in Chinese: "ended" a date with its year, not a month alone; "to"
# a month alone too.
_MONTHS_UP_TO = ((_MONTHS_ENDED_EN, re.compile("年")), (_MONTHS_TO_EN, re.compile("[月日]$")))
_MONTH_COUNTS = {"three": "三", "six": "六", "nine": "九", "twelve": "十二",
                 "3": "三", "6": "六", "9": "九", "12": "十二"}
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}


def _full_year(digits: str) -> str:
    return digits if len(digits) == 4 else f"20{digits}"


_REPORT_AFTER = re.compile(r"报告|财报|业绩报告|业绩|财务报告")
_REPORTS = {"报告": "report", "财报": "financial report", "业绩报告": "results", "业绩": "results",
            "财务报告": "financial report"}


def find_report_periods(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The periods of ``text`` as ``number`` spans whose target is the period written for
    ``tgt_lang`` (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    found: list[Span] = []
    if tgt == "zh" and src != "zh":
        for m in _QUARTER_EN.finditer(text):
            fiscal = "财年" if m.group(2) else "年"
            found.append(Span(m.start(), m.end(), m.group(), "number",
                              f"{m.group(3)}{fiscal}第{_NUMERALS[int(m.group(1)) - 1]}季度"))
        found += [Span(m.start(), m.end(), m.group(), "number", f"{_full_year(m.group(1))}财年")
                  for m in _FISCAL_EN.finditer(text)]
        found += [Span(m.start(), m.end(), m.group(), "number",
                       f"{m.group(2)}年{'上' if m.group(1) == '1' else '下'}半年") for m in _HALF_EN.finditer(text)]
        found += [Span(m.start(), m.end(), m.group(), "number", f"{m.group(1) or m.group(2)}年前三季度")
                  for m in _FIRST_QUARTERS_EN.finditer(text)]
        for m in _QUARTER_OF_EN.finditer(text):
            part = re.sub(r"[\s-]+", " ", m.group(1).lower())
            written = {"first half": "上半年", "second half": "下半年"}.get(part) \
                or f"第{_NUMERALS[_ORDINAL_WORDS[part.split()[0]] - 1]}季度"
            found.append(Span(m.start(), m.end(), m.group(), "number", f"{m.group(2)}年{written}"))
        for m in _QUARTER_OF_YEAR_EN.finditer(text):
            part = re.sub(r"[\s-]+", " ", m.group(1).lower())
            written = {"first half": "上半年", "second half": "下半年"}.get(part) \
                or f"第{_NUMERALS[_ORDINAL_WORDS[part.split()[0]] - 1]}季度"
            found.append(Span(m.start(), m.end(), m.group(), "number", f"{_YEAR_WORDS[m.group(2).lower()]}{written}"))
        for period, up_to in _MONTHS_UP_TO:
            for m in period.finditer(text):
                date = next((d for d in find_dates(text[m.end():], tgt) if d.start == 0), None)
                if date is not None and up_to.search(date.output):
                    end = m.end() + date.end
                    found.append(Span(m.start(), end, text[m.start():end], "number",
                                      f"截至{date.output}的{_MONTH_COUNTS[m.group(1).lower()]}个月"))
    elif tgt == "en" and src != "en":
        for m in _QUARTER_ZH.finditer(text):
            number = m.group(2) if m.group(2).isdigit() else str(read_numeral(m.group(2)))
            # ... with its report after it (发布2026年第三季度报告 came back "release Q3 2026", the report
            # gone): the Q3 2026 report.
            report = _REPORT_AFTER.match(text, m.end())
            end = report.end() if report else m.end()
            found.append(Span(m.start(), end, text[m.start():end], "number",
                              f"Q{number} {m.group(1)}{' ' + _REPORTS[report.group()] if report else ''}"))
        found += [Span(m.start(), m.end(), m.group(), "number", f"FY{m.group(1)}") for m in _FISCAL_ZH.finditer(text)]
        found += [Span(m.start(), m.end(), m.group(), "number", m.group(1)) for m in _REPORT_YEAR_ZH.finditer(text)]
        found += [Span(m.start(), m.end(), m.group(), "number", f"H{1 if m.group(2) == '上' else 2} {m.group(1)}")
                  for m in _HALF_ZH.finditer(text)]
        found += [Span(m.start(), m.end(), m.group(), "number",
                       f"Q1–Q3 {m.group(1)}" if m.group(2) == "三" else f"H1 {m.group(1)}")
                  for m in _FIRST_QUARTERS_ZH.finditer(text)]
        for m in _FIRST_MONTHS_ZH.finditer(text):
            months = m.group(2) if m.group(2).isdigit() else str(read_numeral(m.group(2)))
            year = f" of {m.group(1)}" if m.group(1) else ""
            found.append(Span(m.start(), m.end(), m.group(), "number", f"the first {months} months{year}"))
    # A quarter of a fiscal year holds the fiscal year's match: the longest wins.
    kept: list[Span] = []
    for span in sorted(found, key=lambda s: (s.start, -(s.end - s.start))):
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept
