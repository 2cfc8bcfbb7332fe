"""Kotlin: tree-sitter-kotlin; classes, interfaces and objects are containers, functions,
constructors and initialisers members, lambdas attached to the member they sit in; statement
starts inside blocks the cut points. The grammar asks for a separator a one-line class body
(`{ fun a() = 1 }`) does not have: Kotlin files are parsed leniently (members are kept around
such a gap; a member whose own text holds a real ERROR node is still distrusted in a fragment).
Rules and detectors in `knowledge/kotlin/` (`!!`, `runBlocking`, `GlobalScope`). The code index
reads declarations and calls (`symbols.py`), resolved with Java's in one repository."""

from __future__ import annotations

import bisect
from functools import lru_cache

from dualrag.languages.kotlin.roles import KOTLIN_ROLES
from dualrag.languages.pack import Grammar, LanguagePack, SymbolReader, bracket_nesting

GRAMMAR = Grammar("kotlin", "tree_sitter_kotlin")
_QUERY = """
[(class_declaration) (object_declaration) (companion_object) (function_declaration) (secondary_constructor)
 (anonymous_initializer) (lambda_literal)] @member
[(block) (class_body) (lambda_literal)] @holder
"""
_KINDS = {"object_declaration": "object", "companion_object": "object", "function_declaration": "function",
          "secondary_constructor": "constructor", "anonymous_initializer": "initializer", "lambda_literal": "lambda"}
_CONTAINERS = ("class", "interface", "object")


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    from dualrag.languages.grammars import language

    return Query(language(GRAMMAR), _QUERY)


def kotlin_members(text: str, *, fallback_type: str = ""):
    from tree_sitter import QueryCursor

    from dualrag.languages.grammars import parser
    from dualrag.parsing.model import Member
    from dualrag.parsing.nesting import containers, in_source_order

    root = parser(GRAMMAR).parse(text.encode("utf-8", "replace")).root_node
    source = root.text or b""
    package = ""
    for child in root.named_children:
        if child.type == "package_header":
            package = "".join(_text(source, child).removeprefix("package").split())
    captures = QueryCursor(_query()).captures(root)
    cut_lines = sorted({c.start_point.row + 1 for h in captures.get("holder", ()) for c in h.named_children})
    nodes = in_source_order(captures.get("member", ()))
    scope: list[str] = []  # the qualified name each node gives what it contains
    members, broken = [], []
    for node, up in zip(nodes, containers(nodes)):
        outer = scope[up] if up >= 0 else ""
        kind = _KINDS.get(node.type) or ("interface" if _keyword(node, source) == "interface" else "class")
        if kind == "function" and up >= 0 and _KINDS.get(nodes[up].type, "class") in _CONTAINERS:
            kind = "method"
        name_node = node.child_by_field_name("name")
        simple = _text(source, name_node) if name_node is not None else ""
        start, end = node.start_point.row + 1, node.end_point.row + 1
        owner = outer or ".".join(p for p in (package, "" if kind in _CONTAINERS else fallback_type) if p)
        if kind == "lambda":
            qualified = f"{owner}.lambda@{start}"
        elif kind in ("initializer", "constructor"):
            qualified = f"{owner}.<{'init' if kind == 'initializer' else 'constructor'}>@{start}"
        else:
            qualified = ".".join(p for p in (owner, simple or ("Companion" if node.type == "companion_object" else "?"))
                                 if p)
        scope.append(owner if kind == "lambda" else qualified)
        lo, hi = bisect.bisect_right(cut_lines, start), bisect.bisect_left(cut_lines, end)
        members.append(Member(
            kind=kind, name=qualified, signature=_head(node, source), start=start, end=end,
            cuts=tuple(cut_lines[lo:hi]) if kind != "lambda" else (),
            # a local function (in a function) belongs to the function around it, like a lambda
            groups=kind not in (*_CONTAINERS, "lambda") and not (
                up >= 0 and nodes[up].type in ("function_declaration", "secondary_constructor",
                                               "anonymous_initializer", "lambda_literal")),
        ))
        if node.has_error and _has_error_node(node):
            broken.append(node)
    return tuple(members), broken, root


def _text(source: bytes, node) -> str:
    return source[node.start_byte:node.end_byte].decode("utf-8", "replace") if node is not None else ""


def _keyword(node, source: bytes) -> str:
    for child in node.children:
        if not child.is_named:
            return _text(source, child)
    return ""


def _head(node, source: bytes) -> str:
    body = next((c for c in node.named_children if c.type in ("class_body", "function_body", "block")), None)
    end = body.start_byte if body is not None else node.end_byte
    return " ".join(source[node.start_byte:min(end, node.start_byte + 4000)].decode("utf-8", "replace").split())[:300]


def _has_error_node(node) -> bool:
    """An ERROR node inside (a MISSING separator alone is the grammar's gap, not broken code)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR":
            return True
        stack.extend(c for c in n.children if c.has_error)
    return False


def _read(path: str, text: str, data: bytes):
    from dualrag.languages.kotlin.symbols import kotlin_file

    return kotlin_file(text, path)


def locate(qualified: str) -> list[str]:
    """com.acme.Foo -> com/acme/Foo.kt, then any .kt file of com/acme (Kotlin files need not be
    named after their classes; a package's top-level functions are spread over its files)."""
    parts = qualified.split(".")
    out = ["/".join([*parts[:i], parts[i] + ".kt"]) for i in range(len(parts) - 1, 0, -1)]
    out += ["/".join([*parts[:i], "*.kt"]) for i in range(len(parts), max(len(parts) - 2, 0), -1)]
    return out


PACK = LanguagePack(
    name="kotlin",
    description="Kotlin sources and Gradle Kotlin scripts",
    extensions=(".kt", ".kts"),
    shebangs=("kotlin",),
    grammar=GRAMMAR,
    members=kotlin_members,
    too_big=bracket_nesting,
    strict=False,
    symbols=SymbolReader(language="kotlin", read=_read, locate=locate, globs=("*.kt",)),
    concepts=(
        ("not-null-assertion", r"[\w)\]]!!", "not-null assertion null safety platform type"),
        ("coroutine", r"\b(?:runBlocking|GlobalScope|launch|async|suspend)\b", "coroutine scope blocking thread"),
        ("lateinit", r"\blateinit\b", "lateinit property initialisation"),
        ("secret-literal", r"(?i)(?:password|passwd|secret|token|api_?key)\w*\s*=\s*\"", "password secret credential literal"),
    ),
    rules="kotlin",
    fence="kotlin",
    member_kinds=("class", "interface", "object", "function", "method", "constructor", "initializer", "lambda"),
    containers=_CONTAINERS,
    roles=KOTLIN_ROLES,
)
