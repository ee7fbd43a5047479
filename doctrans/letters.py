"""A letter's salutation and closing, written the way the output's letters write them.

Each is a line of its own, and the models wrote them word by word: ``尊敬的王经理：`` came back "The
respectful prince manager:", ``此致`` "Acknowledge", ``敬礼！`` "Oh, my God!", the signature ``李明``
"Leeming" (a signature is a name of the document: doctrans.document_names). A segment that is
wholly one of them is one span whose target is the output's own
formula (written without the model, like a section heading):

| source                  | into English             | into Chinese     |
|-------------------------|--------------------------|------------------|
| 尊敬的王经理：          | Dear Manager Wang:       | (as written)     |
| 尊敬的张伟先生：        | Dear Mr. Zhang Wei:      | (as written)     |
| 尊敬的客户：            | Dear Customer:           | (as written)     |
| 亲爱的同事们：          | Dear Colleagues:         | (as written)     |
| 各位家长：              | Dear Parents:            | (as written)     |
| 此致                    | Yours sincerely,         | (as written)     |
| 敬礼！                  | With best regards.       | (as written)     |
| Dear Mr. Smith,         | (as written)             | 尊敬的Smith先生： |
| Dear Professor Lee,     | (as written)             | 尊敬的Lee教授：   |
| Dear Sir or Madam,      | (as written)             | 尊敬的先生/女士： |
| Dear Colleagues,        | (as written)             | 各位同事：        |
| Dear Shareholders,      | (as written)             | 尊敬的各位股东：  |
| Dear fellow shareholders, | (as written)           | 尊敬的各位股东：  |
| Best regards,           | (as written)             | 此致敬礼！        |

A Chinese name is one of doctrans.person_names (a surname of its list and one or two characters a
given name has); an English one is
kept as written (its Chinese transliteration is the writer's choice). English <-> Chinese only.
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language
from doctrans.person_names import FORMS_OF_ADDRESS, full_name_in_pinyin, pinyin, surname_of
from doctrans.verbatim import Span

# Chinese title after a name -> the English one before it: the forms of address of a sentence
# (doctrans.person_names), but a letter's: 小姐 is Ms. and a lawyer Mr. in a salutation, and it
# addresses ranks a sentence does not (总经理, 博士, 院长).
_TITLES_ZH = {**FORMS_OF_ADDRESS, "小姐": "Ms.", "律师": "Mr.", "总经理": "General Manager", "博士": "Dr.",
              "院长": "Dean"}
_GROUPS_ZH = {"客户": "Customer", "用户": "User", "会员": "Member", "同事": "Colleagues", "同事们": "Colleagues",
              "各位同事": "Colleagues", "家长": "Parents", "各位家长": "Parents", "同学们": "Students",
              "先生/女士": "Sir or Madam", "先生／女士": "Sir or Madam", "女士们、先生们": "Ladies and Gentlemen",
              # (an airline's 尊敬的旅客： came back "Adverender:")
              "旅客": "Passengers", "各位旅客": "Passengers", "乘客": "Passengers", "各位乘客": "Passengers",
              "游客": "Visitors", "各位游客": "Visitors", "读者": "Readers", "各位读者": "Readers",
              "居民": "Residents", "市民": "Citizens", "市民朋友们": "Citizens", "股东": "Shareholders",
              "各位股东": "Shareholders", "投资者": "Investors", "患者": "Patients", "考生": "Candidates",
              "各位考生": "Candidates", "学员": "Participants", "来宾": "Guests", "各位来宾": "Guests",
              # (a health centre's 各社区居民： came back "Community in the community:")
              "各社区居民": "Residents", "广大市民": "Residents", "广大居民": "Residents"}
_SALUTATION_ZH = re.compile(r"^(尊敬的|亲爱的)\s?(.{1,12}?)\s?[：:，,]?$")
# A group addressed without 尊敬的 (a school's notice opens 各位家长： — it came back "Everybody's
# parents:"): the groups above that say 各位 or 们 themselves, with the colon that makes it a salutation.
_GROUP_SALUTATION_ZH = re.compile(r"^(各位.{1,6}|.{1,4}们|各(?:部门|单位|科室|学院|班级|分公司|处室)"
                                  r"|各社区居民|广大市民|广大居民)\s?[：:]$")
# ... and an organisation's notice to its own units (各部门： came back "Groups:"): To all departments:.
_MEMO_ZH = {"各部门": "all departments", "各单位": "all units", "各科室": "all offices", "各学院": "all schools",
            "各班级": "all classes", "各分公司": "all branches", "各处室": "all offices"}
_CLOSINGS_ZH = {"此致": "Yours sincerely,", "此致敬礼": "Yours sincerely,", "此致敬礼！": "Yours sincerely,",
                # 敬礼 alone, without a letter's ！, is a soldier's salute (TVsub: "Present arms!").
                "敬礼！": "With best regards.", "顺颂商祺": "With best wishes,",
                "顺颂商祺！": "With best wishes,"}

_TITLES_EN = {"Mr.": "先生", "Mr": "先生", "Mrs.": "女士", "Mrs": "女士", "Ms.": "女士", "Ms": "女士", "Miss": "小姐",
              "Dr.": "博士", "Dr": "博士", "Professor": "教授", "Prof.": "教授"}
_GROUPS_EN = {"Sir or Madam": "尊敬的先生/女士：", "Sir/Madam": "尊敬的先生/女士：", "Colleagues": "各位同事：",
              "colleagues": "各位同事：", "Customer": "尊敬的客户：", "Valued Customer": "尊敬的客户：",
              # A bank's notice: "Dear customer," came back 亲爱的顾客, its comma gone.
              "customer": "尊敬的客户：", "Customers": "尊敬的客户：", "customers": "尊敬的客户：",
              "Parents": "尊敬的家长：", "All": "各位：", "all": "各位：", "Team": "各位同事：", "team": "各位同事：",
              # "Dear Sir," is no one named Sir.
              "Sir": "尊敬的先生：", "Madam": "尊敬的女士：", "Sirs": "敬启者：", "Friends": "亲爱的朋友们：",
              "friends": "亲爱的朋友们：",
              # A chief executive's letter ("Dear Shareholders," came back 亲爱的Shareholders：, the
              # group kept as a name) and the groups a notice addresses (the reverse of _GROUPS_ZH).
              "Shareholders": "尊敬的各位股东：", "Fellow Shareholders": "尊敬的各位股东：",
              "Stockholders": "尊敬的各位股东：", "Investors": "尊敬的投资者：", "Passengers": "尊敬的旅客：",
              "Visitors": "尊敬的游客：", "Readers": "亲爱的读者：", "Residents": "各位居民：",
              "Citizens": "各位市民：", "Patients": "尊敬的患者：", "Candidates": "各位考生：",
              "Participants": "各位学员：", "Guests": "各位来宾：", "Members": "尊敬的会员：",
              "Valued Members": "尊敬的会员：", "Users": "尊敬的用户：", "Students": "亲爱的同学们：",
              "Ladies and Gentlemen": "女士们、先生们：", "Valued Customers": "尊敬的客户：",
              "Employees": "各位员工：", "Staff": "各位员工：", "Partners": "尊敬的合作伙伴：",
              "Editor": "尊敬的编辑：", "Hiring Manager": "尊敬的招聘经理：", "Neighbours": "各位邻居：",
              "Neighbors": "各位邻居："}
_GROUPS_EN_FOLDED = {k.lower(): v for k, v in _GROUPS_EN.items()}
_SALUTATION_EN = re.compile(r"^Dear\s+(?:(Mr\.?|Mrs\.?|Ms\.?|Miss|Dr\.?|Professor|Prof\.)\s+)?"
                            r"(Sir or Madam|Sir/Madam|Ladies and Gentlemen"
                            r"|[A-Z][A-Za-z'’\-]+(?: [A-Z][A-Za-z'’\-]+)?|[Cc]olleagues|"
                            r"Valued Customer|[Tt]eam|[Aa]ll|friends|customers?|[a-z]+(?: [a-z]+)?)\s?[,:]?$")
_CLOSINGS_EN = re.compile(r"^(?:Yours (?:sincerely|faithfully|truly)|Sincerely(?: yours)?|(?:Best|Kind|Warm|With best)"
                          r" regards|Regards|Best wishes|Respectfully(?: yours)?)\s?,?$", re.IGNORECASE)


def _addressee_in_english(who: str) -> str | None:
    if who in _GROUPS_ZH:
        return _GROUPS_ZH[who]
    for title in sorted(_TITLES_ZH, key=len, reverse=True):
        if who.endswith(title) and len(who) > len(title):
            name = who[:-len(title)]
            # A surname alone (王经理) or a full name (张伟先生).
            written = pinyin(name, "") if surname_of(name, 0) == name else full_name_in_pinyin(name)
            return f"{_TITLES_ZH[title]} {written}" if written else None
    return None


def find_letter_formula(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """``text`` as one ``heading`` span whose target is the output's formula when the whole of it
    is a letter's salutation or closing (English <-> Chinese only); else none."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    body = text.strip()
    start = len(text) - len(text.lstrip())
    if not body:
        return []
    written: str | None = None
    if src == "zh" and tgt == "en":
        if (m := _SALUTATION_ZH.match(body)) and (who := _addressee_in_english(m.group(2))) is not None:
            written = f"Dear {who}:"
        elif (m := _GROUP_SALUTATION_ZH.match(body)) and m.group(1) in _GROUPS_ZH:
            written = f"Dear {_GROUPS_ZH[m.group(1)]}:"
        elif m and m.group(1) in _MEMO_ZH:
            written = f"To {_MEMO_ZH[m.group(1)]}:"
        else:
            written = _CLOSINGS_ZH.get(body)
    elif src == "en" and tgt == "zh":
        if m := _SALUTATION_EN.match(body):
            title, name = m.group(1), m.group(2)
            group = _GROUPS_EN.get(name) or _GROUPS_EN_FOLDED.get(name.lower())
            if name[:1].islower() and not group:
                pass  # a salutation in small letters is a group's or no name's: the model's
            elif group and not title:
                written = group
            elif title:
                written = f"尊敬的{name}{_TITLES_EN[title]}："
            elif not group:
                written = f"亲爱的{name}："
        elif _CLOSINGS_EN.match(body):
            written = "此致敬礼！"
    return [] if written is None else [Span(start, start + len(body), body, "heading", written)]
