"""The coordinator: all reviewers' raw findings in, one validated list and a decision out.

1. normalise: path (a/, b/, ./ prefixes), severity (critical → critical, warning → major,
   suggestion → minor; documentation suggestions → info), category (synonyms → a fixed set);
2. place: a finding must sit on a changed line of a reviewed file. Unknown file → dropped;
   within two lines of an added line of the same hunk → snapped onto it; otherwise dropped.
   Every drop is counted by reason;
3. rule ids: a cited id must exist in the chunk's retrieved context or the known rules, else the
   citation is removed (and the finding dropped when it came from the rule compliance
   reviewer, whose findings exist only to cite rules);
4. calibrate: documentation/maintainability findings are capped at major; a model warning that cites
   no rule and names neither its line's code nor a concrete failure can be made a suggestion
   (`[review] model_warnings = "grounded"`, grounding.py);
5. detector findings are kept as they are; so are the rule checks' (placed and cited already),
   which then join the model's findings; an LLM finding on the same place with the same
   problem as a detector finding is dropped (its rewrite of the same lines, if the detector
   has none, goes to the detector's finding);
6. deduplicate LLM findings (same file, lines within one, same problem = same rule id, or
   same category, or similar titles): keep the best (highest severity, then a rule id, then
   the specialist whose category it is), with the other's rewrite of the same lines if it
   has none, and record every reviewer that raised it;
7. prior findings (from the VCS stage): a finding a human settled (won't fix, acknowledged,
   resolved) on an earlier push stays listed but does not count in the decision unless it got
   worse; a disagreed suggestion is conceded (dropped);
7b. feedback of other merge requests (`feedback.py`): a finding like ones reviewers dismissed
   before is dropped (critical: kept, not counted), with a note;
8. replacements (one-click suggestions) that do not apply to the diff are demoted to prose
   (`suggestions.py`);
9. decide (`decision.py`); a human's break glass forces approval and is recorded.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dualrag.diff.model import ChangeSet
from dualrag.findings import SEVERITY_RANK, Finding
from dualrag.priors import SETTLED, BreakGlass, PriorFinding, ThreadState
from dualrag.review.decision import Coverage, decide
from dualrag.review.feedback import FeedbackMemory
from dualrag.review.fingerprint import fingerprint, loose_key
from dualrag.review.grounding import Policy, calibrated
from dualrag.review.model import Decision
from dualrag.review.prompt import RawFinding
from dualrag.review.reviewers import reviewer_named
from dualrag.review.suggestions import Reader, check_suggestions

SNAP_LINES = 2
CATEGORIES = ("correctness", "security", "performance", "reliability", "maintainability", "rule", "edi",
              "documentation")
_CATEGORY_SYNONYMS = {
    "bug": "correctness", "logic": "correctness", "error": "correctness", "null": "correctness",
    "quality": "maintainability", "code_quality": "maintainability", "style": "maintainability",
    "readability": "maintainability", "design": "maintainability", "duplication": "maintainability",
    "concurrency": "reliability", "resource": "reliability", "resource_leak": "reliability",
    "exception": "reliability", "error_handling": "reliability", "robustness": "reliability",
    "perf": "performance", "efficiency": "performance", "sec": "security", "vulnerability": "security",
    "injection": "security", "rules": "rule", "rule_compliance": "rule", "compliance": "rule",
    "convention": "rule", "guideline": "rule", "docs": "documentation", "doc": "documentation",
    "comment": "documentation", "javadoc": "documentation",
}
_CAP_MAJOR = frozenset({"documentation", "maintainability"})
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class TaggedFinding:
    """A raw finding with where it came from."""

    raw: RawFinding
    reviewer: str
    chunk_id: str


@dataclass
class Outcome:
    findings: list[Finding]
    decision: Decision
    reasons: list[str]
    dropped: Counter = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    break_glass: dict[str, str] | None = None


class _Lines:
    """Per reviewed file: added lines, and for each hunk its new-side range and added lines."""

    def __init__(self, changes: ChangeSet) -> None:
        self.added: dict[str, set[int]] = {}
        self.hunks: dict[str, list[tuple[int, int, list[int]]]] = {}
        self.text: dict[str, dict[int, str]] = {}
        for f in changes.reviewable:
            if f.binary:
                continue
            added: set[int] = set()
            ranges = []
            text: dict[int, str] = {}
            for h in f.hunks:
                anchors: list[int] = []
                pending_removal = False
                last_new = None
                for line in h.lines:
                    if line.new_no is not None:
                        text[line.new_no] = line.text
                    if line.kind == "+":
                        anchors.append(line.new_no)
                    elif line.kind == "-":
                        pending_removal = True
                        continue
                    elif pending_removal and line.new_no is not None:
                        anchors.append(line.new_no)  # a removal lands on the next new-side line
                    pending_removal = False
                    last_new = line.new_no if line.new_no is not None else last_new
                if pending_removal and last_new is not None:
                    anchors.append(last_new)
                added.update(a for a in anchors if a is not None)
                start = h.new_start
                end = h.new_start + max(h.new_len, 1) - 1
                ranges.append((start, end, sorted(a for a in anchors if a is not None)))
            self.added[f.path] = added
            self.hunks[f.path] = ranges
            self.text[f.path] = text

    def resolve_path(self, path: str) -> str | None:
        p = path.strip().replace("\\", "/")
        for prefix in ("a/", "b/", "./", "/"):  # one at a time: a real folder may be named `b/`
            if p.startswith(prefix) and p not in self.added:
                p = p[len(prefix):]
        if p in self.added:
            return p
        matches = [known for known in self.added if known.endswith("/" + p)]
        return matches[0] if len(matches) == 1 else None

    def place(self, path: str, line: int) -> tuple[int | None, str]:
        """(line, how): on an added line; snapped within the hunk; or None."""
        if line in self.added.get(path, ()):
            return line, "exact"
        for start, end, anchors in self.hunks.get(path, ()):
            if not anchors or line < start - SNAP_LINES or line > end + SNAP_LINES:
                continue
            best = min(anchors, key=lambda a: (abs(a - line), a))
            if abs(best - line) <= SNAP_LINES:
                return best, "snapped"
        return None, "off_changed_lines"

    def code(self, path: str, line: int, end: int | None) -> list[str]:
        text = self.text.get(path, {})
        return [text[n] for n in range(line, (end or line) + 1) if n in text]


def _cites_rules(reviewer: str) -> bool:
    spec = reviewer_named(reviewer)
    return spec is not None and spec.cites_rules


def normalise_category(value: str | None, reviewer: str) -> str:
    v = re.sub(r"[\s\-]+", "_", (value or "").strip().lower())
    v = _CATEGORY_SYNONYMS.get(v, v)
    if v in CATEGORIES:
        return v
    spec = reviewer_named(reviewer)
    return spec.categories[0] if spec else "correctness"


def map_severity(raw: str, category: str) -> str:
    if raw == "critical":
        sev = "critical"
    elif raw == "warning":
        sev = "major"
    else:
        sev = "info" if category == "documentation" else "minor"
    if category in _CAP_MAJOR and sev == "critical":
        sev = "major"
    return sev


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2}


def same_problem(a: Finding, b: Finding) -> bool:
    if a.path != b.path:
        return False
    a_end, b_end = a.end_line or a.line, b.end_line or b.line
    if a.line > b_end + 1 or b.line > a_end + 1:
        return False
    if a.rule_id and b.rule_id:
        return a.rule_id == b.rule_id
    if a.category == b.category:
        return True
    wa, wb = _words(a.title), _words(b.title)
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= 0.5


def _rank(f: Finding) -> tuple[int, int, int]:
    names = (f.reviewer or "").split(",")
    authority = any(f.category in spec.categories for n in names if (spec := reviewer_named(n)) is not None)
    return SEVERITY_RANK[f.severity], int(bool(f.rule_id)), int(authority)


def with_fix_of(kept: Finding, dropped: Finding) -> Finding:
    """`kept`, offering the rewrite of `dropped` (its duplicate) when it has none of its own and
    both name the same lines: merging two findings must not lose a one-click fix (whether it
    applies is checked after, with every other replacement)."""
    if kept.replacement is not None or dropped.replacement is None:
        return kept
    if (kept.path, kept.line, kept.end_line or kept.line) != (dropped.path, dropped.line, dropped.end_line or dropped.line):
        return kept
    return kept.model_copy(update={"replacement": dropped.replacement})


def _merge_reviewers(*names: str | None) -> str:
    seen: list[str] = []
    for n in names:
        for part in (n or "").split(","):
            if part and part not in seen:
                seen.append(part)
    return ",".join(seen)


def coordinate(
    changes: ChangeSet,
    raw: Iterable[TaggedFinding],
    *,
    detector_findings: Sequence[Finding] = (),
    checked_findings: Sequence[Finding] = (),
    context_rule_ids: Mapping[str, set[str]] | None = None,
    known_rule_ids: set[str] | None = None,
    coverage: Coverage,
    prior_findings: Sequence[PriorFinding] = (),
    break_glass: BreakGlass | None = None,
    read_file: Reader | None = None,
    feedback: FeedbackMemory | None = None,
    model_warnings: Policy = "keep",
) -> Outcome:
    lines = _Lines(changes)
    dropped: Counter = Counter()
    notes: list[str] = []
    known = set(known_rule_ids or ())
    llm: list[Finding] = []
    for item in raw:
        r = item.raw
        path = lines.resolve_path(r.path)
        if path is None:
            dropped["unknown_file"] += 1
            continue
        line, how = lines.place(path, r.line)
        if line is None:
            dropped["off_changed_lines"] += 1
            continue
        if how == "snapped":
            dropped["snapped (kept)"] += 1
        end = r.end_line if r.end_line is not None and r.end_line >= line else None
        if end is not None:
            hunk_end = max((e for s, e, _ in lines.hunks.get(path, ()) if s <= line <= e), default=line)
            end = min(end, hunk_end)
            end = None if end == line else end
        category = normalise_category(r.category, item.reviewer)
        rule_id = r.rule_id.strip() if r.rule_id else None
        if rule_id:
            allowed = set((context_rule_ids or {}).get(item.chunk_id, set())) | known
            if rule_id not in allowed:
                dropped["unknown_rule_id"] += 1
                rule_id = None
                if _cites_rules(item.reviewer):
                    dropped["rule_finding_without_valid_rule"] += 1
                    continue
        elif _cites_rules(item.reviewer):
            dropped["rule_finding_without_valid_rule"] += 1
            continue
        llm.append(Finding(
            path=path, line=line, end_line=end, severity=map_severity(r.severity, category),  # type: ignore[arg-type]
            category=category, rule_id=rule_id, title=r.title.strip()[:200], message=r.message.strip(),
            suggestion=r.suggestion, source="llm", reviewer=item.reviewer,
            # a replacement rewrites the lines the model named: moved or clamped, it no longer fits them
            replacement=r.replacement if how == "exact" and (end or line) == max(r.end_line or line, line) else None,
        ))

    # a model warning with no rule keeps its severity only when it names its code and a failure (grounding.py)
    llm = [calibrated(f, lines.code(f.path, f.line, f.end_line), model_warnings) for f in llm]
    # rule checks' findings are placed and cited already (rule_check.verify): they join the model's here
    llm.extend(checked_findings)

    # drop LLM findings that repeat a detector finding
    detected = list(detector_findings)
    kept: list[Finding] = []
    for f in llm:
        twin = next((i for i, d in enumerate(detected) if same_problem(f, d) or (
            d.rule_id and f.rule_id == d.rule_id and f.path == d.path and abs(f.line - d.line) <= 1)), None)
        if twin is not None:
            dropped["duplicate_of_detector"] += 1
            detected[twin] = with_fix_of(detected[twin], f)
            continue
        kept.append(f)

    # deduplicate across chunks and reviewers, keeping the best
    merged: list[Finding] = []
    for f in sorted(kept, key=lambda x: (x.path, x.line, -SEVERITY_RANK[x.severity])):
        for i, g in enumerate(merged):
            if same_problem(f, g):
                best, other = (f, g) if _rank(f) > _rank(g) else (g, f)
                merged[i] = with_fix_of(best, other).model_copy(
                    update={"reviewer": _merge_reviewers(best.reviewer, other.reviewer)})
                dropped["duplicate"] += 1
                break
        else:
            merged.append(f)

    findings, demoted = check_suggestions([*detected, *merged], changes, read_file=read_file)
    if demoted:
        notes.append("suggested replacement(s) kept as prose: "
                     + ", ".join(f"{n} {why}" for why, n in sorted(demoted.items())))
    findings = [f.model_copy(update={"fingerprint": fingerprint(f, lines.code(f.path, f.line, f.end_line))})
                for f in findings]
    findings, prior_notes, conceded = _apply_priors(findings, prior_findings, lines)
    if conceded:
        dropped["conceded_after_disagreement"] += conceded
    notes.extend(prior_notes)
    if feedback is not None:
        learned = feedback.apply(findings, lambda f: lines.code(f.path, f.line, f.end_line), prior_findings)
        findings = learned.findings
        if learned.dropped:
            dropped["suppressed_by_feedback"] += learned.dropped
        notes.extend(learned.notes)
    findings.sort(key=lambda f: (f.path, f.line, -SEVERITY_RANK[f.severity], f.source))

    bg = None
    if break_glass is not None:
        bg = {"author": break_glass.author, "note_id": break_glass.note_id, "text": break_glass.text[:200],
              **({"commit": break_glass.commit} if break_glass.commit else {})}
    decision, reasons = decide(findings, coverage, break_glass=bg is not None)
    if bg is not None:
        who = f" by @{bg['author']}" if bg["author"] else ""
        notes.append(f"break glass{who}: approval forced by a human")
    return Outcome(findings=findings, decision=decision, reasons=reasons, dropped=dropped, notes=notes, break_glass=bg)


def _apply_priors(findings: list[Finding], priors: Sequence[PriorFinding],
                  lines: _Lines) -> tuple[list[Finding], list[str], int]:
    if not priors:
        return findings, [], 0
    by_fp = {p.fingerprint: p for p in priors if p.fingerprint}
    by_key = {p.key: p for p in priors if p.key}
    out: list[Finding] = []
    notes: list[str] = []
    conceded = 0
    for f in findings:
        code = lines.code(f.path, f.line, f.end_line)
        prior = by_fp.get(f.fingerprint or "") or by_key.get(loose_key(f, code))
        if prior is None:
            prior = next((p for p in priors if p.path == f.path
                          and (p.rule_id or p.category) == (f.rule_id or f.category)
                          and p.line is not None and abs(p.line - f.line) <= 3), None)
        if prior is None:
            out.append(f)
            continue
        state = ThreadState(prior.state)
        worse = SEVERITY_RANK.get(f.severity, 0) > SEVERITY_RANK.get(prior.severity, 0)
        if state in SETTLED and not worse:
            out.append(f.model_copy(update={"counted": False}))
            notes.append(f"{f.path}:{f.line} settled on an earlier push ({state}): not counted")
        elif state is ThreadState.DISAGREED and f.source == "llm" and SEVERITY_RANK[f.severity] <= SEVERITY_RANK["minor"]:
            conceded += 1
            notes.append(f"{f.path}:{f.line} conceded after a human disagreed")
        else:
            out.append(f)
    return out, notes, conceded


def normalise_path(path: str) -> str:
    """A path as a model writes it, without diff prefixes (`a/`, `b/`), `./` or a leading `/`."""
    p = path.strip().replace("\\", "/")
    for prefix in ("a/", "b/", "./", "/"):
        p = p.removeprefix(prefix)
    return p
