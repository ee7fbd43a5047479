"""Places and weekdays by their names in the other language (doctrans.place_names)."""

from __future__ import annotations

import pytest

from doctrans import place_names
from doctrans.engine.protect import prepare
from doctrans.place_names import find_place_names
from tests.docstring_tables import three_column_rows


def docstring_table() -> list[tuple[str, str, str]]:
    return three_column_rows(place_names)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 7


@pytest.mark.parametrize(("text", "tgt", "expected"), docstring_table())
def test_docstring_table_row(text: str, tgt: str, expected: str) -> None:
    src = "zh" if tgt == "en" else "en"
    found = [s.target for s in find_place_names(text, src, tgt)]
    assert (" · ".join(found) or "(none)") == expected


def test_every_entry_reads_back_both_ways() -> None:
    into_chinese, into_english, _, _ = place_names._tables()
    for english, chinese in into_chinese.items():
        assert [s.target for s in find_place_names(f"We met in {english} today.", "en", "zh")] == [chinese]
    for chinese, english in into_english.items():
        assert [s.target for s in find_place_names(f"我们在{chinese}见面。", "zh", "en")] == [english]


def test_only_between_english_and_chinese_and_capitalised() -> None:
    assert find_place_names("The china cup from france.", "en", "zh") == []
    assert find_place_names("We met in Germany.", "en", "de") == []


def test_a_place_reaches_the_output_by_its_name() -> None:
    prep = prepare("The company opened stores in Germany and Spain.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "The company opened stores in ⦅1⦆ and ⦅2⦆."
    assert prep.restore("公司在⦅1⦆和⦅2⦆开设了商店").text == "公司在德国和西班牙开设了商店。"


def test_neighbouring_spans_are_spaced_the_way_the_output_writes() -> None:
    """``北京10月18日`` came back ``BeijingOctober 18``: two spans glued in Chinese are two words in
    English; spaced in English, they are glued in Chinese."""
    from doctrans.engine.protect import prepare

    zh = prepare("据新华社北京10月18日报道", 16, tgt_lang="en", src_lang="zh")  # (at the start: a dateline)
    assert [s.output for s in zh.masked.spans] == ["Xinhua News Agency", "Beijing", "October 18"]
    assert zh.restore("⦅1⦆ ⦅2⦆⦅3⦆").text == "Xinhua News Agency Beijing October 18"
    en = prepare("It opens in Berlin on Monday March 3.", 16, tgt_lang="zh", src_lang="en")
    assert en.restore("它在⦅1⦆开放⦅2⦆ ⦅3⦆").text == "它在柏林开放星期一3月3日。"
    # Spans that keep their text keep the source's gap.
    same = prepare("Run `make` `install` now.", 16, tgt_lang="zh", src_lang="en")
    assert same.restore("现在运行⦅1⦆ ⦅2⦆").text == "现在运行`make` `install`。"
