"""Turn rule documents into one ``RuleUnit`` per rule.

Input is a sequence of llama-index Documents (ours from ``indexers.readers`` or any LlamaHub
reader's); pages of one file are recognised by ``file_path``/``file_name`` and ``page`` /
``page_label`` metadata and segmented together, so a rule that runs over a page break stays one
unit whose ``source.page`` is the page where it starts.

What starts a rule: a numbered item at the section's item level (``1.``, ``1、``, ``（1）``,
``(1)``, ``1）`` — whichever style the section's first item uses), a line that opens with a
level marker (【强制】/【推荐】/【参考】, ``[Mandatory]``, ``MUST:``...), a differently numbered
sub-item that carries its own marker (a sub-rule: it becomes its own unit, with its parent's
lead-in sentence as context), and — in sections without numbered items — a paragraph whose
first sentence says MUST/SHOULD/MAY. Headings give the section path. 正例/反例/说明 blocks
attach to the rule they follow. Page headers/footers, page numbers and the table of contents
are dropped. A document in which nothing starts a rule falls back to paragraph groups under
headings.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dualrag.units import RuleLevel, RuleSource, RuleUnit

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
    r"|wrong example|incorrect example|note|explanation|example))\s*\**\s*[：:]\s*\**\s*(?P<rest>.*)$"
)
_GOOD = {"正例", "positive example", "good example", "correct example", "example"}
_BAD = {"反例", "counter-example", "counter example", "counterexample", "bad example", "negative example",
        "wrong example", "incorrect example"}

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
class _Rule:
    item_no: str
    level: RuleLevel | None
    page: int | None
    section: list[str]
    numbers: list[str]
    label: str
    intro: str = ""
    parts: list[tuple[str, list[str]]] = field(default_factory=list)

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
    def __init__(self, kb: str, file: str, fmt: str) -> None:
        self.kb = kb
        self.file = file
        self.markdown = fmt == FORMAT_MARKDOWN
        self.stack: list[_Heading] = []
        self.root_children = 0
        self.rule: _Rule | None = None
        self.parent: _Rule | None = None  # the item whose marked sub-items are being split off
        self.item_style: str | None = None
        self.last_no: int | None = None
        self.section_units = 0
        self.units: list[RuleUnit] = []

    # -- sections
    def section(self) -> list[str]:
        return [h.title for h in self.stack]

    def numbers(self) -> list[str]:
        return [h.number for h in self.stack]

    def push_heading(self, level: int, title: str) -> None:
        self.close()
        self.parent = None
        while self.stack and self.stack[-1].level >= level:
            self.stack.pop()
        if self.stack:
            self.stack[-1].children += 1
            ordinal = self.stack[-1].children
        else:
            self.root_children += 1
            ordinal = self.root_children
        number = _heading_number(title) or str(ordinal)
        self.stack.append(_Heading(level, title, number))
        self.item_style = None
        self.last_no = None
        self.section_units = 0

    # -- rules
    def open(self, item_no: str, level: RuleLevel | None, first: str, page: int | None, label: str,
             intro: str = "") -> None:
        self.close()
        if any(_SKIP_SECTION.search(h.title) for h in self.stack):
            return
        self.section_units += 1
        self.rule = _Rule(item_no, level, page, self.section(), self.numbers(), label, intro)
        self.rule.start_part("text", first.strip())

    def close(self) -> None:
        rule, self.rule = self.rule, None
        if rule is None:
            return
        unit = self._unit(rule)
        if unit is not None:
            self.units.append(unit)

    def _unit(self, rule: _Rule) -> RuleUnit | None:
        texts, good, bad = [], [], []
        for kind, lines in rule.parts:
            if kind == "good":
                block = "\n".join(ln.rstrip() for ln in lines).strip()
                if block:
                    good.append(block)
            elif kind == "bad":
                block = "\n".join(ln.rstrip() for ln in lines).strip()
                if block:
                    bad.append(block)
            else:
                joined = _join(lines)
                if joined:
                    texts.append(joined)
        statement = rule.statement()
        if not texts and not good and not bad:
            return None
        body = "\n".join(([rule.intro] if rule.intro else []) + texts)
        title = _first_sentence(statement or rule.intro or (good + bad)[0])
        level = rule.level or _keyword_level(statement)
        rule_id = f"{self.kb}:{'.'.join([*rule.numbers, rule.item_no])}"
        anchor = " > ".join(rule.section[-1:] + [rule.label]) if rule.section else rule.label
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
    def run(self, lines: Iterable[_Line]) -> list[RuleUnit]:
        in_fence = False
        para_start = True
        for line in lines:
            raw = line.text.rstrip()
            s = raw.strip()
            if in_fence or _FENCE.match(s):
                if _FENCE.match(s):
                    in_fence = not in_fence
                if self.rule is not None:
                    self.rule.add(raw)
                para_start = False
                continue
            if not s:
                para_start = True
                continue
            starts_paragraph, para_start = para_start, False
            if self.markdown:
                m = _MD_HEADING.match(s)
                if m:
                    self.push_heading(len(m.group(1)), " ".join(m.group(2).split()))
                    para_start = True
                    continue
            else:
                heading = _text_heading(" ".join(s.split()))
                if heading:
                    self.push_heading(*heading)
                    para_start = True
                    continue
            label = _LABEL.match(s)
            if label and self.rule is not None:
                name = label.group("label").lower()
                kind = "good" if name in _GOOD else "bad" if name in _BAD else "text"
                if kind == "text":
                    self.rule.start_part("text", s)
                else:
                    self.rule.start_part(kind, label.group("rest"))
                continue
            if self._item(s, line.page):
                continue
            body = _BULLET.sub("", s)
            level, rest = _marker(body)
            if level is not None:
                self.parent = None
                self.open(str(self.section_units + 1), level, rest, line.page, body[: len(body) - len(rest)].strip())
                continue
            if starts_paragraph and self.item_style is None and (self.rule is None or self.markdown):
                kw = _keyword_level(body)
                if kw is not None and not label:
                    self.parent = None
                    self.open(str(self.section_units + 1), kw, body, line.page, f"¶{self.section_units + 1}")
                    continue
                if self.rule is not None and self.rule.label.startswith("¶"):
                    self.close()  # a keyword rule is one paragraph (plus its labelled blocks)
            if self.rule is not None:
                self.rule.add(raw if self.rule.parts[-1][0] != "text" else s)
        self.close()
        return self.units

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
            intro = parent.statement() if parent.level is None else parent.statement()
            self.open(f"{parent.item_no}.{number}", level, rest, page, f"{parent.label} {label}",
                      intro=intro)
            self.rule.numbers = parent.numbers  # type: ignore[union-attr]
            self.rule.section = parent.section  # type: ignore[union-attr]
            return True
        return False


def _fallback(kb: str, file: str, fmt: str, lines: list[_Line]) -> list[RuleUnit]:
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
                    rule_id=f"{kb}:{'.'.join([*seg.numbers(), f'p{count}'])}",
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
        if not in_fence:
            m = _MD_HEADING.match(s) if seg.markdown else None
            heading = (len(m.group(1)), m.group(2).strip()) if m else (None if seg.markdown else _text_heading(s))
        if heading:
            end_paragraph()
            flush()
            count = 0
            seg.push_heading(*heading)
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


def _dedupe(units: list[RuleUnit]) -> list[RuleUnit]:
    seen: Counter[str] = Counter()
    out = []
    for unit in units:
        seen[unit.rule_id] += 1
        if seen[unit.rule_id] > 1:
            unit = unit.model_copy(update={"rule_id": f"{unit.rule_id}~{seen[unit.rule_id]}"})
        out.append(unit)
    return out


def segment_documents(documents: Sequence, kb: str) -> list[RuleUnit]:
    """Segment llama-index Documents (grouped by source file, in order) into rule units."""
    by_file: dict[str, list] = defaultdict(list)
    order: list[str] = []
    for doc in documents:
        meta = dict(getattr(doc, "metadata", None) or {})
        key = str(meta.get("file_path") or meta.get("file_name") or getattr(doc, "ref_doc_id", None) or "document")
        if key not in by_file:
            order.append(key)
        by_file[key].append(doc)
    units: list[RuleUnit] = []
    for key in order:
        docs = by_file[key]
        fmt = str(docs[0].metadata.get("format") or _guess_format(key))
        pages = [_Page(_page_of(d.metadata), (d.text or "").replace("\r\n", "\n").split("\n"), fmt) for d in docs]
        lines = _clean_pages(pages)
        found = _Segmenter(kb, key, fmt).run(lines)
        units.extend(found if found else _fallback(kb, key, fmt, lines))
    return _dedupe(units)


def _guess_format(name: str) -> str:
    return FORMAT_MARKDOWN if Path(name).suffix.lower() in {".md", ".markdown"} else "text"
