"""What every check and reviewer reports: a `Finding` at a line of the change, and the one
`Severity` scale findings and rules share, with its rank (a foundation: detectors, EDI
validators, reviewers, the coordinator and the publishers all speak it)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict


class Severity(StrEnum):
    INFO = "info"
    MINOR = "minor"
    MAJOR = "major"
    CRITICAL = "critical"


SEVERITY_RANK: dict[str, int] = {s.value: rank for rank, s in enumerate(Severity)}


class Finding(BaseModel):
    model_config = ConfigDict(frozen=True)

    path: str
    line: int
    end_line: int | None = None
    severity: Literal["info", "minor", "major", "critical"]
    category: str
    rule_id: str | None = None
    title: str
    message: str
    suggestion: str | None = None  # prose: what to do instead
    # The new text of lines line..end_line (new file), checked to apply (dualrag/review/suggestions.py):
    # published as a one-click suggestion (GitLab/GitHub) and a SARIF fix. None = no checked rewrite.
    replacement: str | None = None
    source: Literal["detector", "llm"]
    reviewer: str | None = None  # llm: the specialist(s) that raised it, comma-separated after merging
    fingerprint: str | None = None  # stable identity across pushes (dualrag/review/fingerprint.py)
    counted: bool = True  # False: a human settled it on an earlier push (won't fix...), not in the decision
