"""Java outline with tree-sitter-java: types, methods, constructors, initialisers and lambdas.

Queries run in C, so a 20,000-line method costs one parse plus a walk over the captured
nodes only, never a Python walk over every node of the tree.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from tree_sitter import Language, Node, Parser, Query, QueryCursor

from dualrag.parsing._ts import end_line_of, line_of, parse, text_of
from dualrag.parsing.model import Member
from dualrag.parsing.nesting import containers, in_source_order

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
[(block) (constructor_body) (switch_block_statement_group) (class_body) (interface_body)
 (enum_body_declarations)] @holder
(switch_rule) @cut
(object_creation_expression) @new
"""
_SPACE = re.compile(r"\s+")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


@lru_cache(maxsize=2)
def _query(language: Language) -> Query:
    return Query(language, _QUERY)


def java_members(text: str, parser: Parser, *, fallback_type: str = "") -> tuple[tuple[Member, ...], list[Node], Node]:
    """Members of a Java text (in source order), the member nodes that contain syntax errors,
    and the root node. `parser`: tree-sitter-java's, handed down by the Java pack. `fallback_type`
    names the type of code outside any type declaration (a fragment cut out of a method body)."""
    root = parse(parser, text)
    captures = QueryCursor(_query(parser.language)).captures(root)
    # Statement starts: the children of every block-like node. `(block (_) @cut)` in the query
    # would say the same, but the query cursor then costs nesting depth squared.
    cuts = [*captures.get("cut", ()), *(c for n in captures.get("holder", ()) for c in n.named_children)]
    cut_lines = sorted({line_of(n) for n in cuts})
    package = ""
    for child in root.named_children:
        if child.type == "package_declaration":
            package = _SPACE.sub("", text_of(child).removeprefix("package").rstrip(";"))
    source = root.text or b""
    nodes = in_source_order([*captures.get("member", ()), *captures.get("new", ())])
    # One pass, outermost first: what each node's descendants see around them (linear time).
    scope: list[str] = []  # the types and `new T` around a node's descendants: Outer.Inner.new T
    callable_: list[str] = []  # the method or constructor around a node's descendants
    members, broken = [], []
    for node, up in zip(nodes, containers(nodes)):
        outer, around = (scope[up], callable_[up]) if up >= 0 else ("", "")
        member = None
        if node.type == "object_creation_expression":
            scope.append(_join(outer, f"new {text_of(node.child_by_field_name('type'))}"))
        else:
            member = _member(node, package, fallback_type, cut_lines, outer, around, source)
            named = text_of(node.child_by_field_name("name")) if node.type in _TYPES else ""
            scope.append(_join(outer, named) if node.type in _TYPES else outer)
        is_callable = member is not None and node.type in ("method_declaration", "constructor_declaration")
        callable_.append(member.name if is_callable else around)
        if member is not None:
            members.append(member)
            if node.has_error:
                broken.append(node)
    return tuple(members), broken, root


def _member(node: Node, package: str, fallback_type: str, cut_lines: list[int], outer: str, around: str,
            source: bytes) -> Member | None:
    """`outer`: the types around the node (no package); `around`: the name of the method or
    constructor it sits in."""
    kind = _TYPES.get(node.type) or _CALLABLES.get(node.type)
    if node.type == "block":
        kind = "initializer"
    elif node.type == "lambda_expression":
        kind = "lambda"
    if kind is None:
        return None
    # A top-level type is named by itself; only code outside every type takes the fallback.
    owner = _join(package, outer or ("" if kind in _TYPES.values() else fallback_type))
    start, end = line_of(node), end_line_of(node)
    if kind in _TYPES.values():
        name = _join(owner, text_of(node.child_by_field_name("name")))
        head = _head(node, source)
    elif kind == "initializer":
        static = node.type == "static_initializer"
        name = _join(owner, f"<{'static-init' if static else 'init'}>@{start}")
        head = "static {" if static else "{"
    elif kind == "lambda":
        name = f"{around or owner}.lambda@{start}"
        head = _head(node, source)
    else:
        simple = text_of(node.child_by_field_name("name"))
        params = node.child_by_field_name("parameters")
        name = _join(owner, f"{simple}({','.join(_param_types(params))})")
        head = _head(node, source)
    # Statement starts strictly inside the member: a boundary between two of its statements. A
    # lambda never owns a chunk (its enclosing member's cuts split it): nested lambdas would each
    # copy the cuts of all the others (quadratic).
    lo, hi = bisect.bisect_right(cut_lines, start), bisect.bisect_left(cut_lines, end)
    return Member(
        kind=kind, name=name, signature=head, start=start, end=end,
        cuts=tuple(cut_lines[lo:hi]) if kind != "lambda" else (),
        groups=kind in ("method", "constructor", "initializer"),
    )


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


_HEAD_BYTES = 16_000  # a declaration head longer than this is cut before cleaning (shown: 300 chars)


def _head(node: Node, source: bytes | None = None) -> str:
    """The declaration up to its body, comments and annotations left out, on one line.
    `source` (the parsed bytes) spares copying the whole node's text: nested members would
    copy their enclosing text once each (quadratic)."""
    body = node.child_by_field_name("body")
    end = min(body.start_byte if body is not None else node.end_byte, node.start_byte + _HEAD_BYTES)
    if source is None:
        source, end, begin = node.text or b"", end - node.start_byte, 0
    else:
        begin = node.start_byte
    raw = source[begin:end].decode("utf-8", "replace")
    raw = _COMMENT.sub(" ", raw)
    head = _SPACE.sub(" ", raw).strip().rstrip(";").strip()
    head = re.sub(r"^(@\w[\w.]*(\([^)]*\))?\s*)+", "", head)
    return head[:300]


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix and name else prefix or name


# ------------------------------------------------------------------------------- hunk headers

_HINT_METHOD = re.compile(
    r"(?:^|\s)(?P<name>[A-Za-z_$][\w$]*)\s*\((?P<params>[^()]*)\)\s*(?:throws\s+[\w.,\s]+)?\{?\s*$"
)
_HINT_TYPE = re.compile(r"\b(class|interface|enum|record)\s+(?P<name>[A-Za-z_$][\w$]*)")
_NOT_METHODS = {"if", "for", "while", "switch", "catch", "synchronized", "return", "new", "try"}


def fragment_owner(hint: str, fallback_type: str) -> str:
    """The type a diff fragment sits in, as its hunk header names it (else the file's stem)."""
    hint_type = _HINT_TYPE.search(hint or "")
    return hint_type.group("name") if hint_type else fallback_type


def hinted_member(hint: str, owner: str, offset: int, members: list[Member], last_line: int) -> Member | None:
    """The method a fragment starts inside, named by the hunk header, up to the first member
    the fragment declares itself."""
    if not hint:
        return None
    match = _HINT_METHOD.search(hint)
    if not match or match.group("name") in _NOT_METHODS:
        return None
    first = offset + 1
    declared = [m for m in members if m.groups and m.start >= first]
    end = (declared[0].start - 1) if declared else last_line
    if end < first:
        return None
    params = [p.strip().rsplit(" ", 1)[0].replace(" ", "") for p in match.group("params").split(",") if p.strip()]
    name = f"{owner}.{match.group('name')}({','.join(params)})" if owner else f"{match.group('name')}({','.join(params)})"
    return Member(kind="method", name=name, signature=" ".join(hint.split()).rstrip("{ ").strip(),
                  start=first, end=end, cuts=())
