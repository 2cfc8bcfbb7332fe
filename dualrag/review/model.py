"""The review result: the JSON contract of ARCHITECTURE.md, as typed models."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from dualrag.chunking.model import Chunk
from dualrag.diff.model import ChangeSet, FileDiff
from dualrag.findings import Finding
from dualrag.review.walkthrough import Walkthrough, deterministic_walkthrough

if TYPE_CHECKING:
    from dualrag.retrieval.context import Context


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
    skip_certain: bool | None = None  # skipped files: whether nobody needs to read it (else it blocks approval)
    skip_doubt: str | None = None  # why the skip is not certain

    def skip_text(self) -> str:
        """Why the file was skipped and whether that is certain ("" when it was reviewed)."""
        if not self.skipped_reason:
            return ""
        if self.skip_certain:
            return f"{self.skipped_reason} (certain)"
        return f"{self.skipped_reason} (not certain: {self.skip_doubt or 'unconfirmed'}; holds the decision)"

    @classmethod
    def of(cls, f: FileDiff) -> FileReport:
        return cls(
            path=f.path, old_path=f.old_path, status=str(f.status), language=f.language,
            binary=f.binary, similarity=f.similarity, encoding=f.encoding, newline=f.newline,
            added=f.added, removed=f.removed, skipped_reason=f.skipped_reason,
            skip_certain=f.skip_certain if f.skipped_reason else None,
            skip_doubt=f.skip_doubt if f.skipped_reason else None,
        )


class ChunkMemberReport(_Model):
    path: str
    kind: str
    name: str
    signature: str
    start_line: int
    end_line: int
    partial: bool = False
    split: bool = False
    text: str | None = None  # only in `dualrag chunk` output: the review JSON stays small


class ChunkHunkReport(_Model):
    path: str
    new_start: int
    new_end: int


class ContextRuleReport(_Model):
    rule_id: str
    title: str
    level: str | None
    kb: str
    source: str
    score: float
    tokens: int


class ContextCodeReport(_Model):
    relation: str
    symbol: str
    path: str
    start_line: int
    end_line: int
    score: float
    tokens: int


class PrunedReport(_Model):
    kind: str
    label: str
    score: float
    reason: str  # floor | threshold | cap | budget


class ContextReport(_Model):
    """What a chunk's reviewers get besides the diff: the packed rules and code, with scores."""

    rules: list[ContextRuleReport] = Field(default_factory=list)
    code: list[ContextCodeReport] = Field(default_factory=list)
    reranked: bool = False
    budget: int = 0
    used: int = 0
    dropped: int = 0
    threshold: float | None = None
    floor: float | None = Field(None, description="the relevance floor rules were held against (no reranker)")
    notes: list[str] = Field(default_factory=list)
    pruned: list[PrunedReport] = Field(default_factory=list, description="candidates left out, and why")

    @classmethod
    def of(cls, context: Context) -> ContextReport:
        return cls(
            rules=[ContextRuleReport(rule_id=r.rule_id, title=r.title, level=r.level, kb=r.kb, source=r.source,
                                     score=r.score, tokens=r.tokens) for r in context.rules],
            code=[ContextCodeReport(relation=c.relation, symbol=c.symbol, path=c.path, start_line=c.start_line,
                                    end_line=c.end_line, score=c.score, tokens=c.tokens) for c in context.code],
            reranked=context.reranked, budget=context.budget, used=context.used, dropped=context.dropped,
            threshold=context.threshold, floor=context.floor, notes=list(context.notes),
            pruned=[PrunedReport(kind=p.kind, label=p.label, score=p.score, reason=p.reason) for p in context.pruned],
        )


class ChunkReport(_Model):
    id: str
    files: list[str]
    hunks: list[ChunkHunkReport] = Field(default_factory=list)
    members: list[ChunkMemberReport] = Field(default_factory=list)
    estimated_tokens: int
    split_member: bool = False
    notes: list[str] = Field(default_factory=list)
    context: ContextReport | None = None

    @classmethod
    def of(cls, chunk: Chunk, *, with_text: bool = False, context: Context | None = None) -> ChunkReport:
        return cls(
            context=ContextReport.of(context) if context is not None else None,
            id=chunk.id, files=list(chunk.files),
            hunks=[ChunkHunkReport(path=h.path, new_start=h.new_range[0], new_end=h.new_range[1])
                   for h in chunk.hunks],
            members=[ChunkMemberReport(
                path=m.path, kind=m.kind, name=m.name, signature=m.signature, start_line=m.start_line,
                end_line=m.end_line, partial=m.partial, split=m.split, text=m.text if with_text else None,
            ) for m in chunk.members],
            estimated_tokens=chunk.estimated_tokens, split_member=chunk.split_member, notes=list(chunk.notes),
        )


class KindUsage(_Model):
    """The calls of one kind of request (review, rule_check, rule_query, walkthrough)."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0


class Usage(_Model):
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float = 0.0
    failed_calls: int = 0
    retries: int = 0
    failbacks: int = 0
    estimated: bool = False  # some token counts were made locally: the server reported none
    by_kind: dict[str, KindUsage] = Field(default_factory=dict)  # the same calls by what they were for (`request_kind`)


class ReviewerRun(_Model):
    """One reviewer on one chunk: what it cost and how it ended (ok | failed | truncated | skipped)."""

    reviewer: str
    chunk: str
    outcome: str
    model: str | None = None
    findings: int = 0
    error: str | None = None


class Review(_Model):
    decision: Decision = Decision.NO_VERDICT
    project_type: str
    risk_tier: str
    tier_reasons: list[str] = Field(default_factory=list)
    files: list[FileReport]
    chunks: list[ChunkReport] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    usage: Usage = Usage()
    reviewers: list[ReviewerRun] = Field(default_factory=list)
    decision_reasons: list[str] = Field(default_factory=list)
    break_glass: dict[str, str] | None = None  # who forced approval, when a human broke the glass
    dropped: dict[str, int] = Field(default_factory=dict, description="LLM findings the coordinator dropped, by reason")
    timings: dict[str, float] = Field(default_factory=dict, description="milliseconds per stage")
    walkthrough: Walkthrough | None = None

    @classmethod
    def of_changes(cls, changes: ChangeSet, **fields) -> Review:
        """The review of a change; without a `walkthrough` given, the deterministic one of its files and chunks."""
        review = cls(
            project_type=str(changes.project_type),
            risk_tier=str(changes.risk_tier),
            tier_reasons=list(changes.tier_reasons),
            files=[FileReport.of(f) for f in changes.files],
            **fields,
        )
        if review.walkthrough is not None:
            return review
        walkthrough = deterministic_walkthrough(review.files, review.chunks, project_type=review.project_type,
                                                risk_tier=review.risk_tier, tier_reasons=review.tier_reasons)
        return review.model_copy(update={"walkthrough": walkthrough})
