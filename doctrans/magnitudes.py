"""Figures with a magnitude word (``1,250万``, ``12.5 million``), written the target language's way.

Chinese counts large numbers in ten-thousands (万) and hundred-millions (亿); English in thousands
(million, billion). ``1,250万元`` is 12.5 million yuan. doctrans.verbatim masks the digits of a
number and leaves the word after it to the model, which is right for ``2024年`` or ``10 kg`` but not
here: the model sees ``⦅1⦆万元``, can only copy the placeholder, and the figure comes out as ``1,250
yuan`` -- ten thousand times too small; the other way the shipped en→zh model wrote ``12.5 million``
as ``12.5 000万万万``. A silently changed figure is what users must never get. So each such figure
becomes one span whose target is the same value written the target's way, exactly (decimal
arithmetic, no rounding), masked and restored like a glossary term (doctrans.engine.protect) and
checked like one after translation (doctrans.report):

| source        | into English         | into Chinese   | into another language |
|---------------|----------------------|----------------|-----------------------|
| 3.5万         | 35,000               | (as written)   | 35000                 |
| 1,250万       | 12.5 million         | (as written)   | 12500000              |
| 949746亿      | 94.9746 trillion     | (as written)   | 94974600000000        |
| 2万亿         | 2 trillion           | (as written)   | 2000000000000         |
| １２万         | 120,000              | (as written)   | 120000                |
| 12.5 million  | (as written)         | 1250万         | (as written)          |
| 1.4 billion   | (as written)         | 14亿           | (as written)          |
| $3.2bn        | (as written)         | $32亿          | (as written)          |
| 2 trillion    | (as written)         | 2万亿          | (as written)          |
| 0.5 million   | (as written)         | 50万           | (as written)          |

Percentages are written the target's way too (the en→zh model wrote ``2.5 percent`` as ``2.5分``):
``12.5 percent`` / ``12.5 per cent`` / ``12.5pc`` -> ``12.5%`` and ``0.5 percentage points`` -> ``0.5个百分点``
into Chinese (``0.5ポイント`` into Japanese); ``0.5个百分点`` -> ``0.5 percentage points`` and
``百分之12.5`` -> ``12.5%`` out of Chinese.

Only digits (ASCII or full-width, with ``,`` thousands separators and a decimal point) count as the
figure; numerals written as words (``三万``, ``two million``) are left to the model. ``万一`` ("in
case") never follows a digit. ``m`` means million only after a currency sign (``$5m``; ``5m`` is five
metres). Japanese counts in 万 too: Chinese figures stay as written into Japanese, and English ones
become 万/億/兆.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

from doctrans.chinese_numerals import read_numeral
from doctrans.language_id import base_language
from doctrans.verbatim import Span

# The magnitude characters and compounds, longest first (万亿 before 万), simplified and traditional.
POWERS = {"万亿": 12, "萬億": 12, "千亿": 11, "千億": 11, "百亿": 10, "百億": 10, "十亿": 9, "十億": 9,
           "亿": 8, "億": 8, "千万": 7, "千萬": 7, "百万": 6, "百萬": 6, "十万": 5, "十萬": 5, "万": 4, "萬": 4}
NUMBER = r"[0-9０-９]+(?:[,，][0-9０-９]{3})*(?:[.．][0-9０-９]+)?"
# Not inside a longer figure: after a digit or a decimal point, or a digit's thousands separator
# (``1，250万``; a comma after text is a clause's: ``增长5%，30万人``).
FIGURE_START = r"(?<![0-9０-９.．])(?<![0-9０-９][,，])"
_WAN_FIGURE = re.compile(rf"{FIGURE_START}({NUMBER})\s?("
                         + "|".join(sorted(POWERS, key=len, reverse=True)) + ")")
SCALE_WORDS = {"million": 6, "millions": 6, "mn": 6, "billion": 9, "billions": 9, "bn": 9,
                "trillion": 12, "trillions": 12, "tn": 12}
_CURRENCY = "$€£¥₹"
_SCALE_FIGURE = re.compile(rf"(?<![0-9A-Za-z_.,])([{_CURRENCY}]?)({NUMBER})(?:\s?({'|'.join(SCALE_WORDS)})"
                           rf"|(?<=[0-9])(m))(?![0-9A-Za-z_])", re.IGNORECASE)
# ... and the British press's "pc" on the figure ("Inflation rose to 4.6pc" kept the 4.6 alone).
_PERCENT_WORDS = re.compile(rf"(?<![0-9A-Za-z_.,])({NUMBER})(?:[ \t-]?(percentage points?|per ?cent|pct)|(?-i:pc))"
                            r"(?![A-Za-z])", re.IGNORECASE)
_CHINESE_POINTS = re.compile(rf"{FIGURE_START}({NUMBER})\s?个百分点")
_CHINESE_PERCENT = re.compile(rf"百分之\s?({NUMBER})(?![0-9０-９.．])")
# In numerals: 百分之三点五 (3.5%), 百分之五十 (50%), 百分之零点五 (0.5%), 百分之一百 (100%). The
# zh->en model dropped 百分之三点五 from its sentence altogether.
_NUMERAL_PERCENT = re.compile(r"百分之([零〇一二三四五六七八九十百两]+)(?:点([零〇一二三四五六七八九]+))?")
_POINTS = {"zh": "个百分点", "ja": "ポイント"}
# Targets that count in 万 themselves, and their characters for 10^4, 10^8 and 10^12.
_WAN_UNITS = {"zh": ("万", "亿", "万亿"), "ja": ("万", "億", "兆")}
_ENGLISH_SCALES = ((12, "trillion"), (9, "billion"), (6, "million"))



def _plain(value: Decimal) -> str:
    """``value`` without exponent or trailing zeros: 12500000, 12.5."""
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _grouped(value: Decimal) -> str:
    """``value`` with English thousands separators: 12,345.6."""
    whole, _, frac = _plain(value).partition(".")
    whole = f"{int(whole):,}"
    return f"{whole}.{frac}" if frac else whole


def english(value: Decimal) -> str:
    """A figure as an English text writes it: 35,000 / 12.5 million / 94.9746 trillion."""
    for power, word in _ENGLISH_SCALES:
        if value >= Decimal(10) ** power:
            return f"{_grouped(value.scaleb(-power))} {word}"
    return _grouped(value)


def in_wan(value: Decimal, lang: str = "zh") -> str:
    """A figure as a Chinese (or Japanese) text writes it: 1250万 / 14亿 / 2万亿."""
    wan, yi, zhao = _WAN_UNITS[lang]
    for power, unit in ((12, zhao), (8, yi), (4, wan)):
        if value >= Decimal(10) ** power:
            return f"{_plain(value.scaleb(-power))}{unit}"
    return _plain(value)


def decimal_value(digits: str) -> Decimal | None:
    try:
        return Decimal(unicodedata.normalize("NFKC", digits).replace(",", ""))
    except InvalidOperation:
        return None


def find_magnitudes(text: str, tgt_lang: str | None) -> list[Span]:
    """The figures of ``text`` whose magnitude word the target language does not use, as ``number``
    spans whose target is the value written for ``tgt_lang`` (none when the target is unknown)."""
    lang = base_language(tgt_lang)
    if not lang:
        return []
    spans = _percentages(text, lang) + _borrowed_scales(text, lang)
    if lang in _WAN_UNITS:
        for m in _SCALE_FIGURE.finditer(text):
            sign, digits, word = m.group(1), m.group(2), (m.group(3) or "")
            if m.group(4) and not sign:  # 5m: metres, not millions
                continue
            value = decimal_value(digits)
            if value is not None:
                power = SCALE_WORDS[word.lower()] if word else 6
                spans.append(Span(m.start(), m.end(), m.group(0), "number", sign + in_wan(value.scaleb(power), lang)))
        return _apart(spans)
    for m in _WAN_FIGURE.finditer(text):
        value = decimal_value(m.group(1))
        if value is not None:
            value = value.scaleb(POWERS[m.group(2)])
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              english(value) if lang == "en" else _plain(value)))
    return _apart(spans)


# The low end of a range borrows the high end's magnitude word: "4.6 to 4.7 million tonnes" came back
# 4.6到470万吨, "between 2 and 3 million" 2和300万, "1.2-1.5 billion" 1.2-15亿, and 约2至3万人 "about 2
# to 30,000" -- the low figure is its own span, in the scale (460万, 20,000), and the high one is what
# it always is. Only when the low figure is the smaller: "500 to 1 million" is five hundred. "and"
# only after "between" ("aged 2 and 3 million years" are two things).
_RANGE_JOIN = r"(?:\s*(?:to|-|–|—|or)\s*|\s+and\s+)"
_ENGLISH_RANGE = re.compile(rf"(?<![0-9A-Za-z_.,{_CURRENCY}])({NUMBER})(?={_RANGE_JOIN}({NUMBER})\s?"
                            rf"({'|'.join(SCALE_WORDS)})(?![0-9A-Za-z_]))", re.IGNORECASE)
_CHINESE_RANGE = re.compile(rf"{FIGURE_START}({NUMBER})(?=\s?[至到\-－～~—–]\s?({NUMBER})\s?("
                            + "|".join(sorted(POWERS, key=len, reverse=True)) + "))")
_BETWEEN = re.compile(r"(?<![A-Za-z])between\s+$", re.IGNORECASE)
_AND_NEXT = re.compile(r"\s+and\s", re.IGNORECASE)


def _borrowed_scales(text: str, lang: str) -> list[Span]:
    """The low figures of ranges whose high figure has a magnitude word, written in its scale."""
    spans = []
    into_wan = lang in _WAN_UNITS
    for m in (_ENGLISH_RANGE if into_wan else _CHINESE_RANGE).finditer(text):
        low, high = decimal_value(m.group(1)), decimal_value(m.group(2))
        if low is None or high is None or low > high:
            continue
        if into_wan and _AND_NEXT.match(text, m.end()) and not _BETWEEN.search(text, 0, m.start()):
            continue
        if into_wan:
            target = in_wan(low.scaleb(SCALE_WORDS[m.group(3).lower()]), lang)
        else:
            value = low.scaleb(POWERS[m.group(3)])
            target = english(value) if lang == "en" else _plain(value)
        spans.append(Span(m.start(), m.end(), m.group(0), "number", target))
    return spans


def _apart(spans: list[Span]) -> list[Span]:
    """``spans`` in text order without any that overlaps an earlier one."""
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: s.start):
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept


def _percentages(text: str, lang: str) -> list[Span]:
    """Percentages and percentage points written with words the target does not use."""
    spans = []
    if lang in _WAN_UNITS:
        for m in _PERCENT_WORDS.finditer(text):
            digits, points = m.group(1), (m.group(2) or "").lower().startswith("percentage")
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              digits + (_POINTS[lang] if points else "%")))
        return spans
    if lang == "en":
        for m in _CHINESE_POINTS.finditer(text):
            value = decimal_value(m.group(1))
            unit = "percentage point" if value == 1 else "percentage points"
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{ascii_digits(m.group(1))} {unit}"))
    for m in _CHINESE_PERCENT.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(0), "number", ascii_digits(m.group(1)) + "%"))
    if lang == "en":
        for m in _NUMERAL_PERCENT.finditer(text):
            whole = read_numeral(m.group(1))
            fraction = read_numeral(m.group(2)) if m.group(2) else None
            if whole is None or (m.group(2) and fraction is None):
                continue
            figure = f"{whole}.{m.group(2).translate(_DIGIT_OF)}" if m.group(2) else str(whole)
            spans.append(Span(m.start(), m.end(), m.group(0), "number", figure + "%"))
    return spans


_DIGIT_OF = str.maketrans("零〇一二三四五六七八九", "00123456789")


def grouped_digits(figure: str) -> str:
    """A figure of four digits or more written without separators, as English writes it (a
    statistics release's 52316元 is 52,316 yuan); any other as it is (1,250, 0.38, 007)."""
    if re.fullmatch(r"[1-9][0-9]{3,}(?:\.[0-9]+)?", figure) is None:
        return figure
    return _grouped(Decimal(figure))


def ascii_digits(digits: str) -> str:
    """A figure as matched by ``NUMBER`` in ASCII: full-width digits, ``，`` and ``．`` folded."""
    return unicodedata.normalize("NFKC", digits)
