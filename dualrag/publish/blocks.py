"""Markdown code blocks that close where we mean them to (CommonMark), for every Markdown we write:
the report, merge-request comments and the summary.

A fence must be longer than any backtick run inside it, else code that holds ``` ends the block
early and the rest of the comment (the next finding, the footer) renders as code or as prose.
"""

from __future__ import annotations

import re

from dualrag.findings import Finding
from dualrag.languages import pack_for
from dualrag.source.language import language_of

_BACKTICKS = re.compile(r"`{3,}")
_FENCED = re.compile(r"\A\s*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n(.*?)\n?\s*\1\s*\Z", re.DOTALL)
_FENCE_LANGUAGE = {"shell": "bash"}  # languages without a pack; a pack names its own (`LanguagePack.fence`)


def fenced(text: str, info: str = "", *, indent: str = "") -> list[str]:
    """`text` as a fenced code block (lines), indented by `indent` (inside a list item)."""
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [indent + fence + info, *(indent + line if line else "" for line in text.split("\n")), indent + fence]


_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def closed_fences(text: str) -> str:
    """`text` (a model's message, say) with a code block it left open closed at its end, so that
    what we write after it (the suggestion, the footer) is not swallowed into the block."""
    opener: str | None = None
    for line in text.split("\n"):
        m = _FENCE_LINE.match(line)
        if not m:
            continue
        run, rest = m.group(1), m.group(2)
        if opener is None:
            if not (run[0] == "`" and "`" in rest):  # a backtick fence's info string has no backtick
                opener = run
        elif run[0] == opener[0] and len(run) >= len(opener) and not rest.strip():
            opener = None
    return text if opener is None else text + "\n" + opener


def code_language(path: str) -> str:
    """The info string of a code block showing this file's code (`java`, `xml`, ...)."""
    language = language_of(path)
    pack = pack_for(language)
    if pack is not None:
        return pack.fence or ""
    return _FENCE_LANGUAGE.get(language, "" if language == "other" else language)


def suggestion_prose(f: Finding, *, indent: str = "") -> list[str]:
    """A prose suggestion as Markdown lines: one line of text, or a code block when it is code
    (several lines, or a fenced block as models like to write it)."""
    text = (f.suggestion or "").strip("\n")
    if not text.strip():
        return []
    m = _FENCED.match(text)
    if m:
        return [f"{indent}**Suggestion:**", "", *fenced(m.group(3), m.group(2) or code_language(f.path), indent=indent)]
    if "\n" in text:
        return [f"{indent}**Suggestion:**", "", *fenced(text, code_language(f.path), indent=indent)]
    return [f"{indent}**Suggestion:** {inline(text)}"]


ZWSP = "&#8203;"
"""A zero-width space written as a character reference: it renders as nothing on GitLab and GitHub,
and being ASCII it survives `neutralise` (which shows a raw U+200B as `\\u200b`). Inside a code
span it would show as written, so it is only ever put into text outside code."""

# What GitLab and GitHub turn into a notification, a cross-reference or a link when it appears in
# the *rendered* text of a comment (both match after Markdown, so a backslash escape does not
# stop them; text inside code spans and code blocks is never matched): @user/@group/@all, #123,
# !45 (merge request), &12 (epic), $7 (snippet), ~label, %milestone, GH-123, and URLs (a URL to an
# issue or merge request cross-references it like #123). A zero-width space after the sigil (or
# inside `://`, `www.`) leaves the text as it reads and matches none of their patterns.
_LIVE = re.compile(r"""@(?=\w)|\\?#(?=\d)|\\?!(?=\d)|\\?~(?=[\w"])|%(?=[\w"])|\\?&(?=\d)|\\?\$(?=\d)"""
                   r"""|\bGH\\?-(?=\d)|:(?=//)|\bwww(?=\\?\.)""", re.IGNORECASE)


def defuse(text: str) -> str:
    """Markdown text (outside code) with no live mention, reference or link left in it."""
    return _LIVE.sub(lambda m: m.group(0) + ZWSP, text)


# Inside a line only these mean something to CommonMark or GitLab/GitHub Markdown (emphasis, code,
# links and images -- `![` needs the `[` --, HTML and entities, tables, strikethrough, GitLab's
# `{+ +}` and `$` math); `#`, `-`, `+`, `=`, `>` and `1.` do only where a line starts.
_INLINE_MARKUP = re.compile(r"([\\`*_{}\[\]<>|~&$])")
_BLOCK_START = re.compile(r"^(\s*)(?:([#>+=-])|(\d{1,9})([.)]))")


def _escaped(text: str, *, starts_line: bool = True) -> str:
    """Text (no code span in it) escaped and defused, whitespace runs made one space."""
    text = _INLINE_MARKUP.sub(r"\\\1", re.sub(r"\s+", " ", text))
    if starts_line:
        text = _BLOCK_START.sub(lambda m: m.group(1) + ("\\" + m.group(2) if m.group(2) else
                                                         m.group(3) + "\\" + m.group(4)), text, count=1)
    return defuse(text)


def plain(text: str) -> str:
    """`text` (a model's words, say) as one line of Markdown that renders exactly as written: no
    link, image, HTML, emphasis, code span, heading or list can come out of it, and no mention,
    issue or merge-request reference or URL is live (`defuse`)."""
    return _escaped(" ".join(text.split()))


_RUN = re.compile(r"`+")
_ESCAPE_OR_RUN = re.compile(r"\\.|`+", re.DOTALL)


def _spans(text: str, *, escapes: bool = False) -> list[tuple[bool, str]]:
    """`text` cut into (is a code span, piece) the way CommonMark reads one line: a run of N
    backticks opens a span that the next run of exactly N closes; a run nothing closes is text.
    `escapes`: a backslash escapes the character after it (Markdown we wrote; a model's text is
    taken as written, its backslashes shown)."""
    runs = [m for m in (_ESCAPE_OR_RUN if escapes else _RUN).finditer(text) if m.group(0)[0] == "`"]
    out: list[tuple[bool, str]] = []
    start, k = 0, 0
    while k < len(runs):
        m = runs[k]
        close = next((j for j in range(k + 1, len(runs)) if len(runs[j].group(0)) == len(m.group(0))), None)
        if close is None:
            k += 1
            continue
        if m.start() > start:
            out.append((False, text[start:m.start()]))
        out.append((True, text[m.start():runs[close].end()]))
        start, k = runs[close].end(), close + 1
    if start < len(text):
        out.append((False, text[start:]))
    return out


def inline(text: str) -> str:
    """A model's one-line text (a title, a message on one line) as Markdown: its balanced code spans
    kept as written (nothing in code is live), everything else escaped and defused like `plain`, so
    an unbalanced backtick shows as a backtick and swallows nothing after it."""
    text = " ".join(text.split())
    return "".join(piece if code else _escaped(piece, starts_line=n == 0)
                   for n, (code, piece) in enumerate(_spans(text)))


_LIST_ITEM = re.compile(r"^([-*+]|\d{1,9}[.)])\s+(.*)$")


def prose(text: str) -> str:
    """A model's message (several lines) as Markdown that cannot be steered: code blocks kept as
    code (re-fenced so they close where they end, an unclosed one closed), each other line
    `inline` (list items stay items), blank lines kept as paragraph breaks; no HTML, link, image,
    heading, table, mention or reference comes out of it."""
    out: list[str] = []
    lines = text.strip("\n").split("\n")
    i = 0
    while i < len(lines):
        m = _FENCE_LINE.match(lines[i])
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            run, body = m.group(1), []
            info = re.sub(r"[^\w+#.-]", "", (m.group(2).split() or [""])[0])
            i += 1
            while i < len(lines):
                c = _FENCE_LINE.match(lines[i])
                if c and c.group(1)[0] == run[0] and len(c.group(1)) >= len(run) and not c.group(2).strip():
                    break
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence (or the end)
            out += fenced("\n".join(body), info)
            continue
        line = lines[i].strip()
        i += 1
        if not line:
            if out and out[-1]:
                out.append("")
            continue
        item = _LIST_ITEM.match(line)
        if item:
            marker = "-" if item.group(1) in "-*+" else item.group(1)
            out.append(f"{marker} {inline(item.group(2))}")
        else:
            out.append(inline(line))
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def code_span(text: str) -> str:
    """`text` on one line as a code span that no backtick inside it closes early."""
    text = " ".join(text.split())
    longest = max((len(m) for m in _RUN.findall(text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


_BACKSLASHED = re.compile(r"\\([!-/:-@\[-`{-~])")


def unescape(text: str) -> str:
    """What `plain`, `inline` and `prose` wrote, read back as the words it came from: outside code
    spans and code blocks, backslash escapes and the zero-width spaces of `defuse` removed."""
    out, opener = [], None
    for line in text.split("\n"):
        m = _FENCE_LINE.match(line)
        if opener is None and m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            opener = m.group(1)
        elif opener is not None:
            if m and m.group(1)[0] == opener[0] and len(m.group(1)) >= len(opener) and not m.group(2).strip():
                opener = None
        else:
            line = "".join(piece if code else _BACKSLASHED.sub(r"\1", piece.replace(ZWSP, ""))
                           for code, piece in _spans(line, escapes=True))
        out.append(line)
    return "\n".join(out)
