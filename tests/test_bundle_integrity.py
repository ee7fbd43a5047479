"""Bundle files are checked against the sha256 digests in model.json (issue 16, defect 8)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from doctrans.engine import BundleError
from doctrans.engine.integrity import HASHES_KEY, bundle_hashes, verify_bundle_files
from doctrans.engine.onnx_engine import OnnxTranslator

SHIPPED = sorted((Path(__file__).resolve().parent.parent / "doctrans" / "models").iterdir())


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DOCTRANS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("bundle", SHIPPED, ids=lambda p: p.name)
def test_shipped_bundles_list_and_match_their_digests(bundle: Path) -> None:
    meta = json.loads((bundle / "model.json").read_text(encoding="utf-8"))
    assert meta[HASHES_KEY] == bundle_hashes(bundle)
    assert {"weights.bin", "encoder.onnx", "spm.model", "memory_init.npz"} <= set(meta[HASHES_KEY])


def load(bundle: Path) -> OnnxTranslator:
    """The bundle's first direction (a bidirectional bundle must be told one)."""
    meta = json.loads((bundle / "model.json").read_text(encoding="utf-8"))
    return OnnxTranslator.load(bundle, src=meta["src_lang"], tgt=meta["tgt_lang"])


def _copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SHIPPED[0], tmp_path / "bundle"))


def test_same_size_garbage_weights_are_refused(tmp_path: Path) -> None:
    bundle = _copy(tmp_path)
    load(bundle)  # intact: loads (and fills the cache)
    w = bundle / "weights.bin"
    data = np.frombuffer(w.read_bytes(), dtype=np.uint8).copy()
    data[len(data) // 2: len(data) // 2 + 4096] ^= 0x5A  # same size, plausible floats
    w.write_bytes(data.tobytes())
    with pytest.raises(BundleError, match=r"weights.bin is not the file this bundle was exported with") as e:
        load(bundle)
    assert "\n" not in str(e.value)


def test_cache_is_the_fast_path_and_tracks_changes(tmp_path: Path, own_cache: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = _copy(tmp_path)
    raw = json.loads((bundle / "model.json").read_text())
    verify_bundle_files(bundle, raw)
    assert (own_cache / "doctrans" / "verified-files.json").is_file()
    hashed: list[str] = []
    import doctrans.engine.integrity as integrity

    real = integrity.sha256_file
    monkeypatch.setattr(integrity, "sha256_file", lambda p: hashed.append(p.name) or real(p))
    verify_bundle_files(bundle, raw)
    assert hashed == []  # unchanged files: size + mtime from the cache, nothing re-read
    spm = bundle / "spm.model"
    st = spm.stat()
    os.utime(spm, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    verify_bundle_files(bundle, raw)
    assert hashed == ["spm.model"]  # touched: hashed again (still the same content: accepted)


def test_bundles_without_digests_still_load(tmp_path: Path) -> None:
    bundle = _copy(tmp_path)
    meta = json.loads((bundle / "model.json").read_text())
    del meta[HASHES_KEY]
    (bundle / "model.json").write_text(json.dumps(meta))
    load(bundle)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda m: m.__setitem__(HASHES_KEY, ["x"]), "must map file names"),
    (lambda m: m[HASHES_KEY].__setitem__("../model.json", "00"), "not a file of the bundle"),
    (lambda m: m[HASHES_KEY].__setitem__("extra.bin", "00"), "extra.bin is missing"),
])
def test_bad_digest_lists_are_one_line(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    bundle = _copy(tmp_path)
    meta = json.loads((bundle / "model.json").read_text())
    edit(meta)
    with pytest.raises(BundleError, match=message):
        verify_bundle_files(bundle, meta)
