"""Word ``.docx`` with its structure: headings with levels, list numbering, tables.

llama-index's ``DocxReader`` (docx2txt) flattens a document to plain text: heading levels and
the automatic list numbers ("1.", "（1）") that start each rule are lost. This reader walks the
body with python-docx and renders Markdown (``#`` headings, numbered list lines, ``|`` rows).
Headers, footers and table-of-contents paragraphs are not part of the body walk or are skipped.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document

from dualrag.config import LimitsConfig

from ._common import FORMAT_MARKDOWN, PageCallback, base_metadata, ensure_text
from .caps import check_cells, check_paragraphs, check_zip
from .errors import DocumentError

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_STYLE = re.compile(r"^(?:heading|标题)\s*(\d)$", re.I)
_CN_DIGITS = "零一二三四五六七八九"


def _cn_number(n: int) -> str:
    if n < 10:
        return _CN_DIGITS[n]
    if n < 20:
        return "十" + (_CN_DIGITS[n % 10] if n % 10 else "")
    if n < 100:
        return _CN_DIGITS[n // 10] + "十" + (_CN_DIGITS[n % 10] if n % 10 else "")
    return str(n)


def _roman(n: int) -> str:
    out = ""
    for value, sym in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                       (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out, n = out + sym, n - value
    return out


def _letters(n: int) -> str:
    out = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        out = chr(97 + rem) + out
    return out


def _format_number(n: int, fmt: str) -> str:
    if fmt in ("lowerLetter",):
        return _letters(n)
    if fmt == "upperLetter":
        return _letters(n).upper()
    if fmt == "lowerRoman":
        return _roman(n)
    if fmt == "upperRoman":
        return _roman(n).upper()
    if fmt.startswith("chinese") or fmt.startswith("ideograph") or fmt == "taiwaneseCounting":
        return _cn_number(n)
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


class _Numbering:
    """Computes the visible label of numbered paragraphs (Word does this at render time)."""

    def __init__(self, document) -> None:
        self.levels: dict[str, dict[int, tuple[int, str, str]]] = {}
        self.counters: dict[str, list[int | None]] = {}
        try:
            root = document.part.numbering_part.element
        except (NotImplementedError, KeyError, AttributeError):
            return
        abstract: dict[str, dict[int, tuple[int, str, str]]] = {}
        for an in root.findall(f"{_W}abstractNum"):
            lvls: dict[int, tuple[int, str, str]] = {}
            for lvl in an.findall(f"{_W}lvl"):
                ilvl = int(lvl.get(f"{_W}ilvl", "0"))
                start = lvl.find(f"{_W}start")
                fmt = lvl.find(f"{_W}numFmt")
                text = lvl.find(f"{_W}lvlText")
                lvls[ilvl] = (
                    int(start.get(f"{_W}val", "1")) if start is not None else 1,
                    fmt.get(f"{_W}val", "decimal") if fmt is not None else "decimal",
                    text.get(f"{_W}val", "") if text is not None else "",
                )
            abstract[an.get(f"{_W}abstractNumId", "")] = lvls
        for num in root.findall(f"{_W}num"):
            ref = num.find(f"{_W}abstractNumId")
            if ref is not None:
                self.levels[num.get(f"{_W}numId", "")] = abstract.get(ref.get(f"{_W}val", ""), {})

    def label(self, num_id: str, ilvl: int) -> str | None:
        lvls = self.levels.get(num_id)
        if not lvls or ilvl not in lvls:
            return None
        counters = self.counters.setdefault(num_id, [None] * 9)
        start, fmt, _ = lvls[ilvl]
        counters[ilvl] = start if counters[ilvl] is None else counters[ilvl] + 1  # type: ignore[operator]
        for deeper in range(ilvl + 1, 9):
            counters[deeper] = None
        if fmt == "bullet" or fmt == "none":
            return "-" if fmt == "bullet" else ""
        text = lvls[ilvl][2]

        def repl(m: re.Match) -> str:
            k = int(m.group(1)) - 1
            value = counters[k] if k < 9 and counters[k] is not None else lvls.get(k, (1,))[0]
            return _format_number(int(value), lvls.get(k, (1, fmt, ""))[1])  # type: ignore[arg-type]

        return re.sub(r"%(\d)", repl, text)


def _num_pr(paragraph) -> tuple[str, int] | None:
    ppr = paragraph._p.pPr
    num_pr = ppr.numPr if ppr is not None else None
    if num_pr is None:
        style = paragraph.style
        while style is not None and num_pr is None:
            sppr = style.element.pPr
            num_pr = sppr.numPr if sppr is not None else None
            style = style.base_style
    if num_pr is None or num_pr.numId is None:
        return None
    ilvl = num_pr.ilvl.val if num_pr.ilvl is not None else 0
    return str(num_pr.numId.val), int(ilvl)


def _heading_level(paragraph, below_title: int = 0) -> int | None:
    """Heading N -> N (N + 1 when the document has a Title paragraph, which sits above Heading 1)."""
    name = (paragraph.style.name if paragraph.style is not None else "") or ""
    if name.lower() == "title":
        return 1
    m = _HEADING_STYLE.match(name.strip())
    if m:
        return int(m.group(1)) + below_title
    ppr = paragraph._p.pPr
    if ppr is not None:
        outline = ppr.find(f"{_W}outlineLvl")
        if outline is not None and outline.get(f"{_W}val", "9").isdigit() and int(outline.get(f"{_W}val")) < 9:
            return int(outline.get(f"{_W}val")) + 1 + below_title
    return None


def _is_toc(paragraph) -> bool:
    name = ((paragraph.style.name if paragraph.style is not None else "") or "").lower()
    return name.startswith("toc") or name.startswith("目录")


class StructuredDocxReader(BaseReader):
    """One Markdown Document per ``.docx``: ``#`` headings, numbered items, table rows."""

    def __init__(self, on_page: PageCallback | None = None, limits: LimitsConfig | None = None) -> None:
        self.on_page = on_page
        self.limits = limits or LimitsConfig()

    def load_data(self, file: str | Path, extra_info: dict | None = None) -> list[Document]:  # type: ignore[override]
        path = Path(file)
        text = self.to_markdown(path, self.limits)
        ensure_text(path, text)
        meta = base_metadata(path, FORMAT_MARKDOWN)
        meta.update(extra_info or {})
        if self.on_page is not None:
            self.on_page(1, 1)
        return [Document(text=text, metadata=meta)]

    @staticmethod
    def to_markdown(path: Path, limits: LimitsConfig | None = None) -> str:
        import docx
        from docx.opc.exceptions import PackageNotFoundError
        from docx.text.paragraph import Paragraph

        try:
            with path.open("rb") as fh:
                head = fh.read(8)
        except FileNotFoundError:
            raise DocumentError(path, "no such file") from None
        if not head:
            raise DocumentError(path, "the file is empty")
        if head.startswith(b"\xd0\xcf\x11\xe0"):
            raise DocumentError(path, LEGACY_DOC_HINT)
        limits = limits or LimitsConfig()
        check_zip(path, limits)  # before python-docx unpacks anything
        try:
            document = docx.Document(str(path))
        except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
            raise DocumentError(path, f"corrupt or not a .docx file ({exc or type(exc).__name__})") from None
        except Exception as exc:  # noqa: BLE001 - lxml errors on broken XML parts
            raise DocumentError(path, f"corrupt .docx ({type(exc).__name__}: {exc})") from None

        check_paragraphs(path, len(document.element.body), limits)  # before the walk builds objects
        check_cells(path, sum(1 for _ in document.element.body.iter(f"{_W}tc")), limits)
        numbering = _Numbering(document)
        titled = int(any((p.style is not None and (p.style.name or "").lower() == "title") for p in document.paragraphs))
        blocks: list[str] = []
        for child in document.element.body.iterchildren():
            if child.tag == f"{_W}p":
                para = Paragraph(child, document)
                if _is_toc(para):
                    continue
                text = para.text.strip()
                if not text:
                    continue
                num = _num_pr(para)
                label = numbering.label(*num) if num else None
                level = _heading_level(para, titled)
                if level is not None:
                    blocks.append("#" * min(level, 6) + " " + (f"{label} " if label else "") + text)
                elif label:
                    indent = "  " * (num[1] if num else 0)
                    blocks.append(f"{indent}{label} {text}" if label != "-" else f"{indent}- {text}")
                else:
                    blocks.append(text)
            elif child.tag == f"{_W}tbl":
                rows = _table_rows(child)
                if rows:
                    blocks.append("\n".join(rows))
        return "\n\n".join(blocks)


def _paragraph_text(p) -> str:
    """A paragraph's text as python-docx reads it (runs, hyperlinks; tabs and breaks as spaces)."""
    return "".join((el.text or "") if el.tag == f"{_W}t" else " "
                   for el in p.iter(f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}cr"))


def _table_rows(table) -> list[str]:
    """A table's rows as Markdown, read from its XML in one pass. python-docx's `row.cells`
    rebuilds the whole table's grid for every row: a 100,000-cell table took minutes. A cell
    continuing a vertical merge repeats the text above it (as python-docx does), a cell spanning
    columns is one cell."""
    above: dict[int, str] = {}  # grid column -> text of the cell that starts a vertical merge there
    rows = []
    for tr in table.iterchildren(f"{_W}tr"):
        cells: list[str] = []
        column = 0
        for tc in tr.iterchildren(f"{_W}tc"):
            props = tc.find(f"{_W}tcPr")
            span, merge = 1, None
            if props is not None:
                grid = props.find(f"{_W}gridSpan")
                span = int(grid.get(f"{_W}val", "1")) if grid is not None and grid.get(f"{_W}val", "1").isdigit() else 1
                vmerge = props.find(f"{_W}vMerge")
                merge = None if vmerge is None else vmerge.get(f"{_W}val", "continue")
            text = " ".join(" ".join(_paragraph_text(p) for p in tc.iterchildren(f"{_W}p")).split())
            if merge == "continue":
                text = above.get(column, "")
            elif merge == "restart":
                above[column] = text
            if not cells or cells[-1] != text:  # merged cells repeat
                cells.append(text)
            column += max(span, 1)
        rows.append("| " + " | ".join(cells) + " |")
    return rows


LEGACY_DOC_HINT = (
    "legacy Word .doc format is not supported; convert it to .docx first, "
    "e.g. `libreoffice --headless --convert-to docx FILE.doc`"
)
