"""Zip bombs and large parts, measured in a child process: peak memory (its own maximum resident
set size from wait4) and time stay bounded (issue 16, defect 5)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from tests.bad_inputs import _CONTENT_TYPES, _RELS, GOOD_BODY, W_NS, docx_bytes

ROOT = Path(__file__).resolve().parent.parent
MIB = 1 << 20


def run_child(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, float, float]:
    """(exit code, stderr, peak RSS in MiB, seconds) of ``doctrans translate ARGS`` in a child.

    The peak is the child's own VmHWM (tests/cli_child.py), not rusage: see there why."""
    peak_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"doctrans-peak-{os.getpid()}-{time.monotonic_ns()}"
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "tests.cli_child", "translate", *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "DOCTRANS_TEST_PEAK_FILE": str(peak_file),
                               **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - t0
    peak = int(peak_file.read_text()) / 1024
    peak_file.unlink()
    return proc.returncode, proc.stderr, peak, seconds


def empty_paragraph_bomb(path: Path, mib: int) -> Path:
    """The issue's bomb: a main part of ``mib`` MiB of empty paragraphs, streamed into the zip."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _RELS)
        with z.open("word/document.xml", "w") as f:
            f.write(f'<?xml version="1.0"?><w:document xmlns:w="{W_NS}"><w:body>'
                    "<w:p><w:r><w:t>Hello there.</w:t></w:r></w:p>".encode())
            chunk = b"<w:p/>" * (MIB // 6)
            for _ in range(mib):
                f.write(chunk)
            f.write(b"</w:body></w:document>")
    return path


def test_empty_paragraph_bomb_is_refused_fast_and_small(tmp_path: Path) -> None:
    bomb = empty_paragraph_bomb(tmp_path / "bomb.docx", 192)
    assert bomb.stat().st_size < 1 * MIB  # ~200 KB on disk
    code, err, peak, seconds = run_child(str(bomb), "-o", str(tmp_path / "out.docx"))
    assert code == 2, err
    assert err.count("\n") == 1 and "DOCTRANS_MAX_XML_MB" in err and "zip bomb" in err
    assert peak < 200, f"peak RSS {peak:.0f} MiB"  # was > 4 GB before the check
    assert seconds < 15
    assert not list(tmp_path.glob("out*")) and not list(tmp_path.glob(".*.tmp"))
    print(f"bomb refused: peak RSS {peak:.0f} MiB, {seconds:.1f} s")


def test_large_media_part_is_streamed(tmp_path: Path) -> None:
    """A 64 MiB incompressible media part (within every limit) is copied to the output in chunks:
    the child's peak RSS grows by far less than the part's size."""
    small = tmp_path / "small.docx"
    small.write_bytes(docx_bytes(GOOD_BODY))
    media = tmp_path / "media.docx"
    media.write_bytes(docx_bytes(GOOD_BODY, {"word/media/video.bin": os.urandom(64 * MIB)}))
    code0, err0, base, _ = run_child(str(small), "-o", str(tmp_path / "small.out.docx"), "-q")
    code1, err1, peak, _ = run_child(str(media), "-o", str(tmp_path / "media.out.docx"), "-q")
    assert code0 == 0 and code1 == 0, err0 + err1
    with zipfile.ZipFile(media) as a, zipfile.ZipFile(tmp_path / "media.out.docx") as b:
        assert a.read("word/media/video.bin") == b.read("word/media/video.bin")
    assert peak - base < 32, f"peak RSS {peak:.0f} MiB vs {base:.0f} MiB for a small docx"
    print(f"64 MiB media part: peak RSS {peak:.0f} MiB (small docx {base:.0f} MiB)")


def test_declared_giant_media_part_is_refused(tmp_path: Path) -> None:
    """A 1 GiB part of zeros (about 1 MB compressed) exceeds the package limit and the ratio."""
    path = tmp_path / "giant.docx"
    src = zipfile.ZipFile(io.BytesIO(docx_bytes(GOOD_BODY)))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for info in src.infolist():
            z.writestr(info.filename, src.read(info))
        with z.open("word/media/zeros.bin", "w", force_zip64=True) as f:
            chunk = bytes(16 * MIB)
            for _ in range(64):
                f.write(chunk)
    code, err, peak, seconds = run_child(str(path), "-o", str(tmp_path / "out.docx"))
    assert code == 2 and "DOCTRANS_MAX_UNZIPPED_MB" in err, err
    assert peak < 200 and seconds < 15
