#!/usr/bin/env python3
"""Can the model's own yes/no judgement gate a rule check? (issue 25, a probe)

A confidence gate would keep a rule-check finding only when the model, asked plainly "does any
added line do what this rule forbids?", leans to *yes*. That only works if its P(yes) is higher on
code that breaks the rule than on code that follows it. This script measures that on the Error
Prone tuning pairs (`tune_rule_check.tuning_pairs`: outside the sample rule_checks.py scores):
for each pair, both sides, asked against the pair's own rule and against one other rule of the
book (seeded), one output token with its log-probabilities (the OpenAI SDK directly: dualrag's
client has no use for logprobs).

Printed: median P(yes) per side and rule, and the paired share of pairs where the violating side
scores higher than the compliant one (0.5 is chance; a gate needs it well above). Also how many
scored pairs could be gated by contrast with their book's *other* examples instead (a rule with a
second violating and a second compliant example once the pair's own are held out).

    .venv/bin/python -m evaluation.review.rule_check_yesno --base-url http://127.0.0.1:8765/v1 --pairs 16
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from evaluation.review.rule_pairs import SIDES
from evaluation.review.tune_rule_check import tuning_pairs

SYSTEM = "You check new Java code against a team's coding rule. Answer with one word: yes or no."
QUESTION = "Does any added line do what this rule forbids? Answer yes or no."
PROSE_CHARS = 1500  # the rule as the check sees it, about 400 tokens at most


def numbered(text: str) -> str:
    return "\n".join(f"{n:>4} + {line}" for n, line in enumerate(text.splitlines(), 1))


def p_yes(client, model: str, code: str, rule: dict) -> float:
    """P(yes) / (P(yes) + P(no)) over the first answer token's top log-probabilities."""
    user = f"Code:\n{numbered(code)}\n\nRule: {rule['title']}\n{rule['prose'][:PROSE_CHARS]}\n\n{QUESTION}"
    response = client.chat.completions.create(
        model=model, messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
        max_tokens=1, temperature=0, logprobs=True, top_logprobs=10)
    top = response.choices[0].logprobs.content[0].top_logprobs
    yes = sum(math.exp(t.logprob) for t in top if t.token.strip().lower() == "yes")
    no = sum(math.exp(t.logprob) for t in top if t.token.strip().lower() == "no")
    return yes / (yes + no) if yes + no else 0.5


def paired(rows: list[dict], a: str, b: str) -> float:
    """Share of pairs where `a` > `b` (ties count half)."""
    return sum((r[a] > r[b]) + 0.5 * (r[a] == r[b]) for r in rows) / len(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-url", default="http://127.0.0.1:8765/v1", help="an OpenAI-compatible server with logprobs")
    ap.add_argument("--model", default="local")
    ap.add_argument("--pairs", type=int, default=16, help="tuning pairs (seeded, outside the scored sample)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)

    from openai import OpenAI

    book, scored, tuning, rng = tuning_pairs(args.pairs, args.seed)
    rows = {r["id"]: r for r in book}
    others = [r for r in book if r["id"] not in scored]
    client = OpenAI(base_url=args.base_url, api_key="local", timeout=300, max_retries=0)
    results, seconds = [], []
    for pair in tuning:
        other = rng.choice([r for r in others if r["id"] != pair.rule])
        rec = {"rule": pair.rule, "other": other["id"]}
        for side in SIDES:
            code = pair.side(side).text
            started = time.monotonic()
            rec[side] = p_yes(client, args.model, code, rows[pair.rule])
            rec[f"{side}/other"] = p_yes(client, args.model, code, other)
            seconds.append((time.monotonic() - started) / 2)
        results.append(rec)
        print(f"  {pair.rule:32} viol {rec['violating']:.3f} compl {rec['compliant']:.3f}   other rule "
              f"viol {rec['violating/other']:.3f} compl {rec['compliant/other']:.3f}", file=sys.stderr)

    print(f"{'asked against':16} {'P(yes) violating':>17} {'P(yes) compliant':>17} {'paired viol > compl':>20}")
    for label, suffix in (("its own rule", ""), ("another rule", "/other")):
        v = statistics.median(r[f"violating{suffix}"] for r in results)
        c = statistics.median(r[f"compliant{suffix}"] for r in results)
        print(f"{label:16} {v:17.3f} {c:17.3f} {paired(results, 'violating' + suffix, 'compliant' + suffix):20.2f}")
    print(f"violating code: own rule above the other rule in {paired(results, 'violating', 'violating/other'):.2f} "
          f"of pairs; {statistics.median(seconds):.1f} s per question (median), {len(results)} pairs")
    scored_rows = [rows[r] for r in scored]
    both = sum(len(r["violating"]) > 1 and len(r["compliant"]) > 1 for r in scored_rows)
    either = sum(len(r["violating"]) > 1 or len(r["compliant"]) > 1 for r in scored_rows)
    print(f"scored pairs whose rule has another violating and another compliant example: {both} of "
          f"{len(scored_rows)} (either: {either})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
