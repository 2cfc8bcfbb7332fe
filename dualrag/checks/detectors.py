"""Deterministic detectors: the `detect` of each rule, run on a ChangeSet's changed lines.

- `regex`, `on: added` (default): the pattern is searched in every added line.
- `regex`, `on: removed`: searched in every removed line; it fires only when no added line of
  the same file matches the pattern too (an element that was edited, not dropped, is silent).
  A removed line has no new line number: the finding sits on the new-file line that now takes
  its place (the next new-side line of the hunk, else the previous one).
- `regex`, `on: dropped`: once per hunk that removes more matching lines than it adds, at the
  first removed match whose words no added line of the file keeps (a check lost, not rewritten).
- `tree-sitter`: the hunk's new side (context and added lines, in order) is parsed as a
  fragment, in the grammar of the file language's pack (`dualrag.languages`); every capture
  named `@violation` that starts on an added line is reported. A `scoped-query` runs the same
  way, keeping the matches that meet its scope (`dualrag/scoped_query.py`).
- `paths`: gitignore-style patterns; a detector with them runs only on files they match.

Findings carry `source="detector"`; they are sorted by path and line, one per (path, line, rule).
A detector mined from a rule's examples (`Detector.mined`, `indexers/mining`) says so in its
finding's message, citing the rule and its page. `[rules] disable` names rules whose detector
never runs.

Which detectors run (`review_rules`): those of every indexed rule set — the bundled `knowledge/`
rules (read from the package, so always current) and every rule with a `detect` in the
configured knowledge bases of the store (team rule-set files indexed with `dualrag index rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from dualrag import languages as language_packs
from dualrag.checks.anchoring import removal_anchor
from dualrag.config.rules import RulesConfig
from dualrag.diff.hunks import DiffLine, Hunk
from dualrag.diff.model import ChangeSet, FileDiff
from dualrag.errors import UserError
from dualrag.findings import Finding
from dualrag.rulebook import load_bundled_cached, parse_fragment, tree_rows
from dualrag.source.patterns import PathPatterns
from dualrag.units import Detector, RuleUnit

if TYPE_CHECKING:
    from dualrag.config import Settings
    from dualrag.store.session import StoreSession

def file_project_type(language: str) -> str:
    """The project type a file's language pack gives it ("generic" when none)."""
    return language_packs.file_project_type(language)


def applies(rule: RuleUnit, language: str, change_project_type: str | None = None) -> bool:
    """A rule's detector applies to a file when the language matches and the project type fits."""
    det = rule.detect
    if det is None:
        return False
    languages = det.languages or rule.languages
    if languages and language not in languages:
        return False
    types = set(rule.project_types)
    return not types or "generic" in types or file_project_type(language) in types or change_project_type in types


def path_fits(rule: RuleUnit, path: str) -> bool:
    """A detector with `paths` (gitignore-style patterns) runs only on files they match
    (`ddl-auto: update` matters in a production profile's file, not in a test's)."""
    det = rule.detect
    return det is None or not det.paths or _patterns(tuple(det.paths)).match(path)


@lru_cache(maxsize=256)
def _patterns(lines: tuple[str, ...]) -> PathPatterns:
    return PathPatterns(lines, ignore_case=True)


@dataclass(frozen=True)
class ReviewRules:
    """The rules a review checks against: the detectors to run, and every rule id a finding may
    cite (the coordinator drops a citation of an unknown id); `notes`: knowledge bases whose
    detectors could not be read."""

    detectors: tuple[RuleUnit, ...]
    known_ids: frozenset[str]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Detection:
    """The detect stage: findings of the detectors on changed lines, the rules they came from."""

    findings: list[Finding]
    rules: ReviewRules

    @property
    def notes(self) -> tuple[str, ...]:
        return self.rules.notes


def bundled_rules() -> ReviewRules:
    bundled = load_bundled_cached()
    return ReviewRules(tuple(r for r in bundled if r.detect is not None), frozenset(r.rule_id for r in bundled))


def detect(changes: ChangeSet, settings: Settings, store: StoreSession) -> Detection:
    """The detectors of every indexed rule set on the changed lines, no LLM (nothing reviewable:
    nothing run, the bundled ids still citable)."""
    if not changes.reviewable:
        return Detection([], bundled_rules())
    rules = review_rules(settings, store)
    return Detection(run_detectors(changes, rules.detectors), rules)


def review_rules(settings: Settings, store: StoreSession | None = None) -> ReviewRules:
    """The bundled rules plus the rules of the store's configured knowledge bases (`retrieval.kbs`,
    else all; the store's copy of the bundled rules is skipped, the package's is current). A store
    that does not exist yet is not created; one that cannot be opened costs the team detectors
    only, with a note. `store`: the run's; without one the store is opened and closed here."""
    base = bundled_rules()
    if settings.rules.disable:  # `[rules] disable`: these rules' detectors never run (mined or written)
        base = ReviewRules(tuple(r for r in base.detectors if not settings.rules.disabled(r.rule_id)), base.known_ids)
    if store is None:
        from dualrag.store.session import StoreSession

        with StoreSession.of(settings) as own:
            return review_rules(settings, own)
    if not store.exists():
        return base
    detectors = {(r.source.kb, r.source.document, r.rule_id): r for r in base.detectors}
    known = set(base.known_ids)
    notes: list[str] = []
    from dualrag.store import RuleFilter  # qdrant-client imports slowly: only when a store exists

    try:
        db = store.rules()
        kbs = settings.retrieval.kbs or db.knowledge_bases()
        for kb in kbs:
            if kb == settings.retrieval.bundled_kb or not db.exists(kb):
                continue
            try:
                known.update(db.rule_documents(kb))
                for rule in db.units(kb, RuleFilter(has_detector=True)):
                    if not settings.rules.disabled(rule.rule_id):
                        detectors.setdefault((rule.source.kb, rule.source.document, rule.rule_id), rule)
            except UserError as exc:
                notes.append(f"detectors of knowledge base '{kb}' skipped: {exc}")
    except UserError as exc:
        notes.append(f"team rule detectors skipped: {exc}")
    return ReviewRules(tuple(detectors.values()), frozenset(known), tuple(notes))


def run_detectors(changes: ChangeSet, rules: Sequence[RuleUnit]) -> list[Finding]:
    active = [r for r in rules if r.detect is not None]
    found: list[Finding] = []
    for f in changes.reviewable:
        if f.binary:
            continue
        selected = [r for r in active if applies(r, f.language, str(changes.project_type)) and path_fits(r, f.path)]
        if selected:
            found.extend(detect_file(f, selected))
    return _finish(found)


def detect_file(f: FileDiff, rules: Sequence[RuleUnit]) -> list[Finding]:
    return detect_hunks(f.path, f.language, f.hunks, rules)


def detect_hunks(path: str, language: str, hunks: Sequence[Hunk], rules: Sequence[RuleUnit]) -> list[Finding]:
    """The detectors of `rules` on one file's hunks (no language filtering here)."""
    out: list[Finding] = []
    added = [line for h in hunks for line in h.lines if line.kind == "+"]
    for rule in rules:
        if rule.detect is None:
            continue
        if not rule.detect.also:
            out += _form_findings(rule, rule.detect, path, language, hunks, added)
            continue
        lines: set[int | None] = set()  # a mined detector's forms: one finding a line, whichever fired
        for form in rule.detect.forms:
            for found in _form_findings(rule, form, path, language, hunks, added):
                if found.line not in lines:
                    lines.add(found.line)
                    out.append(found)
    return out


def _form_findings(rule: RuleUnit, det: Detector, path: str, language: str, hunks: Sequence[Hunk],
                   added: Sequence[DiffLine]) -> list[Finding]:
    if det.kind != "regex":
        return [_finding(rule, path, n) for hunk in hunks for n in _tree_sitter_lines(language, det, hunk.lines)]
    rx = _regex(det.pattern)
    if det.on == "dropped":
        return [_finding(rule, path, line, note=note) for line, note in _dropped(rx, hunks, added)]
    if det.on == "added":
        return [_finding(rule, path, line.new_no, replacement=_fixed(det, line.text))
                for line in added if rx.search(line.text)]
    if any(rx.search(line.text) for line in added):  # removed: only when no added line matches too
        return []
    return [_finding(rule, path, removal_anchor(hunk.lines, i), note=f"removed line {line.old_no} of the old file")
            for hunk in hunks for i, line in enumerate(hunk.lines) if line.kind == "-" and rx.search(line.text)]


def _tree_sitter_lines(language: str, det: Detector, lines: Iterable[DiffLine]) -> list[int]:
    new_side = [line for line in lines if line.kind != "-"]
    if not any(line.kind == "+" for line in new_side):
        return []
    root = parse_fragment(language, "\n".join(line.text for line in new_side))
    hits = []
    for row in tree_rows(det, language, root):
        if row < len(new_side) and new_side[row].kind == "+" and new_side[row].new_no is not None:
            hits.append(new_side[row].new_no)
    return hits


_WORDS = re.compile(r"[A-Za-z_]\w*|\d+|[=!<>]=|&&|\|\||[<>!]")


def _dropped(rx: re.Pattern[str], hunks: Sequence[Hunk], added: Sequence[DiffLine]) -> list[tuple[int, str]]:
    """`on: dropped`: one place per hunk that removes more matching lines than it adds — the first
    removed match whose words no added line keeps. Counting per hunk tells an edit that loses a
    check from one that rewrites it (`if (a)` → `if (a && b)` keeps every word of the old check)."""
    kept = [set(_WORDS.findall(line.text)) for line in added]
    places = []
    for hunk in hunks:
        removed = [i for i, line in enumerate(hunk.lines) if line.kind == "-" and rx.search(line.text)]
        if len(removed) <= sum(1 for line in hunk.lines if line.kind == "+" and rx.search(line.text)):
            continue
        for i in removed:
            words = set(_WORDS.findall(hunk.lines[i].text))
            if not any(words <= k for k in kept):
                places.append((removal_anchor(hunk.lines, i),
                               f"removed line {hunk.lines[i].old_no} of the old file: `{hunk.lines[i].text.strip()[:80]}`"))
                break
    return places


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _fixed(det: Detector, text: str) -> str | None:
    """The flagged line rewritten by the detector's fix, when it has one that changes the line
    (checked to apply, and to parse, with every other replacement: dualrag/review/suggestions.py)."""
    if det.fix is None:
        return None
    fixed = _regex(det.fix.pattern).sub(det.fix.replace, text)
    return fixed if fixed != text else None


def _finding(rule: RuleUnit, path: str, line: int | None, *, note: str | None = None,
             replacement: str | None = None) -> Finding:
    det = rule.detect
    message = (det.message if det and det.message else _first_paragraph(rule.text))
    if note:
        message = f"{message} ({note})"
    if det is not None and det.mined is not None:
        message = f"{message} [mined check: {mined_citation(rule)}]"
    return Finding(
        path=path, line=line or 1, severity=RulesConfig().severity(rule.severity, rule.level), category=_category(rule),
        rule_id=rule.rule_id, title=rule.title, message=message,
        replacement=replacement, source="detector",  # never the rule's generic good example: not a fix of this line
    )


def mined_citation(rule: RuleUnit) -> str:
    """Where a mined check comes from: a pattern found in the examples of rule X of document D,
    page N, verified on them (`indexers/mining`); not a hand-written detector."""
    where = PurePosixPath(rule.source.document or rule.source.file).name
    page = f", p. {rule.source.page}" if rule.source.page else ""
    return f"a pattern found in the examples of {rule.rule_id} ({where}{page}) and verified on them"


def _category(rule: RuleUnit) -> str:
    return PurePosixPath(rule.source.file).stem or "rule"


def _first_paragraph(text: str, limit: int = 400) -> str:
    para = next((p.strip() for p in text.split("\n\n") if p.strip() and not p.lstrip().startswith("#")), text)
    para = " ".join(para.split())
    return para if len(para) <= limit else para[: limit - 1].rstrip() + "…"


def _finish(found: list[Finding]) -> list[Finding]:
    unique: dict[tuple[str, int, str | None], Finding] = {}
    for f in found:
        unique.setdefault((f.path, f.line, f.rule_id), f)
    return sorted(unique.values(), key=lambda f: (f.path, f.line, f.rule_id or ""))
