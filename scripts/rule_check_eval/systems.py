"""The systems of `review_eval.systems`, keeping what the rule-check figures need besides: each
finding's `rule_id`, the cached share of the prompt, and the review's usage by kind of call.

- `RuleDualRag`: `review_eval.systems.DualRag` (the real CLI, walkthrough off), reading
  `usage.cache_read_tokens` and `usage.by_kind` (`{"review": {...}, "rule_check": {...}, ...}`,
  absent in a dualrag without rule checks) from the review JSON as well.
- `CountedNaive`: `review_eval.systems.Naive` (the same bare prompt), with its client's
  `llm_request` events read back for the cached prompt tokens.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from review_eval.systems import DualRag, Naive, Outcome

from dualrag.config import load_settings
from dualrag.llm import LLMFactory

FINDING_KEYS = ("path", "line", "end_line", "severity", "category", "rule_id", "title", "message", "source")


@dataclass
class RuleOutcome(Outcome):
    cache_read_tokens: int = 0  # of prompt_tokens, read from the server's prefix cache
    by_kind: dict[str, dict[str, Any]] | None = None  # usage per kind of call, when the review reports it
    decision: str | None = None


class RuleDualRag(DualRag):
    def review(self, diff: str, label: str = "") -> RuleOutcome:
        with tempfile.TemporaryDirectory(prefix="eval-rule-check-") as tmp:
            diff_file, out = Path(tmp) / "change.diff", Path(tmp) / "review.json"
            diff_file.write_text(diff, encoding="utf-8")
            model = ["--offline"] if self.offline else ["--llm", self.llm]
            cmd = [sys.executable, "-m", "dualrag", "review", "--diff-file", str(diff_file), *model,
                   "--config", str(self.config), "--format", "json", "--output", str(out)]
            if self.explain is not None:
                cmd += ["--explain", str(self.explain / label)]
            started = time.monotonic()
            env = {**os.environ, "DUALRAG_REVIEW__WALKTHROUGH": "false"}  # as DualRag: not the review's cost
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout_s, check=False,
                                      env=env)
            except subprocess.TimeoutExpired:
                return RuleOutcome(seconds=round(time.monotonic() - started, 1),
                                   failure=f"no answer within {self.timeout_s:.0f}s")
            seconds = round(time.monotonic() - started, 1)
            if proc.returncode != 0 or not out.is_file():
                last = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
                return RuleOutcome(seconds=seconds, failure=f"exit {proc.returncode}: {last[:200]}")
            review = json.loads(out.read_text(encoding="utf-8"))
        usage = review.get("usage") or {}
        bad = [f"{r['reviewer']}/{r['chunk']}: {r['outcome']}" for r in review.get("reviewers", [])
               if r.get("outcome") not in ("ok", "split", "skipped")]
        return RuleOutcome(
            findings=[{k: f.get(k) for k in FINDING_KEYS} for f in review.get("findings", [])],
            prompt_tokens=int(usage.get("input_tokens", 0)), completion_tokens=int(usage.get("output_tokens", 0)),
            calls=int(usage.get("calls", 0)), seconds=seconds,
            model_seconds=round(float((review.get("timings") or {}).get("review", 0.0)) / 1000, 1),
            tier=review.get("risk_tier"), failure="; ".join(bad) or None,
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
