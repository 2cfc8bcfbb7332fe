#!/usr/bin/env python3
"""The token estimators against the exact counter on real diffs: error, worst under-estimate, budget
overflows and speed, with two older estimators beside the shipped one.

    .venv/bin/python -m evaluation.bench.tokens [--shared ../shared/eval/diffs] [--packs .dualrag/pack-diffs]
    .venv/bin/python -m evaluation.bench.tokens --choose      # the sampling constants, chosen on each set
    .venv/bin/python -m evaluation.bench.tokens --calibrate [--write] INPUTS...   # refit the bigram costs

Two sets of diffs: `shared`, the awkward diffs of ../shared/eval/diffs (Java mostly, also C, Python,
XML; renames, binaries, CRLF, GB18030, >1 MB), and `packs`, real diffs per language pack written by
`evaluation.bench.pack_diffs` (Kotlin, Python, SQL, MyBatis, Spring, XML, EDI). Units of a set
(evaluation.bench.token_units): each whole diff, each per-file section, and each chunk the chunker
makes of it at budgets of 2k, 8k and 60k tokens. Columns: the exact o200k count is the reference;
`fast` as shipped; `fast@c7e994f`, the estimator the issue measured, and `fast@cd2a604`, the accurate
one before the speed work (both read from git); `formula`, the article's baseline (without its
63-token request overhead). Floors, per set and unit kind: MAPE <= 4%, worst under-estimate <= 10%;
per chunk: the chunker's margin covers the worst under-estimate of the chunks' own estimates, and no
chunk's exact count passes its budget; speed, on whole diffs and on chunks: `fast` at least 10x the
exact count (median of --runs passes; the counters take turns pass by pass).

--choose picks `dualrag.tokens.fast.Sampling` on one set and scores it on the other, both ways: among
the GRID settings whose exact tokenizer reads at most READ_CAP % of the characters of the set's chunks
and of its whole diffs (the speed; `--read-cap`), the one nearest the floors (lowest of MAPE / 4% and
worst under / 10%, over the unit kinds). The shipped settings are the choice on `packs`.

--calibrate refits the bigram cost tables on the content-hash-even half of the per-file sections of
INPUTS (diffs, .jsonl rows' `diff`/`code`, PDF pages with pypdf) against exact o200k_base and
cl100k_base; --write puts them into dualrag/tokens/fast.py.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from evaluation import ROOT
from evaluation.bench.pack_diffs import OUT as PACK_DIFFS
from evaluation.bench.token_units import (
    BASELINE,
    KINDS,
    MAPE_FLOOR,
    UNDER_FLOOR,
    Errors,
    Unit,
    decode,
    diff_files,
    estimator_at,
    set_units,
    split_diff,
)
from evaluation.core import datasets
from evaluation.core.report import verdict

BEFORE = "cd2a604"  # the accurate, slower estimator before the speed work
SPEED_FLOOR = 10.0
# Fixed by rule, not chosen: non_ascii (the diffs of `shared` hold too little non-ASCII text to choose it
# on); shrink_up (an under-count overflows a budget: a 50-token sample moves the estimate halfway up,
# whichever set prefers less); margin (the chunker's own margin covers the under-counts that remain).
GRID = {"exact_below": (1500, 2000), "scale": (2.0, 3.0), "growth": (0.4,), "minimum": (60, 100),
        "non_ascii": (10.0,), "window": (60, 100), "shrink_up": (50,), "shrink_down": (100, 200, 400),
        "margin": (0.0,)}
SHRINKS = ("shrink_up", "shrink_down", "margin")  # applied to a drawn sample: no new exact reading
READ_CAP = 3.5  # % of the characters of chunks (and of diffs) the exact tokenizer may read


def speeds(counters: dict[str, Callable[[str], int]], texts: Sequence[str], runs: int) -> dict[str, float]:
    """MB/s of each counter over `texts`, median of `runs` passes; the counters take turns pass by
    pass, so a change in the machine's load falls on all of them alike."""
    nbytes = sum(len(t.encode("utf-8", "replace")) for t in texts)
    times: dict[str, list[float]] = {name: [] for name in counters}
    for _ in range(runs):
        for name, count in counters.items():
            start = time.perf_counter()
            for t in texts:
                count(t)
            times[name].append(time.perf_counter() - start)
    return {name: nbytes / statistics.median(t) / 1e6 for name, t in times.items()}


def table(name: str, units: Sequence[Unit], estimates: Sequence[int]) -> dict[str, Errors]:
    by_kind = {}
    for kind in KINDS:
        idx = [i for i, u in enumerate(units) if u.kind == kind]
        if idx:
            by_kind[kind] = s = Errors.of([estimates[i] for i in idx], [units[i].exact for i in idx])
            print(f"  {name:13s} {kind:6s} {s.n:5d} {s.mape:7.2f} {s.under:7.2f} {s.over:7.2f} {s.bias:+7.2f}")
    return by_kind


def bench(sets: dict[str, list[Unit]], estimators: dict[str, Callable[[str], int]], exact, runs: int) -> bool:
    ok = True
    for name, units in sets.items():
        print(f"\n{name}: {sum(u.kind == 'diff' for u in units)} diffs, {sum(u.kind == 'file' for u in units)} "
              f"file sections, {sum(u.kind == 'chunk' for u in units)} chunks; error % of the exact o200k count")
        print(f"  {'estimator':13s} {'unit':6s} {'n':>5s} {'MAPE':>7s} {'under':>7s} {'over':>7s} {'bias':>7s}")
        fast = {}
        for label, count in estimators.items():
            errors = table(label, units, [count(u.text) for u in units])
            fast = errors if label == "fast" else fast
        chunks = [u for u in units if u.kind == "chunk"]
        own = Errors.of([u.estimate for u in chunks], [u.exact for u in chunks])
        margin = min(u.margin for u in chunks)
        overflow = sum(u.exact > u.limit for u in chunks)
        print(f"  chunker: its own chunk estimates under by at most {own.under:.2f}% (margin {100 * margin:.0f}%); "
              f"{overflow} of {len(chunks)} chunks above their budget in exact tokens")
        for kind, s in fast.items():
            good = s.mape <= MAPE_FLOOR and s.under <= UNDER_FLOOR
            ok &= good
            print(f"  fast {kind:6s} MAPE {s.mape:.2f}% (<= {MAPE_FLOOR:g}) worst under {s.under:.2f}% "
                  f"(<= {UNDER_FLOOR:g}): {verdict(good)}")
        good = own.under <= 100 * margin and overflow == 0
        ok &= good
        print(f"  budget: margin {100 * margin:.0f}% >= worst under {own.under:.2f}%, 0 overflows: "
              f"{verdict(good)}")
    for kind in ("diff", "chunk"):
        texts = [u.text for units in sets.values() for u in units if u.kind == kind]
        mbps = speeds({"exact": exact.count} | {k: v for k, v in estimators.items() if k != "formula"}, texts, runs)
        print(f"\nspeed on {len(texts)} {kind}s, {sum(map(len, texts)) / 1e6:.1f} M chars (median of {runs} runs): "
              + ", ".join(f"{k} {v:.1f} MB/s ({v / mbps['exact']:.1f}x)" for k, v in mbps.items()))
        good = mbps["fast"] >= SPEED_FLOOR * mbps["exact"]
        ok &= good
        print(f"  fast {mbps['fast'] / mbps['exact']:.1f}x the exact count (>= {SPEED_FLOOR:g}x): {verdict(good)}")
    return ok


# ------------------------------------------------------------------------------------------ choosing


def worst(units: Sequence[Unit], estimates: Sequence[int]) -> tuple[float, float]:
    """(highest MAPE, highest worst under-estimate) over the unit kinds."""
    stats = [Errors.of([e for e, u in zip(estimates, units) if u.kind == k], [u.exact for u in units if u.kind == k])
             for k in KINDS if any(u.kind == k for u in units)]
    return max(s.mape for s in stats), max(s.under for s in stats)


class Reading:
    """The exact counter, remembering its answers (the grid's settings share samples) and how many
    characters it was asked to read (the grid's measure of cost)."""

    def __init__(self, reference) -> None:
        self.reference, self.memo, self.chars = reference, {}, 0

    def count(self, text: str) -> int:
        self.chars += len(text)
        if text not in self.memo:
            self.memo[text] = self.reference.count(text)
        return self.memo[text]


def read_share(units: Sequence[Unit], read: Sequence[int]) -> float:
    """% of the characters read exactly, on the costlier of whole diffs and chunks."""
    return max(100 * sum(r for r, u in zip(read, units) if u.kind == kind) / sum(len(u.text) for u in units if u.kind == kind)
               for kind in ("diff", "chunk"))


def choose(sets: dict[str, list[Unit]], reference, read_cap: float = READ_CAP) -> None:
    from dualrag.tokens.fast import FastEstimator, Sampling

    reading, drawn = Reading(reference), {}  # per set and sample settings: per unit (Sample or None, chars read)
    sample_keys = [k for k in GRID if k not in SHRINKS]
    for name, units in sets.items():
        for values in itertools.product(*(GRID[k] for k in sample_keys)):
            fast, rows = FastEstimator("o200k", reading, Sampling(**dict(zip(sample_keys, values)))), []
            for u in units:
                before = reading.chars
                sample = fast.sample(u.text)
                rows.append((sample, reading.chars - before if sample else len(u.text)))
            drawn[name, values] = rows

    def scored(name: str, values: tuple, shrinks: tuple) -> tuple[float, float, float]:
        s = Sampling(**dict(zip(sample_keys, values)), **dict(zip(SHRINKS, shrinks)))
        rows, units = drawn[name, values], sets[name]
        estimates = [s.estimate(sample) if sample else u.exact for (sample, _), u in zip(rows, units)]
        return (*worst(units, estimates), read_share(units, [read for _, read in rows]))

    def distance(figures: tuple[float, float, float]) -> float:  # to the floors: below 1 passes both
        return max(figures[0] / MAPE_FLOOR, figures[1] / UNDER_FLOOR)

    grid = [(values, shrinks) for values in itertools.product(*(GRID[k] for k in sample_keys))
            for shrinks in itertools.product(*(GRID[k] for k in SHRINKS))]
    for on, other in itertools.permutations(sets, 2):
        options = [(scored(on, *g), g) for g in grid]
        cheap = [o for o in options if o[0][2] <= read_cap] or [min(options, key=lambda o: o[0][2])]  # none: the cheapest
        figures, (values, shrinks) = min(cheap, key=lambda o: distance(o[0]))
        print(f"chosen on {on}: {Sampling(**dict(zip(sample_keys, values)), **dict(zip(SHRINKS, shrinks)))}")
        for label, (mape, under, read) in ((on, figures), (f"{other} (held out)", scored(other, values, shrinks))):
            print(f"  on {label}: worst MAPE {mape:.2f}%, worst under {under:.2f}%, read exactly {read:.2f}% "
                  f"of the characters (cap {read_cap:g}%)")


# ------------------------------------------------------------------------------------------ calibration


def calibration_texts(inputs: Iterable[str]) -> list[str]:
    texts: list[str] = []
    for item in inputs:
        path = Path(item)
        for f in sorted(path.iterdir()) if path.is_dir() else [path]:
            if f.suffix in (".diff", ".patch"):
                texts += split_diff(decode(f.read_bytes()))
            elif f.suffix == ".jsonl":
                rows = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
                texts += [r.get("diff") or r.get("code") or "" for r in rows]
            elif f.suffix == ".pdf":
                from pypdf import PdfReader

                texts += [page.extract_text() or "" for page in PdfReader(str(f)).pages]
    return [t for t in dict.fromkeys(texts) if t.strip()]


def calibrate(inputs: Sequence[str], write: bool) -> None:
    from dualrag.tokens import get_estimator
    from dualrag.tokens.fast import fit_weights, format_weights

    half = [t for t in calibration_texts(inputs) if hashlib.sha256(t.encode("utf-8", "replace")).digest()[0] % 2 == 0]
    blocks = []
    for model, family in (("gpt-4o", "o200k"), ("gpt-4", "cl100k")):
        exact = get_estimator("exact", model=model)
        print(f"# fitted on {len(half)} texts (content hash even) against exact {family}")
        blocks.append(format_weights(fit_weights(half, exact.count_many(half)), family))
        print(blocks[-1])
    if write:
        path = ROOT / "dualrag" / "tokens" / "fast.py"
        src = path.read_text(encoding="utf-8")
        for block in blocks:
            name = block.split("\n")[1].split(" = ")[0]
            src = re.sub(rf"# fmt: off\n{name} = \(.*?\n\)\n# fmt: on", lambda _m, b=block: b, src, count=1, flags=re.DOTALL)
        path.write_text(src, encoding="utf-8")
        print(f"wrote {len(blocks)} tables into {path}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="*", help="--calibrate: diffs, .jsonl or .pdf files and folders")
    ap.add_argument("--shared", type=Path, default=datasets.DIFFS)
    ap.add_argument("--packs", type=Path, default=PACK_DIFFS, help="written by python -m evaluation.bench.pack_diffs")
    ap.add_argument("--runs", type=int, default=3, help="speed passes (the median is reported)")
    ap.add_argument("--choose", action="store_true")
    ap.add_argument("--read-cap", type=float, default=READ_CAP, help="--choose: %% of characters read exactly")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    if args.calibrate:
        calibrate(args.inputs, args.write)
        return 0
    if args.inputs:
        ap.error("INPUTS are for --calibrate; the benchmark's sets are --shared and --packs")

    from dualrag.tokens import get_estimator

    exact, fast = get_estimator("exact", model="gpt-4o"), get_estimator("fast")
    sets = {}
    for name, root in (("shared", args.shared), ("packs", args.packs)):
        if not root.is_dir() or not (diffs := diff_files(root)):
            print(f"{name}: no diffs under {root}", file=sys.stderr)
            return 2
        sets[name] = units = set_units(diffs, fast)
        for u, n in zip(units, exact.count_many([u.text for u in units])):
            u.exact = n
        sets[name] = [u for u in units if u.exact > 0]
    if args.choose:
        choose(sets, exact, args.read_cap)
        return 0
    estimators = {"fast": fast.count, f"fast@{BASELINE}": estimator_at(BASELINE, exact).count,
                  f"fast@{BEFORE}": estimator_at(BEFORE, exact).count, "formula": get_estimator("formula").count_content}
    return 0 if bench(sets, estimators, exact, args.runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
