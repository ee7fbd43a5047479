"""Dialogue in fiction: what is said and who says it, translated as separate pieces.

A novel's sentence is often a quotation and its speaker: ``"Not yet," she said.``,
``“还没有，”她说，“我想先把这封信写完。”``. The built-in models learned from subtitles, where
every line is an utterance without quotes or speaker, and such a sentence came back with its
quotation marks lost and its parts run together (``还没有，她说过了。``, ``"I haven't said,"I want
to write this letter.``). So a sentence is cut where a quotation meets its narration -- after a
closing quote that follows ``, ? ! …`` (``"Are you coming?" | her brother asked.``) and before an
opening quote that follows ``, :`` (``she said, | "I want…"``) -- and each piece is translated
(with the memory, in order) as a sentence of its own: an utterance the model reads like a
subtitle line. The text between the pieces (a space, or nothing in Chinese) is joined the
output's way (doctrans.segment.join_gap).

| sentence                                         | pieces                                            |
|--------------------------------------------------|---------------------------------------------------|
| "Are you coming?" her brother asked.             | "Are you coming?" · her brother asked.            |
| "Not yet," she said, "I want to finish first."   | "Not yet," · she said, · "I want to finish first." |
| “还没有，”她说，“我想先把这封信写完。”            | “还没有，” · 她说， · “我想先把这封信写完。”       |
| He said: "Wait for me."                          | He said: · "Wait for me."                         |
| He said "no" to the plan.                        | He said "no" to the plan.                         |
| The word "MUST", in capitals, is a requirement.  | The word "MUST", in capitals, is a requirement.   |
| Select "File," then "Open."                      | Select "File," then "Open."                       |
| The key words "MUST", "MUST NOT", "MAY" apply.   | The key words "MUST", "MUST NOT", "MAY" apply.    |
| 'Not yet,' she said, 'I want to finish first.'   | 'Not yet,' · she said, · 'I want to finish first.' |
| The students' books, don't you think?            | The students' books, don't you think?             |

An opening quote needs ``, :`` before it (or the sentence's start) and an utterance's end inside
its quotation (``, ? ! . …``, or none when it goes on past the sentence), and a closing one ``, ? ! …``
inside it, so a quoted word inside a sentence (``"no"``, ``"MUST",``, a menu's ``"File,"``) is
never cut out. Straight quotes ``"`` open and
close by their count in the block (an odd count: they are left alone). Single quotes set an
utterance the British way (``'Not yet,' she said.``) only where they cannot be apostrophes
(:func:`_single_roles`: an opening one after the start, a sentence end or ``, :`` and a space, before
a letter; a closing one after ``, ? ! . …`` at a word's end), and only when they alternate in the
block. Each piece needs a letter.

Into English, the narration after an utterance that ends in ``, ? !`` goes on in small letters
(:func:`narration_case`: ``"Are you coming?" Her brother asked.`` -> ``her brother asked.``) when
its first word is a common word (not ``I``, not a name).
"""

from __future__ import annotations

import itertools
import re

from doctrans.segment import Span, strip_span
from doctrans.sentence_end import common_first_word_in_small_letters

_OPENING = "“「『"
_CLOSING = "”」』"
_INSIDE_END = ",?!…，？！、"  # an utterance that ends here goes on with its speaker
_BEFORE_OPENING = ",:，："
# What ends an utterance inside its quotes (``she said, "I want to finish first."``): a quoted term
# after a comma ends in none (``The key words "MUST", "MUST NOT", "REQUIRED"...`` is one sentence;
# cut before each quote, the en->zh model wrote the list with its quotes mixed and half dropped).
_SAID_END = ",?!.…，？！。"
_LETTER = re.compile(r"[^\W\d_]")


def _straight_roles(text: str) -> dict[int, str]:
    """Opening or closing, for each straight double quote of ``text`` (by their count); none when
    the count is odd."""
    where = [i for i, c in enumerate(text) if c == '"']
    if len(where) % 2:
        return {}
    return {p: ("open" if k % 2 == 0 else "close") for k, p in enumerate(where)}


_UTTERANCE_END = ",?!.…"


def _single_roles(text: str) -> dict[int, str]:
    """Opening or closing, for each single quote of ``text`` that sets an utterance the British
    way (``'Not yet,' she said.``); none when they do not alternate. An apostrophe never qualifies:
    an opening quote starts the block or follows a sentence's end or ``, :`` and a space, with a
    letter after it; a closing one follows ``, ? ! . …`` and ends a word (``students'``, ``'n'``,
    ``don't`` are none)."""
    roles: dict[int, str] = {}
    for p, c in enumerate(text):
        if c in "'‘" and p + 1 < len(text) and _LETTER.match(text[p + 1]):
            q = p - 1
            while q >= 0 and text[q].isspace():
                q -= 1
            if q < 0 or (q < p - 1 and text[q] in _BEFORE_OPENING + _UTTERANCE_END):
                roles[p] = "open"
        elif c in "'’" and p > 0 and text[p - 1] in _UTTERANCE_END and (p + 1 == len(text) or text[p + 1].isspace()):
            roles[p] = "close"
    kinds = [roles[p] for p in sorted(roles)]
    if kinds != ["open", "close"] * (len(kinds) // 2):
        return {}
    return roles


def dialogue_cuts(text: str, span: Span, roles: dict[int, str] | None = None) -> list[Span]:
    """``text[span]`` cut where a quotation meets its narration (rules in the module docstring);
    ``roles``: the block's straight quotes (:func:`_straight_roles` of the whole block)."""
    start, end = span
    roles = _straight_roles(text) if roles is None else roles
    cuts: list[int] = []
    said = False  # the open quotation is an utterance: it starts the sentence or follows ", :"
    opening: int | None = None  # the cut before it, made once the quotation shows it is said
    for p in range(start, end - 1):
        c = text[p]
        if c in _CLOSING or roles.get(p) == "close":
            spoken = p > start and text[p - 1] in _SAID_END
            if opening is not None and spoken:
                cuts.append(opening)
            if said and p > start and text[p - 1] in _INSIDE_END:
                cuts.append(p + 1)
            said, opening = False, None
        elif c in _OPENING or roles.get(p) == "open":
            q = p - 1
            while q >= start and text[q].isspace():
                q -= 1
            said = q < start or text[q] in _BEFORE_OPENING
            opening = p if said and q >= start else None
    if opening is not None:  # a quotation that goes on past the sentence is said
        cuts.append(opening)
    cuts.sort()
    pieces: list[Span] = []
    for a, b in itertools.pairwise([start, *cuts, end]):
        piece = strip_span(text, a, b)
        if piece is None:
            continue
        if pieces and not (_LETTER.search(text, *piece) and _LETTER.search(text, *pieces[-1])):
            pieces[-1] = (pieces[-1][0], piece[1])  # a piece with nothing to say stays with its neighbour
        else:
            pieces.append(piece)
    return pieces or [span]


# A script's stage direction in brackets where a line starts or after its speaker (林晓雨：（放下杯子）我们
# 谈谈吧。 came back "Lin Xiaoyu: Let's talk.", the direction lost): a piece of its own.
_WORDS = re.compile(r"[\u4e00-\u9fff]|[A-Za-z]+ [A-Za-z]+")
_DIRECTION = re.compile(r"\s*(?:[^\s：:（()）]{1,12}[：:]\s*)?([（(][^（）()\n0-9]{2,40}[）)])")


def stage_direction_cuts(text: str, span: Span) -> list[Span]:
    """``text[span]`` cut before and after a stage direction that opens it or follows its speaker."""
    m = _DIRECTION.match(text, span[0], span[1])
    # words, not code's (a signature's "(int)" after its colon) nor figures: Chinese, or two words or more
    if m is None or not _WORDS.search(m.group(1)) or not _LETTER.search(text, m.end(), span[1]):
        return [span]
    cuts = [c for c in (m.start(1), m.end(1)) if span[0] < c < span[1]]
    pieces = [strip_span(text, a, b) for a, b in itertools.pairwise([span[0], *cuts, span[1]])]
    return [p for p in pieces if p is not None]


def split_dialogue(text: str, spans: list[Span]) -> list[Span]:
    """Every sentence span of a block's ``text`` cut at its quotations (:func:`dialogue_cuts`) and
    its stage direction (:func:`stage_direction_cuts`)."""
    if any(c in text for c in "（("):
        spans = [piece for span in spans for piece in stage_direction_cuts(text, span)]
    if not any(c in text for c in '"“「『\'‘'):
        return spans
    roles = _straight_roles(text) | _single_roles(text)
    return [piece for span in spans for piece in dialogue_cuts(text, span, roles)]


def narration_case(previous_source: str, source: str, translation: str, common: frozenset[str]) -> str:
    """``translation`` of the narration ``source`` that follows the utterance ``previous_source``,
    with its first word in small letters when the utterance ended in ``, ? !`` inside its quotes
    and the word is a common one (``Her brother asked.`` -> ``her brother asked.``)."""
    tail = previous_source.rstrip()
    if len(tail) < 2 or tail[-1] not in _CLOSING + '"\'’' or tail[-2] not in _INSIDE_END:
        return translation
    if source.lstrip()[:1] in _OPENING + '"\'‘':
        return translation  # another utterance
    return common_first_word_in_small_letters(translation, common)
