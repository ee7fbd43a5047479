"""Made-up English words in a translation (doctrans.english_words) and the list they are read
against (training.english_words)."""

from __future__ import annotations

import lzma
from pathlib import Path

from doctrans.engine.protect import prepare
from doctrans.english_words import english_words, made_up_words
from tests.zh_en_corpora import write_training_document
from training import english_words as builder


def test_the_shipped_list_holds_the_words_of_the_training_pairs() -> None:
    words = english_words()
    assert len(words) > 40000
    assert {"occupied", "volume", "liquidated", "the"} <= words
    assert not {"occupted", "cancelments", "volum"} & words


def test_a_made_up_word_is_one_in_small_letters_that_neither_english_nor_the_source_writes() -> None:
    """端口8080已被其他程序占用 came back "port 8080 has been occupted by other programs"."""
    assert made_up_words("端口8080已被其他程序占用", "port 8080 has been occupted by other programs") == {"occupted"}
    assert made_up_words("这是自助餐", "It's a self-servation.") == {"servation"}
    # A name in capitals, a word the source writes, code and short words are no made-up words.
    assert made_up_words("林晓月说", "Xiaoyue said.") == frozenset()
    assert made_up_words("运行 frobnicate 命令", "Run the frobnicate command.") == frozenset()
    assert made_up_words("见文件", "See path/to/fooz and foo.barz or abc.") == frozenset()


def test_the_engine_keeps_a_hypothesis_without_a_made_up_word() -> None:
    prep = prepare("端口8080已被其他程序占用。", 16, tgt_lang="en", src_lang="zh")
    hyps = ["Port ⦅1⦆ has been occupted by other programs.", "Port ⦅1⦆ has been occupied by other programs."]
    assert prep.pick(hyps, lambda h: h) == hyps[1]
    assert prep.pick(hyps[:1], lambda h: h) == hyps[0]  # none without it: the best


def test_the_list_is_built_from_the_training_pairs(tmp_path: Path) -> None:
    doc = {"en": ["The cat sat.", "The cat ran.", "The dog sat."], "zh": ["猫坐着。", "猫跑了。", "狗坐着。"]}
    write_training_document(tmp_path, doc)
    words = builder.count_words(tmp_path)
    out = tmp_path / "english_words.txt.xz"
    # Each corpus holds the document once: three corpora, "cat" twice each.
    assert builder.write_words(words, 6, out) == 3
    text = lzma.decompress(out.read_bytes()).decode("utf-8")
    assert [line for line in text.splitlines() if not line.startswith("#")] == ["cat", "sat", "the"]
