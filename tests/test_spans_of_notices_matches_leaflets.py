"""What a water cut notice, a league's last round, a health page, a central bank's decision, a
recipe, an itinerary, an acquisition's release, an op-ed, a medicine's leaflet and a university's
news must keep (2026-12-02: each case came back wrong from a CLI translation of such a document)."""

from __future__ import annotations

import pytest

from doctrans.engine.protect import prepare
from tests.prepared_spans import spans


@pytest.mark.parametrize(("text", "span"), [
    # "spend tens of millions on projects" came back 十万块 (a hundred thousand).
    ("Cities often spend tens of millions on projects that sit half empty.", ("tens of millions", "数千万")),
    ("Hundreds of thousands of people fled.", ("Hundreds of thousands of", "数十万")),
    # "take 1 tablet up to three times a day" came back 一天到1桌上去三次 (a table).
    ("Adults and children over 12 years: take 1 tablet up to three times a day.", ("1 tablet", "1片")),
    ("Adults and children over 12 years: take 1 tablet up to three times a day.",
     ("up to three times a day", "每天最多三次")),
    ("Adults and children over 12 years: take 1 tablet up to three times a day.",
     ("Adults and children over 12 years", "成人及12岁以上儿童")),
    # "starting in fall 2027" came back 从2027开始, the autumn lost.
    ("The program starts in fall 2027.", ("fall 2027", "2027年秋天")),
    # "close in the first quarter of 2027" came back 第一季度的2027年.
    ("The deal is expected to close in the first quarter of 2027.", ("first quarter of 2027", "2027年第一季度")),
    ("Sales rose in the second half of 2025.", ("second half of 2025", "2025年下半年")),
    # "called Go Blue Guarantee" came back 布鲁伊·格兰特.
    ("The program, called Go Blue Guarantee, already covers families.", ("Go Blue Guarantee", "Go Blue Guarantee")),
    ("You need 3 eggs and 2 tomatoes.", ("3 eggs", "3个鸡蛋")),
])
def test_into_chinese(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "en", "zh")


@pytest.mark.parametrize("text", ["Prices fall 2020 units.", "He was named Team Captain."])
def test_no_season_after_a_verb_and_no_kept_role(text: str) -> None:
    assert all(not target.endswith("秋天") and target != "Team Captain" for _, target in spans(text, "en", "zh"))


@pytest.mark.parametrize(("text", "span"), [
    # 140/90毫米汞柱 came back "140/90 milliseconds".
    ("血压持续高于140/90毫米汞柱即可诊断为高血压。", ("高于140/90毫米汞柱", "more than 140/90 mmHg")),
    ("空腹血糖为6.1毫摩尔/升。", ("6.1毫摩尔/升", "6.1 mmol/L")),
    # 解放路以东、人民大道以南 came back "United route to east, people are northern".
    ("停水范围：解放路以东、人民大道以南、长江路以西、滨河路以北区域。", ("解放路以东", "east of Jiefang Road")),
    ("停水范围：解放路以东、人民大道以南、长江路以西、滨河路以北区域。", ("人民大道以南", "south of Renmin Avenue")),
    # 鸡蛋3个，番茄2个，葱1根 came back "Eggie 3, 2, yoga, 1 root".
    ("食材：鸡蛋3个，番茄2个，葱1根，盐3克。", ("鸡蛋3个", "3 eggs")),
    ("食材：鸡蛋3个，番茄2个，葱1根，盐3克。", ("葱1根", "1 scallion")),
    # 本集团连续三年未发生重大事故 came back "in sequential contiguous years".
    ("本集团连续三年未发生重大安全生产事故。", ("连续三年", "for three consecutive years")),
    # 新建分布式光伏电站12座 came back "distributed photovoltaic power stations 12 seat".
    ("我们新建分布式光伏电站12座，装机容量46.8兆瓦。",
     ("分布式光伏电站12座", "12 distributed photovoltaic power stations")),
])
def test_into_english(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "zh", "en")


def test_an_itinerarys_day_in_prose_is_the_next_day() -> None:
    assert spans("第二天，他走了。", "zh", "en") == []


def test_a_water_companys_signature_and_an_itinerarys_day_label() -> None:
    """市自来水有限公司 came back "Shizilaishui Co., Ltd.", 第二天：前往西溪 "Second: Go"."""
    assert prepare("市自来水有限公司", 16, None, "en", "zh").copy == "Municipal Water Supply Co., Ltd."
    assert prepare("第二天：前往西溪国家湿地公园。", 16, None, "en", "zh").prefix == "Day 2: "
