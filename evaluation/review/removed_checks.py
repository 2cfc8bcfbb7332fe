"""A model-free reference: flag a side wherever its change drops a control statement.

It reads no code. A control statement (`if`, `throw`, `return`, `break`...) counts as dropped
when no added line of the same file has the same text, and the flag sits on the new-file line
where it used to be. On this data it already discriminates: the bug sides are reverted fixes,
and fixes mostly add checks. A model's figure means something only next to this one.
"""

from __future__ import annotations

import re
import time

from dualrag.checks.anchoring import removal_anchor
from dualrag.config import load_settings
from dualrag.diff import ingest
from evaluation.review.systems import Outcome

CONTROL = re.compile(r"^\s*(?:\}\s*)?(?:else\s+)?(?:if|while|for|switch|case|throw|return|break|continue)\b")


class RemovedChecks:
    name = "removed-checks"

    def __init__(self) -> None:
        self.settings = load_settings(None)

    def review(self, diff: str, label: str = "") -> Outcome:
        started = time.monotonic()
        findings = []
        for f in ingest(diff.encode("utf-8"), self.settings).reviewable:
            added = {line.text.strip() for h in f.hunks for line in h.lines if line.kind == "+"}
            for h in f.hunks:
                for i, line in enumerate(h.lines):
                    if line.kind == "-" and CONTROL.match(line.text) and line.text.strip() not in added:
                        findings.append({"path": f.path, "line": removal_anchor(h.lines, i), "end_line": None,
                                         "severity": "major", "category": "correctness",
                                         "title": f"removed: {line.text.strip()}"[:120], "message": "",
                                         "source": "heuristic"})
        return Outcome(findings=findings, seconds=round(time.monotonic() - started, 1))
