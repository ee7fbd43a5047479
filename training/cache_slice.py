"""One share of a corpus's training documents, for a device run whose 64 MiB cannot hold them all.

    python -m training.cache_slice .device/cache tvsub-zh-en --parts 3 --part 1

A device session that continues the shipped model carries the model itself (the int8 bundle,
~36 MiB) beside the token cache, so TVsub's 41 MiB training file must shrink. Every ``parts``-th
document, starting at ``part``, is kept (episodes spread over the whole corpus, not its first
third); the manifest's entry is rewritten (counts, bytes, sha256 and the ``slice`` taken) so the
device's ``verify`` still checks the file, and ``training.prepare_data`` rebuilds the whole file
the next time it runs. Successive sessions take successive parts and so, together, every document.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from doctrans.hashing import sha256_file
from training.data import DataError
from training.prepare_data import LANGS


def slice_documents(path: Path, parts: int, part: int) -> dict[str, int]:
    """Rewrite the cache file ``path`` with documents ``part``, ``part + parts``, ... only; returns
    the new counts (documents, sentences, tokens per language)."""
    if not 0 <= part < parts:
        raise DataError(f"--part must be in 0..{parts - 1}")
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    doc_lengths = arrays["doc_lengths"].astype(np.int64)
    keep_docs = np.arange(part, len(doc_lengths), parts)
    if not len(keep_docs):
        raise DataError(f"{path}: {len(doc_lengths)} documents, none in part {part} of {parts}")
    # a sentence belongs to the document its index falls in
    sentence_doc = np.repeat(np.arange(len(doc_lengths)), doc_lengths)
    keep_sentences = np.isin(sentence_doc, keep_docs)
    out = {"doc_lengths": arrays["doc_lengths"][keep_docs], "doc_ids": arrays["doc_ids"][keep_docs],
           "spm_sha256": arrays["spm_sha256"]}
    counts = {"documents": len(keep_docs), "sentences": int(keep_sentences.sum())}
    for lang in LANGS:
        lengths = arrays[f"{lang}_lengths"].astype(np.int64)
        token_sentence = np.repeat(np.arange(len(lengths)), lengths)
        out[f"{lang}_tokens"] = arrays[f"{lang}_tokens"][keep_sentences[token_sentence]]
        out[f"{lang}_lengths"] = arrays[f"{lang}_lengths"][keep_sentences]
        counts[f"{lang}_tokens"] = len(out[f"{lang}_tokens"])
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, allow_pickle=False, **out)
    tmp.replace(path)
    return counts


def slice_cache(cache: Path, corpus: str, parts: int, part: int) -> dict:
    """Slice ``corpus``'s training file in ``cache`` and update its manifest entry."""
    manifest_path = cache / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    name = f"{corpus}.train.npz"
    entry = manifest["files"].get(name)
    if entry is None or not (cache / name).exists():
        raise DataError(f"{cache}: no {name} in the cache")
    if entry.get("slice"):
        raise DataError(f"{cache / name}: already a slice ({entry['slice']}); run training.prepare_data again first")
    counts = slice_documents(cache / name, parts, part)
    entry.update(counts, bytes=(cache / name).stat().st_size, sha256=sha256_file(cache / name),
                 slice={"parts": parts, "part": part})
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return entry


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cache", type=Path, help="training.prepare_data's output")
    p.add_argument("corpus", help="the corpus whose training documents to slice (tvsub-zh-en)")
    p.add_argument("--parts", type=int, required=True, help="keep one document in this many")
    p.add_argument("--part", type=int, required=True, help="which one (0..parts-1)")
    a = p.parse_args(argv)
    try:
        entry = slice_cache(a.cache, a.corpus, a.parts, a.part)
    except (DataError, OSError, KeyError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{a.corpus}.train.npz: part {a.part} of {a.parts}: {entry['documents']:,} docs, "
          f"{entry['sentences']:,} sentences, {entry['bytes'] / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
