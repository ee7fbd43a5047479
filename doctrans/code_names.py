"""A program's own names, found in a document's code, kept as written in its prose.

A README or a release note writes the tool it is about in its code (``fastkv bench --ops 1000000``,
``sudo nginx -t``) and in its sentences ("fastkv is an embedded key-value store"). In a sentence the
name is just a word to the model: the en->zh model wrote ``fastkv`` as ``快速kv`` ("fast kv"), and
the next sentence's ``fastkv`` as ``快快``. The document itself says the word is a name: so every
word of its code (a code block, an inline literal) that is no common English word and is written
in a sentence of the same document is kept there as written (a ``name`` span, masked and restored
like the names of doctrans.kept_names). A plain text file has no code blocks: there the commands its
sentences write (``run fastkv snapshot --compress zstd``) are its code.

| source                           | names                 |
|----------------------------------|-----------------------|
| fastkv bench --ops 1000000       | fastkv                |
| sudo nginx -t                    | sudo · nginx          |
| redis-cli -p 7000 SET k v        | redis-cli · redis     |
| pip install --upgrade fastkv     | fastkv                |
| ss -tlnp && grep 3000            | grep                  |
| store.close()                    | (none)                |
| port: 8080                       | (none)                |
| fastkv --host 0.0.0.0            | fastkv                |
| host = "x"; backend = "fastkv"   | fastkv                |

A word counts when it is a whole word of the code (between spaces, quotes, brackets, ``=``, ``/``),
starts with a small letter, has three to thirty letters, digits, ``_``, ``+`` or ``-`` and is not a
common English word (``install``, ``store``, ``bench`` are; ``pip`` and ``git`` are too: the
models know them). Options (``--ops``), paths' dots and calls (``store.close()``) are no such words,
nor is a setting's key that is an English word (``port: 8080``: "The server listens on port 8080"
kept "port" in English in a Chinese sentence).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from doctrans.documents.base import Block
from doctrans.english_words import english_words
from doctrans.glossary import Glossary
from doctrans.kept_names import common_words
from doctrans.verbatim import find_spans

if TYPE_CHECKING:
    from doctrans.engine.interface import Translator

# A chunk of code between separators, and the form of a name among them.
_CHUNK = re.compile(r"[^\s\"'`()\[\]{}<>=,;:|/\\]+")
_NAME = re.compile(r"[a-z][a-z0-9_+\-]{1,28}[a-z0-9]")
# A setting's key: a word before ``:`` or ``=`` (not ``::`` or ``==``), at a line's start or after a
# separator.
_KEY = re.compile(r"(?:^|(?<=[\s{,;(\"']))([a-z][a-z0-9_+\-]{1,28}[a-z0-9])[\"']?\s*[:=](?![:=])", re.MULTILINE)
# Code per document, at most: a manual's thousands of lines of code add no new tool names.
_MAX_CODE_CHARS = 200_000


def names_in_code(code: str) -> set[str]:
    """The words of ``code`` that name a program or a package (see the module docstring), and the
    product a hyphenated program is named after (``redis-cli``: "connect with any Redis client"
    came back 红魔客户, a red devil's)."""
    common = common_words()
    keys = {key for key in _KEY.findall(code) if key in english_words()}
    names = {chunk for chunk in _CHUNK.findall(code)
             if _NAME.fullmatch(chunk) and chunk not in common and chunk not in keys}
    return names | {head for name in names if "-" in name
                    and _NAME.fullmatch(head := name.split("-")[0]) and head not in common}


_PROSE_WORD = re.compile(r"[A-Za-z][0-9A-Za-z_+\-]*")


def code_names(blocks: Iterable[Block]) -> frozenset[str]:
    """The names of :func:`names_in_code` in a document's code (its verbatim blocks and the inline
    literals of its other blocks) that its sentences use too: a manual's code may name thousands
    of things its prose never writes. One pass, no block kept: a text file is streamed."""
    names: set[str] = set()
    prose: set[str] = set()
    size = 0
    for block in blocks:
        if block.verbatim:
            code = block.text
        else:
            # Inline literals, and the commands a text file writes in its sentences (doctrans.verbatim's
            # code spans of more than one word: "run fastkv snapshot --compress zstd" names fastkv,
            # which "fastkv serve accepts…" wrote 快速的kv).
            code = "\n".join(s.text.strip("`") for s in find_spans(block.text)
                              if s.kind == "literal" or (s.kind == "code" and " " in s.text))
            prose.update(w.lower() for w in _PROSE_WORD.findall(block.text))
        if size <= _MAX_CODE_CHARS:
            names |= names_in_code(code)
            size += len(code)
    return frozenset(names & prose)


def keeping_code_names(translator: Translator, blocks: Iterable[Block]) -> Translator:
    """``translator`` keeping the names of the document's code as written (through its glossary:
    the user's terms come first); ``translator`` itself when the code names none or the engine
    takes no glossary."""
    names = code_names(blocks)
    with_glossary = getattr(translator, "with_glossary", None)
    if not names or with_glossary is None:
        return translator
    glossary = translator.glossary or Glossary([])
    return with_glossary(glossary.with_kept(names))
