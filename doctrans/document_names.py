"""Chinese people's names that a whole document shows to be names, written in pinyin wherever it writes them.

A story names its people without a title: ``林静推开门的时候……林静没有说话`` -- and the zh->en
model wrote 林静 as "The Lins", "Linn", "The Lin" and dropped it once, and 陈明远 as "Trann's"
(its vocabulary spells 刘, 郭, 曹, 江 and 芳 byte by byte). One sentence cannot tell such a name
from words (doctrans.person_names reads names only after a title or before 先生); the document can:
a person's name comes back, mostly where a sentence or a clause starts, and now and then right
before what people do (``林静说``, ``陈明远笑了``). So, over the document's Chinese text:

- a **candidate** is a surname of doctrans.person_names' list and one or two characters that
  given names are made of (:data:`GIVEN`: 静, 明, 远, 建, 国 ...; no grammar, no characters of a
  foreign name written in Chinese), that is no common word (:data:`WORDS`: 高兴, 黄金, 周末 -- the
  strings of this form the training corpora write often);
- it is a **name of the document** when the document writes it at least twice, and either twice
  where a clause starts or once right before a verb of speech or of a person's doing (说, 问, 笑,
  点头 ...), a form of address (先生, 小姐) or after a title (教授, 记者 ...);
- a speaker's own name is one at once (``我叫周晓梅，``), and so is a line that is nothing but a
  candidate, a letter's signature or an author's line (``李明`` under ``此致 敬礼！`` came back "Leeming");
- a three-character candidate whose first two characters the document also writes without the
  third is those two and a word (``林静没有`` twice is 林静 and 没有): the shorter one is kept;
- a story names a person in full once and by the given name from then on (``林晓雨提着箱子走出车站``,
  then ``晓雨点点头``, ``晓雨没有说话``: the model lost her, then wrote "The rain point"): a full name
  where a clause starts whose two-character given name the document writes alone where a clause
  starts twice, or once before what a person does, is a name, and its given name alone is one too
  (``Xiaoyu``); a pair the corpora write often is a word (明天, 中国: :data:`WORDS`).

Names found after a title in any sentence (``国务院总理李强在会上说``) count too, so that the
story's or the article's other mentions (``李强指出``) are the same name. Each name is then a
``name`` span of every sentence that writes it (through the translator's glossary, after the
user's terms: doctrans.glossary), its target the pinyin (``Lin Jing``, ``Chen Mingyuan``).

| source                                                           | names                        |
|------------------------------------------------------------------|------------------------------|
| 林静推开门。陈明远的车还在。林静说：“走吧。”陈明远摇下车窗。     | 林静 Lin Jing · 陈明远 Chen Mingyuan |
| 林静没有说话。林静没有走。林静说了。                              | 林静 Lin Jing                |
| 他很高兴。高兴的时候，高兴地说。                                  | (none)                       |
| 林静推开门。                                                      | (none)                       |
| 林晓雨走出车站。晓雨点点头。晓雨没有说话。                          | 林晓雨 Lin Xiaoyu · 晓雨 Xiaoyu |
| 李明天来了。明天会下雨。明天见。                                    | (none)                       |
| 杜兰特说。杜兰特笑了。                                            | (none)                       |

Chinese into English only; a name the user's glossary holds is the user's.

Into Chinese, the mirror for organisations: a sentence keeps an English company's or institution's
name the models never learned (doctrans.kept_names: ``Northwind Energy Inc.``), but a heading in
Title Case cannot tell it from its other words and a later mention drops its legal form or its
kind: a press release's title ``Northwind Energy Announces Record Third-Quarter Results`` came back
``北方的诺氏企业记录``, its ``About Northwind Energy`` ``北方诉讼案`` (a lawsuit), ``Northwind installed``
``北部``. So each name the document's prose keeps is kept as written in all its sentences, in the
forms it goes by (``Northwind Energy Inc``, ``Northwind Energy``, ``Northwind``; not a place's:
``Zhejiang University`` is no ``Zhejiang``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from doctrans.data_lists import data_lines
from doctrans.documents.base import Block
from doctrans.english_people import find_document_people
from doctrans.glossary import Glossary, fold
from doctrans.kept_names import organisation_forms
from doctrans.language_id import base_language
from doctrans.person_names import (
    FOREIGN_NAME_CHARS,
    TITLES,
    find_person_names,
    full_name_in_pinyin,
    surname_of,
)
from doctrans.place_names import chinese_forms

if TYPE_CHECKING:
    from doctrans.engine.interface import Translator

# Characters Chinese given names are commonly made of (not those of a foreign name in Chinese:
# person_names.FOREIGN_NAME_CHARS are taken out below). A character that is also grammar or a
# common verb (有, 没, 看, 说) is not here: 林静没有 must not read as a name "Lin Jingmei".
GIVEN = "".join(sorted(set(
    "伟芳秀敏静丽强磊军洋勇艳杰娟涛明超霞平刚桂英华玉萍红鹏飞斌宇浩凯健俊帆帅旭宁龙欣佳雪晶婷玲丹颖倩慧莹"
    "晨辉海波峰鑫鸿新文志国建春梅兰凤云燕琴素珍蓉淑惠晓冬亮成东利清光荣庆祥福生德胜金宝良义仁礼信忠孝安康"
    "泰盛昌发财贵富永兴家顺天远凌晖思雨阳月星辰霖泽轩睿哲瑞博武彬昊然怡悦诗涵梓萱嘉琪瑶璐菲妍媛婉婕娇岚"
    "琦珊瑾瑜璇琼翠碧巧彩香菊莲荷楠桐松柏竹青紫兵卫毅峻岩川河鸣振宏弘伦纶玮炜炳焕烨煜灿炎森杉栋梁材豪"
    "骏驰腾翔邦民中夏立达通功业旺隆贤智诚廉洁正直树根柱满全秋霜冰洁婧倩薇蕾芬芝芸莺鹃娥姝妹媚馨韵怀"
    "钰铭锋钧鑫銮恒坚毓育培增添益学科章彦晗昕晴曦朗晋景皓旻昭暄耀铮钢锐锦鹤麟凤鸾鹰雁"
    # ... and fiction's (a novel's 陈默 came back "Chemmer" and "Chenmer"; a swordsman's 李寒舟 "Lee"
    # and "Lieutenant Lee")
    "默墨逸晚溪澜屿笙谦羽若初舟寒枫凡尘霄岳峥砚")
    - set(FOREIGN_NAME_CHARS)))
# Before these a name is doing something: speech, a look, a step (林静说, 陈明远笑了, 王芳点头).
_DOING = re.compile("说|问|道|答|喊|叫|笑|哭|叹|想|看|望|盯|点头|摇头|点点头|摇摇头|低头|抬头|转身|皱|站|坐|走|跑|推|"
                    "拉|拿|接|回|愣|沉默|犹豫|表示|指出|介绍|提醒|强调|认为|先生|女士|小姐|太太|老师|医生|教授|同学|同志|师傅")
# Where a clause starts: the start of a text, a sentence's or clause's mark, a quotation mark.
_CLAUSE_START = set("，。！？；：、“”‘’「」『』（）()…—\n ")
# A person named as such (我叫周晓梅，, 他叫王明: a talk's speaker came back "I'm called Monday", 周 read
# as a weekday): once is enough, the name whole up to a mark, 是 or 的. The subtitles' 我叫 are
# foreign names (28 of 28 in TVsub: 我叫苏珊, Susan), which translated_names leaves to the model.
_SELF_NAMED = re.compile(r"(?:我叫|他叫|她叫|名叫|名字是|名字叫|叫作|叫做)$")
_NAME_ENDS = re.compile(r"$|[，。,、！!；;？?：:）)\s]|是|的")
# ... and a speaker introducing herself where a sentence or a greeting ends (大家好，我是李娜，来自云南 came
# back "I'm Leena"): the name right before a comma or a full stop, 我是 being as often "I am" a thing.
_SELF_INTRODUCED = re.compile(r"(?:^|[，。！,!：:\s])我是$")
_INTRODUCED_ENDS = re.compile(r"[，。,！!]")
_TITLE_BEFORE = re.compile(f"(?:{TITLES}|老师|同学)$")


# A Chinese text translated from a Western language writes its people's names in the characters
# of transliteration (克里斯, 瑟琳娜, 谢尔顿); its 罗珊 is Roxanne and its 贺瑞 Harry, not "Luo Shan"
# and "He Rui". Two such characters together (not one doubled: 谢谢), outside the place names of
# doctrans.place_names, once in a thousand characters or more, say the text is such a translation
# and its names are left to the model (the TVsub subtitles: 95 % of their documents; of the 28 names
# these rules found in the other 5 %, 2 were written in pinyin by the reference).
_TRANSLITERATED = re.compile(f"[{FOREIGN_NAME_CHARS}]{{2,}}")
_TRANSLITERATED_PER_CHAR = 1 / 1000


@cache
def _places() -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, sorted(chinese_forms(), key=len, reverse=True))))


def transliterations(text: str) -> int:
    """How many runs of transliteration characters ``text`` holds outside place names."""
    return sum(1 for r in _TRANSLITERATED.findall(_places().sub("，", text)) if len(set(r)) > 1)


def translated_names(text: str) -> bool:
    """Whether ``text`` writes people's names the way a translation from a Western language does."""
    return _reads_translated(transliterations(text), len(text))


def _reads_translated(runs: int, chars: int) -> bool:
    return runs >= max(1.0, chars * _TRANSLITERATED_PER_CHAR)


@cache
def common_words() -> frozenset[str]:
    """WORDS: the surname-led strings that the training corpora write often (a word, not a name)."""
    return frozenset(data_lines("surname_words.txt"))


def candidates(text: str) -> Iterable[tuple[int, str, str]]:
    """(position, surname, given) for every surname of the list followed by one or two given-name characters."""
    for i in range(len(text)):
        surname = surname_of(text, i)
        if surname is None:
            continue
        j = i + len(surname)
        for n in (1, 2):
            given = text[j:j + n]
            if len(given) == n and all(c in GIVEN for c in given):
                yield i, surname, given


def find_document_names(texts: Iterable[str]) -> dict[str, str]:
    """The people's names of a Chinese document (its sentences or blocks, in order) -> their pinyin;
    none where the document writes names as a translation does (:func:`translated_names`). One pass:
    a text file's blocks are streamed, and only the candidates are kept."""
    words = common_words()
    runs = chars = 0
    seen: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    doing: Counter[str] = Counter()
    titles: Counter[str] = Counter()
    introduced: set[str] = set()
    pinyins: dict[str, str] = {}
    titled: dict[str, str] = {}
    given_starts: Counter[str] = Counter()  # a two-character given name alone where a clause starts
    given_doing: Counter[str] = Counter()
    for text in texts:
        runs += transliterations(text)
        for i in range(len(text) - 1):
            if (i == 0 or text[i - 1] in _CLAUSE_START) and text[i] in GIVEN and text[i + 1] in GIVEN:
                given_starts[text[i:i + 2]] += 1
                given_doing[text[i:i + 2]] += bool(_DOING.match(text, i + 2))
        chars += len(text) + 1
        for line in (ln.strip() for ln in text.splitlines()):
            # A name is two to four characters: a longer line needs no second look.
            if 2 <= len(line) <= 4 and line not in words \
                    and any(i == 0 and s + g == line for i, s, g in candidates(line)):
                introduced.add(line)
        for span in find_person_names(text, "zh", "en"):
            if span.target and span.target == full_name_in_pinyin(span.text):  # not 王先生's "Mr. Wang"
                titled[span.text] = span.target
        for i, surname, given in candidates(text):
            name = surname + given
            if name in words:
                continue
            end = i + len(name)
            seen[name] += 1
            pinyins[name] = full_name_in_pinyin(name) or ""
            at_start = i == 0 or text[i - 1] in _CLAUSE_START
            starts[name] += at_start
            if (_SELF_NAMED.search(text, max(0, i - 5), i) and _NAME_ENDS.match(text, end)) or \
                    (_SELF_INTRODUCED.search(text, max(0, i - 3), i) and _INTRODUCED_ENDS.match(text, end)):
                introduced.add(name)
            if _TITLE_BEFORE.search(text, max(0, i - 6), i):
                titles[name] += 1
            elif at_start and _DOING.match(text, end):
                doing[name] += 1
    if _reads_translated(runs, chars):
        return {}
    names = {n for n in seen if pinyins[n] and (n in introduced or (
        seen[n] >= 2 and (starts[n] >= 2 or doing[n] or titles[n])))}
    for name in sorted(names, key=len, reverse=True):
        shorter = name[:-1]
        if shorter in seen and seen[shorter] > seen[name]:
            names.discard(name)  # 林静没: 林静 is written without 没 too
        else:
            names.discard(shorter)  # 陈明远: 陈明 is only ever 陈明远's
    given_names: dict[str, str] = {}
    for name in seen:  # a full name once, then the given name alone (林晓雨, 晓雨点点头)
        surname = surname_of(name, 0) or ""
        given = name[len(surname):]
        if len(given) == 2 and starts[name] and pinyins[name] and given not in words and given_starts[given] and \
                (given_starts[given] >= 2 or given_doing[given]):
            names.add(name)
            given_names[given] = pinyins[name].split(" ", 1)[1]
    found = {n: pinyins[n] for n in seen if n in names}  # in the order the document first writes them
    return {**found, **given_names, **titled}


def document_names(blocks: Iterable[Block]) -> dict[str, str]:
    """:func:`find_document_names` over a document's blocks (not its code)."""
    return find_document_names(b.text for b in blocks if not b.verbatim)


def document_organisations(blocks: Iterable[Block]) -> frozenset[str]:
    """The English organisations' names a document's prose keeps (doctrans.kept_names), in every
    form its other sentences name them by (:func:`doctrans.kept_names.organisation_forms`)."""
    return frozenset(form for b in blocks if not b.verbatim for form in organisation_forms(b.text))


def keeping_document_names(translator: Translator, blocks: Iterable[Block], src_lang: str | None) -> Translator:
    """``translator`` writing the document's people's names in pinyin, or into Chinese keeping its
    organisations' names as written wherever they stand and writing its people one way, in full and
    by surname alone (doctrans.english_people), through its glossary, after the user's terms;
    ``translator`` itself when the document is neither Chinese into English nor English
    into Chinese, names nobody, or the engine takes no glossary."""
    with_glossary = getattr(translator, "with_glossary", None)
    if with_glossary is None:
        return translator
    src, tgt = base_language(src_lang), base_language(translator.tgt_lang)
    if src == "en" and tgt == "zh":
        blocks = list(blocks)
        organisations = document_organisations(blocks)
        glossary = translator.glossary or Glossary([])
        users = {t.folded for t in glossary.terms}
        people = {n: t for n, t in find_document_people((b.text for b in blocks if not b.verbatim),
                                                        getattr(translator, "translate_alone", None)).items()
                  if fold(n) not in users}
        if not organisations and not people:
            return translator
        return with_glossary(glossary.with_kept(organisations).with_names(people))
    if src != "zh" or tgt != "en":
        return translator
    names = document_names(blocks)
    glossary = translator.glossary or Glossary([])
    users = {t.folded for t in glossary.terms}
    names = {n: p for n, p in names.items() if fold(n) not in users}
    if not names:
        return translator
    return with_glossary(glossary.with_names(names))
