"""How long a first review takes: `dualrag review --offline` of the bundled example on a fresh
store (the bundled rules indexed on first use) and again on the same store (warm), each the median
of N runs in a new process, as a user runs it. Also `dualrag index rules --bundled` alone.

    .venv/bin/python -m evaluation.bench.first_review [--runs 3] [--diff examples/partner-order-mr/change.diff]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evaluation import ROOT


def timed(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "dualrag", *args], env=env, cwd=ROOT, capture_output=True, text=True,
                          check=False)
    took = time.perf_counter() - start
    if proc.returncode not in (0, 3):
        sys.exit(f"dualrag {' '.join(args)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--diff", default="examples/partner-order-mr/change.diff")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DUALRAG_")}
    review = ["review", "--offline", "--diff-file", args.diff, "--format", "json"]
    first, warm, index = [], [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            store = ["--store", str(Path(tmp) / "store")]
            first.append(timed([*review, *store], env))
            warm.append(timed([*review, *store], env))
        with tempfile.TemporaryDirectory() as tmp:
            index.append(timed(["index", "rules", "--bundled", "--store", str(Path(tmp) / "store")], env))
    for name, values in (("first review, fresh store", first), ("warm review, same store", warm),
                         ("index rules --bundled, fresh store", index)):
        print(f"{name}: median {statistics.median(values):.2f} s  ({', '.join(f'{v:.2f}' for v in values)})")


if __name__ == "__main__":
    main()
