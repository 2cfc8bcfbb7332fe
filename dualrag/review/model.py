"""The review result: the JSON contract of ARCHITECTURE.md, as typed models."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from dualrag.diff.model import ChangeSet, FileDiff


class Decision(StrEnum):
    APPROVED = "approved"
    APPROVED_WITH_COMMENTS = "approved_with_comments"
    MINOR_ISSUES = "minor_issues"
    SIGNIFICANT_CONCERNS = "significant_concerns"
    NO_VERDICT = "no_verdict"  # nothing was reviewed: never an approval by default


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class FileReport(_Model):
    path: str
    old_path: str | None
    status: str
    language: str
    binary: bool
    similarity: int | None
    encoding: str | None
    newline: str | None
    added: int
    removed: int
    skipped_reason: str | None

    @classmethod
    def of(cls, f: FileDiff) -> FileReport:
        return cls(
            path=f.path, old_path=f.old_path, status=str(f.status), language=f.language,
            binary=f.binary, similarity=f.similarity, encoding=f.encoding, newline=f.newline,
            added=f.added, removed=f.removed, skipped_reason=f.skipped_reason,
        )


class Finding(_Model):
    path: str
    line: int
    end_line: int | None = None
    severity: Literal["info", "minor", "major", "critical"]
    category: str
    rule_id: str | None = None
    title: str
    message: str
    suggestion: str | None = None
    source: Literal["detector", "llm"]


class Usage(_Model):
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float = 0.0


class Review(_Model):
    decision: Decision = Decision.NO_VERDICT
    project_type: str
    risk_tier: str
    tier_reasons: list[str] = Field(default_factory=list)
    files: list[FileReport]
    chunks: list[dict] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    usage: Usage = Usage()
    timings: dict[str, float] = Field(default_factory=dict, description="milliseconds per stage")

    @classmethod
    def of_changes(cls, changes: ChangeSet, **fields) -> Review:
        return cls(
            project_type=str(changes.project_type),
            risk_tier=str(changes.risk_tier),
            tier_reasons=list(changes.tier_reasons),
            files=[FileReport.of(f) for f in changes.files],
            **fields,
        )
