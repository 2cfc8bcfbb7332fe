"""The test fixtures of the `ruff` book: which lines the `.snap` snapshots flag, and the Python
chunks cut from a fixture around them (violating) or where no snapshot of the rule flags (compliant)."""

from __future__ import annotations

import keyword
import posixpath
import re
from collections import Counter

from evaluation.books.snapshot import Snapshot
from evaluation.books.snippets import MAX_LINES, Examples, leading_comments, rows, tree, used_imports

LANGUAGE = "python"
RULES = "crates/ruff_linter/src/rules"
COMMENTS = ("comment",)
DEFINITIONS = ("function_definition", "class_definition", "decorated_definition")
_STOP = set(keyword.kwlist) | {"self", "cls", "print", "None", "True", "False"}
_NAME = re.compile(r"\b[A-Za-z_]\w{2,}\b")
_DIAGNOSTIC = re.compile(r"^(?P<code>[A-Z]+[0-9]+)\b.*\n\s*--> (?P<file>[\w./-]+):(?P<line>\d+):\d+", re.MULTILINE)
_GOOD_COMMENT = re.compile(r"#\s*(ok|good|fine|safe|correct|no error|not an error|no violation)\b", re.IGNORECASE)


def flagged(snapshot: Snapshot, module: str) -> dict[tuple[str, str], set[int]]:
    """(code, fixture file name) -> 0-based rows the module's snapshots flag; a snapshot that flags
    nothing still names its fixture (an empty set)."""
    out: dict[tuple[str, str], set[int]] = {}
    for path in snapshot.files(f"{RULES}/{module}/snapshots"):
        text = snapshot.read(path)
        for m in _DIAGNOSTIC.finditer(text):
            out.setdefault((m.group("code"), posixpath.basename(m.group("file"))), set()).add(int(m.group("line")) - 1)
        name = re.search(r"__tests__(?:\w+?_)?([A-Z]+[0-9]+)_(.+)\.snap$", path)
        if name and name.group(2).endswith(".py"):
            out.setdefault((name.group(1), name.group(2).rsplit("__", 1)[-1]), set())
    return out


def chunks(root) -> list[list]:
    """Top-level statements in chunks: each definition alone, other statements in runs without a
    blank line between them."""
    out: list[list] = []
    previous = None
    for node in (n for n in root.named_children if n.type not in COMMENTS):
        start = leading_comments(node, COMMENTS)
        if out and previous is not None and node.type not in DEFINITIONS and previous.type not in DEFINITIONS \
                and start == previous.end_point.row + 1:
            out[-1].append(node)
        else:
            out.append([node])
        previous = node
    return out


def narrowed(lines: list[str], node, row: int) -> str | None:
    """The statement at `row` inside `node`, descending into blocks until it fits in MAX_LINES; a
    method keeps its class's header line."""
    header = ""
    while node.end_point.row - leading_comments(node, COMMENTS) >= MAX_LINES:
        body = node.child_by_field_name("body") or node.child_by_field_name("definition")
        inner = body.child_by_field_name("body") if body is not None and body.type in DEFINITIONS else body
        if inner is None:
            return None
        if node.type == "class_definition":
            header = rows(lines, node.start_point.row, inner.start_point.row - 1) + "\n"
        child = next((c for c in inner.named_children if c.start_point.row <= row <= c.end_point.row), None)
        if child is None:
            return None
        node = child
    text = header + rows(lines, leading_comments(node, COMMENTS), node.end_point.row)
    indent = min((len(x) - len(x.lstrip()) for x in text.splitlines() if x.strip()), default=0)
    return "\n".join(x[indent:] for x in text.splitlines()) if not header else text


def python_imports(root) -> list[tuple[str, set[str]]]:
    out = []
    for node in (n for n in root.named_children if n.type in ("import_statement", "import_from_statement")):
        text = node.text.decode()
        names = re.sub(r"^from\s+\S+\s+import\s+|^import\s+|[()\\]", "", text).split(",")
        bound = {n.split(" as ")[-1].strip().split(".")[0] for n in names if n.strip() and n.strip() != "*"}
        out.append((text, bound))
    return out


def fixture_examples(path: str, code: str, rows_flagged: set[int], bad: Examples, good: Examples,
                     stats: Counter) -> None:
    lines, root = code.splitlines(), tree(code, LANGUAGE)
    imports = python_imports(root)
    words = {w for r in rows_flagged if r < len(lines) for w in _NAME.findall(lines[r])} - _STOP
    for chunk in chunks(root):
        first, last = leading_comments(chunk[0], COMMENTS), chunk[-1].end_point.row
        hits = sorted(r for r in rows_flagged if first <= r <= last)
        text = rows(lines, first, last)
        if not hits:
            if all(n.type in ("import_statement", "import_from_statement", "expression_statement", "pass_statement")
                   and (n.type != "expression_statement" or n.named_children[0].type == "string") for n in chunk):
                continue  # imports, docstrings, pass: nothing a rule could be about
            if _GOOD_COMMENT.search(text) or words & set(_NAME.findall(text)):
                good.test(path, with_imports(imports, text))
            continue
        if last - first < MAX_LINES:
            bad.test(path, with_imports(imports, text))
            continue
        for row in hits:
            node = next(n for n in chunk if n.start_point.row <= row <= n.end_point.row)
            snippet = narrowed(lines, node, row)
            if snippet is None:
                stats["fixture_hits_too_long"] += 1
            else:
                bad.test(path, with_imports(imports, snippet))


def with_imports(imports: list[tuple[str, set[str]]], snippet: str) -> str:
    used = [text for text in used_imports(imports, snippet) if text not in snippet]
    return "\n".join(used) + "\n\n" + snippet if used and len(used) + snippet.count("\n") < MAX_LINES - 1 else snippet
