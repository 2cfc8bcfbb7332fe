"""SQL files and migrations (Flyway `V1__init.sql`, Liquibase SQL): each statement is a member, so
a migration is cut between statements. tree-sitter-sql finds them; a dialect it does not know
(a PL/pgSQL body, a vendor clause) falls back to a lexical split at `;` outside strings, comments
and dollar quotes, so a migration is never cut inside a statement. Rules and detectors in
`knowledge/sql/` (UPDATE/DELETE without WHERE, SELECT *, destructive migrations)."""

from __future__ import annotations

import re

from dualrag.languages.pack import Grammar, LanguagePack, Specialist
from dualrag.languages.sql.roles import SQL_ROLES

GRAMMAR = Grammar("sql", "tree_sitter_sql")
_WORD = re.compile(r"[A-Za-z_][\w.\"`\[\]]*")
_QUALIFIERS = {"or", "replace", "if", "not", "exists", "unique", "temporary", "temp", "table", "index", "view",
               "into", "from", "column", "sequence", "function", "procedure", "trigger", "schema", "type",
               "materialized", "only", "concurrently", "global", "local", "or replace"}


def sql_members(text: str, *, fallback_type: str = ""):
    """One `statement` member per statement (name: `<file stem>:<VERB ... object>@<line>`)."""
    from dualrag.parsing.model import Member

    spans = _tree_statements(text)
    if spans is None:
        spans = statement_spans(text)
    lines = text.split("\n")
    members = []
    for start, end in spans:
        body = "\n".join(lines[start - 1:end])
        label = statement_label(body)
        if not label:
            continue
        name = f"{fallback_type}:{label}@{start}" if fallback_type else f"{label}@{start}"
        members.append(Member(kind="statement", name=name, signature=" ".join(body.split())[:300],
                              start=start, end=end, cuts=()))
    return tuple(members), [], None


def _tree_statements(text: str) -> list[tuple[int, int]] | None:
    """Statement line spans from tree-sitter-sql, or None when the parse holds an error."""
    try:
        from dualrag.languages.grammars import parser
    except ImportError:
        return None
    try:
        root = parser(GRAMMAR).parse(text.encode("utf-8", "replace")).root_node
    except ImportError:
        return None
    if root.has_error:
        return None
    return [(n.start_point.row + 1, n.end_point.row + 1) for n in root.named_children if n.type == "statement"]


def statement_spans(text: str) -> list[tuple[int, int]]:
    """(first line, last line) of each statement: split at `;` outside quotes, comments and
    `$tag$` bodies; comment-only and blank stretches belong to no statement."""
    spans: list[tuple[int, int]] = []
    i, n, line = 0, len(text), 1
    start_line: int | None = None
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        if start_line is None:
            start_line = line
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(n, j + 1)
            line += text.count("\n", i, j)
            i = j
            continue
        if c == "$":
            m = re.match(r"\$[A-Za-z_]*\$", text[i:i + 64])
            if m:
                tag = m.group()
                j = text.find(tag, i + len(tag))
                j = n if j < 0 else j + len(tag)
                line += text.count("\n", i, j)
                i = j
                continue
        if c == ";":
            spans.append((start_line, line))
            start_line = None
        i += 1
    if start_line is not None:
        spans.append((start_line, line if text.endswith("\n") is False else max(start_line, line - 1)))
    return spans


def statement_label(body: str) -> str:
    """`CREATE TABLE orders`, `UPDATE stock`, `INSERT INTO audit`: the verb and its object."""
    code = re.sub(r"--[^\n]*|/\*.*?\*/", " ", body, flags=re.DOTALL)
    words = _WORD.findall(code[:400])
    if not words:
        return ""
    out = [words[0].upper()]
    for w in words[1:6]:
        out.append(w.upper() if w.lower() in _QUALIFIERS else w)
        if w.lower() not in _QUALIFIERS:
            break
    return " ".join(out)


# migrations and mapper statements both bring it (the MyBatis pack names it too): prompts/sql.md
REVIEWER = Specialist("sql", "SQL and data-access reviewer", ("correctness", "security", "performance"), prompt="sql")

PACK = LanguagePack(
    name="sql",
    description="SQL scripts and migrations",
    extensions=(".sql",),
    grammar=GRAMMAR,
    members=sql_members,
    strict=False,
    concepts=(
        ("select-star", r"(?i)\bselect\s+\*", "select all columns"),
        ("dml-update", r"(?i)^\s*(?:update|delete)\b", "update delete rows where clause"),
        ("ddl-drop", r"(?i)\bdrop\s+(?:table|column|index)\b", "drop table column migration rollback"),
        ("ddl-alter", r"(?i)\balter\s+table\b", "alter table migration lock"),
    ),
    rules="sql",
    fence="sql",
    member_kinds=("statement",),
    short_names=False,  # a statement's name is its file, its first words and its line
    reviewers=(REVIEWER,),
    roles=SQL_ROLES,
)
