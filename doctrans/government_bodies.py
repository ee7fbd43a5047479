"""A Chinese government body, and the title of who heads it, written in English.

Chinese news names who speaks by office (``杭州市交通局局长王建国表示``), and the zh->en model, which
learned from subtitles and software documentation, never learned the offices: ``市交通局局长`` came
back "MA P.O.". A body of doctrans/data/government_bodies.tsv (its area: 交通 Transport, 教育
Education...) with its kind (局 a bureau, 厅 a province's department, 委员会/委 a commission), the
place and level before it (``杭州市``, ``浙江省``: a place of doctrans.place_names) and the title
after it (局长 director, 副局长 deputy director) is one span whose target is its English name, into
English only:

| source                       | written                                                     |
|------------------------------|-------------------------------------------------------------|
| 杭州市交通局局长王建国表示    | director of the Hangzhou Municipal Transport Bureau         |
| 市教育局发布通知              | the Municipal Education Bureau                              |
| 浙江省教育厅副厅长            | deputy director of the Zhejiang Provincial Department of Education |
| 市卫健委                      | the Municipal Health Commission                             |
| 据县公安局通报                | the County Public Security Bureau                           |
| 国家发改委                    | the National Development and Reform Commission              |
| 结局                          | (none)                                                      |

A body's short name (卫健委, 发改委, 住建局) is read as its full one. 局 alone, or after an area the
list does not have (结局, an ending; 邮局, a post office), is no body.
"""

from __future__ import annotations

import re
from functools import cache

from doctrans.data_lists import data_lines
from doctrans.language_id import base_language
from doctrans.place_names import chinese_to_english, place_before
from doctrans.verbatim import Span

# The kind of body after the area: its English form ({} the area), and what may not follow it
# (交通局势 is the traffic situation, 局部 a part, 委托 to entrust).
_KINDS = {"局": "{} Bureau", "厅": "Department of {}", "委员会": "{} Commission", "委": "{} Commission"}
_NOT_AFTER = {"局": "势部限", "厅": "", "委员会": "", "委": "托屈婉身派员"}
# The level before the area, after a place or alone.
_LEVELS = {"国家": "National", "省": "Provincial", "自治区": "Autonomous Regional", "市": "Municipal",
           "区": "District", "县": "County"}
# Who heads it, and who deputises.
_TITLES = {"局长": "director", "副局长": "deputy director", "厅长": "director", "副厅长": "deputy director",
           "主任": "director", "副主任": "deputy director", "党组书记": "Party secretary"}


@cache
def _areas() -> dict[str, str]:
    """Chinese area (full and short forms) -> English area."""
    out: dict[str, str] = {}
    for line in data_lines("government_bodies.tsv"):
        english, chinese = line.split("\t")
        for form in chinese.split("|"):
            out[form] = english
    return out


@cache
def _pattern() -> re.Pattern[str]:
    areas = "|".join(sorted(map(re.escape, _areas()), key=len, reverse=True))
    levels = "|".join(sorted(_LEVELS, key=len, reverse=True))
    kinds = "|".join(f"{k}(?![{_NOT_AFTER[k]}])" if _NOT_AFTER[k] else k for k in sorted(_KINDS, key=len, reverse=True))
    titles = "|".join(sorted(_TITLES, key=len, reverse=True))
    return re.compile(rf"(?P<level>{levels})?(?P<area>{areas})(?P<kind>{kinds})(?P<title>{titles})?")


def find_government_bodies(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The government bodies of a Chinese ``text`` (with their place, level and head's title) as
    ``phrase`` spans whose target is the English name; none in other directions."""
    if base_language(src_lang) != "zh" or base_language(tgt_lang) != "en":
        return []
    spans = []
    for m in _pattern().finditer(text):
        area, kind = _areas()[m.group("area")], m.group("kind")
        start, words = m.start(), []
        if m.group("level"):
            # The place before its level when the list knows it (杭州 of 杭州市交通局).
            place = place_before(text, start)
            if place is not None:
                words.append(chinese_to_english(place) or place)
                start -= len(place)
            words.append(_LEVELS[m.group("level")])
        body = " ".join([*words, _KINDS[kind].format(area)])
        end = m.end("kind")
        if m.group("title"):
            written = f"{_TITLES[m.group('title')]} of the {body}"
            end = m.end("title")
        else:
            written = f"the {body}"
        spans.append(Span(start, end, text[start:end], "phrase", written))
    return spans
