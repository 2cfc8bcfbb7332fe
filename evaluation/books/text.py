"""Markdown and documentation text as the book builders read it: fenced code apart from prose,
explanatory paragraphs without markup, rule names split into words."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s*(```+|~~~+)")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)")
_MD_HEADING = re.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")
_TABLE = re.compile(r"^\s*\|.*\|\s*$|^\s*-{3,}\s*(\|\s*-{3,}\s*)+$|^\s*\S.*\s\|\s.*\|")
_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+")
_JAVA_HINT = re.compile(r"[;{}]|@\w+|\b(class|void|new|return|import|public|private|static)\b")


def dedent(text: str) -> str:
    lines = text.expandtabs(4).splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:].rstrip() for line in lines)


def split_markdown(text: str) -> list[tuple[str, str, str]]:
    """Markdown into ("text", paragraph-source, "") and ("code", body, info-string) pieces in order."""
    pieces: list[tuple[str, str, str]] = []
    prose: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m:
            fence, info = m.group(1), lines[i].strip()[len(m.group(1)):].strip()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence[:3]):
                body.append(lines[i])
                i += 1
            pieces.append(("text", "\n".join(prose), ""))
            prose = []
            pieces.append(("code", dedent("\n".join(body)), info))
        else:
            prose.append(lines[i])
        i += 1
    pieces.append(("text", "\n".join(prose), ""))
    return [p for p in pieces if p[0] == "code" or p[1].strip()]


def prose_paragraphs(text: str) -> list[str]:
    """Explanatory paragraphs of a Markdown fragment without code: links become their text,
    sub-headings plain paragraphs, list items paragraphs of their own, tables and indented code
    blocks are dropped, inline code keeps its backticks."""
    paragraphs: list[str] = []
    current: list[str] = []
    in_list_item = False

    def flush() -> None:
        if current:
            paragraphs.append(" ".join(" ".join(current).split()))
            current.clear()

    previous_blank = True
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush()
            previous_blank, in_list_item = True, False
            continue
        if _TABLE.match(line):
            flush()
            previous_blank = False
            continue
        if previous_blank and raw.startswith("    ") and not in_list_item and not _LIST.match(line):
            # an indented code block (Markdown): not prose
            continue
        heading = _MD_HEADING.match(line)
        if heading:
            flush()
            current.append(re.sub(r"^\d{1,2}[.)]\s+", "", heading.group(1)))  # "### 1. Eliminate fall through"
            flush()
            previous_blank = False
            continue
        if _LIST.match(line):
            flush()
            in_list_item = True
            current.append("- " + _LIST.sub("", line, count=1))
        else:
            current.append(line.strip())
        previous_blank = False
    flush()
    out = []
    for paragraph in paragraphs:
        paragraph = _MD_LINK.sub(lambda m: m.group(1), paragraph)
        paragraph = re.sub(r"<[^>]+>", "", paragraph) if "<" in paragraph and ">" in paragraph else paragraph
        paragraph = re.sub(r"\s+", " ", paragraph).strip()
        if re.sub(r"[-*\s]", "", paragraph):
            out.append(paragraph)
    return out


def looks_like_java(code: str, info: str) -> bool:
    lang = info.split()[0].lower() if info.split() else ""
    if lang:
        return lang == "java"
    return bool(_JAVA_HINT.search(code)) and not code.lstrip().startswith(("<", "$", "-", "{\"", "bazel"))


def humanise(name: str) -> str:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name).split()
    return " ".join([words[0]] + [w if w.isupper() and len(w) > 1 else w.lower() for w in words[1:]])


