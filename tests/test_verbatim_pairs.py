"""Training pairs masked for placeholder copying (training.verbatim_pairs) and the cache built with it."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import numpy as np
import sentencepiece as spm

from doctrans.verbatim import placeholder
from training.prepare_data import main as prepare_main
from training.verbatim_pairs import chosen, mask_pair, mask_pairs

P1, P2, P3 = placeholder(1), placeholder(2), placeholder(3)


def test_spans_on_both_sides_get_the_same_placeholder_numbered_in_source_order():
    m = mask_pair("2024年3月15日发布v2.1.0", "v2.1.0 was released on March 15, 2024.")
    # 3 (the month) is not in the English: it stays a digit on the source side.
    assert m.src == f"{P1}年3月{P2}日发布{P3}"
    assert m.tgt == f"{P3} was released on March {P2}, {P1}."
    assert m.placeholders == 3


def test_a_span_missing_from_the_target_is_not_masked():
    m = mask_pair("共3个苹果，见 https://x.org", "three apples, see https://x.org")
    assert m.src == f"共3个苹果，见 {P1}"
    assert m.tgt == f"three apples, see {P1}"


def test_occurrences_pair_in_order_and_unequal_counts_are_left_alone():
    m = mask_pair("320 和 320 与 10", "320 and 320 with 10 and 10")
    assert m.src == f"{P1} 和 {P2} 与 10"
    assert m.tgt == f"{P1} and {P2} with 10 and 10"


def test_nothing_shared_leaves_the_pair_untouched():
    m = mask_pair("你好", "hello")
    assert (m.src, m.tgt, m.placeholders) == ("你好", "hello", 0)


def test_the_masked_fraction_is_reproducible_and_about_as_asked():
    src = [f"第{i}号 item_{i}" for i in range(2000)]
    tgt = [f"item_{i} number {i}" for i in range(2000)]
    a_src, a_tgt, pairs, placeholders = mask_pairs(src, tgt, fraction=0.5, seed=7)
    assert 850 < pairs < 1150
    assert placeholders == 2 * pairs
    assert (a_src, a_tgt) == mask_pairs(src, tgt, fraction=0.5, seed=7)[:2]
    # A pair's fate depends on its text, not on its position in the corpus.
    assert chosen(src[5], tgt[5], 0.5, 7) == (a_src[5] != src[5])
    assert mask_pairs(src[::-1], tgt[::-1], 0.5, 7)[0][::-1] == a_src
    assert mask_pairs(src, tgt, fraction=0.0)[2] == 0
    assert mask_pairs(src, tgt, fraction=1.0)[2] == 2000


def _write(path: Path, docs: list[tuple[list[str], list[str]]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(path, "wt", encoding="utf-8") as f:
        for i, (zh, en) in enumerate(docs):
            f.write(json.dumps({"id": f"d{i}", "zh": zh, "en": en}, ensure_ascii=False) + "\n")


def test_the_cache_masks_training_pairs_but_never_dev_and_rebuilds_when_the_setting_changes(tmp_path):
    words = ["猫", "狗", "房子", "树", "鸟", "鱼"]
    docs = [([f"{w}有{i}只，见 v{i}.0.1" for w in words], [f"{i} {w}s, see v{i}.0.1" for w in words])
            for i in range(40)]
    data = tmp_path / "data"
    _write(data / "tvsub-zh-en" / "train.jsonl.xz", docs)
    _write(data / "tvsub-zh-en" / "dev.jsonl.xz", docs[:3])
    out = tmp_path / "cache"
    args = ["--data", str(data), "--out", str(out), "--corpora", "tvsub-zh-en", "--vocab-size", "400",
            "--threads", "1"]
    assert prepare_main([*args, "--mask-fraction", "0.5"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["masking"]["fraction"] == 0.5
    entry = manifest["files"]["tvsub-zh-en.train.npz"]
    assert 40 < entry["masked_pairs"] < 200 and entry["placeholders"] == 2 * entry["masked_pairs"]
    assert "masked_pairs" not in manifest["files"]["tvsub-zh-en.dev.npz"]

    sp = spm.SentencePieceProcessor(model_file=str(out / "spm.model"))
    p1, p2 = sp.piece_to_id(P1), sp.piece_to_id(P2)
    assert p1 != sp.unk_id()

    def count(name: str, side: str, piece: int) -> int:
        with np.load(out / name) as z:
            return int((z[f"{side}_tokens"] == piece).sum())

    for side in ("zh", "en"):  # one placeholder pair per masked sentence pair: the number and the version
        assert count("tvsub-zh-en.train.npz", side, p1) == entry["masked_pairs"]
        assert count("tvsub-zh-en.train.npz", side, p2) == entry["masked_pairs"]
        assert count("tvsub-zh-en.dev.npz", side, p1) == 0

    # Another fraction: the training file is rebuilt (fewer placeholders), the dev file kept.
    dev_before = (out / "tvsub-zh-en.dev.npz").stat().st_mtime_ns
    assert prepare_main([*args, "--mask-fraction", "0"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["masking"] is None
    assert count("tvsub-zh-en.train.npz", "zh", p1) == 0
    assert (out / "tvsub-zh-en.dev.npz").stat().st_mtime_ns == dev_before
