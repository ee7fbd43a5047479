"""doctrans.relative_years: the docstring's table, and the built-in model's outlook that lost its year."""

from __future__ import annotations

import pytest

from doctrans import relative_years
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.models_registry import default_bundle
from doctrans.relative_years import lost_relative_years
from tests.docstring_tables import three_column_rows


def _direction(source: str) -> tuple[str, str]:
    return ("zh", "en") if any("\u4e00" <= c <= "\u9fff" for c in source) else ("en", "zh")


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(relative_years)) == 9


@pytest.mark.parametrize(("source", "translation", "lost"), three_column_rows(relative_years))
def test_docstring_table_row(source: str, translation: str, lost: str) -> None:
    assert lost_relative_years(source, translation, *_direction(source)) == ([] if lost == "(none)" else [lost])


def test_a_year_on_year_change_is_its_spans() -> None:
    assert lost_relative_years("价格比去年同期上涨0.2%", "Prices up 0.2% year on year.", "zh", "en") == []


def test_the_builtin_model_keeps_a_hypothesis_with_its_year(monkeypatch: pytest.MonkeyPatch) -> None:
    """业内人士认为，明年物价将保持温和回升的态势 came back "... in the middle of the year"."""
    monkeypatch.delenv("DOCTRANS_MODELS", raising=False)
    bundle = default_bundle("zh", "en")
    assert bundle is not None
    translator = OnnxTranslator.load(bundle, src="zh", tgt="en")
    document = translator.new_document(return_attention=False)
    out = document.translate("业内人士认为，明年物价将保持温和回升的态势。").translation
    assert "next year" in out
