"""Sentence-level warnings of a translation run and ``--report FILE`` (JSON or CSV by suffix).

A warning says that something of the source that must not change (a number, a code, a URL, a
glossary term: :func:`doctrans.verbatim.check`) is not in a sentence's translation, or that the
engine had to put a span back itself (:class:`doctrans.verbatim.SpanWarning` notes), or that a
Chinese translation left a common English word of its source as it was (:func:`left_in_english`),
or that a source's "do not" has no negation in its translation, or its translation a negation
the source does not state (doctrans.negation).
The CLI counts them in its summary line, ``--report`` lists them for review, the TUI marks the
sentences.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from doctrans.direction_terms import automatic_terms
from doctrans.errors import UserError
from doctrans.glossary import Glossary
from doctrans.kept_names import common_words, kept_in_chinese
from doctrans.language_id import base_language
from doctrans.negation import added_negation, lost_negation
from doctrans.verbatim import Span, SpanWarning, check, protected_spans

REPORT_SUFFIXES = (".json", ".csv")
FIELDS = ("file", "sentence", "problem", "kind", "span", "message", "source", "translation")


@dataclass(frozen=True)
class SentenceWarning:
    file: str  # the input document
    sentence: int  # 1-based, in reading order (as the TUI numbers them)
    problem: str  # missing / placed / duplicated / unknown / added (see SpanWarning) / untranslated
    kind: str  # number, url, code, ... or term
    span: str
    message: str
    source: str
    translation: str


def sentence_warnings(source: str, translation: str, glossary: Glossary | None = None,
                      notes: Sequence[SpanWarning] = (), tgt_lang: str | None = None,
                      src_lang: str | None = None) -> list[SpanWarning]:
    """The warnings of one sentence: the engine's ``notes`` first, then what the check finds
    missing from ``translation`` (computed here, not by the engine, so every engine, a resumed
    sentence and a person's edit are checked alike). ``tgt_lang``: the translation's language, so
    ``1,250万`` is looked for as ``12.5 million`` in English (doctrans.magnitudes); with ``src_lang``
    the names the direction keeps (doctrans.kept_names) are looked for too."""
    terms = automatic_terms(source, glossary.find(source) if glossary is not None else [], src_lang, tgt_lang)
    protected = protected_spans(source, terms)  # once: both checks read them
    negation = lost_negation(source, translation, src_lang, tgt_lang)
    lost = [SpanWarning("missing", "negation", negation, f"the source's {negation!r} has no negation in the "
                        "translation")] if negation else []
    added = added_negation(source, translation, src_lang, tgt_lang)
    if added:
        lost.append(SpanWarning("added", "negation", added, f"the translation's {added!r} negates what the source "
                                "does not"))
    return [*notes, *check(source, translation, terms, protected),
            *left_in_english(source, translation, protected, src_lang, tgt_lang), *lost]


# An English word of the source in a Chinese translation: the en->zh model copies the words it does
# not know ("The U.S. economy grew ... the Commerce Department said" came back 美国  economy …,
# Commerce Department said在星期三上), and a reader of the Chinese may not notice them among the
# names and code the translation keeps on purpose.
_LATIN_WORD = re.compile(r"(?<![0-9A-Za-z_.\-])[A-Za-z]{3,}(?![0-9A-Za-z_\-]|\.[A-Za-z])")


_QUOTED = re.compile(r'[“"][^“”"]*[”"]')


def left_in_english(source: str, translation: str, protected: Sequence[Span], src_lang: str | None,
                    tgt_lang: str | None) -> list[SpanWarning]:
    """The common English words (doctrans.kept_names.common_words) of an English source that its
    Chinese translation copied as they are, in small letters (a capitalised word is a name or a
    title the model may keep), outside what the translation keeps on purpose (``protected``: the
    source's spans, terms and names, doctrans.verbatim.protected_spans): each once, as an
    ``untranslated`` warning."""
    if base_language(src_lang) != "en" or base_language(tgt_lang) != "zh":
        return []
    kept = set(_LATIN_WORD.findall(" ".join(s.output for s in protected)))
    source_words = set(_LATIN_WORD.findall(source))
    common, technical = common_words(), kept_in_chinese()
    seen: list[str] = []
    # A quotation kept as written is kept on purpose (a document's title: “History and related systems”),
    # and so is a word technical Chinese keeps as written (sys, gzip, regex: training.kept_in_chinese).
    for word in _LATIN_WORD.findall(_QUOTED.sub(" ", translation)):
        if (word.islower() and word in source_words and word in common and word not in seen and word not in kept
                and word not in technical):
            seen.append(word)
    return [SpanWarning("untranslated", "word", w, f"{w!r} was left in English") for w in seen]


def check_report_path(path: Path | None) -> None:
    """Fail before any translation work on a report path that cannot be written."""
    if path is None:
        return
    if path.suffix.lower() not in REPORT_SUFFIXES:
        raise UserError(f"{path}: --report must end in .json or .csv (the format follows the suffix)")
    if path.is_dir():
        raise UserError(f"{path}: --report is a directory; give a file name")
    if not path.parent.exists():
        raise UserError(f"{path.parent}: --report directory does not exist")


def render_report(path: Path, warnings: Sequence[SentenceWarning]) -> str:
    rows = [asdict(w) for w in warnings]
    if path.suffix.lower() == ".json":
        return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def write_report(path: Path, warnings: Sequence[SentenceWarning]) -> None:
    """Write the report (also when empty: an empty report says the check ran and found nothing),
    through a temp file and a rename, so a reader never sees half of it. CSV gets a BOM so
    spreadsheet programs read the Chinese as UTF-8."""
    path = Path(path)
    check_report_path(path)
    data = render_report(path, warnings)
    encoding = "utf-8-sig" if path.suffix.lower() == ".csv" else "utf-8"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        raise UserError(f"{path}: cannot write the report ({e.strerror})") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
