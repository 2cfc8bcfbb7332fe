"""What a change does, in a few lines, for the person who reads the report (or the MR summary)
first: which files changed and how, which members (methods, classes, elements) the changed lines
sit in, the risk tier and the project type.

`Walkthrough` is a value: this module builds the deterministic one from the review's files and
chunks (no LLM, the same bytes for the same change); a model-written one can replace it by filling
the same fields (`source="llm"`, `summary` per file and an `overview`), and every publisher shows
whichever the review carries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from dualrag.languages import pack_for


class _File(Protocol):  # a review's FileReport (review/model.py), which holds the walkthrough
    @property
    def path(self) -> str: ...
    @property
    def old_path(self) -> str | None: ...
    @property
    def status(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def binary(self) -> bool: ...
    @property
    def added(self) -> int: ...
    @property
    def removed(self) -> int: ...
    @property
    def skipped_reason(self) -> str | None: ...


class _Member(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def start_line(self) -> int: ...
    @property
    def end_line(self) -> int: ...


class _Chunk(Protocol):  # a review's ChunkReport
    @property
    def members(self) -> Sequence[_Member]: ...

# A whole file holds members in every language; each pack names its own containers (`containers`).
_FILE = "file"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class WalkthroughFile(_Model):
    path: str
    status: str  # added | modified | deleted | renamed ... (with the old path for a rename)
    change: str  # "+12 -3" or "binary"
    members: list[str] = Field(default_factory=list, description="changed members: `method Foo.bar(int)`")
    summary: str | None = None  # what the change does to this file (an LLM walkthrough fills it)
    skipped: str | None = None  # why the file was not reviewed


class Walkthrough(_Model):
    source: Literal["deterministic", "llm"] = "deterministic"
    overview: str
    files: list[WalkthroughFile] = Field(default_factory=list)


def _short(kind: str, name: str, containers: frozenset[str]) -> str:
    """`com.acme.OrderService.place(Order)` -> `OrderService.place(Order)`, `com.acme.Order` -> `Order`:
    the package adds nothing."""
    head, paren, params = name.partition("(")
    parts = head.split(".")
    return ".".join(parts[-1:] if kind in containers else parts[-2:]) + paren + params


def _members(path: str, language: str, chunks: Sequence[_Chunk]) -> list[str]:
    """The file's changed members as its language pack names them: containers only when none of
    their members changed, names without their package where the pack's names are dotted paths."""
    pack = pack_for(language)
    containers = frozenset({_FILE, *(pack.containers if pack is not None else ())})
    short = pack is None or pack.short_names
    spans = {(m.kind, m.name, m.start_line, m.end_line) for c in chunks for m in c.members if m.path == path}
    inner = [s for s in spans if s[0] not in containers]
    kept = [s for s in spans
            if s[0] not in containers or not any(i[2] >= s[2] and i[3] <= s[3] for i in inner)]
    return [f"{kind} {_short(kind, name, containers) if short else name}"
            for kind, name, _, _ in sorted(kept, key=lambda s: (s[2], s[1]))]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def deterministic_walkthrough(files: Sequence[_File], chunks: Sequence[_Chunk], *,
                              project_type: str, risk_tier: str, tier_reasons: Sequence[str] = ()) -> Walkthrough:
    entries = []
    by_status: dict[str, int] = {}
    for f in files:
        change = "binary" if f.binary else f"+{f.added} -{f.removed}"
        status = f"{f.status} from {f.old_path}" if f.old_path and f.status in ("renamed", "copied") else f.status
        if f.skipped_reason is None:
            by_status[f.status] = by_status.get(f.status, 0) + 1
        entries.append(WalkthroughFile(path=f.path, status=status, change=change,
                                       members=_members(f.path, f.language, chunks), skipped=f.skipped_reason))
    reviewed = sum(by_status.values())
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(by_status.items(), key=lambda kv: (-kv[1], kv[0])))
    members = sum(len(e.members) for e in entries)
    overview = (f"{_plural(reviewed, 'file')} reviewed" + (f" ({statuses})" if statuses else "")
                + (f", {len(files) - reviewed} skipped" if len(files) > reviewed else "")
                + f"; {_plural(members, 'member')} changed; {project_type} project, risk tier {risk_tier}"
                + (f" ({'; '.join(tier_reasons)})" if tier_reasons else "") + ".")
    return Walkthrough(overview=overview, files=entries)
