"""The injection stage of a review: what in the change, or in the words around it, is addressed to
the reviewers (checks/injection.py), and which changed files steer the review itself
(checks/steering.py). Both are findings; both hold the decision at no_verdict."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dualrag.checks.injection import find_injection, instruction_file_changes
from dualrag.checks.steering import forged_names, steering_files, steering_findings
from dualrag.diff.model import ChangeSet
from dualrag.findings import Finding


@dataclass(frozen=True)
class Screening:
    findings: list[Finding]  # injections, instruction files changed, steering files changed
    injection: tuple[str, ...]  # where text addressed to the reviewers was found ("the title", "the diff")
    steering: tuple[str, ...]  # paths of changed files that steer the review, or are named to escape it


def screen(changes: ChangeSet, fields: Sequence[tuple[str, str | None]]) -> Screening:
    """`fields`: the (name, text) pairs around the change (title, description, commit messages,
    the repository's instructions)."""
    found, where = find_injection(changes, fields)
    found.extend(instruction_file_changes(changes))
    if found and "the diff" not in where:
        where.append("the diff")
    return Screening([*found, *steering_findings(changes)], tuple(where),
                     tuple(f.path for f in (*steering_files(changes), *forged_names(changes))))
