"""Section headings by their names in the other language (doctrans.section_headings), written
without the model, through the engine and the documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans import section_headings
from doctrans.engine.protect import prepare
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(section_headings)) == 15


@pytest.mark.parametrize(("text", "tgt", "written"), three_column_rows(section_headings))
def test_docstring_table_row(text: str, tgt: str, written: str) -> None:
    prep = prepare(text, 16, tgt_lang=tgt, src_lang="zh" if tgt == "en" else "en")
    if written == "(the model's)":
        assert prep.copy is None and prep.model_text == text
    else:
        assert prep.model_text is None and prep.copy == written  # no model call


def test_every_heading_reads_back_both_ways_and_only_between_english_and_chinese() -> None:
    into_chinese, into_english = section_headings._tables()
    for english, chinese in into_chinese.items():
        assert prepare(english.title(), 16, tgt_lang="zh", src_lang="en").copy == chinese
    for chinese, english in into_english.items():
        assert prepare(chinese, 16, tgt_lang="en", src_lang="zh").copy == english
    assert prepare("Summary", 16, tgt_lang="de", src_lang="en").copy is None
    assert prepare("Summary", 16, tgt_lang="en", src_lang="en").copy is None


def test_a_report_through_the_shipped_model(tmp_path: Path) -> None:
    """The headings come back as the list has them, a section number kept; the model translates
    the rest."""
    from doctrans.translate_job import translate_file
    from tests.shipped_models import shipped_translator

    src = tmp_path / "report.md"
    src.write_text("# Summary\n\nSales rose in Europe.\n\n## 3. Outlook\n\nWe expect growth.\n", encoding="utf-8")
    out = tmp_path / "out.md"
    translate_file(src, out, shipped_translator("en", "zh"))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# 概要" and lines[4] == "## 3. 展望"
    assert lines[2] and "Sales" not in lines[2]  # translated by the model


@pytest.mark.parametrize(("text", "tgt", "prefix", "rest"), [
    ("**Note:** Administrator rights are required.", "zh", "**注意：**", "Administrator rights are required."),
    ("Warning: Do not turn off the computer.", "zh", "警告：", "Do not turn off the computer."),
    ("警告：请勿关机。", "en", "Warning: ", "请勿关机。"),
    ("注意：Windows 用户需要先安装运行库。", "en", "Note: ", "Windows 用户需要先安装运行库。"),
    ("3. Note: back up first.", "zh", "3. 注意：", "back up first."),
    ("问：为什么无法连接服务器？", "en", "Q: ", "为什么无法连接服务器？"),  # a FAQ
    ("答：请检查网络设置。", "en", "A: ", "请检查网络设置。"),
    ("Q: Why can I not connect?", "zh", "问：", "Why can I not connect?"),
    # A leaflet's heading in 【】: 【用法用量】口服。 came back 'The "Using measurement" graces.'
    ("【用法用量】口服，一日2次。", "en", "[Dosage and Administration] ", "口服，一日2次。"),
    ("【贮藏】 遮光，密封保存。", "en", "[Storage] ", "遮光，密封保存。"),
])
def test_a_heading_as_the_label_of_a_sentence(text: str, tgt: str, prefix: str, rest: str) -> None:
    """The label is written from the list before the translation of the rest, which the model
    reads alone: given the label as a placeholder, it wrote ``注意：Windows 用户…`` as ``The
    Note:Windows user…``."""
    prep = prepare(text, 16, tgt_lang=tgt, src_lang="zh" if tgt == "en" else "en")
    assert prep.prefix == prefix
    assert prep.masked.source == rest  # what the model reads (its spans masked)
    assert not [s for s in prep.masked.spans if s.kind == "heading"]
    # Not a label: a colon inside a sentence, a word the list does not have.
    assert section_headings.find_section_heading("He said: yes", "en", "zh") == []
    assert section_headings.find_section_heading("Foo: bar", "en", "zh") == []
    assert section_headings.find_section_heading("Example:: code", "en", "zh") == []  # reST literal marker
    assert section_headings.find_section_heading("参见 :ref:`x`", "zh", "en") == []  # a role
    assert section_headings.leading_label("Note: same language", "en", "en") is None
    assert section_headings.leading_label("【新华社】记者获悉", "zh", "en") is None  # no heading of the list


def test_a_label_in_brackets_that_is_no_heading_is_translated_alone_in_brackets() -> None:
    """【】 that starts a segment is a heading ('[…]'); inside a sentence a button's name ('"…"')."""
    from doctrans.quoted_terms import find_quoted_terms, quoted
    label, = find_quoted_terms("【温馨提醒】请勿关机。", "zh", "en")
    assert quoted(label, "Friendly reminder", "【温馨提醒】请勿关机。") == "[Friendly reminder]"
    button, = find_quoted_terms("点击【高级选项】按钮。", "zh", "en")
    assert quoted(button, "Advanced Options", "点击【高级选项】按钮。") == '"Advanced Options"'


def test_a_label_comes_first_with_the_space_its_language_sets() -> None:
    prep = prepare("Tip: Press Ctrl+S to save.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("按 ⦅1⦆ 保存。").text == "提示：按Ctrl+S保存。"
    prep = prepare("提示：按 Ctrl+S 保存。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("Press ⦅1⦆ to save.").text == "Tip: Press Ctrl+S to save."


@pytest.mark.parametrize(("text", "src", "tgt", "written"), [
    ("第三条 费用及支付方式", "zh", "en", "Article 3 Fees and Payment"),
    ("第四条\u3000违约责任", "zh", "en", "Article 4 Liability for Breach"),
    ("Article 8 Termination", "en", "zh", "第8条 终止"),
    ("第四条 双方同意如下", "zh", "en", None),  # not a heading: the model's
])
def test_a_contracts_numbered_heading(text: str, src: str, tgt: str, written: str | None) -> None:
    """A placeholder for 第三条 hid the heading after it: "The Article 3 Field and payments"."""
    from doctrans.direction_terms import automatic_terms
    from doctrans.verbatim import check

    assert prepare(text, 16, tgt_lang=tgt, src_lang=src).copy == written
    if written is not None:  # nothing inside the heading (违约 of 违约责任) is asked of it again
        assert not check(text, written, automatic_terms(text, [], src, tgt))


@pytest.mark.parametrize(("text", "src", "tgt", "written"), [
    ("Getting Started with Acme CLI", "en", "zh", "Acme CLI 入门"),
    ("Introduction to Python 3.12", "en", "zh", "Python 3.12 简介"),
    ("Django Overview", "en", "zh", "Django 概述"),
    ("Python简介", "zh", "en", "Introduction to Python"),
    ("安装 Node.js", "zh", "en", "Installing Node.js"),
    ("Introduction to machine learning", "en", "zh", None),  # no name: the model's
    ("Getting Started with the App", "en", "zh", None),
])
def test_a_manuals_heading_about_a_named_thing(text: str, src: str, tgt: str, written: str | None) -> None:
    """``Getting Started with Acme CLI`` came back ``使用 Acmem CLI开始``."""
    assert prepare(text, 16, tgt_lang=tgt, src_lang=src).copy == written


@pytest.mark.parametrize(("text", "written"), [
    ("Services.", "服务。"),  # an agreement's run-in heading: came back 服务生, a waiter
    ("Governing Law.", "适用法律。"),
    # A lease's: Premises. came back 潘提斯 (a name), Pets. 皮特 (Pete), Rent. 入口 (an entrance).
    ("Premises.", "租赁房屋。"),
    ("Pets.", "宠物。"),
    ("Security Deposit.", "押金。"),
    ("No.", None),  # a word of dialogue
    ("Something else.", None),
    ("Note: Do not open the case.", "注意："),  # a label before a sentence with its stop stays a label
])
def test_a_run_in_heading_with_its_full_stop(text: str, written: str | None) -> None:
    found = section_headings.find_section_heading(text, "en", "zh")
    assert [s.target for s in found] == ([written] if written else [])


@pytest.mark.parametrize(("text", "tgt", "written"), [
    # A results table's header row: 收入（亿元） came back "Introduction" (the unit gone), 同比增长
    # "It's like a grower", 占比 "Shoot"; Revenue ($m) 收入 ($m).
    ("收入（亿元）", "en", "Revenue (100 million yuan)"),
    ("同比增长", "en", "YoY Growth"),
    ("占比", "en", "Share of Total"),
    ("Revenue ($m)", "zh", "收入（百万美元）"),
    ("Growth (%)", "zh", "增长（%）"),
    ("Margin (%)", "zh", "利润率（%）"),  # left in English, as was "Segment"
    ("Segment", "zh", "业务板块"),
    ("SYNOPSIS", "zh", "概要"),  # a man page's, left in English
    ("概要", "en", "Summary"),  # the Chinese reads back as before
    ("Revenue (in thousands)", "zh", None),  # a unit the list does not know: the model's
    ("Foo (%)", "zh", None),  # no heading of the list
])
def test_a_columns_heading_with_its_unit(text: str, tgt: str, written: str | None) -> None:
    found = section_headings.find_section_heading(text, "zh" if tgt == "en" else "en", tgt)
    assert [s.target for s in found if s.kind == "heading"] == ([written] if written else [])


def test_a_releases_changelog_heading_with_its_version() -> None:
    """# v2.4.0 更新日志 came back "v2.4.0 updates logging"."""
    found = section_headings.find_section_heading("v2.4.0 更新日志", "zh", "en")
    assert [s.target for s in found] == ["v2.4.0 Changelog"]
    assert [s.target for s in section_headings.find_section_heading("版本说明", "zh", "en")] == ["Release Notes"]


@pytest.mark.parametrize(("text", "tgt", "written"), [
    # A foundation's annual report: Outlook for 2026 came back 查看2026 ("view"), its title Annual
    # Report 2025: Key Findings 年度报告2025：键查找 ("key lookup"), Challenges Challges.
    ("Outlook for 2026", "zh", "2026年展望"),
    ("Annual Report 2025: Key Findings", "zh", "2025年年度报告：主要发现"),
    ("2025 Highlights", "zh", "2025年要点"),
    ("Challenges", "zh", "挑战"),
    ("Programme Highlights", "zh", "项目亮点"),
    ("2026年展望", "en", "Outlook 2026"),
    ("2025年度报告", "en", "Annual Report 2025"),  # 年度报告, the annual report
    ("2026年度工作计划", "en", "Work Plan 2026"),  # 年度, the year's
    ("2025年年度报告：主要发现", "en", "Annual Report 2025: Key Findings"),
    ("Plans for 2026", "zh", None),  # no heading of the list: the model's
    ("Annual Report 2025: A Year of Growth", "zh", None),  # one heading of the list: the model's
    # A sales review's title came back 详细销售审查 ("a detailed sales inspection"): a heading and its period.
    ("Quarterly Sales Review: Q3 2026", "zh", "季度销售回顾：2026年第三季度"),
    ("Summary 1066", "zh", None),  # no year of these centuries
])
def test_a_heading_with_its_year_and_two_headings_joined(text: str, tgt: str, written: str | None) -> None:
    found = section_headings.find_section_heading(text, "zh" if tgt == "en" else "en", tgt)
    assert [s.target for s in found if s.kind == "heading"] == ([written] if written else [])


@pytest.mark.parametrize(("text", "tgt", "written"), [
    # A sales review's chart heading Revenue by Region came back 收入由Region.
    ("Revenue by Region", "zh", "按地区划分的收入"),
    ("Revenue by region ($m)", "zh", "按地区划分的收入（百万美元）"),  # the unit is the whole heading's
    ("按地区划分的收入", "en", "Revenue by Region"),
    ("Stand by Me", "zh", None),
])
def test_a_heading_broken_down_by_another(text: str, tgt: str, written: str | None) -> None:
    found = section_headings.find_section_heading(text, "zh" if tgt == "en" else "en", tgt)
    assert [s.target for s in found if s.kind == "heading"] == ([written] if written else [])


@pytest.mark.parametrize(("source", "translation", "written"), [
    # A novel's 第三章 雨夜 came back "Chapter 3, rain".
    ("第三章 雨夜", "Chapter 3, rain", "Chapter 3: Rain"),
    ("第十二回　归来", "Chapter 12. Coming back", "Chapter 12: Coming back"),
    ("第三章 雨夜", "Chapter 3: Rain", "Chapter 3: Rain"),
    ("第三章雨夜", "Chapter 3, rain", "Chapter 3, rain"),  # no space: the number may be the sentence's
    ("第三章 他说：“好。”", "Chapter 3, he said: \"Good.\"", "Chapter 3, he said: \"Good.\""),  # no title
])
def test_a_chapters_title_follows_its_number_after_a_colon(source: str, translation: str, written: str) -> None:
    assert section_headings.titled_part(source, translation, translation.split(",")[0].split(".")[0]
                                        .split(":")[0]) == written


@pytest.mark.parametrize(("text", "written"), [
    # A news page's byline label came back 虚假：("false"), a charity's Message from the Chair 消息.
    ("Published: Tuesday, 24 November 2026", "发布时间："),
    ("Message from the Chair", "主席致辞"),
    ("Indicator", "指标"),  # a table's column, 指示器 (a gauge)
])
def test_a_news_pages_and_a_charitys_report_headings(text: str, written: str) -> None:
    found = section_headings.find_section_heading(text, "en", "zh")
    assert [s.target for s in found] == [written]


@pytest.mark.parametrize("text", ["What's in the box: a coffee maker and a carafe.",
                                  "What’s in the box: a coffee maker and a carafe."])
def test_a_label_with_an_apostrophe(text: str) -> None:
    # A product page's "What's in the box:" came back 盒子里是什么 ("what is in the box?").
    assert section_headings.leading_label(text, "en", "zh") == (19, "包装清单：")


def test_a_heading_alone_in_brackets_into_english() -> None:
    """A shop page's 【售后服务】 came back 【 after-sales service 】 (a term of the report list, copied
    with its brackets): a heading of the list alone in 【】 is [After-Sales Service]."""
    assert prepare("【售后服务】", 16, tgt_lang="en", src_lang="zh").copy == "[After-Sales Service]"
    assert prepare("【 产品特点 】", 16, tgt_lang="en", src_lang="zh").copy == "[Product Features]"
