"""Markdown code blocks that close where we mean them to (CommonMark), for every Markdown we write:
the report, merge-request comments and the summary.

A fence must be longer than any backtick run inside it, else code that holds ``` ends the block
early and the rest of the comment (the next finding, the footer) renders as code or as prose.
"""

from __future__ import annotations

import re

from dualrag.findings import Finding
from dualrag.source.language import language_of

_BACKTICKS = re.compile(r"`{3,}")
# Every ASCII punctuation character CommonMark lets a backslash escape, but for the ones prose is
# full of and Markdown gives no meaning inside a line (, ; : ' " ? / % =).
_MARKUP = re.compile(r"""([\\`*_{}\[\]()<>#+\-.!|~&$^])""")
_FENCED = re.compile(r"\A\s*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n(.*?)\n?\s*\1\s*\Z", re.DOTALL)
_FENCE_LANGUAGE = {"edi-flow": "xml", "edi-dt": "xml", "maven-pom": "xml", "shell": "bash"}


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
    return [f"{indent}**Suggestion:** {text.strip()}"]


def plain(text: str) -> str:
    """`text` (a model's words, say) as one line of Markdown that renders exactly as written: no
    link, image, HTML, emphasis, code span, heading or list can come out of it, and no `@name`
    mention notifies anyone (a zero-width space follows the `@`: GitLab and GitHub match mentions
    in the rendered text, escaped or not)."""
    return _MARKUP.sub(r"\\\1", " ".join(text.split())).replace("@", "@\u200b")
