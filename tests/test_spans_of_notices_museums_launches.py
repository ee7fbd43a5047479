"""What a bank's notice, a checkup's report, a tender notice, a satellite launch, a shop's FAQ, an
insurance policy, a museum's gallery and an obituary must keep (2026-12-02: each case came back wrong
from a CLI translation of such a document)."""

from __future__ import annotations

import pytest

from doctrans.dates import find_dates
from doctrans.engine.protect import prepare
from doctrans.english_people import find_document_people, full_names
from doctrans.latin_spacing import spaced_after_marks
from doctrans.segment import split_sentences
from doctrans.space_missions import find_space_missions
from tests.prepared_spans import spans


@pytest.mark.parametrize(("text", "tgt", "span"), [
    # "the Shang and Zhou dynasties (c. 1600–256 BCE)" came back (c。1600–256 BCE), the era in English.
    ("from the Shang and Zhou dynasties (c. 1600–256 BCE).", "zh", ("c. 1600–256 BCE", "约公元前1600年至前256年")),
    ("Qin unified China in 221 BC.", "zh", ("221 BC", "公元前221年")),
    ("Pompeii was buried in AD 79.", "zh", ("AD 79", "公元79年")),
    ("bronzes of the 5th century BC", "zh", ("the 5th century BC", "公元前5世纪")),
    ("秦朝于公元前221年统一中国。", "en", ("公元前221年", "221 BC")),
    ("商朝约公元前1600年至前1046年", "en", ("约公元前1600年至前1046年", "c. 1600–1046 BC")),
    ("西汉（公元前202年至公元8年）", "en", ("公元前202年至公元8年", "202 BC to AD 8")),
    ("秦朝（公元前221年至206年）", "en", ("公元前221年至206年", "221–206 BC")),
    ("公元1世纪", "en", ("公元1世纪", "the 1st century AD")),
])
def test_years_of_an_era_are_written_the_other_languages_way(text: str, tgt: str, span: tuple[str, str]) -> None:
    assert span in [(s.text, s.target) for s in find_dates(text, tgt)]


@pytest.mark.parametrize("text", [
    "This gallery presents objects from the Shang and Zhou dynasties (c. 1600–256 BCE).",
    "Eleanor Whitfield (b. 1931) taught mathematics.",
])
def test_circa_and_born_before_a_year_end_no_sentence(text: str) -> None:
    assert split_sentences(text, "en") == [(0, len(text))]


def test_a_sentence_that_ends_with_a_letter_before_a_capital_still_ends() -> None:
    assert len(split_sentences("Call it c. The next one is d.", "en")) == 2


@pytest.mark.parametrize(("text", "src", "tgt", "span"), [
    # 使用长征二号丁运载火箭，成功将遥感四十三号卫星发射升空 came back "uses a long dancing rocket ... 43 sate stars".
    ("使用长征二号丁运载火箭", "zh", "en", ("长征二号丁运载火箭", "Long March-2D carrier rocket")),
    ("成功将遥感四十三号卫星发射升空", "zh", "en", ("遥感四十三号卫星", "Yaogan-43 satellite")),
    ("神舟十七号载人飞船", "zh", "en", ("神舟十七号载人飞船", "Shenzhou-17 crewed spaceship")),
    ("北斗三号", "zh", "en", ("北斗三号", "BeiDou-3")),
    # 风云三号H星 came back "Fengyun-3 H stars", 风云三号E星、F星 "Fengyun-3 Ess, the Freast Network".
    ("成功将风云三号H星发射升空", "zh", "en", ("风云三号H星", "Fengyun-3H")),
    ("与在轨的风云三号E星、F星组网", "zh", "en", ("F星", "Fengyun-3F")),
    # "A Long March-5B rocket lifted off" came back 块石头, a stone.
    ("A Long March-5B rocket lifted off.", "en", "zh", ("Long March-5B", "长征五号乙")),
    ("carrying the Chang'e-6 probe", "en", "zh", ("Chang'e-6", "嫦娥六号")),
])
def test_a_rocket_or_a_spacecraft_has_its_english_name(text: str, src: str, tgt: str, span: tuple[str, str]) -> None:
    assert span in [(s.text, s.target) for s in find_space_missions(text, src, tgt)]


@pytest.mark.parametrize("text", ["红军的长征", "北斗七星", "嫦娥奔月", "他考了高分"])
def test_a_programs_word_without_a_number_is_no_craft(text: str) -> None:
    assert find_space_missions(text, "zh", "en") == []


def test_a_bank_the_terms_name_keeps_its_english_name_with_its_legal_form() -> None:
    """中国银行股份有限公司 came back "China Yinhang Co., Ltd."."""
    assert prepare("中国银行股份有限公司", 16, None, "en", "zh").copy == "Bank of China Co., Ltd."
    assert prepare("深圳市华远科技有限公司", 16, None, "en", "zh").copy == "Shenzhen Huayuan Technology Co., Ltd."


def test_a_forms_name_field_keeps_its_label_with_the_name() -> None:
    """姓名：陈晓明　性别：男 lost the name: the label was written alone, and the rest lost what said
    its first word is a name; 性别：男 came back "sex: A man"."""
    found = spans("姓名：陈晓明　性别：男　年龄：45岁", "zh", "en")
    assert ("陈晓明", "Chen Xiaoming") in found
    assert ("性别：男", "Sex: Male") in found
    assert ("性别：男", "Sex: Male") not in spans("性别：男性", "zh", "en")


@pytest.mark.parametrize(("text", "span"), [
    # "unoccupied for more than 60 consecutive days" came back 60连续的日子.
    ("If your home is unoccupied for 60 consecutive days, cover is suspended.", ("60 consecutive days", "连续60天")),
    ("Refunds take 10 calendar days.", ("10 calendar days", "10个日历日")),
    ("It rained for 5 straight days.", ("5 straight days", "连续5天")),
])
def test_days_with_their_kind_are_one_duration(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "en", "zh")


@pytest.mark.parametrize(("text", "span"), [
    # 三年期定期存款年利率为1.75% came back "time deposits years of 1.75%".
    ("三年期定期存款年利率为1.75%。", ("三年期", "three-year")),
    ("十年期国债收益率上升。", ("十年期", "10-year")),
])
def test_a_term_in_years_is_one_span(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "zh", "en")


def test_the_menopause_is_no_term_in_years() -> None:
    assert not any(t.endswith("-year") for _, t in spans("她进入了更年期。", "zh", "en"))


@pytest.mark.parametrize(("decoded", "source", "expected"), [
    # 体重指数（BMI）：26.4 came back "body mass index (BMI):26.4".
    ("body mass index (BMI):⦅1⦆", "体重指数（BMI）：26.4", "body mass index (BMI): ⦅1⦆"),
    ("Contact: Liu, call:0755-83926451.", "联系人：刘工，电话：0755-83926451。", "Contact: Liu, call: 0755-83926451."),
    ("The meeting starts at 10:30.", "会议时间：10:30", "The meeting starts at 10:30."),
    # A label that is a term itself (客服电话：400-820-1234 came back "customer service hotline:400-…").
    ("contact us, ⦅1⦆:⦅2⦆.", "请联系我们，客服电话：400-820-1234。", "contact us, ⦅1⦆: ⦅2⦆."),
])
def test_a_labels_colon_gets_its_space_before_the_value(decoded: str, source: str, expected: str) -> None:
    assert spaced_after_marks(decoded, source) == expected


def test_a_person_named_in_full_twice_with_a_middle_name_is_one_person() -> None:
    """An obituary's "Eleanor M. Whitfield" came back 埃莉诺·莫菲尔德 and its "Eleanor Margaret
    Whitfield" 埃莉诺·玛格丽特·惠特菲尔德: two people to a reader."""
    text = "Eleanor M. Whitfield, 1931–2026\nEleanor Margaret Whitfield, a retired teacher, died at home."
    assert [s for _, s in full_names(text)] == ["Whitfield", "Whitfield"]
    names = find_document_people([text], lambda full: "埃莉诺·惠特菲尔德")
    assert names == {"Eleanor M. Whitfield": "埃莉诺·惠特菲尔德", "Whitfield": "惠特菲尔德"}


def test_a_person_named_in_full_once_is_the_models_rendering_unless_the_surname_is_a_word() -> None:
    assert find_document_people(["Maria Lopez spoke at noon."], lambda full: "玛丽亚·洛佩兹") == {
        "Maria Lopez": "玛丽亚·洛佩兹", "Lopez": "洛佩兹"}
    assert find_document_people(["Will Power matters."], lambda full: "意志力") == {}


def test_a_church_is_kept_as_its_name() -> None:
    """"at the First Unitarian Church" came back 第一个宇航员, the first astronaut."""
    p = prepare("The service will be held at the First Unitarian Church.", 16, None, "zh", "en")
    assert "First Unitarian Church" in [s.text for s in p.masked.spans]
