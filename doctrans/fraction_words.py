"""Fractions in words, given to the model as the fraction they are, both ways.

The built-in model had no fraction right: "more than two-thirds of economic activity" came back
``超过两倍的经济活动`` (more than twice), "one-quarter of firms" ``一四分公司``, "Three quarters of
the staff" ``员工的三分之一`` (a third), and ``超过三分之二的受访者`` "more than three scores". A
fraction is a figure a translation must not change, so it is one span whose target is the
fraction written the other language's way, masked, restored and checked like a figure:

| source                              | target              |
|-------------------------------------|---------------------|
| more than two-thirds of             | 三分之二             |
| one-quarter of firms                | 四分之一             |
| Three quarters of the staff         | 四分之三             |
| Two thirds came from supporters     | 三分之二             |
| fuel costs fell by a fifth          | 下降了五分之一       |
| a third of the budget               | 三分之一             |
| one-half                            | 二分之一             |
| one in five adults                  | 五分之一             |
| Three out of four doctors           | 四分之三             |
| Half a million homes                | 50万                 |
| Half of the budget                  | 一半                 |
| Half the town lost power            | 一半                 |
| a quarter of a percentage point     | 0.25个百分点         |
| half a percentage point             | 0.5个百分点          |
| 超过三分之二的受访者                 | two-thirds          |
| 约四分之一的企业                     | one-quarter         |
| 十分之一                             | one-tenth           |
| 超出预算四成                         | 40%                 |
| 近三成的受访者                       | 30%                 |
| 增长两成半                           | 25%                 |
| 约有三成受访者                       | 30%                 |
| two quarters of gains               | (none)              |
| a third time                        | (none)              |
| 百分之三十                           | (none)              |
| 一成不变                             | (none)              |
| 全场打八折                           | 20% off             |
| 八五折优惠                           | 15% off             |
| 折叠椅                               | (none)              |
| 八成是他干的                         | (none)              |
| 四分之一决赛                         | (none)              |

Into Chinese, a fraction is hyphenated (``two-thirds``), followed by ``of``, plural after a
numerator from two (``Two thirds came from`` came back 两个第三者, two third parties) or the size of
a change after ``by`` with no noun after it (``fell by a fifth`` -> 下降了五分之一, the change with it:
it came back 被第五次损失了, "the fifth time"; not ``by a third party``); ``quarters``
without a hyphen only before ``of the``/``of all``… (``two straight quarters of gains`` are
periods); ``half`` alone stays the model's word, ``half of the``/``its``… is 一半 ("Half of the
budget" came back 半辈子, half a lifetime), and so is ``half the``/``its``… ("Half the town lost
power" had lost its half); ``one in five`` is 五分之一 ("one in five adults" came
back 五个成年人, five adults), and a part of a percentage point is its figure. Into English,
``N分之M`` for a denominator from 2 to 10 and a smaller numerator; 百分之 is a percentage
(doctrans.magnitudes' and the model's).
Tenths in 成 (``超出预算四成`` came back "out of prefetching") are the percentage they are where a
change, a share or an approximation says so (after 增长, 下降, 占, 近, 约, 超出预算…, or before
的, 以上, 左右): ``一成不变`` (unchanging), ``八成是`` (most likely) and ``五成熟`` (medium) are not.
A discount in 折 is what comes off the price (``打八折`` is 20% off; the model read the price paid as
the reduction), after 打, 全场, 享 or 低至 or before 优惠 or 起 (``折叠`` is a fold).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from doctrans.chinese_numerals import ENGLISH_NUMBERS, read_numeral, write_numeral
from doctrans.magnitudes import in_wan
from doctrans.verbatim import Span

_NUMERATORS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
               "nine": 9}
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4,
                 "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7,
                 "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10}
_ENGLISH = re.compile(rf"(?<![\w'’-])({'|'.join(_NUMERATORS)})([- ])({'|'.join(_DENOMINATORS)})(?![\w'’-])"
                      r"(\s+of\b)?(\s+(?:the|all|its|their|our|his|her|them|those|these|us|you|a|an)\b)?",
                      re.IGNORECASE)
_CN = "一二三四五六七八九十"
# Not a round of a cup (四分之一决赛 is a quarterfinal: it came back "one-quarter verifications").
_CHINESE = re.compile(rf"(?<![{_CN}百千万])([二三四五六七八九]|十)分之([{_CN}])(?![{_CN}]|决赛)")
_EN_SINGULAR = {2: "half", 3: "third", 4: "quarter", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth",
                9: "ninth", 10: "tenth"}


_RISES = ("rose", "risen", "rises", "rise", "increased", "grew", "grown", "climbed", "jumped", "gained")
_CHANGE_BY = re.compile(r"(?<![\w'’-])(rose|risen|rises|rise|increased|grew|grown|climbed|jumped|gained|fell|fallen"
                        r"|falls|fall|decreased|declined|dropped|slid|shrank|shrunk|was cut|were cut)\s+by\s+$",
                        re.IGNORECASE)
_SIZE_END = re.compile(r"\s*(?:[.,;:!?)]|$)|\s+(?:in|on|at|last|this|since|over|from|to|compared|year|between"
                       r"|during|after|before|and|or|while|but|as|a|per|each|every)\b")


def english_fractions(text: str, taken: Sequence[Span] = ()) -> list[Span]:
    """The fractions in English words of ``text``, as Chinese ``三分之二`` (see the module docstring)."""
    spans = []
    for m in _ENGLISH.finditer(text):
        numerator, hyphen, denominator = (_NUMERATORS[m.group(1).lower()], m.group(2) == "-",
                                          _DENOMINATORS[m.group(3).lower()])
        word = m.group(3).lower()
        if numerator >= denominator or (word in ("half", "halves") and not hyphen):
            continue
        # fell by a fifth, grew by a third: a change's size, where no noun follows (by a third party)
        by = re.search(r"\bby\s+$", text[:m.start()]) is not None and _SIZE_END.match(text, m.end(3)) is not None
        if not hyphen and not m.group(4) and not by \
                and not (numerator > 1 and word.endswith("s") and word != "quarters"):
            continue  # "a third time", "one fifth" alone: not clearly a fraction; "Two thirds came from" is
        if not hyphen and word.startswith("quarter") and not m.group(5) and not by:
            continue  # "two straight quarters of gains": periods
        if m.group(1).lower() == "a" and hyphen:
            continue
        fraction = f"{_CN[denominator - 1]}分之{_CN[numerator - 1]}"
        verb = _CHANGE_BY.search(text, 0, m.start()) if by else None
        if verb:  # the change with its size: "fuel costs fell by a fifth" came back "fuel 的代价是五分之一"
            rise = verb.group(1).lower() in _RISES
            span = Span(verb.start(), m.end(3), text[verb.start():m.end(3)], "number",
                        f"{'增长' if rise else '下降'}了{fraction}")
        else:
            span = Span(m.start(), m.end(3), text[m.start():m.end(3)], "number", fraction)
        if not span.overlaps_any(taken):
            spans.append(span)
    return spans


_TENTHS = re.compile(r"(增长|增加|上涨|提高|提升|下降|下跌|降低|减少|回落|占|近|约有|约|逾|超过|超|超出|达到?"
                     r"|不到|不足)?([一二三四五六七八九两])成(半)?(?=(以上|左右|多|的)?)")


# A discount in 折, the share of the price paid (a shop's 全场八折 is 20% off; 八五折 15% off, 5折 half
# price): after 打, 全场, 享 or 低至, or before 优惠 or 起; 折 is also a fold, a twist and a fracture
# (折叠, 曲折, 骨折).
_DISCOUNT = re.compile(r"(?:(?<=打)|(?<=全场)|(?<=享)|(?<=低至)|(?<=可享))\s?"
                       r"([一二三四五六七八九]{1,2}|[1-9](?:\.[0-9])?)折(?![叠腾扣断射合])"
                       r"|([一二三四五六七八九]{1,2}|[1-9](?:\.[0-9])?)折(?=优惠|起)")


def _discount(figure: str) -> int | None:
    """The share of the price paid, in percent: 八 80, 八五 85, 8.5 85."""
    if figure[0].isdigit():
        return round(float(figure) * 10)
    tens, *ones = (read_numeral(c) for c in figure)
    if tens is None or None in ones:
        return None
    return tens * 10 + sum(d for d in ones if d is not None)  # one figure at most after the tens


def chinese_discounts(text: str) -> list[Span]:
    """A discount in 折 (``打八折`` -> ``20% off``, ``8.5折`` with its digits; see the module
    docstring)."""
    spans = []
    for m in _DISCOUNT.finditer(text):
        paid = _discount(m.group(1) or m.group(2))
        if paid is not None and 10 <= paid < 100:
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{100 - paid}% off"))
    return spans


def chinese_tenths(text: str, taken: Sequence[Span] = ()) -> list[Span]:
    """Tenths written with 成 (``四成`` -> ``40%``) where the sentence says they are a share (see
    the module docstring)."""
    spans = []
    for m in _TENTHS.finditer(text):
        before = m.group(1) or ("超出" if re.search(r"超出[\u4e00-\u9fff]{1,4}$", text[:m.start()]) else "")
        if not before and not m.group(4):
            continue
        start = m.start(2)
        percent = (read_numeral(m.group(2)) or 0) * 10 + (5 if m.group(3) else 0)
        span = Span(start, m.end(), text[start:m.end()], "number", f"{percent}%")
        if not span.overlaps_any(taken):
            spans.append(span)
    return spans


_ONE_IN = re.compile(r"(?<![\w'’-])(one|two|three|four|five|six|seven|eight|nine|[1-9])\s+(?:in|out\s+of)\s+"
                     r"(two|three|four|five|six|seven|eight|nine|ten|[2-9]|[1-9][0-9]{1,2})(?![\w'’-])", re.IGNORECASE)
# (... "of" may go: "Half the town lost power" came back 三天的镇长, the half gone)
# Not a first or second half ("in the first half of the year" came back 第一半年: doctrans.report_periods).
_HALF_OF = re.compile(r"(?<![\w'’-])(?<!first )(?<!second )half(?:\s+of)?"
                      r"(?=\s+(?:the|all|its|their|our|his|her|them|those|these|us|you)\b)",
                      re.IGNORECASE)
_POINT_PART = re.compile(r"(?<![\w'’-])(a quarter of a|half a|half of a|three quarters of a) percentage point"
                         r"(?![\w'’-])", re.IGNORECASE)
_POINT_PARTS = {"a quarter of a": "0.25", "half a": "0.5", "half of a": "0.5", "three quarters of a": "0.75"}
# A part of a million or a billion ("Half a million homes lost power" was the model's; "a quarter of a
# million" came back 四分之一 of a million): its figure in 万/亿.
_SCALE_PART = re.compile(r"(?<![\w'’-])(a quarter of a|half a|three quarters of a)\s(million|billion)(?![\w'’-])",
                         re.IGNORECASE)
_WORD_NUMBERS = {w: i for i, w in enumerate(ENGLISH_NUMBERS[:11])}


def english_shares(text: str, taken: Sequence[Span] = ()) -> list[Span]:
    """``one in five`` (五分之一), ``half of the`` (一半) and a part of a percentage point (0.25个百分点)
    of an English ``text`` (see the module docstring)."""
    spans = []
    for m in _POINT_PART.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(), "number", f"{_POINT_PARTS[m[1].lower()]}个百分点"))
    for m in _SCALE_PART.finditer(text):
        value = Decimal(_POINT_PARTS[m[1].lower()]).scaleb(6 if m[2].lower() == "million" else 9)
        spans.append(Span(m.start(), m.end(), m.group(), "number", in_wan(value)))
    for m in _ONE_IN.finditer(text):
        part, whole = (int(w) if w.isdigit() else _WORD_NUMBERS[w.lower()] for w in (m[1], m[2]))
        if part < whole:
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{write_numeral(whole)}分之{_CN[part - 1]}"))
    for m in _HALF_OF.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(), "number", "一半"))
    return [s for i, s in enumerate(spans) if not s.overlaps_any([*taken, *spans[:i]])]


def chinese_fractions(text: str, taken: Sequence[Span] = ()) -> list[Span]:
    """The fractions ``N分之M`` of ``text``, as English ``two-thirds`` (see the module docstring)."""
    spans = []
    for m in _CHINESE.finditer(text):
        denominator = 10 if m.group(1) == "十" else _CN.index(m.group(1)) + 1
        numerator = _CN.index(m.group(2)) + 1
        if numerator >= denominator:
            continue
        word = _EN_SINGULAR[denominator] + ("" if numerator == 1 else "s")
        if denominator == 2:
            word = "half"
        span = Span(m.start(), m.end(), m.group(0), "number", f"{ENGLISH_NUMBERS[numerator]}-{word}")
        if not span.overlaps_any(taken):
            spans.append(span)
    return spans
