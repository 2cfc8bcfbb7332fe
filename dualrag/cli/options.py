"""What every command shares: the settings loader, the report formats and fail-on scale, writing
a report. Options mean the same on every command that has them (ARCHITECTURE.md, contracts)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dualrag.config import Settings, find_config_file, load_settings
from dualrag.errors import UserError
from dualrag.source.git import GitRepo

FORMATS = click.Choice(["text", "markdown", "json"])
REPORT_FORMATS = click.Choice(["text", "markdown", "json", "sarif", "codequality"])
MACHINE_FORMATS = ("sarif", "codequality")  # review only; not a config value
FAIL_ON_CHOICES = click.Choice(["never", "approved_with_comments", "no_verdict", "minor_issues", "significant_concerns"])
BLOCKING_EXIT = 3

def diff_source_options(verb: str):
    """Where the change comes from, the same for every command that takes one: a diff file, or a
    repository with one of --base (and --head), --staged, --worktree."""
    options = [
        click.option("--diff-file", metavar="FILE", help=f"A unified diff to {verb} ('-' reads standard input)."),
        click.option("--repo", metavar="DIR", help="A git repository to take the diff (and the new files) from."),
        click.option("--base", metavar="REF", help=f"With --repo: {verb} what HEAD (or --head) adds since REF."),
        click.option("--head", metavar="REF", help="With --repo --base: the commit under review (default HEAD)."),
        click.option("--staged", is_flag=True, help=f"With --repo: {verb} the staged changes."),
        click.option("--worktree", is_flag=True, help=f"With --repo: {verb} all uncommitted work, untracked files too."),
    ]

    def apply(fn):
        for option in reversed(options):
            fn = option(fn)
        return fn

    return apply


# Read by the entry point (dualrag.cli.main) before the command runs: no command needs its value.
debug_option = click.option("--debug", is_flag=True, expose_value=False, help="Show tracebacks for errors.")


def load_cli_settings(config_file: str | None, git: GitRepo | None = None, **overrides) -> Settings:
    """The settings of a command: `--config FILE` (it must exist), else the repository's (or the
    working directory's) `.dualrag.toml`; then `DUALRAG_*`; then the command's own flags."""
    if config_file:
        path = Path(config_file)
        if not path.is_file():
            raise UserError(f"config file not found: {config_file}")
    else:
        path = find_config_file(git.root if git else None)
    return load_settings(path, **overrides)


def emit(report: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(report)
        return
    try:
        Path(output).write_text(report, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write report to {output}: {exc.strerror}") from None
