"""Quotation marks: plain ones for the model to read, Chinese ones in Chinese output.

The built-in models learned from corpora that write quotes and apostrophes in ASCII (TVsub's
Chinese side: 44,920 ``"`` and no ``“``; its English side and the documentation's: ``don't``),
and their SentencePiece normalization (NFKC) leaves typographic quotes as they are, so a word
processor's smart quotes reached the model as rare pieces: ``“Are you coming?”`` came back as
``“Are来吗`` and ``“你要走了吗？”妈妈问。`` as ``"A" you're leaving? Mom asked.`` (with plain
quotes: ``"You're leaving?" Mom asked.``). :func:`plain_quotes` gives the model ASCII quotes and
apostrophes; only the text the model reads changes (verbatim spans are placeholders by then).

Chinese sets quotations in ``“”`` (GB/T 15834), which the models rarely write: :func:`chinese_quotes`
turns the ASCII pairs of a Chinese translation into ``“”``, without the spaces the model put
around them next to Chinese text. It runs while verbatim spans are placeholders, so a code
literal's ``"`` is never touched, and only when the quotes pair up.
"""

from __future__ import annotations

import re

from doctrans.zh_punctuation import HAN

_PLAIN = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "「": '"', "」": '"', "『": '"',
                        "』": '"', "‘": "'", "’": "'", "‚": "'", "‛": "'"})
_CJK_MARK = "。，、；：？！…"


def plain_quotes(text: str) -> str:
    """``text`` with typographic quotes and apostrophes as ASCII ``"`` and ``'``."""
    return text.translate(_PLAIN)


# A whole segment that is an utterance in single quotes (doctrans.dialogue cuts ``'Not yet,' she
# said.`` into ``'Not yet,'`` and ``she said.``), after plain_quotes.
_SINGLE_UTTERANCE = re.compile(r"(\s*)'([^\W\d_].*[,?!.…])'(\s*)", re.DOTALL)


def double_quoted(text: str) -> str:
    """A segment that is one utterance in single quotes, the British way, with double quotes for
    the model (which learned quotations in ``"``: it dropped the quotes and ran ``'Not yet,' she
    said`` together into ``还没，她说了。``); anything else unchanged. The same length."""
    m = _SINGLE_UTTERANCE.fullmatch(text)
    return f'{m.group(1)}"{m.group(2)}"{m.group(3)}' if m else text


_QUOTATION = re.compile(r'\s*"[^"]+"\s*')
# A quotation of several sentences is cut into them: its first opens it and its last closes it
# (``"Box 417, Harrington Station. | You'll understand."``).
_OPENS = re.compile(r'\s*"[^"\s][^"]*')
_CLOSES = re.compile(r'[^"]*[^"\s][.,!?…]"\s*')


def keep_quotation(source: str | None, translation: str) -> str:
    """The translation of a segment that is wholly one quotation (``"Not yet,"``, as the model
    read it) in quotes too when the model wrote none: it dropped them (``'I don't know,' said Tom``
    came back ``我不知道汤姆说``); chinese_quotes then sets them the Chinese way. Likewise the first
    sentence of a quotation that goes on opens it and the last closes it (a note's ``"Box 417,
    Harrington Station. You'll understand."`` came back without either quote)."""
    if source is None:
        return translation
    core = translation.strip()
    if _QUOTATION.fullmatch(source) and translation.count('"') == 1 and not any(q in translation for q in "“”「」"):
        # The model wrote one of the pair (the economy story's quotation came back 经济仍处于…，"):
        # the other goes where the quotation starts or ends.
        if core.startswith('"'):
            return translation.replace(core, f'{core}"', 1)
        if re.search(r'"[\s.,!?。，！？…]*$', core):
            return translation.replace(core, f'"{core}', 1)
        return translation  # a quote inside: not one of the pair
    if any(q in translation for q in '"“”「」') or not core:
        return translation
    if _QUOTATION.fullmatch(source):
        return translation.replace(core, f'"{core}"', 1)
    if _OPENS.fullmatch(source):
        return translation.replace(core, f'"{core}', 1)
    if _CLOSES.fullmatch(source):
        return translation.replace(core, f'{core}"', 1)
    return translation


_END = re.compile(r'"([\s.。!！?？]*)$')
_WHOLE = re.compile(r'(\s*)"(.*)"([\s.。!！?？]*)', re.DOTALL)


def drop_stray_quote(source: str | None, translation: str) -> str:
    """``translation`` without a ``"`` at its end that closes nothing: the source pairs its quotes
    and does not end in one, the translation has one quote too many and it is the last (the en->zh
    model ended the RFC 2119 sentence ``…2119[RFC-2119]"。``, and the odd count kept every pair of
    the sentence from becoming “”); and, when the source is wholly one quotation and the
    translation opens and closes one, without the stray quote inside it."""
    if source is None or translation.count('"') % 2 == 0 or source.count('"') % 2:
        return translation
    whole = _WHOLE.fullmatch(translation)
    if whole and _QUOTATION.fullmatch(source):
        # The source is one quotation and the translation opens and closes one, with a stray
        # quote inside (``"最糟糕的是"是什么意思？"``): the outer pair stays, the inner quote goes.
        return f'{whole.group(1)}"{whole.group(2).replace(chr(34), "")}"{whole.group(3)}'
    if re.search(r'["”][\s.。!！?？]*$', source):
        return translation
    return _END.sub(r"\1", translation)


def chinese_quotes(text: str) -> str:
    """``text`` (Chinese) with its ASCII ``"`` pairs as ``“…”``; unchanged when they do not pair
    up or no quotation holds or touches a Chinese character (an English phrase quoted as such).
    A pair the model began in one style and closed in the other (``“submitted"``) pairs up too."""
    plain = text.replace("“", '"').replace("”", '"')
    if plain.count('"') == 1 and re.search(f"[{HAN}]", plain):
        # One quote: a quotation of several sentences opens at the start or closes at the end.
        opened = re.sub(r'^(\s*)"\s*', r"\1“", plain)
        return opened if opened != plain else re.sub(r'\s*"([\s。！？…]*)$', r"”\1", plain)
    if plain.count('"') % 2 or '"' not in text:
        return text
    pieces = plain.split('"')
    quoted = pieces[1::2]
    if not any(re.search(f"[{HAN}]", q) for q in quoted) and not re.search(
            f'[{HAN}{_CJK_MARK}]\\s*"|"\\s*[{HAN}{_CJK_MARK}]', plain):
        return text
    out = [pieces[0]]  # every pair rewritten: mixed styles come out as one
    for i, piece in enumerate(pieces[1:]):
        out.append("“" if i % 2 == 0 else "”")
        out.append(piece)
    joined = "".join(out)
    # No space between Chinese text and its quotation marks: 她说 “不” 。 -> 她说“不”。
    joined = re.sub(f"(?<=[{HAN}{_CJK_MARK}])[ \\t]+(?=“)|(?<=”)[ \\t]+(?=[{HAN}{_CJK_MARK}])", "", joined)
    joined = re.sub("(?<=“)[ \\t]+|[ \\t]+(?=”)", "", joined)
    # Quoted terms in a list (the RFC 2119 key words: “MUST”, “MUST NOT”) are parted by the
    # enumeration comma 、, as Chinese lists set them; a quoted sentence keeps its comma.
    return _TERM_LIST.sub(r"\1、", joined)


# A comma between two short quotations with no sentence mark in them.
_TERM = f"“[^“”{_CJK_MARK},.!?]{{1,20}}”"
_TERM_LIST = re.compile(f"({_TERM})\\s*[,，、]\\s*(?={_TERM})")
