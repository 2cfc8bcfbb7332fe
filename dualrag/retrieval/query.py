"""Deterministic rule queries from code: no LLM summary in between.

Single-RAG reviewers that asked an LLM to summarise the diff and searched with the
summary missed rules whenever the summary drifted. Here the query is a function of the
code alone: the code itself for the dense side, and for the sparse side the called APIs,
types, identifiers split into words, literal shapes and the guideline vocabulary of
the constructs the code shows (see concepts.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dualrag.embedding.sparse import split_identifier
from dualrag.retrieval.concepts import matching_terms

_CALL = re.compile(r"\b((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s*\(")
_NEW = re.compile(r"\bnew\s+([A-Z]\w*)")
_TYPE = re.compile(r"\b([A-Z][a-z]+[A-Za-z0-9]*)\b")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_KEYWORDS = frozenset(
    "if else for while do switch case default return try catch finally throw throws new class "
    "interface enum record extends implements static final synchronized volatile transient abstract "
    "public private protected void int long double float boolean char byte short package import this "
    "super null true false instanceof var".split()
)
_CONTROL_WORDS = frozenset({"finally", "synchronized", "volatile", "switch", "catch", "throw", "abstract", "enum"})
_MAX_DENSE_CHARS = 1500


@dataclass(frozen=True)
class RuleQuery:
    """What the rule retriever searches with for one piece of code."""

    dense: tuple[str, ...]  # texts for the dense embedder
    sparse: str  # one bag of words for BM25
    concepts: tuple[str, ...] = ()
    project_type: str | None = None
    languages: tuple[str, ...] = ()
    domains: tuple[str, ...] = field(default_factory=tuple)


def build_rule_query(
    code: str,
    *,
    language: str = "java",
    project_type: str | None = None,
    domains: tuple[str, ...] = (),
    context: str = "",
) -> RuleQuery:
    """`code` is what changed (or a snippet); `context` the enclosing member, if known."""
    whole = f"{context}\n{code}" if context else code
    concepts = matching_terms(whole, language)
    calls = _unique(m for m in _CALL.findall(code) if m.split(".")[-1] not in _KEYWORDS)
    types = _unique(_NEW.findall(code) + _TYPE.findall(code))
    words = _unique(
        w for ident in _IDENT.findall(code) if ident not in _KEYWORDS for w in split_identifier(ident) if len(w) > 1
    )
    control = _unique(w for w in _IDENT.findall(code) if w in _CONTROL_WORDS)
    comments = _unique(_CJK_RUN.findall(code))
    sparse_parts = [
        " ".join(terms for _, terms in concepts),
        " ".join(calls),
        " ".join(types),
        " ".join(control),
        " ".join(words),
        " ".join(comments),
    ]
    # The embedder was trained on prose and rule documents are prose: it reads the guideline
    # vocabulary of the code's constructs. Raw code only when no construct was recognised —
    # code-to-prose similarity is weak (scripts/eval_rules.py: recall@5 0.58 from raw code,
    # 0.77 from the vocabulary, on the dev guideline).
    concept_text = "; ".join(terms for _, terms in concepts)
    dense = [concept_text] if concept_text else [code.strip()[:_MAX_DENSE_CHARS]]
    return RuleQuery(
        dense=tuple(dense),
        sparse=" ".join(p for p in sparse_parts if p),
        concepts=tuple(name for name, _ in concepts),
        project_type=project_type,
        languages=(language,),
        domains=tuple(domains),
    )


def _unique(items) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)
