"""Numbered parts of a document (doctrans.part_numbers): ``第五条`` <-> ``Article 5``, through
masking, restoration and the check after translation."""

from __future__ import annotations

import re

import pytest

from doctrans import part_numbers
from doctrans.chinese_numerals import read_numeral
from doctrans.engine.protect import prepare
from doctrans.part_numbers import find_part_numbers
from tests.docstring_tables import three_column_rows


def docstring_table() -> list[tuple[str, str, str]]:
    return three_column_rows(part_numbers)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 34


@pytest.mark.parametrize(("source", "en", "zh"), docstring_table())
def test_docstring_table_row(source: str, en: str, zh: str) -> None:
    chinese_source = re.search("[\u4e00-\u9fff]", source) is not None
    text = f"详见{source}。" if chinese_source else f"See {source} for details."
    [span] = find_part_numbers(text, "en" if chinese_source else "zh")
    assert (span.text, span.target) == (source, en if chinese_source else zh)
    assert find_part_numbers(text, "zh" if chinese_source else "en") == []


@pytest.mark.parametrize(("numeral", "value"), [
    ("十", 10), ("十五", 15), ("二十一", 21), ("一百", 100), ("一百零五", 105), ("两千零二十四", 2024),
    ("三〇五", 305), ("九千九百九十九", 9999),
])
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert read_numeral(numeral) == value


@pytest.mark.parametrize(("text", "tgt"), [
    ("第一条消息已经发送。", "en"),  # 条 as a classifier: the first message
    ("他是第一名。", "en"),  # not a part of a document
    ("The act 5 times.", "zh"),  # act/scene/part only capitalised
    ("Read part ii now.", "zh"),  # Roman numerals only in capitals
    ("Chapter 3", "de"),  # only English and Chinese targets
])
def test_what_is_not_a_numbered_part(text: str, tgt: str) -> None:
    assert find_part_numbers(text, tgt) == []


def test_a_heading_that_is_only_a_part_is_written_without_the_model() -> None:
    prep = prepare("第一章", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text is None and prep.copy == "Chapter 1"
    article = prepare("第五条 合同双方应遵守本协议。", 16, tgt_lang="en", src_lang="zh")
    assert article.model_text == "⦅1⦆ 合同双方应遵守⦅2⦆。"  # 本协议: this Agreement (doctrans.report_terms)
    assert article.restore("⦅1⦆ Both parties shall comply with ⦅2⦆.").text == \
        "Article 5 Both parties shall comply with this Agreement."
    chinese = prepare("See Section 4.2 for details.", 16, tgt_lang="zh", src_lang="en")
    assert chinese.restore("详见⦅1⦆").text == "详见第4.2节。"


@pytest.mark.parametrize(("text", "tgt", "found"), [
    ("如图3和表2所示，详见附录B（图1）。", "en", [("图3", "Figure 3"), ("表2", "Table 2"), ("附录B", "Appendix B"),
                                             ("图1", "Figure 1")]),
    ("地图3，发表3篇论文，代表2名，表2个", "en", []),  # inside words, before a measure
    ("See Figure 3, Fig. 12 and Table 2.1 in Appendix B.", "zh", [("Figure 3", "图3"), ("Fig. 12", "图12"),
                                                                  ("Table 2.1", "表2.1"), ("Appendix B", "附录B")]),
    ("a table 3 meters long, figure 2 of them", "zh", []),  # no capital: not a label
])
def test_figures_tables_and_appendices(text: str, tgt: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_part_numbers(text, tgt)] == found


def test_a_chinese_step_with_di_is_a_step_only_as_the_label_that_starts_a_segment() -> None:
    assert [(s.text, s.target) for s in find_part_numbers("第一步：安装 Nginx", "en")] == [("第一步", "Step 1")]
    assert [(s.text, s.target) for s in find_part_numbers("  第 2 步: 配置", "en")] == [("第 2 步", "Step 2")]
    for prose in ("迈出了第一步。", "第一步是安装软件。", "这是第一步：准备"):
        assert find_part_numbers(prose, "en") == [], prose


def test_a_line_of_a_file_is_no_metro_line() -> None:
    assert find_part_numbers("See line 2 of the file and Line 3 of the form.", "zh") == []
    found = find_part_numbers("乘坐地铁1号线至龙翔桥站，换乘2号线。", "en")
    assert [s.target for s in found] == ["Metro Line 1", "Line 2"]


def test_a_diarys_week_and_day_into_chinese() -> None:
    """A blog's "Week 1: Anxiety" came back 星期1 (a weekday)."""
    found = [(s.text, s.target) for s in find_part_numbers("Week 1: Anxiety. On Day 3 we rested.", "zh")]
    assert found == [("Week 1", "第1周"), ("Day 3", "第3天")]
    assert find_part_numbers("Day 3:30", "zh") == []  # no clock


def test_a_products_model_but_not_a_cars_name_into_chinese() -> None:
    """"The Model X200 weighs 4.5 kg" came back 模型X200 (a machine-learning model)."""
    from doctrans.part_numbers import find_part_numbers

    found = find_part_numbers("The Model X200 and the Model KP-2000 beat the Tesla Model 3 and Model S.", "zh")
    assert [(s.text, s.target) for s in found] == [("Model X200", "型号X200"), ("Model KP-2000", "型号KP-2000")]
