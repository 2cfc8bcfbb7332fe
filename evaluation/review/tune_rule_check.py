#!/usr/bin/env python3
"""Choose the rule-check prompt on pairs the evaluation never scores (issue 25).

`rule_checks.py` scores a seeded sample of the Error Prone pairs (30, seed 25, the
known-bad ones excluded). This script takes the *other* eligible pairs and asks the check
directly — the pair's file as an added chunk, its own rule plus two other rules of the book
(seeded), as a retrieval that found the right rule would hand them over — once per prompt variant:

    plain  rule_check.md: the rule, the line, the words that break it
    fix    rule_check_fix.md: the same, plus the line rewritten to follow the rule; a rewrite
           that changes nothing clears the line (a compliant line needs no fix)
    recheck  fix, then the same check once more on the code with the model's fixes applied: a
           rule flagged again on a fixed line is dropped (one more call when something was flagged)

Printed per variant: how often the right rule is cited on the violating and on the compliant
side, their difference, other rules cited, seconds per check. The variant with the larger
difference ships (`[review] rule_check_fix`).

    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_API_KEY=local \\
    .venv/bin/python -m evaluation.review.tune_rule_check --pairs 16
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter

from dualrag.chunking.model import Chunk, HunkSlice
from dualrag.config import load_settings
from dualrag.diff.hunks import DiffLine
from dualrag.llm import LLMError, LLMFactory
from dualrag.retrieval.context import ContextRule
from dualrag.review.rule_check import RuleCheckAnswer, build_check, recheck, verify, with_fixes
from evaluation.books import load_book
from evaluation.review.rule_pairs import KNOWN_BAD, SIDES, load_pairs, sample

SCORED = {"n": 30, "seed": 25}  # what rule_checks.py scores by default: never tuned on


def chunk_of(path: str, text: str) -> Chunk:
    lines = tuple(DiffLine("+", None, n, line) for n, line in enumerate(text.splitlines(), 1))
    return Chunk(id="c1", files=(path,), hunks=(HunkSlice.of_lines(path, "", lines),), members=(),
                 estimated_tokens=len(text) // 4, text="")


def rule_of(row: dict, example: str = "") -> ContextRule:
    text = f"{row['title']}\n\n{row['prose']}"
    if example:  # as RuleUnit.full_text gives a model-written counter-example
        text += f"\n\nCounter-example (written by a model, not the document):\n{example}"
    return ContextRule(rule_id=row["id"], title=row["title"], text=text, level=None, severity="major", kb="team",
                       source="errorprone.md", score=0.5, tokens=len(text) // 4)


def ask(client, check, again: bool) -> list:
    """The check's verified findings; `again`: the recheck on the model's own fixes."""
    response = client.complete(check.request)
    found = verify(check, response.parsed) if isinstance(response.parsed, RuleCheckAnswer) else []
    second = with_fixes(check, response.parsed, found) if again and found else None
    if second is not None:
        answer = client.complete(second.request)
        if isinstance(answer.parsed, RuleCheckAnswer):
            found = recheck(found, verify(second, answer.parsed))
    return found


def tuning_pairs(n: int, seed: int) -> tuple[list[dict], set[str], list, random.Random]:
    """The Error Prone book's rows, the rules rule_checks.py scores, `n` seeded pairs
    outside them (printed), and the generator that drew them (distractors come from it next)."""
    book = load_book("errorprone")
    pairs = load_pairs("errorprone")
    scored = {p.rule for p in sample(pairs, SCORED["n"], SCORED["seed"], frozenset(KNOWN_BAD))}
    tuning = [p for p in pairs if p.rule not in scored and p.rule not in KNOWN_BAD]
    rng = random.Random(seed)
    rng.shuffle(tuning)
    tuning = tuning[:n]
    print(f"{len(tuning)} tuning pairs (none of the {len(scored)} scored by rule_checks.py): "
          f"{', '.join(p.rule for p in tuning)}")
    return book, scored, tuning, rng


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=16, help="tuning pairs (seeded, outside the scored sample)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--variants", default="plain,fix,recheck")
    ap.add_argument("--llm", default="openai:local")
    ap.add_argument("--per-rule", action="store_true",
                    help="also ask each variant one rule per request (`rule_check_batch = false`; `plain/1` ...)")
    ap.add_argument("--model-examples", action="store_true",
                    help="each rule carries the counter-example the model wrote from its text "
                         "(evaluation.retrieval.model_examples; `plain+mx` and so on)")
    args = ap.parse_args(argv)

    book, scored, tuning, rng = tuning_pairs(args.pairs, args.seed)
    rows = {r["id"]: r for r in book}

    settings = load_settings(None, llm={"model": args.llm, "models": {args.llm: {
        "context_window": 16384, "max_output_tokens": 512, "json_object_schema": True}}})
    client = LLMFactory(settings.llm).for_reviewer("rules")[0]
    others = [r for r in book if r["id"] not in scored]
    variants = args.variants.split(",")
    written: dict[str, str] = {}
    if args.model_examples:
        from evaluation.retrieval.model_examples import examples_by_rule

        written = examples_by_rule("errorprone")
        variants += [f"{v}+mx" for v in variants]
        print(f"model examples for {len(written)} of {len(book)} rules")
    if args.per_rule:
        variants += [f"{v}/1" for v in variants]
    results: dict[str, Counter] = {v: Counter() for v in variants}
    seconds: dict[str, list[float]] = {v: [] for v in results}
    for pair in tuning:
        distractors = rng.sample([r for r in others if r["id"] != pair.rule], 2)
        order = [pair.rule, *(d["id"] for d in distractors)]
        rng.shuffle(order)
        for variant, counts in results.items():
            mx = "+mx" in variant
            rules = [rule_of(rows[r], written.get(r, "") if mx else "") for r in order]
            for side in SIDES:
                s = pair.side(side)
                # one request for the three rules, or (`/1`) one per rule, the code first in each
                groups = [(r,) for r in rules] if variant.endswith("/1") else [tuple(rules)]
                started = time.monotonic()
                found = []
                try:
                    for group in groups:
                        found += ask(client, build_check(chunk_of(s.path, s.text), group, max_output_tokens=400,
                                                         fix=not variant.startswith("plain")),
                                     variant.startswith("recheck"))
                except LLMError as exc:
                    counts["failed"] += 1
                    print(f"  {pair.rule} {side} {variant}: failed {exc}", file=sys.stderr)
                    continue
                seconds[variant].append(time.monotonic() - started)
                right = any(f.rule_id == pair.rule for f in found)
                counts[f"right_{side}"] += right
                counts[f"other_{side}"] += sum(1 for f in found if f.rule_id != pair.rule)
                print(f"  {pair.rule} {side} {variant}: {'CITES' if right else 'quiet'} "
                      f"{[f.rule_id for f in found]}", file=sys.stderr)
    n = len(tuning)
    print(f"{'variant':8} {'right on viol.':>15} {'right on compl.':>16} {'difference':>11} "
          f"{'other cites/check':>18} {'s/check':>8} failed")
    for variant, c in results.items():
        v, k = c["right_violating"] / n, c["right_compliant"] / n
        other = (c["other_violating"] + c["other_compliant"]) / (2 * n)
        med = statistics.median(seconds[variant]) if seconds[variant] else 0.0
        print(f"{variant:8} {v:15.2f} {k:16.2f} {v - k:+11.2f} {other:18.2f} {med:8.1f} {c['failed']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
