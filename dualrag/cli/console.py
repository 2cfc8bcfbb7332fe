"""Where the CLI writes for people: rich consoles that never hard-wrap a pipe or a CI log, and
progress of long steps as plain stderr lines there (a terminal gets rich's live bars instead).

A line wrapped at 80 columns in a job log splits a path or a rule list in two and breaks every
grep; so off a terminal, text keeps its own line breaks only."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

import click
from rich.console import Console

from dualrag.progress import Ticker

PROGRESS_LOGGER = "dualrag.progress"  # stages and indexers report long steps here (no I/O of their own)
UNWRAPPED = 1_000_000  # columns of a console that is not a terminal: as wide as any line


def is_terminal(stderr: bool = False) -> bool:
    stream = sys.stderr if stderr else sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


def console(*, stderr: bool = False) -> Console:
    """A rich console on stdout or stderr; off a terminal it never wraps and never colours."""
    if is_terminal(stderr):
        return Console(stderr=stderr, highlight=False)
    return Console(stderr=stderr, highlight=False, width=UNWRAPPED, soft_wrap=True, no_color=True)


class _StderrLines(logging.Handler):
    """Each record as one `dualrag: ...` line on the stderr of the moment (tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"dualrag: {record.getMessage()}", err=True)


def progress_to_stderr() -> None:
    """Print what stages and indexers report on the progress logger (once per process)."""
    logger = logging.getLogger(PROGRESS_LOGGER)
    if not any(isinstance(h, _StderrLines) for h in logger.handlers):
        logger.addHandler(_StderrLines())
    logger.setLevel(logging.INFO)
    logger.propagate = False


def line_progress(every_s: float | None = None, *, clock: Callable[[], float] = time.monotonic,
                  beat_s: float | None = 0.25) -> Ticker:
    """A `(stage, done, total)` callback printing plain stderr lines for a CI log (`Ticker`): nothing
    for a stage done within `every_s` seconds, then its counts and elapsed time at least and at most
    every `every_s` seconds while it runs (reported or not), and its end. Close it (or use `with`)."""
    return Ticker(lambda line: click.echo(f"dualrag: {line}", err=True), every_s, clock=clock, beat_s=beat_s)
