"""Chinese company names into English: the trade name in pinyin, the trade and the legal form in
English (``深圳市华远科技股份有限公司`` -> ``Shenzhen Huayuan Technology Co., Ltd.``).

A company's name is a name: the zh->en model, which learned from subtitles and software
documentation, made words of its characters (a social responsibility report's
``华远科技股份有限公司`` came back "Wall technology is Co., Ltd."). Chinese companies write their
English names so: the place, the trade name in pinyin as one word, the trade, the legal form. A
name is read only where its legal form says it is one (有限公司, 股份有限公司; not 集团 alone, which
the subtitles use for a drug cartel), with a trade of the list before it or not; its trade name is
the two to four characters before that, back to a mark, a word that joins (与, 和, 由...) or a place
of doctrans.place_names, and none of them a character of a foreign name's transliteration
(洛克斯利有限责任公司 is Locksley LLC); 国家 before the trade is the state's (State), not a name:

| source                           | written                                     |
|----------------------------------|---------------------------------------------|
| 深圳市华远科技股份有限公司成立于2008年 | Shenzhen Huayuan Technology Co., Ltd.   |
| 华远科技股份有限公司成立于2008年    | Huayuan Technology Co., Ltd.                |
| 本公司与华泰贸易有限公司签订合同    | Huatai Trading Co., Ltd.                    |
| 格力电器股份有限公司              | Geli Electric Appliances Co., Ltd.          |
| 中国国家铁路集团有限公司有关负责人表示 | China State Railway Group Co., Ltd.     |
| 国家电网有限公司                  | State Grid Co., Ltd.                        |
| 洛克斯利有限责任公司              | (none)                                      |
| 犯罪集团                          | (none)                                      |
| 该有限公司                        | (none)                                      |
| 他在一家有限公司工作              | (none)                                      |

Into English only; a span of kind ``name`` (checked like one: doctrans.verbatim reports a
translation that lost it).
"""

from __future__ import annotations

import re

from pypinyin import Style, lazy_pinyin

from doctrans.language_id import base_language
from doctrans.person_names import FOREIGN_NAME_CHARS
from doctrans.place_names import chinese_to_english
from doctrans.report_terms import english_of
from doctrans.verbatim import Span

# The legal form at the end, and how English companies in China write it.
# (Not 集团 alone: in the TVsub subtitles 贩毒集团 is a drug cartel, 跨国集团 a multinational.)
_FORMS = {"集团股份有限公司": "Group Co., Ltd.", "集团有限公司": "Group Co., Ltd.", "股份有限公司": "Co., Ltd.",
          "有限责任公司": "Co., Ltd.", "有限公司": "Co., Ltd."}
# The trade before the legal form.
_TRADES = {"科技": "Technology", "信息技术": "Information Technology", "电子": "Electronics", "能源": "Energy",
           "新能源": "New Energy", "控股": "Holdings", "实业": "Industrial", "投资": "Investment",
           "医药": "Pharmaceutical", "生物": "Biotechnology", "汽车": "Automobile", "电气": "Electric",
           "软件": "Software", "网络": "Network", "电器": "Electric Appliances", "食品": "Food",
           "建设": "Construction", "建筑": "Construction",
           "物流": "Logistics", "贸易": "Trading", "传媒": "Media", "文化传媒": "Culture Media",
           "房地产": "Real Estate", "置业": "Real Estate", "机械": "Machinery", "化工": "Chemical",
           "材料": "Materials", "新材料": "New Materials", "智能": "Intelligent", "通信": "Communications",
           "半导体": "Semiconductor", "光电": "Optoelectronics", "环保": "Environmental Protection",
           "咨询": "Consulting", "教育": "Education", "旅游": "Tourism", "服装": "Garment", "纺织": "Textile",
           "钢铁": "Iron and Steel", "制药": "Pharmaceutical", "数据": "Data", "云计算": "Cloud Computing",
           # A railway's news (中国国家铁路集团有限公司 came back "China National Tielu Group", its railway
           # in pinyin), and the state's other industries.
           "铁路": "Railway", "电网": "Grid", "石油": "Petroleum", "石化": "Petrochemical", "电力": "Electric Power",
           "保险": "Insurance", "证券": "Securities", "矿业": "Mining", "航运": "Shipping", "航空": "Aviation",
           "燃气": "Gas", "水务": "Water", "农业": "Agriculture", "互联网": "Internet",
           "人工智能": "Artificial Intelligence", "机器人": "Robotics", "储能": "Energy Storage",
           "光伏": "Photovoltaic",
           # A purchase contract's seller (苏州恒信自动化设备有限公司 came back "Suzhou constant trusting
           # device Co., Ltd.") and the other trades of suppliers and services.
           "自动化设备": "Automation Equipment", "自动化": "Automation", "设备": "Equipment", "精密": "Precision",
           "仪器": "Instruments", "医疗器械": "Medical Devices", "医疗": "Medical", "健康": "Health",
           "包装": "Packaging", "印刷": "Printing", "五金": "Hardware", "家具": "Furniture", "家居": "Home Furnishing",
           "照明": "Lighting", "电池": "Battery", "塑料": "Plastics", "橡胶": "Rubber", "玻璃": "Glass",
           "陶瓷": "Ceramics", "服饰": "Apparel", "物业": "Property Management", "餐饮": "Catering",
           "酒店": "Hotel", "广告": "Advertising", "装饰": "Decoration", "供应链": "Supply Chain",
           "人力资源": "Human Resources", "金融": "Financial"}
# What ends a trade name looking back: a mark, a space, or a word that joins it to the sentence.
_STOPS = set("，。；：、！？（）《》“”「」 \t\n与和及跟同由向为是于被把对从在将给让该本一家们的这那各其整全")
# Verbs before a legal form with no name between (你是建议我们成立有限责任公司吗).
_VERBS = frozenset({"成立", "变成", "注册", "设立", "组建", "创办", "创建", "开办", "成为", "叫做", "名为",
                    "改制", "改为"})
_SORTED_FORMS = sorted(_FORMS, key=len, reverse=True)
_SORTED_TRADES = sorted(_TRADES, key=len, reverse=True)
_FORM = re.compile("|".join(_SORTED_FORMS))


def _run_before(text: str, end: int) -> int:
    """Where the run of Chinese characters ending at ``end`` starts (up to eight back, not past a stop)."""
    start = end
    while start > 0 and end - start < 8 and (text[start - 1] not in _STOPS or text.endswith("国家", 0, start)) \
            and "\u4e00" <= text[start - 1] <= "\u9fff" \
            and not text.endswith("公司", 0, start):  # 子公司华远科技: another company's word
        start -= 1
    return start


def _place_at(text: str, start: int, end: int) -> tuple[int, str] | None:
    """(where what follows it starts, its English) of a place of the list (maybe with 市/省 after it)
    at ``text[start:]``, with at least two characters left before ``end``."""
    for n in (4, 3, 2):
        english = chinese_to_english(text[start:start + n])
        if english is None:
            continue
        after = start + n + (1 if text[start + n:start + n + 1] in ("市", "省") else 0)
        if end - after >= 2:
            # A city after its province (浙江省杭州市华远): the city's name, as the company writes it.
            return _place_at(text, after, end) or (after, english)
    return None


_SMALL_WORDS = frozenset({"of", "and", "the", "for", "in", "on", "at"})


def find_company_names(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The Chinese companies of ``text`` named with their legal form, as ``name`` spans whose target
    is the English name (Chinese into English only)."""
    if base_language(src_lang) != "zh" or base_language(tgt_lang) != "en":
        return []
    spans: list[Span] = []
    for m in _FORM.finditer(text):
        if spans and m.start() < spans[-1].end:
            continue
        end = m.start()
        trade = next((t for t in _SORTED_TRADES if text.endswith(t, 0, end)), None)
        if trade is not None:
            end -= len(trade)
        begin = _run_before(text, end)
        if begin and text[begin - 1].isascii() and text[begin - 1].isalnum():
            continue  # an English name with a Chinese legal form (Hunter Portland顾问有限公司): kept as written
        while text[begin:begin + 2] in _VERBS:
            begin += 2  # 成立有限责任公司: to set up a limited company, no name
        # A company the report terms name (中国银行股份有限公司 came back "China Yinhang Co., Ltd."):
        # their English name with the legal form.
        if (known := english_of(text[begin:m.start()])) is not None:
            # in capitals, as a name is written (市自来水有限公司: Municipal Water Supply Co., Ltd.)
            known = " ".join(w[:1].upper() + w[1:] if w.islower() and w not in _SMALL_WORDS else w
                             for w in known.split(" "))
            spans.append(Span(begin, m.end(), text[begin:m.end()], "name", f"{known} {_FORMS[m.group()]}"))
            continue
        # A place first (深圳市 of 深圳市华远科技), then the trade name: two to four characters.
        place = _place_at(text, begin, end)
        start = place[0] if place else begin
        if not 2 <= end - start <= 4:
            continue  # 该有限公司, 一家有限公司: no name; a longer run: no telling where it starts
        if any(c in FOREIGN_NAME_CHARS for c in text[start:end]):
            continue  # a foreign company's name in characters of transliteration (洛克斯利有限责任公司, Locksley LLC)
        # The state's own (中国国家铁路集团有限公司: China State Railway Group Co., Ltd.), not "Guojia".
        name = "State" if text[start:end] == "国家" else "".join(lazy_pinyin(text[start:end], style=Style.NORMAL,
                                                                                   v_to_u=True))
        words = [place[1]] if place else []
        words += [name[:1].upper() + name[1:]]
        if trade is not None:
            words.append(_TRADES[trade])
        words.append(_FORMS[m.group()])
        spans.append(Span(begin, m.end(), text[begin:m.end()], "name", " ".join(words)))
    return spans
