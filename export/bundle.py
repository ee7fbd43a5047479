"""``doctrans export``: a checkpoint -> a verified ONNX model bundle (layout in doctrans.engine.bundle).

    export_checkpoint("runs/doc/best.pt", "bundles/zh-en")                  # fp32
    export_checkpoint("runs/doc/best.pt", "bundles/zh-en-int8", quantize="int8")

Everything is written into a temporary directory next to ``out_dir``; the graphs' weights are
then moved into one shared ``weights.bin`` (each distinct tensor once, :mod:`export.share_weights`),
and that final layout is what gets checked:

1. every graph against the PyTorch model on random inputs of shapes other than the ones it was
   traced with (so the dynamic axes are exercised too), max |Δ| per output, bounded;
2. a few real sentences as one document through the memory loop: ONNX engine greedy vs
   ``training.search`` greedy must be token-identical, memories after each sentence within
   ``mem_tol``; beam search is compared as well (reported);
3. for ``quantize="int8"``: the shared-weights int8 bundle must translate the document exactly
   as the int8 graphs did before sharing; the int8 graphs against the fp32 ones are reported,
   not bounded (int8 changes translations a little by design).

A bidirectional checkpoint (``"directions": [["zh", "en"], ["en", "zh"]]``) reads the target-language
tag ``<2xx>`` before every source sentence; model.json gets ``directions`` with each tag, and
checks 2 and 3 run the document through every direction, the PyTorch side fed the tagged ids.

Only a bundle that passed is renamed to ``out_dir``; a failing export raises
:class:`ExportError` and leaves ``out_dir`` as it was.

Exporter: the TorchScript-based ``torch.onnx.export(..., dynamo=False)``. In torch 2.13 the
dynamo exporter needs the extra ``onnxscript`` package, takes ~6 s per graph instead of ~0.2 s,
and specializes the batch axis of the one-step decoder (export fails); the traced graphs here
are exact (max |Δ| ~1e-6) for every batch size, length and an empty KV cache.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch

from doctrans.bundle_manifest import (
    GRAPH_FILES,
    MEMORY_INIT_FILE,
    MODEL_JSON,
    SPM_FILE,
    WEIGHTS_FILE,
    BundleManifest,
    Direction,
    edit,
    standard_files,
)
from doctrans.hashing import sha256_file
from export.common import OPSET, ExportError, ExportReport, allowed_diff, checkpoint_spm, finish_bundle, special_ids
from export.files import DEFAULT_SENTENCES
from export.graphs import GRAPHS, dynamic_axes, graph_io
from export.share_weights import SharingReport, WeightSharingError, check_same_translations, share_weights
from export.step_graph import (
    PER_LAYER,
    POSITION_NODE,
    STEP_FORMS,
    in_step_terms,
    memory_read_graph,
    run_step,
    step_graph,
    step_provenance,
)
from training.checkpoint import CheckpointError, LoadedModel, load_model
from training.model import MemoryTransformer
from training.smdt import SMDT


# -- directions -------------------------------------------------------------------------------
def tag_for(tgt: str) -> str:
    """The SentencePiece piece a bidirectional model reads first to translate into ``tgt``."""
    return f"<2{tgt}>"


def checkpoint_directions(loaded: LoadedModel) -> list[dict[str, str]]:
    """model.json ``directions`` of a bidirectional checkpoint ([] for a one-direction one), checked:
    [src, tgt] pairs, no pair twice, the first equal to src_lang/tgt_lang, every tag in the vocabulary."""
    pairs = loaded.raw.get("directions")
    if pairs is None:
        return []
    if not isinstance(pairs, list | tuple) or not pairs or not all(
            isinstance(p, list | tuple) and len(p) == 2 and all(isinstance(x, str) and x for x in p) for p in pairs):
        raise ExportError(f"checkpoint 'directions' must be a non-empty list of [src, tgt] pairs, got {pairs!r}")
    found = [(str(a), str(b)) for a, b in pairs]
    if len(set(found)) != len(found):
        raise ExportError(f"checkpoint 'directions' lists a direction twice: {pairs!r}")
    if found[0] != (loaded.src_lang, loaded.tgt_lang):
        raise ExportError(f"checkpoint src_lang/tgt_lang {loaded.src_lang}->{loaded.tgt_lang} must be the first "
                          f"of its directions ({found[0][0]}->{found[0][1]})")
    sp = checkpoint_spm(loaded)
    for _, tgt in found:
        if sp.id_to_piece(sp.piece_to_id(tag_for(tgt))) != tag_for(tgt):
            raise ExportError(f"the checkpoint's SentencePiece model has no {tag_for(tgt)} tag for its "
                              f"direction into {tgt}")
    return [{"src": a, "tgt": b, "tag": tag_for(b)} for a, b in found]


# -- graph inputs ---------------------------------------------------------------------------
def example_inputs(model: MemoryTransformer, batch: int, src_len: int, past_len: int, tgt_len: int,
                   seed: int = 0) -> dict[str, tuple[torch.Tensor, ...]]:
    """Plausible inputs of the given sizes for each graph (padding in the last row, EOS, real M_0)."""
    cfg = model.cfg
    g = torch.Generator().manual_seed(seed)
    dh = cfg.d_model // cfg.n_heads

    def ids(n: int, eos: bool) -> torch.Tensor:
        x = torch.randint(4, cfg.vocab_size, (batch, n), generator=g)
        if eos:
            x[:, -1] = cfg.eos_id
        else:
            x[:, 0] = cfg.bos_id
        if batch > 1 and n > 2:  # a shorter sentence in the last row, padded
            x[-1, -2:] = cfg.pad_id
            if eos:
                x[-1, -3] = cfg.eos_id
        return x

    def rnd(*shape: int, scale: float = 1.0) -> torch.Tensor:
        return torch.randn(*shape, generator=g) * scale

    with torch.no_grad():
        mem = {s: (m + rnd(*m.shape, scale=0.1)).contiguous() for s, m in model.init_memory(batch).items()}
    src, tgt = ids(src_len, True), ids(tgt_len, False)
    L = cfg.dec_layers
    ck, cv = rnd(L, batch, cfg.n_heads, src_len, dh), rnd(L, batch, cfg.n_heads, src_len, dh)
    pk, pv = rnd(L, batch, cfg.n_heads, past_len, dh), rnd(L, batch, cfg.n_heads, past_len, dh)
    tok = torch.randint(4, cfg.vocab_size, (batch, 1), generator=g)
    mt = (mem["tgt"],) if "tgt" in mem else ()
    out: dict[str, tuple[torch.Tensor, ...]] = {
        "encoder": (src, *((mem["src"],) if "src" in mem else ())),
        "decoder": (tok, torch.tensor(past_len, dtype=torch.long), src, ck, cv, pk, pv, *mt),
        "decoder_full": (tgt, src, ck, cv, *mt),
    }
    upd: list[torch.Tensor] = []
    for side in cfg.sides:
        n_layers = len(model.memory_units(side))
        x = src if side == "src" else tgt
        upd += [mem[side], rnd(batch, n_layers, x.shape[1], cfg.d_model), x]
    if upd:
        out["memory_update"] = tuple(upd)
    return out


def export_graphs(model: MemoryTransformer, out: Path, step: str = PER_LAYER) -> None:
    """Trace and write every graph of this model's memory configuration into ``out``.

    The one-step decoder, the engine's hot loop, is written node by node with ONNX Runtime's fused
    attention (:mod:`export.step_graph`), its inputs per layer, with memory_read.onnx beside it
    for a target memory; ``step`` (:data:`export.step_graph.STEP_FORMS`) picks the older stacked
    fused step or the traced one instead, for A/B runs.
    """
    if step not in STEP_FORMS:
        raise ExportError(f"unknown step decoder form {step!r} (one of {', '.join(STEP_FORMS)})")
    io = graph_io(model)
    examples = example_inputs(model, batch=2, src_len=7, past_len=3, tgt_len=5)
    for name, (ins, outs) in io.items():
        graph = GRAPHS[name](model).eval()
        with warnings.catch_warnings(), torch.no_grad():
            # The tracer warns about Python ints taken from shapes; they are the static layer
            # counts, and the random-input check below proves the dynamic axes work.
            warnings.simplefilter("ignore")
            torch.onnx.export(graph, examples[name], str(out / GRAPH_FILES[name]), input_names=ins,
                              output_names=outs, dynamic_axes=dynamic_axes(name, ins + outs),
                              opset_version=OPSET, dynamo=False, do_constant_folding=True)
    if step != "traced":
        onnx.save(step_graph(model, per_layer=step == PER_LAYER), str(out / GRAPH_FILES["decoder"]))
    if step == PER_LAYER and "tgt" in model.cfg.sides:
        onnx.save(memory_read_graph(model), str(out / GRAPH_FILES["memory_read"]))


def write_metadata(loaded: LoadedModel, out: Path, ckpt_path: Path | None, quantize: str | None,
                   step: str = PER_LAYER) -> BundleManifest:
    """spm.model, memory_init.npz and model.json of a new bundle in ``out`` (the graphs are traced apart)."""
    cfg, model = loaded.config, loaded.model
    assert isinstance(model, MemoryTransformer)  # export_model refuses other approaches first
    (out / SPM_FILE).write_bytes(loaded.spm_bytes)
    with torch.no_grad():
        init = {s: m[0].numpy().astype(np.float32) for s, m in model.init_memory(1).items()}
    np.savez(out / MEMORY_INIT_FILE, allow_pickle=False, **init)
    raw = loaded.raw
    ids = special_ids(loaded)
    manifest = BundleManifest(
        path=out, src_lang=loaded.src_lang, tgt_lang=loaded.tgt_lang,
        vocab_size=cfg.vocab_size, d_model=cfg.d_model, n_heads=cfg.n_heads, d_ff=cfg.d_ff,
        enc_layers=cfg.enc_layers, dec_layers=cfg.dec_layers, max_len=cfg.max_len,
        pad_id=ids["pad"], bos_id=ids["bos"], eos_id=ids["eos"], unk_id=ids["unk"],
        mem_sides=tuple(cfg.sides), mem_slots=cfg.mem_slots,
        mem_layers={s: cfg.memory_layers(s) for s in cfg.sides},
        quantization=quantize,
        files=standard_files(cfg.sides, memory_read=step == PER_LAYER),
        provenance={
            "checkpoint": ckpt_path.name if ckpt_path else None,
            "checkpoint_sha256": sha256_file(ckpt_path) if ckpt_path else None,
            "step": raw.get("step"), "stage": raw.get("stage"),
            "exporter": f"torch.onnx TorchScript (torch {torch.__version__}), opset {OPSET}",
            "decoder_step": step_provenance(step),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
        scores=raw.get("metrics") or {},
        # src_lang/tgt_lang stay (the first direction) for older doctrans versions
        directions=[Direction(d["src"], d["tgt"], d["tag"]) for d in checkpoint_directions(loaded)],
    )
    manifest.write(out)
    return manifest


# -- verification ---------------------------------------------------------------------------
def check_graphs(model: MemoryTransformer, bundle: Path, tol: float) -> dict[str, float]:
    """Every graph vs its PyTorch wrapper on random inputs of new shapes; raise if out of bounds."""
    import onnxruntime as ort

    def session(name: str) -> ort.InferenceSession:
        return ort.InferenceSession(str(bundle / GRAPH_FILES[name]), providers=["CPUExecutionProvider"])

    io = graph_io(model)
    diffs: dict[str, float] = {}
    # A per-layer step is fed the stacked inputs split (and the memory through memory_read.onnx).
    read = session("memory_read") if (bundle / GRAPH_FILES["memory_read"]).is_file() else None
    # Shapes unlike the traced ones (2, 7, 3, 5), including the first decoder step's empty cache.
    for seed, shape in enumerate([(3, 9, 0, 4), (1, 4, 6, 11)], start=1):
        inputs = example_inputs(model, *shape, seed=seed)
        for name, (ins, outs) in io.items():
            sess = session(name)
            with torch.no_grad():
                ref = GRAPHS[name](model).eval()(*inputs[name])
            feed = {n: x.numpy() for n, x in zip(ins, inputs[name], strict=True)}
            want = {o: r.numpy() for o, r in zip(outs, ref, strict=True)}
            if name == "decoder":  # a per-layer step gives log-probabilities: compared as such
                got = run_step(sess, read, feed)
                want = in_step_terms(want, got)
            else:
                got = dict(zip(outs, sess.run(None, feed), strict=True))
            for out_name, r in want.items():
                o = got[out_name]
                key = f"{name}.{out_name}"
                if r.shape != o.shape:
                    raise ExportError(f"export check failed: {key} has shape {o.shape}, PyTorch {r.shape}")
                d = float(np.abs(r - o).max()) if r.size else 0.0
                diffs[key] = max(diffs.get(key, 0.0), d)
                if not d <= allowed_diff(r, tol):  # also catches NaN
                    raise ExportError(f"export check failed: {key} differs from PyTorch by {d:.3g} "
                                      f"(bound {allowed_diff(r, tol):.3g}) on random inputs {shape}")
    return diffs


def _engines(bundle: Path, beam: int) -> list:
    """The ONNX engine over ``bundle``, one translator per direction (one for most models). The
    checks compare networks, so the engine's own guard against digits the source lacks is off:
    PyTorch's search has none (the round-4 en->zh model wrote ``0`` for a Chinese sentence fed to
    it, the engine ``,``, and the check took that for a broken export)."""
    from doctrans.engine.onnx_engine import OnnxTranslator

    return OnnxTranslator.load_each_direction(bundle, beam_size=beam, providers=["CPUExecutionProvider"],
                                              new_digits=True, any_script=True)


def _torch_document(model: MemoryTransformer, docs: list[list[int]], beam: int):
    from training.search import translate_documents

    return translate_documents(model, [docs], beam=beam, record_memory=True)[0]


def check_document(model: MemoryTransformer, bundle: Path, sentences: list[str], mem_tol: float,
                   beam: int, directions: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The document through the ONNX engine and through training.search, greedy and beam, in
    each of the checkpoint's ``directions`` (model.json form; None/[]: one direction, no tag)."""
    engines = _engines(bundle, 1)
    wanted: list[dict[str, str] | None] = list(directions) if directions else [None]
    if len(engines) != len(wanted):
        raise ExportError(f"export check failed: the bundle offers {len(engines)} directions, the checkpoint "
                          f"{len(wanted)}")
    out = {"mem_diff": 0.0, "logit_diff": 0.0, "beam_same": 0}
    for tr, direction in zip(engines, wanted, strict=True):
        if direction is not None and (tr.src_lang, tr.tgt_lang) != (direction["src"], direction["tgt"]):
            raise ExportError(f"export check failed: the bundle's direction {tr.src_lang}->{tr.tgt_lang} is not "
                              f"the checkpoint's {direction['src']}->{direction['tgt']}")
        got = _check_direction(model, tr, sentences, mem_tol, beam, direction["tag"] if direction else None)
        out = {"mem_diff": max(out["mem_diff"], got["mem_diff"]),
               "logit_diff": max(out["logit_diff"], got["logit_diff"]),
               "beam_same": out["beam_same"] + got["beam_same"]}
    return out


def _check_direction(model: MemoryTransformer, tr, sentences: list[str], mem_tol: float, beam: int,
                     tag: str | None) -> dict[str, Any]:
    """One direction: the PyTorch side reads the ids the checkpoint was trained on (the tag's
    piece first, built here from the contract, not taken from the engine's source_prefix), and
    the engine must feed exactly those ids to its encoder."""
    cfg = model.cfg
    prefix = [tr.tokenizer.piece_id(tag)] if tag else []
    ids = [[*prefix, *tr.tokenizer.encode(s)[: cfg.max_len - 1 - len(prefix)]] for s in sentences]
    where = f" ({tr.src_lang}->{tr.tgt_lang})" if tag else ""
    for i, (sentence, sent_ids) in enumerate(zip(sentences, ids, strict=True)):
        if tr.source_ids(sentence) != [*sent_ids, cfg.eos_id]:
            raise ExportError(f"export check failed{where}: the engine's source ids for sentence {i + 1} are "
                              f"{tr.source_ids(sentence)[:6]}..., the checkpoint reads {sent_ids[:6]}...")
    ref = _torch_document(model, ids, 1)
    session = tr.new_document()
    mem_diff, logit_diff = 0.0, 0.0
    for i, sent_ids in enumerate(ids):
        src = np.asarray([[*sent_ids, cfg.eos_id]], dtype=np.int64)
        mem_before = {k: torch.from_numpy(v[None]) for k, v in session.memory.items()}
        hyp, _ = session.translate_ids(src)
        if hyp.tokens != ref.hypotheses[i]:
            raise ExportError(f"export check failed{where}: sentence {i + 1} greedy output differs from PyTorch "
                              f"(onnx {hyp.tokens[:12]}..., torch {ref.hypotheses[i][:12]}...)")
        for side, m in session.memory.items():
            d = float(np.abs(m - ref.memories[i][side].numpy()).max())
            mem_diff = max(mem_diff, d)
            if not d <= mem_tol:
                raise ExportError(f"export check failed{where}: {side} memory after sentence {i + 1} differs "
                                  f"from PyTorch by {d:.3g} (bound {mem_tol:.1g})")
        logit_diff = max(logit_diff, _teacher_forced_diff(model, tr, src, hyp.tokens, mem_before))
    beam_same = 0
    if beam > 1:
        ref_b = _torch_document(model, ids, beam)
        got = tr.new_document(beam_size=beam)
        for i, sent_ids in enumerate(ids):
            hyp, _ = got.translate_ids(np.asarray([[*sent_ids, cfg.eos_id]], dtype=np.int64))
            beam_same += hyp.tokens == ref_b.hypotheses[i]
    return {"mem_diff": mem_diff, "logit_diff": logit_diff, "beam_same": beam_same}


def _teacher_forced_diff(model: MemoryTransformer, tr, src: np.ndarray, hyp: list[int],
                         mem: dict[str, torch.Tensor]) -> float:
    """max |Δ| of decoder_full logits over the chosen hypothesis, real sentence, real memory."""
    cfg = model.cfg
    tgt = np.asarray([[cfg.bos_id, *hyp]], dtype=np.int64)
    with torch.no_grad():
        enc, _, _ = model.encode(torch.from_numpy(src), mem.get("src"))
        ref, _, _, _ = model.decode(torch.from_numpy(tgt), model.cross_kv(enc), torch.from_numpy(src), mem.get("tgt"))
    feed = {"src_ids": src}
    if "src" in mem:
        feed["mem_src"] = mem["src"].numpy()
    s = tr.sessions
    _, ck, cv, *_ = s["encoder"].run(None, feed)
    full = {"tgt_ids": tgt, "src_ids": src, "cross_k": ck, "cross_v": cv}
    if "tgt" in mem:
        full["mem_tgt"] = mem["tgt"].numpy()
    got = s["decoder_full"].run(None, full)[0]
    return float(np.abs(ref.numpy() - got).max())


# -- int8 -------------------------------------------------------------------------------------
def quantize_graph(src: Path, dst: Path) -> None:
    """Dynamic int8 quantization of one graph's weights (activations quantized at run time)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # per_channel keeps the small per-row scales of the attention/FFN weights accurate.
    quantize_dynamic(src, dst, weight_type=QuantType.QInt8, per_channel=True, nodes_to_exclude=[POSITION_NODE])


def quantize_bundle(src: Path, dst: Path) -> None:
    """:func:`quantize_graph` for every graph of a bundle, its other files copied."""
    dst.mkdir(parents=True, exist_ok=True)
    for f in src.iterdir():
        if f.suffix == ".onnx":
            quantize_graph(f, dst / f.name)
        else:
            shutil.copy2(f, dst / f.name)
    edit(dst, lambda m: setattr(m, "quantization", "int8"))


def compare_int8(fp32: Path, int8: Path, sentences: list[str]) -> dict[str, Any]:
    """int8 vs fp32 greedy, the document through every direction; logits of the first sentence."""
    pairs = list(zip(_engines(fp32, 1), _engines(int8, 1), strict=True))
    same = 0
    for a, b in pairs:
        sa, sb = a.new_document(), b.new_document()
        for s in sentences:
            ra, rb = sa.translate(s), sb.translate(s)
            same += ra.tgt_tokens == rb.tgt_tokens
    a, b = pairs[0]
    # Logits of one sentence through decoder_full, same inputs (tag included) to both.
    src = np.asarray([a.source_ids(sentences[0])], dtype=np.int64)
    feeds = {"src_ids": src}
    if "src" in a.memory_init:
        feeds["mem_src"] = a.memory_init["src"][None]
    outs = []
    for tr in (a, b):
        _, ck, cv, *_ = tr.sessions["encoder"].run(None, feeds)
        full = {"tgt_ids": np.asarray([[a.info.bos_id, *src[0, :-1]]], dtype=np.int64), "src_ids": src,
                "cross_k": ck, "cross_v": cv}
        if "tgt" in tr.memory_init:
            full["mem_tgt"] = tr.memory_init["tgt"][None]
        outs.append(tr.sessions["decoder_full"].run(None, full)[0])
    logit_diff = float(np.abs(outs[0] - outs[1]).max())
    if not np.isfinite(outs[1]).all():
        raise ExportError("int8 export check failed: quantized decoder produced non-finite logits")
    return {"bytes": graph_bytes(int8), "fp32_bytes": graph_bytes(fp32), "same_sentences": same,
            "sentences": len(sentences) * len(pairs), "logit_diff": logit_diff}


def graph_bytes(bundle: Path) -> int:
    """What the graphs take on disk: the .onnx files and the shared weights file."""
    return sum(f.stat().st_size for f in bundle.iterdir() if f.suffix == ".onnx" or f.name == WEIGHTS_FILE)


def _share(src: Path, dst: Path) -> SharingReport:
    try:
        return share_weights(src, dst)
    except WeightSharingError as e:
        raise ExportError(f"export check failed: {e}") from None


# -- entry points -------------------------------------------------------------------------------
def export_checkpoint(ckpt_path: str | Path, out_dir: str | Path, quantize: str | None = None, *,
                      sentences: list[str] | None = None, tol: float = 1e-4, mem_tol: float = 1e-4,
                      beam: int = 5, log: Callable[[str], None] | None = None,
                      no_repeat_ngram: int = 0, length_penalty: float = 1.0,
                      max_repeat_run: int = 0) -> ExportReport:
    """Export a checkpoint to a verified bundle at ``out_dir`` (see the module docstring).

    ``quantize``: None (fp32) or "int8". ``sentences``: the real sentences for the end-to-end
    check (source language; default: a few built-in ones). ``no_repeat_ngram``, ``length_penalty``,
    ``max_repeat_run``: the bundle's default decoding settings (model.json ``decoding``, written when
    not 0, 1.0 and 0, the engine's own defaults; the checks run without them, like PyTorch).
    Raises ExportError (a UserError) for a missing/unreadable checkpoint or a failed check.
    """
    ckpt_path = Path(ckpt_path)
    try:
        loaded = load_model(ckpt_path)
    except CheckpointError as e:
        raise ExportError(str(e)) from None
    return export_model(loaded, out_dir, quantize, ckpt_path=ckpt_path, sentences=sentences, tol=tol,
                        mem_tol=mem_tol, beam=beam, log=log, no_repeat_ngram=no_repeat_ngram,
                        length_penalty=length_penalty, max_repeat_run=max_repeat_run)


def export_model(loaded: LoadedModel, out_dir: str | Path, quantize: str | None = None, *,
                 ckpt_path: Path | None = None, sentences: list[str] | None = None, tol: float = 1e-4,
                 mem_tol: float = 1e-4, beam: int = 5, log: Callable[[str], None] | None = None,
                 no_repeat_ngram: int = 0, length_penalty: float = 1.0, max_repeat_run: int = 0,
                 step: str = PER_LAYER) -> ExportReport:
    """:func:`export_checkpoint` for a model already in memory (tests, benchmarks); ``step``: the
    one-step decoder's form (:func:`export_graphs`: the older ones for A/B runs)."""
    if quantize not in (None, "int8"):
        raise ExportError(f"unknown quantization {quantize!r} (choose int8)")
    if no_repeat_ngram < 0:
        raise ExportError(f"no_repeat_ngram must be >= 0, got {no_repeat_ngram}")
    if max_repeat_run < 0:
        raise ExportError(f"max_repeat_run must be >= 0, got {max_repeat_run}")
    if not (math.isfinite(length_penalty) and length_penalty >= 0):
        raise ExportError(f"length_penalty must be a non-negative number, got {length_penalty}")
    smdt = isinstance(loaded.model, SMDT)
    if not smdt and not isinstance(loaded.model, MemoryTransformer):
        # The runtime runs the memory model (encoder, step decoder, memory update) and SMDT
        # sentence by sentence (export/smdt_bundle.py); G-Transformer and context-cache models
        # are compared in training/.
        raise ExportError(f"the checkpoint is a --approach {loaded.approach} model; bundles hold the memory "
                          "and SMDT models only (evaluate it with python -m training.evaluate)")
    if not loaded.spm_bytes:
        raise ExportError("checkpoint has no SentencePiece model (key 'spm'); cannot build a bundle")
    directions = checkpoint_directions(loaded)  # a bad 'directions' fails before anything is traced
    out_dir = Path(out_dir)
    if out_dir.exists() and (not out_dir.is_dir() or (any(out_dir.iterdir()) and not (out_dir / MODEL_JSON).exists())):
        raise ExportError(f"{out_dir}: exists and is not a model bundle; refusing to overwrite it")
    say = log or (lambda _msg: None)
    sentences = sentences or DEFAULT_SENTENCES
    defaults = {**({"no_repeat_ngram": no_repeat_ngram} if no_repeat_ngram else {}),
                **({"length_penalty": length_penalty} if length_penalty != 1.0 else {}),
                **({"max_repeat_run": max_repeat_run} if max_repeat_run else {})}
    if smdt:
        from export.smdt_bundle import export_smdt

        return export_smdt(loaded, out_dir, quantize, ckpt_path=ckpt_path, sentences=sentences, tol=tol, beam=beam,
                           log=say, decoding=defaults)
    t0 = time.time()
    model = loaded.model.eval()
    assert isinstance(model, MemoryTransformer)  # refused above otherwise
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}.export-"))
    try:
        inline = work / "inline"  # self-contained graphs, as traced
        inline.mkdir()
        say("exporting graphs (torch.onnx, TorchScript exporter)")
        export_graphs(model, inline, step)
        write_metadata(loaded, inline, ckpt_path, None, step)
        report = ExportReport(out_dir=out_dir, quantize=quantize, sentences=len(sentences), beam=beam,
                              directions=max(1, len(directions)))
        say(f"storing each distinct weight once in {WEIGHTS_FILE}")
        fp32 = work / "fp32"
        report.weights = _share(inline, fp32)
        say("checking graphs against PyTorch on random inputs")
        report.graph_diffs = check_graphs(model, fp32, tol)
        say(f"checking a {len(sentences)}-sentence document through the memory loop")
        doc = check_document(model, fp32, sentences, mem_tol, beam, directions)
        report.greedy_identical = True  # check_document raises otherwise
        report.doc_memory_diff, report.doc_logit_diff = doc["mem_diff"], doc["logit_diff"]
        report.beam_identical = doc["beam_same"]
        final = fp32
        if quantize == "int8":
            say("quantizing to int8 and comparing with fp32")
            # Quantize the self-contained graphs, then share their weights and check the result.
            quantize_bundle(inline, work / "int8-inline")
            final = work / "int8"
            report.weights = _share(work / "int8-inline", final)
            _check_same(work / "int8-inline", final, sentences)
            report.int8 = compare_int8(fp32, final, sentences)
        return finish_bundle(final, out_dir, defaults, report, t0, say)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_same(ref: Path, new: Path, sentences: list[str]) -> None:
    try:
        check_same_translations(ref, new, sentences)
    except WeightSharingError as e:
        raise ExportError(f"export check failed: {e}") from None
