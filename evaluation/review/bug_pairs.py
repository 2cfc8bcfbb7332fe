"""Bug/fix pairs from the Defects4J rows of `../shared/eval/bugs/dev.jsonl`.

Direction (checked against the data, not the issue text): Defects4J stores each source patch
fixed → buggy, so a row's `diff` is the **bug-introducing** change: its `+` lines are the buggy
lines, exactly the `changed` entries of `buggy_lines`, and its deletion-only blocks are the
`omission_anchor` entries. `reverse_diff(diff)` is then the **fix**. `Pair.check()` recomputes
the bug side's targets from the diff and compares them with `buggy_lines`, so a row stored the
other way round would be reported, not silently scored backwards.

A side's *targets* are the new-side lines a finding about that change would sit on: every `+`
line, and for a block that only deletes, the new-side line right after the gap (where the
coordinator also places findings about a removal).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import unidiff

from evaluation.core import datasets
from evaluation.core.heldout import seeded

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")

Target = tuple[str, int]  # (new-side path, new-side line)


@dataclass(frozen=True)
class Pair:
    id: str
    project: str
    bug_diff: str  # the row's diff: introduces the bug
    buggy_lines: tuple[Target, ...]

    @property
    def fix_diff(self) -> str:
        return reverse_diff(self.bug_diff)

    def diff(self, side: str) -> str:
        return self.bug_diff if side == "bug" else self.fix_diff

    def targets(self, side: str) -> frozenset[Target]:
        return targets(self.diff(side))

    def check(self) -> str | None:
        """None when the bug side's targets are the row's `buggy_lines`, else what differs."""
        mine, theirs = self.targets("bug"), frozenset(self.buggy_lines)
        if mine == theirs:
            return None
        return f"{self.id}: targets differ from buggy_lines (only ours {sorted(mine - theirs)[:3]}, " \
               f"only theirs {sorted(theirs - mine)[:3]})"


def load_pairs(path: Path | None = None) -> list[Pair]:
    """The pairs of bugs/dev.jsonl (or of another file of its shape, such as heldout/math.jsonl)."""
    pairs = []
    for row in datasets.bugs(path):
        pairs.append(Pair(id=row["id"], project=row.get("project", ""), bug_diff=row["diff"],
                          buggy_lines=tuple((b["file"], int(b["line"])) for b in row["buggy_lines"])))
    return pairs


def sample(pairs: list[Pair], limit: int | None, seed: int) -> list[Pair]:
    """A seeded sample: the same pairs for every system and every run with this seed; a larger
    limit extends a smaller one (the order is one seeded shuffle, cut at `limit`)."""
    return seeded(sorted(pairs, key=lambda p: p.id), limit, seed)


# ------------------------------------------------------------------------------ targets


def targets(diff: str) -> frozenset[Target]:
    found: set[Target] = set()
    for patched in unidiff.PatchSet(diff):
        path = _strip(patched.target_file)
        for hunk in patched:
            found.update((path, n) for n in _hunk_targets(hunk))
    return frozenset(found)


def new_lines(diff: str) -> dict[Target, str]:
    """The new side's text of every added and context line the diff shows, by (path, line)."""
    return {(_strip(patched.target_file), line.target_line_no): line.value.rstrip("\r\n")
            for patched in unidiff.PatchSet(diff) for hunk in patched for line in hunk
            if line.is_added or line.is_context}


def _hunk_targets(hunk: unidiff.Hunk) -> Iterator[int]:
    removal_pending = False
    for line in hunk:
        if line.is_added:
            removal_pending = False
            yield line.target_line_no
        elif line.is_removed:
            removal_pending = True
        elif line.is_context:
            if removal_pending:
                yield line.target_line_no
            removal_pending = False


def _strip(name: str) -> str:
    return name[2:] if name[:2] in ("a/", "b/") else name


# ------------------------------------------------------------------------------ reversal


def reverse_diff(diff: str) -> str:
    """The inverse patch: old and new swapped in headers, hunk ranges and lines. Within each
    change block the (new) removals come before the (new) additions, as diff tools write them;
    a `\\ No newline at end of file` marker stays with the line it follows."""
    lines = diff.splitlines(keepends=True)
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("diff --git "):
            a, _, b = line[len("diff --git "):].rstrip("\n").partition(" b/")
            out.append(f"diff --git a/{b} b/{a.removeprefix('a/')}\n")
        elif line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old, new = line[4:].rstrip("\n"), lines[i + 1][4:].rstrip("\n")
            out.append(f"--- {_side(new, 'a/')}\n+++ {_side(old, 'b/')}\n")
            i += 1
        elif line.startswith("index "):
            hashes, sep, mode = line[len("index "):].partition(" ")
            old, _, new = hashes.rstrip("\n").partition("..")
            out.append(f"index {new}..{old}{sep}{mode}" + ("" if sep else "\n"))
        elif line.startswith("new file mode"):
            out.append(line.replace("new file mode", "deleted file mode", 1))
        elif line.startswith("deleted file mode"):
            out.append(line.replace("deleted file mode", "new file mode", 1))
        elif (m := _HUNK.match(line.rstrip("\n"))) is not None:
            o_start, o_len, n_start, n_len, tail = m.groups()
            out.append(f"@@ -{n_start}{',' + n_len if n_len is not None else ''} "
                       f"+{o_start}{',' + o_len if o_len is not None else ''} @@{tail}\n")
            body, i = _hunk_body(lines, i + 1, int(o_len or 1), int(n_len or 1))
            out.extend(_reverse_body(body))
            continue
        else:
            out.append(line)
        i += 1
    return "".join(out)


def _side(name: str, prefix: str) -> str:
    if name == "/dev/null":
        return name
    return prefix + _strip(name)


def _hunk_body(lines: list[str], i: int, old_left: int, new_left: int) -> tuple[list[str], int]:
    """The hunk's lines (by its counts, so a following `--- ` header is never taken as a removal)."""
    body: list[str] = []
    while i < len(lines) and (old_left > 0 or new_left > 0 or lines[i].startswith("\\")):
        line = lines[i]
        kind = line[:1]
        if kind == "-":
            old_left -= 1
        elif kind == "+":
            new_left -= 1
        elif kind != "\\":  # context (an empty line is context whose space was stripped)
            old_left -= 1
            new_left -= 1
        body.append(line)
        i += 1
    return body, i


def _reverse_body(body: list[str]) -> Iterator[str]:
    removed: list[str] = []  # lines that will read '-' (were '+'), with their markers
    added: list[str] = []
    last: list[str] | None = None
    for line in body:
        kind = line[:1]
        if kind == "\\":
            if last is not None:
                last.append(line)
            else:
                yield line
            continue
        if kind in ("+", "-"):
            last = removed if kind == "+" else added
            last.append(("-" if kind == "+" else "+") + line[1:])
            continue
        yield from removed
        yield from added
        removed, added, last = [], [], None
        yield line
    yield from removed
    yield from added
