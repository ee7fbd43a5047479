"""Stutter guard for the beam search: no word piece, no Chinese character, many times in a row.

Small models stutter: the shipped en→zh model wrote ``何何何何不告诉我吗`` and ``说说说`` in 128 of
the 1,086 TVsub dev lines, where the references have such a run once. ``no_repeat_ngram`` cannot
stop it: a one-piece n-gram repeated four times is four different 4-grams of the same piece. This
guard bans, at each step of each hypothesis:

- the last piece again when it already ends the hypothesis ``max_run`` times, for pieces with two
  or more characters and a letter (``configconfigconfig``; single letters and digits repeat in
  real text: ``IEEE``, ``U+FFFD``, ``000``);
- any piece that would make a run of one Han character longer than ``max_run``, counted across
  pieces on the text the hypothesis spells (``节`` + ``节节`` is a run of three). A piece that holds
  such a run itself (a learned ``哈哈哈``) is never banned: the vocabulary learned it from data.

Twice in a row is allowed only for the Han characters real Chinese doubles (doctrans/data/han_doubles.txt,
built by training.han_doubles from the training corpora: 谢谢, 妈妈, 看看, 慢慢, 天天; 291 characters):
the others may not follow themselves at all. The GPU en->zh model wrote ``行行``, ``组组``, ``表表``,
``路路``, ``将将`` in pydocs/django dev (81 output lines with a doubled character, 19 in the
references) and ``商商业业`` in a news story.

How often real text breaks the rule at ``max_run = 2``: 144 of 266,842 TVsub training lines
(``不不不``, ``别别别``: 0.05%), none of the pydocs and django training and dev sides.

With ``echo`` (the default) it also bans a word said twice in a row: the last piece again when it
is a word (two or more characters, a letter or Han character: ``编写编写``, ``▁the ▁the``), and the
piece that would repeat the last two or three pieces at once when they are all words (``与相关与
相关``, ``代码和代码和``). The shipped en→zh model did so in 32 of 191 pydocs dev lines (``编写编写的
asyncio 应用程序``, ``执行执行``, ``libraryary``), the references in 0.2–0.5% of lines (pydocs,
django, TVsub Chinese; mostly code such as ``long long`` and ``xxx``, which the engine masks, and
dialogue's ``好吧好吧``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache

import numpy as np

from doctrans.data_lists import data_lines

SPACE = "\u2581"  # SentencePiece's word-start mark: the piece begins with a space


def is_han(ch: str) -> bool:
    """A Han ideograph (CJK Unified Ideographs and extension A): the characters a zh model stutters on."""
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def _lead_run(text: str) -> int:
    n = 1
    while n < len(text) and text[n] == text[0]:
        n += 1
    return n


@cache
def han_doubles() -> frozenset[str]:
    """The Han characters real Chinese writes twice in a row (doctrans/data/han_doubles.txt)."""
    return frozenset(data_lines("han_doubles.txt"))


class RepeatGuard:
    """What the search must not write next, for ``max_run`` >= 1 (see the module docstring).
    ``doubles``: the Han characters that may run ``max_run`` times; any other runs once (None:
    every character may run ``max_run`` times)."""

    def __init__(self, pieces: Sequence[str], max_run: int, echo: bool = True,
                 doubles: Collection[str] | None = None):
        if max_run < 1:
            raise ValueError(f"max_run must be >= 1, got {max_run}")
        self.max_run = max_run
        self.echo = echo
        self.doubles = None if doubles is None else frozenset(doubles)
        # Surface text of each piece; "" for control, byte and placeholder pieces (they break a run).
        self.surface = [p.replace(SPACE, " ") if not (p.startswith("<") and p.endswith(">")) else "" for p in pieces]
        self.wordlike = np.array([len(s.strip()) >= 2 and any(c.isalpha() for c in s) for s in self.surface])
        # Pieces of a word for the echo of two or three pieces: a letter or Han character in them.
        self.lettered = np.array([any(c.isalpha() for c in s) for s in self.surface])
        starts: dict[str, tuple[list[int], list[int]]] = {}
        for i, s in enumerate(self.surface):
            if s and is_han(s[0]):
                ids, runs = starts.setdefault(s[0], ([], []))
                ids.append(i)
                runs.append(_lead_run(s))
        # Per Han character: the pieces that start with it, and with how many of it.
        self.starts = {c: (np.array(ids, dtype=np.int64), np.array(runs)) for c, (ids, runs) in starts.items()}

    def _echoes(self, seq: Sequence[int]) -> list[np.ndarray]:
        """The pieces that would say the last word (one piece) or the last two or three pieces
        (all lettered) twice in a row."""
        out = []
        if seq and self.wordlike[seq[-1]]:
            out.append(np.array([seq[-1]], dtype=np.int64))
        for n in (2, 3):
            # seq ends with X + X[:-1], X of n pieces: X[-1] would complete X X.
            if len(seq) >= 2 * n - 1:
                first = seq[len(seq) - 2 * n + 1:len(seq) - n + 1]
                if list(first[:-1]) == list(seq[len(seq) - n + 1:]) and all(self.lettered[t] for t in first):
                    out.append(np.array([first[-1]], dtype=np.int64))
        return out

    def tail_run(self, seq: Sequence[int]) -> tuple[str, int]:
        """(the Han character the hypothesis ends with, how many times in a row), or ("", 0)."""
        char, run = "", 0
        for tok in reversed(seq):
            s = self.surface[tok] if 0 <= tok < len(self.surface) else ""
            if not s or not is_han(s[-1]) or (char and s[-1] != char):
                break
            char = s[-1]
            k = len(s) - len(s.rstrip(char))
            run += k
            if k < len(s):  # the piece has something else before the run: the run starts inside it
                break
        return char, run

    def banned(self, seq: Sequence[int]) -> np.ndarray:
        """Token ids the hypothesis ``seq`` (without BOS) must not continue with."""
        out: list[np.ndarray] = []
        m = self.max_run
        if len(seq) >= m and self.wordlike[seq[-1]] and all(t == seq[-1] for t in seq[-m:]):
            out.append(np.array([seq[-1]], dtype=np.int64))
        if self.echo:
            out.extend(self._echoes(seq))
        char, run = self.tail_run(seq)
        if run and char in self.starts:
            ids, runs = self.starts[char]
            limit = m if self.doubles is None or char in self.doubles else 1
            out.append(ids[runs >= limit + 1 - run])
        if not out:
            return np.empty(0, dtype=np.int64)
        return np.concatenate(out) if len(out) > 1 else out[0]
