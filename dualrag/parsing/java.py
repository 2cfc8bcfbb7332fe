"""Java outline with tree-sitter-java: types, methods, constructors, initialisers and lambdas.

Queries run in C, so a 20,000-line method costs one parse plus a walk over the captured
nodes only, never a Python walk over every node of the tree.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from tree_sitter import Node, Query, QueryCursor

from dualrag.parsing._ts import end_line_of, line_of, parse, parser, text_of
from dualrag.parsing.model import Member

_TYPES = {
    "class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "record",
    "annotation_type_declaration": "annotation",
}
_CALLABLES = {
    "method_declaration": "method",
    "constructor_declaration": "constructor",
    "compact_constructor_declaration": "constructor",
    "static_initializer": "initializer",
}
_BODIES = ("class_body", "interface_body", "enum_body_declarations", "annotation_type_body")
_QUERY = """
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration)
 (annotation_type_declaration) (method_declaration) (constructor_declaration)
 (compact_constructor_declaration) (static_initializer) (lambda_expression)] @member
(class_body (block) @member)
(block (_) @cut) (constructor_body (_) @cut) (switch_block_statement_group (_) @cut)
(switch_rule) @cut
(class_body (_) @cut) (interface_body (_) @cut) (enum_body_declarations (_) @cut)
"""
_SPACE = re.compile(r"\s+")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


@lru_cache(maxsize=1)
def _query() -> Query:
    return Query(parser("java").language, _QUERY)


def java_members(text: str, *, fallback_type: str = "") -> tuple[tuple[Member, ...], list[Node], Node]:
    """Members of a Java text (in source order), the member nodes that contain syntax errors,
    and the root node. `fallback_type` names the type of code outside any type declaration
    (a fragment cut out of a method body)."""
    root = parse("java", text)
    captures = QueryCursor(_query()).captures(root)
    cut_lines = sorted({line_of(n) for n in captures.get("cut", ())})
    package = ""
    for child in root.named_children:
        if child.type == "package_declaration":
            package = _SPACE.sub("", text_of(child).removeprefix("package").rstrip(";"))
    nodes = sorted(captures.get("member", ()), key=lambda n: (n.start_byte, -n.end_byte))
    members, broken = [], []
    for node in nodes:
        member = _member(node, package, fallback_type, cut_lines)
        if member is not None:
            members.append(member)
            if node.has_error:
                broken.append(node)
    return tuple(members), broken, root


def _member(node: Node, package: str, fallback_type: str, cut_lines: list[int]) -> Member | None:
    kind = _TYPES.get(node.type) or _CALLABLES.get(node.type)
    if node.type == "block":
        kind = "initializer"
    elif node.type == "lambda_expression":
        kind = "lambda"
    if kind is None:
        return None
    # A top-level type is named by itself; only code outside every type takes the fallback.
    owner = _owner(node, package, "" if kind in _TYPES.values() else fallback_type)
    start, end = line_of(node), end_line_of(node)
    if kind in _TYPES.values():
        name = _join(owner, text_of(node.child_by_field_name("name")))
        head = _head(node)
    elif kind == "initializer":
        static = node.type == "static_initializer"
        name = _join(owner, f"<{'static-init' if static else 'init'}>@{start}")
        head = "static {" if static else "{"
    elif kind == "lambda":
        enclosing = _enclosing_callable(node, package, fallback_type)
        name = f"{enclosing or owner}.lambda@{start}"
        head = _head(node)
    else:
        simple = text_of(node.child_by_field_name("name"))
        params = node.child_by_field_name("parameters")
        name = _join(owner, f"{simple}({','.join(_param_types(params))})")
        head = _head(node)
    # Statement starts strictly inside the member: a boundary between two of its statements.
    lo, hi = bisect.bisect_right(cut_lines, start), bisect.bisect_left(cut_lines, end)
    return Member(
        kind=kind, name=name, signature=head, start=start, end=end,
        cuts=tuple(cut_lines[lo:hi]), groups=kind in ("method", "constructor", "initializer"),
    )


def _owner(node: Node, package: str, fallback_type: str) -> str:
    """Qualified name of the types around a node: com.acme.Outer.Inner."""
    names = []
    parent = node.parent
    while parent is not None:
        if parent.type in _TYPES:
            names.append(text_of(parent.child_by_field_name("name")))
        elif parent.type == "object_creation_expression":
            names.append(f"new {text_of(parent.child_by_field_name('type'))}")
        parent = parent.parent
    if not names and fallback_type:
        names.append(fallback_type)
    return _join(package, ".".join(reversed(names)))


def _enclosing_callable(node: Node, package: str, fallback_type: str) -> str:
    parent = node.parent
    while parent is not None:
        if parent.type in ("method_declaration", "constructor_declaration"):
            member = _member(parent, package, fallback_type, [])
            return member.name if member else ""
        parent = parent.parent
    return ""


def _param_types(params: Node | None) -> list[str]:
    if params is None:
        return []
    types = []
    for p in params.named_children:
        if p.type == "formal_parameter":
            types.append(_SPACE.sub("", text_of(p.child_by_field_name("type"))))
        elif p.type == "spread_parameter":
            kinds = [c for c in p.named_children if c.type not in ("modifiers", "variable_declarator")]
            types.append(_SPACE.sub("", text_of(kinds[0]) if kinds else "") + "...")
    return types


def _head(node: Node) -> str:
    """The declaration up to its body, comments and annotations left out, on one line."""
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    raw = node.text[: end - node.start_byte].decode("utf-8", "replace") if node.text else ""
    raw = _COMMENT.sub(" ", raw)
    head = _SPACE.sub(" ", raw).strip().rstrip(";").strip()
    head = re.sub(r"^(@\w[\w.]*(\([^)]*\))?\s*)+", "", head)
    return head[:300]


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix and name else prefix or name
