"""Chinese figures with a magnitude character (``1,250万``, ``949746亿``), written for the target language.

Chinese counts large numbers in ten-thousands (万) and hundred-millions (亿): ``1,250万元`` is
12.5 million yuan. doctrans.verbatim masks the digits of a number and leaves the unit to the model,
which is right for ``2024年`` or ``10kg`` but not here: the model sees ``⦅1⦆万元``, can only copy
the placeholder, and the figure comes out as ``1,250 yuan`` -- ten thousand times too small, the
silently changed number users must never get. So when a Chinese text goes into a language that does
not count in 万 (anything but Chinese and Japanese), each such figure becomes one span whose target
is the same value written the target's way, exactly (decimal arithmetic, no rounding), and it is
masked and restored like a glossary term (doctrans.engine.protect) and checked like one after
translation (doctrans.report):

| source        | English              | other targets          |
|---------------|----------------------|------------------------|
| 3.5万         | 35,000               | 35000                  |
| 1,250万       | 12.5 million         | 12500000               |
| 949746亿      | 94.9746 trillion     | 94974600000000         |
| 2万亿         | 2 trillion           | 2000000000000          |
| 14亿          | 1.4 billion          | 1400000000             |
| １２万         | 120,000              | 120000                 |

Only digits (ASCII or full-width, with ``,`` thousands separators and a decimal point) before the
character count; Chinese numerals (``三万``) are words the model translates. ``万一`` ("in case")
never follows a digit, so it is not a figure.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

from doctrans.verbatim import Span

# The magnitude characters and compounds, longest first (万亿 before 万), simplified and traditional.
_POWERS = {"万亿": 12, "萬億": 12, "千亿": 11, "千億": 11, "百亿": 10, "百億": 10, "十亿": 9, "十億": 9,
           "亿": 8, "億": 8, "千万": 7, "千萬": 7, "百万": 6, "百萬": 6, "十万": 5, "十萬": 5, "万": 4, "萬": 4}
_FIGURE = re.compile(r"(?<![0-9０-９.,，．])([0-9０-９]+(?:[,，][0-9０-９]{3})*(?:[.．][0-9０-９]+)?)\s?("
                     + "|".join(sorted(_POWERS, key=len, reverse=True)) + ")")
# Targets that count in 万 themselves: the figure stays as written (and verbatim masks its digits).
_COUNTS_IN_WAN = ("zh", "ja")
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


def find_magnitudes(text: str, tgt_lang: str | None) -> list[Span]:
    """The figures with a magnitude character in ``text`` as ``number`` spans whose target is the
    value written for ``tgt_lang`` (none when the target counts in 万 too, or is unknown)."""
    if not tgt_lang or tgt_lang.split("-")[0].lower() in _COUNTS_IN_WAN:
        return []
    spans = []
    for m in _FIGURE.finditer(text):
        digits = unicodedata.normalize("NFKC", m.group(1)).replace(",", "")
        try:
            value = Decimal(digits).scaleb(_POWERS[m.group(2)])
        except InvalidOperation:
            continue
        target = english(value) if tgt_lang.split("-")[0].lower() == "en" else _plain(value)
        spans.append(Span(m.start(), m.end(), m.group(0), "number", target))
    return spans


def with_magnitudes(text: str, terms: list[Span], tgt_lang: str | None) -> list[Span]:
    """Glossary ``terms`` plus the magnitude figures of ``text`` that no term overlaps, in text order:
    a user's glossary entry wins over the automatic conversion."""
    figures = [f for f in find_magnitudes(text, tgt_lang)
               if not any(t.start < f.end and f.start < t.end for t in terms)]
    if not figures:
        return terms
    return sorted([*terms, *figures], key=lambda s: s.start)
