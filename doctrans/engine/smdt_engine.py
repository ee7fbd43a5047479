"""The engine of an SMDT bundle (retrieval-augmented, ``training/smdt.py``): sentence by sentence, each
sentence with the pairs retrieved for it from the user's translation memory.

Per sentence (``SMDTDocumentSession.translate``)::

    retrieve(sentence)                    -> up to k (source, target) pairs from the TM (fuzzy, >= threshold)
    smdt_encoder(sentence </s> pairs...)  -> cross K/V, src_info (the selection layer's keep/drop inside)
    beam search over smdt_decoder(step)   -> best hypothesis (KV cache: local + global self-attention)

There is no document memory: what an SMDT model knows beyond the sentence is what the TM gives it.
The retrieval is a callable (``with_retrieval``; the CLI builds it from ``--tm``/``--local-tm`` with
``doctrans.tm.run.RunTM.retriever``); without one, or when the TM has nothing above the
threshold, the sentence goes in alone -- the form the model was trained on when BM25 found no
neighbour. Exact TM matches never get here: the translation loop reuses them verbatim
(``force``), as for the memory model. Verbatim spans are masked as for the memory model
(``doctrans.engine.protect``); the retrieved pairs are fed as their text, unmasked.

The search is the engine's (``doctrans.engine.beam``), driven so that it makes the choices of
``training.gtransformer.beam_search_encoded`` (the PyTorch reference, which the export checks
this engine against): ``<pad>`` and ``<s>`` are never chosen (the search's ``forbid`` sets their
log-probabilities, taken over the whole vocabulary, to -inf: nothing is renormalised), and at the
sentence's length limit only ``</s>`` is allowed, with its log-probability over the whole
vocabulary, so every hypothesis ends with one. Like the memory engine, a sentence without a digit
(as the model reads it) may not get one (``new_digits=True`` allows it, as PyTorch's search does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from doctrans.bundle_manifest import SPM_FILE, BundleManifest, Direction
from doctrans.engine.beam import Hypothesis, beam_search_n_best, log_softmax, max_new_tokens
from doctrans.engine.bundle import read_bundle, select_direction
from doctrans.engine.errors import BundleError
from doctrans.engine.integrity import verify_bundle_files
from doctrans.engine.interface import MemoryState, SentenceResult
from doctrans.engine.onnx_engine import (
    _Options,
    default_providers,
    default_threads,
    env_threads,
    fallback_beam,
    run_graph,
    session_options,
)
from doctrans.engine.protect import Prepared, prepare
from doctrans.engine.smdt_source import EncoderInput, sentence_instance
from doctrans.engine.tokenizer import Tokenizer
from doctrans.glossary import Glossary
from doctrans.verbatim import restore_warnings

# Source text -> (source, target) pairs of the TM, best first (the engine takes the first k).
Retrieve = Callable[[str], list[tuple[str, str]]]
IdPairs = Sequence[tuple[Sequence[int], Sequence[int]]]

ENCODER_INPUTS = ["meta", "positions", "src_ids"]
DECODER_INPUTS = sorted(["tokens", "step", "src_info", "cross_k", "cross_v", "cross_gk", "cross_gv",
                         "past_k", "past_v", "past_gk", "past_gv"])


class SMDTDecoder:
    """Drives smdt_decoder.onnx for the beam search over K rows of one sentence."""

    def __init__(self, sess: ort.InferenceSession, info: BundleManifest, enc: dict[str, np.ndarray], rows: int,
                 limit: int) -> None:
        global_layers = _smdt(info)["global_layers"]

        def empty(layers: int) -> np.ndarray:
            return np.zeros((layers, rows, info.n_heads, 0, info.d_head), dtype=np.float32)

        self.sess = sess
        self.feed: dict[str, np.ndarray] = {
            "src_info": np.repeat(enc["src_info"], rows, axis=0),
            **{k: np.repeat(enc[k], rows, axis=1) for k in ("cross_k", "cross_v", "cross_gk", "cross_gv")},
            "past_k": empty(info.dec_layers), "past_v": empty(info.dec_layers),
            "past_gk": empty(global_layers), "past_gv": empty(global_layers)}
        self.pad_id, self.eos_id = info.pad_id, info.eos_id
        self.limit = limit
        self.identity = np.arange(rows)

    def _logits(self, tokens: np.ndarray, t: int) -> np.ndarray:
        self.feed["tokens"] = tokens
        self.feed["step"] = np.array(t, dtype=np.int64)
        logits, self.feed["past_k"], self.feed["past_v"], self.feed["past_gk"], self.feed["past_gv"] = \
            self.sess.run(None, self.feed)
        return logits

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        """The logits; at the sentence's last position (beam_search_encoded's rule) only ``</s>``, with
        its log-probability over the whole vocabulary and the rest of the mass on ``<pad>`` -- which
        the search forbids -- so the search's log-softmax leaves ``</s>``'s value as it is."""
        logits = self._logits(tokens, t)
        if t + 1 < self.limit:
            return logits
        eos = log_softmax(logits)[:, self.eos_id]
        out = np.full_like(logits, -np.inf, dtype=np.float32)
        out[:, self.eos_id] = eos
        with np.errstate(divide="ignore"):  # p(</s>) = 1: nothing left for <pad>, log 0 = -inf
            out[:, self.pad_id] = np.log1p(-np.exp(eos))
        return out

    def reorder(self, origin: np.ndarray) -> None:
        if np.array_equal(origin, self.identity):
            return
        for name in ("past_k", "past_v", "past_gk", "past_gv"):
            self.feed[name] = np.take(self.feed[name], origin, axis=1)


def _smdt(info: BundleManifest) -> dict[str, int]:
    if info.smdt is None:
        raise BundleError(f"{info.path}: not an SMDT bundle (model.json has no 'smdt')")
    return info.smdt


def check_smdt_graph_inputs(info: BundleManifest, name: str, inputs: list[str]) -> None:
    want = ENCODER_INPUTS if name == "smdt_encoder" else DECODER_INPUTS
    if sorted(inputs) != want:
        raise BundleError(f"{info.file(name)}: takes inputs {sorted(inputs)}, an SMDT {name} needs {want}")


class SMDTTranslator:
    """A :class:`~doctrans.engine.interface.Translator` over an SMDT bundle (see the module docstring)."""

    def __init__(self, info: BundleManifest, sessions: dict[str, ort.InferenceSession], tokenizer: Tokenizer,
                 options: _Options, direction: Direction, glossary: Glossary | None = None,
                 retrieve: Retrieve | None = None) -> None:
        self.info = info
        self.sessions = sessions
        self.tokenizer = tokenizer
        self.options = options
        self.direction = direction
        self.src_lang, self.tgt_lang = direction.src, direction.tgt
        self.glossary = glossary
        self.retrieve = retrieve
        self.placeholders = tokenizer.placeholder_count()
        self.max_source_tokens = info.max_source_tokens
        self.retrieve_k = _smdt(info)["retrieve_k"]
        self.sep_id = _smdt(info)["sep_id"]

    @classmethod
    def load(cls, bundle_dir: str | Path, beam_size: int = 5, length_penalty: float | None = None,
             max_length: int | None = None, return_attention: bool = False,
             providers: list[str] | None = None, threads: int | None = None,
             no_repeat_ngram: int | None = None, src: str | None = None,
             tgt: str | None = None, max_repeat_run: int | None = None, new_digits: bool = False,
             any_script: bool = False, any_spelling: bool = False) -> SMDTTranslator:
        """Open and check an SMDT bundle; the options are ``OnnxTranslator.load``'s (``return_attention``
        is accepted and gives no maps: an SMDT model has no memory to show)."""
        if beam_size < 1:
            raise ValueError(f"beam_size must be >= 1, got {beam_size}")
        info = read_bundle(bundle_dir)
        _smdt(info)
        direction = select_direction(info, src, tgt)
        so = session_options(threads if threads is not None else env_threads() or default_threads(info.d_model))
        sessions = {}
        for name in info.graph_names():
            try:
                sess = ort.InferenceSession(str(info.file(name)), so, providers=providers or default_providers())
            except Exception as e:  # ORT raises its own exception types for a broken file
                raise BundleError(f"{info.file(name)}: ONNX Runtime cannot load it "
                                  f"({str(e).splitlines()[0][:200]})") from None
            check_smdt_graph_inputs(info, name, [i.name for i in sess.get_inputs()])
            sessions[name] = sess
        verify_bundle_files(info.path, info)
        tokenizer = Tokenizer(info.path / SPM_FILE, info.vocab_size)
        options = _Options(beam_size, info.length_penalty if length_penalty is None else length_penalty,
                           max_length, return_attention,
                           info.no_repeat_ngram if no_repeat_ngram is None else no_repeat_ngram,
                           info.max_repeat_run if max_repeat_run is None else max_repeat_run, new_digits,
                           any_script, any_spelling)
        return cls(info, sessions, tokenizer, options, direction)

    def _copy(self, **changes: Any) -> SMDTTranslator:
        fields = {"info": self.info, "sessions": self.sessions, "tokenizer": self.tokenizer, "options": self.options,
                  "direction": self.direction, "glossary": self.glossary, "retrieve": self.retrieve}
        return SMDTTranslator(**{**fields, **changes})

    @property
    def directions(self) -> list[tuple[str, str]]:
        return [(d.src, d.tgt) for d in self.info.directions]

    def with_direction(self, src: str | None = None, tgt: str | None = None) -> SMDTTranslator:
        return self._copy(direction=select_direction(self.info, src, tgt))

    def with_glossary(self, glossary: Glossary | None) -> SMDTTranslator:
        return self._copy(glossary=glossary)

    def with_retrieval(self, retrieve: Retrieve | None) -> SMDTTranslator:
        """This translator reading, for every sentence, the pairs ``retrieve`` finds (None: none)."""
        return self._copy(retrieve=retrieve)

    def prepare(self, sentence: str) -> Prepared:
        return prepare(sentence, self.placeholders, self.glossary, self.tgt_lang, self.src_lang)

    def source_ids(self, sentence: str) -> list[int]:
        """The sentence's pieces (cut to fit) + EOS: the document part of the encoder's input."""
        return [*self.tokenizer.encode(sentence)[: self.max_source_tokens], self.info.eos_id]

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text))

    def pairs_for(self, sentence: str) -> list[tuple[str, str]]:
        """The TM pairs the model reads with ``sentence`` (at most the k it was trained with)."""
        if self.retrieve is None or self.retrieve_k == 0:
            return []
        return list(self.retrieve(sentence))[: self.retrieve_k]

    def new_document(self, memory: MemoryState | None = None, **options: Any) -> SMDTDocumentSession:
        """A session; ``memory`` is accepted for the interface (an SMDT model has none: {})."""
        return SMDTDocumentSession(self, self.options.override(**options))

    def translate_document(self, sentences: list[str], **options: Any) -> list[SentenceResult]:
        session = self.new_document(**options)
        return [session.translate(s) for s in sentences]

    @property
    def providers(self) -> list[str]:
        return self.sessions["smdt_encoder"].get_providers()


class SMDTDocumentSession:
    """One document, sentence by sentence; nothing is carried from one sentence to the next."""

    def __init__(self, tr: SMDTTranslator, options: _Options) -> None:
        self.tr = tr
        self.options = options
        self.last_pairs: list[tuple[str, str]] = []  # what the last translate() fed (tests, inspection)

    @property
    def memory(self) -> MemoryState:
        return {}

    def translate(self, sentence: str) -> SentenceResult:
        tr = self.tr
        prep = tr.prepare(sentence)
        if prep.model_text is None:  # nothing to translate (a number, a URL): copied
            self.last_pairs = []
            return SentenceResult(source=sentence, translation=prep.copy or "", copied=True)
        self.last_pairs = tr.pairs_for(sentence)
        pairs = [(tr.tokenizer.encode(x), tr.tokenizer.encode(y)) for x, y in self.last_pairs]
        ids = tr.source_ids(prep.model_text)

        def choose(hyps: list[Hypothesis], wider: Callable[[], list[Hypothesis]] | None) -> Hypothesis:
            return prep.choose(hyps, lambda h: tr.tokenizer.decode(h.tokens), wider,
                               spelling=not self.options.any_spelling)

        hyp = self.translate_ids(ids[:-1], pairs, choose=choose)
        restored = prep.restore(tr.tokenizer.decode(hyp.tokens))
        return SentenceResult(source=sentence, translation=restored.text, src_tokens=tr.tokenizer.pieces(ids),
                              tgt_tokens=tr.tokenizer.pieces([tr.info.bos_id, *hyp.tokens]), score=hyp.score,
                              notes=restore_warnings(restored, prep.masked))

    def force(self, sentence: str, translation: str) -> SentenceResult:
        """A TM hit or a person's edit: kept as given. With no document memory there is nothing to
        write, so the model is not run (score 0)."""
        prep = self.tr.prepare(sentence)
        if prep.model_text is None:
            return SentenceResult(source=sentence, translation=translation, copied=True)
        target = prep.model_target(translation)  # masked as the model would have written it
        ids = self.tr.source_ids(prep.model_text)
        return SentenceResult(source=sentence, translation=translation, src_tokens=self.tr.tokenizer.pieces(ids),
                              tgt_tokens=self.tr.tokenizer.pieces([self.tr.info.bos_id,
                                                                   *self.tr.tokenizer.encode(target)]))

    def encode(self, sentence: Sequence[int], pairs: IdPairs) -> tuple[EncoderInput, dict[str, np.ndarray]]:
        """The encoder over the sentence (ids, no EOS) and its pairs -> (its input, its outputs by name)."""
        info = self.tr.info
        inst = sentence_instance(sentence, pairs, info.max_len, info.eos_id, self.tr.sep_id)
        out = run_graph(self.tr.sessions["smdt_encoder"],
                        {"src_ids": inst.src_ids, "positions": inst.positions, "meta": inst.meta})
        return inst, out

    def translate_ids(self, sentence: Sequence[int], pairs: IdPairs, opt: _Options | None = None,
                      choose: Callable[[list[Hypothesis], Callable[[], list[Hypothesis]] | None], Hypothesis]
                      | None = None) -> Hypothesis:
        """One sentence as ids (no EOS) with its retrieved pairs as ids -> the best hypothesis;
        ``choose`` as in ``OnnxDocumentSession.translate_ids`` (the placeholder fallback)."""
        tr, info = self.tr, self.tr.info
        opt = opt or self.options
        inst, enc = self.encode(sentence, pairs)
        limit = max_new_tokens(inst.sentence_tokens, info.max_len)
        if opt.max_length is not None:
            limit = max(1, min(limit, opt.max_length))

        never = np.asarray([info.pad_id, info.bos_id], dtype=np.int64)  # fed by the search, never chosen
        banned, once = tr.tokenizer.search_bans(list(sentence), opt.new_digits, opt.bans_for(tr.tgt_lang))
        forbid = np.union1d(never, banned)

        def search(K: int) -> list[Hypothesis]:
            dec = SMDTDecoder(tr.sessions["smdt_decoder"], info, enc, K, limit)
            return beam_search_n_best(dec, 1, K, [limit], info.bos_id, info.eos_id, opt.length_penalty,
                                      opt.no_repeat_ngram, tr.tokenizer.repeat_guard(opt.max_repeat_run),
                                      [forbid], [once])[0] or [Hypothesis([], 0.0)]

        hyps = search(opt.beam_size)
        if choose is None:
            return hyps[0]
        wider = fallback_beam(opt.beam_size)
        return choose(hyps, (lambda: search(wider)) if wider else None)
