"""Paired bootstrap between two systems' dev translations (training.significance)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from training.data import DataError
from training.evaluate import load_references
from training.significance import main, paired_bootstrap, read_hypotheses

WORDS = ["the", "a", "cat", "dog", "sat", "ran", "on", "under", "mat", "table", "red", "blue", "big", "small",
         "house", "garden"]


def _corpus(tmp_path: Path) -> tuple[Path, list[list[str]]]:
    rng = random.Random(3)
    docs = [[" ".join(rng.choice(WORDS) for _ in range(8)) + " ." for _ in range(40)] for _ in range(2)]
    data = tmp_path / "dev.jsonl"
    data.write_text("".join(json.dumps({"id": str(i), "xx": d, "en": d}) + "\n" for i, d in enumerate(docs)))
    return data, docs


def _damage(docs: list[list[str]], share: float, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [[" ".join(w if rng.random() > share else rng.choice(WORDS) for w in s.split()) for s in d] for d in docs]


def _write(path: Path, docs: list[list[str]]) -> Path:
    path.write_text("\n\n".join("\n".join(d) for d in docs) + "\n", encoding="utf-8")
    return path


def test_a_clearly_better_system_is_significant_and_an_equal_one_is_not(tmp_path: Path, capsys) -> None:
    data, refs = _corpus(tmp_path)
    weak, strong = _damage(refs, 0.5, 1), _damage(refs, 0.1, 2)
    similar = _damage(refs, 0.5, 5)  # as damaged as the baseline, other words: a noise-level gap
    rows = paired_bootstrap({"weak": weak, "strong": strong, "similar": similar}, refs, "en", samples=200)
    (_, b0, _, p0), (_, b1, _, p1), (_, b2, _, p2) = rows
    assert p0 is None and b1 > b0 + 20 and abs(b2 - b0) < 3
    assert p1 < 0.05 and p2 > 0.1

    base, system = _write(tmp_path / "a.hyp", weak), _write(tmp_path / "b.hyp", strong)
    assert main([str(base), str(system), "--data", str(data), "--src", "xx", "--tgt", "en", "--samples", "100"]) == 0
    out = capsys.readouterr().out
    assert "| baseline |" in out and f"| {tmp_path.name}/b.hyp |" in out
    # The first 50 sentences, as evaluate --max-sentences 50 translated them.
    head = [weak[0], weak[1][:10]], [strong[0], strong[1][:10]]
    args = ["--data", str(data), "--src", "xx", "--tgt", "en", "--samples", "100", "--max-sentences", "50"]
    assert main([str(_write(tmp_path / "c.hyp", head[0])), str(_write(tmp_path / "d.hyp", head[1])), *args]) == 0
    assert "resamples of 50 sentences" in capsys.readouterr().out


def test_hypotheses_are_split_by_the_reference_shape(tmp_path: Path) -> None:
    data, refs = _corpus(tmp_path)
    _, ref_docs = load_references(data, "xx", "en", None, None)
    hyps = [list(d) for d in refs]
    hyps[0][5] = ""  # an empty translation is a blank line, not a document break
    assert read_hypotheses(_write(tmp_path / "h.hyp", hyps), ref_docs) == hyps
    with pytest.raises(DataError, match="does not have the dev set's 80 sentences in 2 documents"):
        read_hypotheses(_write(tmp_path / "short.hyp", [refs[0]]), ref_docs)


def test_hypotheses_with_line_breaks_round_trip_with_the_same_scores(tmp_path: Path) -> None:
    """A documentation paragraph's translation can span lines; the --out file must still read back
    as one hypothesis per reference, scored exactly as evaluate scored it in memory."""
    from training.evaluate import score, write_hypotheses

    _, refs = _corpus(tmp_path)
    hyps = [[s.replace(" ", "\n", 2) if i % 3 == 0 else s for i, s in enumerate(d)] for d in _damage(refs, 0.3, 5)]
    hyps[0][1] = "first line\r\nsecond line\n"
    out = tmp_path / "hyp.txt"
    write_hypotheses(out, hyps)
    back = read_hypotheses(out, refs)
    assert [len(d) for d in back] == [len(d) for d in refs]
    assert back[0][1] == "first line second line"
    assert score(back, refs, "en")[:2] == score(hyps, refs, "en")[:2]
