"""Chinese list markers written the English way in an English translation (doctrans.list_markers)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doctrans import list_markers
from doctrans.engine.protect import prepare
from doctrans.list_markers import chinese_number, counted_point, marker_into
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator


def rows() -> list[tuple[str, str]]:
    return re.findall(r"^\| (\S+) +\| (\S+) +\|$", list_markers.__doc__ or "", re.M)


def test_the_docstring_table_is_parsed() -> None:
    assert len(rows()) == 8


@pytest.mark.parametrize(("marker", "english"), rows())
def test_docstring_table_row(marker: str, english: str) -> None:
    assert marker_into(marker, "en").strip() == english
    assert marker_into(marker, "zh") == marker and marker_into(marker, "ja-JP") == marker


def test_chinese_numbers() -> None:
    assert [chinese_number(x) for x in ("一", "十", "十二", "二十", "九十九", "百", "一百", "十十")] == [
        1, 10, 12, 20, 99, None, None, None]


def test_a_chinese_report_into_english_numbers_its_items_the_english_way(tmp_path: Path) -> None:
    src = tmp_path / "report.txt"
    src.write_text("一、主要成绩\n\n（一）加大研发投入。\n（二）开拓海外市场。\n3、其他\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    translate_file(src, out, FakeTranslator(fn=lambda s: f"<{len(s)}>", src_lang="zh", tgt_lang="en"))
    assert out.read_text(encoding="utf-8") == "1. <4>\n\n(1) <7>\n(2) <7>\n3. <2>\n"
    # Into Chinese the markers stay as they are.
    translate_file(src, out, FakeTranslator(fn=lambda s: f"<{len(s)}>", src_lang="en", tgt_lang="zh"))
    assert out.read_text(encoding="utf-8") == "一、<4>\n\n（一）<7>\n（二）<7>\n3、<2>\n"


def test_a_chinese_pdf_list_into_english(tmp_path: Path) -> None:
    from pypdf import PdfReader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    from doctrans.documents import read_document

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    src = tmp_path / "report.pdf"
    c = canvas.Canvas(str(src))
    c.setFont("STSong-Light", 11)
    c.drawString(72, 760, "过去一年，公司的营业收入保持增长，员工总数达到三千二百人，研发投入继续增加。")
    items = [("一、", "加大研发投入，计划投入更多资金。"), ("二、", "开拓海外市场，重点是东南亚。")]
    for i, (marker, text) in enumerate(items):
        c.drawString(72, 730 - 20 * i, marker)
        c.drawString(96, 730 - 20 * i, text)
    c.save()
    read = [b for b in read_document(src).blocks() if b.kind == "list_item"]
    assert [b.ref.marker for b in read] == ["一、", "二、"]
    out = tmp_path / "out.pdf"
    translate_file(src, out, FakeTranslator(fn=lambda s: f"item {len(s)}", src_lang="zh", tgt_lang="en"))
    text = PdfReader(str(out)).pages[0].extract_text()
    assert "1." in text and "2." in text and "一、" not in text


def test_a_typed_chinese_enumerator_is_kept_out_of_the_model_and_written_the_english_way() -> None:
    """In a docx the marker is often typed text: 一、 reached the model with the heading."""
    from doctrans.engine.protect import prepare

    cases = [("一、工作进展", "1. ", "工作进展"),
             ("（二）开拓国际市场。", "(2) ", "开拓国际市场。"),
             ("3、加强管理", "3. ", "加强管理")]
    for sentence, prefix, model_text in cases:
        prep = prepare(sentence, 16, tgt_lang="en", src_lang="zh")
        assert (prep.prefix, prep.model_text) == (prefix, model_text)
    assert prepare("十二、结论", 16, tgt_lang="en", src_lang="zh").copy == "12. Conclusion"


def test_word_chinese_counting_becomes_decimal_in_an_english_docx(tmp_path: Path) -> None:
    """A Word list numbered 一、二、 (numFmt chineseCounting) in an English translation reads 1. 2."""
    import zipfile

    import docx
    from lxml import etree

    d = docx.Document()
    d.add_paragraph("第一项内容。", style="List Number")
    d.add_paragraph("第二项内容。", style="List Number")
    src = tmp_path / "list.docx"
    d.save(str(src))
    # Number the list the Chinese way, as a Chinese Word template does.
    with zipfile.ZipFile(src) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    root = etree.fromstring(parts["word/numbering.xml"])
    for lvl in root.iter(w + "lvl"):
        lvl.find(w + "numFmt").set(w + "val", "chineseCounting")
        lvl.find(w + "lvlText").set(w + "val", "%1、")
    parts["word/numbering.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    with zipfile.ZipFile(src, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)

    def formats(path: Path) -> set[tuple[str | None, str | None]]:
        with zipfile.ZipFile(path) as z:
            r = etree.fromstring(z.read("word/numbering.xml"))
        return {(lvl.find(w + "numFmt").get(w + "val"), lvl.find(w + "lvlText").get(w + "val"))
                for lvl in r.iter(w + "lvl") if lvl.find(w + "lvlText") is not None}

    out = tmp_path / "list.en.docx"
    translate_file(src, out, FakeTranslator(fn=lambda s: "Item.", src_lang="zh", tgt_lang="en"))
    assert ("decimal", "%1.") in formats(out) and not any(f == "chineseCounting" for f, _ in formats(out))
    translate_file(src, out, FakeTranslator(fn=lambda s: "项目。", src_lang="en", tgt_lang="zh"))
    assert formats(out) == formats(src)  # into Chinese: untouched


@pytest.mark.parametrize(("sentence", "found"), [
    # A work summary's 一是市场竞争日益激烈… 二是应收账款周转天数偏长 came back "One is a market race… It's a 98
    # days…".
    ("一是市场竞争日益激烈。", (2, "First, ")),
    ("十是加强管理。", (2, "Tenth, ")),
    ("一是一，二是二。", None),  # the idiom: one is one
    ("他说一是好事。", None),  # not where the sentence starts
])
def test_a_point_counted_in_prose(sentence: str, found: tuple[int, str] | None) -> None:
    assert counted_point(sentence, "zh", "en") == found
    assert counted_point(sentence, "zh", "de") is None


def test_the_counted_point_is_written_before_the_rest_in_small_letters() -> None:
    prep = prepare("一是市场竞争日益激烈。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "⦅1⦆日益激烈。"  # 市场竞争: a report term
    assert prep.restore("⦅1⦆ is increasingly fierce.").text == "First, market competition is increasingly fierce."
    prep = prepare("一是竞争日益激烈。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("The competition is fierce.").text == "First, the competition is fierce."
    prep = prepare("二是美国市场很大。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("⦅1⦆ market is large.").text == "Second, United States market is large."  # a name: its capital


def test_a_counted_point_that_is_one_term_is_copied_in_small_letters_after_its_marker() -> None:
    """三是持续改善民生: the rest is all one report term, copied without the model, and it came back
    "Third, Continue to improve…" (the term capitalised as a sentence of its own)."""
    prep = prepare("三是持续改善民生。", 16, tgt_lang="en", src_lang="zh")
    assert prep.copy == "Third, continue to improve people's wellbeing."
    # A name keeps its capital (China is a common word too: china, porcelain).
    assert prepare("二是中国汽车工业协会。", 16, tgt_lang="en", src_lang="zh").copy == \
        "Second, China Association of Automobile Manufacturers."
