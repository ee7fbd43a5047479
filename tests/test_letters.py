"""A letter's salutation, closing and signature (doctrans.letters): the docstring's table row by row."""

from __future__ import annotations

import pytest

from doctrans import letters
from doctrans.engine.protect import prepare
from doctrans.letters import find_letter_formula
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(letters)) == 14


@pytest.mark.parametrize(("source", "en", "zh"), three_column_rows(letters))
def test_docstring_table_row(source: str, en: str, zh: str) -> None:
    src, tgt = ("en", "zh") if source.isascii() else ("zh", "en")
    [span] = find_letter_formula(source, src, tgt)
    assert span.target == (zh if src == "en" else en)
    # Written without the model, as the whole segment.
    assert prepare(source, 16, tgt_lang=tgt, src_lang=src).copy == span.target


@pytest.mark.parametrize(("text", "src", "tgt"), [
    ("尊敬的王经理说了算。", "zh", "en"),  # a sentence, not a salutation
    ("高兴", "zh", "en"),  # a word, no name
    ("此致", "zh", "de"),
    ("敬礼", "zh", "en"),  # a salute
    ("Dear me, what a day.", "en", "zh"),
    ("Best regards to your mother.", "en", "zh"),
])
def test_what_is_no_letters_formula(text: str, src: str, tgt: str) -> None:
    assert find_letter_formula(text, src, tgt) == []


def test_dear_sir_is_no_one_named_sir() -> None:
    """"Dear Sir," would have been 亲爱的Sir： (a name kept as written)."""
    assert [s.target for s in find_letter_formula("Dear Sir,", "en", "zh")] == ["尊敬的先生："]
    assert [s.target for s in find_letter_formula("Dear Madam,", "en", "zh")] == ["尊敬的女士："]


def test_a_banks_notice_to_its_customers() -> None:
    """"Dear customer," came back 亲爱的顾客, its comma gone."""
    from doctrans.letters import find_letter_formula

    assert [s.target for s in find_letter_formula("Dear customer,", "en", "zh")] == ["尊敬的客户："]
    assert [s.target for s in find_letter_formula("Dear customers", "en", "zh")] == ["尊敬的客户："]


def test_a_salutations_titles_are_a_sentences_forms_of_address_but_the_letters_own() -> None:
    """One table (doctrans.person_names.FORMS_OF_ADDRESS) with the letter's differences: 小姐 is Ms.,
    a lawyer Mr.; a teacher is addressed as in a sentence."""
    from doctrans.letters import find_letter_formula

    written = {t: [s.target for s in find_letter_formula(t, "zh", "en")] for t in ("尊敬的王老师：", "尊敬的李小姐：",
                                                                                  "尊敬的张律师：", "尊敬的刘院长：")}
    assert written == {"尊敬的王老师：": ["Dear Teacher Wang:"], "尊敬的李小姐：": ["Dear Ms. Li:"],
                       "尊敬的张律师：": ["Dear Mr. Zhang:"], "尊敬的刘院长：": ["Dear Dean Liu:"]}


@pytest.mark.parametrize("text", ["各位：", "家长们都来了：", "女士们、先生们：", "各位家长"])
def test_a_group_without_its_colon_or_not_listed_is_no_salutation(text: str) -> None:
    """Only a listed group that says 各位 or 们 itself, with its colon (女士们、先生们 opens a speech)."""
    assert find_letter_formula(text, "zh", "en") == []


def test_a_notice_to_an_organisations_units() -> None:
    """A holiday notice's 各部门： came back "Groups:"."""
    from doctrans.engine.protect import prepare
    assert prepare("各部门：", 16, tgt_lang="en", src_lang="zh").copy == "To all departments:"
    assert prepare("各单位:", 16, tgt_lang="en", src_lang="zh").copy == "To all units:"
    # in a sentence the departments are a report term (doctrans/data/report_terms.tsv), no salutation
    inside = prepare("各部门要做好工作：", 16, tgt_lang="en", src_lang="zh")
    assert inside.model_text == "⦅1⦆要做好工作：" and inside.masked.spans[0].target == "all departments"
