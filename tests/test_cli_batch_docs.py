"""``doctrans translate --batch-docs N``: several documents as the rows of one batch (issue 18).

With an fp32 bundle every output is byte for byte what one document after the other gives (txt,
docx built with python-docx, pdf built with reportlab), glossary, translation memory and --report
included; a failing document is one error line and the others are still written; Ctrl-C stops
every running document with its progress saved, and --resume in batched mode finishes them
exactly. The real ONNX engine on the tiny fp32 bundle in-process; real signals on a child process
with the fake engine (tests/cli_child.py), whose sentences the main thread runs one at a time.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import doctrans.engine.batch as engine_batch
from doctrans.cli import app
from doctrans.progress_store import SavedProgress
from doctrans.translate_job import progress_path
from tests.document_builders import make_docx, make_pdf
from tests.tiny_model import one_torch_thread, sentences

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _invariant_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """reportlab writes the time and a random document id into every PDF unless asked not to: the
    same translation written twice is then byte for byte the same file."""
    from reportlab import rl_config

    monkeypatch.setattr(rl_config, "invariant", 1)


def _documents(folder: Path) -> list[Path]:
    """Documents of different kinds and lengths: the rows of a batch end at different steps and
    later documents take the freed rows."""
    folder.mkdir()
    s = sentences(40, seed=11)
    long = folder / "long.txt"
    # One sentence a paragraph (the toy sentences, lower case after " .", are not split further).
    long.write_text("\n\n".join([*s[:12], "42", *s[12:20]]) + "\n", encoding="utf-8")
    short = folder / "short.txt"
    short.write_text(f"{s[20]}\n\n{s[21]}\n", encoding="utf-8")
    notes = folder / "notes.md"
    notes.write_text("# " + s[22] + "\n\n" + "\n".join(s[23:30]) + "\n\n```\ncode = 1\n```\n", encoding="utf-8")
    return [long, make_docx(folder / "report.docx"), short, make_pdf(folder / "paper.pdf"), notes]


def _same(a: Path, b: Path) -> bool:
    """Byte for byte; a docx as its parts (the zip entries' times are those of the writing)."""
    if a.suffix != ".docx":
        return a.read_bytes() == b.read_bytes()
    with zipfile.ZipFile(io.BytesIO(a.read_bytes())) as za, zipfile.ZipFile(b) as zb:
        return za.namelist() == zb.namelist() and all(za.read(n) == zb.read(n) for n in za.namelist())


def _run(docs: list[Path], out: Path, bundle: Path, *extra: str) -> Any:
    return runner.invoke(app, ["translate", *map(str, docs), "-o", str(out), "--model", str(bundle), "--src", "en",
                               "-q", *extra])


def _count_rows(monkeypatch: pytest.MonkeyPatch, fail: Callable[[int], None] | None = None) -> list[int]:
    """The rows of every batched step (``fail(step)`` may raise, as a signal handler would)."""
    rows: list[int] = []
    real = engine_batch.translate_rows

    def counting(sessions: Any, batch: Any) -> Any:
        rows.append(sum(x is not None for x in batch))
        if fail is not None:
            fail(len(rows))
        return real(sessions, batch)

    monkeypatch.setattr(engine_batch, "translate_rows", counting)
    return rows


@pytest.fixture(scope="module")
def reference(tiny_bundle: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Path]:
    """The documents and their outputs one document after the other (--batch-docs 1)."""
    tmp = tmp_path_factory.mktemp("ref")
    docs = _documents(tmp / "in")
    result = _run(docs, tmp / "one", tiny_bundle, "--batch-docs", "1")
    assert result.exit_code == 0, result.output
    return docs, tmp / "one"


def test_batched_outputs_are_byte_identical(tiny_bundle: Path, reference: tuple[list[Path], Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    docs, one = reference
    rows = _count_rows(monkeypatch)
    result = _run(docs, tmp_path / "out", tiny_bundle, "--batch-docs", "3")
    assert result.exit_code == 0, result.output
    assert max(rows) == 3 and min(rows) >= 1  # really batched, and rows came free as documents ended
    for doc in docs:
        assert _same(one / doc.name, tmp_path / "out" / doc.name), doc.name
        assert f"{doc} -> {tmp_path / 'out' / doc.name} (" in result.stdout
    assert len(result.stdout.splitlines()) == len(docs)
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]  # no temp or progress files


def test_glossary_tm_and_report_per_document(tiny_bundle: Path, reference: tuple[list[Path], Path],
                                             tmp_path: Path) -> None:
    """A glossary term, an exact TM match (forced into its document's memory while the other rows
    translate), the check's warnings for --report: the same per document as one at a time."""
    docs, _ = reference
    s = sentences(40, seed=11)
    glossary = tmp_path / "terms.csv"
    glossary.write_text("cat,KATZE\nhouse,HAUS\n", encoding="utf-8")
    tm = tmp_path / "tm.csv"
    tm.write_text(f"{s[1]},from the TM 7\n{s[21]},from the TM 99\n", encoding="utf-8")
    outputs = {}
    for n in ("1", "3"):
        report = tmp_path / f"report{n}.json"
        result = _run(docs, tmp_path / f"out{n}", tiny_bundle, "--batch-docs", n, "--glossary", str(glossary),
                      "--tm", str(tm), "--report", str(report))
        assert result.exit_code == 0, result.output
        assert "1 from the translation memory" in result.stdout
        outputs[n] = (result.stdout, report.read_bytes())
    for doc in docs:
        assert _same(tmp_path / "out1" / doc.name, tmp_path / "out3" / doc.name), doc.name
    assert "from the TM 99" in (tmp_path / "out3" / "short.txt").read_text(encoding="utf-8")
    lines1, lines3 = (sorted(o[0].replace(f"out{n}", "OUT").replace(f"report{n}", "REPORT").splitlines())
                      for n, o in outputs.items())
    assert lines1 == lines3  # same summaries (warnings, TM matches), whatever order documents end in
    assert outputs["1"][1] == outputs["3"][1] and b"KATZE" in outputs["3"][1]  # --report in input order


def test_a_failing_document_does_not_stop_the_others(tiny_bundle: Path, reference: tuple[list[Path], Path],
                                                     tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs, one = reference
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    poisoned = tmp_path / "poisoned.txt"
    poisoned.write_text("\n\n".join([*sentences(6, seed=3), "poison here ."]) + "\n", encoding="utf-8")
    # The engine failing on one sentence of one document, in the middle of a batched step: the
    # step is run row by row, the error reaches that document only.
    from doctrans.engine.onnx_engine import OnnxDocumentSession

    real_translate = OnnxDocumentSession.translate

    def translate(self: OnnxDocumentSession, sentence: str) -> Any:
        if "poison" in sentence:
            raise RuntimeError("the engine choked")
        return real_translate(self, sentence)

    real_rows = engine_batch.translate_rows

    def rows(sessions: Any, batch: Any) -> Any:
        if any(x is not None and "poison" in x for x in batch):
            raise RuntimeError("the engine choked")
        return real_rows(sessions, batch)

    monkeypatch.setattr(OnnxDocumentSession, "translate", translate)
    monkeypatch.setattr(engine_batch, "translate_rows", rows)
    inputs = [docs[0], broken, poisoned, docs[1], empty, docs[2]]
    out = tmp_path / "out"
    result = _run(inputs, out, tiny_bundle, "--batch-docs", "3")
    assert result.exit_code == 2, result.output
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 4, result.stderr  # one per bad document, and the list of them
    assert any("broken.docx" in e for e in errors[:3]) and any("empty.txt" in e for e in errors[:3])
    assert any("the engine choked" in e for e in errors[:3])
    assert errors[3].startswith("error: 3 of 6 files failed:") and "poisoned.txt" in errors[3]
    for doc in docs[:3]:
        assert _same(one / doc.name, out / doc.name), doc.name
    assert not (out / "broken.docx").exists() and not (out / "empty.txt").exists()
    assert not (out / "poisoned.txt").exists()
    # The poisoned document's finished sentences are kept for --resume, as in a one-document run.
    assert len(SavedProgress.load(progress_path(out / "poisoned.txt")).translations) == 6


def test_interrupt_then_resume_in_batched_mode(tiny_bundle: Path, reference: tuple[list[Path], Path],
                                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C arriving on the main thread during a batched step (where a signal lands): every
    running document saves its progress, one line says so; --resume in batched mode gives the
    uninterrupted outputs byte for byte."""
    docs, one = reference
    out = tmp_path / "out"
    armed = [True]

    def ctrl_c(step: int) -> None:
        if armed[0] and step == 4:
            raise KeyboardInterrupt

    rows = _count_rows(monkeypatch, ctrl_c)
    result = _run(docs, out, tiny_bundle, "--batch-docs", "3")
    assert result.exit_code == 130, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: interrupted; progress of 3 documents saved to"), lines
    assert "--resume" in lines[0]
    # Steps 1-2: long, report, short (2 sentences: finished and written); step 3: long, report and
    # paper (short's row); step 4 never finished.
    saved = {p.name: len(SavedProgress.load(p).translations) for p in out.glob("*.npz")}
    assert saved == {progress_path(Path(n)).name: k for n, k in
                     (("long.txt", 3), ("report.docx", 3), ("paper.pdf", 1))}, saved
    assert sorted(p.name for p in out.iterdir() if p.suffix != ".npz") == ["short.txt"]  # and no temp file
    assert result.stdout.count(" -> ") == 1

    armed[0] = False
    rows.clear()
    result = _run(docs, out, tiny_bundle, "--batch-docs", "3", "--resume")
    assert result.exit_code == 0, result.output
    assert max(rows) == 3
    assert result.stderr.count("resuming from") == 3 and result.stderr.count("no progress file") == 2
    assert result.stdout.count("3 resumed") == 2 and result.stdout.count("1 resumed") == 1
    for doc in docs:
        assert _same(one / doc.name, out / doc.name), doc.name
    assert not list(out.glob("*.npz"))


# -- real signals, the fake engine in a child process ------------------------------------------------
def _child(*args: str, delay: float = 0.0) -> subprocess.Popen:
    env = {**os.environ, "DOCTRANS_TEST_DELAY": str(delay), "DOCTRANS_PROGRESS_SECONDS": "0",
           "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.cli_child", "translate", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_then_resume_batched_child(tmp_path: Path, sig: signal.Signals) -> None:
    from tests.bad_inputs import GOOD_BODY, docx_bytes

    docs = []
    for k in range(3):
        txt = tmp_path / f"doc{k}.txt"
        txt.write_text("".join(f"Doc {k} sentence {i} is here. Another {i}!\n\n" for i in range(20 + 5 * k)))
        docs.append(txt)
    docx = tmp_path / "doc.docx"
    docx.write_bytes(docx_bytes(GOOD_BODY * 3))
    docs.append(docx)
    ref = _child(*map(str, docs), "-o", str(tmp_path / "ref"), "--batch-docs", "1")
    assert ref.wait(timeout=120) == 0, ref.communicate()

    out = tmp_path / "out"
    proc = _child(*map(str, docs), "-o", str(out), "--batch-docs", "3", delay=0.02)
    deadline = time.monotonic() + 60
    while not all(progress_path(out / d.name).exists() for d in docs[:3]):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    lines = err.strip().splitlines()
    what = "interrupted" if sig == signal.SIGINT else f"stopped by {sig.name}"
    assert len(lines) == 1 and lines[0].startswith(f"error: {what}; progress of 3 documents saved"), err
    assert not [p for p in out.iterdir() if p.suffix == ".tmp"]

    proc = _child(*map(str, docs), "-o", str(out), "--batch-docs", "3", "--resume")
    stdout, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert err.count("resuming from") == 3 and stdout.count(" resumed)") == 3
    for d in docs:
        assert _same(tmp_path / "ref" / d.name, out / d.name), d.name
    assert not list(out.glob("*.npz"))


def test_a_document_whose_code_names_a_tool_still_translates_in_the_batch(
        tiny_bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The job adds the document's code names to the translator's glossary (doctrans.code_names):
    the row's translator must stay a row of the batch, not become the plain translator."""
    s = sentences(12, seed=5)
    folder = tmp_path / "in"
    folder.mkdir()
    docs = []
    for k in range(3):
        doc = folder / f"tool{k}.md"
        doc.write_text(f"Run `zorbly{k} --fast` first.\n\nzorbly{k} {s[4 * k]}\n\n{s[4 * k + 1]}\n", encoding="utf-8")
        docs.append(doc)
    one = _run(docs, tmp_path / "one", tiny_bundle, "--batch-docs", "1")
    assert one.exit_code == 0, one.output
    rows = _count_rows(monkeypatch)
    batched = _run(docs, tmp_path / "three", tiny_bundle, "--batch-docs", "3")
    assert batched.exit_code == 0, batched.output
    assert rows and max(rows) == 3  # the rows went through the batch
    for k, doc in enumerate(docs):
        text = (tmp_path / "three" / doc.name).read_text(encoding="utf-8")
        assert text == (tmp_path / "one" / doc.name).read_text(encoding="utf-8")
        assert f"\n\nzorbly{k} " in text  # the code's name kept as written in the sentence
