"""English speech whose verb comes before the speaker, read by the en→zh model in Chinese order.

English news and fiction put the verb first after a quotation: ``"...," said Linda Zhao.``, ``"Where
is the key?" asked Margaret.`` The en→zh model then writes the verb first too, which Chinese never
does, or reads the verb alone as another word: ``说琳达赵``, ``问玛格丽特``, "asked a young man"
``要求一个年轻人`` (to demand), "added Sarah Jones" ``加了莎拉·琼斯``. Chinese writes the speaker
first (``“……”琳达赵说。``), and with the speaker first the model wrote it so (``琳达赵说过``,
``玛格丽特问的``, ``史密斯先生说``). So where a sentence ends with such a verb and a short name after
a closing quotation mark, the model reads the name first; a verb of saying that is no plain
"said" to the model is the "said" it writes well (``added`` ``也说``).

Only for a name of one to three capitalised words (a title like ``Mr.`` before it, or the
placeholder of a masked name): with a description after the name (``said Linda Zhao, an analyst
at Counterpoint Research``) the model lost the verb altogether when it came last, and a speaker
that is no name (``asked a young man beside her``) it read no better. The model's text only: the
source, its spans and the output's checks are untouched.

| source                                      | written                                   |
|---------------------------------------------|-------------------------------------------|
| "We will appeal," said Mr. Smith.           | "We will appeal," Mr. Smith said.         |
| "Where is the key?" asked Margaret.         | "Where is the key?" Margaret asked.       |
| "I agree," added Sarah Jones.               | "I agree," Sarah Jones also said.         |
| "Investors are nervous," said ⦅1⦆.          | "Investors are nervous," ⦅1⦆ said.        |
| "No," said Linda Zhao, an analyst.          | "No," said Linda Zhao, an analyst.        |
| "Are you waiting?" asked a young man.       | "Are you waiting?" asked a young man.     |
| He said Tom was late.                       | He said Tom was late.                     |
| said the old man from the ticket office.    | the old man from the ticket office said.  |
| asked Margaret.                             | Margaret asked.                           |
| said his mother quietly.                    | his mother said quietly.                  |
| replied the woman behind the counter.       | the woman behind the counter said.        |
| said Giovanni Bianchi, the mayor.           | said Giovanni Bianchi, the mayor.         |
| said no more.                               | said no more.                             |

The narration after a quotation is a piece of its own in a document (doctrans.dialogue cuts
``"You'll catch your death out here," | said the old man from the ticket office.``), and alone
such a piece came back verb first as well (``说工单办公室的老人``, ``问玛格丽特``, "replied the
woman behind the counter" ``改造了这个女人``, re-made). Alone, the speaker may also be a short
phrase with its article or possessive (``the old man from the ticket office``, ``his mother``),
which the model wrote well first (``柜台后面的那个女人说``), and an adverb after it goes after the
verb (``his mother said quietly``: ``他母亲安静地说``).
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language

# The verbs, as the model reads them after the speaker.
_VERBS = {"said": "said", "says": "says", "asked": "asked", "asks": "asks", "added": "also said",
          "replied": "said", "answered": "said", "explained": "said", "continued": "said",
          "whispered": "whispered", "shouted": "shouted", "cried": "cried"}
_WORD = r"(?:[A-Z][\w'’-]*|⦅[0-9]+⦆)"
_TITLE = r"(?:(?:Mr|Mrs|Ms|Dr|Prof)\.\s+)?"
_INVERTED = re.compile(rf"(?P<quote>.*[,?!…]\s*[\"”’'])\s+(?P<verb>{'|'.join(_VERBS)})\s+"
                       rf"(?P<who>{_TITLE}{_WORD}(?:\s+{_WORD}){{0,2}})\s*\.\s*$", re.DOTALL)


# The narration piece alone: the verb, the speaker (a name, or a phrase of up to seven words after an
# article or a possessive, no comma), perhaps an adverb.
# Not a second clause ("said the man and smiled": the man and smiled said) nor an adverb's words.
_GOES_ON = r"(?!(?:and|but|then|as|while|before|after|when|because|so|or|nor|yet|[a-z]+ly)\b)"
_PHRASE = rf"(?:the|a|an|his|her|their|my|our|your)\s+{_GOES_ON}[a-z][\w'’-]*(?:\s+{_GOES_ON}[\w'’-]+){{0,6}}?"
_NARRATION = re.compile(rf"(?P<verb>{'|'.join(_VERBS)})\s+(?P<who>{_TITLE}{_WORD}(?:\s+{_WORD}){{0,2}}|{_PHRASE})"
                        r"(?:\s+(?P<how>[a-z]+ly))?\s*\.\s*")


def speaker_first(model_text: str, src_lang: str | None, tgt_lang: str | None) -> str:
    """``model_text`` (English, into Chinese) with a quotation's verb after its speaker (see the
    module's docstring); as it is otherwise."""
    if base_language(src_lang) != "en" or base_language(tgt_lang) != "zh":
        return model_text
    m = _INVERTED.match(model_text)
    if m is None:
        alone = _NARRATION.fullmatch(model_text)
        if alone is None:
            return model_text
        how = f" {alone.group('how')}" if alone.group("how") else ""
        return f"{alone.group('who')} {_VERBS[alone.group('verb')]}{how}."
    return f"{m.group('quote')} {m.group('who')} {_VERBS[m.group('verb')]}."
