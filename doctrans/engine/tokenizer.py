"""SentencePiece tokenization for the engine (ids without specials; the engine adds EOS/BOS)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import sentencepiece as spm

from doctrans.engine.errors import BundleError
from doctrans.engine.repeats import RepeatGuard, han_doubles
from doctrans.language_id import base_language

# Target languages written with Han characters (a translation into any other bans them).
HAN_LANGUAGES = ("zh", "ja", "yue", "lzh", "wuu")
_HAN_LEAD_BYTES = {f"<0x{b:02X}>" for b in range(0xE3, 0xEA)}


class Tokenizer:
    def __init__(self, path: Path, vocab_size: int):
        try:
            self.sp = spm.SentencePieceProcessor(model_file=str(path))
        except (OSError, RuntimeError) as e:
            raise BundleError(f"{path}: not a SentencePiece model ({str(e).splitlines()[0]})") from None
        # The exported embedding has vocab_size rows; a different spm model would index past it
        # or silently mean different words.
        if len(self.sp) > vocab_size:
            raise BundleError(f"{path}: SentencePiece model has {len(self.sp)} pieces, "
                              f"the model's vocabulary only {vocab_size}")
        self.vocab_size = vocab_size
        self._guards: dict[int, RepeatGuard] = {}
        self._digits: np.ndarray | None = None
        self._han: np.ndarray | None = None
        self._placeholders: np.ndarray | None = None
        self._pieces: list[str] | None = None

    def all_pieces(self) -> list[str]:
        """Every piece of the vocabulary by id (read once: the bans and the stutter guard scan them)."""
        if self._pieces is None:
            self._pieces = [self.sp.id_to_piece(i) for i in range(len(self.sp))]
        return self._pieces

    def encode(self, text: str) -> list[int]:
        return list(self.sp.encode(text))

    def decode(self, ids: list[int]) -> str:
        return self.sp.decode(ids)

    def piece_id(self, piece: str) -> int:
        """The id of one piece (a direction tag like ``<2en>``); the unk id if the model lacks it."""
        return int(self.sp.piece_to_id(piece))

    def placeholder_count(self) -> int:
        """How many verbatim placeholders (``⦅1⦆``, ``⦅2⦆``... as one piece each) the vocabulary has:
        0 for a model trained before they joined the SentencePiece user symbols, which has never
        seen them and could not copy them (doctrans.verbatim)."""
        from doctrans.verbatim import MAX_PLACEHOLDERS, placeholder

        unk = self.sp.unk_id()
        n = 0
        while n < MAX_PLACEHOLDERS and self.sp.piece_to_id(placeholder(n + 1)) != unk:
            n += 1
        return n

    def placeholder_ids(self) -> np.ndarray:
        """The ids of ``⦅1⦆``, ``⦅2⦆``... (as many as the vocabulary has)."""
        if self._placeholders is None:
            from doctrans.verbatim import placeholder

            self._placeholders = np.array([self.sp.piece_to_id(placeholder(k + 1))
                                           for k in range(self.placeholder_count())], dtype=np.int64)
        return self._placeholders

    def search_bans(self, source_ids: Sequence[int], new_digits: bool = False,
                    tgt_lang: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(never, once) for the search of a translation of ``source_ids``: the pieces it must not
        write (placeholders the source does not have -- the models invented ``⦅9⦆`` for a
        sentence with three --, unless ``new_digits`` :meth:`new_digits_banned`, and into a
        language not written in Han characters :meth:`han_ids`) and the pieces it may write once
        only (the source's placeholders: the models wrote one span two or three times in a list of
        figures, ``5.3% 4.7%, ⦅2⦆, ⦅2⦆``)."""
        marks = self.placeholder_ids()
        present = np.isin(marks, np.asarray(source_ids, dtype=np.int64))
        never = marks[~present]
        if not new_digits:
            never = np.union1d(never, self.new_digits_banned(source_ids))
        if tgt_lang is not None and base_language(tgt_lang) not in HAN_LANGUAGES:
            # Appended, not merged: the search only masks these ids, and a sorted union of ~8,000
            # cost ~1.5 ms a sentence.
            never = np.concatenate([never, self.han_ids()])
        return never, marks[present]

    def han_ids(self) -> np.ndarray:
        """Every piece that writes a Han character, and the byte pieces that start one in UTF-8
        (0xE3-0xE9: U+3000-U+9FFF). A bidirectional model shares one vocabulary for both languages
        and copied source words into English (``双击 setup.exe`` came back ``双击 setup.exe, …``);
        an English translation never needs them (names and quoted spans are put back after the
        search, from the source)."""
        if self._han is None:
            pieces = self.all_pieces()
            self._han = np.array([i for i, p in enumerate(pieces)
                                  if any("\u3000" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in p)
                                  or p in _HAN_LEAD_BYTES], dtype=np.int64)
        return self._han

    def digit_ids(self) -> np.ndarray:
        """Every piece that writes a digit (placeholders and control pieces excluded)."""
        if self._digits is None:
            pieces = self.all_pieces()
            self._digits = np.array([i for i, p in enumerate(pieces) if any(c.isdigit() for c in p)
                                     and not p.startswith(("\u2985", "<")) and not self.sp.is_control(i)],
                                    dtype=np.int64)
        return self._digits

    def new_digits_banned(self, source_ids: Sequence[int]) -> np.ndarray:
        """The pieces a translation of ``source_ids`` must not write: every digit piece when the
        source (as the model reads it: figures masked) has no digit, so the output cannot invent a
        figure (the small models wrote ``,,0000,00,`` into subtitles without a number); none else."""
        digits = self.digit_ids()
        if np.isin(np.asarray(source_ids, dtype=np.int64), digits).any():
            return digits[:0]
        return digits

    def repeat_guard(self, max_run: int) -> RepeatGuard | None:
        """The search's stutter guard for runs longer than ``max_run`` (0: none), built once per
        value and shared by every document and direction of the bundle."""
        if max_run <= 0:
            return None
        if max_run not in self._guards:
            pieces = self.all_pieces()
            self._guards[max_run] = RepeatGuard(pieces + [""] * (self.vocab_size - len(pieces)), max_run,
                                                doubles=han_doubles())
        return self._guards[max_run]

    def pieces(self, ids: list[int]) -> list[str]:
        return [self.sp.id_to_piece(i) for i in ids]
