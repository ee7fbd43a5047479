"""Things a report counts, into Chinese with their counter: ``23 countries`` -> ``23个国家``.

English counts a noun with the figure alone; Chinese puts a counter word between (个, 名, 家, 所),
and the en->zh model, which saw few such counts in subtitles and manuals, wrote the noun wrong or
not at all: "Our workforce grew to 12,400 employees in 23 countries" came back
``在23计数中长大了12,400个员工`` (countries read as counts), "16 cities" as ``16工具`` (tools). So a
figure and the noun right after it (doctrans/data/counted_nouns.tsv) are one span whose target is
the figure as written, the counter and the noun; a figure with a magnitude word counts in 万/亿
(``3 million people`` -> ``300万人``: doctrans.magnitudes):

| source                                  | written              |
|-----------------------------------------|----------------------|
| grew to 12,400 employees in 23 countries | 12,400名员工 · 23个国家 |
| scholarships for 1,150 students.        | 1,150名学生          |
| displaced 3 million people              | 300万人              |
| 1.2 million households were hit         | 120万户家庭          |
| 1 country                               | 1个国家              |
| $450,000 car                            | (none)               |
| Python 3 users                          | (none)               |
| In 2020 students returned               | (none)               |
| 5 school friends                        | (none)               |
| 3 country singers                       | (none)               |

Only a count: not after a currency sign, a colon or a name (``Windows 10 devices`` is about
Windows 10), not a calendar year, a singular noun after 1 only, and no other noun right after the
counted one (``5 school friends`` counts friends): the word after it must end a phrase -- a mark,
a word such as ``in``, ``of``, ``and``, ``who``, ``were``, or a verb in ``-ed``. One adjective of a
short list may stand between the figure and the noun (``96 new wells`` -> ``96口新水井``, ``340 local
technicians`` -> ``340名当地技术人员``). English into Chinese only.
"""

from __future__ import annotations

import re
from functools import cache

from doctrans.chinese_numerals import count_numeral
from doctrans.data_lists import data_lines
from doctrans.language_id import base_language
from doctrans.magnitudes import decimal_value, english, find_magnitudes, grouped_digits
from doctrans.verbatim import Span

# What may follow a counted noun: the phrase ends there.
_PHRASE_END = re.compile(
    r"\s*(?:$|[.,;:!?)\]\"'”’—–-]|(?:in|of|and|or|to|from|at|on|with|for|who|that|which|were|was|are|is|have|had|has"
    r"|will|would|could|can|may|across|around|over|under|by|per|each|this|last|since|as|but|while|a|an|the|than"
    r"|worldwide|nationwide|globally|so|because|after|before|during|into|through|like|including|such|between|within"
    r"|among|along|throughout|near|via|every|a day|a week|daily|up to|at most|at least|twice|once|[a-z]+ed"
    # ... an adverb before the verb (a charity's "46 new wells now provide" came back 46新包)
    r"|now|also|still|already|currently|together|often|usually|never|all|both)"
    r"(?![A-Za-z]))")
_FIGURE = r"[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:\.[0-9]+)?"
# ... but not the figure people forecast ("fewer than the 200,000 economists had expected" came back
# 200,000经济学家: the 200,000 jobs they expected).
_FORECASTERS = re.compile(r"\s+(?:had\s+|have\s+)?(?:expected|forecast|predicted|estimated|anticipated|projected)\b")
# Not after a currency sign, a colon, a dot, a letter or a digit; not after a capitalised name
# and a space (Windows 10, Python 3, Django 1.3), but after a sentence's first word (In 23 countries).
_BEFORE = r"(?<![0-9A-Za-z_$€£¥:.,/#-])"
_WORD_AFTER = re.compile(r"\s+(?P<noun>[a-z]+)(?![A-Za-z\-])")
_NAME_BEFORE = re.compile(r"(?<![A-Za-z])([A-Z][A-Za-z]*)\s$")
_NOT_NAMES = frozenset({"In", "Of", "About", "Over", "Nearly", "Almost", "Around", "Some", "All", "The", "With",
                        "For", "By", "To", "And", "More", "Than", "At", "On", "From", "Only", "Just", "Another",
                        "Across", "Among", "Under", "Since", "Roughly", "Approximately",
                        # an instruction's verb (a leaflet's "Take 2 tablets every 4–6 hours")
                        "Take", "Give", "Use", "Add", "Buy", "Drink", "Eat", "Wait", "Allow", "Select", "Choose",
                        "Mix", "Cut", "Pick", "Hire", "Invite", "Apply", "Bring", "Keep", "Remove", "Place"})


# An adjective a count may put between the figure and the noun (a charity's "installed 96 new wells",
# "trained 340 local technicians"), and its Chinese, after the counter.
_ADJECTIVES = {"new": "新", "local": "当地", "foreign": "外国", "international": "国际", "young": "年轻"}


@cache
def _nouns() -> tuple[dict[str, tuple[str, bool]], re.Pattern[str]]:
    """(English form -> (counter and noun, singular?), the pattern of figure and noun); not before an
    age ("2,418 adults aged 45 to 70" is doctrans.units' one span, 2,418名45至70岁的成年人)."""
    nouns: dict[str, tuple[str, bool]] = {}
    for line in data_lines("counted_nouns.tsv"):
        forms, counter, chinese = line.split("\t")
        if forms.startswith("!"):
            continue  # only written: the English is another thing as often (fans that cool a laptop)
        for i, form in enumerate(forms.split("|")):
            nouns[form] = (counter + chinese, i == 0 and not form.endswith("s"))
    words = "|".join(sorted(map(re.escape, nouns), key=len, reverse=True))
    adjectives = "|".join(_ADJECTIVES)
    return nouns, re.compile(rf"{_BEFORE}(?P<figure>{_FIGURE})\s+(?:(?P<adjective>{adjectives})\s+)?"
                             rf"(?P<noun>{words})(?![A-Za-z\-])(?!\s+aged\s+[0-9])")


@cache
def _chinese_nouns() -> tuple[dict[str, tuple[str, str]], re.Pattern[str]]:
    """(counter and noun, or the noun alone -> (English singular, plural), the pattern of a figure,
    a counter and a noun): the table read the other way."""
    nouns: dict[str, tuple[str, str]] = {}
    chinese_nouns: set[str] = set()
    for line in data_lines("counted_nouns.tsv"):
        forms, counter, chinese = line.split("\t")
        if not counter:
            continue  # 5人, 3页: parts of other words (5人制, 第3页) as often
        singular, plural = [*forms.removeprefix("!").split("|"), ""][:2]
        nouns.setdefault(counter + chinese, (singular, plural or singular))
        nouns.setdefault(chinese, (singular, plural or singular))
        chinese_nouns.add(chinese)
    words = "|".join(sorted(map(re.escape, chinese_nouns), key=len, reverse=True))
    figure = rf"(?P<figure>{_FIGURE})(?P<magnitude>万|亿)?"
    # (after a full-width comma that follows a clause: 上涨，52只股票涨停; not one inside a figure's digits)
    return nouns, re.compile(rf"(?<![0-9.,])(?<![0-9]，)(?:{figure}(?P<counter>[{_COUNTERS}])(?P<noun>{words})"
                             rf"(?![{_MAKES_ANOTHER_NOUN}])"
                             # ... or the noun first, as a list or a report counts (口罩50万只, 数控机床2台)
                             rf"|(?P<noun_first>{words})(?P<figure2>{_FIGURE})(?P<magnitude2>万|亿)?"
                             rf"(?P<counter2>[{_COUNTERS}])(?=[，。；、,.;）)（(\s]|$))")


_WORD_VALUES = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_FAMILY = ("great-grandchildren", "grandchildren", "granddaughters", "grandsons", "daughters", "sons")
_WORD_COUNT = re.compile(rf"(?<![\w'’-])({'|'.join(_WORD_VALUES)})\s+({'|'.join(_FAMILY)})(?![\w'’-])", re.IGNORECASE)


# The counters a Chinese count may use for a noun of the table (5座城市 as 5个城市), and what after
# the noun makes it another word (城市化 urbanisation, 城市群 a city cluster, 学校长 no school);
# a verb may follow (23个省份开展了活动).
_COUNTERS = "个座家所名位辆台栋口本场户种项只片例次根瓣"
_MAKES_ANOTHER_NOUN = "化群圈带级型类性率长们区"


def _into_english(text: str) -> list[Span]:
    nouns, pattern = _chinese_nouns()
    spans = []
    for m in pattern.finditer(text):
        noun, figure = m.group("noun") or m.group("noun_first"), m.group("figure") or m.group("figure2")
        counter, magnitude = m.group("counter") or m.group("counter2"), m.group("magnitude") or m.group("magnitude2")
        singular, plural = nouns.get(counter + noun) or nouns[noun]
        if magnitude:  # 2.1万 -> 21,000, 1.2亿 -> 120 million
            value = decimal_value(figure)
            if value is None:
                continue
            figure = english(value.scaleb(4 if magnitude == "万" else 8))
        else:
            figure = grouped_digits(figure)  # 32518名球迷 -> 32,518 fans
        spans.append(Span(m.start(), m.end(), m.group(), "number", f"{figure} {singular if figure == '1' else plural}"))
    return spans


def find_counted_nouns(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The counts of ``text`` (a figure and the noun it counts) as ``number`` spans whose target is
    the figure, its counter and the noun in Chinese; into English, a figure, a counter and a noun
    of the table the same way round (福厦高铁沿线设有8座车站 came back "set by 8-cities", 5个城市 "5
    city")."""
    if base_language(tgt_lang) == "en" and base_language(src_lang) == "zh":
        return _into_english(text)
    if base_language(tgt_lang) != "zh" or base_language(src_lang) == "zh":
        return []
    nouns, pattern = _nouns()
    magnitudes = find_magnitudes(text, tgt_lang)
    spans: list[Span] = []
    for m in pattern.finditer(text):
        counted, singular = nouns[m.group("noun")]
        figure = m.group("figure")
        if singular != (figure == "1") or not _PHRASE_END.match(text, m.end()) or _FORECASTERS.match(text, m.end()):
            continue
        if re.fullmatch(r"(?:19|20)[0-9]{2}", figure):
            continue  # a calendar year: "In 2020 students returned"
        name = _NAME_BEFORE.search(text, max(0, m.start() - 30), m.start())
        if name and name.group(1) not in _NOT_NAMES:
            continue  # Windows 10 devices, Python 3 users
        if m.group("adjective"):  # 96口新水井: the counter (one character), the adjective, the noun
            counter, noun = counted[:1], counted[1:]
            counted = counter + _ADJECTIVES[m.group("adjective")] + noun
        spans.append(Span(m.start(), m.end(), m.group(), "number", figure + counted))
    # A family counted in words (an obituary's "two daughters, five grandchildren"): two to nine only,
    # before a noun of its family (one of them, "two people", stay the model's).
    for m in _WORD_COUNT.finditer(text):
        counted, _singular = nouns[m.group(2).lower()]
        spans.append(Span(m.start(), m.end(), m.group(), "number",
                          count_numeral(_WORD_VALUES[m.group(1).lower()], "zh") + counted))
    # A figure with its magnitude word (3 million people): in 万/亿 with the counter.
    for mag in magnitudes:
        after = _WORD_AFTER.match(text, mag.end)
        if after and after.group("noun") in nouns and mag.target and not nouns[after.group("noun")][1] \
                and _PHRASE_END.match(text, after.end()) and mag.text[:1].isdigit():
            spans.append(Span(mag.start, after.end(), text[mag.start:after.end()], "number",
                              mag.target + nouns[after.group("noun")][0]))
    return sorted((_each_period(text, s) for s in spans), key=lambda s: s.start)


# A count for each period after it ("welcomes about 1.2 million visitors a year" came back 120万名访客年):
# 每年120万名访客.
_EACH_PERIOD = re.compile(r"\s+(?:a|per|each)\s+(year|month|week|day)(?![\w-])")
_EACH_PERIOD_INTO = {"year": "每年", "month": "每月", "week": "每周", "day": "每天"}


def _each_period(text: str, span: Span) -> Span:
    m = _EACH_PERIOD.match(text, span.end)
    if m is None or not span.target:
        return span
    return Span(span.start, m.end(), text[span.start:m.end()], span.kind, _EACH_PERIOD_INTO[m.group(1)] + span.target)
