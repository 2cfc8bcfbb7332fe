"""The reviewers and how they are chosen: risk tier × the change's languages.

| tier    | reviewers                                                                      |
|---------|--------------------------------------------------------------------------------|
| trivial | general (one reviewer covering correctness, security and rules)                |
| lite    | quality, rules (+ the specialists of the change's languages)                   |
| full    | quality, security, performance, rules, documentation (+ the same specialists) |

The core reviewers are here; a specialist comes from a language pack (`LanguagePack.reviewers`):
an EDI flow brings the EDI reviewer, a MyBatis mapper or an SQL migration the SQL reviewer, a
third-party pack its own. Each reviewer's specialty is a Markdown prompt after `shared.md`: its
`<name>.md` in `dualrag/prompts/`, or the file a third-party pack ships.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dualrag import languages
from dualrag._bundled import prompt as packaged_prompt


@dataclass(frozen=True)
class Reviewer:
    name: str  # also the key in [llm.reviewers] and, for the core ones, the prompt file name
    title: str
    categories: tuple[str, ...]  # categories it is the authority on (dedup keeps its finding)
    project_types: tuple[str, ...] = ()  # empty = every project type
    cites_rules: bool = False  # its findings must cite a retrieved rule id
    languages: tuple[str, ...] = ()  # a specialist: the file languages that bring it
    prompt: str | None = None  # a template name under dualrag/prompts/ or a file path (None: `name`)
    tiers: tuple[str, ...] = ()  # a specialist: the risk tiers it joins


REVIEWERS: dict[str, Reviewer] = {
    r.name: r
    for r in (
        Reviewer("general", "general reviewer", ("correctness", "security", "rule")),
        Reviewer("quality", "code quality reviewer", ("correctness", "maintainability", "reliability")),
        Reviewer("security", "security reviewer", ("security",)),
        Reviewer("performance", "performance reviewer", ("performance",)),
        Reviewer("rules", "rule compliance reviewer", ("rule",), cites_rules=True),
        Reviewer("docs", "documentation reviewer", ("documentation",)),
    )
}

TIERS: dict[str, tuple[str, ...]] = {
    "trivial": ("general",),
    "lite": ("quality", "rules"),
    "full": ("quality", "security", "performance", "rules", "docs"),
}
_SPECIALISTS_AFTER = "rules"  # where the specialists join a tier's list (the order requests are made in)


def specialists() -> dict[str, Reviewer]:
    """Every language pack's specialist, by name (a core reviewer's name wins)."""
    out = {}
    for name, (spec, langs) in languages.all_specialists().items():
        if name not in REVIEWERS:
            project_types = tuple(dict.fromkeys(
                p.project_type for lang in langs if (p := languages.pack_for(lang)) is not None and p.project_type))
            out[name] = Reviewer(name, spec.title, spec.categories, project_types=project_types,
                                 cites_rules=spec.cites_rules, languages=langs, prompt=spec.prompt, tiers=spec.tiers)
    return out


def reviewer_named(name: str) -> Reviewer | None:
    """A core reviewer or a pack's specialist."""
    return REVIEWERS.get(name) or specialists().get(name)


def specialty(reviewer: Reviewer | str) -> str:
    """The Markdown of a reviewer's specialty (the part of the system prompt after `shared.md`)."""
    spec = reviewer_named(reviewer) if isinstance(reviewer, str) else reviewer
    source = (spec.prompt if spec is not None else None) or (spec.name if spec is not None else str(reviewer))
    if Path(source).is_absolute():
        return Path(source).read_text(encoding="utf-8")
    return packaged_prompt(source)


def select_reviewers(risk_tier: str, project_type: str, *, only: Sequence[str] | None = None,
                     languages: Iterable[str] | None = None) -> list[Reviewer]:
    """The reviewers a change gets; `only` (names) overrides the tier table. `languages` are the
    change's file languages: each brings its pack's specialists; without them, the specialists of
    the packs that give the change its project type (an EDI change gets the EDI reviewer)."""
    extra = specialists()
    langs = None if languages is None else set(languages)

    def brought(r: Reviewer) -> bool:  # a specialist: by the change's languages, else by its project type
        return bool(langs & set(r.languages)) if langs is not None else str(project_type) in r.project_types

    if only:
        names = list(only)
    else:
        core = list(TIERS.get(str(risk_tier), TIERS["full"]))
        joining = [r.name for r in extra.values() if str(risk_tier) in r.tiers and brought(r)]
        at = core.index(_SPECIALISTS_AFTER) + 1 if _SPECIALISTS_AFTER in core else len(core)
        names = core[:at] + joining + core[at:]
    known = {**REVIEWERS, **extra}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown reviewer(s) {', '.join(unknown)} (known: {', '.join(known)})")
    return [known[n] for n in names if n in REVIEWERS or brought(known[n])]
