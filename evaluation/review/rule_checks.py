#!/usr/bin/env python3
"""Rule application with a real model: flag the new file that breaks a team rule and cite the rule,
stay quiet on the one that follows it (issue 25, item 6).

    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_API_KEY=local \\
    .venv/bin/python -m evaluation.review.rule_checks --pairs 30 --out rule-check-eval.jsonl
    .venv/bin/python -m evaluation.review.rule_checks --pairs 30 --out rule-check-eval.jsonl --report-only
    .venv/bin/python -m evaluation.review.rule_checks --systems offline --pairs 4        # no model: a smoke run

Data: the Error Prone book (evaluation/books/errorprone, 82 rules with a violating and a
compliant example; PMD's and Android Lint's books have no compliant ones). For each rule, one diff
adds a new Java file with its first violating example, one with its first compliant example,
comments that give the answer away removed and fragments wrapped into a class
(`rule_pairs.py`, `rule_files.py`); neither path nor code names the rule. `--pairs N` of them, a seeded
sample (`--seed`; a larger N keeps the smaller sample). The first examples of 9 rules do not show
the rule (`pairs.KNOWN_BAD`, e.g. DoubleCheckedLocking's "violating" one is the idiom the rule
recommends): the report names those sampled, `--exclude known-bad` leaves them out.
`--write-diffs DIR` writes the diffs out.

Knowledge base: the same book rendered as Markdown (rule prose only, no examples) and indexed with
`dualrag index rules <md> --kb team --config <cfg>` into a store of its own (`--store`), once;
reused while it holds rules (`--reindex` to redo). `--book-examples` indexes the book's examples
edition instead (the shape of a standard that shows code under each rule), with both sides of every
pair held out of it, so the detectors `index rules` mines from a document's examples take part.
The book's rule ids are mapped to the ids the indexer gave (`errorprone:<section>.<n>`) by the unit's heading (`rule_kb.py`).

Systems (`--systems`), each on both sides of every pair, one system at a time (a local server's
prefix cache stays warm from review to review):
- `dualrag`: the real CLI, `dualrag review --diff-file X --llm M --config C --format json`, with
  `[review] rule_checks = 3` (`--rule-checks`; walkthrough off, as in bugs.py);
- `dualrag-norc`: the same with `[review] rule_checks = 0`;
- `naive`: bugs.py's bare prompt to the same model (`systems.Naive`);
- `offline`: `dualrag review --offline` (detectors only).

Printed per system: flag rate on the violating and on the compliant side (a finding of severity
major or critical on the added file), discrimination, rule hit (a violating-side finding, any
severity, whose `rule_id` is the pair's rule) and the compliant side citing it, findings, prompt
tokens (the cached prefix excluded, shown beside), calls and seconds per review, failures; then
usage by kind of call (`usage.by_kind`: review / rule_check / rule_query, when the review reports
it) and the issue's floors for dualrag. `--out` is resumable: one review a line keyed by
(system, rule, side); reviews already there are skipped.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

from evaluation import ROOT
from evaluation.review.llama_log import LogWindow
from evaluation.review.rule_kb import KB, ensure_indexed, rule_map
from evaluation.review.rule_pairs import KNOWN_BAD, SIDES, RulePair, load_pairs, sample
from evaluation.review.rule_report import cites, flagged, floors, kind_table, parts, summarise, table
from evaluation.review.rule_systems import CountedNaive, RuleDualRag, RuleOutcome
from evaluation.review.systems import read, write_config

BOOK = "errorprone"
WORKDIR = ROOT / ".dualrag" / "eval-rule-checks"
SYSTEMS = ("dualrag", "dualrag-norc", "naive", "offline")
RULE_CHECKS = {"dualrag": 3, "dualrag-norc": 0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=30, help="rule pairs (a seeded sample of the book's 82)")
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--exclude", default="", help="rule ids to leave out (comma-separated); 'known-bad': the "
                                                  "rules whose first examples do not show the rule (pairs.KNOWN_BAD)")
    ap.add_argument("--systems", default=",".join(SYSTEMS))
    ap.add_argument("--out", type=Path, default=WORKDIR / "reviews.jsonl", help="one review a line (resumable)")
    ap.add_argument("--limit", type=int, default=None, help="run at most this many reviews now, then report")
    ap.add_argument("--llm", default="openai:local", help="PROVIDER:MODEL (OPENAI_BASE_URL from the environment)")
    ap.add_argument("--window", type=int, default=16_384, help="the model's context window (its capability entry)")
    ap.add_argument("--max-output", type=int, default=1_024, help="the model's output cap (its capability entry)")
    ap.add_argument("--grammar", action=argparse.BooleanOptionalAction, default=True,
                    help="the server constrains JSON answers by the schema (llama.cpp's does)")
    ap.add_argument("--store", type=Path, default=WORKDIR / "store", help="the eval store (team KB = the book)")
    ap.add_argument("--reindex", action="store_true", help="index the book again even if the store holds it")
    ap.add_argument("--book-examples", action="store_true",
                    help="the team book shows code under its rules (the examples edition, both sides of every pair "
                         "held out: rule_kb.py), so index rules mines detectors from it; use its own --store")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds one dualrag review may take")
    ap.add_argument("--server-log", type=Path, default=Path("~/.cache/dualrag-llm/server.log").expanduser(),
                    help="the local llama-cpp-python server's log: its prefix-cache hits per review are the "
                         "cached tokens when the API reports none (llama_log.py)")
    ap.add_argument("--rule-checks", type=int, default=RULE_CHECKS["dualrag"],
                    help="`[review] rule_checks` of the dualrag system (rules checked per chunk)")
    ap.add_argument("--toml", default="", help="more .dualrag.toml lines for every system (pin a variant)")
    ap.add_argument("--explain", type=Path, help="keep dualrag's prompts under DIR/<system>/case<NN>.<side>/")
    ap.add_argument("--write-diffs", type=Path, metavar="DIR", help="write the sampled pairs' diffs to DIR")
    ap.add_argument("--report-only", action="store_true", help="reprint the report from --out")
    args = ap.parse_args(argv)

    print("command: " + shlex.join([sys.executable, "-m", __spec__.name if __spec__ else __name__, *sys.argv[1:]]))
    if os.environ.get("OPENAI_BASE_URL"):
        print(f"OPENAI_BASE_URL={os.environ['OPENAI_BASE_URL']}")
    exclude = {r.strip() for r in args.exclude.split(",") if r.strip()}
    if "known-bad" in exclude:
        exclude = (exclude - {"known-bad"}) | set(KNOWN_BAD)
    pairs = sample(load_pairs(BOOK), args.pairs, args.seed, frozenset(exclude))
    if args.write_diffs:
        write_diffs(pairs, args.write_diffs)
    if not args.report_only:
        run(pairs, args)
    records = read(args.out)
    if not records:
        print(f"no results in {args.out}")
        return 1
    print_report(records, pairs, args)
    return 0


def configs(args: argparse.Namespace, systems: list[str]) -> dict[str, Path]:
    """The config each system reads: the store and the model's entry, plus its `rule_checks`."""
    from dualrag.config import load_settings

    stem = args.out.with_suffix("")
    out = {}
    for system in systems:
        extra = args.toml
        if system in RULE_CHECKS:  # into --toml's own [review] table when it has one (TOML takes a table once)
            line = f"rule_checks = {args.rule_checks if system == 'dualrag' else RULE_CHECKS[system]}\n"
            extra = extra.replace("[review]\n", "[review]\n" + line, 1) if "[review]\n" in extra \
                else "[review]\n" + line + extra
        path = write_config(Path(f"{stem}.{system}.toml"), store=args.store.resolve(), window=args.window,
                            max_output=args.max_output, model=args.llm, grammar=args.grammar, extra=extra)
        try:
            load_settings(path)
        except Exception as exc:  # noqa: BLE001 - say which system's config this dualrag refuses, and stop
            raise SystemExit(f"{system}: dualrag refuses its config {path}: {exc}") from None
        out[system] = path
    return out


def run(pairs: list[RulePair], args: argparse.Namespace) -> None:
    chosen = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SYSTEMS]
    if unknown:
        raise SystemExit(f"unknown system(s) {unknown}; known: {', '.join(SYSTEMS)}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    config = configs(args, chosen)
    units, how = ensure_indexed(BOOK, next(iter(config.values())), args.store.resolve(), WORKDIR,
                                reindex=args.reindex, cwd=ROOT, examples=args.book_examples)
    print(how, file=sys.stderr)
    mapping, unmapped = rule_map(units, [p.rule for p in load_pairs(BOOK)])
    example = next(iter(mapping.items()), ("-", "-"))
    print(f"rule ids: the book's id -> the stored id by the unit's heading (text before ':'): "
          f"{len(mapping)}/{len(mapping) + len(unmapped)} rules mapped, e.g. {example[0]} -> {example[1]}"
          + (f"; unmapped: {', '.join(unmapped)}" if unmapped else ""), file=sys.stderr)

    def make(system: str):
        if system == "naive":
            return CountedNaive(args.llm, config[system])
        return RuleDualRag(args.llm, config[system], timeout_s=args.timeout, offline=system == "offline",
                           explain=args.explain / system if args.explain and system != "offline" else None)

    instances = {s: make(s) for s in chosen}
    done = {(r["system"], r["pair"], r["side"]) for r in read(args.out)}
    # pair by pair, every system on both sides: a run stopped early still compares the systems on the same pairs
    todo = [(s, p, side) for p in pairs for s in chosen for side in SIDES if (s, p.rule, side) not in done]
    if args.limit is not None:
        todo = todo[:args.limit]
    print(f"{len(pairs)} pairs, {len(todo)} reviews to run ({len(done)} already in {args.out})", file=sys.stderr)
    started = time.monotonic()
    window = LogWindow(args.server_log)
    for n, (system, pair, side) in enumerate(todo, 1):
        item = pair.side(side)
        window.start()
        outcome: RuleOutcome = instances[system].review(item.diff, label=f"case{pair.case:02d}.{side}")
        cached, _evaluated = window.read()
        if cached and not outcome.cache_read_tokens:  # the server's log knows what its API did not say
            outcome.cache_read_tokens = cached
        record = {"system": system, "pair": pair.rule, "case": pair.case, "side": side, "path": item.path,
                  "diff_sha": item.sha, "kb_rule": mapping.get(pair.rule), "model": "none" if system == "offline" else args.llm,
                  "date": dt.datetime.now().isoformat(timespec="seconds"), **outcome.as_dict()}
        record |= {"flagged": flagged(record), "rule_hit": cites(record)}
        with args.out.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(f"[{n}/{len(todo)} {time.monotonic() - started:.0f}s] case{pair.case:02d} {system} {side}: "
              f"{'FLAGGED' if record['flagged'] else 'quiet'}{', cites the rule' if record['rule_hit'] else ''}, "
              f"{len(record['findings'])} finding(s), {record['calls']} call(s), {record['prompt_tokens']} prompt tok"
              f" ({record['cache_read_tokens']} cached), {record['seconds']}s"
              + (f", FAILED {record['failure']}" if record["failure"] else ""), file=sys.stderr)


def write_diffs(pairs: list[RulePair], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for pair in pairs:
        for side in SIDES:
            (folder / f"case{pair.case:02d}-{pair.rule}.{side}.diff").write_text(pair.side(side).diff, encoding="utf-8")
    print(f"wrote {2 * len(pairs)} diffs to {folder}", file=sys.stderr)


def print_report(records: list[dict], pairs: list[RulePair], args: argparse.Namespace) -> None:
    ids = {p.rule for p in pairs}
    mine = [r for r in records if r["pair"] in ids]
    current = {(p.rule, side): p.side(side).sha for p in pairs for side in SIDES}
    stale = sum(1 for r in mine if r.get("diff_sha") != current[(r["pair"], r["side"])])
    models = sorted({r["model"] for r in mine if r["system"] != "offline"}) or ["none"]  # offline: no model
    dates = sorted(r["date"][:10] for r in mine) or ["-"]
    shapes = Counter(p.side(s).shape for p in pairs for s in SIDES)
    print(f"\nrule application, book {BOOK}: {len(pairs)} of {len(load_pairs(BOOK))} pairs (seed {args.seed}), "
          f"model {', '.join(models)}, {dates[0]}..{dates[-1]}, results {args.out}")
    print(f"  files: {', '.join(f'{n} {shape}' for shape, n in shapes.most_common())} "
          f"(how each example was wrapped); {sum(1 for p in pairs if p.leaks)} pair(s) whose code spells the "
          f"rule's name itself ({', '.join(p.rule for p in pairs if p.leaks) or 'none'})")
    bad = [p.rule for p in pairs if p.rule in KNOWN_BAD]
    if bad:
        print(f"  {len(bad)} pair(s) whose first examples do not show the rule (--exclude known-bad leaves them out): "
              + "; ".join(f"{rule}: {KNOWN_BAD[rule]}" for rule in bad))
    mapped = {r["pair"]: r.get("kb_rule") for r in mine}
    print(f"  rule ids: book id -> stored id by the heading (knowledge base {KB!r}): "
          f"{sum(1 for v in mapped.values() if v)}/{len(mapped)} of the reviewed pairs mapped"
          + (f", e.g. {next(iter(k for k, v in mapped.items() if v))} -> {next(v for v in mapped.values() if v)}"
             if any(mapped.values()) else ""))
    if stale:
        print(f"  WARNING: {stale} review(s) in {args.out} were of a diff that differs from today's pair")
    summaries = summarise(mine, ids)
    if not summaries:
        print("no system has both sides of a pair reviewed yet")
        return
    print(table(summaries))
    split = parts(mine, ids)
    if split:
        print(split)
    kinds = kind_table(summaries)
    print("usage by kind of call (review JSON usage.by_kind):\n" + kinds if kinds
          else "usage by kind of call: none in these reviews (no model calls, or usage.by_kind absent)")
    model_reviews = [r for r in mine if r["calls"]]
    if model_reviews and not any(r.get("cache_read_tokens") for r in model_reviews):
        print("  cached tokens: the server reported none in any review (llama-cpp-python's server returns no "
              "usage.prompt_tokens_details.cached_tokens), so every prompt token is counted as uncached")
    lines = floors(summaries)
    if lines:
        print("floors (issue 25) for dualrag:")
        print("\n".join(lines))
    failures = [r for r in mine if r.get("failure")]
    for r in failures[:5]:
        print(f"  failed: {r['system']} case{r['case']:02d} {r['side']}: {r['failure']}")


if __name__ == "__main__":
    sys.exit(main())
