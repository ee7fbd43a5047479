"""``doctrans export`` of an SMDT checkpoint (``--approach smdt``): a verified bundle for
``doctrans.engine.smdt_engine``, one sentence per instance (docs/approaches.md, SMDT).

``export.bundle.export_model`` sends SMDT models here after its common checks. The bundle holds
``smdt_encoder.onnx`` and ``smdt_decoder.onnx`` (export/smdt_graphs.py), spm.model, an empty
memory_init.npz and model.json with its ``smdt`` settings (written through
doctrans.bundle_manifest). The checks, as for the memory model:

1. each graph against its PyTorch wrapper on random inputs of shapes other than the traced ones
   (rows with and without retrieved pairs, padding, an empty and a filled KV cache), max |Δ| per
   output within ``tol`` relative to the output's scale; ``src_info`` (the selection's argmax)
   must be equal;
2. the check sentences, each as two instances -- with the pairs the checkpoint's own TM gives it
   (``SMDT.retrieve``, nothing when it finds none) and with a constructed pair (another check
   sentence and this one's ids), so the retrieved part is always exercised -- through the engine
   and through PyTorch's decoding of the same instance (``training.smdt.instance_source`` +
   ``training.gtransformer.beam_search_encoded``, what ``translate_documents`` runs with
   ``instance_tokens=1``): greedy token ids must be identical, the decoder's logits along the
   greedy path within ``tol``; beam search is compared as well (reported).

Not done for SMDT yet: int8 quantization and the shared weights file (the two graphs keep their
weights inside; the tied embedding is stored twice).
"""

from __future__ import annotations

import shutil
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from doctrans.bundle_manifest import (
    MEMORY_INIT_FILE,
    SMDT_GRAPH_FILES,
    SPM_FILE,
    BundleManifest,
    standard_files,
)
from doctrans.hashing import sha256_file
from export.common import OPSET, ExportError, ExportReport, allowed_diff, finish_bundle, special_ids
from export.smdt_graphs import SMDT_GRAPH_IO, SMDT_GRAPHS, smdt_dynamic_axes
from training.checkpoint import LoadedModel
from training.gtransformer import beam_search_encoded
from training.smdt import SMDT, TM_SRC, SMDTConfig, instance_source, stack_sources

Pairs = list[tuple[list[int], list[int]]]


# -- graph inputs ---------------------------------------------------------------------------
def example_inputs(model: SMDT, batch: int, sent_len: int, past_len: int, seed: int = 0
                   ) -> dict[str, tuple[torch.Tensor, ...]]:
    """Inputs of both graphs: ``batch`` instances (the last one without pairs when batch > 1, rows
    of different lengths so some are padded), a cache of ``past_len`` steps."""
    cfg = model.cfg
    rng = np.random.default_rng(seed)
    g = torch.Generator().manual_seed(seed)
    first_word = max(cfg.pad_id, cfg.bos_id, cfg.eos_id, cfg.unk_id, cfg.sep_id) + 1

    def words(n: int) -> list[int]:
        return rng.integers(first_word, cfg.vocab_size, max(1, n)).tolist()

    sources = []
    for r in range(batch):
        n_pairs = 0 if batch > 1 and r == batch - 1 else max(1, cfg.retrieve_k)
        pairs = [(words(sent_len - 1), words(sent_len + 1)) for _ in range(n_pairs)]
        sources.append(instance_source([words(sent_len - r)], [pairs], cfg))
    src, pos, meta = (torch.from_numpy(a) for a in stack_sources(sources, cfg.pad_id))
    S, H, dh = src.shape[1], cfg.n_heads, cfg.d_model // cfg.n_heads
    L, G = cfg.dec_layers, cfg.global_layers
    visible = (meta[..., 2] > 0).long()
    dropped = (meta[..., 1] >= TM_SRC) & (torch.rand(meta.shape[:2], generator=g) < 0.2)
    info = torch.stack([meta[..., 0], meta[..., 1], visible.masked_fill(dropped, 0)], -1)

    def rnd(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=g)

    tokens = torch.randint(first_word, cfg.vocab_size, (batch, 1), generator=g)
    decoder = (tokens, torch.tensor(past_len, dtype=torch.long), info,
               rnd(L, batch, H, S, dh), rnd(L, batch, H, S, dh), rnd(G, batch, H, S, dh), rnd(G, batch, H, S, dh),
               rnd(L, batch, H, past_len, dh), rnd(L, batch, H, past_len, dh),
               rnd(G, batch, H, past_len, dh), rnd(G, batch, H, past_len, dh))
    return {"smdt_encoder": (src, pos, meta), "smdt_decoder": decoder}


def export_graphs(model: SMDT, out: Path) -> None:
    examples = example_inputs(model, batch=2, sent_len=7, past_len=3)
    for name, (ins, outs) in SMDT_GRAPH_IO.items():
        graph = SMDT_GRAPHS[name](model).eval()
        with warnings.catch_warnings(), torch.no_grad():
            # Tracer warnings: shapes read as Python ints (layer counts, the position table's size,
            # one decoder step); the random-input check below proves the dynamic axes work.
            warnings.simplefilter("ignore")
            torch.onnx.export(graph, examples[name], str(out / SMDT_GRAPH_FILES[name]), input_names=ins,
                              output_names=outs, dynamic_axes=smdt_dynamic_axes(ins + outs),
                              opset_version=OPSET, dynamo=False, do_constant_folding=True)


def write_metadata(loaded: LoadedModel, out: Path, ckpt_path: Path | None) -> BundleManifest:
    """spm.model, an empty memory_init.npz (no memory) and model.json with ``smdt``."""
    cfg, raw = loaded.model.cfg, loaded.raw
    assert isinstance(cfg, SMDTConfig)
    (out / SPM_FILE).write_bytes(loaded.spm_bytes)
    np.savez(out / MEMORY_INIT_FILE, allow_pickle=False)
    ids = special_ids(loaded)
    manifest = BundleManifest(
        path=out, src_lang=loaded.src_lang, tgt_lang=loaded.tgt_lang,
        vocab_size=cfg.vocab_size, d_model=cfg.d_model, n_heads=cfg.n_heads, d_ff=cfg.d_ff,
        enc_layers=cfg.enc_layers, dec_layers=cfg.dec_layers, max_len=cfg.max_len,
        pad_id=ids["pad"], bos_id=ids["bos"], eos_id=ids["eos"], unk_id=ids["unk"],
        mem_sides=(), mem_slots=0, mem_layers={}, quantization=None,
        files=standard_files((), smdt=True),
        provenance={
            "checkpoint": ckpt_path.name if ckpt_path else None,
            "checkpoint_sha256": sha256_file(ckpt_path) if ckpt_path else None,
            "step": raw.get("step"), "stage": raw.get("stage"), "approach": "smdt",
            "exporter": f"torch.onnx TorchScript (torch {torch.__version__}), opset {OPSET}",
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
        scores=raw.get("metrics") or {},
        smdt={"retrieve_k": cfg.retrieve_k, "sep_id": cfg.sep_id, "global_layers": cfg.global_layers,
              "instance_tokens": 1},
    )
    manifest.write(out)
    return manifest


# -- verification ---------------------------------------------------------------------------
def check_graphs(model: SMDT, bundle: Path, tol: float) -> dict[str, float]:
    """Both graphs vs their PyTorch wrappers on random inputs of new shapes; raise if out of bounds."""
    import onnxruntime as ort

    diffs: dict[str, float] = {}
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1  # small graphs: a second thread only waits on a busy CPU
    sessions = {name: ort.InferenceSession(str(bundle / SMDT_GRAPH_FILES[name]), so,
                                           providers=["CPUExecutionProvider"]) for name in SMDT_GRAPH_IO}
    for seed, shape in enumerate([(3, 9, 0), (1, 4, 6)], start=1):
        inputs = example_inputs(model, *shape, seed=seed)
        for name, (ins, outs) in SMDT_GRAPH_IO.items():
            sess = sessions[name]
            with torch.no_grad():
                ref = SMDT_GRAPHS[name](model).eval()(*inputs[name])
            got = sess.run(None, {n: x.numpy() for n, x in zip(ins, inputs[name], strict=True)})
            for out_name, r, o in zip(outs, ref, got, strict=True):
                r = r.numpy()
                key = f"{name}.{out_name}"
                if r.shape != o.shape:
                    raise ExportError(f"export check failed: {key} has shape {o.shape}, PyTorch {r.shape}")
                d = float(np.abs(r.astype(np.float64) - o).max()) if r.size else 0.0
                diffs[key] = max(diffs.get(key, 0.0), d)
                bound = 0.0 if out_name == "src_info" else allowed_diff(r, tol)  # ids and the keep/drop choice
                if not d <= bound:  # also catches NaN
                    raise ExportError(f"export check failed: {key} differs from PyTorch by {d:.3g} "
                                      f"(bound {bound:.3g}) on random inputs {shape}")
    return diffs


@torch.no_grad()
def torch_translate(model: SMDT, sentence: list[int], pairs: Pairs, beam: int) -> list[int]:
    """PyTorch's decoding of one one-sentence instance, as ``training.smdt.translate_documents``
    does it with ``instance_tokens=1``."""
    cfg = model.cfg
    source = instance_source([sentence], [pairs], cfg)
    src, pos, meta = (torch.from_numpy(a) for a in stack_sources([source], cfg.pad_id))
    enc, info = model.encode(src, pos, meta)
    return beam_search_encoded(model, enc, info, [len(sentence)], beam)[0]


def check_instances(model: SMDT, bundle: Path, sentences: list[str], beam: int, tol: float) -> dict[str, Any]:
    """The check sentences through the engine and through PyTorch (see the module docstring)."""
    from doctrans.engine.smdt_engine import SMDTTranslator

    # new_digits: PyTorch's search does not keep a sentence without digits from writing one.
    tr = SMDTTranslator.load(bundle, beam_size=1, providers=["CPUExecutionProvider"], threads=1, new_digits=True,
                             any_script=True)
    cfg = model.cfg
    ids = [tr.tokenizer.encode(s)[: cfg.max_len - 1] for s in sentences]
    retrieved = model.retrieve(ids)
    instances: list[tuple[list[int], Pairs]] = []
    for i, sent in enumerate(ids):
        own = [(list(map(int, x)), list(map(int, y))) for x, y in model.pairs(retrieved[i])]
        other = ids[(i + 1) % len(ids)]
        instances += [(sent, own), (sent, [(other, sent[::-1])] * max(1, cfg.retrieve_k))]
    greedy, beamed = tr.new_document(beam_size=1), tr.new_document(beam_size=beam)
    logit_diff, beam_same = 0.0, 0
    for n, (sent, pairs) in enumerate(instances):
        hyp = greedy.translate_ids(sent, pairs)
        ref = torch_translate(model, sent, pairs, 1)
        if hyp.tokens != ref:
            raise ExportError(f"export check failed: instance {n + 1} ({len(pairs)} pairs) greedy output differs "
                              f"from PyTorch (onnx {hyp.tokens[:12]}..., torch {ref[:12]}...)")
        d, bound = teacher_forced_diff(model, greedy, sent, pairs, hyp.tokens, tol)
        logit_diff = max(logit_diff, d)
        if not d <= bound:
            raise ExportError(f"export check failed: instance {n + 1} logits differ from PyTorch by {d:.3g} "
                              f"(bound {bound:.3g})")
        if beam > 1:
            beam_same += beamed.translate_ids(sent, pairs).tokens == torch_translate(model, sent, pairs, beam)
    return {"instances": len(instances), "logit_diff": logit_diff, "beam_same": beam_same,
            "with_pairs": sum(bool(p) for _, p in instances)}


@torch.no_grad()
def teacher_forced_diff(model: SMDT, session: Any, sentence: list[int], pairs: Pairs, hyp: list[int],
                        tol: float) -> tuple[float, float]:
    """max |Δ| of the decoder's logits over [BOS, hyp] -- PyTorch teacher-forced vs the ONNX step
    decoder fed the same tokens one by one (its KV cache included) -- and its bound (``tol``
    relative to the logits' scale, as check_graphs)."""
    from doctrans.engine.smdt_engine import SMDTDecoder

    cfg = model.cfg
    inst, enc = session.encode(sentence, pairs)
    tin = [cfg.bos_id, *hyp]
    dec = SMDTDecoder(session.tr.sessions["smdt_decoder"], session.tr.info, enc, 1, limit=len(tin) + 1)
    got = np.concatenate([dec._logits(np.asarray([[tok]], dtype=np.int64), t) for t, tok in enumerate(tin)])
    t_enc, t_info = model.encode(*(torch.from_numpy(a) for a in (inst.src_ids, inst.positions, inst.meta)))
    x = torch.tensor([tin])
    ref = model.decode(x, torch.ones_like(x), model.cross_kv(t_enc), t_info)[0][0].numpy()
    return float(np.abs(ref - got).max()), allowed_diff(ref, tol)


# -- entry point ------------------------------------------------------------------------------
def export_smdt(loaded: LoadedModel, out_dir: Path, quantize: str | None, *, ckpt_path: Path | None,
                sentences: list[str], tol: float, beam: int, log: Callable[[str], None],
                decoding: dict[str, Any]) -> ExportReport:
    """Export an SMDT model (``export.bundle.export_model`` has checked the arguments and ``out_dir``)."""
    model = loaded.model.eval()
    assert isinstance(model, SMDT)
    if quantize is not None:
        raise ExportError("int8 SMDT bundles are not implemented yet; export it in fp32 (no --quantize)")
    if model.cfg.global_layers < 1:
        raise ExportError("an SMDT model without global layers (--global-layers 0) cannot be exported")
    if loaded.raw.get("directions"):
        raise ExportError("a bidirectional SMDT checkpoint cannot be exported (SMDT trains one direction)")
    t0 = time.time()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}.export-"))
    try:
        final = work / "fp32"
        final.mkdir()
        log("exporting the SMDT graphs (torch.onnx, TorchScript exporter)")
        export_graphs(model, final)
        write_metadata(loaded, final, ckpt_path)
        report = ExportReport(out_dir=out_dir, quantize=None, beam=beam)
        log("checking graphs against PyTorch on random inputs")
        report.graph_diffs = check_graphs(model, final, tol)
        log(f"checking {len(sentences)} sentences, with and without retrieved pairs, against PyTorch's decoding")
        got = check_instances(model, final, sentences, beam, tol)
        report.greedy_identical = True  # check_instances raises otherwise
        report.sentences, report.doc_logit_diff, report.beam_identical = (got["instances"], got["logit_diff"],
                                                                          got["beam_same"])
        report.with_pairs = got["with_pairs"]
        return finish_bundle(final, out_dir, decoding, report, t0, log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
