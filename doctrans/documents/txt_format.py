"""Plain text and markdown-ish text, streamed line by line.

Layout rules (so a translated file looks like the original):
- blank lines and the exact line endings are copied verbatim;
- code is a verbatim block, written back byte for byte and never sent to the model: fenced
  (```/~~~) blocks, indented blocks that look like code (after a blank line, every line indented
  4+ columns, most lines with code punctuation or a prompt), reST literal blocks (the indented
  block after a paragraph ending in ``::``) and the bodies of ``.. code-block::``-like directives;
  "indented" counts from the prose's own margin, so a licence indented throughout is prose;
- a markdown pipe table (rows starting and ending with ``|``) keeps its pipes and spacing, and
  each cell is translated on its own (a row read as one sentence lost its figures' cells);
- a heading (``# ...``), list item (``- ``, ``* ``, ``1. ``, ``1、``, ``一、``, ``（二）``, ``①``) or
  quote (``> ``) keeps its marker and indentation, and only the text after it is translated;
- lines are joined only where the text really is hard-wrapped prose: the block's lines are at most
  ~100 columns wide (CJK counts two) and a line is taken as wrapped only if the first word of the
  next line would not have fitted on it -- the way a reader sees that a break was forced -- and a
  line ending a sentence (the next not going on in lower case) is never joined to the next; two or
  three Latin lines, whose widest says little of the width, are measured against 66 columns at
  least (a CV's job line and the dates under it are two lines). Such a
  run of lines is translated as one text and re-wrapped to its width and indentation; every other
  line (one paragraph per line, numbered items, lines of very different lengths, addresses,
  verse) stays one block, so the line count is kept exactly.

Both reading and writing walk the file with the same generator, so memory stays bounded by the
longest paragraph, however long the file is (the writer pulls translations as it goes).
"""

from __future__ import annotations

import codecs
import itertools
import re
import textwrap
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from doctrans.documents import markdown_inline
from doctrans.documents.base import Block, Document, TranslatedBlock
from doctrans.errors import DocumentError
from doctrans.list_markers import marker_into
from doctrans.segment import FIELD_LINE, KEY_LINE, NO_LINE_END, NO_LINE_START, TOC_LINE, is_cjk

_SAMPLE = 1 << 20  # bytes used to detect the encoding
# Letters and small roman numerals only in brackets (``(a)``, ``b)``, ``(iv)``: a contract's clauses):
# ``A. Smith`` at the start of a wrapped line is prose.
_MARKER = re.compile(r"^(\s*)(#{1,6}\s+|[-*+•·▪●○◦]\s+|\d{1,3}[.)]\s+|\(\d{1,3}\)\s+|\d{1,3}、\s*"
                     r"|\(?(?:[a-zA-Z]|[ivx]{1,4})\)\s+"
                     r"|[一二三四五六七八九十百]+[、．]\s*|[（(][一二三四五六七八九十百]+[）)]\s*|[①-⑳]\s*|>\s*)?"
                     r"(.*?)(\s*)$", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~)")
# reST directives whose indented body is code, not prose.
_CODE_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(code-block|code|sourcecode|highlight|literalinclude|doctest|"
                             r"testcode|testoutput|math|raw)::")
# A line that reads as code: braces, an assignment or comparison, a call or index (a bracket
# right after a word: ``f(x)``, ``a[0]``, ``()``), a shell or REPL prompt. Prose brackets with a
# space before them (``the Work (and Derivative Works)``, ``see [3]``) and semicolons (legal
# prose ends many lines in ``; or``) are not code. A shell command reads as code by its options
# (``curl -fsSL URL``, ``systemctl enable --now agent``: a dash and a letter after a space, which
# prose does not write: its dashes stand between spaces, its minus signs before digits), a pipe
# between words or ``&&``.
_CODE_LINE = re.compile(r"[{}=<>]|\w[(\[]|\(\)|\[\]|^\s*(\$|>>>|\.\.\.|#|//|--)\s"
                        r"|\s--?[A-Za-z][\w-]*(?=\s|$)|\w \| \w|&&")
# An indented block is code only this many columns deeper than the prose around it: a licence or
# an RFC indents all its paragraphs, and that indentation is the page's margin, not a code block.
_CODE_INDENT = 4
# A next line that goes on in small letters (maybe after a bracket or quote), and how full a line
# must be (of the paragraph's width) for such a next line to mean it was wrapped (wrapped_runs).
_GOES_ON = re.compile(r"[(\[\"'“‘]?[a-z]")
_NEAR_FULL = 0.6
_MAX_WRAP = 100  # hard-wrapped prose is wrapped at most this many columns wide
_FEW_LINES, _LEAST_LATIN_WRAP = 3, 66  # (wrapped_runs)
# A "paragraph" of more lines than this (a file without blank lines) is cut into blocks of it,
# so reading stays streamed and the first sentence is translated without reading the whole file.
_MAX_PARAGRAPH_LINES = 200


def _estimate_chars(path: Path, encoding: str) -> int:
    """Characters in the file, estimated from its first MiB: the progress bar counts characters,
    and bytes overstate them (3x for Chinese in UTF-8: the bar ended at 38%)."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        sample = f.read(_SAMPLE)
    chars = len(sample.decode(encoding, errors="replace"))
    return max(1, round(size * chars / max(1, len(sample))))


@dataclass
class _Layout:
    prefix: str  # indentation + marker of the first line
    indent: str  # indentation of continuation lines
    width: int  # 0 = single line, else re-wrap to this width
    eol: str  # between wrapped lines
    trailing: str  # whitespace at the end of the last line
    end: str  # line ending of the last line ("" at the end of a file without a final newline)
    literal_marker: str = ""  # reST "::" (or " ::") that announces a literal block: kept, not translated


def detect_encoding(path: Path) -> str:
    """The text encoding of ``path``: BOMs, then UTF-8, then charset-normalizer; or DocumentError."""
    with open(path, "rb") as f:
        sample = f.read(_SAMPLE)
    if not sample.strip():
        raise DocumentError(f"{path}: the file is empty, there is nothing to translate")
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                     (codecs.BOM_UTF16_BE, "utf-16")):
        if sample.startswith(bom):
            return enc
    if b"\x00" in sample:
        raise DocumentError(f"{path}: this is a binary file, not text (wrong suffix?)")
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=len(sample) < _SAMPLE)
        return "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(sample).best()
    if best is None:
        raise DocumentError(f"{path}: cannot detect the text encoding; save it as UTF-8")
    return best.encoding


def _join(lines: list[str]) -> str:
    out = lines[0]
    for line in lines[1:]:
        out += ("" if out and line and is_cjk(out[-1]) and is_cjk(line[0]) else " ") + line
    return out


def _cols(text: str) -> int:
    """Display columns: a wide (CJK, full-width) character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _first_word(text: str) -> str:
    text = text.lstrip()
    if text and is_cjk(text[0]):
        return text[0]  # CJK breaks after any character
    word = text.split(maxsplit=1)[0] if text.strip() else ""
    # ... and before any: a line starting with figures then CJK (1月1日（星期四）至…) could have been
    # broken after its figures, so only they had to fit (the whole line was taken as its first
    # word, and a notice's two lines were joined and re-wrapped).
    cut = next((i for i, c in enumerate(word) if is_cjk(c)), len(word))
    return word[:cut] or word


# A line that ends a sentence: terminal punctuation, maybe closing quotes or brackets after it.
_SENTENCE_END = re.compile(r"[.!?。！？…][\"'”’)）」』\]]*\s*$")


def _a_list(lines: list[str]) -> bool:
    """Three lines or more of which none goes on in small letters (or in CJK) are a list, one item a
    line: a recipe's ingredients (``225g unsalted butter, softened`` / ``225g caster sugar``) were
    joined where the widest line looked full, and its quantities moved between the lines. Wrapped
    prose breaks before a capital or a figure now and then, not at every line."""
    if len(lines) < 3:
        return False
    for line in lines[1:]:
        word = _first_word(line)
        if not word or is_cjk(word[0]) or _GOES_ON.match(word):
            return False
        if sum(c.isalpha() for c in word) > 1 and word.isupper():
            return False  # text in capitals says nothing by its capitals (a licence's AS IS paragraph)
    return True


def wrapped_runs(lines: list[str]) -> list[tuple[int, int]]:
    """Split a paragraph's lines (indentation included) into runs ``[start, end)``: a run of
    several lines is hard-wrapped prose, a run of one line is a line of its own.

    A line was wrapped (not broken on purpose) when the first word of the next line would not
    have fitted on it within the paragraph's width; a width over ~100 columns is no wrapping at
    all (one paragraph per line, however similar the lengths). A line at least 60 % of the width
    whose next line goes on in small letters was wrapped too (the author's width is wider than
    the widest line by up to a word). A line that ends a sentence, with
    the next line not going on in lower case, ends its run however long it is: one sentence per
    line (the widest line always looks wrapped) must not be smeared across lines, and in wrapped
    prose a break at a sentence end costs only a shorter line. Two fields in a row (``Weight: 1.2
    kg``, ``重量：1.2千克``) are lines of their own, and so is a table of contents' entry (``2 Market
    Overview ..... 5``), and every line of a list (:func:`_a_list`)."""
    widths = [_cols(x.rstrip()) for x in lines]
    width = max(widths)
    if len(lines) < 2 or width > _MAX_WRAP or width < 30 or _a_list(lines):
        return [(i, i + 1) for i in range(len(lines))]
    if len(lines) <= _FEW_LINES and not any(is_cjk(c) for c in "".join(lines)):
        # Two or three lines tell little of the width they were wrapped at (the first is the widest
        # by itself): Latin prose is wrapped at 70-80 columns, so a shorter width is no evidence (a
        # CV's "Senior Data Analyst, Lonestar Health Partners — Austin, TX" / "March 2021 – Present"
        # was joined, and the dates moved onto the first line).
        # (A next line in small letters still says it: goes_on below measures the lines' own width.)
        fits_in = max(width, _LEAST_LATIN_WRAP)
    else:
        fits_in = width
    runs, start = [], 0
    for i in range(len(lines) - 1):
        if (FIELD_LINE.match(lines[i]) and FIELD_LINE.match(lines[i + 1])) or TOC_LINE.match(lines[i]):
            runs.append((start, i + 1))  # a list of fields, a table of contents: one per line
            start = i + 1
            continue
        if KEY_LINE.match(lines[start].lstrip()) and KEY_LINE.match(lines[i + 1].lstrip()):
            runs.append((start, i + 1))  # settings or parameters after their names: one per item
            start = i + 1
            continue
        word = _first_word(lines[i + 1])
        space = 0 if word and is_cjk(word[0]) else 1
        ends = _SENTENCE_END.search(lines[i]) is not None
        sentence_end = ends and not word[:1].islower()
        # A near-full line whose next line goes on in small letters (maybe after a bracket or a
        # quote) was wrapped even when the next word would have fitted: the paragraph's widest
        # line is narrower than the width the author wrapped at, by up to a word.
        goes_on = not ends and _GOES_ON.match(word) is not None and widths[i] >= width * _NEAR_FULL
        if sentence_end or (widths[i] + space + _cols(word) <= fits_in and not goes_on):
            runs.append((start, i + 1))
            start = i + 1
    runs.append((start, len(lines)))
    return runs


def _looks_like_code(lines: list[str], margin: int = 0) -> bool:
    """Lines indented at least ``_CODE_INDENT`` columns past ``margin`` (the indentation of the
    prose before them) that read as code: at least half of them with code punctuation or a prompt."""
    return all(_indent(x) >= margin + _CODE_INDENT for x in lines) and \
        sum(bool(_CODE_LINE.search(x)) for x in lines) * 2 >= len(lines)


@dataclass
class _Code:
    raw: str  # the lines exactly as in the file (fences, indentation, line endings)


class TxtAdapter:
    name = "txt"
    suffixes = (".txt", ".md", ".markdown", ".text", ".rst")

    def read(self, path: Path) -> Document:
        encoding = detect_encoding(path)
        return Document(path=path, format=self.name, _blocks=lambda: self._blocks(path, encoding),
                        size_hint=_estimate_chars(path, encoding), state=encoding)

    def _blocks(self, path: Path, encoding: str) -> Iterator[Block]:
        for _raw, block in _parse(path, encoding):
            if block is not None:
                yield block

    def write(self, document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
        encoding = document.state
        out_enc = "utf-8" if encoding in ("utf-16", "utf-8-sig") else encoding
        it = iter(translated)
        with open(out_path, "w", encoding=out_enc, newline="", errors="strict") as out:
            if encoding == "utf-8-sig":
                out.write("\ufeff")
            for raw, block in _parse(document.path, encoding):
                out.write(raw)
                if block is not None:
                    out.write(render(next(it)))


def render(tb: TranslatedBlock) -> str:
    if isinstance(tb.block.ref, _Code):
        return tb.block.ref.raw
    lay: _Layout = tb.block.ref
    prefix = marker_into(lay.prefix, tb.tgt_lang)  # 一、 -> 1. in English
    text = markdown_inline.write(tb).strip()
    if lay.literal_marker:
        text = text.rstrip(":：").rstrip() + lay.literal_marker
    if not lay.width:
        return prefix + text + lay.trailing + lay.end
    lines = _wrap(text, max(20, lay.width - len(prefix)))
    body = [prefix + lines[0]] + [lay.indent + x for x in lines[1:]]
    return lay.eol.join(body) + lay.trailing + lay.end




def _cjk_units(text: str) -> Iterator[str]:
    """The units of CJK line breaking: a run of spaces, a run of other non-CJK characters (a word,
    a number, a URL: never broken), or one CJK character (doctrans.segment.is_cjk)."""
    for run in re.finditer(r"\s+|\S+", text):
        if run.group().isspace():
            yield run.group()
            continue
        latin = ""
        for ch in run.group():
            if is_cjk(ch):
                if latin:
                    yield latin
                    latin = ""
                yield ch
            else:
                latin += ch
        if latin:
            yield latin


def _cjk_atoms(text: str) -> list[str]:
    """The text cut where a CJK line may break: after any CJK character or Latin word, except
    before a closing mark or after an opening one."""
    atoms: list[str] = []
    glue = False  # the previous atom ends in an opening mark: the next one joins it
    for unit in _cjk_units(text):
        if atoms and not unit.isspace() and (glue or unit[0] in NO_LINE_START):
            atoms[-1] += unit
        else:
            atoms.append(unit)
        glue = unit[-1] in NO_LINE_END
    return atoms


def _wrap(text: str, width: int) -> list[str]:
    if sum(is_cjk(c) for c in text) > len(text) // 3:
        # CJK breaks between any two characters, but not inside a Latin word or number, not before
        # a closing mark and not after an opening one; a full-width character is two columns wide.
        lines, cur = [], ""
        for atom in _cjk_atoms(text):
            if atom.isspace():
                cur += atom if cur else ""  # a line does not start with the space it broke at
                continue
            if cur.strip() and _cols(cur + atom) > width:
                lines.append(cur.rstrip())
                cur = ""
            cur += atom
        return [*lines, cur.rstrip()] if cur.strip() else lines or [""]
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def _split_eol(line: str) -> tuple[str, str]:
    if line.endswith("\r\n"):
        return line[:-2], "\r\n"
    if line.endswith(("\n", "\r")):
        return line[:-1], line[-1]
    return line, ""


def _parse(path: Path, encoding: str) -> Iterator[tuple[str, Block | None]]:
    """Yield (verbatim text, block or None) in file order; verbatim text precedes the block."""
    try:
        with open(path, encoding=encoding, newline="") as f:
            yield from _parse_lines(f)
    except UnicodeDecodeError:
        # The error's position counts from the decoder's last buffer, not the file: find the real offset.
        from doctrans.documents.guard import first_undecodable_byte

        where = first_undecodable_byte(path, encoding)
        at = f"at byte {where}" if where is not None else "somewhere"
        raise DocumentError(f"{path}: not valid {encoding} text {at}; save it as UTF-8") from None


def _indent(line: str) -> int:
    return len(line.expandtabs()) - len(line.expandtabs().lstrip())


def _code_block(lines: list[str]) -> Block:
    """A verbatim block: the text is the code without its fences; the raw lines are written back."""
    bodies = [_split_eol(x)[0] for x in lines]
    if bodies and _FENCE.match(bodies[0]):
        bodies = bodies[1:-1] if len(bodies) > 1 and _FENCE.match(bodies[-1]) else bodies[1:]
    return Block("paragraph", "\n".join(bodies), ref=_Code("".join(lines)), verbatim=True)


def _literal_marker(line: tuple[str, str, str, str, str]) -> tuple[str, tuple[str, str, str, str, str]]:
    """A paragraph line ending in reST's ``::`` -> (the marker to write back, the line as the model
    should read it). ``text::`` is read as ``text:`` (the colon is part of the sentence: a
    translation ends in its own colon, which the marker replaces); ``text ::`` (rendered without a
    colon) is read as ``text``. A translation that loses the ``::`` would turn the literal block
    after it into an ordinary quotation, so the marker never goes through the model."""
    indent, content, trailing, eol, raw = line
    body = content[:-2]
    if body and not body[-1].isspace():
        return "::", (indent, body + ":", trailing, eol, raw)
    return (content[len(body.rstrip()):] if body else " ::"), (indent, body.rstrip(), trailing, eol, raw)


# A markdown pipe table's row: starts and ends with a pipe (GitHub, pandoc's pipe_tables); its
# delimiter row (|---|:--:|) holds nothing to translate.
_TABLE_ROW = re.compile(r"^\s*\|.*(?<!\\)\|\s*$")
_TABLE_DELIMITER = re.compile(r"^\s*\|(\s*:?-+:?\s*\|)+\s*$")
_CELL_BORDER = re.compile(r"(?<!\\)\|")
# A Markdown link reference definition (``[faq]: https://example.com/faq "FAQ"``): the target of
# ``[text][faq]`` elsewhere, copied as it is (its label must match the links' labels).
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\[\]\n]+\]:[ \t]*(?:<[^<>\n]*>|\S+)"
                              r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$")


def _prose(kind: str, text: str, lay: _Layout, level: int = 0) -> Block:
    """A block of prose to translate: its inline markup (links, emphasis) as formatting runs, the
    model given the plain text (doctrans.documents.markdown_inline)."""
    plain, runs = markdown_inline.parse(text)
    return Block(kind, plain, runs=runs, level=level, ref=lay)


def _table_cells(body: str) -> Iterator[tuple[str, Block | None]]:
    """A table row (without its line end) as (text to copy, cell block or None): pipes and the
    spaces around each cell's text are copied, each cell's text is a block of its own."""
    if _TABLE_DELIMITER.match(body):
        yield body, None
        return
    pos = 0
    borders = [m.start() for m in _CELL_BORDER.finditer(body)]
    for left, right in itertools.pairwise(borders):
        cell = body[left + 1:right]
        text = cell.strip()
        if not text:
            continue
        start = left + 1 + (len(cell) - len(cell.lstrip()))
        yield body[pos:start], _prose("table_cell", text, _Layout("", "", 0, "", "", ""))
        pos = start + len(text)
    yield body[pos:], None


def _parse_lines(lines: Iterable[str]) -> Iterator[tuple[str, Block | None]]:
    raw: list[str] = []  # verbatim text waiting to be emitted
    para: list[tuple[str, str, str, str, str]] = []  # (indent, content, trailing, eol, line) of a paragraph
    code: list[str] = []  # lines of the code block being read
    fence = False  # inside a ``` fence
    literal: int | None = None  # the indentation a reST literal block must exceed, once announced
    in_literal = False
    blanks: list[str] = []  # blank lines inside a literal block, until the block goes on or ends
    after_blank = True  # the paragraph being read started after a blank line (or the file start)
    margin: int | None = None  # the least indentation of the prose (paragraphs, list items) so far

    def emit_code() -> Iterator[tuple[str, Block | None]]:
        nonlocal raw, code
        if code:
            if any(_split_eol(x)[0].strip() and not _FENCE.match(x) for x in code):
                yield "".join(raw), _code_block(code)
                raw = []
            else:
                raw += code
            code = []

    def flush() -> Iterator[tuple[str, Block | None]]:
        nonlocal raw, para, literal, margin
        if not para:
            return
        if after_blank and _looks_like_code([p[4] for p in para], margin or 0):
            code.extend(p[4] for p in para)
            para = []
            yield from emit_code()
            return
        least = min(len(p[0].expandtabs()) for p in para)
        margin = least if margin is None else min(margin, least)
        marker = ""
        if para[-1][1].endswith("::"):
            literal = len(para[-1][0].expandtabs())  # reST: an indented literal block may follow
            if len(para) == 1 and para[0][1] == "::":  # the expanded form's lone "::": markup only
                raw.append(para[0][4])
                para = []
                return
            marker, para[-1] = _literal_marker(para[-1])
        runs = wrapped_runs([p[0] + p[1] for p in para])
        for start, end in runs:
            run = para[start:end]
            if len(run) == 1:
                indent, _content, trailing, eol, _line = run[0]
                lay = _Layout(indent, indent, 0, eol, trailing, eol)
            else:
                width = max(_cols(p[0] + p[1]) for p in run)
                lay = _Layout(run[0][0], run[-1][0], width, run[0][3], run[-1][2], run[-1][3])
            if end == len(para):
                lay.literal_marker = marker
            yield "".join(raw), _prose("paragraph", _join([p[1] for p in run]), lay)
            raw = []
        para = []

    for line in lines:
        body, eol = _split_eol(line)
        if fence or _FENCE.match(body):
            if not fence:
                yield from flush()
            code.append(line)
            if _FENCE.match(body):
                fence = not fence
                if not fence:
                    yield from emit_code()
                    after_blank = False
            continue
        if in_literal:
            if not body.strip():
                blanks.append(line)
                continue
            if _indent(body) > (literal or 0):
                code.extend(blanks)
                blanks = []
                code.append(line)
                continue
            yield from emit_code()
            raw += blanks
            blanks, in_literal, literal, after_blank = [], False, None, bool(blanks)
        if not body.strip():
            yield from flush()
            raw.append(line)
            after_blank = True
            continue
        if literal is not None and not para:
            if _indent(body) > literal:
                in_literal = True
                code.append(line)
                continue
            literal = None
        directive = _CODE_DIRECTIVE.match(body)
        if directive:
            yield from flush()
            raw.append(line)
            literal, after_blank = len(directive.group(1).expandtabs()), False
            continue
        if _LINK_DEFINITION.match(body):
            yield from flush()
            raw.append(line)
            after_blank, literal = False, None
            continue
        if _TABLE_ROW.match(body):
            yield from flush()
            after_blank, literal = False, None
            for between, cell in _table_cells(body):
                raw.append(between)
                if cell is not None:
                    yield "".join(raw), cell
                    raw = []
            raw.append(eol)
            continue
        m = _MARKER.match(body)
        assert m is not None  # the pattern matches any line
        indent, marker, content, trailing = m.group(1), m.group(2), m.group(3), m.group(4)
        if marker:
            yield from flush()
            after_blank, literal = False, None
            margin = len(indent.expandtabs()) if margin is None else min(margin, len(indent.expandtabs()))
            kind = "heading" if marker.startswith("#") else "list_item" if marker[0] != ">" else "paragraph"
            level = marker.count("#") if kind == "heading" else len(indent) // 2
            if not content:
                raw.append(line)
                continue
            block = _prose(kind, content, _Layout(indent + marker, indent, 0, eol, trailing, eol), level)
            yield "".join(raw), block
            raw = []
            continue
        para.append((indent, content, trailing, eol, line))
        if len(para) >= _MAX_PARAGRAPH_LINES:
            yield from flush()  # a file without blank lines streams too, not buffered whole
            after_blank = False
    yield from flush()
    yield from emit_code()
    raw += blanks
    if raw:
        yield "".join(raw), None
