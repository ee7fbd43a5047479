"""A synthetic document task that only a model with cross-sentence context can solve.

Source language "xx" has a gender-neutral pronoun ``ta``; target language "yy" must choose
``he`` or ``she``. The only clue is the name introduced in an *earlier* sentence of the
document (sometimes with a filler sentence in between), so a sentence-level model is at
chance (50%) on the pronoun while a model that carries the context gets it right.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

MALE = ["jan", "tom", "max", "ben", "leo", "paul", "finn", "karl"]
FEMALE = ["ana", "eva", "mia", "lea", "ida", "zoe", "lina", "rosa"]
VERBS = [("schlief", "slept"), ("lachte", "laughed"), ("ass", "ate"), ("sang", "sang"), ("lief", "ran")]
PLACES = [("heim", "home"), ("spaet", "late"), ("frueh", "early")]
FILLER = [("es regnete", "it rained"), ("die sonne schien", "the sun shone"), ("alles war still", "all was quiet")]


def make_document(rng: random.Random) -> dict:
    src, tgt = [], []
    for _ in range(rng.randint(1, 3)):  # several characters per document, one after another
        male = rng.random() < 0.5
        name = rng.choice(MALE if male else FEMALE)
        place_x, place_y = rng.choice(PLACES)
        src.append(f"{name} kam {place_x}")
        tgt.append(f"{name} came {place_y}")
        for _ in range(rng.randint(1, 2)):
            if rng.random() < 0.3:
                fx, fy = rng.choice(FILLER)
                src.append(fx)
                tgt.append(fy)
            vx, vy = rng.choice(VERBS)
            src.append(f"dann {vx} ta")
            tgt.append(f"then {'he' if male else 'she'} {vy}")
    return {"src_lang": "xx", "xx": src, "yy": tgt}


def write_corpus(path: Path, n_docs: int, seed: int) -> Path:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as f:
        for i in range(n_docs):
            doc = make_document(rng)
            f.write(json.dumps({"id": f"syn-{seed}-{i}", **doc}) + "\n")
    return path


def pronoun_accuracy(targets: list[list[str]], hypotheses: list[list[str]]) -> tuple[float, int]:
    """Share of pronoun sentences ("then he/she ...") whose hypothesis has the right pronoun."""
    right = total = 0
    for ref_doc, hyp_doc in zip(targets, hypotheses, strict=True):
        for ref, hyp in zip(ref_doc, hyp_doc, strict=True):
            words = ref.split()
            if words[0] == "then" and words[1] in ("he", "she"):
                total += 1
                right += words[1] in hyp.split()[:3] and ({"he", "she"} - {words[1]}).isdisjoint(hyp.split())
    return right / max(1, total), total


def train_synthetic(tmp: Path, name: str, *extra: str, data: Path, dev: Path | None = None) -> Path:
    """Train a tiny model on the synthetic corpus through ``python -m training.train``; -> run dir.

    ``extra`` holds the stage/approach flags; later flags win, so callers may override these.
    """
    from training import train as train_mod  # torch: only for the tests that train

    out = tmp / name
    # 336 = 256 byte pieces + 4 specials + 20 user symbols (tags, placeholders) + ~56 learned pieces:
    # one per word of the task, so no word is split.
    argv = ["--src", "xx", "--tgt", "yy", "--data", str(data), "--out", str(out), "--config", "tiny",
            "--vocab-size", "336", "--lr", "3e-3", "--warmup", "50", "--log-every", "100", "--seed", "3",
            "--quiet", *extra]
    if dev is not None:
        argv += ["--dev", str(dev), "--eval-every", "100"]
    assert train_mod.main(argv) == 0
    return out


def check_resume_continues_exactly(tmp: Path, common: list[str], data: Path,
                                   steps: int) -> tuple[Path, Path, dict[str, Any], dict[str, Any]]:
    """Train ``steps`` steps in one go ("straight") and the same run stopped at half and resumed
    ("split"); assert every weight of the two last checkpoints is the same. -> (straight run dir,
    split run dir, straight checkpoint, split checkpoint) for the caller's further checks."""
    import torch

    from training.checkpoint import read_checkpoint

    straight = train_synthetic(tmp, "straight", *common, "--max-steps", str(steps), data=data)
    train_synthetic(tmp, "split", *common, "--max-steps", str(steps // 2), data=data)
    split = train_synthetic(tmp, "split", *common, "--max-steps", str(steps), "--resume", data=data)
    a, b = read_checkpoint(straight / "last.pt"), read_checkpoint(split / "last.pt")
    for k in a["model"]:
        assert torch.allclose(a["model"][k], b["model"][k], atol=1e-5), k
    return straight, split, a, b


def synthetic_corpora(root: Path) -> dict[str, Path]:
    """The train (600 documents) and dev (40) corpora every synthetic-task test uses."""
    return {"train": write_corpus(root / "train.jsonl", 600, seed=1),
            "dev": write_corpus(root / "dev.jsonl", 40, seed=2), "dir": root}


def translate_dev(ckpt: Path, dev: Path, max_docs: int = 40, **kw: Any) -> tuple[list, list, Any, Any]:
    """(references, hypotheses per document, the loaded model, its SentencePiece) of a trained
    checkpoint of any approach on the first ``max_docs`` synthetic dev documents."""
    import sentencepiece as spm

    from training import approaches
    from training.checkpoint import load_model

    loaded = load_model(ckpt)
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    docs = [json.loads(line) for line in dev.read_text().splitlines()][:max_docs]
    res = approaches.translate_documents(loaded.model, [[sp.encode(s) for s in d["xx"]] for d in docs], **kw)
    return [d["yy"] for d in docs], [[sp.decode(h) for h in r.hypotheses] for r in res], loaded, sp
