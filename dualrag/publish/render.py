"""Render a Review as text (rich), Markdown or JSON."""

from __future__ import annotations

import io
import json
from dataclasses import asdict

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from dualrag.chunking.model import ChunkPlan
from dualrag.diff.model import ChangeSet
from dualrag.publish.blocks import code_language, code_span, fenced, inline, plain, prose, suggestion_prose
from dualrag.review.model import ChunkReport, FileReport, Review
from dualrag.review.walkthrough import Walkthrough
from dualrag.source.text import neutralise, neutralise_all, one_line

MAX_WALKTHROUGH_FILES = 30  # a longer list is the file table's job


def render(review: Review, fmt: str, *, color: bool = False, width: int | None = 160,
           changes: ChangeSet | None = None) -> str:
    """`changes`: the ChangeSet the review was made from; the HTML report shows its diff lines."""
    if fmt == "json":
        return review.model_dump_json(indent=2) + "\n"  # raw text, valid JSON: its encoder escapes controls
    review = neutralise_all(review)  # paths, diff text, titles and messages show escapes, never run them
    if fmt == "markdown":
        return markdown(review)
    if fmt == "html":
        from dualrag.publish.html import render_html

        return render_html(review, changes)
    if fmt == "sarif":
        from dualrag.publish.sarif import render_sarif

        return render_sarif(review)
    if fmt == "codequality":
        from dualrag.publish.codequality import render_codequality

        return render_codequality(review)
    return text(review, color=color, width=width)


def _change(f: FileReport) -> str:
    if f.binary:
        return "binary"
    return f"+{f.added} -{f.removed}"


def _status(f: FileReport) -> str:
    if f.old_path and f.status in ("renamed", "copied"):
        similarity = f" {f.similarity}%" if f.similarity is not None else ""
        return f"{f.status}{similarity} from {f.old_path}"
    return f.status


def _headline(review: Review) -> str:
    reviewed = sum(1 for f in review.files if f.skipped_reason is None)
    return (
        f"decision: {review.decision} · project: {review.project_type} · "
        f"risk tier: {review.risk_tier} · files: {reviewed} reviewed, "
        f"{len(review.files) - reviewed} skipped · findings: {len(review.findings)}"
    )


def text(review: Review, *, color: bool = False, width: int | None = 160) -> str:
    """`width` None: never wrap (a pipe, a file, a CI log: one finding, note or rule list per line)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width or 1_000_000, force_terminal=color, no_color=not color,
                      highlight=False, soft_wrap=width is None)
    console.print(f"[bold]dualrag review[/bold] — {escape(_headline(review))}")
    for reason in review.tier_reasons:
        console.print(escape(f"  tier: {reason}"))
    if review.files:
        table = Table(show_edge=False, pad_edge=False, box=None)
        for column in ("file", "status", "language", "encoding", "change", "skipped"):
            table.add_column(column, overflow="fold")
        for f in review.files:
            cells = (f.path, _status(f), f.language, f.encoding or "-", _change(f), f.skip_text())
            # paths may hold "[...]" (markup) and newlines (a forged row): one escaped line per cell
            table.add_row(*(escape(one_line(cell)) for cell in cells))
        console.print(table)
    for line in _chunk_lines(review.chunks):
        console.print(line, markup=False)
    for reason in review.decision_reasons:
        console.print(escape(f"decision: {reason}"))
    for finding in review.findings:
        rule = f" ({finding.rule_id})" if finding.rule_id else ""
        who = f" · {finding.source}" + (f":{finding.reviewer}" if finding.reviewer else "")
        muted = "" if finding.counted else " · settled earlier, not counted"
        console.print(escape(one_line(f"{finding.path}:{finding.line} [{finding.severity}] {finding.title}{rule}{who}{muted}")))
        if finding.message:
            console.print(escape(f"    {finding.message}"), markup=False)
        if finding.suggestion:
            console.print(escape(f"    suggestion: {finding.suggestion}"), markup=False)
        if finding.replacement is not None:
            console.print(f"    suggested change (line {finding.line}" + (f"-{finding.end_line}" if finding.end_line else "")
                          + "):", markup=False)
            for line in finding.replacement.split("\n"):
                console.print(f"      {line}", markup=False)
    if review.usage.calls:
        console.print(escape(f"usage: {_usage_line(review)}"))
    for note in review.notes:
        console.print(escape(f"note: {note}"))
    return buffer.getvalue()


def _usage_line(review: Review) -> str:
    u = review.usage
    cost = f", ${u.cost_usd:.4f}" if u.cost_usd else ""
    failed = f", {u.failed_calls} failed" if u.failed_calls else ""
    retries = f", {u.retries} retries" if u.retries else ""
    failbacks = f", {u.failbacks} failbacks" if u.failbacks else ""
    kinds = ", ".join(f"{k} {v.calls}" for k, v in sorted(u.by_kind.items())) if len(u.by_kind) > 1 else ""
    return (f"{u.calls} LLM calls{f' ({kinds})' if kinds else ''}{failed}{retries}{failbacks}; tokens in "
            f"{u.input_tokens} (cache read {u.cache_read_tokens}, write {u.cache_write_tokens}), out "
            f"{u.output_tokens}{cost}")


def _cell(value: str) -> str:
    return one_line(value).replace("|", "\\|")


def _line(text: str) -> str:
    return " ".join(text.split())


def walkthrough_markdown(walkthrough: Walkthrough, *, max_files: int = MAX_WALKTHROUGH_FILES) -> list[str]:
    """The model's words (`source="llm"`: the overview and every summary) are plain text, escaped."""
    overview = plain(walkthrough.overview) if walkthrough.source == "llm" else _line(walkthrough.overview)
    out = ["### Walkthrough", "", overview + (" _(written by the model)_" if walkthrough.source == "llm" else ""), ""]
    shown = [f for f in walkthrough.files if f.skipped is None][:max_files]
    for f in shown:
        members = f" — {', '.join(f'`{_cell(m)}`' for m in f.members)}" if f.members else ""
        summary = f": {plain(f.summary)}" if f.summary else ""
        out.append(f"- `{_cell(f.path)}` ({_cell(f.status)}, {f.change}){members}{summary}")
    hidden = sum(1 for f in walkthrough.files if f.skipped is None) - len(shown)
    if hidden > 0:
        out.append(f"- … and {hidden} more file(s)")
    return out


def markdown(review: Review) -> str:
    out = ["## dualrag review", "", _headline(review), ""]
    out += [f"- risk tier: {reason}" for reason in review.tier_reasons]
    if review.walkthrough is not None:
        out += ["", *walkthrough_markdown(review.walkthrough)]
    if review.files:
        out += ["", "| file | status | language | change | skipped |", "|---|---|---|---|---|"]
        out += [
            f"| `{_cell(f.path)}` | {_cell(_status(f))} | {f.language} | {_change(f)} | "
            f"{_cell(f.skip_text())} |"
            for f in review.files
        ]
    if review.chunks:
        # a chunk's context lines are nested items (indented text after "- " would be a code block)
        out += ["", "### Chunks", ""] + [f"  - {line.strip()}" if line.startswith(" ") else f"- {line}"
                                         for line in _chunk_lines(review.chunks)[1:]]
    if review.decision_reasons:
        out += ["", "**Decision:** " + str(review.decision) + " — " + inline("; ".join(review.decision_reasons))]
    if review.findings:
        out += ["", "### Findings", ""]
        for x in review.findings:
            rule = f" ({code_span(x.rule_id)})" if x.rule_id else ""
            muted = " _(settled earlier, not counted)_" if not x.counted else ""
            # the model's title and message: escaped, code spans kept, no mention or reference live
            head = f"- {code_span(one_line(f'{x.path}:{x.line}'))} **{x.severity}** {inline(x.title)}{rule}"
            message = x.message.strip()
            if "\n" in message:  # its lines and code blocks inside the item
                out += [f"{head}{muted}", "", *(f"  {line}" if line else "" for line in prose(message).split("\n"))]
            else:
                out.append(f"{head}: {inline(message)}{muted}")
            # blocks inside a list item are indented to its content: the next finding starts a new item
            suggestion = suggestion_prose(x, indent="  ")
            if suggestion:
                out += ["", *suggestion]
            if x.replacement is not None:
                lines = f"line {x.line}" if not x.end_line else f"lines {x.line}-{x.end_line}"
                out += ["", f"  **Suggested change** ({lines}):", "",
                        *fenced(x.replacement, code_language(x.path), indent="  ")]
            out.append("")
    if review.usage.calls:
        out += ["", f"Usage: {_usage_line(review)}"]
    if review.notes:  # one item each: notes never run into one paragraph
        out += ["", "### Notes", "", *(f"- {inline(note)}" for note in review.notes if note.strip())]
    return "\n".join(out) + "\n"


def _chunk_lines(chunks: list[ChunkReport]) -> list[str]:
    """A short summary: one line per chunk (files, members, tokens, and whether a member was cut)."""
    if not chunks:
        return []
    out = [f"chunks: {len(chunks)}"]
    for c in chunks:
        split = " · split member" if c.split_member else ""
        out.append(f"{c.id}: {len(c.files)} file(s), {len(c.members)} member(s), "
                   f"~{c.estimated_tokens} tokens{split}")
        if c.context is not None:
            rules = ", ".join(r.rule_id for r in c.context.rules) or "none"
            code = ", ".join(f"{x.relation} {x.symbol}" for x in c.context.code) or "none"
            ranked = "reranked" if c.context.reranked else "retrieval order"
            if c.context.threshold is not None:
                ranked += f", threshold {c.context.threshold:.3f}"
            if c.context.floor is not None:
                ranked += f", relevance floor {c.context.floor:g}"
            out.append(f"    context ({ranked}, {c.context.used} tokens): rules {rules}")
            out.append(f"    code {code}")
    return out


def render_chunks(plan: ChunkPlan, fmt: str, *, note: str | None = None) -> str:
    """Output of `dualrag chunk`: the budget and every chunk with its members' whole text."""
    reports = [ChunkReport.of(c, with_text=True) for c in plan.chunks]
    if fmt == "json":
        doc = {
            "budget": asdict(plan.budget), "limit": plan.limit, "estimator": plan.estimator,
            "total_tokens": plan.total_tokens, "notes": [*plan.notes, *([note] if note else [])],
            "chunks": [r.model_dump() for r in reports],
        }
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    out = [f"review estimate {plan.total_tokens} tokens; limit {plan.limit} per chunk (chunk budget "
           f"{plan.budget.chunk_tokens}, split above {plan.budget.start_above}, window {plan.budget.window}, "
           f"estimator {plan.estimator}); {len(reports)} chunk(s)"]
    out += [f"note: {n}" for n in (*plan.notes, *([note] if note else []))]
    for r in reports:
        head = f"{r.id}  ~{r.estimated_tokens} tokens" + ("  split member" if r.split_member else "")
        out += ["", head if fmt == "text" else f"### {head}"]
        for h in r.hunks:
            out.append(f"  hunk {h.path}:{h.new_start}-{h.new_end}")
        for m in r.members:
            partial = " (partial text)" if m.partial else ""
            out.append(f"  {m.kind} {m.name} lines {m.start_line}-{m.end_line}{partial}")
        out += [f"  note: {n}" for n in r.notes]
    return neutralise("\n".join(out) + "\n")
