"""A monarch's or a pope's name with its number, written the other language's way (``Mehmed II`` <->
``穆罕默德二世``).

A history names its rulers by name and number, and the en->zh model read the Roman numeral as
letters: "the Ottoman army led by Sultan Mehmed II" came back 由 Sultan Mehmed II 提供, "Constantine XI
Palaiologos" XI Palaiologos (the emperor's name gone). Chinese writes the name in its settled
transliteration and the number as 世 (二世, 十一世); English the name and a Roman numeral. The names
are the rulers' own, from a table (a name Chinese settled: 查理一世 but 查尔斯三世 for today's king);
the number any from 1 to 39:

| source                     | into Chinese        | into English        |
|----------------------------|---------------------|---------------------|
| Sultan Mehmed II           | 苏丹穆罕默德二世     |                     |
| Constantine XI Palaiologos | 君士坦丁十一世 …     |                     |
| Queen Elizabeth II         | … 伊丽莎白二世      |                     |
| Louis XIV                  | 路易十四            |                     |
| Pope John Paul II          | … 若望·保禄二世      |                     |
| 伊丽莎白二世               |                     | Elizabeth II        |
| 路易十四                   |                     | Louis XIV           |

Only a name of the table before a numeral that is one (``Henry VIII``; not ``Act II``, ``World War
II``, ``Chapter IV``); 路易 alone is left to the model. French kings are 路易十四 without 世, as
Chinese writes them.
"""

from __future__ import annotations

import re

from doctrans.chinese_numerals import read_numeral, write_numeral
from doctrans.language_id import base_language
from doctrans.verbatim import Span

_NAMES = {
    "Elizabeth": "伊丽莎白", "Henry": "亨利", "Louis": "路易", "Charles": "查理", "George": "乔治",
    "Edward": "爱德华", "William": "威廉", "James": "詹姆斯", "Richard": "理查", "Philip": "腓力",
    "Frederick": "腓特烈", "Napoleon": "拿破仑", "Peter": "彼得", "Catherine": "叶卡捷琳娜", "Alexander": "亚历山大",
    "Nicholas": "尼古拉", "Constantine": "君士坦丁", "Mehmed": "穆罕默德", "Suleiman": "苏莱曼", "Ivan": "伊凡",
    "Wilhelm": "威廉", "Ferdinand": "斐迪南", "Isabella": "伊莎贝拉", "Leopold": "利奥波德", "Gustav": "古斯塔夫",
    "Felipe": "费利佩", "Juan Carlos": "胡安·卡洛斯", "John Paul": "若望·保禄", "Benedict": "本笃", "Pius": "庇护",
    "Leo": "利奥", "Gregory": "格列高利", "Innocent": "英诺森", "Urban": "乌尔班", "Clement": "克雷芒",
    "Ramesses": "拉美西斯", "Thutmose": "图特摩斯", "Amenhotep": "阿蒙霍特普", "Darius": "大流士", "Xerxes": "薛西斯",
    "Justinian": "查士丁尼", "Otto": "奥托", "Rudolf": "鲁道夫", "Maximilian": "马克西米利安", "Mary": "玛丽",
    "Anne": "安妮", "Margrethe": "玛格丽特", "Harald": "哈拉尔", "Carl Gustaf": "卡尔·古斯塔夫",
    "Abdullah": "阿卜杜拉", "Mohammed": "穆罕默德", "Hassan": "哈桑", "Rama": "拉玛", "Hirohito": "裕仁",
}
# A name Chinese writes another way with some numbers (today's king is 查尔斯三世, his forebears 查理).
_BY_NUMBER = {("Charles", 3): "查尔斯"}
# French kings go without 世 (路易十四, Louis XIV).
_WITHOUT_SHI = frozenset({"Louis"})
# Back into English, a Chinese name that is one ruler's (穆罕默德 is Mehmed or Mohammed: left out).
_INTO_ENGLISH = {zh: en for en, zh in _NAMES.items() if en not in ("Wilhelm", "Mehmed", "Mohammed")}
_INTO_ENGLISH["查尔斯"] = "Charles"

_ROMAN = re.compile(r"(?=[IVX])(X{0,3})(IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9}
_EN = re.compile(rf"(?<![\w'’-])({'|'.join(sorted(map(re.escape, _NAMES), key=len, reverse=True))})\s+"
                 r"(X{0,3}(?:IX|IV|V?I{0,3}))(?![\w'’-])")
_ZH = re.compile(rf"({'|'.join(sorted(_INTO_ENGLISH, key=len, reverse=True))})([一二三四五六七八九十]{{1,3}})(世)?")


_FIRST_OF_NAME = re.compile(r"(?:King|Queen|Pope|Emperor|Empress|Tsar|Czar|Sultan|Pharaoh|Kaiser)\s+$")
_AFTER_FIRST = re.compile(r"(?:[,.;:)]|\s+of\b|$)")


def roman_value(numeral: str) -> int | None:
    """``XIV`` -> 14 (1 to 39), None when it is none."""
    m = _ROMAN.fullmatch(numeral)
    if not numeral or m is None:
        return None
    return 10 * len(m.group(1)) + (_ROMAN_VALUES[m.group(2)] if m.group(2) else 0) or None


def roman(n: int) -> str:
    tens, ones = divmod(n, 10)
    return "X" * tens + next((r for r, v in _ROMAN_VALUES.items() if v == ones), "")


def find_regnal_names(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The rulers of ``text`` named with their number as ``name`` spans whose target is the other
    language's name (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    spans = []
    if src == "en" and tgt == "zh":
        for m in _EN.finditer(text):
            name, n = m.group(1), roman_value(m.group(2))
            if n is None or (n == 1 and not _FIRST_OF_NAME.search(text, 0, m.start())
                             and not _AFTER_FIRST.match(text, m.end())):
                continue  # "Mary I think so": I is the pronoun but after a title or before a mark
            chinese = _BY_NUMBER.get((name, n), _NAMES[name]) + write_numeral(n, "ja")
            spans.append(Span(m.start(), m.end(), m.group(), "name", chinese + ("" if name in _WITHOUT_SHI else "世")))
    elif src == "zh" and tgt == "en":
        for m in _ZH.finditer(text):
            name, n = _INTO_ENGLISH[m.group(1)], read_numeral(m.group(2))
            # 世 is the number's (路易十四 has none); without it only a French king's
            if not n or not 1 <= n <= 39 or (m.group(3) is None and name not in _WITHOUT_SHI):
                continue
            spans.append(Span(m.start(), m.end(), m.group(), "name", f"{name} {roman(n)}"))
    return spans
