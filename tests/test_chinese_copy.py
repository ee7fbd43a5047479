"""A sentence made only of terms, written into Chinese without the model (doctrans.engine.protect
.chinese_copy), is set as Chinese output is: its quotes, commas and full stop."""

from __future__ import annotations

from doctrans.engine.protect import prepare


def test_an_utterance_made_only_of_terms_is_set_as_chinese_output_is() -> None:
    """'"Twenty past eight," said the old man' is cut into its utterance and its narration; the
    utterance, only clock words, is written without the model and came back "八点二十分," with
    ASCII quotes and comma in a Chinese story."""
    prep = prepare('"Twenty past eight,"', 16, tgt_lang="zh", src_lang="en")
    assert (prep.model_text, prep.copy) == (None, "“八点二十分，”")
    code = prepare('"v2.1.0", 2024', 16, tgt_lang="zh", src_lang="en")  # no term with a target: as written
    assert code.copy == '"v2.1.0", 2024'


def test_a_run_in_heading_made_only_of_a_term_ends_as_chinese_does() -> None:
    """An agreement's '3. Service Credits. If availability…' came back 服务抵扣额. with the ASCII stop."""
    assert prepare("Service Credits.", 16, tgt_lang="zh", src_lang="en").copy == "服务抵扣额。"
