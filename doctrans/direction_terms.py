"""What a translation direction fixes itself, before the model: the spans of a sentence whose
translation is known exactly, joined to the user's glossary terms and masked, restored and checked
like them (doctrans.engine.protect, doctrans.report).

- amounts of money, the figure and its currency together (``300万欧元`` -> ``€3 million``:
  doctrans.currency);
- figures with a magnitude word the target does not use (``1,250万`` -> ``12.5 million``:
  doctrans.magnitudes), and percentages (``2.5 percent`` -> ``2.5%``);
- a figure and the noun it counts into Chinese, with the counter (``23 countries`` -> ``23个国家``,
  ``3 million people`` -> ``300万人``: doctrans.counted_nouns);
- English number words into Chinese (``Ten years ago`` -> ``十``, ``three million`` -> ``300万``:
  doctrans.number_words);
- calendar dates (``2024年3月15日`` -> ``March 15, 2024``: doctrans.dates) and a report's periods
  (``Q3 2024`` <-> ``2024年第三季度``, ``FY2024`` <-> ``2024财年``: doctrans.report_periods);
- numbered parts of a document (``第五条`` -> ``Article 5``, ``Chapter 3`` -> ``第3章``:
  doctrans.part_numbers);
- measures and times of day (``15公里`` <-> ``15 km``, ``下午3点30分`` <-> ``3:30 p.m.``:
  doctrans.units);
- fixed terms of reports and news (``third quarter`` <-> ``第三季度``, ``国务院`` -> ``State
  Council``: doctrans.report_terms), and places and weekdays by their names in the output
  language (``Germany`` <-> ``德国``: doctrans.place_names);
- Chinese people's names in pinyin where a title or 先生/女士 says they are names
  (``发言人付凌晖表示`` -> ``Fu Linghui``, ``王先生`` -> ``Mr. Wang``: doctrans.person_names);
- a figure with the word that qualifies it (``约1.2千克`` -> ``about 1.2 kg``, ``at least 2 GB`` ->
  ``至少2 GB``: doctrans.qualifiers);
- (in doctrans.engine.protect, not here: short quoted terms, a Chinese one translated alone by
  the engine, an English one kept as written: doctrans.quoted_terms);
- a program's buttons and menus quoted in a manual (``点击“下一步”`` <-> ``click "Next"``:
  doctrans.ui_labels);
- Latin names kept as they are (``使用 GNOME 桌面`` -> ``GNOME``: doctrans.kept_names);
- a news item's dateline (``新华社北京11月20日电`` <-> ``BEIJING, November 20 (Xinhua) --``:
  doctrans.datelines);
- a telephone number with the verb that calls it (``call 0113 496 0000`` <-> ``拨打0113 496 0000``:
  doctrans.phone_calls);
- a paper's author-year citations (``（张伟等，2020）`` -> ``(Zhang et al., 2020)``, ``(Bawden et al.,
  2018)`` kept whole: doctrans.citations);
- a letter's salutation, closing or signature, a segment of its own (``尊敬的王经理：`` -> ``Dear
  Manager Wang:``, ``Best regards,`` -> ``此致敬礼！``: doctrans.letters);
- a segment that is a section heading and nothing else (``Summary`` -> ``概要``:
  doctrans.section_headings).

A user's term wins over all of them; a date, a numbered part or a measure never overlaps a figure;
names are looked for only where nothing else is.
"""

from __future__ import annotations

import re

from doctrans.citations import find_citations
from doctrans.company_names import find_company_names
from doctrans.coordinates import find_coordinates
from doctrans.counted_nouns import find_counted_nouns
from doctrans.currency import find_amounts
from doctrans.datelines import find_dateline
from doctrans.dates import find_dates
from doctrans.government_bodies import find_government_bodies
from doctrans.kept_names import find_kept_names, organisation_runs
from doctrans.language_id import base_language
from doctrans.legal_formulas import find_legal_formulas
from doctrans.letters import find_letter_formula
from doctrans.magnitudes import find_magnitudes, grouped_digits
from doctrans.number_words import (
    find_clock_words,
    find_digit_ordinals,
    find_halves,
    find_number_words,
    find_recent_periods,
    find_shares,
    find_words_and_digits,
)
from doctrans.part_numbers import find_part_numbers
from doctrans.person_names import find_person_names, with_speech_verbs
from doctrans.phone_calls import find_phone_calls
from doctrans.place_names import find_place_names, find_roads
from doctrans.qualifiers import find_qualified_counts, with_qualifiers, with_ranges
from doctrans.regnal_names import find_regnal_names
from doctrans.report_periods import find_report_periods
from doctrans.report_terms import find_changes, find_report_terms
from doctrans.scene_headings import find_scene_headings
from doctrans.scores import find_scores
from doctrans.section_headings import find_section_heading
from doctrans.space_missions import find_space_missions
from doctrans.ui_labels import find_ui_labels
from doctrans.units import CLOCK_WRITTEN, find_large_measures, find_units
from doctrans.verbatim import Span, find_spans


def automatic_terms(text: str, terms: list[Span], src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """Glossary ``terms`` plus the figures, dates and names the direction fixes, in text order: each
    kind in turn, where nothing found before it (a user's term first) lies. A news dateline takes
    the people's names inside it (its reporter's: 新华社北京11月25日电（记者王磊）), which it writes
    itself: the translation starts with it (protect's lead), and the check read 新华社 and 北京 alone."""
    for dateline in find_dateline(text, src_lang, tgt_lang):
        terms = [t for t in terms if not (t.kind == "name" and dateline.start <= t.start and t.end <= dateline.end)]
    for found in (find_section_heading(text, src_lang, tgt_lang), find_scene_headings(text, src_lang, tgt_lang),
                  find_letter_formula(text, src_lang, tgt_lang), find_legal_formulas(text, src_lang, tgt_lang),
                  find_dateline(text, src_lang, tgt_lang), find_phone_calls(text, src_lang, tgt_lang),
                  find_citations(text, src_lang, tgt_lang),
                  find_changes(text, src_lang, tgt_lang), find_shares(text, src_lang, tgt_lang),
                  find_scores(text, src_lang, tgt_lang), find_words_and_digits(text, src_lang, tgt_lang),
                  find_recent_periods(text, src_lang, tgt_lang), find_qualified_counts(text, src_lang, tgt_lang),
                  find_halves(text, src_lang, tgt_lang), find_clock_words(text, src_lang, tgt_lang),
                  find_coordinates(text, src_lang, tgt_lang), find_roads(text, src_lang, tgt_lang),
                  find_space_missions(text, src_lang, tgt_lang), find_regnal_names(text, src_lang, tgt_lang),
                  find_amounts(text, tgt_lang), find_large_measures(text, tgt_lang),
                  find_counted_nouns(text, src_lang, tgt_lang), find_magnitudes(text, tgt_lang),
                  find_report_periods(text, src_lang, tgt_lang),
                  find_dates(text, tgt_lang), find_part_numbers(text, tgt_lang),
                  find_units(text, tgt_lang), find_digit_ordinals(text, src_lang, tgt_lang)):
        terms = _joined(terms, found, terms)
    spans = find_spans(text)
    terms = _joined(terms, find_ui_labels(text, src_lang, tgt_lang), [*spans, *terms])
    terms = _joined(terms, find_number_words(text, src_lang, tgt_lang, [*spans, *terms]), terms)
    # A company's name holds its legal form, which the report terms write alone (股份有限公司 Co., Ltd.).
    terms = _joined(terms, find_company_names(text, src_lang, tgt_lang), [*spans, *terms])
    # A term written with a figure (2型糖尿病, type 2 diabetes) holds its figure's span whole and wins
    # over it, as a glossary term does (doctrans.verbatim.protected_spans); the others give way.
    report = find_report_terms(text, src_lang, tgt_lang)
    if base_language(src_lang) == "en":
        runs = organisation_runs(text)
        report = [r for r in report if not any(a < r.start and r.end <= b for a, b in runs)]
    terms = _joined(terms, [r for r in report if _has_digit(r.text)], terms)
    terms = _joined(terms, [r for r in report if not _has_digit(r.text)], [*spans, *terms])
    terms = _joined(terms, find_government_bodies(text, src_lang, tgt_lang), [*spans, *terms])
    terms = _joined(terms, find_place_names(text, src_lang, tgt_lang), [*spans, *terms])
    terms = _joined(terms, find_person_names(text, src_lang, tgt_lang), [*spans, *terms])
    if base_language(src_lang) == "zh" and base_language(tgt_lang) == "en":
        terms = with_speech_verbs(text, terms)
    terms = _joined(terms, find_kept_names(text, src_lang, tgt_lang, [*spans, *terms]), terms)
    if base_language(src_lang) == "zh" and base_language(tgt_lang) == "en":
        terms = _dates_with_times(text, terms)
    terms = with_qualifiers(text, with_ranges(text, terms, spans, src_lang, tgt_lang), spans, src_lang, tgt_lang)
    if base_language(src_lang) == "zh" and base_language(tgt_lang) == "en":
        terms = _counters_before_terms(text, terms, spans)
    return terms


# A figure's counter before a term the model is given (为4,862名本科生和3,127名研究生 came back "3,127
# name graduate students", 1,200余名指战员 "more than 1,200 name firefighters"): the counter is the
# figure's, English counts without one.
_COUNTERS_OF_PEOPLE = "名位"
_DIGITS = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})*|[0-9]+")


def _counters_before_terms(text: str, terms: list[Span], spans: list[Span]) -> list[Span]:
    starts = {t.start for t in terms if t.kind in ("phrase", "name")}

    def counted(s: Span) -> bool:
        return s.kind == "number" and text[s.end:s.end + 1] in _COUNTERS_OF_PEOPLE and s.end + 1 in starts

    out = [Span(t.start, t.end + 1, text[t.start:t.end + 1], t.kind, t.target) if counted(t) and t.target else t
           for t in terms]
    out += [Span(s.start, s.end + 1, text[s.start:s.end + 1], "number", grouped_digits(s.text)) for s in spans
            if counted(s) and not s.overlaps_any(terms) and _DIGITS.fullmatch(s.text)]
    return _counts_after_terms(text, sorted(out, key=lambda s: s.start))


# ... and a count after the term, as a report lists what was built (新建分布式光伏电站12座 came back "a new
# distributed photovoltaic power stations 12 seat"): the term, the figure and its counter are one span,
# the figure first (12 distributed photovoltaic power stations).
_COUNT_AFTER = re.compile(rf"({_DIGITS.pattern})[个座家所辆台项名位栋架艘条套](?=[，。；、,.;）)\s]|$)")


def _counts_after_terms(text: str, terms: list[Span]) -> list[Span]:
    out: list[Span] = []
    for t in terms:
        m = _COUNT_AFTER.match(text, t.end) if t.kind == "phrase" and t.target else None
        if m is not None and m.group(1) != "1" and not any(o.start < m.end() and t.end < o.end
                                                           for o in terms if o is not t):
            figure = grouped_digits(m.group(1))
            t = Span(t.start, m.end(), text[t.start:m.end()], "number", f"{figure} {t.target}")
        out.append(t)
    return out


# A time of day that follows its date with nothing between (12月1日14时37分 came back "December 1 2:37
# p.m.", the two run together): one span, the time on the date, as English news dates an event.


def _dates_with_times(text: str, terms: list[Span]) -> list[Span]:
    out: list[Span] = []
    for term in terms:
        last = out[-1] if out else None
        if (last is not None and last.kind == "date" and last.end == term.start and term.target
                and last.target and CLOCK_WRITTEN.fullmatch(term.target) and last.target[:1].isupper()):
            out[-1] = Span(last.start, term.end, text[last.start:term.end], "date", f"{term.target} on {last.target}")
            continue
        out.append(term)
    return out


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _joined(terms: list[Span], found: list[Span], taken: list[Span]) -> list[Span]:
    """``terms`` and those of ``found`` that overlap none of ``taken`` nor one of ``found`` kept
    before them, in text order. One finder's rules may match the same words twice ("children under
    10 years of age" is an age bound, its "10 years" a duration: both were masked, ``⦅1⦆⦅2⦆``, and
    came back 10岁以下儿童 10年); the first it lists wins."""
    new: list[Span] = []
    for f in found:
        if not f.overlaps_any(taken) and not f.overlaps_any(new):
            new.append(f)
    return sorted([*terms, *new], key=lambda s: s.start) if new else terms
