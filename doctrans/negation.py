"""A prohibition or a negation the translation must keep, and the written Chinese that says it.

A lost "not" turns a manual's warning into its opposite. The zh->en model learned Chinese from
subtitles, where a prohibition is spoken (``不要``, ``请不要``, ``不准``), and it never learned the
written forms of manuals and notices: ``请勿将本产品放置在距离墙壁30厘米以内的位置`` came back
"Please put this product in place 30 cm in the distance wall", ``请勿吸烟`` "Please smoking",
``切勿`` "Cheers", ``严禁吸烟`` "Fixed cigarette", ``不宜长时间使用`` "It's not a long time". Its
n-best held no negation to choose. So the model reads the spoken forms (its input only; the
source and the output are untouched):

| written (source)      | what the model reads      |
|-----------------------|---------------------------|
| 请勿吸烟              | 请不要吸烟                |
| 切勿触摸              | 千万不要触摸              |
| 勿将本产品放在室外    | 不要将本产品放在室外      |
| 严禁吸烟              | 不准吸烟                  |
| 禁止停车              | 不准停车                  |
| 不宜长时间使用        | 不应长时间使用            |
| 勿忘我                | 勿忘我                    |
| 禁止令已经生效        | 禁止令已经生效            |

(``请不要吸烟`` came back "Please don't smoking", ``千万不要触摸`` "Don't touch it", ``不准停车`` "Don't
park", ``不应长时间使用`` "Shouldn't be used long"; 勿忘我 is a flower and 禁止令 an injunction.)

Then, both ways, a sentence whose source says "do not" (``not``, ``n't``, ``never``, ``cannot``;
``不要``, ``不得``, ``禁止``, ``请勿``…) and whose translation holds no negation at all is
reported (:func:`lost_negation`), and the engine prefers a hypothesis of its n-best that keeps
one (doctrans.engine.protect.Prepared.pick).
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language

# Written prohibitions into the spoken forms the model learned. 勿 alone only where a verb or 将/把
# follows (not 勿忘我, a flower); 禁止/严禁 not before what makes them a noun (禁止令, 禁止区).
_SPOKEN = [
    (re.compile(r"请勿"), "请不要"),
    (re.compile(r"切勿"), "千万不要"),
    (re.compile(r"(?<![请切])勿(?!忘我)(?=[\u4e00-\u9fff])"), "不要"),
    (re.compile(r"(?:严禁|禁止)(?![令区性标地])(?=[\u4e00-\u9fff])"), "不准"),
    (re.compile(r"不宜"), "不应"),
]

# A prohibition or a negation a Chinese source states outright.
# 没 and 未 alone too, not in words that hold no negation in English (淹没 drowned, 没收 confiscated,
# 未来 the future, 未知 unknown, 未婚 unmarried) nor in set phrases that say yes (没错 "right", 没关系
# and 没事 "it's OK", 不得了 "terribly", 不得不 "have to": with a negation forced on them, 没错 came back
# "No" and 没关系 "It's not okay"): 相当于整整一夜没睡 came back "equivalent to the whole night".
_CHINESE_NEGATION = re.compile(r"请勿|切勿|勿|不要|不得(?![了不])|不准|不许|严禁|禁止|千万别|不能|不应|不宜"
                               r"|不可以|没有|不是|从不|从未|绝不|(?<![淹埋出沉湮])没(?![收落错关事准什问])"
                               r"|未(?![来知婚成])")
# Any negation in Chinese (a translation's: 不, 没, 别, 无, 未, 非, 否, 莫, 禁, 勿, 免).
_ANY_CHINESE_NEGATION = re.compile(r"[不没别无未非否莫禁勿免]")
# A negation an English source states outright (not "not only": 不仅 holds 不 anyway).
_ENGLISH_NEGATION = re.compile(r"\b(?:not|never|cannot)\b|n['’]t\b", re.IGNORECASE)
# Any negation in English (a translation's), and the words that say "no" otherwise.
_ANY_ENGLISH_NEGATION = re.compile(r"\b(?:not|no|never|nothing|none|nobody|nowhere|nor|neither|without|avoid|"
                                   r"prohibited|forbidden|unable|cannot|refrain|free)\b|n['’]t\b", re.IGNORECASE)


def spoken_negation(model_text: str, src_lang: str | None) -> str:
    """``model_text`` (a Chinese source as the model reads it) with written prohibitions in their
    spoken forms (see the module docstring); other sources unchanged."""
    if base_language(src_lang) != "zh":
        return model_text
    for pattern, spoken in _SPOKEN:
        model_text = pattern.sub(spoken, model_text)
    return model_text


def source_negation(source: str, src_lang: str | None) -> str | None:
    """The first negation ``source`` states outright (``请勿``, ``don't``), or None."""
    lang = base_language(src_lang)
    pattern = _CHINESE_NEGATION if lang == "zh" else _ENGLISH_NEGATION if lang == "en" else None
    # A negation in quotes and capitals is mentioned, not stated (a specification's key words
    # "MUST NOT", kept as written, were reported as a lost negation); a quoted line of dialogue states it.
    text = _MENTIONED.sub(" ", source) if lang == "en" else source
    found = pattern.search(text) if pattern is not None else None
    return found.group() if found else None


_MENTIONED = re.compile(r'"[^"a-z\n]{1,40}"|“[^”a-z\n]{1,40}”')


def negates(translation: str, tgt_lang: str | None) -> bool:
    """Whether ``translation`` holds any negation (True for a language this module cannot read)."""
    lang = base_language(tgt_lang)
    if lang == "zh":
        return _ANY_CHINESE_NEGATION.search(translation) is not None
    if lang == "en":
        return _ANY_ENGLISH_NEGATION.search(translation) is not None
    return True


def lost_negation(source: str, translation: str, src_lang: str | None, tgt_lang: str | None) -> str | None:
    """The source's negation when its translation (English <-> Chinese) holds none, else None."""
    if {base_language(src_lang), base_language(tgt_lang)} != {"zh", "en"}:
        return None
    word = source_negation(source, src_lang)
    return word if word is not None and not negates(translation, tgt_lang) else None
