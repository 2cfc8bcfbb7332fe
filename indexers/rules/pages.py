"""Page furniture of laid-out documents: running headers and footers, page numbers and tables of
contents are dropped before segmentation; a page end ends a paragraph, never a rule."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from .lexicon import FENCE, FORMAT_MARKDOWN, MD_HEADING, Line, is_rule_start

# page furniture
_PAGE_NUMBER = re.compile(
    r"^(?:[-–—]\s*)?\d{1,4}(?:\s*[-–—])?$|^\d{1,4}\s*/\s*\d{1,4}$|^第\s*\d+\s*页(?:\s*[,，/]?\s*共\s*\d+\s*页)?$"
    r"|^(?:page|p\.)\s*\d+(?:\s*(?:of|/)\s*\d+)?$|^\d+\s+of\s+\d+$",
    re.I,
)

_TOC_LINE = re.compile(r"^.{1,200}?(?:[.．·…‥_]\s*){4,}\s*\d{1,4}\s*$|^.{1,200}?\t+\d{1,4}\s*$")

_TOC_TITLE = re.compile(r"^(?:目\s*录|contents|table of contents)$", re.I)

_ENDS_WITH_PAGE = re.compile(r"\s\d{1,4}\s*$")

_EDGE_LINES = 3

def _norm_edge(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split()))

@dataclass
class Page:
    number: int | None
    lines: list[str]
    fmt: str

def page_of(meta: dict) -> int | None:
    page = meta.get("page")
    if isinstance(page, int):
        return page
    label = meta.get("page_label")
    if label is not None and str(label).strip().isdigit():
        return int(str(label).strip())
    return None

def clean_pages(pages: list[Page]) -> list[Line]:
    """Drop running headers/footers, page numbers and table-of-contents lines."""
    paginated = [p for p in pages if p.fmt != FORMAT_MARKDOWN]
    repeated: set[str] = set()
    if len(paginated) >= 2:
        seen: Counter[str] = Counter()
        for page in paginated:
            body = [ln.strip() for ln in page.lines if ln.strip()]
            edges = {_norm_edge(ln) for ln in body[:_EDGE_LINES] + body[-_EDGE_LINES:]}
            seen.update(edges)
        threshold = max(2, math.ceil(0.5 * len(paginated)))
        # a line that opens a marked rule is content, however regular the numbering looks
        repeated = {norm for norm, count in seen.items() if count >= threshold and not is_rule_start(norm)}

    out: list[Line] = []
    for page in pages:
        lines = [ln.rstrip() for ln in page.lines]
        if page.fmt != FORMAT_MARKDOWN:
            nonblank = [i for i, ln in enumerate(lines) if ln.strip()]
            edge_idx = set(nonblank[:_EDGE_LINES] + nonblank[-_EDGE_LINES:])
            toc_page = any(_TOC_TITLE.match(ln.strip()) for ln in lines)
            kept = []
            for i, ln in enumerate(lines):
                s = ln.strip()
                if i in edge_idx and (_norm_edge(s) in repeated or _PAGE_NUMBER.match(s)):
                    continue
                if s and (_TOC_LINE.match(s) or _TOC_TITLE.match(s)):
                    continue
                if toc_page and s and _ENDS_WITH_PAGE.search(s) and len(s) < 80:
                    continue
                kept.append(ln)
            lines = kept
        else:
            lines = _drop_markdown_toc(lines)
        out.extend(Line(ln, page.number) for ln in lines)
        out.append(Line("", page.number))  # a page ends a paragraph (not a rule)
    return out

def _drop_markdown_toc(lines: list[str]) -> list[str]:
    kept, skipping, in_fence = [], False, False
    for ln in lines:
        s = ln.strip()
        if FENCE.match(s):
            in_fence = not in_fence
        m = None if in_fence else MD_HEADING.match(s)
        if m:
            skipping = bool(_TOC_TITLE.match(m.group(2).strip()))
            if skipping:
                continue
        if skipping or (s and not in_fence and _TOC_LINE.match(s)):
            continue
        kept.append(ln)
    return kept
