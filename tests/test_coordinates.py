"""Latitudes and longitudes written the target's way (doctrans.coordinates), and the terms of an
earthquake report and a device manual that came back garbled (2026-12-02)."""

from __future__ import annotations

import pytest

from doctrans.coordinates import find_coordinates
from doctrans.engine.protect import prepare
from doctrans.report_terms import find_report_terms


@pytest.mark.parametrize(("text", "src", "tgt", "written"), [
    ("（北纬29.59度，东经102.08度）", "zh", "en", ["29.59°N", "102.08°E"]),
    ("南纬33度52分、西经151度", "zh", "en", ["33°52′S", "151°W"]),
    ("北纬２９.５度", "zh", "en", ["29.5°N"]),
    ("The epicentre was at 33°52′S, 151.2° W.", "en", "zh", ["南纬33度52分", "西经151.2度"]),
    ("a storm near 25.3°N, 130°E", "en", "zh", ["北纬25.3度", "东经130度"]),
])
def test_coordinates_are_written_the_targets_way(text: str, src: str, tgt: str, written: list[str]) -> None:
    assert [s.target for s in find_coordinates(text, src, tgt)] == written


@pytest.mark.parametrize(("text", "src", "tgt"), [
    ("Set the angle to 30° and face North.", "en", "zh"),  # an angle, and North a word
    ("It was 30°Not so bad.", "en", "zh"),  # N runs on into a word
    ("气温29度，湿度80%", "zh", "en"),  # degrees without a hemisphere
    ("北纬29.59度", "zh", "de"),  # no rule for other targets
])
def test_a_figure_without_its_hemisphere_is_no_coordinate(text: str, src: str, tgt: str) -> None:
    assert find_coordinates(text, src, tgt) == []


def test_an_earthquake_report_keeps_its_coordinates_through_the_engine() -> None:
    prep = prepare("震中位于北纬29.59度，东经102.08度。", 16, None, "en", "zh")
    assert prep.model_text is not None and "29.59" not in prep.model_text
    assert {s.target for s in prep.masked.spans} >= {"29.59°N", "102.08°E"}
    # Restored as one span each: the figure and its hemisphere together.
    restored = prep.restore(prep.model_text.replace("震中位于", "The epicentre is at ")).text
    assert "29.59°N" in restored and "102.08°E" in restored


@pytest.mark.parametrize(("text", "src", "tgt", "term", "target"), [
    ("专家提醒，可能发生5级左右余震。", "zh", "en", "余震", "aftershock"),
    ("另有16人失联。", "zh", "en", "失联", "lost contact"),
    ("据应急管理部消息", "zh", "en", "应急管理部", "Ministry of Emergency Management"),
    ("中国地震台网正式测定", "zh", "en", "中国地震台网", "China Earthquake Networks Center"),
    ("请群众远离危房。", "zh", "en", "危房", "unsafe buildings"),
    ("We returned $620 million through dividends and share repurchases.", "en", "zh", "share repurchases",
     "股票回购"),
    ("Before first use, charge the battery for at least 4 hours.", "en", "zh", "charge the battery", "给电池充电"),
    ("Press and hold the power button.", "en", "zh", "Press and hold", "按住"),
    ("insert a paperclip into the hole", "en", "zh", "paperclip", "回形针"),
])
def test_report_and_manual_terms(text: str, src: str, tgt: str, term: str, target: str) -> None:
    assert (term, target) in [(s.text, s.target) for s in find_report_terms(text, src, tgt)]


@pytest.mark.parametrize("text", ["按住她的腿", "你血流不止 用力按住伤口", "在六年前的一场地震中部分倒塌"])
def test_words_only_written_are_not_read(text: str) -> None:
    """按住 is to hold someone down as often (TVsub), and 震中 (the epicentre) is inside 地震中."""
    assert [s.text for s in find_report_terms(text, "zh", "en") if s.text in ("按住", "震中")] == []
