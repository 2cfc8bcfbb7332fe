"""XML outline with tree-sitter-xml: the top-level elements (children of the root) of EDI
`.flow`/`.dt` files are the members; nested element starts are where an oversized one splits."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from tree_sitter import Language, Node, Parser, Query, QueryCursor

from dualrag.parsing._ts import end_line_of, line_of, parse, text_of
from dualrag.parsing.model import Member

_KEY_ATTRIBUTES = ("id", "name", "key", "ref")
# Start tags (group 1 empty), end tags ("/") and a self-closing slash (group 2): enough to measure
# a document's shape in one linear pass; comments and declarations do not start with a letter.
_TAG = re.compile(r"<(/?)[A-Za-z_:][^<>]*?(/?)>")


def xml_shape(text: str, *, max_depth: int, max_elements: int) -> str | None:
    """Why `text` is not parsed into elements, or None. tree-sitter-xml's parse time grows with
    the square of the nesting depth (20,000 levels: 4 s, 100,000: minutes), so depth and element
    count are measured first, stopping at the first cap passed."""
    depth = elements = 0
    for m in _TAG.finditer(text):
        if m.group(1):
            depth = max(0, depth - 1)
            continue
        elements += 1
        if elements > max_elements:
            return f"more than {max_elements:,} XML elements (limits.max_xml_elements)"
        if not m.group(2):
            depth += 1
            if depth > max_depth:
                return f"XML nests deeper than {max_depth} levels (limits.max_xml_depth)"
    return None


@lru_cache(maxsize=2)
def _query(language: Language) -> Query:
    return Query(language, "(element) @element (Comment) @element")


def xml_members(text: str, parser: Parser) -> tuple[tuple[Member, ...], Node]:
    """The root element's children as members (`parser`: tree-sitter-xml's, handed down by the pack)."""
    root = parse(parser, text)
    captured = QueryCursor(_query(parser.language)).captures(root).get("element", [])
    cut_lines = sorted({line_of(n) for n in captured})
    members = []
    top = next((c for c in root.named_children if c.type == "element"), None)
    content = _child(top, "content") if top is not None else None
    if content is not None:
        root_name = _tag_name(top)
        for child in content.named_children:
            if child.type != "element":
                continue
            start, end = line_of(child), end_line_of(child)
            lo, hi = bisect.bisect_right(cut_lines, start), bisect.bisect_left(cut_lines, end)
            head = _start_tag(child)
            members.append(Member(
                kind="element", name=f"{root_name}/{_label(child)}", signature=" ".join(text_of(head).split())[:300],
                start=start, end=end, cuts=tuple(cut_lines[lo:hi]),
            ))
    return tuple(members), root


def _child(node: Node, kind: str) -> Node | None:
    return next((c for c in node.named_children if c.type == kind), None)


def _start_tag(element: Node) -> Node | None:
    return _child(element, "STag") or _child(element, "EmptyElemTag")


def _tag_name(element: Node) -> str:
    head = _start_tag(element)
    return text_of(_child(head, "Name")) if head is not None else ""


def _label(element: Node) -> str:
    """tag[id=value] when the element carries an identifying attribute, else the tag."""
    name = _tag_name(element)
    head = _start_tag(element)
    for attr in head.named_children if head is not None else ():
        if attr.type == "Attribute" and text_of(_child(attr, "Name")) in _KEY_ATTRIBUTES:
            value = text_of(_child(attr, "AttValue")).strip("\"'")
            return f"{name}[{text_of(_child(attr, 'Name'))}={value}]"
    return name
