"""English numbers written as words, given to an en→zh model as the figure they are.

The built-in en→zh model translated ``Ten years ago`` as ``几年前`` ("a few years ago"): a number
word reached it as a word it could render loosely. So an English number word from ten up (or any
before ``hundred``/``thousand``) is one span whose target is the Chinese numeral, masked, restored
and checked like a figure (doctrans.engine.protect, doctrans.report); before a scale word or
``percent`` it is the figure written the way doctrans.magnitudes writes digits. ``one`` to
``nine`` alone stay the model's words (``one of them``, ``两个人``), as do ordinals, plurals
(``hundreds of``), words inside other words and anything inside a verbatim span (code:
``NamedInt('ten')``). An age in words is the age (``ten-year-old`` -> ``十岁``), and a year in
words the year (``nineteen eighty-four`` -> ``1984年``; it came back ``十九 八十四``):

| source                            | into Chinese      |
|-----------------------------------|-------------------|
| Ten years ago                     | 十                |
| twenty-five people                | 二十五            |
| a hundred and twenty pages        | 一百二十          |
| three thousand five hundred       | 三千五百          |
| two hundred and five              | 两百零五          |
| twenty thousand                   | 两万              |
| Three million people              | 300万             |
| fifteen percent                   | 15%               |
| one and a half percent            | 1.5%              |
| one of the two                    | (none)            |
| hundreds of times                 | (none)            |
| tens of millions                  | 数千万            |
| the twentieth century             | (none)            |
| a ten-year-old boy                | 十岁              |
| in nineteen eighty-four           | 1984年            |
| three years ago                   | 三年前            |
| finished 2nd                      | 第2               |
| the 21st century                  | 21世纪            |
| our 10th anniversary              | 10周年            |
| on the 11th                       | 11日              |
| two months ago                    | 两个月前          |
| a decade ago                      | 十年前            |

The mirror, Chinese numerals into English (:func:`chinese_numerals`): a numeral with a unit
character and a value from 10 (``一百六十``, ``三千``, ``两万``, ``十五亿``) is one span whose target
is the figure (``160``, ``3,000``, ``20,000``, ``1.5 billion``), ``多``/``余`` after it ``more
than``/``over`` (``一百六十多名代表`` came back ``a commition of the commarks``), and an ordinal
from the tenth (``第十四届`` -> ``14th``, ``二十一世纪`` -> ``21st``). Digits alone (``三``, ``一一``),
a bare ``十``/``百``/``千`` (``十分`` is "very", ``百姓`` "people"), numerals that start with a unit
(``万一`` "in case", ``千万`` "by all means"), ranges (``三四十``, ``十几``), number bases
(``十六进制``) and ordinals below ten (``第三方`` is "third party" to the model) stay the model's
(``三年前`` -> ``three years ago``). A bare ``十`` is ten only before what it counts (``十年前``,
``十多个``, ``十分钟``, not ``十分重要``): the model dropped ``十年前`` from its sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from doctrans.chinese_numerals import (
    ENGLISH_NUMBERS,
    count_numeral,
    english_ordinal,
    percent_in_words,
    read_figure,
    read_large_numeral,
    read_numeral,
    write_numeral,
)
from doctrans.fraction_words import (
    chinese_discounts,
    chinese_fractions,
    chinese_tenths,
    english_fractions,
    english_shares,
)
from doctrans.kept_names import common_words
from doctrans.language_id import base_language
from doctrans.magnitudes import english, in_wan
from doctrans.verbatim import Span

_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
          "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_SMALL = rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS)}))?|{'|'.join(_TEENS)}|{'|'.join(_UNITS)})"
_GROUP = rf"(?:(?:{_SMALL}|a) hundred(?:(?: and)? {_SMALL})?|{_SMALL})"
_NUMBER = rf"(?:(?:{_GROUP}|a) thousand(?:(?:,? and|,)? {_GROUP})?|{_GROUP})"
NUMBER_WORDS = _NUMBER  # an English number in words, one to 999,999 (doctrans.units' measures in words)
_SCALES = {"million": 6, "billion": 9, "trillion": 12}
# ... "and a half" before a scale or percent too (a contract's "one and a half percent (1.5%)" came
# back 一个半百分之, the percent a word of its own).
_PHRASE = re.compile(rf"(?<![\w'’-])({_NUMBER})(?:\s+(million|billion|trillion|percent|per cent)"
                     r"|(\s+and\s+a\s+half\s+(?:million|billion|trillion|percent|per cent)))?(?![\w'’-])",
                     re.IGNORECASE)
_FIGURE_IN_BRACKETS = re.compile(r"\s*[（(]\s*[0-9]+(?:\.[0-9]+)?\s*[%％]\s*[)）]")
# "nineteen eighty-four", "twenty twenty", "nineteen oh five": a year ("fifteen hundred" is 1,500).
_FIRST_HALF = f"{'|'.join(w for w in _TEENS if w != 'ten')}|twenty"
_YEAR_WORDS = re.compile(
    rf"(?<![\w'’-])({_FIRST_HALF})[- ]((?:oh|o)[- ](?:{'|'.join(_UNITS)})"
    rf"|(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS)}))?|{'|'.join(_TEENS)})(?![\w'’-])", re.IGNORECASE)
# "a ten-year-old", "seven years old": an age.
_AGE_WORDS = re.compile(rf"(?<![\w'’-])({_NUMBER})(?:-years?-old|\s+years?\s+old)(?![\w'’-])", re.IGNORECASE)
# "He was about ten, thin, ...", "I was seven when my father died": a person's age stated without
# "years old" (fiction's way); the en->zh model wrote 他大约十 and dropped the age.
_STATED_AGE = re.compile(rf"(?<![\w'’-])(?:he|she|i)(?:\s+(?:was|is|am|turned|turns)|['’]s)\s+"
                         rf"(?:(?:about|almost|nearly|only|just|barely|around|already|not yet)\s+)?({_NUMBER})"
                         r"(?=\s*[,.;!?]|\s+(?:when|and|then|at the time)\b)", re.IGNORECASE)
# ... and a named person's ("Emma was eleven." came back 艾玛是十一, the age lost): a capitalised name
# that is no common word (not "It was eleven", a time; not "Chapter Eleven").
_NAMED_STATED_AGE = re.compile(rf"(?<![\w'’-])([A-Z][a-z]+)(?:\s+(?:was|is|turned|turns)|['’]s)\s+"
                               rf"(?:(?:about|almost|nearly|only|just|barely|around|already|not yet)\s+)?"
                               rf"((?i:{_NUMBER}))(?=\s*[,.;!?]|\s+(?:when|and|then|at the time)\b)")
_INTO = frozenset({"zh", "ja"})
# "up from 31% three years ago" came back 前31%左右了, the three years gone: a time ago in words
# below ten is one span (ten and up are numbers above, digits doctrans.units' durations).
_AGO = re.compile(rf"(?<![\w'’-])(a|an|{'|'.join(_UNITS)})\s+(year|month|week|day|decade)s?\s+ago(?![\w'’-])",
                  re.IGNORECASE)
# An ordinal in digits ("finished 2nd" came back 完成了2, "the 5th time" 5次 -- five times, "our
# 10th anniversary" 10纪念日): 第N, and the Chinese word where English puts a noun after it.
_ORDINAL_DIGITS = re.compile(r"(?<![\w.,/-])([1-9][0-9]{0,3})(?:st|nd|rd|th)"
                             r"(?:\s+(century|anniversary|floor|birthday))?(?![\w'’-])", re.IGNORECASE)
_ON_THE = re.compile(r"(?i:\bon the|\bby the|\buntil the|\bfrom the)\s+$")
_ORDINAL_NOUNS = {"century": "{}世纪", "anniversary": "{}周年", "floor": "{}楼", "birthday": "{}岁生日"}
# "its highest level in four decades" came back 其最高级 (the decades gone); "ago" is _AGO's.
_DECADES = re.compile(rf"(?<![\w'’-])(a|one|{'|'.join(w for w in _UNITS if w != 'one')})\s+decades?"
                      r"(?!\s+ago)(?![\w'’-])", re.IGNORECASE)
_AGO_UNITS = {"year": "年前", "month": "个月前", "week": "周前", "day": "天前", "decade": "年前"}  # a decade: ×10


def value_of(words: str) -> int:
    """The value of an English number in words: ``a hundred and twenty`` -> 120."""
    total, group = 0, 0
    for word in re.split(r"[\s,-]+", words.lower()):
        if word in ("and", ""):
            continue
        if word == "a":
            group = 1
        elif word == "hundred":
            group = max(group, 1) * 100
        elif word == "thousand":
            total += max(group, 1) * 1000
            group = 0
        else:
            group += _UNITS.get(word) or _TEENS.get(word) or _TENS[word]
    return total + group


_CN_DIGITS = "一二三四五六七八九两"
# (Not after 双: 双十一 is Singles' Day, the shopping festival; it came back "double 11". Nor after 几:
# 几十年 is decades, not "10 years".)
_CN_NUMERAL = re.compile(rf"(?<![零〇{_CN_DIGITS}十百千万亿第双几])(第)?([{_CN_DIGITS}十][零〇{_CN_DIGITS}十百千万亿]*)"
                         rf"(?![零〇{_CN_DIGITS}十百千万亿几进])(多|余)?(世纪)?")  # 十六进制: hexadecimal


# What a bare 十 counts when it is a number (十年前 came back without its ten years: "I moved to
# Beijing"); 点 (o'clock) and 月 (October) are dates' and times'.
_COUNTED = ("年", "个", "天", "岁", "次", "名", "位", "家", "种", "倍", "分钟", "小时", "秒", "周", "星期", "人",
            "条", "本", "页", "篇", "项", "件", "辆", "座", "层", "所")  # after 多/余 too: 十多个, 十余年


def chinese_numerals(text: str, taken: Sequence[Span] = ()) -> list[Span]:
    """The Chinese numerals of ``text`` an English translation writes as figures (rules in the
    module docstring), outside ``taken``."""
    spans = []
    for m in _CN_NUMERAL.finditer(text):
        nth, numeral, more, century = m.group(1), m.group(2), m.group(3), m.group(4)
        if not any(c in numeral for c in "十百千万亿") or numeral in ("百", "千"):
            continue
        if numeral == "十" and (nth or century or not text.startswith(_COUNTED, m.end())):
            continue  # 十分 "very", 十足, 十字; but 十年前, 十多个, 十分钟 are counts
        value = read_large_numeral(numeral)
        if value is None or value < 10:
            continue
        if more and (nth or century):
            continue  # 第十多, 二十多世纪: no such ordinal
        start = m.start()
        if nth or century:  # 第十四 (届 stays the model's), 二十一世纪
            end = m.end(4) if century else m.end(2)
            target = english_ordinal(value) + (" century" if century else "")
        else:
            end = m.end(3) if more else m.end(2)
            figure = english(Decimal(value))
            target = {"多": f"more than {figure}", "余": f"over {figure}"}.get(more or "", figure)
        if any(start < t.end and t.start < end for t in taken):
            continue
        spans.append(Span(start, end, text[start:end], "number", target))
    return spans


# A duration counted in a small numeral (a purifier's 整机保修两年 came back "Warranty on the whole unit
# years", the two gone): two years, three months, five days. Not 一 (一年四季, 一天到晚 are idioms, 一天 as
# often "one day" as "a day"), a school's grade (三年级), an idiom's (三天两头, 三年五载, 两天打鱼), nor
# one with its half after it (五个小时半: the model's); only where the numeral was lost, right after
# another span or a word of a manual's or a contract's time (a line of dialogue's 已经三天了 the model
# writes well, and masked it wrote less well: "Let's talk about five minutes" for 过五分钟再说吧).
_SMALL_DURATION = re.compile(r"(?<![0-9一二两三四五六七八九十百千万第每前后上下这那几])([二两三四五六七八九])"
                             r"(个多?月|年|天|周|个星期|个多?小时|小时|分钟)(多)?"
                             r"(?!级|两头|五载|打鱼|三夜|两夜|半|[0-9一二两三四五六七八九十])")
# Where the numeral is lost: right after another span (⦅1⦆两年), or after a word a manual, a contract or a
# report counts time with.
_FORMAL_DURATION_BEFORE = re.compile(r"(?:保修|质保|保质期|有效期|为期|长达|历时|耗时|超过|至少|不少于|不超过|持续"
                                     r"|连续|期限为?|租期为?|试用期为?|工期|延长|推迟|提前|满|近|约|共|累计|共计)$")
_DURATION_WORDS = {"个月": "month", "年": "year", "天": "day", "周": "week", "个星期": "week", "个小时": "hour",
                   "小时": "hour", "分钟": "minute"}


def chinese_durations(text: str, taken: Sequence[Span] = ()) -> list[Span]:
    """The durations of ``text`` counted in a small Chinese numeral (``两年`` -> ``two years``,
    ``三个多月`` -> ``more than three months``), outside ``taken``: into English."""
    spans = []
    ends = {t.end for t in taken}
    for m in _SMALL_DURATION.finditer(text):
        if any(m.start() < t.end and t.start < m.end() for t in taken):
            continue
        if m.start() not in ends and not _FORMAL_DURATION_BEFORE.search(text, 0, m.start()):
            continue  # a line of dialogue's 已经三天了, 过五分钟再说吧: the model's, and it writes them well
        n = read_numeral(m.group(1))
        if n is None:
            continue
        unit = _DURATION_WORDS[m.group(2).replace("多", "")]  # 三个多月: more than three months
        written = f"{ENGLISH_NUMBERS[n]} {unit}s"
        if "多" in m.group(2) or m.group(3):
            written = f"more than {written}"
        end = m.end()
        if text[end:end + 1] in ("前", "后") and text[end + 1:end + 2] not in ("的", "面", "来"):  # 两年前, 三天后
            written += " ago" if text[end] == "前" else " later"
            end += 1
        spans.append(Span(m.start(), end, text[m.start():end], "number", written))
    return spans


# A count and a half ("Four and a half stars out of five" came back 四和半星, "two and a half hours"):
# 四星半, 两个半小时, as Chinese puts the half after the unit.
_AND_A_HALF_EN = re.compile(r"(?<![\w-])(one|two|three|four|five|six|seven|eight|nine|ten)\s+and\s+a\s+half\s+"
                            r"(?:(stars?)(?:\s+out\s+of\s+(five|5|ten|10))?|(hours?|days?|weeks?|months?|years?))"
                            r"(?![\w-])", re.IGNORECASE)
_HALF_INTO_CHINESE = {"star": "{}星半", "hour": "{}个半小时", "day": "{}天半", "week": "{}周半", "month": "{}个半月",
                      "year": "{}年半"}


# A rank among the superlatives ("the second-warmest year on record" came back 第二十五年, the
# twenty-fifth year): 第二热的, 第三大.
_SUPERLATIVES = {"warmest": "热", "hottest": "热", "coldest": "冷", "largest": "大", "biggest": "大", "highest": "高",
                 "lowest": "低", "wettest": "潮湿", "driest": "干燥", "busiest": "繁忙", "deadliest": "致命",
                 "richest": "富有", "fastest": "快", "longest": "长", "smallest": "小", "best": "好", "worst": "糟糕",
                 "tallest": "高", "oldest": "古老", "most populous": "人口最多"}
_NTH_SUPERLATIVE = re.compile(r"(?<![\w-])(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)"
                              rf"[- ]({'|'.join(_SUPERLATIVES)})(?![\w-])", re.IGNORECASE)


# How often, as a leaflet doses ("take 1 tablet up to three times a day" came back 一天到1片至三次):
# 每天最多三次, 每周两次.
_FREQUENCY = re.compile(r"(?<![\w-])(?:(?P<bound>up\s+to|no\s+more\s+than|at\s+most|at\s+least)\s+)?"
                        r"(?P<n>once|twice|(?:one|two|three|four|five|six|seven|eight|nine|ten)\s+times)"
                        r"\s+(?:a|an|per|each)\s+(?P<per>day|week|month|year|hour)(?![\w-])", re.IGNORECASE)
_FREQUENCY_BOUNDS = {"up to": "最多", "no more than": "不超过", "at most": "最多", "at least": "至少"}
_FREQUENCY_PERIODS = {"day": "天", "week": "周", "month": "月", "year": "年", "hour": "小时"}


# Tens or hundreds of a scale, which the en->zh model wrote a scale wrong ("spend tens of millions on
# projects" came back 十万块, a hundred thousand; "Hundreds of thousands of people fled" 几千人): 数千万,
# 数十万, with the "of" before what they count.
_VAGUE_MAGNITUDE = re.compile(r"(?<![\w-])(tens|hundreds)\s+of\s+(thousands|millions|billions)"
                              r"(?:\s+of(?=\s))?(?![\w-])",
                              re.IGNORECASE)
_VAGUE_INTO_CHINESE = {("tens", "thousands"): "数万", ("hundreds", "thousands"): "数十万",
                       ("tens", "millions"): "数千万", ("hundreds", "millions"): "数亿",
                       ("tens", "billions"): "数百亿", ("hundreds", "billions"): "数千亿"}


def find_number_words(text: str, src_lang: str | None, tgt_lang: str | None,
                      taken: Sequence[Span] = ()) -> list[Span]:
    """The English number words of ``text`` that reach the model as figures (see the module's
    docstring), outside ``taken`` (verbatim spans, earlier terms); from Chinese into English, the
    Chinese numerals (:func:`chinese_numerals`)."""
    lang = base_language(tgt_lang)
    if base_language(src_lang) == "zh" and lang == "en":
        fractions = chinese_fractions(text, taken)
        fractions += chinese_tenths(text, [*taken, *fractions])
        counts = chinese_numerals(text, [*taken, *fractions])
        counts += chinese_durations(text, [*taken, *fractions, *counts])
        return sorted([*fractions, *counts], key=lambda s: s.start)
    if base_language(src_lang) != "en" or lang not in _INTO:
        return []
    spans = english_fractions(text, taken) if lang == "zh" else []
    for m in _YEAR_WORDS.finditer(text):
        first, second = m.group(1).lower(), m.group(2).lower()
        rest = value_of(re.sub(r"^oh?[- ]", "", second))
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{value_of(first) * 100 + rest}年"))
    for m in _AGE_WORDS.finditer(text):
        # 两岁, as 两年前: a two-year-old had come back 二岁
        spans.append(Span(m.start(), m.end(), m.group(0), "number", count_numeral(value_of(m.group(1)), lang) + "岁"))
    for m in _AGO.finditer(text):
        count, unit = m.group(1).lower(), m.group(2).lower()
        n = (1 if count in ("a", "an") else _UNITS[count]) * (10 if unit == "decade" else 1)
        numeral = count_numeral(n, lang)  # 两年前, 两天前
        spans.append(Span(m.start(), m.end(), m.group(0), "number", numeral + _AGO_UNITS[unit]))
    if lang == "zh":
        for m in _AND_A_HALF_EN.finditer(text):
            count = count_numeral(value_of(m.group(1).lower()), lang)
            written = _HALF_INTO_CHINESE[(m.group(2) or m.group(4)).lower().rstrip("s")].format(count)
            if m.group(3):  # out of five: 满分五星
                written += f"（满分{'五' if m.group(3).lower() in ('five', '5') else '十'}星）"
            spans.append(Span(m.start(), m.end(), m.group(0), "number", written))
        for m in _NTH_SUPERLATIVE.finditer(text):
            n, adjective = _ORDINAL_WORD_VALUES[m.group(1).lower()], _SUPERLATIVES[m.group(2).lower()]
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"第{write_numeral(n, 'zh')}{adjective}{'' if adjective == '大' else '的'}"))
        for m in _FREQUENCY.finditer(text):
            count = m["n"].lower().split()[0]
            n = {"once": 1, "twice": 2}.get(count) or value_of(count)
            bound = _FREQUENCY_BOUNDS[re.sub(r"\s+", " ", m["bound"].lower())] if m["bound"] else ""
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"每{_FREQUENCY_PERIODS[m['per'].lower()]}{bound}{count_numeral(n, lang)}次"))
        for m in _VAGUE_MAGNITUDE.finditer(text):
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              _VAGUE_INTO_CHINESE[(m.group(1).lower(), m.group(2).lower())]))
        for m in _PLACE_WORDS.finditer(text):
            # A ranking in words: "moved up to ninth place" left "ninth" in English, "had finished
            # fourth at the Tokyo Games" came back 完成第四次 (the fourth time).
            n = _ORDINAL_WORD_VALUES[m.group(2).lower()]
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              ("获得" if m.group(1) else "") + f"第{write_numeral(n, 'zh')}名"))
    for m in _STATED_AGE.finditer(text):
        age = value_of(m.group(1))
        if 2 <= age < 120:  # "she is one" is more often a pronoun (one of them)
            spans.append(Span(m.start(1), m.end(1), m.group(1), "number", write_numeral(age, lang) + "岁"))
    for m in _NAMED_STATED_AGE.finditer(text):
        age = value_of(m.group(2))
        if 2 <= age < 120 and m.group(1).lower() not in common_words():
            spans.append(Span(m.start(2), m.end(2), m.group(2), "number", write_numeral(age, lang) + "岁"))
    spans = [s for i, s in enumerate(spans) if not s.overlaps_any([*taken, *spans[:i]])]
    for m in _PHRASE.finditer(text):
        if any(m.start() < t.end and t.start < m.end() for t in [*taken, *spans]):
            continue
        words, after = m.group(1), (m.group(2) or "").lower()
        value = value_of(words)
        exact = Decimal(value)
        if m.group(3):  # and a half
            after = m.group(3).lower().split(maxsplit=3)[-1]
            exact += Decimal("0.5")
        if after in _SCALES:
            target = in_wan(exact.scaleb(_SCALES[after]), lang)
        elif after and lang == "zh" and _FIGURE_IN_BRACKETS.match(text, m.end()) and 0 < exact < 1000:
            # A contract's figure in words with its digits after it ("one and a half percent (1.5%)"
            # came back 1.5% (1.5%)): the words as Chinese words, 百分之一点五（1.5%）, as "thirty (30)".
            target = percent_in_words(exact)
        elif after:
            target = f"{exact}%"
        elif value >= 10 or re.search("hundred|thousand", words, re.IGNORECASE):
            target = write_numeral(value, lang)
        else:
            continue  # one to nine alone: the model's words
        spans.append(Span(m.start(), m.end(), m.group(0), "number", target))
    return sorted(spans, key=lambda s: s.start)


# A place in a ranking, in words: "ninth place", "finished fourth" (not "finished first reading").
_ORDINAL_WORD_VALUES = {w: i for i, w in enumerate(
    ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
     "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
     "twentieth"), 1)}
# Not after "the" ("in the first place" is to begin with, "the first place I saw" a place).
_PLACE_WORDS = re.compile(rf"(?i)(?<![A-Za-z])(?<!the )(?:(finished|placed|came|ended)\s+)?"
                          rf"({'|'.join(_ORDINAL_WORD_VALUES)})"
                          r"(?(1)(?=\s*(?:[.,;]|$|\s(?:at|in|on|with|behind|after|overall)\b))|\s+place(?![A-Za-z]))")


# An ordinal made by adding "th" to a cardinal word the model knew ("the threeth floor" for 比三楼,
# "oneth", "fiveth", "twentyth"): never English, whoever wrote it. Only the malformed forms are
# listed, so a correct ordinal or another word ending in "th" is never touched.
_MALFORMED_ORDINALS = {"oneth": "first", "twoth": "second", "threeth": "third", "fiveth": "fifth",
                       "eightth": "eighth", "nineth": "ninth", "twelveth": "twelfth"}
_MALFORMED_ORDINALS.update({f"{tens[:-1]}yth": f"{tens[:-1]}ieth" for tens in _TENS})  # twentyth -> twentieth
_MALFORMED = re.compile(rf"\b({'|'.join(_MALFORMED_ORDINALS)})\b", re.IGNORECASE)


def proper_ordinals(text: str) -> str:
    """``text`` (English) with the ordinals the model built wrong as English writes them
    ("threeth" -> "third", "Twentyth" -> "Twentieth"); the capital kept."""
    def fix(m: re.Match[str]) -> str:
        right = _MALFORMED_ORDINALS[m.group(1).lower()]
        return right.capitalize() if m.group(1)[0].isupper() else right

    return _MALFORMED.sub(fix, text)


# 第 and a figure before a counter, into English ("他获得了第2名": the figure masked, 第 and 名 left to
# the model): an ordinal, and for a place or a time the noun too.
_CHINESE_DIGIT_ORDINAL = re.compile(r"第\s?([0-9]{1,4})\s?(?:(名|位)|(次)|(季度)|(分钟|天|周|个月|年)|(?=[届轮期场]))")
# The edition's 届 is the span's: left to the model after the ordinal it came back "the 3rd th".
_CHINESE_NUMERAL_EDITION = re.compile(r"第([一二三四五六七八九十百]{1,4})届")
# A time's ordinal with its noun (比赛第12分钟 came back "The 12 minutes of the game").
_ORDINAL_TIMES = {"分钟": " minute", "天": " day", "周": " week", "个月": " month", "年": " year"}


def find_shares(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """doctrans.fraction_words.english_shares into Chinese (``one in five``, ``1 in 10``, ``half of
    the``, ``a quarter of a percentage point``), and a span of decades (``four decades`` -> 四十年);
    into English a discount (``打八折`` -> ``20% off``: doctrans.fraction_words.chinese_discounts):
    with the figures, as a share's digits are verbatim spans (``1 in 10 jobs`` came back 1号10)."""
    if base_language(src_lang) == "zh" and base_language(tgt_lang) == "en":
        return chinese_discounts(text)  # with their digits (5折, 8.5折), which are verbatim spans
    if base_language(src_lang) != "en" or base_language(tgt_lang) not in _INTO:
        return []
    spans = english_shares(text)
    for m in _DECADES.finditer(text):
        n = 1 if m.group(1).lower() in ("a", "one") else _UNITS[m.group(1).lower()]
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{write_numeral(n * 10)}年"))
    return [s for i, s in enumerate(spans) if not s.overlaps_any(spans[:i])]


# An agreement's figure in words and digits (``thirty (30) days``: the model kept the digits and
# dropped the days, or left ``days'`` in English), with what it counts, as Chinese agreements write it.
_IN_WORDS_AND_DIGITS = re.compile(rf"(?<![\w'’-])({_NUMBER})\s+\(([0-9]{{1,5}})\)(?:\s+(?:(business|calendar|working)"
                                  r"\s+)?(days?|months?|years?|weeks?|hours?)(?:['’](?![\w]))?)?(?![\w'’-])",
                                  re.IGNORECASE)
_COUNTED_TIMES = {"day": "天", "month": "个月", "year": "年", "week": "周", "hour": "小时"}
_KINDS_OF_DAYS = {"business": "个工作日", "working": "个工作日", "calendar": "个日历日"}


def find_words_and_digits(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``thirty (30) days`` -> ``三十（30）天``, ``twenty-four (24) months`` -> ``二十四（24）个月``,
    ``ten (10) business days`` -> ``十（10）个工作日``: a figure written twice, as agreements do, and
    what it counts, English into Chinese; the words must say the digits' value."""
    if base_language(src_lang) != "en" or base_language(tgt_lang) != "zh":
        return []
    spans = []
    for m in _IN_WORDS_AND_DIGITS.finditer(text):
        value = value_of(m.group(1))
        if value != int(m.group(2)):
            continue
        unit = (m.group(4) or "").lower().rstrip("s")
        counted = _KINDS_OF_DAYS[m.group(3).lower()] if m.group(3) and unit == "day" else _COUNTED_TIMES.get(unit, "")
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{write_numeral(value)}（{value}）{counted}"))
    return spans


# A span of time that ends now (``Over the last 12 months`` came back 超过了12个月, "more than 12
# months"; ``in the last ten minutes`` 十分钟后, "ten minutes later"; ``over the past two years``
# was lost): 过去 and the span, 在过去…里 with its preposition. Not ``the last two years of the war``
# (its final years).
_RECENT = re.compile(rf"(?<![\w'’-])(?:(in|over|during|within|for)\s+)?the\s+(last|past|next|coming)\s+"
                     rf"(?:([0-9]{{1,3}}|{_SMALL}|a few|few|several)\s+)?"
                     r"(minutes?|hours?|days?|weeks?|months?|years?|decades?)(?![\w'’-])(?!\s+of\b)",
                     re.IGNORECASE)
_RECENT_UNITS = {"minute": "分钟", "hour": "小时", "day": "天", "week": "周", "month": "个月", "year": "年",
                 "decade": "年"}


# A team's record over its recent games (City have won 11 of their last 12 league games came back
# 11的最后一12联赛比赛): 最近12场联赛比赛中的11场, the count the model then says it won or lost.
_RECENT_GAMES = re.compile(rf"(?<![\w'’-])([0-9]{{1,2}}|{_SMALL})\s+of\s+(?:their|its|his|her|our)\s+last\s+"
                           rf"([0-9]{{1,2}}|{_SMALL})\s+(?:(league|home|away|Premier League)\s+)?"
                           r"(?:games|matches|fixtures)(?![\w'’-])", re.IGNORECASE)
_GAMES_OF = {"league": "联赛", "premier league": "英超", "home": "主场", "away": "客场"}


def _recent_games(text: str) -> list[Span]:
    spans = []
    for m in _RECENT_GAMES.finditer(text):
        won, of = (x if x.isdigit() else count_numeral(value_of(x)) for x in (m.group(1), m.group(2)))
        kind = _GAMES_OF.get((m.group(3) or "").lower(), "")
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"最近{of}场{kind}比赛中的{won}场"))
    return spans


# A vote's tally in words ("passed the bill by a vote of 69 to 30" came back 由69投票的30组成, composed
# of 30 of 69 votes): 以69票对30票. (A tally in figures, 69-30, is a score: doctrans.scores.)
# ... and "by 312 votes to 287" (a parliament's, came back 为312票至287).
_TALLY = re.compile(r"(?<![\w'’-])by\s+(?:a\s+vote\s+of\s+([0-9]{1,4})|([0-9]{1,4})\s+votes)\s*(?:to|-|–)\s*"
                    r"([0-9]{1,4})(?![\w'’-])", re.IGNORECASE)


def _tallies(text: str) -> list[Span]:
    return [Span(m.start(), m.end(), m.group(0), "number", f"以{m.group(1) or m.group(2)}票对{m.group(3)}票")
            for m in _TALLY.finditer(text)]


def find_recent_periods(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``in the past five years`` -> ``在过去五年里``, ``the last 12 months`` -> ``过去12个月``, ``the past
    decade`` -> ``过去十年``, ``over the next three years`` -> ``未来三年内``, English into Chinese (see
    :data:`_RECENT`); into English ``近三年来`` -> ``over the past three years``, ``过去12个月`` -> ``the
    past 12 months``, ``未来三年内`` -> ``within the next three years`` (:data:`_RECENT_ZH`)."""
    if base_language(src_lang) == "zh" and base_language(tgt_lang) == "en":
        return _recent_periods_into_english(text)
    if base_language(src_lang) != "en" or base_language(tgt_lang) != "zh":
        return []
    spans = _recent_games(text) + _tallies(text)
    for m in _RECENT.finditer(text):
        count, unit = (m.group(3) or "").lower(), m.group(4).lower().rstrip("s")
        plural = m.group(4).lower().endswith("s")
        if count in ("a few", "few", "several"):
            figure = "几"
        elif count.isdigit():
            figure = count if unit != "decade" else str(int(count) * 10)
        elif count:
            n = value_of(count) * (10 if unit == "decade" else 1)
            figure = count_numeral(n)
        elif plural:
            continue  # "the past years": how many is not said
        else:
            figure = "十" if unit == "decade" else "一"
        if m.group(2).lower() in ("next", "coming"):  # in the next five years: 未来五年内
            if not count:
                continue  # the next day is 第二天, the next year 明年: not a span from now
            period = f"未来{figure}{_RECENT_UNITS[unit]}"
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{period}内" if m.group(1) else period))
            continue
        period = f"过去{figure}{_RECENT_UNITS[unit]}"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"在{period}里" if m.group(1) else period))
    return spans


# The mirror, into English: 过去五年 ("For the last five years" at best), and 近N年来 (近十年来 came
# back "Almost 10", 近三年来 "Three years"); 近N年 without 来 is "nearly" after a verb (工作了近10年),
# so only at a clause's start. A 在 before it goes with it (在未来三年内 came back "in within the next
# three years").
_RECENT_ZH = re.compile(r"(?:在)?(?:过去的?|(?P<near>(?<![\u4e00-\u9fff])近)|(?P<next>未来的?))"
                        r"(?P<n>[0-9]{1,3}|[一二两三四五六七八九十]{1,3})"
                        r"(?P<unit>年|个月|天|周|个星期|小时)(?P<since>以来|来|里|中|间|内)?")
_RECENT_INTO_ENGLISH = {"年": "year", "个月": "month", "天": "day", "周": "week", "个星期": "week", "小时": "hour"}


def _recent_periods_into_english(text: str) -> list[Span]:
    spans = []
    for m in _RECENT_ZH.finditer(text):
        if m["near"] and not m["since"] and text[m.end():m.end() + 1] not in ("，", ","):
            continue  # 工作了近10年: nearly ten years
        n = read_figure(m["n"])
        if not n:
            continue
        words = f"{ENGLISH_NUMBERS[n] if n < 10 else n} {_RECENT_INTO_ENGLISH[m['unit']]}{'s' if n > 1 else ''}"
        when = "next" if m["next"] else "past"
        period = f"the {when} {words}" if n > 1 else f"the {when} {_RECENT_INTO_ENGLISH[m['unit']]}"
        if m["since"]:  # 未来三年内: within the next three years; 近三年来: over the past three years
            period = f"{'within' if m['since'] == '内' else 'over'} {period}"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", period))
    for m in _CONSECUTIVE_ZH.finditer(text):
        n = read_figure(m["n"])
        if n and n > 1 and not any(s.start < m.end() and m.start() < s.end for s in spans):
            count = ENGLISH_NUMBERS[n] if n < 10 else str(n)
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"for {count} consecutive {_CONSECUTIVE_UNITS[m['unit']]}"))
    return spans


# Periods in a row (本集团连续三年未发生重大事故 came back "in sequential contiguous years", 连续3年盈利 "A
# continuous 3 years parallel"): for three consecutive years.
_CONSECUTIVE_ZH = re.compile(r"连续(?P<n>[0-9]{1,3}|[一二两三四五六七八九十]{1,3})"
                             r"(?P<unit>年|个月|天|日|周|个星期|个季度)"
                             r"(?![0-9一二三四五六七八九十])")
_CONSECUTIVE_UNITS = {"年": "years", "个月": "months", "天": "days", "日": "days", "周": "weeks", "个星期": "weeks",
                      "个季度": "quarters"}


# A time and a half into English (会议持续了两个半小时 came back "two hours", 项目用了三年半 "three
# years", 她走了半年 "half years"): the figure with its half. Not 上半年/下半年/前半年/大半年 (parts of a
# year) nor 半年度/半年报 (semi-annual).
_AND_A_HALF = re.compile(r"(?<![0-9.一二两三四五六七八九十百千万])([0-9]{1,3}|[一二两三四五六七八九十]{1,3})"
                         r"(个半小时|个半钟头|个半月|个半星期|年半|天半|周半)")
_HALF_UNITS = {"个半小时": "hours", "个半钟头": "hours", "个半月": "months", "个半星期": "weeks", "年半": "years",
               "天半": "days", "周半": "weeks"}
_HALF_A_YEAR = re.compile(r"(?<![上下前后大多])半年(?![度报])")
# More than a count below ten of a time (火车晚点了一个多小时 came back "A lot of hours").
_MORE_THAN_COUNT = re.compile(r"(?<![0-9.一二两三四五六七八九十百千万第])([一二两三四五六七八九])"
                              r"个多(小时|钟头|月|星期)")
_MORE_THAN_UNITS = {"小时": ("an", "hour"), "钟头": ("an", "hour"), "月": ("a", "month"), "星期": ("a", "week")}


def find_halves(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``两个半小时`` -> ``2.5 hours``, ``三年半`` -> ``3.5 years``, ``半年`` -> ``half a year``,
    ``一个多小时`` -> ``more than an hour``, Chinese into English (see :data:`_AND_A_HALF`)."""
    if base_language(src_lang) != "zh" or base_language(tgt_lang) != "en":
        return []
    spans = []
    for m in _AND_A_HALF.finditer(text):
        n = read_figure(m.group(1))
        if n:
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{n}.5 {_HALF_UNITS[m.group(2)]}"))
    halves = [Span(m.start(), m.end(), m.group(0), "number", "half a year") for m in _HALF_A_YEAR.finditer(text)]
    spans += [h for h in halves if not h.overlaps_any(spans)]
    for m in _MORE_THAN_COUNT.finditer(text):
        n = read_numeral(m.group(1)) or 0
        article, unit = _MORE_THAN_UNITS[m.group(2)]
        count = f"{article} {unit}" if n == 1 else f"{ENGLISH_NUMBERS[n]} {unit}s"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"more than {count}"))
    return sorted(spans, key=lambda s: s.start)


# A time of day in words into Chinese ("It was a quarter past nine" came back 九十四分之一, a 94th).
_HOURS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_PAST_TO = {"a quarter": 15, "quarter": 15, "half": 30, "five": 5, "ten": 10, "twenty": 20, "twenty-five": 25,
            "twenty five": 25}
_CLOCK_WORDS = re.compile(rf"(?<![\w'’-])(?:(?P<m>a quarter|quarter|half|twenty[- ]five|twenty|ten|five)\s+"
                          rf"(?P<dir>past|after|to)\s+(?P<h>{'|'.join(_HOURS)})(?:\s+o['’]clock)?|"
                          rf"(?P<h2>{'|'.join(_HOURS)})\s+o['’]clock)(?![\w'’-])"
                          # ... not a range of things counted after it ("at least five to seven years away"
                          # came back 至少六点五十五分年, at 6:55)
                          r"(?!\s+(?:[a-z]+s|year|month|week|day|hour|minute|time|percent|per|of|more|million"
                          r"|billion|thousand|hundred)\b)", re.IGNORECASE)


# An hour in words after a verb of the day's times and "at" (a story's "Eleanor woke at six" came back
# 在六岁的时候, at the age of six; "The shop opens at nine"), or after until: 六点, 早上六点.
_HOUR_AFTER_VERB = re.compile(
    r"(?i)\b(?:(?:woke|wakes?|got|gets?)(?:\s+up)?|arrived?|arrives|left|leaves?|start(?:s|ed)?|begins?|began"
    r"|open(?:s|ed)?|close[sd]?|finish(?:es|ed)?|home|back|met|meets?|dinner|lunch|breakfast|up)\s+"
    rf"(?P<span>at\s+(?P<h>{'|'.join(_HOURS)})(?:\s+(?P<part>in the morning|in the afternoon|in the evening|at night"
    r"|sharp))?)(?![\w'’-])(?!\s+(?:[a-z]+s|year|month|week|day|hour|minute|o['’]clock)\b)")
_DAY_PART_WORDS = {"in the morning": "早上", "in the afternoon": "下午", "in the evening": "晚上", "at night": "晚上"}


# "ten to two" is a time only where the sentence speaks of one (not "odds of five to one").
_TIME_CUE = re.compile(r"(?i)\b(?:at|it was|it's|until|till|by|around|about|before|after|o['’]clock|morning|"
                       r"evening|night|afternoon|clock|time|woke|arrived|left)\b")


def find_clock_words(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``a quarter past nine`` -> ``九点一刻``, ``half past six`` -> ``六点半``, ``twenty to five`` ->
    ``四点四十分``, ``nine o'clock`` -> ``九点``: English into Chinese."""
    if base_language(src_lang) != "en" or base_language(tgt_lang) != "zh":
        return []
    spans = []
    for m in _CLOCK_WORDS.finditer(text):
        if m["h2"]:
            hour = _HOURS.index(m["h2"].lower()) + 1
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{write_numeral(hour)}点"))
            continue
        hour, minutes = _HOURS.index(m["h"].lower()) + 1, _PAST_TO[m["m"].lower().replace("-", " ")]
        written = {15: "一刻", 30: "半"}.get(minutes, f"{write_numeral(minutes)}分")
        if m["dir"].lower() == "to":
            if not _TIME_CUE.search(text):
                continue  # "odds of five to one": no time of day
            hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
            written = f"{write_numeral(minutes)}分"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{write_numeral(hour)}点{written}"))
    for m in _HOUR_AFTER_VERB.finditer(text):
        if any(sp.start < m.end("span") and m.start("span") < sp.end for sp in spans):
            continue
        part = (m["part"] or "").lower()
        clock = f"{write_numeral(_HOURS.index(m['h'].lower()) + 1)}点"
        written = f"{clock}整" if part == "sharp" else _DAY_PART_WORDS.get(part, "") + clock
        spans.append(Span(m.start("span"), m.end("span"), m["span"], "number", written))
    return sorted(spans, key=lambda sp: sp.start)


def find_digit_ordinals(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """English ordinals in digits into Chinese: ``2nd`` -> ``第2``, ``the 21st century`` -> ``21世纪``,
    ``10th anniversary`` -> ``10周年`` (the digits alone were masked, the ending left to the model);
    into English ``第2名`` -> ``2nd place``, ``第5次`` -> ``5th time``, ``第3届`` -> ``3rd``, ``第3季度`` -> ``Q3``,
    ``第12分钟`` -> ``12th minute``, ``第3天`` -> ``3rd day``."""
    if base_language(src_lang) == "zh" and base_language(tgt_lang) == "en":
        spans = []
        for m in _CHINESE_DIGIT_ORDINAL.finditer(text):
            n = int(m.group(1))
            if m.group(4):  # 第3季度: a quarter (the report's Q3), only 1 to 4
                if 1 <= n <= 4:
                    spans.append(Span(m.start(), m.end(), m.group(0), "number", f"Q{n}"))
                continue
            noun = " place" if m.group(2) else " time" if m.group(3) else _ORDINAL_TIMES.get(m.group(5) or "", "")
            end = m.end() + (1 if text.startswith("届", m.end()) else 0)
            spans.append(Span(m.start(), end, text[m.start():end], "number", english_ordinal(n) + noun))
        # ... and in numerals before the edition of an event (第五届数字经济论坛 came back "the fifth
        # digital economy", the forum's edition read away with it): the 5th.
        for m in _CHINESE_NUMERAL_EDITION.finditer(text):
            edition = read_numeral(m.group(1))
            if edition and not any(sp.start < m.end() and m.start() < sp.end for sp in spans):
                spans.append(Span(m.start(), m.end(), m.group(0), "number", english_ordinal(edition)))
        return sorted(spans, key=lambda sp: sp.start)
    if base_language(src_lang) != "en" or base_language(tgt_lang) not in _INTO:
        return []
    spans = []
    for m in _ORDINAL_DIGITS.finditer(text):
        n, noun = int(m.group(1)), (m.group(2) or "").lower()
        if m.group(0)[:len(m.group(1)) + 2].lower() != english_ordinal(n):
            continue  # "1th", "3st": no ordinal
        written = _ORDINAL_NOUNS.get(noun, "第{}").format(n)
        if not noun and n <= 31 and _ON_THE.search(text, 0, m.start()):
            written = f"{n}日"  # "on the 11th": a day of the month
        spans.append(Span(m.start(), m.end(), m.group(0), "date" if written.endswith("日") else "number", written))
    return spans


# Years counted after a numeral (十年没回来, 判二十五年, 头十年): a span of time; not a time from now
# or then (十年前, 二十年来, 十年后), a decade (八十年代), a grade, a year's part or a yearly report.
_YEARS_AFTER = re.compile(r"年(?![前后来以内里间代级度份初底末中左])")
# The figure as the model left it, with no unit after it: at a clause's end or before a space.
_BARE_FIGURE_END = r"(?![0-9A-Za-z,.-][0-9A-Za-z]|-| ?(?:years?|yrs?|decades?|-year)\b)"


def with_years(text: str, source: str, spans: Sequence[Span]) -> str:
    """``text`` (English, restored) with "years" after each figure whose Chinese numeral counted
    years (十年没回来) where the model dropped them: it writes a numeral's figure for the model to copy and
    the model wrote 年 as years mostly ("I've known him 10 years"), but not always ("It's not back in
    10", 十三年没有工作过了 "I haven't worked in 13", 二十五年 "25."). Not after a figure a word
    follows in the same word (10-shirt), nor where the figure is written twice (which is whose?)."""
    for span in spans:
        if span.kind != "number" or span.target is None or not span.target.isdigit() \
                or not _YEARS_AFTER.match(source, span.end):
            continue
        figure = rf"(?<![0-9A-Za-z.,]){re.escape(span.target)}(?![0-9])"
        if len(re.findall(figure, text)) == 1:  # not another span's 10 (十个人等了十年: 10 people)
            text = re.sub(figure + _BARE_FIGURE_END, f"{span.target} years", text)
    return text
