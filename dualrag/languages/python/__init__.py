"""Python: tree-sitter-python; classes are containers, functions and methods members (a decorated
definition starts at its first decorator; a function nested in a function belongs to the outer
one), statement starts inside them the cut points. Rules and
detectors in `knowledge/python/` (eval/exec, pickle, shell=True, yaml.load, hard-coded secrets). The
code index reads modules, classes, functions and calls (`symbols.py`)."""

from __future__ import annotations

import bisect
from functools import lru_cache

from dualrag.languages.pack import Grammar, LanguagePack, SymbolReader, bracket_nesting
from dualrag.languages.python.roles import PYTHON_ROLES

GRAMMAR = Grammar("python", "tree_sitter_python")
_QUERY = """
[(function_definition) (class_definition)] @member
(block) @holder
"""


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    from dualrag.languages.grammars import language

    return Query(language(GRAMMAR), _QUERY)


def python_members(text: str, *, fallback_type: str = ""):
    """Members in source order, members holding a syntax error, the root."""
    from tree_sitter import QueryCursor

    from dualrag.languages.grammars import parser
    from dualrag.parsing.model import Member
    from dualrag.parsing.nesting import containers, in_source_order

    root = parser(GRAMMAR).parse(text.encode("utf-8", "replace")).root_node
    captures = QueryCursor(_query()).captures(root)
    cut_lines = sorted({c.start_point.row + 1 for h in captures.get("holder", ()) for c in h.named_children})
    nodes = in_source_order(captures.get("member", ()))
    scope: list[str] = []
    members, broken = [], []
    for node, up in zip(nodes, containers(nodes)):
        outer = scope[up] if up >= 0 else fallback_type
        name_node = node.child_by_field_name("name")
        simple = name_node.text.decode("utf-8", "replace") if name_node is not None and name_node.text else "?"
        is_class = node.type == "class_definition"
        inside_class = up >= 0 and nodes[up].type == "class_definition"
        qualified = f"{outer}.{simple}" if outer else simple
        scope.append(qualified)
        # a decorated definition starts at its first decorator
        outer_node = node.parent if node.parent is not None and node.parent.type == "decorated_definition" else node
        start, end = outer_node.start_point.row + 1, node.end_point.row + 1
        lo, hi = bisect.bisect_right(cut_lines, start), bisect.bisect_left(cut_lines, end)
        body = node.child_by_field_name("body")
        head_end = body.start_byte if body is not None else node.end_byte
        head = " ".join((root.text or b"")[node.start_byte:min(head_end, node.start_byte + 4000)]
                        .decode("utf-8", "replace").split()).rstrip(":")[:300]
        members.append(Member(
            kind="class" if is_class else ("method" if inside_class else "function"), name=qualified,
            signature=head, start=start, end=end, cuts=tuple(cut_lines[lo:hi]),
            # a function defined inside a function is part of it (like a lambda): hunks group by the outer one
            groups=not is_class and not (up >= 0 and nodes[up].type == "function_definition"),
        ))
        if node.has_error:
            broken.append(node)
    return tuple(members), broken, root


def _read(path: str, text: str, data: bytes):
    from dualrag.languages.python.symbols import python_file

    return python_file(text, path)


def locate(qualified: str) -> list[str]:
    """acme.orders.Order -> acme/orders/Order.py, acme/orders.py, acme/orders/__init__.py, ..."""
    parts = qualified.split(".")
    out = []
    for i in range(len(parts), 0, -1):
        out += ["/".join(parts[:i]) + ".py", "/".join([*parts[:i], "__init__.py"])]
    return out


PACK = LanguagePack(
    name="python",
    description="Python sources and scripts",
    extensions=(".py", ".pyi"),
    shebangs=("python",),
    grammar=GRAMMAR,
    members=python_members,
    too_big=bracket_nesting,
    symbols=SymbolReader(language="python", read=_read, locate=locate, globs=("*.py",)),
    concepts=(
        ("dynamic-code", r"(?<![\w.])(?:eval|exec|compile)\s*\(", "dynamic code evaluation eval exec"),
        ("deserialization", r"\b(?:pickle|cPickle|dill|marshal|shelve)\.", "deserialization pickle untrusted data"),
        ("process", r"\bsubprocess\.|\bos\.(?:system|popen)\s*\(", "shell command process subprocess"),
        ("yaml", r"\byaml\.", "YAML loader parsing"),
        ("secret-literal", r"(?i)(?:password|passwd|secret|token|api_?key)\w*\s*=\s*['\"]", "password secret credential literal"),
        ("sql", r"(?i)['\"]\s*(?:select|update|delete|insert)\b", "SQL statement query"),
        ("exception", r"\bexcept\b", "exception handling except"),
        ("file-path", r"\bopen\s*\(|\bos\.path\.|\bPath\s*\(", "file path"),
    ),
    rules="python",
    fence="python",
    member_kinds=("class", "function", "method"),
    containers=("class",),
    roles=PYTHON_ROLES,
)
