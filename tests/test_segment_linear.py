"""Long unpunctuated text is segmented in linear time and cut at a safe length (issue 16, defect 6)."""

from __future__ import annotations

from doctrans.segment import MAX_SENTENCE_CHARS, cap_length, segment_block


def _work(n_chars: int) -> tuple[int, list[tuple[int, int]], str]:
    """(characters handed to the token counter, spans, text) for an unpunctuated line."""
    text = ("word " * (n_chars // 5)).strip()
    seen = [0]

    def count(s: str) -> int:
        seen[0] += len(s)
        return len(s.split())

    spans = segment_block(text, "en", count, 64)
    return seen[0], spans, text


def test_work_grows_linearly_with_the_line() -> None:
    small, _, _ = _work(40_000)
    big, spans, text = _work(160_000)
    # Quadratic splitting tokenized the whole rest of the line per piece: 4x the text was 16x
    # the work (1.3 s -> 21 s). Linear: about 4x.
    assert big < 5 * small, (small, big)
    assert big < 40 * len(text)
    assert all(len(text[a:b].split()) <= 64 for a, b in spans)
    assert " ".join(text[a:b] for a, b in spans) == text  # nothing dropped or repeated


def test_cap_prefers_clause_marks_then_spaces_then_characters() -> None:
    text = "a" * 30 + ", " + "b" * 10 + " " + "c" * 10
    assert [text[a:b] for a, b in cap_length(text, (0, len(text)), 40)] == ["a" * 30 + ",", "b" * 10 + " " + "c" * 10]
    text = "word " * 20
    pieces = [text[a:b] for a, b in cap_length(text, (0, len(text.strip())), 23)]
    assert all(len(p) <= 23 and not p.startswith(" ") and p.replace("word", "").strip() == "" for p in pieces)
    assert cap_length("x" * 50, (0, 50), 20) == [(0, 20), (20, 40), (40, 50)]  # one long "word": by characters


def test_without_a_budget_no_sentence_exceeds_the_safe_length() -> None:
    text = "x" * 10_000 + " tail."
    spans = segment_block(text, "en")
    assert max(b - a for a, b in spans) <= MAX_SENTENCE_CHARS
    assert "".join(text[a:b] for a, b in spans) == text.replace(" ", "")  # only the space is a gap
