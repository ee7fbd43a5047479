"""The bad-input corpus of tests/bad_inputs.py through the CLI (issue 16): for every case the
expected exit code, one ``error:`` line (a file's own line plus a summary in a batch), no
traceback, no "this is a bug", the inputs byte-identical and nothing left behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bad_inputs import CASES, Case, run_case


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(tmp_path: Path, case: Case) -> None:
    outcome = run_case(case, tmp_path)
    allowed = case.exit if isinstance(case.exit, tuple) else (case.exit,)
    assert outcome.exit in allowed, outcome
    assert "Traceback" not in outcome.message and "this is a bug" not in outcome.message, outcome.message
    assert outcome.intact, "an input file changed"
    assert outcome.leftovers == [], outcome.leftovers
    if case.absent:
        assert case.absent not in outcome.message, outcome.message
    if outcome.exit == 0:
        assert case.fragment in outcome.message, outcome.message
        return
    lines = outcome.message.split(" | ")
    errors = [line for line in lines if line.startswith("error: ")]
    assert errors and all(line.startswith(("error: ", "note: ")) for line in lines), lines
    assert len(errors) == (2 if "files failed" in errors[-1] else 1), lines  # a batch adds one summary
    assert case.fragment in errors[-1] or case.fragment in errors[0], lines
