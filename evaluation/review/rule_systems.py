"""The systems of `systems.py`, keeping what the rule-check figures need besides: each
finding's `rule_id`, the cached share of the prompt, and the review's usage by kind of call.

- `RuleDualRag`: `systems.DualRag` (the real CLI, walkthrough off), reading
  `usage.cache_read_tokens` and `usage.by_kind` (`{"review": {...}, "rule_check": {...}, ...}`,
  absent in a dualrag without rule checks) from the review JSON as well.
- `CountedNaive`: `systems.Naive` (the same bare prompt), with its client's
  `llm_request` events read back for the cached prompt tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dualrag.config import load_settings
from dualrag.llm import LLMFactory
from evaluation.review.systems import DualRag, Naive, Outcome, outcome_fields

FINDING_KEYS = ("path", "line", "end_line", "severity", "category", "rule_id", "title", "message", "source")


@dataclass
class RuleOutcome(Outcome):
    cache_read_tokens: int = 0  # of prompt_tokens, read from the server's prefix cache
    by_kind: dict[str, dict[str, Any]] | None = None  # usage per kind of call, when the review reports it
    decision: str | None = None


class RuleDualRag(DualRag):
    def review(self, diff: str, label: str = "") -> RuleOutcome:
        review, seconds, failure = self.run(diff, label)
        if review is None:
            return RuleOutcome(seconds=seconds, failure=failure)
        usage = review.get("usage") or {}
        return RuleOutcome(
            **{**outcome_fields(review, seconds),
               "findings": [{k: f.get(k) for k in FINDING_KEYS} for f in review.get("findings", [])]},
            cache_read_tokens=int(usage.get("cache_read_tokens", 0)), by_kind=usage.get("by_kind"),
            decision=review.get("decision") if isinstance(review.get("decision"), str) else None,
        )


class CountedNaive(Naive):
    def __init__(self, llm: str, config: Path) -> None:
        super().__init__(llm, config)
        self.events: list[dict[str, Any]] = []
        llm_config = load_settings(config).llm.model_copy(update={"model": llm})
        self.client = LLMFactory(llm_config, sink=self.events.append).client(llm)

    def review(self, diff: str, label: str = "") -> RuleOutcome:
        self.events.clear()
        outcome = super().review(diff, label)
        cached = sum(int(e.get("cache_read_tokens") or 0) for e in self.events if e.get("event") == "llm_request")
        return RuleOutcome(**outcome.as_dict(), cache_read_tokens=cached)
