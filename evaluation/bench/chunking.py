"""Chunking under budgets: counts, budget overruns by the exact tokenizer, needless splits, speed.

    .venv/bin/python -m evaluation.bench.chunking [--diffs DIR] [--bugs FILE] [--budgets 2000,8000,60000]
                                              [--estimator fast] [--runs 3]

Inputs: every file of ../shared/eval/diffs (read as bytes), the `diff` field of every line of
../shared/eval/bugs/dev.jsonl, and three generated stress diffs (a 100,000-character line, a
20,000-line Java method, a minified XML file). For each budget it prints:
  - chunks: how many chunks the corpus becomes;
  - over: chunks whose text exceeds the budget by the EXACT count (o200k_base) — must be 0;
  - split-fit: members split although their lines would fit the budget — must be 0;
  - split: chunks holding part of a split member; chunks/s: chunks / median corpus time.
The final line is PASS or FAIL.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from dualrag.chunking import chunk_changes
from dualrag.chunking.render import diff_line, file_header
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.errors import UserError
from dualrag.tokens import get_estimator
from evaluation.core import datasets
from evaluation.core.report import verdict


def _git_diff(path: str, new_lines: list[str]) -> bytes:
    body = "".join(f"+{line}\n" for line in new_lines)
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n"
            f"@@ -0,0 +1,{len(new_lines)} @@\n{body}").encode()


def stress_inputs() -> dict[str, bytes]:
    long_line = "var x = [" + ",".join(f"'{i:06d}ab'" for i in range(9_000)) + "];"
    method = ["package com.acme;", "public class Big {", "  public int run(int n) {", "    int total = 0;"]
    method += [f"    total += compute(n, {i}) * {i % 7};" for i in range(20_000)]
    method += ["    return total;", "  }", "}"]
    xml = "<flow>" + "".join(f'<step id="s{i}"><map from="a{i}" to="b{i}"/></step>' for i in range(4_000)) + "</flow>"
    return {
        "stress:100k-char-line": _git_diff("db/seed.sql", [long_line[:100_000]]),
        "stress:20k-line-method": _git_diff("src/main/java/com/acme/Big.java", method),
        "stress:minified-xml": _git_diff("edi/orders.flow", [xml]),
    }


def load_inputs(diff_dir: Path, bugs: Path) -> dict[str, bytes]:
    inputs = {path.name: path.read_bytes() for path in datasets.diffs(diff_dir)}
    for row in datasets.bugs(bugs):
        inputs[f"bug:{row.get('id')}"] = row["diff"].encode("utf-8", "surrogateescape")
    inputs.update(stress_inputs())
    return inputs


def needless_splits(plan, estimator, pack_limit: int) -> int:
    """Split members whose own lines (union over their parts, overlap counted once) would fit."""
    parts: dict[tuple[str, str, int], dict] = {}
    for chunk in plan.chunks:
        if not chunk.split_member:
            continue
        for m in chunk.members:
            if not m.split:
                continue
            lines = parts.setdefault((m.path, m.name, m.start_line), {})
            for h in chunk.hunks:
                if h.path != m.path:
                    continue
                for ln in h.lines:
                    if ln.new_no is not None and m.start_line <= ln.new_no <= m.end_line or ln.new_no is None:
                        lines.setdefault((ln.kind, ln.old_no, ln.new_no), []).append(ln.text)
    count = 0
    for (path, _, _), lines in parts.items():
        # Pieces of one long line are re-joined: the member is judged whole.
        text = "".join(diff_line(k[0], "".join(t)) for k, t in sorted(lines.items(), key=lambda kv: (kv[0][2] or 0, kv[0][1] or 0)))
        if estimator.count(file_header(path, "modified")) + estimator.count(text) + 30 <= pack_limit:
            count += 1
    return count


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diffs", type=Path, default=datasets.DIFFS)
    ap.add_argument("--bugs", type=Path, default=datasets.BUGS)
    ap.add_argument("--budgets", default="2000,8000,60000")
    ap.add_argument("--estimator", default="fast", choices=["fast", "exact", "formula"])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    settings = load_settings(None)
    estimator = get_estimator(args.estimator)
    exact = get_estimator("exact")  # o200k_base: the count that decides "over budget"
    changesets, bad = {}, 0
    for name, data in load_inputs(args.diffs, args.bugs).items():
        try:
            changesets[name] = ingest(data, settings)
        except UserError:
            bad += 1
    print(f"inputs: {len(changesets)} diffs ingested ({bad} not diffs, skipped); estimator {estimator.name}; "
          f"over-budget check by {exact.name}")
    print(f"{'budget':>8} {'chunks':>7} {'over':>5} {'split':>6} {'split-fit':>9} {'chunks/s':>9} {'slowest':>22}")
    ok = True
    for budget in (int(b) for b in args.budgets.split(",")):
        times, plans = [], {}
        slowest = ("", 0.0)
        for _ in range(args.runs):
            start = time.perf_counter()
            for name, cs in changesets.items():
                t0 = time.perf_counter()
                plans[name] = chunk_changes(cs, estimator=estimator, config=settings.chunking, budget=budget)
                dt = time.perf_counter() - t0
                if dt > slowest[1]:
                    slowest = (name, dt)
            times.append(time.perf_counter() - start)
        chunks = [c for p in plans.values() for c in p.chunks]
        over = sum(1 for c, n in zip(chunks, exact.count_many([c.text for c in chunks])) if n > budget)
        pack_limit = int(budget * (1 - settings.chunking.estimate_margin))
        fit = sum(needless_splits(p, estimator, pack_limit) for p in plans.values())
        split = sum(1 for c in chunks if c.split_member)
        rate = len(chunks) / statistics.median(times)
        print(f"{budget:>8} {len(chunks):>7} {over:>5} {split:>6} {fit:>9} {rate:>9.0f} "
              f"{slowest[0][:14]:>14} {slowest[1]:.2f}s")
        ok = ok and over == 0 and fit == 0
    print(f"no chunk over budget by the exact count, no member split that fits: {verdict(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
