"""Dress rehearsal of the GPU session (training/recipes/device_run.sh) on the CPU, tiny config.

A lent GPU is 30 minutes once in a while; a typo found there costs the whole run. This runs the
same script, phase by phase and call by call as the device session does, on a tiny corpus laid
out like ../shared/data: the cache, stage 1 cut by its time budget and resumed by the next call,
stage 2 and its token-matched control, the int8 export and the scores packed into parts, then the
parts joined here and the bundle translating in both directions through the ONNX engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.zh_en_corpora import CORPORA, make_data_dir
from training import device_card
from training.device_parts import join
from training.prepare_data import main as prepare_main

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "training" / "recipes" / "device_run.sh"


def device_call(tmp: Path, *args: str) -> str:
    """One device `run` call: the recipe script with $OUT emptied first, as the device does."""
    out = tmp / "OUT"
    if out.exists():
        for f in out.iterdir():
            f.unlink()
    out.mkdir(exist_ok=True)
    env = {**os.environ, "OUT": str(out), "DOCTRANS_RUNS": str(tmp / "runs"), "PYTHON": sys.executable}
    tiny = ["--cache", str(tmp / "cache"), "--config", "tiny", "--max-tokens", "600", "--rows", "6",
            "--eval-every", "20", "--s1-steps", "2000", "--s1-warmup", "20", "--s2-steps", "400", "--jobs", "1",
            "--beam", "2", "--max-sentences", "8", "--device", "cpu", "--threads", "1"]
    proc = subprocess.run(["bash", str(SCRIPT), *args, *tiny], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def log_records(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_the_device_session_runs_end_to_end_on_the_cpu(tmp_path):
    data = make_data_dir(tmp_path / "data", train_docs=40, dev_docs=2)
    assert prepare_main(["--data", str(data), "--out", str(tmp_path / "cache"), "--vocab-size", "400"]) == 0
    runs = tmp_path / "runs"

    # call 1: verify + stage 1, cut by its time budget with a resumable last.pt
    # (Budgets count from the process start, imports included: on a busy machine a few seconds go
    # to start-up, so they are generous enough for some steps yet far below --s1-steps.)
    out = device_call(tmp_path, "verify", "s1", "--budget", "20")
    assert "cache verified" in out
    s1 = log_records(runs / "s1")
    assert any(r.get("stopped") == "time budget" for r in s1), "stage 1 should end on its budget"
    first_steps = max(r["step"] for r in s1)
    assert (runs / "s1" / "last.pt").exists() and (runs / "s1" / "best.pt").exists()

    # call 2: stage 1 again resumes where call 1 stopped
    device_call(tmp_path, "s1", "--budget", "14")
    assert max(r["step"] for r in log_records(runs / "s1")) > first_steps
    assert "resume_step=" in (runs / "device_run.log").read_text()

    # call 3: stage 2 (memory) and the control with as many target tokens
    device_call(tmp_path, "s2", "s1c", "--budget", "20")
    s2_tokens = max(r.get("tokens_seen", 0) for r in log_records(runs / "s2"))
    s1c_tokens = max(r.get("tokens_seen", 0) for r in log_records(runs / "s1c"))
    assert s2_tokens > 0 and s2_tokens <= s1c_tokens < s2_tokens + 700  # one batch over at most

    # call 4: export (bundle packed first) and scores
    device_call(tmp_path, "export", "score")
    back = tmp_path / "back"
    manifests = join(tmp_path / "OUT", back)
    assert sorted(m["name"] for m in manifests) == ["bundle.tgz", "logs.tgz"]
    # the logs travel with the bundle too: a short session never reaches the score phase
    assert next(m for m in manifests if m["name"] == "bundle.tgz")["contents"] == ["bundle_int8", "logs"]
    scores = back / "scores"
    for corpus in CORPORA:
        for direction in ("zh-en", "en-zh"):
            for system in ("s2", "s2_nomem", "s1c"):
                result = json.loads((scores / f"{system}.{corpus}.{direction}.json").read_text())
                assert result["n_sentences"] > 0
    assert (scores / "probe.tvsub-zh-en.zh-en.json").exists() and (scores / "probe.tvsub-zh-en.en-zh.json").exists()
    assert (back / "logs" / "s2.log.jsonl").exists()

    # the model card is written from what came back, every split in both directions
    bundle = back / "bundle_int8"
    assert device_card.main([str(back)]) == 0
    card = (bundle / "MODEL_CARD.md").read_text()
    for title in device_card.SPLITS.values():
        assert f"### {title}" in card
    assert card.count("memory vs baseline") == 6 and "not run" not in card
    assert "cpu" in card.lower() and "stage 2" in card and "device time" in card
    scores_in_json = json.loads((bundle / "model.json").read_text())["scores"]
    assert len(scores_in_json) == 12 and "tvsub_dev_en_zh_d_bleu" in scores_in_json

    # the fallback when the device cannot export: s2's weights in fp16 come back and export here
    from doctrans.engine.onnx_engine import OnnxTranslator
    from export.bundle import export_checkpoint

    device_call(tmp_path, "weights")
    assert [m["name"] for m in join(tmp_path / "OUT", tmp_path / "back_weights")] == ["weights.tgz"]
    export_checkpoint(tmp_path / "back_weights" / "weights" / "s2.pt", tmp_path / "from_weights", "int8")
    here = OnnxTranslator.load(tmp_path / "from_weights", beam_size=1, src="zh")
    assert len(here.translate_document(["dann lachte ta"])) == 1

    # the next session continues the bundle that came back instead of starting from nothing
    out = device_call(tmp_path, "s1", "--budget", "12", "--runs", str(tmp_path / "runs2"), "--init-bundle",
                      str(bundle), "--s1-schedule", "cosine")
    assert "stage 1 continues" in out
    first_eval = next(r["eval"]["dev_loss"] for r in log_records(runs / "s1") if "eval" in r)
    continued = next(r["eval"]["dev_loss"] for r in log_records(tmp_path / "runs2" / "s1") if "eval" in r)
    assert continued < first_eval  # it started where the shipped model was, not from random weights

    # the bundle that came back translates both ways through the engine users run

    meta = json.loads((bundle / "model.json").read_text())
    assert [(d["src"], d["tgt"]) for d in meta["directions"]] == [("zh", "en"), ("en", "zh")]
    assert meta["quantization"] == "int8"
    for src, tgt in (("zh", "en"), ("en", "zh")):
        tr = OnnxTranslator.load(bundle, beam_size=1, src=src, tgt=tgt)
        results = tr.translate_document(["dann lachte ta", "lina kam heim"])
        assert len(results) == 2 and all(isinstance(r.translation, str) for r in results)


def test_card_says_when_stage_1_continued_a_shipped_bundle():
    """A continued run's card must not call stage 1 'from scratch' (device_run logs the bundle)."""
    log = ("[device_run 02:20:01] stage 1 continues doctrans/models/zh-en-bidirectional (384-wide, read back "
           "from its graphs)\n[device_run 02:27:37] phase s1 done in 411 s\n")
    facts = device_card.run_facts(log)
    assert "doctrans/models/zh-en-bidirectional" in facts["continues"]
    assert facts["phases"] == "s1 6.8 min"
    assert "continues" not in device_card.run_facts("[device_run 02:27:37] phase s1 done in 411 s\n")


def test_card_scores_a_continued_run_against_the_previous_bundle(tmp_path):
    """A run with no control scores (cut short) and the previous bundle scored beside it: no empty
    control row, the memory on/off and this-vs-previous differences, model.json's scores set."""
    def score(name: str, s: float, d: float) -> None:
        (tmp_path / name).write_text(json.dumps({"s_bleu": s, "d_bleu": d, "n_sentences": 10, "signature": "sig"}))

    for direction in ("zh-en", "en-zh"):
        score(f"s2.tvsub-zh-en.{direction}.json", 20.6, 31.0)
        score(f"s2_nomem.tvsub-zh-en.{direction}.json", 20.5, 31.1)
        score(f"previous.tvsub-zh-en.{direction}.json", 17.6, 28.8)
    lines, shipped = device_card.score_section(tmp_path)
    text = "\n".join(lines)
    assert "—" not in text and "sentence-level baseline" not in text
    assert text.count("memory on vs off +0.10 s-BLEU, -0.10 d-BLEU") == 2
    assert text.count("this bundle vs the previous one +3.00 s-BLEU") == 2
    assert shipped["tvsub_dev_zh_en_s_bleu"] == 20.6 and shipped["tvsub_dev_en_zh_d_bleu"] == 31.0
