"""Markdown inline markup in text files: links and emphasis reach the model as plain words and come
back around the words that translate them, targets unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans.documents import read_document
from doctrans.documents.base import Block, TranslatedBlock
from doctrans.documents.markdown_inline import Markup, parse, write
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator

URL = "https://example.com/install"


def _marked(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    plain, runs = parse(text)
    return plain, [(plain[r.start:r.end], r.ref.open, r.ref.close) for r in runs]


@pytest.mark.parametrize("text, plain, runs", [
    (f"Read the [installation guide]({URL}) first.", "Read the installation guide first.",
     [("installation guide", "[", f"]({URL})")]),
    ('See [the FAQ](<faq page.md> "Questions") and [this][ref] or [that][].', "See the FAQ and this or that.",
     [("the FAQ", "[", '](<faq page.md> "Questions")'), ("this", "[", "][ref]"), ("that", "[", "][]")]),
    ("The **default model** is *small*, ~~slow~~ __very fast__.", "The default model is small, slow very fast.",
     [("default model", "**", "**"), ("small", "*", "*"), ("slow", "~~", "~~"), ("very fast", "__", "__")]),
    (f"**[Install]({URL}) now**, please.", "Install now, please.",
     [("Install now", "**", "**"), ("Install", "[", f"]({URL})")]),
    ("每个文档都会重置*记忆*。", "每个文档都会重置记忆。", [("记忆", "*", "*")]),
    ("**默认模型**很小。", "默认模型很小。", [("默认模型", "**", "**")]),
])
def test_markup_is_read_as_runs_over_plain_text(text: str, plain: str, runs: list[tuple[str, str, str]]) -> None:
    assert _marked(text) == (plain, runs)


@pytest.mark.parametrize("text", [
    "Call snake_case_name or __init__ here.",  # identifiers
    "It computes 2*3*4 and a * b * c.",  # arithmetic
    "Use `a*b*c` and `[x](y)` in code.",  # inline code is never markup
    "As shown in [3], the result holds.",  # a citation
    "The logo ![logo](img/logo.png) is an image.",  # images stay verbatim spans
    "A rule: *** and ___ alone.",
])
def test_what_is_not_markup_is_left_alone(text: str) -> None:
    assert _marked(text) == (text, [])


def _block(text: str) -> Block:
    plain, runs = parse(text)
    return Block("paragraph", plain, runs=runs)


def test_a_link_lands_on_the_translation_of_its_words() -> None:
    block = _block(f"Read the [installation guide]({URL}) before you start.")
    target = "开始之前，请阅读安装指南。"
    tb = TranslatedBlock(block, target, [((0, len(block.text)), (0, len(target)))], "zh",
                         phrases={"installation guide": "安装指南"})
    assert write(tb) == f"开始之前，请阅读[安装指南]({URL})。"
    # Without the phrase's translation the place is proportional, but the link and its target stay.
    tb.phrases = {}
    out = write(tb)
    assert out.count(f"]({URL})") == 1 and out.count("[") == 1
    assert out.replace("[", "").replace(f"]({URL})", "") == target


@pytest.mark.parametrize(("words", "alone", "target", "written"), [
    # An FAQ's link was 系统要求 alone, 系统需求 in its sentence: mapped proportionally it cut two
    # words (查看系[统需求以获取](url)详细信息).
    ("system requirements", "系统要求", "查看系统需求以获取详细信息。", "查看[系统需求]({})以获取详细信息。"),
    # Not 阅读安装, which shares as many characters: the shared run ends where the phrase's does.
    ("installation manual", "安装手册", "请阅读安装指南。", "请阅读[安装指南]({})。"),
])
def test_a_link_lands_on_nearly_the_words_of_its_translation_alone(words: str, alone: str, target: str,
                                                                   written: str) -> None:
    url = "https://example.com/requirements"
    block = _block(f"See the [{words}]({url}) for details.")
    tb = TranslatedBlock(block, target, [((0, len(block.text)), (0, len(target)))], "zh", phrases={words: alone})
    assert write(tb) == written.format(url)


def test_a_link_the_model_copied_lands_on_the_copy_not_beside_it() -> None:
    """``[FAQ](url)`` is 常见问题 as a heading alone, but the sentence kept ``FAQ``: mapped
    proportionally, its link went round the e-mail address beside it."""
    faq = "https://acme.example.com/faq"
    block = _block(f"For more help, see the [FAQ]({faq}) or email support@acme.example.com.")
    target = "更多帮助，请参阅FAQ或support@acme.example.com邮件。"
    tb = TranslatedBlock(block, target, [((0, len(block.text)), (0, len(target)))], "zh",
                         phrases={"FAQ": "常见问题"})
    assert write(tb) == f"更多帮助，请参阅[FAQ]({faq})或support@acme.example.com邮件。"


def test_a_link_inside_brackets_stays_inside_them() -> None:
    """``([sign up here](url))`` came back ``[(赋值在这里](url))``: a boundary just inside a bracket
    in the source is just inside it in the translation."""
    url = "https://acme.example.com/signup"
    block = _block(f"An Acme account ([sign up here]({url}))")
    target = "一个 Acme 账户 (赋值在这里)"
    tb = TranslatedBlock(block, target, [((0, len(block.text)), (0, len(target)))], "zh")
    assert write(tb) == f"一个 Acme 账户 ([赋值在这里]({url}))"


def test_phrases_match_whole_words_without_case() -> None:
    block = _block("The **default model** is small.")
    target = "The default models are small, the Default Model too."
    tb = TranslatedBlock(block, target, [((0, len(block.text)), (0, len(target)))], "en",
                         phrases={"default model": "Default model"})
    # ``default models`` does not hold the phrase as whole words; ``Default Model`` does, once.
    assert write(tb) == "The default models are small, the **Default Model** too."


def test_markup_never_cuts_an_image_or_url_and_a_lost_link_keeps_its_target() -> None:
    block = _block("See [the FAQ][faq] or the ![logo](img/logo.png) image.")
    target = "参见FAQ或![logo](img/logo.png)图片。"
    # The proportional image of the link's end falls inside the copied image: it takes it in.
    tb = TranslatedBlock(block, target, [((0, len(block.text)), (0, len(target)))], "zh")
    tb.block.runs[0].end = tb.block.text.index("logo") + 2  # as if the link had covered part of it
    out = write(tb)
    assert "![logo](img/logo.png)" in out and out.count("][faq]") == 1
    # A link over words the translation has no room for (an empty image): the source words and target.
    empty = TranslatedBlock(_block(f"[Guide]({URL})"), "", [], "zh")
    assert write(empty) == f"[Guide]({URL})"


MARKDOWN = f"""# Guide

Read the [installation guide]({URL}) before you start.

**Note the change.**

See [the FAQ][faq] for more.

[faq]: https://example.com/faq "FAQ"
"""

TRANSLATIONS = {
    "Guide": "指南",
    "Read the installation guide before you start.": "开始之前，请阅读安装指南。",
    "installation guide": "安装指南",
    "Note the change.": "注意变化。",
    "See the FAQ for more.": "更多内容见常见问题。",
    "the FAQ": "常见问题",
}


def test_a_markdown_file_keeps_its_links_and_the_model_reads_plain_text(tmp_path: Path) -> None:
    src = tmp_path / "guide.md"
    src.write_text(MARKDOWN, encoding="utf-8")
    before = src.read_bytes()
    tr = FakeTranslator(fn=lambda s: TRANSLATIONS[s], tgt_lang="zh")
    out = tmp_path / "guide.zh.md"
    translate_file(src, out, tr)
    # The sentences reach the model without markup; the link words once more alone (after their
    # sentence, in a fresh session); a run that is a whole sentence needs no second call.
    assert tr.calls == ["Guide", "Read the installation guide before you start.", "installation guide",
                        "Note the change.", "See the FAQ for more.", "the FAQ"]
    assert out.read_text(encoding="utf-8") == f"""# 指南

开始之前，请阅读[安装指南]({URL})。

**注意变化。**

更多内容见[常见问题][faq]。

[faq]: https://example.com/faq "FAQ"
"""
    assert src.read_bytes() == before
    assert [b.text for b in read_document(src).blocks()][1] == "Read the installation guide before you start."


def test_runs_carry_their_markup() -> None:
    _plain, runs = parse("a **b** c")
    assert runs[0].ref == Markup("**", "**") and runs[0].anchor
