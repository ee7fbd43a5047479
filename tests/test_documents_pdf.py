"""PDF: paragraphs rebuilt, furniture detected, translated PDF/docx/txt written and readable."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from pypdf import PdfReader

from doctrans.documents import read_document
from doctrans.translate_job import translate_file
from tests.document_builders import make_pdf
from tests.fakes import FakeTranslator


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_pdf(tmp_path_factory.mktemp("pdf") / "review.pdf")


def test_paragraphs_columns_hyphenation_and_furniture(source: Path) -> None:
    blocks = list(read_document(source).blocks())
    body = [(b.kind, b.page, b.text) for b in blocks if b.kind not in ("header", "footer")]
    assert body[0] == ("heading", 0, "Introduction")
    # Joined across line breaks, "contin-" + "ues" de-hyphenated, one block per paragraph.
    assert body[1] == ("paragraph", 0, "The first paragraph starts here and it continues on the next "
                       "line without a break. It has two sentences in total.")
    assert body[2][2] == "A second paragraph follows after a gap. It is short."
    texts = [t for _, _, t in body]
    # Two columns: the left column is read entirely before the right one.
    left = next(i for i, t in enumerate(texts) if t.startswith("Left column"))
    right = next(i for i, t in enumerate(texts) if t.startswith("Right column"))
    assert left < right and "Left ends now." in texts[left]
    # "It also goes down." ends a paragraph: "Right" would have fitted on that line.
    assert texts[right:right + 2] == ["Right column text begins. It also goes down.", "Right ends now."]
    assert ("heading", 2, "Summary") in body and "他来了。她走了！我们都很好。" in texts
    # The repeated header and the page-number footer are not body text; they come once each.
    assert not any("ACME" in t or t.startswith("Page ") for t in texts)
    furniture = [(b.kind, b.text) for b in blocks if b.kind in ("header", "footer")]
    assert furniture == [("header", "ACME Quarterly Review"), ("footer", "Page 1")]


def test_translated_pdf_keeps_pages_and_order(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    tr = FakeTranslator()
    translate_file(source, out, tr)
    reader = PdfReader(out)
    assert len(reader.pages) == 3
    pages = [p.extract_text() for p in reader.pages]
    assert "INTRODUCTION" in pages[0] and "CONTINUES ON THE NEXT" in pages[0]
    assert pages[0].index("INTRODUCTION") < pages[0].index("A SECOND PARAGRAPH")
    assert pages[1].index("LEFT COLUMN") < pages[1].index("RIGHT COLUMN")
    assert "他来了。" in pages[2] and pages[2].index("SUMMARY") < pages[2].index("THE LAST WORDS")
    # Header translated once, drawn on every page; the page-number footer renumbered per page.
    assert tr.calls.count("ACME Quarterly Review") == 1
    for no, text in enumerate(pages, 1):
        assert "ACME QUARTERLY REVIEW" in text and f"PAGE {no}" in text


def test_cjk_target_uses_a_cjk_font(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "zh.pdf"
    translate_file(source, out, FakeTranslator(fn=lambda s: "译文：" + s, tgt_lang="zh"))
    text = PdfReader(out).pages[0].extract_text()
    assert "译文：Introduction" in text
    for layout in ("layout", "reflow"):
        out = tmp_path / f"zh-{layout}.pdf"
        translate_file(source, out, FakeTranslator(fn=lambda s: "译文：" + s, tgt_lang="zh"), pdf_layout=layout)
        # The font the translation is drawn with (the source's own fonts stay in the layout output's resources).
        drawn: set[str] = set()

        def visit(text, _cm, _tm, font, _size, drawn=drawn) -> None:  # type: ignore[no-untyped-def]
            if font and "译" in text:
                drawn.add(str(font["/BaseFont"]))

        for page in PdfReader(out).pages:
            page.extract_text(visitor_text=visit)
        # An installed TrueType CJK font is embedded as a subset ("ABCDEF+Name"); else the built-in CID font.
        assert drawn and all("+" in f or f == "/STSong-Light" for f in drawn), drawn


@pytest.mark.parametrize("suffix", [".docx", ".txt"])
def test_pdf_to_other_formats(source: Path, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / ("out" + suffix)
    translate_file(source, out, FakeTranslator())
    if suffix == ".docx":
        d = docx.Document(str(out))
        heads = [p.text for p in d.paragraphs if p.style.name.startswith("Heading")]
        assert heads == ["INTRODUCTION", "TWO COLUMNS", "SUMMARY"]
        assert d.sections[0].header.paragraphs[-1].text == "ACME QUARTERLY REVIEW"
    else:
        text = out.read_text(encoding="utf-8")
        assert text.index("INTRODUCTION") < text.index("TWO COLUMNS") < text.index("SUMMARY")
        assert "\f" in text  # page breaks kept as form feeds


def test_a_specification_sheets_fields_are_read_one_per_line(tmp_path: Path) -> None:
    """Set at the same leading as prose, ``Label: value`` lines were read as paragraphs of two
    fields each (``Dimensions: 120 x 80 x 45 mm Weight: approx. 1.2 kg``)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    fields = ["Dimensions: 120 x 80 x 45 mm", "Weight: approx. 1.2 kg", "Operating temperature: -20 °C to 60 °C",
              "Power consumption: 15 W", "Warranty: 2 years"]
    path = tmp_path / "spec.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 11)
    for i, line in enumerate(fields):
        c.drawString(72, 800 - 15 * i, line)
    c.drawString(72, 700, "The device supports Wi-Fi 6 and Bluetooth 5.2, with up to 10 hours of")
    c.drawString(72, 685, "battery life, which is more than the last model had.")
    c.save()
    texts = [b.text for b in read_document(path).blocks()]
    assert texts[:5] == fields
    assert texts[5].startswith("The device") and texts[5].endswith("last model had.")


def test_a_wrapped_line_that_starts_with_a_decimal_continues_its_paragraph(tmp_path: Path) -> None:
    """``…improves BLEU by`` / ``0.8 points on TVsub…`` was cut into a paragraph and a list item
    ``0.8``; a section number before a capital still starts its own block."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = tmp_path / "paper.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 10)
    lines = ["The memory model improves BLEU by", "0.8 points on TVsub and 1.2 on",
             "pydocs, with 3.5 million tokens of", "12.5 hours of training data."]
    for i, line in enumerate(lines):
        c.drawString(72, 800 - 12 * i, line)
    c.drawString(72, 740, "1.2 Results of the second run")
    c.save()
    blocks = list(read_document(path).blocks())
    assert blocks[0].kind == "paragraph" and blocks[0].text == " ".join(lines)
    assert blocks[1].kind == "list_item" and blocks[1].text.startswith("Results")


def test_a_table_of_contents_is_read_one_entry_per_line(tmp_path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    entries = ["1 Introduction ........................ 3", "2 Market Overview ..................... 5",
               "3 Financial Results ................... 12"]
    path = tmp_path / "toc.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 11)
    for i, line in enumerate(entries):
        c.drawString(72, 800 - 14 * i, line)
    c.save()
    assert [b.text for b in read_document(path).blocks()] == entries


def test_underscores_drawn_as_strokes_are_read(tmp_path: Path) -> None:
    """TeX and Texinfo draw ``_`` in roman text as a short rule on the baseline, no character:
    libtasn1's manual read ``asn1 write value`` and the model translated the function's name.
    An underlined word (a stroke under glyphs, not between them) gains no underscore."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    path = tmp_path / "manual.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    size, x, y = 10.0, 72.0, 800.0
    c.setFont("Times-Roman", size)
    c.setLineWidth(0.4)
    for i, word in enumerate(["Call", "asn1", "write", "value", "to", "set", "it."]):
        c.drawString(x, y, word)
        x += stringWidth(word, "Times-Roman", size)
        if i in (1, 2):  # asn1_write_value: the two underscores are strokes in a narrow gap
            c.line(x + 0.6, y, x + 3.6, y)
            x += 4.2
        else:
            x += stringWidth(" ", "Times-Roman", size)
    c.drawString(72, 770, "Read the manual first.")
    c.line(72 + stringWidth("Read the ", "Times-Roman", size), 768.5,
           72 + stringWidth("Read the manual", "Times-Roman", size), 768.5)
    c.save()
    assert [b.text for b in read_document(path).blocks()] == ["Call asn1_write_value to set it.",
                                                              "Read the manual first."]


def test_a_functions_parameters_and_a_call_after_a_colon_are_read_apart(tmp_path: Path) -> None:
    """A reference manual's parameter list (``name: description``, one item each) and a call set
    after ``Example:`` in the text's font. Where the next item's name would not have fitted on the
    line above, the paragraph rule alone joined them (libtasn1's manual, once its underscores
    were read: ``definitions: … function source_name: …``)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    lines = ["definitions: pointer to the structure returned by the parser function",
             "certificate_structure_name: the name of the type of the new structure",
             "Creates a structure of that type, for example:",
             "rc = asn1_create_element(cert_def, \"PKIX1.Certificate\", certptr);"]
    widths = [stringWidth(t, "Times-Roman", 10) for t in lines]
    # Each next line's first word would not have fitted in the room the line above left.
    assert max(widths) - widths[0] < stringWidth("certificate_structure_name:", "Times-Roman", 10)
    assert max(widths) - widths[2] < stringWidth("rc = asn1_create_element(cert_def,", "Times-Roman", 10)
    path = tmp_path / "reference.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 10)
    for i, line in enumerate(lines):
        c.drawString(72, 800 - 12 * i - (6 if i >= 2 else 0), line)  # a paragraph's gap before the third
    c.save()
    assert [b.text for b in read_document(path).blocks()] == lines


def test_a_table_under_a_paragraph_is_read_cell_by_cell(tmp_path: Path) -> None:
    """A report's table under its last paragraph: the header cell was read into the paragraph
    ("…at City Hall. Item") and each column's cells into one paragraph ("Revenue ($m) Headcount",
    translated as one sentence and drawn across both rows)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

    path = tmp_path / "table.pdf"
    body = getSampleStyleSheet()["BodyText"]
    SimpleDocTemplate(str(path), pagesize=A4).build([
        Paragraph("The council will hold a public meeting on the project at 7 p.m. on April 3 at City Hall.", body),
        Table([["Item", "2024", "2025"], ["Revenue ($m)", "3,840", "4,300"], ["Headcount", "8,200", "9,050"]]),
    ])
    texts = [b.text for b in read_document(path).blocks()]
    assert texts[0].endswith("at City Hall.")
    assert {"Item", "Revenue ($m)", "Headcount", "2024", "3,840", "9,050"} <= set(texts)


@pytest.mark.parametrize("align", ["CENTER", "LEFT"])
def test_a_table_is_read_row_by_row_before_the_heading_under_it(tmp_path: Path, align: str) -> None:
    """A report's table (reportlab centres one) was read column by column ("Metric, Revenue ($m),
    Operating margin, 2024, …") and after the heading under it: nothing spans a centred table and
    the heading at the margin, so the heading read as a column of its own to the table's left."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

    path = tmp_path / "table.pdf"
    styles = getSampleStyleSheet()
    SimpleDocTemplate(str(path), pagesize=A4).build([
        Paragraph("Revenue grew 6% to $1.42 billion in 2025, driven by demand for our pumps.", styles["BodyText"]),
        Table([["Metric", "2024", "2025"], ["Revenue ($m)", "1,340", "1,420"], ["Operating margin", "12.9%", "11.3%"]],
              hAlign=align),
        Paragraph("Outlook", styles["Heading2"]),
        Paragraph("We expect revenue growth of 4% to 6% in 2026.", styles["BodyText"]),
    ])
    texts = [b.text for b in read_document(path).blocks()]
    assert texts[1:] == ["Metric", "2024", "2025", "Revenue ($m)", "1,340", "1,420", "Operating margin", "12.9%",
                         "11.3%", "Outlook", "We expect revenue growth of 4% to 6% in 2026."]


def test_a_centred_title_and_a_heading_at_the_margin_in_one_font_are_read_apart(tmp_path: Path) -> None:
    """A report's centred title "Annual Report 2025" over its heading "Message from the Chair" (both
    18-point bold in reportlab's styles) was read as one line, translated as one: 年度报告2025消息."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    path = tmp_path / "report.pdf"
    styles = getSampleStyleSheet()
    SimpleDocTemplate(str(path), pagesize=A4).build([
        Paragraph("Annual Report 2025", styles["Title"]),
        Paragraph("Message from the Chair", styles["Heading1"]),
        Paragraph("Dear friends, 2025 was a year of steady progress. With your support, we connected twelve "
                  "more villages to clean water and trained many local technicians this year.", styles["Normal"]),
    ])
    texts = [b.text for b in read_document(path).blocks()]
    assert texts[:2] == ["Annual Report 2025", "Message from the Chair"]
    assert texts[2].startswith("Dear friends") and texts[2].endswith("this year.")


def test_a_centred_title_comes_before_a_short_heading_left_of_it_and_lower(tmp_path: Path) -> None:
    """A business brief's centred title came after its first heading (一、总体情况), which stands left
    of it and lower: read as a column to its left. The shared-mime-info spec's centred author lines
    came after "1. Introduction" and "1.1. Version" the same way."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    styles = getSampleStyleSheet()
    title, heading, body = (ParagraphStyle(name, parent=styles[parent], fontName="STSong-Light")
                            for name, parent in (("t", "Title"), ("h", "Heading1"), ("b", "Normal")))
    path = tmp_path / "brief.pdf"
    SimpleDocTemplate(str(path), pagesize=A4).build([
        Paragraph("2026年第三季度经营简报", title),
        Paragraph("一、总体情况", heading),
        Paragraph("第三季度，公司实现销售收入12.8亿元，环比增长6.2%，同比增长15.4%。", body),
        Paragraph("二、主要产品", heading),
    ])
    texts = [b.text for b in read_document(path).blocks()]
    assert texts[:2] == ["2026年第三季度经营简报", "总体情况"]
    assert texts[2].startswith("第三季度") and texts[3:] == ["主要产品"]
