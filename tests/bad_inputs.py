"""The bad-input corpus (issue 16): damaged, hostile or impossible inputs, outputs and state.

Each :class:`Case` builds its files in an empty folder and returns the ``doctrans translate``
arguments; the expectation is an exit code and a fragment of the one ``error:`` line. Shared by
``tests/test_bad_inputs.py`` (the CI check) and ``benchmarks/bad_input_table.py`` (the table of
exit, message, input intact and leftovers, for the issue note).

Cases marked ``engine="bundle"`` run the real ONNX engine on a copy of a shipped bundle (a few
of them tamper with it); the others run the fake engine of tests/fakes.py.
"""

from __future__ import annotations

import io
import json
import shutil
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from doctrans.hashing import sha256_file
from tests.shipped_models import shipped_bundle

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
PROGRESS_SUFFIX = ".doctrans-progress.npz"

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Default Extension="bin" ContentType="application/octet-stream"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'officeDocument" Target="word/document.xml"/></Relationships>'
)


def docx_bytes(body: str, extra: dict[str, bytes] | None = None,
               compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A minimal .docx (content types, package rels, main part) around ``body`` (w:body XML)."""
    doc = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{W_NS}">'
           f"<w:body>{body}</w:body></w:document>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("word/document.xml", doc)
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return buf.getvalue()


def para(text: str) -> str:
    return f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"


GOOD_BODY = "".join(para(f"Sentence number {i} is here. Another one follows {i}!") for i in range(12))


def _patch_member(data: bytes, name: str, fn: Callable[[bytearray, int, int], None]) -> bytes:
    """Apply ``fn(buffer, local_header_offset, data_offset)`` to member ``name`` of a zip."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        info = z.getinfo(name)
    buf = bytearray(data)
    off = info.header_offset
    n, m = struct.unpack("<HH", buf[off + 26: off + 30])
    fn(buf, off, off + 30 + n + m)
    return bytes(buf)


def docx_bad_deflate() -> bytes:
    """document.xml's deflate stream starts with the reserved block type: zlib.error on reading."""
    def fn(buf: bytearray, _off: int, start: int) -> None:
        buf[start] = 0x07  # BFINAL=1, BTYPE=11 (reserved)
    return _patch_member(docx_bytes(GOOD_BODY), "word/document.xml", fn)


def docx_unknown_compression() -> bytes:
    """document.xml claims compression method 99 (AES): zipfile raises NotImplementedError."""
    data = bytearray(_patch_member(docx_bytes(GOOD_BODY), "word/document.xml",
                                   lambda buf, off, _s: buf.__setitem__(slice(off + 8, off + 10), b"\x63\x00")))
    central = data.find(b"PK\x01\x02" + b"\x00" * 0)  # first central directory entry
    while central != -1:
        n = struct.unpack("<H", data[central + 28: central + 30])[0]
        if data[central + 46: central + 46 + n] == b"word/document.xml":
            data[central + 10: central + 12] = b"\x63\x00"
        central = data.find(b"PK\x01\x02", central + 4)
    return bytes(data)


def docx_bad_crc() -> bytes:
    with zipfile.ZipFile(io.BytesIO(docx_bytes(GOOD_BODY, compression=zipfile.ZIP_STORED))) as z:
        info = z.getinfo("word/document.xml")
    data = bytearray(docx_bytes(GOOD_BODY, compression=zipfile.ZIP_STORED))
    n, m = struct.unpack("<HH", data[info.header_offset + 26: info.header_offset + 30])
    start = info.header_offset + 30 + n + m
    i = data.index(b"Sentence number 3", start)
    data[i] = ord("X")  # stored, so the part still parses; only the CRC catches it
    return bytes(data)


def docx_nested_links(depth: int = 1500) -> bytes:
    inner = "<w:r><w:t>Deep link text. It is nested.</w:t></w:r>"
    body = "<w:p>" + "<w:hyperlink>" * depth + inner + "</w:hyperlink>" * depth + "</w:p>"
    return docx_bytes(para("Intro sentence here.") + body)


def docx_with_parts(**parts: bytes) -> bytes:
    return docx_bytes(GOOD_BODY, extra={k.replace("__", "/").replace("_dot_", "."): v for k, v in parts.items()})


# --- PDF ---------------------------------------------------------------------------------------


def raw_pdf(content: bytes, font_extra: str = "", extra_objects: list[bytes] | None = None,
            media: str = "0 0 612 792", content_filter: str = "") -> bytes:
    """A hand-written one-page PDF with a correct xref (Helvetica, ``content`` as the page stream)."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [{media}] /Contents 4 0 R "
        f"/Resources << /Font << /F1 5 0 R >> >> >>".encode(),
        f"<< /Length {len(content)} {content_filter}>>\nstream\n".encode() + content + b"\nendstream",
        f"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica {font_extra}>>".encode(),
        *(extra_objects or []),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


TEXT_STREAM = b"BT /F1 12 Tf 72 700 Td (Hello world. This is a fine sentence.) Tj ET"


def pdf_lone_surrogate() -> bytes:
    """A ToUnicode map that turns 'A' into a lone surrogate (U+D800)."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def "
            b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <41> <D800> endbfchar "
            b"endcmap CMapName currentdict /CMap defineresource pop end end")
    content = b"BT /F1 12 Tf 72 700 Td (Hello world. An A is here. Bye now.) Tj ET"
    return raw_pdf(content, "/ToUnicode 6 0 R ",
                   [f"<< /Length {len(cmap)} >>\nstream\n".encode() + cmap + b"\nendstream"])


def pdf_stream_bomb(size: int = 80 << 20) -> bytes:
    """A page stream that inflates to more than pypdf's decompression limit (LimitReachedError)."""
    comp = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    data = comp.compress(b"BT /F1 12 Tf 72 700 Td (Hello there.) Tj ET ")
    for _ in range(size >> 20):
        data += comp.compress(chunk)
    data += comp.flush()
    return raw_pdf(data, content_filter="/Filter /FlateDecode ")


def encrypted_pdf(path: Path, user: str, owner: str, algorithm: str) -> None:
    from pypdf import PdfReader, PdfWriter

    w = PdfWriter()
    for p in PdfReader(io.BytesIO(raw_pdf(TEXT_STREAM))).pages:
        w.add_page(p)
    w.encrypt(user_password=user, owner_password=owner, algorithm=algorithm)
    with open(path, "wb") as f:
        w.write(f)


def _image_only_pdf() -> bytes:
    return raw_pdf(b"0 0 1 rg 100 100 200 200 re f")


# --- progress files and bundles ----------------------------------------------------------------




def write_progress(path: Path, meta: object | None = None, crcs: object = (), memory: dict | None = None,
                   raw_meta: np.ndarray | None = None) -> None:
    arrays: dict[str, np.ndarray] = {}
    if raw_meta is not None:
        arrays["meta"] = raw_meta
    elif meta is not None:
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    if crcs is not None:
        arrays["source_crcs"] = np.asarray(crcs, dtype=np.uint32)
    for k, v in (memory or {}).items():
        arrays[f"memory.{k}"] = v
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def copy_bundle(dst: Path) -> Path:
    shutil.copytree(shipped_bundle("en", "zh"), dst)
    return dst


def edit_model_json(bundle: Path, fn: Callable[[dict], None]) -> None:
    mj = bundle / "model.json"
    meta = json.loads(mj.read_text())
    fn(meta)
    mj.write_text(json.dumps(meta, indent=2))


# --- the corpus --------------------------------------------------------------------------------

EN_TEXT = "".join(f"Sentence number {i} is here. Another one follows {i}!\n\n" for i in range(10))


@dataclass
class Case:
    name: str
    build: Callable[[Path], list[str]]  # files into the folder -> translate arguments
    exit: int | tuple[int, ...]  # several: the outcome depends on the PDF reader/writer in use
    fragment: str  # must appear in the last error line (exit != 0) or in stdout (exit 0)
    engine: str = "fake"  # "fake", "bundle" (a copy of the shipped en->zh bundle), "registry" (installed)
    absent: str = ""  # must NOT appear in the output (a misleading word)
    env: dict[str, str] | None = None


def _w(name: str, data: bytes | str) -> Callable[[Path], Path]:
    def make(d: Path) -> Path:
        p = d / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return p
    return make


def simple(name: str, data: bytes | str | Callable[[], bytes], out: str | None = None,
           extra: tuple[str, ...] = ()) -> Callable[[Path], list[str]]:
    def build(d: Path) -> list[str]:
        payload = data() if callable(data) else data
        src = _w(name, payload)(d)
        return [str(src), "-o", str(d / (out or "out" + (src.suffix if src.suffix in (".txt", ".docx", ".pdf")
                                                            else ".txt"))), *extra]
    return build


def _txt_then(fn: Callable[[Path, Path], list[str]]) -> Callable[[Path], list[str]]:
    def build(d: Path) -> list[str]:
        src = _w("doc.txt", EN_TEXT)(d)
        return fn(d, src)
    return build


def _bad_byte_late(d: Path) -> list[str]:
    line = "A plain sentence of ascii text is here.\n"
    data = (line * (1_056_372 // len(line) + 1)).encode()[:1_056_372] + b"\xff\xfe bad\n"
    src = _w("late.txt", data)(d)
    return [str(src), "-o", str(d / "out.txt")]


def _dir_named_txt(d: Path) -> list[str]:
    (d / "x.txt").mkdir()
    return [str(d / "x.txt"), "-o", str(d / "out")]


def _output_parent_is_file(d: Path) -> list[str]:
    src = _w("doc.txt", EN_TEXT)(d)
    (d / "afile").write_text("I am a file")
    return [str(src), "-o", str(d / "afile" / "out.txt")]


def _encrypted(user: str, owner: str, algorithm: str) -> Callable[[Path], list[str]]:
    def build(d: Path) -> list[str]:
        src = d / "locked.pdf"
        encrypted_pdf(src, user, owner, algorithm)
        return [str(src), "-o", str(d / "out.txt")]
    return build


def _progress_case(make: Callable[[Path, Path], None]) -> Callable[[Path], list[str]]:
    def build(d: Path) -> list[str]:
        src = _w("doc.txt", EN_TEXT)(d)
        out = d / "out.txt"
        make(out.with_name(out.name + PROGRESS_SUFFIX), src)
        return [str(src), "-o", str(out), "--resume"]
    return build


def _meta(src: Path, **over: object) -> dict:
    return {"version": 1, "input_sha256": sha256_file(src), "src_lang": "en", "tgt_lang": "de",
            "translations": ["A.", "B."], **over}


def _bundle_case(tamper: Callable[[Path], None], text: str = EN_TEXT) -> Callable[[Path], list[str]]:
    def build(d: Path) -> list[str]:
        bundle = copy_bundle(d / "bundle")
        tamper(bundle)
        src = _w("doc.txt", text)(d)
        return [str(src), "-o", str(d / "out.txt"), "--model", str(bundle), "-q"]
    return build


def _garbage_weights(bundle: Path) -> None:
    w = bundle / "weights.bin"
    size = w.stat().st_size
    rng = np.random.default_rng(0)
    # Same size, plausible float32 values: loads fine, translates garbage.
    w.write_bytes(rng.standard_normal(size // 4).astype(np.float32).tobytes() + b"\0" * (size % 4))


def _progress_wrong_memory(d: Path) -> list[str]:
    src = _w("doc.txt", EN_TEXT)(d)
    out = d / "out.txt"
    write_progress(out.with_name(out.name + PROGRESS_SUFFIX),
                   _meta(src, src_lang="en", tgt_lang="zh", translations=["甲。"]),
                   [zlib.crc32(b"Sentence number 0 is here.")],
                   {"src": np.zeros((2, 3), np.float32), "tgt": np.zeros((1, 16, 256), np.float32)})
    return [str(src), "-o", str(out), "--resume", "--model", str(copy_bundle(d / "bundle")), "-q"]


def _progress_memory_other_model(d: Path) -> list[str]:
    """A well-formed progress file whose memory has another model's slot count (8, not 16)."""
    src = _w("doc.txt", EN_TEXT)(d)
    out = d / "out.txt"
    write_progress(out.with_name(out.name + PROGRESS_SUFFIX),
                   _meta(src, src_lang="en", tgt_lang="zh", translations=["甲。"]),
                   [zlib.crc32(b"Sentence number 0 is here.")],
                   {"src": np.zeros((1, 8, 256), np.float32), "tgt": np.zeros((1, 8, 256), np.float32)})
    return [str(src), "-o", str(out), "--resume", "--model", str(copy_bundle(d / "bundle")), "-q"]


def _two_same_names(d: Path) -> list[str]:
    (d / "a").mkdir()
    (d / "b").mkdir()
    _w("a/doc.txt", EN_TEXT)(d)
    _w("b/doc.txt", EN_TEXT)(d)
    return [str(d / "a" / "doc.txt"), str(d / "b" / "doc.txt"), "-o", str(d / "out")]


def _folder_with_bad_file(d: Path) -> list[str]:
    (d / "in" / "sub").mkdir(parents=True)
    _w("in/good.txt", EN_TEXT)(d)
    _w("in/sub/good2.txt", EN_TEXT)(d)
    _w("in/bad.docx", "not a zip")(d)
    _w("in/notes.xyz", "ignored")(d)
    return [str(d / "in"), "-o", str(d / "out")]


def _tiny_page_pdf(d: Path) -> list[str]:
    text = b"BT /F1 4 Tf 2 30 Td (Hello world. Small page here.) Tj ET"
    src = _w("tiny.pdf", raw_pdf(text, media="0 0 60 60"))(d)
    return [str(src), "-o", str(d / "out.pdf")]


def _xml_part_bomb() -> bytes:
    """A docx whose main part declares ~40 MiB of empty paragraphs (the limit is set to 8 MiB)."""
    body = "<w:p/>" * ((40 << 20) // 6)
    return docx_bytes(para("Hello there.") + body)


CASES: list[Case] = [
    # --- paths and options
    Case("missing input", lambda d: [str(d / "missing.txt"), "-o", str(d / "o.txt")], 2, "no such file"),
    Case("unsupported input suffix", simple("data.xyz", "hello"), 2, "unsupported file type"),
    Case("input without suffix", simple("README", "hello", out="o.txt"), 2, "unsupported file type"),
    Case("output is the input", lambda d: [str(_w("a.txt", EN_TEXT)(d)), "-o", str(d / "a.txt")], 2,
         "must not be the input"),
    Case("unsupported output suffix", simple("a.txt", EN_TEXT, out="o.exe"), 2, "unsupported"),
    Case("output directory missing", _txt_then(lambda d, s: [str(s), "-o", str(d / "no" / "o.txt")]), 2,
         "does not exist"),
    Case("output parent is a file", _output_parent_is_file, 2, "not a directory"),
    Case("output location unwritable", _txt_then(lambda d, s: [str(s), "-o", "/proc/doctrans-out.txt"]), 2,
         "cannot write"),
    Case("output is an existing directory named like a file",
         _txt_then(lambda d, s: [str(s), "-o", str((d / "o.txt").mkdir() or d / "o.txt")]), 0, "o.txt"),
    Case("input directory named x.txt (empty)", _dir_named_txt, 2, "no documents"),
    Case("two inputs with the same name", _two_same_names, 2, "same file name"),
    Case("folder with one bad file", _folder_with_bad_file, 2, "1 of 3"),
    # --- text
    Case("empty txt", simple("empty.txt", b""), 2, "empty"),
    Case("whitespace-only txt", simple("ws.txt", "  \n\n \t\n"), 2, "empty"),
    Case("binary data as txt", simple("bin.txt", b"\x00\x01\x02garbage\x00" * 50), 2, "binary"),
    Case("invalid byte at 1,056,372", _bad_byte_late, 2, "byte 1056372"),
    Case("200k-character line", simple("long.txt", ("word " * 40_000).strip() + "\n"), 0, "sentences"),
    # --- docx
    Case("zip but not a docx", simple("fake.docx", lambda: _zip({"hello.txt": b"hi"})), 2, "not a Word document"),
    Case("text named docx", simple("text.docx", "just text"), 2, "not a .docx"),
    Case("old binary .doc named docx", simple("old.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600), 2,
         "old binary Word"),
    Case("truncated docx", simple("cut.docx", lambda: docx_bytes(GOOD_BODY)[:700]), 2, "truncated"),
    Case("empty docx (no text)", simple("empty.docx", lambda: docx_bytes("<w:p/>")), 2, "no text",
         absent="language", engine="registry"),
    Case("docx with only whitespace", simple("blank.docx", lambda: docx_bytes(para("   "))), 2, "no text",
         absent="language", engine="registry"),
    Case("docx main part not XML", simple("badxml.docx", lambda: _zip({
        "[Content_Types].xml": _CONTENT_TYPES.encode(), "word/document.xml": b"<w:document><oops"})), 2,
         "not valid XML"),
    Case("docx content types not XML", simple("badct.docx", lambda: _zip({"[Content_Types].xml": b"<<<"})), 2,
         "damaged"),
    Case("docx corrupt deflate stream (zlib.error)", simple("zlib.docx", docx_bad_deflate), 2, "damaged"),
    Case("docx unknown compression (NotImplementedError)", simple("aes.docx", docx_unknown_compression), 2,
         "compression"),
    Case("docx CRC mismatch", simple("crc.docx", docx_bad_crc), 2, "corrupt"),
    Case("docx 1,500 nested hyperlinks (RecursionError)", simple("deep.docx", docx_nested_links), 2,
         "nested too deeply"),
    Case("docx XML bomb over the limit", simple("bomb.docx", _xml_part_bomb), 2, "DOCTRANS_MAX_UNZIPPED_MB",
         env={"DOCTRANS_MAX_UNZIPPED_MB": "8"}),
    # --- pdf
    Case("text named pdf", simple("text.pdf", "Just some text, not a PDF."), 2, "not a PDF"),
    Case("truncated pdf", simple("cut.pdf", lambda: raw_pdf(TEXT_STREAM)[:300]), 2, "truncated"),
    Case("pdf header and eof, garbage between", simple("junk.pdf", b"%PDF-1.4\n" + b"garbage " * 200 + b"\n%%EOF\n"),
         2, "PDF"),
    Case("pdf without text layer", simple("scan.pdf", _image_only_pdf), 2, "no text layer"),
    Case("RC4 pdf with a password", _encrypted("secret", "owner", "RC4-128"), 2, "encrypted with a password"),
    Case("AES-256 pdf with a password", _encrypted("secret", "owner", "AES-256"), 2, "encrypted with a password"),
    Case("AES-128 pdf, owner password only", _encrypted("", "owner", "AES-128"), 0, "sentences"),
    Case("AES-256 pdf, owner password only", _encrypted("", "owner", "AES-256"), 0, "sentences"),
    # pypdf refuses the stream (LimitReachedError: a damaged-file line); a reader that decodes it
    # translates the page. Either way: no "bug", one line.
    Case("pdf stream over pypdf's limit (LimitReachedError)", simple("bomb.pdf", pdf_stream_bomb, out="out.txt"),
         (0, 2), "bomb.pdf"),
    Case("pdf with a lone surrogate", simple("sur.pdf", pdf_lone_surrogate), 0, "sentences"),
    # A reflowing writer cannot fit a frame on a 60 pt page (reportlab LayoutError): the translation
    # goes to out.txt and the error says so; a writer drawing into the page's own boxes succeeds.
    Case("pdf page too small for the rebuilt layout (LayoutError)", _tiny_page_pdf, (0, 2), "out"),
    # --- progress files
    Case("progress file is garbage", _progress_case(lambda p, s: p.write_bytes(b"garbage" * 10)), 2,
         "progress file is damaged"),
    Case("progress file with pickled objects", _progress_case(lambda p, s: write_progress(
        p, raw_meta=np.array([{"evil": 1}], dtype=object))), 2, "progress file is damaged", absent="allow_pickle"),
    Case("progress file without source_crcs", _progress_case(lambda p, s: write_progress(p, _meta(s), crcs=None)), 2,
         "progress file is damaged"),
    Case("progress file with more translations than crcs", _progress_case(lambda p, s: write_progress(
        p, _meta(s), crcs=[1])), 2, "progress file is damaged"),
    Case("progress file with a non-string translation", _progress_case(lambda p, s: write_progress(
        p, _meta(s, translations=[1, 2]), crcs=[1, 2])), 2, "progress file is damaged"),
    Case("progress file with missing meta keys", _progress_case(lambda p, s: write_progress(
        p, {"version": 1}, crcs=[])), 2, "progress file is damaged"),
    Case("progress memory of the wrong shape", _progress_wrong_memory, 2, "progress file", engine="bundle"),
    Case("progress memory of another model", _progress_memory_other_model, 2, "does not fit this model",
         engine="bundle"),
    # --- model bundles
    Case("bundle memory_init.npz corrupt", _bundle_case(lambda b: (b / "memory_init.npz").write_bytes(b"PK\3\4junk")),
         2, "memory_init.npz", engine="bundle"),
    Case("bundle weights.bin replaced by same-size garbage", _bundle_case(_garbage_weights), 2, "weights.bin",
         engine="bundle"),
    Case("bundle eos id out of range", _bundle_case(lambda b: edit_model_json(
        b, lambda m: m["special_ids"].__setitem__("eos", m["model"]["vocab_size"] + 500))), 2, "eos", engine="bundle"),
    Case("bundle max_len larger than the model", _bundle_case(lambda b: edit_model_json(
        b, lambda m: m["model"].__setitem__("max_len", 4096)), text="word " * 600 + "\n"), 2, "model",
         engine="bundle"),
]


def _zip(parts: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for k, v in parts.items():
            z.writestr(k, v)
    return buf.getvalue()


@dataclass
class Outcome:
    exit: int
    message: str  # the stderr lines (or stdout on success), folded
    stderr_lines: int
    intact: bool  # every file that existed before the run is byte-identical
    leftovers: list[str]  # temp files, partial outputs


def _snapshot(d: Path) -> dict[Path, str]:
    return {p: sha256_file(p) for p in d.rglob("*") if p.is_file()}


def run_case(case: Case, d: Path) -> Outcome:
    """Build ``case`` in the empty folder ``d`` and run ``doctrans translate`` on it in-process."""
    import os
    from unittest import mock

    from typer.testing import CliRunner

    from doctrans import cli
    from tests.fakes import FakeTranslator

    args = case.build(d)
    before = _snapshot(d)
    # No periodic progress line: on a loaded machine a slow case may reach the 10 s mark, and the
    # test reads stderr as the error lines (progress lines are tested in test_txt_progress.py).
    patches = [mock.patch.dict(os.environ, case.env or {}), mock.patch.object(cli, "PROGRESS_LINE_SECONDS", 1e9)]
    if case.engine == "fake":
        tr = FakeTranslator()
        patches.append(mock.patch.object(cli, "open_translator", lambda *_a, **_k: tr))
    for p in patches:
        p.start()
    try:
        result = CliRunner().invoke(cli.app, ["translate", *args])
    finally:
        for p in reversed(patches):
            p.stop()
    after = _snapshot(d)
    intact = all(after.get(p) == h for p, h in before.items())
    new = [p for p in after if p not in before]
    said = result.stdout + result.stderr
    # Left behind: temp files, and on failure any new file the run did not name (a partial output).
    leftovers = sorted(str(p.relative_to(d)) for p in new
                       if p.name.endswith(".tmp") or (result.exit_code != 0 and not p.name.endswith(PROGRESS_SUFFIX)
                                                      and p.name not in said))
    err = result.stderr.strip()
    msg = " | ".join(err.splitlines()) if err else result.stdout.strip().splitlines()[-1:] and result.stdout.strip()
    return Outcome(result.exit_code, str(msg or ""), len(err.splitlines()), intact, leftovers)
