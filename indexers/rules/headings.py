"""The heading tree of a rule document, read before segmentation decides anything.

A heading reads as a rule when it carries a rule code (``ABC07-J.``, ``R-12``, ``SEC-04:``), is a
numbered leaf (``3.2.1 Null handling``) or an imperative (``Close every stream``); such a heading
with everything under it is one rule, unless its body holds several rules of its own (numbered
items, level markers, MUST/SHOULD paragraphs) or a heading below it is a rule too."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .lexicon import BULLET, FENCE, ITEM, MD_HEADING, Line, keyword_level, marker, text_heading

# heading shapes that make a heading a rule of its own
RULE_CODE = r"[A-Z][A-Za-z]{0,9}[-_]?\d{1,4}(?:-[A-Z0-9]{1,4})?"

_CODE_HEAD = re.compile(rf"^(?P<code>{RULE_CODE})(?:\s*[.:：)\]]\s*|\s+[-–—]?\s*)(?P<title>\S.*)$")

_CODE_TAIL = re.compile(rf"^(?P<title>.*\S)\s*[\[(（]\s*(?P<code>{RULE_CODE})\s*[\])）]$")

_NUMBERED_HEAD = re.compile(r"^(?P<number>\d{1,3}(?:\.\d{1,3})*)\.?\s+(?P<title>\S.*)$")

_IMPERATIVE = re.compile(
    r"^(?:do not|don't|never|always|avoid|prefer|use|ensure|make|keep|close|check|validate|declare|provide|return"
    r"|throw|catch|log|limit|release|call|write|name|define|treat|handle|minimi[sz]e|sanitiz?e|sanitise|encode"
    r"|escape|restrict|protect|store|specify|document|verify|include|guard|initiali[sz]e|synchroni[sz]e|free|lock"
    r"|copy|compare|override|separate|replace|reject|give|pass|put|keep|mark|wrap|favou?r|require|forbid)\b"
    r"|^(?:禁止|不要|不得|不允许|不可|严禁|必须|应当|应该|避免|尽量)",
    re.I,
)

EXAMPLE_BAD_TITLE = re.compile(r"^(?:non-?compliant|bad|wrong|incorrect|counter[- ]?example)|^反例", re.I)

EXAMPLE_GOOD_TITLE = re.compile(r"^(?:compliant|good|correct|right)\b.*(?:example|solution|code)|^compliant"
                                 r"|^正例", re.I)

@dataclass
class HeadingInfo:
    """A heading and what its section holds, read before segmentation decides anything."""

    level: int
    title: str
    name: str  # the title without its rule code or number
    code: str | None = None  # the document's own rule code ("ABC07-J")
    number: str | None = None  # "3.2.1" of a numbered title
    imperative: bool = False
    example: bool = False  # "Noncompliant Code Example", "正例"...
    leaf: bool = True  # no sub-headings other than example headings
    items: int = 0  # numbered item lines directly under it
    markers: int = 0  # lines opening with a level marker
    keywords: int = 0  # paragraphs opening with MUST/SHOULD/MAY
    as_rule: bool = False  # the heading and everything under it are one rule

    @property
    def rule_like(self) -> bool:
        return not self.example and bool(self.code or self.imperative or (self.number and self.leaf))

def heading_info(level: int, title: str) -> HeadingInfo:
    info = HeadingInfo(level, title, title)
    m = _CODE_HEAD.match(title) or _CODE_TAIL.match(title)
    if m:
        info.code, info.name = m.group("code"), m.group("title").strip()
    else:
        m = _NUMBERED_HEAD.match(title)
        if m:
            info.number, info.name = m.group("number"), m.group("title").strip()
    info.imperative = bool(_IMPERATIVE.match(marker(info.name)[1]))
    info.example = bool(EXAMPLE_BAD_TITLE.match(info.name) or EXAMPLE_GOOD_TITLE.match(info.name))
    return info

def heading_of(s: str, markdown: bool, marked: bool) -> tuple[int, str] | None:
    """A heading line: `#` headings in Markdown (and in PDFs whose reader marked headings by font),
    numbering patterns in laid-out text."""
    if markdown or marked:
        m = MD_HEADING.match(s)
        if m:
            return len(m.group(1)), " ".join(m.group(2).split())
        if markdown:
            return None
    return text_heading(" ".join(s.split()))

def scan_headings(lines: Sequence[Line], markdown: bool, marked: bool) -> dict[int, HeadingInfo]:
    """Every heading by line index, with its section's shape and whether it is one rule."""
    heads: dict[int, HeadingInfo] = {}
    current: HeadingInfo | None = None
    in_fence, para_start = False, True
    for index, line in enumerate(lines):
        s = line.text.strip()
        if in_fence or FENCE.match(s):
            in_fence = in_fence != bool(FENCE.match(s))
            para_start = False
            continue
        if not s:
            para_start = True
            continue
        starts, para_start = para_start, False
        heading = heading_of(s, markdown, marked)
        if heading:
            current = heads[index] = heading_info(*heading)
            para_start = True
            continue
        if current is None:
            continue
        body = BULLET.sub("", s)
        m = ITEM.match(s)
        current.items += m is not None
        if marker(m.group("rest") if m else body)[0] is not None:
            current.markers += 1
        elif (starts or body != s) and keyword_level(body) is not None:
            current.keywords += 1
    order = list(heads.values())
    codes = sum(1 for h in order if h.code)
    if codes < 2 and not (codes == 1 and len(order) <= 2):
        for h in order:  # one "UTF-8 handling" heading is not a coding scheme
            if h.code:
                h.code, h.name = None, h.title
    for k, info in enumerate(order):
        end = k + 1
        while end < len(order) and order[end].level > info.level:
            end += 1
        below = order[k + 1:end]
        info.leaf = all(b.example for b in below)
    for k, info in enumerate(order):
        end = k + 1
        while end < len(order) and order[end].level > info.level:
            end += 1
        if info.example or any(b.rule_like for b in order[k + 1:end]):
            continue
        if info.code:
            info.as_rule = info.markers < 2
        elif info.rule_like:
            info.as_rule = info.items < 2 and info.markers < 2 and info.keywords < 2
    return heads
