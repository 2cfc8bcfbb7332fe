"""`dualrag review` and `dualrag chunk`: a change from a diff file or a repository, reviewed or cut."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dualrag.cli.options import (
    BLOCKING_EXIT,
    FAIL_ON_CHOICES,
    FORMATS,
    MACHINE_FORMATS,
    REPORT_FORMATS,
    debug_option,
    diff_source_options,
    emit,
    load_cli_settings,
)
from dualrag.config import Settings
from dualrag.diff import ingest
from dualrag.diff.ingest import max_diff_bytes
from dualrag.diff.read import read_diff_file
from dualrag.errors import UserError
from dualrag.pipeline import Reader, run_chunking, run_review
from dualrag.publish import render
from dualrag.publish.render import render_chunks
from dualrag.source.git import INDEX, GitRepo


@click.command()
@diff_source_options("review")
@click.option("--format", "fmt", type=REPORT_FORMATS, help="Report format (default: text, or 'format' in config).")
@click.option("--output", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")
@click.option("--config", "config_file", metavar="FILE", help="Config file (default: .dualrag.toml in the repository root).")
@click.option("--store", metavar="DIR", help="Store directory (default: .dualrag/store, or 'store' in config).")
@click.option("--reranker", metavar="DIR", help="Cross-encoder model folder (model.onnx + tokenizer.json).")
@click.option("--budget", type=click.IntRange(min=1), metavar="N", help="Tokens per chunk (overrides the model window).")
@click.option("--llm", "llm", metavar="PROVIDER:MODEL", help="Model for the reviewers, e.g. openai:gpt-4.1-mini "
              "(default: DUALRAG_LLM or [llm] model; none = offline review with detectors only).")
@click.option("--offline", is_flag=True, help="Ignore any configured model: detectors and validators only.")
@click.option("--explain", "explain_dir", metavar="DIR", help="Write every prompt sent (and each chunk's context) to DIR.")
@click.option("--telemetry", metavar="FILE", envvar="DUALRAG_TELEMETRY",
              help="Append JSONL events (stages, LLM requests, findings, decision) to FILE.")
@click.option("--fail-on", "fail_on", type=FAIL_ON_CHOICES, envvar="DUALRAG_FAIL_ON",
              help="Exit 3 when the decision is this or more blocking "
                   "(approved_with_comments < no_verdict < minor_issues < significant_concerns).")
@click.option("--title", metavar="TEXT", help="Merge-request title (sanitised into the prompts).")
@click.option("--description-file", metavar="FILE", help="Merge-request description, from a file ('-' = stdin).")
@debug_option
def review(
    diff_file: str | None,
    repo: str | None,
    base: str | None,
    head: str | None,
    staged: bool,
    worktree: bool,
    fmt: str | None,
    output: str | None,
    config_file: str | None,
    store: str | None,
    reranker: str | None,
    budget: int | None,
    llm: str | None,
    offline: bool,
    explain_dir: str | None,
    telemetry: str | None,
    fail_on: str | None,
    title: str | None,
    description_file: str | None,
) -> int:
    """Review a change: a diff file, a commit range, staged or uncommitted work."""
    from dualrag.llm import JsonlSink, ModelSpec
    from dualrag.review.decision import at_or_above
    from dualrag.review.prompt import ChangeInfo

    git = GitRepo(repo) if repo else None
    settings = load_cli_settings(config_file, git, format=None if fmt in MACHINE_FORMATS else fmt, store=store)
    if llm or offline:
        try:
            spec = None if offline else str(ModelSpec.parse(llm or ""))
        except ValueError as exc:
            raise UserError(f"--llm: {exc}") from None
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(
            update={"model": spec, **({"reviewers": {}} if offline else {})})})
    diff = _read_source(settings, git, diff_file=diff_file, base=base, head=head,
                        staged=staged, worktree=worktree)
    reader = _new_file_reader(settings, git, base=base, head=head, staged=staged, worktree=worktree)
    description = ""
    if description_file:
        try:
            description = sys.stdin.read() if description_file == "-" else Path(description_file).read_text(
                encoding="utf-8", errors="replace")
        except OSError as exc:
            raise UserError(f"cannot read --description-file {description_file}: {exc.strerror}") from None
    sink = None
    if telemetry:
        try:
            sink = JsonlSink(telemetry)
        except OSError as exc:
            raise UserError(f"cannot write telemetry to {telemetry}: {exc.strerror}") from None
    try:
        result = run_review(diff, settings, read_file=reader, budget=budget, reranker_dir=reranker,
                            repo_root=git.root if git else None,
                            info=ChangeInfo(title=title or "", description=description), telemetry=sink,
                            explain_dir=explain_dir, on_heartbeat=_heartbeat)
    finally:
        if sink is not None:
            sink.close()
    report_format = fmt if fmt in MACHINE_FORMATS else settings.format
    emit(render(result, report_format, color=output is None and sys.stdout.isatty()), output)
    if fail_on and fail_on != "never" and at_or_above(result.decision, fail_on):
        click.echo(f"dualrag: decision {result.decision} is at or above --fail-on {fail_on}", err=True)
        return BLOCKING_EXIT
    return 0


def _heartbeat(info: dict) -> None:
    waited = info.get("waited_s") or info.get("elapsed_s")
    extra = f" ({waited:.0f}s)" if isinstance(waited, (int, float)) else ""
    click.echo(f"dualrag: still waiting on {info.get('model', 'the model')} for {info.get('tag', '')}{extra}", err=True)


@click.command()
@diff_source_options("chunk")
@click.option("--budget", type=click.IntRange(min=1), metavar="N", help="Tokens per chunk (overrides the budget from the model window).")
@click.option("--estimator", type=click.Choice(["fast", "exact", "formula"]), help="Token estimator (default: chunking.estimator).")
@click.option("--format", "fmt", type=FORMATS, help="Output format (default: text, or 'format' in config).")
@click.option("--output", "-o", metavar="FILE", help="Write to FILE instead of standard output.")
@click.option("--config", "config_file", metavar="FILE", help="Config file (default: .dualrag.toml in the repository root).")
@debug_option
def chunk(diff_file: str | None, repo: str | None, base: str | None, head: str | None, staged: bool,
          worktree: bool, budget: int | None, estimator: str | None, fmt: str | None, output: str | None,
          config_file: str | None) -> None:
    """Show how a change is cut into token-budgeted chunks at method and element boundaries."""
    git = GitRepo(repo) if repo else None
    settings = load_cli_settings(config_file, git, format=fmt)
    diff = _read_source(settings, git, diff_file=diff_file, base=base, head=head,
                        staged=staged, worktree=worktree)
    reader = _new_file_reader(settings, git, base=base, head=head, staged=staged, worktree=worktree)
    plan, note = run_chunking(ingest(diff, settings), settings, read_file=reader, budget=budget,
                              estimator=estimator)
    emit(render_chunks(plan, settings.format, note=note), output)


def _new_file_reader(settings: Settings, git: GitRepo | None, *, base: str | None, head: str | None,
                     staged: bool, worktree: bool) -> Reader | None:
    """New files come from the head commit, the index or the working tree, as the diff did."""
    if git is None:
        return None
    ref = (head or "HEAD") if base else INDEX if staged else None
    limit = settings.chunking.max_file_bytes
    return lambda path: git.read_file(ref, path, limit)


def _read_source(settings: Settings, git: GitRepo | None, *, diff_file: str | None,
                 base: str | None, head: str | None, staged: bool, worktree: bool) -> bytes:
    limit = max_diff_bytes(settings)
    modes = [name for name, on in (("--base", base), ("--staged", staged), ("--worktree", worktree)) if on]
    if diff_file is not None:
        if git or modes or head:
            raise click.UsageError("--diff-file cannot be combined with --repo, --base, --head, --staged or --worktree")
        return read_diff_file(diff_file, limit)
    if git is None:
        raise click.UsageError("say what to review: --diff-file FILE, or --repo DIR with --base REF, --staged or --worktree")
    if len(modes) != 1:
        raise click.UsageError("with --repo, give exactly one of --base REF, --staged, --worktree")
    if head and not base:
        raise click.UsageError("--head goes with --base")
    if base:
        return git.diff_range(base, head or "HEAD", limit)
    if staged:
        return git.diff_staged(limit)
    return git.diff_worktree(limit)


