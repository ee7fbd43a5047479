"""Source-language identification and the choice of installed bundle it drives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document as DocxDocument
from typer.testing import CliRunner

from doctrans import cli
from doctrans.documents import read_document
from doctrans.errors import UserError
from doctrans.language_id import identify, sample_text
from doctrans.models_registry import pick_bundle
from doctrans.translate_job import detect_language
from tests.fakes import FakeTranslator

ZH = "我们明天早上九点在公司门口见面。请记得带上合同的最终版本，律师会在会议上逐条核对。"
EN = "The quarterly report shows that revenue grew by twelve percent, mostly in the European market."
FR = "Le rapport trimestriel montre que le chiffre d'affaires a augmenté de douze pour cent."


def test_identify_languages_and_pooled_chinese_varieties() -> None:
    assert identify(ZH).lang == "zh"  # type: ignore[union-attr]
    assert identify(EN).lang == "en"  # type: ignore[union-attr]
    assert identify(FR).lang == "fr"  # type: ignore[union-attr]
    # A short subtitle line the identifier splits between Mandarin, Wu and Cantonese: pooled, it is zh.
    guess = identify("好 就是它了")
    assert guess is not None and guess.lang == "zh" and guess.confidence > 0.9
    assert identify("12 345 - 6.7") is None  # no letters: nothing to tell
    assert identify("") is None


def test_sample_text_stops_at_the_limit() -> None:
    assert sample_text(["ab", "cd", "ef"], limit=4) == "ab\nc"
    assert len(sample_text(["x" * 100] * 100, limit=250)) < 260


def test_detect_language_of_a_real_docx(tmp_path: Path) -> None:
    path = tmp_path / "contract.docx"
    doc = DocxDocument()
    doc.add_heading("合同", level=1)
    doc.add_paragraph(ZH)
    doc.add_paragraph("Version 2.1")  # a little Latin text does not change the answer
    doc.save(str(path))
    before = path.read_bytes()
    assert detect_language(read_document(path)) == "zh"
    assert path.read_bytes() == before


def install(root: Path, *pairs: str) -> None:
    for pair in pairs:
        src, tgt = pair.split("-")
        (root / pair).mkdir(parents=True)
        (root / pair / "model.json").write_text(json.dumps({"src_lang": src, "tgt_lang": tgt}))


@pytest.fixture
def models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model directory instead of the built-in bundles."""
    root = tmp_path / "models"
    root.mkdir()
    monkeypatch.setenv("DOCTRANS_MODELS", str(root))
    monkeypatch.setattr("doctrans.models_registry.PACKAGE_MODELS", tmp_path / "no-builtin")
    return root


def test_pick_bundle_by_language(models: Path) -> None:
    install(models, "zh-en", "en-zh", "en-de")
    assert pick_bundle("zh", None).path == models / "zh-en"
    assert pick_bundle("zh-Hans", "EN").path == models / "zh-en"
    assert pick_bundle("en", "de").path == models / "en-de"
    with pytest.raises(UserError, match=r"several installed models translate from en.*--tgt"):
        pick_bundle("en", None)
    with pytest.raises(UserError, match=r"looks like fr.*installed: en-"):
        pick_bundle("fr", None, detected=True)
    with pytest.raises(UserError, match=r"--src de.*de->zh"):
        pick_bundle("de", "zh")
    with pytest.raises(UserError, match=r"cannot tell the document's language.*--src"):
        pick_bundle(None, None)


def test_pick_bundle_unknown_language_with_a_single_model(models: Path) -> None:
    install(models, "zh-en")
    assert pick_bundle(None, None).path == models / "zh-en"


def _load_fake(bundle: Path, **_: object) -> FakeTranslator:
    meta = json.loads((bundle / "model.json").read_text())
    return FakeTranslator(fn=lambda s, tag=meta["tgt_lang"]: f"[{tag}] {s}", src_lang=meta["src_lang"],
                          tgt_lang=meta["tgt_lang"])


def test_cli_routes_each_document_to_the_bundle_for_its_language(
        models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(models, "zh-en", "en-zh")
    loads: list[str] = []

    def load(bundle: Path, **kw: object) -> FakeTranslator:
        loads.append(bundle.name)
        return _load_fake(bundle, **kw)

    monkeypatch.setattr("doctrans.engine.load_translator", load)
    import doctrans.documents as documents

    reads: list[str] = []
    real_read = documents.read_document

    def read(path: Path):
        reads.append(Path(path).name)
        return real_read(path)

    monkeypatch.setattr(documents, "read_document", read)
    monkeypatch.setattr("doctrans.translate_job.read_document", read)
    docs = tmp_path / "in"
    docs.mkdir()
    (docs / "a.txt").write_text(ZH + "\n", encoding="utf-8")
    (docs / "b.txt").write_text(EN + "\n", encoding="utf-8")
    (docs / "c.txt").write_text(ZH + "\n", encoding="utf-8")
    (docs / "d.txt").write_text(FR + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli.app, ["translate", *(str(p) for p in sorted(docs.iterdir())), "-o", str(out),
                                          "-q"])
    assert (out / "a.txt").read_text(encoding="utf-8").startswith("[en] ")
    assert (out / "b.txt").read_text(encoding="utf-8").startswith("[zh] ")
    assert (out / "c.txt").read_text(encoding="utf-8").startswith("[en] ")
    assert sorted(loads) == ["en-zh", "zh-en"]  # each bundle loaded once
    assert sorted(reads) == ["a.txt", "b.txt", "c.txt", "d.txt"]  # identified and translated: read once
    # The French one: one clear line, no output; the others are still translated.
    assert result.exit_code == 2 and not (out / "d.txt").exists()
    assert "looks like fr" in result.stderr and "--src" in result.stderr

    # --src overrides the identification (here: wrongly, which the user asked for).
    forced = tmp_path / "forced.txt"
    result = CliRunner().invoke(cli.app, ["translate", str(docs / "b.txt"), "-o", str(forced), "--src", "zh", "-q"])
    assert result.exit_code == 0, result.output
    assert forced.read_text(encoding="utf-8").startswith("[en] ")


def test_cli_without_any_bundle_for_the_language_is_one_error_line(
        models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(models, "zh-en")
    monkeypatch.setattr("doctrans.engine.load_translator", _load_fake)
    src = tmp_path / "report.txt"
    src.write_text(EN + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli.app, ["translate", str(src), "-o", str(tmp_path / "out.txt")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "looks like en" in lines[0] and "zh->en" in lines[0], result.stderr
    assert not (tmp_path / "out.txt").exists()


def test_a_short_document_is_the_installed_language_it_clearly_leads(
        models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of contents in English ("Contents / 1 Introduction ... 3", English 0.18 among 97
    languages) was "cannot tell the document's language" with only en->zh and zh->en installed."""
    from doctrans.language_id import likeliest_of

    toc = "Contents\n1 Introduction 3\n2 Market Overview 5\n3 Financial Results 12"
    assert identify(toc) is None
    assert likeliest_of(toc, ["en", "zh"]) == "en" and likeliest_of("目录 总则", ["en", "zh"]) == "zh"
    assert likeliest_of("12 345", ["en", "zh"]) is None  # no letters
    install(models, "zh-en", "en-zh")
    monkeypatch.setattr("doctrans.engine.load_translator", _load_fake)
    doc = tmp_path / "toc.txt"
    doc.write_text(toc + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli.app, ["translate", str(doc), "-o", str(tmp_path / "out.txt"), "-q"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.txt").read_text(encoding="utf-8").startswith("[zh] ")
