"""A user glossary: source term -> target term, inserted exactly wherever the source term occurs.

``doctrans translate ... --glossary terms.csv`` (and ``doctrans tui --glossary``). The file has two
columns, source term and target term, comma- or tab-separated (sniffed from the first line), UTF-8
with or without a BOM; blank lines and lines starting with ``#`` are skipped, and a first row such
as ``source,target`` is taken for a header. Quoting follows CSV, so a term with a comma is written
``"1,2-dichloroethane","1,2-二氯乙烷"``.

Matching (:meth:`Glossary.find`):

- NFKC on both sides, so full-width ``ＧＰＵ`` matches ``GPU`` and ``１２３`` matches ``123``;
- case-insensitive (``casefold``): ``Transformer`` matches ``transformer``; Chinese has no case;
- a term that begins (ends) with a Latin letter or digit only matches at a word boundary there
  (``cat`` is not in ``catalog``); a Chinese term matches anywhere, as Chinese has no spaces;
- the longest term wins where two overlap (``machine translation`` before ``translation``), then
  the leftmost.

Each occurrence becomes a :class:`~doctrans.verbatim.Span` of kind ``term`` whose ``target`` is the
target term: :func:`doctrans.verbatim.mask` gives it a placeholder numbered together with the
verbatim spans, and restoration inserts the target term byte for byte. The target is written as
given, whatever the case of the occurrence (a glossary fixes a rendering; it does not inflect).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from doctrans.english_people import KIND_AFTER
from doctrans.errors import UserError
from doctrans.kept_names import ABBREVIATED_LEGAL_FORMS
from doctrans.text_table import TableRowError, first_row_delimiter, read_utf8_text, table_rows
from doctrans.verbatim import Span

_HEADERS = {"source", "target", "src", "tgt", "term", "terms", "translation", "source term", "target term",
            "原文", "译文", "源", "目标", "术语", "zh", "en", "de"}
MAX_TERM_CHARS = 200


class GlossaryError(UserError):
    """A glossary file that cannot be used (the CLI prints it as one ``error:`` line)."""


def _is_word_char(c: str) -> bool:
    """Letters and digits that words are made of where words are separated by spaces (Latin,
    Greek, Cyrillic...): a boundary is needed next to them. CJK characters are not."""
    if c.isdigit() or c == "_":
        return True
    if not c.isalpha():
        return False
    name = unicodedata.name(c, "")
    return not name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


def _fold_with_map(text: str) -> tuple[str, list[int]]:
    """``text`` in NFKC + casefold, one character at a time, and for each folded character the
    index of the original character it came from (so a match maps back to the source text)."""
    out: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(text):
        folded = unicodedata.normalize("NFKC", c).casefold() if not c.isascii() else c.lower()
        out.append(folded)
        origin.extend([i] * len(folded))
    origin.append(len(text))
    return "".join(out), origin


def fold(term: str) -> str:
    return _fold_with_map(term)[0]


@dataclass(frozen=True)
class Term:
    source: str
    target: str
    folded: str
    line: int  # in the glossary file, for messages


_ABBREVIATION_STOP = "|".join(rf"(?<={form})\." for form in ABBREVIATED_LEGAL_FORMS)


@dataclass
class Glossary:
    terms: list[Term]
    path: Path | None = None
    # Words kept as written wherever they stand as whole words (doctrans.code_names: the program
    # names of a document's code), as ``name`` spans after the terms; matched in any case.
    kept: frozenset[str] = frozenset()
    # People's names a document shows to be names (doctrans.document_names) -> their pinyin, or
    # into Chinese the transliteration (doctrans.english_people), as ``name`` spans after the terms
    # and the kept words; matched as written.
    names: dict[str, str] = field(default_factory=dict)
    # First folded character -> terms starting with it, longest first: find() only tries the
    # terms that can start at a position, so a glossary of thousands of terms stays cheap.
    _index: dict[str, list[Term]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, list[Term]] = {}
        for t in sorted(self.terms, key=lambda t: -len(t.folded)):
            index.setdefault(t.folded[0], []).append(t)
        self._index = index
        # Latin word boundaries (\w would take a Chinese character for a letter: 安装fastkv后).
        words = "|".join(map(re.escape, sorted(self.kept, key=len, reverse=True)))
        # A company's abbreviated legal form keeps its full stop (Northwind Data Ltd. (the "Provider")
        # had its stop left to the model, which ended the sentence there: Ltd之间进行。).
        self._kept = re.compile(rf"(?<![0-9A-Za-z_.\-])(?:{words})(?:{_ABBREVIATION_STOP})?"
                                rf"(?![0-9A-Za-z_\-]|\.[0-9A-Za-z_])", re.IGNORECASE) if self.kept else None
        # A name in Latin letters is a whole word (Sinner is not in Sinners), and not where a place or
        # a body is named after it (the White House); a Chinese one matches anywhere.
        people = "|".join(rf"(?<![0-9A-Za-z_]){re.escape(n)}(?![0-9A-Za-z_])(?!{KIND_AFTER.pattern})"
                          if n[:1].isascii() else re.escape(n) for n in sorted(self.names, key=len, reverse=True))
        self._names = re.compile(people) if self.names else None

    def with_kept(self, words: frozenset[str]) -> Glossary:
        """This glossary also keeping ``words`` as written."""
        return Glossary(self.terms, self.path, self.kept | words, self.names)

    def with_names(self, names: dict[str, str]) -> Glossary:
        """This glossary also writing ``names`` (source -> target) as ``name`` spans."""
        return Glossary(self.terms, self.path, self.kept, {**self.names, **names})

    def __len__(self) -> int:
        return len(self.terms)

    @classmethod
    def from_pairs(cls, pairs: list[tuple[str, str]], path: Path | None = None,
                   lines: list[int] | None = None) -> Glossary:
        """From (source, target) pairs (``lines``: their line numbers in ``path``, for messages);
        raises GlossaryError on an empty term or a source term given twice with different
        targets (the same term twice with one target is fine)."""
        where = f"{path}: " if path else ""
        terms: dict[str, Term] = {}
        for n, (src, tgt) in enumerate(pairs, 1):
            line = lines[n - 1] if lines else n
            src, tgt = src.strip(), tgt.strip()
            if not src or not tgt:
                raise GlossaryError(f"{where}line {line}: empty {'source' if not src else 'target'} term")
            folded = fold(src)
            old = terms.get(folded)
            if old is not None and old.target != tgt:
                raise GlossaryError(f"{where}{src!r} is given twice with different targets "
                                    f"({old.target!r} on line {old.line}, {tgt!r} on line {line})")
            terms[folded] = Term(src, tgt, folded, line)
        if not terms:
            raise GlossaryError(f"{where}no terms in the glossary")
        return cls(list(terms.values()), path)

    @classmethod
    def load(cls, path: Path) -> Glossary:
        """Read a CSV/TSV glossary (see the module docstring); one clear GlossaryError for any
        problem with the file, naming the line."""
        path = Path(path)
        if not path.exists():
            raise GlossaryError(f"{path}: no such glossary file")
        if path.is_dir():
            raise GlossaryError(f"{path}: is a directory, not a glossary file")
        text = read_utf8_text(path, GlossaryError, reading="the glossary",
                              not_utf8="the glossary is not UTF-8 text (byte {byte}); save it as UTF-8 CSV or TSV",
                              not_text="not a text file; the glossary must be a UTF-8 CSV or TSV file")
        delimiter = first_row_delimiter(text)
        try:  # every row read before any is checked: a csv error anywhere is the one reported
            rows = list(table_rows(text, delimiter))
        except TableRowError as e:
            raise GlossaryError(f"{path}: line {e.line}: {e}") from None
        pairs: list[tuple[str, str]] = []
        numbers: list[int] = []
        for line, cells in rows:
            if len(cells) != 2:
                sep = "tab" if delimiter == "\t" else "comma"
                raise GlossaryError(f"{path}: line {line}: expected two {sep}-separated columns (source term, "
                                    f"target term), got {len(cells)}")
            if not pairs and {cells[0].casefold(), cells[1].casefold()} <= _HEADERS:
                continue  # a header row
            if not cells[0] or not cells[1]:
                raise GlossaryError(f"{path}: line {line}: empty {'source' if not cells[0] else 'target'} term")
            if max(len(cells[0]), len(cells[1])) > MAX_TERM_CHARS:
                raise GlossaryError(f"{path}: line {line}: a term longer than {MAX_TERM_CHARS} characters; "
                                    "a glossary holds terms, not sentences")
            pairs.append((cells[0], cells[1]))
            numbers.append(line)
        if not pairs:
            raise GlossaryError(f"{path}: no terms in the glossary (two columns: source term, target term)")
        return cls.from_pairs(pairs, path, numbers)

    def find(self, text: str) -> list[Span]:
        """The glossary terms in ``text``: non-overlapping, longest first, as ``term`` spans of
        the original text whose ``target`` is the target term, in text order; and the
        :attr:`kept` words no term covers, as ``name`` spans whose target is the word as written."""
        if not text:
            return []
        spans = self._terms(text)
        # The kept words, then the people's names, where nothing found before them lies.
        for pattern, target in ((self._kept, None), (self._names, self.names)):
            if pattern is not None:
                found = [Span(m.start(), m.end(), m.group(), "name", m.group() if target is None else target[m.group()])
                         for m in pattern.finditer(text)]
                spans = sorted([*spans, *(f for f in found if not f.overlaps_any(spans))], key=lambda s: s.start)
        return spans

    def _terms(self, text: str) -> list[Span]:
        if not self.terms:
            return []
        folded, origin = _fold_with_map(text)
        candidates: list[tuple[int, int, Term]] = []
        for i, c in enumerate(folded):
            for term in self._index.get(c, ()):
                if not folded.startswith(term.folded, i):
                    continue
                j = i + len(term.folded)
                if _is_word_char(term.folded[0]) and i > 0 and _is_word_char(folded[i - 1]):
                    continue
                if _is_word_char(term.folded[-1]) and j < len(folded) and _is_word_char(folded[j]):
                    continue
                candidates.append((i, j, term))
        candidates.sort(key=lambda c: (-(c[1] - c[0]), c[0]))
        taken = bytearray(len(folded))
        spans: list[Span] = []
        for i, j, term in candidates:
            if any(taken[i:j]):
                continue
            start, end = origin[i], origin[j]
            # A folded match must map onto whole original characters (NFKC may expand one
            # character into several: a match that cuts one is not a match).
            if start >= end or (i > 0 and origin[i - 1] == start) or (j < len(folded) and origin[j] == origin[j - 1]):
                continue
            taken[i:j] = b"\x01" * (j - i)
            spans.append(Span(start, end, text[start:end], "term", term.target))
        spans.sort(key=lambda s: s.start)
        return spans


def load_glossary(path: Path | None) -> Glossary | None:
    """``--glossary``: the loaded glossary, or None without the option."""
    return None if path is None else Glossary.load(path)
