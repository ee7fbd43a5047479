"""A screenplay's scene headings (doctrans.scene_headings): the docstring's table row by row, and a
heading's line kept whole by the segmenter."""

from __future__ import annotations

import pytest

from doctrans import scene_headings
from doctrans.scene_headings import find_scene_headings
from doctrans.segment import segment_block
from tests.docstring_tables import three_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(three_column_rows(scene_headings)) == 6


@pytest.mark.parametrize(("text", "tgt", "expected"), three_column_rows(scene_headings))
def test_docstring_table_row(text: str, tgt: str, expected: str) -> None:
    src = "zh" if tgt == "en" else "en"
    found = [s.target for s in find_scene_headings(text, src, tgt)]
    assert (" · ".join(t for t in found if t) or "(none)") == expected
    assert find_scene_headings(text, src, "de") == []


def test_a_scene_heading_is_one_segment() -> None:
    """"INT." had ended a sentence: the model read it alone (有意思, "interesting")."""
    text = "INT. POLICE STATION - NIGHT\n\nDetective Cole sits down. INT. is a marker."
    first, *_ = segment_block(text, "en")
    assert text[first[0]:first[1]] == "INT. POLICE STATION - NIGHT"
