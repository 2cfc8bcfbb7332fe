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

from dualrag.languages import GrammarWords, pack_for, parser
from dualrag.parsing._ts import parse, walk

_PLACEABLE = ("statement", "expression", "clause", "declaration", "initializer")
_MAX_WORDS = 120
_MAX_CHARS = 20_000


def _name(node_type: str) -> str:
    return node_type.replace("_", " ")


def grammar_words(code: str, language: str = "java") -> str:
    """One line of construct names for the code, most specific first; "" when the grammar says
    nothing (a language whose pack has no vocabulary, or nothing but everyday shapes)."""
    pack = pack_for(language)
    words = pack.grammar_words if pack is not None and pack.grammar is not None else None
    if words is None or not code.strip():
        return ""
    return _construct_names(code, language, words)


@lru_cache(maxsize=4096)  # keyed by the vocabulary too: a pack registered later is not served stale
def _construct_names(code: str, language: str, words: GrammarWords) -> str:
    common, places_of, placed = words.common, words.places, words.placed
    root = _parsed(language, words, code[:_MAX_CHARS])
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
        if kind not in common:
            names.setdefault(_name(kind), None)
        if place is not None and (kind not in common or kind in placed) and kind.endswith(_PLACEABLE):
            names.setdefault(f"{_name(kind)} in {_name(place[2])}", None)
        if kind in places_of:
            places.append((start, end, kind))
        if len(names) >= _MAX_WORDS:
            break
    return "; ".join(names)


def _parsed(language: str, words: GrammarWords, code: str):
    """The snippet as written, or wrapped (in a class and a method, for Java) when that parses with
    fewer errors (rule examples are often bare statements)."""
    root = parse(parser(language), code)
    if not root.has_error or words.wrap == "{code}":
        return root
    wrapped = parse(parser(language), words.wrap.format(code=code))
    return wrapped if _errors(wrapped) < _errors(root) else root


def _errors(root) -> int:
    return sum(1 for n in walk(root, lambda n: n.has_error) if n.type == "ERROR" or n.is_missing)
