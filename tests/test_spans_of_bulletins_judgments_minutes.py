"""What an environment bulletin, a railway opening, a consumer's lawsuit, a memoir, a carrier's text
message, a climate report, a council's minutes, a book review and a security advisory must keep
(2026-12-02: each case came back wrong from a CLI translation of such a document)."""

from __future__ import annotations

import pytest

from doctrans.engine.protect import prepare
from tests.prepared_spans import spans


@pytest.mark.parametrize(("text", "span"), [
    # 最快1小时16分可达 came back "fastest 1 hour 16", the minutes lost.
    ("武汉至宜昌最快1小时16分可达，比原来缩短约40分钟。", ("1小时16分", "1 hour 16 minutes")),
    ("全程需要2小时30分钟。", ("2小时30分钟", "2 hours 30 minutes")),
    # 地表水水质优良（Ⅰ～Ⅲ类）断面 came back "(ILINEish IIII)".
    ("地表水水质优良（Ⅰ～Ⅲ类）断面比例为90.4%。", ("Ⅰ～Ⅲ类", "Grade I–III")),
    ("劣Ⅴ类水体比例为0.6%。", ("劣Ⅴ类", "worse than Grade V")),
    # 原告李某诉称 came back "The plaintiff Lee is called".
    ("原告李某诉称，其在被告经营的超市购买了牛奶。", ("李某", "Li X")),
    # 一个叫石门的小县城 came back "a County County City".
    ("我出生在湖南一个叫石门的小县城。", ("石门", "Shimen")),
])
def test_into_english(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "zh", "en")


def test_a_text_messages_signature_in_square_brackets() -> None:
    """【中国移动】 came back "【 China Mobile 】"."""
    assert prepare("【中国移动】", 16, None, "en", "zh").copy == "[China Mobile]"


@pytest.mark.parametrize(("text", "span"), [
    # "the second-warmest year on record" came back 第二十五年 (the twenty-fifth year).
    ("It was the second-warmest year on record, after 2024.", ("second-warmest", "第二热的")),
    ("China is the second-largest economy.", ("second-largest", "第二大")),
    # "libpixel versions 3.1.0 through 3.4.2" came back 3.1.0 3.4.2, the range lost.
    ("A buffer overflow in libpixel versions 3.1.0 through 3.4.2 allows remote attackers to run code.",
     ("3.1.0 through 3.4.2", "3.1.0至3.4.2")),
    # "Motion carried 4-1, Duffy opposed" came back 动议了4-1.
    ("Motion carried 4-1, Duffy opposed.", ("4-1", "4比1")),
    # "Four and a half stars out of five" came back 四和半星出五号.
    ("I give it four and a half stars out of five.", ("four and a half stars out of five", "四星半（满分五星）")),
    ("The flight took two and a half hours.", ("two and a half hours", "两个半小时")),
    ("It lasted two and a half days out of five.", ("two and a half days", "两天半")),
])
def test_into_chinese(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "en", "zh")


def test_a_score_before_a_thousands_figure_is_no_score() -> None:
    assert ("3-1", "3比1") not in spans("They won 3-1,000 times.", "en", "zh")


def test_a_vote_comes_back_without_an_age() -> None:
    """动议4比1岁: the model wrote an age after the restored vote."""
    prepared = prepare("Motion carried 4-1, Duffy opposed.", 16, None, "zh", "en")
    assert prepared.restore("动议⦅1⦆岁，杜菲反对。").text == "动议4比1，杜菲反对。"


_OBITUARY = "中国科学院院士王德明同志，因病医治无效，于2026年11月28日在北京逝世，享年92岁。"


@pytest.mark.parametrize("span", [
    # 中国科学院院士王德明同志，因病医治无效 came back without him, then "Wang Deming gay".
    ("王德明同志", "Comrade Wang Deming"),
    # 享年92岁 came back "Enjoy 92".
    ("享年92岁", "at the age of 92"),
])
def test_an_obituarys_person_and_age(span: tuple[str, str]) -> None:
    assert span in spans(_OBITUARY, "zh", "en")


def test_the_figure_forecasters_expected_is_no_count_of_them() -> None:
    """"fewer than the 200,000 economists had expected" came back 200,000经济学家."""
    found = spans("The economy added 187,000 jobs, fewer than the 200,000 economists had expected.", "en", "zh")
    assert ("200,000 economists", "200,000名经济学家") not in found


@pytest.mark.parametrize(("text", "span"), [
    # "scored twice in the first 25 minutes" came back 梅开二度25分钟, the first lost.
    ("Harry Kane scored twice in the first 25 minutes to put the visitors in control.",
     ("in the first 25 minutes", "前25分钟内")),
    ("The first 10 km were easy.", ("The first 10 km", "前10公里")),
])
def test_the_first_minutes_or_kilometres(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "en", "zh")


@pytest.mark.parametrize(("text", "src", "tgt", "span"), [
    # "welcomes about 1.2 million visitors a year" came back 120万名访客年.
    ("The museum welcomes about 1.2 million visitors a year.", "en", "zh",
     ("about 1.2 million visitors a year", "每年约120万名访客")),
    ("We serve 300 customers a day.", "en", "zh", ("300 customers a day", "每天300名客户")),
    # 占地面积约150亩 came back "about 150 tunnel".
    ("该项目占地面积约150亩。", "zh", "en", ("约150亩", "about 150 mu")),
    # 来自全国28个省区市 came back "the nationwide 28 section".
    ("来自全国28个省区市的选手参加。", "zh", "en",
     ("28个省区市", "28 provinces, autonomous regions and municipalities")),
])
def test_counts_a_period_and_a_projects_land(text: str, src: str, tgt: str, span: tuple[str, str]) -> None:
    assert span in spans(text, src, tgt)
