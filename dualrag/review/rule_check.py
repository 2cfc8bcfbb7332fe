"""Rule checks: does an added line do what a retrieved team rule forbids? (`[review] rule_checks`)

An open "review this" with five rules somewhere in a long context got a small model to cite the
broken rule for none of the files that broke one. A rule check asks one narrow question instead:
the chunk's numbered lines, then the rules (most relevant first, at most `rule_checks` of them,
labelled R1, R2, … so the model need not copy an id), then "which added line breaks which rule?
quote the words". The code comes before the rules so that, one rule per request
(`rule_check_batch = false`), a server's prefix cache reuses the code across the requests.

An answer is evidence only when it can be checked: the label names a rule that was asked, the line
is an added line of the chunk (or within two lines of the one named), and the quote is found on
that line. Everything else is dropped and counted. A kept answer becomes a finding that cites the
rule id and where the document says it, at the severity the team's `[rules]` gives the rule:
never lowered because the code is new.

`[review] rule_check_mode`: `plain` (above), `fix` (the answer also rewrites the line; a rewrite
that changes nothing clears it: `rewrites`) or `recheck` (`fix`, then the same question on the code
with the fixes applied, dropping what is flagged again: `with_fixes`, `recheck`). In both, the
rewrite is the finding's `replacement`: a one-click suggestion and a SARIF fix once the coordinator
has checked it applies (`suggestions.py`). A small model that
repeats an entry until its token cap is cut short, and the entries it completed count (`salvage`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pydantic import BaseModel, ConfigDict, Field, field_validator

from dualrag.chunking.model import Chunk, HunkSlice
from dualrag.findings import Finding
from dualrag.llm.types import LLMRequest, Message
from dualrag.retrieval.context import ContextRule
from dualrag.review.prompt import numbered_diff, template
from dualrag.review.sanitize import sanitize

REVIEWER = "rule_check"  # the `reviewer` of its findings and runs, the tag prefix of its requests
MAX_RULE_CHARS = 2_400  # a rule's text (with its examples) in the prompt; ~600 tokens
NEAR_LINES = 2  # a quote found this close to the line the model named still counts
MIN_QUOTE_CHARS = 2
OUTPUT_TOKENS = (96, 64)  # an answer's room: a base and one more per rule asked (a few entries each)
_SPACE = re.compile(r"\s+")
_QUOTES = "`'\" "


class Violation(BaseModel):
    model_config = ConfigDict(extra="ignore")

    rule: str = Field(min_length=1)
    line: int
    quote: str = ""
    fixed: str = ""  # the line rewritten to follow the rule (the `rule_check_fix` prompt asks for it)

    @field_validator("line", mode="before")
    @classmethod
    def _number(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().isdigit():
            return int(value.strip())
        return value

    @field_validator("rule", mode="before")
    @classmethod
    def _label(cls, value: object) -> object:
        return str(value).strip().upper() if value is not None else value


class RuleCheckAnswer(BaseModel):
    model_config = ConfigDict(extra="ignore")

    violations: list[Violation]


@dataclass(frozen=True)
class RuleCheck:
    """One request: a chunk against `rules` (labelled R1… in order)."""

    chunk: Chunk
    rules: tuple[ContextRule, ...]
    request: LLMRequest
    text: str = field(repr=False, default="")  # the whole prompt, for --explain
    fix: bool = False  # the answer must rewrite the line, and a rewrite that changes nothing clears it

    def label(self, rule: ContextRule) -> str:
        return f"R{self.rules.index(rule) + 1}"


def rules_to_check(rules: Sequence[ContextRule], *, limit: int, bundled_kb: str = "bundled"
                   ) -> tuple[ContextRule, ...]:
    """The chunk's rules a check asks about: none unless a team rule is among them (the bundled
    rules have detectors and the rules reviewer); then up to `limit`, the team's first, each group
    in retrieval order (the bundled ones only fill: the checks stand in for the rules reviewer)."""
    team = [r for r in rules if r.kb != bundled_kb]
    if limit <= 0 or not team:
        return ()
    return tuple([*team, *(r for r in rules if r.kb == bundled_kb)][:limit])


def plan_checks(chunk: Chunk, rules: Sequence[ContextRule], *, batch: bool, statuses: dict[str, str] | None = None,
                max_output_tokens: int | None = None, fix: bool = False) -> list[RuleCheck]:
    """One request for all `rules` (`batch`), else one per rule sharing the code as a prefix."""
    groups = [tuple(rules)] if batch else [(r,) for r in rules]
    return [build_check(chunk, group, statuses=statuses, max_output_tokens=max_output_tokens, fix=fix)
            for group in groups if group]


def build_check(chunk: Chunk, rules: tuple[ContextRule, ...], *, statuses: dict[str, str] | None = None,
                max_output_tokens: int | None = None, fix: bool = False) -> RuleCheck:
    system = template("rule_check_fix" if fix else "rule_check").strip()
    blocks = [f"<code>\n{numbered_diff(chunk.hunks, statuses)}\n</code>"]
    for i, rule in enumerate(rules, 1):
        where = f" source=\"{sanitize(rule.source, limit=200)}\"" if rule.source else ""
        blocks.append(f"<rule label=\"R{i}\"{where}>\n{sanitize(rule.text, limit=MAX_RULE_CHARS)}\n</rule>")
    labels = ", ".join(f"R{i}" for i in range(1, len(rules) + 1))
    blocks.append(f"Does an added line do what {'this rule' if len(rules) == 1 else 'one of these rules'} "
                  f"({labels}) forbids? Answer with the rule, the line and the words that break it, or "
                  '{"violations": []}.')
    message = "\n\n".join(blocks) + "\n"
    # A small model that starts repeating an entry runs to the cap: a short cap, no second try with more
    # room, and the complete entries of a cut answer are kept (`salvage`).
    room = OUTPUT_TOKENS[0] + OUTPUT_TOKENS[1] * len(rules) * (2 if fix else 1)
    request = LLMRequest(prefix=(system,), messages=(Message("user", message),), schema=RuleCheckAnswer,
                         max_output_tokens=min(room, max_output_tokens or room), grow=False,
                         tag=f"{REVIEWER}/{chunk.id}")
    text = f"===== system =====\n{system}\n===== user =====\n{message}"
    return RuleCheck(chunk=chunk, rules=rules, request=request, text=text, fix=fix)


def verify(check: RuleCheck, answer: RuleCheckAnswer, dropped: Counter | None = None) -> list[Finding]:
    """The answer's violations that hold against the chunk, as findings (one per rule and line)."""
    dropped = dropped if dropped is not None else Counter()
    by_label = {f"R{i}": r for i, r in enumerate(check.rules, 1)}
    added = added_lines(check.chunk)
    out: dict[tuple[str, str, int], Finding] = {}
    for v in answer.violations:
        rule = by_label.get(v.rule) or next((r for r in check.rules if r.rule_id == v.rule), None)
        if rule is None:
            dropped["rule_check_unknown_rule"] += 1
            continue
        quote = normalise(v.quote)
        if len(quote) < MIN_QUOTE_CHARS:
            dropped["rule_check_no_quote"] += 1
            continue
        place = locate(added, v.line, quote)
        if place is None:
            dropped["rule_check_quote_not_on_an_added_line"] += 1
            continue
        path, line = place
        if check.fix and not rewrites(v.fixed, next(t for p, n, t in added if (p, n) == place)):
            dropped["rule_check_fix_changes_nothing"] += 1
            continue
        fixed = v.fixed.strip("\n") if check.fix else None  # the model's rewrite: a one-click fix once it applies
        out.setdefault((rule.rule_id, path, line), finding(rule, path, line, v.quote.strip(_QUOTES), fixed))
    return list(out.values())


def with_fixes(check: RuleCheck, answer: RuleCheckAnswer, found: Sequence[Finding]) -> RuleCheck | None:
    """The same check on the chunk with each flagged line replaced by the model's own fix, or None
    when nothing was flagged. A rule it flags again on a fixed line was not about what the line
    says (`recheck`): the complaint fits the line and its repair alike."""
    fixes: dict[tuple[str, int], str] = {}
    added = added_lines(check.chunk)
    for v in answer.violations:
        place = locate(added, v.line, normalise(v.quote))
        if place is not None and v.fixed.strip() and any((f.path, f.line) == place for f in found):
            fixes.setdefault(place, v.fixed.strip("\n"))
    if not fixes:
        return None
    hunks = []
    for h in check.chunk.hunks:
        lines = tuple(ln._replace(text=fixes[(h.path, ln.new_no)]) if ln.kind == "+" and (h.path, ln.new_no) in fixes
                      else ln for ln in h.lines)
        hunks.append(HunkSlice.of_lines(h.path, h.header, lines))
    chunk = replace(check.chunk, hunks=tuple(hunks))
    # the same question; only whether a rule is flagged again counts, with or without a fix of the fix
    return replace(build_check(chunk, check.rules, max_output_tokens=check.request.max_output_tokens, fix=check.fix),
                   fix=False)


def recheck(found: Sequence[Finding], again: Sequence[Finding]) -> list[Finding]:
    """`found` less what the check flags again, same rule and line, once the line is fixed."""
    repeated = {(f.rule_id, f.path, f.line) for f in again}
    return [f for f in found if (f.rule_id, f.path, f.line) not in repeated]


def salvage(text: str) -> RuleCheckAnswer:
    """The complete entries of an answer cut at its token cap (`{"violations": [{...}, {...}, {"ru`)."""
    decoder = json.JSONDecoder()
    entries, start = [], text.find("[")
    i = text.find("{", start + 1) if start >= 0 else -1
    while i >= 0:
        try:
            value, end = decoder.raw_decode(text, i)
        except ValueError:
            break
        if isinstance(value, dict):
            try:
                entries.append(Violation.model_validate(value))
            except ValueError:
                pass
        i = text.find("{", end)
    return RuleCheckAnswer(violations=entries)


def added_lines(chunk: Chunk) -> list[tuple[str, int, str]]:
    """(path, new line number, normalised text) of every added line of the chunk."""
    return [(h.path, ln.new_no, normalise(ln.text)) for h in chunk.hunks for ln in h.lines
            if ln.kind == "+" and ln.new_no is not None]


def locate(added: Sequence[tuple[str, int, str]], line: int, quote: str) -> tuple[str, int] | None:
    """The added line holding `quote`: the one named, else the nearest within NEAR_LINES."""
    holding = [(abs(n - line), path, n) for path, n, text in added if quote in text and abs(n - line) <= NEAR_LINES]
    if not holding:
        return None
    _, path, n = min(holding)
    return path, n


def rewrites(fixed: str, line: str) -> bool:
    """`fixed` is a different line, not `line` again (spacing and quoting aside) nor nothing."""
    squeeze = lambda text: re.sub(r"[\s;]+", "", text)
    new = squeeze(normalise(fixed))
    return bool(new) and new != squeeze(line)


def normalise(text: str) -> str:
    return _SPACE.sub(" ", sanitize(text or "", limit=400)).strip(_QUOTES).casefold()


def finding(rule: ContextRule, path: str, line: int, quote: str, fixed: str | None = None) -> Finding:
    where = f" ({rule.source})" if rule.source else ""
    summary = rule.text.split("\n\n")[0].strip()
    if summary.startswith(rule.title):
        summary = summary[len(rule.title):].strip(" .:—-")
    message = f"`{quote[:160]}` does what rule {rule.rule_id}{where} forbids."
    if summary:
        message += f" The rule: {summary[:400]}"
    return Finding(path=path, line=line, severity=rule.severity, category="rule",  # type: ignore[arg-type]
                   rule_id=rule.rule_id, title=rule.title[:200], message=message, replacement=fixed or None,
                   source="llm", reviewer=REVIEWER)
