"""Build the pre-tokenized cache a training run reads: one command, on the CPU, before the GPU.

    python -m training.prepare_data --data ../shared/data --out .device/cache

1. The joint zh/en SentencePiece model (``OUT/spm.model``), unless ``--spm`` names one: trained on
   every corpus, each capped (``--spm-sample``) so TVsub's 4 million short subtitle lines do not
   drown the 190 k documentation paragraphs whose terms, code and markup the vocabulary must
   also cover.
2. Every split of every corpus as ``OUT/NAME.SPLIT.npz`` (training.token_cache: uint16 ids of both
   languages, document boundaries). Dev splits are read untokenized (training.moses_text), as
   the trainer reads them, and copied as ``OUT/NAME.dev.jsonl.xz`` for scoring (references).
3. ``OUT/manifest.json``: the SentencePiece model's sha256 and vocabulary, and per file its
   documents, sentences, tokens per language, bytes and sha256 — what a device run checks
   before it spends a second of GPU time.

Training splits are masked for placeholder copying (training.verbatim_pairs, ``--mask-fraction``).
Re-running skips files that are already there and made with the same tokenizer and masking.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from doctrans.hashing import sha256_file
from training import spm as spm_lib
from training import verbatim_pairs
from training.data import DataError, read_documents
from training.token_cache import spm_sha256, write_cache_file

# The corpora of the zh<->en model: folder -> cap on sentences sampled for the vocabulary.
CORPORA = {"tvsub-zh-en": 600_000, "pydocs-en-zh": 200_000, "django-en-zh": 100_000}
LANGS = ("zh", "en")
SPLITS = ("train", "dev")




def train_vocabulary(data: Path, corpora: dict[str, int], out: Path, vocab_size: int, seed: int) -> Path:
    sentences: list[str] = []
    for name, cap in corpora.items():
        part = spm_lib.collect_sentences([(data / name / "train.jsonl.xz", *LANGS)], cap, seed)
        print(f"vocabulary sample: {len(part):,} sentences of {name}", flush=True)
        sentences += part
    return spm_lib.train_spm(sentences, out / "spm", vocab_size)


def tokenize_split(path: Path, sp, dev: bool, threads: int, masking: dict | None = None,
                   ) -> tuple[dict[str, list[list[int]]], list[int], list[str], dict[str, int]]:
    """Ids of both sides of every sentence, document lengths and ids, and masking counts. A training
    split is masked as ``masking`` says (training.verbatim_pairs: spans shared by both sides become
    the placeholders the engine writes); dev splits never are -- they are what a user's documents
    look like, and the engine masks them itself when it translates."""
    texts: dict[str, list[str]] = {lang: [] for lang in LANGS}
    doc_lengths, doc_ids = [], []
    for doc in read_documents(path, *LANGS, untokenize=dev):
        texts[LANGS[0]] += doc.src
        texts[LANGS[1]] += doc.tgt
        doc_lengths.append(len(doc.src))
        doc_ids.append(doc.id)
    stats = {}
    if masking and not dev:
        a, b, pairs, placeholders = verbatim_pairs.mask_pairs(texts[LANGS[0]], texts[LANGS[1]],
                                                              masking["fraction"], masking["seed"])
        texts = {LANGS[0]: a, LANGS[1]: b}
        stats = {"masked_pairs": pairs, "placeholders": placeholders}
    ids = {lang: sp.encode(t, num_threads=threads) for lang, t in texts.items()}
    return ids, doc_lengths, doc_ids, stats


def masking_settings(fraction: float, seed: int = 1) -> dict | None:
    """What the manifest records about training-pair masking (None: off); a training file made
    with other settings is rebuilt."""
    if fraction <= 0:
        return None
    return {"fraction": fraction, "seed": seed, "version": verbatim_pairs.VERSION}


def prepare(data: Path, out: Path, spm_path: Path | None, vocab_size: int, corpora: dict[str, int],
            threads: int, seed: int = 1, max_docs: int | None = None,
            mask_fraction: float = verbatim_pairs.DEFAULT_FRACTION) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    target_spm = out / "spm.model"
    if spm_path is not None:
        if spm_path.resolve() != target_spm.resolve():
            shutil.copyfile(spm_path, target_spm)
    elif not target_spm.exists():
        train_vocabulary(data, corpora, out, vocab_size, seed)
    sp = spm_lib.load(target_spm)
    spm_hash = spm_sha256(target_spm.read_bytes())
    manifest_path = out / "manifest.json"
    old = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    files = old.get("files", {}) if old.get("spm_sha256") == spm_hash else {}
    masking = masking_settings(mask_fraction, seed)
    if old.get("masking") != masking:  # training files were masked otherwise: rebuild them
        files = {k: v for k, v in files.items() if v.get("split") != "train"}
    for name in corpora:
        for split in SPLITS:
            src = data / name / f"{split}.jsonl.xz"
            if not src.exists():
                continue
            if split == "dev":  # the references scoring reads: ../shared does not travel to the device
                copy = out / f"{name}.dev.jsonl.xz"
                shutil.copyfile(src, copy)
                files[copy.name] = {"corpus": name, "split": split, "bytes": copy.stat().st_size,
                                    "sha256": sha256_file(copy)}
            target = out / f"{name}.{split}.npz"
            entry = files.get(target.name)
            if entry and not entry.get("slice") and target.exists() and target.stat().st_size == entry["bytes"]:
                continue
            t0 = time.time()
            ids, doc_lengths, doc_ids, stats = tokenize_split(src, sp, split == "dev", threads, masking)
            if max_docs is not None:  # a small cache for rehearsals
                n = sum(doc_lengths[:max_docs])
                ids = {lang: s[:n] for lang, s in ids.items()}
                doc_lengths, doc_ids = doc_lengths[:max_docs], doc_ids[:max_docs]
            counts = write_cache_file(target, ids, doc_lengths, doc_ids, spm_hash)
            files[target.name] = {"corpus": name, "split": split, **counts, **stats,
                                  "bytes": target.stat().st_size, "sha256": sha256_file(target)}
            print(f"{target.name}: {counts['documents']:,} docs, {counts['sentences']:,} sentences, "
                  + ", ".join(f"{counts[f'{lang}_tokens']:,} {lang} tokens" for lang in LANGS)
                  + (f", {stats['masked_pairs']:,} pairs masked ({stats['placeholders']:,} placeholders)"
                     if stats else "")
                  + f", {target.stat().st_size / 2**20:.1f} MiB ({time.time() - t0:.0f} s)", flush=True)
    manifest = {"spm": "spm.model", "spm_sha256": spm_hash, "vocab_size": len(sp), "langs": list(LANGS),
                "masking": masking, "files": dict(sorted(files.items()))}
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    total = sum(f["bytes"] for f in files.values()) + target_spm.stat().st_size
    print(f"cache: {out} ({total / 2**20:.1f} MiB, vocabulary {len(sp):,})")
    return manifest


def verify(out: Path) -> list[str]:
    """Problems with a cache directory (empty list: every file present with the manifest's sha256)."""
    manifest_path = out / "manifest.json"
    if not manifest_path.is_file():
        return [f"{out}: no manifest.json"]
    manifest = json.loads(manifest_path.read_text())
    problems = []
    if spm_sha256((out / manifest["spm"]).read_bytes()) != manifest["spm_sha256"]:
        problems.append(f"{out / manifest['spm']}: sha256 differs from the manifest")
    for name, entry in manifest["files"].items():
        path = out / name
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif sha256_file(path) != entry["sha256"]:
            problems.append(f"{path}: sha256 differs from the manifest")
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, default=Path("../shared/data"), help="folder of the corpus folders")
    p.add_argument("--out", type=Path, required=True, help="cache directory")
    p.add_argument("--spm", type=Path, help="use this SentencePiece model instead of training one")
    p.add_argument("--vocab-size", type=int, default=16000)
    p.add_argument("--corpora", nargs="+", default=list(CORPORA), help="corpus folders under --data")
    p.add_argument("--spm-sample", type=int, nargs="+", help="vocabulary sample cap per corpus (in --corpora order)")
    p.add_argument("--max-docs", type=int, help="keep only the first N documents of each split (rehearsals)")
    p.add_argument("--mask-fraction", type=float, default=verbatim_pairs.DEFAULT_FRACTION,
                   help="share of training pairs with spans on both sides whose spans become placeholders "
                        "(training.verbatim_pairs; 0: off)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--verify", action="store_true", help="only check an existing cache against its manifest")
    a = p.parse_args(argv)
    try:
        if a.verify:
            problems = verify(a.out)
            for line in problems:
                print(f"error: {line}", file=sys.stderr)
            if not problems:
                print(f"{a.out}: cache verified")
            return 2 if problems else 0
        caps = a.spm_sample or [CORPORA.get(c, 100_000) for c in a.corpora]
        if len(caps) != len(a.corpora):
            raise DataError("--spm-sample needs one number per corpus")
        prepare(a.data, a.out, a.spm, a.vocab_size, dict(zip(a.corpora, caps, strict=True)), a.threads,
                max_docs=a.max_docs, mask_fraction=a.mask_fraction)
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
