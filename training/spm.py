"""Train the joint SentencePiece vocabulary shared by source and target.

    python -m training.spm --data ../shared/data/tvsub-zh-en/train.jsonl.xz --langs zh en \\
        --vocab-size 16000 --out runs/spm/zh_en

Fixed special ids (the model and the ONNX bundle rely on them): pad=0, bos=1, eos=2, unk=3;
``byte_fallback`` so no input is ever unknown (unseen characters become byte pieces); user
symbols for the tags a document translator needs (language tags, a sentence separator).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

import sentencepiece as spm

from training.data import DataError, read_documents

PAD_ID, BOS_ID, EOS_ID, UNK_ID = 0, 1, 2, 3
# Verbatim-span placeholders (numbers, codes, URLs the pipeline masks and restores): written as
# the NFKC form of ｟1｠ because the nmt_nfkc normaliser maps the fullwidth brackets to these.
PLACEHOLDERS = [f"\u2985{i}\u2986" for i in range(1, 17)]
USER_SYMBOLS = ["<sep>", "<2en>", "<2zh>", "<2de>", *PLACEHOLDERS]


def collect_sentences(corpora: Iterable[tuple[Path, str, str]], max_sentences: int, seed: int) -> list[str]:
    """All sentences of both sides of each corpus, reservoir-sampled to ``max_sentences``."""
    rng = random.Random(seed)
    sample: list[str] = []
    seen = 0
    for path, a, b in corpora:
        for doc in read_documents(path, a, b):
            for s in doc.src + doc.tgt:
                s = s.strip()
                if not s:
                    continue
                seen += 1
                if len(sample) < max_sentences:
                    sample.append(s)
                else:
                    j = rng.randrange(seen)
                    if j < max_sentences:
                        sample[j] = s
    return sample


def train_spm(sentences: list[str], out_prefix: Path, vocab_size: int,
              character_coverage: float = 0.9995, model_type: str = "unigram") -> Path:
    """Train on ``sentences``; writes ``out_prefix.model`` / ``.vocab`` and returns the model path.

    The vocabulary holds 256 byte pieces (byte fallback) besides the learned ones, so it must
    be larger than about 300.
    """
    out_prefix.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt", delete=False) as f:
        f.write("\n".join(s.replace("\n", " ") for s in sentences))
        text_path = f.name
    try:
        spm.SentencePieceTrainer.train(
            input=text_path, model_prefix=str(out_prefix), vocab_size=vocab_size,
            model_type=model_type, character_coverage=character_coverage, byte_fallback=True,
            pad_id=PAD_ID, bos_id=BOS_ID, eos_id=EOS_ID, unk_id=UNK_ID,
            pad_piece="<pad>", bos_piece="<s>", eos_piece="</s>", unk_piece="<unk>",
            user_defined_symbols=USER_SYMBOLS, split_digits=True, normalization_rule_name="nmt_nfkc",
            hard_vocab_limit=False, num_threads=2, minloglevel=2,
        )
    except RuntimeError as e:  # SentencePiece reports bad settings as RuntimeError('INTERNAL: ...')
        raise DataError(f"SentencePiece training failed: {str(e).splitlines()[0]}") from None
    finally:
        Path(text_path).unlink(missing_ok=True)
    return out_prefix.with_suffix(".model")


def load(path: str | Path) -> spm.SentencePieceProcessor:
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: no such SentencePiece model")
    return spm.SentencePieceProcessor(model_file=str(path))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", nargs="+", required=True, help="corpus JSONL(.xz) files")
    p.add_argument("--langs", nargs=2, required=True, metavar=("A", "B"), help="the two language keys")
    p.add_argument("--vocab-size", type=int, default=16000)
    p.add_argument("--max-sentences", type=int, default=2_000_000, help="sample at most this many")
    p.add_argument("--character-coverage", type=float, default=0.9995)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="output prefix (writes PREFIX.model, PREFIX.vocab)")
    args = p.parse_args(argv)
    try:
        sents = collect_sentences([(Path(d), *args.langs) for d in args.data], args.max_sentences, args.seed)
        if not sents:
            raise DataError("no sentences found in the given corpora")
        model = train_spm(sents, Path(args.out), args.vocab_size, args.character_coverage)
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {model} ({len(load(model))} pieces from {len(sents)} sentences)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
