"""How broken a piece of code is: the number of ERROR and missing nodes tree-sitter
recovers with. Comparing the count before and after an edit tells whether the edit broke the
code, also on a diff fragment whose cut edges already hold errors."""

from __future__ import annotations

from dualrag.languages.grammars import parser
from dualrag.languages.registry import pack_for
from dualrag.parsing._ts import parse


def syntax_errors(language: str, text: str) -> int | None:
    """ERROR + missing nodes of `text`, or None when the language's pack has no grammar."""
    pack = pack_for(language)
    grammar = pack.grammar if pack is not None and pack.strict else None
    if grammar is None:
        return None
    try:
        root = parse(parser(grammar), text)
    except ImportError:  # grammar wheel missing: no verdict rather than a wrong one
        return None
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count
