"""Where a finding can sit in a merge request's diff.

A platform accepts an inline comment only on a line its diff shows: an added line (new side) or
a context line (both sides), and for a deleted file a removed line (old side). Anything else is
"unanchored" and goes into the summary note instead.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from dualrag.diff.model import ChangeSet, FileStatus
from dualrag.findings import Finding
from dualrag.review.fingerprint import fingerprint, loose_key

MAX_CODE_LINES = 20


@dataclass(frozen=True, slots=True)
class Anchor:
    path: str                 # new path
    old_path: str             # old path (= path unless renamed; the path for added files)
    new_line: int | None      # None only for a line that exists on the old side alone
    old_line: int | None      # set for context lines and removed lines
    kind: str                 # "+", " " or "-"

    def line_code(self) -> str:
        """GitLab's line_code: sha1 of the path, then old and new line numbers."""
        digest = hashlib.sha1(self.path.encode("utf-8")).hexdigest()  # noqa: S324 - GitLab's format
        return f"{digest}_{self.old_line or 0}_{self.new_line or 0}"


@dataclass(frozen=True, slots=True)
class Placed:
    """A finding with its identity and (maybe) its place in the diff."""

    finding: Finding
    fingerprint: str
    key: str
    anchor: Anchor | None
    span: tuple[int, int] | None = None  # new lines a one-click suggestion replaces (all shown by the diff)
    code: tuple[str, ...] = ()  # the new-file lines it points at (as fingerprinted)


class DiffIndex:
    """Line lookup over a ChangeSet: which new/old lines the diff shows, and their text."""

    def __init__(self, changes: ChangeSet):
        self._new: dict[str, dict[int, tuple[int | None, str, str]]] = {}
        self._old: dict[str, dict[int, str]] = {}
        self._old_path: dict[str, str] = {}
        for f in changes.files:
            if f.binary:
                continue
            old_path = f.old_path or f.path
            self._old_path[f.path] = old_path
            new_lines: dict[int, tuple[int | None, str, str]] = {}
            old_lines: dict[int, str] = {}
            for hunk in f.hunks:
                for line in hunk.lines:
                    if line.new_no is not None and line.kind in "+ ":
                        new_lines[line.new_no] = (line.old_no if line.kind == " " else None, line.kind, line.text)
                    if line.kind == "-" and line.old_no is not None:
                        old_lines[line.old_no] = line.text
            if f.status == FileStatus.DELETED:
                self._old[f.path] = old_lines
            self._new[f.path] = new_lines

    def code(self, finding: Finding) -> list[str]:
        lines = self._new.get(finding.path, {})
        end = max(finding.end_line or finding.line, finding.line)
        end = min(end, finding.line + MAX_CODE_LINES - 1)
        out = [lines[n][2] for n in range(finding.line, end + 1) if n in lines]
        if not out and finding.path in self._old:
            out = [self._old[finding.path].get(finding.line, "")]
        return out

    def anchor(self, finding: Finding) -> Anchor | None:
        old_path = self._old_path.get(finding.path)
        if old_path is None:
            return None
        hit = self._new.get(finding.path, {}).get(finding.line)
        if hit is not None:
            old_no, kind, _ = hit
            return Anchor(finding.path, old_path, finding.line, old_no, kind)
        if finding.line in self._old.get(finding.path, {}):
            return Anchor(finding.path, old_path, None, finding.line, "-")
        return None

    def span(self, finding: Finding, anchor: Anchor | None) -> tuple[int, int] | None:
        """The lines `finding.replacement` replaces, when the comment sits on the first of them and
        the platform's diff shows every one on the new side (else no suggestion can be applied)."""
        if finding.replacement is None or anchor is None or anchor.new_line != finding.line:
            return None
        lines = self._new.get(finding.path, {})
        end = max(finding.end_line or finding.line, finding.line)
        old = [lines[n][2] for n in range(finding.line, end + 1) if n in lines]
        if len(old) != end - finding.line + 1 or old == finding.replacement.split("\n"):
            return None
        return finding.line, end

    def place(self, finding: Finding) -> Placed:
        code = self.code(finding)
        anchor = self.anchor(finding)
        return Placed(finding, fingerprint(finding, code), loose_key(finding, code), anchor, self.span(finding, anchor),
                      tuple(code))
