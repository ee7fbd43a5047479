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

from collections.abc import Sequence
from dataclasses import dataclass

from doctrans.glossary import Glossary
from doctrans.magnitudes import with_magnitudes
from doctrans.verbatim import Masked, Restored, Span, copied_exactly, is_untranslatable, mask, unmask


@dataclass(frozen=True)
class Prepared:
    source: str
    masked: Masked  # spans that got placeholders (none without placeholder pieces)
    model_text: str | None  # what the model reads; None: nothing to translate, see ``copy``
    copy: str | None  # the translation of an untranslatable sentence (the source, terms replaced)

    def restore(self, decoded: str) -> Restored:
        if not self.masked.spans:
            return Restored(decoded, [])
        return unmask(decoded, self.masked)

    def acceptable(self, decoded: str) -> bool:
        """The model copied every placeholder exactly once (and invented none)."""
        return copied_exactly(decoded, self.masked)


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
            tgt_lang: str | None = None) -> Prepared:
    """What the model reads for ``sentence``; ``placeholders``: how many ``⦅k⦆`` pieces the
    bundle's vocabulary has (0: do not mask). ``tgt_lang``: the output language, for the Chinese
    figures written with 万/亿 (doctrans.magnitudes), which join the glossary terms."""
    terms = with_magnitudes(sentence, glossary.find(sentence) if glossary is not None else [], tgt_lang)
    if is_untranslatable(sentence, terms):
        return Prepared(sentence, mask(sentence, 0), None, substitute(sentence, terms))
    if placeholders == 0:
        return Prepared(sentence, mask(sentence, 0), substitute(sentence, terms), None)
    masked = mask(sentence, placeholders, terms)
    # Terms past the placeholder limit still get their target, as text for the model to copy.
    return Prepared(sentence, masked, substitute(masked.text, _shifted(masked, terms)), None)


def _shifted(masked: Masked, terms: Sequence[Span]) -> list[Span]:
    """The terms left unmasked (past the placeholder limit), at their offsets in ``masked.text``."""
    if not masked.unmasked or not terms:
        return []
    last = masked.spans[-1]
    shift = masked.offsets[-1] + len(f"\u2985{len(masked.spans)}\u2986") - last.end
    return [Span(s.start + shift, s.end + shift, s.text, s.kind, s.target) for s in masked.unmasked
            if s.target is not None]
