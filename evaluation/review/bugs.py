#!/usr/bin/env python3
"""Review quality with a real model: flag the bug-introducing change, stay quiet on its fix (issue 14).

    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_API_KEY=local \\
    .venv/bin/python -m evaluation.review.bugs --limit 12 --out review-eval.jsonl
    .venv/bin/python -m evaluation.review.bugs --out review-eval.jsonl --report-only

Data: `../shared/eval/bugs/dev.jsonl` (Defects4J Lang and Cli). Each row's `diff` is stored
fixed → buggy, so it IS the bug-introducing change (its `+` lines are the row's `buggy_lines`;
the script checks this for every pair it scores) and the reversed diff is the fix. The issue
text says it the other way round; the data decides (`bug_pairs.py`).

For every sampled pair both systems review both sides:

- **dualrag**: the real CLI, `dualrag review --diff-file X --llm M --format json`, in a
  subprocess, with a generated config that names the store and the model's window and output
  cap (`[llm.models."M"]`), as a user of a local model would write it;
- **naive**: one plain prompt (the bare diff and a one-paragraph instruction) to the same
  model through dualrag's LLM layer: same JSON mode, same tolerant parse, same answer schema.

A side is *flagged* when a finding of severity warning or worse (review JSON `major` or
`critical`; the model's `warning` maps to `major`, `suggestion` to `minor`/`info`) lies within
±1 line of one of that side's targets: the new-side lines of its `+` lines, and for a block
that only deletes, the new-side line after the gap (bug side: exactly `buggy_lines`, omission
anchors included; fix side: the reversed diff's `+` lines and deletion points). A review that
fails (timeout, unparseable answer, a reviewer that did not answer) counts as unflagged and is
counted under failures.

Printed per system: flag rate on bug and on fix, discrimination (bug − fix), findings per review,
prompt and completion tokens per review (review JSON `usage`, every call, shared prefix
included), seconds per review (wall; model = waiting on the model), failures; then the floors.
Then what each part of dualrag flags on its own: its model's findings, its detectors' findings,
and with `--explain`, an estimate of the figures had the reverse check been off (the reviewers'
first answers read back from the folder). `--out` is resumable: reviews already in the file are
skipped. A second, held-out set: `--data evaluation/review/heldout/math.jsonl` (40 Defects4J
Math bugs, assembled after the method was fixed; measure with it, never tune on it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path

from evaluation import ROOT
from evaluation.core import datasets
from evaluation.review.bug_pairs import Pair, load_pairs, new_lines, sample
from evaluation.review.bug_report import by_policy, by_source, floors, summarise, table, without_reverse_check
from evaluation.review.removed_checks import RemovedChecks
from evaluation.review.systems import DualRag, Naive, flagged, read, write_config

SIDES = ("bug", "fix")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=datasets.BUGS)
    ap.add_argument("--limit", type=int, default=None, help="pairs (a seeded sample; default all)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--out", type=Path, default=Path("review-eval.jsonl"), help="results, one review a line (resumable)")
    ap.add_argument("--llm", default="openai:local", help="PROVIDER:MODEL (OPENAI_BASE_URL from the environment)")
    ap.add_argument("--systems", default="dualrag,naive")
    ap.add_argument("--window", type=int, default=16_384, help="the model's context window (its capability entry)")
    ap.add_argument("--max-output", type=int, default=1_024, help="the model's output cap (its capability entry)")
    ap.add_argument("--grammar", action=argparse.BooleanOptionalAction, default=True,
                    help="the server constrains JSON answers by the schema (llama.cpp's does; capability "
                         "json_object_schema), so the schema text stays out of both systems' prompts")
    ap.add_argument("--store", type=Path, default=ROOT / ".dualrag" / "eval-store")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds one dualrag review may take")
    ap.add_argument("--toml", default="", help="more .dualrag.toml lines for both systems (pin a variant)")
    ap.add_argument("--explain", type=Path, help="keep dualrag's prompts and answers under DIR/<pair>.<side>/")
    ap.add_argument("--report-only", action="store_true", help="reprint the table from --out")
    args = ap.parse_args(argv)

    if not args.report_only:
        run(args)
    records = read(args.out)
    if not records:
        print(f"no results in {args.out}")
        return 1
    print_report(records, args)
    return 0


def run(args: argparse.Namespace) -> None:
    pairs = sample(load_pairs(args.data), args.limit, args.seed)
    for pair in pairs:
        problem = pair.check()
        if problem:
            raise SystemExit(f"data direction check failed: {problem}")
    done = {(r["id"], r["system"], r["side"]) for r in read(args.out)}
    config = write_config(args.out.with_suffix(".dualrag.toml"), store=args.store.resolve(), window=args.window,
                          max_output=args.max_output, model=args.llm, grammar=args.grammar, extra=args.toml)
    systems = {"dualrag": lambda: DualRag(args.llm, config, timeout_s=args.timeout, explain=args.explain),
               "dualrag-offline": lambda: DualRag(args.llm, config, timeout_s=args.timeout, offline=True),
               "naive": lambda: Naive(args.llm, config), "removed-checks": RemovedChecks}
    chosen = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in systems]
    if unknown:
        raise SystemExit(f"unknown system(s) {unknown}; known: {sorted(systems)}")
    instances = {name: systems[name]() for name in chosen}
    # one system at a time: its prompt prefix stays in a local server's cache from review to review
    todo = [(p, s, side) for s in chosen for p in pairs for side in SIDES if (p.id, s, side) not in done]
    print(f"{len(pairs)} pairs, {len(todo)} reviews to run ({len(done)} already in {args.out})", file=sys.stderr)
    started = time.monotonic()
    for n, (pair, system, side) in enumerate(todo, 1):
        record = review_one(pair, instances[system], system, side, args.llm)
        with args.out.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(f"[{n}/{len(todo)} {time.monotonic() - started:.0f}s] {pair.id} {system} {side}: "
              f"{'FLAGGED' if record['flagged'] else 'quiet'}, {len(record['findings'])} finding(s), "
              f"{record['prompt_tokens']} prompt tok, {record['seconds']}s"
              + (f", FAILED {record['failure']}" if record["failure"] else ""), file=sys.stderr)


def review_one(pair: Pair, system: DualRag | Naive | RemovedChecks, name: str, side: str, llm: str) -> dict:
    outcome = system.review(pair.diff(side), label=f"{pair.id}.{side}")
    return {"id": pair.id, "project": pair.project, "system": name, "side": side, "model": llm,
            "date": dt.datetime.now().isoformat(timespec="seconds"),
            "flagged": flagged(outcome.findings, pair.targets(side)), **outcome.as_dict()}


def print_report(records: list[dict], args: argparse.Namespace) -> None:
    models = sorted({r["model"] for r in records})
    dates = sorted(r["date"][:10] for r in records)
    ids = sorted({r["id"] for r in records})
    print(f"review quality, {args.data.name}: {len(ids)} pairs (seed {args.seed}), model {', '.join(models)} "
          f"at {os.environ.get('OPENAI_BASE_URL', 'the default endpoint')}, {dates[0]}..{dates[-1]}")
    summaries = summarise(records)
    print(table(summaries))
    lines = floors(summaries)
    if lines:
        print("floors (issue 14) for dualrag:")
        print("\n".join(lines))
    pairs = {p.id: p for p in load_pairs(args.data)}
    targets = {(pid, side): pairs[pid].targets(side) for pid in ids if pid in pairs for side in SIDES}
    parts = by_source(records, targets, flagged)
    code = {(pid, side): new_lines(pairs[pid].diff(side)) for pid in ids if pid in pairs for side in SIDES}
    parts += by_policy(records, targets, code, flagged)
    if parts and args.explain is not None:
        parts += [line for line in [without_reverse_check(records, targets, flagged, args.explain)] if line]
    if parts:
        print("what each part of dualrag flags:")
        print("\n".join(parts))


if __name__ == "__main__":
    sys.exit(main())
