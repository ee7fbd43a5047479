"""doctrans.inverted_speech: the docstring's table, and the model text prepare() gives the model."""

from __future__ import annotations

import pytest

from doctrans import inverted_speech
from doctrans.engine.protect import prepare
from doctrans.inverted_speech import speaker_first
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(inverted_speech)) == 7


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
