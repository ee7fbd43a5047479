"""Sentence splitting with offsets (en, de, zh) and fitting long sentences to the budget."""

from __future__ import annotations

import pytest

from doctrans.segment import fit_to_budget, join_gap, segment_block, split_sentences


def sents(text: str, lang: str = "en") -> list[str]:
    spans = split_sentences(text, lang)
    # Offsets point back into the text, and only whitespace lies between/around segments.
    covered = "".join(text[a:b] for a, b in spans)
    assert covered.replace(" ", "") == "".join(text.split()).replace(" ", "")
    return [text[a:b] for a, b in spans]


@pytest.mark.parametrize(("text", "lang", "expected"), [
    ("Dr. Smith paid $3.14 for it. Then he left.", "en", ["Dr. Smith paid $3.14 for it.", "Then he left."]),
    ("We met e.g. Mr. Brown at 5 p.m. yesterday. Fine.", "en",
     ["We met e.g. Mr. Brown at 5 p.m. yesterday.", "Fine."]),
    ("Wait... what? Yes!! Go on.", "en", ["Wait... what?", "Yes!!", "Go on."]),
    ('"Stop!" he said. "Why?" She left.', "en", ['"Stop!" he said.', '"Why?"', "She left."]),
    ("It costs 1.5 million (approx. 2 bn). See www.example.com. Done.", "en",
     ["It costs 1.5 million (approx. 2 bn).", "See www.example.com.", "Done."]),
    ("J. R. R. Tolkien wrote it. The U.S.A. agreed.", "en", ["J. R. R. Tolkien wrote it.", "The U.S.A. agreed."]),
    ("Er kam am 3. Mai, z.B. um 9 Uhr. Das ist gut.", "de", ["Er kam am 3. Mai, z.B. um 9 Uhr.", "Das ist gut."]),
    ("Er sagte: „Nein.“ Dann ging er. Vgl. S. 4 bzw. Nr. 5.", "de",
     ["Er sagte: „Nein.“", "Dann ging er.", "Vgl. S. 4 bzw. Nr. 5."]),
    ("他来了。她走了！真的吗？“是的。”好的", "zh", ["他来了。", "她走了！", "真的吗？", "“是的。”", "好的"]),
    ("价格是3.5元。Then English. 再见……他走了。", "zh", ["价格是3.5元。", "Then English.", "再见……他走了。"]),
    ("Line one\nline two\tcell. Next.", "en", ["Line one", "line two", "cell.", "Next."]),
    ("   ", "en", []),
    # A footnote's mark ends the sentence it follows (it was left inside or began the next one).
    ("Gains on pydocs.¹ They are largest for pronouns.[12] Done.", "en",
     ["Gains on pydocs.¹", "They are largest for pronouns.[12]", "Done."]),
    ("提高了0.8分。¹ 代词的提升最大。", "zh", ["提高了0.8分。¹", "代词的提升最大。"]),
    # A table of contents' leader and page number are a segment of their own (the model shortened it).
    ("2 Market Overview ........ 5\n一、总体情况 …… …… 3", "en",
     ["2 Market Overview", "........ 5", "一、总体情况", "…… …… 3"]),
    ("Wait.... 5 more", "en", ["Wait....", "5 more"]),
])
def test_split(text: str, lang: str, expected: list[str]) -> None:
    assert sents(text, lang) == expected


def test_offsets_are_exact() -> None:
    text = "  One here.  Two there!\n\nThree?  "
    spans = split_sentences(text)
    assert spans == [(2, 11), (13, 23), (25, 31)]


def test_long_sentence_without_punctuation_is_cut_at_words_never_dropped() -> None:
    words = [f"w{i}" for i in range(1000)]
    text = " ".join(words)  # ~5,000 characters, no punctuation
    assert len(text) > 4800
    pieces = fit_to_budget(text, (0, len(text)), lambda s: len(s.split()), 64)
    assert all(len(text[a:b].split()) <= 64 for a, b in pieces)
    assert " ".join(text[a:b] for a, b in pieces).split() == words  # every word, in order
    assert all(text[a - 1] == " " for a, _ in pieces[1:])  # cut between words


def test_long_sentence_prefers_clause_marks_and_handles_giant_words_and_cjk() -> None:
    text = "alpha beta gamma, delta epsilon zeta eta theta iota"
    pieces = fit_to_budget(text, (0, len(text)), lambda s: len(s.split()), 5)
    assert text[pieces[0][0]:pieces[0][1]] == "alpha beta gamma,"
    blob = "x" * 5000  # one "word" longer than the budget: cut inside it, nothing lost
    pieces = fit_to_budget(blob, (0, 5000), lambda s: len(s) // 100 + 1, 10)
    assert "".join(blob[a:b] for a, b in pieces) == blob and len(pieces) > 1
    zh = "我们" * 300
    pieces = fit_to_budget(zh, (0, len(zh)), len, 64)
    assert "".join(zh[a:b] for a, b in pieces) == zh and max(b - a for a, b in pieces) <= 64


def test_segment_block_applies_budget_per_sentence() -> None:
    text = "Short one. Word " + "word " * 200 + "end."
    spans = segment_block(text, "en", lambda s: len(s.split()), 50)
    assert text[spans[0][0]:spans[0][1]] == "Short one."
    assert sum(len(text[a:b].split()) for a, b in spans) == len(text.split())


def test_join_gap() -> None:
    assert join_gap(" ", "zh", "他来了。", "她走了") == ""
    assert join_gap("", "en", "He came.", "She left.") == " "
    assert join_gap("\t", "en", "a", "b") == "\t"
    assert join_gap("  ", "de", "Ja.", "Nein.") == "  "


def test_no_space_after_a_full_width_mark_in_chinese_output() -> None:
    assert join_gap(" ", "zh", '"还没，"她说。', '"我在等一封信。"') == ""
    assert join_gap(" ", "zh", '"我在等一封信。"', "他走了。") == ""
    assert join_gap(" ", "zh", "她说", "“我想完成这封信。”") == ""  # the narration, then an utterance
    assert join_gap(" ", "zh", "利率上升。", "0.45欧元") == ""
    assert join_gap(" ", "zh", "你确定吗?", "好") == " "  # an ASCII mark: the model's spacing stays
    assert join_gap(" ", "en", "他来了。", '"Yes."') == " "


def test_no_sentence_ends_inside_inline_code() -> None:
    """A man page's `backup-agent [OPTIONS] SOURCE... DEST` was cut after its "...", and the half
    without its closing backtick came back with SOURCE translated (源代码)."""
    text = "`backup-agent [OPTIONS] SOURCE... DEST`"
    assert split_sentences(text, "en") == [(0, len(text))]
    assert [text2[a:b] for text2 in ["Run `a... B` now. Then stop."] for a, b in split_sentences(text2, "en")] == [
        "Run `a... B` now.", "Then stop."]


def test_a_datelines_state_ends_no_sentence() -> None:
    """"PORTLAND, Ore. (AP) — The council voted." was cut after "Ore.", so the dateline was two
    sentences and came back 波特兰奥雷。(AP); "ore." in prose still ends one."""
    text = "PORTLAND, Ore. (AP) — The council voted."
    assert [text[a:b] for a, b in split_sentences(text, "en")] == [text]
    text = "We mined the ore. Then we left. He lives in Salem, Ore. He left."
    assert [text[a:b] for a, b in split_sentences(text, "en")] == [
        "We mined the ore.", "Then we left.", "He lives in Salem, Ore.", "He left."]


def test_a_chinese_reports_statements_joined_by_semicolons_are_sentences() -> None:
    """全市地区生产总值达到1.86万亿元，增长5.8%；一般公共预算收入……；城镇新增就业31.2万人…… held more
    figures and terms than the model's phrase budget: "new urban jobs" and the unemployment rate were
    lost. Each statement goes alone; a list's short pieces stay one sentence."""
    text = ("过去一年，全市地区生产总值达到1.86万亿元，增长5.8%；一般公共预算收入2350亿元，增长4.1%；"
            "城镇新增就业31.2万人，城镇调查失业率控制在5%以内。")
    assert [text[a:b] for a, b in segment_block(text, "zh")] == [
        "过去一年，全市地区生产总值达到1.86万亿元，增长5.8%；", "一般公共预算收入2350亿元，增长4.1%；",
        "城镇新增就业31.2万人，城镇调查失业率控制在5%以内。"]
    assert segment_block("主要包括：甲；乙；丙。", "zh") == [(0, 11)]
    # English keeps its semicolons inside the sentence.
    text = "Take 2 tablets every 4 hours; do not exceed 8 tablets in 24 hours."
    assert segment_block(text, "en") == [(0, len(text))]
