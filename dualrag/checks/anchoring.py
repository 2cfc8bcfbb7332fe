"""Where a finding about a removed line sits: the new-file line now at the removed line's place
(the next line that survives, else the previous one), so it can be shown on the change."""

from __future__ import annotations

from collections.abc import Sequence

from dualrag.diff.hunks import DiffLine


def removal_anchor(lines: Sequence[DiffLine], index: int) -> int:
    """The new-file line where `lines[index]` (a removed line) used to be."""
    for line in lines[index + 1:]:
        if line.new_no is not None:
            return line.new_no
    for line in reversed(lines[:index]):
        if line.new_no is not None:
            return line.new_no
    return 1
