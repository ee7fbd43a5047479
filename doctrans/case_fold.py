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
  still ``瑞克·帕克``. In a heading of three words or more, so are rarer words the training pairs
  write in small letters (doctrans.english_words; not names they capitalise): a weather service's
  ``Heat Advisory for the Weekend`` left ``Advisory`` to be a name, ``阿德维苏利斯``; not right after a
  name's placeholder (``MySQL Connector/Python``: a product's line). Two such words in small letters
  read as code to the model (``Select All``, ``Uncomment Region`` came back copied), so they keep it.

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
| zh     | Heat Advisory for the Weekend                  | heat advisory for the weekend                 |
| zh     | Stack Viewer                                   | Stack Viewer                                  |
| zh     | The Witness Protection Program ended.          | The Witness Protection Program ended.         |
| zh     | ⦅1⦆ Administrator rights are required.         | ⦅1⦆ administrator rights are required.        |
| zh     | Sales were up 8% in the third quarter.         | sales were up 8% in the third quarter.        |
| zh     | "Heavy rain is expected," she said.            | "heavy rain is expected," she said.           |
| zh     | London was cold and wet.                       | London was cold and wet.                      |
| zh     | Tasks                                          | Tasks                                         |
| zh     | Call log("Error") first.                       | Call log("Error") first.                      |
| zh     | Prices ⦅1⦆ last year.                          | prices ⦅1⦆ last year.                         |
| en     | EXECUTIVE SUMMARY                              | EXECUTIVE SUMMARY                             |

- a sentence's **first word**, when it is a common word, no name and no closed-class word (``the``,
  ``if``, ``you``), in a sentence of three words or more: ``Sales were up 8%`` was ``萨尔斯`` (a
  name) to the model, ``Heavy rain`` ``海文雨``, ``Staff`` ``斯科夫``; in small letters ``销售``, ``暴雨``,
  ``员工``. A word alone or a heading keeps its capital: in small letters the model copies it as
  code (``Tasks`` -> ``tasks``), and so does a word before code (``Call log("Error")``); before a
  span it is folded (``Prices ⦅1⦆`` came back ``⦅1⦆号公民``, ``prices ⦅1⦆`` ``⦅1⦆价``).
  Full dev, en->zh, beam 5, against the same engine without this rule: TVsub 16.31 -> 16.34
  (paired bootstrap p 0.20), pydocs 59.64 -> 59.70 (p 0.15), django 65.10 -> 64.92 (p 0.016):
  paraphrases either way (``Suggest the database`` was ``聚合…``, now ``建议…``; ``Comments look
  like this:`` ``注释看起来像这样`` now ``注释如下所示``), where the sentences it is for lost their
  subject to a name.

Only the model's input changes: verbatim spans and names are placeholders by then, so their case is
never touched. What the model copied instead of translating comes back in the source's case
(:func:`source_case`: a footer's "Annual Review 2025" came back ``annual review 2025``). Dev, en->zh,
the final hypotheses of 2026-11-27 so mended: pydocs 27 lines (``reader 对象`` -> ``Reader 对象``, as the
reference), s-BLEU 60.07 -> 60.11; django 9 (``:setting:`name <TEMPLATES-NAME>``` -> ``NAME``), 65.57 ->
65.63; TVsub none.
"""

from __future__ import annotations

import re

from doctrans.english_words import english_words
from doctrans.kept_names import (
    ACRONYMS_THAT_ARE_WORDS,
    CJK_LANGUAGES,
    common_words,
    known_names,
    proper_words,
    shouted,
)
from doctrans.language_id import base_language

# A capital word glued to code's marks (``rdnSequence.?LAST``, ``$PATH``, ``MODE=FAST``) is a token
# of the code, not a shouted word.
_CAPS_WORD = re.compile(r"(?<![A-Za-z0-9_'’?.$@#%&=/\\])[A-Z]{2,}(?:['’][A-Z]+)?(?![A-Za-z0-9_])")
_TITLE_WORD = re.compile(r"(?<![A-Za-z0-9_'’.\-])[A-Z][a-z]+(?:['’]s)?(?![A-Za-z0-9_'’.\-(])")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_AFTER_LEADING_PLACEHOLDER = re.compile(r"^([\s*_]*\u2985\d+\u2986[\s*_]*)([A-Z][a-z]+)(?![A-Za-z0-9_'’.\-])")
_FIRST_WORD = re.compile(r"^([\s*_\"“‘'(\[-]*)([A-Z][a-z]+)(?![A-Za-z0-9_'’.\-])")


# Words of a closed class: the models read them at a sentence's start as they should, and a
# sentence starting in small letters is rarer to them than the word's capital.
_CLOSED_CLASS = frozenset([
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "we", "you", "they", "he", "she", "i",
    "me", "my", "our", "your", "their", "his", "her", "them", "us", "in", "on", "at", "for", "of", "to",
    "from", "by", "with", "without", "about", "after", "before", "since", "until", "during", "under", "over",
    "into", "if", "when", "while", "where", "why", "how", "what", "which", "who", "whom", "whose", "whether",
    "although", "though", "because", "unless", "and", "but", "or", "nor", "so", "yet", "also", "then",
    "there", "here", "now", "once", "each", "every", "all", "some", "any", "no", "not", "both", "either",
    "neither", "such", "many", "much", "more", "most", "few", "less", "least", "other", "another", "only",
    "even", "just", "still", "please", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does",
    "did", "have", "has", "had", "can", "could", "will", "would", "shall", "should", "may", "might", "must",
    "let", "yes", "well", "okay", "ok", "hello", "hi", "oh",
])


# What may follow the folded first word: a word in small letters, or a span (``Prices ⦅1⦆`` read as
# ⦅1⦆号公民, ``prices ⦅1⦆`` as ⦅1⦆价); not text of code (``Call log("Error")``: in small letters, code).
_PLAIN_WORD = re.compile(r"\s+(?:[a-z]+(?=[\s,.;:!?])|\u2985\d+\u2986)")


def _first_content_word(model_text: str, sentence: str) -> re.Match[str] | None:
    """The first word of a sentence (three words or more, ending as a sentence does) when it is no
    closed-class word: ``Sales were up 8%`` was ``萨尔斯`` to the model, ``sales`` ``销售``. A word alone
    or a heading in small letters reads as code to it (``Tasks`` -> ``tasks``), so those keep it."""
    if len(_WORD.findall(sentence)) < 3 or not re.search(r"[.!?:;]['\"’”)]*\s*$", sentence):
        return None
    first = _FIRST_WORD.match(model_text)
    if first is None or first.group(2).lower() in _CLOSED_CLASS or not _PLAIN_WORD.match(model_text, first.end()):
        return None  # before code (``Call log("Error")``: in small letters it read as code)
    return first


def title_cased(sentence: str) -> bool:
    """A title-case heading: two capitalised words or more, every word of four letters or more
    capitalised, no sentence's final full stop, and some small letters (else it is shouted)."""
    words = _WORD.findall(sentence)
    capitals = [w for w in words if w[0].isupper()]
    return (len(capitals) >= 2 and all(w[0].isupper() for w in words if len(w) >= 4)
            and not sentence.rstrip().endswith(".") and not shouted(sentence))


def _stem(word: str) -> str:
    """``word`` without a possessive's ending (keeper's: keeper)."""
    return re.sub(r"['’]s$", "", word)


def _common_form(word: str, common: frozenset[str]) -> bool:
    """A common word, or its possessive or a plain inflection of one (a story's title "The
    Lighthouse Keeper's Daughter" came back 灯塔·普莱特的女儿, a headline's "Inflation Eases for Third
    Straight Month" left Eases to be a name)."""
    word = _stem(word)
    return word in common or any(word.endswith(end) and word[:-len(end)] + add in common
                                 for end, add in (("s", ""), ("es", ""), ("ed", ""), ("ed", "e"), ("ies", "y")))


def fold_case(model_text: str, sentence: str, src_lang: str | None, tgt_lang: str | None) -> str:
    """``model_text`` (the masked ``sentence``) with the capital words the model should read in
    small letters folded (rules in the module docstring); unchanged unless the target has no case
    and the source has."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if tgt not in CJK_LANGUAGES or not src or src in CJK_LANGUAGES:
        return model_text
    common = common_words()
    loud = shouted(sentence)
    folded = _CAPS_WORD.sub(lambda m: m.group().lower() if m.group().lower() in common
                            and (loud or m.group() not in ACRONYMS_THAT_ARE_WORDS) else m.group(), model_text)
    if title_cased(sentence):
        proper = proper_words() | known_names()
        # Rarer words only in a heading of three words or more: two words in small letters read as
        # code to the model (Select All, Uncomment Region came back copied).
        words = english_words() if len(_WORD.findall(sentence)) >= 3 else frozenset()

        def heading_case(m: re.Match[str]) -> str:
            word = m.group().lower()
            rare_ok = not folded.endswith("\u2986 ", 0, m.start())  # not a product's line (MySQL Connector)
            if (_common_form(word, common) or (rare_ok and _stem(word) in words)) and _stem(word) not in proper:
                return word
            return m.group()

        folded = _TITLE_WORD.sub(heading_case, folded)
    # After a leading placeholder (a label, ``⦅1⦆ Administrator rights are required``) the first
    # word's capital is the sentence's, not a name's: the model copied it as a name.
    lead = _AFTER_LEADING_PLACEHOLDER.match(folded) or _first_content_word(folded, sentence)
    if lead and lead.group(2).lower() in common and lead.group(2).lower() not in proper_words():
        folded = folded[:lead.start(2)] + lead.group(2).lower() + folded[lead.end(2):]
    first = re.search(r"[A-Za-z]", folded)
    if shouted(sentence) and first and folded[first.start()].islower():
        folded = folded[:first.start()] + folded[first.start()].upper() + folded[first.start() + 1:]
    return folded


_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_'’-])[A-Za-z][A-Za-z'’-]*(?![A-Za-z0-9_'’-])")


def source_case(output: str, sentence: str, model_text: str) -> str:
    """A Chinese ``output`` with the English words the model copied instead of translating written
    in the case of ``sentence``, where the model read them folded (a page's footer "Annual Review
    2025 | Page 1" came back ``annual review 2025 | 第1页``, its header ``ACME WATER TRUST`` ``ACME
    Water trust``). Only words folding changed, and only one spelling each: a word the source also
    has as the output writes it is the source's."""
    source_words = set(_LATIN_WORD.findall(sentence))
    read = set(_LATIN_WORD.findall(model_text))
    folded: dict[str, str | None] = {}
    for word in source_words - read:
        key = word.lower()
        folded[key] = None if key in folded and folded[key] != word else word
    if not folded:
        return output

    def original(m: re.Match[str]) -> str:
        word = m.group()
        written = folded.get(word.lower())
        return written if written and word not in source_words else word

    return _LATIN_WORD.sub(original, output)
