"""Size caps at ingest (`[limits]`): a file too large to review is skipped with its reason, a very
long line is reviewed as a sample, and files past the review's byte budget are skipped. Every
cap says itself in the file's reason or the change's notes; later stages never see the bulk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dualrag.config import LimitsConfig
from dualrag.diff.model import FileDiff


def oversized(section_chars: int, limits: LimitsConfig) -> str | None:
    """Why a file whose diff text is `section_chars` long is not reviewed, or None."""
    if section_chars <= limits.max_file_bytes:
        return None
    return (f"too large to review: {section_chars / 1e6:.1f} MB of diff text "
            f"(limits.max_file_bytes = {limits.max_file_bytes:,})")


def sample_long_lines(section: str, max_chars: int) -> tuple[str, int, int]:
    """The file's diff text with every hunk line longer than `max_chars` cut to its first
    `max_chars` characters and a marker; also how many lines were cut and the longest length.

    A minified or one-line file is then reviewed as a sample, not as hundreds of chunks of one
    line. Line numbers do not move: only the text inside a line is cut."""
    if len(section) <= max_chars + 1:
        return section, 0, 0
    at = section.find("\n@@")
    if at < 0:
        return section, 0, 0
    lines = section[at + 1:].split("\n")
    cut, longest = 0, 0
    for i, line in enumerate(lines):
        size = len(line) - 1  # the "+", "-" or " " in front is not the file's
        if size > max_chars:
            cut, longest = cut + 1, max(longest, size)
            lines[i] = (f"{line[:max_chars + 1]} …[{size - max_chars:,} more characters not shown: "
                        f"limits.max_line_chars]")
    if not cut:
        return section, 0, 0
    return section[:at + 1] + "\n".join(lines), cut, longest


def sampled_note(f: FileDiff, max_chars: int) -> str:
    return (f"{f.path}: {f.sampled_lines} line(s) longer than {max_chars:,} characters (longest "
            f"{f.longest_line:,}) reviewed as a sample of their first {max_chars:,} (limits.max_line_chars)")


def cap_review(files: Sequence[FileDiff], limits: LimitsConfig) -> tuple[list[FileDiff], list[str]]:
    """Files past `max_review_bytes` of reviewable diff text, in diff order, are skipped."""
    out: list[FileDiff] = []
    used, over = 0, 0
    for f in files:
        if f.reviewable and used + len(f.section) > limits.max_review_bytes:
            over += 1
            f = replace(f, skipped_reason=f"review size cap reached (limits.max_review_bytes = "
                                          f"{limits.max_review_bytes:,})", section="", unread=True,
                          skip_doubt="too large to review")
        elif f.reviewable:
            used += len(f.section)
        out.append(f)
    if not over:
        return out, []
    note = (f"{over} file(s) not reviewed: the review reached {limits.max_review_bytes:,} characters of "
            f"diff text (limits.max_review_bytes)")
    return out, [note]
