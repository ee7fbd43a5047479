r"""Latin-script names a translation between Chinese and English keeps as they are.

Two cases where the right translation of a word is the word itself, and the shipped models, which
see it as rare sub-word pieces, garbled it instead (``GNOME/KDE/ROX`` -> ``GOMEN[DE]] KOK[DEX]`` in a
real PDF translated into Chinese; ``await asyncio.sleep`` -> ``asyncio.sleep(1) ... print('wldld')``
out of Chinese):

- **Latin text inside a Chinese, Japanese or Korean source** (``使用 GNOME 桌面``, ``调用 loop 的方法``)
  is already in the Latin script of the output: a name, a product, a code word, an untranslated
  phrase. Each run of Latin words is kept (the pydocs and django dev references keep 99.3 % of
  them), with a version number right after it (``Windows 10/11``: two spans, the model wrote
  ``Windows, 10/11``; not a figure a qualifier or a measure takes, ``12 及以上``, ``3 个``), and a
  sentence of such a source with no CJK character at all (``Hello, world!``, a line of code) is
  copied whole (the references copy 134 of 142). A run needs two letters: ``T恤`` is a
  T-shirt, ``X光`` an X-ray.
- **All-capital words in an English source translated into Chinese, Japanese or Korean**
  (``GNOME``, ``KDE``, ``HTTP``): Chinese text keeps acronyms (the technical dev references keep 98-99
  %), except those it renders (``FBI`` -> 联邦调查局, ``OK``, ``TV``; doctrans/data/translated_caps.txt)
  and common English words in capitals (emphasis, ``I did NOT``, or a heading, ``TABLE OF CONTENTS``;
  common_words.txt, the 10,000 most frequent), both measured on the training pairs
  (training.translated_caps); the model reads those in small letters (doctrans.case_fold). A
  capital word quoted as a term is kept even when it is a common word: the RFC 2119 paragraph of
  a specification (``The key words "MUST", "MUST NOT"...``) came back ``“must”, “sharesholl”,
  “hohod”, “themsulended”``.
- **An organisation's name the models never learned** in an English source translated into
  Chinese, Japanese or Korean: capitalised words ending in ``Inc``, ``Ltd``, ``Software``,
  ``Group``, ``University``... with a word before that is neither common nor a name capitalised
  five times or more in the training pairs (doctrans/data/known_names.txt), ``Acme Software``:
  the en->zh model wrote ``Acme Software Ltd.`` as ``Acftware``. Not people and places: kept
  whenever rare, they cost the TVsub dev sentences with such a name 3 s-BLEU (6.81 -> 3.72, 31
  sentences; the references transliterate ``Jayne Mansfield``, as the model mostly does), and not
  in a heading in Title Case.
- The mirror of the first case: **CJK text inside an English source** translated into Chinese,
  Japanese or Korean (``the term 关系 means relation``) is kept, and a Chinese sentence in an
  English document is copied whole.

| source language | target | text                             | kept                       |
|-----------------|--------|----------------------------------|----------------------------|
| zh              | en     | 使用 GNOME 桌面和 KDE             | GNOME · KDE                |
| zh              | en     | 调用 Visual Studio Code 打开       | Visual Studio Code         |
| zh              | en     | 穿T恤，照X光                       | (none)                     |
| zh              | en     | Hello, world!                     | Hello · world              |
| zh              | zh     | 使用 GNOME 桌面                    | (none)                     |
| en              | zh     | Both GNOME and KDE use HTTP.      | GNOME · KDE · HTTP         |
| en              | zh     | The FBI said OK, I did NOT go.    | (none)                     |
| en              | zh     | GNOME USER GUIDE                  | GNOME                      |
| en              | zh     | "MUST NOT" and "MAY" are as in    | MUST NOT · MAY             |
| en              | zh     | The term 关系 means relation.      | 关系                       |
| en              | zh     | Acme Software makes it, Tom said. | Acme Software              |
| en              | zh     | Wind gusts hit Galveston today.   | (none)                     |
| en              | zh     | Getting Started With Acme Labs    | (none)                     |
| en              | zh     | 这是中文，不用翻译。               | 这是中文，不用翻译          |
| en              | en     | Both GNOME and KDE                | (none)                     |

Each name is a span whose target is itself (kind ``name``): doctrans.engine.protect masks it with
the verbatim spans and glossary terms and restores it byte for byte, and doctrans.verbatim.check
reports it when a translation lacks it. Names never overlap a verbatim span, a glossary term or a
figure (they are looked for only between them), so a path or a version stays one span of its own;
a product's line after a product's name goes with it (AeroBrew Pro, iPhone Pro Max: the model read
Pro as a number, 号).

Into Chinese the module also tells the engine's pick what went wrong with a name or a word
(doctrans.engine.protect): a word cut in two or a name transliterated in part
(:func:`half_translated`), a rare name copied wrong (:func:`miscopied_names`), a word copied wrong
(:func:`miscopied_words`) and a common word or phrase left in English (:func:`copied_phrase`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from functools import cache

from doctrans.data_lists import data_lines, word_set
from doctrans.language_id import base_language
from doctrans.place_names import english_to_chinese
from doctrans.report_terms import find_report_terms, title_case
from doctrans.segment import is_cjk
from doctrans.verbatim import Span

CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})
# A Latin word (inner ' . - + _ allowed, a trailing + or # for C++/C#), and runs of them.
_LATIN_WORD = r"[A-Za-z][A-Za-z0-9]*(?:['’.\-+_][A-Za-z0-9]+)*[+#]*"
_LATIN_RUN = re.compile(rf"(?<![A-Za-z0-9_.\-/@#'’]){_LATIN_WORD}(?:[ \t]+{_LATIN_WORD})*(?![A-Za-z0-9_])")
_CAPS = re.compile(r"(?<![A-Za-z0-9_.\-'’])[A-Z]{2,}(?![A-Za-z0-9_'’])")
_QUOTED_CAPS = re.compile(r"""(?<![A-Za-z0-9])["“'‘]([A-Z]{2,}(?: [A-Z]{2,})*)["”'’](?![A-Za-z0-9])""")
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
# Runs of CJK text, with the punctuation inside a phrase (not a sentence's final 。).
_CJK_RUN = re.compile(rf"[{_CJK_CHARS}]+(?:[\s，、；：“”‘’（）《》·—]*[{_CJK_CHARS}]+)*")
_CAPS_OR_CJK = re.compile(rf"{_CAPS.pattern}|{_CJK_RUN.pattern}")


@cache
def translated_caps() -> frozenset[str]:
    """The acronyms a translation into Chinese renders (doctrans/data/translated_caps.txt)."""
    return word_set("translated_caps.txt")


@cache
def common_words() -> frozenset[str]:
    """Common English words in small letters (doctrans/data/common_words.txt): in capitals they
    are emphasis or a heading, not acronyms."""
    return word_set("common_words.txt")


@cache
def proper_words() -> frozenset[str]:
    """Common English words that are also names (doctrans/data/proper_words.txt: ``python``,
    ``windows``): capitalised, they keep their capital in a title-case heading (doctrans.case_fold)."""
    return word_set("proper_words.txt")


@cache
def known_names() -> frozenset[str]:
    """Names the models learned to render, in small letters (doctrans/data/known_names.txt)."""
    return word_set("known_names.txt")


# A run of capitalised words, and what a rare one is not: an English word's ending (a sentence may
# start with ``Notwithstanding``), or one letter.
# (A legal form in capitals may end it: Harbour View Properties LLC.)
# (... or a legal form after a comma, as American companies write it: Northgate Foods, Inc.)
_TITLE_RUN = re.compile(r"(?<![A-Za-z0-9_.\-/@#'’])[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)*"
                        r"(?:[ \t]+(?:LLC|PLC|LLP|GmbH)|,[ \t]+(?:Inc|Ltd|Corp|LLC|PLC|LLP|GmbH))?"
                        r"(?![A-Za-z0-9_'’])")
# The last word of a company's or an institution's name.
_ORGANISATION = re.compile(r" (?:Inc|Ltd|LLC|PLC|LLP|GmbH|Corp|Corporation|Company|Co|Group|Software|Systems"
                           r"|Technologies|Technology"
                           r"|Labs|Foundation|Institute|University|College|Energy|Bank|Airlines|Motors|Holdings"
                           r"|Partners|Trading|Industries|Pharmaceuticals|Media|Networks|Solutions|Capital"
                           r"|Foods|Organics|Brands|Logistics|Robotics|Therapeutics|Biosciences|Semiconductor"
                           r"|Communications|Enterprises|Ventures|Studios|Entertainment|Resources|Insurance"
                           # (a job ad's "Northwind Analytics is hiring" came back 北欧分析组)
                           r"|Analytics|Consulting|Dynamics|Services|Digital|Electronics|Aerospace|Biotech|Data"
                           # (a booking's "Hotel: The Marlowe Hotel, 450 Post Street" came back 霍特尔：450邮局)
                           r"|Hotel|Hotels|Inn|Resort|Suites|Lodge|Hostel"
                           # (an obituary's "at the First Unitarian Church" came back 第一个宇航员, an astronaut)
                           r"|Church|Cathedral|Chapel|Synagogue|Mosque"
                           # (a recall notice's "Brightway Appliances is voluntarily recalling" came back 电器,
                           # the maker lost)
                           r"|Appliances|Products|Manufacturing|Retail|Outdoors|Apparel|Cosmetics|Toys|Beverages)$")
_WORD_ENDING = re.compile(r"(?:ly|ing|tion|sion|ness|ment|able|ible|ed|less|ous|ive|ize|ise|ity|ful|al)$")


def _rare_name(word: str) -> bool:
    low = word.lower()
    return (len(word) >= 3 and low not in common_words() and low not in known_names()
            and not _WORD_ENDING.search(low))


_CAPITALISED = re.compile(r"(?<![A-Za-z0-9_.\-/@#'’])[A-Z][a-z]+(?![A-Za-z0-9_'’])")
_VERSION_AFTER = re.compile(r"\s+v?[0-9]+(?:\.[0-9]+)+(?![0-9A-Za-z])")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+)[\"“‘'(\[]*$")


def rare_names(text: str) -> frozenset[str]:
    """The capitalised words of an English ``text`` that are no common word and no name the
    models learned, leaving out a sentence's first word (``Notwithstanding``): ``Siracusa``,
    ``Sicily``; not ``Rome``, ``Maria``, ``The``."""
    return frozenset(m.group() for m in _CAPITALISED.finditer(text)
                     if _rare_name(m.group()) and not _SENTENCE_START.search(text, 0, m.start()))


# The end of an English word copied right after Chinese characters, as the en->zh model writes a
# word it cut in two: the beginning translated, the rest copied (``Newark`` -> 新ark, ``alphabet``
# -> 字母bet, ``cancellation`` -> 可以cellation, ``calltip`` -> 调用tip; 19 of the 2,980 dev
# sentences). A common ending alone (``处理ing``) points at no one word.
# ... or after a space (a news item's "Deutsche Bahn" came back 后 utsche Bahn, a manual's "mousewheel"
# 鼠标 wheel).
_GLUED_TAIL = re.compile(r"(?:(?<=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff] ))[a-z]{3,}(?![A-Za-z])")
# A word's first letters right before Chinese characters (ch根 for chroot).
_GLUED_HEAD = re.compile(r"(?<![A-Za-z0-9_./-])[a-z]{2,}(?=[\u4e00-\u9fff])")
# A name's last letter or two left after its transliteration ("Maria Lopez" came back 玛莉亚·洛普z):
# so short a tail points at a word only among the source's capitalised words.
_GLUED_LETTERS = re.compile(r"(?<=[\u4e00-\u9fff])[a-z]{1,2}(?![A-Za-z])")
_SUFFIXES = frozenset({"ing", "ings", "ers", "tion", "tions", "sion", "ness", "ment", "ments", "able", "ible",
                       "ity", "ies", "est", "ful", "less", "ous", "ive", "ally", "ated"})
_SOURCE_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]+(?![A-Za-z0-9_])")


# A capitalised word right after Chinese characters and a space (卢克 Harris).
_AFTER_TRANSLITERATION = re.compile(r"[\u4e00-\u9fff] ([A-Z][a-z]+)(?![A-Za-z])")
# A capitalised word right after a transliteration's dot (盖尔· Point).
_AFTER_NAME_DOT = re.compile(r"[\u4e00-\u9fff]·\s*([A-Z][a-z]+)(?![A-Za-z])")


def _cut_from(piece: str, words: set[str], fits: Callable[[str, str], bool]) -> set[str]:
    """The source ``words`` (two at most, in any case) that ``piece`` is the copied end or beginning
    of (``fits``: ``str.endswith`` or ``str.startswith``), two letters longer at least; none if more."""
    whole = {w for w in words if len(w) >= len(piece) + 2 and fits(w.lower(), piece)}
    return whole if 0 < len({w.lower() for w in whole}) <= 2 else set()


def half_translated(source: str, translation: str) -> frozenset[str]:
    """The words of an English ``source`` that a Chinese ``translation`` cut in two, its beginning
    translated and its end copied after the Chinese characters (``Newark`` for 新ark River): the
    engine translates such a sentence again with them kept as written. A tail that is itself a
    word of the source (调用read) or could end more than two of them is no cut word. A name is cut
    so too: its last letter or two left after its transliteration (玛莉亚·洛普z for Maria Lopez), or
    its next word copied after the transliteration's dot (盖尔· Point for Gull Point): the whole name
    is kept, its given names with it. A word's beginning copied before the translation of its end
    (ch根 for chroot) is a word cut in two as well."""
    words = {m.group() for m in _SOURCE_WORD.finditer(source)}
    lower = {w.lower() for w in words}
    cut: set[str] = set()
    for m in _GLUED_TAIL.finditer(translation):
        if m.group() not in lower and m.group() not in _SUFFIXES:
            cut |= _cut_from(m.group(), words, str.endswith)
    # ... or its beginning copied and the rest translated (a spec's "in chroots" came back 在 ch根中, root
    # translated): a head that is no word of the source, of at most two of its words.
    for m in _GLUED_HEAD.finditer(translation):
        if m.group() not in lower:
            cut |= _cut_from(m.group(), words, str.startswith)
    for m in _GLUED_LETTERS.finditer(translation):
        tail = m.group()
        names = {w for w in words
                 if w[0].isupper() and len(w) >= 4 and w.endswith(tail) and w.lower() not in common_words()}
        if tail not in lower and 0 < len(names) <= 2:
            cut |= names
            # ... with the given names before it: 马莉亚Lopez is still half a name in each script.
            for name in names:
                for run in re.finditer(rf"((?:[A-Z][a-z]+ )+){name}\b", source):
                    cut |= {w for w in run.group(1).split() if w.lower() not in common_words()}
    # A name transliterated in part, its next word copied after the dot (a story's "Gull Point" came
    # back 盖尔· Point): the whole name is kept.
    for m in _AFTER_NAME_DOT.finditer(translation):
        for run in re.finditer(rf"(?:[A-Z][a-z]+ )+{m.group(1)}\b", source):
            cut |= set(run.group().split())
    # ... or its surname copied after its given name's transliteration (a match report's "captain Luke
    # Harris" came back 卢克 Harris), the given name nowhere in the translation.
    copied = {m.group() for m in _SOURCE_WORD.finditer(translation)}
    for m in _AFTER_TRANSLITERATION.finditer(translation):
        for run in re.finditer(rf"((?:[A-Z][a-z]+ )+){m.group(1)}\b", source):
            given = [w for w in run.group(1).split() if w.lower() not in common_words()]
            if given and not copied & set(given):
                cut |= {*given, m.group(1)}
    return frozenset(cut)


def miscopied_names(source: str, translation: str) -> frozenset[str]:
    """The rare names of an English ``source`` (:func:`rare_names`) that a Chinese ``translation``
    lacks but copied wrong: a Latin word the source does not have, with the name's first letter and
    most of its letters (``Siracusa`` came back ``Sacusa``). The engine translates such a sentence
    again with them kept as written."""
    names = rare_names(source) - {m.group() for m in _SOURCE_WORD.finditer(translation)}
    if not names:
        return frozenset()
    source_words = {m.group().lower() for m in _SOURCE_WORD.finditer(source)}
    copies = {w for w in (m.group() for m in _SOURCE_WORD.finditer(translation))
              if len(w) >= 4 and w.lower() not in source_words}
    return frozenset(n for n in names if any(_near_copy(c, n) for c in copies))


def _near_copy(copy: str, word: str) -> bool:
    """``copy`` has the first letter and most of the letters of ``word`` (Sacusa of Siracusa)."""
    return copy[0].lower() == word[0].lower() and SequenceMatcher(None, copy.lower(), word.lower()).ratio() >= 0.75


@cache
def kept_in_chinese() -> frozenset[str]:
    """doctrans/data/kept_in_chinese.txt: the English words technical Chinese keeps as written (sys,
    gzip, regex: training.kept_in_chinese)."""
    return frozenset(data_lines("kept_in_chinese.txt"))


# A run of small-letter words (with spaces or commas between; one of three letters or more) that
# the model copied.
_ENGLISH_RUN = re.compile(r"(?<![A-Za-z_.])(?:[a-z]+(?:[ ,]+[a-z]+)+|[a-z]{3,})(?![A-Za-z_(])")
# What code, markup or a program's output holds: their words are copied on purpose.
_CODE_MARKS = re.compile(r"[`=(){}\[\]<>_*|\\/@#$\n]|::")
_QUOTATION = re.compile(r'[“"][^“”"]*[”"]')


def copied_phrase(source: str, translation: str) -> str | None:
    """A phrase of common English words (all of the source, none that technical Chinese keeps)
    that a Chinese ``translation`` of a prose ``source`` copied instead of translating (a product
    page's "enough for 12 cups" came back "enough for 12杯": the model copied what it did not
    translate around its placeholders; a story's "the lamp room" lamp房间), or None. Not from a
    source with code, markup or several lines, and not inside quotes. (In the first 150 dev lines
    of each corpus, 792 en->zh, two such translations: a subtitle's hurry and tennis.)"""
    if _CODE_MARKS.search(source):
        return None
    source_words = {m.group() for m in _SOURCE_WORD.finditer(source)}
    common, technical = common_words(), kept_in_chinese()
    for m in _ENGLISH_RUN.finditer(_QUOTATION.sub(" ", translation)):
        words = re.findall(r"[a-z]+", m.group())
        if all(w in source_words and _common_form(w, common, technical) and w not in technical for w in words):
            return m.group()
    return None


def _common_form(word: str, common: frozenset[str], technical: frozenset[str]) -> bool:
    """``word`` is a common word or a regular form of one (a contract's "Licensor grants Licensee"
    came back 许可方 grants 被许可方: grants is grant's; the list holds the words' plain forms), the
    stem not a word technical Chinese keeps."""
    if word in common:
        return True
    stems = [word[:-1]] if word.endswith("s") else []
    stems += [word[:-2], word[:-1]] if word.endswith("ed") else []  # walked; used, placed
    stems += [word[:-2]] if word.endswith("es") else []
    stems += [word[:-3], word[:-3] + "e"] if word.endswith("ing") else []
    return any(len(stem) >= 3 and stem in common and stem not in technical for stem in stems)


def miscopied_words(source: str, translation: str) -> frozenset[str]:
    """The Latin words of a Chinese ``translation`` of an English ``source`` that copy a word of
    the source wrong: not in the source, four letters or more, with the first letter and most of
    the letters of one of its words (``needle-like`` came back ``needsle``, the heading
    ``Challenges`` ``Challges``). The engine keeps a hypothesis without them when its n-best has one."""
    source_words = {m.group().lower() for m in _SOURCE_WORD.finditer(source)}
    out = set()
    for m in _SOURCE_WORD.finditer(translation):
        word = m.group()
        low = word.lower()
        if len(word) < 4 or low in source_words or word.isupper():
            continue
        if any(w.startswith(low) or low.startswith(w) for w in source_words):
            continue  # another form of a source word (future of futures): no copy gone wrong
        if any(len(w) >= 4 and _near_copy(low, w) for w in source_words):
            out.add(word)
    return frozenset(out)


# Acronyms that spell a common word: in a sentence in mixed case they are the acronym (a headphone
# manual's "The LED turns green" was read as "led", 导致, caused; a job ad's "US time zones" as "us", 我们时区),
# in a shouted line the word.
_ACRONYMS = frozenset({"LED", "LEDs", "PIN", "SIM", "RAM", "ROM", "AIDS", "WHO", "CAT", "HOV", "US", "IT",
                       # ... a release note's "the legacy REST API" (read as "rest", 其余), a web page's GET and POST
                       "REST", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
# ... and a repository's files named in its README, as written ("See LICENSE for details" was read as
# "license", 驾照, a driving licence).
_REPOSITORY_FILES = frozenset({"LICENSE", "LICENCE", "CHANGELOG", "CONTRIBUTING", "AUTHORS", "NOTICE", "COPYING",
                               "INSTALL", "SECURITY", "CHANGES", "TODO"})
ACRONYMS_THAT_ARE_WORDS = _ACRONYMS | _REPOSITORY_FILES  # capitals that name a thing in mixed case


def shouted(text: str) -> bool:
    """No word has a small letter: a heading or a disclaimer in capitals."""
    return not any(c.islower() for c in text)


def _gaps(text: str, taken: Sequence[Span]) -> list[tuple[int, int]]:
    """The stretches of ``text`` outside ``taken`` (sorted, non-overlapping)."""
    gaps, pos = [], 0
    for s in sorted(taken, key=lambda s: s.start):
        if s.start > pos:
            gaps.append((pos, s.start))
        pos = max(pos, s.end)
    gaps.append((pos, len(text)))
    return gaps


# A product's version after its Latin name in a CJK sentence (Windows 10/11、, iOS 17 上): the name
# and its version were two spans and the model put a comma between them ("Windows, 10/11"); not a
# figure that a qualifier or a measure goes with (macOS 12 及以上版本, 3 个).
_VERSION_AFTER = re.compile(r"[ \t]+([0-9]+(?:[./][0-9]+)*)(?![0-9A-Za-z%％.])"
                            r"(?![ \t]?(?:及|以|左右|[个年月日元万亿倍]))")


# A product's line after its kept name (a product page's "AeroBrew Pro Coffee Maker" came back
# AeroBrew号咖啡机, its Pro read as a number): the name holds it.
_PRODUCT_LINE = re.compile(r"(?: (?:Pro|Max|Plus|Mini|Ultra|Lite|Air|SE|Neo|Go|Prime))+(?![A-Za-z0-9'’-])")


_PRODUCT_NAME = re.compile(r"[A-Z][A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*|[A-Z][A-Za-z]*[0-9]+|i[A-Z][A-Za-z]+")


def _with_version(text: str, end: int, taken: Sequence[Span]) -> int:
    """Where a Latin name ending at ``end`` ends with the version number after it, if any (the
    number one whole verbatim span of ``taken``, which the name then holds)."""
    m = _VERSION_AFTER.match(text, end)
    if m is None:
        return end
    return m.end() if any((t.start, t.end) == m.span(1) for t in taken) else end


def find_kept_names(text: str, src_lang: str | None, tgt_lang: str | None,
                    taken: Sequence[Span] = ()) -> list[Span]:
    """The names of ``text`` kept as they are from ``src_lang`` into ``tgt_lang`` (rules in the
    module docstring), outside the spans ``taken``; none when either language is unknown."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if not src or not tgt or (src in CJK_LANGUAGES) == (tgt in CJK_LANGUAGES):
        return []
    if src in CJK_LANGUAGES:
        pattern, keep = _LATIN_RUN, lambda s: sum(c.isalpha() for c in s) >= 2
    else:
        rendered, common = translated_caps(), common_words()
        pattern = _CAPS_OR_CJK
        loud = shouted(text)
        keep = lambda s: is_cjk(s[0]) or (s not in rendered and (  # noqa: E731
            s.lower() not in common or (s in ACRONYMS_THAT_ARE_WORDS and not loud)))
    names = []
    if src not in CJK_LANGUAGES:
        # The product line after a name kept verbatim (AeroBrew Pro: AeroBrew is an identifier's span),
        # a word with a capital inside or a figure at its end; not a heading's ("Background: Air pollution").
        for t in taken:
            line = _PRODUCT_LINE.match(text, t.end)
            if line and _PRODUCT_NAME.fullmatch(t.text):
                names.append(Span(line.start() + 1, line.end(), line.group()[1:], "name", line.group()[1:]))
        # A word in capitals quoted as a term ("MUST", "SHALL NOT" in a specification's RFC 2119
        # paragraph) is mentioned, not used: kept as written, common word or not.
        for a, b in _gaps(text, taken):
            names += [Span(m.start(1), m.end(1), m.group(1), "name", m.group(1))
                      for m in _QUOTED_CAPS.finditer(text, a, b)]
        # A product named before its version, a rare word (a security advisory's "the image decoder
        # of Fastkv 2.3.0 through 2.4.0" came back 图像解码器的2.3.0到2.4.0, the product dropped).
        for a, b in _gaps(text, [*taken, *names]):
            names += [Span(m.start(), m.end(), m.group(), "name", m.group()) for m in _CAPITALISED.finditer(text, a, b)
                      if _rare_name(m.group()) and _VERSION_AFTER.match(text, m.end())]
    for a, b in _gaps(text, [*taken, *names]):
        for m in pattern.finditer(text, a, b):
            if keep(m.group()):
                end = _with_version(text, m.end(), taken) if src in CJK_LANGUAGES else m.end()
                line = _PRODUCT_LINE.match(text, end)
                if line and not Span(line.start(), line.end(), line.group(), "name").overlaps_any(taken):
                    end = line.end()
                names.append(Span(m.start(), end, text[m.start():end], "name", text[m.start():end]))
    if src not in CJK_LANGUAGES:
        # An organisation's name the models never learned (Acme Software, Hua Tai Trading Co) is
        # kept as it is rather than garbled (Acftware, Hudtiate). In a line in Title Case every
        # word looks like a name: only one with a legal form at its end (Inc, Ltd), from its first
        # rare word (a report's byline "Prepared by the Finance Team, Acme Robotics Ltd. — 15
        # October 2026" came back 支援队，第一季，第2026年10月15日, the company gone).
        titled = title_case(text)
        for a, b in _gaps(text, [*taken, *names]):
            for m in _TITLE_RUN.finditer(text, a, b):
                words = m.group().split()
                if titled:
                    first = next((i for i, w in enumerate(words[:-1]) if _rare_name(w)), None)
                    if first is None or not _LEGAL_FORM.search(m.group()):
                        continue
                    start = _word_start(m, first)
                elif len(words) >= 2 and _CALLED.search(text, max(0, m.start() - 16), m.start()):
                    # A programme or a product named in the text ("The program, called Go Blue Guarantee,
                    # already covers" came back 布鲁伊·格兰特): its name as it is.
                    start = m.start()
                elif (_ORGANISATION.search(m.group()) and any(_rare_name(w) for w in words[:-1])) \
                        or _after_a_kept_name(text, m, [*taken, *names]):
                    # from its first word that is no sentence's function word (Between Harbour …)
                    start = _word_start(m, next((i for i, w in enumerate(words[:-1]) if w not in _FUNCTION_WORDS), 0))
                elif _STRONG_LEGAL_FORM.search(m.group()) and len(words) >= 2:
                    # A legal form says it is a company whatever its words (a lease's "Harbour View
                    # Properties LLC" came back with the date inside it): from its first word that
                    # is no sentence's function word.
                    lead = next((i for i, w in enumerate(words[:-1]) if w not in _FUNCTION_WORDS), None)
                    if lead is None:
                        continue
                    start = _word_start(m, lead)
                else:
                    continue
                # (" " + : the legal form alone is the run after a kept name: BrightHome Inc. is …)
                dot = _ABBREVIATED.search(" " + m.group()) and _ABBREVIATION_DOT.match(text, m.end())
                end = m.end() + (1 if dot else 0)
                names.append(Span(start, end, text[start:end], "name", text[start:end]))
    return sorted(names, key=lambda s: s.start)


def organisation_runs(text: str) -> list[tuple[int, int]]:
    """Where an English ``text`` (not a line in Title Case) names an organisation by a rare word and
    its kind (Brightway Appliances, Acme Software): a report term for the kind alone does not
    take it out of the name (the recall's "Brightway Appliances" came back 电器, the maker lost)."""
    if title_case(text):
        return []
    return [m.span() for m in _TITLE_RUN.finditer(text)
            if _ORGANISATION.search(m.group()) and any(_rare_name(w) for w in m.group().split()[:-1])]


_CALLED = re.compile(r"\b(?:called|dubbed|titled|entitled|known as|branded)\s+[\"“]?$")


def _word_start(m: re.Match[str], i: int) -> int:
    """Where the i-th word of the run ``m`` starts."""
    return m.start() + [w.start() for w in re.finditer(r"\S+", m.group())][i]


# A legal form that names nothing but a company (Company, Group and Co may end other names).
_STRONG_LEGAL_FORM = re.compile(r" (?:Inc|Ltd|LLC|PLC|LLP|GmbH|Corp)$")
_FUNCTION_WORDS = frozenset({"The", "This", "That", "These", "Between", "And", "With", "By", "For", "From", "To",
                             "Of", "In", "On", "At", "Both", "Dear", "About", "Welcome"})


# A company's legal form, which its later mentions drop (Northwind Energy Inc. -> Northwind Energy).
_LEGAL_FORM = re.compile(r",? (?:Inc|Ltd|Corp|Co|Corporation|Company|LLC|PLC|LLP|GmbH)\.?$")


def _known(name: str) -> bool:
    """A name the report terms translate (Zhejiang University is 浙江大学): no name to keep."""
    return any((t.start, t.end) == (0, len(name)) for t in find_report_terms(name, "en", "zh"))


def organisation_forms(text: str) -> set[str]:
    """The organisations' names an English ``text`` keeps (the rule above: ``Northwind Energy
    Inc.``), each as written (its full stop aside), without its legal form when what is left is a
    name still (``Northwind Energy``; not ``General`` of ``General Ltd``), and without its kind when
    the words left are all rare (``Northwind``): the forms the rest of its document names it by
    (doctrans.document_names)."""
    forms = set()
    for span in find_kept_names(text, "en", "zh"):
        name = span.text.rstrip(".")
        if " " not in name or not _ORGANISATION.search(name) or _known(name):
            continue
        forms.add(name)
        short = _LEGAL_FORM.sub("", name)
        if short != name and (" " in short or _rare_name(short)):
            forms.add(short)
        # What tells it from others, without its kind (Northwind of Northwind Energy, Hua Tai of Hua
        # Tai Trading), when every word of it is rare and it is no place (Zhejiang of Zhejiang
        # University is 浙江 alone).
        own = _ORGANISATION.sub("", short)
        if own != short and all(_rare_name(w) for w in own.split()) and english_to_chinese(own) is None:
            forms.add(own)
    return forms


# ``Inc.`` inside a sentence keeps its full stop (``Acme Data Services Inc., a Delaware corporation``
# came back ``Acme Data Services Inc之间。，``: the stop was read as the sentence's); at a sentence's
# end the stop is the sentence's too, and stays out.
# The legal forms written abbreviated, whose full stop is the name's (doctrans.glossary keeps it too).
ABBREVIATED_LEGAL_FORMS = ("Inc", "Ltd", "Corp", "Co")
_ABBREVIATED = re.compile(rf" (?:{'|'.join(ABBREVIATED_LEGAL_FORMS)})$")
_ABBREVIATION_DOT = re.compile(r"\.(?=\s*[^\sA-Z\u3400-\u9fff])")


def _after_a_kept_name(text: str, m: re.Match[str], kept: Sequence[Span]) -> bool:
    """``m`` is the rest of an organisation's name whose first word is a span of its own: a name in
    inner capitals or capitals (``CenterPoint Energy``, ``IBM Software Group``: the en->zh model wrote
    ``CenterPoint英格语``), the last word of ``m`` one of :data:`_ORGANISATION`'s."""
    if not _ORGANISATION.search(" " + m.group()) or text[m.start() - 1:m.start()] != " ":
        return False
    before = next((t for t in kept if t.end == m.start() - 1), None)
    return before is not None and (_INNER_CAPITAL.search(before.text) is not None or before.text.isupper())


_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")

