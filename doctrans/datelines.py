"""A news item's dateline, written the way the output's news writes it, as one span:

| source                                  | written                                   |
|-----------------------------------------|-------------------------------------------|
| 新华社北京11月20日电                    | BEIJING, November 20 (Xinhua) --          |
| 新华社北京11月25日电（记者张华、李明）  | BEIJING, November 25 (Xinhua, reporters Zhang Hua, Li Ming) -- |
| 新华社酒泉12月2日电（记者张宁）         | JIUQUAN, December 2 (Xinhua, reporter Zhang Ning) -- |
| 中新社上海3月5日电                      | SHANGHAI, March 5 (China News Service) -- |
| 中新网11月26日电                        | November 26 (Chinanews.com) --            |
| 本报多哈1月25日电（记者王磊）           | DOHA, January 25 (reporter Wang Lei) --   |
| 本报北京3月2日电                        | BEIJING, March 2 --                       |
| 本报讯（记者李明）                      | (reporter Li Ming) --                     |
| HOUSTON, March 3 (Reuters) -            | 路透社休斯敦3月3日电                      |
| BEIJING, Nov. 20 (Xinhua) --            | 新华社北京11月20日电                      |
| WASHINGTON, Jan 5 (AP) —                | 美联社华盛顿1月5日电                      |
| PORTLAND, Ore. (AP) —                   | 美联社俄勒冈州波特兰电                    |
| SEATTLE, October 24, 2026 —             | 西雅图2026年10月24日——                    |
| WELLINGTON —                            | 惠灵顿电                                  |
| BEIJING, May 16, 2026 /PRNewswire/ --   | 北京2026年5月16日 /美通社/ --             |

The zh→en model read ``新华社北京11月20日电`` as ``The new community Beijing November 20`` (the
agency, the place and the date were three placeholders, more than the sentence's phrase budget
let the agency have, and ``电``, "dispatched", became a word). The place is the
place-name list's (doctrans.place_names), else its pinyin (a city of no list: 酒泉, Jiuquan); the
agency one of the table's; otherwise each part is left
to the rules and the model as before. The reporters' byline right after a Chinese dateline
(``（记者张华）``) goes with it, their names in pinyin (doctrans.person_names): left in the
sentence it came back ``(see National Bureau of Statistics)``, the reporter gone. A company's press
release opens with its city and the full date, on its own or through a wire service (``SEATTLE,
October 24, 2026 —``: three spans where one will do, and the sentence's report term "third quarter"
lost its place to the phrase budget and came back 第三方, a third party).
"""

from __future__ import annotations

import re

from doctrans.dates import ENGLISH_MONTH, MONTHS, figure_value, month_number
from doctrans.language_id import base_language
from doctrans.person_names import full_name_in_pinyin
from doctrans.place_names import chinese_to_english, english_to_chinese, place_in_pinyin
from doctrans.segment import AP_STATES
from doctrans.verbatim import Span

_INTO_ENGLISH = {"新华社": "Xinhua", "中新社": "China News Service", "中新网": "Chinanews.com",
                 "中国新闻网": "Chinanews.com", "人民网": "People's Daily Online", "新华网": "Xinhuanet",
                 "央视网": "CCTV.com", "本报": ""}  # 本报: the paper's own dispatch, no agency to name
_INTO_CHINESE = {"Reuters": "路透社", "Xinhua": "新华社", "AP": "美联社", "AFP": "法新社", "Bloomberg": "彭博社"}

_D = "0-9０-９"
_ZH_DATELINE = re.compile(rf"^(?P<agency>{'|'.join(_INTO_ENGLISH)})(?P<place>[\u4e00-\u9fff]{{2,6}}?)?"
                          rf"(?P<m>[{_D}]{{1,2}})月(?P<d>[{_D}]{{1,2}})日电")
_BYLINE = re.compile(r"[（(]记者\s?([\u4e00-\u9fff]{2,4}(?:[、，,]\s?[\u4e00-\u9fff]{2,4})*)[）)]")
_OWN_REPORT = re.compile(r"^本报讯\s?" + _BYLINE.pattern)
_WIRES = {"PRNewswire": "美通社", "Business Wire": "美国商业资讯"}
_EN_DATELINE = re.compile(rf"^(?P<place>[A-Z][A-Z .'-]*[A-Z]),\s+(?P<m>{ENGLISH_MONTH})\s+(?P<d>[0-9]{{1,2}})"
                          r"(?:,\s+(?P<y>(?:19|20)[0-9]{2}))?\s*"
                          rf"(?:\((?P<agency>{'|'.join(_INTO_CHINESE)})\)|/(?P<wire>{'|'.join(_WIRES)})/)?\s*(?:--|-|—|–)")


# An American news agency's dateline without a date: the city and its state as AP abbreviates it
# ("PORTLAND, Ore. (AP) —" came back 波特兰奥雷。(AP), the state a word and its stop the sentence's).
_EN_AGENCY_DATELINE = re.compile(rf"^(?P<place>[A-Z][A-Z .'-]*[A-Z]),\s+(?:(?P<state>"
                                 rf"{'|'.join(re.escape(a) for a in AP_STATES)})\s+)?"
                                 rf"\((?P<agency>{'|'.join(_INTO_CHINESE)})\)\s*(?:--|-|—|–)")


# ... and a paper's own, the city and its state alone ("STANFORD, Calif. — Engineers at ..." came back
# 斯坦福，Calif. —): 加利福尼亚州斯坦福电; a city of no list in Latin letters.
_EN_STATE_DATELINE = re.compile(rf"^(?P<place>[A-Z][A-Z .'-]*[A-Z]),\s+(?P<state>"
                                rf"{'|'.join(re.escape(a) for a in AP_STATES)})\s*(?:--|—|–)")


# ... and the city alone before a dash ("WELLINGTON — Prime Minister Sarah Collins won" kept WELLINGTON
# in capitals): a listed place only (not "NOTE —", "UPDATE —").
_EN_CITY_DATELINE = re.compile(r"^(?P<place>[A-Z][A-Z .'-]*[A-Z])\s*(?:--|—|–)(?=\s)")


def _agency_dateline(text: str) -> list[Span]:
    """``PORTLAND, Ore. (AP) —`` as Chinese news writes it: 美联社俄勒冈州波特兰电."""
    m = _EN_AGENCY_DATELINE.match(text)
    if m is None and (city := _EN_CITY_DATELINE.match(text)):
        place = english_to_chinese(city["place"].title()) or english_to_chinese(city["place"])
        return [] if place is None else [Span(0, city.end(), city.group(), "number", f"{place}电")]
    if m is None:
        if (own := _EN_STATE_DATELINE.match(text)) is None:
            return []
        state = english_to_chinese(AP_STATES[own["state"]])
        place = english_to_chinese(own["place"].title()) or english_to_chinese(own["place"]) or own["place"].title()
        return [] if state is None else [Span(0, own.end(), own.group(), "number", f"{state}{place}电")]
    place = english_to_chinese(m["place"])
    state = english_to_chinese(AP_STATES[m["state"]]) if m["state"] else ""
    if place is None or state is None:
        return []
    return [Span(0, m.end(), m.group(), "number", f"{_INTO_CHINESE[m['agency']]}{state}{place}电")]


def find_dateline(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The dateline that starts ``text``, as a ``number`` span (it holds a date: checked like
    one) whose target is the dateline the way ``tgt_lang`` writes it; none when there is none."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if tgt == "en" and src != "en" and (m := _ZH_DATELINE.match(text)):
        # A news site's dispatch names no place (中新网11月26日电: "The new November 26 electronic messages").
        place = (chinese_to_english(m["place"]) or _unlisted_place(m["place"])) if m["place"] else ""
        month, day = figure_value(m["m"]), figure_value(m["d"])
        if place is None or not (1 <= month <= 12 and 1 <= day <= 31):
            return []
        agency, end = _INTO_ENGLISH[m["agency"]], m.end()
        if (byline := _BYLINE.match(text, end)) is not None and (by := _reporters(byline.group(1))):
            agency = f"{agency}, {by}" if agency else by
            end = byline.end()
        by_whom = f" ({agency})" if agency else ""
        written = f"{place.upper() + ', ' if place else ''}{MONTHS[month - 1]} {day}{by_whom} --"
        return [Span(0, end, text[:end], "number", written)]
    # The paper's own report without place or date (本报讯（记者李明） came back "This reports (The
    # reporter Li Ming) reporters get out of ..."): the byline alone.
    if tgt == "en" and src != "en" and (m := _OWN_REPORT.match(text)) and (by := _reporters(m.group(1))):
        return [Span(0, m.end(), m.group(), "number", f"({by}) --")]
    if tgt == "zh" and src != "zh" and (found := _agency_dateline(text)):
        return found
    if tgt == "zh" and src != "zh" and (m := _EN_DATELINE.match(text)):
        place = english_to_chinese(m["place"])
        month, day = month_number(m["m"]), int(m["d"])
        if place is None or not 1 <= day <= 31:
            return []
        if not (m["agency"] or m["wire"] or m["y"]) and text[m.end():m.end() + 1] not in ("", " "):
            return []  # PARIS, June 5-7: a range of days, no dateline
        date = f"{m['y'] + '年' if m['y'] else ''}{month}月{day}日"
        if m["agency"]:
            written = f"{_INTO_CHINESE[m['agency']]}{place}{date}电"
        elif m["wire"]:
            written = f"{place}{date} /{_WIRES[m['wire']]}/ --"
        else:  # a company's own release, dated with its city
            written = f"{place}{date}——"
        return [Span(0, m.end(), m.group(), "number", written)]
    return []


# What stands between an agency and the date that is no place (本报记者12月2日电, 新华社消息).
_NO_PLACE = re.compile(r"记者|讯|消息|报道|综合|特稿|专电")


def _unlisted_place(place: str) -> str | None:
    """The place of a dispatch that no list holds, in pinyin (新华社酒泉12月2日电, a satellite launch:
    "The Xinhua News Agency boost December 2 batt"): between an agency and its date stands the place
    the dispatch was filed from, a city's or a county's name of two to four characters."""
    if not 2 <= len(place) <= 4 or _NO_PLACE.search(place):
        return None
    return place_in_pinyin(place)


def _reporters(names: str) -> str | None:
    """A byline's names (``张华、李明``) as ``reporters Zhang Hua, Li Ming``; None when one is no name
    whose pinyin is known."""
    pinyin = [full_name_in_pinyin(n) for n in re.split(r"[、，,]\s?", names)]
    if not all(pinyin):
        return None
    return f"reporter{'s' if len(pinyin) > 1 else ''} {', '.join(n for n in pinyin if n)}"
