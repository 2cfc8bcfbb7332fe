"""The merge requests evaluation/review/feedback.py replays, generated from real diffs (nothing copied
into the repository): each source project of the diffs folder whose diffs add Java methods is one
repository; its changed Java files, in diff order, are cut into merge requests of a few files
(near-duplicate diffs of the manifest skipped). A fake reviewer raises one rule of a `FAMILIES`
entry with the same title and message template everywhere: a *false positive* on one shape of code
(the finding a reviewer dismisses) and a *true finding* on another (same rule, same words)."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from dualrag.diff import ChangeSet, ingest
from dualrag.feedback import repository_key
from dualrag.findings import Finding
from dualrag.vcs.anchoring import DiffIndex
from evaluation.core import datasets

_OVERRIDE = re.compile(r"^\s*@Override\s*$")
_DECL = re.compile(r"^\s*(?:public|protected)\s+(?:static\s+|final\s+|synchronized\s+|abstract\s+)*"
                   r"[\w<>\[\], .?]+\s+(\w+)\s*\([^;]*$")
_SECTION = re.compile(rb"^diff --git ", re.MULTILINE)
_PROJECT = re.compile(r"^(.+?)-\d+(?:\.diff)?$")


@dataclass
class MR:
    repository: str
    number: int
    changes: ChangeSet
    false_pos: list[Finding]
    true_pos: list[Finding]

    @property
    def ref(self) -> str:
        return f"!{self.number}"


def sections(data: bytes) -> list[bytes]:
    starts = [m.start() for m in _SECTION.finditer(data)]
    return [data[a:b] for a, b in zip(starts, [*starts[1:], len(data)], strict=True)]


def fake_reviewer(changes: ChangeSet, family: str = "null") -> tuple[list[Finding], list[Finding]]:
    """(false positives, true findings) of one rule, in the same words, on the added lines."""
    fam = FAMILIES[family]
    fps, tps = [], []
    for f in changes.files:
        if not f.path.endswith(".java"):
            continue
        for hunk in f.hunks:
            lines = hunk.lines
            for i, ln in enumerate(lines):
                if ln.kind != "+" or ln.new_no is None or ln.text.strip().startswith(("//", "*", "/*", "import")):
                    continue
                hit = fam["match"](lines, i)
                if hit is None:
                    continue
                false_positive, start, name = hit
                finding = Finding(path=f.path, line=start, end_line=ln.new_no if ln.new_no != start else None,
                                  severity="minor", category=fam["category"], rule_id=fam["rule"], title=fam["title"],
                                  message=fam["message"].format(name=name), source="llm")
                (fps if false_positive else tps).append(finding)
    return fps, tps


def _null(lines, i):
    """False positive: a field assigned from a parameter (`this.x = x;`) "may be null"; true: a
    call chained on a call's result (`a.getB().c()`)."""
    text = lines[i].text
    m = _ASSIGN.match(text)
    if m:
        return True, lines[i].new_no, m.group(2)
    m = _CHAIN.search(text)
    return (False, lines[i].new_no, m.group(1)) if m else None


def _javadoc(lines, i):
    """False positive: an `@Override` method "lacks Javadoc"; true: any other public method."""
    m = _DECL.match(lines[i].text)
    if m is None:
        return None
    before = [x for x in lines[max(0, i - 2):i] if x.kind in "+ "]
    if any(x.text.strip().endswith("*/") for x in before):
        return None
    override = next((x for x in before if _OVERRIDE.match(x.text) and x.new_no is not None), None)
    return override is not None, override.new_no if override is not None else lines[i].new_no, m.group(1)


_ASSIGN = re.compile(r"^\s*this\.(\w+)\s*=\s*(\w+)\s*;\s*$")
_CHAIN = re.compile(r"\b(\w+(?:\.\w+)*\.\w+\([^()]*\))\.\w+\(")
FAMILIES = {
    "null": {"rule": "JAVA-NULL-001", "category": "correctness", "title": "Possible null dereference",
             "message": "`{name}` may be null here; check it before use.", "match": _null},
    "javadoc": {"rule": "JAVA-DOC-001", "category": "documentation", "title": "Public method without Javadoc",
                "message": "`{name}()` is public and has no Javadoc: document its contract (parameters, return "
                           "value, exceptions).", "match": _javadoc},
}


def build_mrs(diffs: Path, settings, files_per_mr: int, mrs_per_repo: int, per_mr: int,
              family: str) -> dict[str, list[MR]]:
    manifest = datasets.diff_manifest(diffs)
    skip: set[str] = set()
    for row in manifest:
        if row["file"] not in skip:
            skip.update(row.get("near_duplicates", []))
    by_repo: dict[str, list[bytes]] = defaultdict(list)
    for path in datasets.diffs(diffs):
        m = _PROJECT.match(path.stem)
        if path.name in skip or m is None:
            continue
        for section in sections(path.read_bytes()):
            if b".java" in section.split(b"\n", 1)[0]:
                by_repo[repository_key(m.group(1))].append(section)
    out: dict[str, list[MR]] = {}
    for repo, secs in sorted(by_repo.items()):
        mrs: list[MR] = []
        pending: list[bytes] = []
        for sec in secs:
            changes = ingest(sec, settings)
            fps, tps = fake_reviewer(changes, family)
            if not fps and not tps:
                continue
            pending.append(sec)
            if len(pending) == files_per_mr:
                mrs.append(_mr(repo, len(mrs) + 1, b"".join(pending), settings, per_mr, family))
                pending = []
            if len(mrs) == mrs_per_repo:
                break
        if pending and len(mrs) < mrs_per_repo:
            mrs.append(_mr(repo, len(mrs) + 1, b"".join(pending), settings, per_mr, family))
        mrs = [m for m in mrs if m.false_pos or m.true_pos]
        if len(mrs) >= 3:
            out[repo] = mrs
    return out


def _mr(repo: str, number: int, diff: bytes, settings, per_mr: int, family: str) -> MR:
    changes = ingest(diff, settings)
    fps, tps = fake_reviewer(changes, family)
    index = DiffIndex(changes)
    place = lambda fs: [f.model_copy(update={"fingerprint": index.place(f).fingerprint}) for f in fs[:per_mr]]
    return MR(repo, number, changes, place(fps), place(tps))

