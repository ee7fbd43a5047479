"""What a lease, a law's articles, a courier's holiday notice, a government work report, a scientist's
biography, a release note, a board's minutes and a travel booking must keep (2026-12-02: each case
came back wrong from a CLI translation of such a document): the spans ``prepare`` gives the model."""

from __future__ import annotations

import pytest

from doctrans.engine.protect import prepare
from tests.prepared_spans import spans


@pytest.mark.parametrize(("text", "span"), [
    # 应提前30日书面通知 came back "on the 30th written notice", 逾期15日 "On the 15th".
    ("应提前30日书面通知对方。", ("提前30日", "30 days in advance")),
    ("逾期15日未支付的，甲方有权解除合同。", ("15日", "15 days")),
    ("租赁期限届满后，乙方应在满1日后搬离。", ("1日", "1 day")),
])
def test_days_counted_after_a_word_of_time_are_days_not_a_date(text: str, span: tuple[str, str]) -> None:
    found = spans(text, "zh", "en")
    assert span in found
    assert not any(target and target.startswith("on the") for _, target in found)


def test_a_day_alone_before_a_verb_is_still_a_date() -> None:
    assert ("20日", "on the 20th") in spans("国家统计局20日发布数据。", "zh", "en")


@pytest.mark.parametrize(("text", "span"), [
    # 北京市朝阳区 came back "Zhaoyang District", the morning sun's reading.
    ("房屋位于北京市朝阳区。", ("朝阳区", "Chaoyang District")),
    ("甲方将位于北京市朝阳区建国路88号的房屋出租给乙方。", ("建国路88号", "88 Jianguo Road")),
])
def test_a_districts_pinyin_reads_its_characters_as_a_places(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "zh", "en")


@pytest.mark.parametrize(("text", "written"), [
    # 出租方（甲方）：张伟 came back "The lease (Party A): A great"; 李娜 "Leena".
    ("出租方（甲方）：张伟", "Lessor (Party A): Zhang Wei"),
    ("承租方（乙方）：李娜", "Lessee (Party B): Li Na"),
])
def test_a_contracts_party_is_a_person_named_in_pinyin(text: str, written: str) -> None:
    """The label and the name are all terms: the line is written without the model (its first
    letter is put back in capitals after it, as for every sentence)."""
    p = prepare(text, 16, None, "en", "zh")
    assert p.model_text is None
    assert (p.copy or "").lower() == written.lower()
    assert written.split(": ")[1] in (p.copy or "")


def test_a_borrowers_name_is_a_person_named_in_pinyin() -> None:
    assert ("王建国", "Wang Jianguo") in spans("借款人：王建国", "zh", "en")


def test_a_party_field_does_not_read_grammar_as_a_name() -> None:
    assert not [t for t in spans("甲方：的确如此", "zh", "en") if t[1] and " " in t[1] and t[0] == "的确如此"]


def test_a_monthly_rent_is_a_rent_not_january_and_three_months_rent_is_none() -> None:
    """第三条 月租金为人民币6500元 came back "January Article 3 is rented as 6,500 yuan"."""
    assert ("月租金", "monthly rent") in spans("月租金为人民币6500元。", "zh", "en")
    found = spans("乙方预付三个月租金。", "zh", "en")
    assert ("月租金", "monthly rent") not in found
    assert ("租金", "rent") in found


@pytest.mark.parametrize(("text", "span"), [
    # 不满十四周岁未成年人 came back "under 14 minors weeks ... -year-old minors" (周岁 read as weeks).
    ("处理不满十四周岁未成年人个人信息的", ("不满十四周岁", "under 14")),
    ("年满18周岁的公民均可报名。", ("年满18周岁的", "aged 18 or over")),
])
def test_an_age_limit_of_a_law_is_one_span(text: str, span: tuple[str, str]) -> None:
    assert span in spans(text, "zh", "en")


@pytest.mark.parametrize(("text", "src", "tgt", "written"), [
    # 本法自2021年11月1日起施行 came back "this Law did line since November 1, 2021".
    ("第七十四条 本法自2021年11月1日起施行。", "zh", "en",
     "Article 74 This Law shall come into force on November 1, 2021."),
    ("本办法自发布之日起施行。", "zh", "en", "These Measures shall come into force on the date of issue."),
    ("本合同自双方签字之日起生效。", "zh", "en",
     "This Contract shall take effect on the date on which both parties sign it."),
    ("This Act shall come into force on 1 January 2027.", "en", "zh", "本法自2027年1月1日起施行。"),
    ("This Agreement shall take effect on the date of signature.", "en", "zh", "本协议自签署之日起生效。"),
])
def test_a_clause_of_entry_into_force_is_the_other_languages_formula(text: str, src: str, tgt: str,
                                                                      written: str) -> None:
    p = prepare(text, 16, None, tgt, src)
    assert p.model_text is None
    assert p.copy == written


def test_a_clause_with_no_date_it_can_read_is_left_to_the_model() -> None:
    assert prepare("本法自某日起施行。", 16, None, "en", "zh").copy is None


def test_an_amount_a_year_earlier_is_no_amount_a_year() -> None:
    """"a deficit of £3,200 a year earlier" came back 之前每年3,200英镑 (every year)."""
    assert ("£3,200", "3,200英镑") in spans("compared with a deficit of £3,200 a year earlier.", "en", "zh")
    assert ("$180,000 a year", "每年180,000美元") in spans("It saves $180,000 a year.", "en", "zh")


def test_rest_before_api_is_the_acronym() -> None:
    """"The legacy REST API v1" came back 其余API v1 (rest, the remainder)."""
    p = prepare("The legacy REST API v1 will be removed in version 5.0.", 16, None, "zh", "en")
    assert "rest" not in p.model_text
    assert "REST" in [s.text for s in p.masked.spans]


@pytest.mark.parametrize(("text", "span"), [
    # "larger than 2 GB on Windows 11" came back 大于2 GB上的11: Windows dropped.
    ("Fixed a crash when uploading files on Windows 11.", "Windows 11"),
    ("Requires iOS 17.2 or later.", "iOS 17.2"),
    ("Pair it over Bluetooth 5.3 first.", "Bluetooth 5.3"),
    ("Supported on Ubuntu 22.04 LTS.", "Ubuntu 22.04 LTS"),
])
def test_a_platform_with_its_version_is_one_span(text: str, span: str) -> None:
    assert span in [s.text for s in prepare(text, 16, None, "zh", "en").masked.spans]


def test_a_programming_language_with_its_version_is_left_as_it_was() -> None:
    found = prepare("Upgrade to Python 3.12 now.", 16, None, "zh", "en").masked.spans
    assert "Python 3.12" not in [s.text for s in found]


@pytest.mark.parametrize(("text", "address"), [
    # "450 Post Street" came back 450邮局, a post office.
    ("Hotel: The Marlowe Hotel, 450 Post Street, San Francisco, CA 94102.", "450 Post Street"),
    ("Send it to 1600 Pennsylvania Avenue NW, Washington, DC 20500.", "1600 Pennsylvania Avenue NW"),
    ("Our office is at 221B Baker Street.", "221B Baker Street"),
    ("Visit us at 350 Fifth Avenue, Suite 3100.", "350 Fifth Avenue, Suite 3100"),
])
def test_an_english_street_address_is_kept_as_written(text: str, address: str) -> None:
    assert (address, address) in spans(text, "en", "zh")


def test_a_year_before_a_street_is_no_house_number() -> None:
    assert not any("Main Street" in t for t, _ in spans("In 2019 Main Street was closed.", "en", "zh"))


@pytest.mark.parametrize(("text", "src", "tgt", "span"), [
    # "During World War I" came back 在世界 War时.
    ("During World War I she built mobile units.", "en", "zh", ("World War I", "第一次世界大战")),
    ("She shared the Nobel Prize in Physics in 1903.", "en", "zh", ("Nobel Prize in Physics", "诺贝尔物理学奖")),
    ("compared with a deficit of £3,200", "en", "zh", ("deficit", "赤字")),
    # 2月7日（除夕） came back "(except fiber)", 根据宪法 "based on the equation".
    ("2月7日（除夕）至2月9日暂停揽收。", "zh", "en", ("除夕", "New Year's Eve")),
    ("根据宪法，制定本法。", "zh", "en", ("宪法", "Constitution")),
    ("情节严重的，处五千万元以下罚款。", "zh", "en", ("情节严重的", "where the circumstances are serious")),
    ("推动高质量发展取得新成效。", "zh", "en", ("高质量发展", "high-quality development")),
])
def test_report_terms_of_these_documents(text: str, src: str, tgt: str, span: tuple[str, str]) -> None:
    assert span in spans(text, src, tgt)


def test_this_court_is_no_law() -> None:
    assert ("本法", "this Law") not in spans("本法庭裁决如下。", "zh", "en")
