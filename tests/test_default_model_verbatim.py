"""What a translation must never change, with the built-in models (issue 14's sales report).

A report in docx (a table of figures and prose), txt and pdf, in both directions, through the CLI
with no --model: every number, date, version, identifier, e-mail, URL and path of the source comes
back byte-identical in the translation. The built-in bundles mask these spans as placeholders
(they were fine-tuned to copy them, training/recipes/placeholder_finetune.sh); the engine's
fallback keeps any the model drops. The spans are what doctrans.verbatim finds in the source,
plus the figures a person would check by eye.
"""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from typer.testing import CliRunner

from doctrans.cli import app
from doctrans.documents import read_document
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.models_registry import default_bundle
from doctrans.report_periods import find_report_periods
from doctrans.verbatim import find_spans

runner = CliRunner()

TABLE = ["320", "1,250", "2024", "3.5%", "0.75", "98765", "Q3", "ISO 9001", "v2.1.0"]
PROSE = {
    "en": ["Revenue rose 3.5% to 1,250 units in Q3 2024, according to the report of 2024-10-15.",
           "Contact help-libtasn1@gnu.org or visit https://www.gnu.org/software/libtasn1/ for version v2.1.0.",
           "Set ttl_seconds to 300 in config.yaml before calling parse_config().",
           "The audit on 12 March 2024 found 98765 records in /var/log/app.log."],
    "zh": ["2024年第三季度收入增长3.5%，达到1,250台。",
           "请通过 help-libtasn1@gnu.org 联系我们，或访问 https://www.gnu.org/software/libtasn1/ 下载 v2.1.0 版本。",
           "在调用 parse_config() 之前，将 ttl_seconds 设置为 300。",
           "审核于2024-10-15完成，共检查了98765条记录，占总数的0.75。"],
}
# What a reader checks by eye, besides the spans the rules find (so the test does not lean on them).
FIGURES = {"en": ["3.5%", "1,250", "2024-10-15", "help-libtasn1@gnu.org", "https://www.gnu.org/software/libtasn1/",
                  "v2.1.0", "ttl_seconds", "300", "config.yaml", "parse_config()", "98765", "/var/log/app.log"],
           "zh": ["2024", "3.5%", "1,250", "help-libtasn1@gnu.org", "https://www.gnu.org/software/libtasn1/",
                  "v2.1.0", "parse_config()", "ttl_seconds", "300", "2024-10-15", "98765", "0.75"]}
DIRECTIONS = [("en", "zh"), ("zh", "en")]


@pytest.fixture(autouse=True)
def builtin_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCTRANS_MODELS", raising=False)


def expected(src: str, sentence: str) -> list[str]:
    """The spans a translation of ``sentence`` must hold: a report's period (``Q3 2024``) written the
    target's way (doctrans.report_periods), every other verbatim span as it is."""
    periods = find_report_periods(sentence, src, "zh" if src == "en" else "en")
    spans = [s.text for s in find_spans(sentence) if not any(p.start <= s.start and s.end <= p.end for p in periods)]
    return sorted({*spans, *(p.target for p in periods if p.target), *(f for f in FIGURES[src] if f in sentence)})


def translate(path: Path, out: Path, src: str) -> None:
    result = runner.invoke(app, ["translate", str(path), "-o", str(out), "--src", src, "-q"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("src", "tgt"), DIRECTIONS)
def test_the_builtin_bundles_mask_verbatim_spans(src: str, tgt: str) -> None:
    bundle = default_bundle(src, tgt)
    assert bundle is not None
    assert OnnxTranslator.load(bundle, src=src, tgt=tgt).placeholders >= 8  # otherwise only the check guards the spans


@pytest.mark.parametrize(("src", "tgt"), DIRECTIONS)
def test_a_docx_report_keeps_every_figure_byte_identical(tmp_path: Path, src: str, tgt: str) -> None:
    d = docx.Document()
    table = d.add_table(rows=3, cols=3)
    for i, value in enumerate(TABLE):
        table.cell(i // 3, i % 3).text = value
    for sentence in PROSE[src]:
        d.add_paragraph(sentence)
    path, out = tmp_path / f"report.{src}.docx", tmp_path / f"report.{tgt}.docx"
    d.save(str(path))
    translate(path, out, src)
    got = docx.Document(str(out))
    cells = [got.tables[0].cell(i // 3, i % 3).text for i in range(len(TABLE))]
    assert [c for c, v in zip(cells, TABLE, strict=True) if v != "ISO 9001"] == [v for v in TABLE if v != "ISO 9001"]
    assert "9001" in cells[TABLE.index("ISO 9001")]  # "ISO" is a word the model may render
    paragraphs = [p.text for p in got.paragraphs if p.text.strip()]
    assert len(paragraphs) == len(PROSE[src])
    for sentence, text in zip(PROSE[src], paragraphs, strict=True):
        assert text != sentence
        for span in expected(src, sentence):
            assert span in text, (span, sentence, text)


@pytest.mark.parametrize(("src", "tgt"), DIRECTIONS)
def test_a_txt_report_keeps_every_figure_byte_identical(tmp_path: Path, src: str, tgt: str) -> None:
    path, out = tmp_path / f"report.{src}.txt", tmp_path / f"report.{tgt}.txt"
    path.write_text("\n\n".join(PROSE[src]) + "\n", encoding="utf-8")
    translate(path, out, src)
    paragraphs = [p for p in out.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert len(paragraphs) == len(PROSE[src])
    for sentence, text in zip(PROSE[src], paragraphs, strict=True):
        for span in expected(src, sentence):
            assert span in text, (span, sentence, text)


@pytest.mark.parametrize(("src", "tgt"), DIRECTIONS)
def test_a_pdf_report_keeps_every_figure_byte_identical(tmp_path: Path, src: str, tgt: str) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    path, out = tmp_path / f"report.{src}.pdf", tmp_path / f"report.{tgt}.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    y = A4[1] - 90
    for sentence in PROSE[src]:  # one paragraph per sentence, each on its own line, gaps between
        c.setFont("STSong-Light" if src == "zh" else "Helvetica", 9)
        c.drawString(50, y, sentence)
        y -= 30
    c.showPage()
    c.save()
    translate(path, out, src)
    # Read back as doctrans reads a PDF; a wrapped line may break anywhere, so spans are looked
    # for with the whitespace taken out (of a period's too: Q3 2024).
    text = "".join("".join(b.text.split()) for b in read_document(out).blocks())
    for sentence in PROSE[src]:
        for span in expected(src, sentence):
            assert "".join(span.split()) in text, (span, text)


TERMS = [("configuration file", "配置文件"), ("database", "数据库"), ("server", "服务器"), ("user account", "用户账户"),
         ("password", "密码"), ("backup", "备份"), ("network", "网络"), ("firewall", "防火墙"), ("invoice", "发票"),
         ("customer", "客户"), ("contract", "合同"), ("deadline", "截止日期"), ("budget", "预算"), ("revenue", "营收"),
         ("quarter", "季度"), ("meeting", "会议"), ("manager", "经理"), ("project", "项目"),
         ("software update", "软件更新"), ("audit", "审计")]
TEMPLATES = ["The {0} must be checked before the {1} is changed.", "Please send the {0} to the {1} today.",
             "We discussed the {0} at length, and the {1} was approved.", "Every {0} needs a {1} and a {2}.",
             "After the {0}, nobody asked about the {1} again.", "Is the {0} ready?"]


def glossary_document(n: int = 60) -> list[str]:
    import random

    rng = random.Random(7)
    out = []
    for i in range(n):
        template = TEMPLATES[i % len(TEMPLATES)]
        terms = rng.sample([s for s, _ in TERMS], template.count("{"))
        out.append(template.format(*terms))
    return out


def test_glossary_every_occurrence_rendered_as_given(tmp_path: Path) -> None:
    terms = tmp_path / "terms.csv"
    terms.write_text("source,target\n" + "".join(f"{s},{t}\n" for s, t in TERMS), encoding="utf-8")
    doc = glossary_document()
    path, out = tmp_path / "doc.en.txt", tmp_path / "doc.zh.txt"
    path.write_text("\n\n".join(doc) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["translate", str(path), "-o", str(out), "--src", "en", "-q", "--glossary", str(terms)])
    assert result.exit_code == 0, result.output
    paragraphs = [p for p in out.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert len(paragraphs) == len(doc) == 60
    occurrences = 0
    for source, translation in zip(doc, paragraphs, strict=True):
        for term, target in TERMS:
            n = source.count(term)
            occurrences += n
            assert translation.count(target) == n, (term, source, translation)
    assert occurrences >= 100 and all(any(t in s for s in doc) for t, _ in TERMS)  # all 20 terms, often


REST = {
    "en": ("Configuration\n=============\n\n"
           "Use :func:`configparser.read` to load ``settings.ini`` when ``__name__ == '__main__'``, and call\n"
           ":meth:`ConfigParser.get` with ``fallback=None`` and `INI files <https://en.wikipedia.org/wiki/INI>`_.\n\n"
           "For example::\n\n"
           "    >>> import configparser\n    >>> config = configparser.ConfigParser()\n\n"
           "The result is a dictionary.\n"),
    "zh": ("配置\n====\n\n"
           "当 ``__name__ == '__main__'`` 时，使用 :func:`configparser.read` 读取 ``settings.ini``，"
           "并以 ``fallback=None`` 调用 :meth:`ConfigParser.get`。\n\n"
           "例如::\n\n"
           "    >>> import configparser\n    >>> config = configparser.ConfigParser()\n\n"
           "结果是一个字典。\n"),
}
MARKDOWN = {
    "en": ("# Installing\n\nRun `pip install doctrans` and then `doctrans --help` to see the options.\n\n"
           "```bash\ndoctrans translate report.docx -o out.docx\nexport DOCTRANS_MODELS=/opt/models\n```\n\n"
           "Set `max_workers` to 4 in `config.toml` before you start.\n"),
    "zh": ("# 安装\n\n先运行 `pip install doctrans`，再运行 `doctrans --help` 查看选项。\n\n"
           "```bash\ndoctrans translate report.docx -o out.docx\nexport DOCTRANS_MODELS=/opt/models\n```\n\n"
           "开始之前，在 `config.toml` 中把 `max_workers` 设为 4。\n"),
}
CODE_LINES = ["    >>> import configparser", "    >>> config = configparser.ConfigParser()",
              "```bash", "doctrans translate report.docx -o out.docx", "export DOCTRANS_MODELS=/opt/models"]


@pytest.mark.parametrize(("src", "tgt"), DIRECTIONS)
@pytest.mark.parametrize("kind", ["rst", "md"])
def test_rest_and_markdown_keep_code_and_markup_byte_identical(tmp_path: Path, src: str, tgt: str,
                                                               kind: str) -> None:
    """Python/Django-style documentation: inline literals, roles, links' targets and code blocks come
    back byte for byte, and the reST literal-block marker stays a marker."""
    source = (REST if kind == "rst" else MARKDOWN)[src]
    path, out = tmp_path / f"doc.{src}.{kind}", tmp_path / f"doc.{tgt}.{kind}"
    path.write_text(source, encoding="utf-8")
    translate(path, out, src)
    result = out.read_text(encoding="utf-8")
    lines = result.splitlines()
    for line in CODE_LINES:
        if line in source.splitlines():
            assert line in lines, (line, result)  # whole lines: code blocks are never translated
    flat = " ".join(result.split())  # a re-wrapped paragraph may break between a literal's words
    prose = [b.text for b in read_document(path).blocks() if not b.verbatim]
    for span in {s.text for p in prose for s in find_spans(p)}:
        assert " ".join(span.split()) in flat, (span, result)
    if kind == "rst":
        assert any(x.rstrip().endswith("::") and not x.startswith(" ") for x in lines), result


def test_chinese_figures_in_wan_and_yi_come_out_as_english_values(tmp_path: Path) -> None:
    """``1,250万元`` is 12.5 million yuan: copying the digits would make it ten thousand times smaller."""
    d = docx.Document()
    table = d.add_table(rows=1, cols=3)
    for i, value in enumerate(["1,250万", "14亿", "3.5万"]):
        table.cell(0, i).text = value
    d.add_paragraph("今年公司销售额达到1,250万元，比去年增长了3.5%。")
    d.add_paragraph("中国人口约14亿，其中城镇人口超过9亿。")
    path, out = tmp_path / "figures.zh.docx", tmp_path / "figures.en.docx"
    d.save(str(path))
    translate(path, out, "zh")
    got = docx.Document(str(out))
    assert [c.text for c in got.tables[0].rows[0].cells] == ["12.5 million", "1.4 billion", "35,000"]
    first, second = [p.text for p in got.paragraphs if p.text.strip()]
    assert "12.5 million" in first and "3.5%" in first and "1,250" not in first, first
    assert "1.4 billion" in second and "900 million" in second, second


def test_english_millions_and_billions_come_out_in_wan_and_yi(tmp_path: Path) -> None:
    path, out = tmp_path / "figures.en.txt", tmp_path / "figures.zh.txt"
    path.write_text("Sales reached 12.5 million dollars in 2024.\n\nThe country has 1.4 billion people.\n\n"
                    "The fund is worth $3.2bn.\n", encoding="utf-8")
    translate(path, out, "en")
    first, second, third = [p for p in out.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert "1250万" in first and "2024" in first and "12.5" not in first, first
    assert "14亿" in second, second
    assert "32亿美元" in third, third  # the currency with the figure (doctrans.currency)


def test_a_specifications_citations_and_variable_lists_come_back_whole(tmp_path: Path) -> None:
    """A DocBook spec cites its bibliography as ``system[MIME]`` and lists directories as
    ``XDG_DATA_HOME:XDG_DATA_DIRS``: the en->zh model wrote ``系统(MIME`` and dropped the second name."""
    lines = ["Many programs use the MIME system[MIME] to represent the types of files.",
             "This specification unifies the systems used by GNOME[GNOME], KDE[KDE] and ROX[ROX].",
             "Load the files from the mime subdirectory of every directory in XDG_DATA_HOME:XDG_DATA_DIRS.",
             "See the XDG Base Directory Specification[BaseDir] and RFC 2119 [RFC-2119] [3]."]
    path, out = tmp_path / "spec.en.txt", tmp_path / "spec.zh.txt"
    path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    translate(path, out, "en")
    got = [p for p in out.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert len(got) == len(lines)
    for key, text in zip([["[MIME]"], ["[GNOME]", "[KDE]", "[ROX]"], ["XDG_DATA_HOME:XDG_DATA_DIRS"],
                          ["[BaseDir]", "[RFC-2119]", "[3]", "2119"]], got, strict=True):
        assert all(k in text for k in key), text
        assert text.count("[") == text.count("]") == sum(k.count("[") for k in key), text


def test_a_contract_keeps_its_parties_articles_clauses_and_amounts(tmp_path: Path) -> None:
    """A service agreement both ways: 甲方/乙方 came back "Packy"/"Ports", 第三条 费用及支付方式 as
    "The Article 3 Field and payments", SERVICE AGREEMENT as 异步协议, USD 12,500 as "USD的 Client
    12,500", and the (a)/(b)/(c) clauses ran together."""
    zh = tmp_path / "contract.zh.txt"
    zh.write_text("技术服务合同\n\n甲方：北京华泰贸易有限公司\n乙方：上海云帆软件有限公司\n\n"
                  "第三条 费用及支付方式\n甲方应在收到发票后30日内向乙方付款。\n", encoding="utf-8")
    translate(zh, tmp_path / "contract.en.txt", "zh")
    lines = (tmp_path / "contract.en.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Technical Service Contract"
    assert lines[2].startswith("Party A: ") and lines[2].endswith("Co., Ltd."), lines[2]
    assert lines[3].startswith("Party B: "), lines[3]
    assert lines[5] == "Article 3 Fees and Payment"
    assert "Party A" in lines[6] and "Party B" in lines[6] and "30" in lines[6], lines[6]
    en = tmp_path / "agreement.en.txt"
    en.write_text("SERVICE AGREEMENT\n\n4. Fees and Payment\n\nThe Client shall pay a monthly fee of USD 12,500.\n\n"
                  "The Provider shall:\n(a) respond to support requests within 24 hours;\n"
                  "(b) notify the Client of any incident within 72 hours.\n", encoding="utf-8")
    translate(en, tmp_path / "agreement.zh.txt", "en")
    lines = (tmp_path / "agreement.zh.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "服务协议" and lines[2] == "4. 费用及支付方式"
    assert "12,500美元" in lines[4], lines[4]
    assert lines[6].endswith("：") and lines[7].startswith("(a) ") and lines[7].endswith("；"), lines[6:8]
    assert lines[8].startswith("(b) ") and "72" in lines[8], lines[8]


def test_a_specification_sheet_keeps_dimensions_signs_and_temperature_ranges(tmp_path: Path) -> None:
    """zh->en came back "Support: 120 80 45 mm", "-20 snick 60 spolitics", "as a 15W"."""
    zh = tmp_path / "spec.zh.txt"
    zh.write_text("产品规格\n\n尺寸：120×80×45毫米\n工作温度：-20℃～60℃\n电源：AC 220V/50Hz，功率≤15W\n保修期：2年\n",
                  encoding="utf-8")
    translate(zh, tmp_path / "spec.en.txt", "zh")
    lines = (tmp_path / "spec.en.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Product Specifications"
    assert lines[2] == "Dimensions: 120×80×45 mm"
    assert lines[3] == "Operating Temperature: -20 °C to 60 °C"
    assert lines[4].startswith("Power Supply: ") and "AC 220V/50Hz" in lines[4] and "≤15W" in lines[4], lines[4]
    assert lines[5] == "Warranty: 2 years"


def test_release_notes_keep_the_tools_name_issue_numbers_and_headings(tmp_path: Path) -> None:
    """en->zh came back 快速kv for fastkv, (参见412) for (see issue #412), 删除了更改 for Breaking changes."""
    en = tmp_path / "notes.en.md"
    en.write_text("# Breaking changes\n\nfastkv is an embedded key-value store. "
                  "Install it with `pip install fastkv`.\n\n"
                  "On Windows, files cannot be deleted while a store is open (see issue #412).\n", encoding="utf-8")
    translate(en, tmp_path / "notes.zh.md", "en")
    out = (tmp_path / "notes.zh.md").read_text(encoding="utf-8")
    assert out.startswith("# 不兼容的变更\n"), out
    assert out.count("fastkv") == 2 and "`pip install fastkv`" in out and "#412" in out, out


def test_a_chinese_how_to_keeps_its_steps_ports_and_quoted_english(tmp_path: Path) -> None:
    """zh->en came back "The first step: Nginx", "Using ports running in 3000", "Welcome to nginx" without its !."""
    zh = tmp_path / "howto.zh.txt"
    zh.write_text("第一步：安装 Nginx\n\n应用运行在 3000 端口。\n\n如果看到“Welcome to nginx!”页面，说明安装成功。\n",
                  encoding="utf-8")
    translate(zh, tmp_path / "howto.en.txt", "zh")
    paragraphs = [p for p in (tmp_path / "howto.en.txt").read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert paragraphs[0].startswith("Step 1: ") and "Nginx" in paragraphs[0], paragraphs
    assert "port 3000" in paragraphs[1], paragraphs
    assert '"Welcome to nginx!"' in paragraphs[2], paragraphs
