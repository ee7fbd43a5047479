"""Short quoted terms: a Chinese one translated alone, an English one kept as written
(doctrans.quoted_terms, doctrans.engine.protect)."""

from __future__ import annotations

import pytest

from doctrans import quoted_terms
from doctrans.engine.protect import prepare
from doctrans.quoted_terms import find_quoted_terms
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(quoted_terms)) == 11


@pytest.mark.parametrize(("text", "tgt", "terms"), three_column_rows(quoted_terms))
def test_docstring_table_row(text: str, tgt: str, terms: str) -> None:
    src = "en" if tgt == "zh" else "zh"
    assert [q.text for q in find_quoted_terms(text, src, tgt)] == ([] if terms == "(none)" else terms.split(" · "))


def test_a_chinese_term_is_translated_alone_and_comes_back_in_english_quotes() -> None:
    asked: list[str] = []

    def alone(text: str) -> str:
        asked.append(text)
        return {"数据助手": "The Data Assistant.", "并行的": "Parallel"}[text]

    prep = prepare("在菜单中找到“数据助手”并打开。", 16, tgt_lang="en", src_lang="zh", alone=alone)
    assert asked == ["数据助手"] and prep.model_text is not None and "数据助手" not in prep.model_text
    assert prep.restore("Find ⦅1⦆ in the menu and open it.").text == 'Find "Data Assistant" in the menu and open it.'
    # A word of prose in “” starts in small letters; without ``alone`` the model reads it as it is.
    prep = prepare("任务被用来“并行的”调度协程", 16, tgt_lang="en", src_lang="zh", alone=alone)
    assert prep.restore("Tasks schedule coroutines ⦅1⦆").text == 'Tasks schedule coroutines "parallel"'
    assert "并行的" in (prepare("任务被用来“并行的”调度协程", 16, tgt_lang="en", src_lang="zh").model_text or "")


def test_an_english_quoted_string_is_kept_as_written_in_chinese_quotes() -> None:
    prep = prepare('One can set "Prefer tabs when opening documents" to "Always".', 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and "Prefer" not in prep.model_text
    out = prep.restore("可以将⦅1⦆设置为⦅2⦆").text
    assert out == "可以将“Prefer tabs when opening documents”设置为“Always”。"


def test_the_shipped_model_keeps_a_quoted_name_in_a_manual() -> None:
    """The zh->en model dropped “数据助手” inside the sentence; alone it comes back, quoted, and the
    document's memory is what the sentence alone would have written."""
    from tests.shipped_models import shipped_translator

    tr = shipped_translator("zh", "en")
    session = tr.new_document()
    out = session.translate("安装完成后，在开始菜单中找到“数据助手”并打开。").translation
    assert out.count('"') == 2, out
    term = out.split('"')[1]
    alone = tr.translate_alone("数据助手").strip(' ."').removeprefix("The ")
    # inside a sentence the term loses the capital its own sentence gave it ("Data assistant")
    assert term and term.isascii() and term[0].lower() + term[1:] == alone[0].lower() + alone[1:], out


def test_an_english_string_quoted_in_chinese_is_kept_as_written_into_english() -> None:
    asked: list[str] = []
    prep = prepare("如果看到“Welcome to nginx!”页面，说明安装成功。", 16, tgt_lang="en", src_lang="zh",
                   alone=lambda text: asked.append(text) or "x")
    assert asked == [] and prep.model_text is not None and "nginx" not in prep.model_text
    assert prep.restore("If you see the ⦅1⦆ page, it is installed.").text == \
        'If you see the "Welcome to nginx!" page, it is installed.'


def test_a_list_of_quoted_key_words_is_kept_whole_and_parted_by_the_enumeration_comma() -> None:
    """RFC 2119's sentence quotes ten key words: the phrase budget (for words the grammar hangs on)
    had left eight to the model, which read them in small letters and wrote "required", "shad"."""
    words = ["MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT", "SHOULD", "SHOULD NOT", "RECOMMENDED", "MAY"]
    source = ("The key words " + ", ".join(f'"{w}"' for w in words) + ', and "OPTIONAL" in this document are to '
              "be interpreted as described in RFC 2119[RFC-2119].")
    prep = prepare(source, 16, tgt_lang="zh", src_lang="en")
    kept = [s.output for s in prep.masked.spans if s.kind == "phrase"]
    assert kept == [f"“{w}”" for w in [*words, "OPTIONAL"]]
    assert not any(w.lower() in prep.model_text for w in words)
    # The model wrote the source's ", " between them: Chinese parts a list of quoted terms by 、.
    decoded = "关键词" + ", ".join(f"⦅{k}⦆" for k in range(1, 10)) + "和⦅10⦆在本文档中按⦅11⦆ ⦅12⦆⦅13⦆中所述解释。"
    text = prep.restore(decoded).text
    assert text.startswith("关键词“MUST”、“MUST NOT”、“REQUIRED”、") and "“MAY”和“OPTIONAL”" in text
    # Figures in a list are no quoted terms: their comma stays the model's.
    figures = prepare("Set the sizes 320, 640 and 1280.", 16, tgt_lang="zh", src_lang="en")
    assert figures.restore("设置大小⦅1⦆, ⦅2⦆和⦅3⦆。").text == "设置大小320, 640和1280。"


def test_an_agreements_defined_term_is_translated_alone() -> None:
    text = 'Acme Data Inc. ("Acme") and the buyer sign this Agreement (the "Agreement").'
    assert [(q.text, q.alone) for q in find_quoted_terms(text, "en", "zh")] == [("Agreement", True)]
    prep = prepare(text, 16, tgt_lang="zh", src_lang="en", alone=lambda t: {"Agreement": "协议"}[t])
    assert prep.model_text is not None and '"Agreement"' not in prep.model_text
    assert "“协议”" in prep.restore(prep.model_text).text


def test_a_contracts_definition_is_written_whole_the_chinese_way() -> None:
    """A lease's (the "Landlord") came back (the "出租方"): its brackets and "the" were the model's,
    which left "the" in English. The definition is one span, （以下简称“出租方”）, from the list's
    term for a party, or from the term translated alone."""
    text = 'The Lease is made between Harbour View Properties LLC (the "Landlord") and Emma Wilson (the "Tenant").'
    prep = prepare(text, 16, tgt_lang="zh", src_lang="en", alone=lambda t: "")
    assert [(s.text, s.target) for s in prep.masked.spans if s.target and "以下简称" in s.target] == [
        ('(the "Landlord")', "（以下简称“出租方”）"), ('(the "Tenant")', "（以下简称“承租方”）")]
    agreement = prepare('You sign this Services Agreement (hereinafter the "Agreement").', 16, tgt_lang="zh",
                        src_lang="en", alone=lambda t: {"Agreement": "协议"}[t])
    written = [(s.text, s.target) for s in agreement.masked.spans]
    assert ('(hereinafter the "Agreement")', "（以下简称“协议”）") in written
    restored = prepare(text, 16, tgt_lang="zh", src_lang="en", alone=lambda t: "")
    decoded = restored.model_text
    assert decoded is not None
    # The model's space before a placeholder whose span opens with a full-width bracket is dropped.
    chinese = decoded.replace("The Lease is made between", "租约在").replace(" and Emma Wilson", "和艾玛 Wilson")
    out = restored.restore(chinese)
    assert "Wilson（以下简称“承租方”）" in out.text


def test_a_definition_with_its_article_inside_the_quotes_is_written_whole() -> None:
    """A service agreement's ("the Consultant") was kept in English in the Chinese contract."""
    text = 'The fee is paid to Bluebird Consulting LLC ("the Consultant") monthly.'
    prep = prepare(text, 16, tgt_lang="zh", src_lang="en", alone=lambda t: "")
    assert ('("the Consultant")', "（以下简称“顾问”）") in [(s.text, s.target) for s in prep.masked.spans]
    assert [q.text for q in find_quoted_terms('He said "the end" twice.', "en", "zh")] == []  # no definition


def test_a_chinese_contracts_definition_is_written_whole_the_english_way() -> None:
    """（以下简称“甲方”） came back '(symmetric "Party A")'; （下称“本合同”） alone "Ben contract"."""
    prep = prepare("甲方：上海明达信息技术有限公司（以下简称“甲方”）", 16, tgt_lang="en", src_lang="zh",
                   alone=lambda t: "")
    assert prep.copy == 'Party A: Shanghai Mingda Information Technology Co., Ltd. (hereinafter "Party A")'
    prep = prepare("本合同（下称“合同”）由双方签订。", 16, tgt_lang="en", src_lang="zh",
                   alone=lambda t: {"合同": "The contract."}[t])
    assert ("（下称“合同”）", '(hereinafter "contract")') in [(s.text, s.target) for s in prep.masked.spans]


def test_a_party_the_report_terms_name_is_defined_whole_and_a_companys_stop_stays_with_it() -> None:
    """("Provider") was kept in English (provider is no common word), and the document's kept
    company "Northwind Data Ltd" left its stop to the model, which ended the sentence there
    (Northwind Data Ltd之间进行。 (“Provider”))."""
    from doctrans.glossary import Glossary

    text = 'This Agreement is made between Northwind Data Ltd. (the "Provider") and Acme Retail Inc.'
    glossary = Glossary([]).with_kept(frozenset({"Northwind Data Ltd", "Northwind Data"}))
    prep = prepare(text, 16, glossary, tgt_lang="zh", src_lang="en", alone=lambda t: "")
    written = [(s.text, s.target) for s in prep.masked.spans]
    assert ("Northwind Data Ltd.", "Northwind Data Ltd.") in written
    assert ('(the "Provider")', "（以下简称“提供方”）") in written


def test_a_literal_in_guillemets_is_kept_as_written_into_chinese() -> None:
    """dpkg's protected-field spec: "Our current use of «Essential: yes» is confused" came back
    «Esential：是 ©, "We use «Essential» to:" 我们使用©斯分数 (a © for the guillemet)."""
    prep = prepare("Our current use of «Essential: yes» is confused.", 16, tgt_lang="zh", src_lang="en")
    assert [(s.text, s.target) for s in prep.masked.spans] == [("«Essential: yes»", "“Essential: yes”")]
    prep = prepare("We use «Essential» to mark them.", 16, tgt_lang="zh", src_lang="en")
    assert [(s.text, s.target) for s in prep.masked.spans] == [("«Essential»", "“Essential”")]
