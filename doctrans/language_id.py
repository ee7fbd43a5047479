"""Which language a document is written in, offline (py3langid: langid.py's 97-language
naive-Bayes model, shipped inside the wheel, no download).

The guess is made on a sample of the document's text, not on single sentences: a subtitle line
like "Hello" is too short for any identifier, a page is not. Chinese varieties the identifier keeps
apart (Wu, Cantonese, Classical) are pooled into ``zh`` because one written-Chinese model serves
them all; their probabilities are added before the confidence test.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SAMPLE_CHARS = 5000  # enough for a confident guess; identification cost grows with the sample
MIN_CONFIDENCE = 0.5  # below this the guess is reported as unknown

# langid labels -> the code bundles use (model.json src_lang/tgt_lang, ISO 639-1 where it exists)
MACRO_LANGUAGE = {"wuu": "zh", "yue": "zh", "lzh": "zh", "cmn": "zh", "gan": "zh", "hak": "zh"}


@dataclass(frozen=True)
class LanguageGuess:
    lang: str
    confidence: float  # posterior probability of ``lang`` (varieties pooled), 0..1


@functools.cache
def _identifier() -> Any:  # py3langid.langid.LanguageIdentifier (untyped package)
    # Imported lazily: loading the model takes ~0.3 s, which `doctrans --help` should not pay.
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)


def sample_text(texts: Iterable[str], limit: int = SAMPLE_CHARS) -> str:
    """The first ``limit`` characters of the document's text blocks, joined by newlines."""
    parts, size = [], 0
    for text in texts:
        if size >= limit:
            break
        parts.append(text[: limit - size])
        size += len(parts[-1]) + 1
    return "\n".join(parts)


def identify(text: str) -> LanguageGuess | None:
    """The language of ``text``, or None when there is too little text to tell (no letters, or
    no language reaches MIN_CONFIDENCE)."""
    if not any(ch.isalpha() for ch in text):
        return None
    pooled = _pooled(text)
    lang, confidence = max(pooled.items(), key=lambda item: item[1])
    return LanguageGuess(lang, confidence) if confidence >= MIN_CONFIDENCE else None


# Among the languages a run can translate, the likeliest must be this many times as likely as the
# next to be taken for a text too short for a confident guess.
MIN_LEAD = 3.0


def likeliest_of(text: str, langs: Iterable[str]) -> str | None:
    """The one of ``langs`` that ``text`` is most likely written in, when :func:`identify` cannot
    tell and the installed models leave a few candidates: a table of contents in English ("Contents
    / 1 Introduction ... 3", English 0.18 among 97 languages) is English when the choice is English
    or Chinese. None without letters or without a clear lead (:data:`MIN_LEAD`)."""
    wanted = {base_language(lang) for lang in langs}
    if not wanted or not any(ch.isalpha() for ch in text):
        return None
    pooled = _pooled(text)
    ranked = sorted(((lang, pooled.get(lang, 0.0)) for lang in wanted), key=lambda item: -item[1])
    best, p = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    return best if p > 0 and p >= MIN_LEAD * runner_up else None


def _pooled(text: str) -> dict[str, float]:
    """Each language's probability for ``text``, the Chinese varieties pooled into ``zh``."""
    pooled: dict[str, float] = {}
    for label, prob in _identifier().rank(text):
        lang = MACRO_LANGUAGE.get(label, label)
        pooled[lang] = pooled.get(lang, 0.0) + float(prob)
    return pooled


def base_language(code: str | None) -> str:
    """``zh`` of ``zh-Hans``, ``ZH`` or ``zh_CN`` ('' for None): the language without script or region."""
    return (code or "").split("-")[0].split("_")[0].lower()


def same_language(a: str, b: str) -> bool:
    """'zh' matches 'zh-Hans' and 'ZH': bundles and users may add a script or region subtag."""
    return base_language(a) == base_language(b)
