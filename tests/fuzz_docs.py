"""A seeded mutator of docx and pdf files and the check run on each mutant (issue 16).

The property: whatever the bytes, reading and translating a document ends in the output or in a
:class:`~doctrans.errors.UserError` (one line for the user) -- never another exception, which the
CLI would report as a bug. Used by tests/test_fuzz.py (a few hundred mutants per run) and by
``python -m tests.fuzz_campaign`` (tens of thousands, outside CI).

Mutations: byte flips, random bytes inserted or overwritten, truncation, duplicated or deleted
chunks -- on the raw file, and for docx also inside a decompressed XML part that is zipped again
(raw flips mostly hit a CRC; these reach the XML parser and the document model).
"""

from __future__ import annotations

import io
import random
import signal
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from doctrans.errors import UserError

SEED_TEXT = [f"Sentence number {i} is here, with a comma. Another one follows {i}!" for i in range(6)]


def seed_docx() -> bytes:
    from tests.bad_inputs import docx_bytes, para

    body = "".join(para(s) for s in SEED_TEXT)
    body += ('<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Bold start </w:t></w:r>'
             '<w:hyperlink><w:r><w:t>a link</w:t></w:r></w:hyperlink><w:r><w:tab/><w:t>after tab.</w:t></w:r></w:p>'
             '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>In a table cell.</w:t></w:r></w:p></w:tc></w:tr></w:tbl>')
    return docx_bytes(body)


def seed_pdf() -> bytes:
    from tests.bad_inputs import raw_pdf

    lines = b" ".join(b"(" + s.encode() + b") Tj 0 -14 Td" for s in SEED_TEXT)
    return raw_pdf(b"BT /F1 11 Tf 72 700 Td " + lines + b" ET")


def _raw_mutation(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    kind = rng.randrange(6)
    n = len(b)
    if kind == 0:  # flip bits
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(n)] ^= 1 << rng.randrange(8)
    elif kind == 1:  # overwrite a run with random bytes
        i = rng.randrange(n)
        b[i:i + rng.randint(1, 64)] = rng.randbytes(rng.randint(1, 64))
    elif kind == 2:  # truncate
        del b[rng.randrange(1, n):]
    elif kind == 3:  # duplicate a chunk
        i, j = sorted(rng.randrange(n) for _ in range(2))
        b[j:j] = b[i:i + 512]
    elif kind == 4:  # delete a chunk
        i = rng.randrange(n)
        del b[i:i + rng.randint(1, 256)]
    else:  # insert random bytes
        i = rng.randrange(n)
        b[i:i] = rng.randbytes(rng.randint(1, 32))
    return bytes(b)


def _docx_part_mutation(rng: random.Random, data: bytes) -> bytes:
    """Mutate a decompressed XML part, then zip it again with correct CRCs."""
    src = zipfile.ZipFile(io.BytesIO(data))
    names = src.namelist()
    target = rng.choice(names)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in names:
            part = src.read(name)
            if name == target:
                part = _text_mutation(rng, part)
            z.writestr(name, part)
    return out.getvalue()


def _text_mutation(rng: random.Random, part: bytes) -> bytes:
    tokens = [b"<w:p>", b"</w:p>", b"<w:t>", b"</w:t>", b"<w:r>", b"</w:r>", b"<w:hyperlink>", b"&#xD800;",
              b"\xed\xa0\x80", b"<w:tab/>", b"<w:br/>", b"\x00", b"&amp;", b"<!--", b"]]>", "é中".encode()]
    b = bytearray(part)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(b) + 1)
        if rng.random() < 0.5:
            b[i:i] = rng.choice(tokens)
        else:
            del b[i:i + rng.randint(1, 40)]
    return bytes(b)


def mutate(rng: random.Random, data: bytes, fmt: str) -> bytes:
    if fmt == "docx" and rng.random() < 0.5:
        try:
            return _docx_part_mutation(rng, data)
        except Exception:  # a mutant that no longer unzips: mutate its raw bytes instead
            pass
    return _raw_mutation(rng, data)


class Hang(Exception):
    pass


def check_one(data: bytes, fmt: str, folder: Path, seconds: int = 20) -> str:
    """Read and translate one mutant (fake engine) into txt and into its own format.

    Returns "ok" or "user-error"; raises whatever else escapes (the failure being looked for),
    or :class:`Hang` past ``seconds``.
    """
    from doctrans.translate_job import translate_file
    from tests.fakes import FakeTranslator

    src = folder / f"mutant.{fmt}"
    src.write_bytes(data)

    def alarm(_signum: int, _frame: object) -> None:
        raise Hang(f"no result after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        for out in (folder / "out.txt", folder / f"out.{fmt}"):
            translate_file(src, out, FakeTranslator())
        return "ok"
    except UserError:
        return "user-error"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        for p in folder.iterdir():
            p.unlink()


def campaign(fmt: str, n: int, seed: int = 0, report: Callable[[str], None] | None = None) -> dict[str, object]:
    """Run ``n`` mutants of the seed document of ``fmt``; return counts and the escapes found."""
    rng = random.Random(seed)
    base = seed_docx() if fmt == "docx" else seed_pdf()
    counts = {"ok": 0, "user-error": 0}
    escapes: list[tuple[int, str]] = []
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            data = mutate(rng, base, fmt)
            if rng.random() < 0.3:  # mutate a mutant: damage accumulates
                data = mutate(rng, data, fmt)
            try:
                counts[check_one(data, fmt, Path(tmp))] += 1
            except Exception as e:
                escapes.append((i, f"{type(e).__name__}: {' '.join(str(e).split())[:200]}"))
                (Path("fuzz-escapes") / fmt).mkdir(parents=True, exist_ok=True) if report else None
                if report:
                    (Path("fuzz-escapes") / fmt / f"{seed}-{i}.{fmt}").write_bytes(data)
            if report and (i + 1) % 1000 == 0:
                report(f"{fmt}: {i + 1}/{n} mutants, {counts}, {len(escapes)} escapes, {time.monotonic() - t0:.0f} s")
    return {"format": fmt, "mutants": n, **counts, "escapes": escapes, "seconds": round(time.monotonic() - t0, 1)}
