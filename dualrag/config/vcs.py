"""The merge-request stage (section `[vcs]`): who may break the glass."""

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
