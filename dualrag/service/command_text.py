"""Reading a command out of a comment, the way a person reading the rendered comment sees it.

A command is `/dualrag <name> [argument]` at the start of a line (up to three spaces in, as
Markdown allows before a paragraph). Not a command: a line inside a quote (`> ...`, GitLab's
`>>>` blocks: someone quoting an earlier comment or the bot's help), inside a fenced or indented
code block, inside a code span (even one spanning lines), or inside an HTML comment (invisible
when rendered). The first command of a comment is the one that counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "/dualrag"
_COMMAND = re.compile(r"^ {0,3}/dualrag(?![\w-])(?:[ \t]+(\S+))?[ \t]*(.*)$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
MAX_ARGUMENT_CHARS = 2_000


def _blank(m: re.Match[str]) -> str:
    """The match as spaces, its line breaks kept: line indexes stay those of the text."""
    return re.sub(r"[^\n]", " ", m.group(0))


@dataclass(frozen=True, slots=True)
class Command:
    name: str        # "review", "ask", "help", or what was written (an unknown command)
    argument: str    # the rest: for `ask`, the question (its line and the lines after it)


def visible_lines(text: str) -> list[tuple[int, str]]:
    """(line index, text) of every line that is plain prose when rendered: outside quotes, code
    blocks, code spans and HTML comments. Spans and comments are blanked, never removed, so the
    line indexes stay those of `text`."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[tuple[int, str]] = []
    fence: str | None = None
    gitlab_quote = False
    prose: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                fence = None
            continue
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = m.group(1)
            continue
        if line.startswith(">>>"):  # GitLab's multi-line quote: opened and closed by a >>> line
            gitlab_quote = not gitlab_quote
            continue
        if gitlab_quote or line.lstrip().startswith(">") or line.startswith(("    ", "\t")):
            continue
        prose.append((i, line))
    if not prose:
        return out
    # spans and comments may cross lines: blank them over the prose lines joined
    joined = "\n".join(line for _, line in prose)
    joined = _CODE_SPAN.sub(_blank, _HTML_COMMENT.sub(_blank, joined))
    for (i, _), line in zip(prose, joined.split("\n"), strict=True):
        out.append((i, line))
    return out


def parse_command(text: str | None) -> Command | None:
    """The first command of a comment, or None when it holds none."""
    if not text or PREFIX not in text:
        return None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in visible_lines(text):
        m = _COMMAND.match(line)
        if not m:
            continue
        name = (m.group(1) or "help").lower()
        rest = "\n".join([m.group(2), *lines[i + 1:]]).strip()
        return Command(name, rest[:MAX_ARGUMENT_CHARS])
    return None


def defuse_commands(text: str) -> str:
    """`text` (Markdown we write) with every line that would read as a command made plain text: a
    zero-width space (an entity, invisible when rendered) before its slash. A model's answer that
    says `/dualrag review` on a line of its own leaves no command in the bot's comment."""
    lines = text.split("\n")
    for i, line in visible_lines(text):
        if _COMMAND.match(line):
            lines[i] = re.sub(r"^( {0,3})/", r"\1&#8203;/", lines[i], count=1)
    return "\n".join(lines)
