"""docx: a code listing (code paragraph style or monospace runs) is copied unchanged (issue 14)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
from docx.enum.style import WD_STYLE_TYPE

from doctrans.documents import read_document
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator

CODE_LINE = "for row in rows: print(row.amount)"
MONO_LINE = "SELECT name FROM users WHERE id = 7;"


def _make(path: Path) -> Path:
    d = docx.Document()
    style = d.styles.add_style("Code Block", WD_STYLE_TYPE.PARAGRAPH)
    style.font.name = "Courier New"
    d.add_paragraph("Run this loop over the rows.")
    d.add_paragraph(CODE_LINE, style="Code Block")
    mono = d.add_paragraph()
    mono.add_run(MONO_LINE).font.name = "Consolas"
    mixed = d.add_paragraph("Call ")
    mixed.add_run("print()").font.name = "Consolas"
    mixed.add_run(" to show it.")
    d.save(str(path))
    return path


def test_code_paragraphs_are_verbatim_and_written_back_unchanged(tmp_path: Path) -> None:
    src = _make(tmp_path / "a.docx")
    blocks = [(b.text, b.verbatim) for b in read_document(src).blocks()]
    assert blocks == [("Run this loop over the rows.", False), (CODE_LINE, True), (MONO_LINE, True),
                      ("Call print() to show it.", False)]
    out = tmp_path / "b.docx"
    tr = FakeTranslator()
    translate_file(src, out, tr)
    assert not any(CODE_LINE in c or MONO_LINE in c for c in tr.calls)
    texts = [p.text for p in docx.Document(str(out)).paragraphs]
    assert texts == ["RUN THIS LOOP OVER THE ROWS.", CODE_LINE, MONO_LINE, "CALL PRINT() TO SHOW IT."]
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out) as b:
        xml_a, xml_b = a.read("word/document.xml").decode(), b.read("word/document.xml").decode()
    # The code paragraphs' XML is byte-identical in the output.
    for line in (CODE_LINE, MONO_LINE):
        start_a, start_b = xml_a.rindex("<w:p>", 0, xml_a.index(line)), xml_b.rindex("<w:p>", 0, xml_b.index(line))
        end_a, end_b = xml_a.index("</w:p>", start_a), xml_b.index("</w:p>", start_b)
        assert xml_a[start_a:end_a] == xml_b[start_b:end_b]
