"""Bounded fuzzing of docx and pdf (issue 16): a few hundred seeded mutants per run, and only the
project's own error type (UserError) may escape -- anything else would be reported as a bug.
The 20,000-mutant campaign per format is tests/fuzz_campaign.py (outside CI)."""

from __future__ import annotations

import pytest

from tests.fuzz_docs import campaign

PER_RUN = {"docx": 400, "pdf": 300}


@pytest.mark.parametrize("fmt", sorted(PER_RUN))
def test_mutants_end_in_output_or_a_user_error(fmt: str) -> None:
    result = campaign(fmt, PER_RUN[fmt], seed=16)
    assert result["escapes"] == [], result["escapes"]
    # The mutator must really reach both outcomes, or the test proves nothing.
    assert result["ok"] > 0 and result["user-error"] > 0, result
