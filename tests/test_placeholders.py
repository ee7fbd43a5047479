"""Issue 14 at run time: verbatim spans through the real ONNX engine of a tiny model trained to copy
placeholders, the placeholder fallback (a stub search that drops one), untranslatable sentences,
the glossary end to end, the check after translation with ``--report``, and the TUI's marks."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from doctrans import cli
from doctrans.engine import onnx_engine
from doctrans.engine.beam import Hypothesis
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.glossary import Glossary
from doctrans.tui.state import DocumentState
from doctrans.tui.widgets import WARNING_MARK, sentence_row
from doctrans.verbatim import placeholder
from tests.fakes import FakeTranslator
from tests.tiny_model import WORDS, one_torch_thread, shared_placeholder_bundle  # noqa: F401 - fixture

runner = CliRunner()

# What the issue saw changed: figures, versions, identifiers, e-mails, URLs.
SPANS = ["320", "1,250", "2024", "3.5%", "0.75", "98765", "Q3", "v2.1.0", "https://example.org/a?b=1&c=2",
         "ttl_seconds", "help-libtasn1@gnu.org", "getElementById", "/etc/hosts", "2024-03-15", "10:30"]


@pytest.fixture(scope="module")
def bundle() -> Path:
    return shared_placeholder_bundle()


def span_sentences(n: int, seed: int) -> list[tuple[str, list[str]]]:
    """Toy English sentences (the tiny model's words) with 1-3 spans among the words."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(2, 5))]
        used = rng.sample(SPANS, rng.randint(1, 3))
        for s in used:
            words.insert(rng.randint(0, len(words)), s)
        out.append((" ".join(words) + " .", used))
    return out


def test_the_bundle_has_placeholder_pieces(bundle: Path) -> None:
    tr = OnnxTranslator.load(bundle)
    assert tr.placeholders == 16
    assert placeholder(3) in tr.tokenizer.pieces(tr.tokenizer.encode(f"a {placeholder(3)} b"))  # one piece


def test_spans_come_back_byte_identical_through_the_model(bundle: Path) -> None:
    tr = OnnxTranslator.load(bundle, beam_size=3)
    session = tr.new_document()
    copied_by_model = 0
    cases = span_sentences(30, seed=11)
    for source, used in cases:
        r = session.translate(source)
        for s in used:
            assert s in r.translation, (source, r.translation)
        # The model read placeholders, not the spans.
        assert placeholder(1) in r.src_tokens and not any(s in "".join(r.src_tokens) for s in ("320", "gnu.org"))
        copied_by_model += not r.notes
    # The model itself copied (nearly) every placeholder; the fallback is for the rest.
    assert copied_by_model >= 0.9 * len(cases)


def test_untranslatable_sentences_are_copied_without_the_model(bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tr = OnnxTranslator.load(bundle)
    session = tr.new_document()
    session.translate("the cat sees a house .")
    before = session.memory
    calls: list[int] = []
    real = session.translate_ids
    monkeypatch.setattr(session, "translate_ids", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    for text in ["320", "https://example.org/a", "v2.1.0", "2024-03-15", "¥1,250.00", "—", ">>> import os"]:
        r = session.translate(text)
        assert (r.translation, r.copied, r.src_tokens) == (text, True, [])
    # An amount is written the output's way, still without the model (doctrans.currency).
    assert session.translate("$1,250.00").translation == "1,250.00美元"
    assert calls == []
    for side, m in session.memory.items():  # the memory only sees what the model translated
        np.testing.assert_array_equal(m, before[side])
    assert not session.translate("the cat 320 .").copied and calls == [1]


class DroppingSearch:
    """Wraps the real n-best search and removes ⦅1⦆ from the hypotheses of the searches whose beam
    is in ``drop_at`` (the stub decoder of a model that dropped a placeholder)."""

    def __init__(self, drop_id: int, drop_at: set[int]) -> None:
        self.real = onnx_engine.beam_search_n_best
        self.drop_id, self.drop_at = drop_id, drop_at
        self.beams: list[int] = []

    def __call__(self, decoder, batch, beam, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.beams.append(beam)
        rows = self.real(decoder, batch, beam, *args, **kwargs)
        if beam not in self.drop_at:
            return rows
        return [[Hypothesis([t for t in h.tokens if t != self.drop_id], h.score) for h in hyps] for hyps in rows]


def test_fallback_redecodes_when_the_model_drops_a_placeholder(bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tr = OnnxTranslator.load(bundle, beam_size=2)
    source = "the cat 320 sees https://example.org/a ."
    plain = tr.new_document().translate(source)
    assert not plain.notes and "320" in plain.translation
    stub = DroppingSearch(tr.tokenizer.piece_id(placeholder(1)), {2})
    monkeypatch.setattr(onnx_engine, "beam_search_n_best", stub)
    r = tr.new_document().translate(source)
    assert stub.beams == [2, onnx_engine.FALLBACK_BEAM]  # the wider beam ran, and found a full copy
    assert r.notes == [] and "320" in r.translation and "https://example.org/a" in r.translation
    assert placeholder(1) in r.tgt_tokens  # the kept hypothesis is the one the memory was written from


def test_fallback_puts_the_span_back_when_no_hypothesis_has_it(bundle: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    tr = OnnxTranslator.load(bundle, beam_size=2)
    stub = DroppingSearch(tr.tokenizer.piece_id(placeholder(1)), {2, onnx_engine.FALLBACK_BEAM})
    monkeypatch.setattr(onnx_engine, "beam_search_n_best", stub)
    r = tr.new_document().translate("the cat 320 sees https://example.org/a .")
    assert "320" in r.translation and "https://example.org/a" in r.translation  # never lost
    assert [(w.problem, w.span) for w in r.notes] == [("placed", "320")]
    assert placeholder(1) not in r.tgt_tokens


def test_a_forced_edit_is_masked_like_a_translation(bundle: Path) -> None:
    """The TUI's edits: the memory reads the person's words with the spans masked, as it reads the
    model's output; an untranslatable sentence stays out of the memory."""
    tr = OnnxTranslator.load(bundle)
    session = tr.new_document()
    r = session.force("the cat 320 sees v2.1.0 .", "这猫320看见v2.1.0。")
    assert r.translation == "这猫320看见v2.1.0。"
    assert placeholder(1) in r.src_tokens and placeholder(2) in r.tgt_tokens and "320" not in "".join(r.tgt_tokens)
    before = session.memory
    assert session.force("320", "三百二十").copied
    for side, m in session.memory.items():
        np.testing.assert_array_equal(m, before[side])


def test_a_bundle_without_placeholder_pieces_is_not_masked(bundle: Path) -> None:
    tr = OnnxTranslator.load(bundle)
    tr.placeholders = 0  # as a bundle trained before the pieces existed
    r = tr.new_document().translate("the cat 320 .")
    assert not any(p.startswith("\u2985") for p in r.src_tokens) and r.notes == []


TABLE = ["320", "1,250", "2024", "3.5%", "0.75", "98765", "Q3", "ISO 9001", "v2.1.0"]


def test_a_docx_report_keeps_every_figure_byte_identical(bundle: Path, tmp_path: Path) -> None:
    """The issue's sales report through the CLI and the docx writer: table cells with nothing to
    translate are copied, figures in prose go through the placeholders and come back as written."""
    import docx

    d = docx.Document()
    table = d.add_table(rows=3, cols=3)
    for i, value in enumerate(TABLE):
        table.cell(i // 3, i % 3).text = value
    prose = span_sentences(6, seed=3)
    for sentence, _ in prose:
        d.add_paragraph(sentence)
    src, out = tmp_path / "report.docx", tmp_path / "report.zh.docx"
    d.save(str(src))
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(out), "--model", str(bundle), "--src", "en",
                                     "-q"])
    assert result.exit_code == 0, result.output + result.stderr
    got = docx.Document(str(out))
    cells = [got.tables[0].cell(i // 3, i % 3).text for i in range(len(TABLE))]
    # "ISO 9001" has a word for the model ("ISO"); its number is kept, the rest is copied as it is.
    assert [c for c, v in zip(cells, TABLE, strict=True) if v != "ISO 9001"] == [v for v in TABLE if v != "ISO 9001"]
    assert "9001" in cells[TABLE.index("ISO 9001")]
    paragraphs = [p.text for p in got.paragraphs if p.text.strip()]
    assert len(paragraphs) == len(prose)
    for text, (sentence, used) in zip(paragraphs, prose, strict=True):
        assert text != sentence
        for span in used:
            assert span in text, (sentence, text)


# -- glossary, end to end --------------------------------------------------------------------------

GLOSSARY_TERMS = [("cat", "术语01"), ("dog", "术语02"), ("house", "术语03"), ("tree", "术语04"), ("bird", "术语05"),
                  ("fish", "术语06"), ("red bird", "术语07"), ("blue fish", "术语08"), ("old house", "术语09"),
                  ("green tree", "术语10"), ("small", "术语11"), ("big", "术语12"), ("runs", "术语13"),
                  ("jumps", "术语14"), ("eats", "术语15"), ("sleeps", "术语16"), ("quickly", "术语17"),
                  ("slowly", "术语18"), ("new dog", "术语19"), ("sees", "术语20")]


def glossary_document(n: int = 60, seed: int = 5) -> list[str]:
    """Sentences of the tiny vocabulary, each with one or two glossary terms (some in capitals,
    some full-width) and at most one number: at most three placeholders, as the model learned."""
    rng = random.Random(seed)
    plain = [w for w in WORDS if w not in {s for s, _ in GLOSSARY_TERMS} and w not in {"red", "blue", "old", "green",
                                                                                     "new"}]
    out = []
    for i in range(n):
        words = [rng.choice(plain) for _ in range(rng.randint(1, 3))]
        for term, _ in rng.sample(GLOSSARY_TERMS, rng.randint(1, 2)):
            if i % 7 == 0:
                term = term.upper()
            elif i % 11 == 0:
                term = "".join(chr(ord(c) + 0xFEE0) if c.isalpha() else c for c in term)  # full-width
            words.insert(rng.randint(0, len(words)), term)
        if i % 3 == 0:
            words.insert(rng.randint(0, len(words)), str(rng.randint(10, 9999)))
        out.append(" ".join(words) + " .")
    return out


def test_glossary_every_occurrence_rendered_as_given(bundle: Path, tmp_path: Path) -> None:
    terms = tmp_path / "terms.tsv"
    terms.write_text("source\ttarget\n" + "".join(f"{s}\t{t}\n" for s, t in GLOSSARY_TERMS), encoding="utf-8")
    doc = glossary_document()
    src = tmp_path / "doc.txt"
    src.write_text("\n\n".join(doc) + "\n", encoding="utf-8")
    out, report = tmp_path / "doc.zh.txt", tmp_path / "report.json"
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(out), "--model", str(bundle), "--src", "en",
                                     "-q", "--glossary", str(terms), "--report", str(report)])
    assert result.exit_code == 0, result.output + result.stderr
    glossary = Glossary.load(terms)
    paragraphs = [p for p in out.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert len(paragraphs) == len(doc) == 60
    occurrences = 0
    for source, translation in zip(doc, paragraphs, strict=True):
        found = glossary.find(source)
        assert found, source
        occurrences += len(found)
        for target in {s.target for s in found}:
            assert translation.count(target or "") == sum(s.target == target for s in found), (source, translation)
        for number in re.findall(r"\b\d+\b", source):
            assert re.search(rf"(?<!\d){number}(?!\d)", translation), (source, translation)
    assert occurrences >= 80  # all 20 terms, many times over
    assert {s.source for s in glossary.terms} <= {s.text.lower() for p in doc for s in glossary.find(p)}
    rows = json.loads(report.read_text(encoding="utf-8"))
    assert not [r for r in rows if r["problem"] == "missing"]  # the check found every term and number
    assert len([r for r in rows if r["problem"] == "placed"]) <= 6  # the model copied >= 90% itself


def test_bad_glossary_is_one_error_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[int] = []
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: loaded.append(1) or FakeTranslator())
    src = tmp_path / "doc.txt"
    src.write_text("Revenue was 320.\n", encoding="utf-8")
    bad = tmp_path / "terms.csv"
    bad.write_text("GPU,图形处理器,extra\n", encoding="utf-8")
    for args, fragment in [(["--glossary", str(tmp_path / "none.csv")], "no such glossary file"),
                           (["--glossary", str(bad)], "line 1: expected two comma-separated columns"),
                           (["--report", str(tmp_path / "r.txt")], "must end in .json or .csv")]:
        result = runner.invoke(cli.app, ["translate", str(src), "-o", str(tmp_path / "o.txt"), *args])
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], result.stderr
    result = runner.invoke(cli.app, ["tui", str(src), "--glossary", str(bad)])
    assert result.exit_code == 2 and "expected two" in result.stderr
    assert loaded == []  # refused before any model is loaded
    assert not (tmp_path / "o.txt").exists()


# -- the check after translation, --report ---------------------------------------------------------

DOC = "Revenue was 320 in Q3. Costs were 1,250 at https://x.org/costs.\n\nThe ttl_seconds value is 30.\n"


def changing(text: str) -> str:
    """A fake model that changes figures, as the issue saw: 320 -> 30, drops a URL."""
    return text.replace("320", "30").replace(" at https://x.org/costs", "")


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_report_lists_the_sentences_with_missing_spans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       suffix: str) -> None:
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: FakeTranslator(fn=changing))
    src = tmp_path / "doc.txt"
    src.write_text(DOC, encoding="utf-8")
    report = tmp_path / f"report{suffix}"
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(tmp_path / "out.txt"), "--report", str(report)])
    assert result.exit_code == 0, result.stderr
    assert f"(3 sentences, 2 warnings: listed in {report})" in result.stdout
    if suffix == ".json":
        rows = json.loads(report.read_text(encoding="utf-8"))
    else:
        text = report.read_text(encoding="utf-8-sig")
        rows = list(csv.DictReader(text.splitlines()))
        for r in rows:
            r["sentence"] = int(r["sentence"])
    assert [(r["sentence"], r["problem"], r["kind"], r["span"]) for r in rows] == \
        [(1, "missing", "number", "320"), (2, "missing", "url", "https://x.org/costs")]
    assert rows[0]["source"] == "Revenue was 320 in Q3." and rows[0]["translation"] == "Revenue was 30 in Q3."
    assert rows[0]["file"] == str(src)


def test_summary_counts_warnings_and_a_clean_run_writes_an_empty_report(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    engine = FakeTranslator(fn=changing)
    monkeypatch.setattr(cli, "open_translator", lambda *_a, **_k: engine)
    src = tmp_path / "doc.txt"
    src.write_text(DOC, encoding="utf-8")
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(tmp_path / "out.txt")])
    assert "2 warnings: list them with --report FILE" in result.stdout
    engine.fn = lambda s: s  # a faithful "translation"
    report = tmp_path / "r.json"
    result = runner.invoke(cli.app, ["translate", str(src), "-o", str(tmp_path / "out2.txt"), "--report",
                                     str(report)])
    assert result.exit_code == 0 and result.stdout.strip().endswith("(3 sentences)")
    assert json.loads(report.read_text(encoding="utf-8")) == []
    one = tmp_path / "one.txt"
    one.write_text("Revenue was 320.\n", encoding="utf-8")
    result = runner.invoke(cli.app, ["translate", str(one), "-o", str(tmp_path / "out3.txt")])
    assert result.exit_code == 0 and result.stdout.strip().endswith("(1 sentence)")


# -- the TUI marks such sentences ------------------------------------------------------------------

def render(renderable: object) -> str:
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


def test_tui_marks_sentences_with_warnings_and_an_edit_clears_them(tmp_path: Path) -> None:
    src = tmp_path / "doc.txt"
    src.write_text(DOC, encoding="utf-8")
    tr = FakeTranslator(fn=changing)
    state = DocumentState.open(src, tr, "en")
    for step in state.run(tr, 0, lambda: False):
        state.apply(step)
    marked = [s.index for s in state.sentences if s.warnings]
    assert marked == [0, 1]
    assert "320" in state.sentences[0].warnings[0].message
    row = render(sentence_row(state.sentences[0], state.blocks[0], True, False))
    assert WARNING_MARK in row
    assert WARNING_MARK not in render(sentence_row(state.sentences[2], state.blocks[1], True, False))
    assert state.edit(0, "Revenue was 320 in Q3 (fixed).")
    assert state.sentences[0].warnings == []


def test_tui_viewer_spells_the_warning_out(tmp_path: Path) -> None:
    from doctrans.tui.app import DoctransApp
    from doctrans.tui.screens import MemoryViewer
    from tests.tui_helpers import screen_text, translated, wait_until

    src = tmp_path / "doc.txt"
    src.write_text(DOC, encoding="utf-8")
    app = DoctransApp(FakeTranslator(fn=changing), src, src_lang="en")

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: translated(app), "the translation")
            assert WARNING_MARK in screen_text(app)
            assert f"{WARNING_MARK} 2 to check" in screen_text(app)  # the status bar counts them
            await pilot.press("enter")
            assert isinstance(app.screen, MemoryViewer)
            await pilot.pause()
            assert "number '320' is not in the translation" in screen_text(app)

    asyncio.run(flow())


def test_a_placeholder_invented_for_a_sentence_without_spans_is_removed() -> None:
    """Reading a memory written by sentences full of placeholders, the en->zh model wrote ``⦅5⦆``
    into a sentence that had none (a real PDF, the shared-mime-info spec): it must not reach the
    user. A bundle without placeholder pieces masks nothing, so a ``⦅5⦆`` there is text."""
    from doctrans.engine.protect import prepare

    prep = prepare("Many programs and desktops use the MIME system to represent the types of files.", 16,
                   tgt_lang="zh")
    assert not prep.masked.spans
    restored = prep.restore("管理器和 XML 文件系统使用 XML[⦅5⦆]表示文件的文件类型。")
    assert restored.text == "管理器和 XML 文件系统使用 XML[]表示文件的文件类型。"
    assert restored.unknown == (5,)
    assert prepare("Keep ⦅5⦆ as it is.", 0).restore("保持 ⦅5⦆ 原样。").text == "保持 ⦅5⦆ 原样。"
