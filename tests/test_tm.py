"""The user translation memory (doctrans.tm, issue 19 deliverable 1): TMX and CSV/TSV readers,
the store's key normalisation and location, and the CLI's --tm / --tm-update / tm add / tm list
with the fake engine (which upper-cases: a TM hit is recognisable by not being upper-cased)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from doctrans import cli
from doctrans.engine.interface import MemoryState
from doctrans.tm import TMError, TMStore, default_tm_path, normalise_key, read_tm_file
from tests.fakes import FakeSession, FakeTranslator

runner = CliRunner()

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en"
          srclang="en-US" datatype="plaintext"/>
  <body>
    <tu>
      <tuv xml:lang="en-US"><seg>The cat sleeps.</seg></tuv>
      <tuv xml:lang="de-DE"><seg>Die Katze schläft.</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en"><seg>Press <bpt i="1">&lt;b&gt;</bpt>OK<ept i="1">&lt;/b&gt;</ept> now.</seg></tuv>
      <tuv xml:lang="de"><seg>Jetzt <hi>OK</hi> drücken.</seg></tuv>
      <tuv xml:lang="fr"><seg>Appuyez sur OK.</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en"><seg>Only one side.</seg></tuv>
    </tu>
  </body>
</tmx>
"""


@pytest.fixture(autouse=True)
def tm_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own local TM; never the user's."""
    d = tmp_path / "localtm"
    monkeypatch.setenv("DOCTRANS_TM_DIR", str(d))
    return d


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> FakeTranslator:
    tr = FakeTranslator()  # en -> de

    def fake_open(*_a: object, **_k: object) -> FakeTranslator:
        if getattr(fake_open, "forbidden", False):
            raise AssertionError("the model was loaded before the TM file was checked")
        return tr

    monkeypatch.setattr(cli, "open_translator", fake_open)
    tr.fake_open = fake_open  # type: ignore[attr-defined]
    return tr


# -- readers ----------------------------------------------------------------------------------------

def test_tmx_units_by_primary_language_and_inline_codes(tmp_path: Path) -> None:
    p = tmp_path / "m.tmx"
    p.write_text(TMX, encoding="utf-8")
    f = read_tm_file(p)
    assert f.srclang == "en"
    assert len(f.units) == 2  # the one-sided unit is not a pair
    assert list(f.pairs("en", "de")) == [("The cat sleeps.", "Die Katze schläft."),
                                         ("Press OK now.", "Jetzt OK drücken.")]
    assert list(f.pairs("en-GB", "fr_FR")) == [("Press OK now.", "Appuyez sur OK.")]
    assert list(f.pairs("zh", "en")) == []


@pytest.mark.parametrize("text, fragment", [
    (TMX.replace("</body>", ""), "not a valid TMX file (XML error at line"),
    ("<?xml version='1.0'?><html><body/></html>", "not a TMX file (its root element is <html>"),
    ("<tmx version='1.4'><header/><body><tu><tuv><seg>x</seg></tuv></tu></body></tmx>", "without xml:lang"),
    ("<tmx version='1.4'><header/><body></body></tmx>", "no translation units"),
])
def test_malformed_tmx(tmp_path: Path, text: str, fragment: str) -> None:
    p = tmp_path / "bad.tmx"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(TMError, match=None) as e:
        read_tm_file(p)
    assert fragment in str(e.value) and str(p) in str(e.value)


def test_csv_tsv_bom_header_and_sniffed_delimiter(tmp_path: Path) -> None:
    tsv = tmp_path / "m.tsv"
    tsv.write_bytes("\ufeffsource\ttarget\nHello, world.\tHallo, Welt.\n\n# note\nBye.\tTschüss.\n".encode())
    f = read_tm_file(tsv)
    assert f.plain == [("Hello, world.", "Hallo, Welt."), ("Bye.", "Tschüss.")] and not f.units
    csv_ = tmp_path / "m.csv"  # commas inside quoted cells; a language header names the columns
    csv_.write_text('en-US,de\n"Hello, world.","Hallo, Welt."\n', encoding="utf-8")
    f = read_tm_file(csv_)
    assert list(f.pairs("en", "de")) == [("Hello, world.", "Hallo, Welt.")] and not f.plain
    assert list(f.pairs("de", "en")) == [("Hallo, Welt.", "Hello, world.")]
    semi = tmp_path / "excel.csv"
    semi.write_text("Guten Tag, Frau Li;Good day, Ms Li\n", encoding="utf-8")
    assert read_tm_file(semi).plain == [("Guten Tag, Frau Li", "Good day, Ms Li")]


@pytest.mark.parametrize("data, fragment", [
    (b"a,b,c\n", "line 1: expected two columns"),
    (b"one,eins\ntwo\n", "line 2: expected two columns"),
    (b"\xff\xfeh\x00i\x00", "not UTF-8"),
    (b"# only a comment\n\n", "no segments"),
])
def test_malformed_csv(tmp_path: Path, data: bytes, fragment: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_bytes(data)
    with pytest.raises(TMError) as e:
        read_tm_file(p)
    assert fragment in str(e.value)


# -- store --------------------------------------------------------------------------------------------

def test_normalised_key() -> None:
    assert normalise_key("  Hello,\t world !  ") == normalise_key("Hello, world!") == "Hello, world!"
    assert normalise_key("你好。") == normalise_key("你好.")
    assert normalise_key("你好，世界。") == normalise_key("你好, 世界.") == normalise_key("你好 ,世界 .")
    assert normalise_key("ＧＰＵ？") == "GPU?"  # NFKC: full-width letters and punctuation
    assert normalise_key("“Quoted”\u200b") == '"Quoted"'
    assert normalise_key("Apple") != normalise_key("apple")  # case is kept


def test_store_exact_lookup_per_language_pair() -> None:
    store = TMStore(":memory:")
    assert store.add([("你好，世界。", "Hello, World."), ("  ", "skipped")], "zh-CN", "en") == 1
    assert store.lookup("你好, 世界.", "zh", "en-US") == "Hello, World."  # value returned as stored
    assert store.lookup("你好，世界。", "en", "zh") is None
    assert store.lookup("你好", "zh", "en") is None
    store.add([("你好，世界。", "Hello, world!")], "zh", "en")  # the newest translation wins
    assert store.lookup("你好，世界。", "zh", "en") == "Hello, world!"
    assert store.counts() == [("zh", "en", 1)]


def test_tm_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DOCTRANS_TM_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert default_tm_path() == tmp_path / "home/.local/share/doctrans/tm/tm.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_tm_path() == tmp_path / "data/doctrans/tm/tm.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # not absolute: ignored, as the spec says
    assert default_tm_path() == tmp_path / "home/.local/share/doctrans/tm/tm.sqlite"
    monkeypatch.setenv("DOCTRANS_TM_DIR", str(tmp_path / "override"))
    assert default_tm_path() == tmp_path / "override/tm.sqlite"


def test_corrupt_store_is_a_user_error(tm_dir: Path) -> None:
    from doctrans.errors import UserError

    tm_dir.mkdir()
    (tm_dir / "tm.sqlite").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(UserError, match="not a usable doctrans translation memory"):
        TMStore(default_tm_path())


# -- CLI ----------------------------------------------------------------------------------------------

DOC = "The cat sleeps. The dog barks. Press OK now.\n\nA new paragraph here.\n"


def test_translate_with_tmx_reuses_exact_matches(tmp_path: Path, engine: FakeTranslator) -> None:
    doc, out, tmx = tmp_path / "doc.txt", tmp_path / "out.txt", tmp_path / "m.tmx"
    doc.write_text(DOC, encoding="utf-8")
    tmx.write_text(TMX, encoding="utf-8")
    r = runner.invoke(cli.app, ["translate", str(doc), "-o", str(out), "--tm", str(tmx), "-q"])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert text == "Die Katze schläft. THE DOG BARKS. Jetzt OK drücken.\n\nA NEW PARAGRAPH HERE.\n"
    assert engine.calls == ["The dog barks.", "A new paragraph here."]  # the model never saw the hits
    assert "(4 sentences, 2 from the translation memory)" in r.stdout


def test_tm_hit_feeds_the_document_memory(tmp_path: Path, engine: FakeTranslator) -> None:
    from doctrans.translate_job import translate_file

    doc = tmp_path / "doc.txt"
    doc.write_text("One. Two. Three.\n", encoding="utf-8")
    sessions: list[FakeSession] = []
    new_document = engine.new_document

    def spy(memory: MemoryState | None = None, *, return_attention: bool = False) -> FakeSession:
        sessions.append(new_document(memory))
        return sessions[-1]

    engine.new_document = spy  # type: ignore[method-assign]
    result = translate_file(doc, tmp_path / "o.txt", engine, tm={"Two.": "Zwei."}.get, keep_pairs=True)
    assert (result.tm_hits, result.translated) == (1, 3)
    assert result.pairs == [("One.", "ONE."), ("Two.", "Zwei."), ("Three.", "THREE.")]
    assert engine.calls == ["One.", "Three."]
    # The fake's memory counts the sentences its session saw: the TM hit went in through force().
    assert len(sessions) == 1 and sessions[0].memory["src"].ravel()[0] == 3


def test_tm_update_then_list_then_local_tm(tmp_path: Path, engine: FakeTranslator, tm_dir: Path) -> None:
    doc, out = tmp_path / "doc.txt", tmp_path / "out.txt"
    doc.write_text(DOC, encoding="utf-8")
    r = runner.invoke(cli.app, ["tm", "list"])
    assert r.exit_code == 0 and "no translation memory yet" in r.stdout
    r = runner.invoke(cli.app, ["translate", str(doc), "-o", str(out), "--tm-update", "-q"])
    assert r.exit_code == 0, r.output
    assert (tm_dir / "tm.sqlite").exists()
    r = runner.invoke(cli.app, ["tm", "list"])
    assert r.exit_code == 0, r.output
    assert "en->de  4 segments" in r.stdout
    # Translating again with the local TM: every sentence comes from it, byte for byte.
    engine.calls.clear()
    out2 = tmp_path / "out2.txt"
    r = runner.invoke(cli.app, ["translate", str(doc), "-o", str(out2), "--local-tm", "-q"])
    assert r.exit_code == 0, r.output
    assert engine.calls == [] and out2.read_bytes() == out.read_bytes()
    assert "4 from the translation memory" in r.stdout


def test_tm_add_files(tmp_path: Path) -> None:
    tmx, tsv = tmp_path / "m.tmx", tmp_path / "m.tsv"
    tmx.write_text(TMX, encoding="utf-8")
    tsv.write_text("Good.\tGut.\n", encoding="utf-8")
    r = runner.invoke(cli.app, ["tm", "add", str(tmx), str(tsv)])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "give --src and --tgt" in r.stderr
    r = runner.invoke(cli.app, ["tm", "add", str(tmx)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli.app, ["tm", "add", "--src", "en", "--tgt", "de", str(tsv)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli.app, ["tm", "list"])
    assert "en->de  3 segments" in r.stdout and "en->fr  1 segments" in r.stdout
    assert TMStore(default_tm_path()).lookup("Good.", "en", "de") == "Gut."


@pytest.mark.parametrize("name, data", [("broken.tmx", TMX[:200]), ("broken.csv", "a\tb\tc\n")])
def test_bad_tm_file_is_one_error_line_before_the_model(tmp_path: Path, engine: FakeTranslator,
                                                        name: str, data: str) -> None:
    doc, tm = tmp_path / "doc.txt", tmp_path / name
    doc.write_text(DOC, encoding="utf-8")
    tm.write_text(data, encoding="utf-8")
    engine.fake_open.forbidden = True  # type: ignore[attr-defined]
    r = runner.invoke(cli.app, ["translate", str(doc), "-o", str(tmp_path / "o.txt"), "--tm", str(tm)])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {tm}"), r.stderr
    assert not (tmp_path / "o.txt").exists()
    r = runner.invoke(cli.app, ["translate", str(doc), "-o", str(tmp_path / "o.txt"), "--tm",
                                str(tmp_path / "missing.tmx")])
    assert r.exit_code == 2 and "no such translation memory file" in r.stderr


def test_300_sentences_100_from_a_tmx_then_all_from_the_local_tm(tmp_path: Path, engine: FakeTranslator) -> None:
    """Issue 19's demonstration, with the fake engine: 100 of 300 sentences reused verbatim from a
    TMX in one run; after --tm-update the same document takes all 300 from the local TM."""
    from xml.sax.saxutils import escape

    sentences = [f"Sentence number {i} says something & more." for i in range(300)]
    doc = tmp_path / "doc.txt"
    doc.write_text("\n\n".join(" ".join(sentences[i:i + 3]) for i in range(0, 300, 3)) + "\n", encoding="utf-8")
    stored = {s: f"Satz Nummer {i} sagt etwas &  mehr ｜ {i}" for i, s in enumerate(sentences) if i % 3 == 1}
    tus = "".join(f'<tu><tuv xml:lang="en"><seg>{escape(s)}</seg></tuv><tuv xml:lang="de-AT"><seg>{escape(t)}'
                  "</seg></tuv></tu>" for s, t in stored.items())
    tmx = tmp_path / "m.tmx"
    tmx.write_text(f'<?xml version="1.0"?><tmx version="1.4"><header srclang="en"/><body>{tus}</body></tmx>',
                   encoding="utf-8")
    out = tmp_path / "out.txt"
    r = runner.invoke(cli.app, ["translate", str(doc), "-o", str(out), "--tm", str(tmx), "--tm-update", "-q"])
    assert r.exit_code == 0, r.output
    assert "(300 sentences, 100 from the translation memory)" in r.stdout
    assert len(engine.calls) == 200 and not set(engine.calls) & set(stored)
    text = out.read_text(encoding="utf-8")
    assert all(t in text for t in stored.values())  # byte-identical targets
    engine.calls.clear()
    out2 = tmp_path / "out2.txt"
    r = runner.invoke(cli.app, ["translate", str(doc), "-o", str(out2), "--local-tm", "-q"])
    assert r.exit_code == 0 and "300 from the translation memory" in r.stdout, r.output
    assert engine.calls == [] and out2.read_bytes() == out.read_bytes()
