"""doctrans.vulgar_words: the docstring's table, and the built-in model's story sentence that swore."""

from __future__ import annotations

import pytest

from doctrans import vulgar_words
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.models_registry import default_bundle
from doctrans.vulgar_words import unwarranted_vulgarity
from tests.docstring_tables import three_column_rows


def _direction(source: str) -> tuple[str, str]:
    return ("zh", "en") if any("\u4e00" <= c <= "\u9fff" for c in source) else ("en", "zh")


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(vulgar_words)) == 7


@pytest.mark.parametrize(("source", "translation", "vulgar"), three_column_rows(vulgar_words))
def test_docstring_table_row(source: str, translation: str, vulgar: str) -> None:
    found = unwarranted_vulgarity(source, translation, *_direction(source))
    assert found == ([] if vulgar == "(none)" else [vulgar])


def test_a_name_and_a_bird_are_no_insult() -> None:
    dick = unwarranted_vulgarity("迪克·切尼在公鸡打鸣时起床", "Dick Cheney got up when the cock crowed.", "zh", "en")
    assert dick == []
    assert unwarranted_vulgarity("他在读狄更斯", "He is reading Dickens.", "zh", "en") == []


def test_the_builtin_model_keeps_a_hypothesis_that_does_not_swear(monkeypatch: pytest.MonkeyPatch) -> None:
    """门口站着一个浑身湿透的孩子 (a child soaked to the skin) came back "a dicked child"."""
    monkeypatch.delenv("DOCTRANS_MODELS", raising=False)
    bundle = default_bundle("zh", "en")
    assert bundle is not None
    translator = OnnxTranslator.load(bundle, src="zh", tgt="en")
    source = "天亮的时候，老陈推开院门，发现门口站着一个浑身湿透的孩子。"
    out = translator.new_document(return_attention=False).translate(source).translation
    assert out and unwarranted_vulgarity(source, out, "zh", "en") == []
    assert "child" in out
