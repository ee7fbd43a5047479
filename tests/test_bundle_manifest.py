"""model.json has one owner, doctrans/bundle_manifest.py (issue 17 item 5): it round-trips, refuses a
malformed manifest in one line, writes atomically, and no other module of doctrans/, export/ or
training/ writes the file."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from doctrans.bundle_manifest import (
    HASHES_KEY,
    MODEL_JSON,
    BundleManifest,
    Direction,
    bundle_hashes,
    read_json,
    record_hashes,
    set_scores,
    set_weights_file,
    standard_files,
)
from doctrans.engine.errors import BundleError

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "doctrans" / "models").iterdir())


def _manifest(path: Path, **changes: Any) -> BundleManifest:
    """A bidirectional manifest with every optional part set."""
    fields: dict[str, Any] = dict(
        path=path, src_lang="zh", tgt_lang="en", vocab_size=420, d_model=64, n_heads=4, d_ff=128, enc_layers=2,
        dec_layers=2, max_len=64, pad_id=0, bos_id=1, eos_id=2, unk_id=3, mem_sides=("src", "tgt"), mem_slots=4,
        mem_layers={"src": [1], "tgt": [1]}, quantization="int8", files=standard_files(("src", "tgt")),
        provenance={"checkpoint": "best.pt", "step": 80}, scores={"tvsub_dev_s_bleu": 1.5},
        directions=[Direction("zh", "en", "<2en>"), Direction("en", "zh", "<2zh>")],
        decoding={"no_repeat_ngram": 3, "length_penalty": 0.6}, hashes={"spm.model": "ab" * 32},
        extra={"made_by": "a later doctrans"},
    )
    fields.update(changes)
    return BundleManifest(**fields)


# -- round trips ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bundle", SHIPPED, ids=lambda p: p.name)
def test_shipped_manifests_are_written_back_byte_for_byte(bundle: Path, tmp_path: Path) -> None:
    manifest = BundleManifest.read(bundle)
    first = manifest.directions[0]  # a bidirectional bundle lists both, src_lang -> tgt_lang first
    assert (first.src, first.tgt) == (manifest.src_lang, manifest.tgt_lang)
    assert manifest.hashes == bundle_hashes(bundle)  # the integrity entries stay valid
    out = tmp_path / bundle.name
    out.mkdir()
    manifest.write(out)
    assert (out / MODEL_JSON).read_bytes() == (bundle / MODEL_JSON).read_bytes()


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_version_bundle_is_read_and_edited_as_its_version(tmp_path: Path, version: int) -> None:
    """Bundles exported before format 2 (no h_tgt from the step decoder) and 3 (the stacked step,
    no memory_read.onnx) keep loading, and a change to their manifest does not claim a format
    their graphs do not have."""
    _manifest(tmp_path, format_version=version).write()
    assert BundleManifest.read(tmp_path).format_version == version
    set_scores(tmp_path, {"x": 1.0})
    assert json.loads((tmp_path / MODEL_JSON).read_text())["format_version"] == version
    assert _manifest(tmp_path / "new").format_version == 3  # what an export writes


def test_a_full_manifest_round_trips(tmp_path: Path) -> None:
    written = _manifest(tmp_path)
    written.write()
    raw = json.loads((tmp_path / MODEL_JSON).read_text(encoding="utf-8"))
    assert list(raw) == ["format_version", "src_lang", "tgt_lang", "model", "memory", "special_ids",
                         "max_source_tokens", "max_target_tokens", "quantization", "files", "provenance", "scores",
                         "directions", "decoding", HASHES_KEY, "made_by"]
    assert raw["special_ids"] == {"pad": 0, "bos": 1, "eos": 2, "unk": 3}
    assert raw["directions"][1] == {"src": "en", "tgt": "zh", "tag": "<2zh>"}
    read = BundleManifest.read(tmp_path)
    assert read == written and read.to_json() == raw
    assert read.no_repeat_ngram == 3 and read.weights_file is None and read.max_source_tokens == 63
    assert read.length_penalty == 0.6 and raw["decoding"] == {"no_repeat_ngram": 3, "length_penalty": 0.6}
    assert [p.name for p in tmp_path.iterdir()] == [MODEL_JSON]  # no temporary file left


def test_a_minimal_manifest_reads_with_defaults(tmp_path: Path) -> None:
    """What a bundle of the first format (no files, directions, decoding, digests) holds."""
    raw = _manifest(tmp_path).to_json()
    for key in ("files", "provenance", "scores", "directions", "decoding", HASHES_KEY, "made_by"):
        del raw[key]
    del raw["model"]["d_ff"]
    m = BundleManifest.from_json(raw, tmp_path)
    assert m.directions == [Direction("zh", "en")] and m.hashes is None and m.d_ff is None
    assert m.no_repeat_ngram == 0 and m.weights_file is None and m.scores is None
    assert m.length_penalty == 1.0  # the engine's own default
    assert m.to_json() == raw


# -- malformed manifests --------------------------------------------------------------------------
def _raw(tmp_path: Path) -> dict[str, Any]:
    return _manifest(tmp_path).to_json()


BAD: list[tuple[Callable[[dict], Any], str]] = [
    (lambda m: m.update(format_version=4), "bundle format version 4 is not supported"),
    (lambda m: m.update(format_version=True), "bundle format version True is not supported"),
    (lambda m: m.pop("src_lang"), "model.json has no 'src_lang'"),
    (lambda m: m["model"].update(d_model="64"), "model.json model.'d_model' has the wrong type \\(str\\)"),
    (lambda m: m["model"].update(d_ff=True), "model.'d_ff' has the wrong type \\(bool\\)"),
    (lambda m: m["special_ids"].update(unk=420), "special_ids.unk = 420 is outside the vocabulary \\(0..419\\)"),
    (lambda m: m["special_ids"].pop("unk"), "model.json has no special_ids.'unk'"),
    (lambda m: m["model"].update(max_len=1), "max_len = 1 leaves no room for a sentence"),
    (lambda m: m["model"].update(n_heads=3), "d_model 64 is not divisible by n_heads 3"),
    (lambda m: m["memory"].update(sides=["both"]), "memory.sides \\['both'\\] must be a subset"),
    (lambda m: m["memory"]["layers"].update(tgt=[]), "memory side 'tgt' lists no layers"),
    (lambda m: m.update(quantization=8), "'quantization' must be null or a string"),
    (lambda m: m.update(decoding={"no_repeat_ngram": -1}), "decoding.'no_repeat_ngram' must be a non-negative"),
    (lambda m: m.update(decoding={"length_penalty": -0.5}), "decoding.'length_penalty' must be a non-negative number"),
    (lambda m: m.update(decoding={"length_penalty": "1.0"}), "decoding.'length_penalty' must be a non-negative"),
    (lambda m: m.update(decoding={"length_penalty": True}), "decoding.'length_penalty' must be a non-negative"),
    (lambda m: m.update(decoding={"length_penalty": float("nan")}), "decoding.'length_penalty' must be a non-neg"),
    (lambda m: m.update(directions=[]), "'directions' must be a non-empty list"),
    (lambda m: m["directions"].reverse(), "src_lang/tgt_lang zh->en must be the first of its directions"),
    (lambda m: m["directions"].append(dict(m["directions"][0])), "lists the direction zh->en twice"),
    (lambda m: m["files"].update(weights="../weights.bin"), "files.'weights' must be a file name in the bundle"),
    (lambda m: m["files"].update(weights="weights.bin"), "model.json has no 'weights_bytes'"),
    (lambda m: m.update(sha256=["x"]), "'sha256' must map file names to hex digests"),
    (lambda m: m[HASHES_KEY].update({"../model.json": "00"}), "names '../model.json', not a file of the bundle"),
    (lambda m: m.update(scores=[1.0]), "model.json 'scores' has the wrong type \\(list\\)"),
]


@pytest.mark.parametrize(("edit", "message"), BAD)
def test_malformed_manifests_are_refused_in_one_line(tmp_path: Path, edit: Callable[[dict], Any],
                                                     message: str) -> None:
    raw = _raw(tmp_path)
    edit(raw)
    (tmp_path / MODEL_JSON).write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BundleError, match=message) as e:
        BundleManifest.read(tmp_path)
    assert "\n" not in str(e.value) and str(e.value).startswith(f"{tmp_path}: ")


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: d.rmdir(), r"model bundle not found \(export one with `doctrans export"),
    (lambda d: (d.rmdir(), d.write_text("x")), "a model bundle is a directory, this is a file"),
    (lambda d: None, r"not a model bundle \(no model.json\)"),
    (lambda d: (d / MODEL_JSON).write_text("{not json"), "model.json is not valid JSON"),
    (lambda d: (d / MODEL_JSON).write_bytes(b"\xff\xfe{}"), "model.json is not valid JSON"),
    (lambda d: (d / MODEL_JSON).write_text("[1, 2]"), "model.json is not a JSON object"),
])
def test_unreadable_manifests_are_one_line(tmp_path: Path, make: Callable[[Path], Any], message: str) -> None:
    bundle = tmp_path / "b"
    bundle.mkdir()
    make(bundle)
    for read in (BundleManifest.read, read_json):
        with pytest.raises(BundleError, match=message) as e:
            read(bundle)
        assert "\n" not in str(e.value)


def test_an_invalid_manifest_is_not_written(tmp_path: Path) -> None:
    _manifest(tmp_path).write()
    before = (tmp_path / MODEL_JSON).read_bytes()
    with pytest.raises(BundleError, match="is outside the vocabulary"):
        _manifest(tmp_path, eos_id=9999).write()
    with pytest.raises(BundleError, match="has the wrong type"):
        _manifest(tmp_path, directions=[Direction("zh", "en", "<2en>"), Direction("en", "zh")]).write()
    assert (tmp_path / MODEL_JSON).read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [MODEL_JSON]


# -- the helpers others use --------------------------------------------------------------------------
def test_helpers_change_only_their_part(tmp_path: Path) -> None:
    bundle = Path(shutil.copytree(SHIPPED[0], tmp_path / "b"))
    original = json.loads((bundle / MODEL_JSON).read_text(encoding="utf-8"))

    set_scores(bundle, {"tvsub_dev_s_bleu": 99.0})
    now = json.loads((bundle / MODEL_JSON).read_text(encoding="utf-8"))
    assert now == {**original, "scores": {"tvsub_dev_s_bleu": 99.0}} and list(now) == list(original)

    (bundle / "spm.model").write_bytes((bundle / "spm.model").read_bytes() + b"\0")
    set_weights_file(bundle, 123)  # the graphs were rewritten: the recorded digests follow them
    now = json.loads((bundle / MODEL_JSON).read_text(encoding="utf-8"))
    assert now["weights_bytes"] == 123 and now["files"]["weights"] == "weights.bin"
    assert now[HASHES_KEY] == bundle_hashes(bundle) != original[HASHES_KEY]

    del now[HASHES_KEY]
    (bundle / MODEL_JSON).write_text(json.dumps(now), encoding="utf-8")
    set_weights_file(bundle, 456)  # a bundle without digests does not get any here ...
    assert BundleManifest.read(bundle).hashes is None
    record_hashes(bundle)  # ... only from the export's last step
    assert BundleManifest.read(bundle).hashes == bundle_hashes(bundle)


def test_the_manifest_module_needs_neither_torch_nor_onnxruntime() -> None:
    code = ("import sys, doctrans.bundle_manifest, doctrans.models_registry; "
            "bad = {'torch', 'onnxruntime'} & set(sys.modules); assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# -- one writer ---------------------------------------------------------------------------------------
WRITE_METHODS = {"write_text", "write_bytes", "touch", "symlink_to", "hardlink_to"}
MOVES = {("os", "replace"), ("os", "rename"), ("shutil", "move"), ("shutil", "copy"), ("shutil", "copyfile"),
         ("shutil", "copy2")}


def _names_model_json(node: ast.AST, tainted: set[str]) -> bool:
    """Whether the expression names model.json: the literal, MODEL_JSON, or a variable made from them."""
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and MODEL_JSON in n.value:
            return True
        if isinstance(n, ast.Name) and (n.id == "MODEL_JSON" or n.id in tainted):
            return True
        if isinstance(n, ast.Attribute) and n.attr == "MODEL_JSON":
            return True
    return False


def _writing_mode(call: ast.Call, position: int) -> bool:
    mode = call.args[position] if len(call.args) > position else next(
        (k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and bool(set(mode.value) & set("wax+"))


def model_json_writes(source: str) -> list[int]:
    """Line numbers where ``source`` writes, opens for writing, or moves a file onto model.json."""
    tree = ast.parse(source)
    tainted: set[str] = set()
    changed = True
    while changed:  # x = bundle / MODEL_JSON; y = x; ... until nothing new is tainted
        changed = False
        for n in ast.walk(tree):
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(n, ast.Assign):
                targets, value = n.targets, n.value
            elif isinstance(n, ast.AnnAssign | ast.NamedExpr) and n.value is not None:
                targets, value = [n.target], n.value
            if value is not None and _names_model_json(value, tainted):
                for t in targets:
                    for name in (x.id for x in ast.walk(t) if isinstance(x, ast.Name)):
                        changed |= name not in tainted
                        tainted.add(name)
    return sorted(n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and _writes(n, tainted))


def _writes(call: ast.Call, tainted: set[str]) -> bool:
    f = call.func
    if isinstance(f, ast.Name):  # open(path, "w")
        return f.id == "open" and bool(call.args) and _names_model_json(call.args[0], tainted) \
            and _writing_mode(call, 1)
    if not isinstance(f, ast.Attribute):
        return False
    if isinstance(f.value, ast.Name) and (f.value.id, f.attr) in MOVES:  # os.replace(tmp, path)
        return len(call.args) > 1 and _names_model_json(call.args[1], tainted)
    if f.attr == "open":  # path.open("w")
        return _names_model_json(f.value, tainted) and _writing_mode(call, 0)
    return f.attr in WRITE_METHODS and _names_model_json(f.value, tainted)  # path.write_text(...)


def test_the_detector_finds_the_ways_model_json_was_written() -> None:
    old = '''
(out / MODEL_JSON).write_text(json.dumps(meta, indent=2))
mj = bundle / MODEL_JSON
mj.write_text(text)
(bundle / "model.json").write_text(json.dumps(meta) + "\\n")
with open(bundle / "model.json", "w") as f: json.dump(meta, f)
with (bundle / MODEL_JSON).open(mode="a") as f: pass
os.replace(tmp, bundle / MODEL_JSON)
json.loads((bundle / MODEL_JSON).read_text())
(bundle / MODEL_JSON).is_file()
with open(bundle / "model.json") as f: pass
'''
    assert model_json_writes(old) == [2, 4, 5, 6, 7, 8]


def test_only_bundle_manifest_writes_model_json() -> None:
    writers = {}
    for package in ("doctrans", "export", "training"):
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = model_json_writes(path.read_text(encoding="utf-8"))
            if lines:
                writers[str(path.relative_to(ROOT))] = lines
    assert set(writers) == {os.path.join("doctrans", "bundle_manifest.py")}, writers
