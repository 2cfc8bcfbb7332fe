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

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dualrag.units import RuleLevel, RuleSource, RuleUnit

from .headings import (
    EXAMPLE_BAD_TITLE,
    EXAMPLE_GOOD_TITLE,
    RULE_CODE,
    HeadingInfo,
    heading_info,
    heading_of,
    scan_headings,
)
from .ids import dedupe_ids
from .lexicon import (
    BULLET,
    FENCE,
    FORMAT_MARKDOWN,
    ITEM,
    KEYWORDS,
    LABEL,
    LEVEL_WORDS,
    SKIP_SECTION,
    Line,
    first_sentence,
    heading_number,
    join_lines,
    keyword_level,
    label_kind,
    marker,
)
from .pages import Page, clean_pages, page_of
from .report import DocumentReport
from .sizecap import DEFAULT_MAX_TOKENS, estimate_tokens, split_oversized

_CODE_CELL = re.compile(RULE_CODE)

_TABLE_ROW = re.compile(r"^\|.*\|$")

_LEVEL_CELL = re.compile(r"^\W*(强制|推荐|参考|mandatory|required|recommended|reference|optional|must|should|may)\W*$",
                         re.IGNORECASE)

_FALLBACK_MAX_CHARS = 1500

@dataclass
class _Heading:
    level: int
    title: str
    number: str
    children: int = 0

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
        return join_lines(self.parts[0][1]) if self.parts else ""

class _Segmenter:
    def __init__(self, kb: str, file: str, fmt: str, heads: dict[int, HeadingInfo] | None = None) -> None:
        self.kb = kb
        self.file = file
        self.slug = _slug(file)
        self.markdown = fmt == FORMAT_MARKDOWN
        self.heads = heads or {}
        self.stack: list[_Heading] = []
        self.infos: list[HeadingInfo] = []  # parallel to stack
        self.root_children = 0
        self.rule: _Rule | None = None
        self.parent: _Rule | None = None  # the item whose marked sub-items are being split off
        self.heading_rule: HeadingInfo | None = None  # the rule heading whose subtree is being collected
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

    def push_heading(self, info: HeadingInfo) -> None:
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
        number = heading_number(info.title) or str(ordinal)
        self.stack.append(_Heading(info.level, info.title, number))
        self.infos.append(info)
        self.item_style = None
        self.last_no = None
        self.section_units = 0

    def _skipped(self) -> bool:
        return any(SKIP_SECTION.search(h.title) for h in self.stack)

    # -- rules
    def open(self, item_no: str, level: RuleLevel | None, first: str, page: int | None, label: str,
             intro: str = "") -> None:
        self.close()
        if self._skipped():
            return
        self.section_units += 1
        self.rule = _Rule(item_no, level, page, self.section(), self.numbers(), label, intro)
        self.rule.start_part("text", first.strip())

    def open_heading(self, info: HeadingInfo, page: int | None) -> None:
        """A rule heading: the rule is the heading and everything under it up to the next rule heading."""
        if self._skipped():
            return
        self.section_units += 1
        level, name = marker(info.name)
        rule = _Rule("", level or keyword_level(name), page, self.section(), self.numbers(), "")
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
        if not any(text.strip() and not FENCE.match(text) for text, _ in loose):
            return
        level, name = marker(info.name)
        rule = _Rule("", level, loose[0][1], self.section(), self.numbers(), "")
        rule.title = name
        rule.rule_id = info.code or f"{self.slug}:{info.number or '.'.join(self.numbers())}"
        rule.start_part("text", "")
        in_fence = False
        for text, _ in loose:
            label = None if in_fence else LABEL.match(text.strip())
            if FENCE.match(text):
                in_fence = not in_fence
            if label:
                kind = label_kind(label.group("label"))
                rule.start_part(kind, text.strip() if kind == "text" else label.group("rest"))
            else:
                rule.add(text)
        if rule.level is None:
            rule.level = keyword_level(name) or keyword_level(join_lines(rule.parts[0][1]))
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
        title = rule.title or first_sentence(statement or rule.intro or (texts + good + bad)[0])
        level = rule.level or keyword_level(statement)
        if level is None and rule.title is not None:  # a rule heading's prose: its strongest keyword
            level = next((lvl for pattern, lvl in KEYWORDS if any(pattern.search(t) for t in texts)), None)
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
    def run(self, lines: Sequence[Line]) -> list[RuleUnit]:
        in_fence = False
        para_start = True
        for index, line in enumerate(lines):
            raw = line.text.rstrip()
            s = raw.strip()
            if in_fence or FENCE.match(s):
                if FENCE.match(s):
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
                    kind = _example_kind(info)
                    self.rule.start_part(kind, info.title if kind == "text" else "")
                    continue
                if info.example and self.heading_rule is None and self.infos and info.level > self.infos[-1].level:
                    # "Noncompliant Code Example" under a section that is not a rule heading (a bare rule
                    # name): the example belongs to the rule being read there, not a section of its own
                    kind = _example_kind(info)
                    if self.rule is not None:
                        self.rule.start_part(kind, "")
                    else:
                        self.loose.append((f"{'Noncompliant' if kind == 'bad' else 'Compliant'}:", line.page))
                    continue
                self.push_heading(info)
                if info.as_rule:
                    self.open_heading(info, line.page)
                continue
            label = LABEL.match(s)
            if label and self.rule is not None:
                kind = label_kind(label.group("label"))
                self.rule.start_part(kind, s if kind == "text" else label.group("rest"))
                continue
            if self.heading_rule is not None and self.rule is not None:
                self.rule.add(raw if self.rule.parts[-1][0] != "text" else s)
                continue
            if _TABLE_ROW.match(s) and self._table_row(s, line.page):
                continue
            if self._item(s, line.page):
                continue
            body = BULLET.sub("", s)
            level, rest = marker(body)
            if level is not None:
                self.parent = None
                self.open(str(self.section_units + 1), level, rest, line.page, body[: len(body) - len(rest)].strip())
                continue
            if (starts_paragraph or body != s) and self.item_style is None and (self.rule is None or self.markdown):
                kw = keyword_level(body)
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
        levels = [LEVEL_WORDS.get(m.group(1).lower()) for c in cells if (m := _LEVEL_CELL.match(c))]
        self.section_units += 1
        rule = _Rule("", levels[0] if levels else keyword_level(texts[0]), page, self.section(), self.numbers(), code)
        rule.title, rule.rule_id = first_sentence(texts[0]), code
        rule.start_part("text", " ".join(texts))
        self.rule = rule
        self.close()
        return True

    def _item(self, s: str, page: int | None) -> bool:
        m = ITEM.match(s)
        if not m:
            return False
        style = next(k for k in ("dot", "dun", "paren", "rpar") if m.group(k) is not None)
        number = int(m.group(style))
        level, rest = marker(m.group("rest"))
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

def _example_kind(info: HeadingInfo) -> str:
    """"bad" for a "Noncompliant Code Example" heading, "good" for a "Compliant Solution", else "text"."""
    return "bad" if EXAMPLE_BAD_TITLE.match(info.name) else "good" if EXAMPLE_GOOD_TITLE.match(info.name) else "text"


def _fallback(kb: str, file: str, fmt: str, lines: list[Line], marked: bool) -> list[RuleUnit]:
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
                    title=first_sentence(text),
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
        text = "\n".join(paragraph) if in_fence else join_lines(paragraph)
        paragraph = []
        if not text:
            return
        if group and sum(len(g) for g in group) + len(text) > _FALLBACK_MAX_CHARS:
            flush()
        group.append(text)

    for line in lines:
        s = line.text.strip()
        if FENCE.match(s):
            in_fence = not in_fence
        heading = None
        if not in_fence and s:
            heading = heading_of(s, seg.markdown, marked)
        if heading:
            end_paragraph()
            flush()
            count = 0
            seg.push_heading(heading_info(*heading))
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
            out.append(join_lines(current))
            current = []
    return [p for p in out if p]

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
        pages = [Page(page_of(d.metadata), (d.text or "").replace("\r\n", "\n").split("\n"), fmt) for d in docs]
        lines = clean_pages(pages)
        heads = scan_headings(lines, fmt == FORMAT_MARKDOWN, marked)
        report = DocumentReport(file=key, headings=len(heads), rule_headings=sum(h.rule_like for h in heads.values()))
        found = _Segmenter(kb, key, fmt, heads).run(lines)
        if not found:
            report.fallback = True
            found = _fallback(kb, key, fmt, lines, marked)
        units = []
        for unit in dedupe_ids(found):  # one file: ids unique within it
            parts = split_oversized(unit, max_tokens)
            report.split += len(parts) > 1
            units.extend(parts)
        report.summarise(units, estimate_tokens)
        out.append((units, report))
    return out

def _guess_format(name: str) -> str:
    return FORMAT_MARKDOWN if Path(name).suffix.lower() in {".md", ".markdown"} else "text"
