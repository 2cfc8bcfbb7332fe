"""Bodies of what dualrag writes on a merge request: finding comments, the summary, the blocker."""

from __future__ import annotations

import re
from collections.abc import Sequence

from dualrag.findings import Finding
from dualrag.review.model import Review
from dualrag.vcs import markers
from dualrag.vcs.anchoring import Placed
from dualrag.vcs.model import BreakGlass

_ICON = {"critical": "🔴", "major": "🟠", "minor": "🟡", "info": "🔵"}
_TITLE = re.compile(r"^\*\*\S+ (?:info|minor|major|critical)\*\* — (.+?)(?:\s+·\s+`[^`]*`)?\s*$", re.M)
LABEL = {
    "approved": "✅ approved", "approved_with_comments": "✅ approved with comments",
    "minor_issues": "🟡 minor issues", "significant_concerns": "⛔ significant concerns",
    "no_verdict": "⚪ no verdict",
}


def finding_body(p: Placed, commit: str | None) -> str:
    f = p.finding
    rule = f" · `{f.rule_id}`" if f.rule_id else ""
    out = [markers.finding_marker(p.fingerprint, p.key, f.severity, commit, category=f.category, rule=f.rule_id),
           f"**{_ICON.get(f.severity, '•')} {f.severity}** — {_one_line(f.title)}{rule}", "", f.message.strip()]
    if f.suggestion:
        out += ["", f"**Suggestion:** {f.suggestion.strip()}"]
    out += ["", f"<sub>dualrag · {f.category} · {f.source} · reply *won't fix*, *acknowledged* or "
                f"*I disagree …*</sub>"]
    return "\n".join(out)


def parse_title(body: str) -> str:
    m = _TITLE.search(body)
    return m.group(1) if m else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _where(f: Finding) -> str:
    return f"`{f.path}:{f.line}`"


def summary_body(review: Review, *, head_sha: str, open_threads: int, unanchored: Sequence[Placed],
                 break_glass: BreakGlass | None, decision: str, refused: Sequence[str] = ()) -> str:
    """The one summary note. Deterministic for a given commit and state: a second run on the same
    commit produces the same bytes and the note is left alone."""
    counts: dict[str, int] = {}
    for f in review.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    sev = ", ".join(f"{counts[s]} {s}" for s in ("critical", "major", "minor", "info") if s in counts) or "none"
    reviewed = sum(1 for f in review.files if f.skipped_reason is None)
    out = [markers.SUMMARY + (markers.unanchored_marker(list(refused), head_sha) if refused else ""), f"## dualrag review — {LABEL.get(decision, decision)}", "",
           f"Commit `{head_sha[:12]}` · risk tier **{review.risk_tier}** · project **{review.project_type}** · "
           f"{reviewed} file(s) reviewed, {len(review.files) - reviewed} skipped", "",
           f"**Findings:** {len(review.findings)} ({sev}) · open threads: {open_threads}"]
    if break_glass is not None:
        out += ["", f"> **Break glass** by @{break_glass.author}: approval forced by a human override "
                    f"(note {break_glass.note_id}); the findings stay listed."]
    if unanchored:
        out += ["", "### Not on a line of the diff", "",
                "These findings could not be placed as inline comments:", ""]
        out += [f"- {_where(p.finding)} **{p.finding.severity}** {_one_line(p.finding.title)}: "
                f"{_one_line(p.finding.message)}" for p in unanchored]
    notes = [n for n in review.notes if n]
    if notes:
        out += ["", "<details><summary>Notes</summary>", ""] + [f"- {_one_line(n)}" for n in notes] + ["", "</details>"]
    return "\n".join(out) + "\n"


def blocking_body(review: Review, head_sha: str) -> str:
    worst = [f for f in review.findings if f.severity in ("critical", "major")][:10]
    out = [markers.BLOCKING, f"⛔ **dualrag blocks this merge request** at `{head_sha[:12]}`: significant concerns.",
           "", "Resolve the findings below (or reply in their threads); dualrag resolves this thread itself "
           "when a later push no longer has significant concerns."]
    out += [""] + [f"- {_where(f)} **{f.severity}** {_one_line(f.title)}" for f in worst]
    return "\n".join(out) + "\n"
