"""A year named from now (next year, last year) that a translation lost.

``明年`` and ``去年`` are dates a reader relies on as much as ``2027年``, but they are words, not
figures, so no span guards them, and the built-in models lost them: a price outlook's
``业内人士认为，明年物价将保持温和回升的态势`` came back "the price remains rebounded moderately
in the middle of the year" (next year had become mid-year). A hypothesis whose translation drops
such a year is flawed like a word spelt wrong (doctrans.engine.protect.Prepared._pick): the engine
keeps another of its n-best, or a wider search's, that says it. Only the years that cannot be
said another way without their word: ``今年`` is often "so far", "this", or a year's figure.

| source                           | translation                             | lost       |
|----------------------------------|-----------------------------------------|------------|
| 明年物价将温和回升               | Prices will rise in the middle of the year. | 明年   |
| 明年物价将温和回升               | Prices will rise moderately next year.  | (none)     |
| 去年冬天很冷                     | Last winter was cold.                   | (none)     |
| 去年的销量                       | Sales a year earlier.                   | (none)     |
| 他前年去了北京                   | He went to Beijing.                     | 前年       |
| Prices will rise next year.      | 物价将上涨。                            | next year  |
| Prices will rise next year.      | 来年物价将上涨。                        | (none)     |
| Sales fell last year.            | 去年销售下降。                          | (none)     |
| the last year of the war         | 战争的最后一年                          | (none)     |
"""

from __future__ import annotations

import re

from doctrans.language_id import base_language

# Chinese, and what its English says (any of them); 去年 as a season or a month's too ("last winter").
_INTO_ENGLISH = {
    "明年": re.compile(r"(?i)\bnext\s+(?:year|spring|summer|autumn|fall|winter|January|February|March|April|May|June"
                     r"|July|August|September|October|November|December)\b|\b(?:following|coming)\s+year\b"
                     r"|\bin\s+a\s+year\b|\b20[0-9]{2}\b"),
    "去年": re.compile(r"(?i)\blast\s+(?:year|spring|summer|autumn|fall|winter|January|February|March|April|May"
                     r"|June|July|August|September|October|November|December)\b|\b(?:previous|prior|past)\s+year\b"
                     r"|\ba\s+year\s+(?:earlier|ago|before)\b|\byear\s+before\b|\b(?:19|20)[0-9]{2}\b"),
    "前年": re.compile(r"(?i)\byear\s+before\s+last\b|\btwo\s+years\s+(?:ago|earlier)\b|\b(?:19|20)[0-9]{2}\b"),
    "后年": re.compile(r"(?i)\byear\s+after\s+next\b|\bin\s+two\s+years\b|\b20[0-9]{2}\b"),
}
# Not inside a longer word (过去年份, 大前年, 今后年度).
# Not inside a longer word (过去年份, 大前年, 今后年度), nor a year-on-year change's (比去年同期), which a
# span writes.
_CHINESE_WORD = re.compile(r"(?<![过大今])(明年|去年|前年|后年)(?![份度级]|同期)")
# English, and its Chinese; "last year" not as the last of some years ("the last year of the war").
_INTO_CHINESE = {
    "next year": re.compile(r"明年|来年|下一年|下一年度|次年|20[0-9]{2}年"),
    "last year": re.compile(r"去年|上年|上一年|前一年|(?:19|20)[0-9]{2}年|过去一年"),
}
_ENGLISH_WORD = re.compile(r"(?i)(?<![A-Za-z])(?<!the )(next year|last year)(?!\s+of\b)(?![A-Za-z])")


def lost_relative_years(source: str, translation: str, src_lang: str | None, tgt_lang: str | None) -> list[str]:
    """The years named from now of ``source`` that ``translation`` does not say (English <->
    Chinese only). Both as the model reads and writes them: a year inside a span is the span's."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if src == "zh" and tgt == "en":
        return [w for w in dict.fromkeys(_CHINESE_WORD.findall(source)) if not _INTO_ENGLISH[w].search(translation)]
    if src == "en" and tgt == "zh":
        words = dict.fromkeys(w.lower() for w in _ENGLISH_WORD.findall(source))
        return [w for w in words if not _INTO_CHINESE[w].search(translation)]
    return []
