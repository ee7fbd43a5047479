"""Tiny zh/en corpora laid out like ../shared/data (folder per corpus, train/dev JSONL.xz).

The synthetic pronoun task (tests/synthetic.py) with its two sides stored under ``zh`` and ``en``:
what the text says does not matter to the data pipeline and the device recipe, only that every
corpus, split and direction flows through them.
"""

from __future__ import annotations

import json
import lzma
import random
from pathlib import Path

from tests.synthetic import make_document

CORPORA = ("tvsub-zh-en", "pydocs-en-zh", "django-en-zh")


def write_zh_en(path: Path, n_docs: int, seed: int) -> Path:
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(path, "wt", encoding="utf-8") as f:
        for i in range(n_docs):
            doc = make_document(rng)
            f.write(json.dumps({"id": f"{path.parent.name}-{seed}-{i}", "zh": doc["xx"], "en": doc["yy"]}) + "\n")
    return path


def make_data_dir(root: Path, train_docs: int = 60, dev_docs: int = 4) -> Path:
    for k, name in enumerate(CORPORA):
        write_zh_en(root / name / "train.jsonl.xz", train_docs, seed=10 + k)
        write_zh_en(root / name / "dev.jsonl.xz", dev_docs, seed=20 + k)
    return root


def write_training_document(root: Path, doc: dict[str, list[str]]) -> Path:
    """``doc`` ({"en": [...], "zh": [...]}) as the one document of every corpus's training split
    under ``root`` (what the builders of doctrans/data's lists read: training.han_doubles ...)."""
    for corpus in CORPORA:
        (root / corpus).mkdir(parents=True, exist_ok=True)
        with lzma.open(root / corpus / "train.jsonl.xz", "wt", encoding="utf-8") as fh:
            fh.write(json.dumps(doc, ensure_ascii=False) + "\n")
    return root
