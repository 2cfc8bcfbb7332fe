"""The query tests of the `codeql` book: which lines a test's `.expected` output alerts, and the
Java snippets cut around them (violating) or from quiet members of the test files (compliant)."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from typing import NamedTuple

from evaluation.books.snapshot import Snapshot
from evaluation.books.snippets import MAX_LINES, contains, leading_comments, rows, tree, used_imports

LANGUAGE = "java"
TESTS = "java/ql/test"
WINDOW = 25  # a method longer than this is cut to the alerted statement and those before it, up to this many lines
SMALL_CLASS = 20  # an alerted class shorter than this is taken whole
TYPES = ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration")
MEMBERS = ("method_declaration", "constructor_declaration")
COMMENTS = ("line_comment", "block_comment")

_BAD_MARK = r"not\s+ok|not\s+safe|bad|wrong|unsafe|insecure|vulnerable|non-?compliant|avoid"
_GOOD_MARK = r"good|ok|correct|fixed|safe|secure|compliant|better"
_MARK = re.compile(rf"(?://+|/\*+|^\s*\*)\s*(?:\$\s*)?(?:(?P<bad>{_BAD_MARK})|(?P<good>{_GOOD_MARK}))\b",
                   re.IGNORECASE | re.MULTILINE)
_NOT_A_LABEL = re.compile(r"false\s+(positive|negative)|not\s+detected|missing|\bFP\b|\bFN\b|TODO", re.IGNORECASE)
_LOCATION = re.compile(r"\|\s*([\w./-]+\.java):(\d+):\d+:(\d+):\d+\s*\|")
NAME = re.compile(r"\b[A-Za-z_]\w{3,}\b")


def marks(code: str) -> set[str]:
    """The kinds of marker comments in `code`: "bad" (`// BAD`, `// NOT OK`, ...), "good" (`// GOOD`, `// OK`, ...)."""
    return {"bad" if m.group("bad") else "good" for m in _MARK.finditer(code)}


def closed(lines: list[str], node, inner: str) -> str:
    """`inner` under `node`'s header (its lines up to its body's brace), closed at its indentation."""
    body, head = node.child_by_field_name("body"), lines[node.start_point.row]
    return f"{rows(lines, node.start_point.row, body.start_point.row)}\n{inner}\n{head[: len(head) - len(head.lstrip())]}}}"


class JavaSource(NamedTuple):
    path: str
    lines: list[str]
    root: object
    imports: list[tuple[str, set[str]]]  # (import statement, the simple name it binds)


def java_source(path: str, code: str) -> JavaSource:
    root = tree(code, LANGUAGE)
    imports = []
    for node in (n for n in root.named_children if n.type == "import_declaration"):
        name = re.sub(r"[\s;]", "", node.text.decode()).rsplit(".", 1)[-1]
        imports.append((node.text.decode(), set() if name == "*" else {name}))
    return JavaSource(path, code.splitlines(), root, imports)


def expected_rows(text: str) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
    """(alerted rows, rows of any location) per file, 0-based, from a test's `.expected`: a result
    row alerts the line of its first column (path problems: the rows of the `#select` section)."""
    alerts: dict[str, set[int]] = {}
    involved: dict[str, set[int]] = {}
    section = None if "#select" in text else "#select"
    for line in text.splitlines():
        if line and not line.startswith("|"):
            section = line.strip()
        for m in _LOCATION.finditer(line):
            involved.setdefault(m.group(1), set()).update(range(int(m.group(2)) - 1, int(m.group(3))))
        first = _LOCATION.match(line)
        if first and section == "#select":
            alerts.setdefault(first.group(1), set()).add(int(first.group(2)) - 1)
    return alerts, involved


def member_snippet(f: JavaSource, owner, member, row: int | None = None) -> str | None:
    """The member under its class header; a method longer than WINDOW lines is cut to the
    statement holding `row` and the statements before it."""
    inner = rows(f.lines, leading_comments(member, COMMENTS), member.end_point.row)
    body = member.child_by_field_name("body") if member.type in MEMBERS else None
    if inner.count("\n") >= WINDOW and row is not None and body is not None:
        statements = [n for n in body.named_children if n.type not in COMMENTS]
        j = next((i for i, n in enumerate(statements) if contains(n, row)), None)
        if j is None:
            return None
        i = j
        while i > 0 and statements[j].end_point.row - statements[i - 1].start_point.row < WINDOW:
            i -= 1
        inner = closed(f.lines, member, rows(f.lines, statements[i].start_point.row, statements[j].end_point.row))
    snippet = closed(f.lines, owner, inner)
    if snippet.count("\n") >= MAX_LINES:
        return None
    used = "\n".join(used_imports(f.imports, snippet))
    return f"{used}\n\n{snippet}" if used and (used + snippet).count("\n") < MAX_LINES - 1 else snippet


def owner_at(node, row: int):
    """The innermost class, interface, enum or record holding `row`."""
    found = None
    while node is not None:
        found = node if node.type in TYPES else found
        node = next((c for c in node.named_children if contains(c, row)), None)
    return found


def violating_snippets(f: JavaSource, alerts: set[int], stats: Counter) -> list[str]:
    out = []
    for row in sorted(alerts):
        near = "\n".join(f.lines[max(row - 1, 0): row + 1])
        owner = owner_at(f.root, row)
        if _NOT_A_LABEL.search(near) or marks(near) == {"good"} or owner is None:
            stats["test_alerts_marked_not_a_violation" if owner else "test_alerts_outside_a_class"] += 1
            continue
        member = next((m for m in owner.child_by_field_name("body").named_children if contains(m, row)), None)
        snippet = member_snippet(f, owner, member, row) if member is not None else None
        first = leading_comments(owner, COMMENTS)
        if owner.end_point.row - first < (SMALL_CLASS if snippet else MAX_LINES):
            snippet = rows(f.lines, first, owner.end_point.row)
            used = "\n".join(used_imports(f.imports, snippet))
            snippet = f"{used}\n\n{snippet}" if used and (used + snippet).count("\n") < MAX_LINES - 1 else snippet
        out.append(snippet) if snippet else stats.update(["test_alerts_too_long"])
    return out


def compliant_snippets(f: JavaSource, busy: set[int], words: set[str]) -> list[str]:
    """Methods and constructors (3+ lines) with no location of the folder's `.expected` files on
    them or on their class header, no bad marker, that are marker-good or name something the
    alerted lines name."""
    candidates, stack = [], [f.root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        owner = node.parent.parent if node.parent is not None else None
        if node.type not in MEMBERS or owner is None or owner.type not in TYPES:
            continue
        first, last = node.start_point.row, node.end_point.row
        text = rows(f.lines, leading_comments(node, COMMENTS), last)
        good = marks(text) == {"good"}
        header = range(owner.start_point.row, owner.child_by_field_name("body").start_point.row + 1)
        if last - first < 2 or any(first <= r <= last or r in header for r in busy) or "bad" in marks(text) \
                or _NOT_A_LABEL.search(text) or not (good or words & set(NAME.findall(text))):
            continue
        snippet = member_snippet(f, owner, node)
        if snippet:
            candidates.append((not good, first, snippet))
    return [snippet for _, _, snippet in sorted(candidates)]


def tested_queries(snapshot: Snapshot) -> dict[str, list[tuple[str, str]]]:
    """Query path (under java/ql/src) -> [(test folder, .expected text)]."""
    out: dict[str, list[tuple[str, str]]] = {}
    files = set(snapshot.files(TESTS))
    for path in (p for p in sorted(files) if p.endswith(".qlref") and p[:-6] + ".expected" in files):
        out.setdefault(snapshot.read(path).strip(), []).append((posixpath.dirname(path), snapshot.read(path[:-6] + ".expected")))
    return out
