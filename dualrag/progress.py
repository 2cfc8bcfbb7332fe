"""The progress channel of long steps (first-use indexing of the bundled rules, ...): a logger,
and `Ticker`, which turns `(stage, done, total)` reports into plain lines for a log.

Stages and indexers do no I/O of their own; they say what takes long here and the CLI prints it as
plain `dualrag: ...` lines on stderr (dualrag/cli/console.py). Library callers see nothing unless
they configure logging for "dualrag.progress"."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

progress = logging.getLogger("dualrag.progress")

EVERY_S = 4.0
"""Seconds between two progress lines in a log: a step longer than this says where it is at least
this often (a line also when a report comes in late), and a quick step says nothing."""


def _seconds(s: float) -> str:
    return f"{s:.1f} s" if s < 10 else f"{s:.0f} s"


class Ticker:
    """`(stage, done, total)` reports (a callable for the indexers' `progress=` hooks) as plain lines
    for a CI log or a file: nothing for a stage done within `every_s` seconds; then the stage, its
    counts and the time it has taken, at most and at least every `every_s` seconds while it runs
    (a heartbeat thread speaks for a step that reports nothing for a while: one long embedding
    call, a write); and one line when a stage that spoke ends.

    `beat_s` None: no thread (tests call `beat()` with their own clock). Use it as a context
    manager, or `close()` it, to stop the thread."""

    def __init__(self, say: Callable[[str], None], every_s: float | None = None, *,
                 clock: Callable[[], float] = time.monotonic, beat_s: float | None = 0.25) -> None:
        self._say = say
        self.every_s = EVERY_S if every_s is None else every_s
        self._clock = clock
        self._lock = threading.Lock()
        self._stage = ""
        self._done = 0
        self._total = 0
        self._started = 0.0
        self._printed = 0.0
        self._spoke = False
        self._finished = True
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if beat_s:
            self._thread = threading.Thread(target=self._run, args=(beat_s,), name="dualrag-progress", daemon=True)
            self._thread.start()

    def __call__(self, stage: str, done: int, total: int) -> None:
        with self._lock:
            now = self._clock()
            if stage != self._stage:
                self._stage, self._started, self._printed, self._spoke = stage, now, now, False
            self._done, self._total = done, total
            self._finished = bool(total) and done >= total
            if self._finished:
                if self._spoke:
                    self._line(now, ended=True)
                self._spoke = False
            elif now - self._printed >= self.every_s:
                self._line(now)

    def beat(self) -> None:
        """A line for the running stage when none was said for `every_s` seconds."""
        with self._lock:
            now = self._clock()
            if self._stage and not self._finished and now - self._printed >= self.every_s:
                self._line(now)

    def _line(self, now: float, *, ended: bool = False) -> None:
        counts = f" {self._done}/{self._total}" if self._total else (f" {self._done}" if self._done else "")
        took = _seconds(now - self._started)
        self._say(f"{self._stage}{counts}, {'done in ' if ended else ''}{took}")
        self._printed, self._spoke = now, not ended

    def _run(self, beat_s: float) -> None:
        while not self._stop.wait(beat_s):
            try:
                self.beat()
            except Exception:  # a closed stream at exit: stop speaking, never fail the step
                return

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def __enter__(self) -> Ticker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
