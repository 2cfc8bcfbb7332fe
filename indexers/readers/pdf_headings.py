"""Headings of a PDF from what the text layer says about fonts, and from its outline.

A PDF has no heading markup: a rule book's "R-12  Never compare strings with ==" is just a
line in a bigger or bolder font. pypdf reports the font and size of every text run it
extracts; a line whose style is rarer and stronger than the body's (larger, or bold where the
body is not) is a heading, its level the rank of its style among heading styles. Outline
(bookmark) titles are headings too, at their outline depth. What is never a heading: numbered
items and level-marked lines (the rules inside a section, often set a little larger), their
wrapped continuation lines, code in a monospaced font, and long sentences.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_WS = re.compile(r"\s+")
_ITEM_START = re.compile(r"^(?:\d{1,4}\s*[.．、)）](?![\d.])|[(（]\s*\d{1,3}\s*[)）]|[【\[]\s*(?:强制|推荐|参考))")
_BOLD = re.compile(r"bold|black|heavy|semibold|demi|,b\b", re.IGNORECASE)
_MONO = re.compile(r"courier|mono|consol|menlo|code", re.IGNORECASE)
_SENTENCE_END = ("。", "；", ";", "，", ",")
_MAX_HEADING_CHARS = 150
_MAX_HEADING_SHARE = 0.2  # a style that sets a fifth of the text is body, not headings
_LARGER = 1.15


@dataclass(frozen=True)
class StyledLine:
    text: str  # whitespace-free, to match the extracted text's lines
    size: float
    bold: bool
    mono: bool
    chars: int


def styled_page(page) -> tuple[str, list[StyledLine]]:
    """The page's extracted text and its lines with their dominant font style."""
    runs: list[tuple[float, float, str, str]] = []

    def visit(text, cm, tm, font_dict, font_size) -> None:
        if not text or not text.strip():
            return
        name = str((font_dict or {}).get("/BaseFont", ""))
        scale = abs(tm[3] or tm[0] or 1) * abs(cm[3] or cm[0] or 1)
        y = tm[5] * (cm[3] or 1) + cm[5]
        runs.append((y, round(float(font_size) * scale * 2) / 2, name, text))

    text = page.extract_text(visitor_text=visit) or ""
    return text, _lines(runs)


def _lines(runs: list[tuple[float, float, str, str]]) -> list[StyledLine]:
    lines: list[StyledLine] = []
    group: list[tuple[float, float, str, str]] = []
    for run in runs:
        if group and abs(run[0] - group[-1][0]) > max(2.0, 0.5 * min(run[1], group[-1][1])):
            lines.append(_style(group))
            group = []
        group.append(run)
    if group:
        lines.append(_style(group))
    return lines


def _style(group: list[tuple[float, float, str, str]]) -> StyledLine:
    weight: Counter[tuple[float, bool, bool]] = Counter()
    for _, size, name, text in group:
        weight[(size, bool(_BOLD.search(name)), bool(_MONO.search(name)))] += len(text.strip())
    (size, bold, mono), _ = weight.most_common(1)[0]
    text = _WS.sub("", "".join(t for *_, t in group))
    return StyledLine(text, size, bold, mono, len(text))


def outline_titles(reader) -> dict[str, int]:
    """Whitespace-free outline titles -> heading level (1 = top), or nothing when the PDF has none."""
    titles: dict[str, int] = {}

    def walk(items, depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                title = _WS.sub("", str(getattr(item, "title", "") or ""))
                if title and depth < 6:
                    titles.setdefault(title, depth + 1)

    try:
        walk(reader.outline, 0)
    except Exception:  # noqa: BLE001 - a broken outline is no outline
        return {}
    return titles


def heading_styles(pages: list[tuple[str, list[StyledLine]]]) -> dict[tuple[float, bool], int]:
    """Font styles that set headings in this document -> level (larger first, then bold)."""
    share: Counter[tuple[float, bool]] = Counter()
    for _, lines in pages:
        for line in lines:
            if not line.mono:
                share[(line.size, line.bold)] += line.chars
    if not share:
        return {}
    total = sum(share.values())
    body_size, body_bold = share.most_common(1)[0][0]
    strong = [
        style for style, chars in share.items()
        if chars <= _MAX_HEADING_SHARE * total
        and (style[0] >= body_size * _LARGER or (style[1] and not body_bold and style[0] >= body_size * 0.95))
    ]
    strong.sort(key=lambda s: (-s[0], not s[1]))
    return {style: min(level, 6) for level, style in enumerate(strong, start=1)}


def mark_headings(pages: list[tuple[str, list[StyledLine]]], outline: dict[str, int]) -> list[str]:
    """Each page's text with `#`-marked heading lines (a heading wrapped over lines joined into one)."""
    styles = heading_styles(pages)
    offset = max(outline.values(), default=0)
    out = []
    for text, lines in pages:
        levels = _heading_lines(lines, styles, outline, offset)
        out.append(_apply(text, levels))
    return out


def _heading_lines(lines: list[StyledLine], styles: dict[tuple[float, bool], int], outline: dict[str, int],
                   offset: int) -> dict[str, int]:
    """Whitespace-free text of the page's heading lines -> level."""
    levels: dict[str, int] = {}
    for block in _blocks(lines, styles):
        first = block[0]
        if first.text in outline:
            levels.setdefault(first.text, outline[first.text])
            continue
        if (first.mono or (first.size, first.bold) not in styles or len(block) > 2
                or sum(line.chars for line in block) > _MAX_HEADING_CHARS
                or _ITEM_START.match(first.text) or block[-1].text.endswith(_SENTENCE_END)):
            continue  # body text, an item set large, code, or a paragraph in a strong font
        for line in block:
            levels.setdefault(line.text, min(6, styles[(line.size, line.bold)] + offset))
    return levels


def _blocks(lines: list[StyledLine], styles: dict[tuple[float, bool], int]) -> list[list[StyledLine]]:
    """Runs of consecutive lines in one heading style (a wrapped heading, or a paragraph); other lines alone."""
    blocks: list[list[StyledLine]] = []
    for line in lines:
        key = (line.size, line.bold, line.mono)
        prev = blocks[-1][-1] if blocks else None
        if prev is not None and (prev.size, prev.bold, prev.mono) == key and (line.size, line.bold) in styles:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return blocks


def _apply(text: str, levels: dict[str, int]) -> str:
    if not levels:
        return text
    out: list[str] = []
    last_level: int | None = None
    for raw in text.split("\n"):
        key = _WS.sub("", raw)
        level = levels.get(key) if key else None
        if level is not None and last_level == level and out and not _ITEM_START.match(key):
            out[-1] = f"{out[-1]} {raw.strip()}"  # a heading wrapped over two lines
        elif level is not None:
            out.append(f"{'#' * level} {raw.strip()}")
        else:
            out.append(raw)
        last_level = level
    return "\n".join(out)
