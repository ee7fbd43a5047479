"""Latin names kept as they are between Chinese and English (doctrans.kept_names): the rules (parsed
from the module docstring's table), masking and restoration, the check after translation, the
engine, and the list of capital words a translation into Chinese renders (training.translated_caps)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from doctrans import kept_names
from doctrans.direction_terms import automatic_terms
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.engine.protect import prepare
from doctrans.glossary import Glossary
from doctrans.kept_names import common_words, find_kept_names, translated_caps
from doctrans.report import sentence_warnings
from doctrans.verbatim import placeholder
from tests.tiny_model import one_torch_thread, shared_placeholder_bundle  # noqa: F401 - fixture
from tests.zh_en_corpora import write_training_document
from training import translated_caps as builder


def docstring_table() -> list[tuple[str, str, str, list[str]]]:
    rows = re.findall(r"^\| (\w+) +\| (\w+) +\| (.+?) +\| (.+?) +\|$", kept_names.__doc__ or "", re.M)
    return [(src, tgt, text, [] if kept == "(none)" else kept.split(" · "))
            for src, tgt, text, kept in rows if src != "source"]


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 15


@pytest.mark.parametrize(("src", "tgt", "text", "expected"), docstring_table())
def test_docstring_table_row(src: str, tgt: str, text: str, expected: list[str]) -> None:
    names = find_kept_names(text, src, tgt)
    assert [n.text for n in names] == expected
    for n in names:
        assert text[n.start:n.end] == n.text == n.target and n.kind == "name"


def test_no_names_without_both_languages() -> None:
    assert find_kept_names("使用 GNOME 桌面", None, "en") == []
    assert find_kept_names("Both GNOME and KDE", "en", None) == []


def test_names_stop_at_verbatim_spans_and_leave_user_terms_alone() -> None:
    text = "请参阅 docs/index.rst 和 Python 3.12.1 的 os.path.join() 用法，以及 Visual Studio Code。"
    terms = automatic_terms(text, [], "zh", "en")
    # The path and the identifier stay verbatim spans of their own; a version right after a name
    # goes with it (it is restored byte for byte in the name); names fill the rest.
    assert [t.text for t in terms] == ["Python 3.12.1", "Visual Studio Code"]
    glossary = Glossary.from_pairs([("Visual Studio Code", "VS Code")])
    terms = automatic_terms(text, glossary.find(text), "zh", "en")
    assert [(t.text, t.target) for t in terms] == [("Python 3.12.1", "Python 3.12.1"),
                                                   ("Visual Studio Code", "VS Code")]


def test_a_products_version_goes_with_its_name_unless_a_qualifier_takes_it() -> None:
    """``支持 Windows 10/11、macOS 12 及以上版本`` came back ``Support Windows, 10/11, macOS, 12``."""
    terms = automatic_terms("支持 Windows 10/11、Ubuntu 22 及以上版本，需要 Java 3 个。", [], "zh", "en")
    assert [(t.text, t.target) for t in terms] == [("Windows 10/11", "Windows 10/11"), ("Ubuntu", "Ubuntu"),
                                                   ("22 及以上版本", "22 or later"), ("Java", "Java")]


def test_a_name_is_masked_and_comes_back_byte_for_byte() -> None:
    prep = prepare("我们使用 GNOME 桌面和 KDE。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "我们使用 ⦅1⦆ 桌面和 ⦅2⦆。"
    assert prep.restore("We use the ⦅1⦆ desktop and ⦅2⦆.").text == "We use the GNOME desktop and KDE."
    # Dropped by the model: put back all the same.
    assert "KDE" in prep.restore("We use the ⦅1⦆ desktop.").text
    prep = prepare("Both GNOME and KDE follow the FBI's advice.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "Both ⦅1⦆ and ⦅2⦆ follow the FBI's advice."
    # Without the source language (an older caller) nothing changes.
    assert prepare("我们使用 GNOME 桌面。", 16, tgt_lang="en").model_text == "我们使用 GNOME 桌面。"


def test_a_sentence_of_a_chinese_source_without_chinese_is_copied() -> None:
    """A line of code or an English sentence in a Chinese document is its own English translation."""
    for line in ("Hello, world!", "await asyncio.sleep(1)", "See the PostgreSQL documentation."):
        prep = prepare(line, 16, tgt_lang="en", src_lang="zh")
        assert prep.model_text is None and prep.copy == line
    # Into Chinese the same line is translated.
    assert prepare("Hello, world!", 16, tgt_lang="zh", src_lang="en").model_text == "Hello, world!"


def test_the_check_reports_a_lost_name() -> None:
    source = "Both GNOME and KDE use it."
    assert sentence_warnings(source, "GNOME 和 KDE 都使用它。", tgt_lang="zh", src_lang="en") == []
    [warning] = sentence_warnings(source, "GOMEN 和 KDE 都使用它。", tgt_lang="zh", src_lang="en")
    assert (warning.problem, warning.kind, warning.span) == ("missing", "name", "GNOME")
    assert sentence_warnings(source, "GOMEN 和 KDE 都使用它。", tgt_lang="zh") == []


def test_the_engine_keeps_a_name_whatever_the_model_writes() -> None:
    tr = OnnxTranslator.load(shared_placeholder_bundle(), beam_size=2)
    tr.src_lang, tr.tgt_lang = "zh", "en"  # as a zh->en bundle: the toy model reads the placeholders
    session = tr.new_document()
    r = session.translate("猫 GNOME 狗 Visual Studio Code")
    assert "GNOME" in r.translation and "Visual Studio Code" in r.translation
    assert placeholder(1) in r.src_tokens and "GNOME" not in "".join(r.src_tokens)


def test_the_shipped_lists_render_common_acronyms_and_words_but_not_technical_ones() -> None:
    caps, words = translated_caps(), common_words()
    assert {"FBI", "TV", "CIA"} <= caps and {"not", "never", "the", "of", "ok"} <= words
    technical = {"GNOME", "KDE", "HTTP", "API", "SQL", "ASCII", "CPU", "JSON", "WARNING"}
    assert not technical & caps and not {w.lower() for w in technical} & words


def test_the_lists_are_measured_on_training_pairs(tmp_path: Path) -> None:
    """Acronyms rendered: capitals the Chinese side drops; common words: frequent small words,
    less those whose frequent capital form the Chinese side keeps."""
    doc = {"en": ["The FBI is here.", "The FBI left.", "Use GNOME now.", "Use GNOME today.", "I did NOT go.",
                  "I did not go.", "Set WARNING level.", "Set WARNING now.", "DO NOT ENTER"],
           "zh": ["联邦调查局来了。", "联邦调查局走了。", "现在用 GNOME。", "今天用 GNOME。", "我没去。", "我没去。",
                  "设置 WARNING 级别。", "现在设置 WARNING。", "禁止入内"]}
    write_training_document(tmp_path, doc)
    seen, kept, words, titled = builder.measure(tmp_path)
    assert seen["ENTER"] == 0  # a shouted line says nothing
    common = builder.common_words(seen, kept, words | Counter({"warning": 9, "not": 8}), common=4, min_count=2)
    assert common == ["did", "not", "now"]  # "warning": its capital form is frequent and always kept
    caps = builder.translated_caps(seen, kept, common, min_count=2)
    assert caps == ["FBI"]  # NOT is a common word; GNOME and WARNING are kept by the Chinese side
    # "level" is written small; "Python" is capitalised inside sentences more often than not.
    words = Counter({"level": 5, "python": 1})
    assert builder.proper_words(["level", "python"], words, Counter({"python": 4, "level": 0})) == ["python"]
    assert titled["now"] == 0 and titled["the"] == 0  # a sentence's first word is not counted


def test_names_give_way_to_figures_at_the_placeholder_limit() -> None:
    """Sixteen placeholders: every figure gets one before a name does; a name past the limit is
    left to the model, a figure never is."""
    figures = "、".join(str(i) for i in range(1, 16))
    prep = prepare(f"用 GNOME 和 KDE 的 {figures} 和 Visual Studio Code", 16, tgt_lang="en", src_lang="zh")
    assert [s.text for s in prep.masked.spans] == ["GNOME", *figures.split("、")]
    assert "KDE" in prep.model_text and "Visual Studio Code" in prep.model_text


def test_quoted_capital_terms_are_kept_whole_even_when_common_words() -> None:
    text = 'The key words "MUST", “SHALL NOT” and \'MAY\' are as in RFC 2119; you MUST NOT go.'
    names = [n.text for n in find_kept_names(text, "en", "zh")]
    # Quoted: kept, a two-word term as one span. Used in the sentence (MUST NOT go): read by the model.
    assert names == ["MUST", "SHALL NOT", "MAY", "RFC"]
    assert find_kept_names(text, "en", "de") == []  # into a cased language nothing is needed
    assert [n.text for n in find_kept_names('He said OK and "IT" twice.', "en", "zh")] == ["IT"]


def test_an_organisation_whose_first_word_is_a_span_of_its_own_is_kept_whole() -> None:
    """A news story's "a spokesperson for CenterPoint Energy said" came back "CenterPoint英格语": the
    name in inner capitals was a span, "Energy" was left to the model."""
    from doctrans.engine.protect import prepare

    kept = [s.text for s in prepare("Shares of PayPal Holdings rose, and the spokesperson for CenterPoint Energy "
                                    "said so.", 16, tgt_lang="zh", src_lang="en").masked.spans]
    assert kept[:2] == ["PayPal", "Holdings"] and "Energy" in kept
    # Not a word after any span, and not a word that ends no organisation's name.
    kept = [s.text for s in prepare("The YouTube video and CenterPoint Tuesday.", 16, tgt_lang="zh",
                                    src_lang="en").masked.spans]
    assert "video" not in " ".join(kept) and "Energy" not in kept


def test_a_common_english_word_left_in_a_chinese_translation_is_reported() -> None:
    from doctrans.report import sentence_warnings

    def untranslated(source: str, translation: str, tgt: str = "zh", src: str = "en") -> list[str]:
        return [w.span for w in sentence_warnings(source, translation, None, (), tgt, src)
                if w.problem == "untranslated"]

    # "The U.S. economy grew ..., the Commerce Department said" came back 美国  economy …,
    # Commerce Department said在星期三上: the reader is told which words were not translated.
    assert untranslated("The U.S. economy grew, the Commerce Department said on Wednesday.",
                        "美国  economy 增长, Commerce Department said在星期三上。") == ["economy", "said"]
    # What the translation keeps on purpose is no such word: a literal, a name, a capitalised word.
    assert untranslated("Call the ``read`` method on Linux.", "在Linux上调用 ``read`` 方法。") == []
    assert untranslated('See the "History and related systems" document.',
                        "参见“History and related systems”文档。") == []  # a quotation kept as written
    # A word technical Chinese keeps as written (training.kept_in_chinese): gzip 33 of 34 times.
    assert untranslated("Compress it with gzip and a regex.", "用 gzip 和 regex 压缩它。") == []
    # Into English, or a word the source does not have: nothing.
    assert untranslated("经济增长。", "The economy grew.", "en", "zh") == []
    assert untranslated("It grew.", "它 grew 了 economy。") == ["grew"]


def test_the_list_of_words_kept_in_chinese_is_built_from_the_training_pairs(tmp_path: Path) -> None:
    """training.kept_in_chinese: a common word the references keep often enough is on the list."""
    from training import kept_in_chinese as builder

    doc = {"en": ["Use gzip here.", "Run gzip now.", "The economy grew."],
           "zh": ["在这里使用 gzip。", "现在运行 gzip。", "经济增长了。"]}
    write_training_document(tmp_path, doc)
    builder.main(["--data", str(tmp_path), "--out", str(tmp_path), "--min-count", "3"])
    words = [w for w in (tmp_path / "kept_in_chinese.txt").read_text(encoding="utf-8").splitlines()
             if not w.startswith("#")]
    assert words == ["gzip"]  # kept 6 of 6; economy 0 of 3; use/run/grew are never kept


def test_a_companys_abbreviation_keeps_its_full_stop_inside_a_sentence() -> None:
    # "Acme Data Services Inc., a Delaware corporation" came back "Acme Data Services Inc之间。，".
    prep = prepare("It is signed by Acme Data Services Inc., a Delaware corporation, and Northwind Logistics Ltd. "
                   "today. Thanks to Acme Data Inc.", 16, tgt_lang="zh", src_lang="en")
    kept = [s.text for s in prep.masked.spans if s.kind == "name"]
    assert "Acme Data Services Inc." in kept and "Northwind Logistics Ltd." in kept
    assert "Acme Data Inc" in kept  # at the sentence's end the stop is the sentence's
    # ... and after a name kept as an identifier (a recall notice's "BrightHome Inc. is voluntarily
    # recalling" read as two sentences: 公司。 is voluntarily recalling, the rest left in English).
    prep = prepare("BrightHome Inc. is voluntarily recalling its heaters.", 16, tgt_lang="zh", src_lang="en")
    assert "Inc." in [s.text for s in prep.masked.spans] and ". is" not in (prep.model_text or "")


@pytest.mark.parametrize(("text", "kept"), [
    # A report's byline in Title Case came back 支援队，第一季，第2026年10月15日: the company gone.
    ("Prepared by the Finance Team, Acme Robotics Ltd. — 15 October 2026", ["Acme Robotics Ltd."]),
    ("Welcome To Acme Robotics Ltd", ["Acme Robotics Ltd"]),  # from its first rare word
    # A legal form names a company whatever its words: a lease's "between Harbour View Properties LLC
    # (the ...)" came back with the date inside the name (Harbour 2026年12月1日 View Properties LLC).
    ("The lease is made between Harbour View Properties LLC and Emma Wilson.", ["Harbour View Properties LLC"]),
    ("Between Harbour View Properties LLC and us.", ["Harbour View Properties LLC"]),
    # A sentence full of names is no title-case heading (it was read as one: the company not kept).
    ('This Lease Agreement is made on March 3, 2026 between Harbor View Properties LLC ("Landlord") and '
     'Daniel Ortiz ("Tenant").', ["Harbor View Properties LLC"]),
    # Title Case without a legal form: every word looks like a name, none is kept.
    ("Getting Started With Acme Labs", []),
])
def test_a_company_with_its_legal_form_is_kept_in_a_title_case_line(text: str, kept: list[str]) -> None:
    assert [s.text for s in find_kept_names(text, "en", "zh") if " " in s.text] == kept


def test_a_word_copied_wrong_makes_the_engine_keep_another_hypothesis() -> None:
    """A battery story's "tiny needle-like structures" came back 类似小的 needsle 结构 (the n-best held
    需求结构 without it), a report's heading Challenges came back Challges."""
    assert kept_names.miscopied_words("tiny needle-like structures", "类似小的 needsle 结构") == {"needsle"}
    assert kept_names.miscopied_words("Challenges", "Challges") == {"Challges"}
    assert kept_names.miscopied_words("Install numpy with pip", "用 pip 安装 numpy") == frozenset()
    # Another form of a source word is no copy gone wrong (pydocs' "cancel the futures": 取消 future).
    assert kept_names.miscopied_words("does not cancel the futures", "不会取消 future 对象") == frozenset()
    source = "It prevents tiny needle-like structures."
    prep = prepare(source, 16, tgt_lang="zh", src_lang="en")
    hyps = ["它防止类似小的 needsle 结构。", "它防止类似针状的结构。"]
    assert prep.pick(hyps, lambda h: h) == "它防止类似针状的结构。"
    assert prep.pick(hyps[:1], lambda h: h) == hyps[0]  # none without it: the best


def test_a_products_line_goes_with_its_kept_name() -> None:
    # A product page's "AeroBrew Pro Coffee Maker" came back AeroBrew号咖啡机, its Pro read as a number.
    prep = prepare("AeroBrew Pro Coffee Maker", 16, tgt_lang="zh", src_lang="en")
    assert [s.output for s in prep.masked.spans] == ["AeroBrew", "Pro"]
    assert prep.restore("⦅1⦆ ⦅2⦆咖啡机").text == "AeroBrew Pro咖啡机"
    found = kept_names.find_kept_names("我买了一台AeroBrew Pro咖啡机。", "zh", "en")
    assert [s.text for s in found] == ["AeroBrew Pro"]
    assert [s.text for s in kept_names.find_kept_names("A pro tip.", "en", "zh")] == []


@pytest.mark.parametrize(("source", "translation", "copied"), [
    # A product page's "enough for 12 cups" came back "enough for 12杯": the model copied what it did
    # not translate around its placeholders; its n-best held 足够 ⦅3⦆.
    ("- 1.8-litre glass carafe, enough for 12 cups", "- ⦅1⦆ ⦅2⦆, enough for ⦅3⦆", "enough for"),
    ("- 1.8-litre glass carafe, enough for 12 cups", "- ⦅1⦆ ⦅2⦆,足够 ⦅3⦆", None),
    ("Climb to the lamp room.", "爬到lamp房间。", "lamp"),  # a story's: one word too
    ("Use the regex module with a shell.", "在shell里使用regex模块。", None),  # what technical Chinese keeps
    ('It prints "hello world".', "它打印“hello world”。", None),  # quoted
    ("started at 17:13:52\nhello\nworld", "17:13:52 hello world", None),  # a program's output
    ("Call f(x) with any value.", "用 any value 调用 f(x)。", None),  # code around it
    # A contract's verb in its -s form, between two placeholders: a regular form of a common word.
    ("Licensor grants Licensee a license.", "许可方 grants 被许可方一个许可证。", "grants"),
    ("The files were placed in the folder.", "文件被placed到文件夹里。", "placed"),
    ("Use the regex module.", "使用regexes模块。", None),  # not in the source
])
def test_a_phrase_copied_instead_of_translated(source: str, translation: str, copied: str | None) -> None:
    assert kept_names.copied_phrase(source, translation) == copied


def test_the_engine_prefers_a_hypothesis_that_translates_the_phrase() -> None:
    prep = prepare("- 1.8-litre glass carafe, enough for 12 cups", 16, tgt_lang="zh", src_lang="en")
    hyps = [prep.model_text, prep.model_text.replace(", enough for", ",足够")]
    assert prep.pick(hyps, lambda h: h) == hyps[1]


def test_a_product_line_only_after_a_products_name() -> None:
    # A paper's "Background: Air pollution is..." had its Air kept as AeroBrew's Pro is.
    prep = prepare("Background: Air pollution is a leading risk.", 16, tgt_lang="zh", src_lang="en")
    assert "Air" not in [s.output for s in prep.masked.spans]
    prep = prepare("The iPhone Pro Max is new.", 16, tgt_lang="zh", src_lang="en")
    assert [s.output for s in prep.masked.spans] == ["iPhone", "Pro Max"]


def test_an_acronym_that_spells_a_word_is_the_acronym_in_mixed_case() -> None:
    """A headphone manual's "The LED turns green" was read as "led" and came back 导致 (caused); in a
    shouted line the same letters are the word."""
    prep = prepare("The LED turns green when fully charged.", 16, tgt_lang="zh", src_lang="en")
    assert "LED" in [s.text for s in prep.masked.spans]
    prep = prepare("Enter your PIN and insert the SIM card.", 16, tgt_lang="zh", src_lang="en")
    assert [s.text for s in prep.masked.spans] == ["PIN", "SIM"]
    prep = prepare("THE TROOPS LED THE WAY.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and "led" in prep.model_text and not prep.masked.spans


def test_a_product_before_its_version_is_kept_into_chinese() -> None:
    """A security advisory's "the image decoder of Fastkv 2.3.0 through 2.4.0" came back
    图像解码器的2.3.0到2.4.0: the product dropped. Not a known name (Python 3.12) nor a month."""
    found = [s.text for s in find_kept_names("the decoder of Fastkv 2.3.0 through 2.4.0", "en", "zh")]
    assert found == ["Fastkv"]
    assert find_kept_names("Upgrade Python 3.12 in March 2.5 now.", "en", "zh") == []
