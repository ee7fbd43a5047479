"""Moses-tokenized English (the TVsub dev split: ``we didn 't get married .``, ``what ?``).

The training side of TVsub is ordinary text, so feeding the tokenized dev English to a model --
as a source sentence (en->zh) or as the teacher-forced reference whose decoder states the target
memory writes (zh->en dev loss) -- measures the model on text it never sees. Dev loss, the memory
probe and the en->zh source are therefore read *untokenized*: sacremoses' detokenizer, and a capital
at the start of each sentence. BLEU references stay as they are (training.evaluate scores them
tokenized and lower-cased, a scheme that needs no guessing).
"""

from __future__ import annotations

import re

# Tokens a Moses tokenizer leaves in English text: split clitics and spaced punctuation.
_MOSES_MARKS = re.compile(r"\s'(?:s|t|re|m|ll|ve|d)\b|\sn't\b|\s[,.!?;:](?:\s|$)")
# A lower-case letter that starts the text or follows sentence-final punctuation.
_SENTENCE_START = re.compile(r"(^|[.!?]\s+)([a-z])")


def looks_tokenized(sentences: list[str]) -> bool:
    """True when a clear share of the sentences carries Moses tokenization (``it 's``, ``a , b``)."""
    marked = sum(1 for s in sentences if _MOSES_MARKS.search(s))
    return len(sentences) > 0 and marked / len(sentences) > 0.2


def untokenize(sentences: list[str]) -> list[str]:
    """Detokenize Moses-tokenized English and restore sentence-initial capitals."""
    from sacremoses import MosesDetokenizer

    detok = MosesDetokenizer(lang="en")
    out = []
    for s in sentences:
        text = detok.detokenize(s.split())
        out.append(_SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text))
    return out


def untokenized_side(sentences: list[str], lang: str) -> list[str]:
    """``sentences`` untokenized if they are Moses-tokenized English, else unchanged."""
    return untokenize(sentences) if lang == "en" and looks_tokenized(sentences) else sentences
