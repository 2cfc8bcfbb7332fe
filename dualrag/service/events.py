"""A verified webhook payload, classified cheaply: a review to queue, a comment that may hold a
command, or something the service does not handle (and why). Nothing here calls the platform.

GitLab: "Merge Request Hook" (open, reopen, and update with new commits: `oldrev` is set), "Note
Hook" on a merge request. GitHub: `pull_request` (opened, reopened, synchronize,
ready_for_review), `issue_comment` on a pull request and `pull_request_review_comment`, both
`created`. A comment counts only when its body contains `/dualrag`: the commands module reads
it properly, with the author's access checked, in the worker."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

COMMAND_WORD = "/dualrag"
_SHA = re.compile(r"^[0-9a-fA-F]{7,64}$")


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """Review this head of this merge request. `stamp`: when the platform last updated the MR
    (UTC, sortable text): of two deliveries for different heads, the later stamp is the newer push."""

    platform: str      # "gitlab" | "github"
    repository: str    # GitLab project id, GitHub owner/name
    mr: int            # GitLab iid, GitHub pull request number
    head_sha: str
    base_sha: str | None = None
    stamp: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class NoteEvent:
    """A comment on a merge request that mentions the bot's command word; `payload` is the raw webhook JSON."""

    platform: str
    repository: str
    mr: int
    note_id: str
    payload: dict[str, Any] = field(repr=False, default_factory=dict)


@dataclass(frozen=True, slots=True)
class Ignored:
    reason: str


Event = ReviewRequest | NoteEvent | Ignored


def normalise_stamp(value: Any) -> str:
    """GitLab's `2026-12-01 10:00:00 UTC` and ISO 8601 stamps, as sortable UTC text ('' if unreadable)."""
    if not isinstance(value, str) or not value.strip():
        return ""
    text = value.strip().replace(" UTC", "+00:00").replace("Z", "+00:00")
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        return ""
    at = at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    return at.strftime("%Y-%m-%dT%H:%M:%S.%f")


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _sha(value: Any) -> str | None:
    return value.lower() if isinstance(value, str) and _SHA.match(value) else None


def gitlab_event(kind: str, payload: dict[str, Any]) -> Event:
    attrs = payload.get("object_attributes") or {}
    project = payload.get("project") or {}
    repository = str(project.get("id") or attrs.get("target_project_id") or "")
    if kind == "Merge Request Hook" and payload.get("object_kind") == "merge_request":
        action = attrs.get("action")
        if action == "update" and not attrs.get("oldrev"):
            return Ignored("merge request updated without new commits")
        if action not in ("open", "reopen", "update"):
            return Ignored(f"merge request action {action!r} needs no review")
        if attrs.get("state") not in (None, "opened"):
            return Ignored(f"merge request is {attrs.get('state')}")
        mr, head = _int(attrs.get("iid")), _sha((attrs.get("last_commit") or {}).get("id"))
        if not repository or mr is None or head is None:
            return Ignored("merge request event without project, iid or head commit")
        return ReviewRequest("gitlab", repository, mr, head, None, normalise_stamp(attrs.get("updated_at")),
                             str(attrs.get("title") or ""))
    if kind == "Note Hook" and payload.get("object_kind") == "note":
        if attrs.get("noteable_type") != "MergeRequest":
            return Ignored("comment is not on a merge request")
        if COMMAND_WORD not in str(attrs.get("note") or ""):
            return Ignored(f"comment holds no {COMMAND_WORD} command")
        mr = _int((payload.get("merge_request") or {}).get("iid"))
        if not repository or mr is None:
            return Ignored("comment event without project or merge request")
        return NoteEvent("gitlab", repository, mr, str(attrs.get("id") or ""), payload)
    return Ignored(f"GitLab event {kind or 'without X-Gitlab-Event'!r} is not handled")


def github_event(kind: str, payload: dict[str, Any]) -> Event:
    repository = str((payload.get("repository") or {}).get("full_name") or "")
    action = payload.get("action")
    if kind == "ping":
        return Ignored("ping: the webhook reaches the service")
    if kind == "pull_request":
        if action not in ("opened", "reopened", "synchronize", "ready_for_review"):
            return Ignored(f"pull_request action {action!r} needs no review")
        pr = payload.get("pull_request") or {}
        if pr.get("state") not in (None, "open"):
            return Ignored(f"pull request is {pr.get('state')}")
        number, head = _int(pr.get("number")), _sha((pr.get("head") or {}).get("sha"))
        if not repository or number is None or head is None:
            return Ignored("pull_request event without repository, number or head commit")
        return ReviewRequest("github", repository, number, head, _sha((pr.get("base") or {}).get("sha")),
                             normalise_stamp(pr.get("updated_at")), str(pr.get("title") or ""))
    if kind in ("issue_comment", "pull_request_review_comment"):
        if action != "created":
            return Ignored(f"{kind} action {action!r} is not a new comment")
        comment = payload.get("comment") or {}
        if COMMAND_WORD not in str(comment.get("body") or ""):
            return Ignored(f"comment holds no {COMMAND_WORD} command")
        if kind == "issue_comment":
            issue = payload.get("issue") or {}
            if not issue.get("pull_request"):
                return Ignored("comment is on an issue, not a pull request")
            number = _int(issue.get("number"))
        else:
            number = _int((payload.get("pull_request") or {}).get("number"))
        if not repository or number is None:
            return Ignored(f"{kind} event without repository or pull request number")
        return NoteEvent("github", repository, number, str(comment.get("id") or ""), payload)
    return Ignored(f"GitHub event {kind or 'without X-GitHub-Event'!r} is not handled")
