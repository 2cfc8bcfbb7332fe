"""The constructs of a piece of code named by its grammar: `finally clause`, `return statement in
finally clause`, `synchronized statement`.

concepts.py names constructs with a table we wrote; this names them with the node types of the
language's tree-sitter grammar, which nobody wrote for any rule book. Each named node gives its
type as words (`enhanced_for_statement` -> "enhanced for statement"), and each statement or
expression also "X in Y" for the nearest enclosing clause, loop or block owner, since rules talk
about where a thing is ("return in finally", "object creation in loop"). Node types that every
method shows (identifiers, blocks, parameter lists) say nothing and are left out.
"""

from __future__ import annotations

from functools import lru_cache

from dualrag.parsing._ts import parse, walk

# Shapes every snippet has: naming them in each query would drown the specific ones.
_COMMON = frozenset({
    "program", "identifier", "type_identifier", "block", "class_body", "formal_parameters", "formal_parameter",
    "argument_list", "modifiers", "expression_statement", "scoped_identifier", "scoped_type_identifier",
    "method_declaration", "class_declaration", "local_variable_declaration", "variable_declarator",
    "field_access", "method_invocation", "string_literal", "string_fragment", "decimal_integer_literal",
    "parenthesized_expression", "assignment_expression", "binary_expression", "void_type", "integral_type",
    "generic_type", "type_arguments", "line_comment", "block_comment", "ERROR", "marker_annotation",
    "annotation", "field_declaration", "dimensions", "array_type", "constructor_body", "interface_body",
    "boolean_type", "floating_point_type", "this", "null_literal", "true", "false", "character_literal",
    "escape_sequence", "package_declaration", "import_declaration", "asterisk", "annotation_argument_list",
    "element_value_pair", "throws", "super", "superclass", "super_interfaces", "type_list",
    "explicit_constructor_invocation", "array_access", "update_expression", "unary_expression",
    "return_statement", "if_statement", "object_creation_expression",
})
# Nodes whose inside is a place rules speak of.
_PLACES = frozenset({
    "finally_clause", "catch_clause", "try_statement", "try_with_resources_statement", "for_statement",
    "enhanced_for_statement", "while_statement", "do_statement", "synchronized_statement", "switch_expression",
    "switch_block", "lambda_expression", "static_initializer", "constructor_declaration", "if_statement",
    "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration",
})
# Everyday shapes that still matter by where they are ("return in finally", "new in a loop").
_PLACED = frozenset({"return_statement", "object_creation_expression", "if_statement"})
_PLACEABLE = ("statement", "expression", "clause", "declaration", "initializer")
_MAX_WORDS = 120
_MAX_CHARS = 20_000


def _name(node_type: str) -> str:
    return node_type.replace("_", " ")


@lru_cache(maxsize=4096)
def grammar_words(code: str, language: str = "java") -> str:
    """One line of construct names for the code, most specific first; "" when the grammar says
    nothing (another language, or nothing but everyday shapes)."""
    if language != "java" or not code.strip():
        return ""
    root = _parsed(code[:_MAX_CHARS])
    names: dict[str, None] = {}
    places: list[tuple[int, int, str]] = []  # (start, end, type) of every enclosing place seen so far
    for node in walk(root, lambda n: True):
        kind = node.type
        if not node.is_named:
            continue
        start, end = node.start_byte, node.end_byte
        while places and places[-1][1] <= start:  # pre-order: a place ends before its next sibling
            places.pop()
        place = next((p for p in reversed(places) if p[0] <= start and end <= p[1] and p[2] != kind), None)
        if kind not in _COMMON:
            names.setdefault(_name(kind), None)
        if place is not None and (kind not in _COMMON or kind in _PLACED) and kind.endswith(_PLACEABLE):
            names.setdefault(f"{_name(kind)} in {_name(place[2])}", None)
        if kind in _PLACES:
            places.append((start, end, kind))
        if len(names) >= _MAX_WORDS:
            break
    return "; ".join(names)


def _parsed(code: str):
    """The snippet as written, or wrapped in a class and a method when that parses with fewer
    errors (rule examples are often bare statements)."""
    root = parse("java", code)
    if not root.has_error:
        return root
    wrapped = parse("java", "class _S {\nvoid _m() {\n" + code + "\n}\n}")
    return wrapped if _errors(wrapped) < _errors(root) else root


def _errors(root) -> int:
    return sum(1 for n in walk(root, lambda n: n.has_error) if n.type == "ERROR" or n.is_missing)
