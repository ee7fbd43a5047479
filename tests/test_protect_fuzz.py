"""Whatever a sentence holds, protecting it and restoring a translation never raises.

The rules of doctrans.direction_terms read figures, numerals, money, dates, units and names with
their own parsers, and one of them failing on a sentence stops the whole document (``42.8万亿元``
in a Xinhua story: ``KeyError: '万'`` in the capital-amount reader, where 万亿 is no capital
numeral). Sentences are built here, seeded, from the fragments those rules react to, glued in
random order, and each goes through ``prepare`` both ways and, where the model is asked, ``restore`` of its masked text
(the model's most common answer for spans: copied as they came) and of that text shuffled.
"""

from __future__ import annotations

import random

import pytest

from doctrans.engine.protect import prepare
from doctrans.report import sentence_warnings

ZH_FRAGMENTS = [
    "42.8", "万", "亿", "万亿", "元", "人民币", "壹", "贰", "拾", "佰", "仟", "萬", "億", "零", "整", "角", "分",
    "年", "月", "日", "号", "至", "第", "季度", "前", "三", "十", "两", "百", "千", "〇", "%", "个百分点", "同比增长",
    "岁", "家", "名", "人", "个", "国家", "，", "。", "：", "（", "）", "“", "”", "《", "》", "、", "-", "~", "—",
    "张", "王磊", "付凌晖", "表示", "说", "先生", "师傅", "北京", "河北", "南海", "中东", "华北", "上海",
    "℃", "毫米", "公里", "点", "时", "分钟", "大写", "¥", "$", "1,200,000.00", "0", "3", "12", "2025", "1.5",
    "零下", "以上", "左右", "约", "近", "超过", "中新网", "新华社", "电", "记者", "GET", "/v2/x", "--help",
    "Python", "Q3", "三分之二", "十分之一", "百分之三十", "四成", "余家", "多万", "年底", "年初", "上年末",
    "第一章", "第二十一条", "图3", "一、", "（二）", " ", "\n",
    "比", "3比1", "毛", "块", "毛钱", "角钱", "分钱", "一块五毛", "年度", "决赛", "四分之一", "本报", "多哈", "分钟",
    "天", "请勿", "勿", "禁止", "不要",
    "十二公里", "三公里", "两千米", "十千米", "零下五度", "不到", "平方米", "东部地区", "东北", "地区", "老王", "小林",
    "九十年代", "上世纪", "初", "60岁以上", "老人", "18岁以下的儿童", "约有", "上涨了", "降至", "截止", "积", "领先",
    "第25轮", "中超联赛", "id：", "name,email", "设置 > 安全", "运行", "sudo apt update", "全国", "实现营业收入",
    "1½", "一日2次", "每天三次", "南风二三级", "阵风可达7级", "4到5级偏北风", "【用法用量】", "【温馨提醒】", "亿斤",
    "人次", "较上年同期提高", "6.1个百分点", "左右", "收入（亿元）", "账号设置 > 安全", "及以上版本", "元起", "突破",
    "本报讯（记者李明）", "故宫博物院", "3纳米", "约有三成", "全球唯一", "华为", "小米",
]
EN_FRAGMENTS = [
    "42.8", "million", "billion", "thousand", "$", "¥", "€", "RMB", "USD", "1,200,000.00", "3", "12", "2025",
    "1.5", "%", "percent", "per cent", "Dec.", "17-18", "Nov. 22", "January", "Monday", "the", "a", "of", "in",
    "23 countries", "employees", "people", "years old", "aged", "Chapter", "Section 2.1", "Figure 3", "Q3",
    "first half", "quarter", "°C", "mm", "km", "a.m.", "p.m.", "Mr.", "Dr.", "Sarah Chen", "Beijing",
    "the Middle East", "\"", "'", "(", ")", ",", ".", ":", ";", "-", "--", "--verbose", "GET /v2/orders",
    "429 Too Many Requests", "Authorization:", "Bearer", "http://x.example.com", "e.g.", "U.S.", "one",
    "twenty-two", "two-thirds", "a third", "quarters of the", "one in five", "half of the", "2nd", "21st century",
    "minus", "degrees Celsius", "the end of", "early", "1990s", "three years ago", "Scope", "cents",
    "hundred", "No.", "#", "Ten years ago", "Only", " ", "\n",
    "Inc.", "Ltd.", "Acme Data", "(the \"Agreement\")", "(\"Provider\")", "thirty (30) days", "(24)", "twenty-four",
    "business days", "Provider", "Services.", "?LAST", "Sales", "were", "Call",
    "three kilometres", "minus five degrees", "four hours", "forty-eight hours'", "no more than", "at least",
    "fell", "rose to", "3.2 percent", "3rd of May", "9.7 by 6.8 inches", "Phase II", "Round 3", "children under 12",
    "People over 65", "Run", "pip install x", "./install.sh --force", "Settings > Security", "File > Save As",
    "Either party", "Service Credits.", "Arsenal", "Twenty past eight,", "Headcount",
    "1½", "¾ cup", "8 to 10°C", "4 to 6 hours", "5-10 kg", "between", "from", "children aged 16 years and over",
    "aged 65 to 80 years", "over the age of 60", "10 years of age", "86p", "10,000-litre", "a fifth", "by",
    "Two thirds", "5.25%-5.5%", "52% to 48%", "eased to 2.3%", "2.5 percentage points", "one and a half percent",
    "the seventies", "Half a million", "Three out of four", "10 megabytes", "3-nanometre", "`a... B`", "excluding",
    "Revenue ($m)", "Annual Review 2025", "ACME WATER TRUST", "The Great Wall",
]


def sentences(fragments: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(fragments) + (" " if rng.random() < 0.3 else "") for _ in range(rng.randint(1, 14)))
            for _ in range(n)]


def shuffled(text: str, rng: random.Random) -> str:
    words = text.split()
    rng.shuffle(words)
    return " ".join(words)


@pytest.mark.parametrize(("fragments", "src", "tgt"), [(ZH_FRAGMENTS, "zh", "en"), (EN_FRAGMENTS, "en", "zh")])
def test_prepare_and_restore_never_raise(fragments: list[str], src: str, tgt: str) -> None:
    rng = random.Random(7)
    for sentence in sentences(fragments, 1500, seed=11 if src == "zh" else 13):
        try:
            prep = prepare(sentence, 16, tgt_lang=tgt, src_lang=src)
            if prep.model_text is None:
                continue  # copied or written without the model: nothing comes back to restore
            prep.restore(prep.model_text)
            prep.restore(shuffled(prep.model_text, rng))
        except Exception as e:  # the point: name the sentence that broke a rule
            raise AssertionError(f"{src}->{tgt} {sentence!r}: {type(e).__name__}: {e}") from e


def test_an_ordinary_large_figure_is_no_capital_amount() -> None:
    prep = prepare("全国固定资产投资完成42.8万亿元，同比增长3.4%。", 16, tgt_lang="en", src_lang="zh")
    assert "RMB" not in prep.restore(prep.model_text).text


def test_the_report_checks_never_raise() -> None:
    """``--report`` checks every sentence against its translation, whatever either holds."""
    directions = (("zh", "en", ZH_FRAGMENTS, EN_FRAGMENTS), ("en", "zh", EN_FRAGMENTS, ZH_FRAGMENTS))
    for src, tgt, fragments, other in directions:
        for source, translation in zip(sentences(fragments, 400, seed=17), sentences(other, 400, seed=19), strict=True):
            try:
                sentence_warnings(source, translation, tgt_lang=tgt, src_lang=src)
                sentence_warnings(source, source, tgt_lang=tgt, src_lang=src)
            except Exception as e:
                raise AssertionError(f"{src}->{tgt} {source!r} / {translation!r}: {type(e).__name__}: {e}") from e
