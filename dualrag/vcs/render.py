"""Bodies of what dualrag writes on a merge request: finding comments, the summary, the blocker."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote

from dualrag.findings import Finding
from dualrag.publish.blocks import code_span, fenced, inline, plain, prose, suggestion_prose, unescape
from dualrag.review.fingerprint import normalise_code
from dualrag.review.model import Review
from dualrag.source.text import neutralise
from dualrag.vcs import markers
from dualrag.vcs.anchoring import Placed
from dualrag.vcs.model import BreakGlass

_ICON = {"critical": "🔴", "major": "🟠", "minor": "🟡", "info": "🔵"}
_TITLE = re.compile(r"^\*\*\S+ (?:info|minor|major|critical)\*\* — (.+?)(?:\s+·\s+`[^`]*`)?\s*$", re.M)
LABEL = {
    "approved": "✅ approved", "approved_with_comments": "✅ approved with comments",
    "minor_issues": "🟡 minor issues", "significant_concerns": "⛔ significant concerns",
    "no_verdict": "⚪ no verdict",
}


def finding_body(p: Placed, commit: str | None, platform: str = "gitlab") -> str:
    f = p.finding
    rule = f" · {code_span(f.rule_id)}" if f.rule_id else ""
    # the model's title and message: escaped, code kept as code, no mention or reference live
    out = [markers.finding_marker(p.fingerprint, p.key, f.severity, commit, category=f.category, rule=f.rule_id,
                                  code=normalise_code(p.code)),
           f"**{_ICON.get(f.severity, '•')} {f.severity}** — {inline(f.title)}{rule}", "",
           prose(f.message)]
    if f.suggestion:
        out += ["", *suggestion_prose(f)]
    if p.span is not None and f.replacement is not None:
        out += ["", *suggestion_block(f.replacement, p.span, platform)]
    out += ["", f"<sub>dualrag · {f.category} · {f.source} · reply *won't fix*, *acknowledged* or "
                f"*I disagree …*</sub>"]
    return neutralise("\n".join(out))  # titles, messages and paths come from the change and the model


def suggestion_block(replacement: str, span: tuple[int, int], platform: str) -> list[str]:
    """A one-click suggestion for a comment on the span's first line. GitLab counts the lines it
    replaces from the commented line (`-0+N`); GitHub replaces the lines the comment spans."""
    first, last = span
    info = f"suggestion:-0+{last - first}" if platform == "gitlab" else "suggestion"
    return ["**Suggested change:**", "", *fenced(replacement, info)]


def parse_title(body: str) -> str:
    """The title of a finding comment as the model wrote it (`finding_body` escaped it)."""
    m = _TITLE.search(body)
    return unescape(m.group(1)) if m else ""


_MESSAGE_END = ("**Suggestion:**", "**Suggested change:**", "<sub>dualrag")


def parse_message(body: str) -> str:
    """The message of a finding comment (`finding_body`): the text between its title and what follows
    it, read back without the escapes `finding_body` added."""
    m = _TITLE.search(body)
    if not m:
        return ""
    out: list[str] = []
    for line in body[m.end():].splitlines():
        if line.startswith(_MESSAGE_END):
            break
        out.append(line)
    return unescape("\n".join(out).strip())


def has_suggestion(body: str) -> bool:
    """The comment offered a one-click suggestion."""
    return "**Suggested change:**" in body


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _where(f: Finding) -> str:
    return code_span(f"{f.path}:{f.line}")


USAGE = "<sub>LLM usage of the run that wrote this summary:"
MAX_SKIPPED_LISTED = 200  # every skipped file, short of a note too large to post


def for_the_mr(review: Review) -> tuple[list[str], list[str]]:
    """(notes for the MR summary, notes for the job log). The MR gets what a run did to the change
    itself, the same on every run of a commit: a finding's fate (`path:line …`) and a cap that left
    part of the change sampled or unreviewed (`limits.…`). How the run went (rules indexed,
    reranking, estimators, reviewers, failures) is for the operator."""
    paths = tuple(f.path for f in review.files)
    mr, log = [], []
    for n in filter(None, review.notes):
        about_a_finding = any(n.startswith(p + ":") and re.match(r"\d+ ", n[len(p) + 1:]) for p in paths)
        (mr if about_a_finding or "limits." in n else log).append(n)
    return mr, log


def usage_line(review: Review) -> str | None:
    u = review.usage
    if not u.calls:
        return None
    cache = f" (cache read {u.cache_read_tokens:,})" if u.cache_read_tokens else ""
    cost = f" · ${u.cost_usd:.4f}" if u.cost_usd else ""
    return (f"{USAGE} {u.calls} request(s) · {u.input_tokens:,} tokens in{cache} · {u.output_tokens:,} out"
            f"{cost}</sub>")


REPORT = "<sub>Report of the run that wrote this summary:"
MAX_WALKTHROUGH_ENTRIES = 15
MAX_MEMBERS_SHOWN = 4


def same_summary(old: str, new: str) -> bool:
    """Equal but for what a re-run of the same commit may word or link differently: the usage line
    (a re-run spends tokens, and says so in the job log), the report link (a new job) and the
    walkthrough (a model may word it differently each time; the commit line says whether the change
    is the same). The note then keeps what the run that wrote it said."""
    def strip(body: str) -> list[str]:
        out, inside = [], False
        for line in body.splitlines():
            if line.strip() == markers.WALKTHROUGH:
                inside = True
            elif line.strip() == markers.WALKTHROUGH_END:
                inside = False
            elif not inside and not line.startswith((USAGE, REPORT)):
                out.append(line)
        while out and not out[-1].strip():  # the blank lines that preceded the lines left out
            out.pop()
        return out
    return strip(old) == strip(new)


def walkthrough_section(review: Review) -> list[str]:
    """"What this change does": the walkthrough, short (the model's words as plain text), between
    markers `same_summary` leaves out of the comparison."""
    w = review.walkthrough
    if w is None:
        return []
    files = [f for f in w.files if f.skipped is None]
    by_the_model = w.source == "llm"
    out = ["", markers.WALKTHROUGH, "", "### What this change does", "",
           (plain(w.overview) + " _(written by the model)_") if by_the_model else _one_line(w.overview)]
    entries: list[str] = []
    if by_the_model:  # files the model described together: one entry
        groups: dict[str, list[str]] = {}
        for f in files:
            if f.summary:
                groups.setdefault(f.summary, []).append(f.path)
        entries = [f"- {', '.join(_code(p) for p in paths)}: {plain(text)}" for text, paths in groups.items()]
    else:
        for f in files:
            members = ", ".join(_code(m) for m in f.members[:MAX_MEMBERS_SHOWN])
            more = f" +{len(f.members) - MAX_MEMBERS_SHOWN} more" if len(f.members) > MAX_MEMBERS_SHOWN else ""
            entries.append(f"- {_code(f.path)} ({_one_line(f.status)}, {f.change})"
                           + (f" — {members}{more}" if members else ""))
    if entries:
        out += ["", *entries[:MAX_WALKTHROUGH_ENTRIES]]
        if len(entries) > MAX_WALKTHROUGH_ENTRIES:
            out.append(f"- … and {len(entries) - MAX_WALKTHROUGH_ENTRIES} more")
    return [*out, "", markers.WALKTHROUGH_END]


def _code(text: str) -> str:
    """A code span of one line that no backtick inside closes early."""
    return code_span(_one_line(text))


def report_line(url: str | None) -> str | None:
    if not url:
        return None
    return f"{REPORT} [HTML report]({quote(url, safe=':/?&=#%~+@,;')})</sub>"


def summary_body(review: Review, *, head_sha: str, open_threads: int, unanchored: Sequence[Placed],
                 break_glass: BreakGlass | None, decision: str, refused: Sequence[str] = (),
                 notes: Sequence[str] | None = None, report_url: str | None = None) -> str:
    """The one summary note. Deterministic for a given commit and state but for its usage line,
    report link and walkthrough: a second run on the same commit leaves the note alone
    (`same_summary`). `notes`: the review's notes meant for the MR (`for_the_mr`; default: all of
    them). `report_url`: where CI published this run's HTML report (linked)."""
    counts: dict[str, int] = {}
    for f in review.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    sev = ", ".join(f"{counts[s]} {s}" for s in ("critical", "major", "minor", "info") if s in counts) or "none"
    reviewed = sum(1 for f in review.files if f.skipped_reason is None)
    out = [markers.SUMMARY + (markers.unanchored_marker(list(refused), head_sha) if refused else ""), f"## dualrag review — {LABEL.get(decision, decision)}", "",
           f"Commit `{head_sha[:12]}` · risk tier **{review.risk_tier}** · project **{review.project_type}** · "
           f"{reviewed} file(s) reviewed, {len(review.files) - reviewed} skipped", "",
           f"**Findings:** {len(review.findings)} ({sev}) · open threads: {open_threads}"]
    if review.decision_reasons:
        out += ["", f"**Why:** {inline('; '.join(review.decision_reasons))}"]
    out += walkthrough_section(review)
    if break_glass is not None:
        on = f" on `{break_glass.commit[:12]}`" if break_glass.commit else ""
        out += ["", f"> **Break glass** by @{break_glass.author}{on}: approval forced by a human override "
                    f"(note {break_glass.note_id}); the findings stay listed. A new push needs a new one."]
    if unanchored:
        out += ["", "### Not on a line of the diff", "",
                "These findings could not be placed as inline comments:", ""]
        out += [f"- {_where(p.finding)} **{p.finding.severity}** {inline(p.finding.title)}: "
                f"{inline(p.finding.message)}" for p in unanchored]
    # every skipped file, the uncertain ones (they hold the decision) first
    skipped = sorted((f for f in review.files if f.skipped_reason), key=lambda f: bool(f.skip_certain))
    if skipped:
        out += ["", f"<details><summary>Skipped files ({len(skipped)})</summary>", ""]
        out += [f"- {code_span(f.path)}: {plain(f.skip_text())}" for f in skipped[:MAX_SKIPPED_LISTED]]
        out += [f"- … and {len(skipped) - MAX_SKIPPED_LISTED} more"] if len(skipped) > MAX_SKIPPED_LISTED else []
        out += ["", "</details>"]
    notes = [n for n in (review.notes if notes is None else notes) if n]
    if notes:
        out += ["", "<details><summary>Notes</summary>", ""] + [f"- {inline(n)}" for n in notes] + ["", "</details>"]
    usage = usage_line(review)
    if usage:
        out += ["", usage]
    report = report_line(report_url)
    if report:
        out += ["", report]
    return neutralise("\n".join(out) + "\n")


def blocking_body(review: Review, head_sha: str) -> str:
    worst = [f for f in review.findings if f.severity in ("critical", "major")][:10]
    out = [markers.BLOCKING, f"⛔ **dualrag blocks this merge request** at `{head_sha[:12]}`: significant concerns.",
           "", "Resolve the findings below (or reply in their threads); dualrag resolves this thread itself "
           "when a later push no longer has significant concerns."]
    out += [""] + [f"- {_where(f)} **{f.severity}** {inline(f.title)}" for f in worst]
    return neutralise("\n".join(out) + "\n")
