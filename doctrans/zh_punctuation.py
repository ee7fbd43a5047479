"""Chinese punctuation in Chinese output: ``，；？！：`` next to Chinese characters, and a comma
where the model wrote a subtitle's space.

The SentencePiece models normalize text with NFKC, which folds the full-width marks into ASCII
``,;?!:``: the built-in en→zh model cannot write a Chinese comma at all, and its output reads
``配置模块的配置,每个节中包含`` where Chinese text has ``，``. This puts them back where the mark
follows (or, for ``,``/``;``, touches) a Han character, spaces around it dropped, as Chinese sets
them. The en→zh model also learned from subtitles, which separate clauses with a space
(``你好 罗斯先生``, ``事实是完全未知的 单个男人来说``): no Chinese document does, so a space
between two Han characters becomes ``，``.

It runs on the model's output while verbatim spans are still placeholders, so ``1,250``, a time's
``3:30`` or a code literal is never touched; a ``:`` before another ``:`` or ``/`` (reST's ``::``,
a scheme) stays.

Measured on the full dev splits: ``,``/``;`` took the en→zh bundle's s-BLEU from 26.84 to 27.51
(pydocs) and 32.26 to 33.22 (django), TVsub unchanged. The rest is typography for documents, not
for the subtitle references, which write ``?``/``!`` in ASCII and separate clauses with spaces:
the round-5 en→zh bundle, full dev, beam 5, s/d-BLEU: pydocs 35.58 / 42.36 → 35.61 / 42.36, django
43.18 / 50.78 → 43.33 / 51.18, TVsub 14.43 / 19.97 → 12.29 / 15.79 (its references' own style).
The project translates documents (reports, news, talks, fiction, manuals), whose Chinese sets
``？！：`` and no spaces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from doctrans.language_id import base_language
from doctrans.verbatim import PLACEHOLDER_CLOSE, PLACEHOLDER_OPEN, placeholder

HAN = "\u3400-\u4dbf\u4e00-\u9fff"  # Han characters (CJK unified ideographs and extension A)
_MARKS = {",": "，", ";": "；", "?": "？", "!": "！", ":": "："}
# A placeholder whose span is written with a Han character at that end counts as one (``⦅1⦆, ⦅2⦆``
# for ``德国, 法国``): its bracket is swapped for one of these while the commas are set.
_HAN_OPEN, _HAN_CLOSE = "\ue000", "\ue001"
_AFTER = re.compile(rf"(?<=[{HAN}{_HAN_CLOSE}])[ \t]*([,;])[ \t]*")
_BEFORE = re.compile(rf"[ \t]*([,;])[ \t]*(?=[{HAN}{_HAN_OPEN}])")
# ?/! after a Han character; : too, unless a second : or a / follows (``::``, ``http://``).
_END_MARK = re.compile(rf"(?<=[{HAN}{_HAN_CLOSE}])[ \t]*([?!]|:(?![:/]))[ \t]*")
# : before a Han character too, after a figure or a name (``年度报告⦅1⦆:摘要`` for "Annual Report
# 2025: Summary" kept the ASCII colon of its heading).
_COLON_BEFORE = re.compile(rf"[ \t]*:(?![:/])[ \t]*(?=[{HAN}{_HAN_OPEN}])")
# Between two Han characters of the model's own, not a placeholder's: the model spaces its
# placeholders as it learned from code spans (``在 ⦅1⦆ 中``), which the spans' restoring sets.
_SPACE = re.compile(rf"(?<=[{HAN}])[ \t]+(?=[{HAN}])")
# A space the model put after a full-width mark before Chinese text (``条件。 这种情况``), or before
# the mark: Chinese sets none.
_FULL_WIDTH = "。，、；：？！"
_MARK_SPACE = re.compile(rf"(?<=[{_FULL_WIDTH}])[ \t]+(?=[{HAN}])|(?<=[{HAN}])[ \t]+(?=[{_FULL_WIDTH}])")
_HAN_CHAR = re.compile(f"[{HAN}]")
# Two spaces where the model's pieces each brought one (``需要 ⦅2⦆  wrench`` for "requires a 10 mm
# wrench"): Chinese text sets one at most, and code is a placeholder here.
_SPACES = re.compile(r"[ \t]{2,}")


def restore_chinese_punctuation(text: str, spans: Sequence[str] = ()) -> str:
    """``text`` with each ``,``/``;`` that touches a Han character as ``，``/``；``, each
    ``?``/``!``/``:`` after one (and ``:`` before one) as ``？``/``！``/``：`` and a space between two as ``，``;
    ``spans``: the outputs of the placeholders ``⦅1⦆``, ``⦅2⦆``… in ``text``, whose ends count as
    what they are. A space between Han characters where the model dropped a placeholder is the
    span's place (``使用 的实现`` for ``使用 ⦅1⦆ 的实现``), not a clause break: with one missing, spaces
    stay."""
    complete = all(placeholder(k) in text for k in range(1, len(spans) + 1))
    text = _SPACES.sub(" ", text)
    for k, output in enumerate(spans, 1):
        if output and (_HAN_CHAR.match(output[0]) or _HAN_CHAR.match(output[-1])):
            open_ = _HAN_OPEN if _HAN_CHAR.match(output[0]) else PLACEHOLDER_OPEN
            close = _HAN_CLOSE if _HAN_CHAR.match(output[-1]) else PLACEHOLDER_CLOSE
            text = text.replace(placeholder(k), f"{open_}{k}{close}")
    text = _AFTER.sub(lambda m: _MARKS[m.group(1)], text)
    text = _BEFORE.sub(lambda m: _MARKS[m.group(1)], text)
    text = _END_MARK.sub(lambda m: _MARKS[m.group(1)], text)
    text = _COLON_BEFORE.sub("：", text)
    if complete:
        text = _SPACE.sub("，", text)
    text = _MARK_SPACE.sub("", text)
    return text.replace(_HAN_OPEN, PLACEHOLDER_OPEN).replace(_HAN_CLOSE, PLACEHOLDER_CLOSE)


def is_chinese(lang: str | None) -> bool:
    return base_language(lang) == "zh"
