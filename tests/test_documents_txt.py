"""Plain text: layout kept exactly, encodings detected, streamed."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans.documents import read_document
from doctrans.errors import DocumentError
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator

SOURCE = (
    "# A Title\r\n"
    "\r\n"
    "This paragraph is hard-wrapped at a fixed width so it spans\r\n"
    "two lines of text. It has a second sentence too.\r\n"
    "\r\n"
    "\r\n"
    "- first item\r\n"
    "  - nested item\r\n"
    "\r\n"
    "    Indented line.\r\n"
    "Short line\r\n"
    "Another short\r\n"
    "```\r\n"
    "code stays as is\r\n"
    "```\r\n"
    "Last line without newline."
)


def test_layout_is_kept_exactly(tmp_path: Path) -> None:
    src = tmp_path / "a.md"
    src.write_bytes(SOURCE.encode("utf-8"))
    out = tmp_path / "b.md"
    tr = FakeTranslator()
    translate_file(src, out, tr)
    result = out.read_bytes().decode("utf-8")
    expected = SOURCE.upper().replace("CODE STAYS AS IS", "code stays as is")
    assert result == expected  # blank lines, CRLF, markers, indentation, no final newline
    assert "code stays as is" not in " ".join(tr.calls)
    assert "This paragraph is hard-wrapped at a fixed width so it spans two lines of text." in tr.calls


def test_rewrap_to_original_width(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    lines = ["Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do",
             "eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut",
             "enim ad minim veniam."]
    src.write_text("\n".join(lines) + "\n\nNext.\n", encoding="utf-8")
    out = tmp_path / "b.txt"
    translate_file(src, out, FakeTranslator(fn=lambda s: s + " " + s))
    paragraphs = out.read_text(encoding="utf-8").split("\n\n")
    assert len(paragraphs) == 2 and paragraphs[1] == "Next. Next.\n"
    assert all(len(x) <= max(map(len, lines)) for x in paragraphs[0].splitlines())


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "cp1251", "gb18030"])
def test_encodings_are_detected(tmp_path: Path, encoding: str) -> None:
    text = {"latin-1": "Größe und Übermaß sind schön. Das Café öffnet früh am Morgen.",
            "utf-16": "Größe und Übermaß sind schön.",
            # Short Cyrillic samples are ambiguous (cp1251 vs mac-cyrillic differ in a few letters),
            # so this one is a realistic paragraph, not a line.
            "cp1251": "Привет, как дела? Это проверка кодировки текста, который написан по-русски. "
                      "Программа должна определить кодировку файла и прочитать его правильно, "
                      "чтобы перевод получился без ошибок. Поэтому мы пишем несколько предложений.",
            "gb18030": "这是一个编码测试。我们希望检测到正确的编码，然后翻译这些句子。"}[encoding]
    src = tmp_path / "a.txt"
    src.write_bytes((text + "\n").encode(encoding))
    blocks = list(read_document(src).blocks())
    assert blocks[0].text == text


def test_binary_named_txt_is_a_clear_error(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_bytes(b"PK\x03\x04\x00\x00binary\x00\x00")
    with pytest.raises(DocumentError, match="binary"):
        read_document(src)
