"""Sanitising user-controlled text before it goes inside the prompts' boundary tags.

Every piece of text a merge-request author controls (title, description, comments, commit
messages, the repository's AGENTS.md / REVIEW.md, and the diff itself) is put between boundary
tags such as `<mr_description>` … `</mr_description>`. Whoever writes that text must not be able
to close the tag and continue "outside" it, so every opening or closing tag of a boundary name
is removed from it (case-insensitive, with spaces, attributes or zero-width characters inside,
repeated until nothing is left — removing one tag cannot assemble another).

This is one of three defences. Text addressed to a reviewer is detected (and the decision made
no_verdict) by `dualrag/checks/injection.py`; and structurally, the decision is computed from validated
findings by `dualrag.review.decision`, never read from model prose, so an injected "approve"
can at worst suppress findings, never produce an approval that findings contradict.
"""

from __future__ import annotations

import re

# Every boundary tag name the prompts use (dualrag/prompts/*.md and dualrag/review/prompt.py).
BOUNDARY_TAGS: tuple[str, ...] = (
    "mr_title",
    "mr_description",
    "commit_messages",
    "repository_instructions",
    "diff_chunk",
    "enclosing_members",
    "retrieved_rules",
    "retrieved_rule",
    "code_context",
    "context_code",
    "detector_findings",
    "user_question",  # /dualrag ask (review/ask.py)
)
# Names are deliberately unusual: a generic tag (`<repository>`, `<change>`) occurs in real code
# (Maven POMs, EDI XML), and stripping it from a diff would change what the reviewer sees.

_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_TAG = re.compile(
    r"<\s*/?\s*(?:" + "|".join(sorted(map(re.escape, BOUNDARY_TAGS), key=len, reverse=True)) + r")\b[^<>]*>",
    re.IGNORECASE,
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def strip_boundary_tags(text: str) -> str:
    """`text` without any boundary tag (opening, closing, self-closing, any case)."""
    if not text:
        return ""
    out = _CONTROL.sub("", _INVISIBLE.sub("", text))
    for _ in range(16):  # removing a tag may bring two halves of another together
        new = _TAG.sub("", out)
        if new == out:
            return new
        out = new
    return _TAG.sub("", out.replace("<", "‹"))


def sanitize(text: str | None, *, limit: int | None = None) -> str:
    """User text ready to sit inside a boundary tag: tags removed, CRLF normalised, optionally capped."""
    clean = strip_boundary_tags((text or "").replace("\r\n", "\n").replace("\r", "\n"))
    if limit is not None and len(clean) > limit:
        clean = clean[:limit].rstrip() + "\n[… truncated]"
    return clean.strip("\n")


def has_boundary_tag(text: str) -> bool:
    return bool(_TAG.search(_INVISIBLE.sub("", text or "")))
