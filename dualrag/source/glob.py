"""Path patterns in .gitignore syntax, matched in linear time.

Python's `re` backtracks: a 60-byte glob such as `a*a*a*a*a*a*b` translated to a regex takes
hours on a long path. Here every pattern list becomes one Thompson NFA (all patterns at once),
run as a lazily built DFA: each path character costs one dict lookup once its state is known,
and a new state costs at most the NFA's size. Time is O(len(path) x NFA size) whatever the
patterns say; states are cached (bounded) across the thousands of paths of a diff.

Semantics follow gitignore: `!` negates (the last matching pattern wins), a pattern with no
slash but a trailing one matches at any depth, a leading or middle slash anchors it at the root,
a trailing slash matches directories only, `*` `?` `[...]` stay within one path segment, `**`
spans segments; matching a directory matches everything under it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MAX_PATTERN_CHARS = 256  # longer pattern values are refused by the configuration (config/ingest.py)
MAX_PATTERNS = 256
_MAX_CACHED_STATES = 20_000

# Edge labels: a character, or one of these classes.
_ANY = "\x00any"  # any character, '/' included (**)
_SEG = "\x00seg"  # any character but '/' (*, ?)


@dataclass(frozen=True, slots=True)
class _Class:
    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    negate: bool

    def accepts(self, c: str) -> bool:
        if c == "/":
            return False
        inside = c in self.chars or any(lo <= c <= hi for lo, hi in self.ranges)
        return inside != self.negate


class _Nfa:
    def __init__(self) -> None:
        self.edges: list[list[tuple[object, int]]] = []  # state -> (label, next)
        self.eps: list[list[int]] = []
        self.accept: dict[int, tuple[int, bool, bool]] = {}  # state -> (pattern index, include, dir_only)

    def state(self) -> int:
        self.edges.append([])
        self.eps.append([])
        return len(self.edges) - 1


def _parse_class(text: str, i: int) -> tuple[_Class, int] | None:
    """A `[...]` class starting at text[i] == '['; None when it does not close (a literal '[')."""
    j = i + 1
    negate = j < len(text) and text[j] in "!^"
    j += negate
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    first = True
    while j < len(text):
        c = text[j]
        if c == "]" and not first:
            return _Class(frozenset(chars), tuple(ranges), negate), j + 1
        if c == "\\" and j + 1 < len(text):
            j += 1
            c = text[j]
        if j + 2 < len(text) and text[j + 1] == "-" and text[j + 2] != "]":
            ranges.append((c, text[j + 2]))
            j += 3
        else:
            chars.add(c)
            j += 1
        first = False
    return None


def _add_pattern(nfa: _Nfa, start: int, line: str, index: int, fold: bool) -> None:
    text = line.rstrip("\n")
    # trailing unescaped spaces are not part of the pattern
    while text.endswith(" ") and not text.endswith("\\ "):
        text = text[:-1]
    if not text or text.startswith("#"):
        return
    include = True
    if text.startswith("!"):
        include, text = False, text[1:]
    elif text.startswith(("\\!", "\\#")):
        text = text[1:]
    if fold:
        text = text.lower()
    dir_only = text.endswith("/")
    text = text.rstrip("/")
    if not text:
        return
    anchored = "/" in text
    text = text.lstrip("/")
    cur = nfa.state()
    nfa.eps[start].append(cur)
    if not anchored:
        text = "**/" + text
    i = 0
    while i < len(text):
        at_segment_start = i == 0 or text[i - 1] == "/"
        if text.startswith("**", i) and at_segment_start and (i + 2 == len(text) or text[i + 2] == "/"):
            if i + 2 == len(text):  # trailing "/**": everything below (the "/" is already consumed)
                loop = nfa.state()
                nfa.edges[cur].append((_ANY, loop))
                nfa.edges[loop].append((_ANY, loop))
                cur = loop
                i += 2
            else:  # "**/": zero or more whole directories
                nxt = nfa.state()
                nfa.eps[cur].append(nxt)
                nfa.edges[cur].append((_ANY, cur))  # cur loops on anything ...
                nfa.edges[cur].append(("/", nxt))  # ... and leaves after a '/'
                # the loop must not be re-entered from `nxt`; give the loop its own state
                cur = nxt
                i += 3
            continue
        c = text[i]
        if c == "*":
            while i < len(text) and text[i] == "*":
                i += 1
            loop = nfa.state()
            nfa.eps[cur].append(loop)
            nfa.edges[loop].append((_SEG, loop))
            cur = loop
            continue
        nxt = nfa.state()
        if c == "?":
            nfa.edges[cur].append((_SEG, nxt))
            i += 1
        elif c == "[" and (parsed := _parse_class(text, i)) is not None:
            cls, i = parsed
            nfa.edges[cur].append((cls, nxt))
        else:
            if c == "\\" and i + 1 < len(text):
                i += 1
                c = text[i]
            nfa.edges[cur].append((c, nxt))
            i += 1
        cur = nxt
    nfa.accept[cur] = (index, include, dir_only)


class GlobSet:
    """An ordered list of gitignore patterns; `match(path)` says whether the last pattern that
    matches `path` (or one of its parent directories) includes it."""

    def __init__(self, lines: Iterable[str], *, ignore_case: bool = False) -> None:
        self._fold = ignore_case
        self._nfa = _Nfa()
        start = self._nfa.state()
        for index, line in enumerate(lines):
            _add_pattern(self._nfa, start, line, index, ignore_case)
        self.empty = not self._nfa.accept
        self._start = self._closure(frozenset({start}))
        self._next: dict[tuple[frozenset[int], str], frozenset[int]] = {}

    def _closure(self, states: frozenset[int]) -> frozenset[int]:
        seen = set(states)
        stack = list(states)
        while stack:
            for n in self._nfa.eps[stack.pop()]:
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        return frozenset(seen)

    def _step(self, states: frozenset[int], c: str) -> frozenset[int]:
        key = (states, c)
        found = self._next.get(key)
        if found is not None:
            return found
        out = set()
        for s in states:
            for label, n in self._nfa.edges[s]:
                if (label == c or label is _ANY or (label is _SEG and c != "/")
                        or (isinstance(label, _Class) and label.accepts(c))):
                    out.add(n)
        result = self._closure(frozenset(out))
        if len(self._next) > _MAX_CACHED_STATES:
            self._next.clear()
        self._next[key] = result
        return result

    def _verdict(self, states: frozenset[int], *, is_dir: bool, best: tuple[int, int, bool] | None
                 ) -> tuple[int, int, bool] | None:
        """(priority, pattern index, include) of the deciding match so far: as pathspec's
        GitIgnoreSpec, a match of the path itself (2) outranks a match of a parent folder (1);
        within one rank the last pattern wins."""
        rank = 1 if is_dir else 2
        for s in states:
            hit = self._nfa.accept.get(s)
            if hit is None or (hit[2] and not is_dir):
                continue
            if best is None or (rank, hit[0]) > best[:2]:
                best = (rank, hit[0], hit[1])
        return best

    def match(self, path: str) -> bool:
        if self.empty:
            return False
        if self._fold:
            path = path.lower()
        states = self._start
        best: tuple[int, int, bool] | None = None
        for c in path:
            if c == "/":  # the text so far names a directory that holds the path
                best = self._verdict(states, is_dir=True, best=best)
            states = self._step(states, c)
            if not states:
                break
        else:
            best = self._verdict(states, is_dir=False, best=best)
        return bool(best and best[2])
