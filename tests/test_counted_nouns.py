"""A figure and the noun it counts, into Chinese with the counter (doctrans.counted_nouns)."""

from __future__ import annotations

import pytest

from doctrans import counted_nouns
from doctrans.counted_nouns import find_counted_nouns
from doctrans.direction_terms import automatic_terms
from doctrans.engine.protect import prepare
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(counted_nouns)) == 10


@pytest.mark.parametrize(("text", "expected"), two_column_rows(counted_nouns))
def test_docstring_table_row(text: str, expected: str) -> None:
    found = [s.target for s in find_counted_nouns(text, "en", "zh")]
    assert (" · ".join(t or "" for t in found) or "(none)") == expected


def test_only_english_into_chinese() -> None:
    assert find_counted_nouns("12,400 employees in 23 countries.", "en", "de") == []
    assert find_counted_nouns("12,400 employees in 23 countries.", "zh", "en") == []


def test_a_count_is_one_span_before_the_magnitudes_and_with_its_qualifier() -> None:
    terms = automatic_terms("The flood displaced more than 3 million people in 16 cities.", [], "en", "zh")
    counts = [(t.text, t.target) for t in terms if t.kind == "number"]
    assert counts == [("more than 3 million people", "超过300万人"), ("16 cities", "16个城市")]


def test_the_model_sees_a_placeholder_and_the_count_comes_back_once() -> None:
    # "12,400 employees in 23 countries" came back 在23计数中长大了12,400个员工.
    prep = prepare("Our workforce grew to 12,400 employees in 23 countries.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "Our workforce grew to ⦅1⦆ in ⦅2⦆."
    # The model wrote the noun again after a count: it goes.
    assert prep.restore("我们的员工增长到⦅1⦆员工，分布在⦅2⦆。").text == "我们的员工增长到12,400名员工，分布在23个国家。"


@pytest.mark.parametrize(("text", "expected"), [
    # A charity's report: "installed 96 new wells" came back 96新手 (novices), "trained 340 local
    # technicians" 340本地技术员, an API page's "more than 5 connections" 超过5连接.
    ("Our programme installed 96 new wells.", [("96 new wells", "96口新水井")]),
    # ... and an adverb before the verb ("46 new wells now provide" came back 46新包).
    ("In total, 46 new wells now provide safe water.", [("46 new wells", "46口新水井")]),
    ("It trained 340 local technicians.", [("340 local technicians", "340名当地技术人员")]),
    ("Do not open more than 5 connections at once.", [("more than 5 connections", "超过5个连接")]),
    ("The 3 new features are here.", []),  # no noun of the list
])
def test_a_count_with_an_adjective_before_its_noun(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in automatic_terms(text, [], "en", "zh")] == expected


@pytest.mark.parametrize(("text", "expected"), [
    # A railway's news: 设有8座车站 came back "set by 8-cities", 5个城市 "5 city".
    ("福厦高铁沿线设有8座车站，途经5个城市。", [("8座车站", "8 stations"), ("5个城市", "5 cities")]),
    ("全市共有3所大学和1家医院。", [("3所大学", "3 universities"), ("1家医院", "1 hospital")]),
    ("5座城市", [("5座城市", "5 cities")]),  # another counter the noun takes
    ("5个城市化试点", []),  # 城市化: urbanisation
    ("在全国23个省份开展了活动", [("23个省份", "23 provinces")]),  # a verb after it (an interview's)
    ("5人制足球", []),  # no counter: part of another word
    # Nouns that begin with a counter's character (家庭, 项目): the table's too (they had been left out).
    ("共有3个家庭参加，完成了12个项目。", [("3个家庭", "3 families"), ("12个项目", "12 projects")]),
])
def test_a_chinese_count_into_english(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_counted_nouns(text, "zh", "en")] == expected


def test_a_count_before_between_and_within() -> None:
    # A water quality report: "tested drinking water at 48 sites between January and June" came back
    # 在48 1月和6月之间, the sites gone.
    found = find_counted_nouns("The city tested water at 48 sites between January and June.", "en", "zh")
    assert [(s.text, s.target) for s in found] == [("48 sites", "48个地点")]
    assert [s.target for s in find_counted_nouns("12 schools within the city", "en", "zh")] == ["12所学校"]


def test_a_leaflets_tablets_a_tallys_abstentions_and_counts_with_the_noun_first() -> None:
    """"Take 2 tablets" came back 2表 (a table), "with 5 abstentions" 以5缺失; into English 口罩50万只
    came back "500,000 is only" (只 read as "only") and 5G基站2.1万个 without its count's noun."""
    def written(text: str, src: str, tgt: str) -> list[tuple[str, str | None]]:
        return [(s.text, s.target) for s in find_counted_nouns(text, src, tgt)]
    assert written("Take 2 tablets every 4–6 hours.", "en", "zh") == [("2 tablets", "2片")]
    assert written("It passed with 5 abstentions.", "en", "zh") == [("5 abstentions", "5票弃权")]
    assert written("该厂每天生产口罩50万只。", "zh", "en") == [("口罩50万只", "500,000 masks")]
    assert written("全市共有5G基站2.1万个。", "zh", "en") == [("基站2.1万个", "21,000 base stations")]
    assert written("共有2.1万个城市", "zh", "en") == [("2.1万个城市", "21,000 cities")]


def test_a_clinical_papers_cases_into_english() -> None:
    """共纳入患者312例，其中男性178例（57.1%） came back "The 312 example, with male 178": 例 counts cases."""
    found = find_counted_nouns("共纳入患者312例，其中男性178例（57.1%）。", "zh", "en")
    assert [(s.text, s.target) for s in found] == [("患者312例", "312 patients"), ("男性178例", "178 men")]


def test_a_crowd_into_english_in_groups_of_three_and_fans_only_written() -> None:
    """A match report's 32518名球迷 came back "32518 ballots"; "2 fans" of a laptop are no crowd."""
    assert [(s.text, s.target) for s in find_counted_nouns("共吸引了32518名球迷到场观战", "zh", "en")] == [
        ("32518名球迷", "32,518 fans")]
    assert find_counted_nouns("The laptop has 2 fans.", "en", "zh") == []
    assert [(s.text, s.target) for s in find_counted_nouns("全市有12400名员工", "zh", "en")] == [
        ("12400名员工", "12,400 employees")]


def test_a_vote_in_congress_counts_its_lawmakers() -> None:
    """"Nineteen Republicans joined all 50 Democrats" came back 十九共和党人…所有50民主党人."""
    found = [(s.text, s.target) for s in find_counted_nouns("all 50 Democrats and 12 senators voted", "en", "zh")]
    assert found == [("50 Democrats", "50名民主党人"), ("12 senators", "12名参议员")]
