"""Suite-wide test configuration: the ``slow`` marker is given here, by rule, so that
``python -m pytest -m "not slow"`` is a subset that runs in about a minute while editing.

Slow = trains a model in the test (a tiny SentencePiece + Transformer, the synthetic context
tasks, the device rehearsal) or exports one through ONNX: a whole module when most of its tests
do, otherwise the tests that ask for a trained-bundle fixture. The full suite (CI) runs them all.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


# -- shared fixtures -------------------------------------------------------------------------------

@pytest.fixture
def one_thread() -> Iterator[None]:
    """Tiny models on a shared 2-core CPU: a second thread only adds contention (10x slower here).
    Modules that train use it for every test (``pytestmark = pytest.mark.usefixtures(...)``)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The synthetic pronoun task's train/dev corpora (tests/synthetic.py)."""
    from tests.synthetic import synthetic_corpora

    return synthetic_corpora(tmp_path_factory.mktemp("syn"))


def _bundle_key(root: Path) -> str:
    """What the tiny bundle is built from: its builder, the training and export code, versions."""
    from importlib.metadata import version

    h = hashlib.sha256()
    files = [root / "tests" / "tiny_model.py", *(root / "training").rglob("*.py"), *(root / "export").rglob("*.py")]
    for f in sorted(files):
        h.update(str(f.relative_to(root)).encode())
        h.update(f.read_bytes())
    for package in ("torch", "onnx", "onnxruntime", "sentencepiece"):
        h.update(version(package).encode())
    return h.hexdigest()[:16]


@pytest.fixture(scope="module")
def tiny_bundle(request: pytest.FixtureRequest) -> Path:
    """``tests.tiny_model.shared_bundle()``, kept in pytest's cache directory between runs, keyed
    by everything it is built from: training + verified export take 30-60 s on the shared CPU,
    the TUI tests using it a few seconds. Without the cache plugin it is simply built."""
    from tests.tiny_model import shared_bundle

    cache = getattr(request.config, "cache", None)
    if cache is None:
        return shared_bundle()
    target = Path(cache.mkdir("doctrans-tiny-bundle")) / _bundle_key(Path(__file__).resolve().parent.parent)
    if not (target / "model.json").exists():
        tmp = target.with_name(target.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(shared_bundle(), tmp)
        try:
            os.replace(tmp, target)  # atomic: a parallel run sees the whole bundle or none
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)  # another run got there first
    return target


@pytest.fixture(scope="module")
def tiny_translator(tiny_bundle: Path) -> Any:
    from doctrans.engine import load_translator

    return load_translator(tiny_bundle, beam_size=1, threads=1)
