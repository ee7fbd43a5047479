r"""What a translation must never change: verbatim spans, their placeholders, and their restoration.

A neural model treats ``320`` or ``ttl_seconds`` as just more tokens and may rewrite them
(``320`` → ``30``, ``1,250`` → ``1, 250``, ``v2.1.0`` → ``2.1.10.``). In a report a silently
changed figure is worse than no translation, so the pipeline never lets the model see such spans:
:func:`mask` replaces each by a placeholder ``⦅k⦆`` (U+2985, k, U+2986; a single SentencePiece user
symbol, and the NFKC form of the fullwidth ``｟k｠``), the model learns to copy placeholders (training
masks spans shared by both sides of a pair the same way, see training/verbatim_pairs.py), and
:func:`unmask` puts the original text back byte for byte -- also when the model dropped, repeated or
invented a placeholder, reporting it so the engine can re-decode. :func:`is_untranslatable` tells a
document writer that a segment (a table cell, a line) holds nothing to translate at all, so it is
copied without calling the model. This module is pure Python + ``re``: every document format and the
training pipeline use the same rules.

Rules, in priority order (a kind earlier in the list wins a tie between two equally long candidates;
otherwise the longest candidate wins, so ``$1,250.00`` beats ``1,250`` and ``docs/index.rst`` beats
``index.rst``; the chosen spans never overlap and come back in text order). The test suite parses
this table: each row's spans (``·`` between them) must be exactly what :func:`find_spans` returns
for the example, all of that row's kind.

| kind       | example                                   | verbatim spans                          |
|------------|-------------------------------------------|-----------------------------------------|
| literal    | use ``x = 1`` here                        | ``x = 1``                               |
| literal    | the `argv` list                           | `argv`                                  |
| literal    | use ``a`` then :exc:`B` now               | ``a`` · :exc:`B`                        |
| literal    | Call :func:`os.path.join` first           | :func:`os.path.join`                    |
| literal    | see :ref:`the guide <guide-start>`        | :ref:` · <guide-start>`                 |
| literal    | read `the docs <https://x.org>`_ now      | ` · <https://x.org>`_                   |
| literal    | a :ref:`可等待对象 <awaitables>`           | :ref:` · <awaitables>`                  |
| literal    | a :term:`文件对象 <file object>`          | :term:` · <file object>`                |
| literal    | >>> import configparser                   | >>> import configparser                 |
| literal    | $ pip install doctrans                    | $ pip install doctrans                  |
| tag        | <b>粗体</b>                               | <b> · </b>                              |
| tag        | line<br/>break and <br>                   | <br/> · <br>                            |
| tag        | <a href="index.html" class="x">here</a>   | <a href="index.html" class="x"> · </a>  |
| tag        | A&nbsp;B &amp; C&#160;D                   | &nbsp; · &amp; · &#160;                 |
| url        | see https://example.org/a?b=1&c=2.        | https://example.org/a?b=1&c=2           |
| url        | 访问https://x.org/路径                     | https://x.org/                          |
| url        | (www.example.com)                         | www.example.com                         |
| url        | from http:// to https://.                 | http:// · https://                      |
| email      | Write to help-libtasn1@gnu.org.           | help-libtasn1@gnu.org                   |
| format     | Saved %s of %d files                      | %s · %d                                 |
| format     | %(name)s has %5.2f%%                      | %(name)s · %5.2f · %%                   |
| format     | Hello {name}, {0} and {}                  | {name} · {0} · {}                       |
| format     | {{ title }} in ${HOME} or $PATH           | {{ title }} · ${HOME} · $PATH           |
| literal    | 用 ``{{`` 和 ``}}`` 包围                   | ``{{`` · ``}}``                         |
| path       | edit /etc/hosts now                       | /etc/hosts                              |
| path       | open C:\Users\me\a.txt                    | C:\Users\me\a.txt                       |
| path       | see docs/index.rst.                       | docs/index.rst                          |
| path       | in ~/.config and ./run.sh                 | ~/.config · ./run.sh                    |
| path       | under /usr or /opt/, not /help            | /usr · /opt/                            |
| path       | in $XDG_DATA_HOME/mime or ${HOME}/.local  | $XDG_DATA_HOME/mime · ${HOME}/.local    |
| path       | see <MIME>/packages/ and <MIME>/magic     | <MIME>/packages/ · <MIME>/magic         |
| path       | unpack agent-3.2.1.tar.gz in agent-3.2.1  | agent-3.2.1.tar.gz · agent-3.2.1        |
| path       | get node-v18.2.0 or foo_2.0.1_amd64.deb   | node-v18.2.0 · foo_2.0.1_amd64.deb      |
| code       | a text/html or image/svg+xml file         | text/html · image/svg+xml               |
| date       | on 2024-03-15, or 15/03/2024              | 2024-03-15 · 15/03/2024                 |
| date       | am 15.03.2024 um                          | 15.03.2024                              |
| date       | at 2024-03-15T10:30:00Z                   | 2024-03-15T10:30:00Z                    |
| time       | at 10:30 or 9:05:30                       | 10:30 · 9:05:30                         |
| time       | 下午3：30开会                              | 3：30                                   |
| version    | since v2.1.0.                             | v2.1.0                                  |
| version    | Python 3.12.1 and 1.0.0-beta.2            | 3.12.1 · 1.0.0-beta.2                   |
| version    | 3.12.0a1 or V8 on 192.168.0.1             | 3.12.0a1 · V8 · 192.168.0.1             |
| code       | A4 paper, H100, Q3                        | A4 · H100 · Q3                          |
| code       | COVID-19 and 4K, 3D打印                    | COVID-19 · 4K · 3D                      |
| code       | pass --verbose or --out=a.txt            | --verbose · --out=a.txt                 |
| code       | Run pip install doctrans to get it        | pip install doctrans                    |
| code       | 运行 sudo ./install.sh --force 安装        | sudo ./install.sh --force               |
| code       | call GET /v2/orders?limit=50 now         | GET /v2/orders?limit=50                 |
| code       | a 429 Too Many Requests response          | 429 Too Many Requests                   |
| code       | mp3 on x86 at commit 876e5bc              | mp3 · x86 · 876e5bc                     |
| code       | ASN.1, X.509 and H.264.                   | ASN.1 · X.509 · H.264                   |
| code       | press Ctrl+S or Ctrl+Shift+Esc, Alt + F4  | Ctrl+S · Ctrl+Shift+Esc · Alt + F4      |
| code       | supports Wi-Fi 6 and Wi-Fi                | Wi-Fi 6 · Wi-Fi                         |
| code       | Press Enter to save, or hit the Esc key.  | Enter · Esc                             |
| code       | 按 Enter 键保存，按F5键刷新               | Enter · F5                              |
| code       | see issue #412 and PR #1290               | #412 · #1290                            |
| code       | (order no. 58213) and No. 5               | no. 58213 · No. 5                       |
| code       | Nvidia (NASDAQ: NVDA) and (HKEX:0700)     | NASDAQ: NVDA · HKEX:0700                |
| code       | the S&P index, AT&T and R&D               | S&P · AT&T · R&D                        |
| identifier | Set ttl_seconds and MAX_SIZE              | ttl_seconds · MAX_SIZE                  |
| identifier | Set engine = "btree" in fastkv.toml       | engine = "btree" · fastkv.toml          |
| identifier | if __name__ == x                          | __name__                                |
| identifier | CamelCase, getElementById, iPhone, macOS  | CamelCase · getElementById · iPhone · macOS |
| identifier | call os.path.join or main()               | os.path.join · main()                   |
| identifier | edit setup.py on gnu.org                  | setup.py · gnu.org                      |
| identifier | XDG_DATA_HOME:XDG_DATA_DIRS, std::map     | XDG_DATA_HOME:XDG_DATA_DIRS · std::map  |
| identifier | call foo::bar() or a::b                   | foo::bar() · a::b                       |
| identifier | 例如 name,email 或 id,name,age             | name,email · id,name,age                |
| identifier | of der[0]..der[len-1], argv[i] and arr[0] | der[0]..der[len-1] · argv[i] · arr[0]   |
| citation   | the MIME system[MIME] of [RFC-2119]       | [MIME] · [RFC-2119]                     |
| citation   | as shown [3], [4, 7] and [12-15]          | [3] · [4, 7] · [12-15]                  |
| citation   | see [BaseDir] and [Feng et al. 2022]      | [BaseDir] · [Feng et al. 2022]          |
| citation   | a million[3] per the spec[BaseDir]        | [3] · [BaseDir]                         |
| citation   | on pydocs.¹ Smith²³ said, not in m²       | ¹ · ²³                                  |
| number     | 销售额为1,250万元                          | 1,250                                   |
| number     | 同比增长3.5%。                             | 3.5%                                    |
| number     | a ratio of 0.75 and -12 or −3             | 0.75 · -12 · −3                         |
| number     | held at 5.25%-5.5%                        | 5.25% · 5.5%                            |
| number     | 2024年                                    | 2024                                    |
| number     | 2024年3月15日                             | 2024 · 15                               |
| number     | 共１２３人                                 | １２３                                  |
| number     | lr 1e-5 or 6.02E23                        | 1e-5 · 6.02E23                          |
| number     | costs $1,250.00 or ¥99 or €5              | $1,250.00 · ¥99 · €5                    |
| number     | ISO 9001                                  | 9001                                    |
| number     | 3 apples, 1/2 of 10kg, 0x1F               | 3 · 1/2 · 10 · 0x1F                     |
| number     | juice of 1½ lemons, ¾ cup, 2 ⅓ tbsp       | 1½ · ¾ · 2 ⅓                            |
| number     | the 1st and 2nd                           | 1 · 2                                   |
| number     | pages 10-20                               | 10 · 20                                 |
| number     | 电话 010-12345678，ISBN 978-3-16-148410-0  | 010-12345678 · 978-3-16-148410-0        |
| number     | call 0113 496 0000 or 0571-8765 4321      | 0113 496 0000 · 0571-8765 4321          |
| number     | call (212) 555-0148 or +1 212 555 0148    | (212) 555-0148 · +1 212 555 0148        |
| number     | 尺寸120×80×45，功率≤15W，误差±0.5%          | 120×80×45 · ≤15W · ±0.5%                |
| (none)     | e.g. and i.e. at 5 p.m.                   | 5                                       |
| (none)     | and/or, km/h, TCP/IP                      | (none)                                  |
| (none)     | audio/video cables and text/image pairs   | (none)                                  |
| (none)     | NASA, Hello, APIs, U.S.A.                 | (none)                                  |
| (none)     | 三月、一百二十                              | (none)                                  |
| (none)     | _emphasis_ here                           | (none)                                  |
| (none)     | [Note] a [link](x) and [ref]: [see here]  | (none)                                  |

(The ``(none)`` rows list words that look like spans but are not; the ``5`` in the first is a
number.)

Decisions on borderline cases, and why:

- Every number is masked, even a lone digit in prose (``3 apples``): the model copies a placeholder
  as reliably as a digit, and a changed figure is the failure users notice, so masking is the safe
  default. Only the number part is masked: units and suffixes (``万元``, ``年``, ``kg``, ``st`` of
  ``1st``, ``%`` excepted) stay translatable, so ``2024年`` → ``⦅1⦆年`` → ``⦅1⦆`` and ``1st`` →
  ``第⦅1⦆``. A sign belongs to the number only where it cannot be a dash (``-12`` yes, ``10-20`` and
  ``5.25%-5.5%`` no: the second rate was masked negative).
  Digit groups joined by hyphens are one number when there are three groups or more or one has
  five digits or more (a telephone number, an ISBN, a part number: the models wrote
  ``010-12345678`` as ``010, 12345678`` and ``010或12345678``); two short groups are a range.
  Figures with a magnitude word the output language does not use (``1,250万`` into English,
  ``12.5 million`` into Chinese) are the exception: doctrans.magnitudes makes each one span whose
  target is the value written that language's way (``12.5 million``, ``1250万``), masked and
  restored like a glossary term.
- Chinese dates: ``2024年3月15日`` masks the year and the day but leaves the *month* (a number 1-12
  right before 月) visible: in English the month is a word (``March 15, 2024``), which the model
  can only write if it sees the digit; a masked month would come out as a bare number. Training
  pairs agree: ``3`` is not shared by ``3月`` and ``March``, so it is never masked there either.
  Numeric dates (``2024-03-15``, ``15/03/2024``) are one span, kept as written.
- Times: only the digits (``10:30``); ``am``/``pm``/``下午`` stay translatable.
- Chinese numerals (``三月``, ``一百二十``) are words, translated by the model.
- Codes: an ASCII token with both letters and digits (``A4``, ``H100``, ``mp3``, ``COVID-19``);
  a token that starts with digits and goes on in lower case (``10kg``, ``1st``, ``64-bit``) is a
  number plus a translatable unit instead. ``ISO 9001`` keeps ``9001``; ``ISO`` (like ``NASA``, an
  all-caps word without digits) is left to the model, which may legitimately translate acronyms.
- Key combinations (``Ctrl+S``, ``Alt + F4``) are code: a modifier key, ``+`` and a key; the model
  wrote ``Press Ctrl+S`` as ``press Crl+S``. A key alone is code after press/hit/tap or before 键
  (``Press Enter``, ``按 Enter 键``); ``the end`` or a ``Home`` page elsewhere is prose.
- Identifiers need a sign of being code: an underscore (``ttl_seconds``, ``__name__``), an inner
  capital (``getElementById``, ``iPhone``; not ``APIs``/``IDs``, plural acronyms), a dotted name
  whose parts all have two characters or more (``os.path``, ``setup.py``, ``gnu.org``; not ``e.g``,
  ``U.S.A``, ``Ph.D``) or ``()`` (``main()``). ``_word_`` is Markdown emphasis, not an identifier;
  ``__bold__`` cannot be told from a dunder name and is kept (technical documents come first).
- Citations in square brackets are kept whole: a reference key in capitals, with an inner capital
  or with a year (``[MIME]``, ``[RFC-2119]``, ``[BaseDir]``, ``[Feng et al. 2022]``) or numbers
  (``[3]``, ``[4, 7]``, ``[12-15]``), also glued to the word before (a DocBook bibliography
  reference, ``system[MIME]``: the en->zh model wrote ``系统(MIME``). A bracketed plain word
  (``[Note]``) is prose, and a Markdown link's text (``[x](url)``, ``[x][ref]``, ``[x]: url``) is
  the document's to translate.
- Names joined by ``::`` (``std::map``) or an environment-variable list (``XDG_DATA_HOME:XDG_DATA_DIRS``,
  capitals with an underscore) are one identifier: the model split the list and dropped its second half.
- Paths: absolute (``/etc/hosts``: two parts, a trailing slash, a ``~``/``.``/``..`` start, or one
  of the Unix top-level directories, ``/usr``, ``/etc``, ``/tmp``...; so ``/help`` is not),
  Windows (``C:\x\y``, ``\\server\share``; no spaces), and relative with a file extension
  (``docs/index.rst``; ``and/or``, ``km/h``, ``TCP/IP`` are words). Paths and URLs are ASCII:
  in ``访问https://x.org/路径`` the span stops before the Chinese.
- Inline code and markup are kept whole, roles included (``:ref:`os.path``); a role or a reST link
  with a title (``:ref:`text <target>```, ```text <url>`_``) is two spans, its markup with the
  opening and its target with the closing, and the title between them is translated with the
  sentence (the technical references translate it). A line starting with
  ``>>>`` or a ``$`` shell prompt is code to its end.
- URL, e-mail, path and version spans drop trailing ``.,;:!?'"`` and unbalanced closing brackets.
- Placeholders already in the source (``⦅3⦆``, ``｟3｠``) are spans themselves, so they survive.
- ``<word ...>`` is taken for a tag (HTML attributes need no value), so prose like ``a <b and c> d``
  loses ``<b and c>`` to the model -- rare and harmless, as it is copied.

:func:`mask` masks at most 16 spans (the vocabulary has ``⦅1⦆``…``⦅16⦆``), in text order; spans
after the 16th are left in the text for the model (``Masked.unmasked`` lists them, so a caller can
split the segment or check them after translation). The same text twice gets two placeholders:
the model copies placeholders in order, and a repeated one would be ambiguous to restore.

Segments with nothing to translate (:func:`is_untranslatable`): what is left after removing every
span has no letter (of any script). Borderline cases, also parsed by the tests:

| untranslatable | text                |
|----------------|---------------------|
| yes            | 320                 |
| yes            | 2024-03-15          |
| yes            | https://x.org       |
| yes            | v2.1.0              |
| yes            | —                   |
| yes            | 3.5%                |
| yes            | Q3                  |
| yes            | （320）             |
| yes            | ttl_seconds = 30    |
| yes            | $1,250.00           |
| yes            | >>> import os       |
| yes            |                     |
| no             | ISO 9001            |
| no             | 2024年              |
| no             | 100 kg              |
| no             | x = 3               |
| no             | Total: 320          |
| no             | 3月                 |

``ttl_seconds = 30`` is code (an assignment), ``ISO 9001`` keeps an acronym the model may render,
``2024年`` should become ``2024`` in English, ``x = 3`` keeps a letter (a one-letter variable cannot
be told from a word such as ``a``), and the empty string has nothing to translate.

Glossary terms (doctrans.glossary) join the spans as ``term`` spans carrying a ``target``:
:func:`protected_spans` merges them (a term holding whole spans wins, a term cutting one is
dropped), they are numbered with the other spans, and restoration inserts the target term.

After translation, :func:`check` lists what of the source must be in the translation and is not
(every kind in :data:`CHECKED_KINDS`, as often as in the source, as a whole token, compared in
NFKC; glossary targets too): the sentence-level warnings of ``--report`` and the TUI's marks.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from doctrans.data_lists import word_set
from doctrans.segment import SUPERSCRIPT_DIGITS, is_cjk

MAX_PLACEHOLDERS = 16
PLACEHOLDER_OPEN, PLACEHOLDER_CLOSE = "\u2985", "\u2986"  # ⦅ ⦆, the NFKC form of the fullwidth ｟ ｠
KINDS = ("literal", "tag", "url", "email", "format", "path", "date", "time", "version", "code", "identifier",
         "citation", "number")


def placeholder(k: int) -> str:
    """The placeholder symbol for the k-th span (1-based), as it stands in the SPM vocabulary."""
    return f"{PLACEHOLDER_OPEN}{k}{PLACEHOLDER_CLOSE}"


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    text: str
    kind: str
    # What restoration inserts: None = the span itself (verbatim); a glossary term carries its
    # target term here (doctrans.glossary), so the same placeholder mechanism inserts it exactly.
    target: str | None = None

    @property
    def output(self) -> str:
        return self.text if self.target is None else self.target

    def overlaps_any(self, others: Iterable[Span]) -> bool:
        """Whether this span shares a character with any of ``others``."""
        return any(self.start < o.end and o.start < self.end for o in others)


@dataclass(frozen=True)
class Masked:
    """A masked segment: ``text`` holds ``⦅k⦆`` where ``source`` held ``spans[k-1]``."""

    source: str
    text: str
    spans: tuple[Span, ...]
    offsets: tuple[int, ...]  # where ⦅k⦆ starts in ``text``
    unmasked: tuple[Span, ...] = ()  # spans beyond the placeholder limit, left in the text


@dataclass(frozen=True)
class Restored:
    """The translation with every span put back; ``problems`` is empty when the model copied each
    placeholder exactly once (the engine may re-decode otherwise)."""

    text: str
    problems: list[str]
    missing: tuple[int, ...] = ()
    duplicated: tuple[int, ...] = ()
    unknown: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


# ---------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------

# Lookarounds use explicit ASCII classes, not \w: a span glued to Chinese (设置ttl_seconds为30) is
# still a span, because CJK text has no spaces to separate it.
_W = "0-9A-Za-z_"
_TRAILING = ".,;:!?'\""
_CLOSERS = {")": "(", "]": "[", "}": "{"}

Finder = Callable[[str], Iterator[tuple[int, int]]]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop sentence punctuation and unbalanced closing brackets from the end of a URL-like span
    (``see https://x.org.`` / ``(https://x.org)``): they belong to the prose around it."""
    while end > start:
        c = text[end - 1]
        unbalanced = c in _CLOSERS and text.count(c, start, end) > text.count(_CLOSERS[c], start, end)
        if c not in _TRAILING and not unbalanced:
            break
        end -= 1
    return start, end


def _regex(pattern: str, trim: bool = False, accept: Callable[[str, int, int], bool] | None = None) -> Finder:
    """A finder from a regex; a named group ``s`` narrows the span to that group."""
    rx = re.compile(pattern)

    def find(text: str) -> Iterator[tuple[int, int]]:
        for m in rx.finditer(text):
            start, end = m.span("s") if "s" in rx.groupindex else m.span()
            if trim:
                start, end = _trim(text, start, end)
            if end > start and (accept is None or accept(text, start, end)):
                yield start, end
    return find


# A C function's prototype on a line of its own (a reference manual's ``int asn1_parser2tree (const
# char * file, asn1_node * definitions, char * error_desc)``: the model translated its parameters,
# definitions -> 定义, FILE -> 文件). Types and names as C writes them, one parameter or more.
_C_TYPE = r"(?:(?:const|unsigned|signed|struct|enum|static|extern|inline|volatile)\s+)*[A-Za-z_][0-9A-Za-z_]*"
_C_PARAM = rf"(?:{_C_TYPE}(?:\s*\*+\s*|\s+)(?:const\s+)?[A-Za-z_][0-9A-Za-z_]*(?:\[[0-9]*\])?|void|\.\.\.)"
_C_PROTOTYPE = (rf"(?m)^[ \t]*(?P<s>{_C_TYPE}(?:\s*\*+\s*|\s+)[A-Za-z_][0-9A-Za-z_]*\s*"
                rf"\(\s*{_C_PARAM}(?:\s*,\s*{_C_PARAM})*\s*\)\s*;?)[ \t]*$")
_C_TYPE_WORDS = re.compile(r"\b(?:void|int|char|long|short|double|float|unsigned|signed|const|size_t|ssize_t|bool|"
                           r"struct|enum|[A-Za-z0-9]+_t|[A-Z][A-Z0-9_]+)\b|\*|_")


def _c_prototype_ok(text: str, start: int, end: int) -> bool:
    """A prototype, not a sentence that looks like one ("Install packages (numpy pandas, scipy
    tools)"): its return type and a parameter in C's words (a C type, a pointer, an underscore)."""
    head, _, params = text[start:end].partition("(")
    returns = (head.split() or [""])[0]
    return _C_TYPE_WORDS.search(returns) is not None and _C_TYPE_WORDS.search(params) is not None


def _not_month(text: str, start: int, end: int) -> bool:
    """A number 1-12 right before 月 is a month name in the other language (3月 → March): visible."""
    s = text[start:end]
    return not (end < len(text) and text[end] == "月" and len(s) <= 2 and s.isdigit() and 1 <= int(s) <= 12)


# The Filesystem Hierarchy Standard's top-level directories: ``/usr`` alone is a path (the en->zh
# model dropped it from a spec), ``/help`` or ``/s`` in prose is not.
_UNIX_ROOTS = frozenset({"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/media", "/mnt", "/opt",
                         "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var"})


def _abs_path_ok(text: str, start: int, end: int) -> bool:
    s = text[start:end]
    return s[0] in "~." or s.endswith("/") or s.count("/") >= 2 or s in _UNIX_ROOTS


# The lookahead only skips tokens without a digit or a capital (plain words: nearly all of them),
# which _codes would reject anyway; it made the rule ~5x cheaper on the dev sentences.
_CODE_TOKEN = re.compile(rf"(?<![{_W}\-.])(?=[0-9A-Za-z\-]*[0-9A-Z])[0-9A-Za-z]+(?:-[0-9A-Za-z]+)*(?![{_W}])")
_HEX = re.compile(r"(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}")


def _codes(text: str) -> Iterator[tuple[int, int]]:
    """Alphanumeric codes (A4, H100, COVID-19, mp3, x86, commit hashes): runs of hyphen-joined parts
    that each hold a digit or a capital (``pre-2024`` yields nothing, ``COVID-19-related`` yields
    ``COVID-19``), with letters and digits, starting with a letter unless all capitals (4K, 3D)."""
    for m in _CODE_TOKEN.finditer(text):
        parts: list[tuple[int, int]] = []
        pos = m.start()
        for part in m.group().split("-"):
            parts.append((pos, pos + len(part)))
            pos += len(part) + 1
        runs: list[list[tuple[int, int]]] = [[]]
        for a, b in parts:
            p = text[a:b]
            if any(c.isdigit() or c.isupper() for c in p):
                runs[-1].append((a, b))
            elif runs[-1]:
                runs.append([])
        for run in runs:
            if not run:
                continue
            a, b = run[0][0], run[-1][1]
            s = text[a:b]
            mixed = any(c.isdigit() for c in s) and any(c.isalpha() for c in s)
            letter_led = s[0].isalpha() or not any(c.islower() for c in s)
            if (mixed and letter_led) or _HEX.fullmatch(s):
                yield a, b


# The lookahead skips runs without an underscore, a dot, a bracket or an inner capital (plain words),
# which _identifiers would reject anyway.
_CHAIN = re.compile(rf"(?<![{_W}.])(?=[{_W}.]*(?:[_.(]|[a-z0-9][A-Z]|[A-Z]{{2}}[a-z]))"
                    rf"[A-Za-z_][{_W}]*(?:\.[A-Za-z_][{_W}]*)*(?:\(\))?")
_CAMEL = re.compile(r"[a-z0-9][A-Z]|[A-Z]{2}[a-z]")
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")
_EMPHASIS = re.compile(r"_[^_]+_")


# A bracketed reference key: capitals (MIME, RFC-2119, W3C), an inner capital (BaseDir), a name and a
# year (Feng et al. 2022, Smith2020), or numbers (3; 4, 7; 12-15). Not a Markdown link's text:
# nothing of ``(``, ``[``, ``:`` after it, no ``]`` or ``!`` before it.
_CITATION = re.compile(
    r"(?<![\]!])\[(?:[A-Z][A-Z0-9]+(?:[-_.:/][A-Z0-9]+)*"
    r"|[A-Z][a-z]+[A-Z][0-9A-Za-z]*"
    r"|[A-Z][a-z]+(?: et al\.| and [A-Z][a-z]+)?,? ?[0-9]{4}[a-z]?"
    r"|[0-9]{1,3}(?:(?:, ?|[-\u2013])[0-9]{1,3})*)\](?![(\[:])")


def _identifiers(text: str) -> Iterator[tuple[int, int]]:
    """Names that show they are code: an underscore, an inner capital, a dotted name or ``()``."""
    for m in _CHAIN.finditer(text):
        s = m.group()
        parts = s.removesuffix("()").split(".")
        if not any(c.isalpha() for c in s):
            continue
        if (s.endswith("()")
                or any("_" in p and not _EMPHASIS.fullmatch(p) for p in parts)
                or any(_CAMEL.search(p) and not _PLURAL_ACRONYM.fullmatch(p) for p in parts)
                or (len(parts) >= 2 and all(len(p) >= 2 for p in parts))):
            yield m.span()


_INDEX = r"\[[A-Za-z0-9_+\-*]{1,12}\]"
_INDEXED = re.compile(rf"(?<![{_W}.\]])[A-Za-z_][{_W}]*{_INDEX}(?:{_INDEX})*"
                      rf"(?:(?:\.\.|\.|->)[A-Za-z_][{_W}]*(?:{_INDEX})*)*")
# What reads as an index rather than a citation's key ([MIME], [RFC-2119], [BaseDir]): a small
# letter first, an underscore or an operator, or one capital (a[N]).
_CODE_INDEX = re.compile(r"[a-z]|.*[_+*]|[A-Z]$")


def _indexed(text: str) -> Iterator[tuple[int, int]]:
    """An array element in code (``der[0]..der[len-1]``, ``argv[i]``, ``buf[n+1]``), one span: its
    ``[0]`` read as a citation was dropped by the model and put back inside the brackets
    (``der[[0] len-1]``). A number in brackets after a word stays a citation (``million[3]``)
    unless it is 0 or the expression goes on (``a[1].x``, ``m[2][3]``, ``p[1]->next``)."""
    for m in _INDEXED.finditer(text):
        expression = m.group()
        first_close = expression.index("]")
        index = expression[expression.index("[") + 1:first_close]
        chained = len(expression) > first_close + 1 or text[m.end():m.end() + 1] in ("[", "(")
        if chained or index == "0" or (not index.isdigit() and _CODE_INDEX.match(index)):
            yield m.span()


# A program's long option (``--verbose``, ``--dry-run``, ``--tags=selenium``): "check your version by
# running python3 --version" came back "python3来检查你的版本 -- 终端中的转换", the option's name
# translated. Prose writes a dash as ``--`` too ("My bottegas --where are they?", "Vogue"--that's):
# glued to a word or a quote it is a dash, and a plain word after it is an option only where the
# text says so -- a hyphen, digit, underscore or ``=value`` in it, a program or another option
# before it, "the/with/use/pass ... --x", or "--x flag/option" and the end of a clause after it.
_OPTION = re.compile(r"(?:(?<![^\s(\[{<“‘（])|(?<=\s[\"'])|(?<=^[\"']))"
                     r"--(?P<name>[A-Za-z0-9][A-Za-z0-9_\-]*[A-Za-z0-9]|[A-Za-z0-9])"
                     r"(?:=[^\s,;)\]}'\"”’，。；）]+)?(?![A-Za-z0-9_\-=])")
_OPTION_BEFORE = re.compile(r"(?:\b(?:the|a|an|with|without|use|using|pass|passing|add|adding|specify|specifying"
                            r"|set|setting|run|running|try|call|calling|give|giving|enable|disable|or|and)"
                            r"|[A-Za-z0-9_.\-]*[0-9][A-Za-z0-9_.\-]*|--[A-Za-z0-9_\-=]+"
                            r"|pip|pip3|python|python3|git|npm|npx|node|docker|kubectl|cargo|go|make|cmake|gcc|ls"
                            r"|grep|curl|wget|ssh|brew|apt|apt-get|yarn|pytest|ruff|mypy|conda|uv|deno|rustc|java"
                            r"|mvn|gradle|dotnet|helm|terraform|ansible|sudo|install|uninstall|upgrade|build"
                            r"|test|init|commit|push|pull|clone|checkout|run|start|serve|migrate)\s+$"
                            r"|(?:使用|用|加上|添加|运行|执行|传入|传递|指定|带上|加)\s*$", re.IGNORECASE)
_OPTION_AFTER = re.compile(r"\s+(?:flags?|options?|switch(?:es)?|arguments?|parameters?|settings?)\b"
                           r"|\s*(?:$|[.,;:)\]}'\"”’，。；：）]|选项|参数|标志|开关)", re.IGNORECASE)
# A dash before an interjection is fiction's ("I said --no."), not an option.
_NOT_OPTIONS = frozenset({"no", "yes", "oh", "ah", "hey", "well", "and", "but", "or", "so", "then", "not", "never",
                          "what", "wait", "please", "sir", "maybe", "okay", "ok", "right", "now", "i", "you", "he",
                          "she", "we", "they", "it"})


def _options(text: str) -> Iterator[tuple[int, int]]:
    for m in _OPTION.finditer(text):
        name = m.group("name")
        if name.lower() in _NOT_OPTIONS:
            continue
        before = _OPTION_BEFORE.search(text, max(0, m.start() - 40), m.start())
        if any(c in name for c in "-_0123456789") or "=" in m.group() or before or _OPTION_AFTER.match(text, m.end()):
            yield _trim(text, *m.span())  # a value's full stop is the sentence's


# A command in running text after the verb that runs it ("Run sudo ./install.sh --server
# backup.example.com --token YOUR_TOKEN." came back "run sudo ⦅1⦆ --server ⦅2⦆ --token ⦅3⦆" and
# "Run pip install doctrans to get the package" 运行 pip 安装 doctrans: the command translated). A
# known program or a ./script and at least one argument, up to a word that goes on in prose (to,
# and, then...), a Chinese character, or a clause's mark at a token's end (the sentence's full stop).
_RUN_VERB = re.compile(r"(?:\b(?:[Rr]un|[Rr]unning|[Tt]ype|[Tt]yping|[Ee]xecute|[Ee]xecuting|[Ee]nter|[Ii]ssue)"
                       r"(?:\s+the\s+command)?\s+|(?:运行|执行|输入)(?:命令)?\s*)$")
# ... and after "with", "using" or "via", a package manager's command of two words or more ("Install the
# package with npm install --save quickcache" came back 使用 npm 安装--save快速缓存: "with git commits" is prose).
_WITH_TOOL = re.compile(r"\b(?:with|using|via)\s+$", re.IGNORECASE)
_PROGRAM = re.compile(r"(?<![\w./-])(?:sudo|pip3?|pipx|python3?|py|git|npm|npx|pnpm|yarn|node|deno|docker|podman"
                      r"|kubectl|helm|cargo|rustup|go|make|cmake|gcc|clang|grep|curl|wget|ssh|scp|rsync|brew|apt"
                      r"|apt-get|dnf|yum|pacman|snap|winget|choco|scoop|pytest|conda|uv|poetry|systemctl|journalctl"
                      r"|service|chmod|chown|mkdir|tar|unzip|bash|sh|zsh|terraform|ansible|dotnet|java|mvn|gradle"
                      r"|php|composer|ruby|gem|bundle|rails|flask|django-admin|uvicorn|gunicorn|ffmpeg|openssl"
                      r"|perf|strace|ltrace|gdb|valgrind|lsof|htop|sed|awk|jq|rg"
                      r"|\.{1,2}/[\w./-]+)(?=\s)")
_PROSE_AFTER_COMMAND = frozenset({"to", "and", "then", "so", "in", "on", "for", "from", "with", "which", "that", "if",
                                  "when", "as", "or", "before", "after", "until", "again", "first", "instead", "but",
                                  "while", "where", "once", "now", "inside", "at", "by", "into", "the", "a", "an",
                                  "this", "it", "you", "is", "will", "your", "my", "our", "their", "these", "those",
                                  "its", "his", "her"})
_ARGUMENT = re.compile(r"\s+([^\s]+)")


# ... and a command in brackets or after a colon, where prose does not go on ("install the headers
# first (sudo apt install python3-dev)" came back (需要安装python3-dev), sudo apt install lost); a
# program the list does not know, the document's own, where an option shows it is one ("run fastkv
# --version" came back 运行快速的--version, "a different one: fastkv serve --port 6390" 快kv 提供--port).
_COMMAND_PLACE = re.compile(r"(?:^|[(（]|[:：]\s)\s*$")
# ... there only the programs no English sentence starts with (not make, go, test: "Note: make sure").
_PLACED_PROGRAMS = frozenset({"sudo", "pip", "pip3", "pipx", "npm", "npx", "pnpm", "yarn", "docker", "podman",
                              "kubectl", "helm", "cargo", "rustup", "brew", "apt", "apt-get", "dnf", "yum", "pacman",
                              "winget", "choco", "conda", "systemctl", "journalctl", "chmod", "chown", "mkdir", "curl",
                              "wget", "ssh", "scp", "rsync", "git", "python", "python3", "uv", "poetry", "pytest"})
_ANY_PROGRAM = re.compile(r"(?<![\w./-])[a-z][a-z0-9_.-]{1,30}(?=\s)")
_OPTION_TOKEN = re.compile(r"--?[A-Za-z][\w-]*(?:=\S+)?")


def _commands(text: str) -> Iterator[tuple[int, int]]:
    yield from _known_commands(text)
    for m in _ANY_PROGRAM.finditer(text):
        run = _RUN_VERB.search(text, max(0, m.start() - 24), m.start()) is not None
        # (the list doctrans.kept_names.common_words reads: kept_names reads this module's spans)
        common = m.group() in word_set("common_words.txt")
        if m.group() in _PROSE_AFTER_COMMAND or (common and not run) or not (
                run or _COMMAND_PLACE.search(text, max(0, m.start() - 3), m.start())):
            continue
        end, words, option = m.end(), 0, False
        while (a := _ARGUMENT.match(text, end)) is not None:
            token = a.group(1)
            if token.lower() in _PROSE_AFTER_COMMAND or any(is_cjk(c) for c in token):
                break
            bare = token.rstrip(".,;:!?)。，；：！？）")
            if _OPTION_TOKEN.fullmatch(bare):
                option = True
            elif not option and ((common and words >= 1) or not re.fullmatch(r"[a-z][\w.-]*", bare)):
                # before its options a command has subcommands in small letters (serve, install); a
                # program named by a common word ("Run perf report --sort comm" came back 运行香水报告)
                # has at most one, so "Run tests for the parser --verbose" stays prose
                break
            words += 1
            if bare:
                end = a.start(1) + len(bare)
            if len(bare) < len(token) or words > 8:
                break
        if option:
            yield m.start(), end


def _known_commands(text: str) -> Iterator[tuple[int, int]]:
    for m in _PROGRAM.finditer(text):
        placed = m.group() in _PLACED_PROGRAMS
        tool = placed and _WITH_TOOL.search(text, max(0, m.start() - 8), m.start()) is not None
        if not (_RUN_VERB.search(text, max(0, m.start() - 24), m.start()) or tool
                or (placed and _COMMAND_PLACE.search(text, max(0, m.start() - 3), m.start()))):
            continue
        end, arguments = m.end(), 0
        while (a := _ARGUMENT.match(text, end)) is not None:
            token = a.group(1)
            if token.lower() in _PROSE_AFTER_COMMAND or any(is_cjk(c) for c in token):
                break
            bare = token if token.endswith("/...") else token.rstrip(".,;:!?)。，；：！？）")  # go build ./...
            if bare:
                end, arguments = a.start(1) + len(bare), arguments + 1
            if len(bare) < len(token):
                break  # the clause's mark after the command's last word
        if arguments >= (2 if tool else 1):
            yield m.start(), end


_KEYS = (r"Enter|Return|Esc|Escape|Tab|Space|Spacebar|Backspace|Delete|Del|Home|End|PgUp|PgDn|Page Up|Page Down"
         r"|Insert|F[0-9]{1,2}|Ctrl|Alt|Shift")
_URL_CHARS = r"[0-9A-Za-z\-._~:/?#\[\]@!$&'()*+,;=%]"
_WIN_CHARS = r"[0-9A-Za-z_.\-+@%~$#&()\[\]{}!',=;]"
_D = "0-9\uff10-\uff19"  # ASCII and full-width digits (\d would also take other scripts' digits)

# A reST role or link with a title (``:ref:`可等待对象 <asyncio-awaitables>```, ```BRIN 索引 <https://x>`_``):
# its markup and target are two spans and the title between them is prose the model translates
# with the sentence (the pydocs and django references translate it: ``:term:`协程 <coroutine>``` is
# ``:term:`coroutine <coroutine>```; kept whole, 59 and 72 lines of the zh->en dev outputs carried
# Chinese). The title is glued to the opening span and one space from the closing one.
_TITLED_OPEN = re.compile(r"(?:(?::[A-Za-z][0-9A-Za-z_.+\-]*)+:)?`")
_TITLED_CLOSE = re.compile(r"<[^`<>\s][^`<>\n]*>`(?:__?)?")  # a glossary term's target has spaces
_TITLED = re.compile(rf"(?<![0-9A-Za-z_`])(?P<open>{_TITLED_OPEN.pattern})"
                     rf"(?P<title>[^`<>\n]*?[^\s`<>][^`<>\n]*?)\s+(?P<close>{_TITLED_CLOSE.pattern})")


def _titled(text: str) -> Iterator[tuple[int, int]]:
    for m in _TITLED.finditer(text):
        if m.group("open") == "`" and not m.group("close").endswith("_"):
            continue  # `text <x>` without a role or a link's underscore is not reST markup
        yield m.span("open")
        yield m.span("close")


def titled_markup(span: Span) -> str | None:
    """``"open"``/``"close"`` for the two spans of a titled role or link (:data:`_TITLED`), else None."""
    if span.kind != "literal":
        return None
    if _TITLED_OPEN.fullmatch(span.text):
        return "open"
    return "close" if _TITLED_CLOSE.fullmatch(span.text) else None

# (kind, finder), in priority order.
_RULES: list[tuple[str, Finder]] = [
    ("literal", _titled),
    ("literal", _regex(r"(?<![0-9A-Za-z_`])(?::[A-Za-z][0-9A-Za-z_.+\-]*)+:`[^`\n]+`")),  # reST role
    # Double and single backticks in one scan, so a ``literal``'s backticks are consumed together:
    # scanned apart, the single-backtick rule paired the second closing backtick of ``try/finally``
    # with the next role's opening one and masked the prose between (a whole Chinese clause).
    ("literal", _regex(r"``(?:[^`\n]|`(?!`))+?``|`[^`\n]+`(?:__?)?")),
    ("literal", _regex(r"(?m)^[ \t]*(?P<s>>>>(?:[ \t].*?)?|\$[ \t]+[a-z].*?)[ \t]*$")),  # doctest, shell
    ("literal", _regex(_C_PROTOTYPE, accept=_c_prototype_ok)),
    # A Markdown image, alt text included: ``![logo](img/logo.png)`` came back ``!log[o](img/logo.png)``.
    ("literal", _regex(r"!\[[^\[\]\n]*\]\([^()\s]*(?:\s+\"[^\"\n]*\")?\)")),
    # A path under a variable or a specification's placeholder, whole: before the tag and format
    # rules, which took the ``<MIME>`` or ``$XDG_DATA_HOME`` alone and left ``/magic`` to the model
    # (a specification's "<MIME>/magic" came back <MIME>/魔术, "<MIME>/aliases" <MIME>/别名).
    # The placeholder is upper case, as specifications write them (``<b>/usr</b>`` is HTML).
    ("path", _regex(r"(?<![0-9A-Za-z_$])(?:<[A-Z][A-Z0-9_\-]*>|\$\{[A-Za-z_][0-9A-Za-z_]*\}|\$[A-Z_][A-Z0-9_]+)"
                    r"(?:/[0-9A-Za-z_.\-+@%~]+)+/?", trim=True)),
    # A MIME type (text/html, application/vnd.ms-excel): a specification's "text/x-diff" came back
    # 文本/x-diff. Its subtype is one written with a mark (x-diff, svg+xml) or a known one, so that
    # "audio/video cables" is prose.
    ("code", _regex(r"(?<![0-9A-Za-z_./\-])(?:application|audio|font|image|inode|message|model|multipart|text"
                    r"|video)/(?:[a-z0-9]+[.+\-][a-z0-9.+\-]*[a-z0-9]|html|plain|css|csv|xml|json|png|jpeg|gif"
                    r"|webp|svg|pdf|zip|javascript|mpeg|mp4|ogg|wav|directory|calendar|markdown|rtf|tiff|bmp"
                    r"|richtext|related|mixed|alternative)(?![0-9A-Za-z_/\-])")),
    ("tag", _regex(r"<!--(?s:.*?)-->"
                   r"|</?[A-Za-z][0-9A-Za-z:\-]*(?:\s+[A-Za-z_:@][0-9A-Za-z_:.\-@]*"
                   r"(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*\s*/?>"
                   r"|&(?:[A-Za-z][0-9A-Za-z]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")),
    ("url", _regex(rf"(?<![{_W}.\-@])(?:(?:https?|ftps?|sftp|ssh|git|file|s3|wss?)://|mailto:|www\.)"
                   rf"{_URL_CHARS}+", trim=True)),
    # A scheme alone ("Requests to http:// are redirected to https://": the model dropped http://).
    ("url", _regex(rf"(?<![{_W}.\-@])(?:https?|ftps?|wss?)://(?=[\s,;)]|\.?$|\.\s)")),
    ("email", _regex(rf"(?<![{_W}.%+\-])[0-9A-Za-z._%+\-]+@[0-9A-Za-z\-]+(?:\.[0-9A-Za-z\-]+)*\.[A-Za-z]{{2,}}"
                     r"(?![0-9A-Za-z\-])")),
    ("format", _regex(r"%%|%(?:[0-9]+\$)?(?:\([A-Za-z_][0-9A-Za-z_]*\))?[-#0+]*(?:[0-9]+|\*)?"
                      r"(?:\.(?:[0-9]+|\*))?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGcrsaAp](?![A-Za-z])")),
    ("format", _regex(r"\{\{[^{}`\n]{0,80}\}\}|\{%[^%`\n]{0,80}%\}"  # no backtick: ``{{`` 和 ``}}`` is two
                      r"|\{[A-Za-z_][0-9A-Za-z_]*(?:\.[A-Za-z_][0-9A-Za-z_]*|\[[^\]\n]{1,20}\])*(?:![rsa])?"
                      r"(?::[^{}\n]{0,20})?\}"
                      r"|\{[0-9]*(?:![rsa])?(?::[^{}\n]{0,20})?\}"
                      r"|\$\{[A-Za-z_][0-9A-Za-z_]*\}|\$[A-Z_][A-Z0-9_]+(?![0-9A-Za-z_])"
                      r"|[\u2985\uff5f][0-9]{1,3}[\u2986\uff60]")),
    ("path", _regex(rf"(?<![{_W}.~\-/:\\])(?:~|\.\.?)?(?:/[0-9A-Za-z_.\-+@%~]+)+/?", trim=True,
                    accept=_abs_path_ok)),
    ("path", _regex(rf"(?<![{_W}])(?:[A-Za-z]:\\(?:{_WIN_CHARS}+\\?)*|\\\\{_WIN_CHARS}+(?:\\{_WIN_CHARS}+)+)",
                    trim=True)),
    ("path", _regex(rf"(?<![{_W}.~\-/:\\@])(?:[0-9A-Za-z_.\-]+/)+[0-9A-Za-z_.\-]*[0-9A-Za-z_\-]"
                    rf"\.[A-Za-z][A-Za-z0-9]{{0,9}}(?![{_W}])")),
    # A glob pattern (``*.ext``, ``*.tar.gz``, ``foo*.txt``): a specification's "a pattern in the form
    # '*.ext'" came back '**。ext', its dot made a full stop and its star doubled. Not emphasis
    # around a file name (``*random.py*``: a star after it).
    ("path", _regex(rf"(?<![{_W}.*/\\])[0-9A-Za-z_\-]*\*[0-9A-Za-z_\-*]*(?:\.[0-9A-Za-z_\-]+)+(?![{_W}/*])")),
    # A package, release or file name with its version (``agent-3.2.1.tar.gz``, ``node-v18.2.0``,
    # ``foo_2.0.1_amd64.deb``): an install guide's "change into the agent-3.2.1 directory" came back
    # 代理-3.2.1, its name translated, and the archive's name was three pieces (a number rule took
    # ``3.2``). A name, ``-`` or ``_``, a dotted version, then more parts or extensions.
    ("path", _regex(r"(?<![0-9A-Za-z_.\-/\\])[A-Za-z][0-9A-Za-z+]*(?:[-_][0-9A-Za-z+]+)*?[-_][vV]?[0-9]+(?:\.[0-9]+)+"
                    r"[0-9A-Za-z]*(?:[-_.+~][0-9A-Za-z]+)*(?![0-9A-Za-z_%/\\]|[.\-][0-9A-Za-z])")),
    ("date", _regex(r"(?<![0-9A-Za-z_./\-])(?:"
                    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[T ][0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?"
                    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?"
                    r"|[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}"
                    r"|[0-9]{1,2}(?P<sep>[/.\-])[0-9]{1,2}(?P=sep)[0-9]{4}"
                    r"|[0-9]{1,2}/[0-9]{1,2}/[0-9]{2}"
                    r"|[0-9]{4}-[0-9]{2})"
                    r"(?![0-9A-Za-z_]|[./\-][0-9])")),
    ("time", _regex(r"(?<![0-9A-Za-z_:.])[0-9]{1,2}[:：][0-9]{2}(?:[:：][0-9]{2}(?:[.,][0-9]+)?)?"
                    r"(?![0-9]|[:：][0-9])")),
    ("version", _regex(r"(?<![0-9A-Za-z_.\-])(?:[vV][0-9]+(?:\.[0-9]+)*|[0-9]+(?:\.[0-9]+){2,})"
                       r"(?:[-.]?(?:alpha|beta|rc|dev|pre|post|a|b)\.?[0-9]+|-(?:alpha|beta|preview|SNAPSHOT)"
                       r"|\+[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?"
                       r"(?![0-9A-Za-z_]|\.[0-9])", trim=True)),
    # A platform, a browser or a standard with its version, one name (a release note's "on Windows 11"
    # came back 上的11, Windows dropped beside the figure's placeholder; "Bluetooth 5.3", "iPhone 15").
    # Not a programming language's (Python 3.12: the documentation models read those well).
    ("code", _regex(r"(?<![0-9A-Za-z_.\-])(?:Windows(?: Server)?|macOS|Mac OS X|OS X|iOS|iPadOS|watchOS|Android"
                    r"|Ubuntu|Debian|Fedora|CentOS|RHEL|HarmonyOS|Safari|Chrome|Firefox|Office|iPhone|iPad|Pixel"
                    r"|PlayStation|Xbox|Bluetooth|Wi-Fi|USB|HDMI|PCIe|DDR|LTE|HTTP|TLS|IPv)"
                    r"[ \u00a0]?(?<=[ \u00a0]|[SRCPV4])(?:[0-9]+(?:\.[0-9]+)*"
                    r"(?: (?:Pro|Max|Plus|Ultra|LTS|Home|Enterprise|Education))?|XP|Vista)"
                    # (not a list of versions, nor one a qualifier or a measure takes: Windows 10/11 and
                    # macOS 12 及以上版本 are doctrans.kept_names')
                    r"(?![0-9A-Za-z_]|[./][0-9]|[ \u00a0]?(?:%|percent|times|GB|MB|TB|ports?\b|cables?\b)"
                    r"|[ \t]?(?:及|以|左右|[个年月日元万亿倍]))")),
    # A key combination: modifier keys joined by + to a key (Ctrl+S, Alt+F4, Ctrl+Shift+Esc).
    ("code", _regex(r"(?<![0-9A-Za-z_+])(?:Ctrl|Control|Alt|Shift|Cmd|Command|Option|Opt|Win|Meta|Super|Fn)"
                    r"(?:\s?\+\s?(?:Ctrl|Control|Alt|Shift|Cmd|Command|Option|Opt|Win|Meta|Super|Fn|F[0-9]{1,2}"
                    r"|Enter|Return|Tab|Esc|Escape|Space|Delete|Del|Backspace|Home|End|PgUp|PgDn|PageUp|PageDown"
                    r"|Insert|Ins|Up|Down|Left|Right|[A-Z0-9]|[-=\[\];',./`]))+(?![0-9A-Za-z_])")),
    # A key pressed alone (press Enter, hit Esc, 按 Enter 键): "Press **Enter** to save." came back
    # 文斯·**埃斯**特救救 (a name); after press/hit/type in English, before 键 in Chinese.
    ("code", _regex(r"\b(?:[Pp]ress(?:ing)?|[Hh]it(?:ting)?|[Tt]ap)\s+(?:the\s+)?(?P<s>" + _KEYS + r")"
                    r"(?![0-9A-Za-z_+])")),
    ("code", _regex(r"(?<![0-9A-Za-z_+])(?:" + _KEYS + r")(?=\s?键)")),
    # An issue's or a pull request's number with its hash: the number alone was masked and the model
    # dropped the hash ("(see issue #412)" came back "(参见412)").
    ("code", _regex(r"(?<![0-9A-Za-z_&#/])#[0-9]{1,7}(?![0-9A-Za-z_])")),
    # A number after "No." (order no. 58213): the model dropped the abbreviation with the order, "(order )".
    ("code", _regex(r"(?<![0-9A-Za-z_])[Nn]o\.\s?[0-9][0-9A-Za-z\-/]*(?<![.\-/])(?![0-9A-Za-z_])")),
    # A listed company's exchange and ticker: the en->zh model wrote "(NASDAQ: NVDA)" as "(NASQ: NVDA)".
    ("code", _regex(r"(?<![0-9A-Za-z_])(?:NASDAQ|Nasdaq|NYSE|AMEX|LSE|TSX|HKEX|SEHK|SSE|SZSE|TSE|ASX|SGX|KRX|OTC)"
                    r"\s?[:：]\s?[0-9A-Z][0-9A-Z.]{0,7}(?![0-9A-Za-z_])")),
    # Capitals joined by & (S&P 500, AT&T, R&D): the model dropped the &, "the S&P 500" came back "SP 500".
    ("code", _regex(r"(?<![0-9A-Za-z_&])[A-Z]{1,3}&[A-Z]{1,3}(?![0-9A-Za-z_&;])")),
    # A standard's name: capitals, a dot, a number (ASN.1, X.509, H.264): the dot is not a sentence's.
    ("code", _regex(r"(?<![0-9A-Za-z_.])[A-Z]{1,5}\.[0-9]+(?:\.[0-9]+)*(?![0-9A-Za-z_]|\.[0-9A-Za-z])")),
    ("code", _options),
    ("code", _commands),
    # A request line in prose (GET /v2/orders?cursor=x&limit=50: GET came back 获取 and the query
    # string fell apart), an HTTP status with its reason phrase (429 Too Many Requests came back
    # "429，许多请求"), a header's name before its value (Authorization: Bearer came back 授权：).
    ("code", _regex(r"(?<![0-9A-Za-z_])(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+/[^\s\"'`<>]*", trim=True)),
    ("code", _regex(r"(?<![0-9A-Za-z_.,])[1-5][0-9]{2}\s(?:OK|Created|Accepted|No Content|Moved Permanently|Found"
                    r"|See Other|Not Modified|Temporary Redirect|Permanent Redirect|Bad Request|Unauthorized"
                    r"|Payment Required|Forbidden|Not Found|Method Not Allowed|Not Acceptable|Request Timeout"
                    r"|Conflict|Gone|Payload Too Large|Unsupported Media Type|Unprocessable Entity"
                    r"|Too Many Requests|Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable"
                    r"|Gateway Timeout)(?![0-9A-Za-z_])")),
    # Not the names a form or an invitation writes too (Host: Ann, Location: Room 201, Accept:).
    ("code", _regex(r"(?<![0-9A-Za-z_\-])(?:Authorization|Content-Type|Content-Length|Accept-Language"
                    r"|User-Agent|Cache-Control|Set-Cookie|Retry-After|ETag|If-None-Match"
                    r"|X-[A-Z][0-9A-Za-z\-]*)(?=:\s?\S|\s+(?:header|标头|头)(?![A-Za-z]))")),
    ("code", _codes),
    # A setting with its quoted value, as a release note writes it in prose ('Set engine = "btree" in
    # fastkv.toml' came back with the whole clause in English, Set and all): one span.
    ("identifier", _regex(r"(?<![\w.\-])[a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*[ \t]?=[ \t]?"
                          r"(?:\"[^\"\n]{0,60}\"|'[^'\n]{0,60}'|“[^”\n]{0,60}”)")),
    ("identifier", _identifiers),
    # Names joined by commas without a space, a parameter's value (``例如 name,email`` came back
    # "e.g. name, email"): prose sets a space after its commas.
    ("identifier", _regex(r"(?<![\w,.\-])[A-Za-z_][0-9A-Za-z_]*(?:,[A-Za-z_][0-9A-Za-z_]*)+(?![\w,\-])")),
    ("identifier", _regex(rf"(?<![{_W}.:])[A-Za-z_][{_W}]*(?:::[A-Za-z_~][{_W}]*)+(?:\(\))?(?![{_W}:(])"
                          rf"|(?<![{_W}.:$])(?=[A-Z0-9_:]*_)[A-Z_][A-Z0-9_]*(?::[A-Z_][A-Z0-9_]*)+(?![{_W}:])")),
    ("identifier", _indexed),
    ("citation", _regex(_CITATION.pattern)),
    # A footnote's mark in superscript after a sentence's mark or a word (not a unit's: m², cm³):
    # the model dropped it ("on pydocs.¹" came back without it).
    ("citation", _regex(r"(?:(?<=[.,;:!?)\]\"”’。，；：！？）])|(?<=[A-Za-z]{3}))"
                        rf"[{SUPERSCRIPT_DIGITS}]+(?![0-9A-Za-z])")),
    # A telephone number with its area code in brackets or its country code and spaces (a listing's
    # "Contact Maria Gonzalez at (212) 555-0148" came back "Cont Maria Gonzalez at (212) 555-0148", its
    # three numbers apart): one number.
    ("number", _regex(r"(?<![0-9A-Za-z_.\-+])(?:\+[0-9]{1,3}[ \u00a0]?)?\([0-9]{2,4}\)[ \u00a0]?[0-9]{3,4}"
                      r"[-\u2011 \u00a0][0-9]{4}"
                      r"|(?<![0-9A-Za-z_.\-+])\+[0-9]{1,3}(?:[ \u00a0][0-9]{2,4}){2,4}(?![0-9A-Za-z_]|[.,][0-9])"
                      # ... and a national number in spaced groups after its trunk 0 (a report's "call 0113
                      # 496 0000" was three numbers; 0571-8765 4321): no count starts with 0
                      r"|(?<![0-9A-Za-z_.\-+,])0[0-9]{2,4}(?:[-\u2011][0-9]{3,4})?(?:[ \u00a0][0-9]{3,4}){1,2}"
                      r"(?![0-9A-Za-z_]|[.,][0-9])")),
    ("number", _regex(r"(?<![0-9A-Za-z_.\-])\+?(?:[0-9]+(?:-[0-9]+){2,}|[0-9]{5,}-[0-9]+|[0-9]+-[0-9]{5,})"
                      r"(?![0-9A-Za-z_]|[.\-][0-9])")),
    ("number", _regex(rf"(?<![0-9A-Za-z_{_D[3:]}.])"
                      # (not a range's dash after a unit: 40℃-100℃)
                      rf"(?:(?<![%％‰℃℉°])[-+\u2212](?=(?:US\$|HK\$|[$€£¥￥₹₩])?[{_D}]))?"
                      r"(?:US\$|HK\$|[$€£¥￥₹₩])?"
                      rf"(?:0[xX][0-9A-Fa-f]+"
                      rf"|[0-9]{{1,4}}/[0-9]{{1,4}}(?![/0-9])"
                      rf"|[{_D}]{{1,3}}(?:,[0-9]{{3}})+(?:[.．][{_D}]+)?"
                      rf"|[{_D}]+(?:[.．][{_D}]+)?)"
                      r"(?:[eE][-+]?[0-9]+(?![A-Za-z]))?"
                      rf"[%％‰]?(?![{_D}])", accept=_not_month)),
    # A figure with its comparison sign (≤15W, ≥ 99.5%, ±0.5) and a product's dimensions (120×80×45):
    # the model dropped ≤ and ×, "功率≤15W" came back "as a 15W", "120×80×45毫米" "120 80 45 mm".
    ("number", _regex(rf"(?<![0-9A-Za-z_{_D[3:]}.])(?:[≤≥±≈＜＞]\s?)?[{_D}]+(?:[.．][{_D}]+)?"
                      rf"(?:\s?[×＊]\s?[{_D}]+(?:[.．][{_D}]+)?)+(?![{_D}])"
                      rf"|[≤≥±≈＜＞]\s?[{_D}]+(?:[.．][{_D}]+)?(?:[%％]|\s?[A-Za-z]{{1,3}}(?![A-Za-z]))?(?![{_D}])")),
    # A vulgar fraction, maybe after a whole number (a recipe's "Juice of 1½ lemons": NFKC reads 1½ as
    # 11⁄2, and the model wrote a date, 7月11日): the figure as it stands.
    ("number", _regex(rf"(?<![0-9A-Za-z_{_D[3:]}.])(?:[{_D}]+\s?)?[¼½¾⅐-⅞](?![{_D}⁄/])")),
    # A chemical formula with subscript digits and a power in superscript (CO₂, H₂O, SO₄²⁻, E = mc², x³):
    # the models read them through NFKC as CO2 and mc2, and wrote them so. (A word of three letters
    # or more before a superscript is a footnote's, the rule above.)
    ("number", _regex(r"(?<![0-9A-Za-z_])(?=[A-Za-z0-9]*[₀-₉])(?:[A-Z][a-z]?[0-9₀-₉]*)+"
                      rf"(?:[{SUPERSCRIPT_DIGITS}]*[⁺⁻])?(?![0-9A-Za-z_])"
                      # (not a unit's: m², cm³ go with their figure, doctrans.units)
                      rf"|(?<![0-9A-Za-z_])(?!(?:m|cm|mm|km|dm|ft|in)[²³])[A-Za-z]{{1,2}}[{SUPERSCRIPT_DIGITS}]+"
                      r"(?![0-9A-Za-z_])")),
    # Wi-Fi and its generation: the en->zh model wrote "Wi-Fi 6" as "Wi-Fim 6".
    ("code", _regex(r"(?<![0-9A-Za-z_-])Wi-?Fi(?: [0-9](?:E|e)?)?(?![0-9A-Za-z_-])")),
]


def find_spans(text: str) -> list[Span]:
    """The verbatim spans of ``text``: non-overlapping, in text order (the rules are in the module
    docstring). The longest candidate wins (a titled role's markup first); between equally long
    ones, the earlier rule."""
    return list(_find_spans(text))


# A sentence is scanned several times on its way (masking, the direction's terms, the report's
# check of the translation): the last few hundred results are kept (Span is frozen).
@functools.lru_cache(maxsize=512)
def _find_spans(text: str) -> tuple[Span, ...]:
    candidates: list[tuple[int, int, int, int]] = []  # (-length, priority, start, end)
    for priority, (_kind, finder) in enumerate(_RULES):
        for start, end in finder(text):
            # A titled role's two spans come before the longest-first order: the whole role (the
            # next rule) is longer and would take the title with it.
            candidates.append((-len(text) - 1 if finder is _titled else start - end, priority, start, end))
    candidates.sort()
    taken = bytearray(len(text))
    chosen: list[Span] = []
    for _neg, priority, start, end in candidates:
        if any(taken[start:end]):
            continue
        taken[start:end] = b"\x01" * (end - start)
        chosen.append(Span(start, end, text[start:end], _RULES[priority][0]))
    chosen.sort(key=lambda s: s.start)
    return tuple(chosen)


def protected_spans(text: str, terms: Sequence[Span] = ()) -> list[Span]:
    """The verbatim spans of ``text`` merged with glossary ``terms`` (non-overlapping spans of the
    same text with a ``target``), in text order. A term that holds whole verbatim spans wins over
    them (``ISO 9001`` -> ``ISO 9001 标准``: the user asked for exactly that); a term that cuts a
    verbatim span or sits inside one is dropped (``Python 3`` in ``Python 3.12.1``: the version
    must survive, and inserting a term inside a URL would break it)."""
    rules = find_spans(text)
    if not terms:
        return rules

    def overlap(a: Span, b: Span) -> bool:
        return a.start < b.end and b.start < a.end

    kept = [t for t in terms
            if not any(overlap(t, r) and not (t.start <= r.start and r.end <= t.end) for r in rules)]
    rules = [r for r in rules if not any(overlap(r, t) for t in kept)]
    return sorted([*rules, *kept], key=lambda s: s.start)


def is_untranslatable(text: str, terms: Sequence[Span] = ()) -> bool:
    """True when ``text`` has nothing for the model: no letter of any script is left once every
    verbatim span (and glossary term, see :func:`protected_spans`) is removed -- numbers, codes,
    URLs, punctuation, whitespace only. Such a segment is copied unchanged (its glossary terms
    replaced); the borderline cases are in the module docstring."""
    pos = 0
    rest: list[str] = []
    for s in protected_spans(text, terms):
        rest.append(text[pos:s.start])
        pos = s.end
    rest.append(text[pos:])
    return not any(c.isalpha() for c in "".join(rest))


# ---------------------------------------------------------------------------------------
# Masking
# ---------------------------------------------------------------------------------------

def mask(text: str, max_placeholders: int = MAX_PLACEHOLDERS, terms: Sequence[Span] = ()) -> Masked:
    """Replace the first ``max_placeholders`` spans by ``⦅1⦆``, ``⦅2⦆``… in order of appearance.
    ``terms``: glossary matches (:meth:`doctrans.glossary.Glossary.find`), numbered together with
    the verbatim spans; :func:`unmask` puts their target term in."""
    if not 0 <= max_placeholders <= MAX_PLACEHOLDERS:
        raise ValueError(f"max_placeholders must be 0..{MAX_PLACEHOLDERS}, got {max_placeholders}")
    spans = protected_spans(text, terms)
    kept, rest = spans[:max_placeholders], spans[max_placeholders:]
    out: list[str] = []
    offsets: list[int] = []
    pos = 0
    length = 0
    for k, s in enumerate(kept, 1):
        out.append(text[pos:s.start])
        length += s.start - pos
        offsets.append(length)
        token = placeholder(k)
        out.append(token)
        length += len(token)
        pos = s.end + (1 if _plural_possessive(text, s) else 0)
    out.append(text[pos:])
    return Masked(text, "".join(out), tuple(kept), tuple(offsets), tuple(rest))


def _plural_possessive(text: str, span: Span) -> bool:
    """``span`` ends in a plural's ``s`` and an apostrophe follows, a possessive's (``60 days'
    written notice``): the apostrophe is left out of what the model reads, which copied it after the
    placeholder (``60天' 书面通知``). Not a single quote's end (``the 'two days' clause``)."""
    if not span.text.endswith(("s", "S")) or not re.match(r"['’](?:\s|$)", text[span.end:span.end + 2]):
        return False
    return re.search(r"(?:^|[\s(\[])['‘]\w", text[:span.start]) is None


# Model output: the canonical ⦅k⦆, the fullwidth ｟k｠, maybe with spaces the detokeniser put inside.
_OUTPUT_PLACEHOLDER = re.compile(r"[\u2985\uff5f][ \t]*([0-9]{1,3})[ \t]*[\u2986\uff60]")
_CANONICAL = re.compile("\u2985([0-9]{1,3})\u2986")
_HSPACE = " \t\u00a0"
_OPENING = "([{“‘«"
_CLOSING = ")]}”’»,.;:!?…"
_SEPARATORS = ",;!?"  # ASCII punctuation an English span follows after a space


def _latin(c: str) -> bool:
    return c.isalnum() and not is_cjk(c)


def _equal_spans_swapped(translation: str, masked: Masked) -> str:
    """``translation`` with a repeated placeholder taken for a missing one that stands for the same
    text: ``MIME system [MIME]`` is ``⦅1⦆ system [⦅2⦆]``, and a model writing ``⦅1⦆ …[⦅1⦆]`` meant
    exactly that (without this, the second copy was removed and ``MIME`` put back elsewhere,
    leaving ``[]``). A placeholder the output has anywhere is never taken."""
    found = [int(m.group(1)) for m in _OUTPUT_PLACEHOLDER.finditer(translation)]
    n = len(masked.spans)
    absent = [j for j in range(1, n + 1) if j not in found]
    if not absent or len(set(found)) == len(found):
        return translation
    seen: set[int] = set()

    def swap(m: re.Match[str]) -> str:
        k = int(m.group(1))
        if 1 <= k <= n and k in seen:
            same = [j for j in absent if masked.spans[j - 1].output == masked.spans[k - 1].output]
            if same:
                absent.remove(same[0])
                return placeholder(same[0])
        seen.add(k)
        return m.group(0)

    return _OUTPUT_PLACEHOLDER.sub(swap, translation)


def copied_exactly(translation: str, masked: Masked) -> bool:
    """Whether the model wrote every placeholder of ``masked`` exactly once and no other: what
    ``unmask(translation, masked).ok`` says, without restoring (the engine asks it of every
    hypothesis of its n-best). Spans of equal text are interchangeable (:func:`_equal_spans_swapped`)."""
    translation = _equal_spans_swapped(translation, masked)
    found = sorted(int(m.group(1)) for m in _OUTPUT_PLACEHOLDER.finditer(translation))
    return found == list(range(1, len(masked.spans) + 1))


# A full stop the model put between a word and a placeholder, with no space ("直接经济损失约35亿元"
# came back "directly in economy.⦅2⦆", restored as "economy.about 3.5 billion yuan").
_STOP_BEFORE_PLACEHOLDER = re.compile(r"(?<=[a-z])\.(?=[⦅｟]\s?([0-9]+)\s?[⦆｠])")


def _stray_stops(translation: str, masked: Masked) -> str:
    """``translation`` with a space for each such stop, unless what the model read has the stop
    there too (a name cut in two: ``os.⦅1⦆``)."""
    def space(m: re.Match[str]) -> str:
        return "." if f".{placeholder(int(m.group(1)))}" in masked.text else " "
    return _STOP_BEFORE_PLACEHOLDER.sub(space, translation)


_PLURAL_AFTER_PLACEHOLDER = re.compile("\u2985([0-9]{1,3})\u2986s(?![A-Za-z])")


def _plural_of_a_plural(translation: str, masked: Masked) -> str:
    """``translation`` without the plural ``s`` the model glued to a placeholder whose text is a
    plural already (新能源汽车出口128.4万辆 came back "new energy vehicles s out of 1.284 million")."""
    def drop(m: re.Match[str]) -> str:
        k = int(m.group(1))
        plural = 1 <= k <= len(masked.spans) and (masked.spans[k - 1].output or "").endswith("s")
        return m.group(0)[:-1] if plural else m.group(0)
    return _PLURAL_AFTER_PLACEHOLDER.sub(drop, translation)


def unmask(translation: str, masked: Masked) -> Restored:
    """Put every span of ``masked`` back into ``translation`` (the model output for ``masked.text``).

    A placeholder the model repeated is kept once (the first) and one it invented (``⦅9⦆`` when
    there are 3) is removed; a missing one is inserted where its span stood relative to the
    source, so a span is never lost. Each case is a line in ``Restored.problems``. Spacing around
    each span is made natural for the language around it (see :func:`_space_wanted`). A repeated
    placeholder standing for the same text as a missing one is that one (:func:`_equal_spans_swapped`).
    """
    translation = _plural_of_a_plural(_stray_stops(_equal_spans_swapped(translation, masked), masked), masked)
    n = len(masked.spans)
    problems: list[str] = []
    seen: set[int] = set()
    duplicated: list[int] = []
    unknown: list[int] = []
    skel: list[str] = []
    pos = 0
    collapse = False  # a removed token stood between two spaces: drop one of them
    for m in _OUTPUT_PLACEHOLDER.finditer(translation):
        before = translation[pos:m.start()]
        if collapse and "".join(skel).endswith(tuple(_HSPACE)):
            before = before.lstrip(_HSPACE)
        skel.append(before)
        collapse = False
        k = int(m.group(1))
        if 1 <= k <= n and k not in seen:
            seen.add(k)
            skel.append(placeholder(k))
        else:
            if 1 <= k <= n:
                duplicated.append(k)
                problems.append(f"{placeholder(k)} duplicated: extra copy of {masked.spans[k - 1].output!r} removed")
            else:
                unknown.append(k)
                problems.append(f"{placeholder(k)} unknown ({n} placeholders): removed")
            collapse = True
        pos = m.end()
    tail = translation[pos:]
    if collapse and "".join(skel).endswith(tuple(_HSPACE)):
        tail = tail.lstrip(_HSPACE)
    skel.append(tail)
    text = "".join(skel)

    missing = [k for k in range(1, n + 1) if k not in seen]
    floor = 0  # missing spans keep their source order among themselves (all land at one end of an empty output)
    for k in missing:
        text, floor = _insert_missing(text, masked, k, floor)
        problems.append(f"{placeholder(k)} missing: {masked.spans[k - 1].output!r} put back at its relative position")

    return Restored(_restore(text, masked), problems, tuple(missing), tuple(duplicated), tuple(unknown))


_MID_HAN = 6


def _insert_missing(text: str, masked: Masked, k: int, floor: int) -> tuple[str, int]:
    """Insert ``⦅k⦆`` into ``text`` at its relative source position: before the final punctuation
    when it ended the source, after the opening when it began it, else proportionally, moved to the
    nearest position outside a Latin word and outside another placeholder, and preferably not between
    two Han characters (within ``_MID_HAN`` characters of that place); never before ``floor``
    (the end of the missing placeholder inserted before it). Returns the text and the new floor."""
    token = placeholder(k)
    src = masked.text
    off = masked.offsets[k - 1]
    tokens = [(m.start(), m.end()) for m in _CANONICAL.finditer(text)]

    def inside_token(p: int) -> bool:
        return any(a < p < b for a, b in tokens)

    if not any(c.isalnum() for c in src[off + len(token):]):
        p = len(text)
        while p > 0 and not text[p - 1].isalnum() and text[p - 1] != PLACEHOLDER_CLOSE:
            p -= 1
    elif not any(c.isalnum() for c in src[:off]):
        p = 0
        while p < len(text) and not text[p].isalnum() and text[p] != PLACEHOLDER_OPEN:
            p += 1
    else:
        target = round(off / max(1, len(src)) * len(text))

        def ok(p: int) -> bool:
            if inside_token(p):
                return False
            return p in (0, len(text)) or not (_latin(text[p - 1]) and _latin(text[p]))

        def between_han(q: int) -> bool:  # inside a Chinese word, as far as one can tell without a segmenter
            return 0 < q < len(text) and is_cjk(text[q - 1]) and is_cjk(text[q]) \
                and text[q - 1] not in _FULL_WIDTH_STOPS and text[q] not in _FULL_WIDTH_STOPS

        # Between two Han characters costs _MID_HAN characters of distance: a span a few characters
        # from its proportional place but beside punctuation reads better than one splitting a
        # word (libtasn1's manual came back "引ASN1_MAX_NAME_SIZE发", splitting 引发 "raise").
        p = min((q for q in range(len(text) + 1) if ok(q)),
                key=lambda q: (abs(q - target) + _MID_HAN * between_han(q), q))
    p = max(p, floor)
    return text[:p] + token + text[p:], p + len(token)


def _source_side(masked: Masked, span: Span, side: str) -> tuple[bool, str]:
    """(whether the source had horizontal space on that side of the span, the next other char)."""
    if side == "left":
        s = masked.source[:span.start]
        stripped = s.rstrip(_HSPACE)
        return len(stripped) < len(s), stripped[-1:]
    s = masked.source[span.end:]
    stripped = s.lstrip(_HSPACE)
    return len(stripped) < len(s), stripped[:1]


_FULL_WIDTH_STOPS = "。，、；：？！）」』”"


def _space_wanted(span: Span, side: str, out: str, src_space: bool, src_char: str) -> bool | None:
    """Whether a space belongs between ``span`` and the translation's char ``out`` on ``side``
    (None: keep what the model wrote). Decided by the output's language, remembering the source
    so that a segment translated into its own text comes back byte-identical:

    - next to Chinese (or full-width punctuation): no space, unless the source had one there next
      to Chinese too (some writers space Latin words in Chinese: ``版本 v2.1.0 发布``); none after
      a span that ends in a full-width mark (a label written ``提示：``);
    - after a span whose source ends in a full-width mark and whose output in an ASCII one, before
      a Latin letter: a space (``注意：Windows`` -> ``Note: Windows``);
    - next to a Latin letter or digit: a space, unless the source glued the span to one (``10kg``,
      ``file%s``): then the model's choice stands;
    - inside brackets/quotes and before ``,.;:!?``: no space unless the source had one with that
      same char; after ``,;!?``: a space;
    - the inner side of a tag (``<b>|bold|</b>``) and anything else: the model's choice.
    """
    markup = titled_markup(span)
    if markup == "open" and side == "right":
        return False  # the title is glued to its opening: :ref:`title <target>`
    if markup == "close" and side == "left":
        return True  # and spaced from its target, in any language (reST's syntax)
    if span.kind == "tag" and span.text.startswith("<") and not span.text.startswith("<!"):
        closing = span.text.startswith("</")
        self_closing = span.text.endswith("/>")
        if not self_closing and ((side == "right" and not closing) or (side == "left" and closing)):
            return None
    if is_cjk(out):
        return src_space if src_char and is_cjk(src_char) else False
    if side == "right" and span.output[-1:] in _FULL_WIDTH_STOPS:
        return False  # a full-width mark sets its own space: "提示：press", not "提示： press"
    if side == "right" and span.text[-1:] in _FULL_WIDTH_STOPS and span.output[-1:] in _CLOSING and _latin(out):
        return True  # its space written out: "注意：Windows" is "Note: Windows", not "Note:Windows"
    if _latin(out):
        # Chinese glues a Latin unit to the word after it without meaning to (2g静脉滴注): a span
        # written from Chinese into Latin letters is spaced from it ("2g intravenous drip").
        edge = slice(0, 1) if side == "left" else slice(-1, None)
        out_of_chinese = is_cjk(span.text[edge]) and _latin(span.output[edge])
        if src_char and _latin(src_char) and not src_space and not out_of_chinese:
            return None
        return True
    if (side == "left" and out in _OPENING) or (side == "right" and out in _CLOSING):
        return src_space if src_char == out else False
    if side == "left" and out in _SEPARATORS:
        return None if src_char == out and not src_space else True
    return None


def _with_space(s: str, at_end: bool, want: bool | None) -> str:
    if want is None:
        return s
    if at_end:
        stripped = s.rstrip(_HSPACE)
        return s if want and len(stripped) < len(s) else stripped + (" " if want else "")
    stripped = s.lstrip(_HSPACE)
    return s if want and len(stripped) < len(s) else (" " if want else "") + stripped


def _restore(text: str, masked: Masked) -> str:
    """Replace each (now unique) ``⦅k⦆`` in ``text`` by its span, fixing the spacing around it."""
    parts = _CANONICAL.split(text)  # text, k, text, k, ..., text
    texts = parts[0::2]
    ks = [int(k) for k in parts[1::2]]
    spans = masked.spans
    for i, k in enumerate(ks):
        span = spans[k - 1]
        left, right = texts[i], texts[i + 1]
        # Left side (the text before the span; its right part was already set by the span before).
        core = left.rstrip(_HSPACE)
        if core:
            if core[-1] != "\n":
                src_space, src_char = _source_side(masked, span, "left")
                want = _space_wanted(span, "left", core[-1], src_space, src_char)
                if want is None and core[-1] == '"' and _latin(span.output[:1]) and src_char != '"' \
                        and _closes_quote(texts[: i + 1], [spans[k - 1].output for k in ks[:i]]):
                    want = True  # "remember the password"check box: a closing quote, then a word
                if want is None and _chinese_quote_mark(core[-1], core[-2:-1]):
                    want = False  # Chinese sets no space after its quote: “…回来，”CenterPoint
                texts[i] = _with_space(left, True, want)
        elif i > 0 and ks[i - 1] == k - 1 and titled_markup(spans[k - 2]) == "open" \
                and titled_markup(span) == "close":
            # The model dropped a role's title (`:ref:` <debug-build>``, broken markup): the
            # source's title, untranslated, is better than none.
            texts[i] = masked.source[spans[k - 2].end:span.start]
        elif i > 0:
            texts[i] = _between(spans[ks[i - 1] - 1], span, left, masked)
        # Right side, unless another span follows with only spaces between (handled on its left).
        core = right.lstrip(_HSPACE)
        if core and core[0] != "\n":
            src_space, src_char = _source_side(masked, span, "right")
            want = _space_wanted(span, "right", core[0], src_space, src_char)
            if want is None and _chinese_quote_mark(core[0], core[1:2]):
                want = False  # nor before it: Windows“设置”
            texts[i + 1] = _with_space(right, False, want)
    out: list[str] = [texts[0]]
    for i, k in enumerate(ks):
        out.append(spans[k - 1].output)
        out.append(texts[i + 1])
    return "".join(out)


def _chinese_quote_mark(mark: str, inner: str) -> bool:
    """A curly quote of Chinese text: ``mark`` with a Chinese character or mark on its inner side
    (English sets the same marks with spaces outside them: ``“Yes,” Tom said``)."""
    return mark in "“”‘’" and inner != "" and is_cjk(inner)


def _closes_quote(texts: list[str], outputs: list[str]) -> bool:
    """Whether the last ``"`` of the translation so far (``texts`` and the span ``outputs`` between
    them) closes a quote: an even number of them so far."""
    return (sum(t.count('"') for t in texts) + sum(o.count('"') for o in outputs)) % 2 == 0


def _between(a: Span, b: Span, gap: str, masked: Masked) -> str:
    """The spacing between two spans the translation put side by side: as in the source when they
    were neighbours there, unless the spans were written in another script: ``北京10月18日`` into
    English is ``Beijing October 18`` (not ``BeijingOctober 18``), ``Monday March 3`` into Chinese
    sets no space; else none between two Chinese outputs (``Texas on Tuesday`` -> 得克萨斯州星期二, the
    model having dropped the word between), else one space if the model wrote none (two spans glued
    together that were apart in the source would read as one: ``30/etc/app.conf``)."""
    source_gap = masked.source[a.end:b.start]
    if a.end <= b.start and not source_gap.strip(_HSPACE):
        out_left, out_right = a.output[-1:], b.output[:1]
        src_cjk = any(is_cjk(c) for c in a.text[-1:] + b.text[:1])
        # ... and after an abbreviation's or a figure's end ("晚上11点59分截止" came back "11:59 p.m.as of").
        # ... and before a signed figure or an amount (最低气温零下3℃ came back "minimum temperature-3 °C").
        if not source_gap and src_cjk and (_latin(out_left) or out_left in ".%)°²³") \
                and (_latin(out_right) or (out_right in "-−+$€£¥" and _latin(b.output[1:2]))):
            return " "
        if not source_gap and a.text[-1:] in _FULL_WIDTH_STOPS and out_left in _CLOSING and _latin(out_right):
            return " "  # "注意：Windows" is "Note: Windows"
        if source_gap and not src_cjk and (is_cjk(out_left) or is_cjk(out_right)):
            return ""
        return source_gap
    if is_cjk(a.output[-1:]) and is_cjk(b.output[:1]):
        return ""  # Chinese sets no space between words: "Texas on Tuesday" came back 得克萨斯州 星期二
    return gap or " "


# ---------------------------------------------------------------------------------------
# The check after translation
# ---------------------------------------------------------------------------------------

# The kinds a translation must contain unchanged. Tags are left out: markup is restored when
# masked, but an entity such as ``&nbsp;`` or a ``<br>`` may be rendered otherwise by a correct
# translation, and a warning on every such sentence would bury the figures that matter.
CHECKED_KINDS = frozenset(KINDS) - {"tag"}


@dataclass(frozen=True)
class SpanWarning:
    """A sentence-level warning for the report and the TUI.

    ``problem``: ``missing`` (a span of the source, or a glossary target term, is not in the
    translation), ``placed`` (the model dropped its placeholder: the span was put back at its
    relative position, so it is there but maybe in the wrong place), ``duplicated``/``unknown``
    (the model wrote a placeholder twice, or one that does not exist: removed), ``added`` (the
    translation negates what the source does not: doctrans.negation). ``kind``: the
    span's kind, ``term`` for a glossary term."""

    problem: str
    kind: str
    span: str
    message: str


def _token_pattern(needle: str, letters_after: bool = False) -> str:
    """``needle`` as a whole token: ``320`` is not in ``3200``, ``250`` is not in ``1,250``,
    ``ttl`` not in ``ttl_seconds``; next to Chinese it is (``2024年``). ``letters_after``: letters
    may follow it (never a digit)."""
    pattern = re.escape(needle)
    if needle[0] in _WORD_CHARS:
        pattern = rf"(?<![{_W}])(?<![0-9][.,])" + pattern
    if needle[-1] in _WORD_CHARS:
        pattern += (r"(?![0-9_])" if letters_after else rf"(?![{_W}])") + r"(?![.,][0-9])"
    return pattern


def _occurrences(haystack: str, needle: str, glued: bool = False) -> int:
    """How often ``needle`` stands in ``haystack`` as a whole token (:func:`_token_pattern`). Both
    compared in NFKC, so a full-width ``１２３`` written as ``123`` is there. ``glued``: the source
    wrote it with letters right after it (a unit the model copied, ``约28kg``: ``about 28kg``), so
    letters may follow it here too, but no digit."""
    haystack, needle = unicodedata.normalize("NFKC", haystack), unicodedata.normalize("NFKC", needle)
    if not needle:
        return 0
    return len(re.findall(_token_pattern(needle, letters_after=glued), haystack))


def remask(translation: str, masked: Masked) -> str:
    """The inverse of :func:`unmask` for a translation a person wrote: each span of ``masked`` (its
    output: a glossary term's target) found in ``translation`` as a whole token is replaced by its
    placeholder (longest spans first, each occurrence used once), so the engine's memory reads a
    person's edit as it reads the model's own output. A span the person left out stays out."""
    taken: list[tuple[int, int, int]] = []  # (start, end, k)
    order = sorted(range(len(masked.spans)), key=lambda i: -len(masked.spans[i].output))
    for i in order:
        needle = masked.spans[i].output
        for m in re.finditer(_token_pattern(needle), translation):
            if not any(m.start() < b and a < m.end() for a, b, _ in taken):
                taken.append((m.start(), m.end(), i + 1))
                break
    out: list[str] = []
    pos = 0
    for a, b, k in sorted(taken):
        out.append(translation[pos:a])
        out.append(placeholder(k))
        pos = b
    out.append(translation[pos:])
    return "".join(out)


_WORD_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def check(source: str, translation: str, terms: Sequence[Span] = (),
          protected: Sequence[Span] | None = None) -> list[SpanWarning]:
    """What of ``source`` that must survive is not in ``translation``: each number, code, URL...
    (:data:`CHECKED_KINDS`) as often as in the source, and each glossary term's target. With
    masking this holds by construction; it matters where a bundle cannot mask (no placeholder
    pieces), for spans past the 16th, and for a person's edit. ``protected``: the source's
    :func:`protected_spans` with ``terms``, where the caller has them already."""
    need: Counter[tuple[str, str]] = Counter()
    glued: set[tuple[str, str]] = set()  # written with letters right after it in the source
    as_written: dict[tuple[str, str], str] = {}  # a name's source spelling, which may stand for it
    for span in protected if protected is not None else protected_spans(source, terms):
        if span.target is not None:
            key = (span.kind, span.target)
            if span.kind == "name" and span.text != span.target:
                as_written[key] = span.text
        elif span.kind in CHECKED_KINDS:
            key = (span.kind, span.text)
        else:
            continue
        need[key] += 1
        if source[span.end:span.end + 1].isascii() and source[span.end:span.end + 1].isalpha():
            glued.add(key)
    warnings = []
    # What the same rules find in the translation counts too: a figure glued to a letter ("12h",
    # "1st") is a span of the source but no whole token, and a line copied unchanged was reported
    # as missing its "12" and "1".
    found = Counter(span.text for span in find_spans(translation)) if need else Counter()
    for (kind, text), n in need.items():
        stuck = (kind, text) in glued
        have = max(_occurrences(translation, text, stuck), found[text])
        if have < n and kind in ("phrase", "number", "name", "date") and text[:1].islower():
            # A translated term that starts the sentence has its capital (protect.capitalised_start:
            # "second quarter" -> "Second quarter, up 12% ..."; 12岁以下儿童 "Children under 12"): it
            # is there; so is a year that starts it (2025年，… "In 2025, …"). Not a code's or a path's:
            # those are verbatim, their case is theirs.
            have += _occurrences(translation, text[0].upper() + text[1:], stuck)
        if have < n and (kind, text) in as_written:
            # A name kept as the source writes it is the name (a given name the model left in
            # English keeps its surname so: "David Chen", not David 陈: doctrans.person_names).
            have += _occurrences(translation, as_written[(kind, text)], stuck)
        if have < n:
            what = "glossary term" if kind == "term" else kind
            times = f" ({have} of {n} times)" if have else ""
            warnings.append(SpanWarning("missing", kind, text, f"{what} {text!r} is not in the translation{times}"))
    return warnings


def restore_warnings(restored: Restored, masked: Masked) -> list[SpanWarning]:
    """The placeholder problems of one restoration as warnings (the span is in the output, but
    the model did not place it itself)."""
    out = []
    for k in restored.missing:
        span = masked.spans[k - 1]
        out.append(SpanWarning("placed", span.kind, span.output,
                               f"the model dropped {span.output!r}; put back at its relative position"))
    for k in restored.duplicated:
        span = masked.spans[k - 1]
        out.append(SpanWarning("duplicated", span.kind, span.output,
                               f"the model repeated {span.output!r}; the extra copy was removed"))
    for k in restored.unknown:
        out.append(SpanWarning("unknown", "placeholder", placeholder(k),
                               f"the model wrote a placeholder {placeholder(k)} that the source does not have; "
                               "removed"))
    return out
