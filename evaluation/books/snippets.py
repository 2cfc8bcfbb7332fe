"""Examples cut from a linter's test files, shared by the builders of the newer rule books
(`codeql`, `ruff`): which lines a snippet spans, the imports it uses, whether it parses, and the
capped, de-duplicated example lists of a rule."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from tree_sitter import Node

from dualrag import languages

MAX_LINES = 60  # a snippet longer than this is cut down to a smaller enclosing unit, or left out
MAX_EXAMPLES = 6  # per rule and label


def tree(code: str, language: str) -> Node:
    """The root node of `code` read by the book language's tree-sitter grammar."""
    return languages.parser(language).parse(code.encode("utf-8")).root_node


def parses(code: str, language: str) -> bool:
    """True when the grammar reads `code` without an error node."""
    return not tree(code, language).has_error


def span(node: Node) -> tuple[int, int]:
    """0-based first and last row of a node."""
    return node.start_point.row, node.end_point.row


def rows(lines: list[str], first: int, last: int) -> str:
    return "\n".join(lines[first:last + 1])


def contains(node: Node, row: int) -> bool:
    return node.start_point.row <= row <= node.end_point.row


def leading_comments(node: Node, comment_types: tuple[str, ...]) -> int:
    """The first row of `node` counting the comments right above it (no blank line between)."""
    first = node.start_point.row
    sibling = node.prev_sibling
    while sibling is not None and sibling.type in comment_types and sibling.end_point.row == first - 1:
        first = sibling.start_point.row
        sibling = sibling.prev_sibling
    return first


_WORD = re.compile(r"(?<![.\w])[A-Za-z_]\w*")  # a name, not an attribute (`a.Name` does not need `Name`)


def used_imports(imports: Iterable[tuple[str, set[str]]], code: str) -> list[str]:
    """The import statements (text, names they bind) whose names occur in `code`, in file order,
    each once."""
    words = set(_WORD.findall(code))
    return list(dict.fromkeys(text for text, names in imports if names & words))


def normalised(code: str) -> str:
    return " ".join(code.split())


class Examples:
    """One label's examples of a rule: documented ones first, then test snippets taken in turn
    from each test file (so one long file does not fill the list), de-duplicated, capped."""

    def __init__(self, language: str, stats: Counter) -> None:
        self.language, self.stats = language, stats
        self.documented: list[str] = []
        self.by_file: dict[str, list[str]] = {}
        self.seen: set[str] = set()

    def _fresh(self, code: str) -> bool:
        code = code.strip("\n")
        if not code.strip() or normalised(code) in self.seen:
            return False
        if code.count("\n") >= MAX_LINES:
            self.stats["dropped_too_long"] += 1
            return False
        if not parses(code, self.language):
            self.stats["dropped_parse_error"] += 1
            return False
        self.seen.add(normalised(code))
        return True

    def document(self, code: str) -> None:
        if self._fresh(code):
            self.documented.append(code.strip("\n"))

    def test(self, file: str, code: str) -> None:
        if self._fresh(code):
            self.by_file.setdefault(file, []).append(code.strip("\n"))

    def taken(self, cap: int = MAX_EXAMPLES, unlike: Examples | None = None) -> list[str]:
        """At most `cap` examples; none that is also one of `unlike` (the other label's examples)."""
        other = unlike.seen if unlike is not None else set()
        out = [c for c in self.documented if normalised(c) not in other][:cap]
        queues = [[c for c in q if normalised(c) not in other] for q in self.by_file.values()]
        while len(out) < cap and any(queues):
            for queue in queues:
                if queue and len(out) < cap:
                    out.append(queue.pop(0))
        self.stats["examples_over_cap"] += len(self.seen) - len(out)
        return out
