"""The reverse check: a complaint about a change must not hold just as well for the change undone.

A model that judges the shape of a diff rather than its meaning raises the same complaint about a
change and about its reversal ("null dereference" on an added null check, and again on the same
check removed). So when a reviewer raises a warning or worse on a chunk, the same reviewer, with
the same rules and code context, is asked about the chunk reversed: old lines shown as added, new
lines as removed, numbered in the old file. A finding whose hunk draws a warning-or-worse again in
the reversed chunk is not about what the change did; it is dropped, and the review says how many.

Cost: one more call per chunk and reviewer, only where a warning was raised. A reverse call that
fails keeps the findings (the check never loses a finding because it could not run).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dualrag.chunking.model import Chunk, HunkSlice
from dualrag.diff.hunks import DiffLine
from dualrag.review.coordinator import normalise_path
from dualrag.review.prompt import RawFinding

RAISED = frozenset({"critical", "warning"})  # a model's severities that a verdict weighs


def raised(findings: Sequence[RawFinding]) -> list[RawFinding]:
    return [f for f in findings if f.severity in RAISED]


def reversed_chunk(chunk: Chunk) -> Chunk:
    """The chunk undone: `+` and `-` swapped, old and new numbers swapped. The enclosing members
    are left out: they are the new file's text, which the reversed chunk shows as removed."""
    return replace(chunk, id=f"{chunk.id}.reversed", hunks=tuple(_reverse(h) for h in chunk.hunks), members=(),
                   text="")


def _reverse(h: HunkSlice) -> HunkSlice:
    """Swapped kinds and numbers, each run of changed lines reordered removed-first as a diff tool
    writes it: the reversed chunk reads exactly like the diff of the change undone."""
    flip = {"+": "-", "-": "+", " ": " "}
    lines: list[DiffLine] = []
    run: list[DiffLine] = []
    for ln in (*h.lines, None):
        if ln is not None and ln.kind != " ":
            run.append(DiffLine(flip[ln.kind], ln.new_no, ln.old_no, ln.text, ln.no_eol))
            continue
        lines += [x for x in run if x.kind == "-"] + [x for x in run if x.kind == "+"]
        run = []
        if ln is not None:
            lines.append(DiffLine(" ", ln.new_no, ln.old_no, ln.text, ln.no_eol))
    return HunkSlice(h.path, h.new_start, h.new_len, h.old_start, h.old_len, h.header, tuple(lines))


def echoed(findings: Sequence[RawFinding], chunk: Chunk, reverse_answer: Sequence[RawFinding]) -> list[RawFinding]:
    """The warning-or-worse `findings` (new-file lines of `chunk`) whose hunk also drew one in the
    reversed chunk's answer (old-file lines of the same hunk)."""
    echoes = raised(reverse_answer)
    out = []
    for f in raised(findings):
        hunk = _hunk_of(chunk, f.path, f.line)
        if hunk is None:
            continue
        lo, hi = hunk.old_start, hunk.old_start + max(hunk.old_len, 1) - 1
        if any(_same_path(e.path, hunk.path) and lo - 1 <= e.line <= hi + 1 for e in echoes):
            out.append(f)
    return out


def _hunk_of(chunk: Chunk, path: str, line: int) -> HunkSlice | None:
    for h in chunk.hunks:
        lo, hi = h.new_range
        if _same_path(path, h.path) and lo - 1 <= line <= hi + 1:
            return h
    return None


def _same_path(written: str, path: str) -> bool:
    """`written` (by a model) names the diff's `path`, whole or as its tail."""
    written = normalise_path(written)
    return written == path or path.endswith("/" + written)
