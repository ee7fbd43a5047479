"""doctrans.glossary: reading CSV/TSV glossaries (and refusing bad ones with one clear message),
and matching terms (case, full-width, word boundaries, longest first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans.engine.protect import prepare
from doctrans.glossary import Glossary, GlossaryError
from doctrans.verbatim import unmask


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def pairs(g: Glossary) -> list[tuple[str, str]]:
    return sorted((t.source, t.target) for t in g.terms)


@pytest.mark.parametrize(("name", "data"), [
    ("terms.csv", "source,target\nmachine translation,机器翻译\nGPU,图形处理器\n"),
    ("terms.tsv", "machine translation\t机器翻译\nGPU\t图形处理器\n"),
    ("terms.txt", "# our terms\n\nmachine translation\t机器翻译\n  GPU  \t 图形处理器 \t\n"),
    ("bom.csv", "\ufeffmachine translation,机器翻译\r\nGPU,图形处理器\r\n".encode()),
    ("quoted.csv", '"machine translation","机器翻译"\nGPU,图形处理器,\n'),
])
def test_csv_and_tsv_are_read(tmp_path: Path, name: str, data: str | bytes) -> None:
    g = Glossary.load(write(tmp_path, name, data))
    assert pairs(g) == [("GPU", "图形处理器"), ("machine translation", "机器翻译")]


def test_a_comma_inside_a_quoted_term(tmp_path: Path) -> None:
    g = Glossary.load(write(tmp_path, "q.csv", '"1,2-dichloroethane","1,2-二氯乙烷"\n'))
    assert (g.terms[0].source, g.terms[0].target) == ("1,2-dichloroethane", "1,2-二氯乙烷")
    # Unquoted, the same line has three columns: an error that names the line.
    with pytest.raises(GlossaryError, match="line 1: expected two comma-separated columns"):
        Glossary.load(write(tmp_path, "u.csv", "1,2-dichloroethane,1,2-二氯乙烷\n"))


@pytest.mark.parametrize(("data", "fragment"), [
    (None, "no such glossary file"),
    (b"\xff\xfeG\x00P\x00U\x00", "not UTF-8"),
    (b"GPU,\x00\x01\x02", "not a text file"),
    ("", "no terms"),
    ("source,target\n", "no terms"),
    ("GPU\n", "line 1: expected two comma-separated columns"),
    ("GPU\t图形处理器\nCPU\t中央处理器\tx\n", "line 2: expected two tab-separated columns"),
    ("GPU,图形处理器\n,中央处理器\n", "line 2: empty source term"),
    ("GPU,图形处理器\n\nCPU, \n", "line 3: expected two"),  # a blank target cell is dropped: one column
    ("GPU,图形处理器\ngpu,显卡\n", "given twice with different targets"),
    ("x" * 300 + ",y\n", "longer than"),
])
def test_bad_glossaries_give_one_clear_message(tmp_path: Path, data: str | bytes | None, fragment: str) -> None:
    path = tmp_path / "terms.csv"
    if data is not None:
        write(tmp_path, "terms.csv", data)
    with pytest.raises(GlossaryError) as e:
        Glossary.load(path)
    assert fragment in str(e.value) and str(path) in str(e.value)
    assert "\n" not in str(e.value)


def test_the_same_term_twice_with_one_target_is_fine(tmp_path: Path) -> None:
    g = Glossary.load(write(tmp_path, "t.csv", "GPU,图形处理器\ngpu,图形处理器\n"))
    assert len(g) == 1


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(GlossaryError, match="is a directory"):
        Glossary.load(tmp_path)


G = Glossary.from_pairs([("machine translation", "机器翻译"), ("translation", "翻译"), ("GPU", "图形处理器"),
                         ("cat", "猫"), ("变换器", "Transformer"), ("記憶", "memory"), ("e-mail", "电子邮件")])


def found(text: str) -> list[tuple[str, str]]:
    return [(s.text, s.target or "") for s in G.find(text)]


def test_case_insensitive_latin_terms_at_word_boundaries() -> None:
    assert found("Machine Translation runs on a gpu.") == [("Machine Translation", "机器翻译"), ("gpu", "图形处理器")]
    assert found("a catalog of cats, one cat") == [("cat", "猫")]  # not inside catalog or cats
    assert found("GPUs and GPU_count") == []
    assert found("send an E-Mail") == [("E-Mail", "电子邮件")]


def test_full_width_and_chinese_terms() -> None:
    assert found("用ＧＰＵ训练") == [("ＧＰＵ", "图形处理器")]  # full-width, glued to Chinese
    assert found("我们的变换器模型") == [("变换器", "Transformer")]  # Chinese: no boundaries needed
    assert found("記憶体") == [("記憶", "memory")]


def test_longest_term_first() -> None:
    assert found("machine translation and translation") == [("machine translation", "机器翻译"),
                                                            ("translation", "翻译")]


def test_offsets_map_back_through_nfkc_expansions() -> None:
    g = Glossary.from_pairs([("file", "文件")])
    text = "a \ufb01le and a file"  # "ﬁ" is one character that NFKC makes two
    spans = g.find(text)
    assert [text[s.start:s.end] for s in spans] == ["\ufb01le", "file"]


def test_terms_become_placeholders_and_come_back_as_targets() -> None:
    prep = prepare("Machine translation on 8 GPU cards.", placeholders=16, glossary=G)
    assert prep.model_text == "⦅1⦆ on ⦅2⦆ ⦅3⦆ cards."
    assert unmask("在⦅2⦆张⦅3⦆卡上的⦅1⦆。", prep.masked).text == "在8张图形处理器卡上的机器翻译。"
    # A bundle without placeholder pieces: the target term is written into the source instead.
    plain = prepare("Machine translation on 8 GPU cards.", placeholders=0, glossary=G)
    assert plain.model_text == "机器翻译 on 8 图形处理器 cards." and not plain.masked.spans
    # Nothing else to translate: the terms replaced, no model call.
    assert prepare("GPU", placeholders=16, glossary=G).copy == "图形处理器"
    assert prepare("320", placeholders=16, glossary=G).copy == "320"
