"""No finished work is thrown away: a late error saves progress, a writer failure keeps the
translation, checkpoints are written during the run (issue 16, defects 1, 2, 4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from doctrans import cli
from doctrans.errors import DocumentError
from doctrans.progress_store import Checkpointer, SavedProgress, clean_stale_temps, temp_prefix
from doctrans.translate_job import progress_path, translate_file
from tests.fakes import FakeTranslator

runner = CliRunner()
TEXT = "".join(f"Sentence number {i} is here. Another one {i}!\n\n" for i in range(20))


class FailsAt(FakeTranslator):
    def __init__(self, at: int, exc: Exception):
        super().__init__()

        def fn(s: str) -> str:
            if len(self.calls) > at:
                raise exc
            return s.upper()

        self.fn = fn


@pytest.mark.parametrize("exc", [DocumentError("late decode error"), RuntimeError("engine exploded")])
def test_late_error_saves_progress_then_resume_finishes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        exc: Exception) -> None:
    src = tmp_path / "doc.txt"
    src.write_text(TEXT)
    out = tmp_path / "out.txt"
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: FailsAt(31, exc))
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(out)])
    assert result.exit_code == (2 if isinstance(exc, DocumentError) else 1)
    line = result.stderr.strip().splitlines()[-1]
    assert str(exc) in line and "progress saved" in line and "31 sentences" in line and "--resume" in line
    assert len(SavedProgress.load(progress_path(out)).translations) == 31
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]

    fresh = FakeTranslator()
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: fresh)
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(out), "--resume"])
    assert result.exit_code == 0, result.stderr
    assert "31 resumed" in result.stdout and len(fresh.calls) == 40 - 31
    assert out.read_text() == TEXT.upper()


def test_writer_failure_falls_back_to_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Latin-1 text translated into Chinese cannot be written in Latin-1: the txt writer fails
    half-way; the translation goes to a UTF-8 text next to it, and the error says so."""
    src = tmp_path / "doc.txt"
    src.write_bytes(("Café au lait. " * 3 + "\n\n").encode("latin-1") * 5 + b"Fin\xe9.\n")
    out = tmp_path / "out.txt"
    tr = FakeTranslator(fn=lambda s: "咖啡。", tgt_lang="zh")
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: tr)
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(out)])
    assert result.exit_code == 2
    line = result.stderr.strip()
    alt = tmp_path / "out.txt.txt"
    assert line.startswith("error: ") and "UnicodeEncodeError" in line and str(alt) in line and "instead" in line
    assert alt.read_text(encoding="utf-8").count("咖啡。") == 16
    assert len(tr.calls) == 16  # nothing translated twice for the fallback
    assert not out.exists() and not progress_path(out).exists()


def test_checkpointer_saves_on_interval_and_bounds_its_cost(tmp_path: Path) -> None:
    now = [0.0]
    made: list[int] = []

    def state() -> SavedProgress:
        made.append(1)
        now[0] += 0.5  # each save "takes" half a second
        return SavedProgress("x", "en", "de", ["a"], [1], None)

    cp = Checkpointer(tmp_path / "p.npz", state, interval=2.0, clock=lambda: now[0])
    cp.tick()
    assert cp.saves == 0
    now[0] = 2.0
    cp.tick()
    assert cp.saves == 1  # interval reached
    now[0] = 4.6
    cp.tick()
    assert cp.saves == 1  # a 0.5 s save waits 10 x 0.5 s, not the 2 s interval
    now[0] = 7.6
    cp.tick()
    assert cp.saves == 2
    assert SavedProgress.load(tmp_path / "p.npz").translations == ["a"]


def test_stale_temps_of_dead_runs_are_removed_live_ones_kept(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    dead = tmp_path / ".out.txt.999999999-abc.tmp"  # no such pid
    mine = tmp_path / f"{temp_prefix(out)}def.tmp"
    other = tmp_path / ".other.txt.999999999-abc.tmp"
    for p in (dead, mine, other):
        p.write_text("x")
    assert clean_stale_temps(out) == [dead]
    assert mine.exists() and other.exists() and not dead.exists()


def test_checkpoint_written_during_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With interval 0 the progress file exists while the engine is still translating."""
    monkeypatch.setenv("DOCTRANS_PROGRESS_SECONDS", "0")
    src = tmp_path / "doc.txt"
    src.write_text(TEXT)
    out = tmp_path / "out.txt"
    seen: dict[str, int] = {}  # the fake calls fn twice per sentence: the first call counts

    def fn(s: str) -> str:
        p = progress_path(out)
        seen.setdefault(s, len(SavedProgress.load(p).translations) if p.exists() else 0)
        return s.upper()

    translate_file(src, out, FakeTranslator(fn=fn))
    assert list(seen.values()) == list(range(40))
    assert not progress_path(out).exists()  # removed after success
