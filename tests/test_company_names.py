"""Chinese company names into English, the trade name in pinyin (doctrans.company_names)."""

from __future__ import annotations

import pytest

from doctrans import company_names
from doctrans.company_names import find_company_names
from doctrans.engine.protect import prepare
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(company_names)) == 10


@pytest.mark.parametrize(("text", "written"), two_column_rows(company_names))
def test_docstring_table_row(text: str, written: str) -> None:
    assert [s.target for s in find_company_names(text, "zh", "en")] == ([] if written == "(none)" else [written])
    assert find_company_names(text, "en", "zh") == [] and find_company_names(text, "zh", "ja") == []


@pytest.mark.parametrize("text", [
    "你是建议我们成立有限责任公司吗",  # to set up a limited company: no name
    "Hunter Portland顾问有限公司",  # an English name with a Chinese legal form: kept as written
    "由拜斯集团拥有并且经营",  # 集团 alone: the subtitles' cartels and foreign groups
    "子公司华远科技有限公司",
])
def test_no_name_or_not_one_to_write_in_pinyin(text: str) -> None:
    found = find_company_names(text, "zh", "en")
    assert all(s.text == "华远科技有限公司" for s in found)


def test_a_reports_company_through_the_engines_preparation() -> None:
    """A social responsibility report's 华远科技股份有限公司 came back "Wall technology is Co., Ltd."."""
    prep = prepare("华远科技股份有限公司主要从事智能电表的研发。", 16, tgt_lang="en", src_lang="zh")
    assert ("华远科技股份有限公司", "Huayuan Technology Co., Ltd.") in [(s.text, s.target) for s in prep.masked.spans]
    assert prep.model_text is not None and prep.model_text.startswith("⦅1⦆")
