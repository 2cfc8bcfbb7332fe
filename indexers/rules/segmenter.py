"""Turn rule documents into one ``RuleUnit`` per rule.

Input is a sequence of llama-index Documents (ours from ``indexers.readers`` or any LlamaHub
reader's); pages of one file are recognised by ``file_path``/``file_name`` and ``page`` /
``page_label`` metadata and segmented together, so a rule that runs over a page break stays one
unit whose ``source.page`` is the page where it starts.

The heading tree is the primary signal. A heading that reads as a rule — it carries a rule code
(``ABC07-J.``, ``R-12``, ``SEC-04:``), or is a numbered leaf (``3.2.1 Null handling``), or is an
imperative sentence (``Close every stream``) — is one unit with all its prose and sub-headings
(``Noncompliant Code Example`` / ``Compliant Solution`` sub-headings become examples), unless its
body holds several rules of its own. Inside a section, these start a rule: a numbered item at the
section's item level (``1.``, ``1、``, ``（1）``, ``(1)``, ``1）`` — whichever style the section's
first item uses), a line that opens with a level marker (【强制】/【推荐】/【参考】,
``[Mandatory]``, ``MUST:``...), a differently numbered sub-item that carries its own marker (a
sub-rule: its own unit, with its parent's lead-in sentence as context), and a paragraph whose
first sentence says MUST/SHOULD/MAY in capitals. A leaf section where nothing starts a rule is
one unit under its heading. 正例/反例/说明 (Good/Bad, Compliant/Noncompliant) blocks attach to the
rule they follow. Page headers/footers, page numbers and the table of contents are dropped. A
document in which nothing at all is found falls back to paragraph groups under headings.

A unit never spans two rule headings; a unit above the size cap is split at its sub-headings
and paragraphs, each part keeping the rule's title and heading path. Ids are the document's own
rule code when it has one, else ``<document slug>:<section numbers>.<item>``, unique within the
document.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dualrag.units import RuleLevel, RuleSource, RuleUnit

from .ids import dedupe_ids
from .report import DocumentReport

FORMAT_MARKDOWN = "markdown"

# ------------------------------------------------------------------------------- patterns

_CN_NUM = "零〇一二三四五六七八九十百两"
_CN_VALUES = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}

# text-layout headings (PDF, plain text): (pattern, level)
_TEXT_HEADINGS: list[tuple[re.Pattern[str], int]] = [
    (re.compile(rf"^第[{_CN_NUM}\d]+[章篇部]\s*\S"), 1),
    (re.compile(rf"^[{_CN_NUM}]+\s*、\s*\S"), 1),
    (re.compile(rf"^附(?:录)?\s*[{_CN_NUM}\dA-Z]*\s*[：:]\s*\S"), 1),
    (re.compile(r"^(?:Chapter|Part|Appendix)\s+[\dA-Z]+\b", re.I), 1),
    (re.compile(rf"^第[{_CN_NUM}\d]+节\s*\S"), 2),
    (re.compile(rf"^[(（][{_CN_NUM}]+[)）]\s*\S"), 2),
]
_DECIMAL_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\s+(?=[A-Z\u4e00-\u9fff])(.+)$")
_SENTENCE_END = tuple("。.；;，,：:！!？?")
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")

_ITEM = re.compile(
    r"^(?:(?P<dot>\d{1,4})\s*[.．](?![\d.])|(?P<dun>\d{1,4})\s*、|[(（]\s*(?P<paren>\d{1,3})\s*[)）]|(?P<rpar>\d{1,3})\s*[)）])"
    r"\s*(?P<rest>.*)$"
)
_BULLET = re.compile(r"^[-*+•]\s+")
_MARKER = re.compile(
    r"^\s*\**\s*(?:"
    r"[【\[]\s*(?P<cn>强制|推荐|参考)\s*[】\]]"
    r"|[【\[(（]\s*(?P<en>Mandatory|Recommended|Reference|Required|Optional|MUST|SHOULD|MAY)\s*[】\])）]"
    r"|(?P<en2>MUST|SHOULD|MAY|Mandatory|Recommended|Reference)\s*[:：]"
    r")\s*\**\s*"
)
_LEVEL_WORDS = {
    "强制": RuleLevel.MANDATORY,
    "推荐": RuleLevel.RECOMMENDED,
    "参考": RuleLevel.REFERENCE,
    "mandatory": RuleLevel.MANDATORY,
    "required": RuleLevel.MANDATORY,
    "must": RuleLevel.MANDATORY,
    "recommended": RuleLevel.RECOMMENDED,
    "should": RuleLevel.RECOMMENDED,
    "reference": RuleLevel.REFERENCE,
    "optional": RuleLevel.REFERENCE,
    "may": RuleLevel.REFERENCE,
}
_KEYWORDS = [
    (re.compile(r"\b(?:MUST|SHALL|REQUIRED)\b"), RuleLevel.MANDATORY),
    (re.compile(r"\b(?:SHOULD|RECOMMENDED)\b"), RuleLevel.RECOMMENDED),
    (re.compile(r"\b(?:MAY|OPTIONAL)\b"), RuleLevel.REFERENCE),
]
_LABEL = re.compile(
    r"^\s*(?:[-*]\s+)?\**\s*(?P<label>正例|反例|说明|注意|注|"
    r"(?i:positive example|good example|correct example|counter[- ]?example|bad example|negative example"
    r"|wrong example|incorrect example|non-?compliant(?: code)?(?: example)?|compliant(?: code)?"
    r"(?: example| solution)?|bad|good|note|explanation|example))\s*\**\s*[：:]\s*\**\s*(?P<rest>.*)$"
)
# heading shapes that make a heading a rule of its own
_RULE_CODE = r"[A-Z][A-Za-z]{0,9}[-_]?\d{1,4}(?:-[A-Z0-9]{1,4})?"
_CODE_HEAD = re.compile(rf"^(?P<code>{_RULE_CODE})(?:\s*[.:：)\]]\s*|\s+[-–—]?\s*)(?P<title>\S.*)$")
_CODE_TAIL = re.compile(rf"^(?P<title>.*\S)\s*[\[(（]\s*(?P<code>{_RULE_CODE})\s*[\])）]$")
_CODE_CELL = re.compile(_RULE_CODE)
_TABLE_ROW = re.compile(r"^\|.*\|$")
_LEVEL_CELL = re.compile(r"^\W*(强制|推荐|参考|mandatory|required|recommended|reference|optional|must|should|may)\W*$",
                         re.IGNORECASE)
_NUMBERED_HEAD = re.compile(r"^(?P<number>\d{1,3}(?:\.\d{1,3})*)\.?\s+(?P<title>\S.*)$")
_IMPERATIVE = re.compile(
    r"^(?:do not|don't|never|always|avoid|prefer|use|ensure|make|keep|close|check|validate|declare|provide|return"
    r"|throw|catch|log|limit|release|call|write|name|define|treat|handle|minimi[sz]e|sanitiz?e|sanitise|encode"
    r"|escape|restrict|protect|store|specify|document|verify|include|guard|initiali[sz]e|synchroni[sz]e|free|lock"
    r"|copy|compare|override|separate|replace|reject|give|pass|put|keep|mark|wrap|favou?r|require|forbid)\b"
    r"|^(?:禁止|不要|不得|不允许|不可|严禁|必须|应当|应该|避免|尽量)",
    re.I,
)
_EXAMPLE_BAD_TITLE = re.compile(r"^(?:non-?compliant|bad|wrong|incorrect|counter[- ]?example)|^反例", re.I)
_EXAMPLE_GOOD_TITLE = re.compile(r"^(?:compliant|good|correct|right)\b.*(?:example|solution|code)|^compliant"
                                 r"|^正例", re.I)
_GOOD_LABEL = re.compile(r"^(?:正例|positive|good|correct|compliant|example)")
_BAD_LABEL = re.compile(r"^(?:反例|counter|bad|negative|wrong|incorrect|non-?compliant)")

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
# sections that document the document, not rules: their numbered lines are not rules
_SKIP_SECTION = re.compile(r"版本历史|修订(?:历史|记录)|更新(?:日志|记录)|变更记录|change\s*log|revision history|version history",
                           re.I)

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_FIRST_SENTENCE = re.compile(r"^(.+?(?:[。！？!?]|\.(?=\s|$)))")
_TITLE_MAX = 160
_FALLBACK_MAX_CHARS = 1500
DEFAULT_MAX_TOKENS = 1500


# ------------------------------------------------------------------------------- model


@dataclass
class _Line:
    text: str
    page: int | None


@dataclass
class _Heading:
    level: int
    title: str
    number: str
    children: int = 0


@dataclass
class _HeadingInfo:
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


def _heading_info(level: int, title: str) -> _HeadingInfo:
    info = _HeadingInfo(level, title, title)
    m = _CODE_HEAD.match(title) or _CODE_TAIL.match(title)
    if m:
        info.code, info.name = m.group("code"), m.group("title").strip()
    else:
        m = _NUMBERED_HEAD.match(title)
        if m:
            info.number, info.name = m.group("number"), m.group("title").strip()
    info.imperative = bool(_IMPERATIVE.match(_marker(info.name)[1]))
    info.example = bool(_EXAMPLE_BAD_TITLE.match(info.name) or _EXAMPLE_GOOD_TITLE.match(info.name))
    return info


def _heading_of(s: str, markdown: bool, marked: bool) -> tuple[int, str] | None:
    """A heading line: `#` headings in Markdown (and in PDFs whose reader marked headings by font),
    numbering patterns in laid-out text."""
    if markdown or marked:
        m = _MD_HEADING.match(s)
        if m:
            return len(m.group(1)), " ".join(m.group(2).split())
        if markdown:
            return None
    return _text_heading(" ".join(s.split()))


def _scan_headings(lines: Sequence[_Line], markdown: bool, marked: bool) -> dict[int, _HeadingInfo]:
    """Every heading by line index, with its section's shape and whether it is one rule."""
    heads: dict[int, _HeadingInfo] = {}
    current: _HeadingInfo | None = None
    in_fence, para_start = False, True
    for index, line in enumerate(lines):
        s = line.text.strip()
        if in_fence or _FENCE.match(s):
            in_fence = in_fence != bool(_FENCE.match(s))
            para_start = False
            continue
        if not s:
            para_start = True
            continue
        starts, para_start = para_start, False
        heading = _heading_of(s, markdown, marked)
        if heading:
            current = heads[index] = _heading_info(*heading)
            para_start = True
            continue
        if current is None:
            continue
        body = _BULLET.sub("", s)
        m = _ITEM.match(s)
        current.items += m is not None
        if _marker(m.group("rest") if m else body)[0] is not None:
            current.markers += 1
        elif (starts or body != s) and _keyword_level(body) is not None:
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


def _label_kind(name: str) -> str:
    name = name.lower()
    return "bad" if _BAD_LABEL.match(name) else "good" if _GOOD_LABEL.match(name) else "text"


def estimate_tokens(text: str) -> int:
    """A cheap token estimate for the size cap and reports: a CJK character is about one token,
    else four characters."""
    cjk = len(_CJK.findall(text))
    return cjk + (len(text) - cjk + 3) // 4


def _slug(key: str) -> str:
    stem = Path(key).stem if key else ""
    return re.sub(r"[^\w]+", "-", stem.lower()).strip("-_") or "document"


@dataclass
class _Rule:
    item_no: str
    level: RuleLevel | None
    page: int | None
    section: list[str]
    numbers: list[str]
    label: str
    intro: str = ""
    parts: list[tuple[str, list[str]]] = field(default_factory=list)
    title: str | None = None  # a rule heading's title (else the first sentence)
    rule_id: str | None = None  # a rule heading's own id

    def add(self, line: str) -> None:
        self.parts[-1][1].append(line)

    def start_part(self, kind: str, first: str) -> None:
        self.parts.append((kind, [first] if first else []))

    def statement(self) -> str:
        return _join(self.parts[0][1]) if self.parts else ""


def _cn_to_int(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if not text or any(ch not in _CN_VALUES and ch not in "十百" for ch in text):
        return None
    total, current = 0, 0
    for ch in text:
        if ch == "百":
            total += (current or 1) * 100
            current = 0
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        else:
            current = _CN_VALUES[ch]
    return total + current


def _heading_number(title: str) -> str | None:
    m = re.match(rf"^(?:第)?([{_CN_NUM}]+|\d+)\s*[、章篇部节]", title) or re.match(
        rf"^[(（]([{_CN_NUM}]+|\d+)[)）]", title
    )
    if m:
        value = _cn_to_int(m.group(1))
        return str(value) if value is not None else None
    m = re.match(rf"^附(?:录)?\s*([{_CN_NUM}\dA-Z]+)", title)
    if m:
        value = _cn_to_int(m.group(1))
        return f"A{value if value is not None else m.group(1)}"
    m = re.match(r"^(?:Chapter|Part|Section)\s+(\w+)", title, re.I)
    if m:
        return m.group(1)
    m = re.match(r"^Appendix\s+(\w+)", title, re.I)
    if m:
        return f"A{m.group(1)}"
    m = re.match(r"^(\d{1,3}(?:\.\d{1,3})*)\.?\s", title)
    if m:
        return m.group(1).split(".")[-1]
    return None


def _text_heading(line: str) -> tuple[int, str] | None:
    if len(line) > 40 or line.endswith(_SENTENCE_END):
        return None
    for pattern, level in _TEXT_HEADINGS:
        if pattern.match(line):
            return level, line
    m = _DECIMAL_HEADING.match(line)
    if m and (("." in m.group(1)) or m.group(2)[:1].isupper()) and len(m.group(2)) <= 60:
        return m.group(1).count(".") + 1, line
    return None


def _marker(text: str) -> tuple[RuleLevel | None, str]:
    m = _MARKER.match(text)
    if not m:
        return None, text
    word = (m.group("cn") or m.group("en") or m.group("en2") or "").lower()
    return _LEVEL_WORDS.get(word), text[m.end():]


def _keyword_level(text: str) -> RuleLevel | None:
    sentence = _first_sentence(text)
    for pattern, level in _KEYWORDS:
        if pattern.search(sentence):
            return level
    return None


def _join(lines: Sequence[str]) -> str:
    """Join wrapped lines: no space between CJK characters, one space otherwise."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if not out:
            out = line
        elif _CJK.match(out[-1]) and _CJK.match(line[0]):
            out += line
        else:
            out += " " + line
    return out


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = _FIRST_SENTENCE.match(text)
    sentence = m.group(1) if m else text
    if len(sentence) > _TITLE_MAX:
        cut = sentence[:_TITLE_MAX]
        space = cut.rfind(" ")
        sentence = (cut[:space] if space > _TITLE_MAX // 2 else cut).rstrip() + "…"
    return sentence


def _is_rule_start(line: str) -> bool:
    m = _ITEM.match(line.replace("#", "1"))
    return _marker(m.group("rest") if m else line)[0] is not None


def _norm_edge(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split()))


# ------------------------------------------------------------------------------- preprocessing


@dataclass
class _Page:
    number: int | None
    lines: list[str]
    fmt: str


def _page_of(meta: dict) -> int | None:
    page = meta.get("page")
    if isinstance(page, int):
        return page
    label = meta.get("page_label")
    if label is not None and str(label).strip().isdigit():
        return int(str(label).strip())
    return None


def _clean_pages(pages: list[_Page]) -> list[_Line]:
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
        repeated = {norm for norm, count in seen.items() if count >= threshold and not _is_rule_start(norm)}

    out: list[_Line] = []
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
        out.extend(_Line(ln, page.number) for ln in lines)
        out.append(_Line("", page.number))  # a page ends a paragraph (not a rule)
    return out


def _drop_markdown_toc(lines: list[str]) -> list[str]:
    kept, skipping, in_fence = [], False, False
    for ln in lines:
        s = ln.strip()
        if _FENCE.match(s):
            in_fence = not in_fence
        m = None if in_fence else _MD_HEADING.match(s)
        if m:
            skipping = bool(_TOC_TITLE.match(m.group(2).strip()))
            if skipping:
                continue
        if skipping or (s and not in_fence and _TOC_LINE.match(s)):
            continue
        kept.append(ln)
    return kept


# ------------------------------------------------------------------------------- segmenter


class _Segmenter:
    def __init__(self, kb: str, file: str, fmt: str, heads: dict[int, _HeadingInfo] | None = None) -> None:
        self.kb = kb
        self.file = file
        self.slug = _slug(file)
        self.markdown = fmt == FORMAT_MARKDOWN
        self.heads = heads or {}
        self.stack: list[_Heading] = []
        self.infos: list[_HeadingInfo] = []  # parallel to stack
        self.root_children = 0
        self.rule: _Rule | None = None
        self.parent: _Rule | None = None  # the item whose marked sub-items are being split off
        self.heading_rule: _HeadingInfo | None = None  # the rule heading whose subtree is being collected
        self.item_style: str | None = None
        self.last_no: int | None = None
        self.section_units = 0
        self.loose: list[tuple[str, int | None]] = []  # a section's lines that no rule took
        self.units: list[RuleUnit] = []

    # -- sections
    def section(self) -> list[str]:
        return [h.title for h in self.stack]

    def numbers(self) -> list[str]:
        return [h.number for h in self.stack]

    def push_heading(self, info: _HeadingInfo) -> None:
        self.close()
        self._flush_loose()
        self.parent = None
        while self.stack and self.stack[-1].level >= info.level:
            self.stack.pop()
            self.infos.pop()
        if self.stack:
            self.stack[-1].children += 1
            ordinal = self.stack[-1].children
        else:
            self.root_children += 1
            ordinal = self.root_children
        number = _heading_number(info.title) or str(ordinal)
        self.stack.append(_Heading(info.level, info.title, number))
        self.infos.append(info)
        self.item_style = None
        self.last_no = None
        self.section_units = 0

    def _skipped(self) -> bool:
        return any(_SKIP_SECTION.search(h.title) for h in self.stack)

    # -- rules
    def open(self, item_no: str, level: RuleLevel | None, first: str, page: int | None, label: str,
             intro: str = "") -> None:
        self.close()
        if self._skipped():
            return
        self.section_units += 1
        self.rule = _Rule(item_no, level, page, self.section(), self.numbers(), label, intro)
        self.rule.start_part("text", first.strip())

    def open_heading(self, info: _HeadingInfo, page: int | None) -> None:
        """A rule heading: the rule is the heading and everything under it up to the next rule heading."""
        if self._skipped():
            return
        self.section_units += 1
        level, name = _marker(info.name)
        rule = _Rule("", level or _keyword_level(name), page, self.section(), self.numbers(), "")
        rule.title = name
        rule.rule_id = info.code or f"{self.slug}:{info.number or '.'.join(self.numbers())}"
        rule.start_part("text", "")
        self.rule, self.heading_rule = rule, info

    def close(self) -> None:
        rule, self.rule, self.heading_rule = self.rule, None, None
        if rule is None:
            return
        unit = self._unit(rule)
        if unit is not None:
            self.units.append(unit)

    def _flush_loose(self) -> None:
        """A leaf section in which nothing started a rule is one unit under its heading."""
        loose, self.loose = self.loose, []
        info = self.infos[-1] if self.infos else None
        if info is None or not info.leaf or self.section_units or self._skipped():
            return
        if not any(text.strip() and not _FENCE.match(text) for text, _ in loose):
            return
        level, name = _marker(info.name)
        rule = _Rule("", level, loose[0][1], self.section(), self.numbers(), "")
        rule.title = name
        rule.rule_id = info.code or f"{self.slug}:{info.number or '.'.join(self.numbers())}"
        rule.start_part("text", "")
        in_fence = False
        for text, _ in loose:
            label = None if in_fence else _LABEL.match(text.strip())
            if _FENCE.match(text):
                in_fence = not in_fence
            if label:
                kind = _label_kind(label.group("label"))
                rule.start_part(kind, text.strip() if kind == "text" else label.group("rest"))
            else:
                rule.add(text)
        if rule.level is None:
            rule.level = _keyword_level(name) or _keyword_level(_join(rule.parts[0][1]))
        unit = self._unit(rule)
        if unit is not None:
            self.units.append(unit)

    def _unit(self, rule: _Rule) -> RuleUnit | None:
        texts, good, bad = [], [], []
        for kind, lines in rule.parts:
            if kind in ("good", "bad"):
                block = "\n".join(ln.rstrip() for ln in lines).strip()
                if block:
                    (good if kind == "good" else bad).append(block)
            else:
                texts.extend(_paragraphs(lines))
        statement = rule.statement()
        if not texts and not good and not bad:
            return None
        body = "\n".join(([rule.intro] if rule.intro else []) + texts)
        title = rule.title or _first_sentence(statement or rule.intro or (texts + good + bad)[0])
        level = rule.level or _keyword_level(statement)
        if level is None and rule.title is not None:  # a rule heading's prose: its strongest keyword
            level = next((lvl for pattern, lvl in _KEYWORDS if any(pattern.search(t) for t in texts)), None)
        rule_id = rule.rule_id or f"{self.slug}:{'.'.join([*rule.numbers, rule.item_no])}"
        anchor = " > ".join(rule.section[-1:] + [rule.label][: bool(rule.label)]) if rule.section else rule.label
        return RuleUnit(
            rule_id=rule_id,
            title=title,
            text=body or title,
            level=level,
            section=rule.section,
            bad_examples=bad,
            good_examples=good,
            source=RuleSource(kb=self.kb, file=self.file, page=rule.page, anchor=anchor),
        )

    # -- the line loop
    def run(self, lines: Sequence[_Line]) -> list[RuleUnit]:
        in_fence = False
        para_start = True
        for index, line in enumerate(lines):
            raw = line.text.rstrip()
            s = raw.strip()
            if in_fence or _FENCE.match(s):
                if _FENCE.match(s):
                    in_fence = not in_fence
                if self.rule is not None:
                    self.rule.add(raw)
                else:
                    self.loose.append((raw, line.page))
                para_start = False
                continue
            if not s:
                para_start = True
                if self.heading_rule is not None and self.rule is not None:
                    self.rule.add("")  # a rule heading's prose keeps its paragraphs
                elif self.loose:
                    self.loose.append(("", line.page))
                continue
            starts_paragraph, para_start = para_start, False
            info = self.heads.get(index)
            if info is not None:
                para_start = True
                if self.heading_rule is not None and self.rule is not None and info.level > self.heading_rule.level:
                    kind = "bad" if _EXAMPLE_BAD_TITLE.match(info.name) else (
                        "good" if _EXAMPLE_GOOD_TITLE.match(info.name) else "text")
                    self.rule.start_part(kind, info.title if kind == "text" else "")
                    continue
                self.push_heading(info)
                if info.as_rule:
                    self.open_heading(info, line.page)
                continue
            label = _LABEL.match(s)
            if label and self.rule is not None:
                kind = _label_kind(label.group("label"))
                self.rule.start_part(kind, s if kind == "text" else label.group("rest"))
                continue
            if self.heading_rule is not None and self.rule is not None:
                self.rule.add(raw if self.rule.parts[-1][0] != "text" else s)
                continue
            if _TABLE_ROW.match(s) and self._table_row(s, line.page):
                continue
            if self._item(s, line.page):
                continue
            body = _BULLET.sub("", s)
            level, rest = _marker(body)
            if level is not None:
                self.parent = None
                self.open(str(self.section_units + 1), level, rest, line.page, body[: len(body) - len(rest)].strip())
                continue
            if (starts_paragraph or body != s) and self.item_style is None and (self.rule is None or self.markdown):
                kw = _keyword_level(body)
                if kw is not None and not label:
                    self.parent = None
                    self.open(str(self.section_units + 1), kw, body, line.page, f"¶{self.section_units + 1}")
                    continue
                if self.rule is not None and self.rule.label.startswith("¶"):
                    self.close()  # a keyword rule is one paragraph (plus its labelled blocks)
            if self.rule is not None:
                self.rule.add(raw if self.rule.parts[-1][0] != "text" else s)
            else:
                self.loose.append((raw if not self.markdown else s, line.page))
        self.close()
        self._flush_loose()
        return self.units

    def _table_row(self, s: str, page: int | None) -> bool:
        """A table of rules: a row whose first or second cell is a rule code is one rule."""
        cells = [c.strip() for c in s.strip().strip("|").split("|")]
        code = next((c for c in cells[:2] if _CODE_CELL.fullmatch(c)), None)
        texts = [c for c in cells if c and c != code and not _LEVEL_CELL.match(c)]
        if code is None or not texts:
            return False
        self.close()
        if self._skipped():
            return True
        levels = [_LEVEL_WORDS.get(m.group(1).lower()) for c in cells if (m := _LEVEL_CELL.match(c))]
        self.section_units += 1
        rule = _Rule("", levels[0] if levels else _keyword_level(texts[0]), page, self.section(), self.numbers(), code)
        rule.title, rule.rule_id = _first_sentence(texts[0]), code
        rule.start_part("text", " ".join(texts))
        self.rule = rule
        self.close()
        return True

    def _item(self, s: str, page: int | None) -> bool:
        m = _ITEM.match(s)
        if not m:
            return False
        style = next(k for k in ("dot", "dun", "paren", "rpar") if m.group(k) is not None)
        number = int(m.group(style))
        level, rest = _marker(m.group("rest"))
        label = s[: m.start("rest")].strip()
        if self.item_style is None or style == self.item_style:
            plausible = (
                self.item_style is None
                or (self.last_no is not None and number == self.last_no + 1)
                or (self.last_no is None and number == 1)
                or level is not None
            )
            if not plausible:
                return False
            self.item_style = style
            self.last_no = number
            self.parent = None
            self.open(str(number), level, rest, page, label)
            return True
        if level is not None and (self.rule is not None or self.parent is not None):
            # a sub-item with its own marker is a rule of its own
            if self.parent is None:
                parent = self.rule
                assert parent is not None
                if parent.level is None:
                    self.rule = None  # a lead-in ("有两套规则：") is context, not a rule
                    self.close()
                self.parent = parent
            parent = self.parent
            intro = parent.statement()
            self.open(f"{parent.item_no}.{number}", level, rest, page, f"{parent.label} {label}",
                      intro=intro)
            self.rule.numbers = parent.numbers  # type: ignore[union-attr]
            self.rule.section = parent.section  # type: ignore[union-attr]
            return True
        return False


def _fallback(kb: str, file: str, fmt: str, lines: list[_Line], marked: bool) -> list[RuleUnit]:
    """No rule starts anywhere: one unit per paragraph group under each heading."""
    seg = _Segmenter(kb, file, fmt)
    units: list[RuleUnit] = []
    group: list[str] = []
    page: int | None = None
    count = 0

    def flush() -> None:
        nonlocal group, page, count
        text = "\n".join(p for p in group if p)
        if text.strip():
            count += 1
            units.append(
                RuleUnit(
                    rule_id=f"{seg.slug}:{'.'.join([*seg.numbers(), f'p{count}'])}",
                    title=_first_sentence(text),
                    text=text,
                    section=seg.section(),
                    source=RuleSource(kb=kb, file=file, page=page,
                                      anchor=(seg.section()[-1] if seg.stack else None)),
                )
            )
        group, page = [], None

    paragraph: list[str] = []
    in_fence = False

    def end_paragraph() -> None:
        nonlocal paragraph
        text = "\n".join(paragraph) if in_fence else _join(paragraph)
        paragraph = []
        if not text:
            return
        if group and sum(len(g) for g in group) + len(text) > _FALLBACK_MAX_CHARS:
            flush()
        group.append(text)

    for line in lines:
        s = line.text.strip()
        if _FENCE.match(s):
            in_fence = not in_fence
        heading = None
        if not in_fence and s:
            heading = _heading_of(s, seg.markdown, marked)
        if heading:
            end_paragraph()
            flush()
            count = 0
            seg.push_heading(_heading_info(*heading))
            continue
        if not s and not in_fence:
            end_paragraph()
            continue
        if page is None and not paragraph and not group:
            page = line.page
        elif page is None:
            page = line.page
        paragraph.append(line.text if in_fence else s)
    end_paragraph()
    flush()
    return units


def _paragraphs(lines: Sequence[str]) -> list[str]:
    """A text part's paragraphs (split at the blank lines a rule heading's prose keeps), each joined."""
    out, current = [], []
    for line in [*lines, ""]:
        if line.strip():
            current.append(line)
        elif current:
            out.append(_join(current))
            current = []
    return [p for p in out if p]


def _split_oversized(unit: RuleUnit, cap: int) -> list[RuleUnit]:
    """A unit above the cap in parts at its paragraphs and examples; each part keeps the rule's
    title and heading path, the first keeps its id and later ones are `<id>/2`, `<id>/3`..."""
    if cap <= 0 or estimate_tokens(unit.full_text()) <= cap:
        return [unit]
    room = max(cap - estimate_tokens(unit.title) - 16, cap // 2)
    pieces: list[tuple[str, str]] = []
    for para in unit.text.split("\n"):
        pieces.extend(("text", chunk) for chunk in _cut(para, room))
    pieces += [("bad", chunk) for ex in unit.bad_examples for chunk in _cut(ex, room, "\n")]
    pieces += [("good", chunk) for ex in unit.good_examples for chunk in _cut(ex, room, "\n")]
    groups: list[list[tuple[str, str]]] = [[]]
    used = 0
    for kind, text in pieces:
        tokens = estimate_tokens(text) + 4
        if groups[-1] and used + tokens > room:
            groups.append([])
            used = 0
        groups[-1].append((kind, text))
        used += tokens
    parts = []
    for k, group in enumerate(groups, start=1):
        text = "\n".join(t for kind, t in group if kind == "text")
        parts.append(unit.model_copy(update={
            "rule_id": unit.rule_id if k == 1 else f"{unit.rule_id}/{k}",
            "text": text or unit.title,
            "bad_examples": [t for kind, t in group if kind == "bad"],
            "good_examples": [t for kind, t in group if kind == "good"],
        }))
    return parts


def _cut(text: str, room: int, sep: str = " ") -> list[str]:
    """`text` in pieces of at most `room` tokens, at `sep` (lines of code, words) where it occurs,
    else between characters."""
    if estimate_tokens(text) <= room:
        return [text]
    joiner = sep if sep and sep in text else ""
    words = text.split(joiner) if joiner else list(text)
    out, current = [], ""
    for word in words:
        candidate = current + joiner + word if current else word
        if current and estimate_tokens(candidate) > room:
            out.append(current)
            current = word
        else:
            current = candidate
    if current:
        out.append(current)
    return [piece for chunk in out
            for piece in (_cut(chunk, room, "") if joiner and estimate_tokens(chunk) > room else [chunk])]


def segment_documents(documents: Sequence, kb: str, *, max_tokens: int = DEFAULT_MAX_TOKENS) -> list[RuleUnit]:
    """Segment llama-index Documents (grouped by source file, in order) into rule units."""
    return [unit for units, _ in segment_with_reports(documents, kb, max_tokens=max_tokens) for unit in units]


def segment_with_reports(documents: Sequence, kb: str, *, max_tokens: int = DEFAULT_MAX_TOKENS
                         ) -> list[tuple[list[RuleUnit], DocumentReport]]:
    """Per source file (in order): its rule units and what was understood of it."""
    by_file: dict[str, list] = defaultdict(list)
    order: list[str] = []
    for doc in documents:
        meta = dict(getattr(doc, "metadata", None) or {})
        key = str(meta.get("file_path") or meta.get("file_name") or getattr(doc, "ref_doc_id", None) or "document")
        if key not in by_file:
            order.append(key)
        by_file[key].append(doc)
    out = []
    for key in order:
        docs = by_file[key]
        meta = docs[0].metadata or {}
        fmt = str(meta.get("format") or _guess_format(key))
        marked = any((d.metadata or {}).get("headings") == "marked" for d in docs)
        pages = [_Page(_page_of(d.metadata), (d.text or "").replace("\r\n", "\n").split("\n"), fmt) for d in docs]
        lines = _clean_pages(pages)
        heads = _scan_headings(lines, fmt == FORMAT_MARKDOWN, marked)
        report = DocumentReport(file=key, headings=len(heads), rule_headings=sum(h.rule_like for h in heads.values()))
        found = _Segmenter(kb, key, fmt, heads).run(lines)
        if not found:
            report.fallback = True
            found = _fallback(kb, key, fmt, lines, marked)
        units = []
        for unit in dedupe_ids(found):  # one file: ids unique within it
            parts = _split_oversized(unit, max_tokens)
            report.split += len(parts) > 1
            units.extend(parts)
        report.summarise(units, estimate_tokens)
        out.append((units, report))
    return out


def _guess_format(name: str) -> str:
    return FORMAT_MARKDOWN if Path(name).suffix.lower() in {".md", ".markdown"} else "text"
