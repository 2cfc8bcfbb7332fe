"""What a parse tells later stages: members (with 1-based inclusive line ranges) and cut points."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Member:
    """A declaration a chunk boundary may fall around: a type, a method, an XML element...

    `cuts` are the lines inside the member where a statement or child element starts: the only
    places an oversized member is split at.
    """

    kind: str  # class, interface, enum, record, annotation, method, constructor, initializer, lambda, element
    name: str  # qualified: com.acme.Foo.bar(int,String); XML: flow/step[id=x]
    signature: str  # the declaration head, whitespace normalised
    start: int
    end: int
    cuts: tuple[int, ...] = ()
    groups: bool = True  # hunks are grouped by this member (False for types and lambdas)

    def contains(self, line: int) -> bool:
        return self.start <= line <= self.end


@dataclass(frozen=True, slots=True)
class Outline:
    members: tuple[Member, ...] = ()
    error: str | None = None  # why the structure cannot be trusted (syntax errors, too large...)
    partial: bool = False  # members come from the fragments a diff shows, not the whole file
