"""doctrans.phone_calls: a telephone number with the verb that calls it (the docstring's table), and
"call" before anything else left to the model."""

from __future__ import annotations

import pytest

from doctrans import phone_calls
from doctrans.engine.protect import prepare
from doctrans.phone_calls import find_phone_calls
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(phone_calls)) == 6


@pytest.mark.parametrize(("source", "tgt", "written"), three_column_rows(phone_calls))
def test_docstring_table_row(source: str, tgt: str, written: str) -> None:
    src = "en" if tgt == "zh" else "zh"
    assert [(s.text, s.target) for s in find_phone_calls(f"{source}。", src, tgt)] == [(source, written)]


@pytest.mark.parametrize("text", [
    "Call the function 3 times.",  # a function's call
    "The call at 10.30 was 3 minutes.",
    "Call 2024 a good year.",  # a year, no telephone number
    "Dial 999.",  # too few digits for a number of its own (the model writes it)
])
def test_a_call_without_a_telephone_number_is_the_models(text: str) -> None:
    assert find_phone_calls(text, "en", "zh") == []


def test_the_call_reaches_the_model_as_one_placeholder() -> None:
    """A recall notice's "Call toll-free at 1-800-555-0199" came back 调用到空闲, "invoke it, to idle"."""
    prep = prepare("Call toll-free at 1-800-555-0199 to ask for a refund.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and prep.model_text.startswith("⦅1⦆ to ask")
    assert prep.masked.spans[0].target == "拨打免费电话1-800-555-0199"
    assert prep.restore("⦅1⦆要求退款。").text == "拨打免费电话1-800-555-0199要求退款。"
    # With its hours the sentence is its spans, written without the model.
    hours = prepare("Call toll-free at 1-800-555-0199 from 8 a.m. to 5 p.m.", 16, tgt_lang="zh", src_lang="en")
    assert hours.copy == "拨打免费电话1-800-555-0199从上午8点至下午5点"
