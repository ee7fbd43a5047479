"""Scores and ratios ``N比M`` into English (doctrans.scores): the docstring's table row by row,
through the direction's terms the engine masks, and restored whole."""

from __future__ import annotations

import re

import pytest

from doctrans import scores
from doctrans.direction_terms import automatic_terms
from doctrans.engine.protect import prepare
from doctrans.scores import find_scores
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(scores)) == 19


@pytest.mark.parametrize(("source", "written"), two_column_rows(scores))
def test_docstring_table_row(source: str, written: str) -> None:
    src, tgt = ("en", "zh") if source.isascii() else ("zh", "en")
    scores = [s.output for s in find_scores(source, src, tgt) if s.kind == "number"]  # not the winner's verb
    assert scores == ([] if written == "(none)" else written.split(" · "))
    if written != "(none)":
        assert set(written.split(" · ")) <= {s.output for s in automatic_terms(source, [], src, tgt)}


def test_only_chinese_into_english() -> None:
    assert find_scores("中国队以3比1战胜日本队", "zh", "ja") == []
    assert find_scores("They won 3比1.", "en", "zh") == []
    assert find_scores("The vote was 9 to 4.", "en", "ja") == []
    assert find_scores("The game starts at 7-8 pm, the 2024-25 season.", "en", "zh") == []  # times, seasons


def test_the_score_reaches_the_translation_whole() -> None:
    # The model read 比 as a comparison: "the Nationals are 3 more than the 1".
    prep = prepare("中国队昨晚以3比1战胜日本队。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text is not None
    words = re.sub(r"⦅[0-9]+⦆", "", prep.model_text)
    assert "3" not in words and "比" not in words
    # The teams are their countries (doctrans.place_names: 中国队 China, 日本队 Japan), the result's verb
    # goes with the score, and the sides stay where they were (中国女排以3比1战胜日本队 came back "China
    # women's volleyball team 3-1 wins Japan").
    assert [s.target for s in prep.masked.spans] == ["China", "won 3-1 against", "Japan"]
    assert prepare("中国队以3比1战胜日本队。", 16, tgt_lang="en", src_lang="zh").copy == "China won 3-1 against Japan."
    lost = prepare("日本队1比3负于中国队。", 16, tgt_lang="en", src_lang="zh")
    assert lost.copy == "Japan lost 1-3 to China."
    # 逆转 with the score (上海海港主场2比1逆转山东泰山 came back "The Shanghai Port master 2-1 reverses"):
    # the sentence is its spans, written without the model.
    came = prepare("中国队以3比1逆转战胜日本队。", 16, tgt_lang="en", src_lang="zh")
    assert came.copy == "China came from behind to win 3-1 against Japan."
    at_home = prepare("海港主场2比1逆转泰山，提前锁定冠军。", 16, tgt_lang="en", src_lang="zh")
    assert "came from behind to win 2-1 at home against" in [s.target for s in at_home.masked.spans]


def test_a_teams_points_in_the_table_keep_their_unit() -> None:
    """本轮过后，海港队积58分，领先第二名4分 came back "the harbor 58, lead to the second name 4"."""
    found = find_scores("本轮过后，海港队积58分，领先第二名4分。", "zh", "en")
    assert [(s.text, s.target) for s in found] == [("积58分", "58 points"), ("4分", "4 points")]
    # 积 with its points (left alone it came back "product"), a record before them, and the lead over
    # a team named at length.
    found = find_scores("目前，海港队以21胜4平3负积67分排名第一，领先第二名成都蓉城队5分。", "zh", "en")
    assert [(s.text, s.target) for s in found] == [("21胜4平3负", "21 wins, 4 draws and 3 losses"),
                                                  ("积67分", "67 points"), ("5分", "5 points")]
    assert find_scores("他考了58分，积累了经验。", "zh", "en") == []  # no contest: a mark, left to the model


def test_the_winners_verb_with_a_score_into_chinese() -> None:
    """"Manchester City beat Arsenal 3-1" came back 曼城 beat 阿森纳3比1: the verb kept in English."""
    found = find_scores("Manchester City beat Arsenal 3-1 on Sunday.", "en", "zh")
    assert [(s.text, s.target) for s in found] == [("beat", "击败"), ("3-1", "3比1")]
    assert find_scores("They beat Japan in the final.", "en", "zh") == []  # no score: the model's


def test_a_tennis_matchs_sets_are_one_span_as_chinese_writes_them() -> None:
    """"defeated Carlos Alcaraz 6-4, 3-6, 7-6(5)" came back "defeated 卡洛斯·阿尔克拉兹6-4, 3-6, 7比6(5)":
    the last set alone read as a score, and the winner's verb left in English."""
    found = [(s.text, s.target) for s in find_scores("Sinner defeated Alcaraz 6-4, 3-6, 7-6(5) on Friday.", "en", "zh")]
    assert found == [("defeated", "击败"), ("6-4, 3-6, 7-6(5)", "6-4、3-6、7-6(5)")]
    assert [s.target for s in find_scores("City beat Arsenal 3-1 on Sunday.", "en", "zh")] == ["击败", "3比1"]
