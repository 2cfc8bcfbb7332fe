"""The units the token-estimator bench measures: each whole diff of a set, each per-file section of
it, and each chunk the chunker makes of it; their errors against the exact count; and the estimator
of an older commit, read from git, to stand beside the shipped one. Used by evaluation.bench.tokens
and evaluation.bench.regression_floors."""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evaluation import ROOT

BASELINE = "c7e994f"  # the estimator issue 43 measured
BUDGETS = (2_000, 8_000, 60_000)
KINDS = ("diff", "file", "chunk")
MAPE_FLOOR, UNDER_FLOOR = 4.0, 10.0


@dataclass
class Unit:
    kind: str  # diff | file | chunk
    family: str  # the pack, or "shared"
    text: str
    exact: int = 0
    estimate: int | None = None  # chunks: the chunker's own estimate
    limit: int = 0  # chunks: the budget the chunk was made for
    margin: float = 0.0  # chunks: the chunker's margin


@dataclass
class Errors:
    n: int
    mape: float
    under: float  # worst under-estimate, % of the exact count
    over: float
    bias: float

    @classmethod
    def of(cls, estimates: Sequence[int], exact: Sequence[int]) -> Errors:
        errs = [100.0 * (e - x) / x for e, x in zip(estimates, exact) if x > 0]
        return cls(len(errs), statistics.fmean(map(abs, errs)), max(0.0, -min(errs)), max(0.0, max(errs)),
                   statistics.fmean(errs))


def decode(raw: bytes) -> str:
    from dualrag.source.encoding import decode as dualrag_decode

    return dualrag_decode(raw)[0]


def split_diff(text: str) -> list[str]:
    """Per-file sections of a unified diff, cut before each `diff --git` line."""
    return [s for s in re.split(r"(?m)^(?=diff --git )", text) if s.strip()]


def diff_files(root: Path) -> list[tuple[str, str, bytes]]:
    """(family, file name, bytes) of every .diff/.patch under `root`; a subfolder's name is the family."""
    return [(f.parent.name if f.parent != root else "shared", f.name, f.read_bytes())
            for f in sorted(root.rglob("*")) if f.suffix in (".diff", ".patch")]


def set_units(diffs: Iterable[tuple[str, str, bytes]], estimator) -> list[Unit]:
    """Whole diffs, per-file sections and the chunker's chunks (made with `estimator`), once each."""
    from dualrag.chunking import chunk_changes
    from dualrag.config import load_settings
    from dualrag.diff import ingest
    from dualrag.errors import UserError

    settings = load_settings(None)
    units, seen = [], set()
    for family, _, raw in diffs:
        text = decode(raw)
        units += [Unit("diff", family, text)] + [Unit("file", family, s) for s in split_diff(text)]
        try:
            changes = ingest(raw, settings)
        except UserError:
            continue
        for budget in BUDGETS:
            plan = chunk_changes(changes, estimator=estimator, config=settings.chunking, budget=budget)
            units += [Unit("chunk", family, c.text, estimate=c.estimated_tokens, limit=plan.limit,
                           margin=plan.budget.margin) for c in plan.chunks if c.text]
    out = []
    for u in units:
        if (u.kind, u.text) not in seen:
            seen.add((u.kind, u.text))
            out.append(u)
    return out


def estimator_at(commit: str, reference):
    """`FastEstimator` of dualrag/tokens/fast.py at `commit` (git show), sampling with `reference`."""
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:dualrag/tokens/fast.py"],
                         capture_output=True, text=True, check=True).stdout
    module = types.ModuleType(f"dualrag.tokens.fast_{commit}")
    module.__package__ = "dualrag.tokens"  # its `from .base import ...` resolves against today's base
    sys.modules[module.__name__] = module
    exec(compile(src, f"{commit}:dualrag/tokens/fast.py", "exec"), module.__dict__)  # noqa: S102 - our own history
    return module.FastEstimator("o200k", reference=reference)
