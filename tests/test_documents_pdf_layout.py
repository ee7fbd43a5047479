"""PDF read as a person reads it and written back over its own pages (issue 15), on the
real-shaped fixture of tests/layout_fixtures.py: two columns, a right-aligned closing, a top-right
running header, page numbers, bullets and numbered items, Courier code, an image, a ruled table,
Chinese at 1.64x and 2x leading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from typer.testing import CliRunner

from doctrans import cli
from doctrans.documents import read_document
from doctrans.documents.pdf_read import Place
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator
from tests.layout_fixtures import CODE, Expected, make_layout_pdf


@pytest.fixture(scope="module")
def fixture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Expected]:
    return make_layout_pdf(tmp_path_factory.mktemp("layout") / "survey.pdf")


def test_blocks_read_equal_blocks_written(fixture: tuple[Path, Expected]) -> None:
    path, exp = fixture
    doc = read_document(path)
    blocks = list(doc.blocks())
    body = [(b.kind, b.text) for b in blocks if b.kind not in ("header", "footer")]
    assert body == exp.body  # texts, kinds, paragraph count and reading order
    assert [b.text for b in blocks if b.verbatim] == ["\n".join(CODE)]
    assert [(b.kind, b.text) for b in blocks if b.kind in ("header", "footer")] == [("header", exp.header)]
    assert len(doc.state.furniture[0].places) == exp.header_pages == 3
    assert [p.lines[0].text for p in doc.state.kept] == exp.page_numbers
    assert [b.ref.marker for b in blocks if b.kind == "list_item"] == ["•", "•", "•", "1.", "2.", "一、", "二、"]


def test_nothing_is_dropped(fixture: tuple[Path, Expected]) -> None:
    """Every character drawn on the pages is in exactly one block (or marker, header place, page number)."""
    path, exp = fixture
    doc = read_document(path)
    found = []
    for b in doc.blocks():
        if isinstance(b.ref, Place):
            found += [b.text, b.ref.marker]
    found += [text for f in doc.state.furniture for _, text in f.places]
    found += [p.lines[0].text for p in doc.state.kept]
    drawn = [t for _, t in exp.body] + ["•", "•", "•", "1.", "2.", "一、", "二、"]
    drawn += [exp.header] * exp.header_pages + exp.page_numbers
    assert sorted(re.sub(r"\s", "", "".join(found))) == sorted(re.sub(r"\s", "", "".join(drawn)))


def _fragments(page) -> list[tuple[float, float, float, str]]:  # type: ignore[no-untyped-def]
    """(x, y, size, text) of every text run pypdf sees on an output page."""
    out = []

    def visit(text, cm, tm, font, size):  # type: ignore[no-untyped-def]
        if text.strip():
            out.append((tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5], size * tm[0],
                        text.strip()))

    page.extract_text(visitor_text=visit)
    return out


def _images(reader: PdfReader) -> list[int]:
    return [sum(1 for x in p["/Resources"].get("/XObject", {}).values() if x.get_object()["/Subtype"] == "/Image")
            for p in reader.pages]


@pytest.mark.parametrize("fn", [str, str.upper], ids=["same-length", "wider-upper-case"])
def test_layout_output_keeps_pages_images_and_boxes(fixture: tuple[Path, Expected], tmp_path: Path, fn) -> None:  # type: ignore[no-untyped-def]
    path, exp = fixture
    out = tmp_path / "out.pdf"
    translate_file(path, out, FakeTranslator(fn=fn))
    src, dst = PdfReader(path), PdfReader(out)
    assert len(dst.pages) == len(src.pages)
    assert [tuple(p.mediabox) for p in dst.pages] == [tuple(p.mediabox) for p in src.pages]
    assert _images(dst) == _images(src) == [1, 0, 0]
    # The table's seven ruling lines are still drawn (vector graphics kept): 'l' operators on page 2.
    lines_drawn = [len(re.findall(rb"\sl\s", p.pages[1].get_contents().get_data())) for p in (src, dst)]
    assert lines_drawn == [7, 7]
    texts = [t for _, t in exp.body]
    for key, (page_no, x0, y0, x1, y1) in exp.boxes.items():
        block = next(t for t in texts if _box_key(t) == key)
        target = fn(block)
        lines = _run_of(_fragments(dst.pages[page_no]), target)
        assert lines, (key, target)
        if key == "closing":  # one right-aligned line: it may widen leftwards into the free space
            x0 = 56
        for x, y, size, t in lines:
            width = stringWidth(t, "Helvetica", size)
            assert x0 - 1 <= x and x + width <= x1 + 1 and y0 - 1 <= y <= y1, (key, t, x, y, size)
    # The source's text is gone: what is on the page now is the translation.
    assert "This note summarises" not in dst.pages[0].extract_text() or fn is str


def _run_of(frags: list[tuple[float, float, float, str]], target: str) -> list[tuple[float, float, float, str]]:
    """The consecutive text runs that together spell ``target`` (a block is drawn line after line)."""
    want = target.replace(" ", "")
    for i in range(len(frags)):
        got = ""
        for j in range(i, len(frags)):
            got += frags[j][3].replace(" ", "")
            if got == want:
                return frags[i:j + 1]
            if not want.startswith(got):
                break
    return []


def _box_key(text: str) -> str:
    first = {"p1": "This note", "left": "The northern", "right": "The southern", "full": "Both regions",
             "closing": "Yours sincerely"}
    return next((k for k, v in first.items() if text.startswith(v)), "")


def test_code_is_redrawn_where_it_was_and_never_translated(fixture: tuple[Path, Expected], tmp_path: Path) -> None:
    path, _ = fixture
    out = tmp_path / "out.pdf"
    tr = FakeTranslator()
    translate_file(path, out, tr)
    assert not any("def total" in c or "print(total" in c for c in tr.calls)
    src = {t: (round(x), round(y)) for x, y, _, t in _fragments(PdfReader(path).pages[0])}
    dst = {t: (round(x), round(y)) for x, y, _, t in _fragments(PdfReader(out).pages[0])}
    for line in filter(None, CODE):
        # Drawn from its first character; the source drew the indentation as spaces.
        indent = stringWidth(line[: len(line) - len(line.lstrip())], "Courier", 9)
        x, y = src[line.strip()]
        assert dst[line.strip()] == (round(x + indent), y)
    assert "1" in dst and dst["1"] == src["1"]  # the page number too


def test_cli_pdf_layout_option(fixture: tuple[Path, Expected], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = fixture
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: FakeTranslator())
    runner = CliRunner()
    reflow = tmp_path / "reflow.pdf"
    result = runner.invoke(cli.app, ["translate", str(path), "-o", str(reflow), "--pdf-layout", "reflow", "-q"])
    assert result.exit_code == 0, result.output
    assert _images(PdfReader(reflow)) == [0] * len(PdfReader(reflow).pages)  # a new document: no images
    layout = tmp_path / "layout.pdf"
    assert runner.invoke(cli.app, ["translate", str(path), "-o", str(layout), "-q"]).exit_code == 0
    assert _images(PdfReader(layout)) == [1, 0, 0]
    bad = runner.invoke(cli.app, ["translate", str(path), "-o", str(tmp_path / "x.pdf"), "--pdf-layout", "fancy"])
    assert bad.exit_code != 0 and "--pdf-layout fancy" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_chinese_translation_is_drawn_in_a_cjk_font(fixture: tuple[Path, Expected], tmp_path: Path) -> None:
    path, _ = fixture
    out = tmp_path / "zh.pdf"
    translate_file(path, out, FakeTranslator(fn=lambda s: "译文" + s, tgt_lang="zh"))
    fonts = {str(f.get_object()["/BaseFont"]) for p in PdfReader(out).pages for f in p["/Resources"]["/Font"].values()}
    # An installed TrueType CJK font is embedded (subset); without one, the built-in CID font.
    assert any(f.endswith("WenQuanYiMicroHei-0") or "+" in f for f in fonts) or "/STSong-Light" in fonts, fonts
    assert "译文" in PdfReader(out).pages[2].extract_text()
