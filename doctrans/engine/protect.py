"""Verbatim spans and glossary terms around one model call (the rules are doctrans.verbatim's).

:func:`prepare` decides, per sentence, what the model reads:

- nothing, when the sentence has nothing to translate (a number, a URL, a code, a date: see
  :func:`doctrans.verbatim.is_untranslatable`): the sentence is returned as it is, its glossary
  terms replaced by their targets, without calling the model;
- the sentence with every verbatim span and glossary term replaced by a placeholder ``⦅k⦆``, when
  the bundle's vocabulary has the placeholder pieces (a model trained with them copies them);
- the sentence itself, glossary terms replaced by their target terms, when it has not: a model that
  never saw ``⦅k⦆`` would not copy it, so masking would lose the spans it is meant to keep. Then
  only the check after translation (doctrans.verbatim.check) guards the spans, and the glossary is
  best effort (the model usually copies a foreign term it reads; the check reports where not).

:meth:`Prepared.restore` puts the spans back into a decoded hypothesis. The engine uses
:meth:`Prepared.acceptable` to prefer, among its n-best, a hypothesis that copied every
placeholder exactly once (see ``OnnxDocumentSession.translate``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from doctrans.case_fold import fold_case, source_case
from doctrans.datelines import find_dateline
from doctrans.dates import WEEKDAYS, drop_repeated_units, no_mid_year, no_on_after_weekday
from doctrans.direction_terms import automatic_terms
from doctrans.english_words import made_up_words
from doctrans.glossary import Glossary
from doctrans.inverted_speech import speaker_first
from doctrans.kept_names import (
    CJK_LANGUAGES,
    common_words,
    copied_phrase,
    half_translated,
    miscopied_names,
    miscopied_words,
    rare_names,
)
from doctrans.language_id import base_language
from doctrans.latin_spacing import spaced_after_marks
from doctrans.list_markers import counted_point, marker_into
from doctrans.negation import changed_negation, spoken_negation
from doctrans.number_words import proper_ordinals, with_years
from doctrans.person_names import find_person_names, surnames_after_latin_given_names
from doctrans.place_names import invented_places, look_alikes, no_inside_after_place
from doctrans.quoted_terms import DEFINED, DEFINED_INTO_ENGLISH, QuotedTerm, find_quoted_terms, quoted
from doctrans.quotes import chinese_quotes, double_quoted, drop_stray_quote, keep_quotation, plain_quotes
from doctrans.relative_years import lost_relative_years
from doctrans.section_headings import find_section_heading, leading_label, numbered_heading, titled_part
from doctrans.segment import is_cjk
from doctrans.sentence_end import common_first_word_in_small_letters, drop_unopened, end_like_source, end_marks
from doctrans.stray_english import chinese_conjunctions
from doctrans.units import (
    drop_repeated_measures,
    no_age_after_a_name,
    no_counter_after,
    no_ordinal_before_a_year,
    one_period,
)
from doctrans.verbatim import (
    MAX_PLACEHOLDERS,
    PLACEHOLDER_CLOSE,
    PLACEHOLDER_OPEN,
    Masked,
    Restored,
    Span,
    copied_exactly,
    find_spans,
    is_untranslatable,
    mask,
    placeholder,
    protected_spans,
    remask,
    unmask,
)
from doctrans.vulgar_words import unwarranted_vulgarity
from doctrans.zh_punctuation import is_chinese, restore_chinese_punctuation

# A section or list number before a heading or item (``1. Summary``, ``2.1 Results``, ``(3) 总则``):
# written back as it is, not translated -- the model turned ``1. Summary`` into ``1。 Summum``. A
# dotted number without a final dot counts only before a capital or a Han character, so ``1.2
# million people`` and ``3 apples`` stay sentences.
_ENUMERATOR = re.compile(r"\s*(?:\d{1,3}\.(?:\d{1,3}\.){0,3}|[(（]\d{1,3}[)）]|\d{1,3}[)）])[ \t\u3000]+(?=\S)"
                         r"|\s*(?:\d{1,3}\.){1,3}\d{1,3}[ \t\u3000]+(?=[A-Z\u4e00-\u9fff])"
                         # Chinese ways, no space needed: 一、 （二） 3、 (written 1. (2) 3. into English)
                         r"|\s*(?:[一二三四五六七八九十]{1,3}、|[(（][一二三四五六七八九十]{1,3}[)）]|\d{1,3}、)"
                         r"[ \t\u3000]*(?=\S)")

H = TypeVar("H")  # a hypothesis of the search (doctrans.engine.beam.Hypothesis)


@dataclass(frozen=True)
class Prepared:
    source: str
    masked: Masked  # spans that got placeholders (none without placeholder pieces)
    model_text: str | None  # what the model reads; None: nothing to translate, see ``copy``
    copy: str | None  # the translation of an untranslatable sentence (the source, terms replaced)
    prefix: str = ""  # a section number before the text (``1. ``): kept as it is, not translated
    chinese_output: bool = False  # the output is Chinese: its commas come back full-width
    # The output's sentence marks, for a translation that ends without one (doctrans.sentence_end):
    # "cjk" (。), "latin" (.), "" for a language whose marks are not known here.
    end_marks: str = ""
    # The bundle has placeholder pieces, so the model can write ``⦅k⦆`` even for a sentence without
    # spans (it did, reading the memory of a document full of them): such placeholders are removed.
    masking: bool = False
    # The direction (prepare's), for the place names a hypothesis invents (Prepared.pick).
    src_lang: str | None = None
    tgt_lang: str | None = None

    def restore(self, decoded: str) -> Restored:
        decoded = keep_quotation(self.model_text, decoded)
        # Punctuation before the spans go back: a figure's "1,250" or a literal's quotes stay as
        # they are.
        if self.chinese_output:
            decoded = restore_chinese_punctuation(decoded, [s.output for s in self.masked.spans])
        elif any(is_cjk(c) for c in self.source):
            decoded = spaced_after_marks(decoded, self.source)
        decoded = drop_unopened(self.masked.text, decoded)
        if self.end_marks:
            decoded = end_like_source(self.source, decoded, self.end_marks == "cjk")
        if self.chinese_output:
            decoded = quote_list_commas(chinese_quotes(drop_stray_quote(self.model_text, decoded)), self.masked)
        if self.chinese_output and self.model_text is not None:
            decoded = source_case(decoded, self.masked.text, self.model_text)  # spans untouched
            decoded = chinese_conjunctions(decoded)
        restored = unmask(decoded, self.masked) if self.masking else Restored(decoded, [])
        if self.chinese_output and any(s.output[:1] in _FULL_WIDTH_OPENING for s in self.masked.spans):
            # A span written with a full-width bracket after the model's space (艾玛 Wilson （以下简称…).
            restored = replace(restored, text=_SPACE_BEFORE_FULL_WIDTH.sub("", restored.text))
        if self.masked.spans and base_language(self.tgt_lang) == "en":
            restored = replace(restored, text=capitalised_start(decoded, restored.text, self.masked))
            restored = replace(restored, text=no_doubled_lead_word(restored.text, [
                s.output for s in self.masked.spans if s.target is not None]))
        dates = [s.output for s in self.masked.spans if s.kind == "date" and s.target is not None]
        if dates:
            restored = replace(restored, text=drop_repeated_units(restored.text, dates))
            if self.chinese_output:
                restored = replace(restored, text=no_mid_year(restored.text, dates, self.source))
        if self.chinese_output:
            restored = replace(restored, text=no_on_after_weekday(restored.text, self.source))
        if self.masked.spans:
            measures = [s.output for s in self.masked.spans if s.kind != "date" and s.target is not None]
            restored = replace(restored, text=drop_repeated_measures(restored.text, measures))
            if self.chinese_output:
                restored = replace(restored, text=no_age_after_a_name(restored.text,
                                                                      [s.output for s in self.masked.spans]))
                restored = replace(restored, text=surnames_after_latin_given_names(
                    restored.text, self.masked.source, self.masked.spans))
                restored = replace(restored, text=no_inside_after_place(
                    restored.text, [s.output for s in self.masked.spans if s.kind == "place" and s.target]))
                # A name is no number: a surname's character ("I'm Karen Wu, Chief Financial Officer"
                # came back 凯伦吴号) or a name kept as written.
                names = [s.output for s in self.masked.spans if s.kind == "name" and s.target is not None]
                restored = replace(restored, text=no_counter_after(restored.text, names, "号"))
                # ... nor a program's name or code a year ("from PostgreSQL to ClickHouse" came back
                # 从PostgreSQL年搬到…: "from ... to" is mostly a range of years to the model).
                kept = [s.output for s in self.masked.spans if s.kind in ("identifier", "code", "literal", "path")]
                restored = replace(restored, text=no_counter_after(restored.text, kept, "号年"))
                terms = [s.output for s in self.masked.spans
                         if (s.kind in ("phrase", "place") or (s.kind == "date" and s.output[-1:] not in "年月日号"))
                         and not _YEAR_AFTER.match(self.masked.source, s.end)]
                # A year's part is no term's (年中, 年初: "In a mixing bowl" came back 在搅拌碗年中).
                restored = replace(restored, text=no_counter_after(restored.text, terms, "号年", "份度代级轻纪龄"))
                # A month or a day takes no year after it ("He hasn't written since March": 从3月年开始).
                days = [s.output for s in self.masked.spans if s.kind == "date" and s.output[-1:] in "月日"]
                restored = replace(restored, text=no_counter_after(restored.text, days, "年"))
                # A clock time takes no year nor number ("The meeting closed at 11:25" came back
                # 11:25年的会议结束).
                times = [s.output for s in self.masked.spans if s.kind == "time"]
                restored = replace(restored, text=no_counter_after(restored.text, times, "号年"))
                # ... and English's "at" or "on" before it is no 上 after it ("will be held at 2 p.m."
                # came back 在下午2点上): before 的, a mark or the end only (下午2点上课 is a class).
                clocks = times + [s.output for s in self.masked.spans if _CLOCK.fullmatch(s.output)]
                for clock in clocks:
                    restored = replace(restored, text=re.sub(re.escape(clock) + r"上(?=[的，。、；：！？]|$)", clock,
                                                             restored.text))
                # A percentage takes no 号 (下降3.2%号第三季度: the model's after a change) nor 个 ("our target
                # of 8% organic growth" came back 8%个器官增长; 个人, 个体 are words).
                percentages = [s.output for s in self.masked.spans if s.kind == "number" and s.output.endswith("%")]
                restored = replace(restored, text=no_counter_after(restored.text, percentages, "号个", "人体性"))
                counts = [s.output for s in self.masked.spans if s.kind == "number" and s.output[-1:] not in "年岁"
                          and not _CALENDAR_YEAR.fullmatch(s.output)
                          and not _YEARS_SOON_AFTER.match(self.masked.source, s.end)]
                restored = replace(restored, text=no_counter_after(restored.text, counts, "年"))
                # An age the model took for a number (``Maria Rossi, 67,`` came back 罗西67号), an
                # ordinal (``finished 2nd``: 第2号), a measure (``200 yards from``: 200码号) or an
                # anniversary (10周年年).
                counted = [s.output for s in self.masked.spans if s.kind == "number" and s.target is not None
                           and (s.output.startswith("第") or _HAN_END.search(s.output))]
                restored = replace(restored, text=no_counter_after(restored.text, counted, "号"))
                # A classifier after a measure ("up to 8 inches of rain": 最多8英寸个雨) and a year
                # after an age ("Mr. Tanaka, 58, joined the board in 2019": 58岁年2019年).
                measures = [c for c in counted if not c.startswith("第")]
                restored = replace(restored, text=no_counter_after(restored.text, measures, "个"))
                # A decimal is no age (a 400 metres final's "48.90, a personal best" came back 48.90岁).
                decimals = [s.output for s in self.masked.spans if _DECIMAL.fullmatch(s.output)]
                restored = replace(restored, text=no_counter_after(restored.text, decimals, "岁"))
                # ... nor a score or a vote (a council's "Motion carried 4-1," came back 动议4比1岁).
                scores = [s.output for s in self.masked.spans if s.kind == "number" and _SCORE.fullmatch(s.output)]
                restored = replace(restored, text=no_counter_after(restored.text, scores, "岁"))
                # ... nor an address a number ("reach me at daniel@example.com" came back …com号).
                addresses = [s.output for s in self.masked.spans if "@" in s.output or "://" in s.output]
                restored = replace(restored, text=no_counter_after(restored.text, addresses, "号"))
                ages = [s.output for s in self.masked.spans if s.kind == "number" and s.output.endswith("岁")]
                restored = replace(restored, text=no_counter_after(restored.text, ages, "年"))
                years = [s.output for s in self.masked.spans if s.kind == "number" and s.output.endswith("周年")]
                restored = replace(restored, text=no_counter_after(restored.text, years, "年"))
                restored = replace(restored, text=no_ordinal_before_a_year(
                    restored.text, [s.output for s in self.masked.spans if s.kind in ("number", "date")]))
        if not self.chinese_output and self.masked.spans:
            restored = replace(restored, text=no_article_before_determiner(one_period(restored.text)))
            if base_language(self.tgt_lang) == "en":
                outputs = [s.output for s in self.masked.spans]
                restored = replace(restored, text=an_before_a_vowel(restored.text, outputs))
            places = [s.output for s in self.masked.spans if s.kind == "place"]
            if places and base_language(self.tgt_lang) == "en":
                restored = replace(restored, text=no_article_before_place(restored.text, places))
        if base_language(self.tgt_lang) == "en":
            restored = replace(restored, text=proper_ordinals(restored.text))
            if self.masked.spans:
                restored = replace(restored, text=with_years(restored.text, self.masked.source, self.masked.spans))
            if self.masked.spans and self.masked.spans[0].kind == "number":
                restored = replace(restored, text=titled_part(self.source, restored.text, self.masked.spans[0].output))
        if self.prefix.endswith(", ") and not _starts_with_a_name(decoded, self.masked):
            # First, the market… (the rest was translated as a sentence of its own)
            restored = replace(restored, text=common_first_word_in_small_letters(restored.text, common_words()))
        return replace(restored, text=self.prefix + restored.text) if self.prefix else restored

    def model_target(self, translation: str) -> str:
        """A person's translation as the model would have written it (for the memory to read):
        without the section number, the spans masked as in ``model_text``."""
        if self.prefix and translation.startswith(self.prefix.strip()):
            translation = translation[len(self.prefix.strip()):].lstrip()
        return remask(translation, self.masked) if self.masked.spans else translation

    def acceptable(self, decoded: str) -> bool:
        """The model copied every placeholder exactly once (and invented none)."""
        return copied_exactly(decoded, self.masked)

    def names_to_keep(self, translation: str) -> frozenset[str]:
        """The source words the engine translates the sentence again with, kept as written, when
        ``translation`` (into Chinese, from English) went wrong on them: the source's rare
        capitalised words (doctrans.kept_names.rare_names) and those that begin as the place does
        (doctrans.place_names.look_alikes) when it names a place the source does not (the model
        made a known city of a name it never learned: "the town of Siracusa" came back 在西雅图中,
        Seattle, "the Colosseum" 哥伦比亚, Colombia), the words it cut in two (doctrans.kept_names.half_translated:
        字母bet for alphabet, 新ark for Newark) and the rare names it copied wrong
        (doctrans.kept_names.miscopied_names: Sacusa for Siracusa). Empty otherwise."""
        if base_language(self.src_lang) != "en" or base_language(self.tgt_lang) != "zh":
            return frozenset()
        keep = half_translated(self.source, translation) | miscopied_names(self.source, translation)
        invented = invented_places(self.source, translation, self.src_lang, self.tgt_lang)
        if invented:
            # Not a name the engine writes itself (a place of the list, a term): kept as written, it
            # came back in English (a storm report's "Orkney and Shetland", 奥克尼 and 设得兰 in the
            # first translation, came back Orkney和Shetland when the model had invented a place).
            written = [sp.text for sp in self.masked.spans if sp.target]
            keep |= {w for w in rare_names(self.source) | look_alikes(self.source, invented)
                     if not any(w in text for text in written)}
        return keep

    def pick(self, hyps: Sequence[H], decode: Callable[[H], str]) -> H | None:
        """The hypothesis to keep of the search's n-best (best first; ``decode``: its text as the
        model wrote it): the best that copied every placeholder (:meth:`acceptable`), names no
        place the source does not (doctrans.place_names.invented_places), keeps the source's
        negation and adds none (doctrans.negation) and spells its words right (into Chinese, copies
        no English word wrong, ``needsle`` for needle-like, nor leaves one untranslated, "enough
        for"; into English, makes up no word: ``occupted``); else the best but for such a word, else
        the best but for the negation, else the best that copied every placeholder; None when none
        did (the engine then searches wider)."""
        return self._pick(hyps, decode)[0]

    def _pick(self, hyps: Sequence[H], decode: Callable[[H], str], spelling: bool = True) -> tuple[H | None, int]:
        """:meth:`pick`'s hypothesis and its flaw: 0 none, :data:`_MISCOPIED` a word copied wrong,
        :data:`_NEGATION_CHANGED` the source's negation lost, or one it does not state added."""
        first_ok: H | None = None
        first_ok_text = ""
        first_placed: H | None = None  # the best that names no invented place but changed a negation
        first_miscopied: H | None = None  # the best that would do but for a word copied wrong
        for h in hyps:  # best first: usually the first will do, and the rest are never decoded
            text = decode(h)
            if self.masked.spans and not self.acceptable(text):
                continue
            if not invented_places(self.source, text, self.src_lang, self.tgt_lang):
                if changed_negation(self.source, text, self.src_lang, self.tgt_lang):
                    if first_placed is None:
                        first_placed = h
                elif not (spelling and self._spelled_wrong(text)):
                    return h, 0
                elif first_miscopied is None:
                    first_miscopied = h
            if first_ok is None:
                first_ok, first_ok_text = h, text
        if first_miscopied is not None:
            return first_miscopied, _MISCOPIED
        if first_placed is not None:
            return first_placed, _NEGATION_CHANGED
        changed = first_ok is not None and changed_negation(self.source, first_ok_text, self.src_lang, self.tgt_lang)
        return first_ok, _NEGATION_CHANGED if changed else 0

    def _spelled_wrong(self, text: str) -> bool:
        """Whether ``text`` (as the model wrote it) copies an English word wrong into Chinese
        (doctrans.kept_names.miscopied_words) or copies a phrase it left untranslated
        (doctrans.kept_names.copied_phrase), or makes up an English word (doctrans.english_words), or
        swears where the source does not (doctrans.vulgar_words), or drops its next or last year
        (doctrans.relative_years)."""
        src, tgt = base_language(self.src_lang), base_language(self.tgt_lang)
        if unwarranted_vulgarity(self.source, text, src, tgt):  # "a dicked child" (doctrans.vulgar_words)
            return True
        if lost_relative_years(self.model_text or "", text, src, tgt):  # 明年 lost (doctrans.relative_years)
            return True
        if src == "en" and tgt == "zh":
            return bool(miscopied_words(self.source, text)) or copied_phrase(self.source, text) is not None
        return tgt == "en" and src != "en" and bool(made_up_words(self.source, text))

    def choose(self, hyps: Sequence[H], decode: Callable[[H], str], wider: Callable[[], Sequence[H]] | None,
               spelling: bool = True) -> H:
        """The hypothesis the engine keeps of its n-best ``hyps`` (best first, at least one):
        :meth:`pick`'s; when none copied every placeholder, or the one picked has a flaw (it lost
        the source's negation or added one, or copied a word wrong or left one untranslated: its
        n-best held none without), :meth:`pick`
        of a wider search (``wider``; None: the beam is as wide as it goes) is kept if it does
        better; else the best of ``hyps``. ``spelling`` False: a word spelled wrong is no flaw (the
        engine's ``any_spelling``, for comparing its search with PyTorch's). (相当于整整一夜没睡,
        "equivalent to the whole night" at beam 5, is "equivalent to not sleep at all night" at
        beam 10.)"""
        first = self._pick(hyps, decode, spelling)
        picked = first[0]
        if (picked is None or first[1]) and wider is not None:
            again = self._pick(wider(), decode, spelling)
            if again[0] is not None and (picked is None or again[1] < first[1]):
                picked = again[0]
        return picked or hyps[0]


_DECIMAL = re.compile(r"[0-9]+\.[0-9]+")
_FULL_WIDTH_OPENING = "（“《"
_SPACE_BEFORE_FULL_WIDTH = re.compile(r"(?<=\S)[ \t]+(?=（)")


# The flaws of a picked hypothesis, worse last (Prepared._pick).
_MISCOPIED = 1
_NEGATION_CHANGED = 2


# "election year", "fiscal-year": the source's own year after a term (选举年 is right).
_YEAR_AFTER = re.compile(r"[\s-]*(?:years?|yrs?)\b", re.IGNORECASE)
# Years a few words after a figure ("3 more years", "5 full calendar years").
_YEARS_SOON_AFTER = re.compile(r"[\s-]*(?:[A-Za-z]+[\s-]+){0,2}(?:years?|yrs?|annual(?:ly)?|yearly)\b", re.IGNORECASE)
# A figure that may be a year of the calendar (``in 2023 and 2024``: the second one is a number span).
_CALENDAR_YEAR = re.compile(r"(?:1[5-9]|2[01])[0-9]{2}")
_SCORE = re.compile(r"[0-9]{1,3}比[0-9]{1,3}")


# A figure written with a Chinese unit or counter at its end (岁, 码, 公里, 名员工), not a date's.
_HAN_END = re.compile(r"[\u4e00-\u9fff](?<![号年月日])$")
_FIRST_PLACEHOLDER = re.compile(rf"\s*{PLACEHOLDER_OPEN}([0-9]{{1,3}}){PLACEHOLDER_CLOSE}")


def _starts_with_a_name(decoded: str, masked: Masked) -> bool:
    """Whether ``decoded`` starts with a placeholder of a span that keeps its capital (a place, a
    name: "United States", "China's"; not a term translated in small letters)."""
    first = _FIRST_PLACEHOLDER.match(decoded)
    return first is not None and 1 <= int(first.group(1)) <= len(masked.spans) \
        and not _translated_term(masked.spans[int(first.group(1)) - 1])


def capitalised_start(decoded: str, text: str, masked: Masked) -> str:
    """``text`` (English, restored from ``decoded``) with a capital first letter when it starts
    with a term the engine translated, written in small letters (``双击 setup.exe`` came back
    "double-click setup.exe"), and where such a term begins a later sentence of the segment; a
    verbatim span or a kept name (``numpy``, a path) and a user's glossary term (``iPhone``) keep
    their case."""
    first = _FIRST_PLACEHOLDER.match(decoded)
    if first is not None and 1 <= int(first.group(1)) <= len(masked.spans):
        span = masked.spans[int(first.group(1)) - 1]
        if _translated_term(span) and text.startswith(span.output):
            text = span.output[0].upper() + text[1:]
    # A term that begins a later sentence of the segment, in the source (after 。) and in the
    # translation (after ". "): "…down 2.1%. net profit is 120 million yuan" for 。净利润为1.2亿元.
    for span in masked.spans:
        before = masked.source[:span.start].rstrip()
        if _translated_term(span) and before[-1:] in _SENTENCE_ENDS:
            out = span.output
            text = re.sub(rf"(?<=[.!?] ){re.escape(out)}\b", out[0].upper() + out[1:], text)
    return text


_SENTENCE_ENDS = ("。", "！", "？", ".", "!", "?")


def _translated_term(span: Span) -> bool:
    """A term the engine translated, written in small letters (its capital is the sentence's): a
    phrase, or a figure, date or place written with words first ("more than two-thirds", "the end of
    2024", "about 30 °C", "the eastern region")."""
    return span.kind in ("phrase", "number", "date", "place") and span.target not in (None, span.text) \
        and span.output[:1].islower()


# An article the model wrote before a span that starts with a determiner of its own: "The ⦅1⦆
# company" with ⦅1⦆ = "this quarter" came back "The this quarter company".
_ARTICLE_BEFORE_DETERMINER = re.compile(r"\b([Tt]he|[Aa]n?) (?=(?:this|these|those|the|its|our|their)\b)")


def an_before_a_vowel(text: str, written: Sequence[str]) -> str:
    """``text`` (English) with "an" where the model set "a" before a restored span that starts with
    a vowel (an app's 一个账号 came back "A account": the model wrote its article for a placeholder);
    not before a "u", "one" or "eu", which may sound as a consonant (a unit, a one-off, a European)."""
    for out in dict.fromkeys(written):
        if out[:1].lower() in "aeio" and not out.lower().startswith(("one", "eu", "ewe")):
            text = re.sub(rf"\b([Aa]) (?={re.escape(out)}\b)", r"\1n ", text)
    return text


def no_article_before_determiner(text: str) -> str:
    """``text`` (English) without an article right before a determiner ("The this quarter" ->
    "This quarter", "a the" -> "the"): never English, whoever wrote it. The determiner takes the
    article's capital."""
    out, pos = [], 0
    for m in _ARTICLE_BEFORE_DETERMINER.finditer(text):
        out.append(text[pos:m.start()])
        pos = m.end()
        if m.group(1)[0].isupper():
            out.append(text[pos].upper())
            pos += 1
    out.append(text[pos:])
    return "".join(out)


# Place names English writes with "the" (the Middle East, the United States, the Yellow River).
_THE_PLACE = re.compile(r"\b(?:Republic|Kingdom|States|Union|Emirates|Islands|Sea|Ocean|River|Gulf|Strait|Mountains"
                        r"|Middle East|Netherlands|Philippines|Bahamas|Maldives|Caribbean|Balkans|Himalayas|Arctic"
                        r"|Antarctic|Pacific|Atlantic|Mediterranean|Hague|Vatican|Gambia|Congo|Sahara|Alps)\b")
# What may follow a place named alone: a mark, the end, a word that is no noun of its own.
_AFTER_PLACE = (r"(?=\s*(?:$|[,.;:!?)\]\"']"
                r"|(?:and|or|in|on|at|to|from|for|with|by|as|is|was|are|were|has|had|have|will)\b))")


def no_article_before_place(text: str, places: Sequence[str]) -> str:
    """``text`` (English) without the "the" the model set before a place name English writes
    without one ("mainly from the Southeast Asia and …", "the Guangdong, Jiangsu"), where the
    place stands alone (not "the Guangdong market", "the Asia-Pacific region"); "the Middle East"
    and "the United States" keep theirs."""
    for place in dict.fromkeys(places):
        if place.endswith("'s") and not _THE_PLACE.search(place):
            # A possessive takes none, and goes before an ordinal or a superlative the model put
            # first (我国第一条跨海高速铁路: "the first China's cross-sea railway").
            text = re.sub(rf"\b[Tt]he ((?:first|second|third|last|only|[a-z]+est) )?({re.escape(place)})(?![A-Za-z])",
                          lambda m: f"{m.group(2)} {m.group(1) or ''}".rstrip(), text)
            continue
        if _THE_PLACE.search(place) or not place[:1].isupper() or place in _WEEKDAYS:
            continue  # the weekdays are place spans too: "the Sunday before" is English
        text = re.sub(rf"\b([Tt])he {re.escape(place)}{_AFTER_PLACE}",
                      lambda m: m.group() if _LIST_OF_PLACES.match(m.string, m.end()) else m.group()[4:], text)
    return text


_WEEKDAYS = frozenset(WEEKDAYS)
# "the Guangdong, Jiangsu and Zhejiang provinces": the article is the list's noun's.
_LIST_OF_PLACES = re.compile(r"[^.;:!?]{0,80}?\b(?:provinces|regions|cities|countries|areas|markets|states"
                             r"|municipalities|prefectures|counties|districts)\b")


# Full-width marks and the ASCII ones a spaced language writes for them (a space after).
# (【中国移动】, a text message's signature, came back "【 China Mobile 】": [China Mobile])
_CJK_MARKS = "。，；：！？、“”‘’（）【】"
_LATIN_MARKS = dict(zip(_CJK_MARKS, ".,;:!?,\"\"''()[]", strict=True))


def _spaced_brackets(gap: str) -> str:
    """English writes a space before an opening bracket after a word or a figure (价格：¥1299（包邮）
    came back "Price: ¥1299(free shipping)": the full-width bracket needs none)."""
    return re.sub(r"(?<=[0-9A-Za-z%])\(", " (", gap)


def _latin_marks(gap: str) -> str:
    """A gap's full-width marks as English writes them, with the space English writes after a
    sentence mark where the gap goes on (额定电压：220V came back "rated voltage:220V"), and an
    ideographic space as a space."""
    out = []
    for i, c in enumerate(gap):
        mark = _LATIN_MARKS.get(c, " " if c == "\u3000" else c)
        if c in "。，；：！？、" and i + 1 < len(gap) and not gap[i + 1].isspace() and gap[i + 1] not in _CJK_MARKS:
            mark += " "
        out.append(mark)
    return _spaced_brackets("".join(out).strip())


# The small words a term's English may start with that the model also writes before its placeholder.
_LEAD_WORDS = frozenset({"by", "on", "in", "at", "from", "to", "since", "until", "before", "after", "for", "the",
                         "about", "around", "more", "less", "over", "under", "up", "down", "a", "an", "of"})


def _lead_case(m: re.Match[str]) -> str:
    """The term (group 2) with the dropped word's (group 1) capital, if it had one."""
    term = m.group(2)
    return (term[0].upper() if m.group(1)[0].isupper() else term[0]) + term[1:]


def no_doubled_lead_word(text: str, outputs: Sequence[str]) -> str:
    """``text`` without the model's word before a restored term that starts with the same word (请于⦅1⦆
    with ⦅1⦆ "by January 15, 2027" came back "by by January 15, 2027")."""
    for output in set(outputs):
        lead = re.match(r"([A-Za-z]+) ", output)
        if lead and lead.group(1).lower() in _LEAD_WORDS:
            text = re.sub(rf"(?<![A-Za-z])({re.escape(lead.group(1))})\s+({re.escape(output)})",
                          _lead_case, text, flags=re.IGNORECASE)
    return text


def latin_copy(text: str, spans: Sequence[Span], capital: bool = True) -> str:
    """A Chinese sentence made only of terms with English targets (``一季度国内生产总值同比增长5.3%。``),
    written without the model: the terms apart by a space where the source glued them, and the
    full-width marks between them as English writes them, a sentence with its capital (``First quarter
    gross domestic product up 5.3% year on year.``); without ``capital`` as the terms write it (the rest
    of a sentence after ``First, ``)."""
    out: list[str] = []
    pos = 0
    for s in spans:
        if s.target is None:
            continue  # a figure or code: copied with the text around it
        gap = _latin_marks(text[pos:s.start])
        out.append(gap)
        out.append(s.target)
        pos = s.end
    out.append(_latin_marks(text[pos:]))
    words = [w for w in out if w]
    joined = words[0] if words else ""
    for w in words[1:]:
        # No space after an opening quote or bracket, none before a closing one or a mark.
        opened = joined.endswith(("(", "[")) or (joined.endswith('"') and joined.count('"') % 2 == 1)
        closing = w[0] in ".,;:!?)]" or (w[0] == '"' and joined.count('"') % 2 == 1)
        joined += w if opened or closing else " " + w
    # A sentence starts with a capital (每股收益0.52元。 came back "earnings per share 0.52 yuan."); not
    # a word in inner capitals or a code word (iPhone, pip).
    # ... and so does a heading that starts with a term (a docx's 季度经营情况 came back "quarterly business
    # performance").
    first = re.match(r"[a-z]+(?=[\s,]|-[a-z])", joined)  # debt-to-asset ratio too
    lead = next((s for s in spans if s.start == len(text) - len(text.lstrip())), None)
    if capital and first is not None and (re.search(r"[.!?:]$", joined) or (lead is not None and lead.target is not None
                                                                and joined.startswith(lead.target))):
        joined = joined[0].upper() + joined[1:]
    return one_period(joined)  # "3:30 p.m.." -> "3:30 p.m."


def chinese_copy(text: str, terms: Sequence[Span]) -> str:
    """An English sentence made only of terms with Chinese targets, written without the model
    and set as Chinese output is: a line of dialogue's ``"Twenty past eight,"`` (its clock words a
    term, cut from ``said the old man`` by doctrans.dialogue) came back ``"八点二十分,"`` with the
    ASCII quotes and comma; now ``“八点二十分，”``; an agreement's run-in heading ``Service Credits.``
    came back ``服务抵扣额.``. Spans stay placeholders meanwhile, so code and figures keep their marks."""
    masked = mask(text, MAX_PLACEHOLDERS, terms)
    if masked.unmasked:
        return substitute(text, terms)
    punctuated = restore_chinese_punctuation(masked.text, [s.output for s in masked.spans])
    if re.search(r"(?<!\.)\.\s*$", punctuated):  # an agreement's run-in heading, Service Credits.
        punctuated = end_like_source(text, punctuated.rstrip()[:-1], chinese_output=True)
    return unmask(chinese_quotes(punctuated), masked).text


def substitute(text: str, spans: Sequence[Span]) -> str:
    """``text`` with each span that has a target (a glossary term) replaced by it, verbatim."""
    out: list[str] = []
    pos = 0
    for s in spans:
        if s.target is None:
            continue
        out.append(text[pos:s.start])
        out.append(s.target)
        pos = s.end
    out.append(text[pos:])
    return "".join(out)


def prepare(sentence: str, placeholders: int, glossary: Glossary | None = None,
            tgt_lang: str | None = None, src_lang: str | None = None,
            alone: Callable[[str], str] | None = None) -> Prepared:
    """What the model reads for ``sentence``; ``placeholders``: how many ``⦅k⦆`` pieces the
    bundle's vocabulary has (0: do not mask). ``tgt_lang``/``src_lang``: the direction, for what
    it fixes itself (doctrans.direction_terms.automatic_terms: figures written with 万/亿 the
    target's way, Latin names kept as they are), which join the glossary terms, and for Chinese
    output's punctuation (doctrans.zh_punctuation). ``alone``: the engine's translation of a
    short text on its own, for the sentence's quoted terms (doctrans.quoted_terms); None: they are
    left to the model with the rest."""
    return replace(_prepare(sentence, placeholders, glossary, tgt_lang, src_lang, alone),
                   chinese_output=is_chinese(tgt_lang), end_marks=end_marks(tgt_lang), src_lang=src_lang,
                   tgt_lang=tgt_lang)


# A bare section number (``1 Introduction``, ``3 Conclusion``) counts as an enumerator only before
# a known section heading: ``3 Apples fell`` is a sentence.
_BARE_SECTION_NUMBER = re.compile(r"\s*\d{1,2}[ \t\u3000]+(?=[A-Z\u4e00-\u9fff])")


_CLOCK = re.compile(r"(?:上午|下午|早上|晚上|中午|凌晨)?[0-9]{1,2}(?:点(?:[0-9]{1,2}分|半)?|[:：][0-9]{2})")
_SPEAKER = re.compile(r"\s*[A-Z][A-Z.'’ -]{0,30}:\s*")


def _enumerator(sentence: str, src_lang: str | None, tgt_lang: str | None) -> re.Match[str] | None:
    found = _ENUMERATOR.match(sentence)
    if found is not None:
        return found
    bare = _BARE_SECTION_NUMBER.match(sentence)
    rest = sentence[bare.end():] if bare else ""
    heading = find_section_heading(rest, src_lang, tgt_lang) if bare else []
    return bare if heading and heading[0].kind == "heading" and heading[0].end == len(rest.rstrip()) else None


def _prepare(sentence: str, placeholders: int, glossary: Glossary | None, tgt_lang: str | None,
             src_lang: str | None, alone: Callable[[str], str] | None = None, *,
             after_comma: bool = False) -> Prepared:
    """``after_comma``: the sentence goes on after a prefix like ``First, ``, so a copy of it starts in
    small letters (三是持续改善民生, all one term, came back "Third, Continue to improve…")."""
    enumerator = _enumerator(sentence, src_lang, tgt_lang)
    if enumerator and not is_untranslatable(sentence, glossary.find(sentence) if glossary is not None else []):
        prefix = marker_into(enumerator.group(0).lstrip(), tgt_lang)
        body = replace(_prepare(sentence[enumerator.end():], placeholders, glossary, tgt_lang, src_lang, alone,
                                after_comma=prefix.endswith(", ")), source=sentence)
        return _after(prefix, body)
    lead = _leading(sentence, src_lang, tgt_lang)
    if lead is not None:  # written before the translation of the rest, which the model reads alone
        end, written = lead
        # A form's field that names a person (姓名：陈晓明　性别：男): the rest alone has lost what says
        # its first word is a name (doctrans.person_names reads it after its label), and the model
        # dropped it; the name goes with the rest as a name of the glossary.
        named = {n.text: n.target for n in find_person_names(sentence, src_lang, tgt_lang)
                 if n.start == end and n.target}
        if named:
            glossary = (glossary or Glossary([], None)).with_names(named)
        return _after(written, replace(_prepare(sentence[end:], placeholders, glossary, tgt_lang, src_lang, alone,
                                                after_comma=written.endswith(", ")), source=sentence))
    terms = automatic_terms(sentence, glossary.find(sentence) if glossary is not None else [], src_lang, tgt_lang)
    terms, asked = _with_quoted_terms(sentence, terms, alone, src_lang, tgt_lang)
    if placeholders:
        terms = _within_budget(sentence, terms, placeholders)
    if asked:  # translated alone only now: a term the budget dropped costs no model call
        terms = _translated_alone(sentence, terms, asked, alone)
    if is_untranslatable(sentence, terms):
        copy = substitute(sentence, terms)
        if base_language(tgt_lang) not in CJK_LANGUAGES and any(is_cjk(c) for c in sentence) \
                and any(t.target is not None for t in terms):
            copy = latin_copy(sentence, terms, capital=not after_comma)  # terms out of Chinese: spaced, English marks
        elif is_chinese(tgt_lang) and any(t.target is not None for t in terms):
            copy = chinese_copy(sentence, terms)
        if is_chinese(tgt_lang) and _SPEAKER.fullmatch(sentence) and copy.rstrip().endswith(":"):
            copy = copy.rstrip()[:-1] + "："  # a script's speaker before a stage direction (DANNY: as SARAH：)
        return Prepared(sentence, mask(sentence, 0), None, copy)
    if placeholders == 0:
        return Prepared(sentence, mask(sentence, 0), substitute(sentence, terms), None)
    masked = mask(sentence, placeholders, terms)
    # Terms past the placeholder limit still get their target, as text for the model to copy. Words
    # in capitals are read in small letters when the output has no case (doctrans.case_fold); only
    # here, where every span the case must not touch is a placeholder.
    # Typographic quotes read as the ASCII ones the model learned (doctrans.quotes; the same length,
    # so the shifted offsets hold).
    # A written Chinese prohibition in the spoken form the model learned (doctrans.negation).
    model_text = fold_case(substitute(double_quoted(plain_quotes(masked.text)), _shifted(masked, terms)), sentence,
                           src_lang, tgt_lang)
    model_text = spoken_negation(model_text, src_lang)
    # A quotation's verb after its speaker, as Chinese writes it (doctrans.inverted_speech).
    model_text = speaker_first(model_text, src_lang, tgt_lang)
    return Prepared(sentence, masked, model_text, None, masking=True)


def _with_quoted_terms(sentence: str, terms: list[Span], alone: Callable[[str], str] | None,
                       src_lang: str | None, tgt_lang: str | None) -> tuple[list[Span], dict[int, QuotedTerm]]:
    """``terms`` and the sentence's short quoted terms (doctrans.quoted_terms) that none of them
    nor a verbatim span touches, and the terms among those to translate alone (by ``id`` of their
    span, whose target is still the source: :func:`_translated_alone` writes it); the kept ones
    have themselves, in the output's quotes, as target. Without ``alone`` only the kept ones."""
    candidates = find_quoted_terms(sentence, src_lang, tgt_lang)
    if not candidates:
        return terms, {}
    taken = [*find_spans(sentence), *terms]
    found: list[Span] = []
    asked: dict[int, QuotedTerm] = {}
    for q in candidates:
        if any(t.start <= q.start and q.end <= t.end for t in terms):
            continue  # a term holds the whole quote: a program's label ("OK" -> “确定”), a glossary term
        if q.written in (DEFINED, DEFINED_INTO_ENGLISH):
            # A term of the lists that is the whole defined term (the "Landlord": 出租方) is its translation.
            inner = [t for t in terms if q.start < t.start and t.end < q.end]
            if len(inner) == 1 and inner[0].text == q.text and inner[0].target:
                terms = [t for t in terms if t is not inner[0]]
                found.append(Span(q.start, q.end, sentence[q.start:q.end], "phrase", q.written.format(inner[0].target)))
                continue
        # A string kept as written holds what other rules found inside it (the Latin run of
        # "Welcome to nginx!" was a name without its mark): the quote wins over them.
        cut = [t for t in taken if q.start < t.end and t.start < q.end
               and (q.alone or not (q.start <= t.start and t.end <= q.end))]
        if cut or (q.alone and alone is None):
            continue
        if q.alone:
            span = Span(q.start, q.end, sentence[q.start:q.end], "phrase", q.text)
            asked[id(span)] = q
            found.append(span)
            continue
        terms = [t for t in terms if not (q.start <= t.start and t.end <= q.end)]
        found.append(Span(q.start, q.end, sentence[q.start:q.end], "phrase", quoted(q, q.text, sentence)))
    return (sorted([*terms, *found], key=lambda t: t.start) if found else terms), asked


def _translated_alone(sentence: str, terms: list[Span], asked: dict[int, QuotedTerm],
                      alone: Callable[[str], str] | None) -> list[Span]:
    """``terms`` with each quoted term of ``asked`` given its translation alone as target, in the
    output's quotes; a term whose translation alone is not used (doctrans.quoted_terms.quoted)
    is left to the model with the rest of the sentence."""
    out = []
    for t in terms:
        q = asked.get(id(t))
        if q is None:
            out.append(t)
        elif alone is not None and (target := quoted(q, alone(q.text), sentence)):
            out.append(replace(t, target=target))
    return out


def _leading(sentence: str, src_lang: str | None, tgt_lang: str | None) -> tuple[int, str] | None:
    """(where the rest starts, what is written for what comes before it) for a sentence that
    starts with a news dateline (新华社北京11月20日电: given as a placeholder, it got a "The" before
    it), a part number before a heading (第三条 费用及支付方式), a point counted in prose (一是…: First,)
    or a label ("Note: ...", "注意：...") and has more after it; None otherwise."""
    dateline = find_dateline(sentence, src_lang, tgt_lang)
    if dateline and sentence[dateline[0].end:].strip():
        rest = sentence[dateline[0].end:]
        return len(sentence) - len(rest.lstrip()), dateline[0].output + " "
    numbered = numbered_heading(sentence, src_lang, tgt_lang)
    if numbered is not None:
        return numbered
    return counted_point(sentence, src_lang, tgt_lang) or leading_label(sentence, src_lang, tgt_lang)


def _after(prefix: str, body: Prepared) -> Prepared:
    """``body`` (the rest of a sentence) with ``prefix`` written before its translation."""
    return replace(body, prefix=prefix + body.prefix, copy=None if body.copy is None else prefix + body.copy)


# Report terms (doctrans.report_terms) only while a sentence has at most this many placeholders:
# the models learned placeholders for figures and code, not for words that carry the grammar, and
# with more they put them out of order (2024年，公司实现营业收入1,250.6亿元，同比增长8.3%；净利润96.4亿元…
# came back "…operating revenue, 9.64 billion yuan 125.06 billion yuan; net profit…": the figures
# swapped; without the two terms, in order). That was the CPU models; the GPU model of 2026-11-27
# keeps those seven in order, and without the terms wrote "the camping" and "tails" for 营业收入 and
# 净利润: 8 for it (dev BLEU unchanged: the dev splits hold almost no report terms).
PHRASE_BUDGET = 8


def _within_budget(sentence: str, terms: list[Span], placeholders: int) -> list[Span]:
    """``terms`` without the kept names, place names and report terms (doctrans.kept_names,
    doctrans.place_names, doctrans.report_terms; in :func:`_first_to_drop`'s order) that would push
    a verbatim span or a glossary term past the placeholder limit: a figure must never change, while
    a name left to the model is only at risk of being garbled; and without the report terms past
    :data:`PHRASE_BUDGET`."""
    # A quoted English string kept as written in Chinese output (doctrans.quoted_terms) is copied
    # like a verbatim span, not a word the grammar hangs on: RFC 2119's ten quoted key words lost
    # eight of theirs to the budget, and the model read those in small letters and wrote "shad".
    # An institution's name of several words (the Office for National Statistics) is the budget's
    # to drop, not the phrase budget's: a name the model does not know, no word of the grammar.
    phrases = [t for t in terms if t.kind == "phrase" and not _kept_quote(t) and _drop_rank(t) < 2]
    over = len(protected_spans(sentence, terms)) - PHRASE_BUDGET
    if over > 0 and phrases:
        dropped = {id(t) for t in _first_to_drop(phrases)[:over]}
        terms = [t for t in terms if id(t) not in dropped]
    excess = len(protected_spans(sentence, terms)) - placeholders
    if excess <= 0:
        return terms
    names = [t for t in terms if t.kind in ("name", "place", "phrase")]
    dropped = {id(t) for t in _first_to_drop(names)[:excess]}
    return [t for t in terms if id(t) not in dropped]


def _first_to_drop(terms: list[Span]) -> list[Span]:
    """``terms`` in the order the budget leaves them to the model, each :func:`_drop_rank` from the
    last one back (it garbled "the Office for National Statistics said on Wednesday" as 即星期三的军数
    when the budget left that name, the last, and masked "Consumer prices" and Britain)."""
    order = sorted(range(len(terms)), key=lambda i: (_drop_rank(terms[i]), -i))
    return [terms[i] for i in order]


def _drop_rank(t: Span) -> int:
    """0: a place or a report term of one word (Britain, inflation: the model knows many of those);
    1: a report term in small letters (consumer prices); 2: a name of several words, and code's
    names (one word of code, ``fmtparams``, is no word the model knows), which keep their order."""
    if t.kind not in ("place", "phrase"):
        return 2
    english = t.output if any(is_cjk(c) for c in t.text) else t.text  # 中国汽车工业协会: its English
    words = english.split()
    if len(words) == 1:
        return 0
    return 2 if sum(w[:1].isupper() for w in words) >= 2 else 1


_ONE_PLACEHOLDER = f"{re.escape(PLACEHOLDER_OPEN)}(\\d+){re.escape(PLACEHOLDER_CLOSE)}"
_PLACEHOLDER_PAIR = re.compile(f"({_ONE_PLACEHOLDER})[ \t]*[,，、][ \t]*(?={_ONE_PLACEHOLDER})")


def quote_list_commas(decoded: str, masked: Masked) -> str:
    """Chinese output: two quoted strings kept as written in a list are parted by 、 (“MUST”、“MAY”),
    as chinese_quotes parts quoted terms the model wrote; the model wrote the source's ", ".
    Between their placeholders, so the strings themselves are never touched."""
    def kept(k: str) -> bool:
        i = int(k) - 1
        return 0 <= i < len(masked.spans) and _kept_quote(masked.spans[i])

    return _PLACEHOLDER_PAIR.sub(lambda m: m.group(1) + "、" if kept(m.group(2)) and kept(m.group(3)) else m.group(0),
                                 decoded)


def _kept_quote(t: Span) -> bool:
    """A quoted string kept as written (its target is its own words in the output's quotes)."""
    return t.target is not None and len(t.text) > 2 and t.text[0] in '"“' and t.target[1:-1] == t.text[1:-1]


def _shifted(masked: Masked, terms: Sequence[Span]) -> list[Span]:
    """The terms left unmasked (past the placeholder limit), at their offsets in ``masked.text``."""
    if not masked.unmasked or not terms:
        return []
    last = masked.spans[-1]
    shift = masked.offsets[-1] + len(placeholder(len(masked.spans))) - last.end
    return [Span(s.start + shift, s.end + shift, s.text, s.kind, s.target) for s in masked.unmasked
            if s.target is not None]
