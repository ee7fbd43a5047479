"""Chinese government bodies and their heads' titles in English (doctrans.government_bodies)."""

from __future__ import annotations

import pytest

from doctrans import government_bodies
from doctrans.direction_terms import automatic_terms
from doctrans.engine.protect import prepare
from doctrans.government_bodies import find_government_bodies
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(government_bodies)) == 7


@pytest.mark.parametrize(("text", "written"), two_column_rows(government_bodies))
def test_docstring_table_row(text: str, written: str) -> None:
    found = [s.target for s in find_government_bodies(text, "zh", "en")]
    assert found == ([] if written == "(none)" else [written])
    assert find_government_bodies(text, "en", "zh") == [] and find_government_bodies(text, "zh", "ja") == []


@pytest.mark.parametrize("text", ["交通局势紧张。", "目前交通局部拥堵。", "他把此事委托给财政委托人。",
                                  "这是一个结局。"])
def test_words_that_hold_the_kind_are_no_body(text: str) -> None:
    """交通局势 is the traffic situation, 局部 a part, 委托 to entrust."""
    assert find_government_bodies(text, "zh", "en") == []


def test_a_news_items_speaker_by_office_through_the_engines_preparation() -> None:
    """杭州市交通局局长王建国表示 came back "The Hangzhou MA P.O. Wang Jianguo said": the office is
    one span, the place inside it, the name a span of its own (doctrans.person_names)."""
    prep = prepare("杭州市交通局局长王建国表示，目前全市地铁运营里程已达516公里。", 16, tgt_lang="en", src_lang="zh")
    assert [(s.text, s.target) for s in prep.masked.spans][:2] == [
        ("杭州市交通局局长", "director of the Hangzhou Municipal Transport Bureau"),
        ("王建国表示", "Wang Jianguo said")]


def test_the_report_terms_own_names_come_first() -> None:
    """国家统计局 is the National Bureau of Statistics, 中国气象局 the China Meteorological
    Administration (doctrans/data/report_terms.tsv), not a bureau of the pattern."""
    targets = [s.target for s in automatic_terms("国家统计局和中国气象局发布数据。", [], "zh", "en")]
    assert targets[:2] == ["National Bureau of Statistics", "China Meteorological Administration"]
