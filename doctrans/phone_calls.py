"""A telephone number with the verb that calls it, written the target's way, as one span:

| source                           | target | written                                           |
|----------------------------------|--------|---------------------------------------------------|
| call 0113 496 0000               | zh     | 拨打0113 496 0000                                   |
| Call toll-free at 1-800-555-0199 | zh     | 拨打免费电话1-800-555-0199                              |
| phone us on +44 20 7946 0958     | zh     | 致电我们：+44 20 7946 0958                             |
| 请拨打客服热线400-820-1234              | en     | call the customer service hotline on 400-820-1234 |
| 致电010-12345678                   | en     | call 010-12345678                                 |
| 拨打电话：13812345678                 | en     | call 13812345678                                  |

The models learned "call" from software documentation, where it is a function's: a recall notice's
"Call toll-free at 1-800-555-0199" came back 在1-800-555-0199……的情况下调用到空闲 ("invoke it, to
idle"), a report's "call 0113 496 0000" 调用0113 496 0000. Before a telephone number (seven digits
or more in groups, a leading ``+`` or ``0``, brackets around an area code) the verb is a telephone
call; the number itself stays as written (doctrans.verbatim keeps it whole).
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language
from doctrans.verbatim import Span

# A telephone number: digit groups joined by spaces, hyphens or dots, an area code in brackets.
_PHONE = r"\+?(?:\([0-9]{2,5}\)[ \u00a0]?)?[0-9]{1,5}(?:[-. \u00a0\u2011][0-9]{2,8}){1,4}|\+?[0-9]{7,15}"
_ENGLISH_CALL = re.compile(r"(?<![\w-])(?P<verb>[Cc]all|[Pp]hone|[Rr]ing|[Dd]ial|[Tt]elephone)"
                           r"(?P<us>[ \u00a0](?:us|them|him|her|me))?"
                           r"(?P<free>[ \u00a0]toll[- ]free)?(?:[ \u00a0](?:at|on))?[ \u00a0]"
                           rf"(?P<phone>{_PHONE})(?![0-9A-Za-z_]|[.,][0-9])")
_CHINESE_CALL = re.compile(r"(?P<verb>请拨打|请致电|拨打|致电)(?P<line>客服热线|服务热线|热线电话|热线|免费电话|电话)?"
                           rf"[：:]?\s?(?P<phone>{_PHONE})(?![0-9A-Za-z_]|[.,][0-9])")
_LINES = {"客服热线": "the customer service hotline on ", "服务热线": "the service hotline on ",
          "热线电话": "the hotline on ", "热线": "the hotline on ", "免费电话": "toll-free on ", "电话": ""}
_PEOPLE = {"us": "我们", "them": "他们", "him": "他", "her": "她", "me": "我"}


def _digits(phone: str) -> int:
    return sum(c.isdigit() for c in phone)


def find_phone_calls(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The telephone calls of ``text`` (the verb and the number) as ``number`` spans whose target is
    the call the way ``tgt_lang`` writes it; none for another direction."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    spans = []
    if tgt == "zh" and src != "zh":
        for m in _ENGLISH_CALL.finditer(text):
            phone = m["phone"]
            if _digits(phone) < 7 or not (phone[0] in "+0(" or re.search(r"[- \u00a0]", phone)):
                continue
            if m["us"]:
                written = f"致电{_PEOPLE[m['us'].strip()]}：{phone}"
            else:
                written = f"拨打{'免费电话' if m['free'] else ''}{phone}"
            spans.append(Span(m.start(), m.end(), m.group(), "number", written))
    elif tgt == "en" and src != "en":
        for m in _CHINESE_CALL.finditer(text):
            if _digits(m["phone"]) < 7:
                continue
            spans.append(Span(m.start(), m.end(), m.group(), "number",
                              f"call {_LINES[m['line']] if m['line'] else ''}{m['phone']}"))
    return spans
