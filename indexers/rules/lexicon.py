"""What the lines of a rule document mean: headings laid out as text, numbered items, level
markers (【强制】, ``MUST:``), RFC-style keywords, example labels (正例/反例, Good/Bad), and the
small text helpers the segmenter builds titles with."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dualrag.units import RuleLevel

FORMAT_MARKDOWN = "markdown"

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

MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")

FENCE = re.compile(r"^\s*(```|~~~)")

ITEM = re.compile(
    r"^(?:(?P<dot>\d{1,4})\s*[.．](?![\d.])|(?P<dun>\d{1,4})\s*、|[(（]\s*(?P<paren>\d{1,3})\s*[)）]|(?P<rpar>\d{1,3})\s*[)）])"
    r"\s*(?P<rest>.*)$"
)

BULLET = re.compile(r"^[-*+•]\s+")

_MARKER = re.compile(
    r"^\s*\**\s*(?:"
    r"[【\[]\s*(?P<cn>强制|推荐|参考)\s*[】\]]"
    r"|[【\[(（]\s*(?P<en>Mandatory|Recommended|Reference|Required|Optional|MUST|SHOULD|MAY)\s*[】\])）]"
    r"|(?P<en2>MUST|SHOULD|MAY|Mandatory|Recommended|Reference)\s*[:：]"
    r")\s*\**\s*"
)

LEVEL_WORDS = {
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

KEYWORDS = [
    (re.compile(r"\b(?:MUST|SHALL|REQUIRED)\b"), RuleLevel.MANDATORY),
    (re.compile(r"\b(?:SHOULD|RECOMMENDED)\b"), RuleLevel.RECOMMENDED),
    (re.compile(r"\b(?:MAY|OPTIONAL)\b"), RuleLevel.REFERENCE),
]

LABEL = re.compile(
    r"^\s*(?:[-*]\s+)?\**\s*(?P<label>正例|反例|说明|注意|注|"
    r"(?i:positive example|good example|correct example|counter[- ]?example|bad example|negative example"
    r"|wrong example|incorrect example|non-?compliant(?: code)?(?: example)?|compliant(?: code)?"
    r"(?: example| solution)?|bad|good|note|explanation|example))\s*\**\s*[：:]\s*\**\s*(?P<rest>.*)$"
)

_GOOD_LABEL = re.compile(r"^(?:正例|positive|good|correct|compliant|example)")

_BAD_LABEL = re.compile(r"^(?:反例|counter|bad|negative|wrong|incorrect|non-?compliant)")

# sections that document the document, not rules: their numbered lines are not rules
SKIP_SECTION = re.compile(r"版本历史|修订(?:历史|记录)|更新(?:日志|记录)|变更记录|change\s*log|revision history|version history",
                           re.I)

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")

_FIRST_SENTENCE = re.compile(r"^(.+?(?:[。！？!?]|\.(?=\s|$)))")

_TITLE_MAX = 160

@dataclass
class Line:
    text: str
    page: int | None

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

def heading_number(title: str) -> str | None:
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

def text_heading(line: str) -> tuple[int, str] | None:
    if len(line) > 40 or line.endswith(_SENTENCE_END):
        return None
    for pattern, level in _TEXT_HEADINGS:
        if pattern.match(line):
            return level, line
    m = _DECIMAL_HEADING.match(line)
    if m and (("." in m.group(1)) or m.group(2)[:1].isupper()) and len(m.group(2)) <= 60:
        return m.group(1).count(".") + 1, line
    return None

def marker(text: str) -> tuple[RuleLevel | None, str]:
    m = _MARKER.match(text)
    if not m:
        return None, text
    word = (m.group("cn") or m.group("en") or m.group("en2") or "").lower()
    return LEVEL_WORDS.get(word), text[m.end():]

def keyword_level(text: str) -> RuleLevel | None:
    sentence = first_sentence(text)
    for pattern, level in KEYWORDS:
        if pattern.search(sentence):
            return level
    return None

def join_lines(lines: Sequence[str]) -> str:
    """Join wrapped lines: no space between CJK characters, one space otherwise."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if not out:
            out = line
        elif CJK.match(out[-1]) and CJK.match(line[0]):
            out += line
        else:
            out += " " + line
    return out

def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = _FIRST_SENTENCE.match(text)
    sentence = m.group(1) if m else text
    if len(sentence) > _TITLE_MAX:
        cut = sentence[:_TITLE_MAX]
        space = cut.rfind(" ")
        sentence = (cut[:space] if space > _TITLE_MAX // 2 else cut).rstrip() + "…"
    return sentence

def is_rule_start(line: str) -> bool:
    m = ITEM.match(line.replace("#", "1"))
    return marker(m.group("rest") if m else line)[0] is not None

def label_kind(name: str) -> str:
    name = name.lower()
    return "bad" if _BAD_LABEL.match(name) else "good" if _GOOD_LABEL.match(name) else "text"
