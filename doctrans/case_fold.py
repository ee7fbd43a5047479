r"""English in capitals, read by the model in small letters when the output has no case.

The models learned English from sentences in mixed case; words in capitals are rare sub-word
pieces to them, and they copied their letters instead of translating them: ``EXECUTIVE SUMMARY``
came out as ``EXECUTIVERMARYY`` and ``You MUST NOT open the case`` as ``你是USTOTTO 打开的案件``,
while ``Executive summary`` and ``You must not open the case`` were translated. Chinese, Japanese
and Korean have no case, so nothing is lost by showing the model the small letters:

- common English words in capitals (doctrans/data/common_words.txt, the 10,000 most frequent of the
  training corpora: ``NOT``, ``NEVER``, ``TABLE``, ``SUMMARY``) are read in small letters; other
  capital words are acronyms, kept as names or translated (doctrans.kept_names);
- a **shouted** sentence (no small letter at all: a heading, a disclaimer) gets its first letter
  back in capitals, so it reads as a sentence;
- a **title-case** heading (every word of four letters or more capitalised: ``Risk Factors``) has
  its common words read in small letters, the first too, except those that are also names
  (doctrans/data/proper_words.txt: ``Python``, ``Windows``, ``London``). The models took the
  capitals for a name and transliterated it: ``Risk Factors`` -> ``雷克·福克斯``, ``The Old Man And
  The Sea`` -> ``奥德·哈德曼``, ``Annual Report 2025`` -> ``基于2025的支持``; in small letters
  they translated the words (``风险``, ``老兄和海边``, ``2025报告``); even ``Risk factors`` was
  still ``瑞克·帕克``.

| target | text                                           | what the model reads                          |
|--------|------------------------------------------------|-----------------------------------------------|
| zh     | EXECUTIVE SUMMARY                              | Executive summary                             |
| zh     | THE USB CABLE IS PROVIDED AS IS.               | The USB cable is provided as is.              |
| zh     | ⦅1⦆ USER GUIDE                                 | ⦅1⦆ User guide                                |
| zh     | You MUST NOT open the case.                    | You must not open the case.                   |
| zh     | The FBI and ⦅1⦆ said OK.                       | The FBI and ⦅1⦆ said ok.                      |
| zh     | Running Tasks in Threads                       | running tasks in threads                      |
| zh     | Installing Python on Windows                   | installing Python on Windows                  |
| zh     | Annual Report of the Department of Finance     | annual report of the Department of Finance    |
| zh     | The Witness Protection Program ended.          | The Witness Protection Program ended.         |
| zh     | ⦅1⦆ Administrator rights are required.         | ⦅1⦆ administrator rights are required.        |
| en     | EXECUTIVE SUMMARY                              | EXECUTIVE SUMMARY                             |

Only the model's input changes: verbatim spans and names are placeholders by then, so their case is
never touched, and the translation is written from the model's output as always.
"""

from __future__ import annotations

import re

from doctrans.kept_names import CJK_LANGUAGES, common_words, proper_words, shouted
from doctrans.language_id import base_language

_CAPS_WORD = re.compile(r"(?<![A-Za-z0-9_'’])[A-Z]{2,}(?:['’][A-Z]+)?(?![A-Za-z0-9_])")
_TITLE_WORD = re.compile(r"(?<![A-Za-z0-9_'’.\-])[A-Z][a-z]+(?![A-Za-z0-9_'’.\-(])")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_AFTER_LEADING_PLACEHOLDER = re.compile(r"^([\s*_]*\u2985\d+\u2986[\s*_]*)([A-Z][a-z]+)(?![A-Za-z0-9_'’.\-])")


def title_cased(sentence: str) -> bool:
    """A title-case heading: two capitalised words or more, every word of four letters or more
    capitalised, no sentence's final full stop, and some small letters (else it is shouted)."""
    words = _WORD.findall(sentence)
    capitals = [w for w in words if w[0].isupper()]
    return (len(capitals) >= 2 and all(w[0].isupper() for w in words if len(w) >= 4)
            and not sentence.rstrip().endswith(".") and not shouted(sentence))


def fold_case(model_text: str, sentence: str, src_lang: str | None, tgt_lang: str | None) -> str:
    """``model_text`` (the masked ``sentence``) with the capital words the model should read in
    small letters folded (rules in the module docstring); unchanged unless the target has no case
    and the source has."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if tgt not in CJK_LANGUAGES or not src or src in CJK_LANGUAGES:
        return model_text
    common = common_words()
    folded = _CAPS_WORD.sub(lambda m: m.group().lower() if m.group().lower() in common else m.group(), model_text)
    if title_cased(sentence):
        proper = proper_words()
        folded = _TITLE_WORD.sub(lambda m: m.group().lower() if m.group().lower() in common
                                 and m.group().lower() not in proper else m.group(), folded)
    # After a leading placeholder (a label, ``⦅1⦆ Administrator rights are required``) the first
    # word's capital is the sentence's, not a name's: the model copied it as a name.
    lead = _AFTER_LEADING_PLACEHOLDER.match(folded)
    if lead and lead.group(2).lower() in common and lead.group(2).lower() not in proper_words():
        folded = folded[:lead.start(2)] + lead.group(2).lower() + folded[lead.end(2):]
    first = re.search(r"[A-Za-z]", folded)
    if shouted(sentence) and first and folded[first.start()].islower():
        folded = folded[:first.start()] + folded[first.start()].upper() + folded[first.start() + 1:]
    return folded
