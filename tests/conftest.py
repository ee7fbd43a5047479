"""Suite-wide test configuration: the ``slow`` marker is given here, by rule, so that
``python -m pytest -m "not slow"`` is a subset that runs in about a minute while editing.

Slow = trains a model in the test (a tiny SentencePiece + Transformer, the synthetic context
tasks, the device rehearsal) or exports one through ONNX: a whole module when most of its tests
do, otherwise the tests that ask for a trained-bundle fixture. The full suite (CI) runs them all.
"""

from __future__ import annotations

import pytest

SLOW_MODULES = {
    "test_training", "test_gtransformer", "test_context_cache", "test_device_rehearsal", "test_export",
    "test_engine", "test_engine_batch", "test_engine_device", "test_bidirectional", "test_placeholders",
    "test_tui_engine", "test_evaluate_bundle", "test_cli_end_to_end", "test_vs_ctranslate2", "test_token_cache",
    "test_verbatim_pairs", "test_default_model",
}
SLOW_FIXTURES = {"tiny_bundle", "tiny_translator"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        if module in SLOW_MODULES or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
