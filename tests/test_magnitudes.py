"""Chinese figures with 万/亿 (doctrans.magnitudes): the value, exactly, the target language's way,
through masking, restoration, copying and the check after translation."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from doctrans import magnitudes
from doctrans.engine.protect import prepare
from doctrans.glossary import Glossary
from doctrans.magnitudes import english, find_magnitudes
from doctrans.report import sentence_warnings


def docstring_table() -> list[tuple[str, str, str, str]]:
    rows = re.findall(r"^\| (\S+(?: \S+)?) +\| ([^|]+?) +\| (\S+(?: \S+)?) +\| (\S+(?: \S+)?) +\|$",
                      magnitudes.__doc__ or "", re.M)
    return [r for r in rows if r[0] != "source"]


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 10


@pytest.mark.parametrize(("source", "en", "zh", "other"), docstring_table())
def test_docstring_table_row(source: str, en: str, zh: str, other: str) -> None:
    text = f"收入为{source}元。" if re.search("[万亿]", source) else f"Revenue was {source} last year."
    for lang, want in (("en", en), ("zh", zh), ("de", other)):
        spans = find_magnitudes(text, lang)
        if want == "(as written)":
            assert spans == [], (lang, spans)
            continue
        [span] = spans
        assert (span.text, span.target, span.kind) == (source, want, "number")
        assert text[span.start:span.end] == source
    assert find_magnitudes(text, None) == []


def test_values_are_exact() -> None:
    assert english(Decimal("123456789.123")) == "123.456789123 million"
    assert english(Decimal("999999")) == "999,999"
    assert english(Decimal("1000000")) == "1 million"
    assert [s.target for s in find_magnitudes("增长0.5万，达12.345亿", "en")] == ["5,000", "1.2345 billion"]
    assert [s.target for s in find_magnitudes("约1,234.5678万人", "en")] == ["12.345678 million"]


def test_what_is_not_a_figure() -> None:
    assert find_magnitudes("三万人，万一下雨，第2版", "en") == []  # numerals are words, 万一 is "in case"
    assert find_magnitudes("2024年3月", "en") == []
    assert find_magnitudes("a 5m rope, two million people, 3 millimetres, v2.1 million", "zh") == []
    assert [s.target for s in find_magnitudes("costs $5m, or €2.5M", "zh")] == ["$500万", "€250万"]
    assert [s.target for s in find_magnitudes("1.4 billion people", "ja")] == ["14億"]


def test_an_english_figure_is_masked_whole_and_restored_in_wan() -> None:
    prep = prepare("Sales reached 12.5 million units in 2024.", 16, tgt_lang="zh")
    assert prep.model_text == "Sales reached ⦅1⦆ units in ⦅2⦆."
    assert prep.restore("销售额在⦅2⦆年达到⦅1⦆台。").text == "销售额在2024年达到1250万台。"


def test_a_figure_is_masked_whole_and_restored_as_the_english_value() -> None:
    prep = prepare("销量达到1,250万台，同比增长3.5%。", 16, tgt_lang="en")
    # (同比增长3.5% is one phrase with its figure: doctrans.report_terms.find_changes.)
    assert prep.model_text == "销量达到⦅1⦆台，⦅2⦆。"
    assert prep.restore("Sales reached ⦅1⦆ units, ⦅2⦆.").text == \
        "Sales reached 12.5 million units, up 3.5% year on year."
    # Into Chinese (or without a target) the figure stays as written, its digits masked as before.
    assert prepare("销售额达到1,250万元。", 16, tgt_lang="zh").model_text == "销售额达到⦅1⦆万元。"
    # A bundle without placeholder pieces reads the converted value as text to copy.
    assert prepare("销量达到1,250万台。", 0, tgt_lang="en").model_text == "销量达到12.5 million台。"


def test_a_cell_holding_only_a_figure_is_written_converted_without_the_model() -> None:
    prep = prepare("1,250万", 16, tgt_lang="en")
    assert prep.model_text is None and prep.copy == "12.5 million"


def test_a_glossary_term_wins_over_the_conversion() -> None:
    glossary = Glossary.from_pairs([("1万步", "10k steps")])
    prep = prepare("每天走1万步，共2万人。", 16, glossary, tgt_lang="en")
    assert [s.output for s in prep.masked.spans] == ["10k steps", "20,000"]


def test_the_check_looks_for_the_converted_value() -> None:
    source = "全年产量949746亿件。"
    assert sentence_warnings(source, "Annual output was 94.9746 trillion pieces.", tgt_lang="en") == []
    [warning] = sentence_warnings(source, "Annual output was 949746 pieces.", tgt_lang="en")
    assert warning.problem == "missing" and warning.span == "94.9746 trillion"
    assert sentence_warnings(source, "全年产量949746亿件。", tgt_lang="zh") == []
    # An amount of money is checked with its currency (doctrans.currency).
    [warning] = sentence_warnings("全年营收949746亿元。", "Annual revenue was 94.9746 trillion.", tgt_lang="en")
    assert warning.span == "94.9746 trillion yuan"


@pytest.mark.parametrize(("text", "tgt", "expected"), [
    ("Rates rose from 2.5 percent to 4.75 per cent.", "zh", [("2.5 percent", "2.5%"), ("4.75 per cent", "4.75%")]),
    ("Inflation was 4.6pc, not 4PC.", "zh", [("4.6pc", "4.6%")]),  # the British press's; 4PC is no percentage
    ("Sales were up 0.5 percentage points, or 3 pct.", "zh",
     [("0.5 percentage points", "0.5个百分点"), ("3 pct", "3%")]),
    ("Up 0.5 percentage points.", "ja", [("0.5 percentage points", "0.5ポイント")]),
    ("增长5.3个百分点，达1个百分点。", "en",
     [("5.3个百分点", "5.3 percentage points"), ("1个百分点", "1 percentage point")]),
    ("占百分之12.5。", "en", [("百分之12.5", "12.5%")]),
    ("占百分之12.5。", "de", [("百分之12.5", "12.5%")]),
    # In numerals (the zh->en model dropped 百分之三点五 from its sentence).
    ("增长了百分之三点五，百分之五十的人，百分之零点五，百分之一百。", "en",
     [("百分之三点五", "3.5%"), ("百分之五十", "50%"), ("百分之零点五", "0.5%"), ("百分之一百", "100%")]),
    ("增长了百分之两百。", "en", [("百分之两百", "200%")]),
    ("百分之三四十的人。", "en", []),  # a range in speech: the model's
    ("The percentage is 5% and the 3 percenters left.", "zh", []),  # already a sign / not the word
])
def test_percentages_are_written_the_targets_way(text: str, tgt: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_magnitudes(text, tgt)] == expected


def test_a_percentage_reaches_the_chinese_output_as_a_sign() -> None:
    prep = prepare("Interest rates have risen sharply to 4.75 percent.", 16, tgt_lang="zh", src_lang="en")
    assert "percent" not in (prep.model_text or "")
    assert prep.restore("⦅1⦆大幅上升到⦅2⦆").text == "利率大幅上升到4.75%。"  # interest rates: a news term
    # All terms (rose to: a change to a level, doctrans.report_terms): written without the model.
    assert prepare("Interest rates rose to 4.75 percent.", 16, tgt_lang="zh", src_lang="en").copy == "利率升至4.75%。"
