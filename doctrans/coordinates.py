"""Latitude and longitude, written the target's way: ``北纬29.59度`` <-> ``29.59°N``.

News of an earthquake, a storm or a launch gives its place as coordinates. The verbatim rules
kept the digits and left 北纬 / 东经 to the model, which lost them: ``（北纬29.59度，东经102.08度）``
came back ``Grease 29.59 degrees, east 102.08 degrees``. A coordinate is one figure, its
hemisphere included, so each becomes one span (masked, restored and checked like a glossary term):

| source              | into English   | into Chinese     |
|---------------------|----------------|------------------|
| 北纬29.59度         | 29.59°N        | (as written)     |
| 东经102.08度        | 102.08°E       | (as written)     |
| 南纬33度52分        | 33°52′S        | (as written)     |
| 29.59°N             | (as written)   | 北纬29.59度      |
| 33°52′S             | (as written)   | 南纬33度52分     |
| 151.2° W            | (as written)   | 西经151.2度      |

Only the figure with its hemisphere: a bare ``29.59°`` (an angle, a temperature) is not a
coordinate, and ``N`` must not run on into a word (``30°North`` is left alone, as is ``5°Not``).
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language
from doctrans.magnitudes import FIGURE_START, NUMBER, ascii_digits
from doctrans.verbatim import Span

_HEMISPHERES = {"北纬": "N", "南纬": "S", "东经": "E", "西经": "W"}
_CHINESE_OF = {v: k for k, v in _HEMISPHERES.items()}
_CHINESE = re.compile(rf"({'|'.join(_HEMISPHERES)})\s?{FIGURE_START}({NUMBER})\s?度(?:\s?([0-9]{{1,2}})\s?分)?")
_ENGLISH = re.compile(rf"(?<![0-9A-Za-z_.,-])({NUMBER})\s?°\s?(?:([0-9]{{1,2}})\s?[′']\s?)?([NSEW])(?![A-Za-z0-9_])")


def find_coordinates(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """Latitudes and longitudes as ``number`` spans written the target's way."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    spans = []
    if src == "zh" and tgt == "en":
        for m in _CHINESE.finditer(text):
            minutes = f"{m.group(3)}′" if m.group(3) else ""
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"{ascii_digits(m.group(2))}°{minutes}{_HEMISPHERES[m.group(1)]}"))
    elif src == "en" and tgt == "zh":
        for m in _ENGLISH.finditer(text):
            minutes = f"{m.group(2)}分" if m.group(2) else ""
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"{_CHINESE_OF[m.group(3)]}{m.group(1)}度{minutes}"))
    return spans
