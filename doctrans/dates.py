r"""Calendar dates written the target language's way, exactly.

A date is a figure: the shipped models turned ``2024年3月15日`` into ``The last month in 2024, in 15``
and ``2 October 2018`` into ``2 2018`` (the month word lost, the day taken for a year). The digits
were masked (doctrans.verbatim) but the month between them was left to the model, which could not
place it. So a whole date becomes one span whose target is the same date in the output language,
built from the digits and a month table (no model involved), masked and restored like a glossary
term and checked like one after translation:

| source             | into English        | into Chinese        |
|--------------------|---------------------|---------------------|
| 2024年3月15日      | March 15, 2024      | (as written)        |
| 2018年10月         | October 2018        | (as written)        |
| 5月20日            | May 20              | (as written)        |
| ２０２４年３月１５日 | March 15, 2024      | (as written)        |
| 2 October 2018     | (as written)        | 2018年10月2日       |
| March 15, 2024     | (as written)        | 2024年3月15日       |
| Sept. 3rd, 2021    | (as written)        | 2021年9月3日        |
| December 2023      | (as written)        | 2023年12月          |
| May 20             | (as written)        | 5月20日             |
| Dec. 17-18         | (as written)        | 12月17日至18日      |
| 1 Jan 2020         | (as written)        | 2020年1月1日        |
| 9月份              | September           | (as written)        |
| 3月                | March               | (as written)        |
| 2024年十月一日     | October 1, 2024     | (as written)        |
| 二〇二四年五月二十日 | May 20, 2024      | (as written)        |
| 一九九八年         | 1998                | (as written)        |
| September          | (as written)        | 9月                 |
| 2024年             | 2024                | (as written)        |
| 1至10月份          | January to October  | (as written)        |
| 2024年1-6月        | January to June 2024 | (as written)       |
| 20日               | on the 20th         | (as written)        |
| 26日至28日         | from the 26th to the 28th | (as written)  |
| 1987年冬天         | the winter of 1987  | (as written)        |
| 2024年底           | the end of 2024     | (as written)        |
| 9月末              | the end of September | (as written)       |
| 每月5日前          | before the 5th of each month | (as written) |
| every second Tuesday | (as written)      | 每隔一周的星期二    |
| every other day    | (as written)        | 每隔一天            |
| 2025年3月下旬      | late March 2025     | (as written)        |
| 2023年初           | early 2023          | (as written)        |
| 2024年3月5日至11日 | March 5–11, 2024    | (as written)        |
| winter of 1987     | (as written)        | 1987年冬天          |
| the end of 2025    | (as written)        | 2025年底            |
| the end of May     | (as written)        | 5月底               |
| early June 2026    | (as written)        | 2026年6月上旬       |
| mid-2024           | (as written)        | 2024年中            |
| early 1990s        | (as written)        | 1990年代初          |
| 10月的第一个星期一 | the first Monday of October | (as written) |
| first Monday of October | (as written)   | 10月的第一个星期一  |
| first Sunday of every month | (as written) | 每月的第一个星期日 |

English dates are written month first (``March 15, 2024``), the form of American and of most
translated news; Japanese takes the Chinese form. Only a real calendar day counts (month 1-12, day
1-31; ``2月30日`` is left alone). A month alone is a date too: the models wrote ``9月份`` as
``Accustom 990`` and ``in September`` as ``萨尔·斯伯特``; an English month needs its full name and a
capital, and months and days in Chinese numerals are dates too (``十一月`` came back ``a month``;
not ``月亮``, ``一个月``), and ``May`` alone is a month only after ``in``, ``since``, ``by``... (``published in May``;
``you may``, ``May I`` are left to the model). A year alone (1500-2199 before 年,
not 年度 or 年代) is its digits in English: the model wrote ``2024年工作计划`` as ``for 2024 years``.
Into Chinese a year alone gets its 年 where English shows it is a year -- after ``in``, ``since``,
``during``..., ``By`` at a sentence's start, ``of`` after ``quarter``/``end``/a season, as the
second year of ``from``/``between`` ranges, and before punctuation or a word that cannot be its
noun (``in 1952.``, ``the fourth quarter of 2023 were``; not ``in 2000 cases``, ``rose by 2000``,
``a total of 1500``) -- and a decade its 年代 (``the 1990s`` ->
``1990年代``): the model wrote ``published in 1952`` as ``1952中`` and ``the 1990s`` as ``1990年在，月``.
A range of months (``1至10月份``, ``1-6月``) is one date: ``1至10月份`` came back ``1 to October``. Numeric dates
(``2024-03-15``) stay verbatim spans (doctrans.verbatim): they are the same in every language.
A day alone before a verb (``国家统计局20日发布``, the news item's month) is ``on the 20th``: the model
wrote ``The National Bureau of Statistics 20, displayed``; not ``30日内`` (thirty days) nor ``2日本``.
Weekdays are doctrans.place_names'.
"""

from __future__ import annotations

import re
import unicodedata

from doctrans.chinese_numerals import english_ordinal as _ordinal
from doctrans.chinese_numerals import read_figure, read_numeral
from doctrans.language_id import base_language
from doctrans.verbatim import Span

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
_MONTH_NUMBER = {m.lower(): i for i, m in enumerate(MONTHS, 1)}
_MONTH_NUMBER.update({m[:3].lower(): i for i, m in enumerate(MONTHS, 1)})
_MONTH_NUMBER["sept"] = 9


def month_number(name: str) -> int:
    """1-12 for an English month's name or abbreviation (``November``, ``Nov.``, ``Sept``)."""
    return _MONTH_NUMBER[name.rstrip(".").lower()]


ENGLISH_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December" \
                r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?)"
_DAY = r"(?:[0-9]{1,2})(?:st|nd|rd|th)?"
_YEAR = r"[0-9]{4}"
_EN_DATE = re.compile(
    rf"(?<![0-9A-Za-z])(?:"
    # 2 October 2018, 15 March; the 3rd of May (it came back 中午月3日, the month gone)
    rf"(?P<d1>{_DAY})(?:(?<=[a-z])\s+of)?\s+(?P<m1>{ENGLISH_MONTH})(?:,?\s+(?P<y1>{_YEAR}))?"
    rf"|(?P<m2>{ENGLISH_MONTH})\s+(?P<d2>{_DAY})(?:\s?[-–]\s?(?P<e2>{_DAY}))?(?:,?\s+(?P<y2>{_YEAR}))?"
    # March 15, 2024; May 20; a span of days, Dec. 17-18 (it came back 12月17日-18会议)
    rf"|(?P<m3>{ENGLISH_MONTH}),?\s+(?P<y3>{_YEAR})"  # December 2023
    rf")(?![0-9A-Za-z])")
# A month on its own: a full English name (not May, the modal verb) / digits before 月 or 月份.
_EN_MONTH = re.compile(r"(?<![0-9A-Za-z])(?:January|February|March|April|June|July|August|September|October"
                       r"|November|December)(?![0-9A-Za-z])")
_EN_MAY = re.compile(r"(?<![A-Za-z])(?i:in|since|until|till|by|from|early|late|mid-)\s+(?P<m>May)(?![0-9A-Za-z])")
# A year alone in English: after a word that introduces a time ("in 1952", "since 2020", "the
# fourth quarter of 2023", "By 2030,"), before punctuation, the end or a word that cannot be its
# noun ("in 2000 cases" is a count); "rose by 2000.", "a total of 1500." and "to 2000" are counts.
_YEAR_NO = r"(?:1[5-9]|20|21)[0-9]{2}"
_AFTER_YEAR = (r"(?=[,.;:!?)\]\"”’]|\s*$|\s+(?:and|or|to|through|till|onwards?|when|as|the|that|with|was"
               r"|were|is|are|had|has|have|he|she|it|they|we|I|a|an|in|at|on|for|by|from|but|after|before|until|while|because|which"
               r"|who|this|these|there|its|his|her|their|our|against|compared|versus|vs|than|[-–—])(?![A-Za-z]))")
_EN_YEAR = re.compile(
    r"(?<![A-Za-z])(?:(?i:in|since|from|until|till|before|after|during|through|between|around|circa|early|late"
    r"|mid-|fiscal|year|compared\s+(?:with|to)|(?:quarter|half|end|beginning|start|middle|spring|summer|autumn|fall"
    r"|winter)\s+of)|By)"
    rf"\s+(?P<y>{_YEAR_NO}){_AFTER_YEAR}"
    # "by" in small letters before a year of this century's targets ("expected to carry 38,000 riders a
    # day by 2035" came back 2035 alone, the 年 gone); before other figures it is as often a change's
    # size ("fell by 1500").
    rf"|(?<![A-Za-z])by\s+(?P<target>20[2-9][0-9]){_AFTER_YEAR}"
    # ... and a year that ends a CV's or a reference's line after a comma ("University of Texas at
    # Austin, 2017" came back 2017号, "No. 2017")
    # (after a word: '"v2.1.0", 2024' is code's)
    r"|(?<=[A-Za-z], )(?P<ending>(?:19|20)[0-9]{2})(?=\.?\s*$)")
# The second year of a range: "from 2019 to 2021", "between 2010 and 2020".
_EN_YEAR_RANGE = re.compile(rf"(?<![A-Za-z])(?i:from|between)\s+{_YEAR_NO}\s+(?i:to|and|until|through)\s+"
                            rf"(?P<y>{_YEAR_NO}){_AFTER_YEAR}")
_EN_DECADE = re.compile(r"(?<![0-9A-Za-z])(?P<y>(?:1[5-9]|20)[0-9]0)s(?![A-Za-z0-9])")
# A part of a year or decade ("by the end of 2025" came back 由2025年结束, "in the early 1990s"
# 1990年代前): the whole of it is the date.
_EN_YEAR_PART = re.compile(rf"(?<![A-Za-z])(?:the\s+)?(?P<p>(?i:end|beginning|start|middle))\s+of\s+(?:the\s+)?"
                           rf"(?P<y>{_YEAR_NO})(?P<s>s)?(?![0-9A-Za-z])")
_EN_EARLY_LATE = re.compile(rf"(?<![A-Za-z])(?P<p>(?i:early|late|mid))[- ](?P<y>{_YEAR_NO})(?P<s>s)?(?![0-9A-Za-z])")
# ... and of a month ("Train all forklift drivers again before the end of May" came back 在 May结束前,
# "by the end of June" 由6月结束): 5月底, 2026年6月初, 3月中旬; "late May" 5月下旬.
_EN_MONTH_PART = re.compile(rf"(?<![A-Za-z])(?:(?:the\s+)?(?P<p>(?i:end|beginning|start|middle))\s+of\s+"
                            rf"|(?P<q>(?i:early|late|mid))[- ])(?P<m>{ENGLISH_MONTH})(?:,?\s+(?P<y>{_YEAR_NO}))?"
                            r"(?![0-9A-Za-z])")
_MONTH_PART_INTO = {"end": "底", "beginning": "初", "start": "初", "middle": "中旬", "early": "上旬", "late": "下旬",
                    "mid": "中旬"}
# A decade in words ("an old song from the seventies" came back 七个, seven): the, maybe early, mid or
# late, then the decade; not "in her seventies" (an age).
_EN_DECADE_WORDS = re.compile(r"(?<![A-Za-z])the\s+(?:(?P<p>early|mid|late)[- ])?(?:nineteen[- ])?"
                              r"(?P<d>twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)(?![A-Za-z])",
                              re.IGNORECASE)
_DECADE_TENS = {"twenties": "二", "thirties": "三", "forties": "四", "fifties": "五", "sixties": "六",
                "seventies": "七", "eighties": "八", "nineties": "九"}
_YEAR_PART_INTO = {"end": "底", "beginning": "初", "start": "初", "middle": "中", "early": "初", "late": "底",
                   "mid": "中"}
_DECADE_PART_INTO = {"end": "末", "beginning": "初", "start": "初", "middle": "中期", "early": "初", "late": "末",
                     "mid": "中期"}
_D = "0-9０-９"
# A year in numerals digit by digit, as a judgment's or an official letter's date writes it
# (二〇二四年五月二十日 came back "May 20, two, four years").
_NUMERAL_YEAR = "[〇零一二三四五六七八九]{4}"
_ZH_YEAR = re.compile(rf"(?<![{_D}.])((?:1[5-9]|2[01])[0-9]{{2}})年(?![度代初底末中内间前后{_D}])")
_ZH_NUMERAL_YEAR = re.compile(rf"(?<![零一二三四五六七八九十百千〇两{_D}])({_NUMERAL_YEAR})年"
                              rf"(?![度代初底末中内间前后{_D}])")
# Not an infant's age in months (6月龄 came back "June": doctrans.units reads it).
_ZH_DATE = re.compile(rf"(?<![{_D}.])(?:(?P<y>[{_D}]{{4}})年)?(?P<m>[{_D}]{{1,2}})月(?!龄)"
                      rf"(?:(?P<d>[{_D}]{{1,2}})[日号]|份)?")

# Months and days in Chinese numerals (十一月, 十月一日, 三月份); not in 月亮/月光 (the moon) nor after
# another numeral or 个/每.
_ZH_MONTH_RANGE = re.compile(rf"(?<![{_D}.])(?:(?P<y>[{_D}]{{4}})年)?(?P<a>[{_D}]{{1,2}})(?:月)?(?:至|到|-|—|－|~|～)"
                             rf"(?P<b>[{_D}]{{1,2}})月(?:份)?(?![{_D}]|[日号])")
_ZH_NUMERAL_DATE = re.compile(
    r"(?<![零一二三四五六七八九十百千〇两个每0-9０-９])(?:(?P<y>[0-9０-９]{4}|" + _NUMERAL_YEAR + r")年)?"
    r"(?P<m>十[一二]?|[一二三四五六七八九])月"
    r"(?:(?P<d>三十一?|二十[一二三四五六七八九]?|十[一二三四五六七八九]?|[一二三四五六七八九])[日号]|份)?"
    r"(?![亮光球饼台])")

# A season of a year and a weekday of a month, one date each: "the winter of 1987" came back
# ``1987年的 winter`` (the model left the season in English), "On the first Monday of October"
# ``在第星期一 10月第一位`` (weekday and month restored, the order lost between them).
_SEASONS = {"spring": "春天", "summer": "夏天", "autumn": "秋天", "fall": "秋天", "winter": "冬天"}
_ZH_SEASONS = {"春天": "spring", "春季": "spring", "夏天": "summer", "夏季": "summer", "秋天": "autumn",
               "秋季": "autumn", "冬天": "winter", "冬季": "winter"}
# ... or the year right after the season ("starting in fall 2027" came back 从2027开始, the autumn lost);
# "fall" so only after a preposition (not "prices fall 2020 …").
_EN_SEASON = re.compile(rf"(?<![A-Za-z])(?P<s>(?i:spring|summer|autumn|fall|winter))(?P<of>\s+of)?\s+(?P<y>{_YEAR_NO})"
                        r"(?![0-9A-Za-z])")
_SEASON_PREPOSITION = re.compile(r"(?i:\b(?:in|since|by|until|till|from|during|for|before|after|the|this|next|last"
                                 r"|early|late|mid|of))[\s-]+$")
_ZH_SEASON = re.compile(rf"(?<![{_D}.])(?P<y>(?:1[5-9]|2[01])[0-9]{{2}})年的?(?P<s>{'|'.join(_ZH_SEASONS)})")
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ZH_WEEKDAYS = "一二三四五六日"


def weekday_in_chinese(weekday: str) -> str:
    """Monday -> 星期一 ... Sunday -> 星期日."""
    return "星期" + _ZH_WEEKDAYS[WEEKDAYS.index(weekday)]

_EN_NTH_WEEKDAY = re.compile(rf"(?<![A-Za-z])(?P<n>(?i:first|second|third|fourth|last))\s+(?P<w>{'|'.join(WEEKDAYS)})"
                             rf"\s+(?:of|in)\s+(?:(?P<m>{'|'.join(MONTHS)})|(?P<every>(?:every|each) month))"
                             rf"(?:,?\s+(?P<y>{_YEAR_NO}))?(?![0-9A-Za-z])")
# Every other day or weekday (a story's supply boat "came every second Tuesday" came back 每隔星期二秒, a
# second of time; "every other day" 每一天, daily): 每隔一周的星期二, 每隔一天.
_EN_EVERY_OTHER = re.compile(rf"(?<![A-Za-z])(?i:every)\s+(?i:other|second)\s+"
                             rf"(?P<w>{'|'.join(WEEKDAYS)}|day|week|month|year)(?![A-Za-z])")
_EVERY_OTHER = {"day": "每隔一天", "week": "每隔一周", "month": "每隔一个月", "year": "每隔一年"}
_ZH_NTH_WEEKDAY = re.compile(rf"(?<![{_D}.])(?:(?P<y>[{_D}]{{4}})年)?(?P<m>[{_D}]{{1,2}})月的?"
                             r"(?:第(?P<n>[一二三四])个|(?P<last>最后一个))(?:星期|周)(?P<w>[一二三四五六日天])")
_CJK_DATE_TARGETS = frozenset({"zh", "ja"})


# A day of the month alone, a news item's (国家统计局20日发布数据: the 20th of the dateline's month),
# before a Han character that is not 内/以内/起/后/前 (30日内 is thirty days) nor a word starting
# with 日 (日本, 日元, 日报, 日期...).
# Two such days, a span of the month (26日至28日: "26, and 28 Japanese", the second 日 read as Japan).
# A part of a year (截至2024年底 came back "In as of 2024", the end lost); 年中 not before 国心期华央文
# (2024年中国, 年中期报告 an interim report).
_ZH_YEAR_PART = re.compile(rf"(?<![{_D}.])(?P<y>(?:1[5-9]|2[01])[0-9]{{2}})年(?P<p>底|末|初|中)(?![国心期华央文])")
# A part of a month (截至9月末 came back "As of September", the end lost); 中 not before 国心期华央文.
_ZH_MONTH_PART = re.compile(rf"(?<![{_D}.])(?:(?P<y>(?:1[5-9]|2[01])[0-9]{{2}})年)?(?P<m>[{_D}]{{1,2}})月"
                            r"(?P<p>底|末|初|上旬|中旬|下旬|中)(?![国心期华央文])")
# A decade (上世纪九十年代初 came back "in the 90 generation"): the 1990s, early or late. Without a
# century only the fifties to the nineties, the last century's (二十年代 is the 1920s or the 2020s).
_ZH_DECADE = re.compile(r"(?P<c>上个?世纪|20世纪|二十世纪|本世纪|21世纪|二十一世纪)?"
                        r"(?P<d>[二三四五六七八九]十|[1-9]0)年代(?P<p>初期|初|末期|末|中期|后期|前期)?")
_DECADE_PARTS = {"初期": "the early {}", "初": "the early {}", "前期": "the early {}", "末期": "the late {}",
                 "末": "the late {}", "后期": "the late {}", "中期": "the mid-{}"}
# A year's or a month's part, in English (a year has no 旬).
_PARTS = {"底": "the end of {}", "末": "the end of {}", "初": "early {}", "上旬": "early {}",
          "中旬": "mid-{}", "中": "mid-{}", "下旬": "late {}"}
# A full date and a later day of its month (2024年3月5日至11日 came back "March 5, 2024 to on the 11th").
# ... with each day's weekday in brackets, as a holiday notice writes it (1月1日（星期五）至3日（星期日） came
# back "January 1 (Friday) to 3 day (Sunday)"): January 1 (Friday) to January 3 (Sunday).
_BRACKETED_WEEKDAY = r"[（(](?:星期|周)(?P<{}>[一二三四五六日天])[）)]"
_ZH_DATE_DAYS = re.compile(rf"(?<![{_D}.])(?:(?P<y>[{_D}]{{4}})年)?(?P<m>[{_D}]{{1,2}})月(?P<a>[{_D}]{{1,2}})[日号]?"
                           rf"(?:{_BRACKETED_WEEKDAY.format('wa')})?"
                           rf"(?:至|到|-|—|–|～|~)(?P<b>[{_D}]{{1,2}})[日号](?:{_BRACKETED_WEEKDAY.format('wb')})?")
# After a day's 日, 本 before a place or a time is this one's (4日至5日本市将出现大风: the city's), not 日本
# (doctrans.place_names does not read 日本 after a figure either).
_THIS = "本(?![市周月年届次轮场地区省县镇村])"
_ZH_DAYS = re.compile(rf"(?<![{_D}.月第号])([{_D}]{{1,2}})日(?:至|到|[-—–～~])([{_D}]{{1,2}})日(?![元报]|{_THIS})")
# A contract's days counted after a word of time (应提前30日书面通知 came back "on the 30th written
# notice", 逾期15日未支付 "On the 15th wasn't paid"): 30 days, not a day of the month
# (doctrans.units reads them as durations).
DAYS_COUNTED_AFTER = ("提前", "逾期", "超过", "超出", "连续", "为期", "长达", "延长", "推迟", "延期", "顺延", "至少",
                      "不少于", "不超过", "不足", "满", "每隔", "共计", "累计", "期限为", "期限")
_COUNTED = "".join(f"(?<!{w})" for w in DAYS_COUNTED_AFTER)
_ZH_DAY = re.compile(rf"(?<![{_D}.月第号]){_COUNTED}([{_D}]{{1,2}})日(?=[\u4e00-\u9fff])"
                     rf"(?![日内以起后前至元报期常均间记程志]|{_THIS})")


# A day's deadline (12月1日前提交): "by" before what is handed in or done, else "before"; not 前往 (to go
# to), 前进, 前后 (around), 前夕 (the eve of), 前面.
_ZH_BEFORE = re.compile(r"前(?![往进后夕面方排列天年])"
                        r"(提交|完成|报送|上交|交|报名|缴纳|缴费|付款|支付|办理|申请|返回|寄出|发出|确认|回复|将|把)?")


# A year's deadline (我们的目标是在2030年前实现碳达峰 came back "2030 years ago"; 2025年以前建成 "2025 used
# to be built"): by 2030, before 2025. Not a count of years ago (距今/约/近2050年前), nor a thousand
# without 在/于 before it (2000年前 is as often two thousand years ago). 年前后 is around the year.
_ZH_YEAR_BEFORE = re.compile(rf"(?P<at>(?<!早)[在于])?(?<![{_D}.])(?P<y>(?:1[5-9]|2[01])[0-9]{{2}})年(?P<yi>以)?前"
                             r"(?P<around>后)?")
# A school's year of graduates (2026届毕业生): the Class of 2026.
_ZH_CLASS_YEAR = re.compile(rf"(?<![{_D}.])((?:19|20)[0-9]{{2}})届")
_YEARS_AGO_BEFORE = re.compile(r"(?:距今|约|大约|近|至少|早在|上溯)$")
_BY_AFTER = re.compile(r"(?:实现|完成|建成|完工|达到|达成|基本|全面|力争|争取|提交|交付|投产|投运|上线)")

# A part of the day right after a date (a news item's 11月26日上午): the morning of November 26.
_DAY_PARTS = {"上午": "morning", "早上": "morning", "早晨": "morning", "清晨": "early morning", "凌晨": "early hours",
              "中午": "noon", "下午": "afternoon", "傍晚": "evening", "晚上": "evening", "晚间": "evening",
              "夜间": "night"}
# Not a clock time's (晚上8点: doctrans.units writes 8 p.m.).
_ZH_DAY_PART = re.compile(f"(?:{'|'.join(_DAY_PARTS)})(?![0-9０-９一二三四五六七八九十两]{{1,3}}[点时:：])")


def figure_value(digits: str) -> int:
    """The value of ASCII or full-width digits (``１２`` -> 12)."""
    return int(unicodedata.normalize("NFKC", digits))


def _day(text: str | None) -> int | None:
    return None if text is None else int(re.match(r"[0-9]+", text).group())  # type: ignore[union-attr]


def english(year: int | None, month: int, day: int | None) -> str:
    name = MONTHS[month - 1]
    if day is None:
        return name if year is None else f"{name} {year}"
    return f"{name} {day}, {year}" if year is not None else f"{name} {day}"


def chinese(year: int | None, month: int, day: int | None) -> str:
    return (f"{year}年" if year is not None else "") + f"{month}月" + (f"{day}日" if day is not None else "")


def _day_alone(text: str, m: re.Match[str]) -> Span:
    """A day of the month alone (20日), with the part of the day after it (5日早晨 came back "On the 5th
    morning"): on the morning of the 5th."""
    day = f"the {_ordinal(figure_value(m[1]))}"
    if of_day := _ZH_DAY_PART.match(text, m.end()):
        return Span(m.start(), of_day.end(), text[m.start():of_day.end()], "date",
                    f"on the {_DAY_PARTS[of_day.group()]} of {day}")
    return Span(m.start(), m.end(), m.group(), "date", f"on {day}")


def _valid(month: int, day: int | None) -> bool:
    return 1 <= month <= 12 and (day is None or 1 <= day <= (29 if month == 2 else 30 if month in (4, 6, 9, 11)
                                                                  else 31))


# Weekdays a week's timetable names (a library's 每周二、周四上午9:00—11:30开放 came back "the school
# library books and Thursday", Tuesday lost): "every Tuesday and Thursday", 每周一至周五 "every Monday
# to Friday". Two days or more: 每周一 alone is also 每周一次 (once a week), left to the model.
_ZH_WEEK_SEP = "、|和|及|至|到|-|—"
_ZH_WEEK_DAY = r"(?:星期|周)?([一二三四五六日天])"
_ZH_WEEKLY = re.compile(rf"每(?:周|星期)([一二三四五六日天])((?:(?:{_ZH_WEEK_SEP}){_ZH_WEEK_DAY})+)"
                        r"(?![一二三四五六日天次])")
_ZH_WEEKLY_NEXT = re.compile(rf"({_ZH_WEEK_SEP}){_ZH_WEEK_DAY}")


def _weekday(numeral: str) -> str:
    """一 -> Monday ... 日 or 天 -> Sunday."""
    return WEEKDAYS[_ZH_WEEKDAYS.index(numeral.replace("天", "日"))]


# A day of every month, as a lease or a payroll names it (乙方应于每月5日前支付当月租金 came back "by month
# 5", 每月15日发放工资 "every month 15"): the 5th of each month, before it with 前.
_ZH_MONTHLY_DAY = re.compile(rf"每月(?:的)?([{_D}]{{1,2}}|[一二三四五六七八九十]{{1,3}})(?:日|号)(前|之前|以前)?"
                             r"(?![0-9])")


def _monthly_days(text: str) -> list[Span]:
    spans = []
    for m in _ZH_MONTHLY_DAY.finditer(text):
        day = read_figure(m[1]) or 0
        if 1 <= day <= 31:
            spans.append(Span(m.start(), m.end(), m.group(), "date",
                              f"{'before ' if m[2] else ''}the {_ordinal(day)} of each month"))
    return spans


def _weekly_days(text: str) -> list[Span]:
    spans = []
    for m in _ZH_WEEKLY.finditer(text):
        days = [_weekday(m.group(1))]
        seps = []
        for n in _ZH_WEEKLY_NEXT.finditer(m.group(2)):
            seps.append("to" if n.group(1) in ("至", "到", "-", "—") else "and")
            days.append(_weekday(n.group(2)))
        if "to" in seps:
            if len(days) != 2:
                continue  # 周一至周三、周五: left to the model
            written = f"every {days[0]} to {days[1]}"
        else:
            written = "every " + (" and ".join(days) if len(days) == 2 else ", ".join(days[:-1]) + " and " + days[-1])
        spans.append(Span(m.start(), m.end(), m.group(), "date", written))
    return spans


def find_dates(text: str, tgt_lang: str | None) -> list[Span]:
    """The dates of ``text`` written another way in ``tgt_lang``, as spans (kind ``date``) whose
    target is that writing; none for a target that writes them as the source does."""
    lang = base_language(tgt_lang)
    spans = []
    if lang == "en":
        spans += _weekly_days(text) + _monthly_days(text)
        for m in _ZH_SEASON.finditer(text):
            spans.append(Span(m.start(), m.end(), m.group(), "date",
                              f"the {_ZH_SEASONS[m['s']]} of {figure_value(m['y'])}"))
        for m in _ZH_NTH_WEEKDAY.finditer(text):
            month = figure_value(m["m"])
            if not 1 <= month <= 12:
                continue
            nth = "last" if m["last"] else ("first", "second", "third", "fourth")["一二三四".index(m["n"])]
            weekday = _weekday(m["w"])
            of_year = f" {figure_value(m['y'])}" if m["y"] else ""
            written = f"the {nth} {weekday} of {MONTHS[month - 1]}{of_year}"
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for m in _ZH_MONTH_RANGE.finditer(text):
            if any(sp.start <= m.start() < sp.end for sp in spans):
                continue
            first, last = figure_value(m["a"]), figure_value(m["b"])
            if 1 <= first < last <= 12:
                in_year = f" {figure_value(m['y'])}" if m["y"] else ""
                written = f"{MONTHS[first - 1]} to {MONTHS[last - 1]}{in_year}"
                spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for m in _ZH_DATE_DAYS.finditer(text):
            month, first, last = figure_value(m["m"]), figure_value(m["a"]), figure_value(m["b"])
            if any(sp.start <= m.start() < sp.end for sp in spans) or not (_valid(month, last) and 1 <= first < last):
                continue
            in_year = f", {figure_value(m['y'])}" if m["y"] else ""
            if m["wa"] or m["wb"]:  # the weekdays, each after its day
                days = [f"{MONTHS[month - 1]} {day}" + (f" ({_weekday(w)})" if w else "")
                        for day, w in ((first, m["wa"]), (last, m["wb"]))]
                written = f"{days[0]}{in_year} to {days[1]}{in_year}" if in_year else " to ".join(days)
            else:
                written = f"{MONTHS[month - 1]} {first}–{last}{in_year}"
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for m in _ZH_DECADE.finditer(text):
            tens = int(m["d"]) if m["d"].isdigit() else (read_numeral(m["d"]) or 0)
            century = m["c"] or ""
            if century in ("本世纪", "21世纪", "二十一世纪"):
                decade = 2000 + tens
            elif century or tens >= 50:
                decade = 1900 + tens
            else:
                continue
            spans.append(Span(m.start(), m.end(), m.group(), "date",
                              _DECADE_PARTS.get(m["p"] or "", "the {}").format(f"{decade}s")))
        for m in _ZH_YEAR_PART.finditer(text):
            spans.append(Span(m.start(), m.end(), m.group(), "date", _PARTS[m["p"]].format(figure_value(m["y"]))))
        for m in _ZH_CLASS_YEAR.finditer(text):  # 在2026届毕业典礼上 came back "on 2026 th graduation"
            spans.append(Span(m.start(), m.end(), m.group(), "date", f"Class of {m[1]}"))
        for m in _ZH_YEAR_BEFORE.finditer(text):
            limit = figure_value(m["y"])
            if _YEARS_AGO_BEFORE.search(text, 0, m.start()) or (limit % 1000 == 0 and not m["at"]):
                continue
            if m["around"]:  # 2030年前后 came back "After 2030 years ago": around 2030
                spans.append(Span(m.start("y"), m.end(), text[m.start("y"):m.end()], "date", f"around {limit}"))
                continue
            if not _ZH_BEFORE.match(text, m.end() - 1):
                continue
            by = "by" if m["at"] or _BY_AFTER.match(text, m.end()) else "before"
            spans.append(Span(m.start(), m.end(), m.group(), "date", f"{by} {limit}"))
        for m in _ZH_MONTH_PART.finditer(text):
            month = figure_value(m["m"])
            if 1 <= month <= 12:
                when = MONTHS[month - 1] + (f" {figure_value(m['y'])}" if m["y"] else "")
                month_part = Span(m.start(), m.end(), m.group(), "date", _PARTS[m["p"]].format(when))
                spans += [] if month_part.overlaps_any(spans) else [month_part]
        ranges = list(spans)
        for m in _ZH_DATE.finditer(text):
            if any(r.start <= m.start() < r.end for r in ranges):
                continue
            year = figure_value(m["y"]) if m["y"] else None
            month, day = figure_value(m["m"]), figure_value(m["d"]) if m["d"] else None
            if not _valid(month, day):
                continue
            of_day = _ZH_DAY_PART.match(text, m.end()) if day is not None else None
            if of_day:  # 11月26日上午 came back "at November 26", the morning gone
                spans.append(Span(m.start(), of_day.end(), text[m.start():of_day.end()], "date",
                                  f"the {_DAY_PARTS[of_day.group()]} of {english(year, month, day)}"))
                continue
            deadline = _ZH_BEFORE.match(text, m.end()) if day is not None else None
            if deadline:  # 12月1日前提交报告 came back "December 1 commits", the deadline lost
                by = "by" if deadline.group(1) else "before"
                spans.append(Span(m.start(), m.end() + 1, text[m.start():m.end() + 1], "date",
                                  f"{by} {english(year, month, day)}"))
                continue
            spans.append(Span(m.start(), m.end(), m.group(), "date", english(year, month, day)))
        for m in _ZH_NUMERAL_DATE.finditer(text):
            named, day = read_numeral(m["m"]), read_numeral(m["d"]) if m["d"] else None
            if named is not None and _valid(named, day):
                year = _year_value(m["y"]) if m["y"] else None
                if year is not None and not 1500 <= year <= 2199:
                    continue
                spans.append(Span(m.start(), m.end(), m.group(), "date", english(year, named, day)))
        spans = _beside(spans, [Span(m.start(), m.end(), m.group(), "date", _year_alone(text, m))
                                for m in _ZH_YEAR.finditer(text)]
                       + [Span(m.start(), m.end(), m.group(), "date", _year_alone(text, m, str(value)))
                          for m in _ZH_NUMERAL_YEAR.finditer(text)
                          if 1500 <= (value := _year_value(m[1])) <= 2199])
        spans = _beside(spans, [Span(m.start(), m.end(), m.group(), "date",
                                     f"from the {_ordinal(figure_value(m[1]))} to the {_ordinal(figure_value(m[2]))}")
                                for m in _ZH_DAYS.finditer(text)
                                if 1 <= figure_value(m[1]) < figure_value(m[2]) <= 31])
        spans = _beside(spans, [_day_alone(text, m) for m in _ZH_DAY.finditer(text) if 1 <= figure_value(m[1]) <= 31])
    elif lang in _CJK_DATE_TARGETS:
        for m in _EN_SEASON.finditer(text):
            if not m["of"] and m["s"] == "fall" and not _SEASON_PREPOSITION.search(text, 0, m.start()):
                continue
            spans.append(Span(m.start(), m.end(), m.group(), "date", f"{m['y']}年{_SEASONS[m['s'].lower()]}"))
        for m in _EN_EVERY_OTHER.finditer(text):
            w = m["w"]
            written = _EVERY_OTHER.get(w.lower()) or f"每隔一周的{weekday_in_chinese(w)}"
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for m in _EN_NTH_WEEKDAY.finditer(text):
            n, weekday = _ORDINALS[m["n"].lower()], _ZH_WEEKDAYS[WEEKDAYS.index(m["w"])]
            nth = "最后一个" if n < 0 else f"第{'一二三四'[n - 1]}个"
            in_year = f"{m['y']}年" if m["y"] else ""
            # Every month's (a museum "is free on the first Sunday of every month" came back 每月星期日, the
            # first gone): 每月的第一个星期日.
            which = "每月" if m["every"] else f"{month_number(m['m'])}月"
            written = f"{in_year}{which}的{nth}星期{weekday}"
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for pattern in (_EN_YEAR_PART, _EN_EARLY_LATE):
            for m in pattern.finditer(text):
                part = m["p"].lower()
                if m["s"] and not m["y"].endswith("0"):
                    continue
                written = f"{m['y']}年代{_DECADE_PART_INTO[part]}" if m["s"] else f"{m['y']}年{_YEAR_PART_INTO[part]}"
                spans.append(Span(m.start(), m.end(), m.group(), "date", written))  # the early 1990s: 1990年代初
        for m in _EN_MONTH_PART.finditer(text):
            of_year = f"{m['y']}年" if m["y"] else ""
            written = f"{of_year}{month_number(m['m'])}月{_MONTH_PART_INTO[(m['p'] or m['q']).lower()]}"
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for m in _EN_DECADE_WORDS.finditer(text):
            part = _DECADE_PART_INTO[m["p"].lower()] if m["p"] else ""
            spans.append(Span(m.start(), m.end(), m.group(), "date", f"{_DECADE_TENS[m['d'].lower()]}十年代{part}"))
        for m in _EN_DATE.finditer(text):
            if any(sp.start <= m.start() < sp.end for sp in spans):
                continue
            name = m["m1"] or m["m2"] or m["m3"]
            month = month_number(name)
            day = _day(m["d1"] or m["d2"])
            year_text = m["y1"] or m["y2"] or m["y3"]
            if not _valid(month, day):
                continue
            written = chinese(int(year_text) if year_text else None, month, day)
            if m["e2"] and day is not None and day < (last := _day(m["e2"]) or 0) <= 31:
                written += f"至{last}日"
            elif m["e2"]:
                continue
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        spans = _beside(spans, [Span(m.start(), m.end(), m.group(), "date", f"{_MONTH_NUMBER[m.group().lower()]}月")
                                for m in _EN_MONTH.finditer(text)]
                        + [Span(m.start("m"), m.end("m"), "May", "date", "5月") for m in _EN_MAY.finditer(text)])
        spans = _beside(spans, [Span(m.start(g), m.end(g), m[g], "date", m[g] + "年")
                                for pattern in (_EN_YEAR, _EN_YEAR_RANGE) for m in pattern.finditer(text)
                                for g in ("y", "target", "ending") if g in pattern.groupindex and m[g]])
        spans = _beside(spans, [Span(m.start(), m.end(), m.group(), "date", m["y"] + "年代")
                                for m in _EN_DECADE.finditer(text)])
        spans = _beside(spans, [Span(m.start(), m.start() + 4, m.group()[:4], "date", m.group()[:4] + "年")
                                for m in _YEAR_TO_PRESENT.finditer(text)])
        spans = _ranges([_to_present(text, _with_deadline(text, sp)) for sp in spans], text)
    return _beside(_eras(text, lang) + (_ends_of_day(text) + _year_levels(text) if lang in _CJK_DATE_TARGETS else []),
                   spans)


# A baseline year's level ("cutting carbon emissions by 68% from 1990 levels" came back 从1990级别, grade
# 1990): 1990年的水平.
_YEAR_LEVELS = re.compile(rf"(?<![0-9A-Za-z])({_YEAR_NO})[ \u00a0]levels?(?![A-Za-z])")


# ... and its baseline ("by 30% by 2030 against a 2019 baseline" came back 与2019基线, the year a figure).
_YEAR_BASELINE = re.compile(rf"(?<![0-9A-Za-z])({_YEAR_NO})[ \u00a0]baseline(?![A-Za-z])")


def _year_levels(text: str) -> list[Span]:
    return [Span(m.start(), m.end(), m.group(), "date", f"{m[1]}年的水平") for m in _YEAR_LEVELS.finditer(text)] \
        + [Span(m.start(), m.end(), m.group(), "date", f"{m[1]}年基线") for m in _YEAR_BASELINE.finditer(text)]


# An office's deadline ("Please send me a revised version by end of day Friday" came back 星期五结束后,
# after Friday): before the day's work ends, 星期五下班前; 当天下班前 without a day.
_END_OF_DAY = re.compile(rf"(?<![A-Za-z])(?i:by\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?(?:business\s+)?day|EOD|COB))"
                         rf"(?:\s+(?:on\s+)?(?P<w>{'|'.join(WEEKDAYS)}|today|tomorrow))?(?![A-Za-z])")
_DAYS_AHEAD = {"today": "今天", "tomorrow": "明天"}


def _ends_of_day(text: str) -> list[Span]:
    spans = []
    for m in _END_OF_DAY.finditer(text):
        w = m["w"]
        day = "当天" if w is None else _DAYS_AHEAD.get(w.lower()) or weekday_in_chinese(w)
        spans.append(Span(m.start(), m.end(), m.group(), "date", f"{day}下班前"))
    return spans


# Years of an era (a museum's "Shang and Zhou dynasties (c. 1600–256 BCE)" came back (c。1600–256 BCE),
# the era left in English; 公元前221年 is 221 BC): the era and "about" in the other language's way,
# a range's second year of the same era (约公元前1600年至前256年), a century too (公元前5世纪).
_ABOUT_EN = r"(?:(?P<about>c\.|ca\.|circa|around|about)\s?)?"
_EN_BC = re.compile(rf"(?<![A-Za-z0-9])({_ABOUT_EN}(?P<a>[0-9]{{1,4}})(?:\s?(?:–|-|—|to)\s?(?P<b>[0-9]{{1,4}}))?"
                    r"\s?(?P<era>BCE|BC|B\.C\.E\.|B\.C\.|CE|AD|A\.D\.)"
                    r"|(?P<ad>AD|A\.D\.)\s?(?P<y>[0-9]{1,4}))(?![A-Za-z0-9])")
_EN_CENTURY_BC = re.compile(r"(?<![A-Za-z0-9])(?:the\s+)?(?P<n>[0-9]{1,2})(?:st|nd|rd|th)\s+century\s+"
                            r"(?P<era>BCE|BC|B\.C\.E\.|B\.C\.|CE|AD|A\.D\.)(?![A-Za-z0-9])")
_ZH_BC = re.compile(r"(?P<about>约|大约)?公元(?P<bc>前)?(?P<a>[0-9]{1,4})年"
                    r"(?:(?:至|到|—|-|－|～)(?P<ce2>公元)?(?P<bc2>前)?(?P<b>[0-9]{1,4})年)?")
_ZH_CENTURY_BC = re.compile(r"公元(?P<bc>前)?(?P<n>[0-9]{1,2})世纪")


def _before_christ(era: str) -> bool:
    """BC, BCE, B.C. or B.C.E. (not CE, AD)."""
    return era.upper().replace(".", "") in ("BC", "BCE")


def _eras(text: str, lang: str | None) -> list[Span]:
    spans = []
    if lang == "en":
        for m in _ZH_BC.finditer(text):
            about = "c. " if m["about"] else ""
            if m["bc"]:
                # the second year of the same era: 前 again, or a smaller bare figure (公元前221年至206年)
                same = m["bc2"] or (not m["ce2"] and m["b"] and int(m["b"]) < int(m["a"]))
                second = f"–{m['b']}" if m["b"] and same else None
                if m["b"] and second is None:  # 公元前202年至公元8年: from one era into the other
                    written = f"{about}{m['a']} BC to AD {m['b']}"
                else:
                    written = f"{about}{m['a']}{second or ''} BC"
            elif m["b"]:
                written = f"{about}AD {m['a']}–{m['b']}"
            else:
                written = f"{about}AD {m['a']}"
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for m in _ZH_CENTURY_BC.finditer(text):
            spans.append(Span(m.start(), m.end(), m.group(), "date",
                              f"the {_ordinal(int(m['n']))} century {'BC' if m['bc'] else 'AD'}"))
    elif lang in _CJK_DATE_TARGETS:
        for m in _EN_BC.finditer(text):
            about = "约" if m["about"] else ""
            if m["ad"]:
                written = f"公元{m['y']}年"
            elif _before_christ(m["era"]):
                written = f"{about}公元前{m['a']}年" + (f"至前{m['b']}年" if m["b"] else "")
            else:
                written = f"{about}公元{m['a']}年" + (f"至{m['b']}年" if m["b"] else "")
            spans.append(Span(m.start(), m.end(), m.group(), "date", written))
        for m in _EN_CENTURY_BC.finditer(text):
            spans.append(Span(m.start(), m.end(), m.group(), "date",
                              f"公元{'前' if _before_christ(m['era']) else ''}{int(m['n'])}世纪"))
    return spans


_YEAR_TO_PRESENT = re.compile(r"(?<![0-9A-Za-z.,])(?:1[89]|20)[0-9]{2}(?=[ \u00a0]*[–—-][ \u00a0]*(?i:present|now)\b)")
_DASH_BETWEEN = re.compile(r"[ \u00a0]*[–—][ \u00a0]*$|[ \u00a0]+-[ \u00a0]+$")


# ... and two days of months joined by a word, the year written once after the second (a job ad's
# "Interviews take place between January 12 and February 6, 2027" came back 1月12日到2027年2月6日之间):
# 2027年1月12日至2月6日, "between" and "and" one span with them (…之间).
_WORD_BETWEEN = re.compile(r"[ \u00a0]+(?:to|through|until|till|and)[ \u00a0]+", re.IGNORECASE)
_BETWEEN_BEFORE = re.compile(r"(?<![A-Za-z])between[ \u00a0]+$", re.IGNORECASE)
_MONTH_DAY = re.compile(r"[0-9]{1,2}月[0-9]{1,2}日")
_YEAR_MONTH_DAY = re.compile(r"([0-9]{4}年)([0-9]{1,2}月[0-9]{1,2}日)")


def _ranges(spans: list[Span], text: str) -> list[Span]:
    """Two dates into Chinese with a dash between them, one range (June 2017 – February 2021:
    2017年6月至2021年2月), and two days joined by a word (above)."""
    out: list[Span] = []
    for sp in spans:
        last = out[-1] if out else None
        if (last is not None and last.target and sp.target and "至" not in last.target
                and _DASH_BETWEEN.fullmatch(text, last.end, sp.start)):
            out[-1] = Span(last.start, sp.end, text[last.start:sp.end], "date", f"{last.target}至{sp.target}")
        elif last is not None and last.target and sp.target and (word := _WORD_BETWEEN.fullmatch(
                text, last.end, sp.start)) and _MONTH_DAY.fullmatch(last.target) \
                and (second := _YEAR_MONTH_DAY.fullmatch(sp.target) or _MONTH_DAY.fullmatch(sp.target)):
            between = _BETWEEN_BEFORE.search(text, 0, last.start)
            if word.group().strip().lower() == "and" and between is None:
                out.append(sp)  # "on March 3 and March 5": two days
                continue
            year, day = (second.group(1), second.group(2)) if second.re is _YEAR_MONTH_DAY else ("", sp.target)
            start = between.start() if between else last.start
            out[-1] = Span(start, sp.end, text[start:sp.end], "date",
                           f"{year}{last.target}至{day}" + ("之间" if between else ""))
        else:
            out.append(sp)
    return out


# A range that runs until now, as a CV writes its jobs ("March 2021 – Present" came back 2021年3月 – 存在,
# "exists"): 2021年3月至今.
_TO_PRESENT = re.compile(r"[ \u00a0]*[–—-][ \u00a0]*(?:present|now|today|date)(?![A-Za-z0-9])", re.IGNORECASE)


def _to_present(text: str, date: Span) -> Span:
    m = _TO_PRESENT.match(text, date.end)
    if m is None or not date.target:
        return date
    return Span(date.start, m.end(), text[date.start:m.end()], "date", date.target + "至今")


# What makes 年 the first character of a word (年龄, 年轻, 年度, 年底, 年会…): a 年 the model wrote again
# after a restored date or measure goes only before none of these (doctrans.units too).
YEAR_WORD_NEXT = "龄轻度底初代会纪终报均中末货薪"


# A deadline's word before a date of a month, into Chinese ("no later than March 31" came back
# 3月31日后, after it: a deadline turned round); the word and the date are one span.
_DEADLINE = re.compile(r"(?i)\b(no later than|not later than|no earlier than|not earlier than|prior to|before|"
                       r"after|until|till|as of|by)\s+(?:the\s+)?$")
_DEADLINE_INTO = {"no later than": "不迟于{}", "not later than": "不迟于{}", "no earlier than": "不早于{}",
                  "not earlier than": "不早于{}", "prior to": "{}之前", "before": "{}之前", "after": "{}之后",
                  "until": "{}之前", "till": "{}之前", "as of": "截至{}", "by": "{}前"}


# ... and a life's dates, as a biography opens (Margaret Okafor (born 14 June 1961) came back "(born
# 1961年6月14日)", the word left in English): 生于, 卒于.
_LIFE = re.compile(r"(?i)(?:\b(?:was|were)\s+)?\b(born|died)(?:\s+(?:on|in))?\s+$")
_LIFE_INTO = {"born": "生于{}", "died": "卒于{}"}


def _with_deadline(text: str, date: Span) -> Span:
    """``date`` (a month's date into Chinese, 3月31日 or 3月) with the deadline word before it, or a
    date of any kind with the word of a birth or a death."""
    life = _LIFE.search(text, 0, date.start) if date.target else None
    if life is not None and date.target:
        start, written = life.start(), _LIFE_INTO[life.group(1).lower()].format(date.target)
        return Span(start, date.end, text[start:date.end], "date", written)
    # (a year after "by" too: "carry 38,000 riders a day by 2035" came back 将38,000除此天2035, the "by"
    # gone; a year after the other words stays the year's own, the model writes them)
    year = date.target is not None and re.fullmatch(r"[0-9]{4}年", date.target) is not None
    if not date.target or ("月" not in date.target and not year):
        return date
    word = _DEADLINE.search(text, 0, date.start)
    if word is not None and year and word.group(1).lower() != "by":
        return date
    if word is None:
        return date
    start, written = word.start(), _DEADLINE_INTO[word.group(1).lower()].format(date.target)
    return Span(start, date.end, text[start:date.end], "date", written)


def _year_value(year: str) -> int:
    """A year's value, in digits (``2024``, ``２０２４``) or in numerals digit by digit (``二〇二四``)."""
    return figure_value(year) if year[0].isdigit() else int(read_numeral(year) or 0)


def _year_alone(text: str, m: re.Match[str], year: str | None = None) -> str:
    """A year (``2018年``; ``year``: its value where the match writes it otherwise) into English:
    "in 2018" where it opens a sentence before a comma (an interview's 2018年，我决定回国 came back
    "2018, I decided"), else the year."""
    year = year or m.group(1)
    opens = m.start() == 0 or text[m.start() - 1] in "。！？；：\n“"
    return f"in {year}" if opens and text[m.end():m.end() + 1] in ("，", ",") else year


def _beside(dates: list[Span], alone: list[Span]) -> list[Span]:
    """``dates`` and the years or months ``alone`` that start inside none of them, in text order."""
    taken = list(dates)
    for a in alone:  # a year two rules found once
        if not any(d.start <= a.start < d.end for d in taken):
            taken.append(a)
    return sorted(taken, key=lambda s: s.start)


def drop_repeated_units(text: str, dates: list[str]) -> str:
    """``text`` without the day characters a model wrote after a restored Chinese date that has
    its units already (``2023年12月日日。`` -> ``2023年12月。``: it learned that a figure before 月
    or 日 wants one), and a 年 after a day (``12日年爱丁堡``). Two or more always go; one only
    before punctuation, a space or the end: ``12月日程`` (schedule) and ``2日日本`` (Japan) are words."""
    for date in dates:
        if date.endswith(("月", "日")):
            text = re.sub(re.escape(date) + r"(?:[日号]{2,}|[日号](?![\u3400-\u9fff]))", date, text)
            if date.endswith("日"):  # 11日号上: no word starts with 号 after a day
                text = text.replace(date + "号", date)
                # "on the 12th" came back 在12日年爱丁堡: a year's 年 after a day, not a word's (年会).
                text = re.sub(re.escape(date) + rf"年(?![{YEAR_WORD_NEXT}间内])", date, text)
                # "held on 9 September 2025" came back 在2025年9月9日上的会议: English's "on" is no 上
                # after a day (日上午, 日上市 are words: only before 的, a mark, the end or what is held).
                text = re.sub(re.escape(date) + r"上(?=[的，。、；：！？,.;:!?\s]|$|举行|召开|举办|进行|发布)",
                              date, text)
        elif date.endswith(("年", "年代")):  # "1952年年" -> "1952年"; "2024年年底" reads as 2024年底
            text = re.sub(re.escape(date) + r"(?:年代|年(?!代))", date, text)
            # ... and a number's 号 after a year at the end of a clause (a CV's "Austin, 2017" came back
            # 2017年号: the model read the year as a number)
            text = re.sub(re.escape(date) + r"号(?![\u3400-\u9fff])", date, text)
        elif date.endswith(("底", "初", "中", "末", "中期")):  # "in the middle of 2024": 在2024年中中
            text = text.replace(date + date[-1], date)
    return text


# "on Monday" came back 星期一上的乘方: English's "on" before a weekday is no 上 after it (星期一上午 is
# Monday morning, 周一上班 going to work: only before 的, a mark or the end).
_ON_WEEKDAY = re.compile(rf"\bon\s+(?:{'|'.join(WEEKDAYS)})\b", re.IGNORECASE)
# (... and after a time of day the weekday now comes with: "at 2 p.m. on Saturday" is 星期六下午2点.)
_WEEKDAY_SHANG = re.compile(r"((?:星期|周|礼拜)[一二三四五六日天]"
                            r"(?:(?:上午|下午|晚上|中午|凌晨)?[0-9]{1,2}点(?:[0-9]{1,2}分)?)?)上"
                            # ... and before a verb ("won a second term on Saturday" came back 在星期六上赢了),
                            # not one 上 starts (上午, 上班, 上课, 上映, 上线, 上市...)
                            r"(?=[的，。、；：！？,.;:!?]|$|(?![午班学课映线市岗台门网场山街来去楼车飞海演述下面])[\u4e00-\u9fff])")


def no_on_after_weekday(text: str, source: str) -> str:
    """``text`` (Chinese) without the 上 a model wrote after a weekday for the source's "on"."""
    return _WEEKDAY_SHANG.sub(r"\1", text) if _ON_WEEKDAY.search(source) else text


_MID = re.compile(r"\bmid(?:dle)?\b|\bmid-", re.IGNORECASE)


def no_mid_year(text: str, dates: list[str], source: str) -> str:
    """``text`` (Chinese) without the 中 a model wrote after a restored year before a clause mark:
    ``在2024年中，`` is "in mid-2024", and "In 2024, we reduced our emissions" came back so (the
    model's ``在…中`` for "in"). Kept where the source says mid or middle; ``2024年中国`` is China."""
    if _MID.search(source):
        return text
    for date in dates:
        if date.endswith("年"):
            text = re.sub(re.escape(date) + r"中(?=[，,。；;：:]|$)", date, text)
    return text
