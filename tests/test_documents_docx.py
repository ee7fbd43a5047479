"""docx in place: every text element translated once, everything else unchanged."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
import pytest
from lxml import etree

from doctrans.documents import read_document
from doctrans.segment import segment_block
from doctrans.translate_job import translate_file
from tests.document_builders import make_docx
from tests.fakes import FakeTranslator

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
TEXT_PARTS = {"word/document.xml", "word/footnotes.xml", "word/endnotes.xml", "word/comments.xml"}


def _is_text_part(name: str) -> bool:
    return name in TEXT_PARTS or (name.startswith(("word/header", "word/footer")) and name.endswith(".xml"))


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_docx(tmp_path_factory.mktemp("docx") / "report.docx")


def _expected_sentences(path: Path, tr: FakeTranslator) -> list[str]:
    out = []
    for b in read_document(path).blocks():
        out += [b.text[s:e] for s, e in segment_block(b.text, "en", tr.count_tokens, tr.max_source_tokens)]
    return out


def test_every_text_element_translated_once_and_package_unchanged(source: Path, tmp_path: Path) -> None:
    tr = FakeTranslator()
    out = tmp_path / "out.docx"
    translate_file(source, out, tr)
    # Besides the sentences, a formatted stretch inside a longer paragraph (a bold "very important",
    # a link's "our web site") goes to the engine alone, for the writer to find in the sentence's
    # translation (doctrans.documents.base.Run.group).
    stretches = {b.text[slice(*r.stretch)].strip() for b in read_document(source).blocks() for r in b.runs if r.anchor}
    assert {"very important", "our web site"} <= stretches
    sentences = _expected_sentences(source, tr)
    assert sorted(c for c in tr.calls if c in sentences) == sorted(sentences)
    assert set(tr.calls) - set(sentences) <= stretches
    # nothing sent twice (the fallback text box included)
    assert len([c for c in tr.calls if c in sentences]) == len(set(sentences))
    # Expected content reached the engine as whole sentences, across bold/italic runs.
    for s in ["This is very important and quite subtle text.", "After the break.", "Nested cell text.",
              "Default header text.", "First page header.", "Even page header.", "Even footer.",
              "A footnote with text.", "An endnote here.", "Please check this claim.", "Text box content.",
              "这是中文。", "第二句话。", "Shape text once.", "Read more: our web site", "John Smith"]:
        assert s in tr.calls, s
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(out) as zout:
        assert zin.namelist() == zout.namelist()
        for name in zin.namelist():
            a, b = zin.read(name), zout.read(name)
            if not _is_text_part(name):
                assert a == b, f"{name} changed"
                continue
            ta, tb = etree.fromstring(a), etree.fromstring(b)
            ea, eb = list(ta.iter()), list(tb.iter())
            assert [e.tag for e in ea] == [e.tag for e in eb], name
            for x, y in zip(ea, eb, strict=True):
                if x.tag == W + "t":
                    # Upper-casing keeps lengths, so each run gets exactly its own words back.
                    assert y.text == (x.text or "").upper(), (name, x.text, y.text)
                else:
                    assert dict(x.attrib) == dict(y.attrib), (name, x.tag)
                    assert x.text == y.text


def test_structure_survives_in_python_docx(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.docx"
    translate_file(source, out, FakeTranslator())
    a, b = docx.Document(str(source)), docx.Document(str(out))
    assert [p.style.name for p in a.paragraphs] == [p.style.name for p in b.paragraphs]
    assert len(a.tables) == len(b.tables) and len(b.tables[0].cell(1, 1).tables) == 1
    assert b.tables[0].cell(1, 1).tables[0].cell(0, 0).text == "NESTED CELL TEXT."
    assert len(b.inline_shapes) == len(a.inline_shapes) == 1
    runs = b.paragraphs[1].runs
    assert [(r.text, r.bold, r.italic) for r in runs[:4]] == [
        ("THIS IS ", None, None), ("VERY IMPORTANT", True, None), (" AND ", None, None),
        ("QUITE SUBTLE", None, True)]
    section = b.sections[0]
    assert section.different_first_page_header_footer
    assert section.first_page_header.paragraphs[0].text == "FIRST PAGE HEADER."
    assert section.even_page_footer.paragraphs[0].text == "EVEN FOOTER."
    rels = [r for r in b.part.rels.values() if r.is_external]
    assert [r.target_ref for r in rels] == ["https://example.com/report"]
    # Field results are kept verbatim, text around them is translated.
    xml = b.element.xml
    assert 'w:instr=" PAGE "' in xml and ">7<" in xml and "FOR THE SUMMARY." in xml


def test_formatting_follows_words_when_length_changes(source: Path, tmp_path: Path) -> None:
    """A translation of another length: runs share the target text in order, nothing lost."""
    tr = FakeTranslator(fn=lambda s: "<" + " ".join(w[::-1] for w in s.split()) + ">")
    out = tmp_path / "out.docx"
    translate_file(source, out, tr)
    para = docx.Document(str(out)).paragraphs[1]
    joined = "".join(r.text for r in para.runs)
    assert joined.startswith("<sihT si yrev tnatropmi dna etiuq eltbus .txet> <dnoceS ecnetnes .ereh>")
    assert joined.endswith("<retfA eht .kaerb>")
    # Each formatted run got a non-empty share, at word boundaries (the boundary was between words).
    bold = [r.text for r in para.runs if r.bold]
    italic = [r.text for r in para.runs if r.italic]
    assert bold == [" yrev tnatropmi"] and italic == ["etiuq eltbus "]


def test_text_parts_are_only_changed_where_text_is(source: Path, tmp_path: Path) -> None:
    """Identity translation: every part of the package comes back with identical content."""
    out = tmp_path / "same.docx"
    translate_file(source, out, FakeTranslator(fn=lambda s: s))
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(out) as zout:
        for name in zin.namelist():
            if not _is_text_part(name):
                assert zin.read(name) == zout.read(name)
            else:
                ta = etree.tostring(etree.fromstring(zin.read(name)), method="c14n")
                tb = etree.tostring(etree.fromstring(zout.read(name)), method="c14n")
                assert ta == tb, name


def _formatted_docx(path: Path) -> Path:
    d = docx.Document()
    p = d.add_paragraph("Open the file ")
    code = p.add_run("config.yaml")
    code.font.name = "Courier New"
    p.add_run(" and pay ")
    p.add_run("$4.2 billion").bold = True
    p.add_run(" now.")
    d.save(str(path))
    return path


def test_a_run_the_translation_copied_keeps_exactly_its_characters(tmp_path: Path) -> None:
    """A monospace literal the model moved to the front of the sentence stays monospace over
    exactly its characters, and a figure the engine wrote the target's way stays bold over its
    conversion, however long the rest of the translation is."""
    def reorder(s: str) -> str:
        return "配置文件 config.yaml 要立即打开，并且支付42亿美元。" if "config.yaml" in s else s
    out = tmp_path / "out.docx"
    translate_file(_formatted_docx(tmp_path / "code.docx"), out, FakeTranslator(fn=reorder, tgt_lang="zh"))
    [para] = [p for p in docx.Document(str(out)).paragraphs if p.text]
    assert para.text == "配置文件 config.yaml 要立即打开，并且支付42亿美元。"
    assert [r.text for r in para.runs if r.font.name == "Courier New"] == ["config.yaml"]
    assert [r.text for r in para.runs if r.bold] == ["42亿美元"]


def test_a_bold_figure_with_its_counter_stays_bold_over_the_figure(tmp_path: Path) -> None:
    """A bold 1,285.6万人 (a figure and its counter) maps onto 12.856 million wherever the model put
    it (proportionally it had landed on "million people, compared to the")."""
    d = docx.Document()
    p = d.add_paragraph("截至2024年底，全市常住人口为")
    p.add_run("1,285.6万人").bold = True
    p.add_run("，比上年末增加3.2万人。")
    src = tmp_path / "figure.docx"
    d.save(str(src))
    english = "As of the end of 2024, the entire city is 12.856 million people, compared to the end of the year."
    out = tmp_path / "out.docx"
    translate_file(src, out, FakeTranslator(fn=lambda s: english if "1,285.6" in s else s, tgt_lang="en"))
    [para] = [p for p in docx.Document(str(out)).paragraphs if p.text]
    assert para.text == english
    assert [r.text for r in para.runs if r.bold] == ["12.856 million"]


def test_a_formatted_run_that_starts_a_paragraph_loses_no_words_when_the_model_moves_it(tmp_path: Path) -> None:
    """A bold name that starts the source but not its translation: its image is the name, but the
    paragraph's start stays the translation's, so the words before the name stay (they were lost:
    'Lin Jing opens up.' for 'The rain had stopped when Lin Jing opened the door.'); and a
    run that is wholly a glossary term or name (a document's person: doctrans.document_names adds
    them to the glossary) is found in the translation as the glossary writes it."""
    from doctrans.glossary import Glossary

    d = docx.Document()
    p = d.add_paragraph()
    p.add_run("林静").bold = True
    p.add_run("推开门的时候，雨已经停了。")
    d.add_paragraph("林静说：“走吧。”林静笑了。")
    src = tmp_path / "story.docx"
    d.save(str(src))

    def translate(s: str) -> str:
        return "The rain had stopped when Lin Jing opened the door." if "推开门" in s else s
    out = tmp_path / "out.docx"
    names = Glossary([]).with_names({"林静": "Lin Jing"})
    translate_file(src, out, FakeTranslator(fn=translate, src_lang="zh", tgt_lang="en", glossary=names))
    para = docx.Document(str(out)).paragraphs[0]
    assert para.text == "The rain had stopped when Lin Jing opened the door."
    # Two runs cannot be plain, bold, plain: the bold one ends on the name and keeps the words before.
    assert [r.text for r in para.runs if r.bold] == ["The rain had stopped when Lin Jing"]


def test_a_contracts_bold_defined_party_stays_bold_over_its_chinese_name() -> None:
    """A services agreement's bold "Provider" in (the "Provider") became （以下简称“提供方”） and the
    bold landed on other words (Northwind): the quoted party maps onto “提供方”, where the
    translation writes it."""
    from doctrans.documents.base import Block, TranslatedBlock

    source = 'It is made between Northwind Data Ltd. (the "Provider") and Acme Retail Inc.'
    target = "它在Northwind Data Ltd.（以下简称“提供方”）和Acme Retail Inc.之间订立。"
    tb = TranslatedBlock(Block("paragraph", source), target, [((0, len(source)), (0, len(target)))], "zh")
    start = source.index('"Provider"')
    anchors = tb.copied_anchors([(start, start + len('"Provider"'))])
    assert target[anchors[start]:anchors[start + len('"Provider"')]] == "“提供方”"


def test_a_formatted_phrase_and_a_links_words_land_on_their_translation(tmp_path: Path) -> None:
    """A quarterly review's italic "Please read the full report" and its link's "safety portal" had
    landed proportionally on other words (the link on 心的安); a bold phrase split in two runs (as
    spell checking splits them) is one stretch. Each is translated alone and found in the sentence's
    translation, wherever the model put it."""
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    d = docx.Document()
    p = d.add_paragraph("In the third quarter the plant recorded ")
    p.add_run("zero lost").bold = True
    p.add_run("-time injuries").bold = True
    p.add_run(". ")
    p.add_run("Please read the full report").italic = True
    p.add_run(" before the meeting.")
    p = d.add_paragraph("Details are on the ")
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), d.part.relate_to("https://example.com/s", RELATIONSHIP_TYPE.HYPERLINK, is_external=True))
    run, text = OxmlElement("w:r"), OxmlElement("w:t")
    text.text = "safety portal"
    run.append(text)
    link.append(run)
    p._p.append(link)
    p.add_run(" of the intranet.")
    src = tmp_path / "review.docx"
    d.save(str(src))
    chinese = {
        "In the third quarter the plant recorded zero lost-time injuries.": "第三季度，工厂实现了零误工伤害。",
        "Please read the full report before the meeting.": "会前请阅读完整报告。",
        "Details are on the safety portal of the intranet.": "详情见内网的安全门户。",
        "zero lost-time injuries": "零误工伤害", "Please read the full report": "请阅读完整报告",
        "safety portal": "安全门户",
    }
    out = tmp_path / "out.docx"
    translate_file(src, out, FakeTranslator(fn=lambda s: chinese.get(s, s), tgt_lang="zh"))
    first, second = [p for p in docx.Document(str(out)).paragraphs if p.text]
    assert first.text == "第三季度，工厂实现了零误工伤害。会前请阅读完整报告。"
    assert "".join(r.text for r in first.runs if r.bold) == "零误工伤害"
    assert "".join(r.text for r in first.runs if r.italic) == "请阅读完整报告"
    [linked] = [t.text for t in second._p.iter(W + "t") if t.getparent().getparent().tag == W + "hyperlink"]
    assert linked == "安全门户"
