"""The review stage (section `[review]`): what a review does besides the reviewers' findings."""

from __future__ import annotations

from pydantic import Field

from dualrag.config.section import Section


class ReviewConfig(Section):
    walkthrough: bool = Field(
        True, description="with a model configured, one more request writes what the change does per file "
                          "(the walkthrough); false keeps the deterministic one and saves the call")
