"""Plain text keeps its lines (issue 15) and its code (issue 14): what is joined, what is not,
and that code blocks are written back byte for byte without reaching the engine."""

from __future__ import annotations

from pathlib import Path

from doctrans.documents import read_document
from doctrans.documents.txt_format import wrapped_runs
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator

LONG_LINES = [  # one paragraph per line, long and of similar length (282 and 257 characters)
    "The committee met on Tuesday to review the annual budget of the association and agreed that the "
    "money set aside for the library should be increased, because the number of members who borrow "
    "books has grown every year since the new reading room was opened in the spring of last year.",
    "Several members asked whether the fees could stay the same for another year; the treasurer "
    "answered that this depends on the grant from the city council, which will be decided in the "
    "autumn, and promised to report on it at the next meeting of the committee.",
]
NUMBERED = ["关于调整办公时间的通知", "一、自下月起，办公时间调整为上午九点至下午五点。",
            "二、午休时间为中午十二点至一点，期间暂停对外服务。", "三、如有疑问，请与行政部联系。"]
WRAPPED = ["The survey was carried out in all regions during the third quarter of the",
           "year. Each site reported its inventory and the condition of every unit, and",
           "the figures were checked against the purchase records.",
           "A second paragraph starts on the next line without a blank line. It is",
           "wrapped to the same width as the first one."]


def _blocks(path: Path) -> list[tuple[str, str, bool]]:
    return [(b.kind, b.text, b.verbatim) for b in read_document(path).blocks()]


def _each_line_its_own(tmp_path: Path, lines: list[str]) -> None:
    """``lines`` as a text file read as one block a line and written back a translation a line."""
    src = tmp_path / "lines.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert [t for _, t, _ in _blocks(src)] == lines
    out = tmp_path / "out.txt"
    translate_file(src, out, FakeTranslator(fn=lambda s: "<" + s + ">"))
    assert out.read_text(encoding="utf-8").splitlines() == ["<" + x + ">" for x in lines]


def _no_char_dropped(source: str, path: Path) -> None:
    """Every non-space character of the source is in exactly one block (or in a list marker)."""
    import re

    from doctrans.documents.txt_format import _MARKER

    texts = "".join(b.text for b in read_document(path).blocks())
    markers = "".join((_MARKER.match(x).group(2) or "") for x in source.splitlines())  # type: ignore[union-attr]
    assert sorted(re.sub(r"\s", "", texts + markers)) == sorted(re.sub(r"\s", "", source))


def test_one_paragraph_per_line_keeps_its_line_count(tmp_path: Path) -> None:
    assert [len(x) for x in LONG_LINES] == [282, 257]
    lines = LONG_LINES * 36  # 72 lines, no blank lines between them
    src = tmp_path / "minutes.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(_blocks(src)) == 72
    out = tmp_path / "out.txt"
    translate_file(src, out, FakeTranslator(fn=lambda s: s + " (translated)"))
    assert len(out.read_text(encoding="utf-8").splitlines()) == 72
    _no_char_dropped(src.read_text(encoding="utf-8"), src)


def test_numbered_items_stay_one_per_line_in_gbk(tmp_path: Path) -> None:
    src = tmp_path / "notice.txt"
    text = "\r\n".join(NUMBERED) + "\r\n"
    src.write_bytes(text.encode("gbk"))
    blocks = _blocks(src)
    assert [k for k, _, _ in blocks] == ["paragraph", "list_item", "list_item", "list_item"]
    assert blocks[1][1] == "自下月起，办公时间调整为上午九点至下午五点。"
    out = tmp_path / "out.txt"
    # Into Japanese, which numbers items as Chinese does: the markers stay (into English: 1., 2.).
    translate_file(src, out, FakeTranslator(fn=lambda s: "【" + s + "】", src_lang="zh", tgt_lang="ja"))
    result = out.read_bytes().decode("gbk")
    assert result.count("\r\n") == 4 and result.splitlines()[2].startswith("二、【")
    _no_char_dropped(text, src)


def test_hard_wrapped_prose_is_joined_per_paragraph(tmp_path: Path) -> None:
    src = tmp_path / "prose.txt"
    src.write_text("\n".join(WRAPPED) + "\n", encoding="utf-8")
    blocks = _blocks(src)
    # The third line ends early ("A" would have fitted): a paragraph ends there.
    assert [t for _, t, _ in blocks] == [" ".join(WRAPPED[:3]), " ".join(WRAPPED[3:])]
    out = tmp_path / "out.txt"
    translate_file(src, out, FakeTranslator())
    lines = out.read_text(encoding="utf-8").splitlines()
    assert max(map(len, lines)) <= max(map(len, WRAPPED))
    assert " ".join(lines) == " ".join(WRAPPED).upper()


def test_one_sentence_per_line_is_never_smeared_across_lines(tmp_path: Path) -> None:
    """Similar-length lines each ending a sentence: the widest looked wrapped, so its translation
    and the next line's were joined and re-wrapped, half a sentence on each line."""
    lines = ["The meeting was held on 2 October 2018 in Geneva.", "The report was published on March 15, 2024.",
             "Sales fell sharply in December 2023.", "He left the company on May 20."]
    _each_line_its_own(tmp_path, lines)
    # Wrapped prose whose line happens to end a sentence still joins where the next line goes on.
    wrapped = ["It was late when the committee finally agreed on the revised plan, etc.",
               "and the others left. The plan itself was simple enough."]
    assert wrapped_runs(wrapped) == [(0, 2)]


def test_lines_of_different_lengths_are_kept(tmp_path: Path) -> None:
    address = ["Peter Brown", "Sales Manager, ACME Ltd.", "12 High Street", "Manchester M1 2AB",
               "United Kingdom of Great Britain and Northern Ireland"]
    src = tmp_path / "address.txt"
    src.write_text("\n".join(address) + "\n", encoding="utf-8")
    assert [t for _, t, _ in _blocks(src)] == address


MARKDOWN = """# Using the tool

Install it and run it:

```bash
pip install doctrans  # the package
doctrans translate a.pdf -o b.pdf
```

Or in Python, indented:

    from doctrans import translate_file
    result = translate_file(src, out, engine)

The end.
"""

REST = """Reading a file
==============

The parser is called like this::

    parser = ConfigParser()
    parser.read("settings.ini")

        nested = True

It returns nothing.

.. code-block:: python

   print(parser.sections())

Done.
"""


def test_markdown_and_rest_code_blocks_are_verbatim(tmp_path: Path) -> None:
    for name, source, code in (
        ("a.md", MARKDOWN, ["pip install doctrans  # the package\ndoctrans translate a.pdf -o b.pdf",
                            "    from doctrans import translate_file\n    result = translate_file(src, out, engine)"]),
        ("a.rst", REST, ['    parser = ConfigParser()\n    parser.read("settings.ini")\n\n        nested = True',
                         "   print(parser.sections())"]),
    ):
        src = tmp_path / name
        src.write_text(source, encoding="utf-8")
        blocks = _blocks(src)
        assert [t for _, t, v in blocks if v] == code
        out = tmp_path / ("out" + src.suffix)
        tr = FakeTranslator()
        translate_file(src, out, tr)
        result = out.read_text(encoding="utf-8")
        for c in code:
            assert c in result  # byte for byte
            assert not any(line.strip() in call for line in c.splitlines() if line.strip() for call in tr.calls)
        # The prose around the code is translated; the lines are where they were.
        assert len(result.splitlines()) == len(source.splitlines())
        assert "THE END." in result or "DONE." in result


def test_indented_prose_is_not_code(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text("Intro line.\n\n    An indented quotation of a few words.\n", encoding="utf-8")
    assert [v for _, _, v in _blocks(src)] == [False, False]


def test_indented_shell_commands_are_code_and_indented_prose_with_dashes_is_not(tmp_path: Path) -> None:
    """A README's commands read as code by their options and pipes (they had gone to the model as
    prose, and its names with them: the next sentence's ``systemctl status`` came back 系统监视器)."""
    src = tmp_path / "a.txt"
    src.write_text("Run these as root:\n\n    curl -fsSL https://example.com/install.sh | bash\n"
                   "    systemctl enable --now monitor-agent\n\nThen check it.\n\n"
                   "    A quotation -- with dashes -- and a minus: -5 degrees.\n", encoding="utf-8")
    assert [v for _, _, v in _blocks(src)] == [False, True, False, False]


def test_rest_literal_markers_survive_a_translation_that_changes_the_colon(tmp_path: Path) -> None:
    """``text::`` announces a literal block; a model that writes a full-width colon or none must not
    turn the code after it into a quotation. The model reads the sentence with one colon."""
    source = ("For example::\n\n    x = compute()\n\nExpanded form ::\n\n    y = 2\n\n::\n\n    z = 3\n\n"
              "A wrapped paragraph of prose that goes on for a while and ends on\nthe next line like this::\n\n"
              "    w = 4\n")
    src = tmp_path / "a.rst"
    src.write_text(source, encoding="utf-8")
    prose = [t for _, t, v in _blocks(src) if not v]
    assert prose == ["For example:", "Expanded form",
                     "A wrapped paragraph of prose that goes on for a while and ends on the next line like this:"]

    def to_chinese(text: str) -> str:  # a colon the way zh writes it, or none at all
        return {"For example:": "例如：", "Expanded form": "展开形式："}.get(text, "一段文字")

    out = tmp_path / "out.rst"
    translate_file(src, out, FakeTranslator(fn=to_chinese))
    result = out.read_text(encoding="utf-8")
    assert result == ("例如::\n\n    x = compute()\n\n展开形式 ::\n\n    y = 2\n\n::\n\n    z = 3\n\n"
                      "一段文字::\n\n    w = 4\n")


LICENCE = """   1. Definitions.

      "You" (or "Your") shall mean an individual or Legal Entity
      exercising permissions granted by this License.

      "Work" shall mean the work of authorship, whether in Source or
      Object form, made available under the License, as indicated by a
      copyright notice that is included in or attached to the work
      (an example is provided in the Appendix below).

          x = compute(a[0])
          print(x)
"""


def test_a_licence_indented_throughout_is_prose_and_its_wrapped_lines_join(tmp_path: Path) -> None:
    """The Apache licence indents every paragraph six columns: a paragraph with brackets was taken
    for code and left untranslated, and a line whose next word would have fitted (the author
    wrapped a few columns wider than the widest line) cut a sentence in two."""
    src = tmp_path / "LICENSE.txt"
    src.write_text(LICENCE, encoding="utf-8")
    blocks = _blocks(src)
    assert [(t[:20], v) for _, t, v in blocks] == [
        ("Definitions.", False), ('"You" (or "Your") sh', False), ('"Work" shall mean th', False),
        ("          x = comput", True)]
    assert blocks[2][1].endswith("attached to the work (an example is provided in the Appendix below).")
    # Deeper than the prose's margin and reading as code: still code.
    assert blocks[3][1] == "          x = compute(a[0])\n          print(x)"


def test_chinese_rewrapping_keeps_latin_words_whole_and_no_line_starts_with_a_comma() -> None:
    from doctrans.documents.txt_format import _wrap

    text = ("对于这个定义的目的，“control”意味着直接或间接地导致 direction or management 的权力，"
            "或者拥有百分之五十（50%）或更多的已发行股份。")
    for width in range(12, 60):
        lines = _wrap(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        words = " ".join(lines).split()
        assert "direction" in words and "management" in words  # never cut inside a word
        assert not any(x[0] in "，。）”" for x in lines[1:])
        assert not any(x[-1] in "（“" for x in lines)


def test_a_contracts_lettered_clauses_stay_one_per_line(tmp_path: Path) -> None:
    """``(a) …;`` / ``(b) …; and`` / ``(c) …`` under ``The Provider shall:`` read as one sentence
    came back with ``(b)`` merged into the first line and ``(c)`` lost; each is an item."""
    lines = ["The Provider shall:", "(a) respond to support requests within 24 hours;",
             "(b) maintain an uptime of at least 99.5% per calendar month; and",
             "(c) notify the Client of any security incident within 72 hours.",
             "A. Smith wrote this line, which is prose."]
    src = tmp_path / "contract.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    blocks = _blocks(src)
    assert [k for k, _, _ in blocks] == ["paragraph", "list_item", "list_item", "list_item", "paragraph"]
    assert blocks[2][1] == "maintain an uptime of at least 99.5% per calendar month; and"
    out = tmp_path / "out.txt"
    translate_file(src, out, FakeTranslator(fn=lambda s: "<" + s + ">"))
    got = out.read_text(encoding="utf-8").splitlines()
    assert [x[:4] for x in got[1:4]] == ["(a) ", "(b) ", "(c) "]


def test_a_specification_sheets_fields_stay_one_per_line(tmp_path: Path) -> None:
    """``Operating temperature: -20 °C to 60 °C`` is the widest line and looked wrapped: the next
    field ran into it and the translation had both on one line."""
    lines = ["Dimensions: 120 x 80 x 45 mm", "Weight: approx. 1.2 kg", "Operating temperature: -20 °C to 60 °C",
             "Power consumption: ≤ 15 W", "Warranty: 2 years"]
    _each_line_its_own(tmp_path, lines)


def test_a_table_of_contents_keeps_one_entry_per_line_and_its_leaders(tmp_path: Path) -> None:
    """Two entries ran together (``1 introduction ... 3 2马克etview``) and the leaders came back shorter."""
    lines = ["1 Introduction ........................ 3", "2 Market Overview ..................... 5",
             "3 Financial Results ................... 12"]
    assert wrapped_runs(lines) == [(0, 1), (1, 2), (2, 3)]
    src = tmp_path / "toc.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    # Each title translated alone; its leader and page number are a segment of their own, which
    # the engine copies (nothing to translate: doctrans.verbatim.is_untranslatable).
    translate_file(src, out, FakeTranslator(fn=lambda s: "<" + s + ">" if any(c.isalpha() for c in s) else s))
    assert out.read_text(encoding="utf-8").splitlines() == [
        "<1 Introduction> ........................ 3", "<2 Market Overview> ..................... 5",
        "<3 Financial Results> ................... 12"]


def test_an_api_references_parameters_are_lines_of_their_own() -> None:
    """A Chinese API reference's parameter lines (name, full-width colon, description) ran together
    and came back re-wrapped across both lines."""
    lines = ["id：用户编号，必填，整数。", "fields：可选，需要返回的字段，多个字段用英文逗号分隔，例如 name,email。"]
    assert wrapped_runs(lines) == [(0, 1), (1, 2)]


def test_a_config_pages_settings_after_their_names_are_lines_of_their_own() -> None:
    """A manual's settings, each a line after its lower-case name (``level: the lowest level…``),
    were joined as wrapped prose: the second setting's words came back on the first line. Prose
    wrapped before a word and a colon (``as`` / ``follows: first``) still joins."""
    lines = ["level: the lowest level that is written, for example INFO or DEBUG.",
             "rotate: the size at which a log file is rotated, for example 10 MB.",
             "keep: how many old files are kept. The default is 5."]
    assert wrapped_runs(lines) == [(0, 1), (1, 2), (2, 3)]
    prose = ["The steps that the installer takes on a new machine are as",
             "follows: first it checks the disk, then it copies the files."]
    assert wrapped_runs(prose) == [(0, 2)]


def test_a_list_without_markers_keeps_one_item_per_line(tmp_path: Path) -> None:
    """A recipe's ingredients: ``225g unsalted butter, softened`` is the widest line and looked
    wrapped, so the next item ran into it and its 225g came back on the wrong line."""
    lines = ["Ingredients", "225g unsalted butter, softened", "225g caster sugar", "4 large eggs",
             "Finely grated zest of 2 lemons", "Juice of 1½ lemons", "85g icing sugar"]
    _each_line_its_own(tmp_path, lines)
    # Wrapped prose still reads as one paragraph where a line goes on in small letters.
    prose = ["The butter and the sugar are beaten together", "until pale, then the eggs go in one at",
             "a time, with a spoon of flour for each."]
    assert wrapped_runs(prose) == [(0, 3)]
    # Text in capitals says nothing by its capitals: a licence's disclaimer is one wrapped paragraph.
    shouted = ['THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR',
               "IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,",
               "FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE",
               "AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM."]
    assert wrapped_runs(shouted) == [(0, 4)]


def test_two_short_lines_are_two_lines_and_two_wrapped_ones_one_paragraph() -> None:
    """A CV's "Senior Data Analyst, Lonestar Health Partners — Austin, TX" / "March 2021 – Present" was
    read as one wrapped paragraph (the first of two lines is the widest by itself) and its dates came
    back on the first line. Two lines of prose wrapped at 72 columns are still one paragraph."""
    assert wrapped_runs(["Senior Data Analyst, Lonestar Health Partners — Austin, TX",
                         "March 2021 – Present"]) == [(0, 1), (1, 2)]
    assert wrapped_runs(["M.S. in Statistics, University of Texas at Austin, 2017",
                         "B.A. in Economics, Rice University, 2015"]) == [(0, 1), (1, 2)]
    assert wrapped_runs(["The committee met on Tuesday to review the budget for the coming year and",
                         "agreed to defer the decision."]) == [(0, 2)]
    assert wrapped_runs(["The committee met on Tuesday to review the budget for the coming year, the",
                         "Treasurer presenting the accounts."]) == [(0, 2)]


def test_a_chinese_line_starting_with_figures_is_no_wrapped_line(tmp_path: Path) -> None:
    """A holiday notice: the line before 1月1日（星期四）至… was taken as wrapped (the whole next line,
    without a space, was its first word), and both came back joined and re-wrapped over four lines."""
    lines = ["根据国务院办公厅通知精神，现将2026年元旦放假安排通知如下：",
             "1月1日（星期四）至1月3日（星期六）放假调休，共3天。",
             "放假期间，请各部门做好安全保卫工作，遇有重大突发事件，要按规定及时报告并妥善处置。"]
    _each_line_its_own(tmp_path, lines)
    # Wrapped Chinese prose is still one paragraph where the figure would not have fitted.
    wrapped = ["报告期内，公司坚持稳中求进的工作总基调，持续深化改革创新，全年实现营业收入",
               "1,250.6亿元，同比增长8.3%，归属于上市公司股东的净利润96.4亿元。"]
    assert wrapped_runs(wrapped) == [(0, 2)]
