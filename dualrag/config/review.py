"""The review stage (section `[review]`): what a review does besides the reviewers' findings."""

from __future__ import annotations

from typing import Literal

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
    rule_checks: int = Field(
        3, ge=0, le=12, description="with a model and a team rule retrieved for a chunk: ask about that many of its "
                                    "rules, most relevant first, whether an added line breaks them (findings cite the "
                                    "rule and quote the line); they stand in for the rules reviewer there. 0 = off")
    rule_check_batch: bool = Field(
        True, description="one request for a chunk's rule checks; false: one per rule, the code first so a "
                          "server's prefix cache reuses it")
    rule_check_mode: Literal["plain", "fix", "recheck"] = Field(
        "plain", description="`plain`: the rule, the line, the words that break it; `fix`: and the line rewritten to "
                             "follow the rule (a rewrite that changes nothing clears it); `recheck`: `fix`, then the "
                             "check again on the fixed code, dropping what it flags again (one more call when "
                             "something was flagged); chosen by evaluation/review/tune_rule_check.py")
    walkthrough_min_files: int = Field(
        2, ge=1, description="the model's walkthrough only for a change of at least this many files (one file: the "
                             "deterministic walkthrough says it, and the request is saved)")
    model_warnings: Literal["keep", "grounded", "suggestion"] = Field(
        "grounded", description="a model warning that cites no rule: `grounded` keeps it a warning only when it "
                                "names code of its line and a concrete failure (else a suggestion); `keep`; "
                                "`suggestion` (every one). Chosen on the dev bug pairs "
                                "(docs/evaluation/rule-checks.md)")
