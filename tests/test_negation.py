"""A prohibition the translation must keep (doctrans.negation): the written Chinese forms the model
reads in their spoken forms (the docstring's table), the report's warning when a translation holds
no negation, and the engine's choice of a hypothesis that keeps one."""

from __future__ import annotations

import re

import pytest

from doctrans import negation
from doctrans.engine.protect import prepare
from doctrans.negation import added_negation, lost_negation, spoken_negation
from doctrans.report import sentence_warnings


def table() -> list[tuple[str, str]]:
    rows = re.findall(r"^\| (\S+) +\| (\S+) +\|$", negation.__doc__ or "", re.M)
    return [r for r in rows if not r[0].startswith("-") and r[0] != "written"]


def test_the_docstring_table_is_parsed() -> None:
    assert len(table()) == 8


@pytest.mark.parametrize(("written", "read"), table())
def test_docstring_table_row(written: str, read: str) -> None:
    assert spoken_negation(written, "zh") == read
    # through the engine's input: the model reads the spoken form, the source is untouched
    prep = prepare(written + "。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == read + "。" and prep.source == written + "。"


def test_only_a_chinese_source_is_respoken() -> None:
    assert spoken_negation("请勿吸烟", "en") == "请勿吸烟"
    assert prepare("请勿吸烟。", 16, tgt_lang="ja", src_lang="zh").model_text == "请不要吸烟。"


@pytest.mark.parametrize(("source", "translation", "src", "tgt", "lost"), [
    # 请勿将本产品放置在…: the model wrote the prohibition as an instruction
    ("请勿将本产品放在墙边30厘米以内。", "Please put this product 30 cm from the wall.", "zh", "en", "请勿"),
    ("请勿将本产品放在墙边30厘米以内。", "Do not place the product within 30 cm of a wall.", "zh", "en", None),
    ("严禁吸烟。", "No smoking.", "zh", "en", None),
    ("Do not open the case.", "打开箱子。", "en", "zh", "not"),
    ("You can't open the case.", "你不能打开箱子。", "en", "zh", None),
    ("Never open the case.", "切勿打开箱子。", "en", "zh", None),
    ("Open the case.", "打开箱子。", "en", "zh", None),
    ("没错，八个。", "Yes, eight.", "zh", "en", None),  # set phrases that say yes: forced, 没错 came back "No"
    ("没关系，我待会就上去。", "It's okay. I'll be right there.", "zh", "en", None),
    ("旧得不得了。", "It's terribly old.", "zh", "en", None),
    ("这扇门五年没锁了。", "This door's been locked for five years.", "zh", "en", "没"),
    ("Do not open the case.", "Öffnen Sie das Gehäuse.", "en", "de", None),  # only English <-> Chinese
])
def test_a_lost_negation(source: str, translation: str, src: str, tgt: str, lost: str | None) -> None:
    assert lost_negation(source, translation, src, tgt) == lost
    warnings = [w for w in sentence_warnings(source, translation, tgt_lang=tgt, src_lang=src) if w.kind == "negation"]
    assert [w.span for w in warnings] == ([lost] if lost else [])


def test_the_engine_prefers_a_hypothesis_that_keeps_the_negation() -> None:
    prep = prepare("Do not open the case.", 16, tgt_lang="zh", src_lang="en")
    hyps = ["打开箱子。", "不要打开箱子。"]
    assert prep.pick(hyps, lambda h: h) == "不要打开箱子。"
    assert prep.pick(["打开箱子。"], lambda h: h) == "打开箱子。"  # none keeps it: the best


def test_a_wider_search_is_kept_when_it_keeps_the_negation() -> None:
    prep = prepare("他整整一夜没睡。", 16, tgt_lang="en", src_lang="zh")
    wider_asked: list[bool] = []

    def wider() -> list[str]:
        wider_asked.append(True)
        return ["He did not sleep all night.", "He slept all night."]

    assert prep.choose(["He slept all night."], lambda h: h, wider) == "He did not sleep all night."
    assert prep.choose(["He slept all night."], lambda h: h, lambda: ["He slept the whole night."]) == \
        "He slept all night."  # the wider search lost it too: the first search's best
    assert prep.choose(["He slept all night."], lambda h: h, None) == "He slept all night."  # no wider search
    wider_asked.clear()
    assert prep.choose(["He didn't sleep."], lambda h: h, wider) == "He didn't sleep." and not wider_asked


def test_a_negation_quoted_in_capitals_is_mentioned_not_stated() -> None:
    """A specification's RFC 2119 paragraph ("MUST NOT", kept as written in Chinese) was reported as
    a lost negation; a quoted line of dialogue still states its own."""
    from doctrans.negation import source_negation

    assert source_negation('The key words "MUST", "MUST NOT" are to be read as in RFC 2119.', "en") is None
    assert source_negation('"Do not go," he said.', "en") == "not"


@pytest.mark.parametrize(("source", "translation", "src", "tgt", "added"), [
    # A board's minutes: "Tom Becker noted that the staff survey will close" came back 汤姆·贝克没有…;
    # the dev's "we're still married" 我们还没结婚呢.
    ("Tom Becker noted that the survey will close.", "汤姆·贝克没有调查会关闭。", "en", "zh", "没有"),
    ("We're still married.", "我们还没结婚呢。", "en", "zh", "没"),
    ("He is competent.", "他不称职。", "en", "zh", "不"),
    # The source says "no" in another form: a refused alternative, a prefix, a lack, a miss.
    ("Use a list instead of a tuple.", "使用列表而不是元组。", "en", "zh", None),
    ("Close the unsaved window.", "关闭未保存的窗口。", "en", "zh", None),
    ("Some functions lack a signature.", "某些函数没有签名。", "en", "zh", None),
    ("We missed it.", "我们没赶上。", "en", "zh", None),
    # Words with 不 that negate nothing, and a question asking "whether".
    ("I'm sorry. This is different.", "对不起。这不一样。", "en", "zh", None),
    ("We apologise for any inconvenience.", "我们对由此带来的不便深表歉意。", "en", "zh", None),
    ("Is there such a thing?", "有没有这样的东西？", "en", "zh", None),
    ("他说了。", "He didn't say it.", "zh", "en", "n't"),
    ("干脆来陪我怎么样", "Why don't you come with me?", "zh", "en", None),  # a suggestion
    ("很好，对吧？", "It's good, isn't it?", "zh", "en", None),  # a tag question
    ("他没说。", "He didn't say it.", "zh", "en", None),
])
def test_an_added_negation(source: str, translation: str, src: str, tgt: str, added: str | None) -> None:
    assert added_negation(source, translation, src, tgt) == added
    warnings = [w for w in sentence_warnings(source, translation, tgt_lang=tgt, src_lang=src)
                if w.kind == "negation"]
    assert [(w.problem, w.span) for w in warnings] == ([("added", added)] if added else [])


def test_the_engine_prefers_a_hypothesis_that_adds_no_negation() -> None:
    prep = prepare("Tom noted that the survey will close.", 16, tgt_lang="zh", src_lang="en")
    hyps = ["汤姆没有调查会关闭。", "汤姆指出调查将关闭。"]
    assert prep.pick(hyps, lambda h: h) == "汤姆指出调查将关闭。"


@pytest.mark.parametrize(("source", "translation", "src", "tgt", "lost"), [
    # "Few of the 300 residents had heard the warning" came back 300名居民的家伙听说了警告: they heard it.
    ("Few of the 300 residents had heard the warning.", "300名居民的家伙听说了警告。", "en", "zh", "Few"),
    ("Few of the 300 residents had heard the warning.", "300名居民中很少有人听到警告。", "en", "zh", None),
    ("A few residents had heard it.", "一些居民听说了。", "en", "zh", None),  # a few: some
    ("He rarely calls.", "他不常打电话。", "en", "zh", None),  # a no says it too
    ("他很少回家。", "He goes home.", "zh", "en", "很少"),
    ("他很少回家。", "He rarely goes home.", "zh", "en", None),
])
def test_few_says_almost_none_and_a_translation_must_too(source: str, translation: str, src: str, tgt: str,
                                                        lost: str | None) -> None:
    assert negation.lost_negation(source, translation, src, tgt) == lost
