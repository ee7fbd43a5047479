"""The ONNX Runtime engine: a model bundle + the document memory loop, no PyTorch.

Per sentence (``DocumentSession.translate``)::

    encoder(src_ids, M_src)          -> cross K/V, h_src, output attention (source)
    beam search over decoder(step)   -> best hypothesis (beams batched, KV cache reordered)
                                        [+ its h_tgt, each token's states kept through the reorders]
    decoder_full([BOS] + hyp, M_tgt) -> h_tgt, output attention (target)   (only when needed, below)
    memory_update(M, h, ids)         -> M_src', M_tgt', update attention

The target memory is written only after the sentence is finished, from the states of the chosen
hypothesis -- as ``training.search.translate_documents`` does (teacher-forced there), the reference
the export checks this engine against. A causal decoder gives a token the same state in the search
as in a teacher-forced pass, so when the step decoder outputs them (``h_tgt``, bundles exported
since the fused step: export.step_graph) the search keeps them and decoder_full does not run. It
still runs for a forced translation (a TM hit: its tokens were never searched), for the viewer's
output attention (``return_attention``), for a hypothesis cut at the length limit (its last token
never went through the decoder) and on a GPU (the states stay on the device). A batch of
documents (doctrans.engine.batch) does the same, row by row. In fp32 both give the same memory to ~1e-6; in int8 the two
graphs quantize their activations apart, so the memory differs at the int8 level (the first 120
TVsub dev sentences: 117/120 zh->en translations identical at beam 5).

A bundle with several directions (zh->en and en->zh in one model) is opened for one of them
(``load(..., src=, tgt=)``); :meth:`OnnxTranslator.with_direction` gives another direction over the
same ONNX sessions. The direction's tag piece goes before every source sentence.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from doctrans.bundle_manifest import GRAPH_FILES, SPM_FILE, BundleManifest, Direction
from doctrans.engine.beam import Hypothesis, beam_search_n_best, max_new_tokens
from doctrans.engine.bundle import (
    check_graph_inputs,
    direction_tag_ids,
    load_memory_init,
    read_bundle,
    select_direction,
)
from doctrans.engine.device import BoundDecoder, device_of, reorder_session
from doctrans.engine.errors import BundleError
from doctrans.engine.integrity import verify_bundle_files
from doctrans.engine.interface import MemoryState, SentenceAttention, SentenceResult
from doctrans.engine.protect import Prepared, prepare
from doctrans.engine.step_inputs import LOG_PROBS, NOT_ROWS, StepLayout, batch_axis
from doctrans.engine.tokenizer import Tokenizer
from doctrans.engine.topk import topk, topk_session
from doctrans.glossary import Glossary
from doctrans.verbatim import restore_warnings

# The wider beam of the placeholder fallback: when none of the n-best of the normal search copied
# every placeholder exactly once, the search runs again this wide (at most 16 beams: a decoder
# batch of 16 rows of a small model is still milliseconds a step).
FALLBACK_BEAM = 8
MAX_FALLBACK_BEAM = 16


def fallback_beam(beam_size: int) -> int | None:
    """How wide the fallback search runs after a search of ``beam_size``; None when it would be no
    wider (the beam is as wide as it goes)."""
    wider = min(MAX_FALLBACK_BEAM, max(FALLBACK_BEAM, 2 * beam_size))
    return wider if wider > beam_size else None


# ONNX Runtime's default logger prints a coloured line on stderr for every failing node, before
# the exception that doctrans turns into one error line: errors-only would still show them.
ort.set_default_logger_severity(4)  # fatal only


def default_providers() -> list[str]:
    """CUDA when onnxruntime-gpu sees a GPU, always with the CPU as fallback."""
    available = ort.get_available_providers()
    return (["CUDAExecutionProvider"] if "CUDAExecutionProvider" in available else []) + ["CPUExecutionProvider"]


def session_options(threads: int | None = None) -> ort.SessionOptions:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # One request at a time, each op parallel inside: the graphs are a chain, so inter-op
    # parallelism buys nothing and its threads would compete with the intra-op pool.
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.inter_op_num_threads = 1
    so.intra_op_num_threads = threads if threads is not None else 0  # 0 = ORT picks (physical cores)
    # Fatal only: the CUDA fallback warnings are not the user's business, and a failing node's
    # coloured error line would come before doctrans' own one-line error for the same failure.
    so.log_severity_level = 4
    return so


# The least normalised log-probability of a term translated alone that is used (doctrans.quoted_terms).
# On 20 dev terms the score separates badly (right renderings -0.30 to -0.66, wrong ones -0.51 to
# -0.81): the cut drops only the least sure; doctrans.quoted_terms also drops sentence-like ones.
ALONE_MIN_SCORE = -0.7


@dataclass
class _Options:
    beam_size: int = 5
    length_penalty: float = 1.0
    max_length: int | None = None
    return_attention: bool = False
    no_repeat_ngram: int = 0
    max_repeat_run: int = 0  # doctrans.engine.repeats (0: off)
    new_digits: bool = False  # True: a translation may write digits its source (figures masked) lacks
    any_script: bool = False  # True: into English it may write Han characters (PyTorch's search does)
    # True: keep the search's pick even when it spells a word wrong (Prepared.choose; PyTorch's
    # search has no such check, and the parity tests and the speed scoreboard compare with it).
    any_spelling: bool = False

    def bans_for(self, tgt_lang: str) -> str | None:
        """The target language the search's script ban follows (None: no ban)."""
        return None if self.any_script else tgt_lang

    def override(self, **kw: Any) -> _Options:
        return _Options(**{**self.__dict__, **{k: v for k, v in kw.items() if v is not None}})


class _Decoder:
    """Drives decoder.onnx for the beam search: holds the cross K/V and the growing KV cache.

    ``memory``: the step's memory inputs (:func:`memory_inputs`). Either layout of the step's
    inputs (doctrans.engine.step_inputs) is fed: stacked arrays as they are, per-layer ones as
    views of the stacks. ``keep_states``: when the step decoder gives each token's target states
    (``h_tgt``, bundles exported since the fused step), keep every step's and the beams'
    reorders, so that :meth:`states_of` can give a finished hypothesis its states: the memory
    update then needs no teacher-forced pass (decoder_full) over the chosen translation.

    The inputs are one row per row of the search and ``beam`` the search's beams a row: the first
    step computes each row once, since its ``beam`` beams are the same then (BOS on the same
    source and memory; the search expands only beam 0), and its outputs and the cache are
    repeated to ``rows x beam`` after it, as CTranslate2 expands to the beam after its first step.
    A step's cost grows with its rows (the shipped zh-en int8 step at 5 / 20 rows: ~1.6 / ~4.1 ms
    on this project's CPU, the output projection most of it), and the first is one of ~10 a
    sentence. The rows computed are the same values either way (row-wise ops; an int8 MatMul's
    one activation scale is the same over a row repeated), so the search is unchanged.
    """

    def __init__(self, sess: ort.InferenceSession, info: BundleManifest, src: np.ndarray, cross_k: np.ndarray,
                 cross_v: np.ndarray, memory: dict[str, np.ndarray], topk_sess: ort.InferenceSession,
                 keep_states: bool = False, best_sess: ort.InferenceSession | None = None, beam: int = 1):
        n = src.shape[0]
        self.sess = sess
        self.topk_sess = topk_sess
        self.best_sess = best_sess
        self.layout = layout = StepLayout.of(sess, info.dec_layers)
        self.feed: dict[str, np.ndarray] = {"src_ids": src, **layout.split("cross_k", cross_k),
                                            **layout.split("cross_v", cross_v), **memory,
                                            **layout.empty_past(n, info.n_heads, info.d_head)}
        self.beam = beam
        self._expanded = beam == 1  # False until the first step's rows are repeated to the beams
        self.identity = np.arange(n * beam)  # the search's rows (rows x beam)
        # Outputs by name: a bundle's step may give more than these (h_tgt), in any order.
        self.past = layout.past
        self.outputs = [layout.scores, *layout.present]
        # The search skips its own log_softmax when the step gives log-probabilities.
        self.gives_log_probs = layout.scores == LOG_PROBS
        self.keep_states = keep_states and STEP_STATES in {o.name for o in sess.get_outputs()}
        if self.keep_states:
            self.outputs.append(STEP_STATES)
        self.states: list[np.ndarray] = []  # step t: (rows, memory layers, 1, d)
        self.origins: list[np.ndarray | None] = []  # after step t: row i continues row origins[t][i]

    def _run(self, tokens: np.ndarray, t: int) -> tuple[np.ndarray, bool]:
        """The step -> its scores, and whether they are one per row still (True: the first step,
        before the beams; every beam of a row has that row's)."""
        once = not self._expanded
        self.feed["tokens"] = tokens[:: self.beam] if once else tokens
        self.feed["step"] = np.array(t, dtype=np.int64)
        out = self.sess.run(self.outputs, self.feed)
        for name, value in zip(self.past, out[1:], strict=False):
            self.feed[name] = value
        if self.keep_states:
            self.states.append(np.repeat(out[-1], self.beam, axis=0) if once else out[-1])
        if once:
            self._expand()
        return out[0], once

    def _expand(self) -> None:
        """Every row's inputs and cache repeated to its beams (rows x beam, as the search counts)."""
        for name, value in self.feed.items():
            if name not in NOT_ROWS:
                self.feed[name] = np.repeat(value, self.beam, axis=batch_axis(name))
        self._expanded = True

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        scores, once = self._run(tokens, t)
        return np.repeat(scores, self.beam, axis=0) if once else scores

    def states_of(self, row: int) -> np.ndarray | None:
        """The target states (1, memory layers, steps so far, d) of the tokens ``row`` was fed."""
        return walk_states(self.states, self.origins, row) if self.keep_states else None

    def step_topk(self, tokens: np.ndarray, t: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The k best log-probabilities of every row and their tokens (doctrans.engine.topk)."""
        scores, once = self._run(tokens, t)
        if self.gives_log_probs and self.best_sess is not None:
            values, ids = topk(self.best_sess, scores, k)  # normalised already: no second LogSoftmax
        else:
            values, ids = topk(self.topk_sess, scores, k)
        if once:
            return np.repeat(values, self.beam, axis=0), np.repeat(ids, self.beam, axis=0)
        return values, ids

    def reorder(self, origin: np.ndarray) -> None:
        if not self._expanded:
            self._expand()
        if np.array_equal(origin, self.identity):  # greedy, or beams that kept their places
            if self.keep_states:
                self.origins.append(None)
            return
        if self.keep_states:
            self.origins.append(origin.copy())
        for name in self.past:
            self.feed[name] = np.take(self.feed[name], origin, axis=batch_axis(name))

    def take_rows(self, keep: np.ndarray) -> None:
        """Compute only these rows (of the search's rows x beam) from now on (doctrans.engine.batch
        cuts finished documents)."""
        if not self._expanded:
            self._expand()
        for name, value in self.feed.items():
            if name not in NOT_ROWS:
                self.feed[name] = np.take(value, keep, axis=batch_axis(name))
        self.identity = np.arange(keep.shape[0])


def walk_states(states: list[np.ndarray], origins: list[np.ndarray | None], row: int) -> np.ndarray:
    """Row ``row``'s states after the last step, followed back through the beams' reorders:
    ``states[t]`` (rows, layers, 1, d) of step t, ``origins[t]`` the reorder after it (None: none).
    -> (1, layers, steps, d)."""
    per_step = []
    for t in range(len(states) - 1, -1, -1):
        per_step.append(states[t][row])
        if t > 0 and (origin := origins[t - 1]) is not None:
            row = int(origin[row])
    return np.concatenate(per_step[::-1], axis=1)[None]


# The step decoder's output with each token's states at the target memory layers (export.graphs).
STEP_STATES = "h_tgt"

# I/O binding (doctrans.engine.device) on the CPU too; off by default (no faster there): tests
# switch it on to check the bound decoder against the plain one.
BIND_ON_CPU = False


def memory_inputs(s: dict[str, ort.InferenceSession], mem_tgt: np.ndarray | None) -> dict[str, np.ndarray]:
    """The step decoder's memory inputs for a sentence: the target memory itself (a stacked step),
    or the memory read's keys and values from memory_read.onnx (a per-layer step, format 3)."""
    if mem_tgt is None:
        return {}
    if "memory_read" in s:
        return run_graph(s["memory_read"], {"mem_tgt": mem_tgt})
    return {"mem_tgt": mem_tgt}


def make_decoder(s: dict[str, ort.InferenceSession], info: BundleManifest, src: np.ndarray, cross_k: np.ndarray,
                 cross_v: np.ndarray, mem_tgt: np.ndarray | None, keep_states: bool = False,
                 beam: int = 1) -> _Decoder | BoundDecoder:
    """The step decoder for a search of ``beam`` beams over the rows of ``src`` (the inputs one row
    per search row; the decoder gives rows x beam): on a GPU the cache stays on the device (I/O
    binding), and the states stay there too (``keep_states`` is for the CPU decoder: decoder_full
    runs instead)."""
    device = device_of(s["decoder"])
    if device == "cpu" and not BIND_ON_CPU:
        return _Decoder(s["decoder"], info, src, cross_k, cross_v, memory_inputs(s, mem_tgt), s["topk"],
                        keep_states, s.get("best"), beam)
    # The bound decoder takes its rows x beam at once.
    mem_tgt = None if mem_tgt is None else np.repeat(mem_tgt, beam, axis=0)
    return BoundDecoder(s["decoder"], info, np.repeat(src, beam, axis=0), np.repeat(cross_k, beam, axis=1),
                        np.repeat(cross_v, beam, axis=1), memory_inputs(s, mem_tgt), s["topk"], s["reorder"], device)


class OnnxTranslator:
    """A :class:`~doctrans.engine.interface.Translator` over an exported model bundle."""

    def __init__(self, info: BundleManifest, sessions: dict[str, ort.InferenceSession], tokenizer: Tokenizer,
                 memory_init: dict[str, np.ndarray], options: _Options, direction: Direction | None = None,
                 tag_ids: dict[Direction, int] | None = None, glossary: Glossary | None = None):
        self.info = info
        # Verbatim placeholders the vocabulary has (0: a bundle from before they existed, which
        # is not masked; see doctrans.engine.protect) and the user's glossary (--glossary).
        self.placeholders = tokenizer.placeholder_count()
        self.glossary = glossary
        self.sessions = sessions
        self.tokenizer = tokenizer
        self.memory_init = memory_init
        self.options = options
        self.tag_ids = tag_ids or {}
        self.direction = direction or select_direction(info)
        self.src_lang = self.direction.src
        self.tgt_lang = self.direction.tgt
        # The direction's tag before the sentence (none for a one-direction bundle without tags).
        self.source_prefix = [self.tag_ids[self.direction]] if self.direction.tag else []
        # The tag takes one of the model's source positions: callers split text to fit the rest.
        self.max_source_tokens = info.max_source_tokens - len(self.source_prefix)

    @property
    def directions(self) -> list[tuple[str, str]]:
        """Every (src, tgt) the bundle translates; :meth:`with_direction` switches between them."""
        return [(d.src, d.tgt) for d in self.info.directions]

    def with_direction(self, src: str | None = None, tgt: str | None = None) -> OnnxTranslator:
        """This bundle translating ``src`` -> ``tgt`` (one of :attr:`directions`), sharing the ONNX
        sessions and options: a folder of Chinese and English documents loads the model once."""
        direction = select_direction(self.info, src, tgt)
        return OnnxTranslator(self.info, self.sessions, self.tokenizer, self.memory_init, self.options,
                              direction, self.tag_ids, self.glossary)

    def with_glossary(self, glossary: Glossary | None) -> OnnxTranslator:
        """This translator applying ``glossary`` (None: none), sharing the ONNX sessions; a
        direction taken later with :meth:`with_direction` keeps it."""
        return OnnxTranslator(self.info, self.sessions, self.tokenizer, self.memory_init, self.options,
                              self.direction, self.tag_ids, glossary)

    def prepare(self, sentence: str, quoted_alone: bool = False) -> Prepared:
        """What the model reads for ``sentence`` (masked spans and glossary terms; see
        doctrans.engine.protect). ``quoted_alone``: its short quoted terms are translated first,
        each alone in a fresh session (doctrans.quoted_terms)."""
        return prepare(sentence, self.placeholders, self.glossary, self.tgt_lang, self.src_lang,
                       alone=self.translate_alone if quoted_alone else None)

    def translate_alone(self, text: str) -> str:
        """``text`` translated on its own: a fresh session, so no document's memory is read or
        written; empty when the model is unsure of it (a normalised log-probability under
        :data:`ALONE_MIN_SCORE`: ``一带一路`` alone came back "One of the road", -0.81)."""
        result = self.new_document(return_attention=False).translate(text)
        return result.translation if result.score is None or result.score >= ALONE_MIN_SCORE else ""

    def source_ids(self, sentence: str) -> list[int]:
        """What the encoder reads for ``sentence``: [tag] + pieces (cut to fit) + [EOS]."""
        pieces = self.tokenizer.encode(sentence)[: self.max_source_tokens]
        return [*self.source_prefix, *pieces, self.info.eos_id]

    @classmethod
    def load(cls, bundle_dir: str | Path, beam_size: int = 5, length_penalty: float | None = None,
             max_length: int | None = None, return_attention: bool = False,
             providers: list[str] | None = None, threads: int | None = None,
             no_repeat_ngram: int | None = None, src: str | None = None,
             tgt: str | None = None, max_repeat_run: int | None = None,
             new_digits: bool = False, any_script: bool = False, any_spelling: bool = False) -> OnnxTranslator:
        """Open and check a bundle. ``max_length`` caps generated tokens per sentence (the model's
        own limit ``min(max_len - 1, 2 * src_len + 10)`` always applies); ``threads``: ORT
        intra-op threads (default: $DOCTRANS_THREADS, else :func:`default_threads`);
        ``no_repeat_ngram``, ``length_penalty``, ``max_repeat_run`` (the stutter guard,
        doctrans.engine.repeats): default from the bundle's model.json ``decoding``. ``new_digits``:
        let a translation write digits its source (figures masked) has none of; off by default,
        so a model cannot invent a figure. ``any_script``: let a translation into a language not
        written in Han characters write them (off: Tokenizer.han_ids are banned); the export's
        parity check and the speed scoreboard compare the search with PyTorch's, which has neither ban.
        ``any_spelling``: keep the search's pick when it spells a word wrong (no n-best pick, no wider
        search for it: doctrans.engine.protect.Prepared.choose), as PyTorch's search does.
        ``src``/``tgt``: the direction, required (one of them is enough) for a bundle that
        translates several; a one-direction bundle needs neither."""
        if beam_size < 1:
            raise ValueError(f"beam_size must be >= 1, got {beam_size}")
        info = read_bundle(bundle_dir)
        direction = select_direction(info, src, tgt)  # before the graphs load: a wrong choice fails fast
        if threads is None:
            threads = env_threads() or default_threads(info.d_model)
        so = session_options(threads)
        providers = providers or default_providers()
        sessions = {}
        for name in info.graph_names():
            try:
                sess = ort.InferenceSession(str(info.file(name)), so, providers=providers)
            except Exception as e:  # ORT raises its own exception types for a broken file
                raise BundleError(f"{info.file(name)}: ONNX Runtime cannot load it "
                                  f"({str(e).splitlines()[0][:200]})") from None
            check_graph_inputs(info, name, {i.name: list(i.shape) for i in sess.get_inputs()})
            sessions[name] = sess
        per_layer = StepLayout.of(sessions["decoder"], info.dec_layers).per_layer
        if "tgt" in info.mem_sides and "memory_read" not in sessions and per_layer:
            raise BundleError(f"{info.path}: incomplete bundle, its per-layer {GRAPH_FILES['decoder']} needs "
                              f"{GRAPH_FILES['memory_read']}, which model.json does not list")
        # Not bundle graphs: the search's candidate selection (doctrans.engine.topk) and the KV-cache
        # reorder on the decoder's device (doctrans.engine.device), for any bundle.
        sessions["topk"] = topk_session(so, providers)
        sessions["best"] = topk_session(so, providers, log_softmax=False)
        sessions["reorder"] = reorder_session(so, providers, per_layer)
        memory_init = load_memory_init(info)
        # After the structural checks (their messages are more specific): same-size garbage in a
        # file passes them all, and only the digests in model.json can tell.
        verify_bundle_files(info.path, info)
        tokenizer = Tokenizer(info.path / SPM_FILE, info.vocab_size)
        return cls(info, sessions, tokenizer, memory_init,
                   _Options(beam_size, info.length_penalty if length_penalty is None else length_penalty,
                            max_length, return_attention,
                            info.no_repeat_ngram if no_repeat_ngram is None else no_repeat_ngram,
                            info.max_repeat_run if max_repeat_run is None else max_repeat_run, new_digits,
                            any_script, any_spelling),
                   direction, direction_tag_ids(info, tokenizer.piece_id))

    @classmethod
    def load_each_direction(cls, bundle_dir: str | Path, **options: Any) -> list[OnnxTranslator]:
        """One translator per direction of the bundle (in model.json order), loaded once; the
        export and weight-sharing checks run every direction through this."""
        first = read_bundle(bundle_dir).directions[0]
        translator = cls.load(bundle_dir, **options, src=first.src, tgt=first.tgt)
        return [translator, *(translator.with_direction(s, t) for s, t in translator.directions[1:])]

    # -- Translator protocol ----------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text))

    def new_document(self, memory: MemoryState | None = None, **options: Any) -> OnnxDocumentSession:
        """A session with M_0, or resumed from ``memory`` (as returned by ``session.memory``).
        ``options`` override the translator's beam_size / length_penalty / max_length /
        return_attention for this document."""
        return OnnxDocumentSession(self, memory, self.options.override(**options))

    # -- CTranslate2-like convenience ---------------------------------------------------------
    def translate_document(self, sentences: list[str], *, beam_size: int | None = None,
                           length_penalty: float | None = None, max_length: int | None = None,
                           return_attention: bool | None = None,
                           memory: MemoryState | None = None) -> list[SentenceResult]:
        """Translate one document's sentences in order through one memory (options as in load)."""
        session = self.new_document(memory, beam_size=beam_size, length_penalty=length_penalty,
                                    max_length=max_length, return_attention=return_attention)
        return [session.translate(s) for s in sentences]

    @property
    def providers(self) -> list[str]:
        return self.sessions["encoder"].get_providers()


class OnnxDocumentSession:
    """One document: translates sentences in order and carries its memory (batch of one)."""

    def __init__(self, tr: OnnxTranslator, memory: MemoryState | None, options: _Options):
        self.tr = tr
        self.options = options
        info = tr.info
        mem = tr.memory_init if memory is None else memory
        self._mem: dict[str, np.ndarray] = {}
        for side in info.mem_sides:
            if side not in mem:
                raise ValueError(f"memory to resume from has no {side!r} side (has {sorted(mem)})")
            m = np.asarray(mem[side], dtype=np.float32)
            if m.shape != tr.memory_init[side].shape:
                raise ValueError(f"memory side {side!r} has shape {m.shape}, this model's is "
                                 f"{tr.memory_init[side].shape}")
            self._mem[side] = m[None].copy()  # (1, layers, slots, d)

    @property
    def memory(self) -> MemoryState:
        return {side: m[0].copy() for side, m in self._mem.items()}

    def translate(self, sentence: str) -> SentenceResult:
        """Translate the next sentence of the document, keeping its verbatim spans (numbers, codes,
        URLs...) and applying the glossary: see doctrans.engine.protect."""
        tr, info, opt = self.tr, self.tr.info, self.options
        prep = tr.prepare(sentence, quoted_alone=True)
        if prep.model_text is None:
            # Nothing to translate: copied without calling the model, so the memory does not see
            # it. That is fine: a bare number or URL tells later sentences nothing about the
            # document's terms or style, and the memory then stays what the sentences around it
            # wrote (as it would for a table cell the reader skips).
            return SentenceResult(source=sentence, translation=prep.copy or "", copied=True)
        # The memory update rebinds each side's array and never writes into one, so the arrays
        # the dict holds now are the memory before this sentence: no copy needed.
        memory_before = dict(self._mem)
        ids, hyp, extras = self._search(prep)
        restored = prep.restore(tr.tokenizer.decode(hyp.tokens))
        keep = prep.names_to_keep(restored.text)
        if keep:
            # The model made a known place of a name it never learned: again, from the memory
            # before, with the source's rare names kept as written (Siracusa, not 西雅图).
            kept = tr.with_glossary((tr.glossary or Glossary([])).with_kept(keep))
            again = kept.prepare(sentence, quoted_alone=True)
            if again.model_text is not None:
                self._mem = memory_before
                prep = again
                ids, hyp, extras = self._search(prep)
                restored = prep.restore(tr.tokenizer.decode(hyp.tokens))
        tgt_in = [info.bos_id, *hyp.tokens]
        attention = None
        if opt.return_attention:
            attention = SentenceAttention(
                src_update=extras.get("src_update_attn"), tgt_update=extras.get("tgt_update_attn"),
                src_output=extras.get("src_output_attn"), tgt_output=extras.get("tgt_output_attn"))
        # Token lists match the attention axes one to one: the source with its tag (if any) and
        # EOS, the target input with its BOS (the positions the memory reads and writes).
        return SentenceResult(source=sentence, translation=restored.text,
                              src_tokens=tr.tokenizer.pieces(ids), tgt_tokens=tr.tokenizer.pieces(tgt_in),
                              score=hyp.score, attention=attention, notes=restore_warnings(restored, prep.masked))

    def _search(self, prep: Prepared) -> tuple[list[int], Hypothesis, dict[str, np.ndarray]]:
        """The source ids of ``prep``'s model text and the hypothesis the search keeps for it
        (``Prepared.choose``); updates the memory."""
        tr = self.tr
        assert prep.model_text is not None
        ids = tr.source_ids(prep.model_text)

        def choose(hyps: list[Hypothesis], wider: Callable[[], list[Hypothesis]] | None) -> Hypothesis:
            return prep.choose(hyps, lambda h: tr.tokenizer.decode(h.tokens), wider,
                               spelling=not self.options.any_spelling)

        hyp, extras = self.translate_ids(np.asarray([ids], dtype=np.int64), self.options, choose=choose)
        return ids, hyp, extras

    def force(self, sentence: str, translation: str) -> SentenceResult:
        """Take ``translation`` as this sentence's translation and update the memory from it.

        For a person's edit (the TUI): no beam search; the target memory is written from the
        teacher-forced states of the *given* tokens (decoder_full + memory_update), exactly as
        if the model had produced them, so later sentences read the edited translation.
        ``score`` is the model's normalized log-probability of the given translation.
        """
        tr, info, opt = self.tr, self.tr.info, self.options
        prep = tr.prepare(sentence)
        if prep.model_text is None:  # as in translate(): never fed to the model, not in the memory
            return SentenceResult(source=sentence, translation=translation, copied=True)
        ids = tr.source_ids(prep.model_text)
        # The model reads the sentence masked as translate() gives it, and the person's words with
        # the same spans masked (verbatim.remask): the memory sees what it would see from the model.
        target = prep.model_target(translation)
        # BOS + tokens must fit the target position table, like a generated hypothesis.
        forced = tr.tokenizer.encode(target)[: info.max_len - 1]
        hyp, extras = self.translate_ids(np.asarray([ids], dtype=np.int64), opt, forced=forced)
        attention = None
        if opt.return_attention:
            attention = SentenceAttention(
                src_update=extras.get("src_update_attn"), tgt_update=extras.get("tgt_update_attn"),
                src_output=extras.get("src_output_attn"), tgt_output=extras.get("tgt_output_attn"))
        return SentenceResult(source=sentence, translation=translation, src_tokens=tr.tokenizer.pieces(ids),
                              tgt_tokens=tr.tokenizer.pieces([info.bos_id, *hyp.tokens]), score=hyp.score,
                              attention=attention)

    def translate_ids(self, src: np.ndarray, opt: _Options | None = None, forced: list[int] | None = None,
                      choose: Callable[[list[Hypothesis], Callable[[], list[Hypothesis]] | None], Hypothesis]
                      | None = None,
                      ) -> tuple[Hypothesis, dict[str, np.ndarray]]:
        """One sentence as ids (1, T) with EOS -> best hypothesis; updates the memory.

        ``forced`` (target ids without BOS/EOS) replaces the beam search: the hypothesis is
        those tokens, scored by decoder_full. ``choose`` is given the n-best (best first) and a
        wider search to run if none of them will do (None when the beam is as wide as it goes), and
        returns the hypothesis to keep (doctrans.engine.protect.Prepared.choose: the placeholder
        and negation fallbacks); the memory is written once, from the kept hypothesis. Returns
        also the attention maps of the top memory layer, (heads, rows, cols) each.
        """
        tr, info = self.tr, self.tr.info
        opt = opt or self.options
        s = tr.sessions
        extras: dict[str, np.ndarray] = {}
        enc = encode(s, src, self._mem)
        if "src_output_attn" in enc:
            extras["src_output_attn"] = enc["src_output_attn"][0, -1]

        mem_tgt = self._mem.get("tgt")
        if forced is not None:
            hyp = Hypothesis(list(forced), 0.0)  # scored below, from decoder_full's logits
        else:
            limit = max_new_tokens(src.shape[1], info.max_len)
            if opt.max_length is not None:
                limit = max(1, min(limit, opt.max_length))

            # The chosen hypothesis' target states from the search itself, unless the viewer wants
            # decoder_full's output attention anyway.
            keep_states = mem_tgt is not None and not opt.return_attention

            never, once = tr.tokenizer.search_bans(src[0].tolist(), opt.new_digits, opt.bans_for(tr.tgt_lang))

            def search(K: int) -> list[Hypothesis]:
                dec = make_decoder(s, info, src, enc["cross_k"], enc["cross_v"], mem_tgt, keep_states, beam=K)
                return beam_search_n_best(dec, 1, K, [limit], info.bos_id, info.eos_id, opt.length_penalty,
                                          opt.no_repeat_ngram, tr.tokenizer.repeat_guard(opt.max_repeat_run),
                                          [never], [once])[0] or [Hypothesis([], 0.0)]

            hyps = search(opt.beam_size)
            hyp = hyps[0]
            if choose is not None:
                wider = fallback_beam(opt.beam_size)
                hyp = choose(hyps, (lambda: search(wider)) if wider else None)

        if not self._mem and forced is None:
            return hyp, extras
        tgt = np.asarray([[info.bos_id, *hyp.tokens]], dtype=np.int64)
        if forced is None and (hyp.states is not None or mem_tgt is None) and not opt.return_attention:
            # The target states came with the hypothesis (or the model has no target memory).
            full = {} if hyp.states is None else {"h_tgt": hyp.states}
        else:
            full = decode_full(s, tgt, src, enc, mem_tgt)
            if "tgt_output_attn" in full:
                extras["tgt_output_attn"] = full["tgt_output_attn"][0, -1]
            if forced is not None:
                hyp.score = _forced_score(full["logits"][0], [*hyp.tokens, info.eos_id], opt.length_penalty)
        if not self._mem:
            return hyp, extras

        upd = update_memory(s, self._mem, src, enc, tgt, full)
        for side in self._mem:
            self._mem[side] = upd[f"mem_{side}_next"]
            extras[f"{side}_update_attn"] = upd[f"{side}_update_attn"][0, -1]
        return hyp, extras


# The three graphs around the search, run the same way for one document (OnnxDocumentSession) and
# for a batch of documents (doctrans.engine.batch): ``mem`` maps a side to its (B, ...) memory.
def run_graph(sess: ort.InferenceSession, feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One ONNX graph run; its outputs by name."""
    return dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feed), strict=True))


def encode(sessions: dict[str, ort.InferenceSession], src: np.ndarray,
           mem: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The encoder over ``src`` reading the source-side memory (if the model has one)."""
    feed = {"src_ids": src}
    if "src" in mem:
        feed["mem_src"] = mem["src"]
    return run_graph(sessions["encoder"], feed)


def decode_full(sessions: dict[str, ort.InferenceSession], tgt: np.ndarray, src: np.ndarray,
                enc: dict[str, np.ndarray], mem_tgt: np.ndarray | None) -> dict[str, np.ndarray]:
    """The decoder teacher-forced over ``tgt`` (BOS + chosen tokens): the target states the
    memory update writes, the output attention, the logits of a forced translation."""
    feed = {"tgt_ids": tgt, "src_ids": src, "cross_k": enc["cross_k"], "cross_v": enc["cross_v"]}
    if mem_tgt is not None:
        feed["mem_tgt"] = mem_tgt
    return run_graph(sessions["decoder_full"], feed)


def update_memory(sessions: dict[str, ort.InferenceSession], mem: dict[str, np.ndarray], src: np.ndarray,
                  enc: dict[str, np.ndarray], tgt: np.ndarray, full: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every side's memory written with the sentence pair: ``mem_<side>_next`` and the attention."""
    feed: dict[str, np.ndarray] = {}
    if "src" in mem:
        feed.update(mem_src=mem["src"], h_src=enc["h_src"], src_ids=src)
    if "tgt" in mem:
        feed.update(mem_tgt=mem["tgt"], h_tgt=full["h_tgt"], tgt_ids=tgt)
    return run_graph(sessions["memory_update"], feed)


def _forced_score(logits: np.ndarray, targets: list[int], length_penalty: float) -> float:
    """Normalized log-probability of ``targets`` under teacher-forced ``logits`` (T, V), with the
    beam search's normalization (``logprob / len ** length_penalty``, EOS counted)."""
    x = logits.astype(np.float64)
    logp = x - x.max(-1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
    total = float(logp[np.arange(len(targets)), targets].sum())
    return total / len(targets) ** length_penalty


def default_threads(d_model: int) -> int | None:
    """One intra-op thread for models up to d_model 512, ORT's choice (the cores) above.

    A decoder step of a small model is a few million multiply-adds, and an encoder pass over one
    sentence little more: splitting them over threads costs more in synchronisation than it saves.
    Measured on this project's 2-core machine: the zh-en small model (d=256, beam 5) 25 ms/sentence
    with one thread vs 56 ms with two; the GPU model (d=384, 8+2 layers) translating the 331-sentence
    shared-mime-info spec PDF en->zh 24.5 s and 23.2 s with one thread, 44.9 s and 40.5 s with two
    (the default before, ORT's choice: the cores).
    """
    return 1 if d_model <= 512 else None


def env_threads() -> int | None:
    """DOCTRANS_THREADS, if set: lets a user cap ORT's threads without a CLI flag."""
    v = os.environ.get("DOCTRANS_THREADS")
    return int(v) if v and v.isdigit() else None
