"""Fuzzy translation-memory matches (issue 19, deliverable 3 for memory-only bundles): the CAT-tool
percentage over normalised keys, found through the store's FTS5 trigram index, and offered by a
run's TM as suggestions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from doctrans.tm import TMStore
from doctrans.tm.fuzzy import STRETCHES, length_bounds, score, stretch_queries, trigrams
from doctrans.tm.run import RunTM

PAIRS = [
    ("The printer must be switched off before the cover is opened.",
     "Der Drucker muss ausgeschaltet werden, bevor die Abdeckung geöffnet wird."),
    ("The scanner must be switched off before the cover is opened.",
     "Der Scanner muss ausgeschaltet werden, bevor die Abdeckung geöffnet wird."),
    ("Replace the toner cartridge when the warning light flashes.",
     "Ersetzen Sie die Tonerkartusche, wenn die Warnleuchte blinkt."),
    ("Our quarterly revenue grew by twelve percent.", "Unser Quartalsumsatz wuchs um zwölf Prozent."),
]


@pytest.fixture
def store() -> TMStore:
    s = TMStore(":memory:")
    s.add(PAIRS, "en", "de")
    return s


def test_score_is_the_cat_tool_percentage() -> None:
    assert score("abcdefghij", "abcdefghij") == 100.0
    assert score("abcdefghij", "abcdefghiX") == pytest.approx(90.0)  # one substitution in ten
    assert score("abcdefghij", "abcde") == pytest.approx(50.0)  # five deletions in ten
    assert score("", "") == 100.0


def test_length_bounds_hold_every_key_that_can_reach_the_threshold() -> None:
    lo, hi = length_bounds(100, 70.0)
    assert lo <= 70 and hi >= 142
    assert score("a" * 100, "a" * (lo - 1)) < 70 <= score("a" * 100, "a" * 70)


def test_near_sentence_finds_its_match_best_first_with_score(store: TMStore) -> None:
    found = store.fuzzy("The printer must be switched off before the lid is opened.", "en", "de")
    assert [m.source for m in found] == [PAIRS[0][0], PAIRS[1][0]]  # the printer before the scanner
    assert found[0].target == PAIRS[0][1]
    assert 85 < found[0].score < 100 and found[0].score > found[1].score
    assert found[0].label() == f"TM {int(found[0].score)}%"


def test_threshold_limit_and_language_pair(store: TMStore) -> None:
    q = "The printer must be switched off before the lid is opened."
    assert len(store.fuzzy(q, "en", "de", limit=1)) == 1
    assert store.fuzzy(q, "en", "de", threshold=99) == []
    assert store.fuzzy(q, "en", "fr") == []  # same text, other target language: not a match
    assert store.fuzzy(q, "en-GB", "de-AT")  # languages compare by their primary subtag
    assert store.fuzzy("Something else entirely, about the weather in spring.", "en", "de") == []


def test_exact_match_scores_100_after_normalisation(store: TMStore) -> None:
    found = store.fuzzy("  Our quarterly revenue   grew by twelve percent. ", "en", "de")
    assert found[0].score == 100.0 and found[0].target == PAIRS[3][1]


def test_chinese_without_spaces() -> None:
    s = TMStore(":memory:")
    s.add([("请在打开盖子之前关闭打印机电源。", "Turn off the printer before opening the cover."),
           ("今天天气很好。", "The weather is nice today.")], "zh", "en")
    found = s.fuzzy("请在打开盖子之前关闭扫描仪电源。", "zh", "en")
    assert [m.target for m in found] == ["Turn off the printer before opening the cover."]
    assert 70 <= found[0].score < 100


def test_index_follows_additions_and_replacements(store: TMStore) -> None:
    q = "Clean the paper tray once a month with a dry cloth!"
    assert store.fuzzy(q, "en", "de") == []  # builds the index
    store.add([("Clean the paper tray once a month with a dry cloth.", "Reinigen Sie das Papierfach monatlich.")],
              "en", "de")
    assert [m.target for m in store.fuzzy(q, "en", "de")] == ["Reinigen Sie das Papierfach monatlich."]
    # The same source again: its translation is replaced, not listed twice.
    store.add([("Clean the paper tray once a month with a dry cloth.", "Papierfach monatlich reinigen.")],
              "en", "de")
    assert [m.target for m in store.fuzzy(q, "en", "de")] == ["Papierfach monatlich reinigen."]
    df = dict(store.db.execute("SELECT gram, df FROM fuzzy_grams"))
    assert df["pap"] == 1  # the replaced segment's trigrams are counted once


def test_store_written_before_the_fuzzy_index_existed(tmp_path: Path) -> None:
    # A local TM from an earlier doctrans: segments only; the first fuzzy lookup builds the index.
    path = tmp_path / "tm.sqlite"
    s = TMStore(path)
    s.add(PAIRS, "en", "de")
    s.close()
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert "fuzzy_index" not in tables
    again = TMStore(path)
    assert again.fuzzy("Replace the toner cartridge when the warning lamp flashes.", "en", "de")[0].target == \
        PAIRS[2][1]
    again.close()
    assert TMStore(path).fuzzy("Replace the toner cartridge when the red light flashes.", "en", "de")


def test_queries_cover_every_stretch_of_the_sentence() -> None:
    # A rare word at the start must not take every query: one changed word would leave none.
    key = "zyxwvu and then the rest of this ordinary sentence goes on for a while longer"
    grams = trigrams(key)
    frequency = {g: (1 if i < 4 else 1000 + i) for i, g in enumerate(grams)}
    queries = stretch_queries(grams, frequency)
    assert len(queries) == STRETCHES
    assert all(q.count(" AND ") == 1 for q in queries)
    last = grams[len(grams) * (STRETCHES - 1) // STRETCHES:]
    assert any(g in queries[-1] for g in last)  # the last query asks for the end of the sentence
    assert stretch_queries(grams, {}) == []
    assert stretch_queries(['a"b'], {'a"b': 1}) == ['"a""b"']  # quotes cannot break the query

def test_run_tm_suggests_from_tm_files(tmp_path: Path) -> None:
    csv = tmp_path / "tm.csv"
    csv.write_text("en,de\n" + "".join(f'"{s}","{t}"\n' for s, t in PAIRS), encoding="utf-8")
    run = RunTM([csv])
    suggest = run.suggest("en", "de")
    assert suggest is not None
    found = suggest("The scanner must be switched off before the lid is opened.")
    assert found[0].source == PAIRS[1][0]
    assert RunTM([]).suggest("en", "de") is None


def test_cli_tm_search_local_and_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from doctrans import cli

    monkeypatch.setenv("DOCTRANS_TM_DIR", str(tmp_path / "local"))
    runner = CliRunner()
    q = "The printer must be switched off before the lid is opened."
    r = runner.invoke(cli.app, ["tm", "search", q, "--src", "en", "--tgt", "de"])
    assert r.exit_code == 0 and "no translation memory yet" in r.output
    csv = tmp_path / "tm.csv"
    csv.write_text("en,de\n" + "".join(f'"{s}","{t}"\n' for s, t in PAIRS), encoding="utf-8")
    assert runner.invoke(cli.app, ["tm", "add", str(csv), "--src", "en", "--tgt", "de"]).exit_code == 0
    r = runner.invoke(cli.app, ["tm", "search", q, "--src", "en", "--tgt", "de", "--limit", "1"])
    assert r.exit_code == 0
    label, source, target = r.output.strip().split("\t")
    assert label == "TM 91%" and (source, target) == PAIRS[0]  # "cover" -> "lid": 5 edits in 59
    r = runner.invoke(cli.app, ["tm", "search", q, "--src", "en", "--tgt", "de", "--tm", str(csv), "--threshold", "99"])
    assert r.exit_code == 0 and "no match of 99% or more" in r.output
    r = runner.invoke(cli.app, ["tm", "search", q, "--src", "en", "--tgt", "de", "--tm", str(tmp_path / "nope.csv")])
    assert r.exit_code != 0 and "Traceback" not in r.output
