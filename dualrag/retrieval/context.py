"""A chunk's Context: the rules and the code a reviewer gets with it, pruned and packed.

Retrieval is built for recall; this step is built for precision. Candidates are reranked
by the cross-encoder and those under its calibrated threshold are dropped. Without a model
folder they keep their fused-retrieval order, and rules whose relevance (rules.relevance,
comparable across queries) is under the calibrated floor are dropped instead: retrieval always
has a first hit, and five loosely related rules in every prompt distract a small model more
than no rule at all. The rest are packed most relevant first into the token budget the chunk
leaves free — whole items only, never half a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dualrag.rerank import Reranker
from dualrag.units import RuleUnit


@dataclass(frozen=True)
class ContextRule:
    rule_id: str
    title: str
    text: str  # what the prompt shows: title, text and examples
    level: str | None
    severity: str
    kb: str
    source: str  # file (and page) the rule comes from
    score: float  # reranker score in [0, 1], or the fused retrieval score when not reranked
    tokens: int

    @classmethod
    def of(cls, unit: RuleUnit, score: float, tokens: int, severity: str | None = None) -> ContextRule:
        """`severity`: the team's reading of the rule (`RulesConfig.severity`); default: the rule's own."""
        page = f" p.{unit.source.page}" if unit.source.page else ""
        page += f" ({unit.source.anchor})" if unit.source.anchor else ""
        return cls(
            rule_id=unit.rule_id, title=unit.title, text=unit.full_text(), level=unit.level,
            severity=severity or str(unit.severity or "major"), kb=unit.source.kb, source=f"{unit.source.file}{page}",
            score=round(float(score), 4), tokens=tokens,
        )


@dataclass(frozen=True)
class ContextCode:
    """A piece of code the change depends on or affects (definitions, callers, config)."""

    relation: str  # definition | caller | override | config | edi-reference
    symbol: str  # qualified name
    path: str
    start_line: int
    end_line: int
    text: str
    score: float
    tokens: int


@dataclass(frozen=True)
class Pruned:
    """A retrieved candidate that did not reach the prompt, and why (for the reports)."""

    kind: str  # rule | code
    label: str  # rule id and title, or relation and symbol
    score: float  # what it was judged on: the reranker score, else the fused retrieval score
    reason: str  # floor | threshold | cap | budget


def _pruned(candidate: Candidate, score: float, reason: str) -> Pruned:
    item = candidate.build(score, 0)
    label = f"{item.rule_id} {item.title}" if isinstance(item, ContextRule) else f"{item.relation} {item.symbol}"
    return Pruned(kind=candidate.kind, label=label, score=round(float(score), 4), reason=reason)


@dataclass(frozen=True)
class Context:
    chunk_id: str
    rules: tuple[ContextRule, ...] = ()
    code: tuple[ContextCode, ...] = ()
    reranked: bool = False
    budget: int = 0  # tokens that were free for context
    used: int = 0
    dropped: int = 0  # candidates under the threshold (or the floor) or beyond the budget
    threshold: float | None = None  # the pruning threshold applied to reranker scores
    floor: float | None = None  # the relevance floor applied to rules instead, when nothing reranked
    notes: tuple[str, ...] = field(default_factory=tuple)
    pruned: tuple[Pruned, ...] = ()  # the `dropped` candidates, each with its reason


@dataclass(frozen=True)
class Candidate:
    """A retrieved item before pruning: its text for the cross-encoder, and how it became a context item."""

    kind: str  # "rule" or "code": each kind has its own cap
    text: str
    fused_score: float
    build: Callable[[float, int], ContextRule | ContextCode]
    relevance: float | None = None  # comparable across queries (rules.relevance); None = never floored


def assemble(
    chunk_id: str,
    query: str,
    candidates: Sequence[Candidate],
    *,
    reranker: Reranker,
    count_tokens: Callable[[str], int],
    budget: int,
    threshold: float | None,
    caps: dict[str, int],
    floor: float | None = None,
) -> Context:
    """Rerank, prune and pack one chunk's candidates (rules and code together).

    `threshold` applies to cross-encoder scores, `floor` to retrieval relevance when there is no
    cross-encoder; each is meaningless on the other's scale, so exactly one of them is in force."""
    notes: list[str] = []
    total = len(candidates)
    if not candidates:
        return Context(chunk_id=chunk_id, reranked=reranker.available, budget=budget)
    pruned: list[Pruned] = []
    if not reranker.available:
        notes.append(reranker.reason)
        threshold = None
        before = candidates
        candidates, floored = clearing_floor(candidates, floor)
        if floored:
            notes.append(f"relevance floor {floor:g}: {floored} rule candidate(s) dropped")
            kept_ids = {id(c) for c in candidates}
            pruned += [_pruned(c, c.relevance if c.relevance is not None else c.fused_score, "floor")
                       for c in before if id(c) not in kept_ids]
    else:
        floor = None
    if not candidates:
        return Context(chunk_id=chunk_id, reranked=reranker.available, budget=budget, dropped=total,
                       floor=floor, notes=tuple(notes), pruned=tuple(pruned))
    order = reranker.rerank(
        query, [c.text for c in candidates], threshold=threshold,
        fallback_scores=[c.fused_score for c in candidates],
    )
    rules: list[ContextRule] = []
    code: list[ContextCode] = []
    used = 0
    taken: dict[str, int] = {}
    ranked = {index for index, _ in order}
    pruned += [_pruned(c, c.fused_score, "threshold") for i, c in enumerate(candidates) if i not in ranked]
    for index, score in order:
        candidate = candidates[index]
        if taken.get(candidate.kind, 0) >= caps.get(candidate.kind, 0):
            pruned.append(_pruned(candidate, score, "cap"))
            continue
        tokens = count_tokens(candidate.text)
        if used + tokens > budget:
            pruned.append(_pruned(candidate, score, "budget"))
            continue  # a smaller, less relevant item may still fit; never cut one in half
        item = candidate.build(score, tokens)
        (rules if isinstance(item, ContextRule) else code).append(item)
        used += tokens
        taken[candidate.kind] = taken.get(candidate.kind, 0) + 1
    kept = sum(taken.values())
    return Context(
        chunk_id=chunk_id, rules=tuple(rules), code=tuple(code), reranked=reranker.available,
        budget=budget, used=used, dropped=total - kept, threshold=threshold, floor=floor, notes=tuple(notes),
        pruned=tuple(pruned),
    )


def clearing_floor(candidates: Sequence[Candidate], floor: float | None) -> tuple[list[Candidate], int]:
    """The candidates that clear the floor (those without a relevance always do), and how many did not."""
    if not floor:
        return list(candidates), 0
    kept = [c for c in candidates if c.relevance is None or c.relevance >= floor]
    return kept, len(candidates) - len(kept)
