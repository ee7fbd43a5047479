"""An enumerated paragraph that wraps back to the margin is one paragraph.

Chinese official documents number their paragraphs 一、 二、 （一）, and the lines after the first
start at the margin, under the marker, not indented to the text (reportlab's CJK wrapping sets
them so, as Word does). A notice's "三、……请市民错峰出" / "行。" was read as two paragraphs and the
second, one character, translated "Fine.". A list item's line flush with its marker continues it
only under a line that ran to the right edge of the page's lines from that margin: an item that
ends early is followed by a paragraph of its own.
"""

from __future__ import annotations

from pathlib import Path

from doctrans.documents import read_document

LONG = "三、预计客流高峰出现在1月1日18时至22时，日均客流量将达到320万人次，请市民错峰出行，并提前规划路线。"


def _notice(path: Path, items: list[str], after: str) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    zh = ParagraphStyle("zh", fontName="STSong-Light", fontSize=11, leading=17, wordWrap="CJK")
    body = ("各位市民：为保障元旦假期群众出行，经研究决定，全市地铁运营时间延长至次日凌晨1时，"
            "公交线路增加班次约1,500个，方便市民出行。")
    SimpleDocTemplate(str(path), pagesize=A4).build(
        [Paragraph(body, zh), *(Paragraph(t, zh) for t in items), Paragraph(after, zh)])
    return path


def _body(path: Path) -> list[tuple[str, str, str]]:
    return [(b.kind, b.ref.marker if b.kind == "list_item" else "", b.text) for b in read_document(path).blocks()]


def test_an_item_wrapped_to_the_margin_is_one_paragraph(tmp_path: Path) -> None:
    items = ["一、地铁1号线末班车发车时间推迟90分钟。", LONG]
    blocks = _body(_notice(tmp_path / "notice.pdf", items, "如有疑问，请拨打热线12328。"))
    assert blocks[1:] == [
        ("list_item", "一、", "地铁1号线末班车发车时间推迟90分钟。"),
        ("list_item", "三、", LONG.removeprefix("三、")),
        ("paragraph", "", "如有疑问，请拨打热线12328。"),
    ]


def test_a_short_line_after_an_item_that_ended_early_is_its_own(tmp_path: Path) -> None:
    blocks = _body(_notice(tmp_path / "notice.pdf", ["一、地铁1号线末班车发车时间推迟90分钟。"], "市交通运输局"))
    assert blocks[1:] == [("list_item", "一、", "地铁1号线末班车发车时间推迟90分钟。"),
                          ("paragraph", "", "市交通运输局")]
