"""Measures and times of day, written the target's way: ``15公里`` <-> ``15 km``, ``下午3点30分`` <->
``3:30 p.m.``.

doctrans.verbatim masks the digits and leaves the unit to the model, which lost it: ``全长15公里，
气温零下5摄氏度`` came back as ``In 15, 5, the relation of the primary``, ``15 km`` as ``15版本是 k``,
``下午3点30分`` as ``3 to start 30`` and ``3:30 p.m.`` as ``3:30`` (the afternoon gone). A measure
is a figure as much as its digits are, so each becomes one span whose target is the same value and
unit the target's way (masked, restored and checked like a glossary term):

| source            | into English    | into Chinese  |
|-------------------|-----------------|---------------|
| 15公里            | 15 km           | (as written)  |
| 十二公里          | 12 km           | (as written)  |
| 两千米            | 2,000 m         | (as written)  |
| 2.5千克           | 2.5 kg          | (as written)  |
| 零下5摄氏度       | -5 °C           | (as written)  |
| 30平方米          | 30 m²           | (as written)  |
| 下午3点30分       | 3:30 p.m.       | (as written)  |
| 上午9点           | 9 a.m.          | (as written)  |
| 晚上8点半         | 8:30 p.m.       | (as written)  |
| 下午三点半        | 3:30 p.m.       | (as written)  |
| 上午十点一刻      | 10:15 a.m.      | (as written)  |
| 十点过后          | after 10 o'clock | (as written) |
| 五点左右          | around 5 o'clock | (as written) |
| 十一点钟          | 11 o'clock      | (as written)  |
| 上午9时许         | around 9 a.m.   | (as written)  |
| 上午9:00至11:30   | 9:00 a.m. to 11:30 a.m. | (as written) |
| 早上8点前         | before 8 a.m.   | (as written)  |
| 上午9:00-13:00    | 9:00 a.m. to 1:00 p.m. | (as written) |
| 17时30分          | 5:30 p.m.       | (as written)  |
| 2日18时           | 6 p.m. on the 2nd | (as written) |
| 每小时24.6公里    | 24.6 km/h       | (as written)  |
| 造成12人死亡      | killed 12 people | (as written) |
| 其中重伤21人      | 21 of them seriously | (as written) |
| 6.1级地震         | a magnitude-6.1 earthquake | (as written) |
| 风力达12级        | winds of force 12 | (as written) |
| magnitude of 6.1  | (as written)    | 6.1级         |
| 15 km             | (as written)    | 15公里        |
| three kilometres  | (as written)    | 三公里        |
| minus five degrees | (as written)   | 零下五度      |
| 6 inches          | (as written)    | 6英寸         |
| 80 mph            | (as written)    | 80英里/小时   |
| 3英亩             | 3 acres         | (as written)  |
| 1英里             | 1 mile          | (as written)  |
| 70 kilograms      | (as written)    | 70公斤        |
| -5 °C             | (as written)    | 零下5摄氏度   |
| 100 m²            | (as written)    | 100平方米     |
| 3:30 p.m.         | (as written)    | 下午3点30分   |
| 9 am              | (as written)    | 上午9点       |
| 54-year-old       | (as written)    | 54岁          |
| 7 years old       | (as written)    | 7岁           |
| -20 °C to 60 °C   | (as written)    | 零下20摄氏度至60摄氏度 |
| minus 5 to 3 degrees Celsius | (as written) | 零下5摄氏度至3摄氏度 |
| minus 5 °C        | (as written)    | 零下5摄氏度   |
| 零下5度           | minus 5 degrees | (as written)  |
| 零下五度          | minus 5 degrees | (as written)  |
| 120 x 80 x 45 mm  | (as written)    | 120×80×45毫米 |
| 120×80×45毫米     | 120×80×45 mm    | (as written)  |
| 30日内            | within 30 days  | (as written)  |
| 24小时            | 24 hours        | (as written)  |
| 4个多小时         | more than 4 hours | (as written) |
| 20多年            | more than 20 years | (as written) |
| 1个多月           | more than a month | (as written) |
| 3个工作日         | 3 working days  | (as written)  |
| 1个月             | 1 month         | (as written)  |
| 2年               | 2 years         | (as written)  |
| 72 hours          | (as written)    | 72小时        |
| 12 months         | (as written)    | 12个月        |
| 5 business days   | (as written)    | 5个工作日     |
| 10-minute         | (as written)    | 10分钟        |
| 30 minutes a day  | (as written)    | 每天30分钟    |
| five days a week  | (as written)    | 每周五天      |
| 8 hours per day   | (as written)    | 每天8小时     |
| 9 to 11 hours a day | (as written)  | 每天9至11小时 |
| 96 times a day    | (as written)    | 每天96次      |
| Leave at least 4 hours between doses | (as written) | 两次服药之间至少间隔4小时 |
| once every ten minutes | (as written) | 每十分钟一次 |
| twice every 6 months | (as written) | 每6个月两次 |
| 2 GB              | (as written)    | (as written)  |
| 3.2GHz            | (as written)    | (as written)  |
| 100 Mbps          | (as written)    | (as written)  |
| 1 Gbit/s          | (as written)    | (as written)  |
| 20 kB/s           | (as written)    | (as written)  |
| 300s              | (as written)    | (as written)  |
| 2min              | (as written)    | (as written)  |
| 24h               | (as written)    | (as written)  |

Symbols that both languages write alike (storage, frequencies, rates, screen and battery units) are
one span with the figure, as written: the figure and the symbol were two spans, and the en→zh model
put a word between them (``at least 2 GB of free disk space`` came back ``至少2的GB``). Only
unambiguous units: ``t`` (tonnes or time), ``g`` in capitals (``5G``), ``m`` without a space when a
currency sign comes before (``$5m`` is money: doctrans.currency), bare ``N点`` (a point, or o'clock)
and ``N日`` without ``内`` after it (the 30th, or 30 days) are left to the model; 24-hour times
(``15:30``) are figures the verbatim rules keep. A figure with a magnitude word and a unit is one
measure (:func:`find_large_measures`, before doctrans.magnitudes takes the figure alone):
``13.55万吨`` -> ``135,500 t``, ``5 million tonnes`` -> ``500万吨``. Ages into Chinese: ``a 54-year-old``,
and a person's age after their name as news writes it (``Maria Rossi, 67, who``) -> ``67岁``.
Degrees below zero without a scale, in a sentence about the weather or a temperature, keep their
sign into Chinese (``Temperatures will drop to minus 10 degrees overnight`` came back ``温度会降到10度``:
-> ``零下10度``); a ``-3 degree angle`` is left alone.
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

from doctrans.chinese_numerals import (
    ENGLISH_NUMBERS,
    count_numeral,
    english_ordinal,
    english_words,
    read_figure,
    read_numeral,
    write_numeral,
)
from doctrans.dates import DAYS_COUNTED_AFTER, WEEKDAYS, YEAR_WORD_NEXT, weekday_in_chinese
from doctrans.language_id import base_language
from doctrans.magnitudes import (
    FIGURE_START,
    NUMBER,
    POWERS,
    SCALE_WORDS,
    ascii_digits,
    decimal_value,
    english,
    grouped_digits,
    in_wan,
)
from doctrans.number_words import NUMBER_WORDS, value_of
from doctrans.qualifiers import qualified_in_english
from doctrans.verbatim import Span

# English unit (as matched, lower-cased) -> Chinese; Chinese -> English symbol.
_INTO_CHINESE = {
    "km": "公里", "kilometres": "公里", "kilometers": "公里", "kilometre": "公里", "kilometer": "公里",
    "m": "米", "metres": "米", "meters": "米", "metre": "米", "meter": "米",
    "cm": "厘米", "centimetres": "厘米", "centimeters": "厘米", "centimetre": "厘米", "centimeter": "厘米",
    "mm": "毫米", "millimetres": "毫米", "millimeters": "毫米", "millimetre": "毫米", "millimeter": "毫米",
    # A purifier's filter (particles as small as 0.3 microns was copied into Chinese, unit and all).
    "microns": "微米", "micron": "微米", "micrometres": "微米", "micrometers": "微米", "micrometre": "微米",
    "micrometer": "微米",
    "kg": "公斤", "kilograms": "公斤", "kilogram": "公斤", "g": "克", "grams": "克", "gram": "克",
    "mg": "毫克", "tonnes": "吨", "tonne": "吨", "l": "升", "litres": "升", "liters": "升", "litre": "升",
    "liter": "升", "ml": "毫升",
    "m²": "平方米", "m2": "平方米", "square metres": "平方米", "square meters": "平方米", "square metre": "平方米",
    "square meter": "平方米",
    "km²": "平方公里", "km2": "平方公里", "square kilometres": "平方公里", "square kilometers": "平方公里",
    "°c": "摄氏度", "degrees celsius": "摄氏度", "°f": "华氏度", "degrees fahrenheit": "华氏度",
    "km/h": "公里/小时", "kwh": "千瓦时", "kw": "千瓦", "mw": "兆瓦",
    # Imperial and US units (news and reports from the US and the UK): the model wrote ``6 inches``
    # as ``6中`` and lost ``80 mph`` and ``3 acres``.
    "inches": "英寸", "inch": "英寸", "feet": "英尺", "foot": "英尺", "ft": "英尺", "yards": "码", "yard": "码",
    "miles": "英里", "mile": "英里", "mph": "英里/小时", "miles per hour": "英里/小时", "acres": "英亩",
    "acre": "英亩", "square feet": "平方英尺", "square foot": "平方英尺", "sq ft": "平方英尺",
    "square miles": "平方英里", "square mile": "平方英里", "hectares": "公顷", "hectare": "公顷", "lb": "磅",
    "lbs": "磅", "ounces": "盎司", "ounce": "盎司", "oz": "盎司", "gallons": "加仑", "gallon": "加仑",
    # Sizes spelt out, written with their symbol (a man page's "10 megabytes per second" came back
    # 每秒10 megabytes).
    "kilobytes": "KB", "kilobyte": "KB", "megabytes": "MB", "megabyte": "MB", "gigabytes": "GB", "gigabyte": "GB",
    "terabytes": "TB", "terabyte": "TB",
    # A chip's process ("a 3-nanometre process" came back with its unit in English).
    "nanometres": "纳米", "nanometre": "纳米", "nanometers": "纳米", "nanometer": "纳米",
    # Energy and power spelt out, as a utility's or a battery maker's report writes them ("1,250
    # megawatt-hours of storage" came back 1,250辅助工具, "auxiliary tools").
    "kilowatt-hours": "千瓦时", "kilowatt hours": "千瓦时", "kilowatt-hour": "千瓦时", "kilowatt hour": "千瓦时",
    "megawatt-hours": "兆瓦时", "megawatt hours": "兆瓦时", "megawatt-hour": "兆瓦时", "megawatt hour": "兆瓦时",
    "mwh": "兆瓦时", "gigawatt-hours": "吉瓦时", "gigawatt hours": "吉瓦时", "gigawatt-hour": "吉瓦时",
    "gigawatt hour": "吉瓦时", "gwh": "吉瓦时", "terawatt-hours": "太瓦时", "terawatt hours": "太瓦时", "twh": "太瓦时",
    "kilowatts": "千瓦", "kilowatt": "千瓦", "megawatts": "兆瓦", "megawatt": "兆瓦", "gigawatts": "吉瓦",
    "gigawatt": "吉瓦", "gw": "吉瓦",
    # A planet's distance ("a planet 120 light-years from Earth" came back 120年, 120 years).
    "light-years": "光年", "light-year": "光年", "light years": "光年", "light year": "光年",
    # A central bank's basis points ("rose 12 basis points" came back 12基点, its count word gone).
    "basis points": "个基点", "basis point": "个基点", "bps": "个基点",
    # A recipe's and a kettle manual's spoons ("2 tablespoons of white vinegar" came back 2英尺, two feet).
    "tablespoons": "汤匙", "tablespoon": "汤匙", "tbsp": "汤匙", "teaspoons": "茶匙", "teaspoon": "茶匙",
    "tsp": "茶匙",
    # A water quality report's concentrations ("below 5 micrograms per litre" came back 低于5微粒度, "0.6
    # milligrams per litre" 0.6毫米粒度: millimetres) and the air's (PM2.5 in micrograms per cubic metre).
    "milligrams per litre": "毫克/升", "milligrams per liter": "毫克/升", "mg/l": "毫克/升",
    "micrograms per litre": "微克/升", "micrograms per liter": "微克/升", "µg/l": "微克/升",
    "micrograms per cubic metre": "微克/立方米", "micrograms per cubic meter": "微克/立方米", "µg/m³": "微克/立方米",
    "µg/m3": "微克/立方米", "milligrams": "毫克", "milligram": "毫克", "micrograms": "微克", "microgram": "微克",
    "µg": "微克",
    # A water authority's volumes ("184.6 million cubic metres" came back 1.846亿 cubic metal, "612
    # megalitres a day" 612补偿, "compensation").
    "cubic metres": "立方米", "cubic meters": "立方米", "cubic metre": "立方米", "cubic meter": "立方米",
    "m³": "立方米", "cubic feet": "立方英尺", "cubic foot": "立方英尺",
    "megalitres": "兆升", "megaliters": "兆升", "megalitre": "兆升", "megaliter": "兆升",
    "millilitres": "毫升", "milliliters": "毫升", "millilitre": "毫升", "milliliter": "毫升",
    "barrels": "桶", "barrel": "桶",
    # A paper's methods ("centrifuged … for 10 min at 4 °C" came back 10 min at, the minutes in English):
    # after a space only (_SPACED_ONLY).
    "min": "分钟", "mins": "分钟", "hr": "小时", "hrs": "小时", "sec": "秒", "secs": "秒",
}
_SPACED_ONLY = frozenset({"min", "mins", "hr", "hrs", "sec", "secs"})
_OUT_OF_CHINESE = {
    "公里": "km", "千米": "km", "米": "m", "厘米": "cm", "毫米": "mm", "公斤": "kg", "千克": "kg", "克": "g",
    "毫克": "mg", "吨": "t", "升": "L", "毫升": "ml", "平方米": "m²", "平方公里": "km²", "摄氏度": "°C",
    "华氏度": "°F", "℃": "°C", "℉": "°F", "千瓦时": "kWh", "千瓦": "kW", "兆瓦": "MW",
    "英寸": "inches", "英尺": "feet", "英里/小时": "mph", "英里": "miles", "英亩": "acres", "平方英尺": "square feet",
    "平方英里": "square miles", "公顷": "hectares", "磅": "pounds", "盎司": "ounces", "加仑": "gallons",
    # A statistics release's grain in 斤 (全年粮食产量13908亿斤 left 斤 to the model), as its English
    # edition writes it.
    "斤": "jin", "纳米": "nm", "微米": "μm",
    # Energy (a grid's 兆瓦时, a battery plant's 吉瓦时) and a recipe's spoons (生抽2汤匙 came back "2 soup
    # spoons", 1茶匙 "1 uppoon").
    "个基点": "basis points", "基点": "basis points",
    # A vaccination campaign's doses (接种新冠疫苗34.5亿剂次 came back "3.45 billion", the doses gone).
    "剂次": "doses",
    # A phone's battery and charger (电池容量为5600毫安时 came back "5600 milligrating", 66瓦快充 "66";
    # 瓦 is a tile too: not before 片房斯砾特, 瓦斯 is gas, 瓦特 spelt out).
    "光年": "light-years", "毫安时": "mAh", "瓦": "W",
    "兆瓦时": "MWh", "吉瓦时": "GWh", "太瓦时": "TWh", "吉瓦": "GW", "汤匙": "tablespoons", "茶匙": "teaspoons",
    # ... and a home cook's (番茄炒蛋's 白糖 1小勺 came back "1 thumbs", 1大勺油 "1 big oil").
    "大勺": "tablespoons", "小勺": "teaspoons", "大匙": "tablespoons", "小匙": "teaspoons", "汤勺": "tablespoons",
    # Person-times, as a museum's or a railway's count of visits (接待游客1712.3万人次 came back "17.123
    # million people", 超过1700万人次 "more than 17 million times for the military").
    "人次": "visits",
    # ... and a road's count of vehicles (高速公路累计通行车辆达到486万辆次 came back "the weekday").
    "辆次": "vehicle trips",
    # Concentrations (a city's air: PM2.5浓度为35微克/立方米; its water: 铅含量低于5微克/升).
    "微克/立方米": "µg/m³", "毫克/升": "mg/L", "微克/升": "µg/L", "微克": "µg",
    # An air purifier's rates and noise (颗粒物500立方米/小时 came back "A 500 central-hour", 噪音：≤64分贝
    # "Noise: ≤64", the decibels lost).
    "立方米/小时": "m³/h", "立方米/分钟": "m³/min", "立方米": "m³", "分贝": "dB", "升/分钟": "L/min",
    "千米/小时": "km/h", "公里/小时": "km/h", "米/秒": "m/s",
    # A health page's blood pressure and blood sugar (140/90毫米汞柱 came back "140/90 milliseconds").
    "毫米汞柱": "mmHg", "毫摩尔/升": "mmol/L",
    # A project's land (占地面积约150亩 came back "about 150 tunnel"), as China Daily writes it.
    "亩": "mu",
    # An appliance manual's supply (请确认电源电压为220伏 came back "power is 220", the volts lost) and
    # its frequencies; 安 alone is no unit here (安装, 平安).
    "伏": "V", "伏特": "V", "千伏": "kV", "毫安": "mA", "安培": "A", "赫兹": "Hz", "千赫": "kHz",
    "兆赫": "MHz", "千兆赫": "GHz", "吉赫": "GHz", "毫瓦": "mW",
}
# An English unit written as a word is singular after 1 (``1 mile``, ``1 square foot``).
_SINGULAR = {"inches": "inch", "feet": "foot", "miles": "mile", "acres": "acre", "square feet": "square foot",
             "square miles": "square mile", "hectares": "hectare", "pounds": "pound", "ounces": "ounce",
             "gallons": "gallon", "tablespoons": "tablespoon", "teaspoons": "teaspoon",
             "basis points": "basis point"}
_ENGLISH_RANGE_SEP = re.compile(r"\s+(?:to|and)\s+|\s?[–—~]\s?")
_ENGLISH_UNIT = "|".join(sorted((re.escape(u) for u in _INTO_CHINESE), key=len, reverse=True))
# Dimensions with × or "by" ("measures 9.7 by 6.8 inches" came back 以6.8英寸测量9.7, the first gone).
_ENGLISH_MEASURE = re.compile(rf"(?<![0-9A-Za-z_.,$€£¥])(-|−|minus )?"
                              rf"({NUMBER}(?:(?:[ \u00a0]?[×xX][ \u00a0]?|[ \u00a0]by[ \u00a0]){NUMBER})*)"
                              rf"[ \u00a0]?({_ENGLISH_UNIT})"
                              r"(?![0-9A-Za-z_²³/])", re.IGNORECASE)
# Chinese units: not followed by a Han character that makes another word (米饭 is rice, 克服 overcome).
_CHINESE_UNIT = "|".join(sorted(_OUT_OF_CHINESE, key=len, reverse=True))
# A product's dimensions are one figure before their unit (120×80×45毫米 -> 120×80×45 mm), and so is a
# blood pressure's two (140/90毫米汞柱).
_DIMENSIONS = rf"{NUMBER}(?:\s?×\s?{NUMBER})*(?:/{NUMBER})?"
# A minus sign, not a range's dash after a figure or its unit (40℃-100℃ came back 40 °C and -100 °C).
_CHINESE_MEASURE = re.compile(rf"(零下|(?<![0-9０-９A-Za-z℃℉%°])[-−])?{FIGURE_START}({_DIMENSIONS})\s?({_CHINESE_UNIT})"
                              r"(?![饭粒服隆拉格斤里片房斯砾特])")
# The same measure with its figure in Chinese numerals (a story's ``工厂离家有十二公里`` came back
# "12 miles", ``他跑了三公里`` "three miles": the numeral was a figure, the unit the model's). Not a
# numeral read digit by digit (``三四公里`` is three or four), an ordinal (``第三公里``), a height
# (``一米八``: 1.8 m), half more (``一公里半``) or 一 inside a word (``统一米价``); 升 after a
# numeral is as often "rise" (一升一降), 斤 an idiom's (四两拨千斤) or a jack's (千斤顶).
_NUMERAL_UNIT = "|".join(u for u in sorted(_OUT_OF_CHINESE, key=len, reverse=True)
                         if u not in ("升", "斤", "人次", "瓦", "伏", "千伏"))  # 一片瓦 is a tile, 三伏天 the dog days
_NUMERAL_MEASURE = re.compile(r"(零下)?(?<![零〇一二两三四五六七八九十百千万亿几第每])(?<![统唯同单均专之])"
                              r"([零〇一二两三四五六七八九十百千]+)(多|余)?"
                              rf"({_NUMERAL_UNIT})(?![饭粒服隆拉格斤里半零〇一二两三四五六七八九十])")
# A speed in kilometres: 时速 (an hour's speed) right before the figure, or with 约, 达, 为 or 高达 between.
_SPEED_BEFORE = re.compile(r"时速(?:约|达|为|高达|可达|最高|超过)?$")
_PER_HOUR_BEFORE = re.compile(r"每(?:个)?小时\s?$")
# Half a spoon, as a recipe measures its salt (盐 半小勺 came back "salt, half-stand").
_HALF_SPOON = re.compile(r"(?<![一两三四五六七八九十0-9])半(大勺|小勺|大匙|小匙|汤勺|汤匙|茶匙)")
# Below zero in degrees without a scale (a weather report's 零下5度): the sign is the figure's
# ("气温将在零下5度到3度之间" came back "between zero 5 and 3 degrees"). 度 alone is left to the
# model (an angle, a degree of something); after 零下 it is a temperature.
_BELOW_ZERO_DEGREES = re.compile(rf"零下(?:{FIGURE_START}({NUMBER})|([零〇一二两三四五六七八九十]+))\s?度"
                                 r"(?![假数量过日])")
# Into Chinese, a signed figure of degrees without a scale ("Temperatures will drop to minus 10
# degrees overnight" came back 温度会降到10度: the minus, a sign of the figure, had gone).
_SIGNED_DEGREES = re.compile(rf"(?<![0-9A-Za-z_.,-])(?:minus |-|−)({NUMBER})[ \u00a0]?degrees?\b"
                             r"(?!\s*(?:Celsius|Fahrenheit|C|F)\b)", re.IGNORECASE)
# ... where the sentence speaks of the weather or a temperature (a -3 degree angle is an angle).
_WEATHER = re.compile(r"\b(?:temperatures?|cold(?:er|est)?|warm(?:er|est)?|lows?|highs?|freez\w*|frost\w*|weather|"
                      r"overnight|chill\w*|thermometer|winter|snow\w*)\b", re.IGNORECASE)
# A measure with its figure in words ("He ran three kilometres" came back 跑了三个基因, three genes;
# "It was minus five degrees outside" 五个学位, five academic degrees): the figure as a Chinese
# numeral with its unit. Units spelt out only (``one m`` is no measure), never feet (``on two
# feet``); degrees without a scale only after "minus" (a temperature: "turned ninety degrees" is
# the model's).
_WORD_UNITS = sorted((u for u in _INTO_CHINESE if re.fullmatch(r"[a-z ]{4,}", u) and "f" not in u[:2]
                      and not _INTO_CHINESE[u].isascii()), key=len, reverse=True)
_WORDS_MEASURE = re.compile(rf"(?<![\w'’-])(minus )?({NUMBER_WORDS})[ \u00a0-]({'|'.join(_WORD_UNITS)}|degrees?)"
                            r"(?![\w'’²/-])", re.IGNORECASE)
# A duration in words after a qualifier ("no more than four hours per month" came back without its
# four hours, "at least forty-eight hours' notice" 四十八客户小时): the figure as a Chinese numeral
# with the unit (doctrans.qualifiers joins them). Alone it is the model's, its numeral from ten a
# figure of doctrans.number_words: as one span it went where the model puts figures (TVsub dev:
# "hasn't been locked in five years" came back 没有被锁在五年, where it had written 五年没被锁了; a
# story's "had known Peter for twenty-two years" 二十二年他认识彼得). Not one ("one day" is a day in
# a story), a time ago or an age (doctrans.number_words has those).
_WORDS_DURATION = re.compile(rf"(?<![\w'’-])({NUMBER_WORDS})[ \u00a0-](working day|business day|hour|minute|second"
                             r"|day|week|month|year)(s?)(['’](?=\s))?(?![\w'’-]|\s+(?:ago|old)\b)", re.IGNORECASE)
# A measure as a compound adjective, its unit spelt out after a hyphen (a charity's "a 10,000-litre
# tank" came back 10,000铲酮, "a 5-kilometre walk" kept its unit in English).
_HYPHEN_MEASURE = re.compile(rf"(?<![0-9A-Za-z_.,$€£¥-])({NUMBER})-("
                             + "|".join(sorted((u for u in _INTO_CHINESE if re.fullmatch(r"[a-z]{4,}", u)),
                                               key=len, reverse=True)) + r")(?![\w-])", re.IGNORECASE)
# The first figure of an English range whose unit comes once, after the second ("from minus 5 to
# 3 degrees Celsius" came back 从5到3摄氏度, the minus gone; a forecast's "highs of 8 to 10°C"
# 8的高于10摄氏度, the range broken).
_UNITLESS_LOW = re.compile(rf"(?<![0-9A-Za-z_.,$€£¥-])(-|−|minus )?({NUMBER})(\s+(?:to|and)\s+|\s?[–—~]\s?|-)$",
                           re.IGNORECASE)
# ... not where a change goes from the first figure to the second ("rose from 8 to 10°C" is 从8摄氏度
# 升至10摄氏度, no range).
_CHANGE_FROM = re.compile(r"\b(?:rose|rise[sn]?|rising|fell|fall(?:s|ing|en)?|increas\w*|decreas\w*|drop\w*"
                          r"|climb\w*|jump\w*|grew|grow\w*|rais\w*|lower\w*|cut|cuts|cutting|reduc\w*|chang\w*"
                          r"|mov\w*|went|go(?:es|ing)?|extend\w*|shrank|shrunk|expand\w*)\b(?:\s+\S+){0,3}\s+from\s+$",
                          re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)


def _range_low(text: str, end: int) -> re.Match[str] | None:
    """The first figure of a range whose unit comes once, right before ``end`` (where the second
    figure starts), or None: not a change's start ("rose from 8 to 10°C"), and "A and B" only
    after "between" ("5 and 10 kg" are two figures)."""
    first = _UNITLESS_LOW.search(text, 0, end)
    if first is None or _CHANGE_FROM.search(text, 0, first.start()):
        return None
    if first.group(3).strip().lower() == "and" and not _BETWEEN.search(text, 0, first.start()):
        return None
    return first

# Written alike in English and Chinese, case as here (``MB`` megabytes, ``Mb`` megabits).
_SAME_SYMBOLS = ("KB", "kB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "Kb", "Mb", "Gb", "bps", "kbps",
                 "Kbps", "Mbps", "Gbps", "KB/s", "MB/s", "GB/s", "Hz",
                 # data rates with /s (an install guide's "on a 1 Gbit/s link" kept the 1 alone; "20 kB/s"
                 # was a figure and a code)
                 "kB/s", "KiB/s", "MiB/s", "GiB/s", "TB/s", "kbit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s",
                 "Mb/s", "Gb/s", "kHz", "MHz", "GHz", "ms", "µs", "μs", "ns",
                 "px", "dpi", "ppi", "mAh", "rpm", "fps", "kV", "mV", "mA", "nm", "TFLOPS", "W", "mW", "V", "Wh",
                 # flow rates, as a purifier's or a pump's sheet writes them (CADR值：500m³/h came back
                 # 500m3/h, the superscript read through NFKC)
                 "m³/h", "m³/min", "m³/s", "L/min", "L/h",
                 # a clinical record's (a discharge summary's 血压135/82mmHg came back 135/82mmmHg)
                 "mmHg", "mmol/L", "mg/dL", "g/L", "mg/kg")
_SYMBOL_MEASURE = re.compile(rf"(?<![0-9A-Za-z_.,$€£¥])({NUMBER})[ \u00a0]?"
                             rf"({'|'.join(sorted(map(re.escape, _SAME_SYMBOLS), key=len, reverse=True))})"
                             r"(?![0-9A-Za-z_²/])")
# Seconds, minutes and hours written on the figure (a configuration's ``between 5s and 300s``, a
# log's ``took 2min``, ``24h``): the figure alone was masked and the model dropped the letter (``5和300之
# 间``). Written alike in Chinese technical text. ``s`` after a figure ending in 0 is a decade when
# the figure has four digits or comes after "the", a possessive or early/mid/late (the 1990s, in her
# 30s): not a time. Hours, minutes and seconds together are one span (a manual's ``at 12h 00m
# 01.12s``: its ``00m`` had come back 00米, metres).
_TIME_SYMBOL = re.compile(rf"(?<![0-9A-Za-z_.,$€£¥'’-])({NUMBER})(s|min|h)"
                          r"((?:[ \u00a0]?[0-9]+(?:\.[0-9]+)?(?:min|m|s))*)(?![0-9A-Za-z_²/'’-])")
_DECADE_BEFORE = re.compile(r"(?:\b(?:the|his|her|their|its|our|my|your|early|late)\s+|mid-)$", re.IGNORECASE)

# Durations (a contract's ``30日内`` came back ``30 app``, a manual's ``24 hours`` is a measure too):
# Chinese unit -> English word, singular; 日 only before 内 (30日 alone may be the 30th).
_CHINESE_DURATIONS = {"个小时": "hour", "小时": "hour", "分钟": "minute", "秒钟": "second", "天": "day",
                      "个星期": "week", "星期": "week", "周": "week", "个月": "month", "个工作日": "working day",
                      "工作日": "working day", "日": "day", "年": "year"}
_CHINESE_DURATION = re.compile(
    rf"(?<!第){FIGURE_START}({NUMBER})\s?(个小时|小时|分钟|秒钟|天(?![然空气津])|个星期|星期(?![一二三四五六日天])|周(?![年岁一二三四五六日末])"
    r"|个月|个工作日|工作日|日(?=以?内)|(?<![0-9０-９][0-9０-９][0-9０-９])(?<=[0-9０-９])年(?![级代度底初末中间份]))(以内|内)?")
# ... and more than a figure of them (乘坐高铁从北京到上海只需4个多小时 came back "just a 4-hour", 多 lost;
# 20多年 "20 years"): more than 4 hours, more than 20 years.
_MORE_DURATION = re.compile(rf"(?<!第){FIGURE_START}({NUMBER})\s?(?:个多(小时|月|星期)|多个(小时|月|星期)"
                            r"|多(天|分钟|周(?![年岁一二三四五六日末])|年(?![级代度底初末中间份前后])))")
_MORE_UNITS = {"小时": "hour", "月": "month", "星期": "week", "天": "day", "分钟": "minute", "周": "week", "年": "year"}
# ... and in Chinese numerals before 内 (a judgment's 自本判决生效之日起十日内 and 十五日内提起上诉 were dropped
# or came back "in day 15"): within 10 days; only with 内, where the numeral can be no name or date.
_NUMERAL_DURATION = re.compile(r"(?<![第一二三四五六七八九十百千万两几])([一二三四五六七八九十两]{1,3})"
                               r"(个工作日|个小时|小时|个月|个星期|天|日|周)(以内|内)")
# ... and 日 after a word that counts time (a contract's 应提前30日书面通知, 逾期15日: doctrans.dates).
_COUNTED_DAYS = re.compile(rf"(?:{'|'.join(DAYS_COUNTED_AFTER)})([0-9０-９]{{1,3}})日(?!以?内)")
_ENGLISH_DURATIONS = {"hour": "小时", "minute": "分钟", "second": "秒", "day": "天", "week": "周", "month": "个月",
                      "year": "年", "working day": "个工作日", "business day": "个工作日"}
_ENGLISH_DURATION = re.compile(rf"(?<![0-9A-Za-z_.,$€£¥])({NUMBER})[ \u00a0-]"
                               # (a policy's "unoccupied for more than 60 consecutive days" came back 60连续的日子)
                               r"(?:(consecutive|straight|calendar)[ \u00a0])?"
                               r"(working day|business day|hour|minute|second|day|week|month|year)s?"
                               r"(?![A-Za-z0-9_-]|[ \u00a0](?:old|of[ \u00a0]age)\b)", re.IGNORECASE)
# A duration per period, as a study's or a notice's schedule gives it (a walking trial's "30 minutes a
# day, five days a week" came back 一天30分钟天走，一周五天 and 星期五, Friday): 每天30分钟, 每周五天.
_RATE_DURATION = re.compile(rf"(?<![\w'’.,$€£¥-])(?:([0-9]{{1,3}}(?:\.[0-9])?)(?:[ \u00a0]to[ \u00a0]|\s?[–-]\s?))?"
                            rf"({NUMBER}|{NUMBER_WORDS})[ \u00a0-](hour|minute|second|day|week|month)s?"
                            r"[ \u00a0](?:a|an|per|each|every)[ \u00a0](day|week|month|year)(?![\w'’-])", re.IGNORECASE)
# ... and how often in figures, or once in every so long (a talk's "checks their phone 96 times a day,
# roughly once every ten minutes" came back 每次十分钟): 每天96次, 每十分钟一次.
_FIGURE_TIMES = re.compile(r"(?<![\w'’.,$€£¥-])([0-9]{1,3}(?:,[0-9]{3})*)[ \u00a0]times[ \u00a0](?:a|an|per|each)"
                           r"[ \u00a0](hour|day|week|month|year)(?![\w'’-])", re.IGNORECASE)
_ONCE_EVERY = re.compile(rf"(?<![\w'’-])(once|twice|(?:[0-9]{{1,2}}|{NUMBER_WORDS})[ \u00a0]times)[ \u00a0]every"
                         rf"[ \u00a0](?:({NUMBER}|{NUMBER_WORDS})[ \u00a0-])?(second|minute|hour|day|week|month|year)s?"
                         r"(?![\w'’-])", re.IGNORECASE)


# A leaflet's interval between doses ("Leave at least 4 hours between doses" came back 离开至少4小时点, to
# depart): 两次服药之间至少间隔4小时.
_BETWEEN_DOSES = re.compile(rf"(?<![\w'’-])(?:[Ll]eave|[Aa]llow|[Ww]ait)[ \u00a0](?:(at[ \u00a0]least|no[ \u00a0]less"
                            rf"[ \u00a0]than)[ \u00a0])?({NUMBER}|{NUMBER_WORDS})[ \u00a0](hour|minute|day)s?"
                            r"[ \u00a0]between[ \u00a0](?:doses|each[ \u00a0]dose|taking[ \u00a0]them)(?![\w-])")


def _count_of(words: str) -> str | None:
    if words[0].isdigit():
        return words
    value = value_of(words)
    return count_numeral(value) if value > 0 else None


def _rate_durations(text: str) -> list[Span]:
    spans = []
    for m in _BETWEEN_DOSES.finditer(text):
        if (count := _count_of(m.group(2))) is not None:
            bound = "至少" if m.group(1) else ""
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"两次服药之间{bound}间隔{count}{_ENGLISH_DURATIONS[m.group(3).lower()]}"))
    for m in _FIGURE_TIMES.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(0), "number",
                          f"每{_ENGLISH_DURATIONS[m.group(2).lower()].removeprefix('个')}{m.group(1)}次"))
    for m in _ONCE_EVERY.finditer(text):
        times = m.group(1).lower()
        count = "一" if times == "once" else "两" if times == "twice" else _count_of(times.split()[0])
        every = _count_of(m.group(2)) if m.group(2) else ""
        if count is None or every is None:
            continue
        period = _ENGLISH_DURATIONS[m.group(3).lower()]
        if not every:
            period = period.removeprefix("个")
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"每{every}{period}{count}次"))
    for m in _RATE_DURATION.finditer(text):
        low, figure, unit, period = m.group(1), m.group(2), m.group(3).lower(), m.group(4).lower()
        if unit == period or (low and not figure[0].isdigit()):
            continue
        if (written := _count_of(figure)) is None:
            continue
        written = f"{low}至{written}" if low else written  # 9 to 11 hours a day: 每天9至11小时
        spans.append(Span(m.start(), m.end(), m.group(0), "number",
                          f"每{_ENGLISH_DURATIONS[period].removeprefix('个')}{written}{_ENGLISH_DURATIONS[unit]}"))
    return spans


# Before or after the time (a travel guide's 建议早上8点前出发 came back "to send out 8 a.m.", the
# "before" gone): the span holds the word, as a bare clock's does (doctrans.units._BARE_CLOCK_WORDS).
_BARE_RELATIONS = "过后|以后|之后|之前|前(?![往进来去行])|左右"  # not 9点前往机场, to head for it at 9
_RELATIONS = f"{_BARE_RELATIONS}|以前"
_PERIODS = {"上午": "a.m.", "早上": "a.m.", "早晨": "a.m.", "凌晨": "a.m.", "中午": "p.m.", "下午": "p.m.",
            "晚上": "p.m.", "傍晚": "p.m.", "夜里": "p.m."}
# Hours and minutes in digits or Chinese numerals (下午三点半 came back "It's a halfway").
# News writes 时 for 点 and 许 for "about" (``5日上午9时许`` came back "on the 5th at 9").
# ... and a clock's digits after the part of the day (新机将于12月1日上午10:08开售 came back "on 10:08").
# ... and the time a range ends at, in the same part of the day or the 24-hour clock (a school's
# 上午9:00至11:30举行 came back "9:00 a.m. to 11:30 P.", the end's hour read as no time).
_CHINESE_CLOCK_TIME = re.compile(rf"({'|'.join(_PERIODS)})\s?([0-9]{{1,2}})[:：]([0-5][0-9])(?![0-9])"
                                 r"(?:\s?(?:至|到|-|–|—|~|～)\s?([0-9]{1,2})[:：]([0-5][0-9])(?![0-9]))?"
                                 rf"({_RELATIONS})?")
_CHINESE_TIME = re.compile(rf"({'|'.join(_PERIODS)})\s?([0-9０-９]{{1,2}}|[一二两三四五六七八九十]{{1,3}})\s?[点點时]"
                           r"(?:钟|整)?(?:\s?([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3})\s?分|(半|一刻|三刻))?(许)?"
                           rf"({_RELATIONS})?")
# The 24-hour clock of Chinese news, digits before 时 (``17时30分``, ``9时许``): 5:30 p.m., about 9 a.m.
# Not 一时 (for a moment) nor 3小时 (three hours): digits only, right before 时.
_CLOCK_24 = re.compile(r"(?<![0-9０-９.．第])([0-9０-９]{1,2})时(?:([0-9０-９]{1,2})分)?(许)?")
# A time of day without 上午/下午 (a story's ``十点过后，门铃终于响了`` came back "After ten points";
# ``会议将于三点开始`` "start with three points"). ``N点`` alone is as often a point of a list (``提出了
# 十点建议``, ``收到三点意见``), so it is a time only where the text says so: with 钟, 整, 半, a
# quarter or minutes after it, 过后/以后/之后/前/之前/左右 after it (taken into the span: "after 10
# o'clock"), 于/在/从/等到/直到 right before it, or 到/至 right after another time (从三点到五点)
# or before it at the end of a clause (工作到十一点。).
_BARE_CLOCK = re.compile(r"(?<![0-9０-９.．第])([0-9０-９]{1,2}|[一二两三四五六七八九十]{1,3})[点點]"
                         r"(?:(钟|整)|([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3})分|(半|一刻|三刻))?"
                         rf"({_BARE_RELATIONS})?")
_BARE_CLOCK_WORDS = {"过后": "after {}", "以后": "after {}", "之后": "after {}", "之前": "before {}", "前": "before {}",
                     "以前": "before {}", "左右": "around {}"}
_CLOCK_BEFORE = re.compile(r"(?:[于在从]|等到|直到)$")
# An earthquake's magnitude and a wind's force (``6.1级地震``, ``风力达12级``): 级 is a grade, and the
# model wrote "a magnitude of 6.1" as ``6.1年的商业`` and ``最大风力达12级`` as "maximal 12 degrees".
_ZH_MAGNITUDE = re.compile(rf"(?:震级(?:为|达)?)?{FIGURE_START}({NUMBER})级(地震)?")
_ZH_WIND = re.compile(rf"(?:风力(?:达到|达|为)?{FIGURE_START}({NUMBER})级|{FIGURE_START}({NUMBER})级(大风|阵风|狂风))")
_EN_MAGNITUDE = re.compile(rf"(?i:magnitude)(?:[ -]|\s+of\s+)({NUMBER})(?![0-9])")
# A camera's resolution, which Chinese counts in 万 (a phone's "50-megapixel sensor" came back 50毫米, fifty
# millimetres): 5000万像素.
_MEGAPIXELS = re.compile(r"(?<![0-9A-Za-z_.,-])([0-9]{1,3}(?:\.[0-9]{1,2})?)"
                         r"(?:[- \u00a0]?(?i:megapixels?)|[ \u00a0]?MP)(?![A-Za-z0-9])")
# ... and a frame rate ("runs at 450 frames per second" came back 运行450帧, the second lost): 每秒450帧.
_FRAME_RATE = re.compile(r"(?<![0-9A-Za-z_.,-])([0-9]{1,3}(?:,[0-9]{3})*(?:\.[0-9]+)?)"
                         r"(?:[ \u00a0]frames[ \u00a0](?:per|a)[ \u00a0]second|[ \u00a0]?fps)(?![A-Za-z0-9])",
                         re.IGNORECASE)
# An age: the en->zh model wrote ``a 54-year-old shop owner`` as ``54岁的佛山-year-old-old``.
_ENGLISH_AGE = re.compile(rf"(?<![0-9A-Za-z_.,-])({NUMBER})"
                          r"(?:-years?-old|[ \u00a0]years?[ \u00a0](?:old|of[ \u00a0]age))(?![A-Za-z0-9_-])")
# An age after "aged", maybe a range or with its bound, and "the age of" (a leaflet's "children aged
# 16 years and over" came back 孩子年龄的16年及以上, a trial's "participants aged 65 to 80 years"
# 年龄的65到80年, "over the age of 60" lost its bound): years of age, not months; the people's count
# before them is the span's too.
_AGE = r"(?:[1-9][0-9]?|1[01][0-9])"
_EN_AGED = re.compile(r"(?<![\w,.-])(?:(?:(?P<n>[1-9][0-9]{0,2}(?:,[0-9]{3})+|[1-9][0-9]*)[ \u00a0])?"
                      r"(children|kids|people|adults|residents|patients)[ \u00a0])?"
                      rf"aged[ \u00a0]({_AGE})(?:[ \u00a0]?(?:to|-|–)[ \u00a0]?({_AGE}))?"
                      r"(?![0-9%]|[.,][0-9]|[ \u00a0-](?:months?|weeks?|days?)\b)(?:[ \u00a0]years?(?:[ \u00a0]old)?)?"
                      r"(?:[ \u00a0](and|or)[ \u00a0](over|above|older|under|below|younger))?(?![\w-])", re.IGNORECASE)
_AGE_OF = re.compile(r"\b(?:(over|above|under|below)[ \u00a0])?the[ \u00a0]age[ \u00a0]of[ \u00a0]"
                     rf"({_AGE})(?![\w%-]|[.,][0-9])", re.IGNORECASE)
# A person's age after their name, as news writes it (``said Maria Rossi, 67, who has run a café``):
# the en->zh model wrote 罗西67号, number 67. A capitalised word, a comma, 1-119, then a comma and a
# small word (``, who``, ``, and``), a semicolon or the sentence's end; not after a month, a weekday
# or a word that numbers things (``Chapter Two, 12, 14``, ``May 5, 12 people``: a figure or a
# noun follows, or no capitalised word precedes).
_APPOSITIVE_AGE = re.compile(r"\b([A-Z][a-z'’-]+), ([1-9][0-9]?|1[01][0-9])(?=, [a-z]|;|\.(?:\s|$)|$)")
_NOT_A_NAME = frozenset({
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Monday",
    "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Yes", "No", "Okay", "Ok", "Well", "So",
    "And", "But", "Or", "Oh", "Hi", "Page", "Pages", "Chapter", "Section", "Article", "Figure", "Table", "Room",
    "Vol", "Step", "Level", "Grade", "Version", "Part", "Item", "Line", "Row", "Column", "Box", "Exit", "Gate",
    "Platform", "Route", "Floor", "Unit", "Year", "Years", "Day", "Days", "Week", "Weeks", "Number", "Verse",
    "Act", "Scene", "Appendix", "Note", "Rule", "Clause", "Paragraph", "Issue", "Episode", "Season"
})
_ENGLISH_TIME = re.compile(r"(?<![0-9A-Za-z_.:])([0-9]{1,2})(?::([0-5][0-9]))?\s?([ap])\.?\s?m\.?(?![A-Za-z0-9_])",
                           re.IGNORECASE)


# A figure with a magnitude and a unit is one measure (``13.55万吨`` -> ``135,500 t``, ``5 million
# tonnes`` -> ``500万吨``): doctrans.magnitudes took the figure alone, and the model dropped the unit
# left after it (a news story's ``总吨位为13.55万吨`` came back "Cruise ship is always 135,500").
_POWER = "|".join(sorted(POWERS, key=len, reverse=True))
_CHINESE_LARGE_MEASURE = re.compile(rf"{FIGURE_START}({NUMBER})\s?({_POWER})\s?({_CHINESE_UNIT})(?![饭粒服隆拉格斤里])")
_ENGLISH_LARGE_MEASURE = re.compile(rf"(?<![0-9A-Za-z_.,$€£¥])({NUMBER})[ \u00a0](million|billion|trillion)[ \u00a0]"
                                    rf"({_ENGLISH_UNIT})(?![0-9A-Za-z_²/])", re.IGNORECASE)


def find_large_measures(text: str, tgt_lang: str | None) -> list[Span]:
    """Measures whose figure has a magnitude word (万, 亿; million, billion) as ``number`` spans
    written the target's way: ``13.55万吨`` -> ``135,500 t``, ``5 million tonnes`` -> ``500万吨``."""
    lang, spans = base_language(tgt_lang), []
    if lang == "en":
        for m in _CHINESE_LARGE_MEASURE.finditer(text):
            value = decimal_value(m.group(1))
            if value is not None:
                spans.append(Span(m.start(), m.end(), m.group(0), "number",
                                  f"{english(value.scaleb(POWERS[m.group(2)]))} {_OUT_OF_CHINESE[m.group(3)]}"))
    elif lang == "zh":
        for m in _ENGLISH_LARGE_MEASURE.finditer(text):
            value = decimal_value(m.group(1))
            if value is not None:
                spans.append(Span(m.start(), m.end(), m.group(0), "number",
                                  in_wan(value.scaleb(SCALE_WORDS[m.group(2).lower()]))
                                  + _INTO_CHINESE[m.group(3).lower()]))
    return spans


_ZH_AGE = re.compile(r"(?<![0-9０-９.第])([0-9０-９]{1,3})(?:周岁|岁)(的(?=[\u4e00-\u9fff]))?")
# An age as a bound, with the people it counts (60岁以上老人占21.3% came back "where 60 is older than
# 21.3%", and the bound alone "aged 60 and over s": the model's plural).
_ZH_AGE_BOUND = re.compile(r"(?<![0-9０-９.第])([0-9０-９]{1,3})(?:周岁|岁)(及以上|以上|及以下|以下|以内)的?"
                           r"(老年人|老人|人口|人群|居民|儿童|人)?")
# A law's age limit (不满十四周岁未成年人 came back "under 14 minors weeks ... -year-old minors", 周岁 read
# as weeks; 年满十八周岁 is 18 reached): under 14, aged 18 or over; in digits or numerals.
_ZH_AGE_LIMIT = re.compile(r"(不满|未满|未达|年满|已满|满)([0-9０-９]{1,3}|[一二三四五六七八九十两]{1,3})"
                           r"(?:周岁|岁)(?:的)?")
_AGE_LIMITS = {"不满": "under {}", "未满": "under {}", "未达": "under {}",
               "年满": "aged {} or over", "已满": "aged {} or over", "满": "aged {} or over"}
# A headline's toll (多车相撞事故 致3死12伤 came back "3 th 12 injuries", the dead lost): 3 dead and 12
# injured, "leaving" for 致; the dead alone or the injured alone too (致2死, 5人受伤 is the model's).
_ZH_TOLL = re.compile(r"(致|造成)?(?:([0-9０-９]{1,4})人?死(?![亡刑者])([0-9０-９]{1,4})人?伤(?![者亡心害口])"
                      r"|([0-9０-９]{1,4})人?死(?![亡刑者了])|([0-9０-９]{1,4})人?伤(?![者亡心害口了]))")
# ... and a disaster's count of people as news words it (地震已造成12人死亡，248人受伤，其中重伤21人 came back
# "has been caused by a 12 human death, 248 people injured 21"): killed 12 people, injured 248, 21 of them
# seriously; 3人失踪, 3 people missing.
_ZH_CASUALTIES = re.compile(r"(?P<caused>(?:已)?(?:造成|致使|致))?(?P<n>[0-9０-９]{1,5}(?:,[0-9]{3})?)人"
                            r"(?P<what>死亡|遇难|受伤|失踪|轻伤|重伤)(?![者人])"
                            r"|其中(?P<kind>重伤|轻伤)(?P<m>[0-9０-９]{1,5})人")
_CASUALTY_WORDS = {"死亡": ("killed {} people", "{} people died"),
                   "遇难": ("killed {} people", "{} people were killed"),
                   "受伤": ("injured {}", "{} people were injured"),
                   "失踪": ("left {} people missing", "{} people missing"),
                   "轻伤": ("left {} people slightly injured", "{} people slightly injured"),
                   "重伤": ("left {} people seriously injured", "{} people seriously injured")}
# A term in years (a bank's 三年期定期存款 came back "time deposits years of 1.75%", the term gone; a
# bond's 十年期): three-year, 10-year; not 更年期 (the menopause) nor 周年期.
_ZH_TERM_YEARS = re.compile(r"(?<![0-9０-９一二三四五六七八九十两百千更周])"
                            r"([0-9０-９]{1,2}|[一二两三四五六七八九十]{1,3})年期")
# An infant's age in months (6月龄至5岁儿童 came back "June to 5-year-old children": 6月 read as June),
# alone, as a bound or as the low end of a range in years, with the children it counts.
_ZH_MONTHS_OF_AGE = re.compile(r"(?<![0-9０-９.第])([0-9０-９]{1,2})个?月龄"
                               r"(?:(?:至|到|~|～|-)([0-9０-９]{1,2})(?:周岁|岁))?"
                               r"(及以上|以上|以下|以内)?的?(儿童|婴儿|婴幼儿|宝宝)?")
_INFANTS = {"儿童": "children", "婴儿": "infants", "婴幼儿": "infants and young children", "宝宝": "babies"}
_AGE_BOUNDS = {"及以上": "aged {} and over", "以上": "aged {} and over", "及以下": "aged {} and under",
               "以下": "under {}", "以内": "under {}"}
_AGE_GROUPS = {"老年人": "people {}", "老人": "people {}", "人口": "the population {}", "人群": "people {}",
               "居民": "residents {}", "儿童": "children {}", "人": "people {}"}
# ... and into Chinese, the people and the bound ("£20 for children under 12" came back 20英镑用于子节点
# 不到12: child nodes, and no age); not a weight, a length or a share.
# (... the years too: a leaflet's "children over 12 years:" came back 12岁以上儿童年)
_NOT_AN_AGE_AFTER = (r"(?:\s+years?(?:\s+(?:old|of\s+age))?(?![\w-]))?(?![0-9%]|[.,][0-9]|\s*(?:%|percent|per cent"
                     r"|[A-Za-z]*(?:metre|meter|pound|dollar|kilo|mile|feet|foot|inch|hour|minute|day|week|month"
                     r"|km|kg|lb|cm|mm|m)\b))")
# ... with the adults before them ("Adults and children over 12 years: take 1 tablet" came back without
# the adults): 成人及12岁以上儿童.
_EN_AGE_BOUND = re.compile(r"(?<![\w-])(?P<adults>adults\s+and\s+)?(children|kids|people|adults|residents|patients"
                           # ... a museum's ("free for visitors over 65" came back 访问超过65)
                           r"|visitors|students|passengers|workers|women|men|drivers)\s+"
                           r"(?:aged\s+)?"
                           r"(under|over|above)\s+([1-9][0-9]?|1[01][0-9])" + _NOT_AN_AGE_AFTER, re.IGNORECASE)
_EN_PEOPLE = {"children": "儿童", "kids": "儿童", "people": "人", "adults": "成年人", "residents": "居民",
              "patients": "患者", "visitors": "游客", "students": "学生", "passengers": "乘客", "workers": "工人",
              "women": "女性", "men": "男性", "drivers": "司机"}


# The first minutes or days of something ("scored twice in the first 25 minutes" came back 梅开二度25分钟,
# the first lost): 前25分钟内.
_THE_FIRST = re.compile(r"(?i:\b(in|within|during|over)\s+)?(?i:the\s+first)\s+$")
_TIME_UNIT_END = re.compile(r"(?:秒|分钟|小时|天|周|个月|年|公里|英里|米)$")


def _the_first(text: str, spans: list[Span]) -> list[Span]:
    out = []
    for s in spans:
        m = _THE_FIRST.search(text, max(0, s.start - 24), s.start)
        if m is not None and s.target and _TIME_UNIT_END.search(s.target) and s.target[:1].isdigit():
            s = Span(m.start(), s.end, text[m.start():s.end], s.kind, f"前{s.target}{'内' if m.group(1) else ''}")
        out.append(s)
    return out


def find_units(text: str, tgt_lang: str | None) -> list[Span]:
    """The measures and times of day in ``text`` as ``number`` spans whose target is written for
    ``tgt_lang`` (English or Chinese; none for another target)."""
    lang = base_language(tgt_lang)
    if lang == "en":
        return _with_bounds(text, sorted(_with_days(text, _out_of_chinese(text)) + _symbols(text),
                                         key=lambda s: s.start))
    if lang == "zh":
        return _with_bounds(text, _the_first(text, sorted(_into_chinese(text) + _symbols(text), key=lambda s: s.start)))
    return []


# A bound's sign before a measure is the measure's (a purifier's 噪音：≤64分贝 came back "Noise: ≤64", 重量
# ≤5公斤 lost its kilograms: the sign and the figure were a span of their own, the unit left out).
_BOUND_SIGN = re.compile(r"[≤≥<>±＜＞]\s?$")


def _with_bounds(text: str, spans: list[Span]) -> list[Span]:
    out = []
    for sp in spans:
        sign = _BOUND_SIGN.search(text, 0, sp.start)
        if sign is not None and sp.target is not None and sp.kind == "number" and sp.text[:1].isdigit():
            mark = sign.group().strip().replace("＜", "<").replace("＞", ">")
            sp = Span(sign.start(), sp.end, text[sign.start():sp.end], sp.kind, mark + sp.target)
        out.append(sp)
    return out


# A day of the month alone right before a time of day, as news dates its counts (截至1日20时 came back
# "as of 1, 8 p.m."): one span, "8 p.m. on the 1st". Not after a month (12月1日14时: doctrans.dates
# writes the date) nor a figure (30日内 is days).
_DAY_BEFORE = re.compile(r"(?<![0-9０-９.月])([1-9]|[12][0-9]|3[01])日$")
# A time of day as the spans above write it in English (9 a.m., 2:37 p.m.); doctrans.direction_terms
# puts such a time on the date before it.
CLOCK_WRITTEN = re.compile(r"[0-9]{1,2}(?::[0-9]{2})? [ap]\.m\.")


def _with_days(text: str, spans: list[Span]) -> list[Span]:
    out = []
    for span in spans:
        day = _DAY_BEFORE.search(text, 0, span.start) if span.target and CLOCK_WRITTEN.fullmatch(span.target) else None
        if day is not None:
            span = Span(day.start(), span.end, text[day.start():span.end], "number",
                        f"{span.target} on the {english_ordinal(int(day.group(1)))}")
        out.append(span)
    return out


# An appliance's rating, alternating current between its voltage and its frequency (a manual's
# 220V～50Hz came back "220V REMOTE 50Hz"): one span, as written but for the ASCII tilde.
_RATING = re.compile(rf"(?<![0-9A-Za-z_.,])({NUMBER}(?:[-–]{NUMBER})?[ \u00a0]?V)[ \u00a0]?[~～∼][ \u00a0]?"
                     rf"({NUMBER}(?:/{NUMBER})?[ \u00a0]?Hz)(?![0-9A-Za-z_])")


# A blood pressure, systolic over diastolic, with its unit: one span as written.
_BLOOD_PRESSURE = re.compile(r"(?<![0-9A-Za-z_.,/])[0-9]{2,3}/[0-9]{2,3}[ \u00a0]?mmHg(?![A-Za-z])")


def _symbols(text: str) -> list[Span]:
    spans = [Span(m.start(), m.end(), m.group(0), "number", re.sub("[～∼]", "~", m.group(0)))
             for m in _RATING.finditer(text)]
    spans += [Span(m.start(), m.end(), m.group(0), "number") for m in _BLOOD_PRESSURE.finditer(text)]
    spans += [s for s in (Span(m.start(), m.end(), m.group(0), "number") for m in _SYMBOL_MEASURE.finditer(text))
              if not s.overlaps_any(spans)]
    for m in _TIME_SYMBOL.finditer(text):
        figure = m.group(1)
        decade = m.group(2) == "s" and not m.group(3) and figure.endswith("0") and (
            len(figure) == 4 or _DECADE_BEFORE.search(text, 0, m.start()) is not None)
        if not decade:
            spans.append(Span(m.start(), m.end(), m.group(0), "number"))
    return sorted(spans, key=lambda s: s.start)


# A wind's force on the Beaufort scale, where the clause names the wind (a forecast's 南风二级左右 came
# back "southern two-degrees", 4到5级偏北风 "4 to 5-level preferences", 阵风可达7级 "7-degrees"):
# 二三级 is two or three, read digit by digit. Not an earthquake's 级 (doctrans.magnitudes).
_FORCE = r"([0-9]{1,2}|[一二三四五六七八九十]{1,2})"
_WIND_FORCE = rf"{_FORCE}(?:(?:到|至|～|~|-|—){_FORCE})?级(左右)?"
_WIND_BEFORE = re.compile(rf"(?:风力|[东南西北]风|(阵风)|大风)(可达|达到|达|为|约|有)?{_WIND_FORCE}")
_WIND_AFTER = re.compile(rf"{_WIND_FORCE}(?:的)?(?=(?:偏)?[东南西北]{{0,2}}风|大风)")


# ... with the wind's direction right before its force, one span (北风二三级 came back "northern force 2 to
# 3"): north wind force 2 to 3; 北转南风 north wind turning south, 偏北风 northerly wind.
_COMPASS = {"东": "east", "南": "south", "西": "west", "北": "north", "东北": "northeast", "西北": "northwest",
            "东南": "southeast", "西南": "southwest"}
_WIND_DIRECTION = re.compile(r"(?:(偏)?(东北|西北|东南|西南|[东南西北])转)?(偏)?(东北|西北|东南|西南|[东南西北])风$")


def _direction(lean: str | None, compass: str) -> str:
    return _COMPASS[compass] + ("erly" if lean else "")


def _with_direction(text: str, span: Span) -> Span:
    m = _WIND_DIRECTION.search(text, 0, span.start)
    if m is None or not span.target or not span.target.startswith(("force", "about force")):
        return span
    wind = f"{_direction(m.group(3), m.group(4))} wind"
    if m.group(2):
        wind = f"{_direction(m.group(1), m.group(2))} wind turning {_direction(m.group(3), m.group(4))},"
    written = f"{wind} {span.target}" if span.target.startswith("force") else f"{wind.rstrip(',')} of {span.target}"
    return Span(m.start(), span.end, text[m.start():span.end], span.kind, written)


def _wind_forces(text: str) -> list[Span]:
    return [_with_direction(text, span) for span in _forces(text)]


def _forces(text: str) -> list[Span]:
    spans: list[Span] = []
    for rx in (_WIND_BEFORE, _WIND_AFTER):
        for m in rx.finditer(text):
            gusts, up_to = (m.group(1), m.group(2)) if rx is _WIND_BEFORE else (None, None)
            k = 3 if rx is _WIND_BEFORE else 1
            low, high = m.group(k), m.group(k + 1)
            if high is None and len(low) == 2 and not low.isdigit() and "十" not in low:
                low, high = low[0], low[1]  # 二三级: force 2 to 3
            figures = [str(int(x) if x.isdigit() else read_numeral(x) or "") for x in (low, high) if x]
            if not all(figures):
                continue
            written = ("about " if m.group(k + 2) else "") + "force " + " to ".join(figures)
            start = m.start() if gusts else m.start(k)  # 阵风可达7级: gusts of up to force 7
            if gusts:
                written = "gusts of " + ("up to " if up_to in ("可达", "达到", "达") else "") + written
            span = Span(start, m.end(), text[start:m.end()], "number", written)
            spans += [] if span.overlaps_any(spans) else [span]
    return spans


# How often, per period (a leaflet's 一日2次 came back "one day 2"): "twice a day", "3 times a week".
# 一次 alone is "once" or "at a time", and a verb between (每周锻炼3次) leaves it to the model.
_ZH_FREQUENCY = re.compile(r"(?<![0-9一二两三四五六七八九十百第])(?:一|每)(日|天|周|星期|月|年)"
                           r"([0-9]{1,3}|[一二两三四五六七八九十]{1,3})次(?![数方元])")
_PER = {"日": "day", "天": "day", "周": "week", "星期": "week", "月": "month", "年": "year"}
# A service's interval (a boat "约每20分钟一班" came back "for each 20 minutes class"): every N minutes.
_ZH_INTERVAL = re.compile(r"每(?:隔)?\s?([0-9]{1,3})\s?(分钟|小时)(?:一班|一趟|一次|发一班|发车一次)")


# A dose, as a leaflet gives it (成人一次1粒 came back "A grown-up 1 granular"): 1 capsule at a time,
# 1-2 tablets at a time, half a tablet at a time. 一次 or 每次 right before the figure; not a count of
# doses (一次3剂) nor a tablet's strength (每片含).
_ZH_DOSE = re.compile(r"(?<![0-9一二两三四五六七八九十第])(?:一次|每次)\s?"
                      r"([0-9]{1,2}(?:\.[0-9])?|[一二两三四五六七八九十半]{1,2})"
                      r"(?:\s?(?:-|~|～|至|到|或)\s?([0-9]{1,2}(?:\.[0-9])?|[一二两三四五六七八九十]{1,2}))?"
                      r"\s?(粒|片|袋|丸|包|贴|滴|喷|揿)(?![数剂含])")
_DOSE_UNITS = {"粒": ("capsule", "capsules"), "片": ("tablet", "tablets"), "袋": ("sachet", "sachets"),
               "丸": ("pill", "pills"), "包": ("sachet", "sachets"), "贴": ("patch", "patches"),
               "滴": ("drop", "drops"), "喷": ("spray", "sprays"), "揿": ("puff", "puffs")}


def _dose_figure(figure: str) -> str | None:
    if figure[0].isdigit():
        return figure
    n = read_numeral(figure)
    return None if n is None else str(n)


# ... and how it is taken, where a leaflet's instructions start (【用法用量】口服。 came back "Glad."):
# orally; not 口服液 (an oral liquid) nor 心服口服 (won over).
_ORALLY = re.compile(r"(?:(?<=[】：:。；;\s])|^)口服(?=[。，,；;：:]|一次|每次|$)")


def _doses(text: str) -> list[Span]:
    spans = [Span(m.start(), m.end(), m.group(), "phrase", "orally") for m in _ORALLY.finditer(text)]
    for m in _ZH_DOSE.finditer(text):
        one, many = _DOSE_UNITS[m.group(3)]
        if m.group(1) == "半" and m.group(2) is None:
            written = f"half a {one}"
        else:
            low = _dose_figure(m.group(1))
            high = _dose_figure(m.group(2)) if m.group(2) else None
            if low is None or (m.group(2) and high is None):
                continue
            figure = f"{low}-{high}" if high else low
            written = f"{figure} {one if figure == '1' else many}"
        spans.append(Span(m.start(), m.end(), m.group(), "number", f"{written} at a time"))
    return spans


# A unit named alone, as a field's or a table's label (当前气温（单位：摄氏度） came back "(measured)",
# the unit lost): unit: °C. Only the units of measure above that are no common word (米 is rice too,
# but 单位：米 is metres), and 元 and 万元, as a table's money.
_LABEL_UNITS = sorted((u for u in _OUT_OF_CHINESE if len(u) > 1 or u in "米克吨升瓦"), key=len, reverse=True)
_UNIT_LABEL = re.compile(r"单位\s?[：:]\s?(万元|亿元|元|" + "|".join(_LABEL_UNITS) + r")(?![\u4e00-\u9fff])")
_LABEL_MONEY = {"元": "yuan", "万元": "10,000 yuan", "亿元": "100 million yuan"}

# A quota for each period, as an API's plan states it (免费版每天最多调用1000次 came back "at most 1000
# times the free version of the year": a day read as a year): up to 1,000 calls a day.
_ZH_QUOTA = re.compile(r"每(天|日|周|月|年|小时|分钟)(最多|至多|不超过|限)?\s?(?:可)?"
                       r"(调用|请求|访问|下载|提交|登录|发送)?\s?([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)\s?次(?![数方元])")
_QUOTA_NOUNS = {"调用": "calls", "请求": "requests", "访问": "visits", "下载": "downloads", "提交": "submissions",
                "登录": "logins", "发送": "sends"}
_QUOTA_PERIODS = {**_PER, "小时": "hour", "分钟": "minute"}


# A total of days, as a holiday notice counts them (放假调休，共3天 came back "days off, along with 3 days"):
# 3 days in total.
_ZH_TOTAL_TIME = re.compile(r"(?:共计|合计|总共|共)([0-9]{1,3}|[一二两三四五六七八九十]{1,3})(天|日|周|个月|年|小时)"
                            r"(?![\u4e00-\u9fff])")
_TOTAL_UNITS = {"天": "day", "日": "day", "周": "week", "个月": "month", "年": "year", "小时": "hour"}


def _totals(text: str) -> list[Span]:
    spans = []
    for m in _ZH_TOTAL_TIME.finditer(text):
        n = int(m.group(1)) if m.group(1).isdigit() else read_numeral(m.group(1))
        if n:
            unit = _TOTAL_UNITS[m.group(2)] + ("" if n == 1 else "s")
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{n} {unit} in total"))
    return spans


def _quotas(text: str) -> list[Span]:
    spans = []
    for m in _ZH_QUOTA.finditer(text):
        if not (m.group(2) or m.group(3)):
            continue  # 每天3次: a frequency (_frequencies)
        what = _QUOTA_NOUNS[m.group(3)] if m.group(3) else "times"
        written = f"{'up to ' if m.group(2) else ''}{grouped_digits(m.group(4))} {what} a {_QUOTA_PERIODS[m.group(1)]}"
        spans.append(Span(m.start(), m.end(), m.group(), "number", written))
    return spans


def _unit_labels(text: str) -> list[Span]:
    spans = []
    for m in _UNIT_LABEL.finditer(text):
        unit = _LABEL_MONEY.get(m.group(1)) or _OUT_OF_CHINESE[m.group(1)]
        spans.append(Span(m.start(), m.end(), m.group(), "phrase", f"unit: {unit}"))
    return spans


def _frequencies(text: str) -> list[Span]:
    spans = []
    for m in _ZH_FREQUENCY.finditer(text):
        n = int(m.group(2)) if m.group(2).isdigit() else read_numeral(m.group(2))
        if not n:
            continue
        figure = m.group(2) if m.group(2).isdigit() else english_words(n).lower()
        times = {1: "once", 2: "twice"}.get(n) or f"{figure} times"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{times} a {_PER[m.group(1)]}"))
    for m in _ZH_INTERVAL.finditer(text):
        every, unit = m.group(1), "minute" if m.group(2) == "分钟" else "hour"
        spans.append(Span(m.start(), m.end(), m.group(0), "number",
                          f"every {every} {unit}{'' if every == '1' else 's'}"))
    # ... and with the verb between, "once" after it (a purifier's 滤网建议每6个月更换一次 came back
    # "filter recommends more than once per 6 months"): every 6 months.
    for m in _ZH_EVERY.finditer(text):
        span = Span(m.start(), m.end(1), m.group(1), "number",
                    f"every {m.group(2)} {_CHINESE_DURATIONS[m.group(3)]}{'' if m.group(2) == '1' else 's'}")
        if not span.overlaps_any(spans):
            spans.append(span)
    return spans


_ZH_EVERY = re.compile(r"(每(?:隔)?\s?([0-9]{1,3})\s?(个月|天|周|个星期|年|个小时|小时|分钟))"
                       r"(?=[\u4e00-\u9fff]{1,4}一次)")


# An index's close in points (上证指数收涨0.5%，报3050.12点 came back "datagram 3050.12").
_INDEX_POINTS = re.compile(rf"(?:收报|报收|收于|报)({NUMBER})点(?![钟半多])")


# A rate a minute, as a clinical record counts a pulse or breaths (心率96次/分 came back "heart 96
# times/divided"): beats or breaths by the word before it.
_PER_MINUTE = re.compile(rf"{FIGURE_START}({NUMBER})\s?次/分(?:钟)?")
_BREATHS_BEFORE = re.compile(r"呼吸[^，,。；;]{0,4}$")
_BEATS_BEFORE = re.compile(r"(?:心率|脉搏|心跳|脉率)[^，,。；;]{0,4}$")


def _per_minute(text: str) -> list[Span]:
    spans = []
    for m in _PER_MINUTE.finditer(text):
        before = text[max(0, m.start() - 8):m.start()]
        what = "breaths" if _BREATHS_BEFORE.search(before) else "beats" if _BEATS_BEFORE.search(before) else ""
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{ascii_digits(m.group(1))} {what}/min"
                          if what else f"{ascii_digits(m.group(1))}/min"))
    return spans


# A floor of a building (三楼第二会议室 came back "The second conference room th floor", the 3 lost):
# not a building's number (3号楼), a floor's level (楼层), a staircase (楼梯), 同一楼 nor 下一楼.
_FLOOR = re.compile(r"(?<![0-9一二三四五六七八九十第号栋座幢几每同上下这那])([0-9]{1,3}|[一二三四五六七八九十]{1,3})楼"
                    r"(?![梯房盘主宇阁层楼道])")


def _floors(text: str) -> list[Span]:
    spans = []
    for m in _FLOOR.finditer(text):
        n = int(m.group(1)) if m.group(1).isdigit() else read_numeral(m.group(1))
        if n is not None and 1 <= n <= 200:
            spans.append(Span(m.start(), m.end(), m.group(), "number", f"{english_ordinal(n)} floor"))
    return spans


# An obituary's age (享年92岁): at the age of 92.
_AGE_AT_DEATH = re.compile(r"享年\s?([0-9０-９]{1,3})\s?(?:周)?岁")
# A duration in hours and minutes, 分 without its 钟 (a timetable's 1小时16分): 1 hour 16 minutes.
_HOURS_AND_MINUTES = re.compile(r"(?<![0-9０-９.])([0-9０-９]{1,3})\s?个?小时\s?([0-9０-９]{1,2})\s?分(?:钟)?"
                                r"(?![0-9０-９秒])")


def _out_of_chinese(text: str) -> list[Span]:
    # The rules in order of precedence: a total, a quota, a unit's label and a dose before a frequency.
    spans = _totals(text) + _quotas(text) + _unit_labels(text) + _doses(text) + _frequencies(text)
    spans += _per_minute(text) + _floors(text)
    for m in _AGE_AT_DEATH.finditer(text):  # 享年92岁 came back "Enjoy 92"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"at the age of {ascii_digits(m.group(1))}"))
    for m in _HOURS_AND_MINUTES.finditer(text):  # 最快1小时16分可达 came back "fastest 1 hour 16"
        h, mins = int(ascii_digits(m.group(1))), int(ascii_digits(m.group(2)))
        if mins < 60:
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{h} hour{'' if h == 1 else 's'} "
                              f"{mins} minute{'' if mins == 1 else 's'}"))
    spans += [Span(m.start(), m.end(), m.group(0), "number", f"at {ascii_digits(m.group(1))} points")
              for m in _INDEX_POINTS.finditer(text)]
    for m in _CHINESE_MEASURE.finditer(text):
        sign = "-" if m.group(1) else ""
        unit = _OUT_OF_CHINESE[m.group(3)]
        start = m.start()
        if unit == "km" and _SPEED_BEFORE.search(text, max(0, m.start() - 6), m.start()):
            unit = "km/h"  # 设计时速350公里 came back "designed to speed 350 km": a distance for a speed
        elif unit == "km" and (per := _PER_HOUR_BEFORE.search(text, max(0, m.start() - 4), m.start())):
            # 平均车速为每小时24.6公里 came back "per hour 24.6 km faster": the speed, 每小时 with it
            unit, start = "km/h", per.start()
        figure = ascii_digits(m.group(2))
        if figure == "1":
            unit = _SINGULAR.get(unit, unit)
        spans.append(Span(start, m.end(), text[start:m.end()], "number", f"{sign}{figure} {unit}"))
    for m in _NUMERAL_MEASURE.finditer(text):
        numeral, unit = m.group(2), _OUT_OF_CHINESE[m.group(4)]
        value = _numeral_figure(numeral)
        if value is None and numeral.endswith("千") and m.group(4) == "米" and not m.group(3):
            value, unit = _numeral_figure(numeral[:-1]), "km"  # 十千米: ten kilometres
        if value is None or (m.group(3) and value < 10) or (m.group(1) and m.group(4) not in _TEMPERATURES):
            continue
        unit = _SINGULAR.get(unit, unit) if value == 1 else unit
        figure = f"{'-' if m.group(1) else ''}{english(Decimal(value))} {unit}"
        spans.append(Span(m.start(), m.end(), m.group(0), "number",
                          {"多": f"more than {figure}", "余": f"over {figure}"}.get(m.group(3) or "", figure)))
    for m in _HALF_SPOON.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"half a {_SINGULAR[_OUT_OF_CHINESE[m.group(1)]]}"))
    for m in _BELOW_ZERO_DEGREES.finditer(text):  # in numerals too: 零下五度 came back "five degrees"
        figure = ascii_digits(m.group(1)) if m.group(1) else str(_numeral_figure(m.group(2)) or "")
        if figure and not any(s.start < m.end() and m.start() < s.end for s in spans):
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"minus {figure} degree{'' if figure == '1' else 's'}"))
    for m in _MORE_DURATION.finditer(text):
        figure = ascii_digits(m.group(1))
        unit = _MORE_UNITS[m.group(2) or m.group(3) or m.group(4)]
        spans.append(Span(m.start(), m.end(), m.group(0), "number",
                          f"more than {'an' if unit == 'hour' else 'a'} {unit}" if figure == "1"
                          else f"more than {figure} {unit}s"))
    for m in _CHINESE_DURATION.finditer(text):
        figure = ascii_digits(m.group(1))
        unit = _CHINESE_DURATIONS[m.group(2)] + ("" if figure == "1" else "s")
        spans.append(Span(m.start(), m.end(), m.group(0), "number",
                          f"{'within ' if m.group(3) else ''}{figure} {unit}"))
    for m in _NUMERAL_DURATION.finditer(text):
        n = read_numeral(m.group(1))
        span = Span(m.start(), m.end(), m.group(0), "number",
                    f"within {n} {_CHINESE_DURATIONS[m.group(2)]}{'' if n == 1 else 's'}")
        if n and not span.overlaps_any(spans):
            spans.append(span)
    for m in _COUNTED_DAYS.finditer(text):
        figure = ascii_digits(m.group(1))
        days = f"{figure} day{'' if figure == '1' else 's'}"
        # 提前 is the span's (the model dropped it between a figure and a term): 30 days in advance.
        start = m.start() if m.group().startswith("提前") else m.start(1)
        spans.append(Span(start, m.end(), text[start:m.end()], "number",
                          f"{days} in advance" if start == m.start() else days))
    for m in _CHINESE_TIME.finditer(text):
        hour, minute = _clock_number(m.group(2)), _clock_number(m.group(3)) if m.group(3) else None
        if hour is None or not 1 <= hour <= 12 or (minute is not None and not 0 <= minute < 60):
            continue
        quarter = {"半": 30, "一刻": 15, "三刻": 45}.get(m.group(4) or "")
        minutes = f":{quarter}" if quarter else f":{minute:02d}" if minute is not None else ""
        about = "around " if m.group(5) else ""
        written = f"{about}{hour}{minutes} {_PERIODS[m.group(1)]}"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", _related(written, m.group(6))))
    for m in _CHINESE_CLOCK_TIME.finditer(text):
        if not 1 <= int(m.group(2)) <= 12:
            continue
        written = f"{int(m.group(2))}:{m.group(3)} {_PERIODS[m.group(1)]}"
        end = _range_end(int(m.group(2)), _PERIODS[m.group(1)], m.group(4), m.group(5)) if m.group(4) else None
        if end is None and m.group(4):  # a range that can be none: the start alone
            spans.append(Span(m.start(), m.end(3), text[m.start():m.end(3)], "number", written))
        else:
            written = f"{written} to {end}" if end else written
            spans.append(Span(m.start(), m.end(), m.group(0), "number", _related(written, m.group(6))))
    for m in _CLOCK_24.finditer(text):
        hour, minute = int(ascii_digits(m.group(1))), int(ascii_digits(m.group(2))) if m.group(2) else None
        if hour > 24 or (minute is not None and minute > 59) or any(s.start < m.end() and m.start() < s.end
                                                                    for s in spans):
            continue
        period = "a.m." if hour % 24 < 12 else "p.m."
        clock = f"{(hour - 1) % 12 + 1}{f':{minute:02d}' if minute is not None else ''} {period}"
        if minute is None and hour % 12 == 0:
            clock = "noon" if hour == 12 else "midnight"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", ("around " if m.group(3) else "") + clock))
    for m in _ZH_WIND.finditer(text):
        if m.group(1):
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"winds of force {ascii_digits(m.group(1))}"))
        else:
            gusts = "gusts" if m.group(3) == "阵风" else "winds"
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"force-{ascii_digits(m.group(2))} {gusts}"))
    for m in _ZH_MONTHS_OF_AGE.finditer(text):
        months, people = ascii_digits(m.group(1)), _INFANTS.get(m.group(4) or "")
        unit = f"{months} month{'' if months == '1' else 's'}"
        if m.group(2):
            written = f"aged {unit} to {ascii_digits(m.group(2))} years"
        elif m.group(3):
            written = f"under {unit}" if m.group(3) in ("以下", "以内") else f"aged {unit} and over"
        else:
            written = f"{unit} old" if people is None else f"aged {unit}"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{people} {written}" if people else written))
    for m in _ZH_TOLL.finditer(text):
        lead = "leaving " if m.group(1) == "致" else ""
        if m.group(2):
            written = f"{ascii_digits(m.group(2))} dead and {ascii_digits(m.group(3))} injured"
        elif m.group(4) and m.group(1):
            written = f"{ascii_digits(m.group(4))} dead"
        elif m.group(5) and m.group(1):
            written = f"{ascii_digits(m.group(5))} injured"
        else:
            continue  # a figure and 死 or 伤 alone, without 致: no telling it is a toll
        if not (span := Span(m.start(), m.end(), m.group(0), "number", lead + written)).overlaps_any(spans):
            spans.append(span)
    for m in _ZH_CASUALTIES.finditer(text):
        if m["kind"]:
            written = f"{ascii_digits(m['m'])} of them {'seriously' if m['kind'] == '重伤' else 'slightly'}"
        else:
            # after the clause that caused them (造成12人死亡，248人受伤), a count goes on with the same verb
            caused = m["caused"] or (spans and spans[-1].end in (m.start() - 1, m.start() - 2)
                                     and spans[-1].target is not None and spans[-1].target.startswith("killed"))
            written = _CASUALTY_WORDS[m["what"]][0 if caused else 1].format(ascii_digits(m["n"]))
        if not (span := Span(m.start(), m.end(), m.group(0), "number", written)).overlaps_any(spans):
            spans.append(span)
    for m in _ZH_TERM_YEARS.finditer(text):
        years = read_figure(m.group(1))
        if years and not (span := Span(m.start(), m.end(), m.group(0), "number",
                                       f"{ENGLISH_NUMBERS[years] if years < 10 else years}-year")).overlaps_any(spans):
            spans.append(span)
    for m in _ZH_AGE_LIMIT.finditer(text):
        years = read_figure(m.group(2))
        if years and not (span := Span(m.start(), m.end(), m.group(0), "number",
                                       _AGE_LIMITS[m.group(1)].format(years))).overlaps_any(spans):
            spans.append(span)
    for m in _ZH_AGE_BOUND.finditer(text):
        if any(sp.start <= m.start() < sp.end for sp in spans):
            continue
        bound = _AGE_BOUNDS[m.group(2)].format(ascii_digits(m.group(1)))
        bound = _AGE_GROUPS[m.group(3)].format(bound) if m.group(3) else bound
        spans.append(Span(m.start(), m.end(), m.group(0), "number", bound))
    for m in _ZH_AGE.finditer(text):
        if any(sp.start <= m.start() < sp.end for sp in spans):
            continue
        # A person's age where the model has nothing to hang it on: a table's or a form's cell
        # (年龄 | 28岁 came back "28."), or before 的 and a noun (一名28岁的男子, a 28-year-old man).
        figure = ascii_digits(m.group(1))
        if m.group(2):
            spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{figure}-year-old"))
        elif m.start() == len(text) - len(text.lstrip()) and not text[m.end():].strip():
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"{figure} year{'' if figure == '1' else 's'} old"))
    for m in _ZH_MAGNITUDE.finditer(text):
        told = m.group(0).startswith("震级") or m.group(2)
        if told and not any(sp.start < m.end() and m.start() < sp.end for sp in spans):
            figure = ascii_digits(m.group(1))
            written = f"a magnitude-{figure} earthquake" if m.group(2) else f"magnitude {figure}"
            spans.append(Span(m.start(), m.end(), m.group(0), "number", written))
    spans += [w for w in _wind_forces(text) if not w.overlaps_any(spans)]  # 风力达12级 is _ZH_WIND's
    return spans + _bare_clocks(text, [(sp.start, sp.end) for sp in spans])


def _numeral_figure(numeral: str) -> int | None:
    """The value of a measure's Chinese numeral, None where it is none: read digit by digit
    (``三四``: three or four) or not as Chinese writes one (``十千`` is no 1,010)."""
    if not numeral or (len(numeral) > 1 and not any(c in "十百千" for c in numeral)):
        return None
    value = read_numeral(numeral)
    if value is None or value == 0 or write_numeral(value) not in (numeral, numeral.replace("两", "二")):
        return None
    return value


def _bare_clocks(text: str, taken: list[tuple[int, int]]) -> list[Span]:
    """The times of :data:`_BARE_CLOCK` that the text says are times, outside ``taken``."""
    spans: list[Span] = []
    for m in _BARE_CLOCK.finditer(text):
        hour = _clock_number(m.group(1))
        minute = _clock_number(m.group(3)) if m.group(3) else None
        if hour is None or not 1 <= hour <= 12 or (minute is not None and not 0 <= minute < 60) \
                or any(a < m.end() and m.start() < b for a, b in taken):
            continue
        before = text[:m.start()]
        # 到/至 after another time (从三点到五点), or ending its clause (批改作业到十一点。: until
        # eleven); 收到三点意见 (three points of feedback) goes on.
        after_a_time = before[-1:] in ("到", "至") and (any(b == m.start() - 1 for _, b in taken)
                                                       or re.match(r"[，。；！？,;!?]|$", text[m.end():]) is not None)
        if not (any(m.group(k) for k in (2, 3, 4, 5)) or _CLOCK_BEFORE.search(before) or after_a_time):
            continue
        quarter = {"半": 30, "一刻": 15, "三刻": 45}.get(m.group(4) or "")
        clock = f"{hour}:{quarter}" if quarter else f"{hour}:{minute:02d}" if minute is not None else f"{hour} o'clock"
        spans.append(Span(m.start(), m.end(), m.group(0), "number",
                          _BARE_CLOCK_WORDS.get(m.group(5) or "", "{}").format(clock)))
        taken.append((m.start(), m.end()))
    return spans


def _related(time: str, relation: str | None) -> str:
    """``time`` with the word before or after it says it (``before 8 a.m.``)."""
    return _BARE_CLOCK_WORDS[relation].format(time) if relation else time


def _range_end(start_hour: int, period: str, hour_text: str, minute: str) -> str | None:
    """The end of a range of the clock that starts at ``start_hour`` in ``period`` (a.m./p.m.), its
    hour on the 12-hour clock of that part of the day (上午9:00至11:30) or on the 24-hour clock
    (上午9:00至13:00); none where it ends before it starts."""
    hour = int(hour_text)
    if hour > 24:
        return None
    if hour >= 13:
        return f"{hour - 12}:{minute} p.m." if hour < 24 else None
    if hour == 12:
        return f"12:{minute} p.m."
    if hour < start_hour % 12 or hour == 0:
        return None
    return f"{hour}:{minute} {period}"


def _clock_number(text: str) -> int | None:
    """An hour or a minute in digits or Chinese numerals (``3``, ``三``, ``十二``, ``两``)."""
    if text[0] in "0123456789０１２３４５６７８９":
        return int(ascii_digits(text))
    return read_numeral(text)


# A plural noun after "4.3m": what millions count, not metres (a 4.3m wall is high, 4.3m tall).
_COUNTED_AFTER = re.compile(r"\s+(?:(?!(?:is|was|has|as|its|this|us|plus|across|less|thus)\b)[a-z]+s|people|children"
                            r"|men|women)\b")
_CLOCK_MINUTES = re.compile(r"[0-9][hH][ \u00a0]?$")


_TEMPERATURES = ("摄氏度", "华氏度")


def _signed(sign: str | None, figure: str, word: str) -> str:
    """A negative figure as Chinese writes it before the unit ``word``: 零下 for a temperature, else
    the sign as written, a minus sign for the word ("minus 5 m" had come back "minus 5米")."""
    if not sign:
        return figure
    if word in _TEMPERATURES:
        return f"零下{figure}"
    return f"{'-' if sign.strip().lower() == 'minus' else sign}{figure}"


def _into_chinese(text: str) -> list[Span]:
    spans = []
    measures = list(_ENGLISH_MEASURE.finditer(text))
    for a, b in itertools.pairwise(measures):  # -20 °C to 60 °C: one span, 零下20摄氏度至60摄氏度
        sep = _ENGLISH_RANGE_SEP.fullmatch(text, a.end(), b.start())
        if sep and a.group(3).lower() == b.group(3).lower() and (sep.group().strip() != "and"
                                                               or text[:a.start()].rstrip().endswith("between")):
            word = _INTO_CHINESE[b.group(3).lower()]
            low, high = (_signed(m.group(1), m.group(2), word) for m in (a, b))
            spans.append(Span(a.start(), b.end(), text[a.start():b.end()], "number", f"{low}{word}至{high}{word}"))
    for m in measures:  # minus 5 to 3 degrees Celsius, 8 to 10°C, 5-10 kg: the unit once, for both figures
        first = _range_low(text, m.start())
        if first is None or any(r.start < m.end() and first.start() < r.end for r in spans) \
                or m.group(3) in ("G", "M"):
            continue
        word = _INTO_CHINESE[m.group(3).lower()]
        low, high = _signed(first.group(1), first.group(2), word), _signed(m.group(1), m.group(2), word)
        spans.append(Span(first.start(), m.end(), text[first.start():m.end()], "number", f"{low}{word}至{high}{word}"))
    ranges = list(spans)
    for m in measures:
        if any(r.start < m.end() and m.start() < r.end for r in ranges):
            continue
        sign, unit = m.group(1), m.group(3)
        if unit in ("G", "M"):  # 5G is a network, 5M five million
            continue
        if unit.lower() in _SPACED_ONLY and not text[m.end(2):m.start(3)]:
            continue  # 2min, 24hrs: a log's or a configuration's, kept as written (_TIME_SYMBOL)
        if unit == "m" and _CLOCK_MINUTES.search(text, 0, m.start()):
            continue  # minutes after hours: libtasn1's "at 12h 00m 01.12s" came back "12h 00米"
        if unit == "m" and not m.group(1) and (millions := decimal_value(m.group(2))) is not None \
                and _COUNTED_AFTER.match(text, m.end()):
            # Millions before what they count ("Sales of 4.3m units" came back 4.3米, metres).
            spans.append(Span(m.start(), m.end(), m.group(0), "number", in_wan(millions.scaleb(6))))
            continue
        word = _INTO_CHINESE[unit.lower()]
        figure = re.sub(r"\s?[×xX]\s?|\sby\s", "×", m.group(2))  # 120 x 80 x 45 mm -> 120×80×45毫米
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{_signed(sign, figure, word)}{word}"))
    spans += [Span(m.start(), m.end(), m.group(0), "number", m.group(1) + _INTO_CHINESE[m.group(2).lower()])
              for m in _HYPHEN_MEASURE.finditer(text)]
    for m in _WORDS_MEASURE.finditer(text):
        sign, value, unit = m.group(1), value_of(m.group(2)), m.group(3).lower()
        numeral = count_numeral(value)
        if unit in ("degree", "degrees"):  # "minus" spelt out before them is a temperature's
            if sign:
                spans.append(Span(m.start(), m.end(), m.group(0), "number", f"零下{numeral}度"))
            continue
        word = _INTO_CHINESE[unit]
        written = f"零下{numeral}" if sign and word in _TEMPERATURES else f"{'负' if sign else ''}{numeral}"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{written}{word}"))
    for m in _EN_AGED.finditer(text):  # with the people it counts, as the bounds below
        low, high, bound = m.group(3), m.group(4), (m.group(6) or "").lower()
        written = f"{low}至{high}岁" if high else f"{low}岁" + (
            "及以上" if bound in ("over", "above", "older") else "及以下" if bound else "")
        people = _EN_PEOPLE[m.group(2).lower()] if m.group(2) else ""
        written += people if people in ("", "儿童") else f"的{people}"
        # With their count (a study "followed 2,418 adults aged 45 to 70": 2,418名45至70岁的成年人).
        written = f"{m['n']}名{written}" if m["n"] else written
        spans.append(Span(m.start(), m.end(), m.group(0), "number", written))
    for m in _AGE_OF.finditer(text):
        bound = (m.group(1) or "").lower()
        written = m.group(2) + "岁" + ("以上" if bound in ("over", "above") else "以下" if bound else "")
        spans.append(Span(m.start(), m.end(), m.group(0), "number", written))
    for m in _EN_AGE_BOUND.finditer(text):
        people, bound = _EN_PEOPLE[m.group(2).lower()], "以下" if m.group(3).lower() == "under" else "以上"
        written = f"{m.group(4)}岁{bound}{people}" if people == "儿童" else f"{m.group(4)}岁{bound}的{people}"
        written = ("成人及" if m["adults"] else "") + written
        age = Span(m.start(), m.end(), m.group(0), "number", written)
        spans += [] if age.overlaps_any(spans) else [age]
    for m in _WORDS_DURATION.finditer(text):
        value = value_of(m.group(1))
        if value > 1 and qualified_in_english(text, m.start()) and not m.group(2)[0].isupper() \
                and not any(sp.start < m.end() and m.start() < sp.end for sp in spans):  # the Seven Years' War
            spans.append(Span(m.start(), m.end(), m.group(0), "number",
                              f"{count_numeral(value)}{_ENGLISH_DURATIONS[m.group(2).lower()]}"))
    for m in _SIGNED_DEGREES.finditer(text) if _WEATHER.search(text) else ():  # the mirror of 零下5度:
        below = Span(m.start(), m.end(), m.group(0), "number", f"零下{m.group(1)}度")  # the minus had gone
        spans += [] if below.overlaps_any(spans) else [below]
    for m in _ENGLISH_DURATION.finditer(text):  # and a range of them ("every 4 to 6 hours" came back
        unit = _ENGLISH_DURATIONS[m.group(3).lower()]  # 每1 4至6小时表, 4转换为6小时): 4至6小时
        kind = (m.group(2) or "").lower()
        if kind == "calendar" and unit == "天":
            unit = "个日历日"
        lead = "连续" if kind in ("consecutive", "straight") else ""
        first = _range_low(text, m.start())
        if first and not first.group(1):
            spans.append(Span(first.start(), m.end(), text[first.start():m.end()], "number",
                              f"{lead}{first.group(2)}至{m.group(1)}{unit}"))
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{lead}{m.group(1)}{unit}"))
    for m in _ENGLISH_AGE.finditer(text):
        age = Span(m.start(), m.end(), m.group(0), "number", f"{m.group(1)}岁")
        spans += [] if age.overlaps_any(spans) else [age]  # children under 5 years old: one bound
    for m in _APPOSITIVE_AGE.finditer(text):
        if m.group(1) not in _NOT_A_NAME:
            spans.append(Span(m.start(2), m.end(2), m.group(2), "number", f"{m.group(2)}岁"))
    for m in _EN_MAGNITUDE.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{m.group(1)}级"))
    for m in _FRAME_RATE.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"每秒{m.group(1)}帧"))
    for m in _MEGAPIXELS.finditer(text):
        wan = Decimal(m.group(1)) * 100  # 108 MP: 1.08亿像素
        written = f"{(wan / 10000).normalize():f}亿" if wan >= 10000 else f"{wan.normalize():f}万"
        spans.append(Span(m.start(), m.end(), m.group(0), "number", f"{written}像素"))
    for m in _ENGLISH_TIME.finditer(text):
        hour, minute = int(m.group(1)), m.group(2)
        if not 1 <= hour <= 12:
            continue
        at = _chinese_clock(hour, minute, m.group(3).lower() == "a")
        # An hour without its a.m./p.m. before the range's end has the end's ("Open house from 1 to 3
        # p.m." came back 从1到下午3点): 下午1点至3点; a later hour is the morning's (11 to 1 p.m.).
        bare = _BARE_HOUR.search(text, 0, m.start())
        if bare and 1 <= (low_hour := int(bare.group(1))) <= 12:
            same = low_hour % 12 <= hour % 12
            start = _chinese_clock(low_hour, bare.group(2), m.group(3).lower() == "a" if same else True)
            end = at.removeprefix(re.sub("[0-9].*", "", at)) if same and start[:2] == at[:2] else at
            spans.append(Span(bare.start(1), m.end(), text[bare.start(1):m.end()], "number", f"{start}至{end}"))
        spans.append(Span(m.start(), m.end(), m.group(0), "number", at))
    for m in _NOON.finditer(text):
        spans.append(Span(m.start(), m.end(), m.group(0), "number", "中午" if m.group().lower() == "noon" else "午夜"))
    spans = _rate_durations(text) + _from_clock_ranges(text, _with_zones(text, _clock_ranges(text, _with_weekdays(
        text, spans))))
    kept: list[Span] = []  # the rules above in order of precedence: "children under 10 years of age"
    for span in spans:     # is an age bound, not also a duration of 10 years inside it
        if not span.overlaps_any(kept):
            kept.append(span)
    return kept


def _chinese_clock(hour: int, minute: str | None, morning: bool) -> str:
    """An English hour of the 12-hour clock in Chinese, the part of the day named (a metro "runs from
    6:30 a.m. to 1 a.m." came back 上午1点, one in the morning as a forenoon's hour): 凌晨 before dawn,
    晚上 in the evening."""
    if morning:
        period = "午夜" if hour == 12 else "凌晨" if hour < 6 else "上午"
    else:
        period = "中午" if hour == 12 else "晚上" if hour >= 7 else "下午"
    return f"{period}{hour}点" + (f"{int(minute)}分" if minute and int(minute) else "")


# An hour of the clock right before "to <time>" (the time a.m./p.m. that follows it).
_BARE_HOUR = re.compile(r"(?<![0-9A-Za-z_.:,$])([0-9]{1,2})(?::([0-5][0-9]))?\s*(?:to|until|till|-|–|—)\s*\Z",
                        re.IGNORECASE)


# A time of day before its weekday, as American news dates it ("from noon Saturday until 8 p.m. Sunday"
# came back 从中午星期六，直到晚上8点星期日): Chinese names the day first, 星期六中午, 星期日晚上8点. Then two
# times joined by "to"/"until"/a dash are one range ("open from 10 a.m. to 7 p.m." came back 在上午10点
# …打开晚上7点, the end torn off): 上午10点至晚上7点.
_WEEKDAY_AFTER = re.compile(rf"\s+(?:on\s+)?({'|'.join(WEEKDAYS)})\b")
_NOON = re.compile(rf"(?<![A-Za-z])(?:noon|midnight)(?={_WEEKDAY_AFTER.pattern})", re.IGNORECASE)
_CLOCK_TO = re.compile(r"\s*(?:to|until|till|through|-|–|—)\s*", re.IGNORECASE)


_ZH_CLOCK = re.compile(r"(?:星期.)?(?:中午|午夜|凌晨|上午|下午|晚上)(?:[0-9]{1,2}点(?:[0-9]{1,2}分)?)?")


_CLOCK_OR_RANGE = re.compile(rf"{_ZH_CLOCK.pattern}(?:至{_ZH_CLOCK.pattern}|至[0-9]{{1,2}}点(?:[0-9]{{1,2}}分)?)?")


def _is_clock(span: Span) -> bool:
    return span.target is not None and _ZH_CLOCK.fullmatch(span.target) is not None


def _with_weekdays(text: str, spans: list[Span]) -> list[Span]:
    out = []
    for span in spans:
        day = _WEEKDAY_AFTER.match(text, span.end) if _is_clock(span) else None
        if day is not None:
            span = Span(span.start, day.end(), text[span.start:day.end()], span.kind,
                        weekday_in_chinese(day.group(1)) + (span.target or ""))
        out.append(span)
    return out


# A North American time zone after a time (a recall's "from 8 a.m. to 8 p.m. ET" came back 上午8点至晚上8点ET):
# Chinese names it first, 美国东部时间上午8点至晚上8点. Not CT/CST (China Standard Time too).
_ZONE_AFTER = re.compile(r"[ \u00a0]+(ET|EST|EDT|PT|PST|PDT|MT|MST|MDT|GMT)(?![A-Za-z0-9])")
_ZONES = {"ET": "美国东部时间", "EST": "美国东部时间", "EDT": "美国东部时间", "PT": "美国太平洋时间",
          "PST": "美国太平洋时间", "PDT": "美国太平洋时间", "MT": "美国山地时间", "MST": "美国山地时间",
          "MDT": "美国山地时间", "GMT": "格林尼治标准时间"}


def _with_zones(text: str, spans: list[Span]) -> list[Span]:
    out = []
    for span in spans:
        zone = _ZONE_AFTER.match(text, span.end) if span.target and _CLOCK_OR_RANGE.fullmatch(span.target) else None
        if zone is not None:
            span = Span(span.start, zone.end(), text[span.start:zone.end()], span.kind,
                        _ZONES[zone.group(1)] + (span.target or ""))
        out.append(span)
    return out


# "from" before hours from one to another is theirs (a recall's "Call … from 8 a.m. to 5 p.m. ET" came back
# "from 美国东部时间上午8点至下午5点", the word left in English between two spans).
_FROM_BEFORE = re.compile(r"(?<![A-Za-z])[Ff]rom[ \u00a0]$")


def _from_clock_ranges(text: str, spans: list[Span]) -> list[Span]:
    out = []
    for span in spans:
        start = span.start
        if span.target and "至" in span.target and "点" in span.target \
                and (before := _FROM_BEFORE.search(text, max(0, start - 5), start)):
            span = Span(before.start(), span.end, text[before.start():span.end], span.kind, f"从{span.target}")
        out.append(span)
    return out


def _clock_ranges(text: str, spans: list[Span]) -> list[Span]:
    clocks = sorted((s for s in spans if _is_clock(s)), key=lambda s: s.start)
    ranges: list[Span] = []
    for a, b in itertools.pairwise(clocks):
        if _CLOCK_TO.fullmatch(text, a.end, b.start) and not any(r.overlaps_any([a]) for r in ranges):
            ranges.append(Span(a.start, b.end, text[a.start:b.end], "number", f"{a.target}至{b.target}"))
    return ranges + spans  # first: the rules' order is their precedence


def one_period(text: str) -> str:
    """``3:30 p.m..`` -> ``3:30 p.m.``, ``Beijing Wallace Co., Ltd..`` -> ``… Co., Ltd.``: a restored
    span's closing abbreviation (a time, a company's 有限公司) and the sentence's period are one.
    An ellipsis (``Ltd...``) is left alone."""
    return _DOUBLE_PERIOD.sub(r"\1", text)


_DOUBLE_PERIOD = re.compile(r"(\b[ap]\.m\.|(?<![A-Za-z])(?:Ltd|Inc|Co|Corp|Bros|Jr|Sr|etc)\.)\.(?!\.)")


def no_age_after_a_name(text: str, written: list[str]) -> str:
    """``text`` (Chinese) without a 岁 (years of age) the model wrote right after a restored span
    that is no figure: it learned that a placeholder is mostly a number, and "born in Poland in
    1931" came back ``她波兰岁在1931年岁的时候`` (Poland and 1931年 were placeholders). 岁 follows
    a figure (``8岁``, ``三十岁`` is the model's own), never a place or a date."""
    for span in written:
        if span and not span[-1].isdigit():
            text = text.replace(span + "岁", span)
    return text


def no_counter_after(text: str, written: list[str], counters: str, words_after: str = "份度代初底末中级轻纪龄") -> str:
    """``text`` (Chinese) without a character of ``counters`` the model wrote right after a restored
    span of ``written`` (those the source does not follow with years: doctrans.engine.protect). For
    the model a placeholder is mostly a figure, and a figure wants a unit: after a term or a place
    it wrote 号 or 年 ("The stock market fell sharply" came back ``股市号头骨折了``, "Floods killed 12
    people" ``洪水年杀了12个人``), after a count 年 ("18,450 employees in 27 countries" came back
    ``在27年内有18,450员工``, in 27 years; "grow by 5%" ``5%年``, "9 days" ``9天年``). 年份, 年度,
    年代, 年轻… are words of their own (``words_after``: the characters that make them)."""
    for word in written:
        text = re.sub(rf"(?<![0-9.,，]){re.escape(word)}[{counters}](?![{words_after}])", word, text)
    return text


def no_ordinal_before_a_year(text: str, written: list[str]) -> str:
    """``text`` (Chinese) without a 第 the model wrote right before a restored calendar year ("the
    lowest level since 2021" came back ``第2021年以来最低级``): a year is no ordinal."""
    for year in written:
        if _A_YEAR.fullmatch(year):
            text = text.replace("第" + year, year)
    return text


_A_YEAR = re.compile(r"(?:1[5-9]|2[01])[0-9]{2}年?")


def drop_repeated_measures(text: str, written: list[str]) -> str:
    """``text`` without the unit character a model wrote again after a restored measure that has
    it (``当我8岁岁时`` -> ``当我8岁时``, ``15公里公里`` -> ``15公里``: the model learned that a figure
    wants its unit), and into English the unit's word (``15 km km``). Dates' 年
    月 日 are doctrans.dates.drop_repeated_units' (``12月日程`` and ``2日日本`` are words)."""
    for measure in written:
        word = re.search(r"(?<![A-Za-z])[A-Za-z]+$", measure)
        if word:  # into English: 15 km km, 1.25 billion yuan yuan
            text = re.sub(re.escape(measure) + r"\s+" + re.escape(word.group()) + r"(?![A-Za-z])", measure, text)
            continue
        unit = re.search(r"[\u4e00-\u9fff]+$", measure)
        if unit is not None and unit.group()[-1] == "年":  # "5 years ago" came back 5年年前, "For the first
            # time in 20 years" 20年年第一次; not before what makes 年 a word's (年龄, 年轻, 年底…)
            text = re.sub(re.escape(measure) + rf"年(?![{YEAR_WORD_NEXT}华级])", measure, text)
        if unit is None or unit.group()[-1] in "年月日号":
            continue
        # The unit again, whole or its end (15公里公里, 8岁岁, 300万美元美元), longest first; a part
        # of a longer unit only before no Han character (15公里里。, but 15公里里程 is a word).
        run = unit.group()
        for k in range(len(run), 0, -1):
            again = re.escape(measure + run[-k:])
            text = re.sub(again if k == len(run) or k > 1 else again + r"(?![\u4e00-\u9fff])", measure, text)
    return text
