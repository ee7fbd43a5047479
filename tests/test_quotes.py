"""Quotes: the model reads ASCII ones, Chinese output gets “”, never inside a verbatim span
(doctrans.quotes)."""

from __future__ import annotations

import pytest

from doctrans.engine.protect import prepare
from doctrans.quotes import chinese_quotes, keep_quotation, plain_quotes


def test_smart_quotes_and_apostrophes_reach_the_model_plain() -> None:
    assert plain_quotes("“I don’t know,” she said. ‘Fine.’") == "\"I don't know,\" she said. 'Fine.'"
    assert plain_quotes("“你要走了吗？”妈妈问。「好。」") == '"你要走了吗？"妈妈问。"好。"'


@pytest.mark.parametrize(("text", "expected"), [
    ('她说 "不" 。', "她说“不”。"),
    ('"你来吗?" 她弟弟问。', "“你来吗?”她弟弟问。"),
    ('打印 "hello" 和 "world"', "打印“hello”和“world”"),
    ('"我在等', '“我在等'),  # one quote at the start: a quotation of several sentences opens
    ('我在等"。', '我在等”。'),  # ... and closes
    ('我"在等', '我"在等'),  # one quote inside: left as the model wrote it
    ('"我"在等"', '"我"在等"'),  # an odd number: left as the model wrote it
    ('He said "yes"', 'He said "yes"'),  # no Chinese in or beside the quotation
    ('对于此定义，“submitted" 意味着 "任何"', "对于此定义，“submitted”意味着“任何”"),  # mixed styles
    ('“你好”和 "再见', '“你好”和 "再见'),  # an odd number once read alike: left alone
    ('关键字"MUST", "MUST NOT", "MAY"和"OPTIONAL"', "关键字“MUST”、“MUST NOT”、“MAY”和“OPTIONAL”"),  # a list of terms
    ('他说"你好，"，"再见。"', "他说“你好，”，“再见。”"),  # quoted sentences keep their comma
])
def test_ascii_pairs_become_chinese_quotes(text: str, expected: str) -> None:
    assert chinese_quotes(text) == expected


def test_the_engine_gives_the_model_plain_quotes_and_keeps_span_quotes() -> None:
    prep = prepare("“Use `print(\"hi\")` here,” he said.", 16, tgt_lang="zh", src_lang="en")
    # The first word in small letters (doctrans.case_fold).
    assert prep.model_text == '"use ⦅1⦆ here," he said.'
    assert prep.restore('"在这里使用⦅1⦆吧," 他说').text == '“在这里使用`print("hi")`吧，”他说。'
    english = prepare("“你要走了吗？”妈妈问。", 16, tgt_lang="en", src_lang="zh")
    assert english.model_text == '"你要走了吗？"妈妈问。'
    assert english.restore('"Are you leaving?" Mom asked').text == '"Are you leaving?" Mom asked.'


def test_a_stray_quote_at_the_end_is_dropped_so_the_pairs_become_chinese() -> None:
    from doctrans.quotes import drop_stray_quote

    source = 'The key words "MUST" and "MAY" are as in RFC 2119.'
    translation = '关键字"MUST"和"MAY"如 RFC 2119 中所述"。'
    assert chinese_quotes(drop_stray_quote(source, translation)) == "关键字“MUST”和“MAY”如 RFC 2119 中所述。"
    assert drop_stray_quote('He said "no."', '他说"不。') == '他说"不。'  # the source ends in a quote
    assert drop_stray_quote('a "b" c', '甲"乙"丙') == '甲"乙"丙'  # an even count: nothing to drop


def test_a_quotation_with_a_stray_quote_inside_comes_back_as_one_quotation() -> None:
    """The en->zh model closed the quotation early (``"最糟糕的是"是什么意思"``); the mark and a
    fourth quote were added after it and the reader got an empty ``“”`` at the end."""
    from doctrans.quotes import drop_stray_quote
    from doctrans.sentence_end import end_like_source

    source = '"What\'s the worst that could happen?"'
    ended = end_like_source(source, '"最糟糕的是"是什么意思"', chinese_output=True)
    assert ended == '"最糟糕的是"是什么意思？"'
    assert chinese_quotes(drop_stray_quote(source, ended)) == "“最糟糕的是是什么意思？”"
    # A quotation that is only part of the source keeps the model's quotes.
    assert drop_stray_quote('He asked "why?" twice', '他问"为什么"两次"') == '他问"为什么"两次'


@pytest.mark.parametrize(("source", "translation", "written"), [
    # A note's "Box 417, Harrington Station. You'll understand." came back without either quote.
    ('"Box ⦅1⦆, Harrington Station.', "⦅1⦆号信箱，哈林顿车站。", "“⦅1⦆号信箱，哈林顿车站。"),
    ("You'll understand.\"", "你会明白的。", "你会明白的。”"),
    ('"你会明白的。', "You'll understand.", '"You\'ll understand.'),
    ('He said "no', "他说不", "他说不"),  # a quote inside: not a quotation's first sentence
    ("The note said only:", "纸条只说：", "纸条只说："),
    # A whole quotation whose translation has one quote of the pair: the other one is added.
    ('"The economy is still on solid footing, but we are seeing signs of cooling,"',
     '经济仍处于稳固的基础上，但我们看到了降温的迹象，"', "“经济仍处于稳固的基础上，但我们看到了降温的迹象，”"),
    ('"Not yet,"', '"还没有，', "“还没有，”"),
    ('"Not yet,"', '还没"有，', '还没"有，'),  # a quote inside: left as the model wrote it
])
def test_a_quotation_of_several_sentences_keeps_its_opening_and_closing_quote(
        source: str, translation: str, written: str) -> None:
    assert chinese_quotes(keep_quotation(source, translation)) == written
