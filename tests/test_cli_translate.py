"""The CLI end to end with the fake engine: bad input, big input, several inputs, resume."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from doctrans import cli
from doctrans.engine.interface import MemoryState
from doctrans.translate_job import progress_path
from tests.document_builders import make_docx, make_pdf
from tests.fakes import FakeSession, FakeTranslator

runner = CliRunner()


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> FakeTranslator:
    tr = FakeTranslator()
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: tr)
    return tr


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(cli.app, ["translate", *args])


def assert_one_line_error(result, *fragments: str) -> None:  # type: ignore[no-untyped-def]
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output + result.stderr
    for f in fragments:
        assert f in lines[0], lines[0]


def _encrypted_pdf(path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    src = make_pdf(path.with_name("plain.pdf"))
    w = PdfWriter()
    for p in PdfReader(src).pages:
        w.add_page(p)
    w.encrypt("secret", algorithm="RC4-128")
    w.write(path)


def _image_only_pdf(path: Path) -> None:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path))
    c.rect(100, 100, 200, 200, fill=1)
    c.showPage()
    c.save()


def _not_docx_zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("hello.txt", "not a word document")


def _corrupt(data: bytes) -> bytes:
    """Header and end marker intact, the objects in between replaced by garbage."""
    return data[:400] + b"garbage" * 50 + data[-600:]


BAD_INPUTS = {
    "empty.txt": (lambda p: p.write_bytes(b""), "empty"),
    "whitespace.txt": (lambda p: p.write_text("  \n\n \t\n"), "empty"),
    "data.xyz": (lambda p: p.write_text("hello"), "unsupported file type"),
    "fake.docx": (_not_docx_zip, "not a Word document"),
    "text.docx": (lambda p: p.write_text("just text"), "not a .docx"),
    "text.pdf": (lambda p: p.write_text("Just some text, not a PDF."), "not a PDF"),
    "locked.pdf": (_encrypted_pdf, "encrypted"),
    "scan.pdf": (_image_only_pdf, "no text layer"),
    "cut.docx": (lambda p: p.write_bytes(make_docx(p.with_name("full.docx")).read_bytes()[:3000]),
                 "truncated"),
    "corrupt.pdf": (lambda p: p.write_bytes(_corrupt(make_pdf(p.with_name("full.pdf")).read_bytes())),
                    "damaged PDF"),
    "cut.pdf": (lambda p: p.write_bytes(make_pdf(p.with_name("full.pdf")).read_bytes()[:2000]),
                "truncated"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gives_one_clear_line(tmp_path: Path, engine: FakeTranslator, name: str) -> None:
    make, fragment = BAD_INPUTS[name]
    src = tmp_path / name
    make(src)
    before = sha(src)
    out = tmp_path / ("out" + (src.suffix if src.suffix != ".xyz" else ".txt"))
    result = run(str(src), "-o", str(out))
    assert_one_line_error(result, fragment, name)
    assert sha(src) == before
    assert not out.exists() and not list(tmp_path.glob(".out*.tmp"))


def test_path_errors(tmp_path: Path, engine: FakeTranslator) -> None:
    src = tmp_path / "a.txt"
    src.write_text("Hello there.\n")
    assert_one_line_error(run(str(tmp_path / "missing.txt"), "-o", str(tmp_path / "o.txt")), "no such file")
    assert_one_line_error(run(str(src), "-o", str(src)), "must not be the input")
    assert_one_line_error(run(str(src), "-o", str(tmp_path / "o.exe")), "unsupported")
    assert src.read_text() == "Hello there.\n"


def test_missing_model_and_language_mismatch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "a.txt"
    src.write_text("Hello there.\n")
    monkeypatch.setenv("DOCTRANS_MODELS", str(tmp_path / "none"))
    monkeypatch.setattr("doctrans.models_registry.PACKAGE_MODELS", tmp_path / "none")
    assert_one_line_error(run(str(src), "-o", str(tmp_path / "o.txt")), "no default model", "--model")
    assert_one_line_error(run(str(src), "-o", str(tmp_path / "o.txt"), "--model", str(tmp_path / "nope")),
                          "not found")
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: FakeTranslator())
    assert_one_line_error(run(str(src), "-o", str(tmp_path / "o.txt"), "--src", "fr"), "--src fr", "en->de")


def test_bundle_error_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from doctrans.engine import BundleError

    def broken(bundle: Path, **_: object) -> None:
        raise BundleError(f"{bundle}: model.json is missing")

    monkeypatch.setattr("doctrans.engine.load_translator", broken)
    (tmp_path / "bundle").mkdir()
    src = tmp_path / "a.txt"
    src.write_text("Hello.\n")
    result = run(str(src), "-o", str(tmp_path / "o.txt"), "--model", str(tmp_path / "bundle"))
    assert_one_line_error(result, "model.json is missing")


def test_default_bundle_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from doctrans.models_registry import default_bundle

    (tmp_path / "m1").mkdir()
    (tmp_path / "m1" / "model.json").write_text('{"src_lang": "en", "tgt_lang": "zh"}')
    monkeypatch.setenv("DOCTRANS_MODELS", str(tmp_path))
    assert default_bundle("en", "zh") == tmp_path / "m1"
    assert default_bundle(None, None) == tmp_path / "m1"
    assert default_bundle("de", "en") is None


@pytest.mark.slow  # 20 s: a multi-megabyte text through the whole job
def test_large_text_and_long_sentence(tmp_path: Path, engine: FakeTranslator) -> None:
    paragraph = "The quick brown fox jumps over the lazy dog. It was 3.5 m away! Really?\n"
    big = (paragraph * 3 + "\n") * (5_000_000 // (len(paragraph) * 3 + 1))
    long_sentence = " ".join(f"w{i}" for i in range(1200))  # > 5,000 chars, no punctuation
    src = tmp_path / "big.txt"
    src.write_text(big + long_sentence + "\n", encoding="utf-8")
    before = sha(src)
    out = tmp_path / "big.de.txt"
    result = run(str(src), "-o", str(out), "-q")
    assert result.exit_code == 0, result.stderr
    assert sha(src) == before
    text = out.read_text(encoding="utf-8")
    assert text == (big + long_sentence + "\n").upper()
    long_calls = [c for c in engine.calls if c.startswith("w")]
    assert len(long_calls) > 1 and sum(len(c.split()) for c in long_calls) == 1200  # cut, not dropped
    assert all(len(c.split()) <= engine.max_source_tokens for c in long_calls)


def test_several_inputs_into_a_directory(tmp_path: Path, engine: FakeTranslator) -> None:
    a = tmp_path / "a.txt"
    a.write_text("One sentence.\n")
    b = make_docx(tmp_path / "b.docx")
    result = run(str(a), str(b), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "a.txt").read_text() == "ONE SENTENCE.\n"
    assert zipfile.is_zipfile(tmp_path / "out" / "b.docx")


class Interrupting(FakeTranslator):
    """Raises KeyboardInterrupt (Ctrl-C) on the n-th sentence; records the resume memory. Calls for
    ``phrases`` (a .docx's bold or linked words, translated alone for the writer) are no sentences:
    they are not counted, nor kept in ``calls``."""

    def __init__(self, after: int | None, phrases: frozenset[str] = frozenset()):
        super().__init__()
        self.after = after
        self.resumed_from: list[float] = []

        def fn(s: str) -> str:
            if s in phrases:
                if self.calls and self.calls[-1] == s:  # (fn runs twice a call: popped once)
                    self.calls.pop()
            elif self.after is not None and len(self.calls) > self.after:
                raise KeyboardInterrupt
            return s.upper()

        self.fn = fn

    def new_document(self, memory: MemoryState | None = None, *, return_attention: bool = False) -> FakeSession:
        if memory is not None:
            self.resumed_from.append(float(memory["src"].ravel()[0]))
        return super().new_document(memory)


@pytest.mark.parametrize("suffix", [".docx", ".txt"])
def test_ctrl_c_then_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    if suffix == ".docx":
        src = make_docx(tmp_path / "doc.docx")
    else:
        src = tmp_path / "doc.txt"
        src.write_text("".join(f"Sentence number {i}. Another one {i}!\n\n" for i in range(20)))
    out = tmp_path / ("out" + suffix)
    from doctrans.documents import read_document
    from doctrans.segment import segment_block
    blocks = list(read_document(src).blocks())
    sentences = {b.text[s:e] for b in blocks for s, e in segment_block(b.text, "en", len, 10_000)}
    phrases = frozenset(b.text[slice(*r.stretch)].strip() for b in blocks for r in b.runs if r.anchor) - sentences
    first = Interrupting(after=7, phrases=phrases)
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: first)
    result = run(str(src), "-o", str(out))
    assert result.exit_code == 130
    assert_one_line_error(result, "--resume", "7 sentences")
    saved = progress_path(out)
    assert saved.exists() and not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    with np.load(saved) as z:
        assert float(z["memory.src"].ravel()[0]) == 7.0

    second = Interrupting(after=None, phrases=phrases)
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: second)
    result = run(str(src), "-o", str(out), "--resume")
    assert result.exit_code == 0, result.stderr
    assert "7 resumed" in result.stdout
    finished_first = first.calls[:-1]  # the last call was interrupted before it finished
    assert len(finished_first) == 7
    assert second.resumed_from == [7.0]  # memory restored where it stopped
    all_calls = finished_first + second.calls
    reference = Interrupting(after=None, phrases=phrases)
    from doctrans.translate_job import translate_file

    translate_file(src, tmp_path / ("ref" + suffix), reference)
    assert all_calls == reference.calls  # every sentence exactly once, in order
    assert not saved.exists()
    if suffix == ".txt":
        assert out.read_text() == src.read_text().upper()
    else:
        with zipfile.ZipFile(out) as a, zipfile.ZipFile(tmp_path / "ref.docx") as b:
            assert all(a.read(n) == b.read(n) for n in a.namelist())


def test_resume_refuses_a_changed_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "doc.txt"
    src.write_text("".join(f"Sentence {i}.\n\n" for i in range(10)))
    out = tmp_path / "out.txt"
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: Interrupting(after=3))
    assert run(str(src), "-o", str(out)).exit_code == 130
    src.write_text("Changed.\n")
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: FakeTranslator())
    assert_one_line_error(run(str(src), "-o", str(out), "--resume"), "different version")


def test_help_lists_translate() -> None:
    result = runner.invoke(cli.app, ["--help"])
    assert result.exit_code == 0 and "translate" in result.output


def test_one_input_into_a_directory_named_with_a_slash(tmp_path: Path, engine: FakeTranslator) -> None:
    """`doctrans translate a.txt -o out/` wrote nothing ("unsupported file type '(no suffix)'"): the
    slash was lost on the way to a Path; it names a directory, made if it is not there."""
    a = tmp_path / "a.txt"
    a.write_text("One sentence.\n")
    result = run(str(a), "-o", str(tmp_path / "out") + "/")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "a.txt").read_text() == "ONE SENTENCE.\n"
    # Without the slash a name with no suffix is still a file the formats do not know: one line.
    assert_one_line_error(run(str(a), "-o", str(tmp_path / "other")), "unsupported file type")
