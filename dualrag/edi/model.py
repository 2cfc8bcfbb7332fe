"""EDI configuration model: a light element tree with line numbers, and validation issues."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False, slots=True)
class Node:
    """One XML element: tag, attributes (in document order), first line of its start tag."""

    tag: str
    attrs: dict[str, str]
    line: int
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def iter(self, tag: str | None = None):
        stack = [self]
        while stack:
            node = stack.pop()
            if tag is None or node.tag == tag:
                yield node
            stack.extend(reversed(node.children))

    def find(self, tag: str) -> Node | None:
        return next((c for c in self.children if c.tag == tag), None)


@dataclass(frozen=True, slots=True)
class Issue:
    """A violation found in one document. `line` is a new-file line; `hint` is a regex that, when a
    removed line of the diff matches it, places the issue where that line used to be (a removal)."""

    rule_id: str
    line: int
    message: str
    hint: str | None = None


@dataclass(slots=True)
class Document:
    """A parsed `.flow`, `.dt` or `partners.xml`. `partial` = rebuilt from diff fragments only:
    whole-document checks (references, mandatory elements, duplicates) are skipped."""

    path: str
    kind: str  # "flow" | "dt" | "partners"
    root: Node | None
    partial: bool = False
    issues: list[Issue] = field(default_factory=list)  # found while reading (syntax, encoding, safety)
    fragments: list[Node] = field(default_factory=list)  # top nodes of a partial document
    nodes: list[Node] = field(default_factory=list)  # all nodes in document order, once validated


def kind_of(path: str) -> str | None:
    low = path.lower()
    if low.endswith(".flow"):
        return "flow"
    if low.endswith(".dt"):
        return "dt"
    if low.rsplit("/", 1)[-1] == "partners.xml":
        return "partners"
    return None
