"""Latitudes and longitudes written the target's way (doctrans.coordinates)."""

from __future__ import annotations

import pytest

from doctrans.coordinates import find_coordinates
from doctrans.engine.protect import prepare


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
