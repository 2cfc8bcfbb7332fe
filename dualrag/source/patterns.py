"""Path patterns in .gitignore syntax, matched many thousand times per diff.

pathspec compiles each pattern to its own regex and tries them one by one; for lists
without negations ("!pattern") one combined regex gives the same answers in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pathspec


class PathPatterns:
    def __init__(self, lines: Iterable[str], *, ignore_case: bool = False):
        self._fold = ignore_case
        spec = pathspec.GitIgnoreSpec.from_lines([ln.lower() if ignore_case else ln for ln in lines])
        active = [p for p in spec.patterns if p.include is not None]
        self._spec = spec
        self._combined: re.Pattern[str] | None = None
        if active and all(p.include for p in active):
            # pathspec marks a directory match with the group "ps_d"; a prefix match of it
            # already means "inside that directory", so the group name is not needed.
            parts = (p.regex.pattern.replace("(?P<ps_d>", "(") for p in active)
            self._combined = re.compile("|".join(f"(?:{part})" for part in parts))
        self._empty = not active

    def match(self, path: str) -> bool:
        if self._empty:
            return False
        if self._fold:
            path = path.lower()
        if self._combined is not None:
            return self._combined.match(path) is not None
        return self._spec.match_file(path)
