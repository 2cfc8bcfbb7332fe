"""Bounded parsing helpers. The parser is handed down by the language pack that owns the grammar
(`dualrag.languages.grammars.parser(GRAMMAR)`, or `dualrag.languages.parser("java")` by name): this
layer never looks a language up."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node, Parser


def parse(parser: Parser, text: str) -> Node:
    return parser.parse(text.encode("utf-8", "replace")).root_node


def walk(node: Node, descend) -> Iterator[Node]:
    """Pre-order walk without recursion (minified or generated code nests deeply).

    `descend(node)` says whether to visit a node's children.
    """
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if descend(current):
            stack.extend(reversed(current.named_children))


def line_of(node: Node) -> int:
    return node.start_point.row + 1


def end_line_of(node: Node) -> int:
    return node.end_point.row + 1


def text_of(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def first_error_line(root: Node) -> int:
    """1-based line of the first ERROR or missing node (the root's line when there is none)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return node.start_point.row + 1
        stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
    return root.start_point.row + 1
