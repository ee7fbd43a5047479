"""The spans a sentence is prepared with, as the genre tests compare them."""

from __future__ import annotations

from doctrans.engine.protect import prepare


def spans(text: str, src: str, tgt: str) -> list[tuple[str, str]]:
    """(source text, what the translation writes) of each span ``text`` is masked with, from
    ``src`` into ``tgt``, with room for 16 placeholders and no glossary."""
    return [(s.text, s.output) for s in prepare(text, 16, None, tgt, src).masked.spans]
