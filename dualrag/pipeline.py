"""Wiring of the online stages: diff bytes in, a Review out (ARCHITECTURE.md, "One direction")."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from dualrag.config import Settings
from dualrag.diff import ingest
from dualrag.review.model import Decision, Review

NOTHING_TO_REVIEW = "nothing to review"


def run_review(diff: bytes, settings: Settings) -> Review:
    timings: dict[str, float] = {}
    with _timed(timings, "ingest"):
        changes = ingest(diff, settings)
    notes = []
    if not changes.files:
        notes.append(NOTHING_TO_REVIEW)
    elif not changes.reviewable:
        notes.append(f"{NOTHING_TO_REVIEW}: all {len(changes.files)} files were skipped")
    else:
        notes.append("no reviewers ran yet: decision is no_verdict")
    return Review.of_changes(changes, decision=Decision.NO_VERDICT, notes=notes, timings=timings)


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    timings[stage] = round((time.perf_counter() - start) * 1000, 2)
