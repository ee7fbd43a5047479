"""A program's names found in a document's code and kept as written in its sentences
(doctrans.code_names, through Glossary.kept)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans import code_names
from doctrans.code_names import code_names as names_of_document
from doctrans.code_names import keeping_code_names, names_in_code
from doctrans.documents import read_document
from doctrans.engine.protect import prepare
from doctrans.glossary import Glossary
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(code_names)) == 9


@pytest.mark.parametrize(("code", "names"), two_column_rows(code_names))
def test_docstring_table_row(code: str, names: str) -> None:
    found = names_in_code(code)
    assert sorted(found) == ([] if names == "(none)" else sorted(names.split(" · ")))


def test_a_markdown_documents_code_names_the_tools_its_sentences_use(tmp_path: Path) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text("# fastkv\n\nfastkv is a store. Run `fastkv bench --ops 10` to measure it.\n\n"
                   "```bash\nsudo nginx -t\nzstd -d x.zst\n```\n\nThe store is fast behind Nginx.\n", encoding="utf-8")
    # zstd and sudo are named by the code only: no sentence to keep them in.
    assert names_of_document(read_document(doc).blocks()) == {"fastkv", "nginx"}


def test_a_settings_key_is_no_name_its_sentences_keep(tmp_path: Path) -> None:
    """A config's ``port: 8080`` kept "port" in English in "服务器默认监听port 8080"."""
    doc = tmp_path / "config.md"
    doc.write_text("Edit the config:\n\n```yaml\nport: 8080\nstorage: fastkv\n```\n\n"
                   "The server listens on port 8080 and stores data in fastkv.\n", encoding="utf-8")
    assert names_of_document(read_document(doc).blocks()) == {"fastkv"}


def test_kept_words_are_name_spans_after_the_users_terms() -> None:
    glossary = Glossary.from_pairs([("key-value store", "键值存储")]).with_kept(frozenset({"fastkv", "nginx"}))
    spans = glossary.find("Fastkv is a key-value store; run nginx, not nginx.conf or fastkv-x.")
    assert [(s.text, s.kind, s.target) for s in spans] == [
        ("Fastkv", "name", "Fastkv"), ("key-value store", "term", "键值存储"), ("nginx", "name", "nginx")]


def test_a_kept_name_reaches_the_model_as_a_placeholder() -> None:
    glossary = Glossary([]).with_kept(frozenset({"fastkv"}))
    prep = prepare("fastkv is an embedded key-value store.", 16, glossary, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and "fastkv" not in prep.model_text and "⦅1⦆" in prep.model_text
    assert prep.restore("⦅1⦆是一个嵌入式键值存储。").text == "fastkv是一个嵌入式键值存储。"


class _Translator:
    def __init__(self, glossary: Glossary | None = None):
        self.glossary = glossary

    def with_glossary(self, glossary: Glossary | None) -> _Translator:
        return _Translator(glossary)


def test_keeping_code_names_adds_to_the_users_glossary(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("Install with `pip install fastkv`.\n", encoding="utf-8")
    user = Glossary.from_pairs([("store", "存储")])
    kept = keeping_code_names(_Translator(user), read_document(doc).blocks())  # type: ignore[arg-type]
    assert kept.glossary is not None and kept.glossary.terms == user.terms and kept.glossary.kept == {"fastkv"}
    plain = tmp_path / "b.md"
    plain.write_text("No code here.\n", encoding="utf-8")
    translator = _Translator(user)
    assert keeping_code_names(translator, read_document(plain).blocks()) is translator  # type: ignore[arg-type]


def test_a_text_files_commands_name_its_tools(tmp_path: Path) -> None:
    """A release note in plain text: "fastkv serve accepts a --max-connections option" came back
    快速的kv 接受…, though its sentences ran fastkv twice."""
    doc = tmp_path / "release.txt"
    doc.write_text("Release notes: fastkv 4.2.0\n\nfastkv serve accepts a --max-connections option.\n\n"
                   "Snapshots can be compressed: run fastkv snapshot --compress zstd.\n\n"
                   "To upgrade, run pip install --upgrade fastkv and restart Windows 11.\n", encoding="utf-8")
    assert names_of_document(read_document(doc).blocks()) == {"fastkv", "zstd"}

