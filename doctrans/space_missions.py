"""China's spacecraft and rockets by their English names (``长征二号丁`` <-> ``Long March-2D``).

A launch report names its rocket and its payload in every sentence, and the zh->en model read their
characters as words: ``使用长征二号丁运载火箭，成功将遥感四十三号卫星发射升空`` came back "uses a long
dancing rocket ... 43 sate stars". English news writes the program's name in pinyin (or its English
name), a hyphen and the number, a rocket's variant letter after it (甲乙丙丁 -> A B C D): Long March-2D,
Yaogan-43, Shenzhou-17, Chang'e-6, Tianzhou-7. A name is a span whose target is the other language's
name, with the kind of craft after it when the source writes one:

| source                     | into English                      | into Chinese        |
|----------------------------|-----------------------------------|---------------------|
| 长征二号丁运载火箭         | Long March-2D carrier rocket      | (as written)        |
| 遥感四十三号卫星           | Yaogan-43 satellite               | (as written)        |
| 神舟十七号载人飞船         | Shenzhou-17 crewed spaceship      | (as written)        |
| 嫦娥六号探测器             | Chang'e-6 probe                   | (as written)        |
| 北斗三号                   | BeiDou-3                          | (as written)        |
| 风云三号H星                | Fengyun-3H                        | (as written)        |
| a Long March-5B rocket     | (as written)                      | 长征五号乙          |
| the Shenzhou-17 crew       | (as written)                      | 神舟十七号          |

A series' satellite by its letter (风云三号H星) is the series' name and the letter (Fengyun-3H), and
so are the next ones named after it by their letters alone (风云三号E星、F星: Fengyun-3E, Fengyun-3F).
Only a program of the list, with its number: 长征 alone is the Long March of history, 北斗 the Big
Dipper, 嫦娥 the goddess, 高分 a high score.
"""

from __future__ import annotations

import re

from doctrans.chinese_numerals import read_numeral, write_numeral
from doctrans.language_id import base_language
from doctrans.verbatim import Span

_PROGRAMS = {"长征": "Long March", "快舟": "Kuaizhou", "朱雀": "Zhuque", "遥感": "Yaogan", "风云": "Fengyun",
             "北斗": "BeiDou", "天宫": "Tiangong", "神舟": "Shenzhou", "嫦娥": "Chang'e", "天舟": "Tianzhou",
             "高分": "Gaofen", "实践": "Shijian", "天问": "Tianwen", "天链": "Tianlian", "中星": "ChinaSat",
             "海洋": "Haiyang", "资源": "Ziyuan", "吉林": "Jilin", "鹊桥": "Queqiao", "天和": "Tianhe",
             "问天": "Wentian", "梦天": "Mengtian"}
_LETTERS = {"甲": "A", "乙": "B", "丙": "C", "丁": "D"}
_LETTERS_INTO_CHINESE = {english: chinese for chinese, english in _LETTERS.items()}
_CRAFT = {"运载火箭": "carrier rocket", "火箭": "rocket", "载人飞船": "crewed spaceship",
          "货运飞船": "cargo spacecraft", "飞船": "spacecraft", "卫星": "satellite", "探测器": "probe",
          "中继星": "relay satellite", "空间站": "space station", "核心舱": "core module", "实验舱": "lab module"}
_NUMBER = "[0-9]{1,3}|[一二三四五六七八九十]{1,3}"
_ZH_CRAFT = re.compile(f"({'|'.join(_PROGRAMS)})({_NUMBER})号(?:([甲乙丙丁])(?!级)|(?P<sat>[A-Z])星)?"
                       f"({'|'.join(sorted(_CRAFT, key=len, reverse=True))})?")
# A series' satellite by its letter (风云三号H星, Fengyun-3H), and the series' next ones after it
# (风云三号E星、F星 came back "Fengyun-3 Ess, the Freast Network").
_NEXT_SATELLITE = re.compile(r"[、和与及]([A-Z])星")
_INTO_CHINESE = {english: chinese for chinese, english in _PROGRAMS.items()} | {"Chang’e": "嫦娥"}
_EN_CRAFT = re.compile(f"(?<![A-Za-z])({'|'.join(map(re.escape, _INTO_CHINESE))})[- ]([0-9]{{1,3}})([A-D])?"
                       r"(?![0-9A-Za-z])")


def find_space_missions(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The rockets and spacecraft of ``text`` as ``name`` spans whose target is the other language's
    name (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    spans = []
    if src == "zh" and tgt == "en":
        for m in _ZH_CRAFT.finditer(text):
            program, number, letter, satellite, craft = m.groups()
            value = int(number) if number.isdigit() else read_numeral(number)
            if not value:
                continue
            name = f"{_PROGRAMS[program]}-{value}{_LETTERS[letter] if letter else satellite or ''}"
            spans.append(Span(m.start(), m.end(), m.group(), "name", f"{name} {_CRAFT[craft]}" if craft else name))
            end = m.end()
            while satellite and not craft and (more := _NEXT_SATELLITE.match(text, end)):
                spans.append(Span(more.start(1), more.end(), more.group()[1:], "name",
                                  f"{_PROGRAMS[program]}-{value}{more.group(1)}"))
                end = more.end()
    elif src == "en" and tgt == "zh":
        for m in _EN_CRAFT.finditer(text):
            program, number, letter = m.groups()
            # a designation's numeral writes 二 (长征二号), not the count's 两
            name = f"{_INTO_CHINESE[program]}{write_numeral(int(number), 'ja')}号"
            spans.append(Span(m.start(), m.end(), m.group(), "name",
                              name + (_LETTERS_INTO_CHINESE[letter] if letter else "")))
    return spans
