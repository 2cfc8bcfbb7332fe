"""A file's hunks: every line with its old and new line number, parsed from the file's diff text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from unidiff import PatchSet
from unidiff.constants import LINE_TYPE_NO_NEWLINE


class DiffLine(NamedTuple):
    """One line of a hunk. `text` has its line ending removed (CRLF facts live on FileDiff)."""

    kind: str  # "+", "-" or " "
    old_no: int | None
    new_no: int | None
    text: str
    no_eol: bool = False  # "\ No newline at end of file" followed this line


@dataclass(frozen=True, slots=True)
class Hunk:
    old_start: int
    old_len: int
    new_start: int
    new_len: int
    header: str  # the text after the second "@@", often the enclosing function
    lines: tuple[DiffLine, ...]

    @property
    def new_range(self) -> tuple[int, int]:
        """First and last line of the new file this hunk covers (inclusive)."""
        return self.new_start, self.new_start + max(self.new_len, 1) - 1

    @property
    def added(self) -> tuple[DiffLine, ...]:
        return tuple(line for line in self.lines if line.kind == "+")

    @property
    def removed(self) -> tuple[DiffLine, ...]:
        return tuple(line for line in self.lines if line.kind == "-")


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
