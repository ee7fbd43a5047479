"""A screenplay's scene headings, their markers written as the other language's scripts write them.

A script opens each scene with a heading: where (inside or outside), the place, and when:
``INT. POLICE STATION - NIGHT``, ``第三场　咖啡馆　日　内``. The built-in models never saw one:
``INT.`` came back 有意思 ("interesting"), the night was lost, and ``日　内`` came back "in the
middle". The place is the model's (a phrase like any other); the markers are fixed, so each is a
span whose target is the other language's marker (masked and restored like a glossary term):

| source                          | target | spans                |
|---------------------------------|--------|----------------------|
| INT. POLICE STATION - NIGHT     | zh     | 内景 · 夜            |
| EXT. BEACH – DAY                | zh     | 外景 · 日            |
| INT./EXT. CAR - CONTINUOUS      | zh     | 内景/外景 · 连续     |
| 第三场　咖啡馆　日　内            | en     | DAY · INT.           |
| 咖啡馆　夜　外                   | en     | NIGHT · EXT.         |
| The INT. value is 3 - DAY one   | zh     | (none)               |

Only a whole line in that form: the marker opens it in English (in capitals, the place in
capitals too), and in Chinese the time and the side are the line's last two fields, apart by
full-width or two spaces. English <-> Chinese only.
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language
from doctrans.verbatim import Span

_SIDES_INTO_CHINESE = {"INT.": "内景", "EXT.": "外景", "INT./EXT.": "内景/外景", "EXT./INT.": "外景/内景",
                       "I/E.": "内景/外景"}
_TIMES_INTO_CHINESE = {"DAY": "日", "NIGHT": "夜", "MORNING": "晨", "EVENING": "傍晚", "DAWN": "黎明",
                       "DUSK": "黄昏", "LATER": "稍后", "CONTINUOUS": "连续", "MOMENTS LATER": "片刻后"}
_ENGLISH_TIMES = "|".join(sorted(_TIMES_INTO_CHINESE, key=len, reverse=True))
_ENGLISH_HEADING = re.compile(r"\s*(?P<side>INT\./EXT\.|EXT\./INT\.|INT\.|EXT\.|I/E\.)\s+[A-Z0-9'’&.,/ ()-]+?"
                              rf"\s+[-–—]\s+(?P<time>{_ENGLISH_TIMES})\s*")
_TIMES_INTO_ENGLISH = {"日": "DAY", "夜": "NIGHT", "晨": "MORNING", "黄昏": "DUSK", "傍晚": "EVENING",
                       "清晨": "MORNING"}
_SIDES_INTO_ENGLISH = {"内": "INT.", "外": "EXT.", "内外": "INT./EXT."}
_FIELD_GAP = r"(?:\u3000+|[ \t]{2,}|\s*[/／]\s*)"
_CHINESE_TIMES = "|".join(sorted(_TIMES_INTO_ENGLISH, key=len, reverse=True))
_CHINESE_HEADING = re.compile(rf"\s*\S.*?{_FIELD_GAP}(?P<time>{_CHINESE_TIMES})"
                              rf"{_FIELD_GAP}(?P<side>内外|内|外)(?:景)?\s*")


def find_scene_headings(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """A scene heading's side and time of day as ``phrase`` spans whose target is the other
    language's marker (rules in the module docstring); none for anything else."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if src == "en" and tgt == "zh":
        m = _ENGLISH_HEADING.fullmatch(text)
        if m is None:
            return []
        return [Span(m.start("side"), m.end("side"), m["side"], "phrase", _SIDES_INTO_CHINESE[m["side"]]),
                Span(m.start("time"), m.end("time"), m["time"], "phrase", _TIMES_INTO_CHINESE[m["time"]])]
    if src == "zh" and tgt == "en":
        m = _CHINESE_HEADING.fullmatch(text)
        if m is None:
            return []
        return [Span(m.start("time"), m.end("time"), m["time"], "phrase", _TIMES_INTO_ENGLISH[m["time"]]),
                Span(m.start("side"), m.end(), text[m.start("side"):len(text.rstrip())], "phrase",
                     _SIDES_INTO_ENGLISH[m["side"]])]
    return []
