"""Translate a corpus document by document with the memory loop and score it with sacreBLEU.

    python -m training.evaluate runs/zh_en_s2/best.pt --data ../shared/data/tvsub-zh-en/dev.jsonl.xz \\
        --src zh --tgt en --beam 5 --out runs/zh_en_s2/dev.hyp

- s-BLEU: corpus BLEU over sentences (sentence i of the hypothesis vs sentence i of the reference).
- d-BLEU: each document's sentences joined with a space into one segment, corpus BLEU over
  documents (G-Transformer, Bao et al. 2021, appendix A).

References that are Moses-tokenized and partly lower-cased (the TVsub dev set: ``it 's``,
``don 't``, ``okay , this``) are detected, and then the hypotheses are Moses-tokenized the same way
(sacremoses) and both sides are scored case-insensitively with sacreBLEU's ``none``
tokenizer; the printed line says so. Chinese targets use sacreBLEU's ``zh`` tokenizer.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import sacrebleu
import sentencepiece as spm
import torch

from doctrans.direction_terms import automatic_terms
from doctrans.verbatim import protected_spans
from training.approaches import translate_documents  # any --approach
from training.checkpoint import CheckpointError, load_model
from training.data import DataError, read_documents
from training.moses_text import looks_tokenized, untokenized_side


@dataclass
class Scores:
    s_bleu: float
    d_bleu: float
    signature: str
    scoring: str
    n_sentences: int
    n_documents: int
    seconds: float
    tokens_per_s: float
    # What a translation must not change (doctrans.verbatim): the numbers, codes, URLs... the rules
    # find in the source sentences, and how many of them the hypotheses have byte for byte.
    spans: int = 0
    spans_kept: int = 0
    # Bundles that mask: spans the model dropped and the engine put back at their relative position.
    spans_placed: int = 0
    # Latin names the direction keeps as they are (doctrans.kept_names), and how many hypotheses have.
    names: int = 0
    names_kept: int = 0

    def line(self) -> str:
        kept = f", spans kept {self.spans_kept}/{self.spans}" if self.spans else ""
        placed = f" ({self.spans_placed} put back)" if self.spans_placed else ""
        kept += f", names kept {self.names_kept}/{self.names}" if self.names else ""
        return (f"s-BLEU {self.s_bleu:.2f}  d-BLEU {self.d_bleu:.2f}  ({self.n_documents} docs, "
                f"{self.n_sentences} sents, {self.tokens_per_s:.0f} tok/s{kept}{placed})  {self.signature}  "
                f"[{self.scoring}]")


_LINE_BREAK = re.compile(r"\s*[\r\n]+\s*")


def one_line(hypothesis: str) -> str:
    """A hypothesis on one line: a documentation paragraph's translation can hold line breaks, and
    the ``--out`` file is one line per sentence. Every BLEU tokenization used here (13a, zh, none
    after Moses) splits at any whitespace, so a break read back as a space scores the same."""
    return _LINE_BREAK.sub(" ", hypothesis).strip() if _LINE_BREAK.search(hypothesis) else hypothesis


def write_hypotheses(path: Path, hyp_docs: list[list[str]]) -> None:
    """The ``--out`` file: one line per sentence, a blank line between documents
    (training.significance.read_hypotheses reads it back)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join("\n".join(one_line(h) for h in d) for d in hyp_docs) + "\n", encoding="utf-8")


def kept_spans(src_docs: list[list[str]], hyp_docs: list[list[str]], tgt_lang: str | None = None,
               src_lang: str | None = None) -> tuple[int, int]:
    """(spans in the sources, of them in their hypothesis byte for byte): doctrans.verbatim's spans,
    and what the direction writes its own way as the value written for ``tgt_lang`` (a figure in
    万/亿, an amount with its currency, a date, a numbered part: doctrans.direction_terms); names
    are counted apart (``kept_names``)."""
    total = kept = 0
    for src_doc, hyp_doc in zip(src_docs, hyp_docs, strict=True):
        for src, hyp in zip(src_doc, hyp_doc, strict=True):
            terms = [t for t in automatic_terms(src, [], src_lang, tgt_lang) if t.kind != "name"]
            for span in protected_spans(src, terms):
                total += 1
                kept += span.output in hyp
    return total, kept


def kept_names(src_docs: list[list[str]], hyp_docs: list[list[str]], src_lang: str, tgt_lang: str
               ) -> tuple[int, int]:
    """(Latin names the direction keeps in the sources (doctrans.kept_names), of them in their
    hypothesis byte for byte), counted apart from ``kept_spans`` so older scores stay comparable."""
    total = kept = 0
    for src_doc, hyp_doc in zip(src_docs, hyp_docs, strict=True):
        for src, hyp in zip(src_doc, hyp_doc, strict=True):
            # The names the engine masks (doctrans.engine.protect): those no figure or date covers.
            for name in (t for t in automatic_terms(src, [], src_lang, tgt_lang) if t.kind == "name"):
                total += 1
                kept += name.text in hyp
    return total, kept


def scoring_for(hyp_docs: list[list[str]], ref_docs: list[list[str]], tgt_lang: str
                ) -> tuple[list[list[str]], dict, str]:
    """(hypotheses prepared like the references, sacreBLEU BLEU arguments, how they are scored).

    Chinese: tokenize=zh. English references that are Moses-tokenized (TVsub dev) are matched by
    Moses-tokenizing the hypotheses and scoring lower-cased with tokenize=none.
    """
    refs = [s for d in ref_docs for s in d]
    tokenize = "zh" if tgt_lang.startswith("zh") else "13a"
    if tokenize == "13a" and looks_tokenized(refs):
        from sacremoses import MosesTokenizer

        mt = MosesTokenizer(lang=tgt_lang)
        hyp_docs = [[mt.tokenize(h, return_str=True, escape=False) for h in d] for d in hyp_docs]
        # force: both sides are tokenized on purpose here; sacreBLEU would otherwise warn about it.
        return hyp_docs, {"tokenize": "none", "lowercase": True, "force": True}, (
            "references are Moses-tokenized: hypotheses Moses-tokenized (sacremoses), "
            "scored lower-cased with tokenize=none")
    return hyp_docs, {"tokenize": tokenize}, f"detokenized references, sacreBLEU tokenize={tokenize}, case-sensitive"


def score(hyp_docs: list[list[str]], ref_docs: list[list[str]], tgt_lang: str) -> tuple[float, float, str, str]:
    """(s-BLEU, d-BLEU, sacreBLEU signature, how the references were treated)."""
    hyp_docs, kw, scoring = scoring_for(hyp_docs, ref_docs, tgt_lang)
    bleu = sacrebleu.BLEU(**kw)
    s = bleu.corpus_score([h for d in hyp_docs for h in d], [[r for d in ref_docs for r in d]]).score
    d = sacrebleu.BLEU(**kw).corpus_score([" ".join(d) for d in hyp_docs], [[" ".join(d) for d in ref_docs]]).score
    return s, d, str(bleu.get_signature()), scoring


def load_references(data: str | Path, src: str, tgt: str, max_docs: int | None,
                    max_sentences: int | None) -> tuple[list[list[str]], list[list[str]]]:
    """(source documents, reference documents), cut to ``max_docs`` / ``max_sentences``.

    A Moses-tokenized English source (TVsub dev, en->zh) is untokenized first: the model is
    asked to translate text as users write it (training.moses_text). References stay as they are.
    """
    src_docs, ref_docs = [], []
    budget = max_sentences
    for n, doc in enumerate(read_documents(data, src, tgt)):
        if (max_docs is not None and n >= max_docs) or budget == 0:
            break
        keep = len(doc.src) if budget is None else min(budget, len(doc.src))
        src_docs.append(untokenized_side(doc.src[:keep], src))
        ref_docs.append(doc.tgt[:keep])
        budget = None if budget is None else budget - keep
    return src_docs, ref_docs


def evaluate(ckpt: str | Path, data: str | Path, src: str, tgt: str, beam: int = 5, length_penalty: float | None = None,
             max_docs: int | None = None, max_sentences: int | None = None, no_memory: bool = False,
             device: str = "cpu", threads: int | None = None, no_repeat_ngram: int | None = None,
             masking: bool = True, max_repeat_run: int | None = None,
             new_digits: bool = False) -> tuple[Scores, list[list[str]]]:
    """Score a checkpoint (PyTorch, documents batched as rows) or an exported bundle directory
    (ONNX Runtime, the engine users run: one document at a time through the memory loop).

    ``no_repeat_ngram``, ``length_penalty``, ``max_repeat_run``: None = the bundle's own decoding
    setting (0 and 1.0 for a checkpoint; the stutter guard is the engine's, bundles only).
    ``masking``: a bundle masks verbatim spans as placeholders when its vocabulary has them
    (doctrans.engine.protect); False scores it as a bundle without them would translate."""
    if not Path(ckpt).exists():  # before reading the data: the model is the first argument
        raise CheckpointError(f"{ckpt}: no such checkpoint or bundle")
    src_docs, ref_docs = load_references(data, src, tgt, max_docs, max_sentences)
    t0 = time.time()
    placed = 0
    if Path(ckpt).is_dir():
        hyp_docs, n_tokens, placed = translate_with_bundle(Path(ckpt), src_docs, beam, length_penalty, threads,
                                                           no_repeat_ngram, src, tgt, masking, max_repeat_run,
                                                           new_digits, no_memory)
    else:
        if not masking:
            raise CheckpointError(f"{ckpt}: --no-masking needs a bundle (a checkpoint is never masked)")
        if max_repeat_run:
            raise CheckpointError(f"{ckpt}: --max-repeat-run needs a bundle (the guard is the engine's)")
        hyp_docs, n_tokens = translate_with_checkpoint(ckpt, src_docs, beam, 1.0 if length_penalty is None
                                                       else length_penalty, no_memory, device,
                                                       no_repeat_ngram or 0, src, tgt)
    seconds = time.time() - t0
    s, d, sig, how = score(hyp_docs, ref_docs, tgt)
    spans, kept = kept_spans(src_docs, hyp_docs, tgt, src)
    names, names_kept = kept_names(src_docs, hyp_docs, src, tgt)
    return Scores(s, d, sig, how, sum(map(len, ref_docs)), len(ref_docs), seconds, n_tokens / seconds,
                  spans, kept, placed, names, names_kept), hyp_docs


def translate_with_checkpoint(ckpt: str | Path, src_docs: list[list[str]], beam: int, length_penalty: float,
                              no_memory: bool, device: str, no_repeat_ngram: int = 0, src: str | None = None,
                              tgt: str | None = None) -> tuple[list[list[str]], int]:
    loaded = load_model(ckpt)
    model = loaded.model.to(device)
    if no_memory:
        model.cfg.mem_side = "none"  # read nothing, write nothing: the sentence-level ablation
    sp = spm.SentencePieceProcessor(model_proto=loaded.spm_bytes)
    prefix = loaded.source_prefix(sp, src or loaded.src_lang, tgt or loaded.tgt_lang)
    ids = [[prefix + sp.encode(s) for s in d] for d in src_docs]
    results = translate_documents(model, ids, beam=beam, length_penalty=length_penalty, no_repeat_ngram=no_repeat_ngram)
    hyp_docs = [[sp.decode(h) for h in r.hypotheses] for r in results]
    return hyp_docs, sum(len(h) + 1 for r in results for h in r.hypotheses)


def translate_with_bundle(bundle: Path, src_docs: list[list[str]], beam: int, length_penalty: float | None,
                          threads: int | None, no_repeat_ngram: int | None = None, src: str | None = None,
                          tgt: str | None = None, masking: bool = True,
                          max_repeat_run: int | None = None, new_digits: bool = False, no_memory: bool = False
                          ) -> tuple[list[list[str]], int, int]:
    """Hypotheses, target tokens generated, and spans the engine put back (the model dropped them).

    ``no_memory``: every sentence translated as a document of its own, so each reads the bundle's
    initial memory and nothing is carried (a bundle cannot drop its memory graphs the way a
    checkpoint's ``mem_side = "none"`` does: this is the memory probe's "initial" condition)."""
    from doctrans.engine.bundle import read_bundle
    from doctrans.engine.errors import BundleError
    from doctrans.engine.onnx_engine import OnnxTranslator

    try:
        # The direction matters only to a bundle with several (a one-direction bundle may be scored
        # on data whose language codes differ from its own, as the tests' toy languages do).
        several = len(read_bundle(bundle).directions) > 1
        translator = OnnxTranslator.load(bundle, beam_size=beam, length_penalty=length_penalty, threads=threads,
                                         no_repeat_ngram=no_repeat_ngram, src=src if several else None,
                                         tgt=tgt if several else None, max_repeat_run=max_repeat_run,
                                         new_digits=new_digits)
    except BundleError as e:
        raise CheckpointError(str(e)) from None
    if not masking:
        translator.placeholders = 0  # what a bundle without placeholder pieces reads: the plain text
    if no_memory:
        alone = iter([translator.translate_document([s]) for doc in src_docs for s in doc])
        results = [[r for one in itertools.islice(alone, len(doc)) for r in one] for doc in src_docs]
    else:
        results = [translator.translate_document(doc) for doc in src_docs]
    placed = sum(n.problem == "placed" for doc in results for r in doc for n in r.notes)
    return ([[r.translation for r in doc] for doc in results], sum(len(r.tgt_tokens) + 1 for doc in results
                                                                   for r in doc), placed)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Score a checkpoint or an exported bundle with s-BLEU and d-BLEU.")
    p.add_argument("checkpoint", help="a .pt checkpoint, or a bundle directory written by `doctrans export`")
    p.add_argument("--data", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--tgt", required=True)
    p.add_argument("--beam", type=int, default=5, help="beam size (1 = greedy)")
    p.add_argument("--length-penalty", type=float, help="score = logprob / length ** this "
                   "(default: the bundle's setting; 1.0 for a checkpoint)")
    p.add_argument("--max-docs", type=int)
    p.add_argument("--max-sentences", type=int, help="translate only the first N sentences (quick checks)")
    p.add_argument("--no-memory", action="store_true", help="ablation: translate with the memory off "
                   "(a bundle: each sentence as a document of its own, reading the initial memory)")
    p.add_argument("--no-masking", action="store_true", help="bundle only: do not mask numbers, codes and URLs "
                   "as placeholders (the control for a bundle trained with them)")
    p.add_argument("--no-repeat-ngram", type=int, help="forbid repeating an n-gram of this many tokens "
                   "(default: the bundle's setting; 0 for a checkpoint)")
    p.add_argument("--max-repeat-run", type=int, help="bundle only: no piece or Han character more than this "
                   "many times in a row (doctrans.engine.repeats; 0 = off; default: the bundle's)")
    p.add_argument("--allow-new-digits", action="store_true", help="bundle only: let a translation write "
                   "digits its source lacks (the engine forbids it; the ablation)")
    p.add_argument("--out", type=Path, help="write hypotheses here (one line per sentence, blank line between docs)")
    p.add_argument("--json", type=Path, help="write the scores as JSON here")
    p.add_argument("--threads", type=int)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    a = p.parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    try:
        scores, hyps = evaluate(a.checkpoint, a.data, a.src, a.tgt, a.beam, a.length_penalty, a.max_docs,
                                a.max_sentences, a.no_memory, a.device, a.threads, a.no_repeat_ngram,
                                not a.no_masking, a.max_repeat_run, a.allow_new_digits)
    except (DataError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.out:
        write_hypotheses(a.out, hyps)
    if a.json:
        a.json.write_text(json.dumps(scores.__dict__, indent=1))
    print(scores.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
