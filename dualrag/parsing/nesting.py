"""Which captured node contains which, in one pass.

Walking `Node.parent` up from every member costs O(depth) steps, and py-tree-sitter computes
each `parent` by descending from the root again (O(depth) itself): 3,000 nested lambdas took
minutes. Captured nodes sorted by (start, -end) nest like brackets, so a stack gives every
node its innermost captured container in one linear pass.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tree_sitter import Node


def in_source_order(nodes: Sequence[Node]) -> list[Node]:
    """The nodes sorted outermost first at each start, the same node captured twice kept once."""
    seen: set[tuple[int, int, str]] = set()
    out = []
    for node in sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte)):
        key = (node.start_byte, node.end_byte, node.type)
        if key not in seen:
            seen.add(key)
            out.append(node)
    return out


def containers(nodes: Sequence[Node]) -> list[int]:
    """For nodes in source order (`in_source_order`): the index of each node's innermost
    container among them, -1 for none."""
    out: list[int] = []
    stack: list[int] = []
    ends = [n.end_byte for n in nodes]
    starts = [n.start_byte for n in nodes]
    for i in range(len(nodes)):
        # a node ends inside its container: pop the ones that closed before it or do not hold it
        while stack and (ends[stack[-1]] <= starts[i] or ends[stack[-1]] < ends[i]):
            stack.pop()
        out.append(stack[-1] if stack else -1)
        stack.append(i)
    return out


# tree-sitter's query cursor costs nesting depth squared: 3,000 nested lambdas 0.3 s, 12,000 5 s.
MAX_CODE_DEPTH = 5_000
_BRACKETS = re.compile(r"[{}()]")


def too_deep(text: str, limit: int = MAX_CODE_DEPTH) -> str | None:
    """Bracket nesting past `limit` (brackets in strings and comments counted too: a cap,
    not a parse)."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(text):
        depth += 1 if m.group() in "{(" else -1
        deepest = max(deepest, depth)
        if deepest > limit:
            return f"brackets nest deeper than {limit:,}"
    return None
