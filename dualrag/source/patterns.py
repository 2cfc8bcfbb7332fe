"""Path patterns in .gitignore syntax, matched many thousand times per diff.

Patterns come from configuration (`[noise]`, `[tier]`), so they are matched by the linear-time
matcher of `source.glob` (one automaton for the whole list), never by a backtracking regex: a
pattern cannot make a review run for hours.
"""

from __future__ import annotations

from collections.abc import Iterable

from dualrag.source.glob import GlobSet


class PathPatterns:
    def __init__(self, lines: Iterable[str], *, ignore_case: bool = False):
        self._set = GlobSet(list(lines), ignore_case=ignore_case)

    def match(self, path: str) -> bool:
        return self._set.match(path)
