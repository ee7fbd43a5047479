"""Chinese people's names written in pinyin into English (``发言人付凌晖表示`` -> ``Fu Linghui``).

A name is a figure of a news item: the zh->en model never learned most of them and made words of
their characters (``北京华泰`` came back ``Beijing Wallace``), so a reader cannot tell who spoke.
English writes a Chinese name in pinyin, surname first, the given name in one word (``Li Qiang``,
``Fu Linghui``; pypinyin reads the characters, surnames with their surname readings: ``曾`` is
``Zeng``). Telling a name from words needs context, so only where the text says it is one:

- after a title (``发言人``, ``总理``, ``教授``, ``记者``...) and before what people do in news
  (``表示``, ``说``, ``指出``, ``在``, ``会见``...) or a mark: ``国务院总理李强在会上说``;
- 老 or 小 before a surname where a phrase starts and before what a person does or a mark, as
  fiction calls its people: ``老王没说话`` -> ``Lao Wang``, ``小林把伞放在门口`` -> ``Xiao Lin``;
- a form's or a judgment's field that names a person (``姓名：``, ``原告：``, ``审判员``), then a
  colon or a full-width space, and the name that fills it: ``原告：张伟，男`` -> ``Zhang Wei``; a
  field that lists people (``参会人员：王磊、李娜``), each of them (李娜 had come back "Leena");
- a surname alone with a form of address after it where a phrase starts: ``王先生`` -> ``Mr.
  Wang``, ``请张女士发言`` -> ``Ms. Zhang``, ``王老师笑着说`` -> ``Teacher Wang`` (the model wrote
  "The primary teacher", then "Ms. King"), ``李医生`` -> ``Dr. Li``, ``张教授`` -> ``Professor Zhang``.

Not a foreign name written in Chinese characters (``卡斯特罗先生`` is Mr. Castro, ``史密斯`` Smith:
characters of transliteration, or a character before the surname, say it is no Chinese name);
the TVsub subtitles, translated from English, are full of them. In 475,000 of their sentences a
name before a title (``邓肯教授``, Professor Duncan) or a surname and given name before 先生
(``杜兰先生``, Mr. Dolan) was a foreign name as often as not, so neither is read.

| source                         | written         |
|--------------------------------|-----------------|
| 国家统计局新闻发言人付凌晖表示   | Fu Linghui      |
| 国务院总理李强在会上说           | Li Qiang        |
| 当地居民王建国说                 | Wang Jianguo    |
| 市民张丽告诉记者                 | Zhang Li        |
| 发言人付凌晖也表示，             | Fu Linghui      |
| 记者曾国藩报道                   | Zeng Guofan     |
| （记者王磊）                     | Wang Lei        |
| 中国队武磊接队友传中头球破门     | Wu Lei          |
| 比赛第33分钟，武磊接队友传中头球破门 | Wu Lei      |
| 比赛第87分钟，武磊打入制胜球     | Wu Lei          |
| 王先生来了                       | Mr. Wang        |
| 请张女士发言                     | Ms. Zhang       |
| 王老师笑着说                     | Teacher Wang    |
| 老王没说话                       | Lao Wang        |
| “外面下雨了，”小林把伞放在门口    | Xiao Lin        |
| 老王开了三十年，也该休息了         | Lao Wang        |
| 老张一听就笑了                   | Lao Zhang       |
| 小王子和小白兔                   | (none)          |
| 我去找李医生                     | Dr. Li          |
| 请联系年级组张老师               | Teacher Zhang   |
| 感谢我的导师张教授               | Professor Zhang |
| 科林先生来了                     | (none)          |
| 一位姓王的老师                   | Wang            |
| 老百姓的生活                     | (none)          |
| 原告：张伟，男                   | Zhang Wei       |
| 姓名：王秀英　性别：女           | Wang Xiuying    |
| 审判员　赵敏                     | Zhao Min        |
| 被告：王某，男                   | Wang X          |
| 参会人员：李娜                   | Li Na           |
| 出席：史密斯                     | (none)          |
| 欧阳明教授说                     | (none)          |
| 杜兰先生来了                     | (none)          |
| 史密斯先生说                     | (none)          |
| 他高兴地说                       | (none)          |
| 文章指出                         | (none)          |

A name is a span whose target is the pinyin (masked and restored like a glossary term). Into
Chinese, only a Chinese surname in an English name, after a given name or a title, as its
character (``Dr. Sarah Chen`` -> 莎拉·陈医生: it came back 莎拉·切恩医生); the given name is the
model's to transliterate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from pypinyin import Style, lazy_pinyin

from doctrans.language_id import base_language
from doctrans.verbatim import Span

# The most common single-character surnames, and the two-character ones.
_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
             "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武"
             "戴莫孔向汤傅")
_COMPOUND = ("欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "令狐", "慕容")
_SURNAME_READINGS = {"曾": "zeng", "单": "shan", "解": "xie", "查": "zha", "仇": "qiu", "区": "ou", "朴": "piao"}
TITLES = ("新闻发言人|发言人|副总理|总理|副主席|主席|副部长|部长|副局长|局长|副市长|市长|副省长|省长|书记|董事长"
          "|总经理|总裁|首席执行官|首席技术官|首席财务官|首席运营官|首席科学家|首席经济学家|总工程师|技术总监|总监|创始人"
          "|教授|院士|博士|记者|主任|处长|校长|院长|委员|大使|总统|首相|经理|工程师|医生|律师"
          "|作家|导演|教练|队长|预报员|研究员|分析师|统计师|经济学家|专家|负责人|科长|所长|站长|厂长|县长|区长|镇长|村长"
          # A match report's players, after their team or their place on it (中国队武磊接…破门: "the NSA skull").
          "|前锋|后卫|门将|中场|球员|队员|选手|运动员|主帅|队"
          # ... and a volleyball or basketball report's (主攻手李盈莹全场拿下28分 came back without her).
          "|主攻手|副攻手|二传手|中锋|控球后卫"
          # ... and a judgment's (委托诉讼代理人王芳到庭 came back "its delegation prosecutions").
          "|委托诉讼代理人|诉讼代理人|委托代理人|审判长|审判员|书记员"
          # ... and an English title in a Chinese story (华为终端业务CEO何刚表示 came back "Why just")
          "|CEO|CTO|CFO|COO"
          # ... and a board's (由独立非执行董事张明华担任主席 came back without him)
          "|独立非执行董事|非执行董事|执行董事|独立董事|董事会秘书|董事|监事会主席|监事"
          # ... and the people news quotes by what they are (当地居民王建国说 came back "Local residential
          # kingdom says").
          "|居民|市民|村民|游客|乘客|旅客|业主|家长|志愿者|店主|摊主|民警|护士|教师"
          # ... and an association's officers (中国汽车工业协会副秘书长陈士华表示 came back "Cheswall representation").
          "|副秘书长|秘书长|副理事长|理事长|副会长|会长")
_AFTER = ("表示|说|指出|强调|介绍|提醒|认为|称|在|会见|出席|主持|发表|宣布|透露|回答|告诉|报道|[：:，,。、）)]"
          "|打进|攻入|破门|射门|头球|扳平|连进|传中|接|夺得|获得"
          # When a person spoke or played (主教练蔡斌赛后表示 came back "Head coach representations").
          "|赛后|会后|全场|日前|近日|昨天|今天|昨日|拿下|独得|砍下|到庭|出庭"
          # ... "also" or "then" before a verb of speech (发言人付凌晖也表示 came back "The inventory is also")
          "|(?:也|还|随后|同时|再次|当天|解读)(?=表示|说|指出|强调|介绍|认为|称)"
          # ... and a player before the score (中国选手石宇奇以21比18、21比15战胜… came back "Shi Yu to 21-18")
          "|以(?=[0-9０-９一二三四五六七八九十两])"
          "|担任|出任|兼任|当选|辞去"
          # ... and an obituary's (院士王德明同志，因病医治无效 came back without him)
          "|同志|生前|逝世|去世|病逝")
# Characters a given name does not have: the grammar around a name (他高兴地说, 方法是).
_NOT_GIVEN = "的地得了着过也都还就才又在是和与及对将把被让给向从于为以而并且说称表指认示这那个们"
# ... nor a foreign name's transliteration (史密斯先生 is Mr. Smith, not "Shi Misi"; 罗斯 is Ross).
FOREIGN_NAME_CHARS = "斯尔克特德姆森伯恩维莉娜丝妮蒂卡布拉里罗诺塔奇夫茨沃顿逊普登约翰迪西亚艾雷瑟露琳莎纳威比谢"
_NOT_GIVEN += FOREIGN_NAME_CHARS
_SURNAME = "|".join([*_COMPOUND, *_SURNAMES])
_NAME_CHAR = f"(?![{_NOT_GIVEN}])[\\u4e00-\\u9fff]"
# A given name of one character may be one a transliteration uses too (李娜 came back "Leena").
_GRAMMAR = _NOT_GIVEN.replace(FOREIGN_NAME_CHARS, "")
# (Not a word that starts with a surname's character: 北京队方面， came back "Beijing Fang Mian".)
# After a title a given name may hold 德 too, which transliterations use (院士王德明同志 came back without
# him; 马德里 is Madrid, but no title goes before it).
_TITLED_NAME_CHAR = f"(?![{_NOT_GIVEN.replace('德', '')}])[\\u4e00-\\u9fff]"
# ... and a first given character of women's names that transliterations use too, before one they do
# not (首席统计师董莉娟解读称 lost her: 莉 is Lily's too); not 克, 斯, 尔… (总统马克龙 is Macron).
_WOMENS_NAME_CHARS = "莉娜琳莎丝妮蒂露"
_TITLED_GIVEN = f"[{_WOMENS_NAME_CHARS}]{_TITLED_NAME_CHAR}|{_TITLED_NAME_CHAR}{{1,2}}?"
_AFTER_TITLE = re.compile(f"(?:{TITLES})(?!方面|方向|方式|方案|方法|成员|成绩)"
                          f"({_SURNAME})({_TITLED_GIVEN})(?={_AFTER})")
_HAN = re.compile("[\\u4e00-\\u9fff]")
# A form's or a judgment's field that names a person, then a colon or a (full-width) space: the name
# that fills it (a discharge summary's 姓名：王秀英 came back "Name: Charming English", a judgment's
# 原告：张伟 "The plaintiff: A great", 审判员　赵敏 "The trials, allergic"). The name ends the field;
# not 王某 (a judgment's anonymised party).
_FIELD_LABELS = ("姓名|学生姓名|患者姓名|原告|被告|申请人|被申请人|上诉人|被上诉人|第三人|法定代表人|委托诉讼代理人"
                 "|委托代理人|诉讼代理人|代理人|审判长|审判员|人民陪审员|陪审员|书记员|法官助理|法官|联系人|负责人"
                 "|经办人|作者|编辑|责任编辑|记者|主讲人|主持人|报告人|讲师|嘉宾|译者|摄影|通讯员|医师|主治医师"
                 "|主治医生|签名|签字|收件人|发件人|寄件人|审核人|批准人|制表人|填表人|值班人|监护人|申报人"
                 # ... and a contract's parties (a lease's 出租方（甲方）：张伟 came back "The lease (Party A): A
                 # great"), the party's letter in brackets after the label or alone.
                 "|出租方|承租方|出租人|承租人|甲方|乙方|丙方|买方|卖方|出卖人|买受人|借款人|贷款人|出借人|委托方"
                 "|受托方|委托人|受托人|发包方|承包方|发包人|承包人|转让方|受让方|担保人|保证人|房东|租户|雇主|雇员"
                 "|用人单位|劳动者|签约人|授权代表|代表人")
_PARTY = "(?:[（(](?:甲|乙|丙|丁)方[）)])?"
# The field's label, the party's letter and the colon or space before the name that fills it.
_FIELD = f"(?:^|(?<=[\\s\u3000，。；;、（(]))(?:{_FIELD_LABELS}){_PARTY}(?:[：:][ \u3000]*|[ \u3000]+)"
_FIELD_NAME = re.compile(f"{_FIELD}({_SURNAME})((?![某])(?:{_NAME_CHAR}){{1,2}}|(?![{_GRAMMAR}某])[\u4e00-\u9fff])"
                         f"(?=$|[\\s\u3000，,。；;、（(）)])")
# A field that lists people (参会人员：王磊、李娜、赵鹏): each name of the list, surname first; a given
# name of one character may be one a transliteration uses too (李娜 came back "Leena"), a longer one not
# (史密斯 is Smith).
_PEOPLE_LABELS = "参会人员|参会人|与会人员|出席人员|出席|列席|缺席|参加人员|抄送|成员|组员"
_PEOPLE_FIELD = re.compile(f"(?:^|(?<=[\\s\u3000，。；;]))(?:{_PEOPLE_LABELS})[：:][ \u3000]*")
_LISTED_NAME = re.compile(f"({_SURNAME})((?![某])(?:{_NAME_CHAR}){{2}}|(?![{_GRAMMAR}某])[\\u4e00-\\u9fff])"
                          f"(?=$|[、，,；;。\\s\\u3000（(])")


def _listed_names(text: str) -> list[Span]:
    spans = []
    for field in _PEOPLE_FIELD.finditer(text):
        pos = field.end()
        while (m := _LISTED_NAME.match(text, pos)) is not None:
            spans.append(_name_span(m))
            pos = m.end()
            if text[pos:pos + 1] not in ("、", "，", ","):
                break
            pos += 1
    return spans


# What may come right before a name with 先生/女士 (请王先生, 这位张女士, 和李先生, 还记得王阿姨吗).
_BEFORE_NAME = "请位和与对给向跟是叫见问由及找让被等他她们得到了着过把从为替陪帮诉像"
# ... and a person's relation to the speaker (a speech's 我的导师张教授 came back "my professor", 同事王先生,
# 朋友李女士, 邻居张阿姨, 数学张老师).
_BEFORE_NAME += "师事友居学"
# ... and the unit a person works in, before a name with its title (a school's letter: 请联系年级组张老师
# came back "call the year-level group teacher", the name gone; 财务部王经理, 办公室李主任). Not 科, a
# character of transliterations (科林先生 is Mr. Collin).
_UNIT_BEFORE_NAME = "组部处室班局院所队司厅"
# How English addresses each: Mr. Wang, Teacher Wang (as translations of Chinese fiction do), Dr. Li.
FORMS_OF_ADDRESS = {"先生": "Mr.", "女士": "Ms.", "小姐": "Miss", "太太": "Mrs.", "老师": "Teacher", "医生": "Dr.",
                    "大夫": "Dr.", "教授": "Professor", "经理": "Manager", "主任": "Director", "校长": "Principal",
                    "师傅": "Master", "律师": "Attorney", "警官": "Officer",
                    # ... and fiction's neighbours and elders (王阿姨总是多给她加一个鸡蛋 came back "the Aunt",
                    # 还记得王阿姨吗 "aunt prince"; in TVsub's 2.1M lines three such, all foreign names).
                    "阿姨": "Aunt", "叔叔": "Uncle", "奶奶": "Grandma", "爷爷": "Grandpa", "大妈": "Aunt",
                    "大爷": "Uncle"}
# A surname and the form of address right after it (two-character surnames first: 欧阳先生).
_ADDRESSED = re.compile(f"({_SURNAME})({'|'.join(FORMS_OF_ADDRESS)})")


def pinyin(surname: str, given: str) -> str:
    """``Fu Linghui``: the surname, then the given name in one word, each with a capital."""
    family = "".join(_SURNAME_READINGS.get(c, p) for c, p in zip(surname, lazy_pinyin(surname, style=Style.NORMAL,
                                                                                         v_to_u=True), strict=True))
    first = "".join(lazy_pinyin(given, style=Style.NORMAL, v_to_u=True))
    return " ".join(w[:1].upper() + w[1:] for w in (family, first) if w)


def _name_span(m: re.Match[str], surname: int = 1) -> Span:
    """The name of ``m``'s groups ``surname`` (the surname) and the one after it (the given name),
    in pinyin."""
    family, given = m.group(surname), m.group(surname + 1)
    return Span(m.start(surname), m.end(surname + 1), family + given, "name", pinyin(family, given))


_FULL_NAME = re.compile(f"({_SURNAME})({_NAME_CHAR}{{1,2}})")
_SURNAME_AT = re.compile(_SURNAME)


def surname_of(text: str, i: int) -> str | None:
    """The surname of the list (a two-character one first: 欧阳) that starts at ``text[i]``, or None."""
    m = _SURNAME_AT.match(text, i)
    return m.group() if m else None


def full_name_in_pinyin(name: str) -> str | None:
    """A Chinese full name alone (``张华``, ``欧阳明``) in pinyin, or None when it is not one
    (a surname of the list, then one or two characters a given name has)."""
    m = _FULL_NAME.fullmatch(name)
    return pinyin(m.group(1), m.group(2)) if m else None


# A surname named as one (``一位姓王的老师``, a teacher surnamed Wang: the model wrote "A princess
# teacher"); not 百姓 (the common people).
# A name given as one (信封上写着他的名字：张建国 came back "a built-in"; 他名叫王小明): a surname and a
# two-character given name that ends the phrase. TVsub's seven such in 2.2M lines are transliterated
# foreign names (贾米尔, 莫扎特, 潘蜜拉): not where a character of one is in the given name.
_NAMED = re.compile(f"(?:名字[：:]|名字叫|名叫|名字是)({_SURNAME})((?![{FOREIGN_NAME_CHARS}吧呢啊吗])"
                    f"{_NAME_CHAR}(?![{FOREIGN_NAME_CHARS}吧呢啊吗]){_NAME_CHAR})(?=$|[，。！？、；：,.!?\\s”\"])")
_SURNAMED = re.compile(f"(?<!百)姓({_SURNAME})(?=[的，,。、]|名|叫)")
# A player where a clause starts, before what only a player does in a match report (比赛第33分钟，武磊
# 接队友传中头球破门 came back "armed balloons"); not 破门而入, bursting through a door.
_PLAYER = re.compile(f"(?:(?<![\\u4e00-\\u9fff])|(?<=[，。、；：]))({_SURNAME})({_NAME_CHAR}{{1,2}}?)"
                     "(?=接队友|头球|破门(?!而)|射门|打进|打入|攻入|扳平|梅开二度|助攻|远射|推射|抽射|禁区|点球|任意球"
                     "|传中|补射|单刀|上演帽子戏法)")
# A familiar name, 老 or 小 before a surname, as fiction calls its people (老王没说话 came back "The
# princes didn't talk", 小林 "Lyn" and "Jenning"): Lao Wang, Xiao Lin. Only where a phrase starts and
# before what a person does or a mark (小王子 is the little prince, 小白兔 a bunny, 小马过河 a pony).
_FAMILIAR = re.compile(f"(?:(?<![\u4e00-\u9fff])|(?<=[{_BEFORE_NAME}]))(老|小)([{_SURNAMES}])"
                       "(?=[的说没把从给笑才就也又在问看叹点摇站走坐拿抬低回喊叫和是已正将却便还不"
                       "放摆蹲拍指递掏擦抽喝吃听转推拉接想望盯皱愣"  # 老张放下茶杯, 老张摆摆手: "The old manipulation"
                       # 老王开了三十年 (a story's bookseller, "Every 30 years": the man gone), 老张都来了, 老王一听
                       "开都来去做买卖写打哭跑带让对跟向被一"
                       "，。、：；！？“”\"])")


# Into Chinese, a Chinese surname in an English name ("Dr. Sarah Chen" came back 莎拉·切恩医生, "James
# Wu" 詹姆斯·沃格): the surname's character, as Chinese writes such names (莎拉·陈), the model
# transliterating the given name. After a capitalised given name or a title only, and only the
# romanisations one character dominates (not Xu: 徐 or 许; not Jiang, Yu, Lu, Yan, Fu) that are no
# English word (not Sun: "Yesterday Sun rose").
_ROMANISED = {"Chen": "陈", "Wang": "王", "Zhang": "张", "Liu": "刘", "Yang": "杨", "Huang": "黄", "Zhao": "赵",
              "Wu": "吴", "Zhou": "周", "Zhu": "朱", "Guo": "郭", "Lin": "林", "Luo": "罗",
              "Zheng": "郑", "Liang": "梁", "Xie": "谢", "Tang": "唐", "Feng": "冯", "Deng": "邓", "Cao": "曹",
              "Peng": "彭", "Zeng": "曾", "Xiao": "肖", "Tian": "田", "Dong": "董", "Pan": "潘", "Yuan": "袁",
              "Cai": "蔡", "Cheng": "程", "Wei": "魏", "Shen": "沈", "Yao": "姚", "Cui": "崔", "Zhong": "钟",
              "Liao": "廖", "Jia": "贾", "Xia": "夏", "Zou": "邹", "Xiong": "熊", "Qin": "秦", "Qiu": "邱",
              "Xue": "薛", "Hou": "侯", "Hao": "郝", "Shao": "邵", "Qian": "钱", "Li": "李", "Lee": "李",
              "Chan": "陈", "Wong": "黄", "Cheung": "张", "Leung": "梁"}
_EN_SURNAME = re.compile(r"\b(?:(?:Mr|Ms|Mrs|Dr)\.|Professor|([A-Z][a-z]{2,})) "
                         rf"({'|'.join(sorted(_ROMANISED, key=len, reverse=True))})(?![\w'’-])")
_NOT_GIVEN_NAMES = frozenset({"The", "This", "That", "When", "Then", "And", "But", "With", "From", "For", "About",
                              "After", "Before", "Under", "Over", "Where", "While", "Says", "Said"})


def _surnames_into_chinese(text: str) -> list[Span]:
    spans = []
    for m in _EN_SURNAME.finditer(text):
        if m.group(1) not in _NOT_GIVEN_NAMES:
            spans.append(Span(m.start(2), m.end(2), m.group(2), "name", _ROMANISED[m.group(2)]))
    return spans


def _in_english(m: re.Match[str], surname: str) -> str:
    return f"{m.group(1)} {surname}" + (", " if m.group(2) else "")


def surnames_after_latin_given_names(text: str, source: str, spans: Sequence[Span]) -> str:
    """``text`` (a Chinese translation) with a Chinese surname written back in Latin letters where
    the model left the English given name before it as written: "David Chen" came back ``David 陈``
    (it transliterates the given name as often: 莎拉·陈), and half a name in each script is
    neither English nor Chinese: ``David Chen``."""
    for span in spans:
        if span.kind != "name" or _ROMANISED.get(span.text) != span.output:
            continue
        given = re.search(r"([A-Z][a-z]{2,}) $", source[:span.start])
        if given:
            # ... and a comma before the next English name is the English one (David Chen，Priya Nair).
            pattern = re.compile(rf"(?<![A-Za-z])({given.group(1)}) ?{re.escape(span.output)}(，\s*(?=[A-Za-z]))?")
            text = pattern.sub(partial(_in_english, surname=span.text), text)
    return text


# A judgment's anonymised party (被告：王某，男 came back "Defendant: The princess"): the surname and X, as
# the courts' English editions write it (Wang X; 王某某 Wang XX); only in a field that names a person.
_ANONYMISED = re.compile(f"{_FIELD}({_SURNAME})(某某?)(?=$|[\\s\u3000，,。；;、（(）)])")
# ... and right after the party's or the person's word, as a judgment's or a news story's text names
# them (原告李某诉称 came back "The plaintiff Lee is called"; 男子张某 被拘).
_ANONYMISED_AFTER = re.compile("(?:原告|被告人|被告|上诉人|被上诉人|申请人|被申请人|第三人|犯罪嫌疑人|嫌疑人|当事人"
                               f"|男子|女子|司机|患者|车主|租客|房东|村民|网友|学生|老人)({_SURNAME})(某某?)")


# A film's credits (由郭帆执导，吴京、刘德华、李雪健主演 came back "The licensed by Watch, Watchwart, Gango, Jr.
# Skirts"; 刘德华饰演的科学家 "the Gedwald's university"): the director after 由 and before 执导, each
# actor of the list before 主演, an actor before 饰演.
# A cast list says its names are names: a character of transliterations may be a Chinese given name
# there too (刘德华), but not the grammar.
_CAST_CHAR = f"(?![{_GRAMMAR}主演饰扮导])[\\u4e00-\\u9fff]"
_NAME = f"(?:{_SURNAME})(?:{_CAST_CHAR}){{1,2}}"
_DIRECTED = re.compile(f"由({_SURNAME})({_CAST_CHAR}{{1,2}}?)(?=执导|导演|编剧|监制|担任导演|自编自导)")
_STARRING = re.compile(f"(?:(?<=[，,。；;：:\\s由])|^)({_NAME}(?:[、和]{_NAME})*)(?=(?:等|联袂|领衔|共同)?主演)")
_PLAYS = re.compile(f"(?:(?<=[，,。；;：:\\s由、])|^)({_SURNAME})({_CAST_CHAR}{{1,2}}?)(?=饰演|扮演)")
_ONE_NAME = re.compile(f"({_SURNAME})((?:{_CAST_CHAR}){{1,2}})")


# ... and a doubles pair (陈清晨/贾一凡组合 came back "the morning/Javan"): each of them.
_PAIR = re.compile(f"({_SURNAME})({_CAST_CHAR}{{1,2}}?)[/／]({_SURNAME})({_CAST_CHAR}{{1,2}}?)(?=组合|搭档|组)")


def _credits(text: str) -> list[Span]:
    spans = [_name_span(m) for pattern in (_DIRECTED, _PLAYS) for m in pattern.finditer(text)]
    for m in _PAIR.finditer(text):
        spans += [_name_span(m), _name_span(m, 3)]
    for m in _STARRING.finditer(text):
        pos = m.start(1)
        for part in re.split("[、和]", m.group(1)):
            one = _ONE_NAME.fullmatch(part)
            if one is not None:
                spans.append(Span(pos, pos + len(part), part, "name", pinyin(one.group(1), one.group(2))))
            pos += len(part) + 1
    return spans


def find_person_names(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The people's names of ``text`` as ``name`` spans whose target is their pinyin (Chinese into
    English), and a Chinese surname's character in an English name (English into Chinese)."""
    if base_language(tgt_lang) == "zh" and base_language(src_lang) != "zh":
        return _surnames_into_chinese(text)
    if base_language(tgt_lang) != "en" or base_language(src_lang) == "en":
        return []
    spans = [_name_span(m) for pattern in (_AFTER_TITLE, _FIELD_NAME) for m in pattern.finditer(text)
             if m.group(2) not in FORMS_OF_ADDRESS]  # 联系人：王女士 is Ms. Wang, below
    spans += _listed_names(text)
    spans = [s for i, s in enumerate(spans) if not s.overlaps_any(spans[:i])]
    for m in _ADDRESSED.finditer(text):
        start = m.start()
        if any(s.start < m.end() and start < s.end for s in spans):
            continue
        if start > 0 and _HAN.match(text[start - 1]) and text[start - 1] not in _BEFORE_NAME + _UNIT_BEFORE_NAME:
            continue  # inside a longer name: 卡斯特罗先生 is Mr. Castro, not "卡斯特Mr. Luo"
        written = f"{FORMS_OF_ADDRESS[m.group(2)]} {pinyin(m.group(1), '')}"
        spans.append(Span(start, m.end(), m.group(), "name", written))
    # Then, where no name above lies: a player, a familiar name, a surname named as one.
    more = [_name_span(m) for m in _PLAYER.finditer(text)]
    more += [Span(m.start(), m.end(), m.group(), "name", f"{'Lao' if m.group(1) == '老' else 'Xiao'} "
                  f"{pinyin(m.group(2), '')}") for m in _FAMILIAR.finditer(text)]
    more += [Span(m.start(1), m.end(1), m.group(1), "name", pinyin(m.group(1), "")) for m in _SURNAMED.finditer(text)]
    more += [_name_span(m) for m in _NAMED.finditer(text)]
    more += _credits(text)
    more += [Span(m.start(1), m.end(2), m.group(1) + m.group(2), "name",
                  f"{pinyin(m.group(1), '')} {'X' * len(m.group(2))}")
             for pattern in (_ANONYMISED, _ANONYMISED_AFTER) for m in pattern.finditer(text)]
    for span in more:
        if not span.overlaps_any(spans):
            spans.append(span)
    # 同志 after the name is the comrade's (院士王德明同志 came back "Wang Deming gay"): Comrade Wang Deming.
    spans = [Span(s.start, s.end + 2, text[s.start:s.end + 2], s.kind, f"Comrade {s.target}")
             if text.startswith("同志", s.end) and s.target else s for s in spans]
    return sorted(spans, key=lambda s: s.start)


# What a person says, as news writes it after the name (``付凌晖表示，`` came back "Fu Linghui means
# that", ``他指出，`` "He points,"): English reports speech in the past tense. Only before a comma
# or a colon (``表示感谢`` is to express thanks); after a pronoun not 说 (``他说，`` the model writes).
_SPEECH = {"表示": "said", "指出": "pointed out", "强调": "stressed", "称": "said", "说": "said", "介绍": "said",
           "提醒": "reminded"}
# ... and a word of when or "also" between them (主教练蔡斌赛后表示： came back "Head coach Cai Bin
# significance:"): "Cai Bin said after the match:", "Cai Bin also said".
_SPEECH_WHEN = {"赛后": ("", " after the match"), "会后": ("", " after the meeting"), "随后": (" then", ""),
                "也": (" also", ""), "还": (" also", ""), "同时": (" also", ""), "再次": ("", " again"),
                "日前": (" recently", ""), "近日": (" recently", ""), "当天": ("", " on the day"),
                # ... and a release's reading of its figures (首席统计师董莉娟解读称 lost her)
                "解读": ("", "")}
_SPEECH_AFTER = re.compile(f"({'|'.join(_SPEECH_WHEN)})?({'|'.join(_SPEECH)})(?=[，,：:])")
# ... and a company, the police or a report where a clause starts (a results story's 公司表示，将继续加大
# 研发投入 came back "The company representation will continue"): the company said.
_SUBJECTS = {"他": "he", "她": "she", "他们": "they", "她们": "they", "公司": "the company", "该公司": "the company",
             "警方": "police", "专家": "experts", "报告": "the report", "该报告": "the report", "研究": "the study",
             "该研究": "the study"}
_SUBJECT_SPEECH = re.compile("(?<![\u4e00-\u9fff])(" + "|".join(sorted(_SUBJECTS, key=len, reverse=True))
                             + ")(表示|指出|强调|介绍)(?=[，,：:])")


_BODIES = frozenset({"Ministry", "Department", "Bureau", "Office", "Commission", "National", "State", "General",
                     "Provincial", "Municipal", "County", "District"})
_SPOKESPEOPLE = frozenset({"spokesperson", "spokesman", "spokeswoman", "official", "officials"})
_LEARNED_FROM = re.compile(r"(?<![\u4e00-\u9fff])(记者(?:日前|近日|今天|今日|昨天|昨日)?从)[^，。；：]{2,30}?"
                           r"(获悉|了解到|得知)(?=[，,])")


# An organisation's official speaking for it (中国国家铁路集团有限公司有关负责人表示 came back "China State
# Railway Group Co., Ltd. is related to the manifest representation"): an official of it said.
_OFFICIAL_SPEECH = re.compile(f"(?:有关|相关)?负责人({'|'.join(_SPEECH)})(?=[，,：:])")


# 据 earlier in the clause makes the verb of speech its end (据首席技术官陈立明介绍: according to Chen
# Liming), not a verb of the name ("According to ... Chen Liming said").
_ACCORDING_TO = re.compile(r"据[^，。；：！？,;:!?]*$")


def with_speech_verbs(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` with each person's name (a ``name`` span written in pinyin) that a verb of speech
    follows grown to take it (``付凌晖表示`` -> ``Fu Linghui said``), an organisation's (a company or
    a government body) that its official's does (``国家电网有限公司有关负责人表示`` -> ``an official of
    State Grid Co., Ltd. said``), and a pronoun with such a
    verb where a clause starts (``他指出`` -> ``he pointed out``): Chinese into English."""
    out: list[Span] = []
    for span in spans:
        m = _SPEECH_AFTER.match(text, span.end)
        official = _OFFICIAL_SPEECH.match(text, span.end)
        if _ACCORDING_TO.search(text, 0, span.start):
            m = official = None
        if span.kind in ("name", "phrase") and span.target and _HAN.search(span.text) and official:
            span = Span(span.start, official.end(), text[span.start:official.end()], "phrase",  # its capital
                        f"an official of {span.target} {_SPEECH[official.group(1)]}")  # is the sentence's
        elif m and span.target and ((span.kind == "name" and _HAN.search(span.text))
                                    # 交通运输部新闻发言人表示 came back "The transmitted spokesperson representation"
                                    or (span.kind == "phrase" and span.target.split()[-1] in _SPOKESPEOPLE)):
            before, after = _SPEECH_WHEN.get(m.group(1) or "", ("", ""))
            span = Span(span.start, m.end(), text[span.start:m.end()], span.kind,
                        f"{span.target}{before} {_SPEECH[m.group(2)]}{after}")
        out.append(span)
    # Where a reporter learned it (记者从交通运输部获悉， came back "The reporter has taken from the
    # transplant"): the source's name between, one span.
    for m in _LEARNED_FROM.finditer(text):
        inner = [t for t in out if t.start == m.end(1) and t.end == m.start(2)]
        if inner and (source := inner[0].target):
            out = [t for t in out if t is not inner[0]]
            if source.split()[0] in _BODIES:  # the Ministry of Transport
                source = f"the {source}"
            out.append(Span(m.start(), m.end(), m.group(), "phrase", f"reporters learned from {source} that"))
    for m in _SUBJECT_SPEECH.finditer(text):
        said = Span(m.start(), m.end(), m.group(), "phrase", f"{_SUBJECTS[m.group(1)]} {_SPEECH[m.group(2)]}")
        if not said.overlaps_any(out):
            out.append(said)
    return sorted(out, key=lambda s: s.start)
