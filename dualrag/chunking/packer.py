"""Pack units into chunks under a token budget.

Level 1: a file whose units fit stays whole, and small files share chunks in folder order.
Level 2: a file that does not fit is packed unit by unit (member by member).
Last resort: a unit that alone exceeds the budget is cut at statement starts with a small overlap;
a line longer than the budget is cut into pieces. Every cut is said in the chunk's notes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dualrag.chunking import render
from dualrag.chunking.model import Chunk, ChunkMember
from dualrag.chunking.units import FileUnits, Located, Unit
from dualrag.diff.hunks import DiffLine
from dualrag.tokens import FastEstimator

_LONG = 16_000  # characters: longer texts are counted in slices, keeping tokenizer time linear
_SLICE = 8_000


class Counter:
    """Token counts through the estimator, with long texts counted in slices (a tokenizer's
    merge step can be quadratic on one 100k-character word; a slice sum stays an upper bound
    in practice, since merges across slice edges only lower the count). The fast estimator
    tokenises only short windows of a long text: it takes it whole."""

    def __init__(self, estimator):
        self.estimator = estimator
        self.long = math.inf if isinstance(estimator, FastEstimator) else _LONG

    def many(self, texts: list[str]) -> list[int]:
        short = self.estimator.count_many([t if len(t) <= self.long else "" for t in texts])
        return [c if len(t) <= self.long else self.one(t) for t, c in zip(texts, short)]

    def one(self, text: str) -> int:
        if len(text) <= self.long:
            return self.estimator.count(text)
        return sum(self.estimator.count_many([text[i : i + _SLICE] for i in range(0, len(text), _SLICE)]))


@dataclass
class Prepared:
    """One file's units with the token cost of every rendered line."""

    fu: FileUnits
    status: str
    headers: list[str]
    header_cost: int
    line_cost: dict[tuple[int, int], int]
    notes: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        return self.fu.file.path


class Packer:
    def __init__(self, counter: Counter, limit: int, pack_limit: int, overlap: int):
        self.counter, self.limit, self.pack_limit, self.overlap = counter, limit, pack_limit, overlap
        self._piece_cost: dict[tuple[int, int, int], int] = {}

    # ---------------------------------------------------------------- costs
    def unit_cost(self, p: Prepared, u: Unit) -> int:
        cost = 0
        for s in render.runs(p.path, u.lines, p.headers):
            cost += self.counter.one(render.slice_header(s))
        cost += sum(self._line_cost(p, item) for item in u.lines)
        if u.member_text is not None and u.member is not None:
            cost += self.counter.one(render.member_block(u.member, u.member_text))
        return cost

    def _line_cost(self, p: Prepared, item: Located) -> int:
        line = item[2]
        if line is p.fu.file.hunks[item[0]].lines[item[1]]:
            return p.line_cost[(item[0], item[1])]
        return self.counter.one(render.diff_line(line.kind, line.text))  # a piece of a long line

    # ---------------------------------------------------------------- packing
    def pieces(self, p: Prepared) -> list[list[Unit]]:
        """Whole file when it fits; else one piece per unit, oversized units split."""
        costs = [self.unit_cost(p, u) for u in p.fu.units]
        if p.header_cost + sum(costs) <= self.pack_limit:
            return [p.fu.units]
        out: list[list[Unit]] = []
        for unit, cost in zip(p.fu.units, costs):
            if p.header_cost + cost > self.pack_limit and unit.member_text is not None:
                unit.notes.append(f"whole text of {unit.member.name} left out: it alone exceeds the budget")
                unit.member_text = None
                cost = self.unit_cost(p, unit)
            if p.header_cost + cost <= self.pack_limit:
                out.append([unit])
            else:
                out.extend([part] for part in self.split(p, unit, self.pack_limit))
        return out

    def split(self, p: Prepared, unit: Unit, limit: int) -> list[Unit]:
        """Cut an oversized unit at statement starts (any line boundary for unstructured text),
        repeating the last `overlap` lines of a part at the start of the next."""
        reserve = p.header_cost + max((self.counter.one(h) for h in p.headers), default=0) + 16
        room = max(8, limit - reserve)
        lines, long_notes = self._cut_long_lines(p, unit.lines, max(4, room // 2))
        costs = [self._line_cost(p, item) for item in lines]
        header = reserve - p.header_cost
        cuts = unit.cuts
        anchors = _anchors(p, lines)
        parts: list[list[Located]] = []
        inside = False
        start, n = 0, len(lines)
        while start < n:
            cost, last_cut, i = p.header_cost + header, None, start
            while i < n:
                brk = i > start and _breaks(lines[i - 1], lines[i])
                c = costs[i] + (header if brk else 0)
                if cost + c > limit and i > start:
                    break
                cost += c
                if i > start and (cuts is None or brk or anchors[i] in cuts) and lines[i][1] != lines[i - 1][1]:
                    last_cut = i
                i += 1
            if i >= n:
                end = n
            elif last_cut is not None:
                end = last_cut
            else:
                end, inside = i, True
            parts.append(lines[start:end])
            if end >= n:
                break
            nxt = end
            # Overlap repeats whole lines only (never pieces of a cut line), and only while what
            # follows still fits with it: progress beats context.
            if lines[end][1] != lines[end - 1][1] or lines[end][0] != lines[end - 1][0]:
                while nxt > max(end - self.overlap, start + 1) and _original(p, lines[nxt - 1]):
                    nxt -= 1
                if sum(costs[nxt:end]) + costs[end] + p.header_cost + 2 * header > limit:
                    nxt = end
            start = nxt
        name = unit.member.name if unit.member else f"hunk in {unit.path}"
        how = "statement boundaries" if unit.cuts is not None and not inside else "line boundaries"
        note = (f"{name} alone exceeds the budget: split into {len(parts)} parts at {how}"
                f" with up to {self.overlap} lines of overlap")
        out = []
        for k, part in enumerate(parts, 1):
            out.append(Unit(unit.path, f"{unit.key}#{k}", part, unit.member, None, unit.cuts,
                            unit.lambdas, [*unit.notes, *long_notes, f"{note} (part {k}/{len(parts)})"],
                            split=unit.member is not None and unit.member.groups))
        return out

    def _cut_long_lines(self, p: Prepared, lines: list[Located], room: int) -> tuple[list[Located], list[str]]:
        out: list[Located] = []
        notes: list[str] = []
        for item in lines:
            if self._line_cost(p, item) <= room:
                out.append(item)
                continue
            pieces = self._pieces(item[2], room)
            number = item[2].new_no or item[2].old_no
            notes.append(f"line {number} of {p.path} is longer than the budget: cut into {len(pieces)} pieces")
            out.extend((item[0], item[1], piece) for piece in pieces)
        return out, notes

    def _pieces(self, line: DiffLine, room: int) -> list[DiffLine]:
        """Halve a line until every piece fits: O(n log n) counting, whatever the line holds."""
        todo, done = [line.text], []
        while todo:
            text = todo.pop()
            if len(text) <= 1 or self.counter.one(render.diff_line(line.kind, text)) <= room:
                done.append(text)
            else:
                mid = len(text) // 2
                todo.extend([text[mid:], text[:mid]])
        return [line._replace(text=t) for t in done]

    # ---------------------------------------------------------------- chunks
    def chunk(self, number: int, units: list[Unit], prepared: dict[str, Prepared]) -> Chunk:
        text, files, slices, members, notes = [], [], [], [], []
        seen_members = set()
        by_file: dict[str, list[Unit]] = {}
        for u in units:
            by_file.setdefault(u.path, []).append(u)
        for path, group in by_file.items():
            p = prepared[path]
            files.append(path)
            text.append(render.file_header(path, p.status))
            for note in p.notes:
                if note not in notes:
                    notes.append(note)
            # Units of one file sharing a chunk render as the original hunks, in file order.
            seen, merged = set(), []
            for item in sorted((x for u in group for x in u.lines), key=lambda x: (x[0], x[1])):
                key = (item[0], item[1], id(item[2]))
                if key not in seen:
                    seen.add(key)
                    merged.append(item)
            for s in render.runs(path, merged, p.headers):
                slices.append(s)
                text.append(render.slice_header(s))
                text.extend(render.diff_line(ln.kind, ln.text) for ln in s.lines)
            for u in group:
                for note in u.notes:
                    if note not in notes:
                        notes.append(note)
            for u in group:
                if u.member is not None and u.member_text is not None:
                    text.append(render.member_block(u.member, u.member_text))
                for m in ([u.member] if u.member else []) + u.lambdas:
                    key = (path, m.name, m.start)
                    if key in seen_members:
                        continue
                    seen_members.add(key)
                    members.append(ChunkMember(
                        path=path, kind=m.kind, name=m.name, signature=m.signature, start_line=m.start,
                        end_line=m.end, text=u.member_text if m is u.member else None,
                        partial=p.fu.outline is not None and p.fu.outline.partial,
                        split=u.split and m is u.member,
                    ))
        body = "".join(text)
        return Chunk(
            id=f"c{number}", files=tuple(files), hunks=tuple(slices), members=tuple(members),
            estimated_tokens=self.counter.one(body), split_member=any(u.split for u in units),
            notes=tuple(notes), text=body,
        )


def _original(p: Prepared, item: Located) -> bool:
    return item[2] is p.fu.file.hunks[item[0]].lines[item[1]]


def _breaks(a: Located, b: Located) -> bool:
    """A new slice (and @@ header) starts between these two lines."""
    return a[0] != b[0] or b[1] > a[1] + 1


def _anchors(p: Prepared, lines: list[Located]) -> list[int]:
    return [p.fu.anchors[(h_idx, i)] for h_idx, i, _ in lines]
