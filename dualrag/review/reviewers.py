"""The specialist reviewers and how they are chosen (risk tier × project type).

| tier    | reviewers                                                                   |
|---------|-----------------------------------------------------------------------------|
| trivial | general (one reviewer covering correctness, security and rules)             |
| lite    | quality, rules (+ edi on an EDI change)                                     |
| full    | quality, security, performance, rules, documentation (+ edi on EDI changes) |

Each reviewer has one prompt file in `dualrag/prompts/` (`<name>.md`), after `shared.md`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Reviewer:
    name: str  # also the prompt file name and the key in [llm.reviewers]
    title: str
    categories: tuple[str, ...]  # categories it is the authority on (dedup keeps its finding)
    project_types: tuple[str, ...] = ()  # empty = every project type
    cites_rules: bool = False  # its findings must cite a retrieved rule id


REVIEWERS: dict[str, Reviewer] = {
    r.name: r
    for r in (
        Reviewer("general", "general reviewer", ("correctness", "security", "rule")),
        Reviewer("quality", "code quality reviewer", ("correctness", "maintainability", "reliability")),
        Reviewer("security", "security reviewer", ("security",)),
        Reviewer("performance", "performance reviewer", ("performance",)),
        Reviewer("rules", "rule compliance reviewer", ("rule",), cites_rules=True),
        Reviewer("edi", "EDI compliance reviewer", ("edi",), project_types=("edi",)),
        Reviewer("docs", "documentation reviewer", ("documentation",)),
    )
}

TIERS: dict[str, tuple[str, ...]] = {
    "trivial": ("general",),
    "lite": ("quality", "rules", "edi"),
    "full": ("quality", "security", "performance", "rules", "edi", "docs"),
}


def select_reviewers(risk_tier: str, project_type: str, *, only: Sequence[str] | None = None) -> list[Reviewer]:
    """The reviewers a change gets; `only` (names) overrides the tier table."""
    names = list(only) if only else list(TIERS.get(str(risk_tier), TIERS["full"]))
    unknown = [n for n in names if n not in REVIEWERS]
    if unknown:
        raise ValueError(f"unknown reviewer(s) {', '.join(unknown)} (known: {', '.join(REVIEWERS)})")
    chosen = [REVIEWERS[n] for n in names]
    return [r for r in chosen if not r.project_types or str(project_type) in r.project_types]
