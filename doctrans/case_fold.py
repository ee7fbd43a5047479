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
  back in capitals, so it reads as a sentence.

| target | text                                           | what the model reads                          |
|--------|------------------------------------------------|-----------------------------------------------|
| zh     | EXECUTIVE SUMMARY                              | Executive summary                             |
| zh     | THE USB CABLE IS PROVIDED AS IS.               | The USB cable is provided as is.              |
| zh     | ⦅1⦆ USER GUIDE                                 | ⦅1⦆ User guide                                |
| zh     | You MUST NOT open the case.                    | You must not open the case.                   |
| zh     | The FBI and ⦅1⦆ said OK.                       | The FBI and ⦅1⦆ said ok.                      |
| en     | EXECUTIVE SUMMARY                              | EXECUTIVE SUMMARY                             |

Only the model's input changes: verbatim spans and names are placeholders by then, so their case is
never touched, and the translation is written from the model's output as always.
"""

from __future__ import annotations

import re

from doctrans.kept_names import CJK_LANGUAGES, common_words, shouted
from doctrans.language_id import base_language

_CAPS_WORD = re.compile(r"(?<![A-Za-z0-9_'’])[A-Z]{2,}(?:['’][A-Z]+)?(?![A-Za-z0-9_])")


def fold_case(model_text: str, sentence: str, src_lang: str | None, tgt_lang: str | None) -> str:
    """``model_text`` (the masked ``sentence``) with the capital words the model should read in
    small letters folded (rules in the module docstring); unchanged unless the target has no case
    and the source has."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if tgt not in CJK_LANGUAGES or not src or src in CJK_LANGUAGES:
        return model_text
    common = common_words()
    folded = _CAPS_WORD.sub(lambda m: m.group().lower() if m.group().lower() in common else m.group(), model_text)
    first = re.search(r"[A-Za-z]", folded)
    if shouted(sentence) and first and folded[first.start()].islower():
        folded = folded[:first.start()] + folded[first.start()].upper() + folded[first.start() + 1:]
    return folded
