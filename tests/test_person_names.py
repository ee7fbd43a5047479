"""Chinese people's names in pinyin into English where the text says they are names
(doctrans.person_names)."""

from __future__ import annotations

import pytest

from doctrans import person_names
from doctrans.engine.protect import prepare
from doctrans.person_names import find_person_names, pinyin, surnames_after_latin_given_names
from tests.docstring_tables import two_column_rows


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(person_names)) == 35


@pytest.mark.parametrize(("text", "written"), two_column_rows(person_names))
def test_docstring_table_row(text: str, written: str) -> None:
    found = [s.target for s in find_person_names(text, "zh", "en")]
    assert found == ([] if written == "(none)" else [written])
    assert find_person_names(text, "zh", "ja") == []


def test_pinyin_writes_the_surname_then_the_given_name_in_one_word() -> None:
    assert pinyin("欧阳", "修") == "Ouyang Xiu"
    assert pinyin("吕", "小红") == "Lü Xiaohong"
    assert pinyin("曾", "") == "Zeng"


def test_a_spokesman_keeps_his_name_through_the_engine() -> None:
    prep = prepare("国家统计局新闻发言人付凌晖表示，经济运行总体平稳。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text is not None and "付凌晖" not in prep.model_text
    out = prep.restore("National Bureau of Statistics spokesperson ⦅1⦆ said the economy was stable").text
    assert "Fu Linghui" in out


def test_a_line_of_dialogue_made_of_a_time_is_written_the_english_way() -> None:
    """``“下午三点半。”`` (all of it a time) was copied with its Chinese quotes and mark:
    ``“3:30 p.m.。”``."""
    assert prepare("“下午三点半。”", 16, tgt_lang="en", src_lang="zh").copy == '"3:30 p.m."'
    assert prepare("（2024年3月15日）", 16, tgt_lang="en", src_lang="zh").copy == "(March 15, 2024)"


@pytest.mark.parametrize(("text", "spans"), [
    # 付凌晖表示 came back "Fu Linghui means that", 他指出 "He points,".
    ("国家统计局新闻发言人付凌晖表示，经济向好。", [("付凌晖表示", "Fu Linghui said")]),
    ("他指出，前10个月投资增长。", [("他指出", "he pointed out")]),
    ("她强调：要扩大内需。", [("她强调", "she stressed")]),
    ("国务院总理李强说，要稳增长。", [("李强说", "Li Qiang said")]),
    ("他表示感谢。", []),  # to express thanks
    ("他说，我们走吧。", []),  # the model writes "He said"
    ("其他表示，", []),  # 他 inside a word
    # A results story's 公司表示，将继续加大研发投入 came back "The company representation will continue".
    ("公司表示，将继续加大研发投入。", [("公司表示", "the company said")]),
    ("报告指出，就业形势总体稳定。", [("报告指出", "the report pointed out")]),
    ("该公司表示：", [("该公司表示", "the company said")]),
    ("子公司表示，", []),  # a subsidiary: not where a clause starts
    # 主教练蔡斌赛后表示： came back "Head coach Cai Bin significance:", 付凌晖也表示 "The inventory is also".
    ("主教练蔡斌赛后表示：“顶住了压力。”", [("蔡斌赛后表示", "Cai Bin said after the match")]),
    ("发言人付凌晖也表示，经济运行总体平稳。", [("付凌晖也表示", "Fu Linghui also said")]),
    ("总理李强随后指出，", [("李强随后指出", "Li Qiang then pointed out")]),
    # A spokesperson without a name (交通运输部新闻发言人表示 came back "The transmitted spokesperson
    # representation").
    ("交通运输部新闻发言人表示，", [("新闻发言人表示", "spokesperson said")]),
    # A price release's 首席统计师董莉娟解读称 came back without her.
    ("国家统计局首席统计师董莉娟解读称，", [("董莉娟解读称", "Dong Lijuan said")]),
    ("法国总统马克龙表示，", []),  # Macron: 克 is a transliteration's, not a woman's name's
])
def test_a_persons_speech_is_reported_in_the_past(text: str, spans: list[tuple[str, str]]) -> None:
    from doctrans.direction_terms import automatic_terms

    found = automatic_terms(text, [], "zh", "en")
    assert [(s.text, s.target) for s in found if s.kind in ("name", "phrase") and " " in (s.target or "")
            and {"said", "out", "stressed"} & set(s.target.split())] == spans


def test_a_form_of_address_after_a_pronoun() -> None:
    # A story's "大家都叫他王师傅" came back "everyone called his princes".
    found = find_person_names("老板姓王，大家都叫他王师傅。", "zh", "en")
    assert [(s.text, s.target) for s in found] == [("王", "Wang"), ("王师傅", "Master Wang")]
    assert find_person_names("卡斯特罗先生来了。", "zh", "en") == []  # still a foreign name's end


def test_a_player_where_a_clause_starts_but_not_a_door_burst_open() -> None:
    assert [s.target for s in find_person_names("比赛第33分钟，武磊接队友传中头球破门。", "zh", "en")] == ["Wu Lei"]
    assert find_person_names("张力破门而入。", "zh", "en") == []


@pytest.mark.parametrize(("text", "found"), [
    # "Dr. Sarah Chen" came back 莎拉·切恩医生, "James Wu" 詹姆斯·沃格.
    ("Dr. Sarah Chen led the study.", [("Chen", "陈")]),
    ("Councillor James Wu voted against it; Mr. Wang did not.", [("Wu", "吴"), ("Wang", "王")]),
    ("Bruce Lee was born in 1940.", [("Lee", "李")]),
    ("Then Li said no. The Lin family. Yesterday Sun rose.", []),  # no given name; an English word
])
def test_a_chinese_surname_in_an_english_name_into_chinese(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_person_names(text, "en", "zh")] == found


@pytest.mark.parametrize(("text", "name"), [
    # A volleyball report: 主攻手李盈莹全场拿下28分 came back without her, 主教练蔡斌赛后表示 "Head coach
    # representations".
    ("主攻手李盈莹全场拿下28分。", "Li Yingying"),
    ("主教练蔡斌赛后表示：“队员们没有放弃。”", "Cai Bin"),
    # An association's officer in car-industry news (came back "Cheswall representation").
    ("中国汽车工业协会副秘书长陈士华表示，", "Chen Shihua"),
])
def test_a_players_and_a_coachs_names_in_a_match_report(text: str, name: str) -> None:
    assert [s.target for s in find_person_names(text, "zh", "en")] == [name]


@pytest.mark.parametrize(("translation", "written"), [
    # A board's minutes: "David Chen reported that..." came back David 陈报告了..., half a name in
    # each script.
    ("David 陈报告了收入。", "David Chen报告了收入。"),
    ("大卫·陈报告了收入。", "大卫·陈报告了收入。"),  # transliterated whole: Chinese as it writes such names
])
def test_a_given_name_left_in_english_keeps_its_surname_in_english(translation: str, written: str) -> None:
    source = "David Chen reported the revenue."
    spans = find_person_names(source, "en", "zh")
    assert surnames_after_latin_given_names(translation, source, spans) == written


def test_a_surname_is_no_number_into_chinese() -> None:
    # An earnings call's "I'm Karen Wu, Chief Financial Officer" came back 我是凯伦吴号.
    prep = prepare("I'm Karen Wu, the host.", 16, tgt_lang="zh", src_lang="en")
    assert "⦅1⦆" in prep.model_text
    assert prep.restore("我是凯伦⦅1⦆号，主持人。").text == "我是凯伦吴，主持人。"
    prep = prepare("David Chen reported the revenue.", 16, tgt_lang="zh", src_lang="en")
    assert prep.restore("David ⦅1⦆报告了收入。").text == "David Chen报告了收入。"


def test_a_name_kept_in_english_is_no_missing_name() -> None:
    # The minutes' "Present: Maria Lopez (Chair), David Chen, Priya Nair" came back with David 陈 and a
    # Chinese comma; written back in English, the report had listed 陈 as missing.
    from doctrans.report import sentence_warnings

    source = "Present: Maria Lopez, David Chen, Priya Nair"
    spans = find_person_names(source, "en", "zh")
    assert surnames_after_latin_given_names("出席：Maria Lopez, David 陈，Priya Nair", source, spans) == \
        "出席：Maria Lopez, David Chen, Priya Nair"
    assert not [w for w in sentence_warnings(source, "出席：Maria Lopez, David Chen, Priya Nair", tgt_lang="zh",
                                             src_lang="en") if w.kind == "name"]
    assert [w.span for w in sentence_warnings(source, "出席：Maria Lopez, 大卫, Priya Nair", tgt_lang="zh",
                                              src_lang="en") if w.kind == "name"] == ["陈"]


def test_an_organisations_official_speaks_for_it() -> None:
    # A railway's news: 中国国家铁路集团有限公司有关负责人表示 came back "China State Railway Group Co., Ltd. is
    # related to the manifest representation".
    from doctrans.direction_terms import automatic_terms

    found = automatic_terms("中国国家铁路集团有限公司有关负责人表示，开通将完善交通网络。", [], "zh", "en")
    assert [(s.text, s.target) for s in found] == [
        ("中国国家铁路集团有限公司有关负责人表示", "an official of China State Railway Group Co., Ltd. said")]
    found = automatic_terms("杭州市交通局相关负责人介绍：", [], "zh", "en")
    assert [s.target for s in found] == ["an official of the Hangzhou Municipal Transport Bureau said"]
    assert [s.target for s in automatic_terms("负责人表示，", [], "zh", "en")] == []  # nobody's


@pytest.mark.parametrize("text", ["老张放下手里的茶杯，蹲下来看了看。", "老张摆摆手：“不要钱。”"])
def test_a_familiar_name_before_what_a_hand_does(text: str) -> None:
    # A story's 老张放下手里的茶杯 came back "The old tea cup", 老张摆摆手 "The old manipulation".
    assert [s.target for s in find_person_names(text, "zh", "en")] == ["Lao Zhang"]


def test_a_chief_officer_is_a_title_and_according_to_is_no_speech() -> None:
    # A tech news item: 据公司首席技术官陈立明介绍 came back "the company Chief Technology Officer s", the name
    # gone; with it a name, 据 makes 介绍 the phrase's end, not "Chen Liming said".
    from doctrans.direction_terms import automatic_terms

    found = automatic_terms("据公司首席技术官陈立明介绍，成本降低了40%。", [], "zh", "en")
    assert [(s.text, s.target) for s in found if s.kind == "name"] == [("陈立明", "Chen Liming")]
    found = automatic_terms("首席技术官陈立明介绍，成本降低了40%。", [], "zh", "en")
    assert [(s.text, s.target) for s in found if s.kind == "name"] == [("陈立明介绍", "Chen Liming said")]


@pytest.mark.parametrize(("text", "name", "written"), [
    ("信封上写着他的名字：张建国。", "张建国", "Zhang Jianguo"),
    ("他名叫王小明，今年十岁。", "王小明", "Wang Xiaoming"),
    ("她的名字叫陈晓燕", "陈晓燕", "Chen Xiaoyan"),
])
def test_a_name_given_as_one_is_written_in_pinyin(text: str, name: str, written: str) -> None:
    assert (name, written) in [(s.text, s.target) for s in find_person_names(text, "zh", "en")]


@pytest.mark.parametrize("text", ["你怎么能真的相信我的名字是贾米尔", "那为什么店名叫史崔尔?", "我们给他起名叫罗格吧",
                                  "他的名字叫王先生"])
def test_a_transliterated_name_given_as_one_is_left_to_the_model(text: str) -> None:
    """TVsub's names after 名叫 are foreign ones (贾米尔 is Jamil): not pinyin."""
    assert [s for s in find_person_names(text, "zh", "en") if s.target and " " in s.target
            and not s.target.startswith("Mr.")] == []


def test_where_a_reporter_learned_it_is_one_span() -> None:
    """记者从交通运输部获悉， came back "The reporter has taken from the transplant"."""
    from doctrans.direction_terms import automatic_terms

    found = automatic_terms("记者从交通运输部获悉，前三季度港口吞吐量增长。", [], "zh", "en")
    assert next((s.text, s.target) for s in found) == ("记者从交通运输部获悉",
                                                     "reporters learned from the Ministry of Transport that")
    # Not without a name the lists know between.
    assert not any(s.target and "learned" in s.target
                   for s in automatic_terms("记者从一位老朋友那里获悉，他要搬家了。", [], "zh", "en"))
