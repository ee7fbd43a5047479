"""SMDT bundles: the export and its parity checks, the engine against training/smdt.py's own decoding,
and the user's TM reaching the model (issue 19). The model is tests/smdt_copy_task.py's: a tiny fp32
SMDT trained here to copy the retrieved pair's target, which nothing else tells it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from doctrans.bundle_manifest import BundleManifest
from doctrans.engine import load_translator
from doctrans.engine.errors import BundleError
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.engine.smdt_engine import SMDTTranslator
from doctrans.engine.smdt_source import sentence_instance
from doctrans.tm.run import RunTM
from export.bundle import ExportError, ExportReport, export_model
from tests.smdt_copy_task import Example, examples, shared_copy_model
from training.checkpoint import LoadedModel
from training.retrieval import TranslationMemory, flatten
from training.smdt import SMDTConfig, instance_source, stack_sources, translate_documents

pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py
# Training the copy model (~20 s) and exporting it (~5-15 s on the shared CPU) is the module's setup.
slow = pytest.mark.slow

TEST = examples(20, seed=99)  # sentences the model never saw; their TM pairs are fuzzy matches


@pytest.fixture(scope="module")
def copy_model() -> LoadedModel:
    return shared_copy_model()


@pytest.fixture(scope="module")
def exported(copy_model: LoadedModel, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ExportReport]:
    out = tmp_path_factory.mktemp("smdt") / "bundle"
    report = export_model(copy_model, out, sentences=[e.source for e in TEST[:4]], beam=3)
    return out, report


def test_engine_source_layout_is_the_training_one() -> None:
    cfg = SMDTConfig(max_len=6, sep_id=4)
    sentence = [10, 11, 12, 13, 14, 15, 16]  # longer than max_len - 1: cut as training cuts it
    for pairs in ([], [([20, 21], [30])], [([20, 21, 22, 23, 24, 25, 26], [30, 31]), ([40], [50, 51, 52])]):
        src, pos, meta = stack_sources([instance_source([sentence], [pairs], cfg)], cfg.pad_id)
        got = sentence_instance(sentence, pairs, cfg.max_len, cfg.eos_id, cfg.sep_id)
        assert np.array_equal(got.src_ids, src) and np.array_equal(got.positions, pos)
        assert np.array_equal(got.meta, meta)
        assert got.sentence_tokens == cfg.max_len  # 5 pieces + </s>


def test_model_json_smdt_is_checked(tmp_path: Path) -> None:
    """What the engine relies on is refused when wrong, one line each; a good one round-trips."""
    good = {"retrieve_k": 1, "sep_id": 4, "global_layers": 2, "instance_tokens": 1}
    manifest = BundleManifest(path=tmp_path, src_lang="en", tgt_lang="xx", vocab_size=50, d_model=8, n_heads=2,
                              enc_layers=2, dec_layers=2, max_len=16, pad_id=0, bos_id=1, eos_id=2, unk_id=3,
                              mem_sides=(), mem_slots=0, mem_layers={}, smdt=good)
    raw = manifest.to_json()
    assert BundleManifest.from_json(raw, tmp_path).smdt == good
    for change, message in (({"instance_tokens": 4}, "one sentence per instance only"),
                            ({"sep_id": 50}, "outside the vocabulary"), ({"global_layers": 3}, "global_layers"),
                            ({"retrieve_k": -1}, "retrieve_k"), ({"sep_id": "4"}, "wrong type")):
        with pytest.raises(BundleError, match=message):
            BundleManifest.from_json({**raw, "smdt": {**good, **change}}, tmp_path)


@slow
def test_export_writes_a_checked_smdt_bundle(exported: tuple[Path, ExportReport]) -> None:
    out, report = exported
    assert {p.name for p in out.iterdir()} == {"model.json", "spm.model", "memory_init.npz", "smdt_encoder.onnx",
                                               "smdt_decoder.onnx"}
    meta = json.loads((out / "model.json").read_text())
    assert meta["smdt"] == {"retrieve_k": 1, "sep_id": shared_copy_model().config.sep_id, "global_layers": 2,
                            "instance_tokens": 1}
    assert meta["memory"]["sides"] == [] and set(meta["sha256"]) == {"smdt_encoder.onnx", "smdt_decoder.onnx",
                                                                     "spm.model", "memory_init.npz"}
    assert BundleManifest.read(out).graph_names() == ["smdt_encoder", "smdt_decoder"]
    # Parity: every graph output on random inputs, the logits along the greedy path of real instances.
    print(report.summary())
    assert max(report.graph_diffs.values()) < 1e-4 and report.graph_diffs["smdt_encoder.src_info"] == 0
    assert report.greedy_identical and report.doc_logit_diff < 1e-4
    assert report.sentences == 8 and report.with_pairs is not None and report.with_pairs >= 4
    assert report.beam_identical == 8
    # The memory model's engine refuses it in one line; load_translator picks the SMDT engine.
    with pytest.raises(BundleError, match="SMDT"):
        OnnxTranslator.load(out)
    assert isinstance(load_translator(out), SMDTTranslator)


@slow
def test_export_refuses_what_it_cannot_check(copy_model: LoadedModel, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ExportError, match="int8 SMDT bundles are not implemented"):
        export_model(copy_model, tmp_path / "q", quantize="int8")
    # A step decoder that drifts from the model must not become a bundle.
    import export.smdt_bundle as sb

    real = sb.export_graphs

    def export_then_drift(model, out):
        real(model, out)
        monkeypatch.setattr(model.dec_norm, "bias", torch.nn.Parameter(model.dec_norm.bias + 0.05))

    monkeypatch.setattr(sb, "export_graphs", export_then_drift)
    with pytest.raises(ExportError, match="differs from PyTorch"):
        export_model(LoadedModel(*_fresh_copy(copy_model)), tmp_path / "bad", sentences=["a b c ."], beam=1)
    assert list(tmp_path.iterdir()) == []


def _fresh_copy(loaded: LoadedModel) -> tuple:
    """A copy of the shared model (the drift test changes its weights)."""
    import copy

    return copy.deepcopy(loaded.model), loaded.config, loaded.spm_bytes, loaded.src_lang, loaded.tgt_lang, loaded.raw


@slow
@pytest.mark.parametrize("beam", [1, 3])
def test_engine_equals_pytorch_decoding(copy_model: LoadedModel, exported: tuple[Path, ExportReport],
                                        beam: int) -> None:
    """The same instances (each test sentence with the pair BM25 retrieves from a TM of the test
    pairs, as training.smdt.translate_documents does with instance_tokens=1): same token ids."""
    model = copy_model.model
    tr = SMDTTranslator.load(exported[0], beam_size=beam, threads=1, new_digits=True,
                             any_script=True)  # as PyTorch's search
    ids = [tr.tokenizer.encode(e.source) for e in TEST]
    tm_src, tm_tgt = (flatten([tr.tokenizer.encode(t) for t in side]) for side in
                      ([e.tm_source for e in TEST], [e.target for e in TEST]))
    model.tm = TranslationMemory(*tm_src, *tm_tgt)
    try:
        ref = translate_documents(model, [ids], beam=beam, instance_tokens=1)[0].hypotheses
        neighbours = model.retrieve(ids)
        session = tr.new_document()
        got = [session.translate_ids(s, model.pairs(neighbours[i])).tokens for i, s in enumerate(ids)]
    finally:
        model.tm = None
    assert (neighbours >= 0).sum() >= len(TEST) - 2  # nearly every instance has its pair
    assert got == ref
    assert sum(tr.tokenizer.decode(h) == e.target for h, e in zip(got, TEST, strict=True)) >= 0.8 * len(TEST)


def _tm_file(tmp_path: Path, pairs: list[Example]) -> Path:
    path = tmp_path / "tm.tsv"
    path.write_text("".join(f"{e.tm_source}\t{e.target}\n" for e in pairs), encoding="utf-8")
    return path


@slow
def test_a_tm_pair_reaches_the_model(exported: tuple[Path, ExportReport], tmp_path: Path) -> None:
    """With the user's TM (a --tm file; fuzzy matches of the test sentences, never the sentences
    themselves) the model copies the stored translation; without it, it cannot know it."""
    memory = RunTM([_tm_file(tmp_path, TEST)])
    plain = load_translator(exported[0], beam_size=1, threads=1)
    assert isinstance(plain, SMDTTranslator)
    fed = plain.with_retrieval(memory.retriever("en", "xx", plain.retrieve_k))
    with_tm, without = fed.new_document(), plain.new_document()
    right_with = right_without = 0
    for e in TEST:
        assert memory.lookup("en", "xx")(e.source) is None  # not an exact match: the model translates
        right_with += with_tm.translate(e.source).translation == e.target
        assert with_tm.last_pairs == [e.tm_pair()]  # one pair (k = 1), the stored fuzzy match
        right_without += without.translate(e.source).translation == e.target
        assert without.last_pairs == []
    print(f"TM pair fed: {right_with}/{len(TEST)} exact targets; without: {right_without}/{len(TEST)}")
    assert right_with >= 0.8 * len(TEST) and right_without <= 0.3 * len(TEST)
    # Below the threshold nothing is fed: the sentence goes in alone, as with no TM.
    strict = plain.with_retrieval(memory.retriever("en", "xx", 1, threshold=99.5)).new_document()
    alone = plain.new_document()
    for e in TEST[:5]:
        assert strict.translate(e.source).translation == alone.translate(e.source).translation
        assert strict.last_pairs == []


@slow
def test_cli_reuses_exact_matches_and_feeds_fuzzy_ones(exported: tuple[Path, ExportReport], tmp_path: Path) -> None:
    """``doctrans translate --model SMDT --tm``: an exact TM match is copied verbatim (even one the
    model would never write), a fuzzy one is read by the model, whose copy gives the stored target."""
    from typer.testing import CliRunner

    from doctrans.cli import app

    exact = Example("z y x w v .", "stored verbatim, not by the model", "z y x w v .")
    doc = tmp_path / "doc.txt"
    doc.write_text(f"{TEST[0].source}\n\n{exact.source}\n\n{TEST[1].source}\n", encoding="utf-8")
    tm = _tm_file(tmp_path, [TEST[0], TEST[1], exact])
    out = tmp_path / "out.txt"
    res = CliRunner().invoke(app, ["translate", str(doc), "-o", str(out), "--model", str(exported[0]), "--src", "en",
                                   "--tgt", "xx", "--tm", str(tm), "--quiet"])
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").split("\n\n") == [TEST[0].target, exact.target, TEST[1].target + "\n"]


@slow
def test_verbatim_spans_are_still_masked(exported: tuple[Path, ExportReport]) -> None:
    """The sentence's number goes to the model as a placeholder and comes back as it was."""
    tr = load_translator(exported[0], beam_size=2, threads=1)
    assert isinstance(tr, SMDTTranslator) and tr.placeholders > 0
    result = tr.new_document().translate("a b 40213 c .")
    assert "⦅1⦆" in "".join(result.src_tokens) and "40213" not in "".join(result.src_tokens)
    assert "40213" in result.translation


@slow
def test_cli_refuses_batch_docs_with_an_smdt_bundle(exported: tuple[Path, ExportReport], tmp_path: Path) -> None:
    """--batch-docs batches the memory engine's graphs; an SMDT bundle is refused in one line."""
    from typer.testing import CliRunner

    from doctrans.cli import app

    docs = []
    for i in range(2):
        docs.append(tmp_path / f"d{i}.txt")
        docs[-1].write_text(TEST[i].source + "\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["translate", *map(str, docs), "-o", str(tmp_path / "out"), "--model",
                                   str(exported[0]), "--src", "en", "--tgt", "xx", "--batch-docs", "2", "--quiet"])
    assert res.exit_code != 0 and "an SMDT bundle translates one document at a time" in res.output, res.output
