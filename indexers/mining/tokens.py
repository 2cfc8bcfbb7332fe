"""Regex candidates over a normalised token stream, for when the syntax tree says nothing.

Each code line of an example becomes tokens; a token keeps its spelling when it is a keyword or
names an API (a capitalised name, a called method, a member after a dot) that the example did
not declare, and becomes a class otherwise: `ID` (a made-up name), `STR`, `NUM` (unless the
rule's text names the number). A candidate is a run of tokens on one line that every violating
example has and that holds at least one kept spelling; it is rendered as a regex over the raw
line (`\\bString\\s+[A-Za-z_$][\\w$]*\\s*\\[\\s*\\]` for `String args[]`).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass

_TOKEN = re.compile(r'''"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)+'|[A-Za-z_$][\w$]*|\d[\w.]*|\.\.\.|…|::|->|==|!=|<=|>=|&&|\|\||\+\+|--|[+\-*/%&|^]=|<<|>>>?|[^\s\w]|[^\x00-\x7f]+''')
_PROSE = re.compile(r"[^\x00-\x7f]")
_LINE_COMMENT = re.compile(r"//.*$")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/")
ID, STR, NUM = "\x00ID", "\x00STR", "\x00NUM"
PLACEHOLDERS = frozenset({"foo", "bar", "baz", "qux", "method", "dosomething", "doothers", "obj", "xxx", "yyy",
                          "something", "example", "demo", "mymethod", "myclass"})
MIN_TOKENS, MAX_TOKENS = 2, 8
CLASS_BITS = 0.2


def normalise(line: str, declared: frozenset[str], words: Container[str],
              keywords: Container[str] = frozenset()) -> list[str | None]:
    """Tokens of one code line (`keywords`: the language's, kept as spelled); None breaks a run
    (prose, an ellipsis)."""
    line = _BLOCK_COMMENT.sub(" ", _LINE_COMMENT.sub("", line))
    raw = _TOKEN.findall(line)
    out: list[str | None] = []
    for i, tok in enumerate(raw):
        nxt = raw[i + 1] if i + 1 < len(raw) else ""
        prev = raw[i - 1] if i else ""
        if _PROSE.match(tok) or tok in ("...", "…"):
            out.append(None)
        elif tok[0] in "\"'":
            out.append(STR)
        elif tok[0].isdigit():
            out.append(tok if tok.rstrip("lLfFdD").lower() in words else NUM)
        elif tok[0].isalpha() or tok[0] in "_$":
            if tok in keywords:
                out.append(tok)
            elif tok in declared or tok.startswith("__") or len(tok) < 3 or tok.lower() in PLACEHOLDERS:
                out.append(ID)
            elif tok[0].isupper() or nxt == "(" or prev in (".", "::"):
                out.append(tok)
            else:
                out.append(ID)
        else:
            out.append(tok)
    return out


def ngrams(tokens: list[str | None]) -> set[tuple[str, ...]]:
    runs, current = [], []
    for tok in tokens + [None]:
        if tok is None:
            if current:
                runs.append(current)
            current = []
        else:
            current.append(tok)
    out = set()
    for run in runs:
        for n in range(MIN_TOKENS, MAX_TOKENS + 1):
            for i in range(len(run) - n + 1):
                gram = tuple(run[i:i + n])
                if any(_spelled_word(t) for t in gram):
                    out.add(gram)
    return out


def _spelled_word(tok: str) -> bool:
    return not tok.startswith("\x00") and (tok[0].isalpha() or tok[0] in "_$" or tok[0].isdigit())


def to_regex(gram: Sequence[str]) -> str:
    parts = []
    for i, tok in enumerate(gram):
        if tok == ID:
            piece = r"[A-Za-z_$][\w$]*"
        elif tok == STR:
            piece = r'"(?:[^"\\]|\\.)*"'
        elif tok == NUM:
            piece = r"\d[\w.]*"
        elif _spelled_word(tok):
            piece = re.escape(tok)
        else:
            piece = re.escape(tok)
        wordy = tok in (ID, NUM) or _spelled_word(tok)
        if i == 0:
            parts.append((r"\b" if wordy else "") + piece)
            continue
        before_wordy = gram[i - 1] in (ID, NUM) or _spelled_word(gram[i - 1])
        parts.append((r"\s+" if wordy and before_wordy else r"\s*") + piece)
    last = gram[-1]
    if last in (ID, NUM) or _spelled_word(last):
        parts.append(r"\b")
    return "".join(parts)


@dataclass
class TokenCandidate:
    gram: tuple[str, ...]
    pattern: str
    bits: float
    required: tuple[str, ...]  # spelled words a line must contain


class Difference:
    """Counts of one counter minus another's, read-only: a book's background with a held-out
    fold's examples taken out, without copying the book's counts for every fold."""

    def __init__(self, base, minus) -> None:
        self.base, self.minus = base, minus

    def __getitem__(self, key) -> int:
        return self.base[key] - self.minus[key]


class TokenBackground:
    """How often each token occurs in a book's example lines."""

    def __init__(self) -> None:
        self.counts: Counter | Difference = Counter()
        self.total = 0

    def without(self, other: TokenBackground) -> TokenBackground:
        out = TokenBackground()
        out.counts, out.total = Difference(self.counts, other.counts), self.total - other.total
        return out

    def add(self, tokens: Sequence[str | None], sign: int = 1) -> None:
        for tok in tokens:
            if tok is not None:
                self.counts[tok] += sign
                self.total += sign

    def bits(self, tok: str, words: Container[str]) -> float:
        if tok.startswith("\x00"):
            return CLASS_BITS
        base = -math.log2((self.counts[tok] + 0.5) / (self.total + 1))
        if not _spelled_word(tok):
            base = min(base, 2.0)  # punctuation says little on its own
        return base + (2.0 if tok.lower() in words else 0.0)


def code_lines(code: str) -> list[str]:
    """Lines that may hold a violation: not comments, not package or import lines."""
    return [line for line in code.splitlines() if line.strip()
            and not line.strip().startswith(("//", "/*", "*", "#", "package ", "import "))]


def token_candidates(violating: Sequence[tuple[str, frozenset[str]]], compliant: Sequence[str],
                     bg: TokenBackground, words: Container[str], limit: int,
                     keywords: Container[str] = frozenset()) -> list[TokenCandidate]:
    """Token runs every violating example has on some line, that no compliant example of the rule
    has on any line, most informative first. `violating`: (code, declared names) per example."""
    common: set[tuple[str, ...]] | None = None
    for code, declared in violating:
        grams: set[tuple[str, ...]] = set()
        for line in code_lines(code):
            grams |= ngrams(normalise(line, declared, words, keywords))
        common = grams if common is None else common & grams
        if not common:
            return []
    scored = []
    for gram in common or ():
        bits = sum(bg.bits(t, words) for t in gram)
        scored.append((bits, gram))
    scored.sort(key=lambda t: (-t[0], len(t[1]), t[1]))
    out: list[TokenCandidate] = []
    for bits, gram in scored:
        # a run inside a longer kept run adds nothing: the longer one is more specific
        if any(_inside(gram, c.gram) for c in out):
            continue
        pattern = to_regex(gram)
        rx = re.compile(pattern)
        if any(rx.search(line) for code in compliant for line in code.splitlines()):
            continue
        required = tuple(t for t in gram if _spelled_word(t) and not t[0].isdigit())
        out.append(TokenCandidate(gram, pattern, bits, required))
        if len(out) >= limit:
            break
    return out


def _inside(small: tuple[str, ...], big: tuple[str, ...]) -> bool:
    n = len(small)
    return n < len(big) and any(big[i:i + n] == small for i in range(len(big) - n + 1))
