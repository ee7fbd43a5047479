"""Countries, cities and weekdays by their names in the other language (``Germany`` <-> ``德国``).

The built-in models learned from subtitles and software documentation, which name few places:
``Germany, France and Spain`` came back as ``格林德曼``, ``before 9 a.m. on Monday`` lost its
Monday. A place name has one translation, so each one in doctrans/data/place_names.tsv becomes a
span whose target is its name in the output language (masked and restored like a glossary term;
it gives way to figures at the placeholder limit, as Latin names do: doctrans.engine.protect):

| source                          | target | spans                        |
|---------------------------------|--------|------------------------------|
| Germany, France and Spain       | zh     | 德国 · 法国 · 西班牙         |
| on Monday in New York           | zh     | 星期一 · 纽约                |
| GUANGZHOU, June 12 - Guangdong  | zh     | 广州 · 广东                  |
| 黄河北岸的河北省                  | en     | Yellow River · Hebei         |
| 他在德国和日本工作。              | en     | Germany · Japan              |
| 德国人说日本语。                  | en     | (none)                       |
| 每周一次，华南非常热。            | en     | South China                  |
| 途经日本福冈和长崎。              | en     | Japan · Fukuoka · Nagasaki   |
| 在福建省东山县沿海登陆            | en     | Fujian · Dongshan County     |
| 四川省泸定县磨西镇                | en     | Sichuan · Luding County · Moxi Town |
| 泉州湾跨海大桥                    | en     | Quanzhou Bay                 |
| 设福州南、厦门北等8座车站          | en     | Fuzhou South · Xiamen North  |
| 从上海虹桥站到杭州东站            | en     | Shanghai · Hangzhou East Railway Station |
| 广州南、深圳北的区别              | en     | Guangzhou · Shenzhen         |
| 该县和全县，一个县                | en     | (none)                       |
| 北京市气象台发布预报              | en     | Beijing                      |
| Kyoto was Japan's capital.        | zh     | 京都 · 日本的首都            |
| the capital of France             | zh     | 法国的首都                   |
| 深圳市南山区科技园                | en     | Shenzhen · Nanshan District  |
| 上海市浦东新区                    | en     | Shanghai · Pudong New Area   |
| 北京市民去北京市场和北京商业区    | en     | Beijing · Beijing · Beijing  |
| 中东部地区降雨，索菲亚太累了。    | en     | the central and eastern regions |
| 东部地区和东北地区               | en     | the eastern region · the northeastern region |
| The U.S. and the UK, Asia-Pacific | zh     | 美国 · 英国 · 亚太           |
| A Chinese company, Italian roads  | zh     | 中国 · 意大利                |
| She speaks Greek and French.      | zh     | (none)                       |

English names match with their capital only (``china`` is porcelain), or in capitals (a
news dateline: ``GUANGZHOU, June 12``); a Chinese name is not read
before a character that makes it a people, a language or another word (``德国人``, ``日本语``,
``印度洋``, ``罗马数字``), and the names marked ``!`` in the list (``南非``, ``加纳``: 华南非常,
增加纳税) are only written. A country's parts by the compass before 地区 (a statistics release's
``东部地区增长5.4%……东北地区增长3.9%`` came back "The central area, up 5.4% … eastern up 3.9%")
are the region's name. A city's ``市`` is its name's (``北京市`` is Beijing, not "Beijing town"),
and a district right after a city is written in pinyin (``南山区``, Nanshan District, came back
"South mountain"). Into other languages nothing changes.
"""

from __future__ import annotations

import re
from functools import cache

from pypinyin import Style, lazy_pinyin

from doctrans.chinese_numerals import read_numeral
from doctrans.data_lists import data_lines
from doctrans.language_id import base_language
from doctrans.person_names import FOREIGN_NAME_CHARS as _FOREIGN_NAME_CHARS
from doctrans.verbatim import Span

# After a Chinese place name, these make it another word: a people, a language, an ocean, an
# empire, a dish, a religion, a myth.
_NOT_AFTER_CHINESE = "人语话籍队菜式洋帝数字文族裔面教神"
# ... and after one name, more: 中东部地区 is a country's central-east, not the Middle East (the
# training corpora's only 中东 that was not the Middle East: 西雅图中东部城市).
_NOT_AFTER_NAME = {"中东": "部", "南海": "岸滩"}
# A province named by a river, a lake or a mountain and a compass point meets the words around it
# where a bank, a part or a foot of them follows (黄河北岸 holds 河北, 上海南部 海南, 长江西岸 江西,
# 洞庭湖南岸 湖南, 泰山东麓 山东): not read before such a word ("河北部分地区" is lost to it).
_BANK_OR_PART = "岸部边麓侧面端方"
_NOT_AFTER_NAME.update(dict.fromkeys(("河北", "河南", "湖北", "湖南", "山西", "山东", "江西", "海南"), _BANK_OR_PART))
# ... and before one: 湖南海口 is Haikou in Hunan (南海岸 a south shore, 南海滩 South Beach: TVsub's),
# 上海南站 Shanghai South Station.
# 西藏 is hidden after 东 (把东西藏起来), in an idiom (东躲西藏) and after a transliterated name's 西
# (珀西藏有…, Percy hid; 露西 is Lucy): TVsub's other 14 are Tibet.
# 大连 is a word's 大 and 连 in a server's 最大连接数 (its maximum connections came back "the Dalian
# number") and 扩大连锁, 大连续: not after an adjective's 最扩加放增巨强重伟庞, nor before 接续锁通带.
# 日本 after a figure is a day's 日 and 本 of 本市, 本周 (4日至5日本市将出现大风 came back "the 4th to 5
# Japan"): not after a digit or a numeral (一 left out: 统一日本).
_NOT_BEFORE_NAME = {"南海": "湖", "海南": "上", "山东": "中", "西藏": "东躲珀露杰", "大连": "最扩加放增巨强重伟庞",
                    "日本": "0-9０-９二三四五六七八九十廿"}
_NOT_AFTER_NAME["大连"] = "接续锁通带"


@cache
def _tables() -> tuple[dict[str, str], dict[str, str], re.Pattern[str], re.Pattern[str]]:
    """(English -> Chinese, Chinese -> English, the English names' pattern, the Chinese names')."""
    into_chinese: dict[str, str] = {}
    into_english: dict[str, str] = {}
    for line in data_lines("place_names.tsv"):
        english, chinese, *others = line.split("\t")
        into_chinese[english] = chinese.lstrip("!")
        into_chinese.setdefault(english.upper(), chinese.lstrip("!"))  # a news dateline: GUANGZHOU
        if english.startswith("the "):  # a sentence's first word: The Great Wall
            into_chinese.setdefault("The" + english[3:], chinese.lstrip("!"))
        for name in [chinese, *(others[0].split(",") if others else [])]:
            if not name.startswith("!"):
                into_english[name] = english
    def alternation(names: dict[str, str]) -> str:
        return "|".join((f"(?<![{_NOT_BEFORE_NAME[n]}])" if n in _NOT_BEFORE_NAME else "") + re.escape(n)
                        + (f"(?![{_NOT_AFTER_NAME[n]}])" if n in _NOT_AFTER_NAME else "")
                        for n in sorted(names, key=len, reverse=True))
    # A name's possessive is the name ("Jamaica's Alicia Rivers" was left in English); not a contraction.
    english_names = re.compile(rf"(?<![A-Za-z0-9_'’\-])(?:{alternation(into_chinese)})(?![A-Za-z0-9_\-]|['’](?!s\b))")
    chinese_names = re.compile(rf"(?:{alternation(into_english)})(?![{_NOT_AFTER_CHINESE}])")
    return into_chinese, into_english, english_names, chinese_names


def chinese_to_english(name: str) -> str | None:
    """The English name of a Chinese place name of the list (read ones only), or None."""
    return _tables()[1].get(name)


def english_to_chinese(name: str) -> str | None:
    """The Chinese name of an English place name of the list, as written or in capitals (a
    dateline's HOUSTON: the table holds both), or None."""
    return _tables()[0].get(name)


# 我国 before what it has is China's (我国第一条跨海高速铁路 came back "a China th cross-sea...", 我国成年人
# "the China adult"): before an ordinal, a superlative and the nouns news writes after it; not
# before what it does (我国将, 我国是, 我们在我国见面).
_OWNED = re.compile("第|首|最|经济|外贸|企业|人口|成年|居民|科技|制造|农业|工业|能源|教育|文化|历史|政府|人民"
                    "|公民|法律|领土|首都|国内|城市|农村|市场|产业|出口|进口|消费")


# 中国 before a people or a thing of it is Chinese (很多中国学生 came back "a lot of China students"),
# before an ordinal or a superlative China's (中国第一座…).
_OF_CHINA = re.compile("学生|企业|公司|经济|市场|政府|人民|游客|消费者|科学家|学者|文化|历史|城市|农村|家庭|用户|品牌"
                       "|产品|电影|音乐|文学|艺术|传统|社会|教育|科技|球员|选手|运动员|工人|农民|家长|孩子|儿童|青年")


def _ours(text: str, end: int, name: str) -> str:
    """``name`` (English) of the place that ends at ``end`` of ``text``: possessive where it is
    我国 before what it has or 中国 before an ordinal, Chinese where it is 中国 before its people
    or things."""
    written = text[end - 2:end]
    if written == "我国" and _OWNED.match(text, end):
        return f"{name}'s"
    if written == "中国" and _OF_CHINA.match(text, end):
        return "Chinese"
    if written == "中国" and text[end:end + 1] in ("第", "首", "最"):
        return f"{name}'s"
    return name


# Two weekdays joined by "through", "to" or a dash are one range (a recall's "from 8 a.m. to 8 p.m. ET
# Monday through Friday" came back …星期一的调用，星期五): 星期一至星期五.
_WEEKDAY_TO = re.compile(r"[ \u00a0]*(?:through|thru|to|until|till|-|–|—)[ \u00a0]*", re.IGNORECASE)


def _weekday_ranges(text: str, listed: list[Span]) -> list[Span]:
    days = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    out: list[Span] = []
    for span in sorted(listed, key=lambda s: s.start):
        last = out[-1] if out else None
        if last is not None and last.text in days and span.text in days and last.target and span.target \
                and _WEEKDAY_TO.fullmatch(text, last.end, span.start):
            out[-1] = Span(last.start, span.end, text[last.start:span.end], "place", f"{last.target}至{span.target}")
            continue
        out.append(span)
    return out


# The United States in capitals, in a line in mixed case ("Remote, US time zones" came back 我们时区).
_US = re.compile(r"(?<![A-Za-z0-9_.'’\-])US(?![A-Za-z0-9_\-])")


def find_place_names(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The place names and weekdays of ``text`` as ``place`` spans whose target is the name in
    ``tgt_lang`` (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    into_chinese, into_english, english_names, chinese_names = _tables()
    if tgt == "zh" and src != "zh":
        universities = _universities(text, english_names, into_chinese)
        listed = [Span(m.start(), m.end(), m.group(), "place", into_chinese[m.group()])
                  for m in english_names.finditer(text)]
        listed = [s for s in listed if not s.overlaps_any(universities)] + universities
        if any(c.islower() for c in text):  # in a shouted line US is a word ("LET US GO")
            listed += [Span(m.start(), m.end(), m.group(), "place", "美国") for m in _US.finditer(text)]
        listed = _weekday_ranges(text, listed)
        return _with_unlisted(sorted(map(lambda s: _made_in(text, s, "zh"), listed), key=lambda s: s.start),
                              _nationalities(text))
    if tgt == "en" and src != "en":
        found = [_with_city(text, Span(m.start(), m.end(), m.group(), "place",
                                       _ours(text, m.end(), into_english[m.group()])))
                 for m in chinese_names.finditer(text)]
        districts = _districts(text, found)  # 海淀区 over the list's 海淀
        found = [f for f in found if not f.overlaps_any(districts)] + districts
        found = [_with_landmark(text, _with_part(text, s)) for s in found]
        return _with_unlisted(sorted(map(lambda s: _made_in(text, s, "en"), found), key=lambda s: s.start),
                              [*_short_weekdays(text), *_regions(text), *_divisions(text), *_teams(text, into_english),
                               *_called_places(text)])
    return []


# A part of a place after it, as a forecast names a region (内蒙古中东部 came back "the east side of Inner
# Mongolia", 四川东部 "The Sichuan east side"): central and eastern Inner Mongolia, eastern Sichuan.
_PARTS_OF_PLACES = {"中东部": "central and eastern", "中西部": "central and western", "东南部": "southeastern",
                    "东北部": "northeastern", "西南部": "southwestern", "西北部": "northwestern", "东部": "eastern",
                    "西部": "western", "南部": "southern", "北部": "northern", "中部": "central"}
_PART_OF_PLACE = re.compile("|".join(sorted(_PARTS_OF_PLACES, key=len, reverse=True)))


def _with_part(text: str, place: Span) -> Span:
    m = _PART_OF_PLACE.match(text, place.end)
    if m is None or not place.target:
        return place
    return Span(place.start, m.end(), text[place.start:m.end()], "place",
                f"{_PARTS_OF_PLACES[m.group()]} {place.target}")


# A Chinese city's bay, port and railway stations after its name (泉州湾跨海大桥 came back "Quanzhou Byber",
# 沿线设福州南、泉州东、厦门北等8座车站 "Fuzhou south, Quanzhou ast, Xiamen northeast"): Quanzhou Bay,
# Fuzhou South. A compass point alone names a station in a list of stations: before 、 or 等 of a
# sentence that counts 站 (车站), or before 站 itself. Not 湾区 (a bay area's name is its own), nor
# 港口 or 站点 (a port, a website).
_LANDMARK = re.compile(r"湾(?!区)|港(?![口澳台])|([东南西北])站|站(?![点台长内务])|([东南西北])(?=[、，,]|等)")
_COMPASS = {"东": "East", "南": "South", "西": "West", "北": "North"}


def _with_landmark(text: str, place: Span) -> Span:
    m = _LANDMARK.match(text, place.end)
    if m is None or not place.target or not _in_pinyin(place.text.rstrip("市省"), place.target):
        return place
    if m.group(2) and "站" not in text[m.end():]:
        return place  # 广州北、深圳南的区别: no stations counted
    word = m.group()
    written = ("Bay" if word == "湾" else "Port" if word == "港"
               else f"{_COMPASS[m.group(1) or m.group(2)]}" + (" Railway Station" if m.group(1) else "")
               if (m.group(1) or m.group(2)) else "Railway Station")
    return Span(place.start, m.end(), text[place.start:m.end()], "place", f"{place.target} {written}")


# A place the text names as it introduces it (我出生在湖南一个叫石门的小县城 came back "a County County
# City", the town lost): its name in pinyin.
_CALLED_PLACE = re.compile(r"(?:叫|名叫|叫做|名为)([\u4e00-\u9fff]{2,3}?)的(?=小?(?:县城|县|镇|小镇|村|村子|山村|小城"
                           r"|城市|城|地方|岛|小岛|山|河|街|乡))")


def _called_places(text: str) -> list[Span]:
    return [Span(m.start(1), m.end(1), m.group(1), "place", _pinyin(m.group(1)).capitalize())
            for m in _CALLED_PLACE.finditer(text) if not set(_GRAMMAR_CHARACTERS) & set(m.group(1))]


# A product's origin as its label writes it, one span with the place: "Made in Vietnam" came back
# 越南了 (Vietnam, done); into Chinese it is 越南制造. Out of Chinese only where X制造 ends the
# label or the sentence (中国制造业 is manufacturing, 中国制造的手机 phones made in China).
_MADE_IN_BEFORE = re.compile(r"(?<![A-Za-z])([Mm])ade in $")
_MADE_AFTER = re.compile(r"制造(?=$|[\s。.，,；;！!？?）)”\"」』])")


_CAPITAL_AFTER = re.compile(r"['’]s[ \u00a0](?:former[ \u00a0]|ancient[ \u00a0]|old[ \u00a0])?capital(?![\w-])"
                            # (not money: Japan's capital gains tax, its capital markets, flows, spending)
                            r"(?![ \u00a0](?:gains?|markets?|flows?|spending|expenditures?|investments?|controls?"
                            r"|requirements?|ratios?|base|stock|account)\b)")
_CAPITAL_OF = re.compile(r"(?<![\w-])(?:the|The)[ \u00a0]capital[ \u00a0]of[ \u00a0]$")


def _made_in(text: str, place: Span, tgt: str) -> Span:
    """``place`` with the origin label around it (Made in X <-> X制造), or as it is."""
    if place.target is None:
        return place
    if tgt == "zh":
        before = _MADE_IN_BEFORE.search(text, 0, place.start)
        if before is not None:
            return Span(before.start(), place.end, text[before.start():place.end], "place", place.target + "制造")
        # A country's capital (a travel guide's "Kyoto was Japan's capital" came back 日本的大写, a capital
        # letter): 日本的首都; "the capital of Japan" too.
        if (after := _CAPITAL_AFTER.match(text, place.end)) is not None:
            return Span(place.start, after.end(), text[place.start:after.end()], "place", place.target + "的首都")
        if (of := _CAPITAL_OF.search(text, 0, place.start)) is not None:
            return Span(of.start(), place.end, text[of.start():place.end], "place", place.target + "的首都")
    elif tgt == "en" and _MADE_AFTER.match(text, place.end):
        lead = text[:place.start].rstrip()
        made = "Made" if not lead or lead[-1] in "：:。.!！?？" else "made"
        return Span(place.start, place.end + 2, text[place.start:place.end + 2], "place", f"{made} in {place.target}")
    return place


# A country's or a city's team is the place in English sports reports (以3比1战胜巴西队 came back
# "to win Bastiness", 卫冕冠军意大利队 "defending champion Italians"): 巴西队 -> Brazil. Not its
# members, captain or ranks (队员, 队长, 队伍).
_TEAM = re.compile(r"队(?![员长伍列友])")
_NO_TEAM = frozenset({"地球"})  # 魁地奇球队, a Quidditch team: 地球 is Earth


def _teams(text: str, into_english: dict[str, str]) -> list[Span]:
    spans = []
    for m in _TEAM.finditer(text):
        name = place_before(text, m.start())
        if name is not None and name not in _NO_TEAM:
            start = m.start() - len(name)
            spans.append(Span(start, m.end(), text[start:m.end()], "place", into_english[name]))
    return spans


# A city's 市 is its name's, a province's 省 too (北京市气象台 came back "The Beijing town meteorological observatory"):
# English writes the name alone. Not where 市 begins another word (北京市场 a market, 市民 its people,
# 市长 its mayor, 市委 its party committee, 市政 its public works, 市区 its urban area, 市内 within).
_CITY = re.compile(r"市(?![场民长委政值况面价容内中区])"
                   # ... and a province's 省 (浙江省12所中学 came back "Zhejiang Save 12"), not where it
                   # saves (省钱, 省力, 省时) or begins a word (省份, 省级, 省委, 省长, 省会, 省内)
                   r"|省(?![钱力事心略份级委长会内外政去下得掉时电油])")


def _with_city(text: str, span: Span) -> Span:
    # Only a city or a province of China's (TVsub's 堪萨斯市 is Kansas City, not Kansas; 喀布尔省 Kabul
    # province): the name in pinyin says it.
    if _CITY.match(text, span.end) is None or not _in_pinyin(span.text, span.target):
        return span
    return Span(span.start, span.end + 1, text[span.start:span.end + 1], span.kind, span.target)


# A city's district in pinyin (深圳市南山区 came back "Shenzhen South mountain", 杭州市西湖区 "the
# center of the lake Hangzhou", 广州市天河区 "Guangzhou Water"): two characters and 区 right after a
# city of the list, 新区 a new area (浦东新区, Pudong New Area). Not the areas every city has (老城区,
# 商业区, 开发区, 风景区: the old town, a business district, a development zone, a scenic area).
_DISTRICT = re.compile(r"([\u4e00-\u9fff]{2})(新区|区)")
_NO_DISTRICT_TEXT = (
    "老城 主城 中心 核心 商业 工业 住宅 居住 办公 生活 服务 功能 示范 试验 保护 风景 旅游 "
    "开发 贫困 城市 城乡 沿海 边境 高新 经济 自贸 保税 受灾 重灾 管辖 行政 郊外 农村 山地 "
    "东部 西部 南部 北部 中部 地区 周边 附近 全市 各个 所有 其他 部分 重点 相关 偏远 老旧 "
    "新城 城中 市中 景点 港口 机场 校园 社区 园区 街道 郊县 县城 城郊")
_NO_DISTRICT = frozenset(_NO_DISTRICT_TEXT.split())


# A place's reading of a character that has two (a lease's 北京市朝阳区 came back "Zhaoyang District", the
# morning sun's reading; Shanghai's 长宁区 "Zhangning"): Chaoyang, Changning, Chang'an, Changxing.
_PLACE_READINGS = {"朝": "chao", "长": "chang"}


def _pinyin(chinese: str) -> str:
    """``chinese`` in pinyin as one word, without tones (南山 nanshan), a place's readings first."""
    syllables = lazy_pinyin(chinese, style=Style.NORMAL)
    if len(syllables) == len(chinese):  # one syllable a character (no Latin letters or digits in it)
        syllables = [_PLACE_READINGS.get(c, s) for c, s in zip(chinese, syllables, strict=True)]
    return "".join(syllables)


def place_in_pinyin(chinese: str) -> str:
    """A Chinese place of no list, in pinyin as its English name is written (酒泉 -> Jiuquan)."""
    return _pinyin(chinese).capitalize()


def _in_pinyin(chinese: str, english: str | None) -> bool:
    """Whether ``english`` is ``chinese`` in pinyin (深圳 Shenzhen, 西安 Xi'an): a city of China, whose
    districts are written in pinyin too; not 纽约 (New York: TVsub's 纽约皇后区 is Queens, not
    "Huanghou District"), nor 香港 (Hong Kong's districts have English names)."""
    letters = "".join(c for c in (english or "").lower() if c.isalpha())
    return letters == _pinyin(chinese).lower()


def _districts(text: str, cities: list[Span]) -> list[Span]:
    spans = []
    for city in cities:
        m = _DISTRICT.match(text, city.end)
        if m is None or m.group(1) in _NO_DISTRICT or set(_GRAMMAR_CHARACTERS) & set(m.group(1)):
            continue
        if not _in_pinyin(city.text.removesuffix("市").removesuffix("省"), city.target):
            continue
        name = _pinyin(m.group(1)).capitalize()
        kind = "New Area" if m.group(2) == "新区" else "District"
        spans.append(Span(m.start(), m.end(), m.group(), "place", f"{name} {kind}"))
    return spans


# A university named by its place (a CV's "University of Texas at Austin" came back 得克萨斯州的公民,
# "Rice University" 大米宇宙): the place in Chinese and 大学, a state's 州 dropped (得克萨斯大学), a
# state university 州立大学. Only a place of the list; a campus after "at" is left to the model.
_UNIVERSITY = re.compile(r"(?<![A-Za-z])(?:University of (?P<of>[A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+)?)"
                         r"|(?!(?:The|A|An|This|That|Our|Their|His|Her|Its) )"
                         r"(?P<named>[A-Z][A-Za-z]+(?: (?!State )[A-Z][A-Za-z]+)?) (?P<state>State )?University)"
                         r"(?![A-Za-z])")


def _universities(text: str, english_names: re.Pattern[str], into_chinese: dict[str, str]) -> list[Span]:
    spans = []
    for m in _UNIVERSITY.finditer(text):
        place = m["of"] or m["named"]
        if not english_names.fullmatch(place):
            continue
        chinese = into_chinese[place]
        written = chinese.removesuffix("州") + ("州立大学" if m["state"] else "大学")
        spans.append(Span(m.start(), m.end(), m.group(), "place", written))
    return spans


def place_before(text: str, end: int) -> str | None:
    """The longest Chinese place name of the list (two to four characters) that ends at ``end``."""
    return next((text[end - n:end] for n in (4, 3, 2) if n <= end and chinese_to_english(text[end - n:end])), None)


def _with_unlisted(listed: list[Span], found: list[Span]) -> list[Span]:
    """The list's names and those of ``found`` (adjectives, counties) that overlap none, in order."""
    return sorted(listed + [f for f in found if not f.overlaps_any(listed)], key=lambda s: s.start)


# A weekday written 周X, and a range of them (a job ad's 工作时间：周一至周五 came back "Monday", Friday
# lost; 指数周二集体收涨 "weeks"): Tuesday, Monday to Friday. Not after 每上下本这那 (every, last, next,
# this one: the model's, with their word), nor 一周三次 (three times a week), 周六日 (the weekend).
# TVsub's training pairs: of 1,467 such 周X, 1,345 have the weekday in the English.
_ZH_DAY_NAMES = dict(zip("一二三四五六日", ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                                         "Sunday"), strict=True))
_SHORT_WEEKDAY = re.compile(r"(?<![每上下本这那一两几个周])周([一二三四五六日])"
                            r"(?:(?:至|到|-|—|～|~)(?:周|星期)?([一二三四五六日]))?(?![次回遍趟天年内末期刊岁日])")


def _short_weekdays(text: str) -> list[Span]:
    spans = []
    for m in _SHORT_WEEKDAY.finditer(text):
        first = _ZH_DAY_NAMES[m.group(1)]
        spans.append(Span(m.start(), m.end(), m.group(), "place",
                          f"{first} to {_ZH_DAY_NAMES[m.group(2)]}" if m.group(2) else first))
    return spans


# With their article: one the model writes before the span goes (protect.no_article_before_determiner).
_COMPASS_REGIONS = {"东部": "the eastern region", "中部": "the central region", "西部": "the western region",
                    "南部": "the southern region", "北部": "the northern region", "东北": "the northeastern region",
                    "西北": "the northwestern region", "东南": "the southeastern region",
                    "西南": "the southwestern region", "中西部": "the central and western regions",
                    "中东部": "the central and eastern regions"}
_REGION = re.compile(rf"({'|'.join(sorted(_COMPASS_REGIONS, key=len, reverse=True))})地区")


def _regions(text: str) -> list[Span]:
    """A country's parts by the compass (``东部地区`` -> ``the eastern region``)."""
    return [Span(m.start(), m.end(), m.group(), "place", _COMPASS_REGIONS[m.group(1)]) for m in _REGION.finditer(text)]


# A county or a province's city the list does not hold, in pinyin: a news item's ``福建省东山县``
# came back "Fujian mountain County County". A two-character name right before 县 after a province,
# a city or a prefecture (or where a line or phrase starts), before 市 after a province; not words
# of quantity, reference or grammar (该县, 全县, 了邻县), nor the characters of a foreign name written
# in Chinese (TVsub's 库克县 is Cook County, not "Kuke County": doctrans.person_names' list).
_DIVISION = re.compile(r"(?:(?<![\u4e00-\u9fff])|(?<=[省市州]))([\u4e00-\u9fff]{2})(县)"
                       r"|(?<=省)([\u4e00-\u9fff]{2})(市)"
                       # a town or a township after its county or district (an earthquake report's
                       # 泸定县磨西镇 came back "Descil"); alone 镇 is as often 镇静 or a translated
                       # film's town (TVsub's 玫瑰镇 is Rosewood), 乡 家乡 or 乡村
                       r"|(?<=[县区])([\u4e00-\u9fff]{2})(镇|乡)(?![长委政府民村间下])")
_GRAMMAR_CHARACTERS = "个各该全本这那每一两几多其此某们我你他她它咱了的着过在是和与及对将把被让给向从于为以而并说"


# A road of a Chinese city, in pinyin as the city's signs write it (a traffic notice's 中山东一路、南京西路、
# 淮海中路 came back "the Shandong route, Nanjing West roads, surrounding"; a job ad's 文三路478号 "crib three
# route 478"): Nanjing West Road, Zhongshan East No. 1 Road, 478 Wensan Road. Where a phrase starts or
# after a district or a city; named by a place of the list, or with its house number (else 思路, 一路
# are words); not 路线, 路面, 路况 (a route, a surface, the traffic).
_ROAD = re.compile(r"(?:^|(?<=[区市县镇、，。：:；（(\s]))([\u4e00-\u9fff]{2,3}?)(东|西|南|北|中)?"
                   r"([一二三四五六七八九])?(路|大道|大街|街)(?![线径面况费灯人子程过上途])(?:([0-9]{1,5})号)?")
# What is said of a road's side or stretch (a water cut's 解放路以东、人民大道以南 came back "United route to
# east, people are northern"): the road is one, named or not.
_BESIDE_ROAD = re.compile(r"以[东西南北]|[东西南北]侧|两侧|沿线|一带|路段|路口|交叉口")
_SIDE_OF_ROAD = re.compile(r"以([东西南北])")
_SIDES = {"东": "east", "西": "west", "南": "south", "北": "north"}
_ROAD_PARTS = {"东": "East", "西": "West", "南": "South", "北": "North", "中": "Middle"}
_ROAD_KINDS = {"路": "Road", "大道": "Avenue", "大街": "Street", "街": "Street"}


# An English street address, its house number and street (a booking's "450 Post Street" came back
# 450邮局, a post office; "1600 Pennsylvania Avenue NW"), kept as written into Chinese, as Chinese
# writes a foreign address; with its suite or unit; and a house named by its number, as fiction writes
# it ("called to Number 14, Alder Street" came back 被叫到14岁, fourteen years old).
_STREET_KINDS = (r"Street|St\.|Avenue|Ave\.|Road|Rd\.|Boulevard|Blvd\.?|Drive|Dr\.|Lane|Ln\.|Way|Place|Pl\."
                 r"|Court|Ct\.|Terrace|Parkway|Pkwy\.|Highway|Hwy\.|Square|Crescent|Close|Row|Alley")
_EN_ADDRESS = re.compile(r"(?<![0-9A-Za-z_.,$€£¥#-])"
                         r"(?:(?:Number|No\.?)[ \u00a0]+[0-9]{1,6}[A-Z]?,?|[0-9]{1,6}[A-Z]?)[ \u00a0]+"
                         r"(?:(?:North|South|East|West|N\.|S\.|E\.|W\.)[ \u00a0]+)?"
                         r"(?:[A-Z][a-z]+|[0-9]{1,3}(?:st|nd|rd|th))(?:[ \u00a0]+[A-Z][a-z]+){0,3}[ \u00a0]+"
                         rf"(?:{_STREET_KINDS})(?![A-Za-z])(?:[ \u00a0]+(?:NW|NE|SW|SE|N|S|E|W)(?![A-Za-z]))?"
                         r"(?:,?[ \u00a0]+(?:Suite|Ste\.|Apt\.?|Apartment|Unit|Floor|Fl\.)[ \u00a0]+[0-9A-Z]{1,5}"
                         r"(?![0-9A-Za-z]))?")

# ... not a year before a street named after it ("In 2019 Main Street was closed").
_YEAR_BEFORE = re.compile(r"(?i:\b(?:in|since|by|until|of|from|during))[ \u00a0]+$")


def find_roads(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The roads of a Chinese ``text`` into English (above), with their house numbers, and an English
    street address kept into Chinese: before the names and figures, which would take a road's place
    or number apart."""
    if base_language(src_lang) == "en" and base_language(tgt_lang) == "zh":
        return [Span(m.start(), m.end(), m.group(), "place", m.group()) for m in _EN_ADDRESS.finditer(text)
                if not _YEAR_BEFORE.search(text, 0, m.start())]
    if base_language(src_lang) != "zh" or base_language(tgt_lang) != "en":
        return []
    into_english = _tables()[1]
    spans, maybe = [], []
    for m in _ROAD.finditer(text):
        name, part, number, _kind, house = m.groups()
        listed = into_english.get(name)
        if set(_GRAMMAR_CHARACTERS) & set(name):
            continue
        if listed is None and house is None and not (part and number) and not _BESIDE_ROAD.match(text, m.end()):
            if part:  # 淮海中路: a road beside the others of a list
                maybe.append(m)
            continue
        spans.append(_road(m, listed))
    return sorted(spans + ([_road(m, None) for m in maybe] if spans else []), key=lambda s: s.start)


def _road(m: re.Match[str], listed: str | None) -> Span:
    name, part, number, kind, house = m.groups()
    words = [listed or _pinyin(name).capitalize()]
    words += [_ROAD_PARTS[part]] if part else []
    words += [f"No. {read_numeral(number)}"] if number else []
    written = " ".join([*words, _ROAD_KINDS[kind]])
    side = _SIDE_OF_ROAD.match(m.string, m.end()) if not house else None
    if side:  # 解放路以东: east of Jiefang Road
        return Span(m.start(1), side.end(), m.string[m.start(1):side.end()], "place",
                    f"{_SIDES[side.group(1)]} of {written}")
    if house and (flat := _FLAT.match(m.string, m.end())) and any(flat.groups()):
        # A flat in the building (a lease's 文三路478号3单元502室 came back "3 unit 502 room"): English
        # writes it first, Room 502, Unit 3, Building 2, 478 Wensan Road.
        parts = [f"Room {flat['room']}" if flat["room"] else "", f"Unit {flat['unit']}" if flat["unit"] else "",
                 f"Building {flat['building']}" if flat["building"] else ""]
        return Span(m.start(1), flat.end(), m.string[m.start(1):flat.end()], "place",
                    ", ".join([*(p for p in parts if p), f"{house} {written}"]))
    return Span(m.start(1), m.end(), m.string[m.start(1):m.end()], "place", f"{house} {written}" if house else written)


_FLAT = re.compile(r"(?:(?P<building>[0-9]{1,3})(?:号楼|栋|幢))?(?:(?P<unit>[0-9]{1,2})单元)?"
                   r"(?:(?P<room>[0-9]{2,5})(?:室|房|号房))?")


_NOT_IN_A_DIVISION = set(_GRAMMAR_CHARACTERS + _FOREIGN_NAME_CHARS + "曼蒙凯鲍")
_DIVISION_WORD = {"县": "{} County", "市": "{}", "镇": "{} Town", "乡": "{} Township"}


def _divisions(text: str) -> list[Span]:
    spans = []
    for m in _DIVISION.finditer(text):
        name, kind = next((m.group(k), m.group(k + 1)) for k in (1, 3, 5) if m.group(k))
        # (a town of a Chinese county is named in Chinese: 磨西镇 has a foreign name's 西)
        if (_NOT_IN_A_DIVISION if kind in "县市" else set(_GRAMMAR_CHARACTERS)) & set(name):
            continue
        written = _pinyin(name).capitalize()
        spans.append(Span(m.start(), m.end(), m.group(), "place", _DIVISION_WORD[kind].format(written)))
    return spans


# A country's adjective before a noun is the country's name in Chinese (意大利当局, 中国公司): the
# en->zh model wrote "Italian authorities" as 意大利人当局, "A Chinese company" 国人公司 and "the German
# factory" 德尔曼工厂. Only before a word in small letters that is no function word ("She speaks
# Greek and French", "the French." are languages and peoples, left to the model).
_ADJECTIVES = {
    "American": "美国", "British": "英国", "Chinese": "中国", "French": "法国", "German": "德国", "Italian": "意大利",
    "Spanish": "西班牙", "Japanese": "日本", "Russian": "俄罗斯", "Greek": "希腊", "Indian": "印度",
    "Canadian": "加拿大",
    "Australian": "澳大利亚", "South Korean": "韩国", "North Korean": "朝鲜", "Korean": "韩国", "Mexican": "墨西哥",
    "Brazilian": "巴西", "Turkish": "土耳其", "Israeli": "以色列", "Iranian": "伊朗", "Ukrainian": "乌克兰",
    "Dutch": "荷兰", "Swiss": "瑞士", "Swedish": "瑞典", "Norwegian": "挪威", "Danish": "丹麦", "Finnish": "芬兰",
    "Egyptian": "埃及", "Saudi": "沙特", "Vietnamese": "越南", "Thai": "泰国", "Indonesian": "印度尼西亚",
    "Pakistani": "巴基斯坦", "Portuguese": "葡萄牙", "Irish": "爱尔兰", "Belgian": "比利时", "Austrian": "奥地利",
    "European": "欧洲", "African": "非洲", "Asian": "亚洲", "Syrian": "叙利亚", "Iraqi": "伊拉克", "Afghan": "阿富汗",
    "Nigerian": "尼日利亚", "Kenyan": "肯尼亚", "Argentine": "阿根廷", "Chilean": "智利", "Colombian": "哥伦比亚",
    "Venezuelan": "委内瑞拉", "Cuban": "古巴", "Filipino": "菲律宾", "Malaysian": "马来西亚", "Singaporean": "新加坡",
    "Scottish": "苏格兰", "Welsh": "威尔士",
}
_FUNCTION_WORDS_TEXT = (
    "and or but nor to in on at of for with by from into as than that which who whom whose is are was were be been "
    "has have had do does did will would can could should may might must not so too also very well fluently now "
    "then here there it its he she they we you i a an the this these those said says say")
_FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())
_ADJECTIVE = re.compile(r"(?<![A-Za-z0-9_'’\-])(" + "|".join(sorted(_ADJECTIVES, key=len, reverse=True))
                        + r")(?= ([a-z][a-z\-]+))")


def _nationalities(text: str) -> list[Span]:
    return [Span(m.start(), m.end(), m.group(1), "place", _ADJECTIVES[m.group(1)])
            for m in _ADJECTIVE.finditer(text) if m.group(2) not in _FUNCTION_WORDS]


# Characters that end many Chinese place names (国 of 美国, 州 of 加州, 市, 省...): sharing one of
# them with the source says nothing about whether the source names the place.
_GENERIC_CHINESE = frozenset("国州省市县区岛山江河湖海湾城镇村洲")


@cache
def _every_form() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(English name -> every Chinese form, read-only ones and aliases too; Chinese name -> every
    English name written as it)."""
    chinese_of: dict[str, set[str]] = {}
    english_of: dict[str, set[str]] = {}
    for line in data_lines("place_names.tsv"):
        english, chinese, *others = line.split("\t")
        forms = {f.lstrip("!") for f in [chinese, *(others[0].split(",") if others else [])]}
        for key in (english, english.upper()):
            chinese_of.setdefault(key, set()).update(forms)
        for form in forms:
            english_of.setdefault(form, set()).add(english)
    for adjective, chinese in _ADJECTIVES.items():  # "Thai food" names 泰国, "American" 美国
        english_of.setdefault(chinese, set()).add(adjective)
    return chinese_of, english_of


def chinese_forms() -> frozenset[str]:
    """Every Chinese place name of the list, the write-only ones and other spellings too."""
    return frozenset(_every_form()[1])


def _stem(word: str) -> str:
    """What of an English place word a source must hold to name the place: its first four letters
    (``Chin`` for China and Chinese, ``Germ`` for Germany and German), five for a word of eight
    letters or more (``Colom``: the Colosseum is not Colombia, which the en->zh model wrote for it)."""
    return word[:5 if len(word) >= 8 else 4].lower()


def _names_in_english(source: str, lowered: str, english: set[str]) -> bool:
    """Whether an English ``source`` names a place written in English as one of ``english``:
    the name as written (``U.S.``), an abbreviation as a word (``US``, ``UK``), or the stem of one
    of its words (:func:`_stem`)."""
    for name in english:
        bare = name.replace(".", "")  # U.S. -> US
        if name in source or (bare.isupper() and re.search(rf"(?<![A-Za-z]){bare}(?![A-Za-z])", source)):
            return True
        for word in re.findall(r"[A-Za-z]{2,}", name):
            if word.isupper() and re.search(rf"(?<![A-Za-z]){word}(?![A-Za-z])", source):
                return True
            if len(word) >= 3 and _stem(word) in lowered:
                return True
    return False


def invented_places(source: str, translation: str, src_lang: str | None, tgt_lang: str | None) -> list[str]:
    """The place names of the list that ``translation`` (English <-> Chinese) writes and ``source``
    gives no sign of: the GPU zh->en model read 新设 (newly set up) as ``New York``
    (``公司在上海、深圳新设两家分公司`` -> "…in Shanghai, Shenzhen New York"), 咖啡厅 as ``Chicago``;
    en->zh, ``Vegas`` as 加州. Deliberately lenient, since a short form names a place too (中美 for
    China and the United States, 京 for Beijing, ``Chinese`` for China): a Chinese source names an
    English place when it holds any character of one of the place's Chinese forms other than
    :data:`_GENERIC_CHINESE`; an English source names a Chinese place when it holds one of its
    English names or a country's adjective (:func:`_names_in_english`: ``US``, ``Thai``, the first
    four letters of a word, five of a long one), in any case."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    _, _, english_names, chinese_names = _tables()
    chinese_of, english_of = _every_form()
    out: list[str] = []
    lowered = source.lower()
    if tgt == "en" and src == "zh":
        for name in {m.group() for m in english_names.finditer(translation)}:
            chars = {c for form in chinese_of.get(name, ()) for c in form} - _GENERIC_CHINESE
            if name.lower() not in lowered and not any(c in source for c in chars):
                out.append(name)
    elif tgt == "zh" and src == "en":
        for name in {m.group() for m in chinese_names.finditer(translation)}:
            if name not in source and not _names_in_english(source, lowered, english_of.get(name, set())):
                out.append(name)
    return sorted(out)


def look_alikes(source: str, invented: list[str]) -> frozenset[str]:
    """The capitalised words of an English ``source`` that begin as an English name of a place
    the translation invented (Chinese names, :func:`invented_places`) begins: the model wrote the
    place for them (``the Colosseum`` -> 哥伦比亚, Colombia), so the engine keeps them as written."""
    _, english_of = _every_form()
    starts = {w[:4].lower() for name in invented for e in english_of.get(name, ())
              for w in re.findall(r"[A-Za-z]{4,}", e)}
    return frozenset(w for w in re.findall(r"(?<![A-Za-z])[A-Z][a-z]{3,}", source) if w[:4].lower() in starts)



# "in" a country or a city, as the en->zh model wrote it: 在肯尼亚中 ("In Kenya, ..."), 在英国中跟踪了 ("followed
# ... in the UK"), 中国中的销售 ("sales in China"). Chinese puts no 中 after a place: 在肯尼亚, 中国的销售. Not
# where 中 starts a word of its own (日本中部, 美国中央情报局, 香港中文大学, 英国中学, 北京中关村, 上海中山公园).
_WORD_AFTER_ZHONG = "部心间央东西南北国文医学关山华超小大级环型期旬"


def no_inside_after_place(text: str, places: list[str]) -> str:
    """``text`` (Chinese) without the 中 the model wrote after a restored place of ``places``: before
    的 or a mark, or after 在 where no word starts with it."""
    for place in places:
        name = re.escape(place)
        text = re.sub(rf"(?<={name})中(?=的|[，。、；：！？,.;:!?）)]|$)", "", text)
        text = re.sub(rf"(?<=在{name})中(?![{_WORD_AFTER_ZHONG}])", "", text)
    return text
