"""English output out of a Chinese source gets the space the model left out after a mark
(doctrans.latin_spacing)."""

from __future__ import annotations

import pytest

from doctrans.engine.protect import prepare
from doctrans.latin_spacing import spaced_after_marks


@pytest.mark.parametrize(("text", "expected"), [
    ("10 years ago,I moved to Beijing.", "10 years ago, I moved to Beijing."),
    ("It rained;we stayed.", "It rained; we stayed."),
    ("He left.She stayed.", "He left. She stayed."),
    ("Why not?Because.", "Why not? Because."),
    # Abbreviations, figures, names and code-like text stay as they are.
    ("See e.g.The U.S.A. and 3.5, 1,250 or os.path and http://x.Org", "See e.g.The U.S.A. and 3.5, 1,250 or os.path and http://x.Org"),
    ("Call ⦅1⦆,⦅2⦆ now", "Call ⦅1⦆,⦅2⦆ now"),
    # After a masked figure or date ("1987年，你出生那年" came back "1987,you're born").
    ('"⦅1⦆,you\'re born."', '"⦅1⦆, you\'re born."'),
    # A prefix split from its word (非食品价格 came back "non- food price"); a dash between words stays.
    ("Food down 2.9%, non- food price up 1.0%.", "Food down 2.9%, non-food price up 1.0%."),
    ("Non- ⦅1⦆ and co- operation", "Non-⦅1⦆ and co-operation"),
    ("It was slow - food came late; neon- lit", "It was slow - food came late; neon- lit"),
])
def test_spaced_after_marks(text: str, expected: str) -> None:
    assert spaced_after_marks(text) == expected


def test_only_english_out_of_a_chinese_source_and_never_inside_a_span() -> None:
    prep = prepare("十年前，我搬到了北京。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("⦅1⦆ years ago,I moved to ⦅2⦆.").text == "10 years ago, I moved to Beijing."
    english = prepare("Use a,b here.", 16, tgt_lang="de", src_lang="en")  # a,b: an identifier, kept
    assert english.restore("Nimm ⦅1⦆ hier.").text == "Nimm a,b hier."


@pytest.mark.parametrize(("text", "expected"), [
    ("⦅1⦆⦅2⦆(digest)", "⦅1⦆⦅2⦆ (digest)"),
    ("The report(2024)was published.", "The report (2024) was published."),
    ("Python (a language) is used.", "Python (a language) is used."),
    ("the (⦅1⦆)", "the (⦅1⦆)"),
    ("see (a)and (b)", "see (a) and (b)"),
])
def test_a_full_width_bracket_gets_the_spaces_english_writes(text: str, expected: str) -> None:
    assert spaced_after_marks(text, source="报告（摘要）") == expected


def test_brackets_stay_glued_where_the_source_glued_ascii_ones() -> None:
    # A call written in prose: the source's ASCII brackets are the code's.
    assert spaced_after_marks("call print(x)now", source="调用print(x)now") == "call print(x)now"
    # Code copied within a sentence whose Chinese comment has full-width brackets (a pydocs dev
    # line: say_after(1, 'hello') had come back say_after (1, 'hello')).
    source = "task1 = asyncio.create_task(say_after(1, 'hello')) print(f\"started\") # 等待（大约2秒）"
    text = "task1 = asyncio.create_task(say_after(1, 'hello')) print(f\"started\") # wait (about 2 seconds)"
    assert spaced_after_marks(text, source) == text
    assert spaced_after_marks("# wait(about 2 seconds)", source) == "# wait (about 2 seconds)"
    # The same with the code masked: a placeholder before "(" is a call there.
    masked = "⦅3⦆ = ⦅4⦆(⦅5⦆(⦅6⦆, 'hello')) # wait (about ⦅7⦆)"
    assert spaced_after_marks(masked, source) == masked


def test_a_chinese_title_with_its_bracketed_note_reads_as_english() -> None:
    prep = prepare("2024年政府工作报告（摘要）", 16, tgt_lang="en", src_lang="zh")
    text = prep.restore(prep.model_text.replace("（摘要）", "(digest)")).text
    assert text == "2024 Government Work Report (digest)"


def test_quotes_the_model_glued_as_chinese_does_get_their_spaces() -> None:
    """点击“申请退款” came back 'clicking"apply for a refund"'."""
    source = "请在“我的订单”页面点击“申请退款”，填写原因后提交。"
    assert spaced_after_marks('Please click"⦅2⦆"on the "My ⦅1⦆" page.', source) == \
        'Please click "⦅2⦆" on the "My ⦅1⦆" page.'
    assert spaced_after_marks('He said"OK".', "他说“好”。") == 'He said "OK".'
    assert spaced_after_marks('He said"OK".', "他说好。") == 'He said"OK".'  # no “ in the source: as written
