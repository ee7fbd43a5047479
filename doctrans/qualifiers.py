"""Words that qualify a figure (``约``, ``不少于``, ``more than``, ``up to``) go with it.

A figure's qualifier changes what it says as much as a digit does: the models masked and kept the
figure but lost the word before it (``确保磁盘剩余空间不少于500MB`` came back ``ensures the rest of
500MB``, ``约1.2千克`` as ``1.2 kg``). So a qualifier right before a figure -- a verbatim number
(doctrans.verbatim) or a figure the direction writes its own way (a measure, an amount, a
magnitude: doctrans.direction_terms) -- makes one span with it whose target is the qualifier in
the output language before the figure's own target; ``左右``/``以上``/``以下`` after a Chinese
figure likewise:

| source                   | target | written                |
|--------------------------|--------|------------------------|
| 重量约1.2千克             | en     | about 1.2 kg           |
| 空间不少于500MB           | en     | at least 500MB         |
| 空间不少于 500 MB         | en     | at least 500 MB        |
| 超过20万人                | en     | more than 200,000      |
| 温度30℃左右               | en     | about 30 °C            |
| 内存500MB以上             | en     | 500MB or more          |
| 1000元以下                | en     | 1,000 yuan or less     |
| 约300余家企业             | en     | more than 300          |
| 50多名代表                | en     | more than 50           |
| 未满18岁者禁止入内        | en     | under 18               |
| 人口300多万人             | en     | more than 3 million    |
| 新增就业22万人以上        | en     | 220,000 or more people |
| 3000名以上员工            | en     | 3000 or more           |
| more than 200,000 homes  | zh     | 超过200,000所房屋      |
| at least 2 GB of space   | zh     | 至少2 GB               |
| up to 10 hours           | zh     | 最多10小时             |
| as many as 40,000        | zh     | 多达40,000             |
| every 15 minutes         | zh     | 每15分钟               |
| within 30 days           | zh     | 30天内                 |
| nearly 30% of them       | zh     | 近30%                  |
| about 5 km away          | zh     | 约5公里                |
| version 2.0 or later     | zh     | 2.0及更高版本          |
| 4 GB or more of RAM      | zh     | 4 GB及以上             |
| 拦截端口8080              | en     | port 8080              |
| 运行在 3000 端口          | en     | port 3000              |
| 适用于 2.0 及以上版本     | en     | 2.0 or later           |
| 温度零下20℃～60℃          | en     | -20 °C to 60 °C        |
| 全长10至20公里            | en     | 10 to 20 km            |
| growth of 8% to 10%      | zh     | 8%至10%                |
| aged 18–25               | zh     | 18至25岁               |
| 34% of them, up from 29% in 2022 | zh | 高于2022年的29%  |
| 2.8%, down from 3.0% in January | zh | 低于1月的3.0%     |
| fell to 3.1 cubic metres, from 3.6 a year earlier | zh | 从一年前的3.6立方米降至3.1立方米 |

A qualifier before a count below ten in Chinese numerals goes with it and what it counts
(:func:`find_qualified_counts`: ``睡了不到六个小时`` came back "sleeping last six hours" -> ``less
than six hours``; ``将近两年`` ``nearly two years``).
About and the verb of the time something takes go with a duration into English (``整个过程大约需要
10 分钟`` -> ``takes about 10 minutes``: the about was lost). A change from one figure to another is
one span: into Chinese after a verb of change (``cut the average time from 90 days to 60 days`` ->
``从90天降至60天``, the direction the figures'), into English where 从A meets the level a change
went to (``失业率从4.1%降至3.9%`` -> ``fell from 4.1% to 3.9%``).
A port's number goes with the word too (``端口8080`` <-> ``port 8080``: the model wrote ``trunks``;
``3000 端口`` came back ``in 3000``).
Two figures joined by ``～``/``至``/``到`` in a Chinese source are one range into English
(:func:`with_ranges`: ``增长5%～10%`` -> ``up 5% to 10%``, ``1000～2000元`` -> ``1,000 to 2,000 yuan``,
measures too, ``-20℃～60℃`` -> ``-20 °C to 60 °C``; the model dropped the ～); into Chinese two plain
figures or two percentages joined by "to" or a dash are ``A至B`` (``8% to 10%``, not ``from 5% to
10%`` nor ``grew 3% to 5%``, a start or a change). A qualifier counts
only right before the figure (a space between allowed in English), English <-> Chinese; a
numbered part is no figure (``under Section 4``, ``约第3章`` are left alone).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from decimal import Decimal

from doctrans.chinese_numerals import ENGLISH_NUMBERS, read_numeral
from doctrans.dates import MONTHS
from doctrans.language_id import base_language
from doctrans.magnitudes import decimal_value, english, grouped_digits
from doctrans.verbatim import Span

_CHINESE_BEFORE = {"约": "about", "约为": "about", "大约": "about", "大约为": "about", "大概": "about",
                   "约有": "about", "大约有": "about",  # 约有四分之一的员工 had come back "one-quarter employees"
                   "近": "nearly", "将近": "nearly",
                   "接近": "nearly", "超过": "more than", "逾": "more than", "多于": "more than",
                   "高于": "more than", "不少于": "at least", "不低于": "at least", "至少": "at least",
                   "最少": "at least", "不超过": "no more than", "不高于": "no more than", "最多": "at most",
                   "至多": "at most", "少于": "less than", "低于": "less than", "不足": "less than",
                   "不到": "less than", "不下": "at least", "未满": "under", "不满": "under", "长达": "up to",
                   "最大": "up to",  # 单个文件最大 50 MB came back "the individual file 50 MB is supported"
                   "突破": "more than",  # 全球用户数突破10亿 came back "1 billion of the full-ball user"
                   "端口": "port"}
_CHINESE_AFTER = {"左右": ("about ", ""), "以上": ("", " or more"), "以下": ("", " or less"), "端口": ("port ", ""),
                  "及以上": ("", " or more"), "及以下": ("", " or less")}
# A word after a figure, a space between allowed (3000 端口, 500MB 以上); with 版本 after it a
# version's "or later", 版本 in the span (2.0 及以上版本 came back "2.0 and resolves", then with 版本
# left to the model "Python 3.9 or later version").
_CHINESE_AFTER_WORD = re.compile(r" ?(" + "|".join(sorted(_CHINESE_AFTER, key=len, reverse=True))
                                 + ")(?P<version>(?<=以上|以下)版本)?")
# ... and with a counter between (城镇新增就业22万人以上 came back "220,000 people above", 3000名以上员工
# "more 3000 employees"): the counter in the span, 人 as "people", another before its noun dropped.
_COUNTED_AFTER = re.compile(r"(人|名|家|个|所|辆|台|项|户|套|座|件|位|只|头|条|篇|部)(及以上|及以下|以上|以下|左右)")
_COUNTED_TAILS = {"以上": " or more", "及以上": " or more", "以下": " or fewer", "及以下": " or fewer"}
_PRICE_FROM = re.compile(r"起(?![来身床飞步草点])")
_MONEY = re.compile(r"yuan|[$€£¥]|\b(?:USD|RMB|HK\$)")
_SINCE_BEFORE = re.compile(r"[自从于]\s?$")
# 余/多 after a plain figure, before what it counts (300余家企业, 50多名代表, 10多年) or a magnitude
# (300多万: more than 3 million; it came back "300 more"): more than it.
_MORE_THAN_AFTER = re.compile(r"[余多](万|亿)?(?=[\u4e00-\u9fff])(?![千百])")
# A qualifier before a count below ten in Chinese numerals and what it counts: such a numeral is
# the model's word, not a span, and the qualifier went with nothing (睡了不到六个小时 came back
# "sleeping last six hours"): the three are one span, into English.
_SMALL_COUNTED = {"个小时": "hour", "小时": "hour", "天": "day", "年": "year", "个月": "month", "分钟": "minute",
                  "周": "week", "个星期": "week", "星期": "week", "次": "time", "遍": "time"}
# 近 and 约 alone only where no word holds them (最近一次 is "the last time", 预约一次 "book once").
_WORD_BEFORE = {"近": "最附靠临就远亲贴逼将接", "约": "预节合条公制邀相契签违履赴特婚大"}
_QUALIFIED_SMALL = re.compile("(" + "|".join(f"(?<![{_WORD_BEFORE[q]}]){q}" if q in _WORD_BEFORE else q
                                             for q in sorted(_CHINESE_BEFORE, key=len, reverse=True) if q != "端口")
                              + ")([一二两三四五六七八九十])(" + "|".join(sorted(_SMALL_COUNTED, key=len, reverse=True))
                              + ")")


def find_qualified_counts(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``不到六个小时`` -> ``less than six hours``, ``将近两年`` -> ``nearly two years``: a qualifier,
    a Chinese numeral below ten and what it counts, Chinese into English."""
    if base_language(src_lang) != "zh" or base_language(tgt_lang) != "en":
        return []
    spans = []
    for m in _QUALIFIED_SMALL.finditer(text):
        n = read_numeral(m.group(2)) or 0
        counted = _SMALL_COUNTED[m.group(3)] + ("s" if n > 1 else "")
        spans.append(Span(m.start(), m.end(), m.group(), "number",
                          f"{_CHINESE_BEFORE[m.group(1)]} {ENGLISH_NUMBERS[n]} {counted}"))
    return spans


_LATER = {"以上": " or later", "及以上": " or later", "以下": " or earlier", "及以下": " or earlier"}
_ENGLISH_BEFORE = {"about": "约", "around": "约", "roughly": "约", "some": "约", "nearly": "近", "almost": "近",
                   "more than": "超过", "over": "超过", "at least": "至少", "no more than": "不超过",
                   "no less than": "不少于", "not more than": "不超过", "not less than": "不少于",
                   "at most": "最多", "up to": "最多", "less than": "不到", "fewer than": "不到", "under": "不到",
                   # "As many as 40,000 fans attended" left its emphasis to the model.
                   "as many as": "多达", "as much as": "多达", "as few as": "仅", "as little as": "仅",
                   # A news item's "a ferry will run every 15 minutes" came back 运行每个15分钟 (each one).
                   "every": "每",
                   # A report's "we kept our running costs below 8% of spending" lost its below.
                   "below": "低于", "above": "高于",
                   "port": "端口"}
# After an English figure (4 GB or more, version 2.0 or later).
_ENGLISH_AFTER_WORDS = {"more": "及以上", "above": "及以上", "higher": "及以上", "greater": "及以上",
                        "later": "及更高版本", "newer": "及更高版本", "less": "及以下", "fewer": "及以下",
                        "below": "及以下", "lower": "及以下", "earlier": "及更早版本"}
_ENGLISH_AFTER = re.compile(r" or (" + "|".join(_ENGLISH_AFTER_WORDS) + r")(?![A-Za-z])", re.IGNORECASE)
# About, then the verb of a time it takes, before a duration (整个过程大约需要 10 分钟 came back "The
# entire process needs to be 10 minutes", the about gone): the three are one span, "takes about".
_ABOUT_TAKES = re.compile(r"(?:大约|大概|约)(?:需要|需|要|花|耗时|用时) ?$")
_DURATION = re.compile(r"\b(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)$")
# A space may stand between the word and the figure (``不少于 500 MB``: Chinese technical writing
# sets spaces around Latin text and digits).
_CHINESE_WORD = re.compile("(" + "|".join(sorted(_CHINESE_BEFORE, key=len, reverse=True)) + ") ?$")
_ENGLISH_WORD = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(_ENGLISH_BEFORE, key=len, reverse=True))
                           + r") ?$", re.IGNORECASE)


# What a figure starts with: not a numbered part (under Section 4 is no "less than 第4节").
_STARTS_A_FIGURE = re.compile(r"[-−+$€£¥￥0-9０-９≤≥±]|US\$|HK\$|零下|人民币|增长|下降|同比|环比"
                              # a sum with its currency's code ("about EUR 1,100" came back 省略, omitted)
                              r"|(?:USD|EUR|GBP|JPY|CNY|RMB|CHF|CAD|AUD|HKD|SGD|INR|KRW)\s?[0-9]"
                              r"|[二三四五六七八九十]分之|[一二三四五六七八九两]成"  # fractions: 近三分之一, 约四成
                              # ... and English ones ("About one in three adults" had lost its "about";
                              # one in three, two-thirds: a number word, below)
                              r"|(?i:half(?: of)?\b|a (?:third|quarter|fifth|tenth)\b)"
                              # A figure in words: a Chinese numeral's measure (不到十平方米 had come
                              # back "a 10 m² basement"), an English duration ("no more than four hours").
                              r"|[一二两三四五六七八九十百千]"
                              r"|(?i:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
                              r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
                              r"|eighty|ninety|a hundred)\b)")
_QUESTION = re.compile(r"(?i)\b(?:what|how)\s+$")
# What "every" goes with: a count of a unit (every 15 minutes, every 3 months, every 100 km).
_EVERY_FIGURE = re.compile(r"[0-9][0-9,.]*\s?(?!(?:st|nd|rd|th)\b)[A-Za-z]+")


# "within" before a duration is a limit Chinese writes after it: 30天内.
_WITHIN = re.compile(r"(?<![A-Za-z])(?i:within) ?$")
_CHINESE_DURATION_END = re.compile(r"(?:秒|分钟|小时|天|日|周|星期|个月|年)$")


def qualified_in_english(text: str, start: int) -> bool:
    """Whether an English qualifier of quantity ends right before ``start`` ("no more than", "at
    least", "about"; not "port")."""
    before = _ENGLISH_WORD.search(text, 0, start)
    return before is not None and before.group(1).lower() != "port"


def _figures(terms: Sequence[Span], figures: Sequence[Span]) -> tuple[list[Span], list[Span]]:
    """(the figures among ``terms``, the verbatim numbers of ``figures`` no term touches)."""
    held = [t for t in terms if t.kind == "number" and _STARTS_A_FIGURE.match(t.text)]
    loose = [f for f in figures if f.kind == "number" and not any(t.start < f.end and f.start < t.end for t in terms)]
    return held, loose


_SIGN_FIRST = re.compile(r"(?:US\$|HK\$|A\$|C\$|[$€£¥₹])(?=[0-9])")
_RANGE_SEP = re.compile(r"\s?(?:～|~|至|到|—|–)\s?|(?<=[℃℉%％])-")  # 40℃-100℃: a hyphen after a unit
# ... and a hyphen between a bare figure and a measure (a purifier's 适用面积：20-35平方米 came back
# "20- 35 m²"): not between two bare figures (a score's 3-1, a code's 12-3456).
_HYPHEN = re.compile(r"(?<=[0-9])-")  # (fullmatched between two spans: no lookahead past them)
_ZH_RANGE_SEP = re.compile(f"{_RANGE_SEP.pattern}|{_HYPHEN.pattern}")


# Into Chinese: two figures of one kind joined by "to" or a dash, not after a word that makes the
# first a start or a change ("from 5% to 10%", "grew 3% to 5%" are no ranges).
_ENGLISH_RANGE_SEP = re.compile(r" to |\s?[–—]\s?|(?<=[%％])-")  # 5.25%-5.5%: a hyphen after a percentage
_NOT_A_RANGE = re.compile(r"(?i)\b(?:from|between|by|rose|fell|grew|increased|decreased|declined|climbed|jumped"
                          r"|dropped|gained|lost|up|down|rising|falling|growing)\s+$")
_PLAIN_FIGURE = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?%?")


# Two versions joined by "through" or "to" (an advisory's "libpixel versions 3.1.0 through 3.4.2" came
# back 3.1.0 3.4.2, the range lost): 3.1.0至3.4.2, one span.
_VERSION_RANGE_SEP = re.compile(r"\s+(?:through|thru|to)\s+|\s?[–—]\s?")


def _version_ranges(text: str, terms: Sequence[Span], figures: Sequence[Span]) -> list[Span]:
    versions = [f for f in figures if f.kind == "version" and not f.overlaps_any(terms)]

    def join(a: Span, b: Span) -> Span | None:
        if not _VERSION_RANGE_SEP.fullmatch(text, a.end, b.start):
            return None
        return Span(a.start, b.end, text[a.start:b.end], "number", f"{a.text}至{b.text}")
    return _joined_pairs(terms, versions, join)


def _joined_pairs(terms: Sequence[Span], figures: Sequence[Span], join: Callable[[Span, Span], Span | None],
                  swallow: str = "") -> list[Span]:
    """``terms`` with each two neighbours of ``figures`` (in text order) that ``join`` makes one
    span (None: not joined) replaced by it, where it overlaps no other span of them (but those of
    a kind in ``swallow`` wholly inside it, which go): a joined pair's second figure starts no other pair."""
    out = list(terms)
    for a, b in itertools.pairwise(figures):
        span = join(a, b)
        if span is None:
            continue
        inside = [t for t in out if t.kind in swallow.split() and span.start <= t.start and t.end <= span.end]
        if any(t is not a and t is not b and t not in inside and t.start < span.end and span.start < t.end
               for t in out):
            continue
        out = [t for t in out if t is not a and t is not b and t not in inside]
        out.append(span)
    return sorted(out, key=lambda s: s.start)


def _ranges(text: str, terms: Sequence[Span], figures: Sequence[Span], sep: re.Pattern[str],
            written: Callable[[Span, Span], str | None]) -> list[Span]:
    """``terms`` with each two of ``figures`` (in text order) joined by ``sep`` made one span whose
    target is ``written(a, b)`` (None: no range); a range's second figure starts no other."""
    def join(a: Span, b: Span) -> Span | None:
        if not sep.fullmatch(text, a.end, b.start) or (target := written(a, b)) is None:
            return None
        return Span(a.start, b.end, text[a.start:b.end], "number", target)
    return _joined_pairs(terms, figures, join)


def with_ranges(text: str, terms: Sequence[Span], figures: Sequence[Span], src_lang: str | None,
                tgt_lang: str | None) -> list[Span]:
    """``terms`` with two figures joined by ``～``/``至``/``到`` in a Chinese source made one span
    into English, ``A to B`` (``增长5%～10%`` -> ``up 5% to 10%``: the model dropped the ～ and wrote
    ``up 5% 10%``); into Chinese two plain figures or two percentages joined by "to" or a dash in
    an English source, ``A至B`` (``growth of 8% to 10%`` came back ``8%年为10%``)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    held, loose = _figures(terms, figures)
    if tgt == "zh" and src != "zh":
        def chinese(a: Span, b: Span) -> str | None:
            same_kind = _PLAIN_FIGURE.fullmatch(a.text) and _PLAIN_FIGURE.fullmatch(b.text) \
                and a.text.endswith("%") == b.text.endswith("%")
            if not same_kind or _NOT_A_RANGE.search(text, 0, a.start):
                return None
            low, high = (decimal_value(x.text.rstrip("%")) for x in (a, b))
            if low is None or high is None or low >= high:
                return None  # "The vote was 52% to 48%": a split, not a range
            return f"{a.text}至{b.text}"
        ranged = _ranges(text, terms, loose, _ENGLISH_RANGE_SEP, chinese)
        ranged = _version_ranges(text, ranged, figures)
        held, loose = _figures(ranged, figures)
        ordered = sorted([*held, *loose], key=lambda s: s.start)
        changed = _changes_from(text, ranged, ordered)
        moves = [t for t in changed if t.kind == "number" and re.match(r"(增至|降至|升至)", t.target or "")]
        changed = _changes_to_from(text, changed, sorted({*ordered, *moves}, key=lambda s: s.start))
        changed = _up_from(text, changed, ordered)
        return _parts_of(text, changed, ordered)
    if tgt != "en" or src == "en":
        return list(terms)
    def english(a: Span, b: Span) -> str | None:
        if _units_differ(a.text, b.text):
            return None
        if _HYPHEN.fullmatch(text, a.end, b.start) and (
                a.target is not None or not re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", a.text)
                or not re.search(r"[^0-9.,\s]", b.target or "")):
            return None  # a bare figure and a measure only
        low = a.target or a.text
        if a.target is None and re.search(r"[0-9],[0-9]{3}", b.target or ""):
            low = grouped_digits(low)  # 1000～2000元: 1,000 to 2,000 yuan, as the amount is written
        sign = _SIGN_FIRST.match(b.target or "")
        if sign and low[:1].isdigit():
            low = sign.group() + low  # 46亿至47亿美元 came back "4.6 billion to $4.7 billion"
        return f"{low} to {b.target or b.text}"
    ranged = _ranges(text, terms, sorted([*held, *loose], key=lambda s: s.start), _ZH_RANGE_SEP, english)
    return [_varying(text, t) for t in _chinese_date_ranges(text, _chinese_changes_from(text, ranged, figures))]


# A range that things vary over (降价幅度为5%至10%不等 came back "5% to 10% not equal"): 不等 is the
# span's, "from 5% to 10%". Not 不等于, "is not equal to".
_VARYING = re.compile(r"\s?不等(?!于)")


def _varying(text: str, span: Span) -> Span:
    m = _VARYING.match(text, span.end)
    if m is None or not span.target or " to " not in span.target or span.target.startswith("from "):
        return span
    return Span(span.start, m.end(), text[span.start:m.end()], span.kind, f"from {span.target}")


# A period from one date to another (a contract's 服务期限自2027年1月1日起至2027年12月31日止 came back
# "the service period is limited to December 31, 2027 for January 1, 2027", the dates turned round):
# the two dates, 自/从 before and 起/止 around them, one span, "from ... to ...".
_DATE_RANGE_SEP = re.compile(r"\s?起?\s?(?:至|到)\s?")
_DATE_RANGE_END = re.compile(r"止")


def _chinese_date_ranges(text: str, terms: Sequence[Span]) -> list[Span]:
    def join(a: Span, b: Span) -> Span | None:
        if not _DATE_RANGE_SEP.fullmatch(text, a.end, b.start):
            return None
        start = a.start - 1 if text[a.start - 1:a.start] in ("自", "从") and a.start else a.start
        end = b.end + 1 if _DATE_RANGE_END.match(text, b.end) else b.end
        return Span(start, end, text[start:end], "date", f"from {a.target} to {b.target}")
    return _joined_pairs(terms, [t for t in terms if t.kind == "date" and t.target], join)


_TRAILING_UNIT = re.compile(r"[0-9.,]\s?([A-Za-z%°℃]+)$")


# A change from one figure to another in an English sentence ("We aim to cut the average time from
# 90 days to 60 days" came back 将90天提交到60天的…, "The waiting time fell from 12 weeks to 8 weeks"
# 等待时间从12周到8周开始, the fall gone): one span, 从90天降至60天, the direction the figures' own; a
# verb of change right before it goes in the span. Only where a verb of change comes before it in the
# sentence: "open from 9 a.m. to 5 p.m." and "from 2020 to 2024" are spans of time, not changes.
_CHANGE_VERB = (r"(?:rose|risen|rises|rise|increased?|increases|increasing|grew|grown|grows|climbed|jumped|improved"
                r"|fell|fallen|falls|decreased?|decreases|declined?|declines|dropped|slipped|slid|eased|shrank"
                r"|shrunk|went up|went down|gone up|gone down|cut|cuts|cutting|reduced?|reduces|reducing|lowered?"
                r"|lowers|lowering|raised?|raises|raising|shortened?|shortens|extended?|extends|expanded?|expands"
                r"|boosted?|boosts|brought down|bring down|doubled|halved|slashed?|trimmed?|widened|narrowed)")
_CHANGE_BEFORE = re.compile(rf"(?i)(?<![A-Za-z]){_CHANGE_VERB}(?![A-Za-z])[^.;!?]*$")
_VERB_RIGHT_BEFORE = re.compile(rf"(?i)(?<![A-Za-z])(?:(?:has|have|had|was|were|is|are|been|be)\s+)?{_CHANGE_VERB}"
                                r"\s+$")
_FROM_BEFORE = re.compile(r"(?i)(?<![A-Za-z])from\s+$")
# A figure's value and what it counts ("$46.3 million": 46.3e6 and "$"; "90 days": 90 and "days").
_VALUE = re.compile(r"(?i)([0-9][0-9,]*(?:\.[0-9]+)?)\s*(thousand|million|billion|trillion)?(?![A-Za-z])")
_SCALE = {None: 1, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_CLOCK_OR_YEAR = re.compile(r"(?i)[0-9]:[0-9]|\b[ap]\.?m\b|^(?:1[5-9]|2[01])[0-9]{2}$")


def _value_and_unit(figure: str) -> tuple[Decimal, str] | None:
    m = _VALUE.search(figure)
    if m is None or _CLOCK_OR_YEAR.search(figure.strip()):
        return None
    value = decimal_value(m.group(1))
    if value is None:
        return None
    unit = (figure[:m.start()] + " " + figure[m.end():]).strip().lower()
    return value * _SCALE[m.group(2) and m.group(2).lower()], unit


# ... and into English: 失业率从4.1%降至3.9% came back "Unemployment rate from 4.1% fell to 3.9%" (the
# level it fell to, 降至3.9%, is one span of doctrans.report_terms, and the model put the from before
# it): 从A and that span are one, "fell from A to B", when nothing before it in the clause takes it
# as its object (将审批时间从90天缩短到60天 is the model's: "cut ... from"). Where the verb is the
# model's to read (从12周减少到8周) it wrote the change itself.
_CHINESE_FROM_TO = re.compile(r"(升至|上升至|上升到|提升至|提升到|增至|增长至|增长到|增加到|增加至|提高到|提高至"
                              r"|上涨至|上涨到|降至|下降至|下降到|减至|减少到|减少至|回落至|回落到|下滑至|降低到|降低至)")
_CHINESE_RISE = re.compile(r"^(?:升|上升|提升|增|增长|增加|提高|上涨)")
_CHINESE_OBJECT_BEFORE = re.compile(r"[将把使][^，。；！？,;]*$")
_FROM_PERIOD = re.compile(r"[从由](?:上年|去年|上年同期|去年同期|一年前"
                          r"|(?P<year>(?:19|20)[0-9]{2})年(?P<end>末|底)?)的$")


def _chinese_changes_from(text: str, terms: Sequence[Span], figures: Sequence[Span]) -> list[Span]:
    """``terms`` with each 从A and the level it rose or fell to after it (a span "fell to B") made
    one span, "fell from A to B" (Chinese into English)."""
    numbers = sorted([t for t in terms if t.kind == "number"]
                     + [f for f in figures if f.kind == "number" and not any(t.start < f.end and f.start < t.end
                                                                               for t in terms)],
                     key=lambda s: s.start)

    def join(a: Span, b: Span) -> Span | None:
        # ... with the period the level was in between (毛利率由上年的20.7%下降至18.6% came back "Gross
        # margin Contributed by 20.7% fell to 18.6% in the previous year").
        since = _FROM_PERIOD.search(text, 0, a.start)
        start = since.start() if since else a.start - 1
        if text[start:start + 1] not in ("从", "由") or _CHINESE_OBJECT_BEFORE.search(text, 0, start):
            return None
        verb = _CHINESE_FROM_TO.match(text, a.end)
        if verb is None or a.end != b.start or b.target is None \
                or (to := re.match(r"(?:rose|fell) to ", b.target)) is None \
                or _units_differ(a.text, b.text[verb.end() - verb.start():]):
            return None
        rise = _CHINESE_RISE.match(verb.group(1)) is not None
        when = ""
        if since:
            year, end = since.group("year"), since.group("end")
            when = " a year earlier" if not year else f" at the end of {year}" if end else f" in {year}"
        written = f"{'rose' if rise else 'fell'} from {a.target or a.text}{when} to {b.target[to.end():]}"
        return Span(start, b.end, text[start:b.end], "number", written)
    return _joined_pairs(terms, numbers, join, swallow="date")


# A part of a whole: "on 22 of 30 days" came back 2230天 (the two figures glued, the of gone):
# 30天中的22天, the whole first, as Chinese says it; the part counted as the whole is (22 of 30
# employees: 30名员工中的22名).
_OF_SEP = re.compile(r"\s+(?:out\s+)?of(?:\s+the)?\s+")
_PLAIN_COUNT = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})*")
_COUNTERS = "个名家所口台辆本栋种户场位"


def _parts_of(text: str, terms: Sequence[Span], figures: Sequence[Span]) -> list[Span]:
    def join(a: Span, b: Span) -> Span | None:
        if not _PLAIN_COUNT.fullmatch(a.text) or a.target is not None or b.target is None \
                or not _OF_SEP.fullmatch(text, a.end, b.start):
            return None
        whole = re.match(r"[0-9,]+", b.target)
        unit = b.target[whole.end():] if whole else ""
        if not unit or not unit[0] >= "\u4e00":
            return None
        part = unit[0] if unit[0] in _COUNTERS and len(unit) > 1 else unit
        return Span(a.start, b.end, text[a.start:b.end], "number", f"{b.target}中的{a.text}{part}")
    return _joined_pairs(terms, figures, join)


def _changes_from(text: str, terms: Sequence[Span], figures: Sequence[Span]) -> list[Span]:
    """``terms`` with each "from A to B" of ``figures`` after a verb of change made one span
    (English into Chinese)."""
    def join(a: Span, b: Span) -> Span | None:
        start = _FROM_BEFORE.search(text, 0, a.start)
        if start is None or not re.fullmatch(r"\s+to\s+", text[a.end:b.start]) \
                or not _CHANGE_BEFORE.search(text, 0, start.start()):
            return None
        low, high = _value_and_unit(a.text), _value_and_unit(b.text)
        if low is None or high is None or low[1] != high[1] or low[0] == high[0]:
            return None
        verb = _VERB_RIGHT_BEFORE.search(text, 0, start.start())
        begin = verb.start() if verb else start.start()
        written = f"从{a.target or a.text}{'增至' if high[0] > low[0] else '降至'}{b.target or b.text}"
        return Span(begin, b.end, text[begin:b.end], "number", written)
    return _joined_pairs(terms, figures, join)


# ... and a change to a level with the level it started from after it, as a report writes it
# ("operating margin narrowed to 11.3% from 12.9% a year earlier" came back 缩小到11.3%的12.9%一年前,
# the two figures swapped to a reader; "Net debt fell to $2.1 billion from $2.6 billion" 降至21亿美元
# from 26亿美元): one span, 从一年前的12.9%收窄至11.3%, the period it is compared with in it.
_TO_BEFORE = re.compile(rf"(?i)(?<![A-Za-z])(?:(?:has|have|had|was|were|is|are|been)\s+)?({_CHANGE_VERB})\s+to\s+$")
# (a comma before the from too: "Water use per tonne fell to 3.1 cubic metres, from 3.6 a year earlier" came
# back 从3.1立方米移到3.6, the two figures swapped; the unit of the level is the start's too).
_FROM_BETWEEN = re.compile(r"(?i),?\s+from\s+")
_COMPARED_WITH = re.compile(r"(?i)\s+(?:(a year (?:earlier|ago|before))|(last year|the previous year|the year before"
                            r"|the prior year)|in ((?:19|20)[0-9]{2})"
                            rf"|in (?-i:({'|'.join(MONTHS)})))(?![A-Za-z0-9])")
_TO_VERBS = {"narrowed": "收窄至", "widened": "扩大至"}


def _changes_to_from(text: str, terms: Sequence[Span], figures: Sequence[Span]) -> list[Span]:
    """``terms`` with each "VERB to B from A" of ``figures`` made one span, 从A…至B (English into
    Chinese); a "fell to $2.1 billion" span of doctrans.report_terms is its verb and B."""
    out = list(terms)
    for a, b in itertools.pairwise(figures):
        if not _FROM_BETWEEN.fullmatch(text, a.end, b.start):
            continue
        # The verb may be in the figure's span already (doctrans.report_terms: "fell to $2.1 billion").
        if a.target and re.match(r"(增至|降至|升至)", a.target):
            begin, verb, to = a.start, a.target[:2], a.target[2:]
            to_text = re.sub(r"(?i)^.*?\sto\s+", "", a.text)
        elif vm := _TO_BEFORE.search(text, 0, a.start):
            begin, verb, to, to_text = vm.start(), _TO_VERBS.get(vm.group(1).lower(), ""), a.target or a.text, a.text
        else:
            continue
        level, start = _value_and_unit(to_text), _value_and_unit(b.text)
        if level is None or start is None or level[0] == start[0]:
            continue
        started = b.target or b.text
        if level[1] != start[1]:
            unit = re.sub(r"^[0-9.,]+\s?", "", to)
            if start[1] or not level[1] or not unit or not re.fullmatch(r"[0-9.,]+", started):
                continue
            started += unit  # "fell to 3.1 cubic metres, from 3.6": 从3.6立方米降至3.1立方米
        if verb not in _TO_VERBS.values():
            verb = "增至" if level[0] > start[0] else "降至"
        when, end = "", b.end
        if since := _COMPARED_WITH.match(text, b.end):
            when, end = _period_of(since), since.end()
        out = _swallowing(out, Span(begin, end, text[begin:end], "number", f"从{when}{started}{verb}{to}"))
    return sorted(out, key=lambda s: s.start)


def _swallowing(spans: list[Span], joined: Span) -> list[Span]:
    """``spans`` with ``joined`` in place of those it holds; as they are where it would cut one."""
    inside = [t for t in spans if joined.start <= t.start and t.end <= joined.end]
    if any(t not in inside and t.start < joined.end and joined.start < t.end for t in spans):
        return spans
    return [*(t for t in spans if t not in inside), joined]


def _period_of(since: re.Match[str]) -> str:
    """The period a :data:`_COMPARED_WITH` match names, in Chinese before the figure of it."""
    if since.group(1):
        return "一年前的"
    if since.group(2):
        return "上年的"
    if since.group(3):
        return f"{since.group(3)}年的"
    return f"{MONTHS.index(since.group(4)) + 1}月的"


# A level above or below an earlier one after a comma ("Women hold 34% of management roles, up from 29% in
# 2022" came back 女人在2022年29%月34%日, the model's month and day after the figures; "Consumer prices rose
# 2.8%, down from 3.0% in January" 从3.0%中从1月中，下降): 高于2022年的29%, 低于1月的3.0%.
_UP_FROM = re.compile(r"(?i)(?<![A-Za-z])(up|down)\s+from\s+$")


def _up_from(text: str, terms: Sequence[Span], figures: Sequence[Span]) -> list[Span]:
    """``terms`` with each ", up from A [in PERIOD]" and ", down from A …" of ``figures`` one span
    (English into Chinese)."""
    out = list(terms)
    for a in figures:
        m = _UP_FROM.search(text, 0, a.start)
        if m is None or not re.search(r"[,;(—–-]\s*$", text[:m.start()]) or _value_and_unit(a.text) is None:
            continue
        when, end = "", a.end
        if since := _COMPARED_WITH.match(text, a.end):
            when, end = _period_of(since), since.end()
        compared = "高于" if m.group(1).lower() == "up" else "低于"
        out = _swallowing(out, Span(m.start(), end, text[m.start():end], "number",
                                    f"{compared}{when}{a.target or a.text}"))
    return sorted(out, key=lambda s: s.start)


def _units_differ(a: str, b: str) -> bool:
    """Two figures written with different units are no range (a kettle's 220V～50Hz, 220 volts AC at
    50 hertz, came back "220V to 50Hz")."""
    ua, ub = _TRAILING_UNIT.search(a), _TRAILING_UNIT.search(b)
    return ua is not None and ub is not None and ua.group(1) != ub.group(1)


def with_qualifiers(text: str, terms: Sequence[Span], figures: Sequence[Span], src_lang: str | None,
                    tgt_lang: str | None) -> list[Span]:
    """``terms`` with each figure (one of ``terms`` of kind ``number``, or a verbatim number of
    ``figures`` no term holds) that has a qualifier beside it replaced by one span of both."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if not ((tgt == "en" and src != "en") or (tgt == "zh" and src != "zh")):
        return list(terms)
    held, loose = _figures(terms, figures)
    out = [t for t in terms if t not in held]
    for fig in sorted([*held, *loose], key=lambda s: s.start):
        written = fig.target if fig.target is not None else fig.text
        start, end = fig.start, fig.end
        if tgt == "en":
            before = _CHINESE_WORD.search(text, 0, fig.start)
            after = _CHINESE_AFTER_WORD.match(text, fig.end)
            odd = _MORE_THAN_AFTER.match(text, fig.end) if _PLAIN_FIGURE.fullmatch(written) else None
            counted = _COUNTED_AFTER.match(text, fig.end) if _PLAIN_FIGURE.fullmatch(written) else None
            if counted and not before:
                end, word = counted.end(), counted.group(2)
                people = " people" if counted.group(1) == "人" else ""
                written = f"about {written}{people}" if word == "左右" else \
                    f"{written}{_COUNTED_TAILS[word]}{people}"
            elif odd:  # 300余家, 约300余家, 50多名, 300多万: "more than" (约 and 余 say the same twice)
                value = decimal_value(written)
                if odd.group(1) and value is not None:
                    written = english(value * (10_000 if odd.group(1) == "万" else 100_000_000))
                end, written = odd.end(), f"more than {written}"
                if before and _CHINESE_BEFORE[before.group(1)] in ("about", "more than"):
                    start = before.start()
            elif before:
                start, written = before.start(), f"{_CHINESE_BEFORE[before.group(1)]} {written}"
            elif (takes := _ABOUT_TAKES.search(text, 0, fig.start)) and _DURATION.search(written):
                start, written = takes.start(), f"takes about {written}"
            elif _PRICE_FROM.match(text, fig.end) and _MONEY.search(written) \
                    and not _SINCE_BEFORE.search(text, 0, fig.start):
                # A price's 起 (售价5999元起 came back "sales 5999 yuan"): from it; not 自2015年起, since.
                end, written = fig.end + 1, f"from {written}"
            elif after:
                end = after.end()
                lead, tail = _CHINESE_AFTER[after.group(1)]
                if after.group("version") is not None and after.group(1) in _LATER:
                    tail = _LATER[after.group(1)]
                change = re.match(r"(?:up|down) ", written) if lead else None  # 增长5%左右: up about 5%
                written = f"{change.group()}{lead}{written[change.end():]}{tail}" if change \
                    else f"{lead}{written}{tail}"
        else:
            before = _ENGLISH_WORD.search(text, 0, fig.start)
            if before and _QUESTION.search(text, 0, before.start()):
                before = None  # How about 3 p.m.? is a suggestion, not an approximation
            if before and before.group(1).lower() == "every" and not _EVERY_FIGURE.fullmatch(fig.text):
                before = None  # every 2nd day is 每隔一天, not 每第2天
            after_en = _ENGLISH_AFTER.match(text, fig.end)
            within = _WITHIN.search(text, 0, fig.start)
            if within and _CHINESE_DURATION_END.search(written):
                # A time limit ("We will respond within 30 days" came back 我们会在30天的回应): 30天内.
                start, written = within.start(), f"{written}内"
            elif before:
                # after a count's period ("about 1.2 million visitors a year": 每年约120万名访客)
                each = re.match("每[年月周天]", written)
                cut = each.end() if each else 0
                start = before.start()
                written = f"{written[:cut]}{_ENGLISH_BEFORE[before.group(1).lower()]}{written[cut:]}"
            elif after_en:
                end, written = after_en.end(), f"{written}{_ENGLISH_AFTER_WORDS[after_en.group(1).lower()]}"
        others = [t for t in terms if t is not fig]
        if (start, end) == (fig.start, fig.end) or any(t.start < end and start < t.end for t in others):
            if fig in held:
                out.append(fig)
            continue
        out.append(Span(start, end, text[start:end], "number", written))
    return sorted(out, key=lambda s: s.start)
