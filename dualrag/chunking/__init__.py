"""Chunking (ARCHITECTURE.md, stage 2): a ChangeSet -> chunks that each fit a token budget.

    from dualrag.chunking import chunk_changes
    plan = chunk_changes(changes, estimator=get_estimator("fast"), config=settings.chunking,
                         budget=None, read_file=None)
    for chunk in plan.chunks: chunk.id, chunk.files, chunk.members, chunk.estimated_tokens

`read_file(path) -> bytes | None` gives the new file's bytes (from a repository); with it each
chunk carries the whole text of its enclosing members, without it members come from the text
the diff shows.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from dualrag.chunking.budget import budget_for
from dualrag.chunking.model import Budget, Chunk, ChunkMember, ChunkPlan, HunkSlice
from dualrag.chunking.packer import Counter, Packer, Prepared
from dualrag.chunking.render import diff_line, file_header
from dualrag.chunking.units import Unit, file_units
from dualrag.config import ChunkingConfig, LimitsConfig
from dualrag.diff.model import ChangeSet, FileDiff, FileStatus
from dualrag.source.encoding import decode

__all__ = [
    "Budget", "Chunk", "ChunkMember", "ChunkPlan", "HunkSlice", "budget_for", "chunk_changes",
]

Reader = Callable[[str], "bytes | None"]
_MAX_REPAIRS = 8


def chunk_changes(
    changes: ChangeSet,
    *,
    estimator,
    config: ChunkingConfig,
    budget: int | None = None,
    read_file: Reader | None = None,
    window: int | None = None,
    limits: LimitsConfig | None = None,
) -> ChunkPlan:
    """Chunks of the reviewable files, each estimated at or below the budget. `window`: the
    reading model's context window (else `config.window_tokens`); `limits`: the XML
    shape parsed for element boundaries."""
    b = budget_for(config, window=window, override=budget)
    counter = Counter(estimator)
    files = sorted((f for f in changes.reviewable), key=lambda f: (posixpath.dirname(f.path), f.path))
    prepared: dict[str, Prepared] = {}
    plan_notes: list[str] = []
    for f in files:
        prepared[f.path] = _prepare(f, counter, read_file, config.max_file_bytes, limits)
    probe = Packer(counter, b.chunk_tokens, b.chunk_tokens, config.overlap_lines)
    total = sum(p.header_cost + sum(probe.unit_cost(p, u) for u in p.fu.units) for p in prepared.values())
    limit = b.start_above if total <= b.start_above else b.chunk_tokens
    packer = Packer(counter, limit, max(1, int(limit * (1 - b.margin))), config.overlap_lines)

    groups: list[list[Unit]] = []
    current: list[Unit] = []
    current_cost, current_files = 0, set()
    for p in prepared.values():
        for piece in packer.pieces(p):
            cost = sum(packer.unit_cost(p, u) for u in piece)
            cost += 0 if p.path in current_files else p.header_cost
            if current and current_cost + cost > packer.pack_limit:
                groups.append(current)
                current, current_cost, current_files = [], 0, set()
                cost = sum(packer.unit_cost(p, u) for u in piece) + p.header_cost
            current.extend(piece)
            current_cost += cost
            current_files.add(p.path)
    if current:
        groups.append(current)

    chunks: list[Chunk] = []
    for group in groups:
        chunks.extend(_fit(packer, group, prepared, len(chunks), 0))
    return ChunkPlan(
        chunks=tuple(chunks), budget=b, limit=limit, estimator=getattr(estimator, "name", type(estimator).__name__),
        total_tokens=total, notes=tuple(plan_notes),
    )


def _fit(packer: Packer, units: list[Unit], prepared: dict[str, Prepared], done: int, depth: int) -> list[Chunk]:
    """Render a group; should its estimate pass the budget less the margin (estimates of parts do
    not add up exactly), halve the group, or re-split its one unit tighter. The margin is the
    estimator's error: a chunk estimated within it holds at most the budget in real tokens as long
    as the estimator under-counts by less than the margin (scripts/bench/tokens.py measures it)."""
    chunk = packer.chunk(done + 1, units, prepared)
    if chunk.estimated_tokens <= packer.pack_limit or depth >= _MAX_REPAIRS:
        if chunk.estimated_tokens > packer.pack_limit:
            chunk = _with_note(chunk, f"estimate {chunk.estimated_tokens} is above the budget {packer.limit} "
                                      f"less its {packer.limit - packer.pack_limit}-token margin")
        return [chunk]
    if len(units) > 1:
        half = len(units) // 2
        first = _fit(packer, units[:half], prepared, done, depth + 1)
        return first + _fit(packer, units[half:], prepared, done + len(first), depth + 1)
    unit = units[0]
    p = prepared[unit.path]
    if unit.member_text is not None:
        unit.member_text = None
        unit.notes.append(f"whole text of {unit.member.name} left out: it alone exceeds the budget")
        return _fit(packer, [unit], prepared, done, depth + 1)
    tighter = int(packer.pack_limit * (0.8 ** (depth + 1)))
    parts = packer.split(p, unit, tighter)
    out: list[Chunk] = []
    for part in ([parts] if len(parts) == 1 else [[x] for x in parts]):
        out.extend(_fit(packer, part, prepared, done + len(out), depth + 1))
    return out


def _with_note(chunk: Chunk, note: str) -> Chunk:
    from dataclasses import replace

    return replace(chunk, notes=(*chunk.notes, note))


def _prepare(f: FileDiff, counter: Counter, read_file: Reader | None, max_bytes: int,
             limits: LimitsConfig | None = None) -> Prepared:
    notes: list[str] = []
    new_text = None
    # A sampled file (limits.max_line_chars) stays a sample: its whole new text would bring the bulk back.
    if read_file is not None and f.status != FileStatus.DELETED and not f.binary and not f.sampled_lines and f.hunks:
        new_text, note = _new_text(f, read_file, max_bytes)
        if note:
            notes.append(note)
    fu = file_units(f, new_text, limits)
    notes.extend(fu.notes)
    keys, texts = [], []
    for h_idx, hunk in enumerate(f.hunks):
        for i, line in enumerate(hunk.lines):
            keys.append((h_idx, i))
            texts.append(diff_line(line.kind, line.text))
    line_cost = dict(zip(keys, counter.many(texts)))
    status = str(f.status)
    return Prepared(fu=fu, status=status, headers=[h.header for h in f.hunks],
                    header_cost=counter.one(file_header(f.path, status)), line_cost=line_cost, notes=notes)


def _new_text(f: FileDiff, read_file: Reader, max_bytes: int) -> tuple[str | None, str | None]:
    """The new file as text with LF endings, or None with why; it must agree with the diff."""
    try:
        data = read_file(f.path)
    except Exception as exc:  # noqa: BLE001 - a reader failure costs context, never the review
        return None, f"{f.path}: new file not read ({type(exc).__name__}); members from partial text"
    if data is None:
        return None, None
    if len(data) > max_bytes:
        return None, f"{f.path}: new file above chunking.max_file_bytes; members from partial text"
    text, _ = decode(data)
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    for hunk in f.hunks:
        for line in hunk.lines:
            if line.kind != "-" and line.new_no is not None:
                if line.new_no > len(lines) or lines[line.new_no - 1].rstrip("\r") != line.text:
                    return None, f"{f.path}: new file does not match the diff; members from partial text"
    return text, None
