"""The typed change model every later stage reads: ChangeSet -> FileDiff -> Hunk -> DiffLine.

File-level facts (status, counts, encoding, noise verdict) are computed when the diff is
ingested; hunks are parsed on first use. A 10,000-file diff whose files are mostly noise
never pays for line objects it will not review.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from dualrag.diff.hunks import Hunk, parse_hunks


class FileStatus(StrEnum):
    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"
    MODE_CHANGED = "mode_changed"


class ProjectType(StrEnum):
    EDI = "edi"
    JAVA = "java"
    GENERIC = "generic"


class RiskTier(StrEnum):
    TRIVIAL = "trivial"
    LITE = "lite"
    FULL = "full"


@dataclass(frozen=True)
class FileDiff:
    path: str  # new path; the old path for a deleted file
    old_path: str | None  # set for renamed, copied and deleted files
    status: FileStatus
    language: str
    added: int
    removed: int
    binary: bool = False
    similarity: int | None = None  # percent, for renames and copies
    old_mode: str | None = None
    new_mode: str | None = None
    encoding: str | None = None  # "utf-8", "gb18030" or "latin-1"; None when there is no text
    newline: str | None = None  # "lf", "crlf" or "mixed"; None when there is no text
    skipped_reason: str | None = None  # why the file is not reviewed; None = reviewed
    skip_certain: bool = False  # skipped, and nobody needs to read it (source/skips.py)
    skip_doubt: str | None = None  # skipped, not certainly: why (a downgrade, no generator named...)
    unread: bool = False  # skipped and not certainly noise (a cap, a path, an unconfirmed skip): never approved
    sampled_lines: int = 0  # changed lines cut to limits.max_line_chars (reviewed as a sample)
    longest_line: int = 0  # characters of the longest line cut
    hidden_chars: bool = False  # control, escape or bidirectional characters in the diff text
    section: str = field(default="", repr=False, compare=False)  # decoded diff text of this file

    @property
    def reviewable(self) -> bool:
        return self.skipped_reason is None

    @property
    def changed_lines(self) -> int:
        return self.added + self.removed

    @cached_property
    def hunks(self) -> tuple[Hunk, ...]:
        return parse_hunks(self.section)  # lazily: most files of a large diff are never looked at line by line


@dataclass(frozen=True)
class ChangeSet:
    files: tuple[FileDiff, ...]
    project_type: ProjectType
    risk_tier: RiskTier
    tier_reasons: tuple[str, ...] = ()
    diff_bytes: int = 0
    notes: tuple[str, ...] = ()  # what ingest capped or sampled (dualrag.diff.caps)

    @property
    def reviewable(self) -> tuple[FileDiff, ...]:
        return tuple(f for f in self.files if f.reviewable)

    @property
    def skipped(self) -> tuple[FileDiff, ...]:
        return tuple(f for f in self.files if not f.reviewable)
