"""What every command shares: the settings loader, the report formats and fail-on scale, writing
a report. Options mean the same on every command that has them (ARCHITECTURE.md, contracts)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dualrag.config import ModelSpec, Settings, find_config_file, load_settings
from dualrag.errors import UserError
from dualrag.source.git import GitRepo

if TYPE_CHECKING:  # the review layer is loaded only by the commands that review
    from dualrag.review.model import Review

FORMATS = click.Choice(["text", "markdown", "json"])
REPORT_FORMATS = click.Choice(["text", "markdown", "json", "html", "sarif", "codequality"])
MACHINE_FORMATS = ("html", "sarif", "codequality")  # review only; not a config value
FAIL_ON_CHOICES = click.Choice(["never", "approved_with_comments", "no_verdict", "minor_issues", "significant_concerns"])
BLOCKING_EXIT = 3


def options_group(*options):
    def apply(fn):
        for option in reversed(options):
            fn = option(fn)
        return fn

    return apply


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

    return options_group(*options)


# Read by the entry point (dualrag.cli.main) before the command runs: no command needs its value.
debug_option = click.option("--debug", is_flag=True, expose_value=False, help="Show tracebacks for errors.")


config_option = click.option("--config", "config_file", metavar="FILE",
                             help="Config file (default: .dualrag.toml in the repository root).")
store_option = click.option("--store", metavar="DIR", help="Store directory (default: .dualrag/store, or 'store' in config).")
# The reviewers' model and the reranker: the same flags, and the same settings, on every command that reviews.
model_options = options_group(
    click.option("--llm", "llm", metavar="PROVIDER:MODEL", help="Model for the reviewers, e.g. openai:gpt-4.1-mini "
                 "(default: DUALRAG_LLM or [llm] model; none = offline review with detectors only)."),
    click.option("--offline", is_flag=True, help="Ignore any configured model: detectors and validators only."),
    click.option("--reranker", metavar="DIR", help="Cross-encoder model folder (model.onnx + tokenizer.json)."),
)


def fail_on_option(default: str | None = None):
    return click.option("--fail-on", "fail_on", type=FAIL_ON_CHOICES, envvar="DUALRAG_FAIL_ON", default=default,
                        show_default=default is not None,
                        help="Exit 3 when the decision is this or more blocking "
                             "(approved_with_comments < no_verdict < minor_issues < significant_concerns).")


def load_cli_settings(config_file: str | None, git: GitRepo | None = None, *, store: str | None = None,
                      llm: str | None = None, offline: bool = False, reranker: str | None = None,
                      budget: int | None = None, allowed_env: tuple[str, ...] = (), **overrides) -> Settings:
    """The settings of a command: `--config FILE` (it must exist), else the repository's (or the
    working directory's) `.dualrag.toml`; then `DUALRAG_*`; then the command's own flags, which
    are all settings overrides (--store, --llm, --offline, --reranker, --budget, --format)."""
    if config_file:
        path = Path(config_file)
        if not path.is_file():
            raise UserError(f"config file not found: {config_file}")
    else:
        path = find_config_file(git.root if git else None)
    if store:
        overrides["store"] = store
    if reranker:
        overrides["rerank"] = {"model_dir": reranker}
    if budget is not None:
        overrides["chunking"] = {"budget": budget}
    if llm and not offline:
        try:
            overrides["llm"] = {"model": str(ModelSpec.parse(llm))}
        except ValueError as exc:
            raise UserError(f"--llm: {exc}") from None
    settings = load_settings(path, allowed_env=allowed_env, **overrides)
    if offline:  # sections merge key by key, so "no model anywhere" is set after layering
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"model": None, "reviewers": {}})})
    return settings


def check_writable(path: str | None) -> None:
    """Refuse at once a report path that cannot be written, rather than after the whole review."""
    if not path:
        return
    target = Path(path)
    folder = target.parent
    why = ("it is a directory" if target.is_dir() else f"folder {folder} does not exist" if not folder.is_dir()
           else "permission denied" if not os.access(folder, os.W_OK)
           or (target.exists() and not os.access(target, os.W_OK)) else None)
    if why:
        raise UserError(f"cannot write report to {path}: {why}")


def warn_if_unreviewed(review: Review) -> None:
    """A model was configured and none answered usably: a CI log must say so, not only the report
    (`--fail-on no_verdict` turns it into a failed job)."""
    from dualrag.review.decision import reviewers_all_failed

    if reviewers_all_failed(review.decision_reasons):
        failed = sorted({f"{r.reviewer}: {r.error}" for r in review.reviewers if r.error})
        detail = f" ({'; '.join(failed[:3])})" if failed else ""
        click.echo(f"dualrag: warning: every reviewer failed{detail}: decision {review.decision}, nobody reviewed "
                   "the logic", err=True)


def emit(report: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(report)
        return
    try:
        Path(output).write_text(report, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write report to {output}: {exc.strerror}") from None
