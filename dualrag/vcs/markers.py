"""Invisible markers in comment bodies: HTML comments, rendered by neither GitLab nor GitHub.

    <!-- dualrag:finding fp=… key=… sev=… commit=… -->   a finding's thread (+ cat=, rule=, code=: url-quoted;
                                                      code = the flagged lines, normalised, for feedback records)
    <!-- dualrag:summary -->                              the one summary note
    <!-- dualrag:blocking -->                             the blocking thread (significant_concerns)
    <!-- dualrag:walkthrough --> … <!-- /dualrag:walkthrough -->   the summary's walkthrough
    <!-- dualrag:reply kind=… to=… -->                    a reply dualrag wrote in a thread
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

SUMMARY = "<!-- dualrag:summary -->"
BLOCKING = "<!-- dualrag:blocking -->"
WALKTHROUGH = "<!-- dualrag:walkthrough -->"  # the summary's "What this change does", up to:
WALKTHROUGH_END = "<!-- /dualrag:walkthrough -->"
_FINDING = re.compile(r"<!--\s*dualrag:finding\s+([^>]*?)\s*-->")
_ANY = re.compile(r"<!--\s*dualrag:")
_PAIR = re.compile(r"(\w+)=(\S+)")


MARKER_CODE_CHARS = 400  # the flagged code (normalised) the feedback records carry


def finding_marker(fp: str, key: str, severity: str, commit: str | None, *, category: str = "",
                   rule: str | None = None, code: str = "") -> str:
    extra = f" cat={quote(category, safe='')}" if category else ""
    extra += f" rule={quote(rule, safe='')}" if rule else ""
    extra += f" code={quote(code[:MARKER_CODE_CHARS], safe='')}" if code else ""
    return f"<!-- dualrag:finding fp={fp} key={key} sev={severity} commit={commit or '-'}{extra} -->"


def reply_marker(kind: str, to: str) -> str:
    return f"<!-- dualrag:reply kind={kind} to={to} -->"


def replied_to(body: str | None, note_id: str) -> bool:
    """A reply dualrag wrote to the note `note_id` (any kind)."""
    return bool(re.search(rf"<!--\s*dualrag:reply\s+kind=\S+\s+to={re.escape(note_id)}\s*-->", body or ""))


def parse_finding(body: str | None) -> dict[str, str] | None:
    m = _FINDING.search(body or "")
    return {k: unquote(v) for k, v in _PAIR.findall(m.group(1))} if m else None


def is_summary(body: str | None) -> bool:
    return SUMMARY in (body or "")


def is_blocking(body: str | None) -> bool:
    return BLOCKING in (body or "")


def has_marker(body: str | None) -> bool:
    """Written by dualrag (any marker)."""
    return bool(_ANY.search(body or ""))


_UNANCHORED = re.compile(r"<!--\s*dualrag:unanchored\s+commit=(\w+)\s+fps=([\w,]*)\s*-->")


def unanchored_marker(fps: list[str], commit: str) -> str:
    """Findings the platform refused (400) on this commit: not retried by a second run on it."""
    return f"<!-- dualrag:unanchored commit={commit or '-'} fps={','.join(sorted(set(fps)))} -->"


def parse_unanchored(body: str | None, commit: str) -> set[str]:
    m = _UNANCHORED.search(body or "")
    if not m or m.group(1) != commit:
        return set()
    return set(filter(None, m.group(2).split(",")))
