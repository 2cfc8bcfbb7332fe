"""Scoped queries: a tree-sitter query whose match must also meet what a query cannot say.

    rows = match_rows(query, QueryScope(inside=["finally_clause"]), "java", root)

- `inside`: the `@violation` node sits in a node of one of these types at any depth (a query can
  only say "the parent is", not "somewhere in a finally block" or "anywhere in a method");
- `receiver_types`: the `@receiver` capture of the same match is a name declared in the fragment
  with one of these types — a local variable, field or parameter (`SimpleDateFormat f = ...;
  f.format(d)`) — or is the type's own name (a static call, `Arrays.fill(...)`);
- `absent`: none of these words is in the code around the `@violation` node (`around`: the
  function it sits in, else the whole fragment), outside comments — a call with no null check,
  no `close`, no scheduler near it.

What a declaration looks like is the language pack's (`GrammarRoles.typed`); the fragment is all
there is (a review sees hunks), so a name declared twice with two types has both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dualrag import languages
from dualrag.units import QueryScope

_GENERIC = re.compile(r"<.*>|\[.*\]|\?")


def match_rows(query, scope: QueryScope | None, language: str, root) -> list[int]:
    """0-based rows where the `@violation` captures of the query's matches that meet `scope` start."""
    from tree_sitter import QueryCursor

    rows: set[int] = set()
    declared: dict[str, set[str]] | None = None
    for _, captures in QueryCursor(query).matches(root):
        found = captures.get("violation", [])
        if not found:
            continue
        if scope is not None and scope.receiver_types:
            if declared is None:
                declared = declared_types(language, root)
            if not any(receiver_fits(node, scope.receiver_types, declared) for node in captures.get("receiver", [])):
                continue
        rows.update(n.start_point.row for n in found if scope is None or
                    (inside(n, scope.inside) and not (scope.absent and guarded(n, scope.absent, language))))
    return sorted(rows)


def guarded(node, absent: Iterable[str], language: str) -> bool:
    """Whether one of the `absent` words is in the code around the node."""
    pack = languages.pack_for(language)
    functions = pack.roles.functions if pack is not None and pack.roles is not None else frozenset()
    return not set(absent).isdisjoint(words_around(node, functions))


def around(node, functions: Iterable[str]):
    """The function a node sits in, else the root of its fragment."""
    wanted = set(functions)
    current = node
    while current.parent is not None and current.type not in wanted:
        current = current.parent
    return current


def words_around(node, functions: Iterable[str]) -> frozenset[str]:
    """The words (names, keywords, operators) of the code around a node, outside comments."""
    top = around(node, functions)
    key = (top.id, top.start_byte, top.end_byte, top.text or b"")
    found = _AROUND.get(key)
    if found is None:
        if len(_AROUND) >= _DECLARED_MAX:
            _AROUND.clear()
        found = _AROUND[key] = _leaf_words(top)
    return found


def _leaf_words(top) -> frozenset[str]:
    out: set[str] = set()
    stack = [top]
    while stack:
        n = stack.pop()
        if "comment" in n.type or "string" in n.type:
            continue  # what a message or a note says guards nothing
        if n.child_count == 0:
            out.update(_WORD.findall(_text(n)))
        stack.extend(n.children)
    return frozenset(out)


def inside(node, types: Iterable[str]) -> bool:
    """Whether a node sits in a node of one of `types` (any depth; True when none is asked)."""
    wanted = set(types)
    if not wanted:
        return True
    current = node.parent
    while current is not None:
        if current.type in wanted:
            return True
        current = current.parent
    return False


def receiver_fits(node, types: Iterable[str], declared: dict[str, set[str]]) -> bool:
    name = _text(node)
    wanted = set(types)
    return name in wanted or bool(declared.get(name, set()) & wanted)


def type_name(text: str) -> str:
    """The simple name of a written type: `java.util.List<String>` -> List, `Foo?` -> Foo, `int[]` -> int."""
    base = _GENERIC.sub("", text).strip()
    return re.split(r"[.\s]", base)[-1] if base else ""


_DECLARED: dict[tuple[str, bytes], dict[str, set[str]]] = {}  # a cache: the same text declares the same
_DECLARED_MAX = 4096
_AROUND: dict[tuple, frozenset[str]] = {}  # a cache: each match of each query asks again
_WORD = re.compile(r"[A-Za-z_$][\w$]*")


def declared_types(language: str, root) -> dict[str, set[str]]:
    """Every name the fragment declares with a type: name -> simple type names (read-only: one
    reading per fragment text, as each match of each query asks again)."""
    key = (language, root.text or b"")
    found = _DECLARED.get(key)
    if found is None:
        if len(_DECLARED) >= _DECLARED_MAX:
            _DECLARED.clear()
        found = _DECLARED[key] = _read_declared(language, root)
    return found


def _read_declared(language: str, root) -> dict[str, set[str]]:
    pack = languages.pack_for(language)
    roles = pack.roles if pack is not None else None
    if roles is None or not roles.typed:
        return {}
    specs: dict[str, list[tuple[str, str]]] = {}
    for node_type, type_at, name_at in roles.typed:
        specs.setdefault(node_type, []).append((type_at, name_at))
    out: dict[str, set[str]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        for type_at, name_at in specs.get(node.type, ()):
            # a type's name is capitalised (`x = make()` does not make `x` a `make`; primitives have no calls)
            types = {n for t in locate(node, type_at) if (n := type_name(_text(t)))[:1].isupper()}
            if not types:
                continue
            for name in locate(node, name_at):
                if name.type in roles.identifiers:
                    out.setdefault(_text(name), set()).update(types)
    return out


def locate(node, place: str) -> list:
    """The nodes at a `/`-path of fields or node types below `node` (every match of each step)."""
    current = [node]
    for step in place.split("/"):
        nxt = []
        for n in current:
            by_field = n.children_by_field_name(step)
            nxt += by_field if by_field else [c for c in n.named_children if c.type == step]
        current = nxt
    return current


def _text(node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""
