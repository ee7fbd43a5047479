"""Builders of real test documents (python-docx, reportlab), shared by the document/CLI tests.

A helper module (no tests): imported by the document, CLI and layout tests.
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Inches

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
V_NS = "urn:schemas-microsoft-com:vml"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def tiny_png() -> bytes:
    """A valid 2x2 RGB PNG, built by hand (no Pillow needed)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _notes_part(doc: docx.document.Document, kind: str, text: str) -> None:
    """python-docx cannot create footnotes/endnotes: add the part and a reference by hand."""
    tag = "footnote" if kind == "footnotes" else "endnote"
    xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:{kind} xmlns:w="{W_NS}">'
        f'<w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{tag}>'
        f'<w:{tag} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
        f'</w:p></w:{tag}>'
        f'<w:{tag} w:id="1"><w:p><w:r><w:{tag}Ref/></w:r><w:r><w:t xml:space="preserve"> {text} </w:t>'
        f'</w:r><w:r><w:rPr><w:b/></w:rPr><w:t>Bold {tag} end.</w:t></w:r></w:p></w:{tag}>'
        f"</w:{kind}>"
    ).encode()
    ct = f"application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}+xml"
    part = Part(PackURI(f"/word/{kind}.xml"), ct, xml, doc.part.package)
    doc.part.relate_to(part, RT.FOOTNOTES if kind == "footnotes" else RT.ENDNOTES)


def _hyperlink(paragraph, url: str, text: str) -> None:  # type: ignore[no-untyped-def]
    r_id = paragraph.part.relate_to(url, RT.HYPERLINK, is_external=True)
    link = parse_xml(f'<w:hyperlink {nsdecls("w", "r")} r:id="{r_id}"><w:r><w:rPr><w:u w:val="single"/>'
                     f'</w:rPr><w:t>{text}</w:t></w:r></w:hyperlink>')
    paragraph._p.append(link)


def make_docx(path: Path) -> Path:
    doc = docx.Document()
    doc.settings.odd_and_even_pages_header_footer = True
    doc.add_heading("Annual Report", level=1)
    p = doc.add_paragraph("This is ")
    p.add_run("very important").bold = True
    p.add_run(" and ")
    p.add_run("quite subtle").italic = True
    p.add_run(" text. Second sentence here.")
    p.add_run().add_break()
    p.add_run("After the break.")
    fn = parse_xml(f'<w:r {nsdecls("w")}><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
                   '<w:footnoteReference w:id="1"/></w:r>')
    p._p.append(fn)
    doc.add_heading("Details", level=2)
    doc.add_paragraph("First item of the list.", style="List Bullet")
    doc.add_paragraph("Second item of the list.", style="List Number")
    tab = doc.add_paragraph("Name:")
    tab.add_run("\tJohn Smith")
    link = doc.add_paragraph("Read more: ")
    _hyperlink(link, "https://example.com/report", "our web site")
    field = doc.add_paragraph("See page ")
    field._p.append(parse_xml(f'<w:fldSimple {nsdecls("w")} w:instr=" PAGE "><w:r><w:t>7</w:t></w:r>'
                              "</w:fldSimple>"))
    field.add_run(" for the summary.")
    table = doc.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "Cell one."
    table.cell(0, 1).text = "Cell two."
    table.cell(1, 0).text = "Cell three."
    inner = table.cell(1, 1).add_table(rows=1, cols=2)
    inner.cell(0, 0).text = "Nested cell text."
    inner.cell(0, 1).text = "Deep cell."
    doc.add_picture(io.BytesIO(tiny_png()), width=Inches(0.5))
    doc.add_paragraph("这是中文。第二句话。")
    box = doc.add_paragraph("Before the box. ")
    box._p.append(parse_xml(
        f'<w:r {nsdecls("w")} xmlns:v="{V_NS}"><w:pict><v:shape style="width:100pt;height:40pt">'
        '<v:textbox><w:txbxContent><w:p><w:r><w:t>Text box content.</w:t></w:r></w:p></w:txbxContent>'
        "</v:textbox></v:shape></w:pict></w:r>"))
    alt = doc.add_paragraph("Alternate box follows. ")
    alt._p.append(parse_xml(
        f'<w:r {nsdecls("w")} xmlns:v="{V_NS}" xmlns:mc="{MC_NS}"><mc:AlternateContent>'
        '<mc:Choice Requires="wps"><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r>'
        "<w:t>Shape text once.</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Choice>"
        "<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>Shape text once.</w:t>"
        "</w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r>"))
    commented = doc.add_paragraph("A commented sentence.")
    doc.add_comment(commented.runs, text="Please check this claim.", author="Rev")
    section = doc.sections[0]
    section.different_first_page_header_footer = True
    section.header.paragraphs[0].text = "Default header text."
    section.first_page_header.paragraphs[0].text = "First page header."
    section.even_page_header.paragraphs[0].text = "Even page header."
    section.footer.paragraphs[0].text = "Default footer text."
    section.even_page_footer.paragraphs[0].text = "Even footer."
    _notes_part(doc, "footnotes", "A footnote with text.")
    _notes_part(doc, "endnotes", "An endnote here.")
    # The footnote part must exist before its reference id means anything; both are in place now.
    assert doc.element.body.find(".//" + qn("w:footnoteReference")) is not None
    doc.save(str(path))
    return path


def make_pdf(path: Path) -> Path:
    """Three pages: headings, a hyphenated paragraph, two columns, CJK, repeated header/footer."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4)
    w, h = A4

    def furniture(no: int) -> None:
        c.setFont("Helvetica", 9)
        c.drawString(72, h - 30, "ACME Quarterly Review")
        c.drawString(w / 2 - 20, 25, f"Page {no}")

    def lines(x: float, y: float, texts: list[str], size: float = 11, font: str = "Helvetica") -> float:
        c.setFont(font, size)
        for t in texts:
            c.drawString(x, y, t)
            y -= size * 1.25
        return y

    furniture(1)
    lines(72, h - 90, ["Introduction"], 20, "Helvetica-Bold")
    y = lines(72, h - 130, ["The first paragraph starts here and it contin-",
                            "ues on the next line without a break. It has",
                            "two sentences in total."])
    lines(72, y - 20, ["A second paragraph follows after a gap. It is short."])
    c.showPage()
    furniture(2)
    lines(72, h - 90, ["Two Columns"], 20, "Helvetica-Bold")
    lines(72, h - 130, ["Left column text begins.", "It keeps going down here.", "Left ends now."], 10)
    lines(320, h - 130, ["Right column text begins.", "It also goes down.", "Right ends now."], 10)
    c.showPage()
    furniture(3)
    lines(72, h - 90, ["Summary"], 16, "Helvetica-Bold")
    lines(72, h - 130, ["他来了。她走了！我们都很好。"], 11, "STSong-Light")
    lines(72, h - 170, ["The last words of the report."])
    c.showPage()
    c.save()
    return path
