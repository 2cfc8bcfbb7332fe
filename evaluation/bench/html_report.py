#!/usr/bin/env python
"""The HTML report of the largest real diff, opened in headless Chromium: open time (median of
several fresh-page runs, navigation start to load event) and network requests. Floors: < 2 s, 0.

The review is offline (detectors and validators; retrieval when the store has rules), so the
figures are the report's, not a model's. Usage:
    .venv/bin/python -m evaluation.bench.html_report [--diffs DIR] [--runs N] [--keep FILE]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.pipeline import review_changes
from dualrag.publish.html import render_html
from dualrag.source.review_source import ReviewSource
from dualrag.testing.browser import browser, chromium_path, open_page, unavailable_reason
from evaluation.core import datasets
from evaluation.core.report import verdict

FLOOR_S = 2.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diffs", type=Path, default=datasets.DIFFS)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--keep", type=Path, help="also write the report here")
    args = ap.parse_args()
    reason = unavailable_reason()
    if reason:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    diff_path = max(datasets.diffs(args.diffs), key=lambda p: p.stat().st_size)
    diff = diff_path.read_bytes()
    settings = load_settings(None)
    settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"model": None, "reviewers": {}})})
    start = time.perf_counter()
    changes = ingest(diff, settings)  # once: the review and the report's diff share it, as in the CLI
    review = review_changes(changes, ReviewSource(diff), settings)
    review_s = time.perf_counter() - start
    start = time.perf_counter()
    html = render_html(review, changes)
    render_s = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.html"
        path.write_text(html, encoding="utf-8")
        if args.keep:
            args.keep.write_text(html, encoding="utf-8")
        shown: list[int] = []
        with browser() as b:
            open_page(b, path)  # warm-up: the browser's own start-up is not the report's
            visits = [open_page(b, path, check=lambda page: shown.append(page.locator(".finding").count()))
                      for _ in range(args.runs)]
    median = statistics.median(v.seconds for v in visits)
    wall = statistics.median(v.wall_seconds for v in visits)
    requests = max(len(v.requests) for v in visits)
    lines = sum(len(h.lines) for f in changes.reviewable if not f.binary for h in f.hunks)
    print(f"diff: {diff_path.name} ({len(diff):,} bytes, {len(review.files)} files, {lines:,} diff lines, "
          f"{len(review.findings)} findings, {len(review.chunks)} chunks)")
    print(f"review {review_s:.2f} s (offline); html render {render_s:.2f} s; report {len(html.encode()):,} bytes")
    print(f"chromium: {chromium_path()}")
    print(f"open time (load event), median of {args.runs}: {median:.3f} s "
          f"(min {min(v.seconds for v in visits):.3f}, max {max(v.seconds for v in visits):.3f}); "
          f"driver wall median {wall:.3f} s")
    print(f"network requests: {requests}; finding cards shown: {shown[0] if shown else 0}")
    ok = median < FLOOR_S and requests == 0
    print(f"floor (< {FLOOR_S:g} s, 0 requests): {verdict(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
