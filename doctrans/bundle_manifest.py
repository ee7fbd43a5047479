"""``model.json``, the manifest of a model bundle: the one module that reads, checks and writes it.

A bundle is a directory written by ``export.bundle.export_checkpoint``::

    model.json  spm.model  memory_init.npz  encoder.onnx  decoder.onnx  decoder_full.onnx
    [memory_update.onnx]   (absent for a sentence-level model: no memory side)
    [memory_read.onnx]     (format 3 with a target memory: the step decoder's memory keys/values)
    [weights.bin]          (the graphs' weights, each distinct tensor once: ONNX external data)

``model.json`` (format version 3; 1 and 2 differ in the step decoder only, see FORMAT_VERSION) holds, in this order::

    format_version, src_lang, tgt_lang,
    model {vocab_size, d_model, n_heads, d_ff, enc_layers, dec_layers, max_len},
    memory {sides, slots, layers {side: [layer, ...]}},
    special_ids {pad, bos, eos, unk},
    max_source_tokens, max_target_tokens   (both max_len - 1; written for readers, not read back)
    quantization                           (null or "int8")
    files {encoder, decoder, ..., spm, memory_init[, weights]}
    provenance {...}, scores {...}         (free-form: the export, model_card.py, device_card.py)
    directions [{src, tgt, tag}, ...]      (a model of several directions; the first = src_lang->tgt_lang)
    decoding {no_repeat_ngram, length_penalty, max_repeat_run}
                                           (decoding defaults the model was tuned with; options override)
    weights_bytes                          (the size of files.weights: a truncated file is reported by it)
    smdt {retrieve_k, sep_id, global_layers, instance_tokens}
                                           (an SMDT bundle, training/smdt.py: see below)
    sha256 {file: hex digest}              (every file the engine reads; doctrans.engine.integrity checks them)

then any key this version does not know, kept as it was read. A bundle with ``weights.bin`` lists it
in ``files`` with its size; the graphs point into it (location, offset, length), and ONNX Runtime
reads it relative to each graph file. Bundles exported before it keep every weight inside the graphs
and have no ``weights``/``weights_bytes``; bundles exported before the digests have no ``sha256``;
both load as they always did.

A model that translates several directions (one joint vocabulary, zh->en and en->zh) lists them in
``directions``; the source of a sentence is then ``[id of the tag's piece] + pieces + [EOS]``.
``src_lang``/``tgt_lang`` stay, equal to the first direction, so older doctrans versions still read
the bundle. Without ``directions`` a bundle translates ``src_lang`` -> ``tgt_lang`` with no tag.

An **SMDT** bundle (``--approach smdt``: retrieval-augmented, Zhang et al. 2022) has the ``smdt``
key and other graphs: ``smdt_encoder.onnx`` (the sentence + ``</s>`` and its retrieved pairs
``x^r <sep> y^r </s>`` -> cross K/V and what the decoder may see) and ``smdt_decoder.onnx`` (one
step with the KV cache); no memory (``memory.sides`` is empty, ``memory_init.npz`` holds nothing)
and no ``decoder_full``/``memory_update``. Its graph files have their own names, so a doctrans that
does not know the key refuses the bundle as incomplete instead of feeding it a memory loop.
``retrieve_k``: the pairs per sentence the model was trained with; ``sep_id``: ``<sep>``;
``global_layers``: decoder layers with the global attention (their KV cache is a second pair);
``instance_tokens``: 1, one sentence per instance (the form exported).

Who uses what: :meth:`BundleManifest.read` (the engine, through ``doctrans.engine.bundle.read_bundle``,
which adds the checks of the bundle's files), :func:`read_json` (the lenient reads of the models
registry and ``doctrans models``), :meth:`BundleManifest.write` (the export), and the helpers that
change one part of an existing bundle's manifest: :func:`set_weights_file` (export.share_weights),
:func:`record_hashes` (the export, last), :func:`set_scores` (training.model_card, training.device_card).
Every write is atomic (a temporary file renamed over model.json) and checked first: what is
written is what :meth:`BundleManifest.read` accepts.

Every check raises :class:`~doctrans.engine.errors.BundleError` with one line naming the bundle and
what is wrong, so the CLI can print it as is. This module needs neither ONNX Runtime nor PyTorch.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doctrans.engine.errors import BundleError
from doctrans.hashing import sha256_file

# 2: the step decoder may give each token's target states (output ``h_tgt``, export.step_graph),
# which a doctrans reading only version 1 cannot unpack; version-1 bundles are read as they were.
# 3: the step decoder's inputs per layer and the memory read's keys and values from
# memory_read.onnx (doctrans.engine.step_inputs), which a version-2 reader would not feed.
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
MODEL_JSON = "model.json"
SIDES = ("src", "tgt")
GRAPH_FILES = {
    "encoder": "encoder.onnx",
    "decoder": "decoder.onnx",
    "decoder_full": "decoder_full.onnx",
    "memory_update": "memory_update.onnx",
    "memory_read": "memory_read.onnx",  # format 3, a model with a target memory: see FORMAT_VERSION
}
# An SMDT bundle's graphs (doctrans.engine.smdt_engine); see the module docstring.
SMDT_GRAPH_FILES = {
    "smdt_encoder": "smdt_encoder.onnx",
    "smdt_decoder": "smdt_decoder.onnx",
}
SMDT_KEY = "smdt"
SPM_FILE = "spm.model"
MEMORY_INIT_FILE = "memory_init.npz"
WEIGHTS_FILE = "weights.bin"
HASHES_KEY = "sha256"
SPECIAL_TOKENS = ("pad", "bos", "eos", "unk")
MODEL_KEYS = ("vocab_size", "d_model", "n_heads", "d_ff", "enc_layers", "dec_layers", "max_len")

# The top-level keys this version reads and writes, in the order written.
_KNOWN_KEYS = ("format_version", "src_lang", "tgt_lang", "model", "memory", "special_ids", "max_source_tokens",
               "max_target_tokens", "quantization", "files", "provenance", "scores", "directions", "decoding",
               "weights_bytes", HASHES_KEY, SMDT_KEY)


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
class BundleManifest:
    """The parsed, checked ``model.json`` of the bundle at ``path`` (a directory)."""

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
    d_ff: int | None = None  # not read by the engine; absent from hand-made manifests
    quantization: str | None = None
    # What the model translates; the first is (src_lang, tgt_lang). Empty: just that one, no tag.
    directions: list[Direction] = field(default_factory=list)
    # Decoding defaults the model was evaluated with ("decoding"; options override).
    decoding: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    weights_bytes: int | None = None
    hashes: dict[str, str] | None = None  # "sha256"; None: exported before digests were recorded
    smdt: dict[str, int] | None = None  # an SMDT bundle's retrieval settings (see the module docstring)
    provenance: dict[str, Any] | None = None
    scores: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False)  # keys this version does not know
    format_version: int = FORMAT_VERSION

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if not self.directions:
            self.directions = [Direction(self.src_lang, self.tgt_lang)]

    # -- what the engine derives from it ---------------------------------------------------------
    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    @property
    def max_source_tokens(self) -> int:
        return self.max_len - 1  # + EOS = the position table's length

    @property
    def no_repeat_ngram(self) -> int:
        return int(self.decoding.get("no_repeat_ngram", 0))

    @property
    def max_repeat_run(self) -> int:
        """The stutter guard's longest run of one piece or Han character (0 = off; absent: 0)."""
        return int(self.decoding.get("max_repeat_run", 0))

    @property
    def length_penalty(self) -> float:
        """The beam search's ``logprob / len ** length_penalty`` exponent (absent: 1.0)."""
        return float(self.decoding.get("length_penalty", 1.0))

    @property
    def weights_file(self) -> str | None:
        """The shared weights file, if any (older bundles keep weights in the graphs)."""
        return self.files.get("weights")

    @property
    def special_ids(self) -> dict[str, int]:
        return {"pad": self.pad_id, "bos": self.bos_id, "eos": self.eos_id, "unk": self.unk_id}

    def file(self, name: str) -> Path:
        return self.path / GRAPH_FILES.get(name, SMDT_GRAPH_FILES.get(name, name))

    def graph_names(self) -> list[str]:
        if self.smdt is not None:
            return list(SMDT_GRAPH_FILES)
        return [g for g in GRAPH_FILES if (g != "memory_update" or self.mem_sides)
                and (g != "memory_read" or g in self.files)]

    # -- reading and writing -----------------------------------------------------------------------
    @classmethod
    def read(cls, bundle: str | Path) -> BundleManifest:
        """The checked manifest of the bundle directory ``bundle`` (its files are not looked at:
        ``doctrans.engine.bundle.read_bundle`` does that). Raises BundleError, one line."""
        bundle = Path(bundle)
        return cls.from_json(read_json(bundle), bundle)

    @classmethod
    def from_json(cls, raw: dict[str, Any], bundle: Path) -> BundleManifest:
        """Check a parsed model.json (``bundle`` names it in the errors)."""
        return _parse(raw, Path(bundle))

    def to_json(self) -> dict[str, Any]:
        """The model.json object, keys in the documented order (unknown keys last, as read)."""
        out: dict[str, Any] = {
            "format_version": self.format_version,
            "src_lang": self.src_lang,
            "tgt_lang": self.tgt_lang,
            "model": {k: getattr(self, k) for k in MODEL_KEYS if getattr(self, k) is not None},
            "memory": {"sides": list(self.mem_sides), "slots": self.mem_slots,
                       "layers": {s: list(self.mem_layers.get(s, [])) for s in self.mem_sides}},
            "special_ids": self.special_ids,
            "max_source_tokens": self.max_len - 1,
            "max_target_tokens": self.max_len - 1,
            "quantization": self.quantization,
        }
        if self.files:
            out["files"] = dict(self.files)
        if self.provenance is not None:
            out["provenance"] = dict(self.provenance)
        if self.scores is not None:
            out["scores"] = dict(self.scores)
        if any(d.tag is not None for d in self.directions):
            out["directions"] = [{"src": d.src, "tgt": d.tgt, "tag": d.tag} for d in self.directions]
        if self.decoding:
            out["decoding"] = dict(self.decoding)
        if self.weights_bytes is not None:
            out["weights_bytes"] = self.weights_bytes
        if self.hashes is not None:
            out[HASHES_KEY] = dict(self.hashes)
        if self.smdt is not None:
            out[SMDT_KEY] = dict(self.smdt)
        out.update((k, v) for k, v in self.extra.items() if k not in out)
        return out

    def write(self, bundle: str | Path | None = None) -> Path:
        """Write ``model.json`` into ``bundle`` (default: ``self.path``) atomically: a temporary
        file in the same directory, renamed over the old one. What :meth:`read` would refuse is
        not written (BundleError: a bug of the writer)."""
        bundle = Path(self.path if bundle is None else bundle)
        raw = self.to_json()
        _parse(raw, bundle)
        text = json.dumps(raw, indent=2, ensure_ascii=False, default=str) + "\n"
        target = bundle / MODEL_JSON
        fd, tmp = tempfile.mkstemp(dir=bundle, prefix=f".{MODEL_JSON}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        return target


def read_json(bundle: str | Path) -> dict[str, Any]:
    """The parsed model.json of ``bundle``, not checked beyond being a JSON object: for readers
    that only route documents or list bundles (the registry, ``doctrans models``)."""
    path = Path(bundle)
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
    return raw


# -- the parts others change in an existing bundle ----------------------------------------------------
def edit(bundle: str | Path, change: Callable[[BundleManifest], object]) -> BundleManifest:
    """Read the bundle's manifest, apply ``change`` to it and write it back (atomically)."""
    manifest = BundleManifest.read(bundle)
    change(manifest)
    manifest.write(bundle)
    return manifest


def set_scores(bundle: str | Path, scores: dict[str, Any]) -> BundleManifest:
    """The dev scores ``doctrans models`` shows (training.model_card, training.device_card)."""
    return edit(bundle, lambda m: setattr(m, "scores", dict(scores)))


def set_weights_file(bundle: str | Path, weights_bytes: int, name: str = WEIGHTS_FILE) -> BundleManifest:
    """The shared weights file and its size (export.share_weights). The graphs were rewritten with
    it: recorded digests are brought up to date, or the engine would refuse the new graphs."""
    def change(m: BundleManifest) -> None:
        m.files = {**m.files, "weights": name}
        m.weights_bytes = weights_bytes
        if m.hashes is not None:
            m.hashes = bundle_hashes(m.path)

    return edit(bundle, change)


def record_hashes(bundle: str | Path) -> BundleManifest:
    """The sha256 of every file the engine reads (the export does this last, after every other
    change to the bundle's files)."""
    return edit(bundle, lambda m: setattr(m, "hashes", bundle_hashes(m.path)))


def hashed_files(bundle: Path) -> list[str]:
    """The files of ``bundle`` whose digests model.json records: what the engine reads (not
    model.json itself, nor documentation such as MODEL_CARD.md)."""
    names = [*GRAPH_FILES.values(), *SMDT_GRAPH_FILES.values(), SPM_FILE, MEMORY_INIT_FILE, WEIGHTS_FILE]
    return [n for n in names if (bundle / n).is_file()]


def bundle_hashes(bundle: Path) -> dict[str, str]:
    """``{file: sha256}`` of :func:`hashed_files`, for model.json's ``sha256``."""
    return {name: sha256_file(bundle / name) for name in hashed_files(bundle)}


def standard_files(mem_sides: tuple[str, ...] | list[str], smdt: bool = False,
                   memory_read: bool = True) -> dict[str, str]:
    """``files`` of a freshly exported bundle (the weights file is added when weights are shared).
    ``memory_read``: the step decoder is per layer (format 3) and reads the target memory's keys
    and values from memory_read.onnx (a model with a target memory only)."""
    if smdt:
        return {**SMDT_GRAPH_FILES, "spm": SPM_FILE, "memory_init": MEMORY_INIT_FILE}
    files = {**GRAPH_FILES, "spm": SPM_FILE, "memory_init": MEMORY_INIT_FILE}
    if not mem_sides:
        files.pop("memory_update")
    if not memory_read or "tgt" not in mem_sides:
        files.pop("memory_read")
    return files


# -- checks ---------------------------------------------------------------------------------------------
def _get(d: dict, key: str, kind: type | tuple[type, ...], where: str, path: Path) -> Any:
    if key not in d:
        raise BundleError(f"{path}: model.json has no {where}{key!r}")
    v = d[key]
    if not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
        raise BundleError(f"{path}: model.json {where}{key!r} has the wrong type ({type(v).__name__})")
    return v


def _optional(d: dict, key: str, kind: type, where: str, path: Path) -> Any:
    """``d[key]`` checked like :func:`_get`, None when absent or null."""
    return None if d.get(key) is None else _get(d, key, kind, where, path)


def _decoding(raw: dict, path: Path) -> dict[str, Any]:
    """model.json ``decoding``, checked: ``no_repeat_ngram`` and ``max_repeat_run`` non-negative
    integers, ``length_penalty`` a finite non-negative number; all optional (absent: 0, 0 and 1.0,
    the engine's own defaults)."""
    decoding = raw.get("decoding", {})
    if not isinstance(decoding, dict):
        raise BundleError(f"{path}: model.json 'decoding' must be an object")
    for key in ("no_repeat_ngram", "max_repeat_run"):
        value = decoding.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise BundleError(f"{path}: model.json decoding.'{key}' must be a non-negative integer")
    value = decoding.get("length_penalty", 1.0)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
        raise BundleError(f"{path}: model.json decoding.'length_penalty' must be a non-negative number")
    return dict(decoding)


def check_hashes(raw: dict, path: Path) -> dict[str, str] | None:
    """model.json ``sha256``: None when absent (exported before digests were recorded)."""
    listed = raw.get(HASHES_KEY)
    if listed is None:
        return None
    if not isinstance(listed, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in listed.items()):
        raise BundleError(f"{path}: model.json {HASHES_KEY!r} must map file names to hex digests")
    for name in listed:
        if not name or Path(name).name != name:
            raise BundleError(f"{path}: model.json {HASHES_KEY!r} names {name!r}, not a file of the bundle")
    return dict(listed)


def _parse(raw: dict[str, Any], path: Path) -> BundleManifest:
    version = raw.get("format_version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise BundleError(f"{path}: bundle format version {version!r} is not supported by this doctrans "
                          f"(reads {readable}); re-export the checkpoint with this version")
    m = _get(raw, "model", dict, "", path)
    mem = _get(raw, "memory", dict, "", path)
    sp = _get(raw, "special_ids", dict, "", path)
    sides = tuple(_get(mem, "sides", list, "memory.", path))
    if any(s not in SIDES for s in sides):
        raise BundleError(f"{path}: model.json memory.sides {list(sides)} must be a subset of {list(SIDES)}")
    layers = _get(mem, "layers", dict, "memory.", path)
    src_lang = _get(raw, "src_lang", str, "", path)
    tgt_lang = _get(raw, "tgt_lang", str, "", path)
    sizes = {k: _get(m, k, int, "model.", path) for k in MODEL_KEYS if k != "d_ff"}
    ids = {f"{k}_id": _get(sp, k, int, "special_ids.", path) for k in SPECIAL_TOKENS}
    slots = _get(mem, "slots", int, "memory.", path)
    quantization = raw.get("quantization")
    if quantization is not None and not isinstance(quantization, str):
        raise BundleError(f"{path}: model.json 'quantization' must be null or a string such as \"int8\"")
    decoding = _decoding(raw, path)
    directions = _directions(raw, src_lang, tgt_lang, path)
    for key in SPECIAL_TOKENS:  # an id outside the vocabulary fails deep inside a graph
        value = ids[f"{key}_id"]
        if not 0 <= value < sizes["vocab_size"]:
            raise BundleError(f"{path}: model.json special_ids.{key} = {value} is outside the vocabulary "
                              f"(0..{sizes['vocab_size'] - 1})")
    if sizes["max_len"] < 2:
        raise BundleError(f"{path}: model.json model.max_len = {sizes['max_len']} leaves no room for a sentence")
    if sizes["d_model"] % sizes["n_heads"]:
        raise BundleError(f"{path}: model.json d_model {sizes['d_model']} is not divisible by "
                          f"n_heads {sizes['n_heads']}")
    mem_layers = {s: list(layers.get(s, [])) for s in sides}
    for s in sides:
        if not mem_layers[s]:
            raise BundleError(f"{path}: model.json memory side {s!r} lists no layers")
    files = _files(raw, path)
    weights_bytes = _optional(raw, "weights_bytes", int, "", path)
    if "weights" in files and weights_bytes is None:
        weights_bytes = _get(raw, "weights_bytes", int, "", path)  # says it is missing
    return BundleManifest(
        path=path, src_lang=src_lang, tgt_lang=tgt_lang, **sizes, **ids,
        mem_sides=sides, mem_slots=slots, mem_layers=mem_layers,
        d_ff=_optional(m, "d_ff", int, "model.", path),
        quantization=quantization,
        directions=directions,
        decoding=decoding, files=files, weights_bytes=weights_bytes,
        hashes=check_hashes(raw, path),
        smdt=_smdt(raw, sizes, path),
        provenance=_optional(raw, "provenance", dict, "", path),
        scores=_optional(raw, "scores", dict, "", path),
        extra={k: v for k, v in raw.items() if k not in _KNOWN_KEYS},
        format_version=version,  # an edit of an older bundle keeps its version
    )


SMDT_FIELDS = ("retrieve_k", "sep_id", "global_layers", "instance_tokens")


def _smdt(raw: dict, sizes: dict[str, int], path: Path) -> dict[str, int] | None:
    """model.json ``smdt``, checked (None: not an SMDT bundle). Every field is an integer: the
    pairs per sentence (>= 0), ``<sep>`` inside the vocabulary, 1..dec_layers global layers, and
    one sentence per instance (the only form exported and run)."""
    if raw.get(SMDT_KEY) is None:
        return None
    smdt = raw[SMDT_KEY]
    if not isinstance(smdt, dict):
        raise BundleError(f"{path}: model.json {SMDT_KEY!r} must be an object")
    out = {k: _get(smdt, k, int, f"{SMDT_KEY}.", path) for k in SMDT_FIELDS}
    if out["retrieve_k"] < 0:
        raise BundleError(f"{path}: model.json smdt.retrieve_k must be >= 0")
    if not 0 <= out["sep_id"] < sizes["vocab_size"]:
        raise BundleError(f"{path}: model.json smdt.sep_id = {out['sep_id']} is outside the vocabulary")
    if not 1 <= out["global_layers"] <= sizes["dec_layers"]:
        raise BundleError(f"{path}: model.json smdt.global_layers must be 1..{sizes['dec_layers']}")
    if out["instance_tokens"] != 1:
        raise BundleError(f"{path}: model.json smdt.instance_tokens = {out['instance_tokens']}: this doctrans "
                          "runs SMDT bundles one sentence per instance only (1)")
    return out


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


def _files(raw: dict, path: Path) -> dict[str, str]:
    """model.json ``files`` (absent in hand-made manifests); ``weights`` must name a file in the bundle."""
    files = raw.get("files", {})
    if not isinstance(files, dict):
        raise BundleError(f"{path}: model.json 'files' must be an object")
    if "weights" in files:
        name = _get(files, "weights", str, "files.", path)
        if not name or Path(name).name != name:
            raise BundleError(f"{path}: model.json files.'weights' must be a file name in the bundle, got {name!r}")
    return dict(files)


__all__ = ["FORMAT_VERSION", "GRAPH_FILES", "HASHES_KEY", "MEMORY_INIT_FILE", "MODEL_JSON", "SIDES",
           "SMDT_GRAPH_FILES", "SMDT_KEY", "SPM_FILE", "WEIGHTS_FILE", "BundleManifest", "Direction", "bundle_hashes",
           "check_hashes", "edit", "hashed_files", "read_json", "record_hashes", "set_scores", "set_weights_file",
           "standard_files"]
