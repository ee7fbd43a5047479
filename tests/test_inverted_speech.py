"""doctrans.inverted_speech: the docstring's table, and the model text prepare() gives the model."""

from __future__ import annotations

import pytest

from doctrans import inverted_speech
from doctrans.engine.protect import prepare
from doctrans.inverted_speech import speaker_first
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(inverted_speech)) == 13


@pytest.mark.parametrize(("model_text", "read"), two_column_rows(inverted_speech))
def test_docstring_table_row(model_text: str, read: str) -> None:
    assert speaker_first(model_text, "en", "zh") == read


def test_only_english_into_chinese() -> None:
    assert speaker_first('"No," said Tom.', "en", "de") == '"No," said Tom.'
    assert speaker_first('"No," said Tom.', "zh", "en") == '"No," said Tom.'


def test_the_model_reads_the_speaker_first_and_the_source_is_untouched() -> None:
    """A news story's "... ," said Linda Zhao. came back “……”说琳达赵 (Chinese never puts the verb first)."""
    prep = prepare('"It is a beautiful device," said Margaret Hill.', 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == '"It is a beautiful device," Margaret Hill said.'
    assert prep.source == '"It is a beautiful device," said Margaret Hill.'
    assert prep.restore("“这是一个漂亮的设备，”玛格丽特·希尔说。").text == "“这是一个漂亮的设备，”玛格丽特·希尔说。"
    # A masked surname is the speaker's placeholder (Zhao: doctrans.person_names).
    zhao = prepare('"It is a beautiful device," said Linda Zhao.', 16, tgt_lang="zh", src_lang="en")
    assert zhao.model_text == '"It is a beautiful device," Linda ⦅1⦆ said.'


@pytest.mark.parametrize("piece", [
    "said the man and smiled.",  # a second clause: its verb is no speaker's
    "said the man angrily and left.",
    "said the old man, and went back inside.",
    "asked why.",
])
def test_a_narration_piece_that_goes_on_is_left(piece: str) -> None:
    assert speaker_first(piece, "en", "zh") == piece


def test_a_documents_narration_piece_reaches_the_model_speaker_first() -> None:
    """A story's '"You'll catch your death out here," said the old man from the ticket office.' is
    two pieces (doctrans.dialogue); the second came back 说工单办公室的老人, the verb first."""
    prep = prepare("said the old man from the ticket office.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "the old man from the ticket office said."
