"""`dualrag review` and `dualrag chunk`: a change from a diff file or a repository, reviewed or cut."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from dualrag.cli.options import (
    BLOCKING_EXIT,
    FORMATS,
    MACHINE_FORMATS,
    REPORT_FORMATS,
    check_writable,
    config_option,
    debug_option,
    diff_source_options,
    emit,
    fail_on_option,
    load_cli_settings,
    model_options,
    store_option,
    warn_if_unreviewed,
)
from dualrag.config import Settings
from dualrag.diff import ingest_source
from dualrag.diff.ingest import max_diff_bytes
from dualrag.diff.read import read_diff_file
from dualrag.errors import UserError
from dualrag.pipeline import review_changes, run_chunking
from dualrag.publish import render
from dualrag.publish.render import render_chunks
from dualrag.source.git import INDEX, GitRepo
from dualrag.source.review_source import ReviewSource


@click.command()
@diff_source_options("review")
@click.option("--format", "fmt", type=REPORT_FORMATS, help="Report format (default: text, or 'format' in config).")
@click.option("--output", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")
@config_option
@store_option
@model_options
@click.option("--budget", type=click.IntRange(min=1), metavar="N", help="Tokens per chunk (overrides the model window).")
@click.option("--explain", "explain_dir", metavar="DIR", help="Write every prompt sent (and each chunk's context) to DIR.")
@click.option("--telemetry", metavar="FILE", envvar="DUALRAG_TELEMETRY",
              help="Append JSONL events (stages, LLM requests, findings, decision) to FILE.")
@fail_on_option(default="never")
@click.option("--title", metavar="TEXT", help="Merge-request title (sanitised into the prompts).")
@click.option("--description-file", metavar="FILE", help="Merge-request description, from a file ('-' = stdin).")
@debug_option
def review(diff_file: str | None, repo: str | None, base: str | None, head: str | None, staged: bool,
           worktree: bool, fmt: str | None, output: str | None, config_file: str | None, store: str | None,
           llm: str | None, offline: bool, reranker: str | None, budget: int | None, explain_dir: str | None,
           telemetry: str | None, fail_on: str | None, title: str | None, description_file: str | None) -> int:
    """Review a change: a diff file, a commit range, staged or uncommitted work."""
    from dualrag.llm import JsonlSink
    from dualrag.pipeline import Conversation, RunHooks
    from dualrag.review.decision import at_or_above
    from dualrag.review.prompt import ChangeInfo
    from dualrag.review.stage import explain_folder

    check_writable(output)
    git = GitRepo(repo) if repo else None
    settings = load_cli_settings(config_file, git, format=None if fmt in MACHINE_FORMATS else fmt, store=store,
                                 llm=llm, offline=offline, reranker=reranker, budget=budget,
                                 base=base if git is not None else None)
    source = _review_source(settings, git, diff_file=diff_file, base=base, head=head, staged=staged,
                            worktree=worktree)
    description = ""
    if description_file:
        try:
            description = sys.stdin.read() if description_file == "-" else Path(description_file).read_text(
                encoding="utf-8", errors="replace")
        except OSError as exc:
            raise UserError(f"cannot read --description-file {description_file}: {exc.strerror}") from None
    if explain_dir:
        explain_folder(explain_dir)  # a bad --explain stops before the review, model or not
    start = time.perf_counter()
    changes = ingest_source(source, settings)  # once: the review and the HTML report's diff share it
    ingest_ms = round((time.perf_counter() - start) * 1000, 2)
    sink = None
    if telemetry:
        try:
            sink = JsonlSink(telemetry)
        except OSError as exc:
            raise UserError(f"cannot write telemetry to {telemetry}: {exc.strerror}") from None
    try:
        commits = git.commit_messages(base, head or "HEAD") if git is not None and base else ()
        conversation = Conversation(ChangeInfo(title=title or "", description=description, commit_messages=commits),
                                    feedback=_feedback_scope(settings, git))
        hooks = RunHooks(telemetry=sink, explain_dir=explain_dir, on_heartbeat=_heartbeat)
        result = review_changes(changes, source, settings, conversation=conversation, hooks=hooks,
                                ingest_ms=ingest_ms)
    finally:
        if sink is not None:
            sink.close()
    report_format = fmt if fmt in MACHINE_FORMATS else settings.format
    terminal = output is None and sys.stdout.isatty()
    emit(render(result, report_format, color=terminal, width=160 if terminal else None,
                changes=changes if report_format == "html" else None), output)
    warn_if_unreviewed(result)
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
@config_option
@debug_option
def chunk(diff_file: str | None, repo: str | None, base: str | None, head: str | None, staged: bool,
          worktree: bool, budget: int | None, estimator: str | None, fmt: str | None, output: str | None,
          config_file: str | None) -> None:
    """Show how a change is cut into token-budgeted chunks at method and element boundaries."""
    git = GitRepo(repo) if repo else None
    settings = load_cli_settings(config_file, git, format=fmt, budget=budget, base=base if git is not None else None)
    source = _review_source(settings, git, diff_file=diff_file, base=base, head=head, staged=staged,
                            worktree=worktree)
    plan, note = run_chunking(ingest_source(source, settings), settings, read_file=source.read_file,
                              estimator=estimator)
    emit(render_chunks(plan, settings.format, note=note), output)


def _feedback_scope(settings: Settings, git: GitRepo | None):
    """Earlier MRs' feedback of `[feedback] repository`, else of the --repo folder's name (a diff file alone: none)."""
    from dualrag.feedback import FeedbackScope, repository_key

    key = repository_key(settings.feedback.repository or (git.root.name if git else ""))
    return FeedbackScope(key) if key and settings.feedback.enabled else None


def _review_source(settings: Settings, git: GitRepo | None, *, diff_file: str | None, base: str | None,
                   head: str | None, staged: bool, worktree: bool) -> ReviewSource:
    """The diff, and with a repository the new files from where the diff took them: the head
    commit, the index or the working tree."""
    diff = _read_diff(settings, git, diff_file=diff_file, base=base, head=head, staged=staged, worktree=worktree)
    if git is None:
        return ReviewSource(diff)
    ref = (head or "HEAD") if base else INDEX if staged else None
    target = base or (git.verify_ref("HEAD") if git.has_commits() else None)
    return ReviewSource.from_git(git, diff, ref=ref, base=target, max_file_bytes=settings.chunking.max_file_bytes,
                                 head=ref if base else None)


def _read_diff(settings: Settings, git: GitRepo | None, *, diff_file: str | None,
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


