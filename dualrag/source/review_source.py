"""What a review reads from the outside, as one value: the diff, and when a repository is at hand
the new files at the head, the files of the target (base) side, the repository root and the head
commit. The CLI and the merge-request stage build it once; the pipeline only reads it.

`read_base` exists so that what steers the reviewers (AGENTS.md, REVIEW.md) is read from the
branch the change goes into, never from the change under review: its author does not get to
write the reviewer's instructions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dualrag.source.git import GitRepo
from dualrag.source.target import TargetSide

Reader = Callable[[str], "bytes | None"]


@dataclass(frozen=True)
class ReviewSource:
    diff: bytes
    read_file: Reader | None = None  # repository-relative path -> new-file bytes (None: absent or too big)
    read_base: Reader | None = None  # the same, on the target side (merge base, target branch, HEAD)
    repo_root: Path | None = None
    head: str | None = None  # the commit under review, when known
    base_has: Callable[[str], bool] | None = None  # does this path (file or folder) exist on the target side?

    def target(self) -> TargetSide:
        """The target side as the skip rules ask it (a fresh memo for each ingest)."""
        return TargetSide(has=self.base_has, read=self.read_base)

    @classmethod
    def from_git(cls, git: GitRepo, diff: bytes, *, ref: str | None, base: str | None, max_file_bytes: int,
                 head: str | None = None) -> ReviewSource:
        """New files come from `ref`: a commit, the index (`source.git.INDEX`) or, None, the working
        tree; target-side files from the commit `base` (None: there is none, e.g. no commit yet)."""
        return cls(diff, read_file=lambda path: git.read_file(ref, path, max_file_bytes),
                   read_base=(lambda path: git.read_file(base, path, max_file_bytes)) if base else None,
                   repo_root=git.root, head=head,
                   base_has=(lambda path: git.has_path(base, path)) if base else None)
