"""Sanitising user-controlled text before it goes inside the prompts' boundary tags.

Every piece of text a merge-request author controls (title, description, comments, commit
messages, the repository's AGENTS.md / REVIEW.md, and the diff itself) is put between boundary
tags such as `<mr_description>` … `</mr_description>`. Whoever writes that text must not be able
to close the tag and continue "outside" it, so every opening or closing tag of a boundary name
is removed from it (case-insensitive, with spaces, attributes or zero-width characters inside,
repeated until nothing is left — removing one tag cannot assemble another).

This is one of two defences. The other is structural: the decision is computed from validated
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


_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|"
    r"system|reviewer)\s+(?:instructions?|prompts?|rules|messages|guidelines)"
    r"|\byou\s+are\s+now\b|\bnew\s+instructions\s*:|\bsystem\s*prompt\s*:"
    r"|\b(?:approve|lgtm)\s+(?:this|the)\s+(?:mr|merge\s+request|pull\s+request|pr|change)\b"
    r"|\b(?:do\s+not|don't)\s+(?:report|flag)\s+(?:any|this|these)\b"
    r"|忽略(?:之前|以上|前面)的?(?:所有)?(?:指令|说明|提示)",
    re.IGNORECASE,
)


def injection_marker(text: str | None) -> str | None:
    """The first phrase that addresses an automated reviewer (prompt injection), or None."""
    m = _INJECTION.search(_INVISIBLE.sub("", text or ""))
    return m.group(0) if m else None


def find_injection(changes, info) -> tuple[list, list[str]]:
    """Prompt injection in what the author controls: (findings on added diff lines, where).

    A marker in the title, description, commit messages or instructions, or on an added line,
    makes the decision no_verdict (dualrag/review/decision.py): a human must look.
    """
    from dualrag.findings import Finding

    where: list[str] = []
    for name, text in (("the title", info.title), ("the description", info.description),
                       ("the repository instructions", info.instructions),
                       ("the commit messages", "\n".join(info.commit_messages))):
        if injection_marker(text):
            where.append(name)
    found = []
    for f in changes.reviewable:
        if f.binary:
            continue
        for h in f.hunks:
            for line in h.lines:
                if line.kind == "+" and line.new_no is not None:
                    marker = injection_marker(line.text)
                    if marker:
                        found.append(Finding(
                            path=f.path, line=line.new_no, severity="major", category="security",
                            title="Text addressed to an automated reviewer (prompt injection)",
                            message=f"The added line contains {marker!r}, an instruction aimed at an AI reviewer. "
                                    "It was ignored; a human must review this change.",
                            source="detector"))
    if found:
        where.append("the diff")
    return found, where
