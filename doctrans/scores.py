"""Scores and ratios written ``N比M`` into English: the figures and which side has which.

The zh->en model read 比 as a comparison: ``中国队以3比1战胜日本队`` came back "the Nationals are 3
more than the 1", ``3比1逆转`` "3 is more than 1" -- a result changed as much as a wrong digit. A
score or a ratio is one span (masked, restored and checked like a glossary term), written as
English writes it: a score or a vote with a hyphen where the sentence is about a match or a vote
(a team, a win or loss, a goal, votes), else a ratio with a colon:

| source                          | written |
|---------------------------------|---------|
| 中国队以3比1战胜日本队            | won 3-1 against |
| 客队1比2负于主队                  | lost 1-2 to |
| 双方以1比1战平                    | 1-1     |
| 中国队1比1战平韩国队              | drew 1-1 with |
| 双方最终战成2比2平                | 2-2     |
| 海港主场2比1逆转泰山              | came from behind to win 2-1 at home against |
| 议案以9比4获得通过                | 9-4     |
| 按1比1的比例配对                  | 1:1     |
| 男女比例为三比二                  | 3:2     |
| 他比我高                          | (none)  |
| 本轮过后，海港队积58分            | 58 points |
| 海港队以21胜4平3负积67分          | 21 wins, 4 draws and 3 losses · 67 points |
| 湖人队目前13胜5负                 | 13 wins and 5 losses |
| 三胜一平                          | 3 wins and 1 draw |

Both sides up to three digits, or a Chinese numeral up to 十. Into Chinese, a result in a sentence
about a match or a vote (``The vote was 9 to 4`` came back ``9至4``, a range; ``won 102-98``) is
``9比4``, ``102比98``; a range (``from 9 to 14``, ``between 3 and 5``) and a figure with a unit or a
percent are not:

| source                          | written |
|---------------------------------|---------|
| The vote was 9 to 4.            | 9比4    |
| China beat Japan 3-1.           | 3比1    |
| The Lakers won 102-98.          | 102比98 |
| Prices range from 9 to 14.      | (none)  |
| It won 3 to 5 times.            | (none)  |
"""

from __future__ import annotations

import re

from doctrans.chinese_numerals import read_figure
from doctrans.language_id import base_language
from doctrans.verbatim import Span

_SIDE = r"[0-9]{1,3}|[零一二两三四五六七八九十]{1,3}"
_NUMERAL = "0-9.零一二两三四五六七八九十百千万"
_SCORE = re.compile(rf"(?<![{_NUMERAL}第])({_SIDE})比({_SIDE})(?![{_NUMERAL}])")
# What says the figures are a match's or a vote's: a hyphen between them, as English reports results.
_CONTEST = re.compile(r"战胜|击败|打败|获胜|取胜|逆转|负于|输给|战平|打平|战成|比分|领先|落后|赢|输|平局|进球|破门|"
                      r"比赛|决赛|联赛|杯|队|主场|客场|票|通过|表决|否决")


_ENGLISH_SCORE = re.compile(r"(?<![\w.,:/-])(?<!from )(?<!between )([0-9]{1,3})\s*(?:-|–|—|\s+to\s+)\s*([0-9]{1,3})"
                            r"(?![\w:/%°-]|[.,]\d|\s*(?:times|percent|per cent|points|[a-z]+s|am|pm|a\.m|p\.m)\b)")
# ... the tie-break's points in brackets, after a space too ("7-6 (5), 6-2" had ended the sets' span
# before the bracket, and the last set came back 6比2)
_SET_SCORE = r"[0-9]{1,2}[-–][0-9]{1,2}(?:\s?\([0-9]{1,2}\))?"
_SET_SCORES = re.compile(rf"(?<![\w.,:/-]){_SET_SCORE}(?:,\s*{_SET_SCORE})+")
_ENGLISH_CONTEST = re.compile(r"\b(?:won|wins?|beat|beats|defeated|defeats?|lost|loses?|drew|draws?|tied|votes?|"
                              r"voted|score|scored|victory|match|game|final|league|cup"
                              # a council's motion ("Motion carried 4-1, Duffy opposed" came back 动议了4-1戴夫)
                              r"|motion\s+(?:carried|passed|failed)|carried\s+unanimously)\b", re.IGNORECASE)


# A team's points in a league's table (本轮过后，海港队积58分，领先第二名4分 came back "the harbor 58,
# lead to the second name 4": the points gone): N分 after 积, 领先, 落后, 相差 or 仅差 (and up to five
# characters between, 领先第二名成都蓉城队5分), where the sentence is about a contest. 分 alone is a
# minute, a cent or a mark, left to the model. 积 right before the points is theirs (积67分 left alone
# came back "product 67 points").
_POINTS = re.compile(r"(积)?(?:(?<=积)|(?:领先|落后|相差|仅差|净胜)[^\d，。；,;]{0,10}?)"
                     r"(?<![0-9.])([0-9]{1,3})分(?![钟之])")


# A team's record (海港队以21胜4平3负积67分 came back "the harbor 21 wins 4 square 3 minus 67 points":
# 平, a draw, read as "square", 负, a loss, as "minus"): wins, draws and losses, two or three of them
# in that order, as English writes a league table's record.
_RECORD = re.compile(rf"(?<![{_NUMERAL}第])({_SIDE})胜(?:({_SIDE})平)?(?:({_SIDE})负)?(?![{_NUMERAL}方])")


def _record(m: re.Match[str]) -> str | None:
    """``21 wins, 4 draws and 3 losses`` for a record's match; None for a win count alone (5胜 is
    "5 wins" to the model too) or a figure that is no count."""
    parts = []
    for group, word in ((1, "win"), (2, "draw"), (3, "loss")):
        if m.group(group) is None:
            continue
        n = read_figure(m.group(group))
        if n is None:
            return None
        parts.append(f"{n} {word}{'' if n == 1 else 'es' if word == 'loss' else 's'}")
    if len(parts) < 2:
        return None
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


# A player's points after the verb that scores them, and the assists or rebounds after them (a basketball
# report's 贡献25分8次助攻 came back "contributes 25 8 to help out", 得到16分 "to 16"): 25 points and 8 assists.
_PLAYER_POINTS = re.compile(r"(?<=贡献|拿下|得到|砍下|攻下|独得|轰下|揽下|全场|拿到)(?<![0-9.])([0-9]{1,3})分(?![钟之])"
                            r"(?:([0-9]{1,2})(次助攻|个助攻|个篮板|次抢断|次盖帽))?")
_STATS = {"次助攻": "assist", "个助攻": "assist", "个篮板": "rebound", "次抢断": "steal", "次盖帽": "block"}
# A level score (首节双方战成28平 came back "fights to 28"): tied at 28.
_TIED_AT = re.compile(r"(?:战成|打成)([0-9]{1,3})平")
# A run of wins or losses (取得五连胜 was lost): five straight wins.
_STREAK = re.compile(r"([二三四五六七八九十]{1,2}|[0-9]{1,2})连(胜|败|负)")
_NUMBER_WORDS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _player_stats(text: str) -> list[Span]:
    spans = []
    for m in _PLAYER_POINTS.finditer(text):
        written = _plural(int(m.group(1)), "point")
        if m.group(2):
            written += f" and {_plural(int(m.group(2)), _STATS[m.group(3)])}"
        spans.append(Span(m.start(), m.end(), m.group(), "number", written))
    spans += [Span(m.start(), m.end(), m.group(), "number", f"tied at {m.group(1)}") for m in _TIED_AT.finditer(text)]
    for m in _STREAK.finditer(text):
        n = read_figure(m.group(1))
        if n is not None and 2 <= n < len(_NUMBER_WORDS):
            kind = "wins" if m.group(2) == "胜" else "losses"
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{_NUMBER_WORDS[n]} straight {kind}"))
    return spans


_BEAT = re.compile(r"(?<![\w-])(beat|defeated|edged|thrashed|overcame)\s+(?=[A-Z])")


# The result's verb right after its score, before the other side's name: the sides stay where Chinese
# puts them (中国女排以3比1战胜日本队 came back "China women's volleyball team 3-1 wins Japan", 以3比0击败
# 巴西队 "3-0 suspended Brazil").
_RESULT = re.compile(r"(?:的比分)?(逆转(?:战胜|击败)?|战胜|击败|打败|力克|负于|输给|不敌|战平|逼平|打平)了?"
                     r"(?=[\u4e00-\u9fff])")
_RESULT_WORDS = {**dict.fromkeys(("负于", "输给", "不敌"), "lost {score}{venue} to"),
                 **dict.fromkeys(("战平", "逼平", "打平"), "drew {score}{venue} with")}
_VENUE = re.compile(r"(主场|客场)?以?$")


def find_scores(text: str, src_lang: str | None, tgt_lang: str | None) -> list[Span]:
    """The scores and ratios ``N比M`` of a Chinese ``text`` into English, and a match's or a vote's
    result of an English one into Chinese (see the module docstring)."""
    if base_language(src_lang) == "en" and base_language(tgt_lang) == "zh":
        if not _ENGLISH_CONTEST.search(text):
            return []
        # A tennis match's sets (6-4, 3-6, 7-6(5)) are one span, as Chinese sports pages write them
        # (6-4、3-6、7-6(5)): the last alone had come back 7比6(5) beside 6-4, 3-6.
        sets = [Span(m.start(), m.end(), m.group(), "number", re.sub(r",\s*", "、", m.group()).replace(" (", "("))
                for m in _SET_SCORES.finditer(text)]
        scores = sets + [Span(m.start(), m.end(), m.group(), "number", f"{m.group(1)}比{m.group(2)}")
                         for m in _ENGLISH_SCORE.finditer(text) if not any(a.start <= m.start() < a.end for a in sets)]
        # The winner's verb before the loser's name, with a score in the sentence ("Manchester City
        # beat Arsenal 3-1" came back 曼城 beat 阿森纳3比1: the model kept "beat" in English).
        beaten = [Span(m.start(1), m.end(1), m.group(1), "phrase", "击败") for m in _BEAT.finditer(text)]
        return sorted(scores + (beaten if scores else []), key=lambda sp: sp.start)
    if base_language(src_lang) != "zh" or base_language(tgt_lang) != "en":
        return []
    mark = "-" if _CONTEST.search(text) else ":"
    spans = []
    for m in _SCORE.finditer(text):
        a, b = read_figure(m.group(1)), read_figure(m.group(2))
        if a is None or b is None:
            continue
        start, end, written = m.start(), m.end(), f"{a}{mark}{b}"
        if mark == "-" and (result := _RESULT.match(text, m.end())):
            # 上海海港主场2比1逆转山东泰山 came back "The Shanghai Port master 2-1 reverses Shandong Taishan":
            # the result (a comeback, a win, a loss, a draw), where it was played, and the other side after it.
            where = _VENUE.search(text, max(0, m.start() - 3), m.start())  # (matches, empty at least)
            assert where is not None
            venue = {"主场": " at home", "客场": " away", None: ""}[where.group(1)]
            verb = result.group(1)
            said = ("came from behind to win {score}{venue} against" if verb.startswith("逆转")
                    else _RESULT_WORDS.get(verb, "won {score}{venue} against"))
            start, end = where.start(), result.end()
            written = said.format(score=written, venue=venue)
        spans.append(Span(start, end, text[start:end], "number", written))
    for m in _RECORD.finditer(text):
        if (record := _record(m)) is not None:
            spans.append(Span(m.start(), m.end(), m.group(), "number", record))
    for m in _POINTS.finditer(text) if mark == "-" else ():
        n, start = m.group(2), m.start(1) if m.group(1) else m.start(2)
        spans.append(Span(start, m.end(), text[start:m.end()], "number", f"{n} point{'' if n == '1' else 's'}"))
    spans += [p for p in _player_stats(text) if not p.overlaps_any(spans)]
    spans += [p for p in _medals(text) if not p.overlaps_any(spans)]
    return sorted(spans, key=lambda sp: sp.start)


# A team's medals (中国队共获得3金2银1铜 came back "3 gold 2 silver 1 copper"): 3 gold, 2 silver and 1
# bronze medals; any two of them, or one with 枚 (获得2枚金牌 is the model's).
_COUNT = "[0-9０-９]{1,3}|[一二两三四五六七八九十]{1,3}"
_MEDALS = re.compile(f"(?:({_COUNT})枚?金)?(?:({_COUNT})枚?银)?(?:({_COUNT})枚?铜)?(?:牌)?")
_MEDAL_NAMES = ("gold", "silver", "bronze")


def _medals(text: str) -> list[Span]:
    spans = []
    for m in _MEDALS.finditer(text):
        counts = [(read_figure(g), name) for g, name in zip(m.groups(), _MEDAL_NAMES, strict=True) if g]
        if len(counts) < 2 or any(n is None for n, _ in counts):
            continue
        parts = [f"{n} {name}" for n, name in counts]
        spans.append(Span(m.start(), m.end(), m.group(), "number",
                          f"{', '.join(parts[:-1])} and {parts[-1]} medals"))
    return spans
