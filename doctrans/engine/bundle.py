"""A model bundle's files, checked against its manifest (no ONNX Runtime needed here).

The layout and ``model.json`` are described, read, checked and written by
:mod:`doctrans.bundle_manifest`; :func:`read_bundle` adds what needs the files themselves (every
file the manifest implies is there, the weights file has the size it records), and the rest of
this module checks the initial memory and the graphs' inputs against the manifest and picks a
direction.

Every check raises :class:`BundleError` with one line naming the bundle and what is wrong, so
the CLI can print it as is.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from doctrans.bundle_manifest import (
    FORMAT_VERSION,
    GRAPH_FILES,
    MEMORY_INIT_FILE,
    MODEL_JSON,
    SIDES,
    SPM_FILE,
    WEIGHTS_FILE,
    BundleManifest,
    Direction,
)
from doctrans.engine.errors import BundleError
from doctrans.engine.step_inputs import StepLayout, layer_name
from doctrans.language_id import same_language

# Re-exported: the export, the tests and the benchmarks name them from here.
__all__ = ["FORMAT_VERSION", "GRAPH_FILES", "MEMORY_INIT_FILE", "MODEL_JSON", "SIDES", "SPM_FILE", "WEIGHTS_FILE",
           "BundleManifest", "Direction", "check_graph_inputs", "direction_tag_ids", "load_memory_init",
           "read_bundle", "select_direction"]


def read_bundle(path: str | Path) -> BundleManifest:
    """Check a bundle directory (model.json well-formed and compatible, its files present)."""
    info = BundleManifest.read(path)
    weights = info.weights_file
    for name in [*info.graph_names(), SPM_FILE, MEMORY_INIT_FILE, *([weights] if weights else [])]:
        if not info.file(name).is_file():
            raise BundleError(f"{info.path}: incomplete bundle, {GRAPH_FILES.get(name, name)} is missing")
    if weights:
        _check_weights_size(info, weights)
    return info


def direction_tag_ids(info: BundleManifest, piece_id: Callable[[str], int]) -> dict[Direction, int]:
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


def select_direction(info: BundleManifest, src: str | None = None, tgt: str | None = None) -> Direction:
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


def _check_weights_size(info: BundleManifest, weights: str) -> None:
    """A short weights file would make ONNX Runtime fail deep inside a graph; say it here instead."""
    want = info.weights_bytes
    assert want is not None  # BundleManifest.read requires it wherever files.weights is set
    have = info.file(weights).stat().st_size
    if have != want:
        what = "truncated" if have < want else "not the one model.json describes"
        raise BundleError(f"{info.path}: {weights} is {what} ({have:,} bytes, model.json says {want:,}); "
                          f"copy the bundle again or re-export it")


def load_memory_init(info: BundleManifest) -> dict[str, np.ndarray]:
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


def check_graph_inputs(info: BundleManifest, graph: str, inputs: dict[str, list[Any]]) -> None:
    """Compare the static dims of a graph's inputs with model.json (catches mixed-up bundles).

    ``inputs``: input name -> shape as ONNX Runtime reports it (ints for static dims, strings
    for dynamic ones).
    """
    if info.smdt is not None:
        # These are the memory model's graphs and inputs; an SMDT bundle has other graphs and its
        # own engine (doctrans.engine.smdt_engine, which load_translator picks for it).
        raise BundleError(f"{info.path}: an SMDT (retrieval) bundle cannot be run by the memory engine; "
                          "open it with doctrans.engine.load_translator")
    # Names first: a side's inputs missing or extra means another memory configuration.
    tgt = "tgt" in info.mem_sides
    mem_units = len(info.mem_layers.get("tgt", []))
    layout = StepLayout.of_names(list(inputs), info.dec_layers)
    step_memory = [layer_name(f"mem_{kv}", j) for kv in "kv" for j in range(mem_units)] if layout.per_layer \
        else ["mem_tgt"]
    needs = {"encoder": ["src_ids"] + (["mem_src"] if "src" in info.mem_sides else []),
             "decoder": ["tokens", "step", "src_ids", *layout.names("cross_k"), *layout.names("cross_v"),
                         *layout.past] + (step_memory if tgt else []),
             "decoder_full": ["tgt_ids", "src_ids", "cross_k", "cross_v"] + (["mem_tgt"] if tgt else []),
             "memory_update": [n for s in info.mem_sides for n in (f"mem_{s}", f"h_{s}", f"{s}_ids")],
             "memory_read": ["mem_tgt"]}[graph]
    if sorted(needs) != sorted(inputs):
        raise BundleError(f"{info.path}: {GRAPH_FILES[graph]} takes inputs {sorted(inputs)}, "
                          f"model.json's memory sides {list(info.mem_sides)} need {sorted(needs)}")
    want: dict[str, dict[int, int]] = {
        "mem_src": {1: len(info.mem_layers.get("src", [])), 2: info.mem_slots, 3: info.d_model},
        "mem_tgt": {1: mem_units, 2: info.mem_slots, 3: info.d_model},
        "h_src": {1: len(info.mem_layers.get("src", [])), 3: info.d_model},
        "h_tgt": {1: mem_units, 3: info.d_model},
    }
    for kv in ("cross_k", "cross_v", "past_k", "past_v"):
        want[kv] = {0: info.dec_layers, 2: info.n_heads, 4: info.d_head}
        for i in range(info.dec_layers):
            want[layer_name(kv, i)] = {1: info.n_heads, 3: info.d_head}
    for j in range(mem_units):
        for kv in ("mem_k", "mem_v"):
            want[layer_name(kv, j)] = {1: info.n_heads, 2: info.mem_slots, 3: info.d_head}
    for name, dims in want.items():
        if name not in inputs:
            continue
        shape = inputs[name]
        for axis, n in dims.items():
            if axis < len(shape) and isinstance(shape[axis], int) and shape[axis] != n:
                raise BundleError(f"{info.path}: {GRAPH_FILES[graph]} input {name!r} has shape {shape}, "
                                  f"model.json implies {n} at axis {axis}")
