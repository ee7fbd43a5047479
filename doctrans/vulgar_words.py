"""Vulgar words a translation writes where its source swears at no one.

The built-in models learned much of their language from film subtitles, which swear a lot, and
they bring it to sentences that do not: a short story's ``门口站着一个浑身湿透的孩子`` (a child
soaked to the skin stood at the door) came back "a dicked child". A reader of a translated report
or story meets an insult its author never wrote. So a hypothesis whose English has a vulgar word
while its Chinese source has no word of swearing (or whose Chinese swears where the English does
not) is flawed like a word spelt wrong (doctrans.engine.protect.Prepared._pick): the engine keeps
another of its n-best, or a wider search's. A source that swears (``他妈的``, ``该死``, ``混蛋``; "damn")
lets its translation swear as the model likes.

| source                     | translation                          | vulgar    |
|----------------------------|--------------------------------------|-----------|
| 门口站着一个浑身湿透的孩子 | A dicked child stood at the door.    | dicked    |
| 他妈的，又迟到了           | Fuck, late again.                    | (none)    |
| 该死的电脑                 | The damn computer.                   | (none)    |
| 请关好门                   | Shut the fucking door.               | fucking   |
| 他在读狄更斯               | He is reading Dickens.               | (none)    |
| Please close the door.     | 把该死的门关上。                     | 该死      |
| Shut the damn door.        | 把该死的门关上。                     | (none)    |
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language

# English words, small or capitalised; those that are names too (Dick Cheney, 迪克) or another
# word's (a cock crows) in small letters only, and never a longer name's start (Dickens).
_ENGLISH = re.compile(r"(?<![A-Za-z])(?:[Ff]uck\w*|[Ss]hit\w*|[Bb]itch\w*|[Bb]astards?|[Aa]ssholes?|[Cc]unts?"
                      r"|dick(?:s|ed|head|heads)?|puss(?:y|ies)|[Ww]hores?|[Ss]luts?|[Dd]amn\w*"
                      r"|[Cc]rap(?:py)?|[Pp]iss(?:ed)?|[Mm]otherf\w*|[Gg]oddam\w*|pricks?|twats?|wank\w*"
                      r"|[Bb]ollocks)(?![A-Za-z])")
# Chinese swearing, as the models write it into Chinese and as a source warrants it.
_CHINESE = re.compile(r"他妈|妈的|他娘|娘的|操你|肏|婊|鸡巴|屌|狗屎|王八|混蛋|杂种|狗娘|贱人|该死|见鬼|滚蛋|去你的"
                      r"|日你|尼玛|卧槽|妈逼|傻逼|牛逼|放屁|扯淡|他奶奶|混账|混帐|荡妇|妓")
# What makes a Chinese source swear besides the words above: a curse's plain characters.
# (干! alone is a subtitle's "fuck!")
_CHINESE_SOURCE = re.compile(rf"{_CHINESE.pattern}|操|靠|屎|屁|滚|蠢|傻|笨蛋|可恶|烂|鬼|干\s?[!！]")
_ENGLISH_SOURCE = re.compile(rf"{_ENGLISH.pattern}|(?<![A-Za-z])(?:[Hh]ell|[Bb]loody|[Aa]ss(?:es)?|[Ss]crew"
                             r"|[Jj]esus|[Cc]hrist|[Gg]od|[Ss]ucks?|[Ss]tupid|[Ii]diot\w*|[Bb]itchy)(?![A-Za-z])")


def unwarranted_vulgarity(source: str, translation: str, src_lang: str | None, tgt_lang: str | None) -> list[str]:
    """The vulgar words of ``translation`` where ``source`` swears at no one (none where it does;
    English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if src == "zh" and tgt == "en":
        return [] if _CHINESE_SOURCE.search(source) else _ENGLISH.findall(translation)
    if src == "en" and tgt == "zh":
        return [] if _ENGLISH_SOURCE.search(source) else _CHINESE.findall(translation)
    return []
