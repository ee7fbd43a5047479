"""A law's or a contract's clause of entry into force, written the way the output's laws write it.

Every Chinese law, regulation and contract ends with one (``本法自2021年11月1日起施行。``), and the
zh->en model wrote it word by word: "this Law did line since November 1, 2021" (施行 read as 行, a
line). The clause is a formula, so it is one span whose target is the other language's formula,
the date written by doctrans.dates (the span holds the clause, not an article's number before it:
doctrans.section_headings reads that):

- ``本法自2021年11月1日起施行。`` -> ``This Law shall come into force on November 1, 2021.``
- ``本办法自发布之日起施行。`` -> ``These Measures shall come into force on the date of issue.``
- ``本合同自双方签字之日起生效。`` -> ``This Contract shall take effect on the date on which both parties
  sign it.``
- ``This Act shall come into force on 1 January 2027.`` -> ``本法自2027年1月1日起施行。``
- ``This Agreement shall take effect on the date of signature.`` -> ``本协议自签署之日起生效。``

A clause whose date cannot be read (本法自某日起施行) is left to the model.
"""

from __future__ import annotations

import re

from doctrans.dates import find_dates
from doctrans.language_id import base_language
from doctrans.verbatim import Span

# What the clause names, and how English names it (a regulation's Chinese names are plural in English).
_INSTRUMENTS_ZH = {"法": "This Law", "条例": "These Regulations", "规定": "These Provisions", "办法": "These Measures",
                   "细则": "These Detailed Rules", "规则": "These Rules", "准则": "These Guidelines",
                   "决定": "This Decision", "通知": "This Notice", "公告": "This Announcement", "标准": "This Standard",
                   "章程": "These Articles of Association", "制度": "These Rules", "合同": "This Contract",
                   "协议": "This Agreement", "协议书": "This Agreement", "意见": "These Opinions"}
_INSTRUMENTS_EN = {"law": "法", "act": "法", "regulations": "条例", "regulation": "条例", "provisions": "规定",
                   "measures": "办法", "rules": "规则", "decision": "决定", "notice": "通知", "standard": "标准",
                   "contract": "合同", "agreement": "协议", "policy": "政策", "terms": "条款"}
# The day it starts from when no date is written: its issue, its signature.
_DAYS_ZH = {"发布之日": "the date of issue", "印发之日": "the date of issue", "公布之日": "the date of promulgation",
            "颁布之日": "the date of promulgation", "签字之日": "the date of signature",
            "签署之日": "the date of signature", "签订之日": "the date of signature",
            "双方签字之日": "the date on which both parties sign it",
            "双方签字盖章之日": "the date on which both parties sign and seal it"}
_DAYS_EN = {"the date of issue": "发布之日", "the date of its issue": "发布之日", "the date of publication": "公布之日",
            "the date of promulgation": "公布之日", "the date of signature": "签署之日",
            "the date of signing": "签署之日", "the date of its signature": "签署之日"}
_VERBS_ZH = {"施行": "shall come into force", "实施": "shall come into force", "生效": "shall take effect",
             "执行": "shall take effect"}

# The clause starts the sentence, or follows an article's number (第七十四条 本法自…).
_CLAUSE_ZH = re.compile(rf"(?<![^\s\u3000])本(?P<what>{'|'.join(sorted(_INSTRUMENTS_ZH, key=len, reverse=True))})"
                        rf"自(?P<when>{'|'.join(sorted(_DAYS_ZH, key=len, reverse=True))}|[^，。；,;]{{4,20}}?)"
                        rf"起(?P<verb>{'|'.join(_VERBS_ZH)})[。.]?\s*$")
_CLAUSE_EN = re.compile(rf"(?<!\S)(?P<this>This|These)\s+(?P<what>(?i:{'|'.join(_INSTRUMENTS_EN)}))\s+shall\s+"
                        r"(?P<verb>come into force|enter into force|take effect|become effective)\s+"
                        r"(?:on|from|as of)\s+(?P<when>[^,;]{4,40}?)\.?\s*$")


def _date_in(text: str, tgt_lang: str) -> str | None:
    """``text`` as one date into ``tgt_lang`` (doctrans.dates), or None when it is not one."""
    spans = find_dates(text, tgt_lang)
    whole = [s for s in spans if (s.start, s.end) == (0, len(text))]
    return whole[0].target if whole else None


def find_legal_formulas(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The clause of entry into force that ends ``text`` as one ``phrase`` span whose target is the
    output's formula (English <-> Chinese only); else none."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if src == "zh" and tgt == "en" and (m := _CLAUSE_ZH.search(text)):
        when = _DAYS_ZH.get(m["when"]) or _date_in(m["when"], "en")
        if when is None:
            return []
        written = f"{_INSTRUMENTS_ZH[m['what']]} {_VERBS_ZH[m['verb']]} on {when}."
        return [Span(m.start(), m.end(), m.group(), "phrase", written)]
    if src == "en" and tgt == "zh" and (m := _CLAUSE_EN.search(text)):
        when = _DAYS_EN.get(m["when"].lower()) or _date_in(m["when"], "zh")
        if when is None:
            return []
        verb = "施行" if m["verb"].lower() in ("come into force", "enter into force") else "生效"
        written = f"本{_INSTRUMENTS_EN[m['what'].lower()]}自{when}起{verb}。"
        return [Span(m.start(), m.end(), m.group(), "phrase", written)]
    return []
