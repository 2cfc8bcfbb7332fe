"""What every command shares: the settings loader, the report formats and fail-on scale, writing
a report. Options mean the same on every command that has them (ARCHITECTURE.md, contracts)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dualrag.config import CONFIG_FILE_NAME, ModelSpec, Settings, find_config_file, load_settings
from dualrag.config.trust import MAX_CONFIG_BYTES, RepositoryConfig, repository_config
from dualrag.errors import ConfigError, SourceError, UserError
from dualrag.source.git import GitRepo
from dualrag.source.text import one_line

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
                             help="Config file outside the repository [$DUALRAG_CONFIG]: the only file that may set "
                                  "hosts and secrets. The repository's .dualrag.toml applies beneath it (read from "
                                  "the target side with --base and in merge-request stages).")
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
                        show_default=default is not None, show_envvar=True,
                        help="Exit 3 when the decision is this or more blocking "
                             "(approved_with_comments < no_verdict < minor_issues < significant_concerns).")


def load_cli_settings(config_file: str | None, git: GitRepo | None = None, *, store: str | None = None,
                      llm: str | None = None, offline: bool = False, reranker: str | None = None,
                      budget: int | None = None, allowed_env: tuple[str, ...] = (), base: str | None = None,
                      ci: bool = False, **overrides) -> Settings:
    """The settings of a command: the repository's `.dualrag.toml` (from the commit `base` when
    given: the target side, never the change), then `--config FILE` / `$DUALRAG_CONFIG` outside
    the repository, then `DUALRAG_*`, then the command's own flags (--store, --llm, --offline,
    --reranker, --budget, --format). Routing and secret keys of a repository file are ignored
    with a warning (config/trust.py). `ci`: in a merge-request stage with no checkout, no
    repository file is read at all (the working directory is the change)."""
    path, repository = trusted_and_repository_config(config_file, git, base=base, ci=ci)
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
    settings = load_settings(path, allowed_env=allowed_env, repository=repository, **overrides)
    if offline:  # sections merge key by key, so "no model anywhere" is set after layering
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"model": None, "reviewers": {}})})
    return settings


def trusted_and_repository_config(config_file: str | None, git: GitRepo | None, *, base: str | None,
                                  ci: bool) -> tuple[Path | None, RepositoryConfig | None]:
    """(a trusted config file, the repository's configuration). A `--config` file outside the
    repository layers over the repository's `.dualrag.toml`; one inside the repository under
    review is the repository's own: read from `base` like `.dualrag.toml`, routing keys ignored."""
    config_file = config_file or os.environ.get("DUALRAG_CONFIG") or None
    trusted: Path | None = None
    relative: str | None = CONFIG_FILE_NAME
    if config_file:
        path = Path(config_file)
        if not path.is_file():
            raise UserError(f"config file not found: {config_file}")
        if git is None:
            return path, None
        inside = _inside(path, git.root)
        if inside is None:  # trusted; the repository's own file still steers, beneath it
            trusted = path
        else:
            relative = inside
    if git is None:
        if ci:
            return None, None
        found = find_config_file(None)
        return trusted, _repository_file(found.read_bytes(), str(found)) if found else None
    if base is not None:
        try:
            data = git.read_file(base, relative, MAX_CONFIG_BYTES + 1)
        except SourceError:
            data = None
        origin = f"'{relative}' at {base[:12]} (the target side)"
        if data is None and git.has_path(base, relative):  # there, but above the size cap
            raise ConfigError(f"{origin}: configuration file above {MAX_CONFIG_BYTES / 1e6:g} MB")
        return trusted, _repository_file(data, origin) if data is not None else None
    if ci:
        click.echo(f"dualrag: warning: the target commit is unknown: the repository's {relative} is not read",
                   err=True)
        return trusted, None
    found_path = git.root / relative
    return trusted, _repository_file(found_path.read_bytes(), str(found_path)) if found_path.is_file() else None


def _inside(path: Path, root: Path) -> str | None:
    """`path` relative to the repository `root`, or None when it lies outside."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def _repository_file(data: bytes, origin: str) -> RepositoryConfig:
    config = repository_config(data, origin)
    if warning := config.warning():
        click.echo(f"dualrag: warning: {warning}", err=True)
    return config


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
        # endpoint errors quote what a server sent: escapes shown, never run
        click.echo(f"dualrag: warning: every reviewer failed{one_line(detail)}: decision {review.decision}, nobody "
                   "reviewed the logic", err=True)


def emit(report: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(report)
        return
    try:
        Path(output).write_text(report, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write report to {output}: {exc.strerror}") from None


def renamed_option(name: str, old: str, dest: str, **kw):
    """`click.option(name, dest, **kw)` that still takes its old name `old`, hidden from --help: one
    name per concept, and scripts written against the old one keep working (with a line on stderr)."""
    import functools

    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            given = kwargs.pop(f"{dest}_old", None)
            if given is not None:
                if kwargs.get(dest) not in (None, given):
                    raise click.UsageError(f"{old} is the old name of {name}: give one of them")
                kwargs[dest] = given
                click.echo(f"dualrag: {old} is deprecated here: use {name}", err=True)
            return fn(*args, **kwargs)

        wrapper = click.option(old, f"{dest}_old", hidden=True, metavar=kw.get("metavar"))(wrapper)
        return click.option(name, dest, **kw)(wrapper)

    return decorate
