"""Short quoted terms translated alone: a name, a title or a label in quotes inside a sentence.

A manual quotes what the reader looks for (``在“开始”菜单中找到“数据助手”``), a specification the
documents it cites (``see the "History and related systems" document``), a news item its titles
(``《政府工作报告》``). Inside a sentence the built-in models dropped such a term or broke it
(``“数据助手”`` was gone; the title came back ``History 和 “History”``), while the same words
alone, as a heading or a cell, come back whole. So each quoted Chinese term this module finds is
translated alone by the engine (a fresh session: the document's memory is neither read nor
written) and given to the sentence as a span whose target is that translation in the output's
quotes, masked and restored like a glossary term (doctrans.engine.protect) -- when it reads as a
term: a line of dialogue (``并行的`` alone came back "And that's fine") or a rendering the model is
unsure of (doctrans.engine.onnx_engine.ALONE_MIN_SCORE) is not used, and the term stays in the
sentence for the model. A quoted English
string in a sentence translated into Chinese is kept as written, in “”: it names what the reader
sees in an English program or document (the pydocs and django references keep ``"Prefer tabs when
opening documents"`` and ``“Database is locked”``), and the model garbled it (``“Pertabs”``,
``“Alage”``). Terms the lists know (doctrans.ui_labels, report terms) are theirs.

| source                                        | target | terms                         |
|-----------------------------------------------|--------|-------------------------------|
| 在“开始”菜单中找到“数据助手”并打开。           | en     | 开始 · 数据助手               |
| 请阅读《政府工作报告》全文。                   | en     | 政府工作报告                  |
| 他说：“我们明天见。”                           | en     | (none)                        |
| 所谓“好”                                      | en     | (none)                        |
| see the "History and related systems" document | zh    | History and related systems   |
| the "print" function and the "with" statement | zh     | (none)                        |
| click "Save changes" then "OK, thanks."       | zh     | Save changes                  |
| log("There was a timeout") or f("A", 2)       | zh     | (none)                        |
| 如果看到“Welcome to nginx!”页面               | en     | Welcome to nginx!             |
| This Agreement (the "Agreement") is binding.  | zh     | Agreement                     |
| Acme Data Inc. ("Acme"), a company            | zh     | (none)                        |

Into English: two to twelve Chinese characters (Latin letters and digits among them) in “”, 「」,
『』, 【】 or 《》, with no sentence mark inside (a quoted utterance is dialogue, doctrans.dialogue).
A quoted string of a Chinese sentence with no Chinese in it is the English (or code) the reader
sees on the screen, and is kept as written in ``"…"``, its marks too (``如果看到“Welcome to nginx!”页面``
came back ``If the "Welcome to nginx" page``).
Into Chinese: one to six words in ``"…"`` or ``“…”`` starting with a capital (a lower-case word in
quotes is a programming manual's keyword, copied by the model), no sentence mark inside, not a
string of code (a bracket, ``=`` or a letter right before the quote). An agreement's definition
of a term in words of the language (``(the "Agreement")``, ``("Services")``) is translated alone:
kept, it left English words in a Chinese contract; a name so defined (``("Acme")``) is no term. Written
in the output's quotes: ``"…"`` into English (《》 too: English sets titles in quotes or italics; a
label in 【】 that starts the segment, a heading, in ``[…]``),
``“…”`` into Chinese (《》 kept).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from doctrans.kept_names import common_words, proper_words
from doctrans.language_id import base_language
from doctrans.report_terms import find_report_terms
from doctrans.ui_labels import unknown_chinese_labels

_HAN = "\u3400-\u4dbf\u4e00-\u9fff"
_INTO_ENGLISH = re.compile(rf"([“「『【《])((?=[^”」』】》]*[{_HAN}])[{_HAN}0-9A-Za-z·\- ]{{2,12}})([”」』】》])")
_PAIRS = {"“": "”", "「": "」", "『": "』", "【": "】", "《": "》", '"': '"'}
# A quoted string in a Chinese sentence with a Latin letter and no Chinese character (up to 12 words).
_LATIN_IN_CHINESE = re.compile(rf"([“「『【《])((?=[^”」』】》{_HAN}]*[A-Za-z])[^”」』】》{_HAN}\n]{{1,80}})"
                               r"([”」』】》])")
# (... and in guillemets, as a specification quotes a field: dpkg's «Essential» came back «Esential» and ©)
_INTO_CHINESE = re.compile(r"([\"“«])([A-Z][0-9A-Za-z'’\-]*(?: [0-9A-Za-z'’\-]+){0,5})([\"”»])")
_CLOSES = {'"': '"', "“": "”", "«": "»"}
# ... a field with its value too («Essential: yes» came back «Esential：是 ©): what guillemets hold in
# an English text is a literal, kept as written.
_GUILLEMETS = re.compile(r"«([^«»\n.!?]{1,40})»")


class QuotedTerm(NamedTuple):
    start: int  # the opening quote
    end: int  # after the closing quote
    text: str  # the words inside
    written: str  # how the translation is quoted in the output: "{}" filled with it
    alone: bool = True  # translated alone; False: kept as written (English quoted into Chinese)


def find_quoted_terms(text: str, src_lang: str | None, tgt_lang: str | None) -> list[QuotedTerm]:
    """The short quoted terms of ``text`` to translate alone (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if tgt == "en" and src != "en":
        # A label in 【】 that starts the segment is a heading in square brackets (a leaflet's
        # 【用法用量】口服。 came back 'The "Using measurement" graces.'); inside a sentence 【】 names
        # a button or a term, in quotes.
        # A contract's definition whole (（以下简称“甲方”） came back '(symmetric "Party A")').
        defined = [QuotedTerm(m.start(), m.end(), m.group(1), DEFINED_INTO_ENGLISH)
                   for m in _CHINESE_DEFINITION.finditer(text)]
        found = [QuotedTerm(m.start(), m.end(), m.group(2).strip(),
                            "[{}]" if m.group(1) == "【" and not text[:m.start()].strip() else '"{}"')
                 for m in _INTO_ENGLISH.finditer(text)
                 if _PAIRS[m.group(1)] == m.group(3) and m.group(2) == m.group(2).strip()
                 and not any(d.start <= m.start() and m.end() <= d.end for d in defined)]
        found += defined
        # A menu path's labels the list does not know, each alone (written as translated, no quotes).
        found += [QuotedTerm(a, b, text[a:b], "{}") for a, b in unknown_chinese_labels(text)]
        if re.search(f"[{_HAN}]", text):
            found += [QuotedTerm(m.start(), m.end(), m.group(2), '"{}"', alone=False)
                      for m in _LATIN_IN_CHINESE.finditer(text)
                      if _PAIRS[m.group(1)] == m.group(3) and m.group(2) == m.group(2).strip()
                      and len(m.group(2).split()) <= 12]
        return sorted(found, key=lambda q: q.start)
    if tgt == "zh" and src != "zh":
        out = []
        for m in _INTO_CHINESE.finditer(text):
            opening, closing = m.group(1), m.group(3)
            if _CLOSES[opening] != closing or text[:m.start()].count('"') % 2:
                continue  # a closing quote read as an opening one, or mixed styles
            defines = _defines(text, m)
            if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "([{=,") and not defines:
                continue  # a string in code: log("There was a timeout"), factorial("A", 2)
            if len(m.group(2)) < 2:
                continue
            if defines:
                # The definition whole, the Chinese contract's way: (the "Agreement") -> （以下简称“本协议”）;
                # its brackets and "the" had been left to the model ((the "出租方"), the "the" in English).
                opening = _DEFINITION_BEFORE.search(text, 0, m.start())
                closing = re.match(r"\s*\)", text[m.end():])
                if opening is not None and closing is not None:
                    out.append(QuotedTerm(opening.start(), m.end() + closing.end(), m.group(2), DEFINED, alone=True))
                    continue
            out.append(QuotedTerm(m.start(), m.end(), m.group(2), "“{}”", alone=defines))
        # ... with its article inside the quotes (a service agreement's ("the Consultant") was kept in English).
        out += [QuotedTerm(m.start(), m.end(), m.group(1), DEFINED, alone=True) for m in _THE_DEFINED.finditer(text)
                if not any(q.start < m.end() and m.start() < q.end for q in out)]
        out += [QuotedTerm(m.start(), m.end(), m.group(1), "“{}”", alone=False) for m in _GUILLEMETS.finditer(text)
                if not any(q.start <= m.start() < q.end for q in out) and re.search("[A-Za-z]", m.group(1))]
        return sorted(out, key=lambda q: q.start)
    return []


# A contract's definition: (the "Agreement"), ("Provider"), (hereinafter the "Services"), written whole.
DEFINED = "（以下简称“{}”）"
# ... and the Chinese one's: （以下简称“甲方”）, （下称“本合同”）.
DEFINED_INTO_ENGLISH = '(hereinafter "{}")'
_CHINESE_DEFINITION = re.compile(rf"[（(]\s*(?:以下简称|以下称|下称|简称)\s*[“\"]([{_HAN}A-Za-z0-9]{{1,12}})[”\"]"
                                 r"\s*[）)]")
_THE_DEFINED = re.compile(r"(?<![\w.])\(\s*[\"“][Tt]he ([A-Z][0-9A-Za-z'’\-]*(?: [0-9A-Za-z'’\-]+){0,3})[\"”]\s*\)")
_DEFINITION_BEFORE = re.compile(r"(?<![\w.])\((?:hereinafter(?: referred to as)?,? |each,? an? |collectively,? )?"
                                r"(?:the )?$", re.IGNORECASE)


def _defines(text: str, m: re.Match[str]) -> bool:
    """Whether the quoted ``m`` defines a term of a contract in words of the language (``(the
    "Agreement")``): translated alone, where a name (``("Acme")``) and other quoted English is kept
    as written. Kept, ``(the “Agreement”)`` left English words in a Chinese contract."""
    if not _DEFINITION_BEFORE.search(text, 0, m.start()) or not re.match(r"\s*[),;]", text[m.end():]):
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", m.group(2))]
    common, proper = common_words(), proper_words()
    if words and all(w in common and w not in proper for w in words):
        return True
    # ... or a party the report terms name (("Provider") had been kept in English: 提供方).
    found = find_report_terms(m.group(2), "en", "zh")
    return len(found) == 1 and found[0].text == m.group(2)


_TRAILING = " .。!！?？,，;；:：\"'“”"
# A translation that starts as a sentence of dialogue or holds a contraction is no term's.
_SENTENCE_LIKE = re.compile(r"^(?:And|But|So|I|I'm|We|You|It|It's|Let's|That|That's|There|This|He|She|They|What"
                            r"|Yes|No|Oh|Well|Okay|OK)\b|\w'(?:s|re|ll|ve|d|m)\b|n't\b")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+(?=\S)", re.IGNORECASE)


def quoted(term: QuotedTerm, translation: str, source: str) -> str:
    """The target of ``term`` (a span of ``source``): its translation alone, without the sentence
    mark and quotes the model may have added, in the output's quotes; empty when nothing is left.
    Into English a word of prose in “” starts in small letters (``“并行的”`` alone came back
    ``Parallel``); a title in 《》, a label in 【】 and a name keep their capitals."""
    if not term.alone:
        return term.written.format(term.text)  # kept as written, its marks and capitals too
    text = translation.strip().strip(_TRAILING).strip()
    if term.written.startswith('"') or term.written == DEFINED_INTO_ENGLISH:
        if _SENTENCE_LIKE.search(text):
            return ""  # a subtitle's line, not a term: 并行的 alone came back "And that's fine"
        text = _ARTICLE.sub("", text)  # 编辑器 alone came back "The editor": 'the "the editor" window'
    if not text:
        return ""
    if term.written.startswith('"') and source[term.start] in "“「":
        words = re.findall(r"[A-Za-z']+", text)
        common = common_words()
        # Only sentence case (Parallel, Pushed back): Title Case (Data Assistant) is a name.
        if (words and all(w.lower() in common for w in words) and all(w[0].islower() for w in words[1:])
                and text[0].isupper() and not text[:2].isupper()):
            text = text[0].lower() + text[1:]
    return term.written.format(text)
