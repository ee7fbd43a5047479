"""English joining words the en→zh model left between Chinese words, written in Chinese.

Where a sentence is mostly spans, the en→zh model copies the few English words between them: a
leaflet's "such as headache, toothache and period pain, and reduces fever" came back ``如头痛，牙痛和
痛经，and 退烧``, a recall's "… or email recall@brightline.com" ``…或 email …``. A lone ``and`` or
``or`` between two Chinese words (or the placeholders of spans) is never English in a Chinese
sentence: it is ``和`` or ``或``. Run on the model's output before the spans go back, so a span's own
English (a title, code, a name) is never touched.

| source                   | written               |
|--------------------------|-----------------------|
| 牙痛和痛经，and 退烧     | 牙痛和痛经，和退烧    |
| ⦅1⦆ or ⦅2⦆               | ⦅1⦆或⦅2⦆              |
| 头痛and退烧              | 头痛和退烧            |
| “git”本身，and “gitk”    | “git”本身，和“gitk”   |
| 使用 and 或 or 运算符    | 使用 and 或 or 运算符 |
| rock and roll音乐        | rock and roll音乐     |
| Maria Gonzalez said公司  | Maria Gonzalez说公司  |
| 玛利亚·戈纳斯 said公司期望 | 玛利亚·戈纳斯说公司期望 |
| ⦅1⦆ says：“好”           | ⦅1⦆说：“好”           |
| he said他会来            | he said他会来         |

The same for a verb of speech the model copied after a name it left in English or wrote itself:
"Chief Financial Officer Maria Gonzalez said the company expects …" came back ``首席财务官 Maria
Gonzalez said公司期望…``. ``said`` after a capitalised word, a Chinese one or a placeholder and
before a Chinese word or mark is ``说``; not after an English word in small letters (a quoted
English sentence's "he said").
"""

from __future__ import annotations

import re

# After a Chinese character, a Chinese mark, a closing Chinese quotation mark or bracket, or a
# placeholder's close; before a Chinese character, an opening one or a placeholder's open (a manual's
# （“git”本身，and “gitk”） kept its "and"). Not beside a Latin word (rock and roll), nor a Chinese word
# for a keyword (使用 and 或 or 运算符: the operators named, next to 或 itself).
_STRAY = re.compile(r"(?<=[\u4e00-\u9fff\u2986，、；：”’》）])[ \t]*(?<![A-Za-z])(and|or)(?![A-Za-z])[ \t]*"
                    r"(?=[\u4e00-\u9fff\u2985“‘《（])")
_CHINESE = {"and": "和", "or": "或"}


# A speech verb after a name (a capitalised word, Chinese, a placeholder's close) and before Chinese.
_STRAY_SPEECH = re.compile(r"(\b[A-Z][a-z]+|[\u4e00-\u9fff\u2986·])[ \t]*(?<![A-Za-z])(?:said|says)(?![A-Za-z])[ \t]*"
                           r"(?=[\u4e00-\u9fff\u2985“‘《（：:，])")


def chinese_conjunctions(decoded: str) -> str:
    """``decoded`` (Chinese, placeholders in it) with each stray English ``and``/``or`` in Chinese."""
    def chinese(m: re.Match[str]) -> str:
        before, after = decoded[m.start() - 1], decoded[m.end()]
        if "或" in (before, after) or "和" in (before, after):
            return m.group()  # the words named beside a conjunction of their own (and 或 or)
        return _CHINESE[m.group(1)]
    return _STRAY_SPEECH.sub(r"\1说", _STRAY.sub(chinese, decoded))
