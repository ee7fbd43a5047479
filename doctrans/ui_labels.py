"""The labels of a program's interface quoted in a manual, written as the other language's version
of the program names them (``点击“下一步”`` <-> ``click "Next"``).

A manual names the buttons and menus it tells the reader to use, in quotes or in 【】; inside a
sentence the built-in models dropped them or garbled them: ``在弹出的对话框中点击【下一步】`` came
back without the button, ``点击“安装”按钮`` as ``install the "ust" button``, ``“开始”菜单`` as
``"scaping"``. A quoted label of doctrans/data/ui_labels.tsv is one span, quotes included, whose
target is the label in the output language in that language's quotes (masked and restored like a
glossary term):

| source                                | target | spans                 |
|---------------------------------------|--------|-----------------------|
| 在弹出的对话框中点击【下一步】。         | en     | "Next"                |
| 勾选“我接受”，然后点击“安装”按钮。       | en     | "I Accept" · "Install" |
| 在「开始」菜单中找到程序                 | en     | "Start"               |
| Click "OK" to close the dialog.       | zh     | “确定”                |
| Choose File > 'Save As' and click “Save”. | zh | “另存为” · “保存”     |
| 他说“好的”                             | en     | (none)                |
| Click "CANCEL" or "Cancel".           | zh     | “取消” · “取消”       |
| The word "new" is a keyword.          | zh     | (none)                |
| under Settings > Security to keep     | zh     | 设置 > 安全           |
| 在 设置 > 安全 中开启                    | en     | Settings > Security   |

Only quoted: a bare 开始 or Start is a word of the sentence, for the model. English matches as
the list writes it or in capitals, never in small letters (``the "print" function``, ``a "file"
object`` are a programming manual's words, not its buttons). Between other languages nothing
changes.
"""

from __future__ import annotations

import re
from functools import cache

from doctrans.data_lists import two_way
from doctrans.language_id import base_language
from doctrans.verbatim import Span

# An opening quote or bracket and its closing one.
_PAIRS = {"“": "”", "「": "」", "【": "】", "『": "』", '"': '"', "‘": "’", "'": "'", "[": "]"}
_QUOTED = re.compile(r"([“「【『\"‘'\[])([^“”「」【】『』\"‘’'\[\]\n]{1,30})([”」】』\"’'\]])")


@cache
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(English label as written and in capitals -> Chinese, Chinese -> English)."""
    return two_way("ui_labels.tsv", lambda label: (label, label.upper()))


def find_ui_labels(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The quoted interface labels of ``text`` as ``phrase`` spans (quotes included) whose target
    is the label in ``tgt_lang``, quoted its way (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if tgt == "zh" and src != "zh":
        table, quote = _tables()[0], "“{}”"
    elif tgt == "en" and src != "en":
        table, quote = _tables()[1], '"{}"'
    else:
        return []
    spans = []
    for m in _QUOTED.finditer(text):
        opening, label, closing = m.groups()
        if _PAIRS[opening] != closing or label != label.strip():
            continue
        # An apostrophe is no quote: 'Save As' needs no letter before its opening quote.
        if opening == "'" and m.start() > 0 and text[m.start() - 1].isalnum():
            continue
        target = table.get(label)
        if target is not None:
            spans.append(Span(m.start(), m.end(), m.group(), "phrase", quote.format(target)))
    for m in (_ENGLISH_PATH if tgt == "zh" else _CHINESE_PATH).finditer(text):
        labels = [part.strip() for part in re.split(r"[>＞]", m.group())]
        start = m.start()
        if tgt == "zh":  # the first label without the sentence's words before it (Choose File > Save As)
            words = labels[0].split()
            first = next((" ".join(words[i:]) for i in range(len(words)) if " ".join(words[i:]) in table), labels[0])
            start, labels[0] = m.start() + len(labels[0]) - len(first), first
        path = Span(start, m.end(), text[start:m.end()], "phrase", " > ".join(table.get(x, x) for x in labels))
        if not any(x in table for x in labels) or path.overlaps_any(spans):
            continue
        if tgt == "en" and not all(x in table for x in labels):
            # A Chinese label left as written would be Chinese in English ("账号设置 > Security"):
            # the known ones are spans, the others translated alone (quoted_terms.menu_labels).
            spans += [Span(a, b, text[a:b], "phrase", table[text[a:b]]) for a, b in label_spans(m)
                      if text[a:b] in table]
            continue
        spans.append(path)
    return sorted(spans, key=lambda s: s.start)


def label_spans(path: re.Match[str]) -> list[tuple[int, int]]:
    """(start, end) of each label of a menu path's match, without the spaces around the ``>``."""
    out, pos = [], path.start()
    for part in re.split(r"([>＞])", path.group()):
        if part not in (">", "＞"):
            lead = len(part) - len(part.lstrip())
            out.append((pos + lead, pos + len(part.rstrip())))
        pos += len(part)
    return out


def unknown_chinese_labels(text: str) -> list[tuple[int, int]]:
    """(start, end) of each label of the Chinese menu paths of ``text`` that the list does not
    know, where the path has one it knows (those are :func:`find_ui_labels`' spans into English)."""
    table = _tables()[1]
    out = []
    for m in _CHINESE_PATH.finditer(text):
        labels = label_spans(m)
        if any(text[a:b] in table for a, b in labels):
            out += [(a, b) for a, b in labels if text[a:b] not in table]
    return out


# A menu path, labels joined by > (a how-to's "Turn on two-factor authentication under Settings >
# Security" came back Settings >安全, half translated): each label the list knows in the output's
# words, the others as written. English labels in Title Case, Chinese ones up to eight characters.
_WORD = r"[A-Z][0-9A-Za-z'’\-]*"
_LABEL = rf"{_WORD}(?: (?:&|and|of|to|as) {_WORD}| {_WORD})*"
_ENGLISH_PATH = re.compile(rf"(?<![\w>])(?:{_LABEL})(?:\s?>\s?(?:{_LABEL}))+(?![\w>])")
_CHINESE_PATH = re.compile(r"(?<![\u4e00-\u9fff>＞])[\u4e00-\u9fff]{1,8}(?:\s?[>＞]\s?[\u4e00-\u9fff]{1,8})+"
                           r"(?![\u4e00-\u9fff>＞])")
