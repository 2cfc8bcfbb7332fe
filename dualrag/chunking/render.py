"""The text a prompt receives for a chunk. Cost accounting in the packer renders the same pieces,
so an estimate made while packing is the estimate of the final text."""

from __future__ import annotations

from dualrag.chunking.model import HunkSlice
from dualrag.chunking.units import Located
from dualrag.parsing import Member


def file_header(path: str, status: str) -> str:
    return f"### {path} ({status})\n"


def diff_line(kind: str, text: str) -> str:
    return f"{kind}{text}\n"


def slice_header(s: HunkSlice) -> str:
    tail = f" {s.header}" if s.header else ""
    return f"@@ -{s.old_start},{s.old_len} +{s.new_start},{s.new_len} @@{tail}\n"


def member_block(member: Member, text: str) -> str:
    return f"--- whole {member.kind} {member.name} (new lines {member.start}-{member.end})\n{text}\n"


def runs(path: str, lines: list[Located], headers: list[str]) -> list[HunkSlice]:
    """Consecutive lines of the same hunk become one slice with its own @@ header."""
    out: list[HunkSlice] = []
    run: list[Located] = []
    for item in lines:
        if run and (item[0] != run[-1][0] or item[1] > run[-1][1] + 1):
            out.append(_slice(path, run, headers))
            run = []
        run.append(item)
    if run:
        out.append(_slice(path, run, headers))
    return out


def _slice(path: str, run: list[Located], headers: list[str]) -> HunkSlice:
    return HunkSlice.of_lines(path, headers[run[0][0]], tuple(item[2] for item in run))
