"""How a harness prints: aligned tables, a figure beside its baseline, and one line per floor that
ends in PASS or FAIL (`floor`), so every report reads the same."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence


def grid(rows: Sequence[Sequence[str]]) -> str:
    """Rows of cells (the first row the header) as an aligned table: the first column left, the others
    right-aligned, a rule under the header."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def floor(what: str, figure: str, ok: bool) -> str:
    """One floor's line: what is required, the figure measured, PASS or FAIL."""
    return f"  {what}: {figure}  {verdict(ok)}"


def beside(figure: float, baseline: float, fmt: str = ".3f") -> str:
    """A figure with its baseline and their difference: `0.812 (baseline 0.700, +0.112)`."""
    return f"{figure:{fmt}} (baseline {baseline:{fmt}}, {figure - baseline:+{fmt}})"


def mean(values: Iterable[float]) -> float:
    """The mean, 0.0 for no values (a system that reviewed nothing yet)."""
    vals = [float(v) for v in values]
    return statistics.fmean(vals) if vals else 0.0


def percentile(values: Iterable[float], q: float) -> float:
    """The `q` quantile (0..1) by nearest rank of the sorted values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def share(found: int, cases: int) -> str:
    """`found/cases = 87.5%`, or `no cases`."""
    return f"{found}/{cases} = {found / cases:.1%}" if cases else "no cases"
