"""`dualrag index code REPO`: a repository's symbols (every language pack with a reader) into the
store (attach `index_code` to the `index` group). Incremental by git blob hash; rich progress; one
summary line."""

from __future__ import annotations

import contextlib
import time

import click
from rich.markup import escape

from dualrag.cli.options import config_option, debug_option, load_cli_settings, store_option
from dualrag.source.text import one_line


@click.command("code")
@click.argument("repo", metavar="REPO")
@store_option
@click.option("--ref", default="HEAD", show_default=True, metavar="REF", help="Commit to index.")
@click.option("--name", metavar="NAME", help="Repository name in the store (default: the repository folder's name).")
@config_option
@debug_option
def index_code(repo: str, store: str | None, ref: str, name: str | None, config_file: str | None) -> None:
    """Index the symbols of REPO at REF: Java, Kotlin, Python, EDI, MyBatis mappers, Spring configuration
    (incremental, all or nothing)."""

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from dualrag.cli.console import console, line_progress
    from dualrag.source.git import GitRepo

    err = console(stderr=True)
    started = time.perf_counter()
    settings = load_cli_settings(config_file, GitRepo(repo), store=store)  # .dualrag.toml of REPO by default
    from dualrag.store.code import open_code_store
    from indexers.code import index_repository

    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("index", total=None)

        def live(stage: str, done: int, total: int) -> None:
            bar.update(task, description=stage, completed=done, total=total or None)

        # a CI log or a file gets plain lines, at least every few seconds while a step runs
        with contextlib.nullcontext(live) if err.is_terminal else line_progress() as progress, \
                open_code_store(settings.store, settings.qdrant) as code_store:
            progress("read", 0, 0)
            report = index_repository(repo, code_store, ref=ref, name=name, noise=settings.noise, progress=progress)
    for path, why in report.skipped:
        err.print(escape(one_line(f"skipped {path}: {why}")), highlight=False)
    for path, why in report.notes:
        err.print(f"note {path}: {why}", highlight=False)
    seconds = time.perf_counter() - started
    click.echo(f"indexed {report.repository}@{report.commit[:10]}: {report.files} files ({report.parsed} parsed, "
               f"{report.removed} removed), {report.symbols} symbols ({report.written} written, {report.deleted} "
               f"deleted), {seconds:.1f} s")
