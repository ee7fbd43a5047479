"""Sentence splitting with character offsets, and fitting long sentences to the model's budget.

Every function here returns ``(start, end)`` offsets into the text it was given, never copies,
so a writer can put each translation back exactly where its source was: the text *between*
segments (whitespace, or nothing in CJK) is kept by the caller, and no character of the input is
ever dropped -- the segments plus the gaps between them always rebuild the input.

Rules (en, de, zh; other languages get the en rules without the abbreviation list):
- CJK terminators (。！？ and the full-width ！？) end a sentence wherever they stand, no space needed;
  closing quotes/brackets right after them stay with the sentence.
- ``. ! ? …`` (and ``...``) end a sentence only when followed by whitespace and then something that
  can start a sentence (upper-case letter, digit, opening quote/bracket, CJK); a lower-case next
  word means an abbreviation or an ellipsis inside the sentence ("etc. and", "wait... what").
- a period after a known abbreviation ("Dr.", "z.B.", "e.g."), a single initial ("J. Smith") or,
  in German, an ordinal number ("am 3. Mai") does not end a sentence.
- decimals ("3.14"), versions and URLs never split: a period must be followed by whitespace.
- a line break or tab always ends a segment: in documents they are layout (a manual line break,
  a tab stop between fields), and a writer keeps them in place between the translated pieces.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from doctrans.language_id import base_language

Span = tuple[int, int]

def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


_ABBREVIATIONS: dict[str, frozenset[str]] = {
    "en": _words(
        "mr mrs ms dr prof sr jr st mt vs etc e.g i.e cf fig figs no nos vol pp p ed eds approx dept est "
        "inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k a.m p.m ph.d al gen "
        "col lt sgt capt rev hon"
    ),
    "de": _words(
        "z.b bzw usw u.a d.h dr prof nr ca vgl s abs ggf evtl hr fr str tel inkl exkl zzgl ca bzgl "
        "u.ä o.ä s.o s.u z.t i.d.r u.u d.i jh jahrh mio mrd dt engl franz allg bspw etc ff "
        "jan feb mär apr jun jul aug sep sept okt nov dez"
    ),
}
_SCENE_SIDES = frozenset({"INT", "EXT", "INT./EXT", "EXT./INT", "I/E"})


def _opens_line(text: str, i: int) -> bool:
    """Nothing but spaces or tabs between ``text[i]`` and the start of its line."""
    before = text[:i].rstrip(" \t")
    return not before or before.endswith("\n")


# American states as news agencies abbreviate them in a dateline (PORTLAND, Ore. (AP) —): their stop
# ends no sentence there (doctrans.datelines writes the dateline).
AP_STATES = {"Ala.": "Alabama", "Ariz.": "Arizona", "Ark.": "Arkansas", "Calif.": "California", "Colo.": "Colorado",
              "Conn.": "Connecticut", "Del.": "Delaware", "Fla.": "Florida", "Ga.": "Georgia", "Ill.": "Illinois",
              "Ind.": "Indiana", "Kan.": "Kansas", "Ky.": "Kentucky", "La.": "Louisiana", "Md.": "Maryland",
              "Mass.": "Massachusetts", "Mich.": "Michigan", "Minn.": "Minnesota", "Miss.": "Mississippi",
              "Mo.": "Missouri", "Mont.": "Montana", "Neb.": "Nebraska", "Nev.": "Nevada", "N.H.": "New Hampshire",
              "N.J.": "New Jersey", "N.M.": "New Mexico", "N.Y.": "New York", "N.C.": "North Carolina",
              "N.D.": "North Dakota", "Okla.": "Oklahoma", "Ore.": "Oregon", "Pa.": "Pennsylvania",
              "R.I.": "Rhode Island", "S.C.": "South Carolina", "S.D.": "South Dakota", "Tenn.": "Tennessee",
              "Vt.": "Vermont", "Va.": "Virginia", "Wash.": "Washington", "W.Va.": "West Virginia",
              "Wis.": "Wisconsin", "Wyo.": "Wyoming"}
_DATELINE_CITY = re.compile(r"(?:^|\n)[ \t]*[A-Z][A-Z .'-]*[A-Z],[ \t]+$")
_GERMAN_MONTHS = _words("januar februar märz april mai juni juli august september oktober november dezember")

_CJK_TERMINATORS = "。！？｡"
_CLOSERS = "\"'”’»)]}」』）》〕】›"
_OPENERS = "\"'“‘„«([{「『（《〔【‹¿¡"
# A sentence terminator candidate: CJK terminators (no space needed) or western ones.
# German closes quotes with “ and ‘ (which open them in English): right after a terminator they close.
# A footnote's mark after the terminator belongs to the sentence it ends ("pydocs.¹ Gains",
# "end.[12] Next", "提高了0.8分。¹ 代词"): the mark stayed in the sentence (no space after the full
# stop) or started the next one.
SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"  # a footnote's mark (doctrans.verbatim keeps it too)
_FOOTNOTE_MARK = rf"[{SUPERSCRIPT_DIGITS}]|\[\d{{1,3}}(?:[,\-–]\s?\d{{1,3}})*\]"
_CANDIDATE = re.compile(r"([。！？｡]+|\.{3,}|…+|[.!?]+)"
                        r"((?:[" + re.escape(_CLOSERS + "“‘") + r"]|" + _FOOTNOTE_MARK + r")*)")
_HARD_BREAK = re.compile(r"[\n\t\r\v\f\u2028\u2029]+")


def is_cjk(ch: str) -> bool:
    """True for Han, kana, Hangul and CJK punctuation: scripts written without spaces."""
    o = ord(ch)
    return (
        0x3000 <= o <= 0x30FF  # CJK punctuation, kana
        or 0x3400 <= o <= 0x4DBF
        or 0x4E00 <= o <= 0x9FFF
        or 0xAC00 <= o <= 0xD7AF  # Hangul
        or 0xF900 <= o <= 0xFAFF
        or 0xFF00 <= o <= 0xFFEF  # full-width forms
        or 0x20000 <= o <= 0x2FA1F
    )


def strip_span(text: str, start: int, end: int) -> Span | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _word_before(text: str, pos: int) -> str:
    """The token ending right before ``pos`` (dots inside kept: "z.B", "e.g")."""
    i = pos
    while i > 0 and not text[i - 1].isspace() and text[i - 1] not in _OPENERS:
        i -= 1
    return text[i:pos]


def _is_boundary(text: str, lang: str, mark_start: int, mark: str, after: int, limit: int) -> bool:
    """Whether the terminator ``mark`` at ``mark_start`` (its closers end at ``after``) ends a
    sentence; ``limit`` is the end of the current line (a hard break ends it anyway)."""
    if mark[0] in _CJK_TERMINATORS:
        return True
    if after >= limit:
        return True
    if not text[after].isspace():
        return False  # "3.14", "example.com", "a.b.c": no split without whitespace
    nxt = after
    while nxt < limit and text[nxt].isspace():
        nxt += 1
    if nxt >= limit:
        return True
    first = text[nxt]
    if not (first.isupper() or first.isdigit() or first in _OPENERS or is_cjk(first) or first in "-–—•*"):
        return False  # lower-case continuation: abbreviation or ellipsis inside a sentence
    if mark != ".":
        return True  # "!", "?", "...", "?!" followed by a capital
    word = _word_before(text, mark_start)
    bare = word.lower().strip(_CLOSERS + _OPENERS)
    abbreviations = _ABBREVIATIONS.get(lang, _ABBREVIATIONS["en"])
    if bare in abbreviations:
        return False
    if bare in ("c", "ca", "b", "d", "fl") and first.isdigit():
        return False  # circa, born, died, flourished before a year: "(c. 1600–256 BCE)", "(b. 1931)"
    if word in _SCENE_SIDES and _opens_line(text, mark_start - len(word)):
        return False  # a screenplay's scene heading: "INT. POLICE STATION - NIGHT" (doctrans.scene_headings)
    if word + "." in AP_STATES and _DATELINE_CITY.search(text, 0, mark_start - len(word)):
        return False  # a dateline's state: "PORTLAND, Ore. (AP) —"
    if len(bare) == 1 and bare.isalpha() and word[:1].isupper():
        return False  # an initial: "J. Smith"
    if "." in bare and all(len(p) <= 2 for p in bare.split(".")) and bare.replace(".", "").isalpha():
        return False  # dotted abbreviations not in the list: "U.S.A.", "o.B."
    if lang == "de" and bare.isdigit():
        # German ordinals: "am 3. Mai", "der 2. Weltkrieg"; a month or a capitalised noun follows.
        next_word = re.match(r"\w+", text[nxt:])
        if next_word and next_word.group(0).lower() in _GERMAN_MONTHS:
            return False
    return True


_INLINE_CODE = re.compile(r"``(?:[^`\n]|`(?!`))+?``|`[^`\n]+`")


def split_sentences(text: str, lang: str = "en") -> list[Span]:
    """Sentence spans of ``text``, in order, each stripped of surrounding whitespace.

    Empty or whitespace-only text gives ``[]``. The gaps between spans hold only whitespace.
    """
    lang = (lang or "en").split("-")[0].lower()
    spans: list[Span] = []
    # Line breaks and tabs are hard boundaries (layout), so split on them first.
    chunk_start = 0
    for brk in [*_HARD_BREAK.finditer(text), None]:
        chunk_end = brk.start() if brk else len(text)
        start = chunk_start
        # A table of contents' entry: its leader and page number are a segment of their own.
        leader = _LEADER.search(text, chunk_start, chunk_end)
        if leader is not None and text[chunk_start:leader.start()].strip():
            leader_span = strip_span(text, leader.start(), chunk_end)
            chunk_end = leader.start()
        else:
            leader_span = None
        # Never inside inline code (a man page's `backup-agent [OPTIONS] SOURCE... DEST` was cut after
        # its "...", and the half without its closing backtick came back with SOURCE translated).
        code = [(c.start(), c.end()) for c in _INLINE_CODE.finditer(text, chunk_start, chunk_end)]
        for m in _CANDIDATE.finditer(text, chunk_start, chunk_end):
            if any(a < m.start() < b for a, b in code):
                continue
            after = m.end()
            if m.group(1)[0] in _CJK_TERMINATORS and m.group(2):
                # After 。！？ a “ or ‘ opens the next sentence (only German closes quotes with them).
                closers = re.match(r"[^“‘]*", m.group(2))
                after = m.start(2) + (closers.end() if closers else 0)
            if _is_boundary(text, lang, m.start(), m.group(1), after, chunk_end):
                span = strip_span(text, start, after)
                if span:
                    spans.append(span)
                start = after
        span = strip_span(text, start, chunk_end)
        if span:
            spans.append(span)
        if leader_span:
            spans.append(leader_span)
        if brk:
            chunk_start = brk.end()
    return spans


# Where a too-long sentence may be cut, best first: after clause punctuation, then between words.
_CLAUSE_END = re.compile(r"[,;:，；：、)\]]+(?=\s)|[，；：、]")


def _candidate_cuts(text: str, start: int, end: int) -> list[int]:
    """Positions in (start, end) where a piece may end: after each word, or between CJK chars."""
    cuts = []
    for i in range(start + 1, end):
        prev, cur = text[i - 1], text[i]
        if (cur.isspace() and not prev.isspace()) or is_cjk(prev) or is_cjk(cur):
            cuts.append(i)
    return cuts


def fit_to_budget(
    text: str,
    span: Span,
    count_tokens: Callable[[str], int],
    max_tokens: int,
) -> list[Span]:
    """Cut the sentence ``text[span]`` into pieces of at most ``max_tokens`` tokens.

    Pieces are cut at a clause mark (comma, semicolon...) when one lies in the second half of the
    longest piece that fits, else at the last word boundary that fits, and only as a last resort
    inside a word (a 5,000-character token). Pieces cover the whole span: nothing is dropped.

    Linear in the span's length: each piece is searched for in a window that doubles from the
    last piece's length until it no longer fits, so a 200,000-character line without punctuation
    costs a few windows per piece -- never a tokenization of the whole rest of the line per piece.
    """
    start, end = span
    if max_tokens <= 0 or count_tokens(text[start:end]) <= max_tokens:
        return [span]
    pieces: list[Span] = []
    width = 64
    while start < end:
        stop = min(end, start + width)
        while stop < end and count_tokens(text[start:stop]) <= max_tokens:
            width *= 2
            stop = min(end, start + width)
        if stop == end and count_tokens(text[start:end]) <= max_tokens:
            pieces.append((start, end))
            break
        # text[start:stop] does not fit: the best cut lies inside this window.
        cuts = _candidate_cuts(text, start, stop)
        best = _longest_fitting(text, start, cuts, count_tokens, max_tokens)
        if best is None:
            # Not even one word fits: cut inside the word, by characters.
            best = _longest_fitting(text, start, list(range(start + 1, stop)), count_tokens, max_tokens)
            best = best if best is not None else start + 1
        else:
            clause = [m.end() for m in _CLAUSE_END.finditer(text, start, best)]
            if clause and clause[-1] - start >= (best - start) // 2:
                best = clause[-1]
        piece = strip_span(text, start, best)
        if piece:
            pieces.append(piece)
        width = max(64, 2 * (best - start))  # the next piece is probably about as long
        start = best
        while start < end and text[start].isspace():
            start += 1
    return pieces


def _longest_fitting(
    text: str, start: int, cuts: list[int], count_tokens: Callable[[str], int], max_tokens: int
) -> int | None:
    """The last cut c with count_tokens(text[start:c]) <= max_tokens (binary search: counts are
    monotone in the prefix length for any sane tokenizer), or None when even the first is too long."""
    lo, hi, best = 0, len(cuts) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        if count_tokens(text[start : cuts[mid]]) <= max_tokens:
            best, lo = cuts[mid], mid + 1
        else:
            hi = mid - 1
    return best


def segment_block(
    text: str,
    lang: str,
    count_tokens: Callable[[str], int] | None = None,
    max_tokens: int = 0,
) -> list[Span]:
    """Sentences of a block, each cut further to fit the model's budget when a counter is given."""
    spans = split_sentences(text, lang)
    if base_language(lang) in ("zh", "ja"):
        spans = [piece for span in spans for piece in _at_semicolons(text, span)]
    # A safe length in characters, whatever the tokenizer: no piece of a model's budget is longer
    # (SentencePiece pieces are at most 16 characters), and without a budget nothing longer than
    # MAX_SENTENCE_CHARS goes to an engine in one call.
    safe = 16 * max_tokens if count_tokens is not None and max_tokens > 0 else MAX_SENTENCE_CHARS
    spans = [piece for span in spans for piece in cap_length(text, span, safe)]
    if count_tokens is None or max_tokens <= 0:
        return spans
    out: list[Span] = []
    for span in spans:
        out.extend(fit_to_budget(text, span, count_tokens, max_tokens))
    return out


MAX_SENTENCE_CHARS = 2000

# A Chinese report's sentence of statements joined by ；(全市地区生产总值达到1.86万亿元，增长5.8%；一般
# 公共预算收入2350亿元，增长4.1%；城镇新增就业31.2万人……): each statement is a sentence of its own to
# the model, which lost the figures and terms past its phrase budget in the whole (new urban jobs,
# the surveyed unemployment rate). Not a short piece (a list's 甲；乙；丙).
_SEMICOLON_PIECE = 12


def _at_semicolons(text: str, span: Span) -> list[Span]:
    start, end = span
    cuts = [m.end() for m in re.finditer("；", text[start:end])]
    pieces: list[Span] = []
    last = 0
    for cut in cuts:
        if cut - last >= _SEMICOLON_PIECE and (end - start) - cut >= _SEMICOLON_PIECE:
            pieces.append((start + last, start + cut))
            last = cut
    pieces.append((start + last, end))
    return [p for p in (strip_span(text, a, b) for a, b in pieces) if p is not None]


def cap_length(text: str, span: Span, max_chars: int) -> list[Span]:
    """Cut ``text[span]`` into pieces of at most ``max_chars`` characters, in one pass: at the
    last clause mark of the second half of each window, else its last space, else (one
    5,000-character "word") at the window's end. Shorter spans come back as they are."""
    start, end = span
    if end - start <= max_chars:
        return [span]
    pieces: list[Span] = []
    while end - start > max_chars:
        stop = start + max_chars
        half = start + max_chars // 2
        clause = [m.end() for m in _CLAUSE_END.finditer(text, half, stop)]
        if clause:
            cut = clause[-1]
        else:
            space = max((text.rfind(c, half, stop) for c in (" ", "\u3000")), default=-1)
            cut = space if space > start else stop
        piece = strip_span(text, start, cut)
        if piece:
            pieces.append(piece)
        start = cut
        while start < end and text[start].isspace():
            start += 1
    piece = strip_span(text, start, end)
    if piece:
        pieces.append(piece)
    return pieces


# Line breaking (kinsoku): marks a line must not start with (they hang on the line before) and
# marks it must not end with (they go down with what they open). The txt writer's re-wrapping and
# the PDF writer's sharing out of a paragraph cut by a page break both keep them.
NO_LINE_START = "，。、；：！？）」』】〕》〉”’…·,.;:!?)]}%"
NO_LINE_END = "（「『【〔《〈“‘([{"

# A table of contents' entry: a title, a leader of dots, a page number (``2 Market Overview ..... 5``).
# Each is a line of its own in a text file and a PDF (two ran together and the leader came back
# shortened), and its leader and page number are not the model's (the title is translated alone).
_LEADER_PATTERN = r"[ \t]*(?:[.·…][ \t]?){4,}[ \t]*[0-9]{1,4}[ \t]*$"
_LEADER = re.compile(_LEADER_PATTERN)
TOC_LINE = re.compile(r".*\S" + _LEADER_PATTERN)

# A field of a specification sheet or a form, ``Label: value`` (``Weight: 1.2 kg``, ``重量：1.2千克``):
# two in a row are lines of their own in a text file and a PDF, however long (a spec sheet's widest
# field looked wrapped, and its fields ran together in pairs). An API's parameters in a Chinese
# reference too, their names before a full-width colon (``id：用户编号，必填`` / ``fields：可选…`` ran
# together and came back re-wrapped across both lines).
FIELD_LINE = re.compile(r"\s*(?:[A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}:[ \t]+\S|[\u4e00-\u9fff]{1,8}[：:]\s*\S"
                        r"|[A-Za-z_][A-Za-z0-9_.\-]{0,30}：\s*\S)")
# A parameter or a setting described after its lower-case name (``definitions: …`` / ``source_name:
# …``, a config page's ``level: the lowest level…`` / ``rotate: …``): a paragraph whose first line
# starts so has one item a line where the next starts so too (a manual's three settings were joined
# as wrapped prose and came back re-wrapped across the lines, the second setting's words on the first).
KEY_LINE = re.compile(r"[a-z_][A-Za-z0-9_]*: \S")

# Full-width marks after which CJK text sets no space, whatever follows.
_CJK_STOPS = "。！？；：，、」』）”"
_CJK_OPENING_QUOTES = "“‘"


def join_gap(gap: str, tgt_lang: str, left: str, right: str) -> str:
    """The text to put between two translated segments whose source gap was ``gap``.

    Layout (line breaks, tabs) is kept as is. A plain space between sentences disappears when the
    target writes without spaces (zh, ja) and both neighbours are CJK or the left one ends in a
    full-width mark (``他说："还没。" "我在等。"``: no space after ``。"``), and appears when a CJK source
    ("。" then the next sentence, no gap) is translated into a spaced language.
    """
    if gap and not gap.isspace():
        return gap
    if _HARD_BREAK.search(gap):
        return gap
    cjk_target = tgt_lang.split("-")[0].lower() in {"zh", "ja"}
    # An opening quote before a Chinese utterance counts as Chinese (她说 · “我想…”: no space).
    first = right.lstrip(_CJK_OPENING_QUOTES)[:1]
    if cjk_target and left and right and ((is_cjk(left[-1]) and is_cjk(first))
                                          or left.rstrip("\"'")[-1:] in _CJK_STOPS):
        return ""
    if not gap and left and right and not (is_cjk(left[-1]) or is_cjk(right[0])):
        return " "
    return gap
