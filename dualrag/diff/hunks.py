"""Turn one file's diff text into Hunks with old and new line numbers on every line."""

from __future__ import annotations

from unidiff import PatchSet
from unidiff.constants import LINE_TYPE_NO_NEWLINE

from dualrag.diff.model import DiffLine, Hunk


def parse_hunks(section: str) -> tuple[Hunk, ...]:
    """Parse the hunks of a single file's section (already decoded, already validated).

    The "\\ No newline at end of file" marker is not a line of code: it becomes the
    `no_eol` flag of the line before it.
    """
    if not section:
        return ()
    patch = PatchSet(section)
    if not patch:
        return ()
    return tuple(_convert(h) for h in patch[0])


def _convert(hunk) -> Hunk:
    lines: list[DiffLine] = []
    for line in hunk:
        if line.line_type == LINE_TYPE_NO_NEWLINE:
            if lines:
                lines[-1] = lines[-1]._replace(no_eol=True)
            continue
        if line.source_line_no is None and line.target_line_no is None:
            continue  # a blank separator line after the hunk, not part of it
        kind = line.line_type if line.line_type in "+-" else " "
        lines.append(
            DiffLine(kind, line.source_line_no, line.target_line_no, line.value.rstrip("\r\n"))
        )
    return Hunk(
        old_start=hunk.source_start,
        old_len=hunk.source_length,
        new_start=hunk.target_start,
        new_len=hunk.target_length,
        header=hunk.section_header.strip(),
        lines=tuple(lines),
    )
