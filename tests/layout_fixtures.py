"""Real-shaped PDFs made with reportlab, each with the blocks a reader should find in it.

The builders typeset the way real tools do -- paragraphs wrapped to a column width with the font's
own metrics, lines filled to a common width, two columns on shared baselines, bullets hanging
left of their text, Chinese at 1.64x and 2x leading wrapped character by character (so a word
like 项目负责人 is cut across lines) -- and return, besides the file, the true blocks in reading
order, so a test can compare what the reader found with what was written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tests.document_builders import tiny_png

HEADER = "ACME Ltd. · Technical Note 7"
CODE = [
    "def total(rows):",
    "    return sum(r.amount for r in rows)",
    "",
    'print(total(load("q3.csv")))',
]


@dataclass
class Expected:
    body: list[tuple[str, str]] = field(default_factory=list)  # (kind, text) in reading order
    code: list[str] = field(default_factory=list)  # verbatim blocks
    header: str = HEADER
    header_pages: int = 0
    page_numbers: list[str] = field(default_factory=list)
    # Every (page, x0, y0, x1, y1) where a body block sits, for the layout writer's test.
    boxes: dict[str, tuple[int, float, float, float, float]] = field(default_factory=dict)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.lib.utils import simpleSplit

    return simpleSplit(text, font, size, width)


def _wrap_cjk(text: str, size: float, width: float, indent: int = 0) -> list[str]:
    per_line = int(width // size)
    lines, i = [], 0
    first = per_line - indent
    lines.append(text[:first])
    i = first
    while i < len(text):
        lines.append(text[i:i + per_line])
        i += per_line
    return lines


def make_layout_pdf(path: Path) -> tuple[Path, Expected]:
    """Three A4 pages (see the module doc): letter-like prose, lists, code, an image, a drawn table,
    two columns, a right-aligned closing, a top-right running header, page numbers, Chinese."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    w, h = A4
    left, right = 56.0, w - 56.0
    c = canvas.Canvas(str(path), pagesize=A4)
    exp = Expected()

    def furniture(no: int) -> None:
        c.setFont("Helvetica", 9)
        c.drawRightString(right, h - 36, HEADER)  # top right, every page
        c.drawCentredString(w / 2, 30, str(no))
        exp.header_pages += 1
        exp.page_numbers.append(str(no))

    def para(text: str, x: float, y: float, width: float, size: float = 11, leading: float = 14,
             font: str = "Helvetica", kind: str = "paragraph", key: str = "") -> float:
        c.setFont(font, size)
        lines = _wrap(text, font, size, width)
        for i, line in enumerate(lines):
            c.drawString(x, y - i * leading, line)
        exp.body.append((kind, text))
        if key:
            exp.boxes[key] = (c.getPageNumber() - 1, x, y - (len(lines) - 1) * leading - 0.25 * size,
                              x + width, y + size)
        return y - len(lines) * leading

    def item(marker: str, text: str, y: float, size: float = 11, leading: float = 14) -> float:
        c.setFont("Helvetica", size)
        c.drawString(left + 10, y, marker)
        lines = _wrap(text, "Helvetica", size, right - left - 22)
        for i, line in enumerate(lines):
            c.drawString(left + 22, y - i * leading, line)
        exp.body.append(("list_item", text))
        return y - len(lines) * leading - 3

    # ---- page 1: image, heading, prose, bullets, numbered items, code
    furniture(1)
    c.drawImage(ImageReader(io.BytesIO(tiny_png())), left, h - 96, 40, 40)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(left, h - 130, "Quarterly Survey of Field Equipment")
    exp.body.append(("heading", "Quarterly Survey of Field Equipment"))
    y = para("This note summarises the survey of field equipment carried out in the third quarter. "
             "Every site reported its inventory, the condition of each unit and the repairs done since "
             "the last survey, and the figures were checked against the purchase records kept at the "
             "head office before they were entered here.", left, h - 160, right - left, key="p1")
    y = para("The results are grouped by region. Where a site did not answer, the figures of the "
             "previous quarter were carried forward and marked as estimates in the tables.",
             left, y - 8, right - left)
    y -= 10
    y = item("•", "Pumps and compressors were inspected at all sites.", y)
    y = item("•", "Generators older than ten years were tested under load, and those that failed the "
                  "test were scheduled for replacement before the winter season begins.", y)
    y = item("•", "Spare parts were counted by hand.", y)
    y -= 6
    y = item("1.", "Send the completed forms to the regional office.", y)
    y = item("2.", "Keep a copy of every form for the next survey.", y)
    y -= 12
    c.setFont("Courier", 9)
    for i, line in enumerate(CODE):
        c.drawString(left + 10, y - i * 11, line)
    exp.body.append(("paragraph", "\n".join(CODE)))
    exp.code.append("\n".join(CODE))
    c.showPage()

    # ---- page 2: two columns on shared baselines, a full-width paragraph, a table, the closing
    furniture(2)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(left, h - 90, "Two Regions Compared")
    exp.body.append(("heading", "Two Regions Compared"))
    col = (right - left - 24) / 2
    north = ["The northern region has the oldest equipment of the company. Most of its pumps were "
             "installed before the network was extended, and they need more frequent repairs.",
             "A replacement programme was agreed in the spring and will start next year."]
    south = ["The southern region bought new generators last year. Their first inspection found "
             "no faults, and the maintenance costs fell by a third compared with the year before.",
             "The region also trained two new technicians this quarter."]
    for x, texts, key in ((left, north, "left"), (left + col + 24, south, "right")):
        y = h - 120
        for t in texts:
            y = para(t, x, y, col, size=10, leading=12.5, key=key if t is texts[0] else "") - 6
    # Reading order: the whole left column, then the right one (their entries were appended in turn).
    y = para("Both regions will report again at the end of the next quarter, using the same forms "
             "and the same checklist as this time.", left, h - 260, right - left, key="full")
    # A drawn table: header row and two rows, with ruling lines.
    top, rows, xs = y - 10, [("Region", "Condition"), ("North", "Needs repairs"), ("South", "Good")], \
        [left, left + 150, left + 300]
    c.setLineWidth(0.5)
    for i in range(len(rows) + 1):
        c.line(xs[0], top - i * 20, xs[-1], top - i * 20)
    for x in xs:
        c.line(x, top, x, top - 20 * len(rows))
    c.setFont("Helvetica", 10)
    for i, (a, b) in enumerate(rows):
        c.drawString(xs[0] + 5, top - 20 * i - 14, a)
        c.drawString(xs[1] + 5, top - 20 * i - 14, b)
    # Breuel's order reads a ruled table column by column (no block spans the two).
    exp.body += [("paragraph", a) for a, _ in rows] + [("paragraph", b) for _, b in rows]
    y = top - 20 * len(rows) - 40
    c.setFont("Helvetica", 11)
    c.drawRightString(right, y, "Yours sincerely,")
    c.drawRightString(right, y - 40, "Peter Brown, Sales Manager")
    exp.body += [("paragraph", "Yours sincerely,"), ("paragraph", "Peter Brown, Sales Manager")]
    exp.boxes["closing"] = (1, right - pdfmetrics.stringWidth("Yours sincerely,", "Helvetica", 11), y - 3,
                            right, y + 11)
    c.showPage()

    # ---- page 3: Chinese at 1.64x and 2x leading, first lines indented two characters, CJK list
    furniture(3)
    c.setFont("STSong-Light", 16)
    c.drawString(left, h - 90, "调查结果")
    exp.body.append(("heading", "调查结果"))
    zh = [("本次调查由项目负责人王明组织，各地区的技术人员参加了现场检查。调查覆盖了全部二十三个站点，"
           "记录了每台设备的型号、安装年份和维修情况，并与总部保存的采购记录逐一核对。", 18.0),
          ("调查发现，北部地区的设备普遍老化，需要尽快安排更换；南部地区去年购置的新发电机运行良好，"
           "维护费用比前一年下降了三分之一。建议明年继续按照同样的方法开展调查。", 22.0)]
    y = h - 125
    for text, leading in zh:
        lines = _wrap_cjk(text, 11, right - left, indent=2)
        c.setFont("STSong-Light", 11)
        for i, line in enumerate(lines):
            c.drawString(left + (22 if i == 0 else 0), y - i * leading, line)
        exp.body.append(("paragraph", text))
        y -= len(lines) * leading + 10
    for marker, text in (("一、", "设备检查由各站点自行完成。"), ("二、", "检查结果在月底前上报总部。")):
        c.drawString(left, y, marker + text)
        exp.body.append(("list_item", text))
        y -= 18
    c.showPage()
    c.save()
    return path, exp
