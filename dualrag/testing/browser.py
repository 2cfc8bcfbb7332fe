"""Open a local HTML file in headless Chromium (Debian's `chromium`, driven by Playwright with
`executable_path`: Playwright's own browser download is not reachable here) and record what it
did: the time to its load event and every request it made besides the file itself.

Used by the HTML report test and evaluation/bench/html_report.py.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_path() -> str | None:
    """The Chromium binary: $CHROMIUM_BIN, else the first on PATH; None when there is none."""
    configured = os.environ.get("CHROMIUM_BIN")
    if configured:
        return configured if Path(configured).is_file() else None
    return next((p for name in CANDIDATES if (p := shutil.which(name))), None)


def unavailable_reason() -> str | None:
    """Why the browser cannot be used (for a test's skip), or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return "no chromium binary (apt-get install chromium, or set CHROMIUM_BIN)"
    return None


@dataclass
class Visit:
    seconds: float  # navigation start to the load event, as the page measured it
    wall_seconds: float  # goto() call to load, as the driver saw it
    requests: list[str] = field(default_factory=list)  # every request but the page's own


@contextmanager
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def open_page(b: Any, path: Path, check: Callable[[Any], None] | None = None) -> Visit:
    """Open `path` in a fresh context (no cache), count its requests (any is answered with an
    abort, so a report that tries the network cannot hang), run `check(page)`."""
    url = path.resolve().as_uri()
    context = b.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []

    def route(r: Any) -> None:
        if r.request.url == url:
            r.continue_()
        else:
            requests.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url, wait_until="load")
    wall = time.perf_counter() - start
    load_ms = page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                            " return n ? n.loadEventEnd - n.startTime : null; }")
    if check is not None:
        check(page)
    context.close()
    return Visit(seconds=(load_ms / 1000) if load_ms else wall, wall_seconds=wall, requests=requests)
