"""Markdown's inline markup in text files: links and emphasis are formatting, not words.

The model learned from plain sentences and mangles markup inside one:
``开始之前，请阅读[安装指南](https://example.com/install)。`` came back ``Previously, read the
installation (https://example.com/install).`` (the link gone), ``*记忆*`` came back ``reset*``,
``![logo](img/logo.png)`` came back ``！!log[o](img/logo.png)``. So the text adapter reads a line's
inline markup the way the docx adapter reads a run's formatting: the model is given the plain text
(``开始之前，请阅读安装指南。``), each piece of markup is a :class:`~doctrans.documents.base.Run` over
the text it applies to, and the writer puts it back around that text's image in the translation
(:meth:`TranslatedBlock.project`: exact where the text was copied, proportional inside a sentence
otherwise, snapped to words), so ``see [the FAQ](https://example.com/faq)`` comes back with the
link around the words that translate "the FAQ", give or take a word.

Read as markup (CommonMark's rules, simplified):

- links ``[text](target)``, ``[text](<target>)``, ``[text](target "title")``, reference links
  ``[text][ref]`` and ``[text][]``;
- strong ``**text**`` and ``__text__``, emphasis ``*text*`` and ``_text_``, strikethrough
  ``~~text~~``; nested markup (``**[text](url)**``) too.

Not markup: anything inside inline code (`` `a*b*c` ``, a verbatim span anyway), an underscore
inside a word (``snake_case_name``) and an asterisk between letters or digits (``2*3*4``), a
delimiter beside a space (``a * b``), a dunder name (``__init__``), ``[text]`` alone (a citation
``[3]`` reads the same).
Images ``![alt](src)`` are verbatim spans (doctrans.verbatim) copied whole, alt text included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from doctrans.documents.base import Run, TranslatedBlock
from doctrans.verbatim import find_spans


@dataclass(frozen=True)
class Markup:
    """The markup written before and after a run's text: ``[`` and ``](url)``, ``**`` and ``**``."""

    open: str
    close: str
    link: bool = False


_A = "0-9A-Za-z"  # asterisks may not touch these outside (2*3*4); CJK text may: 重置*记忆*。
_LINK = re.compile(r"(?<![!\\])\[(?P<text>[^\[\]\n]+)\]"
                   r"(?:\((?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\)"
                   r"|\[[^\[\]\n]*\])")
_EMPHASIS = [
    re.compile(rf"(?<![{_A}*\\])\*\*(?=[^\s*])(?P<text>.+?)(?<=[^\s*\\])\*\*(?![{_A}*])"),
    re.compile(r"(?<![\w\\])__(?=[^\s_])(?P<text>.+?)(?<=[^\s_\\])__(?!\w)"),
    re.compile(rf"(?<![{_A}*\\])\*(?=[^\s*])(?P<text>.+?)(?<=[^\s*\\])\*(?![{_A}*])"),
    re.compile(r"(?<![\w\\])_(?=[^\s_])(?P<text>.+?)(?<=[^\s_\\])_(?!\w)"),
    re.compile(r"(?<![~\\])~~(?=[^\s~])(?P<text>.+?)(?<=[^\s~\\])~~(?!~)"),
]
# ``__init__`` is a Python name more often than strong "init" (doctrans.verbatim keeps it too).
_DUNDER = re.compile(r"__[0-9A-Za-z_]+__")
# Inline code and images: their characters are never markup delimiters.
_OPAQUE = re.compile(r"``(?:[^`\n]|`(?!`))+?``|`[^`\n]+`|!\[[^\[\]\n]*\]\([^()\s]*(?:\s+\"[^\"\n]*\")?\)")


def _first_markup(text: str) -> re.Match[str] | None:
    """The leftmost markup of ``text`` (the longest delimiter first at one position) whose
    delimiters are outside inline code and images."""
    opaque = [m.span() for m in _OPAQUE.finditer(text)]

    def clear(i: int, j: int) -> bool:
        return not any(a < j and i < b for a, b in opaque)

    best: re.Match[str] | None = None
    for pattern in (_LINK, *_EMPHASIS):
        for m in pattern.finditer(text):
            if best is not None and m.start() >= best.start():
                break
            if _DUNDER.fullmatch(m.group()):
                continue
            if clear(m.start(), m.start("text")) and clear(m.end("text"), m.end()):
                best = m
                break
    return best


def _moved(o: int, cut: tuple[int, int, int, int]) -> int:
    """Where offset ``o`` is once the markup ``text[m0:i0]`` and ``text[i1:m1]`` is taken out (an
    offset inside a delimiter goes to the edge of the text it marks)."""
    m0, i0, i1, m1 = cut
    if o <= m0:
        return o
    if o <= i1:
        return max(m0, o - (i0 - m0))
    if o < m1:
        return i1 - (i0 - m0)
    return o - (i0 - m0) - (m1 - i1)


def parse(text: str) -> tuple[str, list[Run]]:
    """(the text without its inline markup, one run per piece of markup, ``ref`` a :class:`Markup`)."""
    spans: list[tuple[int, int, Markup]] = []
    while (m := _first_markup(text)) is not None:
        cut = (m.start(), m.start("text"), m.end("text"), m.end())
        spans = [(_moved(a, cut), _moved(b, cut), mk) for a, b, mk in spans]
        m0, i0, i1, m1 = cut
        opened = i0 - m0
        spans.append((m0, i1 - opened, Markup(text[m0:i0], text[i1:m1], link=m.re is _LINK)))
        text = text[:m0] + text[i0:i1] + text[m1:]
    spans.sort(key=lambda s: (s[0], -s[1]))
    return text, [Run(a, b, mk, anchor=True) for a, b, mk in spans]


def write(tb: TranslatedBlock) -> str:
    """The translation of ``tb`` with its block's markup runs put back (the text unchanged when
    the block has none). A run's image loses its edge spaces (``** text**`` is not strong);
    a run never starts or ends inside a verbatim span of the translation (an image, a URL, inline
    code: it takes the span in); a link whose text the translation left no room for keeps its
    target with the source's text, so no link is lost; emphasis over nothing is dropped."""
    runs = [r for r in tb.block.runs if isinstance(r.ref, Markup)]
    if not runs:
        return tb.text
    text = tb.text
    offsets = sorted({o for r in runs for o in (r.start, r.end)})
    anchors = tb.copied_anchors((r.start, r.end) for r in runs)
    image = dict(zip(offsets, tb.project(offsets, anchors), strict=True))
    kept = [(s.start, s.end) for s in find_spans(text)]
    # (position, order, string): at one position, closings before openings; an inner run's closing
    # before its outer one's, an outer run's opening before its inner one's.
    inserts: list[tuple[int, int, int, str]] = []
    for n, run in enumerate(runs):
        mk: Markup = run.ref
        a, b = image[run.start], image[run.end]
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        a = next((s for s, e in kept if s < a < e), a)
        b = next((e for s, e in kept if s < b < e), b)
        if a == b:
            if mk.link:
                inserts.append((a, 1, n, mk.open + tb.block.text[run.start:run.end] + mk.close))
            continue
        inserts.append((a, 1, n, mk.open))
        inserts.append((b, 0, -n, mk.close))
    for pos, _order, _n, s in sorted(inserts, reverse=True):
        text = text[:pos] + s + text[pos:]
    return text
