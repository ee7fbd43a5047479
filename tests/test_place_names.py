"""Places and weekdays by their names in the other language (doctrans.place_names)."""

from __future__ import annotations

import pytest

from doctrans import place_names
from doctrans.engine.protect import prepare
from doctrans.place_names import find_place_names, no_inside_after_place
from tests.docstring_tables import three_column_rows


def docstring_table() -> list[tuple[str, str, str]]:
    return three_column_rows(place_names)


def test_the_docstring_table_is_parsed() -> None:
    assert len(docstring_table()) == 26


@pytest.mark.parametrize(("text", "tgt", "expected"), docstring_table())
def test_docstring_table_row(text: str, tgt: str, expected: str) -> None:
    src = "zh" if tgt == "en" else "en"
    found = [s.target for s in find_place_names(text, src, tgt)]
    assert (" · ".join(found) or "(none)") == expected


def test_every_entry_reads_back_both_ways() -> None:
    into_chinese, into_english, _, _ = place_names._tables()
    for english, chinese in into_chinese.items():
        assert [s.target for s in find_place_names(f"We met in {english} today.", "en", "zh")] == [chinese]
    for chinese, english in into_english.items():
        assert [s.target for s in find_place_names(f"我们在{chinese}见面。", "zh", "en")] == [english]


def test_only_between_english_and_chinese_and_capitalised() -> None:
    assert find_place_names("The china cup from france.", "en", "zh") == []
    assert find_place_names("We met in Germany.", "en", "de") == []


def test_a_place_reaches_the_output_by_its_name() -> None:
    prep = prepare("The company opened stores in Germany and Spain.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "The company opened stores in ⦅1⦆ and ⦅2⦆."
    assert prep.restore("公司在⦅1⦆和⦅2⦆开设了商店").text == "公司在德国和西班牙开设了商店。"


def test_neighbouring_spans_are_spaced_the_way_the_output_writes() -> None:
    """``北京10月18日`` came back ``BeijingOctober 18``: two spans glued in Chinese are two words in
    English; spaced in English, they are glued in Chinese."""
    from doctrans.engine.protect import prepare

    zh = prepare("据新华社北京10月18日报道", 16, tgt_lang="en", src_lang="zh")  # (at the start: a dateline)
    assert [s.output for s in zh.masked.spans] == ["Xinhua News Agency", "Beijing", "October 18"]
    assert zh.restore("⦅1⦆ ⦅2⦆⦅3⦆").text == "Xinhua News Agency Beijing October 18"
    en = prepare("It opens in Berlin on Monday March 3.", 16, tgt_lang="zh", src_lang="en")
    assert en.restore("它在⦅1⦆开放⦅2⦆ ⦅3⦆").text == "它在柏林开放星期一3月3日。"
    # Apart in the source, side by side in the translation: Chinese sets no space between them.
    apart = prepare("A storm swept across Texas on Tuesday.", 16, tgt_lang="zh", src_lang="en")
    assert apart.restore("暴风雨在 ⦅1⦆ ⦅2⦆ 席卷").text == "暴风雨在得克萨斯州星期二席卷。"
    # Spans that keep their text keep the source's gap.
    same = prepare("Run `make` `install` now.", 16, tgt_lang="zh", src_lang="en")
    assert same.restore("现在运行⦅1⦆ ⦅2⦆").text == "现在运行`make` `install`。"


@pytest.mark.parametrize(("source", "translation", "src", "tgt", "invented"), [
    ("公司在上海、深圳新设两家分公司。", "The company is in ⦅1⦆, ⦅2⦆ New York.", "zh", "en", ["New York"]),
    ("咖啡厅 该死", "Chicago, damn it.", "zh", "en", ["Chicago"]),
    ("中美关系", "China-United States relations", "zh", "en", []),  # a short form names both
    ("京津冀地区", "The Beijing-Tianjin-Hebei region", "zh", "en", []),
    ("他在 New York 工作。", "He works in New York.", "zh", "en", []),  # the English name in the source
    ("If you marry in Vegas, you're married in Vegas.", "如果你嫁给了维加斯，你只是在加州。", "en", "zh", ["加州"]),
    ("The Chinese economy grew.", "中国经济增长了。", "en", "zh", []),  # the people's word names the place
    ("He moved to BEIJING.", "他搬到了北京。", "en", "zh", []),
    ("Near the Colosseum.", "在哥伦比亚附近。", "en", "zh", ["哥伦比亚"]),  # Colo- is no Colombia
    ("The US economy grew.", "美国经济增长了。", "en", "zh", []),  # an abbreviation as a word
    ("Thai food is spicy.", "泰国菜很辣。", "en", "zh", []),  # the adjective names the country
    ("Er zog nach Berlin.", "He moved to Paris.", "de", "en", []),  # only between English and Chinese
])
def test_places_a_translation_invents(source: str, translation: str, src: str, tgt: str,
                                      invented: list[str]) -> None:
    assert place_names.invented_places(source, translation, src, tgt) == invented


def test_the_engine_keeps_the_best_hypothesis_that_invents_no_place() -> None:
    """Prepared.pick: of the n-best, the best that copied every placeholder and names no place the
    source does not; the best that copied every placeholder when each names one; None (search
    wider) when none copied them."""
    prep = prepare("公司在上海新设两家分公司。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "公司在⦅1⦆新设两家分公司。"
    hyps = ["The company is in ⦅1⦆ New York.", "The company set up two branches in ⦅1⦆.", "Two new branches."]
    assert prep.pick(hyps, str) == hyps[1]
    assert prep.pick([hyps[0], hyps[2]], str) == hyps[0]  # the placeholder matters more
    assert prep.pick([hyps[2]], str) is None
    plain = prepare("咖啡厅 该死", 16, tgt_lang="en", src_lang="zh")
    assert not plain.masked.spans
    assert plain.pick(["Chicago, damn it.", "The coffee shop, damn it."], str) == "The coffee shop, damn it."
    assert plain.pick(["Chicago, damn it."], str) == "Chicago, damn it."  # nothing better: kept


def test_the_middle_east_is_read_but_not_a_central_east() -> None:
    # A report's "主要来自东南亚和中东地区" came back "from the Southeast Asia and the upper east side".
    found = find_place_names("主要来自东南亚和中东地区。", "zh", "en")
    assert [s.target for s in found] == ["Southeast Asia", "Middle East"]
    # its central-east, not the Middle East (a forecast's 内蒙古中东部 is central and eastern Inner Mongolia)
    assert [s.target for s in find_place_names("西雅图中东部城市", "zh", "en")] == ["central and eastern Seattle"]


def test_a_part_of_a_place_is_the_places_part() -> None:
    """内蒙古中东部 came back "the east side of Inner Mongolia", 四川东部 "The Sichuan east side"."""
    assert [s.target for s in find_place_names("四川东部有大雨。", "zh", "en")] == ["eastern Sichuan"]
    assert [s.target for s in find_place_names("内蒙古中东部气温下降。", "zh", "en")] == [
        "central and eastern Inner Mongolia"]


def test_the_south_china_sea_but_not_a_south_shore_nor_haikou_in_hunan() -> None:
    # A talk's "我第一次潜入南海的珊瑚礁" came back "the South Heaza".
    assert [s.target for s in find_place_names("我第一次潜入南海的珊瑚礁。", "zh", "en")] == ["South China Sea"]
    assert [s.target for s in find_place_names("湖南海口", "zh", "en")] == ["Hunan", "Haikou"]  # not 南海
    assert find_place_names("南海岸和南海滩", "zh", "en") == []


@pytest.mark.parametrize(("text", "places"), [
    ("北京、天津、河北等地最低气温将降至零下10℃。", ["Beijing", "Tianjin", "Hebei"]),  # 河北 came back "rivers"
    # 华北 came back "Wallace"; 东北地区 is a part by the compass
    ("内蒙古、华北、东北地区将出现大风。", ["Inner Mongolia", "North China", "the northeastern region"]),
    ("黄河北岸", ["Yellow River"]), ("上海南站", ["Shanghai South Railway Station"]), ("洞庭湖南岸", []),
    ("泰山东麓", []),
    ("山东省和海南岛", ["Shandong", "Hainan"]),
])
def test_chinas_provinces_and_regions_but_not_a_bank_or_a_part(text: str, places: list[str]) -> None:
    assert [s.target for s in find_place_names(text, "zh", "en")] == places


@pytest.mark.parametrize(("text", "places", "written"), [
    # "主要来自东南亚和中东地区" came back "mainly from the Southeast Asia and Middle East locale".
    ("mainly from the Southeast Asia and the Middle East.", ["Southeast Asia", "Middle East"],
     "mainly from Southeast Asia and the Middle East."),
    ("The Germany is big.", ["Germany"], "Germany is big."),
    ("the Guangdong market and the United States", ["Guangdong", "United States"],
     "the Guangdong market and the United States"),  # a noun after it; a name with its "the"
    ("The Guangdong, Jiangsu and Zhejiang provinces.", ["Guangdong"], "The Guangdong, Jiangsu and Zhejiang provinces."),
    ("on the Sunday before.", ["Sunday"], "on the Sunday before."),
])
def test_no_article_before_a_place_english_names_without_one(text: str, places: list[str], written: str) -> None:
    from doctrans.engine.protect import no_article_before_place

    assert no_article_before_place(text, places) == written


def test_a_part_by_the_compass_is_the_regions_name_with_one_article_and_a_capital_first() -> None:
    """A statistics release's 东部地区增长5.4%……东北地区增长3.9% came back "The central area, up
    5.4% … eastern up 3.9%": the east turned central, the northeast east."""
    from doctrans.engine.protect import prepare

    assert [s.target for s in find_place_names("东部地区增长5.4%，东北地区增长3.9%。", "zh", "en")] == \
        ["the eastern region", "the northeastern region"]
    prep = prepare("东部地区的工厂比去年多。", 16, tgt_lang="en", src_lang="zh")
    assert prep.model_text == "⦅1⦆的工厂比去年多。"
    for decoded in ("⦅1⦆ has more factories than last year.", "The ⦅1⦆ has more factories than last year."):
        assert prep.restore(decoded).text == "The eastern region has more factories than last year."
    assert prep.restore("More factories in the ⦅1⦆.").text == "More factories in the eastern region."


@pytest.mark.parametrize(("text", "src", "tgt", "found"), [
    # A museum's news: 故宫博物院 came back "the uterus" (宫 read as a womb's).
    ("故宫博物院今年接待游客超过1700万人次。", "zh", "en", [("故宫博物院", "the Palace Museum")]),
    ("故宫自2015年起限流。", "zh", "en", [("故宫", "the Forbidden City")]),
    ("The Great Wall and Tiananmen Square.", "en", "zh",
     [("The Great Wall", "长城"), ("Tiananmen Square", "天安门广场")]),
])
def test_chinas_landmarks(text: str, src: str, tgt: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.target) for s in find_place_names(text, src, tgt)] == found


def test_a_countrys_team_is_the_country_into_english() -> None:
    """以3比1战胜巴西队 came back "to win Bastiness", 卫冕冠军意大利队 "defending champion Italians"."""
    found = [(s.text, s.target) for s in find_place_names("中国队将于14日迎战卫冕冠军意大利队。", "zh", "en")]
    assert found == [("中国队", "China"), ("意大利队", "Italy")]
    assert find_place_names("中国队员们很高兴，美国队长来了。", "zh", "en") == []  # members, a captain


@pytest.mark.parametrize(("text", "target"), [
    # A news item's 我国第一条跨海高速铁路 came back "a China th cross-sea…", a talk's 我国成年人 "the China adult".
    ("这是我国第一条跨海高速铁路。", "China's"),
    ("我国成年人平均每年读书4.8本。", "China's"),
    ("我国将继续扩大开放。", "China"),  # what it does
    ("我们在我国见面。", "China"),
])
def test_our_country_before_what_it_has_is_possessive(text: str, target: str) -> None:
    assert [s.target for s in find_place_names(text, "zh", "en")] == [target]


def test_a_possessive_place_takes_no_article_and_goes_before_its_ordinal() -> None:
    from doctrans.engine.protect import prepare

    prep = prepare("这是我国第一条跨海高速铁路。", 16, tgt_lang="en", src_lang="zh")
    # (跨海 is a term of its own: ⦅2⦆ cross-sea)
    assert prep.restore("This is the first ⦅1⦆ ⦅2⦆ railway.").text == "This is China's first cross-sea railway."
    prep = prepare("我国成年人平均每年读书。", 16, tgt_lang="en", src_lang="zh")
    assert prep.restore("The ⦅1⦆ adults read books.").text == "China's adults read books."


@pytest.mark.parametrize(("text", "target"), [
    # An interview's 很多中国学生 came back "a lot of China students".
    ("很多中国学生对科学很感兴趣。", "Chinese"),
    ("中国经济保持增长。", "Chinese"),
    ("这是中国第一座跨海大桥。", "China's"),
    ("他去了中国。", "China"),
])
def test_china_before_its_people_or_things_is_chinese(text: str, target: str) -> None:
    assert [s.target for s in find_place_names(text, "zh", "en")] == [target]


def test_a_citys_shi_is_its_names_but_not_a_words_first_character() -> None:
    """北京市气象台 came back "The Beijing town meteorological observatory"; 北京市民 are its people (the
    model writes "Beijing citizens" when it reads 市民), 北京市场 a market, 北京市长 its mayor."""
    def texts(text: str) -> list[str]:
        return [s.text for s in find_place_names(text, "zh", "en")]
    assert texts("北京市气象台") == ["北京市"]
    assert texts("北京市民、北京市场、北京市长") == ["北京", "北京", "北京"]
    # A district after its city, the list's own name (海淀) inside it.
    assert [s.target for s in find_place_names("北京市海淀区实验小学", "zh", "en")] == ["Beijing", "Haidian District"]


def test_a_foreign_citys_shi_and_districts_are_the_models() -> None:
    """TVsub's 堪萨斯市 is Kansas City (not Kansas), 纽约皇后区 Queens (not "Huanghou District"): only a
    place of China, its name in pinyin, takes its 市 and has its districts in pinyin."""
    assert [s.text for s in find_place_names("堪萨斯市和纽约皇后区", "zh", "en")] == ["堪萨斯", "纽约"]
    assert [s.target for s in find_place_names("西安市雁塔区", "zh", "en")] == ["Xi'an", "Yanta District"]


@pytest.mark.parametrize(("text", "written"), [
    # A CV's "University of Texas at Austin" came back 得克萨斯州的公民 (citizens).
    ("M.S. in Statistics, University of Texas at Austin, 2017", ["得克萨斯大学"]),
    ("She joined Michigan State University in 2010.", ["密歇根州立大学"]),
    ("The University of California, Berkeley", ["加利福尼亚大学"]),
    ("He studied at New York University.", ["纽约大学"]),
    ("University of Leeds", ["利兹大学"]),  # a study's came back 莱德斯大学
    ("University of Lancaster", []),  # a place the list does not hold: the model's
    ("Our University is great.", []),
])
def test_a_university_named_by_its_place_into_chinese(text: str, written: list[str]) -> None:
    assert [s.target for s in find_place_names(text, "en", "zh")] == written


@pytest.mark.parametrize(("text", "src", "tgt", "span", "written"), [
    ("Model: XR-200. Made in Vietnam.", "en", "zh", "Made in Vietnam", "越南制造"),
    ("piece of junk, made in Russia.", "en", "zh", "made in Russia", "俄罗斯制造"),
    ("产地：越南制造", "zh", "en", "越南制造", "Made in Vietnam"),
    ("这台相机是日本制造。", "zh", "en", "日本制造", "made in Japan"),
    ("你会发现“中国制造”四个字", "zh", "en", "中国制造", "made in China"),
])
def test_a_products_origin_is_one_span_with_its_place(text: str, src: str, tgt: str, span: str, written: str) -> None:
    assert (span, written) in [(s.text, s.target) for s in find_place_names(text, src, tgt)]


@pytest.mark.parametrize("text", ["中国制造业增加值增长5%", "中国制造的手机"])
def test_manufacturing_and_things_made_keep_the_place_alone(text: str) -> None:
    """中国制造业 is China's manufacturing, 中国制造的手机 phones made in China: the place alone."""
    assert [(s.text, s.target) for s in find_place_names(text, "zh", "en")] == [("中国", "China")]


@pytest.mark.parametrize(("text", "name", "written"), [
    ("在四川甘孜州泸定县发生6.8级地震", "甘孜州", "Garze Prefecture"),
    ("甘孜藏族自治州位于四川西部", "甘孜藏族自治州", "Garze Tibetan Autonomous Prefecture"),
    ("最佳观赏日出的地点是光明顶和始信峰", "始信峰", "Shixin Peak"),
])
def test_prefectures_and_summits_of_the_news_and_guides(text: str, name: str, written: str) -> None:
    """An earthquake's 甘孜州 came back "Gooth state"; 甘孜 alone (TVsub's Charlie Ganz) is not read."""
    assert (name, written) in [(s.text, s.target) for s in find_place_names(text, "zh", "en")]
    assert find_place_names("查理·甘孜杀害了艺术品小偷", "zh", "en") == []


def test_dalian_is_no_place_inside_a_servers_words() -> None:
    """A blog's 最大连接数只有20 (maximum connections) came back "the Dalian number only 20"."""
    from doctrans.engine.protect import prepare
    spans = prepare("最大连接数只有20，扩大连锁，大连续三年", 16, tgt_lang="en", src_lang="zh").masked.spans
    assert all(s.target != "Dalian" for s in spans)
    spans = prepare("他去了大连。", 16, tgt_lang="en", src_lang="zh").masked.spans
    assert [(s.text, s.target) for s in spans] == [("大连", "Dalian")]


def test_a_countrys_capital_and_its_capital_markets() -> None:
    """"Kyoto was Japan's capital" came back 日本的大写, a capital letter; money's capital stays the model's."""
    from doctrans.place_names import find_place_names

    found = [(s.text, s.target) for s in find_place_names("Kyoto was Japan's capital.", "en", "zh")]
    assert found == [("Kyoto", "京都"), ("Japan's capital", "日本的首都")]
    assert [s.target for s in find_place_names("Japan's capital markets grew.", "en", "zh")] == ["日本"]



@pytest.mark.parametrize(("decoded", "written"), [
    # "In Kenya, ..." came back 在肯尼亚中, "followed ... in the UK" 在英国中跟踪了, "sales in China" 中国中的销售.
    ("在肯尼亚中，46口新水井", "在肯尼亚，46口新水井"),
    ("研究员在英国中跟踪了成年人", "研究员在英国跟踪了成年人"),
    ("中国中的销售", "中国的销售"),
    # 中 that starts a word of its own stays.
    ("在日本中部，在英国中学里", "在日本中部，在英国中学里"),
])
def test_no_inside_after_a_place_into_chinese(decoded: str, written: str) -> None:
    assert no_inside_after_place(decoded, ["肯尼亚", "英国", "中国", "日本"]) == written
