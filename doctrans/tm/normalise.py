"""The key a TM segment is looked up by, and language codes compared by their primary subtag."""

from __future__ import annotations

import re
import unicodedata

# After NFKC (which already turns full-width ASCII forms such as ，？！：（ and U+3000 into ASCII):
# the CJK punctuation NFKC leaves alone, and typographic quotes, mapped to their ASCII look-alikes.
_PUNCT = str.maketrans({
    "。": ".", "｡": ".", "、": ",", "､": ",", "「": '"', "」": '"', "『": '"', "』": '"',
    "“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'",
    "〜": "~", "–": "-", "—": "-",
})
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_SPACE = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r" (?=[,.;:!?%)\]}])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Chinese and Japanese put no spaces between words: a space next to a Han or kana character is
# not part of the text (Korean spaces words, so Hangul is not here).
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_SPACE_BY_CJK = re.compile(f"(?<=[{_CJK}]) | (?=[{_CJK}])")


def normalise_key(text: str) -> str:
    """The exact-match key of a segment: NFKC; CJK and typographic punctuation as ASCII
    (``你好。`` ~ ``你好.``, ``“a”`` ~ ``"a"``, full-width ``？`` ~ ``?``); invisible characters
    (zero-width space, BOM, soft hyphen) dropped; whitespace collapsed to single spaces, none at
    the ends or before closing punctuation (``Hello !`` ~ ``Hello!``) or next to a Han or kana
    character (``你好, 世界`` ~ ``你好，世界``). Case is kept: ``Apple``
    and ``apple`` are different segments (the stored translation is always returned as stored)."""
    key = unicodedata.normalize("NFKC", text).translate(_PUNCT)
    key = _INVISIBLE.sub("", key)
    key = _SPACE.sub(" ", key).strip()
    return _SPACE_BY_CJK.sub("", _SPACE_BEFORE_PUNCT.sub("", key))


def clean_value(text: str) -> str:
    """A stored translation as a document sentence can hold it: control characters and line
    breaks as spaces, no spaces at the ends (the translation loop does the same to model output)."""
    return _CONTROL.sub(" ", text).strip()


def primary_language(code: str) -> str:
    """``zh-CN``, ``zh_Hans``, ``ZH`` -> ``zh``: TM languages are matched by primary subtag."""
    return code.strip().replace("_", "-").split("-", 1)[0].lower()
