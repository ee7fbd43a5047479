"""SIGTERM, SIGHUP, kill -9 and a double Ctrl-C on a real ``doctrans translate`` child process,
then ``--resume``: the output must be byte-identical to an uninterrupted run (issue 16, defect 1).

The child (tests/cli_child.py) runs the real CLI with a fake engine whose translations number
the sentences from its memory, so a resume that lost, repeated or mis-restored anything shows.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from doctrans.progress_store import SavedProgress
from doctrans.translate_job import progress_path, translate_file
from tests.bad_inputs import GOOD_BODY, docx_bytes
from tests.cli_child import CountingTranslator

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = 60


def _source(tmp: Path, suffix: str) -> Path:
    src = tmp / f"doc{suffix}"
    if suffix == ".txt":
        src.write_text("".join(f"Sentence number {i} is here. Another one {i}!\n\n" for i in range(SENTENCES // 2)))
    else:
        src.write_bytes(docx_bytes(GOOD_BODY * (SENTENCES // 24 + 1)))
    return src


def _child(*args: str, delay: float = 0.0) -> subprocess.Popen:
    env = {**os.environ, "DOCTRANS_TEST_DELAY": str(delay), "DOCTRANS_PROGRESS_SECONDS": "0",
           "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.cli_child", "translate", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_progress(progress: Path, at_least: int, proc: subprocess.Popen, timeout: float = 60) -> int:
    """Sentences in the progress file once it holds ``at_least`` (the child writes it as it goes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        if progress.exists():
            n = len(SavedProgress.load(progress).translations)  # atomic replace: never torn
            if n >= at_least:
                return n
        time.sleep(0.02)
    raise AssertionError("the child wrote no progress")


def _reference(tmp: Path, src: Path) -> bytes:
    ref = tmp / ("ref" + src.suffix)
    translate_file(src, ref, CountingTranslator(delay=0.0))
    return ref.read_bytes()


def _same_output(a: bytes, b: Path) -> bool:
    if b.suffix != ".docx":
        return a == b.read_bytes()
    import io

    with zipfile.ZipFile(io.BytesIO(a)) as za, zipfile.ZipFile(b) as zb:
        return za.namelist() == zb.namelist() and all(za.read(n) == zb.read(n) for n in za.namelist())


def _temps(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(("suffix", "sig"), [(".txt", signal.SIGTERM), (".docx", signal.SIGTERM),
                                             (".txt", signal.SIGHUP), (".txt", signal.SIGKILL),
                                             (".docx", signal.SIGKILL)])
def test_signal_then_resume_is_byte_identical(tmp_path: Path, suffix: str, sig: signal.Signals) -> None:
    src = _source(tmp_path, suffix)
    want = _reference(tmp_path, src)
    out = tmp_path / ("out" + suffix)
    progress = progress_path(out)
    before = src.read_bytes()

    proc = _child(str(src), "-o", str(out), delay=0.03)
    seen = _wait_for_progress(progress, 5, proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    saved = len(SavedProgress.load(progress).translations)
    assert saved >= seen >= 5 and saved < SENTENCES  # stopped mid-way, nothing lost that was saved
    assert not out.exists()
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
        assert _temps(tmp_path)  # kill -9 runs no cleanup: the half-written output is left...
    else:
        assert proc.returncode == 128 + sig
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: stopped by " + sig.name), err
        assert f"after {saved} sentences" in lines[0] and "--resume" in lines[0]
        assert not _temps(tmp_path)

    proc = _child(str(src), "-o", str(out), "--resume")
    stdout, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"resuming from {progress.name}: {saved} sentences" in err
    assert f"{saved} resumed" in stdout
    assert _same_output(want, out)
    assert not progress.exists()
    assert not _temps(tmp_path)  # ...and the next run removes it (its process is gone)
    assert src.read_bytes() == before


def test_double_ctrl_c_is_one_line(tmp_path: Path) -> None:
    src = _source(tmp_path, ".txt")
    out = tmp_path / "out.txt"
    proc = _child(str(src), "-o", str(out), delay=0.03)
    _wait_for_progress(progress_path(out), 3, proc)
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGINT)  # the second one arrives while the first is being handled
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: interrupted after"), err
    assert not _temps(tmp_path)


def test_resume_without_progress_file_says_so(tmp_path: Path) -> None:
    src = _source(tmp_path, ".txt")
    proc = _child(str(src), "-o", str(tmp_path / "out.txt"), "--resume")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert "no progress file" in err and "from the start" in err
