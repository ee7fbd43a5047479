"""People an English document names in full and then by surname alone, written into Chinese one way.

English news names a person in full once and by the surname from then on: ``Jannik Sinner
defeated Carlos Alcaraz 6-4, 3-6, 7-6(5)``, then ``Sinner will face Daniil Medvedev`` and ``"...,"
Sinner said``. The en->zh model transliterates a full name (``卡洛斯·阿尔克拉兹``) but reads a
surname alone as the word it also is: one match report's Sinner came back 罪名, 内部 and 罪恶, a
profile's Gates 网上 (Bill Gates itself 比尔·盖茨), and Cook 科克 beside a 蒂姆·科克 — the reader
cannot tell it is the same person, or a person at all. So, over the document's English prose:

- a **person** is a given name of doctrans/data/given_names.txt (a middle initial or given name
  allowed) and a capitalised surname that is no kind of place or organisation (``Charles River``,
  ``Victoria Station`` are not: :data:`_NOT_SURNAMES`); one whose surname is a common English
  word (a UI's ``Bill Payment``) only where the document also writes that surname alone (not
  right after another capitalised word) or names the person in full again. In context the model
  copied a name it did not know with the verb after it (``Prime Minister Giorgia Meloni said the
  government`` came back ``总理 Giorgia Meloni said政府``);
- the model's own translation of the full name alone gives both renderings: the full name as it
  writes it, the surname as the part after its last middle dot (``卡洛斯·阿尔克拉兹`` ->
  ``阿尔克拉兹``) when every character of that part is one Chinese writes foreign names in
  (doctrans/data/transliteration_chars.txt, measured on the training pairs: not a 罪人 for
  Sinner); otherwise (copied in Latin letters, unsure, written without a dot) both are kept as
  the document writes them.

Each is a ``name`` span of every sentence that writes it (doctrans.document_names puts them in the
translator's glossary, after the user's terms). English into Chinese only.

| document                                                         | names                                  |
|------------------------------------------------------------------|----------------------------------------|
| Carlos Alcaraz lost. Alcaraz said ...                            | 卡洛斯·阿尔克拉兹 · 阿尔克拉兹         |
| Tim Cook spoke. Cook said ...  (the model copies "Tim Cook")     | Tim Cook · Cook, as written            |
| Maria Lopez spoke.  (named once)                                 | 玛丽亚·洛佩兹 · 洛佩兹                 |
| Open Bill Payment.  (named once, a common word)                  | (none)                                 |
| Eleanor M. Whitfield ... Eleanor Margaret Whitfield died.        | 埃莉诺·惠特菲尔德 · 惠特菲尔德         |
| Charles River flooded. The River rose.                           | (none)                                 |
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache

from doctrans.data_lists import word_set

# What a full name's last word is not: a kind of place, building, body, event or thing named after
# a person (Charles River, Victoria Station, Nobel Prize), a weekday or a month.
_NOT_SURNAMES = frozenset({
    "street", "road", "avenue", "lane", "drive", "boulevard", "square", "park", "bridge", "station", "airport",
    "port", "harbour", "harbor", "river", "lake", "bay", "sea", "ocean", "island", "islands", "mountain",
    "mountains", "hill", "valley", "falls", "beach", "coast", "county", "city", "town", "village", "district",
    "province", "state", "states", "university", "college", "school", "academy", "institute", "hospital", "clinic",
    "center", "centre", "hall", "house", "museum", "library", "church", "cathedral", "temple", "tower", "building",
    "hotel", "stadium", "arena", "theatre", "theater", "foundation", "fund", "trust", "prize", "award", "awards",
    "cup", "trophy", "medal", "day", "act", "law", "club", "company", "group", "bank", "inc", "ltd", "corp", "co",
    "llc", "plc", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
    "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
})

# A capitalised kind right after a surname makes a place or a body named after it (White House,
# Brown University): doctrans.glossary does not read the surname there.
KIND_AFTER = re.compile(r"\s+(?:" + "|".join(w.capitalize() for w in sorted(_NOT_SURNAMES)) + r")\b")

_SURNAME = r"[A-ZÀ-ÖØ-ÞĀ-Ž](?:[a-zß-öø-ÿā-ž]|['’][A-Za-z])*[a-zß-öø-ÿā-ž](?:-[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž]+)?"
# A capitalised word (or initial) right before a surname makes it part of a longer name, not alone.
# (An initial's full stop is the name's, a word's is a sentence's: "Monday. Cook said" is Cook alone.)
_CAPITAL_BEFORE = re.compile(r"(?:[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’-]*|\b[A-Z]\.)\s+$")
# Where a surname ends: not inside a longer word (Sinner of Sinners is no Sinner).
_WORD_AFTER = re.compile(r"[\wà-ÿ-]")
_DOTS = re.compile("[·•・]")
MAX_PEOPLE = 40  # one short translation each


def given_names() -> frozenset[str]:
    return word_set("given_names.txt")


def transliteration_chars() -> frozenset[str]:
    return word_set("transliteration_chars.txt")


@cache
def _full_name() -> re.Pattern[str]:
    givens = "|".join(sorted((g.capitalize() for g in given_names()), key=len, reverse=True))
    # A middle initial or a middle given name (an obituary's "Eleanor Margaret Whitfield": its
    # surname is Whitfield, not Margaret).
    return re.compile(rf"(?<![\w.])(?:{givens})(?:\s+(?:[A-Z]\.|(?:{givens})(?=\s+[A-Z])))?\s+({_SURNAME})"
                      r"(?![\w'’-]*[\wà-ÿ])")


def full_names(text: str) -> list[tuple[str, str]]:
    """(full name, surname) of every person :data:`given_names` starts in ``text``, in order."""
    return [(m.group(), m.group(1)) for m in _full_name().finditer(text)
            if m.group(1).lower() not in _NOT_SURNAMES and not m.group(1).isupper()]


def alone_mentions(text: str, surname: str) -> int:
    """How often ``text`` writes ``surname`` alone: as a whole word, no capitalised word right before."""
    n = 0
    for m in re.finditer(rf"(?<![\w-]){re.escape(surname)}", text):
        if _WORD_AFTER.match(text, m.end()) or _CAPITAL_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            continue
        n += 1
    return n


def surname_rendering(full_name: str, rendered: str) -> str | None:
    """The surname's part of ``rendered`` (the model's translation of ``full_name`` alone): what
    follows its last middle dot when that is a transliteration; None when it is not one."""
    parts = _DOTS.split(rendered.strip())
    if len(parts) < 2 or len(full_name.split()) < 2:
        return None
    last = parts[-1].strip()
    chars = transliteration_chars()
    if not 1 <= len(last) <= 8 or not all(c in chars for c in last):
        return None
    return last


def find_document_people(texts: Iterable[str], alone: Callable[[str], str] | None) -> dict[str, str]:
    """The people an English document names in full and by surname alone -> how Chinese writes
    them (see the module's docstring): the full name and the surname, each to the model's
    transliteration, or each to itself. ``alone``: the engine's translation of a short text on
    its own (None: every name kept as written)."""
    text = "\n".join(texts)
    people: dict[str, str] = {}  # surname -> its first full name
    mentions: dict[str, int] = {}  # surname -> how many full names end with it
    for full, surname in full_names(text):
        people.setdefault(surname, full)
        mentions[surname] = mentions.get(surname, 0) + 1
    names: dict[str, str] = {}
    for surname, full in list(people.items())[:MAX_PEOPLE * 4]:
        if len(names) >= 2 * MAX_PEOPLE:
            break
        # ... or names in full more than once, maybe each time another way (an obituary's "Eleanor M.
        # Whitfield" came back 埃莉诺·莫菲尔德, its "Eleanor Margaret Whitfield" 埃莉诺·玛格丽特·惠特菲尔德)
        # A name written once is the model's too, unless its surname is a word the model may read
        # for its meaning (a UI's "Bill Payment", "Rose Garden"): named once, the news's "Prime
        # Minister Giorgia Meloni said the government ..." came back "Giorgia Meloni said政府".
        # (kept_names.common_words() reads the same list; importing it here would be circular)
        common = surname.lower() in word_set("common_words.txt")
        if common and not alone_mentions(text, surname) and mentions[surname] < 2:
            continue
        rendered = alone(full) if alone is not None else ""
        short = surname_rendering(full, rendered)
        if short is None:
            names[full], names[surname] = full, surname
        else:
            names[full], names[surname] = rendered.strip(), short
    return names
