"""A news item's dateline written the output's way, before the model's translation of the rest
(doctrans.datelines)."""

from __future__ import annotations

import re

import pytest

from doctrans import datelines
from doctrans.datelines import find_dateline
from doctrans.engine.protect import prepare


def docstring_table() -> list[tuple[str, str]]:
    rows = re.findall(r"^\| (\S.*?) +\| (\S.*?) +\|$", datelines.__doc__ or "", re.M)
    return [r for r in rows if r[0] != "source" and not r[0].startswith("---")]


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 15


@pytest.mark.parametrize(("source", "written"), docstring_table())
def test_docstring_table_row(source: str, written: str) -> None:
    chinese = bool(re.search(r"[\u4e00-\u9fff]", source))
    src, tgt = ("zh", "en") if chinese else ("en", "zh")
    [span] = find_dateline(source + " 正文" if chinese else source + " Text", src, tgt)
    assert (span.text, span.target) == (source, written)


@pytest.mark.parametrize(("text", "src", "tgt"), [
    ("新华社记者11月20日电 正文", "zh", "en"),  # a reporter, no place (a place of no list is in pinyin)
    ("据新华社北京11月20日电，", "zh", "en"),  # not at the start: a reference to a dispatch
    ("新华社北京11月20日电 正文", "zh", "de"),
    ("HOUSTON, March 3 (Reuters) - Text", "en", "en"),
    ("Houston, March 3 (Reuters) - Text", "en", "zh"),  # a dateline's place is in capitals
    ("HOUSTON, March 3 (Anonymous) - Text", "en", "zh"),
    ("PARIS, June 5-7 the fair is open", "en", "zh"),  # a range of days
    ("NOTE — Text", "en", "zh"),  # a city alone before a dash: a listed place only
    ("WELLINGTON—Text", "en", "zh"),
])
def test_what_is_not_a_dateline(text: str, src: str, tgt: str) -> None:
    assert find_dateline(text, src, tgt) == []


def test_the_dateline_is_written_before_the_rest_which_the_model_reads_alone() -> None:
    prep = prepare("新华社北京11月20日电 国家统计局发布数据。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "⦅1⦆发布数据。"  # 国家统计局, a report term: the dateline is no placeholder
    assert prep.restore("The ⦅1⦆ published data.").text == (
        "BEIJING, November 20 (Xinhua) -- The National Bureau of Statistics published data.")
    english = prepare("HOUSTON, March 3 (Reuters) - A storm hit Texas.", 16, tgt_lang="zh", src_lang="en")
    assert english.restore("风暴袭击了⦅1⦆").text == "路透社休斯敦3月3日电 风暴袭击了得克萨斯州。"
    alone = prepare("新华社北京11月20日电", 16, tgt_lang="en", src_lang="zh")
    assert alone.model_text is None and alone.copy == "BEIJING, November 20 (Xinhua) --"


def test_the_report_finds_nothing_missing_when_the_reporter_is_a_name_of_the_document() -> None:
    """A news item whose reporter the document names elsewhere (doctrans.document_names) was
    reported missing 'Xinhua News Agency' and 'Beijing': the name inside the dateline kept the
    dateline from being one span, and the check read 新华社 and 北京 alone."""
    from doctrans.glossary import Glossary
    from doctrans.report import sentence_warnings

    source = "新华社北京11月25日电（记者王磊）国家统计局25日发布数据显示，工业增加值增长5.3%。"
    translation = ("BEIJING, November 25 (Xinhua, reporter Wang Lei) -- The National Bureau of Statistics on "
                   "the 25th released data showing industrial value added up 5.3%.")
    names = Glossary(terms=[], names={"王磊": "Wang Lei"})
    assert sentence_warnings(source, translation, names, tgt_lang="en", src_lang="zh") == []
    dropped = translation.replace("BEIJING, November 25 (Xinhua, reporter Wang Lei) -- ", "")
    assert [w.span for w in sentence_warnings(source, dropped, names, tgt_lang="en", src_lang="zh")] == \
        ["BEIJING, November 25 (Xinhua, reporter Wang Lei) --"]


def test_a_press_releases_dateline_leaves_room_for_its_terms() -> None:
    """SEATTLE, October 24, 2026 — was three spans (the place, the date and the dash's sentence), and
    with the company, its ticker, revenue, the sum, the quarter's end and the rise the sentence's
    "third quarter" was past the phrase budget: it came back 第三方, a third party."""
    prep = prepare("SEATTLE, October 24, 2026 — Northwind Energy Inc. (NASDAQ: NWEN) today reported revenue of "
                   "$412.6 million for the third quarter ended September 30, 2026, an increase of 18% compared "
                   "with the same period last year.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and prep.model_text.startswith("⦅1⦆ (⦅2⦆) today reported")
    assert "第三季度" in [s.target for s in prep.masked.spans]
    assert prep.restore("⦅1⦆（⦅2⦆）今天公布。").text.startswith("西雅图2026年10月24日—— Northwind Energy Inc.")
