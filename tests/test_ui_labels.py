"""A program's buttons and menus quoted in a manual come back as the other language's version
names them (doctrans.ui_labels)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans import ui_labels
from doctrans.data_lists import data_lines
from doctrans.engine.protect import prepare
from doctrans.ui_labels import find_ui_labels
from tests.docstring_tables import three_column_rows


def docstring_table() -> list[tuple[str, str, str]]:
    return three_column_rows(ui_labels)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 10


@pytest.mark.parametrize(("text", "tgt", "spans"), docstring_table())
def test_docstring_table_row(text: str, tgt: str, spans: str) -> None:
    src = "en" if tgt == "zh" else "zh"
    found = [s.target for s in find_ui_labels(text, src, tgt)]
    assert found == ([] if spans == "(none)" else spans.split(" · "))


@pytest.mark.parametrize(("text", "tgt", "spans"), [r for r in docstring_table() if r[2] != "(none)"])
def test_the_labels_reach_what_the_model_reads(text: str, tgt: str, spans: str) -> None:
    """Through prepare, where quoted terms are also kept as written: a label's own target wins
    ("OK" had come back “OK” into Chinese, the quote kept whole over the label inside it)."""
    from doctrans.engine.protect import prepare

    src = "en" if tgt == "zh" else "zh"
    prep = prepare(text, 16, tgt_lang=tgt, src_lang=src)
    labels = spans.split(" · ")
    assert [s.output for s in prep.masked.spans if s.output in labels] == labels


def test_every_label_reads_back_both_ways() -> None:
    for line in data_lines("ui_labels.tsv"):
        english, chinese = (side.split("|") for side in line.split("\t"))
        [span] = find_ui_labels(f'点击“{chinese[0]}”按钮', "zh", "en")
        assert span.target == f'"{english[0]}"', line
        back = find_ui_labels(f'Click "{span.target[1:-1]}" now.', "en", "zh")
        assert [s.target for s in back] == [f"“{chinese[0]}”"], line
    assert find_ui_labels('Click "OK".', "en", "de") == []


def test_a_manual_through_the_shipped_model(tmp_path: Path) -> None:
    """The buttons the steps name reach the translation, quoted, through the built-in model."""
    from doctrans.translate_job import translate_file
    from tests.shipped_models import shipped_translator

    src = tmp_path / "steps.zh.txt"
    src.write_text("1. 在弹出的对话框中点击【下一步】。\n2. 勾选“我接受”，然后点击“安装”按钮。\n", encoding="utf-8")
    out = tmp_path / "steps.en.txt"
    translate_file(src, out, shipped_translator("zh", "en"))
    first, second = out.read_text(encoding="utf-8").splitlines()
    assert first.startswith("1. ") and '"Next"' in first, first
    assert '"I Accept"' in second and '"Install"' in second, second


def test_a_menu_paths_unknown_chinese_label_is_translated_alone_into_english() -> None:
    """“账号设置 > 安全” came back "账号设置 > Security": the label the list did not know was left in
    Chinese. Each unknown label is now translated alone; the known ones come from the list."""
    asked: list[str] = []
    prep = prepare("请打开“账号设置 > 登录保护”页面。", 16, tgt_lang="en", src_lang="zh",
                   alone=lambda text: asked.append(text) or "Login protection")
    assert asked == ["登录保护"]
    assert [s.target for s in prep.masked.spans] == ["Account Settings", "Login protection"]
    assert prep.restore('Open the "⦅1⦆ > ⦅2⦆" page.').text == 'Open the "Account Settings > Login protection" page.'
    # All labels known: one span, as before.
    whole = prepare("在 设置 > 安全 中开启。", 16, tgt_lang="en", src_lang="zh")
    assert [s.target for s in whole.masked.spans] == ["Settings > Security"]


def test_a_faqs_menu_path_is_written_whole_into_chinese() -> None:
    """"Go to **Settings > Account > Password**" came back 设置 > Account > Password: two labels the list
    did not know were left in English."""
    found = find_ui_labels("Go to Settings > Account > Password and click Reset.", "en", "zh")
    assert [(s.text, s.target) for s in found] == [("Settings > Account > Password", "设置 > 账户 > 密码")]
