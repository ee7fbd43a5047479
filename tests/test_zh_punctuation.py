"""Chinese output gets its full-width marks back and a comma for a subtitle's space
(doctrans.zh_punctuation), never inside a verbatim span."""

from __future__ import annotations

import pytest

from doctrans.engine.protect import prepare
from doctrans.zh_punctuation import restore_chinese_punctuation


@pytest.mark.parametrize(("text", "expected"), [
    ("配置模块,每个节中包含键", "配置模块，每个节中包含键"),
    ("是的 , 没错", "是的，没错"),
    ("先读取;再写入", "先读取；再写入"),
    ("调用read(),然后返回", "调用read()，然后返回"),
    ("f(a, b)", "f(a, b)"),  # the commas touch no Han character
    ("列表[1, 2, 3]", "列表[1, 2, 3]"),
    ("Hello, world", "Hello, world"),
    ("什么?你说!", "什么？你说！"),
    ("注意: 这是默认值", "注意：这是默认值"),
    ("你好 罗斯先生!", "你好，罗斯先生！"),  # a subtitle's space between clauses
    ("使用 Python 模块", "使用 Python 模块"),  # spaces around a Latin word stay
    ("见下文::", "见下文::"),  # reST's literal marker
    ("Really? Yes!", "Really? Yes!"),
    ("无限的条件。 这种情况", "无限的条件。这种情况"),  # a space after a full-width mark
    ("他说 。", "他说。"),
    ("需要 ⦅2⦆  wrench。", "需要 ⦅2⦆ wrench。"),  # two pieces' spaces: one
])
def test_commas_next_to_han_characters_become_full_width(text: str, expected: str) -> None:
    assert restore_chinese_punctuation(text) == expected


def test_spans_keep_their_commas_and_only_chinese_output_is_changed() -> None:
    prep = prepare("Sales reached 1,250 units, and the code is `f(a,b)`.", 16, tgt_lang="zh")
    assert [s.text for s in prep.masked.spans] == ["1,250", "`f(a,b)`"]
    assert prep.restore("销售额达到⦅1⦆台,代码是⦅2⦆。").text == "销售额达到1,250台，代码是`f(a,b)`。"
    english = prepare("销售额达到1,250台，代码是`f(a,b)`。", 16, tgt_lang="en")
    assert english.restore("Sales reached ⦅1⦆ units, the code is ⦅2⦆.").text == \
        "Sales reached 1,250 units, the code is `f(a,b)`."
    assert prepare("1. Summary", 16, tgt_lang="zh").restore("摘要,概述").text == "1. 摘要，概述"


def test_a_comma_between_placeholders_written_in_chinese_is_chinese() -> None:
    prep = prepare("Germany, France and 1,250 units, or `a,b`.", 16, tgt_lang="zh", src_lang="en")
    assert [s.output for s in prep.masked.spans] == ["德国", "法国", "1,250", "`a,b`"]
    assert prep.restore("⦅1⦆, ⦅2⦆和⦅3⦆台, 或⦅4⦆").text == "德国，法国和1,250台，或`a,b`。"
    assert restore_chinese_punctuation("⦅1⦆, ⦅2⦆", ["1,250", "`x`"]) == "⦅1⦆, ⦅2⦆"
    # A space where the model dropped a placeholder is the span's place: it stays.
    assert restore_chinese_punctuation("使用 的实现", ["`x`"]) == "使用 的实现"
    assert restore_chinese_punctuation("使用⦅1⦆ 的实现", ["`x`"]) == "使用⦅1⦆ 的实现"
    assert restore_chinese_punctuation("你好 罗斯", []) == "你好，罗斯"
    # A space next to a placeholder is the model's way with spans, not a clause break.
    prep = prepare("It opens in Berlin on Monday.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("它 在 ⦅1⦆ 开放 ⦅2⦆").text == "它，在柏林开放星期一。"


def test_a_span_inside_chinese_output_keeps_its_own_spaces() -> None:
    prep = prepare("The installation requires a 10 mm wrench and `a  b`.", 16, tgt_lang="zh", src_lang="en")
    text = prep.restore(prep.model_text.replace("The installation requires a", "安装需要 ").replace(
        " wrench and", "  wrench和 ")).text
    assert "毫米 wrench" in text and "  wrench" not in text
    assert "`a  b`" in text


def test_a_colon_before_chinese_after_a_figure_is_full_width() -> None:
    """"Annual Report 2025: Summary" came back 年度报告2025:摘要, the heading's ASCII colon kept after
    the year; a ratio between two figures and a scheme's colon stay."""
    assert restore_chinese_punctuation("年度报告⦅1⦆: 摘要", ["2025"]) == "年度报告⦅1⦆：摘要"
    assert restore_chinese_punctuation("比例为⦅1⦆:⦅2⦆", ["1", "2"]) == "比例为⦅1⦆:⦅2⦆"
    assert restore_chinese_punctuation("见⦅1⦆://中文", ["http"]) == "见⦅1⦆://中文"
