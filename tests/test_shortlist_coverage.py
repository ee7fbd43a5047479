"""benchmarks.shortlist_coverage's table and count on a tiny token cache (the numbers it prints
are measured on the real one: README, "Speed")."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks import shortlist_coverage as sc


def _cache(tmp_path: Path) -> Path:
    # Source piece 10 always comes with target 20; 11 with 21; target 5 is in every pair.
    pairs = [([10, 11], [20, 21, 5]), ([10], [20, 5]), ([11], [21, 5]), ([12], [5])]
    for corpus in sc.CORPORA:
        np.savez(tmp_path / f"{corpus}.train.npz",
                 zh_tokens=np.array([t for s, _ in pairs for t in s], np.uint16),
                 zh_lengths=np.array([len(s) for s, _ in pairs], np.uint16),
                 en_tokens=np.array([t for _, t in pairs for t in t], np.uint16),
                 en_lengths=np.array([len(t) for _, t in pairs], np.uint16))
    return tmp_path


def test_each_source_piece_gets_its_translations_by_dice(tmp_path: Path) -> None:
    order = sc.lexical_order(_cache(tmp_path), "zh", "en", 32)
    lex = sc.lexical_table(order, 1)
    assert lex[10].tolist() == [20] and lex[11].tolist() == [21] and lex[12].tolist() == [5]
    assert order[2][5] == 4 * len(sc.CORPORA)  # every target piece's count


def test_coverage_counts_what_the_shortlist_lacks(tmp_path: Path) -> None:
    lex = sc.lexical_table(sc.lexical_order(_cache(tmp_path), "zh", "en", 32), 1)
    always = {2, 5}  # EOS and the most frequent piece
    tok, whole, median, _ = sc.coverage([([10], [20, 5]), ([11], [20])], lex, always, eos=2)
    # 20 is not 11's: the second translation (20 + EOS) misses one piece of two.
    assert (tok, whole) == (1 - 1 / 5, 0.5) and median == 4
