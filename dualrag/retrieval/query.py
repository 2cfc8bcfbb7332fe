"""Deterministic rule queries from code: no LLM summary in between.

Single-RAG reviewers that asked an LLM to summarise the diff and searched with the
summary missed rules whenever the summary drifted. Here the query is a function of the
code alone, read three ways, each searched on its own and fused (rules.py):

- the code itself, for the dense embedder (identifiers split into words, whitespace collapsed,
  cut into windows it can read);
- the common names of the constructs the code shows (concepts.py), for the dense embedder:
  rule documents are prose, and "finally block" is closer to a rule's prose than `finally {`;
- one bag of words for BM25: those construct names, called APIs, types, identifiers split
  into words, control keywords and Chinese comments — the code words a rule's text and
  examples share with the code (`SimpleDateFormat`, `Executors`, `finally`, `equals`).

The code is always searched, construct names or not: a query of construct names alone found
the rules the names were written for and missed the rest (scripts/eval_rules.py --split).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from dualrag.embedding.sparse import split_identifier
from dualrag.retrieval.concepts import matching_terms

_CALL = re.compile(r"\b((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s*\(")
_NEW = re.compile(r"\bnew\s+([A-Z]\w*)")
_TYPE = re.compile(r"\b([A-Z][a-z]+[A-Za-z0-9]*)\b")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")  # camelCase, acronyms, digits
_KEYWORDS = frozenset(
    "if else for while do switch case default return try catch finally throw throws new class "
    "interface enum record extends implements static final synchronized volatile transient abstract "
    "public private protected void int long double float boolean char byte short package import this "
    "super null true false instanceof var".split()
)
_CONTROL_WORDS = frozenset({"finally", "synchronized", "volatile", "switch", "catch", "throw", "abstract", "enum"})
WINDOW_CHARS = 1500  # ~500 e5 tokens of code: what the embedder reads of one text
MAX_WINDOWS = 4  # a long change is searched in at most this many pieces


@dataclass(frozen=True)
class RuleQuery:
    """What the rule retriever searches with for one piece of code."""

    code: tuple[str, ...]  # windows of the changed code, for the dense embedder
    concept_text: str  # common names of the constructs the code shows, for the dense embedder ("" = none)
    sparse: str  # one bag of words for BM25
    concepts: tuple[str, ...] = ()
    project_type: str | None = None
    languages: tuple[str, ...] = ()
    domains: tuple[str, ...] = field(default_factory=tuple)

    @property
    def dense(self) -> tuple[str, ...]:
        """Every text the dense embedder reads: the construct names, then the code windows."""
        return tuple(t for t in (self.concept_text, *self.code) if t)


def build_rule_query(
    code: str,
    *,
    language: str = "java",
    project_type: str | None = None,
    domains: tuple[str, ...] = (),
    concepts: bool = True,
    windows: int = MAX_WINDOWS,
) -> RuleQuery:
    """`code` is what changed (or a snippet), nothing around it (stage.chunk_queries says why).
    `concepts=False` leaves the construct vocabulary out: the generalisation baseline. `windows`:
    how many pieces of the code are searched (each is one embedding)."""
    found = matching_terms(code, language) if concepts else []
    concept_text = "; ".join(terms for _, terms in found)
    return RuleQuery(
        code=code_windows(code, limit=windows),
        concept_text=concept_text,
        sparse=" ".join(p for p in (concept_text.replace(";", ""), code_words(code)) if p),
        concepts=tuple(name for name, _ in found),
        project_type=project_type,
        languages=(language,),
        domains=tuple(domains),
    )


def code_words(code: str) -> str:
    """The BM25 side of the code: called APIs, types, control keywords, identifiers split into
    words, Chinese comment runs. BM25's IDF over the knowledge base weighs them: `SimpleDateFormat`
    counts, `test` hardly does."""
    idents = _IDENT.findall(code)
    calls = (m for m in _CALL.findall(code) if m.split(".")[-1] not in _KEYWORDS)
    types = _NEW.findall(code) + _TYPE.findall(code)
    control = (w for w in idents if w in _CONTROL_WORDS)
    words = (w for ident in idents if ident not in _KEYWORDS for w in split_identifier(ident) if len(w) > 1)
    comments = _CJK_RUN.findall(code)
    parts = (" ".join(_unique(part)) for part in (calls, types, control, words, comments))
    return " ".join(p for p in parts if p)


def code_windows(code: str, *, size: int = WINDOW_CHARS, limit: int = MAX_WINDOWS) -> tuple[str, ...]:
    """The code as the embedder reads it best: identifiers as words (`newFixedThreadPool` ->
    `new fixed thread pool`, the words a rule's prose uses), indentation and blank lines dropped,
    cut at line ends into pieces it reads whole (it truncates a long text; a long change would
    lose all but its start)."""
    lines = [_IDENT.sub(_words, line).strip() for line in code.splitlines() if line.strip()]
    windows: list[str] = []
    current: list[str] = []
    length = 0
    for line in lines:
        if current and length + len(line) + 1 > size:
            windows.append("\n".join(current))
            current, length = [], 0
        current.append(line[:size])
        length += len(line[:size]) + 1
    if current:
        windows.append("\n".join(current))
    return tuple(windows[:limit])


def _words(match: re.Match[str]) -> str:
    words = _WORD.findall(match.group())
    return " ".join(w.lower() for w in words) if words else match.group()


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
