"""The EDI validators on a ChangeSet: findings on changed lines, notes for what was not checked.

For each reviewed `.flow`, `.dt` and `partners.xml`:
- an added file is complete in the diff: the whole new file is validated;
- a modified file is read through `read_file(path)` when the repository is at hand, else only the
  hunks' new-side lines are scanned (checks local to one element; a note says so).
Findings are kept only on added lines; an issue caused by a removal (a dropped acknowledgement, a
dropped mapping) sits on the new-file line now at the removed line's place, as the detectors do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dualrag.checks.anchoring import removal_anchor
from dualrag.config.limits import LimitsConfig
from dualrag.diff.model import ChangeSet, FileDiff, FileStatus
from dualrag.edi.model import Document, Issue, kind_of
from dualrag.edi.reader import MAX_BYTES, MAX_DEPTH, MAX_ELEMENTS, read_document, scan_fragment
from dualrag.edi.validators import Files, validate
from dualrag.findings import Finding
from dualrag.rulebook import load_bundled_cached
from dualrag.units import RuleUnit

Reader = Callable[[str], "bytes | None"]
CATEGORY = "edi"


def edi_files(changes: ChangeSet) -> list[FileDiff]:
    return [f for f in changes.reviewable
            if not f.binary and f.status != FileStatus.DELETED and kind_of(f.path) is not None]


@dataclass(frozen=True)
class Validation:
    """The validate stage: the validators' findings, the EDI files they refused to read (held at
    no_verdict like unread code) and what was not checked."""

    findings: list[Finding]
    notes: tuple[str, ...] = ()

    @property
    def refused(self) -> tuple[str, ...]:
        return refused_files(self.findings)

    def joined(self, detector: list[Finding]) -> list[Finding]:
        """The detectors' findings and these, one per (path, line, rule)."""
        return merge_findings(detector, self.findings) if self.findings else detector


def validate_edi(changes: ChangeSet, limits: LimitsConfig, read_file: Reader | None = None) -> Validation:
    """The EDI validators (dualrag/edi) on a change, with the bundled EDI rules and `[limits]`' XML caps."""
    findings, notes = validate_changes(changes, load_bundled_cached(), read_file=read_file,
                                       max_depth=limits.max_xml_depth, max_elements=limits.max_xml_elements)
    return Validation(findings, tuple(notes))


def validate_changes(changes: ChangeSet, rules: Sequence[RuleUnit], *, read_file: Reader | None = None,
                     max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
                     max_elements: int = MAX_ELEMENTS) -> tuple[list[Finding], list[str]]:
    targets = edi_files(changes)
    if not targets:
        return [], []
    files = Files(read=read_file)
    for f in changes.files:
        if f.status == FileStatus.DELETED:
            files.deleted.add(f.path)
        elif f.status == FileStatus.ADDED and not f.binary and kind_of(f.path) is not None:
            files.known[f.path] = _added_bytes(f)
        elif read_file is None and kind_of(f.path) == "partners" and not f.binary:
            files.fragments[f.path] = _new_side_runs(f)
    by_id = {r.rule_id: r for r in rules}
    findings: list[Finding] = []
    for f in targets:
        if f.sampled_lines:  # cut lines are not the file's XML: validating them would report made-up errors
            files.note(f"{f.path}: not validated (lines reviewed as a sample, limits.max_line_chars)")
            continue
        kind = kind_of(f.path)
        doc = _document(f, kind, files, read_file, {"max_bytes": max_bytes, "max_depth": max_depth,
                                                    "max_elements": max_elements})
        issues = validate(doc, files)
        findings += _place(f, issues, by_id)
    return findings, files.notes


def _document(f: FileDiff, kind: str, files: Files, read_file: Reader | None, caps: dict[str, int]) -> Document:
    if f.status == FileStatus.ADDED:
        return read_document(f.path, kind, files.known[f.path], **caps)
    if read_file is not None:
        try:
            data = read_file(f.path)
        except Exception:  # noqa: BLE001 - fall back to the hunks
            data = None
        if data is not None:
            return read_document(f.path, kind, data, **caps)
    doc = Document(path=f.path, kind=kind, root=None, partial=True)
    for run in _new_side_runs(f):
        tops, issues = scan_fragment(run)
        doc.fragments += tops
        doc.issues += issues
    files.note(f"{f.path}: validated from the diff hunks only (no repository): whole-file checks "
               "(references, duplicates, mandatory mappings, acknowledgement policy) skipped")
    return doc


def _added_bytes(f: FileDiff) -> bytes:
    lines = [ln for h in f.hunks for ln in h.lines if ln.kind != "-"]
    eol = "\r\n" if f.newline == "crlf" else "\n"
    text = eol.join(ln.text for ln in lines)
    if lines and not lines[-1].no_eol:
        text += eol
    try:
        return text.encode(f.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return text.encode("utf-8")


def _new_side_runs(f: FileDiff) -> list[list[tuple[int, str]]]:
    return [[(ln.new_no, ln.text) for ln in h.lines if ln.kind != "-" and ln.new_no is not None] for h in f.hunks]


def _place(f: FileDiff, issues: list[Issue], by_id: dict[str, RuleUnit]) -> list[Finding]:
    hunks = f.hunks
    added = {ln.new_no for h in hunks for ln in h.lines if ln.kind == "+" and ln.new_no is not None}
    out = []
    for issue in issues:
        line, note = issue.line, None
        if line not in added:
            anchor = _removal_anchor(hunks, issue.hint) if issue.hint else None
            if anchor is None and issue.rule_id in ("EDI-FMT-001", "EDI-FMT-002", "EDI-FMT-006", "EDI-FMT-007") and added:
                # the file as a whole is unreadable: report on the nearest changed line
                anchor = (min(added, key=lambda n: abs(n - line)), None)
            if anchor is None:
                continue
            line, note = anchor
        out.append(_finding(f.path, line, issue, by_id.get(issue.rule_id), note))
    return out


# The validators refused the whole file (not XML, a DTD, past a size or shape cap): none of its
# checks ran, so the review cannot vouch for it.
REFUSED = ("EDI-FMT-001", "EDI-FMT-002", "EDI-FMT-007")


def refused_files(findings: list[Finding]) -> tuple[str, ...]:
    """Paths of EDI files the validators refused to read: held at no_verdict like unread code."""
    return tuple(dict.fromkeys(f.path for f in findings if f.rule_id in REFUSED and f.source == "detector"
                               and (f.rule_id != "EDI-FMT-001" or "not well-formed" in f.message)))


def _removal_anchor(hunks, hint: str) -> tuple[int, str | None] | None:
    rx = re.compile(hint)
    for h in hunks:
        for i, ln in enumerate(h.lines):
            if ln.kind == "-" and rx.search(ln.text):
                return removal_anchor(h.lines, i), f"removed line {ln.old_no} of the old file"
    return None


def _finding(path: str, line: int, issue: Issue, rule: RuleUnit | None, note: str | None) -> Finding:
    message = issue.message + (f" ({note})" if note else "")
    return Finding(
        path=path, line=line, severity=str(rule.severity or "major") if rule is not None else "major", category=CATEGORY,
        rule_id=issue.rule_id, title=rule.title if rule is not None else issue.rule_id, message=message,
        source="detector",  # no suggestion: the rule's good example is not a fix of this line
    )


def merge_findings(detector: list[Finding], validator: list[Finding]) -> list[Finding]:
    """One finding per (path, line, rule): a detector finding wins over the same validator finding."""
    unique: dict[tuple[str, int, str | None], Finding] = {}
    for f in [*detector, *validator]:
        unique.setdefault((f.path, f.line, f.rule_id), f)
    return sorted(unique.values(), key=lambda f: (f.path, f.line, f.rule_id or ""))
