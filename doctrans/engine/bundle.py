"""Model bundle layout and ``model.json`` validation (no ONNX Runtime needed here).

A bundle is a directory written by ``export.bundle.export_checkpoint``::

    model.json  spm.model  memory_init.npz  encoder.onnx  decoder.onnx  decoder_full.onnx
    [memory_update.onnx]   (absent for a sentence-level model: no memory side)
    [weights.bin]          (the graphs' weights, each distinct tensor once: ONNX external data)

A bundle with ``weights.bin`` lists it in model.json ("files": {"weights": ...}) with its size
("weights_bytes"); the graphs point into it (location, offset, length), and ONNX Runtime reads it
relative to each graph file. Bundles exported before it keep every weight inside the graphs.

A model that translates several directions (one joint vocabulary, zh->en and en->zh) lists them in
model.json ("directions": [{"src": "zh", "tgt": "en", "tag": "<2en>"}, ...]); the source of a
sentence is then ``[id of the tag's piece] + pieces + [EOS]``. ``src_lang``/``tgt_lang`` stay, equal to
the first direction, so older doctrans versions still read the bundle. Without ``directions`` a
bundle translates ``src_lang`` -> ``tgt_lang`` with no tag, as always.

Every check raises :class:`BundleError` with one line naming the bundle and what is wrong, so
the CLI can print it as is.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from doctrans.engine.errors import BundleError
from doctrans.language_id import same_language

FORMAT_VERSION = 1
SIDES = ("src", "tgt")
GRAPH_FILES = {
    "encoder": "encoder.onnx",
    "decoder": "decoder.onnx",
    "decoder_full": "decoder_full.onnx",
    "memory_update": "memory_update.onnx",
}
SPM_FILE = "spm.model"
MEMORY_INIT_FILE = "memory_init.npz"
MODEL_JSON = "model.json"
WEIGHTS_FILE = "weights.bin"


@dataclass(frozen=True)
class Direction:
    """One translation direction of a bundle; ``tag`` is the SentencePiece piece put before the
    source (None: nothing, the one-direction bundles exported before ``directions`` existed)."""

    src: str
    tgt: str
    tag: str | None = None

    def __str__(self) -> str:
        return f"{self.src}->{self.tgt}"


@dataclass
class BundleInfo:
    """The parsed, checked ``model.json`` of one bundle."""

    path: Path
    src_lang: str
    tgt_lang: str
    vocab_size: int
    d_model: int
    n_heads: int
    enc_layers: int
    dec_layers: int
    max_len: int
    pad_id: int
    bos_id: int
    eos_id: int
    unk_id: int
    mem_sides: tuple[str, ...]
    mem_slots: int
    mem_layers: dict[str, list[int]]
    quantization: str | None
    raw: dict[str, Any] = field(repr=False)
    # Decoding defaults the model was evaluated with (model.json "decoding"; options override).
    no_repeat_ngram: int = 0
    # What the model translates; the first is (src_lang, tgt_lang). Set by read_bundle.
    directions: list[Direction] = field(default_factory=list)

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    @property
    def max_source_tokens(self) -> int:
        return self.max_len - 1  # + EOS = the position table's length

    def file(self, name: str) -> Path:
        return self.path / GRAPH_FILES.get(name, name)

    def graph_names(self) -> list[str]:
        return [g for g in GRAPH_FILES if g != "memory_update" or self.mem_sides]


def _get(d: dict, key: str, kind: type | tuple[type, ...], where: str, path: Path) -> Any:
    if key not in d:
        raise BundleError(f"{path}: model.json has no {where}{key!r}")
    v = d[key]
    if not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
        raise BundleError(f"{path}: model.json {where}{key!r} has the wrong type ({type(v).__name__})")
    return v


def _decoding_setting(raw: dict, key: str, path: Path) -> int:
    """An optional non-negative integer of model.json ``decoding`` (0 when absent)."""
    decoding = raw.get("decoding", {})
    if not isinstance(decoding, dict):
        raise BundleError(f"{path}: model.json 'decoding' must be an object")
    value = decoding.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BundleError(f"{path}: model.json decoding.{key!r} must be a non-negative integer")
    return value


def read_bundle(path: str | Path) -> BundleInfo:
    """Check a bundle directory (files present, model.json well-formed and compatible)."""
    path = Path(path)
    if not path.exists():
        raise BundleError(f"{path}: model bundle not found (export one with `doctrans export CHECKPOINT.pt -o DIR`)")
    if not path.is_dir():
        raise BundleError(f"{path}: a model bundle is a directory, this is a file")
    mj = path / MODEL_JSON
    if not mj.is_file():
        raise BundleError(f"{path}: not a model bundle (no {MODEL_JSON})")
    try:
        raw = json.loads(mj.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BundleError(f"{path}: {MODEL_JSON} is not valid JSON ({e})") from None
    if not isinstance(raw, dict):
        raise BundleError(f"{path}: {MODEL_JSON} is not a JSON object")
    version = raw.get("format_version")
    if version != FORMAT_VERSION:
        raise BundleError(f"{path}: bundle format version {version!r} is not supported by this doctrans "
                          f"(expects {FORMAT_VERSION}); re-export the checkpoint with this version")
    m = _get(raw, "model", dict, "", path)
    mem = _get(raw, "memory", dict, "", path)
    sp = _get(raw, "special_ids", dict, "", path)
    sides = tuple(_get(mem, "sides", list, "memory.", path))
    if any(s not in SIDES for s in sides):
        raise BundleError(f"{path}: model.json memory.sides {list(sides)} must be a subset of {list(SIDES)}")
    layers = _get(mem, "layers", dict, "memory.", path)
    info = BundleInfo(
        path=path,
        src_lang=_get(raw, "src_lang", str, "", path),
        tgt_lang=_get(raw, "tgt_lang", str, "", path),
        vocab_size=_get(m, "vocab_size", int, "model.", path),
        d_model=_get(m, "d_model", int, "model.", path),
        n_heads=_get(m, "n_heads", int, "model.", path),
        enc_layers=_get(m, "enc_layers", int, "model.", path),
        dec_layers=_get(m, "dec_layers", int, "model.", path),
        max_len=_get(m, "max_len", int, "model.", path),
        pad_id=_get(sp, "pad", int, "special_ids.", path),
        bos_id=_get(sp, "bos", int, "special_ids.", path),
        eos_id=_get(sp, "eos", int, "special_ids.", path),
        unk_id=_get(sp, "unk", int, "special_ids.", path),
        mem_sides=sides,
        mem_slots=_get(mem, "slots", int, "memory.", path),
        mem_layers={s: list(layers.get(s, [])) for s in sides},
        quantization=raw.get("quantization"),
        raw=raw,
        no_repeat_ngram=_decoding_setting(raw, "no_repeat_ngram", path),
    )
    info.directions = _directions(raw, info.src_lang, info.tgt_lang, path)
    for key in ("pad", "bos", "eos", "unk"):  # an id outside the vocabulary fails deep inside a graph
        value = getattr(info, f"{key}_id")
        if not 0 <= value < info.vocab_size:
            raise BundleError(f"{path}: model.json special_ids.{key} = {value} is outside the vocabulary "
                              f"(0..{info.vocab_size - 1})")
    if info.max_len < 2:
        raise BundleError(f"{path}: model.json model.max_len = {info.max_len} leaves no room for a sentence")
    if info.d_model % info.n_heads:
        raise BundleError(f"{path}: model.json d_model {info.d_model} is not divisible by n_heads {info.n_heads}")
    for s in sides:
        if not info.mem_layers[s]:
            raise BundleError(f"{path}: model.json memory side {s!r} lists no layers")
    weights = _weights_file(raw, path)
    for name in [*info.graph_names(), SPM_FILE, MEMORY_INIT_FILE, *([weights] if weights else [])]:
        if not info.file(name).is_file():
            raise BundleError(f"{path}: incomplete bundle, {GRAPH_FILES.get(name, name)} is missing")
    if weights:
        _check_weights_size(info, weights)
    return info


def _directions(raw: dict, src_lang: str, tgt_lang: str, path: Path) -> list[Direction]:
    """model.json ``directions``, checked; absent: the one direction src_lang -> tgt_lang, no tag."""
    if "directions" not in raw:
        return [Direction(src_lang, tgt_lang)]
    listed = raw["directions"]
    if not isinstance(listed, list) or not listed:
        raise BundleError(f"{path}: model.json 'directions' must be a non-empty list of "
                          "{src, tgt, tag} objects")
    found: list[Direction] = []
    for i, entry in enumerate(listed):
        where = f"directions[{i}]."
        if not isinstance(entry, dict):
            raise BundleError(f"{path}: model.json directions[{i}] must be an object with 'src', 'tgt' and 'tag'")
        src, tgt, tag = (_get(entry, key, str, where, path) for key in ("src", "tgt", "tag"))
        if not (src and tgt and tag):
            raise BundleError(f"{path}: model.json directions[{i}] has an empty 'src', 'tgt' or 'tag'")
        direction = Direction(src, tgt, tag)
        if any((d.src, d.tgt) == (src, tgt) for d in found):
            raise BundleError(f"{path}: model.json lists the direction {direction} twice")
        found.append(direction)
    # Older doctrans versions read only src_lang/tgt_lang: they must name the first direction.
    if (found[0].src, found[0].tgt) != (src_lang, tgt_lang):
        raise BundleError(f"{path}: model.json src_lang/tgt_lang {src_lang}->{tgt_lang} must be the first "
                          f"of its directions ({found[0]})")
    return found


def direction_tag_ids(info: BundleInfo, piece_id: Callable[[str], int]) -> dict[Direction, int]:
    """The vocabulary id of each direction's tag (``piece_id``: the bundle's spm.model lookup).

    A tag the SentencePiece model does not have would be encoded as <unk>, and every sentence
    would silently go in without its direction: refuse the bundle instead.
    """
    specials = {info.pad_id, info.bos_id, info.eos_id, info.unk_id}
    ids = {}
    for d in info.directions:
        if d.tag is None:
            continue
        tag_id = piece_id(d.tag)
        if tag_id in specials or not 0 <= tag_id < info.vocab_size:
            raise BundleError(f"{info.path}: the tag {d.tag!r} of direction {d} is not a piece of "
                              f"{SPM_FILE} (it would be read as <unk>)")
        ids[d] = tag_id
    return ids


def select_direction(info: BundleInfo, src: str | None = None, tgt: str | None = None) -> Direction:
    """The bundle's direction for ``src`` -> ``tgt`` (None = any; 'ZH' matches 'zh').

    A one-direction bundle needs neither; a bundle with several must be told which one, since
    translating in the wrong direction would look like a working translation into the wrong
    language.
    """
    exact = [d for d in info.directions if (src is None or d.src == src) and (tgt is None or d.tgt == tgt)]
    found = exact or [d for d in info.directions if (src is None or same_language(d.src, src))
                      and (tgt is None or same_language(d.tgt, tgt))]
    offered = ", ".join(map(str, info.directions))
    if not found:
        raise BundleError(f"{info.path}: the model translates {offered}, not {src or '?'}->{tgt or '?'}")
    if len(found) > 1:
        raise BundleError(f"{info.path}: the model translates several directions ({offered}); choose one "
                          "(src=/tgt=, or --src/--tgt)")
    return found[0]


def _weights_file(raw: dict, path: Path) -> str | None:
    """The shared weights file model.json names, if any (older bundles keep weights in the graphs)."""
    files = raw.get("files")
    if not isinstance(files, dict) or "weights" not in files:
        return None
    name = _get(files, "weights", str, "files.", path)
    if not name or Path(name).name != name:
        raise BundleError(f"{path}: model.json files.'weights' must be a file name in the bundle, got {name!r}")
    return name


def _check_weights_size(info: BundleInfo, weights: str) -> None:
    """A short weights file would make ONNX Runtime fail deep inside a graph; say it here instead."""
    want = _get(info.raw, "weights_bytes", int, "", info.path)
    have = info.file(weights).stat().st_size
    if have != want:
        what = "truncated" if have < want else "not the one model.json describes"
        raise BundleError(f"{info.path}: {weights} is {what} ({have:,} bytes, model.json says {want:,}); "
                          f"copy the bundle again or re-export it")


def load_memory_init(info: BundleInfo) -> dict[str, np.ndarray]:
    """M_0 of each memory side, (layers, slots, d_model) float32, shape-checked."""
    try:
        with np.load(info.file(MEMORY_INIT_FILE), allow_pickle=False) as z:
            init = {k: np.asarray(z[k], dtype=np.float32) for k in z.files}
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as e:
        raise BundleError(f"{info.path}: {MEMORY_INIT_FILE} is unreadable or damaged ({type(e).__name__}: "
                          f"{' '.join(str(e).split())[:160]}); copy the bundle again or re-export it") from None
    for s in info.mem_sides:
        want = (len(info.mem_layers[s]), info.mem_slots, info.d_model)
        if s not in init:
            raise BundleError(f"{info.path}: {MEMORY_INIT_FILE} has no initial memory for side {s!r}")
        if init[s].shape != want:
            raise BundleError(f"{info.path}: {MEMORY_INIT_FILE} side {s!r} has shape {init[s].shape}, "
                              f"model.json says {want}")
    return {s: init[s] for s in info.mem_sides}


def check_graph_inputs(info: BundleInfo, graph: str, inputs: dict[str, list[Any]]) -> None:
    """Compare the static dims of a graph's inputs with model.json (catches mixed-up bundles).

    ``inputs``: input name -> shape as ONNX Runtime reports it (ints for static dims, strings
    for dynamic ones).
    """
    # Names first: a side's inputs missing or extra means another memory configuration.
    needs = {"encoder": ["src_ids"] + (["mem_src"] if "src" in info.mem_sides else []),
             "decoder": ["tokens", "step", "src_ids", "cross_k", "cross_v", "past_k", "past_v"]
             + (["mem_tgt"] if "tgt" in info.mem_sides else []),
             "decoder_full": ["tgt_ids", "src_ids", "cross_k", "cross_v"]
             + (["mem_tgt"] if "tgt" in info.mem_sides else []),
             "memory_update": [n for s in info.mem_sides for n in (f"mem_{s}", f"h_{s}", f"{s}_ids")]}[graph]
    if sorted(needs) != sorted(inputs):
        raise BundleError(f"{info.path}: {GRAPH_FILES[graph]} takes inputs {sorted(inputs)}, "
                          f"model.json's memory sides {list(info.mem_sides)} need {sorted(needs)}")
    want: dict[str, dict[int, int]] = {
        "mem_src": {1: len(info.mem_layers.get("src", [])), 2: info.mem_slots, 3: info.d_model},
        "mem_tgt": {1: len(info.mem_layers.get("tgt", [])), 2: info.mem_slots, 3: info.d_model},
        "h_src": {1: len(info.mem_layers.get("src", [])), 3: info.d_model},
        "h_tgt": {1: len(info.mem_layers.get("tgt", [])), 3: info.d_model},
    }
    for kv in ("cross_k", "cross_v", "past_k", "past_v"):
        want[kv] = {0: info.dec_layers, 2: info.n_heads, 4: info.d_head}
    for name, dims in want.items():
        if name not in inputs:
            continue
        shape = inputs[name]
        for axis, n in dims.items():
            if axis < len(shape) and isinstance(shape[axis], int) and shape[axis] != n:
                raise BundleError(f"{info.path}: {GRAPH_FILES[graph]} input {name!r} has shape {shape}, "
                                  f"model.json implies {n} at axis {axis}")
