"""Chinese numerals read and written: ``二十一`` <-> 21, ``两万`` <-> 20000.

One place for what the direction-term modules need: numbered parts (doctrans.part_numbers:
``第二十一条``, ``Chapter One`` -> ``第一章``), number words both ways (doctrans.number_words:
``Ten years ago`` -> ``十年前``, ``一百六十多`` -> ``more than 160``) and months in numerals
(doctrans.dates: ``十一月``).
"""

from __future__ import annotations

from decimal import Decimal

_DIGITS = "零一二三四五六七八九"
_NONZERO = "一二三四五六七八九两"


def read_figure(text: str) -> int | None:
    """A count written in digits (``12``, ``１２``) or in a Chinese numeral (``十二``, ``两``); None
    when the numeral is malformed (:func:`read_numeral`)."""
    return int(text) if text.isdigit() else read_numeral(text)


def read_numeral(text: str) -> int | None:
    """``二十一`` -> 21, ``一百零五`` -> 105, ``十`` -> 10, ``三〇五`` -> 305; None when malformed."""
    digits = {c: i for i, c in enumerate(_DIGITS)} | {"〇": 0, "两": 2}
    if all(c in digits for c in text):  # digit by digit: 三〇五
        return int("".join(str(digits[c]) for c in text))
    total, current = 0, None
    for c in text.replace("零", "").replace("〇", ""):  # 一百零五: 零 only marks the empty tens
        if c in digits:
            if current is not None:
                return None  # two digits in a row inside a positional numeral
            current = digits[c]
        else:
            unit = {"十": 10, "百": 100, "千": 1000}.get(c)
            if unit is None:
                return None  # 万亿 split at 亿 leaves 万: no numeral of its own
            total += (1 if current is None else current) * unit
            current = None
    return total + (current or 0)


def read_large_numeral(numeral: str) -> int | None:
    """``一百六十`` -> 160, ``两万`` -> 20000, ``十五亿`` -> 1500000000, ``三万零五百`` -> 30500; None
    for what is no numeral (``三四十``) or reads two ways (``三万五``: 35,000 in speech)."""
    total, rest = 0, numeral
    for unit, scale in (("亿", 10**8), ("万", 10**4)):
        if unit in rest:
            head, rest = rest.split(unit, 1)
            value = read_numeral(head) if head else None
            if not value or value >= 10**4:
                return None
            total += value * scale
    if rest:
        if len(rest) == 1 and rest in _NONZERO and total:
            return None  # 三万五: colloquial 35,000 or 30,005
        value = read_numeral(rest.lstrip("零〇") or "零")
        if value is None:
            return None
        total += value
    return total


def write_numeral(n: int, lang: str = "zh") -> str:
    """1 <= ``n`` < 100,000,000 in Chinese numerals: 十, 二十五, 一百零五, 两千三百, 两万五千
    (Japanese: 二 for 两)."""
    two = "两" if lang == "zh" else "二"
    if n >= 10000:
        high, low = divmod(n, 10000)
        rest = "" if low == 0 else ("零" if low < 1000 else "") + write_numeral(low, lang)
        return (two if high == 2 else write_numeral(high, lang)) + "万" + rest
    out, zero = "", False
    for unit, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit, n = divmod(n, unit)
        if digit == 0:
            zero = bool(out)
            continue
        if zero:
            out, zero = out + "零", False
        if digit == 2 and unit in (100, 1000):
            out += two
        elif not (digit == 1 and unit == 10 and not out):  # 十五, not 一十五
            out += _DIGITS[digit]
        out += name
    return out


def count_numeral(n: int, lang: str = "zh") -> str:
    """``n`` as Chinese counts it before a measure word or a unit: 两 for two (两年前, 两公里, 两岁),
    else :func:`write_numeral`."""
    return "两" if n == 2 and lang == "zh" else write_numeral(n, lang)


def percent_in_words(value: Decimal) -> str:
    """0 <= ``value`` < 100,000,000 as a percentage in Chinese words: 百分之五, 百分之一点五,
    百分之二百 (a percentage reads 二, not 两), 百分之零点五."""
    whole, _, fraction = str(value).partition(".")
    numeral = write_numeral(int(whole)).replace("两", "二") if int(whole) else "零"
    decimals = "".join(_DIGITS[int(d)] for d in fraction.rstrip("0"))
    return "百分之" + numeral + (f"点{decimals}" if decimals else "")


# The capital numerals of money (大写: cheques, invoices, contracts), as the ordinary ones.
_CAPITALS = str.maketrans("壹贰叁肆伍陆柒捌玖拾佰仟萬億", "一二三四五六七八九十百千万亿")
CAPITAL_DIGITS = "零壹贰叁肆伍陆柒捌玖拾佰仟万萬亿億"


def read_capital_numeral(text: str) -> int | None:
    """``壹佰贰拾万`` -> 1200000, ``叁仟零伍`` -> 3005; None when malformed (money is never read
    digit by digit: ``叁肆``)."""
    plain = text.translate(_CAPITALS)
    if len(plain) > 1 and not any(c in "十百千万亿" for c in plain):
        return None
    return read_large_numeral(plain)


ENGLISH_NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                   "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def english_ordinal(n: int) -> str:
    """``n`` as an English ordinal in digits: 1st, 2nd, 3rd, 11th, 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def english_words(n: int) -> str:
    """0 <= ``n`` < 10**12 in English words, as an amount in a contract is written: 1200000 ->
    ``One Million Two Hundred Thousand``, 3005 -> ``Three Thousand and Five``."""
    def below_thousand(k: int) -> list[str]:
        words: list[str] = []
        hundreds, rest = divmod(k, 100)
        if hundreds:
            words += [ENGLISH_NUMBERS[hundreds], "hundred"]
        if rest < 20:
            words += [ENGLISH_NUMBERS[rest]] if rest else []
        else:
            words += [_TENS[rest // 10] + (f"-{ENGLISH_NUMBERS[rest % 10]}" if rest % 10 else "")]
        return words
    if n == 0:
        return "Zero"
    words: list[str] = []
    for scale, name in ((10**9, "billion"), (10**6, "million"), (10**3, "thousand"), (1, "")):
        part, n = divmod(n, scale)
        if part:
            if scale == 1 and words and part < 100:
                words.append("and")
            words += below_thousand(part) + ([name] if name else [])
    return " ".join("-".join(p.capitalize() for p in w.split("-")) if w != "and" else w for w in words)
