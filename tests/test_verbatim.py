"""doctrans.verbatim: the span rules (parsed from the module docstring's tables), masking and
restoration (round trips, dropped/duplicated/unknown placeholders, spacing), and the check after
translation."""

from __future__ import annotations

import re

import pytest

from doctrans import verbatim
from doctrans.verbatim import (
    MAX_PLACEHOLDERS,
    Span,
    check,
    copied_exactly,
    find_spans,
    is_untranslatable,
    mask,
    placeholder,
    protected_spans,
    restore_warnings,
    unmask,
)

DOC = verbatim.__doc__ or ""
_SPAN_ROW = re.compile(r"^\| ([a-z()]+)\s*\| (.*?)\s*\| (.*?)\s*\|$")
_UNTRANSLATABLE_ROW = re.compile(r"^\| (yes|no)\s*\| (.*?)\s*\|$")


def span_rows() -> list[tuple[str, str, list[str]]]:
    rows = []
    for line in DOC.splitlines():
        m = _SPAN_ROW.match(line)
        if m and m.group(1) != "kind":
            kind, example, spans = m.groups()
            rows.append((kind, example, [] if spans == "(none)" else spans.split(" · ")))
    return rows


def untranslatable_rows() -> list[tuple[bool, str]]:
    return [(m.group(1) == "yes", m.group(2)) for line in DOC.splitlines()
            if (m := _UNTRANSLATABLE_ROW.match(line))]


SPAN_ROWS = span_rows()
UNTRANSLATABLE_ROWS = untranslatable_rows()


def test_the_tables_are_parsed() -> None:
    # A table the regexes stopped matching would silently test nothing.
    assert len(SPAN_ROWS) >= 50
    assert {k for k, _, _ in SPAN_ROWS} == {*verbatim.KINDS, "(none)"}
    assert len(UNTRANSLATABLE_ROWS) >= 15 and {u for u, _ in UNTRANSLATABLE_ROWS} == {True, False}


@pytest.mark.parametrize(("kind", "example", "expected"), SPAN_ROWS, ids=[r[1] for r in SPAN_ROWS])
def test_span_table_row(kind: str, example: str, expected: list[str]) -> None:
    spans = find_spans(example)
    assert [s.text for s in spans] == expected
    for s in spans:
        assert example[s.start:s.end] == s.text
    if kind != "(none)":
        assert {s.kind for s in spans} == {kind}


@pytest.mark.parametrize(("expected", "text"), UNTRANSLATABLE_ROWS, ids=[r[1] or "empty" for r in UNTRANSLATABLE_ROWS])
def test_untranslatable_table_row(expected: bool, text: str) -> None:
    assert is_untranslatable(text) is expected


# -- masking and restoring ------------------------------------------------------------------------

ZH = ["销售额为1,250万元，同比增长3.5%。", "请访问https://example.org/a?b=1获取v2.1.0版本。",
      "设置ttl_seconds为30，然后调用`main()`。", "版本 v2.1.0 发布", "2024年3月15日，共１２３人参加。",
      "联系help-libtasn1@gnu.org或拨打(320)。", "“320”和‘Q3’"]
EN = ["Sales grew 3.5% to $1,250.00 in Q3 2024.", "Call :func:`os.path.join` with ``x = 1`` and see docs/index.rst.",
      "Write to help-libtasn1@gnu.org, or visit https://x.org/a?b=1&c=2.", "if __name__ == '__main__': main()",
      "A table of 320, 1,250, 2024, 3.5%, 0.75, 98765, Q3, ISO 9001, v2.1.0", "  leading and trailing 320  ",
      "tabs\t320\tand  two  spaces", "<b>Bold</b> and <a href=\"x.html\">a link</a>&nbsp;here", "(v2.1.0)",
      "x ⦅3⦆ y and a｟3｠b", "%(name)s has %5.2f%% of {count} items", ""]


@pytest.mark.parametrize("text", [*ZH, *EN, *(e for _, e, _ in SPAN_ROWS), *(t for _, t in UNTRANSLATABLE_ROWS)])
def test_identity_translation_gives_the_source_back(text: str) -> None:
    """A model that copied the masked text unchanged must give the source back byte for byte."""
    m = mask(text)
    restored = unmask(m.text, m)
    assert restored.text == text
    assert restored.ok and restored.problems == []
    assert [m.text[o:o + len(placeholder(k))] for k, o in enumerate(m.offsets, 1)] == \
        [placeholder(k) for k in range(1, len(m.spans) + 1)]


def test_mask_numbers_spans_in_text_order() -> None:
    m = mask("Sales were 1,250 in 2024 (see https://x.org).")
    assert m.text == "Sales were ⦅1⦆ in ⦅2⦆ (see ⦅3⦆)."
    assert [s.text for s in m.spans] == ["1,250", "2024", "https://x.org"]
    same = mask("320 and 320")
    assert same.text == "⦅1⦆ and ⦅2⦆"  # the same text twice: two placeholders, never one reused


def test_spacing_follows_the_output_language() -> None:
    # en -> zh: no space between a span and Chinese, whatever the model wrote.
    m = mask("Sales were 1,250 million in 2024.")
    assert unmask("销售额为 ⦅1⦆ 百万，⦅2⦆年。", m).text == "销售额为1,250百万，2024年。"
    # zh -> en: a span between words gets a space even if the model glued it.
    m = mask("销售额为1,250万元。")
    assert unmask("Sales were⦅1⦆million yuan.", m).text == "Sales were 1,250 million yuan."
    # Before final punctuation, inside brackets: no space.
    m = mask("版本号（v2.1.0）。")
    assert unmask("The version ( ⦅1⦆ ) .", m).text == "The version (v2.1.0) ."
    # The spaces around a span in an English source do not carry over into Chinese.
    m = mask("Release v2.1.0 today")
    assert unmask("今天发布 ⦅1⦆", m).text == "今天发布v2.1.0"
    # The fullwidth form and spaces the detokeniser put inside a placeholder are read too.
    m = mask("see https://x.org and 320")
    assert unmask("请看 ⦅ 2 ⦆ 和 ｟1｠ 。", m).text == "请看320和https://x.org。"


def test_dropped_placeholder_is_put_back_at_its_relative_position() -> None:
    m = mask("Sales were 1,250 million in 2024.")
    r = unmask("销售额为⦅1⦆百万。", m)  # ⦅2⦆ dropped; it ended the source: before the final 。
    assert r.text == "销售额为1,250百万2024。"
    assert r.missing == (2,) and len(r.problems) == 1 and "missing" in r.problems[0]
    r = unmask("百万。", mask("320 million."))  # began the source: at the start
    assert r.text == "320百万。" and r.missing == (1,)
    r = unmask("", mask("a 320 b https://x.org c"))  # nothing left: all, in source order
    assert r.text == "320 https://x.org" and r.missing == (1, 2)
    # Never inside a Latin word.
    r = unmask("The quarterly revenue grew.", mask("营收320增长。"))
    assert "320" in r.text and re.search(r"\b320\b", r.text)
    # In Chinese, beside punctuation a few characters off rather than splitting a word (libtasn1's
    # manual came back "引ASN1_MAX_NAME_SIZE发", splitting 引发 "raise").
    m = mask("The function raises ASN1_MAX_NAME_SIZE when the name is too long.")
    assert unmask("该函数在名称太长时，引发错误。", m).text == "该函数在名称太长时ASN1_MAX_NAME_SIZE，引发错误。"
    # ... but not far from its place: with no boundary near, between two characters it goes.
    m = mask("Then we will call the function with ASN1_MAX_NAME_SIZE and see what happens.")
    r = unmask("然后我们用它来调用这个函数并看看长名称会发生什么事情以及后果", m)
    assert 0 < r.text.index("ASN1") < len(r.text) - len("ASN1_MAX_NAME_SIZE")


def test_duplicated_and_unknown_placeholders_are_removed() -> None:
    m = mask("Sales were 1,250 million in 2024.")
    r = unmask("In ⦅2⦆ ⦅2⦆, sales were ⦅1⦆ ⦅7⦆ million.", m)
    assert r.text == "In 2024, sales were 1,250 million."
    assert r.duplicated == (2,) and r.unknown == (7,) and r.missing == ()
    assert len(r.problems) == 2
    problems = [w.problem for w in restore_warnings(r, m)]
    assert problems == ["duplicated", "unknown"]


def test_more_spans_than_placeholders() -> None:
    numbers = [str(n) for n in range(101, 101 + MAX_PLACEHOLDERS + 3)]
    text = "values " + " ".join(numbers) + " end"
    m = mask(text)
    assert len(m.spans) == MAX_PLACEHOLDERS
    assert [s.text for s in m.unmasked] == numbers[MAX_PLACEHOLDERS:]
    assert m.text.endswith(" ".join(numbers[MAX_PLACEHOLDERS:]) + " end")  # left for the model
    assert unmask(m.text, m).text == text
    with pytest.raises(ValueError):
        mask(text, MAX_PLACEHOLDERS + 1)
    assert mask(text, 0).text == text


def test_placeholders_already_in_the_source_survive() -> None:
    m = mask("keep ⦅3⦆ and ｟9｠ as they are")
    assert m.text == "keep ⦅1⦆ and ⦅2⦆ as they are"
    assert unmask("保留⦅1⦆和⦅2⦆", m).text == "保留⦅3⦆和｟9｠"


# -- glossary terms among the spans --------------------------------------------------------------

def term(text: str, source: str, target: str) -> Span:
    start = text.index(source)
    return Span(start, start + len(source), source, "term", target)


def test_terms_are_numbered_with_the_spans_and_restored_as_their_target() -> None:
    text = "The Transformer runs on 8 GPUs at https://x.org."
    terms = [term(text, "Transformer", "变换器")]
    m = mask(text, terms=terms)
    assert m.text == "The ⦅1⦆ runs on ⦅2⦆ GPUs at ⦅3⦆."
    assert unmask("⦅1⦆在⦅2⦆个GPU上运行，见⦅3⦆。", m).text == "变换器在8个GPU上运行，见https://x.org。"


def test_a_term_holding_spans_wins_a_term_cutting_one_loses() -> None:
    text = "ISO 9001 and Python 3.12.1"
    spans = protected_spans(text, [term(text, "ISO 9001", "ISO 9001 标准"), term(text, "Python 3", "派森3")])
    assert [(s.text, s.kind) for s in spans] == [("ISO 9001", "term"), ("3.12.1", "version")]
    assert is_untranslatable("Q3", [term("Q3", "Q3", "第三季度")])


# -- the check after translation -----------------------------------------------------------------

def test_check_reports_what_is_missing() -> None:
    src = "Revenue was 320 in Q3, see https://x.org/r and ttl_seconds."
    assert check(src, "营收为320（Q3），见https://x.org/r和ttl_seconds。") == []
    warnings = check(src, "营收为3200（Q3），见https://x.org和ttl_seconds。")
    assert [(w.problem, w.kind, w.span) for w in warnings] == [("missing", "number", "320"),
                                                               ("missing", "url", "https://x.org/r")]
    assert "320" in warnings[0].message


def test_check_counts_whole_tokens_and_occurrences() -> None:
    assert check("1,250 and 250", "1,250和")[0].span == "250"  # 250 of 1,250 is not a 250
    assert check("ttl", "ttl_seconds") == []  # a plain word: not a span, nothing to check
    assert check("ttl_seconds", "ttl_seconds_max")[0].span == "ttl_seconds"
    w = check("320 and 320", "320")
    assert len(w) == 1 and "1 of 2" in w[0].message
    assert check("共１２３人", "123 people") == []  # the same number in NFKC
    assert check("2024年", "2024") == [] and check("in 2024", "2024年") == []
    assert check("<b>bold</b>", "粗体") == []  # markup is not checked (see CHECKED_KINDS)


def test_check_counts_a_figure_glued_to_a_letter_as_the_finder_does() -> None:
    """libtasn1's "1998 at 12h 00m" copied unchanged was reported missing its "12" and "1" (the
    finder takes the figure of "12h" and "1st", the whole-token count did not)."""
    line = "time=Jannuary 1st, 1998 at 12h 00m Greenwich Mean Time"
    assert check(line, line) == []
    assert [w.span for w in check(line, line.replace("12h", "13h"))] == ["12"]


def test_a_figure_the_source_glued_to_its_unit_may_stay_glued() -> None:
    """A shop's 重量：约28kg came back "Weight: About 28kg" and the report said 'about 28' was
    missing: the model copied the unit right after the figure, as the source wrote it. Another
    figure is still missing."""
    weight = [Span(3, 6, "约28", "number", "about 28")]
    assert check("重量：约28kg", "Weight: About 28kg", weight) == []
    assert [w.span for w in check("重量：约28kg", "Weight: About 280kg", weight)] == ["about 28"]


def test_check_glossary_targets() -> None:
    text = "the Transformer model"
    terms = [term(text, "Transformer", "变换器")]
    assert check(text, "变换器模型", terms) == []
    w = check(text, "转换器模型", terms)
    assert [(x.kind, x.span) for x in w] == [("term", "变换器")]


def test_a_translated_term_capitalised_at_the_start_is_not_reported_missing() -> None:
    """A report term that starts the English sentence gets its capital (protect.capitalised_start):
    the report warned "phrase 'second quarter' is not in the translation" beside "Second quarter,
    up 12% ..."; a term missing for real is still reported, and a glossary term's case is exact."""
    text = "第二季度同比增长12%。"
    terms = [Span(0, 4, "第二季度", "phrase", "second quarter")]
    assert check(text, "Second quarter, up 12% year on year.", terms) == []
    assert [w.span for w in check(text, "Up 12% year on year.", terms)] == ["second quarter"]
    ages = [Span(0, 6, "12岁以下儿童", "number", "children under 12")]  # a leaflet's, reported missing
    assert check("12岁以下儿童用量请咨询医师。", "Children under 12 should consult a doctor.", ages) == []
    year = [Span(0, 5, "2025年", "date", "in 2025")]  # a transport report's first sentence
    assert check("2025年，客运量增长4.2%。", "In 2025, passenger volume rose 4.2%.", year) == []
    glossary = [term("the Transformer model", "Transformer", "transformer")]
    assert [w.span for w in check("the Transformer model", "Transformer model", glossary)] == ["transformer"]


def test_remask_is_the_inverse_of_unmask_for_a_persons_translation() -> None:
    m = mask("Sales were 320 and 3200 in Q3, see https://x.org.")
    assert verbatim.remask("销售额为3200和320（Q3），见https://x.org。", m) == "销售额为⦅2⦆和⦅1⦆（⦅3⦆），见⦅4⦆。"
    assert verbatim.remask("销售额为320。", m) == "销售额为⦅1⦆。"  # what the person left out stays out
    text = "The Transformer"
    m = mask(text, terms=[term(text, "Transformer", "变换器")])
    assert verbatim.remask("变换器", m) == "⦅1⦆"


@pytest.mark.parametrize("translation", ["⦅1⦆ and ⦅2⦆", "⦅2⦆ then ⦅1⦆", "｟1｠ and ⦅ 2 ⦆", "⦅1⦆ only", "⦅1⦆ ⦅1⦆ ⦅2⦆",
                                         "⦅1⦆ ⦅2⦆ ⦅3⦆", "", "⦅2⦆ ⦅3⦆"])
def test_copied_exactly_says_what_unmask_says(translation: str) -> None:
    masked = mask("Set ttl_seconds to 300 today.")
    assert len(masked.spans) == 2
    assert copied_exactly(translation, masked) == unmask(translation, masked).ok


def test_a_repeated_placeholder_stands_for_a_missing_one_of_the_same_text() -> None:
    """``320`` twice is ``⦅1⦆`` and ``⦅2⦆``; a model writing ``⦅1⦆`` twice meant both. Before, the
    second copy was removed and ``320`` put back elsewhere, leaving a hole in the sentence."""
    masked = mask("Set the limit to 320 here and to 320 there, not 64.")
    assert masked.text == "Set the limit to ⦅1⦆ here and to ⦅2⦆ there, not ⦅3⦆."
    translation = "这里把限制设为⦅1⦆，那里也设为⦅1⦆，而不是⦅3⦆。"
    assert copied_exactly(translation, masked)
    restored = unmask(translation, masked)
    assert restored.text == "这里把限制设为320，那里也设为320，而不是64。" and restored.ok
    # A placeholder of another text is never taken, and one the output has is never taken twice.
    assert not copied_exactly("这里设为⦅3⦆，那里设为⦅3⦆。", masked)
    assert unmask("这里设为⦅1⦆，那里设为⦅1⦆，⦅2⦆，⦅3⦆。", masked).duplicated == (1,)


def test_no_space_between_a_span_and_a_chinese_quote_mark() -> None:
    """A news story came back “我们期望…回来，” CenterPoint…: Chinese sets no space outside its
    quotes; English does, and keeps it."""
    m = mask("a spokesperson for CenterPoint said ttl_seconds is the limit")
    restored = unmask("“我们期望回来，” ⦅1⦆ 说，⦅2⦆ “限制”。", m).text
    assert restored == "“我们期望回来，”CenterPoint说，ttl_seconds“限制”。"
    m = mask('"Yes," CenterPoint said')
    assert unmask("“Yes,” ⦅1⦆ said", m).text == "“Yes,” CenterPoint said"


def test_a_titled_roles_title_is_translated_and_its_markup_kept() -> None:
    """:term:`协程 <coroutine>` kept whole left Chinese in 59 lines of the zh->en pydocs dev outputs;
    the references translate a role's title. Its markup and target are spans, the title between
    is the model's, glued to the opening and one space from the target; a title the model dropped
    comes back as the source wrote it (`:ref:` <debug-build>`` is broken markup)."""
    m = mask("A :term:`协程 <coroutine>` is the way")
    assert m.text == "A ⦅1⦆协程 ⦅2⦆ is the way"
    assert unmask("A ⦅1⦆ coroutine⦅2⦆ is the way", m).text == "A :term:`coroutine <coroutine>` is the way"
    m = mask("Read `the docs <https://x.org>`_ now.")
    assert unmask("现在阅读⦅1⦆文档 ⦅2⦆。", m).text == "现在阅读`文档 <https://x.org>`_。"
    m = mask("Only in a :ref:`debug build <debug-build>` of Python.")
    assert unmask("仅在 Python ⦅1⦆ ⦅2⦆中可用。", m).text == "仅在 Python :ref:`debug build <debug-build>`中可用。"
    assert [s.text for s in find_spans("a `x <y>` z")] == ["`x <y>`"]  # no role, no link: one literal


@pytest.mark.parametrize(("text", "globs"), [
    ("It is trivial to detect a pattern in the form ’*.ext’ and store it.", ["*.ext"]),  # came back '**。ext'
    ("Match *.tar.gz or foo*.log, not foo*.", ["*.tar.gz", "foo*.log"]),
    ("删除所有 *.pyc 文件。", ["*.pyc"]),
    ("It costs 2*3 dollars.", []),  # no extension: arithmetic, left to the number rules
    ("such as *random.py* and *socket.py*.", []),  # emphasis around file names
])
def test_a_glob_pattern_is_kept_as_written(text: str, globs: list[str]) -> None:
    assert [s.text for s in find_spans(text) if "*" in s.text] == globs


@pytest.mark.parametrize(("text", "options"), [
    # The en->zh model wrote "python3来检查你的版本 -- 终端中的转换": the option's name translated.
    ("You can check your version by running python3 --version in a terminal.", ["--version"]),
    ("The --verbose flag prints every request; change it with --timeout.", ["--verbose", "--timeout"]),
    ("Run pip install --upgrade mytool, or pass --dry-run and --tags=selenium.",
     ["--upgrade", "--dry-run", "--tags=selenium"]),
    ('Type "--help" to see them (or --version).', ["--help", "--version"]),
    ("使用 --verbose 选项运行。", ["--verbose"]),
    # A dash written as two hyphens, as fiction and subtitles write it, is prose.
    ("My bottegas --where are they?", []),
    ('B., first of all, "Vogue paris"--that\'s amazing!', []),
    ('"a"--go home and study,', []),
    ("I said --no. She paused --then left.", []),
    ("the -- option", []),
])
def test_a_command_line_option_is_kept_as_written(text: str, options: list[str]) -> None:
    # Alone or inside the command it belongs to (python3 --version).
    assert [w for s in find_spans(text) for w in s.text.split() if w.startswith("--")] == options


@pytest.mark.parametrize(("text", "spans"), [
    # "e.g. GET /v2/orders?cursor=…&limit=50" came back 例如获取/v2/orders?…: the method translated.
    ("e.g. GET /v2/orders?cursor=eyJpZCI6MTIzfQ&limit=50.", ["GET /v2/orders?cursor=eyJpZCI6MTIzfQ&limit=50"]),
    ("request a new one from POST /v2/oauth/token.", ["POST /v2/oauth/token"]),
    # "a 429 Too Many Requests response" came back "一个429，许多请求".
    ("receive a 429 Too Many Requests response with a Retry-After header",
     ["429 Too Many Requests", "Retry-After"]),  # the header's name was dropped
    # "Authorization: Bearer <token>" came back 授权：Bearer <token>.
    ("for example: Authorization: Bearer <token>.", ["Authorization", "<token>"]),
    ("Get the items. Post them. Location: Room 201. Host: Ann.", []),  # words, a form's fields
])
def test_http_requests_statuses_and_headers_are_kept(text: str, spans: list[str]) -> None:
    assert [s.text for s in find_spans(text) if s.kind in ("code", "tag")] == spans


@pytest.mark.parametrize(("text", "kept"), [
    # A reference manual's prototype: the model translated its parameters (definitions -> 定义, FILE -> 文件).
    ("int asn1_parser2tree (const char * file, asn1_node * definitions, char * error_desc)", True),
    ("void asn1_print_structure (FILE * out, asn1_node_const structure, const char * name, int mode)", True),
    ("int main(void);", True),
    ("Install packages (numpy pandas, scipy tools)", False),  # words that look like one
    ("Call the function (see below).", False),
])
def test_a_c_prototype_on_its_own_line_is_kept(text: str, kept: bool) -> None:
    assert is_untranslatable(text) is kept


@pytest.mark.parametrize(("text", "command"), [
    # "run sudo ⦅1⦆ --server ⦅2⦆ --token ⦅3⦆": the options left to the model, "Run" with them.
    ("2. Run sudo ./install.sh --server backup.example.com --token YOUR_TOKEN.",
     "sudo ./install.sh --server backup.example.com --token YOUR_TOKEN"),
    # 运行 pip 安装 doctrans: the command's own word translated.
    ("Run pip install doctrans to get the package.", "pip install doctrans"),
    ("Then run git clone https://github.com/x/y.git, and open the folder.", "git clone https://github.com/x/y.git"),
    ("Run the command docker compose up -d.", "docker compose up -d"),
    ("运行 sudo apt update 更新软件包列表。", "sudo apt update"),
    ("Run go build ./... in the root.", "go build ./..."),
    # In brackets or after a colon (sudo apt install lost from "(sudo apt install python3-dev)"), and the
    # document's own program where an option shows it is one (run fastkv --version: 运行快速的--version).
    ("Install the headers first (sudo apt install python3-dev).", "sudo apt install python3-dev"),
    ("To check it, run fastkv --version.", "fastkv --version"),
    ("Start it on another port: fastkv serve --port 6390.", "fastkv serve --port 6390"),
    # A profiler's subcommand (perf report --sort comm,dso came back 运行香水报告comm,dso), and a program
    # named by a common word with one subcommand at most before its options.
    ("Run perf report --sort comm,dso to see it.", "perf report --sort comm,dso"),
    ("To list events, run perf list.", "perf list"),
    ("Run black --check src before committing.", "black --check src"),
    ("Run tests for the parser --verbose.", None),
    ("Enter your password --twice.", None),
    ("(see --help)", None),
    ("Note: make sure it works.", None),  # not a program no sentence starts with
    ("He said: go home --now.", None),
    ("(git is fast)", None),
    # A program without arguments, or not after a verb that runs it, is the model's.
    ("Run make to build it.", None),
    ("Use git to track changes; pip install is slow.", None),
    ("Enter the room and go home.", None),
])
def test_a_command_after_the_verb_that_runs_it_is_kept_whole(text: str, command: str | None) -> None:
    found = [s.text for s in find_spans(text) if s.kind == "code" and " " in s.text]
    assert found == ([command] if command else [])


def test_a_plural_possessives_apostrophe_after_a_span_is_not_read() -> None:
    """A lease's "with 60 days' written notice" came back 60天' 书面通知: the model copied the apostrophe
    after the placeholder. It reads ``⦅k⦆ ⦅k+1⦆``; a single quote's end is kept."""
    from doctrans.engine.protect import prepare
    prep = prepare("Either party may end it with 60 days' written notice.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and "'" not in prep.model_text
    assert [s.text for s in prep.masked.spans][-2:] == ["60 days", "written notice"]
    prep = prepare("The 'last 60 days' rule applies.", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text is not None and prep.model_text.count("'") == 2


@pytest.mark.parametrize(("text", "kept"), [
    # "Emissions of CO₂" came back CO2, "E = mc²" mc2: the models read them through NFKC.
    ("Emissions of CO₂ fell while CH4 rose.", ["CO₂", "CH4"]),
    ("The formula is E = mc², as shown.", ["mc²"]),
    ("Water is H₂O and sulfate SO₄²⁻.", ["H₂O", "SO₄²⁻"]),
    # A footnote's mark after a word stays the footnote's alone.
    ("This is important¹ and true.", ["¹"]),
])
def test_a_formula_with_sub_or_superscript_digits_is_kept_whole(text: str, kept: list[str]) -> None:
    assert [s.text for s in find_spans(text)] == kept


def test_a_stop_the_model_glued_before_a_placeholder_is_a_space() -> None:
    """直接经济损失约35亿元 came back "directly in economy.⦅2⦆", restored "economy.about 3.5 billion yuan"."""
    masked = mask("直接经济损失约35亿元")
    assert unmask("direct economic losses.⦅1⦆", masked).text == "direct economic losses 35"
    # ... where what the model read has the stop too, it stays (a name cut in two)
    read = verbatim.Masked("os.getcwd", "os.⦅1⦆", (Span(3, 9, "getcwd", "code"),), (3,), ())
    assert unmask("调用 os.⦅1⦆", read).text == "调用 os.getcwd"


def test_a_programs_name_takes_no_year_into_chinese() -> None:
    """A blog's "from PostgreSQL to ClickHouse" came back 从PostgreSQL年搬到ClickHouse: to the model
    "from ⦅1⦆ to ⦅2⦆" is mostly a range of years. A word of its own after the name is kept."""
    from doctrans.engine.protect import prepare

    prep = prepare("Why we moved from PostgreSQL to ClickHouse", 16, tgt_lang="zh", src_lang="en")
    assert prep.model_text == "Why we moved from ⦅1⦆ to ⦅2⦆"
    assert prep.restore("为什么我们从⦅1⦆年搬到⦅2⦆").text == "为什么我们从PostgreSQL搬到ClickHouse"
    assert prep.restore("⦅1⦆年度报告和⦅2⦆").text == "PostgreSQL年度报告和ClickHouse"


def test_a_plural_s_the_model_glued_to_a_plural_term_is_dropped() -> None:
    """新能源汽车出口128.4万辆 came back "new energy vehicles s out of 1.284 million": the model wrote
    ``⦅1⦆s`` after a term that is a plural already. After a singular the s stays the model's."""
    text = "新能源汽车出口"
    masked = mask(text, terms=[Span(0, 5, "新能源汽车", "phrase", "new energy vehicles")])
    assert unmask("⦅1⦆s out", masked).text == "new energy vehicles out"
    single = mask("电动车出口", terms=[Span(0, 3, "电动车", "phrase", "electric car")])
    assert unmask("⦅1⦆s out", single).text.startswith("electric car")
