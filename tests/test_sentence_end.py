"""A translation ends the way its source does (doctrans.sentence_end): the final mark the model
left out, and the closing quote of a quotation it opened and left open."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans.engine.protect import prepare
from doctrans.sentence_end import end_like_source


@pytest.mark.parametrize(("source", "translation", "expected"), [
    ("The rain had not stopped for three days.", "雨三天没停了", "雨三天没停了。"),
    ("you sure you wanna do this ?", "你确定你想这么做吗", "你确定你想这么做吗？"),
    ("Hurry!", "快点", "快点！"),
    ('"I am waiting for a letter."', '"我在等一封信"', '"我在等一封信。"'),  # inside the quote
    ('She said "no".', '她说"不"', '她说"不"。'),  # after it, as in the source
    ('"Not yet," she said.', '"还没有，"她说', '"还没有，"她说。'),
    ("(See the appendix.)", "（见附录）", "（见附录。）"),
    ("I am waiting for a letter.", "我在等一封信。", "我在等一封信。"),  # ended already
    ("Run the following command:", "运行以下命令", "运行以下命令："),  # the line before a list or code
    ("The Provider shall:", "提供方应当。", "提供方应当："),
    ("(a) respond within 24 hours;", "(a) 在24小时内答复。", "(a) 在24小时内答复；"),  # a list's clause
    ("(b) keep an uptime of 99.5%; and", "(b) 保持99.5%的可用性", "(b) 保持99.5%的可用性"),  # no mark: none
    ("Example::", "示例", "示例"),  # reST's literal marker is the document writer's
    ("Wait for it...", "等一下", "等一下"),  # an ellipsis is left to the model
    ("It works.", "它可以工作:", "它可以工作:"),  # the model chose another mark
    ("Note the file names.  ", "注意文件名  ", "注意文件名。  "),  # trailing space kept
    ("Revenue grew.", "", ""),
    ('"Not yet,"', "“还没有”", "“还没有，”"),  # a dialogue piece: its speaker goes on after the comma
    ('"Not yet,"', "“还没有，”", "“还没有，”"),
    ("she said,", "她说", "她说"),  # a comma outside a quotation is left to the model
])
def test_into_chinese(source: str, translation: str, expected: str) -> None:
    assert end_like_source(source, translation, chinese_output=True) == expected


@pytest.mark.parametrize(("source", "translation", "expected"), [
    ("他说：“我们对明年的前景充满信心。”", 'He said: "We are confident about next year.',
     'He said: "We are confident about next year."'),
    ("他说：“我们有信心。”", "He said: “We are confident", "He said: “We are confident.”"),
    ("你来吗？", "Are you coming", "Are you coming?"),
    ("请检查磁盘空间。", "Check the disk space", "Check the disk space."),
    ("安装说明", "Installation", "Installation"),  # a heading without a mark stays without
    ("他笑了（很久）。", "He laughed (for a long time)", "He laughed (for a long time)."),
    ("见 f(x)。", "See f(x", "See f(x."),  # the source closes nothing at its end: no bracket added
    ("“还没有，”", '"Not yet"', '"Not yet,"'),
    ("甲方应当：", "Party A shall.", "Party A shall:"),
    ("（一）按时付款；", "(1) pay on time", "(1) pay on time;"),
])
def test_into_english(source: str, translation: str, expected: str) -> None:
    assert end_like_source(source, translation, chinese_output=False) == expected


def test_the_engine_restores_the_mark_after_the_spans_and_before_the_section_number() -> None:
    prep = prepare("1. Run `make install` now.", 16, tgt_lang="zh")
    assert prep.restore("现在运行⦅1⦆").text == "1. 现在运行`make install`。"
    # A span at the end of the sentence: the mark follows it, the span itself is untouched.
    english = prepare("请打开文件 `config.yaml`。", 16, tgt_lang="en", src_lang="zh")
    assert english.restore("Open the file ⦅1⦆").text == "Open the file `config.yaml`."


def test_a_bracket_the_translation_never_opened_is_dropped() -> None:
    from doctrans.engine.protect import prepare
    from doctrans.sentence_end import drop_unopened

    prep = prepare("New customers: 1,250 (up from 980 in Q2).", 16, tgt_lang="zh", src_lang="en")
    # ⦅1⦆ customers, ⦅3⦆ "up from 980" (高于980, doctrans.qualifiers)
    assert prep.restore("新⦅1⦆：⦅2⦆，⦅4⦆中⦅3⦆)").text == "新客户：1,250，Q2中高于980。"
    assert drop_unopened("a (b) c", "x (y) z") == "x (y) z"
    assert drop_unopened("Step a) then b)", "步骤 a) 然后 b)") == "步骤 a) 然后 b)"  # the source does it too
    assert drop_unopened("call f(x) now", "现在调用 ⦅1⦆ )") == "现在调用 ⦅1⦆"


def test_a_heading_or_item_without_a_mark_gets_none_in_the_document(tmp_path: Path) -> None:
    from doctrans.sentence_end import without_added_end
    from doctrans.translate_job import translate_file
    from tests.fakes import FakeTranslator

    assert without_added_end("安装指南", "Installation guide.") == "Installation guide"
    assert without_added_end("至少 4 GB 内存", "至少 4 GB 内存。") == "至少 4 GB 内存"
    assert without_added_end("It rains.", "下雨了。") == "下雨了。"  # the source ends in one
    assert without_added_end("Wait", "Wait...") == "Wait..."
    # A heading's question mark too (# 如何更换内存条 came back "How to change the memory?").
    assert without_added_end("如何更换内存条", "How to change the memory?") == "How to change the memory"
    assert without_added_end("如何更换内存条？", "How to change the memory?") == "How to change the memory?"
    # A heading's last full stop may be an abbreviation's (# … Before 10 a.m.), a sentence's not.
    assert without_added_end("Stop Before 10 a.m.", "在上午10点之前停止。", heading=True) == "在上午10点之前停止"
    assert without_added_end("It opens at 10 a.m.", "它在上午10点开门。") == "它在上午10点开门。"
    assert without_added_end("甲方：北京华泰贸易有限公司", "Party A: Beijing Huatai Trading Co., Ltd.").endswith("Ltd.")
    src = tmp_path / "guide.md"
    src.write_text("# Install guide\n\n- At least 4 GB\n\nRun it now. Then wait\n", encoding="utf-8")
    out = tmp_path / "out.md"
    translate_file(src, out, FakeTranslator(fn=lambda s: s.upper().rstrip(".") + "."))
    assert out.read_text(encoding="utf-8") == "# INSTALL GUIDE\n\n- AT LEAST 4 GB\n\nRUN IT NOW. THEN WAIT\n"


def test_a_translation_from_a_caseless_source_starts_with_a_capital_in_the_document(tmp_path: Path) -> None:
    from doctrans.sentence_end import capitalised_start
    from doctrans.translate_job import translate_file
    from tests.fakes import FakeTranslator

    assert capitalised_start("主要成绩", "main results", "en") == "Main results"
    assert capitalised_start("主要成绩", '"main" results', "en") == '"Main" results'
    assert capitalised_start("苹果手机", "iPhone sales", "en") == "iPhone sales"  # a cased word as it is
    assert capitalised_start("npm install", "npm install", "en") == "npm install"  # the source has case
    assert capitalised_start("主要成绩", "`npm` is", "en") == "`npm` is"  # code first
    assert capitalised_start("主要成绩", "main", "zh") == "main"  # a caseless target
    src = tmp_path / "report.txt"
    src.write_text("一、主要成绩\n\n销售增长。\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    translate_file(src, out, FakeTranslator(fn=lambda s: "main results" if "成绩" in s else "sales grew.",
                                            src_lang="zh", tgt_lang="en"))
    assert out.read_text(encoding="utf-8") == "1. Main results\n\nSales grew.\n"


def test_an_address_and_a_decimal_take_no_counter_in_chinese() -> None:
    """"You can reach me at daniel@example.com" came back …com号你就能联系我; "48.90, a personal best"
    48.90岁."""
    prep = prepare("You can reach me at daniel@example.com or 48.90 today.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None
    out = prep.restore(prep.model_text.replace("You can reach me at ", "你可以通过").replace(" or ", "号或")
                       .replace(" today.", "岁今天。"))
    assert "daniel@example.com或48.90今天" in out.text
