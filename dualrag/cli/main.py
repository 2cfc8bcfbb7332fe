"""The `dualrag` command group and its entry point.

Errors the user can fix print one line on stderr and exit 2; a traceback only with --debug.
"""

from __future__ import annotations

import sys
import traceback

import click

from dualrag import __version__
from dualrag.cli.console import progress_to_stderr
from dualrag.cli.corpus import corpus
from dualrag.cli.feedback import feedback
from dualrag.cli.index_code import index_code
from dualrag.cli.knowledge import index, kb, rules, search
from dualrag.cli.models import models
from dualrag.cli.review import chunk, review
from dualrag.cli.service import serve, worker
from dualrag.cli.vcs import github, gitlab
from dualrag.errors import UserError
from dualrag.source.text import neutralise


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dualrag")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
def cli(debug: bool) -> None:
    """AI code review for merge requests, with code context and team rules retrieved side by side."""


for _command in (review, chunk, index, rules, search, kb, models, corpus, gitlab, github, feedback, serve, worker):
    cli.add_command(_command)
index.add_command(index_code)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    progress_to_stderr()
    try:
        code = cli.main(args=args, prog_name="dualrag", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # `dualrag kb`: the group's help, not an error line
        click.echo(exc.format_message(), err=True)
        sys.exit(exc.exit_code)
    except (UserError, click.ClickException) as exc:
        if debug:
            traceback.print_exc()
        message = _usage(exc) if isinstance(exc, click.ClickException) else str(exc)
        click.echo(f"dualrag: error: {neutralise(message)}", err=True)  # messages quote paths from diffs
        sys.exit(exc.exit_code if isinstance(exc, click.ClickException) else UserError.exit_code)
    except (KeyboardInterrupt, click.Abort):
        click.echo("dualrag: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if debug:
            raise
        click.echo(f"dualrag: internal error: {type(exc).__name__}: {neutralise(str(exc))} (rerun with --debug)",
                   err=True)
        sys.exit(1)
    sys.exit(code or 0)


def _usage(exc: click.ClickException) -> str:
    """Click's own errors ("Missing argument 'NAME'.") in dualrag's style: one line, lower case, no
    full stop, and where to read more (`see 'dualrag kb drop --help'`)."""
    message = " ".join(exc.format_message().split()).rstrip(".")
    message = message[:1].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None and "--help" not in message:
        message += f" (see '{ctx.command_path} --help')"
    return message
