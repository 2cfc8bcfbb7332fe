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


def line_progress(every_s: float = 5.0, *, clock: Callable[[], float] = time.monotonic
                  ) -> Callable[[str, int, int], None]:
    """A `(stage, done, total)` callback printing plain stderr lines for a CI log: nothing for a stage
    done within `every_s` seconds, then one line every `every_s` seconds, and its end."""
    state = {"stage": "", "started": 0.0, "printed": 0.0, "spoke": False}

    def report(stage: str, done: int, total: int) -> None:
        now = clock()
        if stage != state["stage"]:
            state.update(stage=stage, started=now, printed=now, spoke=False)
        finished = bool(total) and done >= total
        due = now - float(state["printed"]) >= every_s
        if (finished and state["spoke"]) or (due and not finished):
            state.update(printed=now, spoke=not finished)
            click.echo(f"dualrag: {stage} {done}/{total}" if total else f"dualrag: {stage} {done}", err=True)

    return report
