"""Dialogue: a quotation and its narration translated as separate pieces (doctrans.dialogue)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doctrans import dialogue
from doctrans.dialogue import narration_case, split_dialogue
from doctrans.engine.protect import prepare
from doctrans.kept_names import common_words
from doctrans.translate_job import translate_file
from tests.fakes import FakeTranslator


def docstring_table() -> list[tuple[str, str]]:
    rows = re.findall(r"^\| (\S.*?) +\| (\S.*?) +\|$", dialogue.__doc__ or "", re.M)
    return [r for r in rows if r[0] != "sentence"]


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 10


@pytest.mark.parametrize(("text", "pieces"), docstring_table())
def test_docstring_table_row(text: str, pieces: str) -> None:
    spans = split_dialogue(text, [(0, len(text))])
    assert " · ".join(text[a:b] for a, b in spans) == pieces


def test_pieces_keep_every_character_and_an_odd_quote_count_is_left_alone() -> None:
    text = 'He waited. "Are you coming?" her brother asked, "or not?"'
    spans = split_dialogue(text, [(0, 10), (11, len(text))])
    assert [text[a:b] for a, b in spans] == ["He waited.", '"Are you coming?"', "her brother asked,", '"or not?"']
    odd = 'She said, "wait and he left.'
    assert split_dialogue(odd, [(0, len(odd))]) == [(0, len(odd))]


def test_the_speaker_after_an_utterance_goes_on_in_small_letters() -> None:
    common = common_words()
    assert narration_case("“你来吗？”", "她的哥哥问。", "Her brother asked.", common) == "her brother asked."
    assert narration_case('"Not yet,"', "she said", "She said,", common) == "she said,"
    assert narration_case("“你来吗？”", "安娜问。", "Anna asked.", common) == "Anna asked."  # a name
    assert narration_case("“你来吗？”", "我问。", "I asked.", common) == "I asked."
    assert narration_case("“好。”", "他说。", "He said.", common) == "He said."  # the utterance ended
    assert narration_case("“你来吗？”", "“来。”", "Yes.", common) == "Yes."  # another utterance


def test_a_novel_page_reaches_the_model_in_pieces_and_comes_back_whole(tmp_path: Path) -> None:
    src = tmp_path / "novel.txt"
    src.write_text('"Not yet," she said, "I want to finish this letter first."\n\nHe left.\n', encoding="utf-8")
    tr = FakeTranslator()
    out = tmp_path / "out.txt"
    translate_file(src, out, tr)
    assert tr.calls == ['"Not yet,"', "she said,", '"I want to finish this letter first."', "He left."]
    assert out.read_text(encoding="utf-8") == '"NOT YET," SHE SAID, "I WANT TO FINISH THIS LETTER FIRST."\n\nHE LEFT.\n'


def test_british_single_quotes_are_utterances_and_apostrophes_are_not() -> None:
    for text in ["'Tis the season, 'n' all that.", "She called it 'the thing' and left.",
                 "It's the boys' turn, isn't it?"]:
        assert split_dialogue(text, [(0, len(text))]) == [(0, len(text))]
    text = "'Are you coming?' her brother asked."
    spans = split_dialogue(text, [(0, len(text))])
    assert [text[a:b] for a, b in spans] == ["'Are you coming?'", "her brother asked."]
    assert narration_case("'Are you coming?'", "her brother asked.", "Her brother asked.", common_words()) == (
        "her brother asked.")


def test_a_british_utterance_reaches_the_model_in_double_quotes_and_keeps_its_quotes() -> None:
    prep = prepare("'Not yet,'", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == '"Not yet,"'
    assert prep.restore("还没有，").text == "“还没有，”"  # the model dropped the quotes
    assert prepare("'Not yet,' she said.", 16, tgt_lang="zh", src_lang="en").model_text == "'Not yet,' she said."
