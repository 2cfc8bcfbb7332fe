"""Typed chunks: what the chunker hands to retrieval and review (frozen, no behaviour)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dualrag.diff.hunks import DiffLine


@dataclass(frozen=True, slots=True)
class Budget:
    """Token budgets derived from a model's context window (ARCHITECTURE.md, stage 2)."""

    window: int
    usable: int  # window x usable_fraction
    start_above: int  # one chunk while the whole review estimate stays at or below this
    chunk_tokens: int  # the most one chunk may hold once chunking starts
    margin: float  # share of a budget kept free for estimator error while packing


@dataclass(frozen=True, slots=True)
class HunkSlice:
    """A run of consecutive lines of one hunk (a whole hunk, or the part inside one member)."""

    path: str
    old_start: int
    old_len: int
    new_start: int
    new_len: int
    header: str  # the original hunk header, often the enclosing signature
    lines: tuple[DiffLine, ...] = field(repr=False)

    @property
    def new_range(self) -> tuple[int, int]:
        return self.new_start, self.new_start + max(self.new_len, 1) - 1

    @classmethod
    def of_lines(cls, path: str, header: str, lines: tuple[DiffLine, ...]) -> HunkSlice:
        """The slice holding `lines` (consecutive lines of one hunk), with its header numbers."""
        old = [ln.old_no for ln in lines if ln.old_no is not None]
        new = [ln.new_no for ln in lines if ln.new_no is not None]
        old_len = sum(1 for ln in lines if ln.kind != "+")
        new_len = sum(1 for ln in lines if ln.kind != "-")
        # An empty side starts just before where the other side's lines go (unified-diff convention).
        old_start = old[0] if old else max(0, (new[0] if new else 1) - 1)
        new_start = new[0] if new else max(0, (old[0] if old else 1) - 1)
        return cls(path, old_start, old_len, new_start, new_len, header, lines)


@dataclass(frozen=True, slots=True)
class ChunkMember:
    """An enclosing declaration of changed lines: method, constructor, type, XML element..."""

    path: str
    kind: str
    name: str  # qualified: com.acme.Foo.bar(int,String)
    signature: str
    start_line: int  # new-file lines, inclusive
    end_line: int
    text: str | None = field(default=None, repr=False)  # the whole member from the new file, when read
    partial: bool = False  # found in the fragments a diff shows, not in the whole file
    split: bool = False  # the member alone exceeded the budget: this chunk holds one part of it


@dataclass(frozen=True, slots=True)
class Chunk:
    id: str  # c1, c2, ... in order
    files: tuple[str, ...]
    hunks: tuple[HunkSlice, ...]
    members: tuple[ChunkMember, ...]
    estimated_tokens: int  # of `text`, by the estimator the chunker was given
    split_member: bool = False  # a member alone exceeded the budget and was cut at statements
    notes: tuple[str, ...] = ()
    text: str = field(default="", repr=False)  # what a prompt receives for this chunk


@dataclass(frozen=True, slots=True)
class ChunkPlan:
    chunks: tuple[Chunk, ...]
    budget: Budget
    limit: int  # the budget the chunks were packed under (start_above when one chunk sufficed)
    estimator: str
    total_tokens: int  # estimate of the whole review before chunking
    notes: tuple[str, ...] = ()
