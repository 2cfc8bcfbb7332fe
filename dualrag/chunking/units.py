"""A file's diff lines grouped into units: one per enclosing member (Java method, XML top-level
element), else one per hunk. A unit is the smallest thing packed whole into a chunk."""

from __future__ import annotations

import bisect
import posixpath
from dataclasses import dataclass, field

from dualrag.config import LimitsConfig
from dualrag.diff.hunks import DiffLine
from dualrag.diff.model import FileDiff, FileStatus
from dualrag.languages.outline import outline, outline_fragment, parseable
from dualrag.parsing import Member, Outline

# (hunk index, line index in that hunk, line): the position makes runs and headers recoverable.
Located = tuple[int, int, DiffLine]



@dataclass
class Unit:
    path: str
    key: str
    lines: list[Located] = field(default_factory=list)
    member: Member | None = None
    member_text: str | None = None
    cuts: frozenset[int] | None = None  # new-file lines a split may start at; None = any line
    lambdas: list[Member] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    split: bool = False


@dataclass
class FileUnits:
    file: FileDiff
    units: list[Unit]
    outline: Outline | None
    notes: list[str]
    anchors: dict[tuple[int, int], int] = field(default_factory=dict)  # (hunk, line) -> new-file line


def grammar_for(f: FileDiff) -> str | None:
    """The language whose pack finds the file's members, or None (cut at hunk boundaries)."""
    return f.language if parseable(f.language) else None


def anchor(line: DiffLine, previous_new: int) -> int:
    """New-file line a diff line sits at; a removed line sits where the next new line starts."""
    return line.new_no if line.new_no is not None else previous_new + 1


def file_units(f: FileDiff, new_text: str | None, limits: LimitsConfig | None = None) -> FileUnits:
    hunks = f.hunks
    # A deleted file has no new side to find members in: its hunks are the units.
    grammar = grammar_for(f) if f.status != FileStatus.DELETED else None
    notes: list[str] = []
    out: Outline | None = None
    if grammar and hunks:
        stem = posixpath.splitext(posixpath.basename(f.path))[0]
        if new_text is not None:
            out = outline(grammar, new_text, fallback_type=stem, limits=limits)
        else:
            out = _fragments_outline(f, grammar, stem, limits)
        if out.error:
            notes.append(f"{f.path}: {out.error}; split at hunk boundaries")
            out = None
        elif out.partial:
            notes.append(f"{f.path}: members come from partial text (the diff's context lines)")
    anchors = _anchor_map(f)
    if out is None:
        return FileUnits(f, _by_hunk(f), None, notes, anchors)
    return FileUnits(f, _by_member(f, out, new_text, anchors), out, notes, anchors)


def _anchor_map(f: FileDiff) -> dict[tuple[int, int], int]:
    out = {}
    for h_idx, hunk in enumerate(f.hunks):
        previous_new = hunk.new_start - 1
        for i, line in enumerate(hunk.lines):
            out[(h_idx, i)] = anchor(line, previous_new)
            if line.new_no is not None:
                previous_new = line.new_no
    return out


def _fragments_outline(f: FileDiff, grammar: str, stem: str, limits: LimitsConfig | None) -> Outline:
    found: list[tuple[Member, bool]] = []  # (member, runs past the end of its fragment)
    last_line = 0
    for hunk in f.hunks:
        shown = [line for line in hunk.lines if line.kind != "-"]
        text = "\n".join(line.text for line in shown) + "\n"
        old_text = "\n".join(line.text for line in hunk.lines if line.kind != "+") + "\n"
        part = outline_fragment(grammar, text, offset=hunk.new_start - 1, hint=hunk.header, fallback_type=stem,
                                old_text=old_text, limits=limits)
        if part.error:
            return part
        fragment_end = hunk.new_start - 1 + len(shown)
        last_line = max(last_line, fragment_end)
        found.extend((m, m.end >= fragment_end) for m in part.members)
    # A declaration cut off at its fragment's end goes on until the next one the diff shows:
    # two hunks in one long method then still group under that method.
    members: list[Member] = []
    starts = sorted(m.start for m, _ in found if m.groups)
    for m, open_end in found:
        if open_end:
            later = [s for s in starts if s > m.start]
            end = later[0] - 1 if later and m.groups else last_line
            m = Member(m.kind, m.name, m.signature, m.start, max(m.end, end), m.cuts, m.groups)
        members.append(m)
    members.sort(key=lambda m: (m.start, -m.end))
    return Outline(members=tuple(members), partial=True)


def _by_hunk(f: FileDiff) -> list[Unit]:
    units = []
    for h_idx, hunk in enumerate(f.hunks):
        units.append(Unit(f.path, f"hunk{h_idx}", [(h_idx, i, line) for i, line in enumerate(hunk.lines)]))
    return units


def _by_member(f: FileDiff, out: Outline, new_text: str | None, anchors: dict) -> list[Unit]:
    # Outermost grouping members are disjoint: a local or anonymous class's method belongs to
    # the method around it, never a chunk of its own.
    grouping: list[Member] = []
    for m in out.members:  # sorted by start, outer before inner
        outer = grouping[-1] if grouping else None
        nested = outer is not None and outer.start <= m.start and m.end <= outer.end and \
            (m.start, m.end) != (outer.start, outer.end)
        if m.groups and not nested:
            grouping.append(m)
    # Siblings sharing a line (minified XML, one-line methods side by side) cannot own lines by
    # number: their lines group by hunk instead of naming the wrong member.
    shared = {k for k in range(1, len(grouping)) if grouping[k].start <= grouping[k - 1].end}
    shared |= {k - 1 for k in shared}
    grouping = [m for k, m in enumerate(grouping) if k not in shared]
    starts = [m.start for m in grouping]
    # containers (types, objects, YAML sections): members that group nothing and are no lambda
    types = [m for m in out.members if not m.groups and m.kind != "lambda"]
    lambdas = [m for m in out.members if m.kind == "lambda"]
    new_lines = new_text.split("\n") if new_text is not None else None

    units: dict[str, Unit] = {}
    changed: list[tuple[int, Unit]] = []  # (new-file line, its unit) of every added or removed line
    for h_idx, hunk in enumerate(f.hunks):
        for i, line in enumerate(hunk.lines):
            at = anchors[(h_idx, i)]
            member = _outermost(grouping, starts, at) or _innermost(types, at)
            # Lines outside every member (imports, unknown context) group by hunk.
            key = member.name + f"@{member.start}" if member else f"hunk{h_idx}"
            unit = units.get(key)
            if unit is None:
                unit = units[key] = Unit(f.path, key, member=member)
                if member is not None:
                    unit.cuts = frozenset(member.cuts) | {member.start}
                    if member.groups and new_lines is not None:
                        unit.member_text = "\n".join(new_lines[member.start - 1 : member.end])
            unit.lines.append((h_idx, i, line))
            if line.kind != " ":
                changed.append((at, unit))
    _attach_lambdas(lambdas, changed)
    return _fold_context_only(list(units.values()))


def _attach_lambdas(lambdas: list[Member], changed: list[tuple[int, Unit]]) -> None:
    """Each unit gets the lambdas that hold one of its changed lines. Nested lambdas each hold
    almost every line, so lines are not tested against every lambda (cubic with 3,000 of them):
    per lambda, its range of changed lines is found by bisection and walked one run of the same
    unit at a time."""
    changed.sort(key=lambda c: c[0])
    lines = [at for at, _ in changed]
    # next_other[k]: the first index after k whose unit differs from k's
    next_other = [len(changed)] * len(changed)
    for k in range(len(changed) - 2, -1, -1):
        next_other[k] = k + 1 if changed[k + 1][1] is not changed[k][1] else next_other[k + 1]
    for lam in lambdas:
        k, stop = bisect.bisect_left(lines, lam.start), bisect.bisect_right(lines, lam.end)
        given: set[int] = set()  # units (by id) this lambda was already attached to
        while k < stop:
            unit = changed[k][1]
            if id(unit) not in given:
                given.add(id(unit))
                unit.lambdas.append(lam)
            k = next_other[k]


def _fold_context_only(units: list[Unit]) -> list[Unit]:
    """A unit of unchanged lines only (say, the class line above a changed method) is no reason
    for a chunk boundary: its lines join the unit of the nearest changed line of the same hunk."""
    owner: dict[tuple[int, int], Unit] = {}
    for u in units:
        for h_idx, i, line in u.lines:
            if line.kind != " ":
                owner[(h_idx, i)] = u
    kept = [u for u in units if any(line.kind != " " for _, _, line in u.lines)]
    if len(kept) == len(units) or not kept:
        return units
    for u in units:
        if u in kept:
            continue
        for h_idx, i, line in u.lines:
            near = min((k for k in owner if k[0] == h_idx), key=lambda k: abs(k[1] - i), default=None)
            target = owner[near] if near is not None else kept[0]
            target.lines.append((h_idx, i, line))
    for u in kept:
        u.lines.sort(key=lambda x: (x[0], x[1]))
    return kept


def _outermost(grouping: list[Member], starts: list[int], line: int) -> Member | None:
    i = bisect.bisect_right(starts, line) - 1
    return grouping[i] if i >= 0 and grouping[i].contains(line) else None


def _innermost(types: list[Member], line: int) -> Member | None:
    found = None
    for m in types:
        if m.contains(line) and (found is None or m.start >= found.start):
            found = m
    return found

