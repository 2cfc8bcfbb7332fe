"""Declaration-level constructs of Java code, read from its syntax tree rather than by regex.

concepts.py recognises most constructs with a regular expression over the text. For the ones that
depend on what a name *declares* or on what a declaration *lacks*, a regex guesses: whether `Foo_bar`
is a class, a method, a parameter or a constant; whether an interface method carries a doc
comment; whether an `if` body is a block when it spans lines. The tree says it, so for Java these
entries come from here (`java_constructs`) and the regex entries of the same names are the fallback
when the code does not parse.

What is checked is Java's own conventions (the Java Language Specification's naming conventions,
6.1: types UpperCamelCase, methods and variables lowerCamelCase, constants UPPER_SNAKE_CASE,
packages lower case) and plain facts of the tree (a method without a body and without a doc
comment; a control statement whose body is not a block). Nothing here comes from one guideline;
the names a construct is given are concepts.py's, generic and in English and Chinese.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter import Node

from dualrag.parsing._ts import parse, text_of, walk

_UPPER_CAMEL = re.compile(r"[A-Z][A-Za-z0-9]*\Z")
_LOWER_CAMEL = re.compile(r"[a-z][A-Za-z0-9]*\Z")
_UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\Z")
_WRAPPERS = ("{code}", "class Snippet__ {{\n{code}\n}}", "class Snippet__ {{ void snippet__() {{\n{code}\n}} }}")
_TYPES = {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
          "annotation_type_declaration"}
_LOOPS = {"for_statement", "enhanced_for_statement", "while_statement", "do_statement"}
# names that Java code conventionally writes outside the rules above
_EXEMPT = {"serialVersionUID", "serialPersistentFields", "Snippet__", "snippet__"}

# The constructs this module decides, by the concept name concepts.py gives them.
DECIDED = frozenset({"type-name", "member-name", "method-name", "parameter-name", "variable-name", "field-name",
                     "constant-name", "package-name", "braceless-body",
                     "abstract-method", "missing-doc"})


def java_constructs(code: str) -> dict[str, list[str]] | None:
    """The declaration-level constructs `code` shows, by name, each with the words that describe
    the shape of the names it concerns (`shape`), or None when no reading of the code parses (the
    caller then falls back to regular expressions). A snippet may be a file, members
    without their class, or statements without their method: each is tried, the cleanest kept."""
    root = _best_tree(code)
    if root is None:
        return None
    found: dict[str, list[str]] = {}
    for node in walk(root, lambda n: True):
        kind = node.type
        if kind in _TYPES:
            _name(node, _UPPER_CAMEL, "type-name", found)
        elif kind == "method_declaration":
            _method(node, found)
        elif kind in ("formal_parameter", "spread_parameter", "catch_formal_parameter"):
            _name(node, _LOWER_CAMEL, "parameter-name", found)
        elif kind in ("field_declaration", "constant_declaration", "local_variable_declaration"):
            _field(node, found)
        elif kind == "enum_constant":
            _name(node, _UPPER_SNAKE, "constant-name", found)
        elif kind == "package_declaration":
            name = text_of(node).removeprefix("package").strip().rstrip(";").strip()
            if re.search(r"[A-Z_]", name):
                found.setdefault("package-name", [])
        elif kind == "if_statement":
            body, alternative = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
            if _bare(body) or (alternative is not None and alternative.type != "if_statement" and _bare(alternative)):
                found.setdefault("braceless-body", [])
        elif kind in _LOOPS and _bare(node.child_by_field_name("body")):
            found.setdefault("braceless-body", [])
    return found


@lru_cache(maxsize=256)
def _best_tree(code: str) -> Node | None:
    best: tuple[int, Node] | None = None
    for wrapper in _WRAPPERS:
        root = parse("java", wrapper.format(code=code))
        errors = _errors(root) if root.has_error else 0
        if best is None or errors < best[0]:
            best = (errors, root)
        if errors == 0:
            break
    # a reading with errors in more than a few places is not a reading of this code
    return best[1] if best is not None and best[0] <= 2 else None


def _errors(root: Node) -> int:
    return sum(1 for n in walk(root, lambda n: n.has_error) if n.type == "ERROR" or n.is_missing)


def _name(node: Node, convention: re.Pattern[str], construct: str, found: dict[str, list[str]]) -> None:
    name = text_of(node.child_by_field_name("name"))
    if name and name not in _EXEMPT and not convention.match(name):
        words = found.setdefault(construct, [])
        words += [w for w in shape(name) if w not in words]


def _declarators(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type == "variable_declarator"]


def _modifiers(node: Node) -> str:
    return " ".join(text_of(c) for c in node.children if c.type == "modifiers")


def _field(node: Node, found: dict[str, list[str]]) -> None:
    """A field, an interface constant, or a local variable (members read without their class
    parse as locals: `static final` still marks a constant)."""
    modifiers = _modifiers(node)
    in_interface = node.type == "constant_declaration"
    constant = in_interface or ("static" in modifiers.split() and "final" in modifiers.split())
    variable = "field-name" if node.type == "field_declaration" else "variable-name"
    for declarator in _declarators(node):
        _name(declarator, _UPPER_SNAKE if constant else _LOWER_CAMEL, "constant-name" if constant else variable, found)


def _method(node: Node, found: dict[str, list[str]]) -> None:
    _name(node, _LOWER_CAMEL, "method-name", found)
    if node.child_by_field_name("body") is not None:
        return
    # no body: abstract, or an interface method without a default
    found.setdefault("abstract-method", [])
    if not _has_doc(node):
        found.setdefault("missing-doc", [])


def _has_doc(node: Node) -> bool:
    """A `/** ... */` right before the declaration (comments are the declaration's siblings)."""
    previous = node.prev_sibling
    while previous is not None and previous.type == "line_comment":
        previous = previous.prev_sibling
    return previous is not None and previous.type == "block_comment" and text_of(previous).startswith("/**")


def shape(name: str) -> list[str]:
    """How an identifier is written, in the words style texts use for it: what the code shows, not
    what any rule asks for (`user_name` -> snake_case underscore 下划线)."""
    words: list[str] = []
    if name[0] in "_$" or name[-1] in "_$":
        words += ["leading trailing underscore dollar 下划线 美元符号"]
    core = name.strip("_$")
    if not core:
        return words
    if _UPPER_SNAKE.match(core):
        words += ["UPPER_CASE all capitals underscore 大写 下划线"] if "_" in core else ["all capitals 大写"]
    elif "_" in core:
        words += ["snake_case underscore 下划线"]
    elif _UPPER_CAMEL.match(core):
        words += ["UpperCamelCase 大写字母 开头"]
    elif _LOWER_CAMEL.match(core):
        words += ["lowerCamelCase" if any(c.isupper() for c in core) else "lower case 小写"]
    return words


def _bare(body: Node | None) -> bool:
    return body is not None and body.type not in ("block", ";")
