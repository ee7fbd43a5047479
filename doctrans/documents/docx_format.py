"""Word .docx, rewritten in place on a copy of the original package.

Every paragraph (``w:p``) of the main document, headers and footers (all of them: default, first
and even variants are separate parts), footnotes, endnotes and comments becomes one block --
including paragraphs in tables (nested too) and text boxes. Only the text of ``w:t`` elements
changes; the output zip copies every other part unchanged, and the text-bearing parts keep their
XML structure (runs, properties, fields, bookmarks, hyperlinks with their r:id targets, drawings).

Inside a paragraph:
- the text of all runs is one block, so a sentence spread over bold/italic runs is translated as
  one sentence; each run then gets the slice of the target text that
  :meth:`TranslatedBlock.project` maps its source range to (proportional mapping per sentence,
  snapped to word boundaries -- see there for why; a run whose text the translation copied, an
  inline code literal or a figure, maps exactly onto the copy: ``copied_anchors``);
- tabs and line breaks are kept as elements; in the block text they are ``\\t``/``\\n``, which
  the segmenter treats as hard boundaries, so the text on each side is translated separately and
  the break stays between them;
- field results (page numbers, dates, cross references) are kept verbatim, except the visible
  text of HYPERLINK fields; drawings, footnote references and symbols stay where they are;
- text boxes written twice (``mc:Choice`` and its ``mc:Fallback`` copy) are translated once and
  the translation copied into the fallback, so old Word versions show it too.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from doctrans.documents.base import Block, Document, Run, TranslatedBlock
from doctrans.errors import DocumentError
from doctrans.list_markers import numbers_the_chinese_way
from doctrans.safe_zip import check_zip, copy_part

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"

# Content types of the parts that hold translatable text, and the block kind of their paragraphs.
_PART_KINDS = {
    "document.main+xml": "paragraph",
    "header+xml": "header",
    "footer+xml": "footer",
    "footnotes+xml": "footnote",
    "endnotes+xml": "endnote",
    "comments+xml": "comment",
}
# Part order = reading order for the memory: the body first, then notes, then page furniture.
_PART_ORDER = ["paragraph", "footnote", "endnote", "comment", "header", "footer"]
_SKIP = {W + "pPr", W + "rPr", W + "txbxContent", MC + "Fallback", W + "instrText", W + "delText"}
_HEADING = re.compile(r"^(?:heading|berschrift|titre)\s*(\d)$", re.IGNORECASE)


@dataclass
class _ParaRef:
    part: str
    para: etree._Element
    texts: list[etree._Element]  # the w:t elements, in order, matching block.runs


@dataclass
class _Package:
    parts: dict[str, etree._ElementTree]  # parsed text-bearing parts
    fallbacks: list[tuple[str, etree._Element, etree._Element]]  # (part, choice, fallback)


def _open_zip(path: Path) -> zipfile.ZipFile:
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise DocumentError(f"{path}: this is an old binary Word .doc (or encrypted), not .docx; "
                            "save it as .docx first")
    if not head.startswith(b"PK"):
        raise DocumentError(f"{path}: not a .docx file (not a zip package)")
    try:
        zf = zipfile.ZipFile(path)
        check_zip(path, zf)  # declared sizes vs limits, before anything is decompressed (zip bombs)
        bad = zf.testzip()
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise DocumentError(f"{path}: damaged or truncated .docx ({e})") from None
    if bad is not None:
        raise DocumentError(f"{path}: damaged .docx (part {bad} is corrupt)")
    return zf


def _text_parts(path: Path, zf: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(part name, block kind) of the text-bearing parts, from [Content_Types].xml."""
    try:
        ct = etree.fromstring(zf.read("[Content_Types].xml"))
    except KeyError:
        raise DocumentError(f"{path}: a zip file but not a Word document (no [Content_Types].xml)") from None
    except etree.XMLSyntaxError as e:
        raise DocumentError(f"{path}: damaged .docx ({e})") from None
    found = []
    for over in ct.iter(_CT + "Override"):
        ctype = over.get("ContentType", "")
        for suffix, kind in _PART_KINDS.items():
            if ctype.endswith("wordprocessingml." + suffix):
                found.append((over.get("PartName", "").lstrip("/"), kind))
    if not any(k == "paragraph" for _, k in found):
        raise DocumentError(f"{path}: a zip file but not a Word document (no main document part)")
    names = set(zf.namelist())
    found = [(n, k) for n, k in found if n in names]
    return sorted(found, key=lambda nk: (_PART_ORDER.index(nk[1]), _natural(nk[0])))


def _natural(name: str) -> tuple:
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name))


def _paragraph_items(para: etree._Element) -> tuple[str, list[Run], list[etree._Element]]:
    """Block text, runs (w:t spans) and the w:t elements of one paragraph."""
    text: list[str] = []
    runs: list[Run] = []
    elems: list[etree._Element] = []
    pos = 0
    fields: list[dict] = []  # complex field stack: {"instr": str, "result": bool}

    def walk(el: etree._Element) -> None:
        nonlocal pos
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIP or tag == W + "p":
                if tag == W + "instrText" and fields:
                    fields[-1]["instr"] += child.text or ""
                continue
            if tag == W + "fldChar":
                kind = child.get(W + "fldCharType")
                if kind == "begin":
                    fields.append({"instr": "", "result": False})
                elif kind == "separate" and fields:
                    fields[-1]["result"] = True
                elif kind == "end" and fields:
                    fields.pop()
                continue
            if tag == W + "fldSimple":
                if (child.get(W + "instr") or "").strip().upper().startswith("HYPERLINK"):
                    walk(child)
                continue  # other simple fields: result kept verbatim
            if tag == W + "t":
                in_result = any(f["result"] and not f["instr"].strip().upper().startswith("HYPERLINK")
                                for f in fields)
                if not in_result:
                    t = child.text or ""
                    runs.append(Run(pos, pos + len(t), len(elems)))
                    elems.append(child)
                    text.append(t)
                    pos += len(t)
                continue
            if tag == W + "tab" or tag in (W + "br", W + "cr"):
                text.append("\t" if tag == W + "tab" else "\n")
                pos += 1
                continue
            walk(child)

    walk(para)
    joined = "".join(text)
    _mark_formatted(joined, runs, [_format_of(e, para) for e in elems])
    return joined, runs, elems


# What a run's formatting is, as far as a reader sees it inside a sentence: bold, italic, underline,
# struck, highlighted, coloured, raised or lowered, or a link's words.
_TOGGLES = ("b", "i", "u", "strike", "dstrike", "highlight", "color", "vertAlign", "shd")


def _format_of(t: etree._Element, para: etree._Element) -> tuple:
    """The formatting of the w:t ``t`` (its w:r's properties and the link it is in), none for plain
    text: runs split by spell checking or revision marks with one formatting compare equal."""
    key: list = []
    run = t.getparent()
    props = run.find(W + "rPr") if run is not None else None
    if props is not None:
        for name in _TOGGLES:
            el = props.find(W + name)
            val = None if el is None else (el.get(W + "val") or el.get(W + "fill") or "on")
            if val is not None and val.lower() not in ("0", "false", "none", "off", "auto", "baseline"):
                key.append((name, val))
    link = next((a for a in t.iterancestors() if a.tag == W + "hyperlink" or a is para), None)
    if link is not None and link is not para:
        key.append(("link", id(link)))
    return tuple(key)


def _mark_formatted(text: str, runs: list[Run], formats: list[tuple]) -> None:
    """Mark each stretch of runs with one formatting other than plain, inside a paragraph that has
    more text than it, an anchor (doctrans.documents.base.Run): its ends are mapped exactly where
    the translation holds its text (a bold "zero lost-time injuries" had landed proportionally on
    other words, a link's "safety portal" on 心的安)."""
    i = 0
    while i < len(runs):
        j = i
        while j + 1 < len(runs) and formats[j + 1] == formats[i] and runs[j + 1].start == runs[j].end:
            j += 1
        a, b = runs[i].start, runs[j].end
        if formats[i] and text[a:b].strip() and text[a:b].strip() != text.strip():
            for run in runs[i:j + 1]:
                run.anchor, run.group = True, (a, b)
        i = j + 1


def _kind(para: etree._Element, part_kind: str) -> tuple[str, int]:
    if part_kind != "paragraph":
        return part_kind, 0
    for anc in para.iterancestors():
        if anc.tag == W + "txbxContent":
            return "textbox", 0
        if anc.tag == W + "tc":
            return "table_cell", 0
    ppr = para.find(W + "pPr")
    if ppr is not None:
        style = ppr.find(W + "pStyle")
        name = style.get(W + "val", "") if style is not None else ""
        m = _HEADING.match(name.replace("Ü", "").replace("ü", ""))
        if m:
            return "heading", int(m.group(1))
        if name.lower() in ("title", "subtitle"):
            return "heading", 1 if name.lower() == "title" else 2
        numpr = ppr.find(W + "numPr")
        if numpr is not None or name.lower().startswith("list"):
            ilvl = numpr.find(W + "ilvl") if numpr is not None else None
            return "list_item", int(ilvl.get(W + "val", "0")) if ilvl is not None else 0
    return "paragraph", 0


_CODE_STYLE = re.compile(r"code|verbatim|preformatted|source|macro|plain ?text|console|listing|terminal",
                         re.IGNORECASE)
_MONO_FONT = re.compile(r"courier|consolas|mono|menlo|monaco|lucida console|source code|fira code|inconsolata|"
                        r"fixedsys|typewriter|andale", re.IGNORECASE)


def _code_styles(zf: zipfile.ZipFile, parser: etree.XMLParser) -> set[str]:
    """Ids of the paragraph/character styles that mark code: named like one (Code, HTML
    Preformatted, Source Code, Macro Text, Plain Text, Verbatim Char) or set in a monospace font,
    directly or through the style they are based on."""
    try:
        root = etree.fromstring(zf.read("word/styles.xml"), parser)
    except (KeyError, etree.XMLSyntaxError):
        return set()
    fonts: dict[str, str] = {}
    based: dict[str, str] = {}
    named: set[str] = set()
    for style in root.iter(W + "style"):
        sid = style.get(W + "styleId", "")
        name = style.find(W + "name")
        if _CODE_STYLE.search(sid) or (name is not None and _CODE_STYLE.search(name.get(W + "val", ""))):
            named.add(sid)
        rfonts = style.find(f"{W}rPr/{W}rFonts")
        if rfonts is not None:
            fonts[sid] = rfonts.get(W + "ascii") or rfonts.get(W + "hAnsi") or ""
        parent = style.find(W + "basedOn")
        if parent is not None:
            based[sid] = parent.get(W + "val", "")
    out = set(named)
    for sid in set(fonts) | set(based):
        seen, cur = set(), sid
        while cur and cur not in fonts and cur not in seen:
            seen.add(cur)
            cur = based.get(cur, "")
        if cur in fonts and _MONO_FONT.search(fonts[cur]):
            out.add(sid)
    return out


def _is_code(para: etree._Element, elems: list[etree._Element], code_styles: set[str]) -> bool:
    """A paragraph all of whose text is in a code style or a monospace font (a code listing in
    Word): kept verbatim. Inline code inside prose is left to the sentence-level protection."""
    pstyle = para.find(f"{W}pPr/{W}pStyle")
    para_code = pstyle is not None and pstyle.get(W + "val", "") in code_styles
    for t in elems:
        run = t.getparent()
        rpr = run.find(W + "rPr") if run is not None else None
        rfonts = rpr.find(W + "rFonts") if rpr is not None else None
        font = (rfonts.get(W + "ascii") or rfonts.get(W + "hAnsi") or "") if rfonts is not None else ""
        rstyle = rpr.find(W + "rStyle") if rpr is not None else None
        if font:
            code = bool(_MONO_FONT.search(font))
        elif rstyle is not None and rstyle.get(W + "val", "") in code_styles:
            code = True
        else:
            code = para_code
        if not code and (t.text or "").strip():
            return False
    return bool(elems)


def _in_fallback(para: etree._Element) -> bool:
    return any(a.tag == MC + "Fallback" for a in para.iterancestors())


class DocxAdapter:
    name = "docx"
    suffixes = (".docx", ".docm")

    def read(self, path: Path) -> Document:
        with _open_zip(path) as zf:
            parts: dict[str, etree._ElementTree] = {}
            blocks: list[Block] = []
            fallbacks = []
            parser = etree.XMLParser(resolve_entities=False, huge_tree=True, remove_blank_text=False)
            code_styles = _code_styles(zf, parser)
            for name, part_kind in _text_parts(path, zf):
                try:
                    tree = etree.ElementTree(etree.fromstring(zf.read(name), parser))
                except etree.XMLSyntaxError as e:
                    raise DocumentError(f"{path}: damaged .docx, part {name} is not valid XML ({e})") from None
                parts[name] = tree
                for para in tree.iter(W + "p"):
                    if _in_fallback(para):
                        continue
                    text, runs, elems = _paragraph_items(para)
                    if not text.strip():
                        continue
                    kind, level = _kind(para, part_kind)
                    blocks.append(Block(kind, text, runs, level=level, ref=_ParaRef(name, para, elems),
                                        verbatim=_is_code(para, elems, code_styles)))
                for alt in tree.iter(MC + "AlternateContent"):
                    choice, fallback = alt.find(MC + "Choice"), alt.find(MC + "Fallback")
                    if choice is not None and fallback is not None:
                        fallbacks.append((name, choice, fallback))
        size = sum(len(b.text) for b in blocks)
        return Document(path=path, format=self.name, _blocks=lambda: iter(blocks), size_hint=size,
                        state=_Package(parts, fallbacks))

    def write(self, document: Document, translated: Iterable[TranslatedBlock], out_path: Path) -> None:
        pkg: _Package = document.state
        changed: set[str] = set()
        tgt_lang: str | None = None
        for tb in translated:
            tgt_lang = tb.tgt_lang
            ref: _ParaRef = tb.block.ref
            if tb.block.verbatim:
                continue  # code: the paragraph stays as it is
            _apply(tb, ref.texts)
            changed.add(ref.part)
        for part, choice, fallback in pkg.fallbacks:
            if part in changed:
                _copy_fallback(choice, fallback)
        with zipfile.ZipFile(document.path) as zin, zipfile.ZipFile(out_path, "w") as zout:
            for info in zin.infolist():
                numbering = _numbering_into(zin, info, tgt_lang) if info.filename == _NUMBERING else None
                if numbering is not None:
                    zout.writestr(info, numbering)
                elif info.filename in changed:
                    data = etree.tostring(pkg.parts[info.filename], xml_declaration=True,
                                          encoding="UTF-8", standalone=True)
                    # The original ZipInfo keeps name, date, order and compression of every part.
                    zout.writestr(info, data)
                else:
                    copy_part(zin, zout, info)  # streamed: a 1 GiB video never sits in memory


_NUMBERING = "word/numbering.xml"
# Word's Chinese and Japanese counting formats: 一、 二、 in a list; an English translation counts 1. 2.
_CJK_NUMBER_FORMATS = {"chineseCounting", "chineseCountingThousand", "chineseLegalSimplified",
                       "ideographDigital", "ideographTraditional", "ideographLegalTraditional",
                       "ideographZodiac", "japaneseCounting", "japaneseDigitalTenThousand",
                       "japaneseLegal", "taiwaneseCounting", "taiwaneseCountingThousand", "taiwaneseDigital"}


def _numbering_into(zin: zipfile.ZipFile, info: zipfile.ZipInfo, tgt_lang: str | None) -> bytes | None:
    """The list numbering part with Chinese counting (``一、``, ``（一）``) as decimal (``1.``,
    ``(1)``) when the translation is not into Chinese or Japanese (doctrans.list_markers does the
    same for typed markers); None when nothing changes."""
    if tgt_lang is None or numbers_the_chinese_way(tgt_lang):
        return None
    root = etree.fromstring(zin.read(info), etree.XMLParser(resolve_entities=False, huge_tree=True))
    changed = False
    for lvl in root.iter(W + "lvl"):
        fmt = lvl.find(W + "numFmt")
        if fmt is None or fmt.get(W + "val") not in _CJK_NUMBER_FORMATS:
            continue
        fmt.set(W + "val", "decimal")
        text = lvl.find(W + "lvlText")
        if text is not None:
            value = text.get(W + "val", "")
            text.set(W + "val", value.replace("、", ".").replace("．", ".").replace("（", "(").replace("）", ")"))
        changed = True
    if not changed:
        return None
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _apply(tb: TranslatedBlock, elems: list[etree._Element]) -> None:
    """Give each w:t the slice of the target text its source range maps to."""
    runs = tb.block.runs
    if not runs:
        return
    # Project every run boundary once; adjacent runs share an offset, so they share its image and
    # the target is covered without gaps or overlaps (a tab/break between runs stays uncovered).
    offsets = sorted({o for r in runs for o in (r.start, r.end, *r.stretch)})
    anchors = tb.copied_anchors(dict.fromkeys(r.stretch for r in runs))
    image = dict(zip(offsets, tb.project(offsets, anchors), strict=True))
    for run, elem in zip(runs, elems, strict=True):
        _set_text(elem, tb.text[image[run.start] : image[run.end]])


def _set_text(elem: etree._Element, text: str) -> None:
    elem.text = text
    if text != text.strip():
        elem.set(XML_SPACE, "preserve")


def _copy_fallback(choice: etree._Element, fallback: etree._Element) -> None:
    """Copy translated text box paragraphs from mc:Choice into the mc:Fallback duplicate."""
    src = [p for p in choice.iter(W + "p")]
    dst = [p for p in fallback.iter(W + "p")]
    if len(src) != len(dst):
        return
    for sp, dp in zip(src, dst, strict=True):
        s_elems, d_elems = _paragraph_items(sp)[2], _paragraph_items(dp)[2]
        if len(s_elems) == len(d_elems):
            for s, d in zip(s_elems, d_elems, strict=True):
                _set_text(d, s.text or "")
        elif d_elems:
            _set_text(d_elems[0], "".join(s.text or "" for s in s_elems))
            for d in d_elems[1:]:
                _set_text(d, "")
