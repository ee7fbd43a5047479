"""Amounts of money: the figure and its currency as one span, written the target's way.

doctrans.magnitudes fixes the figure; the currency beside it was left to the model, which dropped
or swapped it: ``300万欧元`` came back as ``3 million`` (the euros gone), ``1,250万元`` as ``12.5
million``, ``费用为500元`` as ``Support for 500``. A changed currency changes the figure as much as
a changed digit. So an amount becomes one span whose target is the value and its currency as the
target language writes them (masked, restored and checked like a glossary term); a figure with a
magnitude word is converted as doctrans.magnitudes does, one without keeps its digits as written:

| source            | into English         | into Chinese   |
|-------------------|----------------------|----------------|
| 1,250万元         | 12.5 million yuan    | (as written)   |
| 42亿美元          | $4.2 billion         | (as written)   |
| 300万欧元         | €3 million           | (as written)   |
| 500元             | 500 yuan             | (as written)   |
| 30美元            | $30                  | (as written)   |
| 12000元           | 12,000 yuan          | (as written)   |
| 2万日元           | 20,000 yen           | (as written)   |
| $4.2 billion      | (as written)         | 42亿美元       |
| US$500            | (as written)         | 500美元        |
| $1,250.00         | (as written)         | 1,250.00美元   |
| €3m               | (as written)         | 300万欧元      |
| £1.5bn            | (as written)         | 15亿英镑       |
| 12 million euros  | (as written)         | 1200万欧元     |
| 500 yuan          | (as written)         | 500元          |
| 12.5亿元人民币    | 1.25 billion yuan    | (as written)   |
| 人民币300元       | 300 yuan             | (as written)   |
| 五百块钱          | 500 yuan             | (as written)   |
| 500块钱           | 500 yuan             | (as written)   |
| 两毛钱            | 0.2 yuan             | (as written)   |
| 一块五毛          | 1.5 yuan             | (as written)   |
| 3元5角            | 3.5 yuan             | (as written)   |
| 五分钱            | 0.05 yuan            | (as written)   |
| 人民币壹佰贰拾万元整 | RMB One Million Two Hundred Thousand Only | (as written) |
| 5 million pounds  | (as written)         | 500万英镑      |
| USD 12,500        | (as written)         | 12,500美元     |
| EUR 3 million     | (as written)         | 300万欧元      |
| 3,000 GBP         | (as written)         | 3,000英镑      |
| 68 cents          | (as written)         | 68美分         |

Only these two directions, and only currencies whose name is unambiguous: ``¥`` (yen or yuan),
``pounds`` without a scale word (money or weight; ``5 million pounds`` is money) and ``5 Canadian
dollars`` (the word between) are left as they were; ``元`` before ``组``/``素``/``件``/``数``/``年``
is not money (``3元组``, a 3-tuple).
"""

from __future__ import annotations

import re
from decimal import Decimal

from doctrans.chinese_numerals import (
    CAPITAL_DIGITS,
    english_words,
    read_capital_numeral,
    read_figure,
    read_large_numeral,
)
from doctrans.language_id import base_language
from doctrans.magnitudes import (
    FIGURE_START,
    NUMBER,
    POWERS,
    SCALE_WORDS,
    ascii_digits,
    decimal_value,
    english,
    grouped_digits,
    in_wan,
)
from doctrans.verbatim import Span

_WAN = "|".join(sorted(POWERS, key=len, reverse=True))
_SCALE = "|".join(SCALE_WORDS)
# Chinese currency names: (English sign before the figure, English word after it).
_CHINESE_NAMES = {"美元": ("$", ""), "欧元": ("€", ""), "英镑": ("£", ""), "港元": ("HK$", ""),
                  "港币": ("HK$", ""), "日元": ("", " yen"), "人民币": ("", " yuan"), "元": ("", " yuan"),
                  "块钱": ("", " yuan")}  # speech's yuan (块 alone is also a piece: 三块蛋糕)
_CHINESE_AMOUNT = re.compile(rf"(?:人民币\s?)?{FIGURE_START}({NUMBER})\s?({_WAN})?\s?"
                             rf"({'|'.join(sorted(_CHINESE_NAMES, key=len, reverse=True))})(?![组素件数年])"
                             r"(?:(?<=元)人民币)?")  # 人民币12.5亿元, 12.5亿元人民币: the same yuan
_SIGNS = {"us$": "美元", "hk$": "港元", "$": "美元", "€": "欧元", "£": "英镑"}
_SIGN_AMOUNT = re.compile(rf"(?<![0-9A-Za-z_.,])(US\$|HK\$|[$€£])({NUMBER})(?:\s?({_SCALE})|(m))?(?![0-9A-Za-z_])",
                          re.IGNORECASE)
_WORDS = {"us dollars": "美元", "dollars": "美元", "euros": "欧元", "yuan": "元", "renminbi": "元",
          "rmb": "元", "yen": "日元", "pounds sterling": "英镑", "pounds": "英镑",
          # "down 3 cents" came back 3分块 (3 lumps of points)
          "cents": "美分", "pence": "便士"}
# ISO 4217 codes, before or after the figure (a contract's ``USD 12,500``, an invoice's ``3,000 EUR``).
_CODES = {"usd": "美元", "eur": "欧元", "gbp": "英镑", "jpy": "日元", "cny": "元", "rmb": "元", "hkd": "港元",
          "cad": "加元", "aud": "澳元", "chf": "瑞士法郎", "sgd": "新加坡元"}
_CODE = "|".join(c.upper() for c in _CODES)
_CODE_AMOUNT = re.compile(rf"(?<![0-9A-Za-z_])(?:({_CODE})\s?({NUMBER})(?:\s?({_SCALE}))?"
                          rf"|({NUMBER})(?:\s?({_SCALE}))?\s({_CODE}))(?![0-9A-Za-z_])")
_WORD_AMOUNT = re.compile(rf"(?<![0-9A-Za-z_.,$€£])({NUMBER})(?:\s?({_SCALE}))?\s"
                          rf"({'|'.join(_WORDS)})(?![A-Za-z])", re.IGNORECASE)


def find_amounts(text: str, tgt_lang: str | None) -> list[Span]:
    """The amounts of money in ``text`` as ``number`` spans whose target is the amount written for
    ``tgt_lang`` (English or Chinese; none for another target)."""
    lang = base_language(tgt_lang)
    if lang == "en":
        return [_chinese_per_period(text, s) for s in _out_of_chinese(text)]
    if lang == "zh":
        return _into_chinese(text)
    return []


# An amount in capital numerals, as a contract writes it beside the figure (人民币壹佰贰拾万元整:
# it came back "a human coincion"): English contracts write it in words.
# Its label goes with it (（大写：肆拾捌万元整） came back "(uppercase:RMB ... Only)"): "in words".
_CAPITAL_AMOUNT = re.compile(rf"(?P<label>大写[：:]\s?)?(?:人民币\s?)?([{CAPITAL_DIGITS}]+)[元圆]"
                             rf"(?:([零{CAPITAL_DIGITS[1:10]}])角)?(?:([零{CAPITAL_DIGITS[1:10]}])分)?([整正])?")


_CAPITAL_ONLY = set("壹贰叁肆伍陆柒捌玖拾佰仟萬億")


def _capital_amounts(text: str) -> list[Span]:
    spans = []
    for m in _CAPITAL_AMOUNT.finditer(text):
        if not any(c in _CAPITAL_ONLY for c in m.group(2)):
            continue  # 42.8万亿元: ordinary units after a figure, no capital numeral
        yuan = read_capital_numeral(m.group(2))
        if yuan is None:
            continue
        cents = sum((read_capital_numeral(c) or 0) * w for c, w in ((m.group(3), 10), (m.group(4), 1)) if c)
        # In words, as the contract's own figure beside it is in digits; with jiao and fen in digits.
        written = f"RMB {yuan:,}.{cents:02d}" if cents else f"RMB {english_words(yuan)}{' Only' if m.group(5) else ''}"
        if m.group("label"):  # group 1; the amount's groups are 2 to 5
            written = f"in words: {written}"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", written))
    return spans


# Small change as speech and fiction say it: jiao (毛/角, a tenth of a yuan) and fen (分, a
# hundredth): 两毛钱一份 came back "Two more money", 一块五毛 "a five-what", 三角钱 "The triangle".
# Jiao or fen after yuan (一块五毛, 3元5角), or alone before 钱 (两毛钱, 五分钱); 一块毛巾 (a towel),
# 三角形 (a triangle) and 五分钟 (minutes) are none.
_DIGIT = "[一二两三四五六七八九1-9]"
_NOT_MONEY_AFTER = "(?![形度巾线衣笔皮发病球尖架])"
_SMALL_CHANGE = re.compile(
    rf"(?<![零〇一二两三四五六七八九十百千万亿第0-9.])(?:([零〇一二两三四五六七八九十百千万亿]+|[0-9]+)[块元]"
    rf"({_DIGIT})[毛角]{_NOT_MONEY_AFTER}(?:({_DIGIT})分)?钱?"
    rf"|({_DIGIT})[毛角](?:({_DIGIT})分)?钱|({_DIGIT})分钱)")


def _digit(c: str | None) -> int:
    """One jiao's or fen's digit (一, 两, 5); 0 for none."""
    return (read_figure(c) or 0) if c else 0


def _small_change(text: str) -> list[Span]:
    spans = []
    for m in _SMALL_CHANGE.finditer(text):
        yuan = m.group(1)
        whole = (int(yuan) if yuan.isdigit() else read_large_numeral(yuan)) if yuan else 0
        if whole is None:
            continue
        cents = 10 * _digit(m.group(2) or m.group(4)) + _digit(m.group(3) or m.group(5) or m.group(6))
        value = Decimal(whole) + Decimal(cents).scaleb(-2)
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{english(value.normalize())} yuan"))
    return spans


def _out_of_chinese(text: str) -> list[Span]:
    spans = _capital_amounts(text)
    spans += [s for s in _small_change(text) if not s.overlaps_any(spans)]
    for m in _CHINESE_AMOUNT.finditer(text):
        value = decimal_value(m.group(1))
        if value is None or any(s.start < m.end() and m.start() < s.end for s in spans):
            continue
        # A figure with 万/亿 is converted (doctrans.magnitudes); one without keeps its digits, in
        # groups of three as English writes an amount (52316元 -> 52,316 yuan).
        figure = english(value.scaleb(POWERS[m.group(2)])) if m.group(2) else grouped_digits(ascii_digits(m.group(1)))
        sign, word = _CHINESE_NAMES[m.group(3)]
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{sign}{figure}{word}"))
    # In Chinese numerals, as speech and fiction write money (她花了五百块钱: the yuan were lost).
    for m in _NUMERAL_AMOUNT.finditer(text):
        yuan = read_large_numeral(m.group(1).removesuffix("钱").removesuffix("块").removesuffix("元"))
        if yuan and not any(s.start < m.end() and m.start() < s.end for s in spans):
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{english(Decimal(yuan))} yuan"))
    return spans


# 块钱 after any numeral; 元 only after one with a unit character (五十元): 一元, 二元, 三元 are also
# unary, binary, ternary (一元二次方程, 二元运算) and 一元复始 an idiom.
_NUMERAL_AMOUNT = re.compile(r"(?<![零〇一二两三四五六七八九十百千万亿第])"
                             r"([零〇一二两三四五六七八九十百千万亿]+块钱|[零〇一二两三四五六七八九十百千万亿]*[十百千万亿]元钱?)"
                             r"(?![组素件数年旦宵首帅月])")


# Pence after a figure, as British English writes a price below a pound (a charity's "86p of every
# pound" came back 86个磅, "50p" 50p): not a time (5p.m.), a page (p. 12) or a unit before a word.
_PENCE = re.compile(r"(?<![0-9A-Za-z_.,£$€])([1-9][0-9]?(?:\.[0-9])?)p(?![A-Za-z0-9_]|\.[A-Za-z])")


def _into_chinese(text: str) -> list[Span]:
    spans = [Span(m.start(), m.end(), m.group(0), "number", f"{m.group(1)}便士") for m in _PENCE.finditer(text)]
    for m in _SIGN_AMOUNT.finditer(text):
        value = decimal_value(m.group(2))
        if value is not None:
            scaled = m.group(3) or m.group(4)
            power = SCALE_WORDS[m.group(3).lower()] if m.group(3) else 6
            figure = in_wan(value.scaleb(power)) if scaled else m.group(2)
            spans.append(Span(m.start(), m.end(), m.group(0), "number", figure + _SIGNS[m.group(1).lower()]))
    for m in _CODE_AMOUNT.finditer(text):
        code, number, scale = m.group(1, 2, 3) if m.group(1) else m.group(6, 4, 5)
        value = decimal_value(number)
        if value is not None and not any(s.start < m.end() and m.start() < s.end for s in spans):
            figure = in_wan(value.scaleb(SCALE_WORDS[scale.lower()])) if scale else number
            spans.append(Span(m.start(), m.end(), m.group(0), "number", figure + _CODES[code.lower()]))
    for m in _WORD_AMOUNT.finditer(text):
        value = decimal_value(m.group(1))
        if m.group(3).lower() == "pounds" and not m.group(2):
            continue  # 5 pounds: money or weight; 5 million pounds is money
        if value is not None and not any(s.start < m.end() and m.start() < s.end for s in spans):
            figure = in_wan(value.scaleb(SCALE_WORDS[m.group(2).lower()])) if m.group(2) else m.group(1)
            spans.append(Span(m.start(), m.end(), m.group(0), "number", figure + _WORDS[m.group(3).lower()]))
    return _amount_ranges(text, sorted((_per_period(text, s) for s in spans), key=lambda s: s.start))


# Two amounts joined by "to" or a dash are one range, the period of the second the range's (a job ad's
# "$145,000 to $175,000 per year" came back 145,000美元到每年175,000美元): 每年145,000美元至175,000美元.
# Not after "from": "rose from $5 to $10" is a change (从5美元涨到10美元), where 上涨5美元至10美元 rose by them.
_AMOUNT_TO = re.compile(r"\s*(?:to|-|–|—)\s*", re.IGNORECASE)
_FROM_BEFORE = re.compile(r"(?<![A-Za-z])from\s+$", re.IGNORECASE)
_BETWEEN_BEFORE = re.compile(r"(?<![A-Za-z])between\s+$", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


def _amount_ranges(text: str, spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for span in spans:
        low = out[-1] if out else None
        joined = low is not None and (_AMOUNT_TO.fullmatch(text, low.end, span.start) is not None or (
            # "between €2 and €3 billion" came back 在2欧元和30亿欧元之间
            _BETWEEN_BEFORE.search(text, 0, low.start) is not None and _AND.fullmatch(text, low.end, span.start)
            is not None and _shared_scale(low, span) is not None))
        if low is not None and low.target and span.target and joined \
                and not _EACH_PREFIX.match(low.target) and not _FROM_BEFORE.search(text, 0, low.start):
            each = _EACH_PREFIX.match(span.target)
            lead = each.group() if each else ""
            out[-1] = Span(low.start, span.end, text[low.start:span.end], "number",
                           f"{lead}{_shared_scale(low, span) or low.target}至{span.target[len(lead):]}")
            continue
        out.append(span)
    return out


# The high end's scale word is the low end's too when the low has none and is the smaller figure
# (an outlook's "guidance of $4.6 to $4.7 billion" came back 4.6美元至47亿美元, four dollars sixty):
# 46亿至47亿美元. "$500 to $1 million" keeps its 500 dollars.
_SCALE_IN = re.compile(rf"({NUMBER})\s?({'|'.join(SCALE_WORDS)})(?![A-Za-z])|({NUMBER})(m)(?![A-Za-z])", re.IGNORECASE)
_FIGURE_IN = re.compile(NUMBER)


def _shared_scale(low: Span, high: Span) -> str | None:
    """The low end's figure in the high end's scale, without its currency; None to keep it as is."""
    scaled = _SCALE_IN.search(high.text)
    figure = _FIGURE_IN.search(low.text)
    if scaled is None or figure is None or _SCALE_IN.search(low.text) or not low.target \
            or not low.target.startswith(figure.group()):
        return None
    low_value, high_value = decimal_value(figure.group()), decimal_value(scaled.group(1) or scaled.group(3))
    if low_value is None or high_value is None or low_value > high_value:
        return None
    return in_wan(low_value.scaleb(SCALE_WORDS.get((scaled.group(2) or "").lower(), 6)))


# An amount for each period after it ("to save $180,000 a year" came back 180,000美元年, the year
# glued to the money): 每年180,000美元.
# ... or with a slash, as a price list writes it ($9/month came back 9美元/month).
# ... and a price for each thing a market counts in (an earnings release's "$1.43 per diluted share"
# came back 1.43美元每股摊薄, "$0.38 per share" 0.38美元每股; a wire's "$82 a barrel"): 每股0.38美元, 每桶82美元.
_PER_PERIOD = re.compile(r"(?:\s+(?:a|an|per|each)\s+|\s?/\s?)(year|yr|month|mo|week|wk|day|hour|hr|diluted share|share"
                         r"|barrel|ounce|gallon|tonne|ton|night|person|ride|trip)(?![A-Za-z])"
                         # ... not a time before or after ("a deficit of £3,200 a year earlier" came back
                         # 之前每年3,200英镑, every year)
                         r"(?!\s+(?:earlier|before|ago|later|on|after|prior)\b)", re.IGNORECASE)
_EACH = {"year": "每年", "yr": "每年", "month": "每月", "mo": "每月", "week": "每周", "wk": "每周", "day": "每天",
         "hour": "每小时", "hr": "每小时", "diluted share": "每股摊薄", "share": "每股", "barrel": "每桶",
         "ounce": "每盎司", "gallon": "每加仑", "tonne": "每吨", "ton": "每吨", "night": "每晚", "person": "每人",
         "ride": "每次", "trip": "每次"}  # a tram's "€3.10 a ride" came back 花钱3.10欧元


# ... and into English, the period before the amount (最低工资标准提高至每月2690元 came back "to every
# month 2690 yuan"): 2,690 yuan a month; 每人 per person (an exam notice's 报名费为每人30元 came back "paid for
# each other 30 yuan").
_CHINESE_EACH = {"每年": "a year", "每月": "a month", "每周": "a week", "每天": "a day", "每日": "a day",
                 "每小时": "an hour", "每股": "a share", "每桶": "a barrel", "每盎司": "an ounce", "每吨": "a tonne",
                 "每加仑": "a gallon", "每晚": "a night", "每人": "per person"}
_EACH_PREFIX = re.compile(f"(?:{'|'.join(sorted(set(_EACH.values()), key=len, reverse=True))})")
_CHINESE_PER_PERIOD = re.compile(f"({'|'.join(_CHINESE_EACH)})$")


# ... and after it, an amount for each person or unit (门票80元/人 came back "80 yuan/OWTO").
_CHINESE_PER_UNIT = re.compile(r"\s?/\s?(人|位|晚|间|件|小时|天)")
_PER_UNIT = {"人": "per person", "位": "per person", "晚": "per night", "间": "per room", "件": "per item",
             "小时": "per hour", "天": "per day"}


def _chinese_per_period(text: str, span: Span) -> Span:
    unit = _CHINESE_PER_UNIT.match(text, span.end)
    if unit is not None and span.target is not None:
        span = Span(span.start, unit.end(), text[span.start:unit.end()], span.kind,
                    f"{span.target} {_PER_UNIT[unit.group(1)]}")
    m = _CHINESE_PER_PERIOD.search(text, 0, span.start)
    if m is None or span.target is None:
        return span
    return Span(m.start(), span.end, text[m.start():span.end], span.kind, f"{span.target} {_CHINESE_EACH[m.group(1)]}")


def _per_period(text: str, span: Span) -> Span:
    m = _PER_PERIOD.match(text, span.end)
    if m is None or span.target is None:
        return span
    return Span(span.start, m.end(), text[span.start:m.end()], span.kind, _EACH[m.group(1).lower()] + span.target)
