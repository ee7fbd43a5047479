"""One bundle, two directions: a bidirectional zh<->en checkpoint through export, the engine, the
registry, the CLI and the TUI (tests/tiny_model.py's toy model, real SentencePiece and ONNX Runtime)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import sentencepiece as spm
from typer.testing import CliRunner

from doctrans import cli
from doctrans.engine import BundleError
from doctrans.engine.bundle import Direction, read_bundle
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.language_id import identify
from doctrans.models_registry import matching_bundles, pick_bundle
from doctrans.tui.app import DoctransApp
from doctrans.tui.state import translator_for
from export.bundle import ExportError, checkpoint_directions, export_model
from tests.fakes import FakeTranslator
from tests.tiny_model import (
    one_torch_thread,
    shared_bidi_bundle,
    shared_bidi_checkpoint,
    shared_bundle,
    to_chinese,
)
from tests.tui_helpers import Clock, run, translated, wait_until
from training.checkpoint import LoadedModel, load_model
from training.search import translate_documents

__all__ = ["one_torch_thread"]  # an autouse fixture: imported to apply here

runner = CliRunner()
EN_DOC = ["the cat sees a dog .", "the big bird eats fish .", "a small dog runs near the old house ."]
ZH_DOC = [to_chinese(s) for s in EN_DOC]


def _doc(src: str) -> list[str]:
    return ZH_DOC if src == "zh" else EN_DOC


# -- export ------------------------------------------------------------------------------------
def test_export_writes_the_directions_and_keeps_the_first_as_src_tgt() -> None:
    meta = json.loads((shared_bidi_bundle() / "model.json").read_text(encoding="utf-8"))
    assert meta["format_version"] == 3
    assert (meta["src_lang"], meta["tgt_lang"]) == ("zh", "en")
    assert meta["directions"] == [{"src": "zh", "tgt": "en", "tag": "<2en>"},
                                  {"src": "en", "tgt": "zh", "tag": "<2zh>"}]
    one_way = json.loads((shared_bundle() / "model.json").read_text(encoding="utf-8"))
    assert "directions" not in one_way


def _loaded(**raw: object) -> LoadedModel:
    loaded = load_model(shared_bidi_checkpoint())
    return LoadedModel(loaded.model, loaded.config, loaded.spm_bytes, str(raw.pop("src_lang", "zh")),
                       str(raw.pop("tgt_lang", "en")), {**loaded.raw, **raw})


@pytest.mark.parametrize(("directions", "message"), [
    ("zh-en", "must be a non-empty list of \\[src, tgt\\] pairs"),
    ([["zh", "en"], ["en"]], "must be a non-empty list"),
    ([["zh", "en"], ["zh", "en"]], "lists a direction twice"),
    ([["en", "zh"], ["zh", "en"]], "src_lang/tgt_lang zh->en must be the first"),
    ([["zh", "en"], ["en", "fr"]], "has no <2fr> tag"),
])
def test_export_refuses_bad_checkpoint_directions(tmp_path: Path, directions: object, message: str) -> None:
    with pytest.raises(ExportError, match=message):
        export_model(_loaded(directions=directions), tmp_path / "b")
    assert not (tmp_path / "b").exists()
    assert checkpoint_directions(_loaded())[1] == {"src": "en", "tgt": "zh", "tag": "<2zh>"}


def test_export_checks_that_the_engine_feeds_the_tag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that dropped the tag would still translate (into some language): the export's
    parity check feeds PyTorch the tagged ids itself and must refuse such a bundle."""
    real = OnnxTranslator.source_ids
    monkeypatch.setattr(OnnxTranslator, "source_ids", lambda self, s: real(self, s)[len(self.source_prefix):])
    with pytest.raises(ExportError, match=r"\(zh->en\): the engine's source ids for sentence 1"):
        export_model(load_model(shared_bidi_checkpoint()), tmp_path / "b", sentences=ZH_DOC[:1], beam=1)
    assert not (tmp_path / "b").exists()


# -- engine ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("src", "tgt"), [("zh", "en"), ("en", "zh")])
def test_each_direction_matches_pytorch_fed_the_tag(src: str, tgt: str) -> None:
    """Greedy output and memories of the ONNX engine equal training.search run on
    [<2tgt>] + pieces: the tag reaches the encoder, in both directions."""
    loaded = load_model(shared_bidi_checkpoint())
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    tag = sp.piece_to_id(f"<2{tgt}>")
    assert sp.id_to_piece(tag) == f"<2{tgt}>"
    doc = _doc(src)
    ref = translate_documents(loaded.model, [[[tag, *sp.encode(s)] for s in doc]], beam=1, record_memory=True)[0]
    # PyTorch's search has none of the engine's own rules (the script ban, the spelling pick): off,
    # as in the export's parity check (the toy model wrote "theats" on one machine, and the engine
    # searched past it).
    tr = OnnxTranslator.load(shared_bidi_bundle(), beam_size=1, src=src, tgt=tgt, any_script=True, any_spelling=True)
    session = tr.new_document()
    for i, sentence in enumerate(doc):
        r = session.translate(sentence)
        assert r.src_tokens == [f"<2{tgt}>", *sp.encode(sentence, out_type=str), "</s>"]
        assert r.tgt_tokens == ["<s>", *(sp.id_to_piece(t) for t in ref.hypotheses[i])], f"sentence {i + 1}"
        for side, m in session.memory.items():
            np.testing.assert_allclose(m, ref.memories[i][side].numpy(), atol=1e-4)
    # The tag reaches the encoder: the other direction's tag, same sentences, writes other
    # memories (so the parity above could not hold without the right tag). Memories, not tokens:
    # the toy model, 120 steps old, may write the same few pieces under either tag (it did under
    # the packages of 2026-11-26), while what it reads differs.
    other = sp.piece_to_id(f"<2{src}>")
    swapped = translate_documents(loaded.model, [[[other, *sp.encode(s)] for s in doc]], beam=1,
                                  record_memory=True)[0]
    assert any(not np.allclose(swapped.memories[i][side].numpy(), ref.memories[i][side].numpy(), atol=1e-3)
               for i in range(len(doc)) for side in ref.memories[i])


def test_the_two_directions_differ_on_the_same_input() -> None:
    zh_en = OnnxTranslator.load(shared_bidi_bundle(), beam_size=1, src="zh")
    en_zh = zh_en.with_direction("en", "zh")
    assert en_zh.sessions is zh_en.sessions  # one model in memory for both directions
    # The same ids but for the tag (sentences themselves would differ: each direction copies text
    # already in its output's script, doctrans.kept_names).
    outputs: dict[str, list[list[int]]] = {"en": [], "zh": []}
    for sentence in EN_DOC:
        a, b = zh_en.source_ids(sentence), en_zh.source_ids(sentence)
        assert (a[0], b[0]) == (zh_en.tokenizer.piece_id("<2en>"), en_zh.tokenizer.piece_id("<2zh>"))
        assert a[1:] == b[1:]
        for tr, ids in ((zh_en, a), (en_zh, b)):
            hyp, _ = tr.new_document().translate_ids(np.array([ids], dtype=np.int64))
            outputs[tr.tgt_lang].append(hyp.tokens)
    assert outputs["en"] != outputs["zh"]


def test_choosing_a_direction() -> None:
    bundle = shared_bidi_bundle()
    with pytest.raises(BundleError, match=r"several directions \(zh->en, en->zh\); choose one") as info:
        OnnxTranslator.load(bundle)
    assert "\n" not in str(info.value) and str(bundle) in str(info.value)
    assert (OnnxTranslator.load(bundle, src="en").tgt_lang, OnnxTranslator.load(bundle, tgt="en").src_lang) == \
        ("zh", "zh")
    tr = OnnxTranslator.load(bundle, src="ZH", tgt="en-US")  # same language, another spelling
    assert (tr.src_lang, tr.tgt_lang) == ("zh", "en") and tr.directions == [("zh", "en"), ("en", "zh")]
    with pytest.raises(BundleError, match=r"translates zh->en, en->zh, not fr->\?"):
        OnnxTranslator.load(bundle, src="fr")
    with pytest.raises(BundleError, match=r"not zh->zh"):
        tr.with_direction("zh", "zh")
    assert [(t.src_lang, t.tgt_lang) for t in OnnxTranslator.load_each_direction(bundle)] == tr.directions


def test_the_tag_takes_one_source_position() -> None:
    tr = OnnxTranslator.load(shared_bidi_bundle(), beam_size=1, src="en")
    assert tr.max_source_tokens == tr.info.max_len - 2 and tr.source_prefix == [tr.tokenizer.piece_id("<2zh>")]
    long = " ".join(EN_DOC * 40)
    assert tr.count_tokens(long) > tr.max_source_tokens
    r = tr.new_document(max_length=2).translate(long)
    assert len(r.src_tokens) == tr.info.max_len and r.src_tokens[0] == "<2zh>"  # tag + cut text + EOS
    forced = tr.new_document().force(EN_DOC[0], ZH_DOC[0])
    assert forced.src_tokens[0] == "<2zh>" and np.isfinite(forced.score)


def test_a_one_direction_bundle_needs_no_direction() -> None:
    info = read_bundle(shared_bundle())
    assert info.directions == [Direction("en", "xx", None)]
    tr = OnnxTranslator.load(shared_bundle(), beam_size=1)
    assert tr.directions == [("en", "xx")] and tr.source_prefix == []
    assert tr.max_source_tokens == tr.info.max_len - 1
    r = tr.new_document().translate(EN_DOC[0])
    assert r.src_tokens[0] != "<2xx>" and r.translation
    assert OnnxTranslator.load(shared_bundle(), beam_size=1, src="en").translate_document(EN_DOC[:1])[0].tgt_tokens \
        == r.tgt_tokens


# -- bundle validation -------------------------------------------------------------------------
def _copy(tmp_path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    bundle = Path(shutil.copytree(shared_bidi_bundle(), tmp_path / "models" / "bidi"))
    meta = json.loads((bundle / "model.json").read_text(encoding="utf-8"))
    edit(meta)
    (bundle / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    return bundle


def _set_tag(tag: object):  # type: ignore[no-untyped-def]
    return lambda m: m["directions"][1].update(tag=tag)


BAD_DIRECTIONS = [
    (lambda m: m.update(directions={"zh": "en"}), "'directions' must be a non-empty list"),
    (lambda m: m.update(directions=[]), "'directions' must be a non-empty list"),
    (lambda m: m["directions"].__setitem__(1, "en-zh"), r"directions\[1\] must be an object"),
    (lambda m: m["directions"][1].pop("tag"), r"has no directions\[1\]\.'tag'"),
    (lambda m: m["directions"][1].pop("src"), r"has no directions\[1\]\.'src'"),
    (_set_tag(5), r"directions\[1\]\.'tag' has the wrong type"),
    (_set_tag(""), r"directions\[1\] has an empty"),
    (_set_tag("<2fr>"), r"the tag '<2fr>' of direction en->zh is not a piece of spm.model"),
    (_set_tag("</s>"), r"the tag '</s>' of direction en->zh is not a piece"),
    (lambda m: m["directions"].append(dict(m["directions"][0])), "lists the direction zh->en twice"),
    (lambda m: m.update(src_lang="en", tgt_lang="zh"), "src_lang/tgt_lang en->zh must be the first"),
]


@pytest.mark.parametrize(("edit", "message"), BAD_DIRECTIONS)
def test_bad_directions_give_one_clear_line(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    bundle = _copy(tmp_path, edit)
    with pytest.raises(BundleError, match=message) as info:
        OnnxTranslator.load(bundle, src="zh", tgt="en")
    assert "\n" not in str(info.value) and str(bundle) in str(info.value)


# -- registry, CLI, TUI -------------------------------------------------------------------------
@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bidirectional bundle as the only installed model ($DOCTRANS_MODELS, no built-in ones)."""
    bundle = _copy(tmp_path, lambda m: None)
    monkeypatch.setenv("DOCTRANS_MODELS", str(bundle.parent))
    monkeypatch.setattr("doctrans.models_registry.PACKAGE_MODELS", tmp_path / "no-builtin")
    return bundle


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _expected(bundle: Path, src: str, lines: list[str]) -> list[str]:
    """What `doctrans translate` must write for ``lines`` (one document) in direction ``src``->."""
    from doctrans.sentence_end import capitalised_start, without_added_end

    translator = OnnxTranslator.load(bundle, src=src)
    session = translator.new_document()  # the CLI's defaults: beam 5
    # A document's block gets the capital and end its source asks for (doctrans.pipeline.assemble).
    return [capitalised_start(s, without_added_end(s, session.translate(s).translation), translator.tgt_lang)
            for s in lines]


def test_registry_offers_each_direction(installed: Path) -> None:
    assert [(b.src_lang, b.tgt_lang) for b in matching_bundles(None, None)] == [("zh", "en"), ("en", "zh")]
    assert pick_bundle("zh", None).path == pick_bundle("en", None).path == installed
    assert (pick_bundle("en", None).tgt_lang, pick_bundle(None, "en").src_lang) == ("zh", "zh")
    result = runner.invoke(cli.app, ["models"])
    assert result.exit_code == 0 and "zh->en, en->zh " in result.stdout and str(installed) in result.stdout


def test_translate_picks_the_direction_by_language(installed: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    zh, en = _write(tmp_path / "zh.txt", ZH_DOC), _write(tmp_path / "en.txt", EN_DOC)
    assert identify(zh.read_text(encoding="utf-8")).lang == "zh"  # type: ignore[union-attr]
    assert identify(en.read_text(encoding="utf-8")).lang == "en"  # type: ignore[union-attr]
    import doctrans.engine

    loads: list[dict] = []
    real_load = doctrans.engine.load_translator

    def counting_load(bundle: Path, **kw: object):  # type: ignore[no-untyped-def]
        loads.append(kw)
        return real_load(bundle, **kw)

    monkeypatch.setattr(doctrans.engine, "load_translator", counting_load)
    out = tmp_path / "out"
    result = runner.invoke(cli.app, ["translate", str(zh), str(en), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert len(loads) == 1  # both directions from one loaded model
    assert (out / "zh.txt").read_text(encoding="utf-8").splitlines() == _expected(installed, "zh", ZH_DOC)
    assert (out / "en.txt").read_text(encoding="utf-8").splitlines() == _expected(installed, "en", EN_DOC)
    assert _expected(installed, "zh", EN_DOC) != _expected(installed, "en", EN_DOC)  # the check can tell

    # --src overrides the identification; --model with a bidirectional bundle identifies too.
    forced = tmp_path / "forced.txt"
    result = runner.invoke(cli.app, ["translate", str(zh), "-o", str(forced), "--src", "en", "-q"])
    assert result.exit_code == 0, result.output
    assert forced.read_text(encoding="utf-8").splitlines() == _expected(installed, "en", ZH_DOC)
    by_model = tmp_path / "by_model.txt"
    result = runner.invoke(cli.app, ["translate", str(en), "-o", str(by_model), "--model", str(installed), "-q"])
    assert result.exit_code == 0, result.output
    assert by_model.read_text(encoding="utf-8").splitlines() == _expected(installed, "en", EN_DOC)


def test_translate_errors_with_a_bidirectional_bundle(installed: Path, tmp_path: Path) -> None:
    en = _write(tmp_path / "en.txt", EN_DOC)
    digits = _write(tmp_path / "digits.txt", ["12 34 56."])
    for args, fragment in [
        ([str(en), "--src", "fr"], "--src fr, and no installed model translates from fr"),
        ([str(en), "--model", str(installed), "--src", "fr"], f"{installed} does not translate from fr"),
        ([str(digits), "--model", str(installed)], "cannot tell the document's language"),
        ([str(en), "--model", str(installed), "--tgt", "de"], "does not translate"),
    ]:
        result = runner.invoke(cli.app, ["translate", *args, "-o", str(tmp_path / "o.txt")])
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert fragment in lines[0], lines[0]
        assert "zh->en, en->zh" in lines[0]


@pytest.mark.parametrize(("edit", "message"), [BAD_DIRECTIONS[3], BAD_DIRECTIONS[7]])
def test_an_invalid_directions_entry_is_one_error_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       edit, message: str) -> None:  # type: ignore[no-untyped-def]
    bundle = _copy(tmp_path, edit)
    monkeypatch.setenv("DOCTRANS_MODELS", str(bundle.parent))
    monkeypatch.setattr("doctrans.models_registry.PACKAGE_MODELS", tmp_path / "no-builtin")
    src = _write(tmp_path / "en.txt", EN_DOC)
    for extra in ([], ["--model", str(bundle)]):
        result = runner.invoke(cli.app, ["translate", str(src), "-o", str(tmp_path / "o.txt"), *extra])
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert "Traceback" not in result.output and str(bundle) in lines[0]
        assert not (tmp_path / "o.txt").exists()


def test_old_one_direction_bundle_still_translates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCTRANS_MODELS", str(shared_bundle().parent))
    src = _write(tmp_path / "doc.txt", EN_DOC[:2])
    out = tmp_path / "out.txt"
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(out), "--model", str(shared_bundle()), "-q"])
    assert result.exit_code == 0, result.output
    session = OnnxTranslator.load(shared_bundle()).new_document()
    assert out.read_text(encoding="utf-8").splitlines() == [session.translate(s).translation for s in EN_DOC[:2]]
    result = runner.invoke(cli.app, ["models"])
    assert "en->xx  " in result.stdout  # one direction, listed as before


def test_tui_starts_with_a_direction_and_follows_the_opened_document(installed: Path, tmp_path: Path) -> None:
    start = cli._first_fit(None, None, None)
    assert (start.src_lang, start.tgt_lang) == ("zh", "en")
    assert (cli._first_fit(installed, "en", None).tgt_lang, cli._first_fit(None, None, "zh").src_lang) == ("zh", "en")
    assert translator_for(start, "zh") is start and translator_for(FakeTranslator(), "zh").src_lang == "en"
    en = _write(tmp_path / "en.txt", EN_DOC)
    app = DoctransApp(start, None, clock=Clock())

    async def flow() -> None:
        async with app.run_test() as pilot:
            assert app.sub_title == "zh \u2192 en"
            app.screen.dismiss(en)  # the file picker: an English document
            await wait_until(pilot, lambda: translated(app), "the translation")
            assert (app.translator.src_lang, app.translator.tgt_lang) == ("en", "zh")
            assert app.sub_title == "en \u2192 zh" and app.state is not None and app.state.tgt_lang == "zh"
            assert [s.result.src_tokens[0] for s in app.state.sentences] == ["<2zh>"] * len(EN_DOC)

    run(flow)
