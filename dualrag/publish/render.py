"""Render a Review as text (rich), Markdown or JSON."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from dualrag.review.model import FileReport, Review


def render(review: Review, fmt: str, *, color: bool = False, width: int = 160) -> str:
    if fmt == "json":
        return review.model_dump_json(indent=2) + "\n"
    if fmt == "markdown":
        return markdown(review)
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


def text(review: Review, *, color: bool = False, width: int = 160) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=color, no_color=not color,
                      highlight=False, soft_wrap=False)
    console.print(f"[bold]dualrag review[/bold] — {_headline(review)}")
    for reason in review.tier_reasons:
        console.print(f"  tier: {reason}")
    if review.files:
        table = Table(show_edge=False, pad_edge=False, box=None)
        for column in ("file", "status", "language", "encoding", "change", "skipped"):
            table.add_column(column, overflow="fold")
        for f in review.files:
            table.add_row(f.path, _status(f), f.language, f.encoding or "-", _change(f),
                          f.skipped_reason or "")
        console.print(table)
    for finding in review.findings:
        console.print(f"{finding.path}:{finding.line} [{finding.severity}] {finding.title}")
    for note in review.notes:
        console.print(f"note: {note}")
    return buffer.getvalue()


def _cell(value: str) -> str:
    return value.replace("|", "\\|").replace("\n", " ")


def markdown(review: Review) -> str:
    out = ["## dualrag review", "", _headline(review), ""]
    out += [f"- risk tier: {reason}" for reason in review.tier_reasons]
    if review.files:
        out += ["", "| file | status | language | change | skipped |", "|---|---|---|---|---|"]
        out += [
            f"| `{_cell(f.path)}` | {_cell(_status(f))} | {f.language} | {_change(f)} | "
            f"{_cell(f.skipped_reason or '')} |"
            for f in review.files
        ]
    if review.findings:
        out += ["", "### Findings", ""]
        out += [f"- `{x.path}:{x.line}` **{x.severity}** {x.title}: {x.message}" for x in review.findings]
    out += [""] + [f"> {note}" for note in review.notes]
    return "\n".join(out) + "\n"
