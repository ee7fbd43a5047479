"""Fixed terms of reports, news and talks by their translation (``third quarter`` <-> ``第三季度``).

The built-in models learned from subtitles and software documentation and never saw a quarterly
report: ``Revenue in the third quarter rose by 12%`` came back ``由12%的第三方分隔符`` (third
party), ``上半年利润下降`` as ``The next year in a half-year-old``, ``一季度国内生产总值同比增长5.3%``
as ``A 5.3% for the season of the season production of production``. A report's quarters,
halves, indicators and institutions each have one translation, so each term of
doctrans/data/report_terms.tsv becomes a span whose target is its translation (masked and
restored like a glossary term; it gives way to figures at the placeholder limit, as names do:
doctrans.engine.protect):

| source                                     | target | spans                             |
|--------------------------------------------|--------|-----------------------------------|
| Revenue in the third quarter rose by 12%.  | zh     | 收入 · 第三季度                   |
| The Board of Directors approved a dividend. | zh    | 董事会 · 股息                     |
| Third-quarter results and GDP              | zh     | 第三季度                          |
| up 5% year-on-year, says the World Bank    | zh     | 同比 · 世界银行                   |
| the People's Bank of China                 | zh     | 中国人民银行                      |
| 一季度国内生产总值同比增长5.3%。             | en     | first quarter · gross domestic product |
| 国务院发布了政府工作报告。                 | en     | State Council · Government Work Report |
| 第三方的年报告                              | en     | (none)                            |
| Thank you. (Laughter) (Applause)           | zh     | （笑声） · （掌声）               |
| 双击图标，或右键单击它。                     | en     | double-click · right-click        |
| Double-click the file, then right-click it. | zh     | 双击 · 右键单击                   |

A manual's mouse actions are terms too (``双击`` came back "Hands", ``Double-click`` 双引号, a
double quote); a translation into English that starts with such a term gets its capital back
(doctrans.engine.protect.capitalised_start).

A change on the year (or month) before is one phrase with its figure (:func:`find_changes`):
``同比增长8.3%`` <-> ``up 8.3% year on year``, ``环比下降2%`` <-> ``down 2% month on month``,
``rose 5% from a year earlier`` -> ``同比增长5%`` (the model wrote ``同比增长8.3%`` as ``8.3%``, the
comparison lost), ``fell 3.2 percent`` -> ``下降3.2%``; so is a change to a level: ``降至3.9%`` <->
``fell to 3.9%``, ``增至3720万美元`` <-> ``rose to $37.2 million``. 截止 that ends its clause (a
closing) is no ``as of``.

Terms written in small letters are read with a capital first letter too, in Title Case (a
contract's defined terms: the Effective Date) and with hyphens for spaces; names only as written
or in capitals. Longer terms win (``人均可支配收入`` over
``可支配收入``); the Chinese marked ``!`` (同比, 环比, 董事会) are only written; a Chinese term
is not read after 上下每这本同前后 (``上一季度`` is the last quarter) nor before 长 (``外交部长``).
Into other languages nothing changes.
"""

from __future__ import annotations

import re
from functools import cache

from doctrans.currency import find_amounts
from doctrans.data_lists import data_lines
from doctrans.english_people import given_names
from doctrans.language_id import base_language
from doctrans.magnitudes import ascii_digits, find_magnitudes
from doctrans.verbatim import Span

# Before a Chinese term these make it another one (上一季度: the last quarter); after it, 长 makes
# a ministry its minister (外交部长).
_NOT_BEFORE_CHINESE = "上下每这本同前后"
_NOT_AFTER_CHINESE = "长"
# ... and around one term, the characters that make it part of other words: 我校 is "our school"
# but not in 自我校准 (self-calibration) or 我校准了 (I calibrated), TVsub's; 我市 not in 我市场, 含税
# (tax included) not in 包含税费.
_CHINESE_CONTEXT = {"我校": ("自", "准"), "我市": ("", "场"),
                    "含税": ("包", "费"),  # 价格包含税费: includes taxes and fees
                    # 午饭后 is after lunch, 吃饭后 after eating (TVsub's 81 饭后 are nearly all those)
                    "饭后": ("午晚早吃", ""), "饭前": ("午晚早吃", ""),
                    # 三个月租金 is three months' rent, 当月租金 that month's rent; 水电费 the utilities; 本法庭
                    # is this court
                    "月租金": ("个当", ""), "电费": ("水", ""), "本法": ("", "庭官则律"),
                    "性别：男": ("", "性孩人子"), "性别:男": ("", "性孩人子"), "性别：女": ("", "性孩人子"),
                    "性别:女": ("", "性孩人子"),
                    "上海虹桥": ("", "机国站"),  # 上海虹桥机场 is the airport's (Hongqiao Airport)
                    # 来填充值 is to fill in values (a manual's 填充 and 值), not a phone's top-up
                    "充值": ("填补扩", ""),
                    "震中": ("地", ""),  # 地震中 is "in the earthquake"
                    "家企业": ("国大专作", "家"),  # 国家企业, 大家: not a count's companies
                    "季度": ("一二三四五六七八九十第个上下每这本同前后", ""),  # 上一季度 is the last quarter
                    "有权": ("", "势限益力威贵利"),  # 有权势 powerful, 有权限 permitted: not "has the right to"
                    "全天": ("", "候下")}  # 全天候 all-weather, 全天下 the whole world


def _in_context(term: str) -> str:
    before, after = _CHINESE_CONTEXT.get(term, ("", ""))
    return ((f"(?<![{before}])" if before else "") + re.escape(term) + (f"(?![{after}])" if after else ""))


_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"})


def _english_pattern(term: str) -> str:
    """A term's regex: a term in small letters also with a capital first letter and hyphens
    for its spaces; a name as written or all in capitals."""
    words = [re.escape(w) for w in term.split(" ")]
    if not term[0].islower():
        # In a heading's Title Case too (Olympic gold: "Rivers Claims First Olympic Gold" came back
        # 第Olympic季，金发, blonde hair).
        title = " ".join(w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))
        forms = dict.fromkeys([re.escape(term), re.escape(term.upper()), title])
        return "|".join(forms)
    first = f"[{words[0][0]}{words[0][0].upper()}]{words[0][1:]}"
    # A contract's defined term, or a heading's: the Effective Date, the Board of Directors (title
    # case leaves its short words small).
    # A heading's compound keeps its capitals (Record Third-Quarter Results came back 第三修正案, the
    # third amendment).
    title = r"[ \-]".join(w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))
    # ... and a heading in capitals (a press release's FOR IMMEDIATE RELEASE came back 对于立即发布).
    upper = f"|{r'[ -]'.join(w.upper() for w in words)}" if len(words) > 1 else ""
    return r"[ \-]".join([first, *words[1:]]) + f"|{title}{upper}"


@cache
def _tables() -> tuple[list[str], dict[str, str], dict[str, str], re.Pattern[str], re.Pattern[str]]:
    """(English terms longest first, English -> Chinese, Chinese -> English, the English terms'
    pattern: group ``t<i>`` is the i-th term, and the Chinese terms')."""
    into_chinese: dict[str, str] = {}
    into_english: dict[str, str] = {}
    for line in data_lines("report_terms.tsv"):
        english, chinese, *others = line.split("\t")
        if not english.startswith("!"):  # !as of: written into English only, never read
            into_chinese[english] = chinese.lstrip("!")
        for name in [chinese, *(others[0].split(",") if others else [])]:
            if not name.startswith("!"):
                into_english[name] = english.lstrip("!")
    terms = sorted(into_chinese, key=len, reverse=True)
    alternation = "|".join(f"(?P<t{i}>{_english_pattern(t)})" for i, t in enumerate(terms))
    # A term's possessive is the term's (the Landlord's prior written consent came back 兰德尔·德尔德的前任,
    # "Randall Dell's ex"); not a contraction (I'd, don't).
    english_terms = re.compile(rf"(?<![A-Za-z0-9_'’\-])(?:{alternation})(?![A-Za-z0-9_\-]|['’](?!s\b))")
    alternation = "|".join(_in_context(n) for n in sorted(into_english, key=len, reverse=True))
    chinese_terms = re.compile(rf"(?<![{_NOT_BEFORE_CHINESE}])(?:{alternation})(?!{_NOT_AFTER_CHINESE})")
    return terms, into_chinese, into_english, english_terms, chinese_terms


def english_of(chinese: str) -> str | None:
    """A Chinese term's English (中国银行 -> Bank of China), or None."""
    return _tables()[2].get(chinese)


def find_report_terms(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The report terms of ``text`` as ``phrase`` spans whose target is the term in ``tgt_lang``
    (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    terms, into_chinese, into_english, english_terms, chinese_terms = _tables()
    if tgt == "zh" and src != "zh":
        titled = title_case(text)  # in a heading every word goes on in capitals
        return [Span(m.start(), m.end(), m.group(), "phrase", into_chinese[terms[int(m.lastgroup[1:])]])
                for m in english_terms.finditer(text) if m.lastgroup and (titled or not _longer_name(text, m))]
    if tgt == "en" and src != "en":
        return [Span(m.start(), m.end(), m.group(), "phrase", into_english[m.group()])
                for m in chinese_terms.finditer(text) if not _CLOSES.match(text, m.start())]
    return []


# A name that goes on in capitals is another name ("the journal Nature Energy" came back 《自然》杂志英格).
_CAPITALISED_END = re.compile(r"(?:^|\s)[A-Z][a-z]+$")
_CAPITALISED_NEXT = re.compile(r"[ \t]+([A-Z][a-z]+)")


def _longer_name(text: str, m: re.Match[str]) -> bool:
    """... unless a person's given name goes on: a title before a name ("Senate Majority Leader Chuck
    Schumer" came back 军队Chuck Schumer)."""
    following = _CAPITALISED_NEXT.match(text, m.end())
    return (following is not None and bool(_CAPITALISED_END.search(m.group()))
            and following.group(1).lower() not in given_names())


# The words a heading in title case writes in small letters: articles, conjunctions, prepositions.
_SMALL_IN_TITLES_TEXT = (
    "a an the and but or nor for so yet as at by in of off on per to up via vs with from into onto over than "
    "versus between under upon out about after against among before during through without within along "
    "across behind beyond near since toward towards until de la le von van der du del")
_SMALL_IN_TITLES = frozenset(_SMALL_IN_TITLES_TEXT.split())


def title_case(text: str) -> bool:
    """Most words capitalised and no other word in small letters but an article, a conjunction or a
    preposition: a heading, where every content word looks like a name. A sentence full of names
    is none (a lease's "This Lease Agreement is made on March 3, 2026 between Harbor View Properties
    LLC ("Landlord") and Daniel Ortiz ("Tenant")" was read as one, and its company was not kept)."""
    words = re.findall(r"[A-Za-z]+(?:['’][A-Za-z]+)?", text)  # a possessive's s is its word's
    capitalised = [w[0].isupper() or not w.islower() for w in words]  # iPhone is a name's
    return (len(words) >= 2 and sum(capitalised) * 3 >= len(words) * 2
            and all(c or w in _SMALL_IN_TITLES for w, c in zip(words, capitalised, strict=True)))


# 截止 that ends its clause is a closing, not "as of" (优惠活动将于…晚上11点59分截止 came back "…as of.").
_CLOSES = re.compile(r"截止(?=\s*(?:[。，；！？,;!?]|$))")


# A change on the same period a year (or a month) before, with its percentage: 同比增长8.3% <->
# up 8.3% year on year, 下降2.1% <-> down 2.1%. The figure is part of the phrase, written exactly.
_PERCENT = r"([0-9０-９]+(?:[.．][0-9０-９]+)?)\s?[%％]"
# The period is optional: a change alone (``净利润下降2.1%``) lost its direction as often (the
# model wrote ``Net profit for 120 million yuan, 2.1%.``), and ``较上年同期`` (on the same period
# of the year before) is year on year.
# (... or against a year named: 较2005年下降了48.4% came back "ranks 2005 down 48.4%": down 48.4% from 2005)
# Not before 的 (增长5%的目标, a 5% growth target) but the one that ends a sentence (我们是如何把延迟降低80%的,
# a blog's title, came back "delay the interface to 80%").
_CHINESE_CHANGE = re.compile(rf"(同比|环比|(?:比|较|与)(?:上年|去年|上一?季度|上个?月|(?:19|20)[0-9]{{2}}年)"
                             r"(?:同期)?(?:相比)?，?)?"
                             rf"(增长|上升|提高|增加|上涨|上调|收涨|涨|下降|减少|降低|回落|下跌|下滑|下调|收跌|跌)了?\s?"
                             rf"(?:{_PERCENT}(?!的(?![。！？!?，,]|$))|([0-9０-９]+(?:[.．][0-9０-９]+)?)\s?个百分点)")
_RISES = ("增长", "上升", "提高", "增加", "上涨", "上调", "收涨", "涨")
# ... and by a sum of money against the period before (合同金额较上年增加2.3亿元 came back "230 million yuan
# has been added to the last year"): the period is needed, the verb alone is the model's.
_CHINESE_CHANGE_BY_AMOUNT = re.compile(r"(同比|环比|(?:比|较|与)(?:上年|去年|上一?季度|上个?月)(?:同期)?(?:相比)?，?)"
                                       r"(增长|增加|提高|上升|减少|下降|降低)了?\s?")
# ... and a level against the period before, an adjective's (猪肉价格……仍比去年同期低15.6% came back "it's
# still less than last 15.6%"): "15.6% lower than a year earlier".
_CHINESE_THAN = re.compile(rf"(?:比|较)(去年|上年|上月|上个月|上季度)(?:同期)?(低|高)了?\s?{_PERCENT}")
_THAN_PERIODS = {"去年": "a year earlier", "上年": "a year earlier", "上月": "a month earlier",
                 "上个月": "a month earlier", "上季度": "the previous quarter"}
# A market's close (上证指数收涨0.5% came back "The previous expensed 0.5%").
_CLOSED = {"收涨": "closed up", "收跌": "closed down"}  # 价格上涨了5% had come back "is fulfilled 5%"
# Into Chinese, the percentage in words too ("Sales fell 3.2 percent" came back 3.2%第三季度的销售员,
# the fall gone), and the verbs news writes for a rise or a fall.
_ENGLISH_RISES = ("up", "rose", "rises", "rise", "increased", "grew", "gained", "jumped", "climbed", "soared",
                  "surged", "edged up", "gaining", "rising")
_ENGLISH_CHANGE = re.compile(
    r"(?<![A-Za-z])(?P<closed>(?:closed|closing)\s+)?(up|rose|rises|rise|increased|grew|gained|jumped|climbed|soared|surged"
    r"|edged up|gaining|rising|down|fell|falls|fall|decreased|declined|dropped|slipped|slid|plunged|tumbled|slumped"
    r"|edged down|falling|losing|lost|loses)"
    r"(?: by)?\s([0-9]+(?:\.[0-9]+)?)(?:\s?%|\s(?:percent|per cent)(?![A-Za-z])|\s(percentage points?|basis points?)"
    r"(?![A-Za-z]))"
    r"(?:(?P<month>\s+in\s+(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December))?\s(year[- ]on[- ]year|from a year (?:earlier|ago)|from the previous year|month[- ]on[- ]month"
    # ... and on the same period of the year before ("up 8.3% from the same period last year" came back
    # 增长8.3%的去年期限, "last year's time limit"): 同比增长8.3%.
    r"|(?:from|over|on|compared with)\s(?:the\s)?same\s(?:period|quarter)\s(?:last\s+year|a\s+year\s+(?:earlier|ago)"
    r"|of\s+(?:last|the\s+previous)\s+year)))?"
    r"(?![A-Za-z])",
    re.IGNORECASE)
# ... and a close with its direction after the percentage ("The STOXX 600 index closed 1.4% lower" came
# back 关闭了1.4%, shut): 收跌1.4%.
_CLOSED_AFTER = re.compile(r"(?<![A-Za-z])(?:closed|ended|finished)\s([0-9]+(?:\.[0-9]+)?)"
                           r"(?:\s?%|\s(?:percent|per cent))\s(lower|higher|down|up)(?![A-Za-z])", re.IGNORECASE)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# A change to a level with the level it started from after it, as news writes it ("The number of
# people facing acute hunger rose to 295 million last year, up from 282 million in 2024" came back
# 从2.95亿发布到2.82亿, the figures swapped): 从2.82亿增至2.95亿.
_ENGLISH_FIGURE = r"(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:\s(?:million|billion|trillion))?"
_RISE_TO_FROM = re.compile(rf"(?<![A-Za-z])(rose|risen|increased|grew|climbed|jumped|fell|fallen|dropped|declined"
                           rf"|decreased|slipped)\s+to\s+(?P<to>{_ENGLISH_FIGURE})(?P<when>\s+(?:last|this)\s+year)?,?"
                           rf"\s+(?:up|down)\s+from\s+(?P<from>{_ENGLISH_FIGURE})(?![0-9A-Za-z])", re.IGNORECASE)


def _figure_into_chinese(figure: str) -> str:
    """A figure of :data:`_RISE_TO_FROM` as Chinese writes it (295 million: 2.95亿)."""
    scaled = next((s.target for s in find_magnitudes(figure, "zh") if (s.start, s.end) == (0, len(figure))), None)
    return scaled or figure


# A rise or a fall named as a noun ("Economists had expected a rise of 2.6%" came back 2.6%的启发, an
# inspiration): 增长2.6%, 下降2.6%.
_ENGLISH_NOUN_CHANGE = re.compile(r"(?<![A-Za-z])(?:a|an)\s+(rise|increase|gain|jump|fall|drop|decline|decrease)"
                                  r"\s+of\s+([0-9]+(?:\.[0-9]+)?)(?:\s?%|\s(?:percent|per cent)(?![A-Za-z]))",
                                  re.IGNORECASE)


# A change to a level, its percentage the level ("Unemployment fell to 3.9%" came back 失业…为3.9%,
# the fall gone): 降至3.9% <-> fell to 3.9%.
_ENGLISH_CHANGE_TO = re.compile(
    r"(?<![A-Za-z])(rose|risen|rises|increased|grew|climbed|jumped|improved|fell|fallen|falls|decreased|declined"
    r"|dropped|slipped|slid|eased)\s+to\s([0-9]+(?:\.[0-9]+)?)(?:\s?%|\s(?:percent|per cent)(?![A-Za-z]))"
    r"(?![0-9A-Za-z])",
    re.IGNORECASE)
_RISES_TO = ("rose", "risen", "rises", "increased", "grew", "climbed", "jumped", "improved")
_CHINESE_TO = "(升至|上升至|提升至|增至|增长至|提高至|上涨至|降至|下降至|减至|回落至|下滑至|降低至)"
_CHINESE_CHANGE_TO = re.compile(rf"{_CHINESE_TO}\s?{_PERCENT}")
_CHINESE_RISES_TO = ("升至", "上升至", "提升至", "增至", "增长至", "提高至", "上涨至")
# (提升至 whole: its 升至 alone left 提 to the model, "mentioned rose to 35%".)
# ... and to a sum of money ("Net income rose to $37.2 million" came back 净利润 rose 至3720万美元, the
# verb left in English; 净利润增至3720万美元): the verb and the amount as one span.
_ENGLISH_TO_AMOUNT = re.compile(r"(?<![A-Za-z])(rose|risen|rises|increased|grew|climbed|jumped|fell|fallen|falls"
                                r"|decreased|declined|dropped|slipped|slid)\s+to\s+", re.IGNORECASE)
_CHINESE_TO_AMOUNT = re.compile(rf"{_CHINESE_TO}\s?")


# A central bank's move ("The Federal Reserve cut interest rates by 25 basis points" came back
# 由25基点切断利率, cut as severed).
_RATE_MOVE = re.compile(r"(?<![A-Za-z])(cut|cuts|lowered|lowers|reduced|reduces|raised|raises|hiked|hikes|increased)"
                        r"\s+(?:its\s+|the\s+)?((?:benchmark|key|policy)\s+)?(?:interest\s+)?rates?\s+by\s+"
                        r"([0-9]+(?:\.[0-9]+)?)\s(basis points?|percentage points?)(?![A-Za-z])", re.IGNORECASE)


# A share of a whole the report names (公司全年研发投入4.3亿元，占营业收入的比例为5.0% came back "430
# million yuan of operating revenue is 5.0%"; 占营业收入的5.9%): "accounting for 5.0% of operating
# revenue", the whole a report term (or a Latin abbreviation: 占GDP的比重) so its English is the term's.
_CHINESE_SHARE = re.compile(rf"占(?P<whole>[\u4e00-\u9fff]{{2,10}}?|[A-Z]{{2,5}})(?:的)?(?:比例|比重)?"
                            rf"(?:为|达到?|约为|约|超过)?\s?{_PERCENT}(?!的(?![。！？!?，,]|$))")
# ... and into Chinese ("accounting for 5.0% of operating revenue": 占营业收入的5.0%).
_ENGLISH_SHARE = re.compile(r"(?<![A-Za-z])(?:accounting for|representing)\s([0-9]+(?:\.[0-9]+)?)"
                            r"(?:\s?%|\s(?:percent|per cent))\sof\s(?:the\s|its\s|our\s)?"
                            r"(?P<whole>[A-Za-z][A-Za-z&\- ]{1,40}?)(?=[.,;:)]|\s(?:in|for|during|and)\s|$)",
                            re.IGNORECASE)
# A listed company's cash dividend (向全体股东每10股派发现金红利1.5元（含税） came back "10 stock dispatch to
# the full share of 1.5 yuan"): "a cash dividend of 1.5 yuan for every 10 shares".
_CASH_DIVIDEND = re.compile(r"(?:(?P<plan>拟)?以(?:公司)?(?:(?P<year>(?:19|20)[0-9]{2})年(?:末|底|12月31日))?(?:现有)?"
                            r"总股本\s?(?P<n>[0-9]+(?:\.[0-9]+)?(?:万|亿)?)\s?股为基数，?)?"
                            r"(?P<all>向全体股东)?每\s?(?P<per>[0-9]+)\s?股派(?:发|送)?现金(?:红利|股利)(?:人民币)?\s?")

# A work report's new jobs (全年新增城镇就业3.2万人 came back "New urban jobs 32,000 people"), a line of every
# Chinese government report: "32,000 new urban jobs".
_NEW_JOBS = re.compile(r"(?P<year>全年)?(?:城镇新增就业|新增城镇就业)\s?(?P<n>[0-9]+(?:\.[0-9]+)?\s?(?:万|亿)?)人"
                       r"(?P<more>以上)?")
# ... and a rate held under a ceiling (城镇调查失业率控制在5.5%以内 came back "controls in 5.5%").
_KEPT_WITHIN = re.compile(rf"控制在\s?{_PERCENT}\s?(以内|左右)")


def _shares_of_wholes(text: str, src: str | None, tgt: str | None) -> list[Span]:
    """:data:`_CHINESE_SHARE`, :data:`_NEW_JOBS`, :data:`_KEPT_WITHIN` and :data:`_CASH_DIVIDEND` into
    English, :data:`_ENGLISH_SHARE` into Chinese, as ``number`` spans; a whole that is no report term is
    left to the model."""
    _terms, into_chinese, into_english, _english, _chinese = _tables()
    spans = []
    if tgt == "en" and src != "en":
        for m in _CHINESE_SHARE.finditer(text):
            whole = m.group("whole")
            english = whole if whole.isascii() else into_english.get(whole)
            # A clause after a comma (…4.3亿元，占营业收入的5.0%); as a sentence's verb (出口额占GDP的18%)
            # its tense is the model's.
            if english and re.search(r"[，,、；]\s?$", text[:m.start()]):
                spans.append(Span(m.start(), m.end(), m.group(), "number",
                                  f"accounting for {ascii_digits(m.group(2))}% of {english}"))
        for m in _NEW_JOBS.finditer(text):
            n = m.group("n").replace(" ", "")
            jobs = next((x.target for x in find_magnitudes(n, "en") if (x.start, x.end) == (0, len(n))), n)
            written = f"{'over ' if m.group('more') else ''}{jobs} new urban jobs"
            spans.append(Span(m.start(), m.end(), m.group(), "number",
                              written + (" were created over the year" if m.group("year") else "")))
        for m in _KEPT_WITHIN.finditer(text):
            how = "kept within" if m.group(2) == "以内" else "kept at around"
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{how} {ascii_digits(m.group(1))}%"))
        for m in _CASH_DIVIDEND.finditer(text):
            amount = next((a for a in find_amounts(text[m.end():], "en") if a.start == 0), None)
            if amount is None or amount.target is None:
                continue
            end = m.end() + amount.end
            written = (f"{'plans to pay ' if m.group('plan') else ''}a cash dividend of {amount.target} for every "
                       f"{m.group('per')} shares{' to all shareholders' if m.group('all') else ''}")
            if n := m.group("n"):  # ... based on the share capital (以总股本12亿股为基数, "fits in base")
                scaled = next((x.target for x in find_magnitudes(n, "en") if (x.start, x.end) == (0, len(n))), n)
                when = f" at the end of {m.group('year')}" if m.group("year") else ""
                written += f", based on a total share capital of {scaled} shares{when}"
            spans.append(Span(m.start(), end, text[m.start():end], "number", written))
    elif tgt == "zh" and src != "zh":
        lowered = {k.lower(): v for k, v in into_chinese.items()}
        for m in _ENGLISH_SHARE.finditer(text):
            chinese = lowered.get(m.group("whole").lower())
            if chinese:
                spans.append(Span(m.start(), m.end(), m.group(), "number", f"占{chinese}的{m.group(1)}%"))
    return spans


def _to_amounts(text: str, verbs: re.Pattern[str], tgt: str, rises: tuple[str, ...], written: tuple[str, str],
                ) -> list[Span]:
    """Each rise or fall ``verbs`` finds right before an amount of money (doctrans.currency), as one
    span: ``written`` is the rise's verb and the fall's, before the amount's target."""
    spans = []
    for m in verbs.finditer(text):
        amount = next((a for a in find_amounts(text[m.end():], tgt) if a.start == 0), None)
        if amount is not None and amount.target is not None:
            verb = written[0] if m.group(1).lower() in rises else written[1]
            sep = " " if tgt == "en" else ""
            spans.append(Span(m.start(), m.end() + amount.end, text[m.start():m.end() + amount.end], "number",
                              f"{verb}{sep}{amount.target}"))
    return spans


def _period_written(period: str | None) -> str:
    """The period a Chinese change is measured against, as English writes it after the change:
    环比 month on month, 较上季度 (than the quarter before; 线上渠道收入……较上季度提高2.3个百分点 came
    back "above season up 2.3 percentage points") quarter on quarter, 同比 and 较上年 year on year,
    较2005年 from 2005."""
    if not period:
        return ""
    if year := re.search(r"(?:19|20)[0-9]{2}(?=年)", period):
        return f" from {year.group()}"
    if period == "环比" or "月" in period:
        return " month on month"
    return " quarter on quarter" if "季度" in period else " year on year"


def find_changes(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """Year-on-year and month-on-month changes with their percentage, as ``number`` spans (they
    hold a figure: checked like one, never dropped for the placeholder budget) whose
    target is the change the way ``tgt_lang`` writes it (English <-> Chinese only)."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    spans = []
    if tgt == "en" and src != "en":
        for m in _CHINESE_CHANGE.finditer(text):
            period = _period_written(m.group(1))
            direction = _CLOSED.get(m.group(2)) or ("up" if m.group(2) in _RISES else "down")
            if m.group(3) is not None:
                size = f"{ascii_digits(m.group(3))}%"
            else:  # 较上年同期提高6.1个百分点: up 6.1 percentage points year on year
                points = ascii_digits(m.group(4))
                size = f"{points} percentage point{'' if points == '1' else 's'}"
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{direction} {size}{period}"))
        for m in _CHINESE_THAN.finditer(text):
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{ascii_digits(m.group(3))}% "
                              f"{'lower' if m.group(2) == '低' else 'higher'} than {_THAN_PERIODS[m.group(1)]}"))
        for m in _CHINESE_CHANGE_TO.finditer(text):
            verb = "rose" if m.group(1) in _CHINESE_RISES_TO else "fell"
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{verb} to {ascii_digits(m.group(2))}%"))
        spans += _to_amounts(text, _CHINESE_TO_AMOUNT, "en", _CHINESE_RISES_TO, ("rose to", "fell to"))
        for m in _CHINESE_CHANGE_BY_AMOUNT.finditer(text):  # 合同金额较上年增加2.3亿元: up 230 million yuan
            amount = next((a for a in find_amounts(text[m.end():], "en") if a.start == 0), None)
            if amount is not None and amount.target is not None:
                direction = "up" if m.group(2) in _RISES else "down"
                spans.append(Span(m.start(), m.end() + amount.end, text[m.start():m.end() + amount.end], "number",
                                  f"{direction} {amount.target}{_period_written(m.group(1))}"))
    elif tgt == "zh" and src != "zh":
        for m in _ENGLISH_CHANGE.finditer(text):
            rise = m.group(2).lower() in _ENGLISH_RISES
            period = "" if not m.group(6) else "环比" if m.group(6).lower().startswith("month") else "同比"
            if m.group("month"):  # rose 2.4% in October from a year earlier: 10月同比增长2.4%
                period = f"{_MONTHS.index(m.group('month').split()[-1].lower()) + 1}月{period}"
            unit = "%" if not m.group(4) else "个基点" if m.group(4).startswith("basis") else "个百分点"
            size = f"{ascii_digits(m.group(3))}{unit}"
            verb = ("提高" if rise else "下降") if m.group(4) else ("增长" if rise else "下降")
            if m.group("closed"):  # a market's close ("closed up 0.5%" came back 关闭了增长0.5%, shut)
                verb = "收涨" if rise else "收跌"
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{period}{verb}{size}"))
        for m in _CLOSED_AFTER.finditer(text):
            verb = "收涨" if m.group(2).lower() in ("higher", "up") else "收跌"
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{verb}{ascii_digits(m.group(1))}%"))
        for m in _RISE_TO_FROM.finditer(text):  # rose to 295 million, up from 282 million: 从2.82亿增至2.95亿
            to, start = _figure_into_chinese(m.group("to")), _figure_into_chinese(m.group("from"))
            verb = "增至" if m.group(1).lower() in _RISES_TO else "降至"
            when = "" if not m.group("when") else "去年" if "last" in m.group("when").lower() else "今年"
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{when}从{start}{verb}{to}"))
        for m in _ENGLISH_NOUN_CHANGE.finditer(text):
            rise = m.group(1).lower() in ("rise", "increase", "gain", "jump")
            spans.append(Span(m.start(), m.end(), m.group(), "number",
                              f"{'增长' if rise else '下降'}{ascii_digits(m.group(2))}%"))
        for m in _ENGLISH_CHANGE_TO.finditer(text):
            rise = m.group(1).lower() in _RISES_TO
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{'升至' if rise else '降至'}{m.group(2)}%"))
        spans += _to_amounts(text, _ENGLISH_TO_AMOUNT, "zh", _RISES_TO, ("增至", "降至"))
        for m in _RATE_MOVE.finditer(text):
            cut = m.group(1).lower() in ("cut", "cuts", "lowered", "lowers", "reduced", "reduces")
            unit = "个基点" if m.group(4).startswith("basis") else "个百分点"
            rate = "基准利率" if m.group(2) else "利率"
            spans.append(Span(m.start(), m.end(), m.group(), "number",
                              f"{'下调' if cut else '上调'}{rate}{ascii_digits(m.group(3))}{unit}"))
    spans += [x for x in _shares_of_wholes(text, src, tgt) if not x.overlaps_any(spans)]
    return sorted(spans, key=lambda s: s.start)
