"""Rule queries from code: the code itself first, other readings of it on top.

Single-RAG reviewers that asked an LLM to summarise the diff and searched with the
summary missed rules whenever the summary drifted. Here the query is the code, read in two
plain ways that every knowledge base gets at full weight (rules.py):

- the code for the dense embedder (identifiers split into words, whitespace collapsed, cut into
  windows it can read);
- the code as written for BM25, which splits identifiers the same way it does in the rules.

Further readings are built too and searched only where `RuleChannels` switches them on, each kept
on by default only when it raised recall on rule books it was not designed on
(evaluation/retrieval/rules.py, leave one book out): the common names of the constructs the code shows
(concepts.py), a bag of code words (called APIs, types, identifiers), the grammar's names for
its constructs (grammar_words.py), and, with a model, a few lines of rule language the model
wrote for the code (review/rule_query.py, handed in by the pipeline).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from dualrag.embedding.sparse import split_identifier
from dualrag.retrieval.concepts import matching_terms
from dualrag.retrieval.grammar_words import grammar_words

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
RAW_CHARS = WINDOW_CHARS * MAX_WINDOWS  # what BM25 and the grammar read of one change


@dataclass(frozen=True)
class RuleQuery:
    """What the rule retriever searches with for one piece of code."""

    code: tuple[str, ...]  # windows of the changed code, for the dense embedder
    raw: str = ""  # the code as written, for BM25
    concept_text: str = ""  # common names of the constructs the code shows (concepts.py; "" = none)
    code_words: str = ""  # called APIs, types, identifiers split into words (a BM25 bag)
    grammar: str = ""  # the grammar's names for the constructs (grammar_words.py)
    model: str = ""  # rule language the model wrote for the code ("" = no model query)
    concepts: tuple[str, ...] = ()
    project_type: str | None = None
    languages: tuple[str, ...] = ()  # the rules searched (a filter; empty = every language)
    language: str = ""  # what the code is written in (the centred channel reads it from its language's mean)
    domains: tuple[str, ...] = field(default_factory=tuple)


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
    return RuleQuery(
        code=code_windows(code, limit=windows),
        raw=code[:RAW_CHARS],
        concept_text="; ".join(terms for _, terms in found),
        code_words=code_words(code),
        grammar=grammar_words(code[:RAW_CHARS], language),
        concepts=tuple(name for name, _ in found),
        project_type=project_type,
        languages=(language,),
        language=language,
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
