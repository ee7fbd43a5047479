"""The pre-tokenized cache (training.prepare_data, training.token_cache) and the parts a device
run's results come back in (training.device_parts)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sentencepiece as spm

from tests.zh_en_corpora import CORPORA, make_data_dir
from training.data import DataError, read_documents
from training.device_parts import PartsError, join, pack
from training.prepare_data import main as prepare_main
from training.prepare_data import verify
from training.token_cache import direction_corpus, spm_sha256, tag_source


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("cache")
    data = make_data_dir(root / "data")
    out = root / "cache"
    assert prepare_main(["--data", str(data), "--out", str(out), "--vocab-size", "400", "--threads", "1"]) == 0
    return data, out


def test_cache_holds_every_split_with_a_manifest(cache):
    data, out = cache
    manifest = json.loads((out / "manifest.json").read_text())
    for name in CORPORA:
        for split in ("train", "dev"):
            entry = manifest["files"][f"{name}.{split}.npz"]
            docs = list(read_documents(data / name / f"{split}.jsonl.xz", "zh", "en"))
            assert entry["documents"] == len(docs)
            assert entry["sentences"] == sum(len(d.src) for d in docs)
        assert f"{name}.dev.jsonl.xz" in manifest["files"]  # references for scoring travel too
    assert manifest["spm_sha256"] == spm_sha256((out / "spm.model").read_bytes())
    assert verify(out) == []


def test_both_directions_read_back_exactly_with_the_tag(cache):
    data, out = cache
    sp = spm.SentencePieceProcessor(model_file=str(out / "spm.model"))
    doc = next(read_documents(data / "pydocs-en-zh" / "train.jsonl.xz", "zh", "en"))
    sha = spm_sha256((out / "spm.model").read_bytes())
    tag_en, tag_zh = sp.piece_to_id("<2en>"), sp.piece_to_id("<2zh>")
    zh_en = direction_corpus(out / "pydocs-en-zh.train.npz", "zh", "en", 128, sha, tag_en)
    en_zh = direction_corpus(out / "pydocs-en-zh.train.npz", "en", "zh", 128, sha, tag_zh)
    for i, (zh, en) in enumerate(zip(doc.src, doc.tgt, strict=True)):
        assert zh_en.src(i).tolist() == [tag_en, *sp.encode(zh)]
        assert zh_en.tgt(i).tolist() == sp.encode(en)
        assert en_zh.src(i).tolist() == [tag_zh, *sp.encode(en)]
        assert en_zh.tgt(i).tolist() == sp.encode(zh)
    assert zh_en.n_documents == en_zh.n_documents == 60
    assert zh_en.doc_ids[0].endswith(":zh-en") and en_zh.doc_ids[0].endswith(":en-zh")


def test_sentences_are_cut_to_the_position_table(cache):
    _, out = cache
    sha = spm_sha256((out / "spm.model").read_bytes())
    full = direction_corpus(out / "tvsub-zh-en.train.npz", "zh", "en", 512, sha, 5)
    cut = direction_corpus(out / "tvsub-zh-en.train.npz", "zh", "en", 6, sha, 5)
    ls, lt = cut.lengths()
    assert ls.max() <= 5 and lt.max() <= 5  # + EOS = 6 positions
    i = int(np.argmax(np.diff(full.src_offsets)))
    assert cut.src(i).tolist() == full.src(i)[:5].tolist()
    # tagging a corpus read from JSONL gives the same arrays as the cache's own tag
    untagged = direction_corpus(out / "tvsub-zh-en.train.npz", "zh", "en", 6, sha, None)
    retagged = tag_source(untagged, 5, 6)
    assert np.array_equal(retagged.src_tokens, cut.src_tokens)


def test_a_cache_of_another_tokenizer_is_refused(cache):
    _, out = cache
    with pytest.raises(DataError, match="another SentencePiece model"):
        direction_corpus(out / "django-en-zh.dev.npz", "zh", "en", 64, "0" * 64)
    with pytest.raises(DataError, match="no 'de' side"):
        direction_corpus(out / "django-en-zh.dev.npz", "de", "en", 64, None)


def test_verify_names_an_altered_file(tmp_path, cache):
    _, out = cache
    copy = tmp_path / "cache"
    copy.mkdir()
    for f in out.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    with (copy / "django-en-zh.train.npz").open("r+b") as f:
        f.seek(100)
        f.write(b"\x00\x01\x02")
    assert prepare_main(["--out", str(copy), "--verify"]) == 2
    assert any("django-en-zh.train.npz" in p for p in verify(copy))


def test_parts_round_trip_and_damage_is_named(tmp_path):
    src = tmp_path / "bundle"
    src.mkdir()
    payload = np.random.default_rng(0).integers(0, 255, 300_000, dtype=np.uint8).tobytes()
    (src / "weights.bin").write_bytes(payload)
    (src / "model.json").write_text('{"a": 1}')
    out = tmp_path / "OUT"
    m = pack(out, {"bundle_int8": src}, part_mib=0.1, name="bundle")
    assert len(m["parts"]) >= 3 and all(p["bytes"] <= 0.1 * 2**20 for p in m["parts"])
    back = tmp_path / "back"
    join(out, back)
    assert (back / "bundle_int8" / "weights.bin").read_bytes() == payload
    part = out / m["parts"][1]["file"]
    part.write_bytes(part.read_bytes()[:-10])
    with pytest.raises(PartsError, match=part.name):
        join(out, tmp_path / "again")
    assert not (tmp_path / "again").exists()


def test_pack_refuses_more_files_than_the_device_returns(tmp_path):
    src = tmp_path / "big"
    src.mkdir()
    (src / "x.bin").write_bytes(np.random.default_rng(1).integers(0, 255, 200_000, dtype=np.uint8).tobytes())
    with pytest.raises(PartsError, match="at most 8"):
        pack(tmp_path / "OUT", {"big": src}, part_mib=0.02)


def test_a_slice_keeps_every_nth_document_whole_and_verifies(tmp_path, cache):
    """A device run that carries the shipped bundle has room for a third of TVsub: documents 1, 4,
    7... kept exactly, the manifest still checking the file, prepare_data restoring the whole."""
    import shutil

    from training.cache_slice import main as slice_main

    data, out = cache
    copy = Path(shutil.copytree(out, tmp_path / "cache"))
    sha = spm_sha256((copy / "spm.model").read_bytes())
    name = "tvsub-zh-en.train.npz"
    full = direction_corpus(out / name, "zh", "en", 128, sha)
    assert slice_main([str(copy), "tvsub-zh-en", "--parts", "3", "--part", "1"]) == 0
    assert verify(copy) == []
    part = direction_corpus(copy / name, "zh", "en", 128, sha)
    kept = list(range(1, full.n_documents, 3))
    assert part.n_documents == len(kept) and part.doc_ids == [full.doc_ids[d] for d in kept]
    for i, d in enumerate(kept):  # every sentence of every kept document, both sides
        a, b = int(full.doc_offsets[d]), int(part.doc_offsets[i])
        n = int(full.doc_offsets[d + 1]) - a
        assert int(part.doc_offsets[i + 1]) - b == n
        assert all(part.src(b + k).tolist() == full.src(a + k).tolist() for k in range(n))
        assert all(part.tgt(b + k).tolist() == full.tgt(a + k).tolist() for k in range(n))
    entry = json.loads((copy / "manifest.json").read_text())["files"][name]
    assert entry["slice"] == {"parts": 3, "part": 1} and entry["documents"] == len(kept)
    assert slice_main([str(copy), "tvsub-zh-en", "--parts", "3", "--part", "2"]) == 2  # not a slice of a slice
    assert prepare_main(["--data", str(data), "--out", str(copy), "--threads", "1"]) == 0
    assert direction_corpus(copy / name, "zh", "en", 128, sha).n_documents == full.n_documents
