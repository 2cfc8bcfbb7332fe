"""GitLab Code Quality report (a `codequality` artifact): findings show in the MR widget.

Each issue: description, check_name, fingerprint (unique per issue), severity
(info|minor|major|critical|blocker), location.path, location.lines.begin.
"""

from __future__ import annotations

import hashlib
import json

from dualrag.review.fingerprint import finding_rule, fingerprint
from dualrag.review.model import Review

# Our "critical" is GitLab's "blocker" only in name: keep the scale one-to-one, critical stays critical.
SEVERITY = {"info": "info", "minor": "minor", "major": "major", "critical": "critical"}


def to_codequality(review: Review) -> list[dict]:
    out, seen = [], set()
    for f in review.findings:
        fp = fingerprint(f)
        unique = hashlib.md5(f"{fp}:{f.path}:{f.line}".encode(), usedforsecurity=False).hexdigest()
        if unique in seen:
            continue
        seen.add(unique)
        lines = {"begin": max(f.line, 1)}
        if f.end_line and f.end_line > f.line:
            lines["end"] = f.end_line
        out.append({
            "type": "issue", "check_name": finding_rule(f),
            "description": f"{f.title}: {f.message}".strip()[:1000], "categories": [f.category],
            "fingerprint": unique, "severity": SEVERITY.get(f.severity, "info"),
            "location": {"path": f.path, "lines": lines},
        })
    return out


def render_codequality(review: Review) -> str:
    return json.dumps(to_codequality(review), indent=2, ensure_ascii=False) + "\n"
