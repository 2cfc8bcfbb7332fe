"""The review stage (section `[review]`): what a review does besides the reviewers' findings."""

from __future__ import annotations

from pydantic import Field

from dualrag.config.section import Section


class ReviewConfig(Section):
    walkthrough: bool = Field(
        True, description="with a model configured, one more request writes what the change does per file "
                          "(the walkthrough); false keeps the deterministic one and saves the call")
    reverse_check: bool = Field(
        True, description="when a reviewer raises a warning on a chunk, ask it once more about the chunk undone "
                          "and drop the warnings it raises there too (a complaint that fits the change and its "
                          "reversal is about the diff's shape, not what it did): one more call per such chunk")
