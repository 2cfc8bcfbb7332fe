#!/usr/bin/env python3
"""Detectors mined from rule books' own examples (issue 27): held-out precision and recall,
coverage, clean-corpus noise, mining time, and what they do to the offline bug-pair figures.

    scripts/fetch_java_sources.sh libcommons-lang3-java libcommons-io-java libcommons-collections4-java
    nice -n 10 .venv/bin/python -m scripts.eval.mined_detectors [--corpus DIR] [--books dev,pmd,...]
        [--folds 5] [--prefer auto|general|specific] [--json OUT] [--show N]

Books: `dev` (the Huangshan guideline PDF under ../shared/eval/kb, segmented as `index rules`
segments it: its 反例/正例 blocks are the examples) and our own books `pmd`, `errorprone`,
`androidlint` (scripts/tools/rule_books/<book>/rules.jsonl: `violating` and `compliant` are the
examples; the rendered documents hold only the prose, so the rules are built from the JSONL).

Per book:

- **full mining** (every example, the clean corpus on): rules with violating examples, rules with
  a kept detector, clean-corpus hits per 10k lines of the kept detectors (max), mining seconds
  (dev: reading and parsing the corpus included — what indexing the guideline adds);
- **held out** (rules with >= 2 violating examples): the violating examples are split into
  min(n, --folds) folds (the rule's compliant examples round-robin with them); per fold a
  detector is mined from the other folds (the book's background counts without the held-out
  examples; the book's other compliant examples stay in verification) and run, as a review runs
  it, on the held-out violating examples (a hit is a true positive, a miss a false negative; a
  fold without a kept detector misses them all) and on the held-out compliant examples (a hit is
  a false positive). Precision = TP / (TP + FP), recall = TP / held-out violating examples;
- **no corpus**: the same full mining without a clean corpus, and how many of the detectors it
  keeps fire above the limit on the corpus (what the no-corpus rule lets through);
- dev only: the kept detectors on the p3c cases (../shared/eval/p3c/dev.jsonl, linked to the
  guideline's items by anchor): violation cases caught, clean cases flagged.

Then the 40 dev bug pairs (seed 14, as scripts/eval/review.py samples them): offline
discrimination (flag rate on the bug side minus the fix side, findings of severity major or
worse within one line of a side's changed lines) of the bundled detectors alone, with the dev
guideline's mined detectors, and with every book's. Then the issue's floors, PASS/FAIL.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

from dualrag.rulebook import detector_rows
from dualrag.units import RuleSource, RuleUnit
from indexers.rules.mining import Backgrounds, MiningOptions, load_corpus, mine_book, mine_rule
from indexers.rules.mining.examples import code_of
from indexers.rules.mining.tree import rule_words
from evaluation import ROOT
from evaluation.books import load_book

EVAL = ROOT.parent / "shared" / "eval"
DEV_PDF = EVAL / "kb" / "java-manual-huangshan.pdf"
P3C = EVAL / "p3c" / "dev.jsonl"
BUGS = EVAL / "bugs" / "dev.jsonl"
CORPUS = Path(os.environ.get("DUALRAG_JAVA_SOURCES", Path.home() / ".cache/dualrag/java-sources"))
BOOKS = ("dev", "pmd", "errorprone", "androidlint")
LANGUAGE = "java"


def book_units(name: str) -> list[RuleUnit]:
    if name == "dev":
        from indexers.rules import segment_with_report

        return segment_with_report(DEV_PDF, "eval")[0]
    return [RuleUnit(rule_id=r["id"], title=r["title"], text=r.get("prose") or r["title"],
                     bad_examples=list(r.get("violating") or []), good_examples=list(r.get("compliant") or []),
                     source=RuleSource(kb="eval", file=f"{name}/rules.jsonl"), languages=[LANGUAGE])
            for r in load_book(name)]


def fires(detector, code: str) -> bool:
    try:
        return bool(detector_rows(detector, LANGUAGE, code))
    except Exception:  # noqa: BLE001
        return False


# ------------------------------------------------------------------------------------ held out


def held_out(units: list[RuleUnit], options: MiningOptions, folds_cap: int) -> dict:
    codes = {u.rule_id: ([c for c in map(code_of, u.bad_examples) if c], [c for c in map(code_of, u.good_examples) if c])
             for u in units}
    background = Backgrounds()
    for bad, good in codes.values():
        for c in bad + good:
            background.add(c, LANGUAGE)
    book_compliant = [(rid, c) for rid, (_, good) in codes.items() for c in good]
    tp = fn = fp = tn = 0
    rules = folds_run = kept_folds = 0
    other_fires = other_runs = 0
    others = [(rid, c) for rid, (bad, _) in codes.items() for c in bad]
    for unit in units:
        bad, good = codes[unit.rule_id]
        if len(unit.bad_examples) < 2:
            continue
        rules += 1
        n = len(unit.bad_examples)
        folds = min(n, folds_cap)
        raw_bad = list(map(code_of, unit.bad_examples))
        raw_good = list(map(code_of, unit.good_examples))
        for f in range(folds):
            folds_run += 1
            test_bad = [c for j, c in enumerate(raw_bad) if j % folds == f]
            train_bad = [c for j, c in enumerate(raw_bad) if j % folds != f and c]
            test_good = [c for j, c in enumerate(raw_good) if j % folds == f and c]
            train_good = [c for j, c in enumerate(raw_good) if j % folds != f and c]
            for c in [*test_bad, *test_good]:
                if c:
                    background.add(c, LANGUAGE, -1)
            compliant = [(rid, c) for rid, c in book_compliant if rid != unit.rule_id] + \
                        [(unit.rule_id, c) for c in train_good]
            result = mine_rule(unit.rule_id, rule_words(unit.title, unit.text), LANGUAGE, train_bad, train_good,
                               compliant, background, options, others)
            for c in [*test_bad, *test_good]:
                if c:
                    background.add(c, LANGUAGE, 1)
            det = result.detector
            kept_folds += det is not None
            for c in test_bad:
                hit = det is not None and bool(c) and fires(det, c)
                tp += hit
                fn += not hit
            for c in test_good:
                hit = det is not None and fires(det, c)
                fp += hit
                tn += not hit
            if det is not None:
                for rid, c in others:
                    if rid != unit.rule_id:
                        other_runs += 1
                        other_fires += fires(det, c)
    return {"rules": rules, "folds": folds_run, "folds_with_detector": kept_folds, "tp": tp, "fn": fn, "fp": fp,
            "tn": tn, "other_rule_fires": other_fires, "other_rule_runs": other_runs, "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None}


# ------------------------------------------------------------------------------------ p3c cases


def p3c_cases(units: list[RuleUnit]) -> dict:
    rows = [json.loads(line) for line in P3C.read_text(encoding="utf-8").splitlines() if line.strip()]
    flat = {u.rule_id: re.sub(r"\s+", "", u.title + u.text + "".join(u.bad_examples + u.good_examples)) for u in units}
    out = Counter()
    for row in rows:
        unit = next((u for u in units if row["anchor"] in flat[u.rule_id]), None)
        det = unit.detect if unit is not None and unit.detect is not None and unit.detect.mined else None
        key = "violation" if row["label"] == "violation" else "clean"
        out[f"{key}_rows"] += 1
        if det is not None:
            out[f"{key}_with_detector"] += 1
            out[f"{key}_fired"] += fires(det, row["code"])
    return dict(out)


# ------------------------------------------------------------------------------------ bug pairs


def bug_pairs(extra: dict[str, list[RuleUnit]], limit: int = 40, seed: int = 14) -> dict:
    from dualrag.checks.detectors import bundled_rules, run_detectors
    from dualrag.config import Settings
    from dualrag.diff import ingest
    from evaluation.review.bug_pairs import load_pairs, sample
    from evaluation.review.systems import flagged

    pairs = sample(load_pairs(BUGS), limit, seed)
    settings = Settings()
    base = list(bundled_rules().detectors)
    variants = {"bundled": base, **{name: base + units for name, units in extra.items()}}
    out = {}
    for name, rules in variants.items():
        flags = Counter()
        mined_findings = 0
        for pair in pairs:
            for side in ("bug", "fix"):
                changes = ingest(pair.diff(side).encode("utf-8"), settings)
                findings = run_detectors(changes, rules)
                mined_findings += sum(1 for f in findings if "[mined check:" in f.message)
                flags[side] += flagged([f.model_dump() for f in findings], pair.targets(side))
        out[name] = {"bug": flags["bug"] / len(pairs), "fix": flags["fix"] / len(pairs),
                     "discrimination": (flags["bug"] - flags["fix"]) / len(pairs), "mined_findings": mined_findings}
    return out


# ------------------------------------------------------------------------------------ main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(CORPUS), help="folder of clean Java sources (fetch_java_sources.sh)")
    ap.add_argument("--books", default=",".join(BOOKS))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--prefer", default="auto", choices=["auto", "general", "specific"])
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--show", type=int, default=0, help="print N kept detectors per book")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: heldout,nocorpus,pairs")
    args = ap.parse_args()
    books = [b for b in args.books.split(",") if b]
    skip = set(filter(None, args.skip.split(",")))

    t0 = time.perf_counter()
    corpus = load_corpus(args.corpus, LANGUAGE)
    corpus.roots()
    corpus_seconds = time.perf_counter() - t0
    print(f"clean corpus: {args.corpus}: {len(corpus.files)} files, {corpus.lines:,} lines "
          f"(read and parsed in {corpus_seconds:.1f}s)")
    options = MiningOptions(corpus=corpus, prefer=args.prefer)
    bare = MiningOptions(corpus=None, prefer=args.prefer)
    results: dict[str, dict] = {}
    mined_units: dict[str, list[RuleUnit]] = {}
    for book in books:
        units = book_units(book)
        t = time.perf_counter()
        mined, report = mine_book(units, options, document=book)
        seconds = time.perf_counter() - t
        kept = [u for u in mined if u.detect is not None and u.detect.mined is not None]
        mined_units[book] = kept
        rates = [u.detect.mined.corpus_hits * 10_000 / u.detect.mined.corpus_lines for u in kept]
        row = {
            "rules": len(units), "with_examples": report.with_examples, "kept": len(kept),
            "coverage": len(kept) / report.with_examples if report.with_examples else 0.0,
            "kept_tree_sitter": sum(1 for u in kept if u.detect.kind == "tree-sitter"),
            "max_hits_per_10k": max(rates, default=0.0), "mean_hits_per_10k": sum(rates) / len(rates) if rates else 0.0,
            "total_hits_per_10k": sum(rates),  # every kept detector of the book together
            "zero_hit_detectors": sum(1 for r in rates if r == 0),
            "mining_seconds": seconds, "prose_only": sum(1 for r in report.rules if r.status == "prose"),
        }
        if book == "dev":
            row["mining_seconds_with_corpus_read"] = seconds + corpus_seconds
            row["p3c"] = p3c_cases(mined)
        if "heldout" not in skip:
            t = time.perf_counter()
            row["heldout"] = held_out(units, options, args.folds)
            row["heldout_seconds"] = time.perf_counter() - t
        if "nocorpus" not in skip:
            def noisy(mined_units: list[RuleUnit]) -> list[tuple[float, bool]]:
                dets = [u.detect for u in mined_units if u.detect is not None and u.detect.mined is not None]
                counts = corpus.count(dets, [() for _ in dets])
                return [(d.mined.bits, n * 10_000 / corpus.lines > options.max_hits_per_10k)
                        for d, n in zip(dets, counts, strict=True)]

            bare_mined, bare_report = mine_book(units, bare, document=book)
            row["no_corpus"] = {"kept": bare_report.kept,
                                "above_limit_on_corpus": sum(n for _, n in noisy(bare_mined))}
            # what other thresholds would keep: every first candidate that holds on the examples
            sweep_mined, _ = mine_book(units, MiningOptions(corpus=None, prefer=args.prefer, min_bits=0.0),
                                       document=book)
            kept0 = noisy(sweep_mined)
            row["no_corpus"]["sweep"] = {t: [sum(1 for b, _ in kept0 if b >= t), sum(1 for b, n in kept0 if b >= t and n)]
                                         for t in (0, 8, 10, 12, 14, 16, 20)}
        results[book] = row
        for u in kept[: args.show]:
            print(f"  {book} {u.rule_id}: {u.detect.kind} {u.detect.pattern[:160]}")
        print(f"{book}: done in {time.perf_counter() - t0:.0f}s", file=sys.stderr)

    pairs = None
    if "pairs" not in skip and BUGS.is_file():
        extra = {}
        if "dev" in mined_units:
            extra["bundled+dev mined"] = mined_units["dev"]
        extra["bundled+all books mined"] = [u for units in mined_units.values() for u in units]
        pairs = bug_pairs(extra)

    # ---------------------------------------------------------------------------- report
    print()
    print(f"{'book':<12}{'rules':>6}{'w/ ex':>7}{'kept':>6}{'cover':>7}{'ts':>5}{'max/10k':>9}{'mine s':>8}"
          f"{'ho rules':>9}{'folds':>7}{'prec':>7}{'recall':>8}{'TP':>5}{'FN':>5}{'FP':>5}{'TN':>5}")
    tot = Counter()
    for book, r in results.items():
        h = r.get("heldout") or {}
        prec = "-" if h.get("precision") is None else f"{h['precision']:.2f}"
        rec = "-" if h.get("recall") is None else f"{h['recall']:.2f}"
        secs = r.get("mining_seconds_with_corpus_read", r["mining_seconds"])
        print(f"{book:<12}{r['rules']:>6}{r['with_examples']:>7}{r['kept']:>6}{r['coverage']:>7.2f}"
              f"{r['kept_tree_sitter']:>5}{r['max_hits_per_10k']:>9.2f}{secs:>8.1f}"
              f"{h.get('rules', 0):>9}{h.get('folds', 0):>7}{prec:>7}{rec:>8}"
              f"{h.get('tp', 0):>5}{h.get('fn', 0):>5}{h.get('fp', 0):>5}{h.get('tn', 0):>5}")
        for k in ("with_examples", "kept"):
            tot[k] += r[k]
        for k in ("tp", "fn", "fp", "tn"):
            tot[k] += h.get(k, 0)
    precision = tot["tp"] / (tot["tp"] + tot["fp"]) if tot["tp"] + tot["fp"] else None
    recall = tot["tp"] / (tot["tp"] + tot["fn"]) if tot["tp"] + tot["fn"] else None
    coverage = tot["kept"] / tot["with_examples"] if tot["with_examples"] else 0.0
    print(f"{'all':<12}{'':>6}{tot['with_examples']:>7}{tot['kept']:>6}{coverage:>7.2f}{'':>5}"
          f"{max((r['max_hits_per_10k'] for r in results.values()), default=0):>9.2f}{'':>8}{'':>9}{'':>7}"
          f"{'-' if precision is None else f'{precision:.2f}':>7}{'-' if recall is None else f'{recall:.2f}':>8}"
          f"{tot['tp']:>5}{tot['fn']:>5}{tot['fp']:>5}{tot['tn']:>5}")
    print("  (w/ ex: rules with violating examples; ts: kept detectors that are tree-sitter queries, the rest regex; "
          "max/10k: the noisiest kept detector's clean-corpus hits per 10,000 lines; held out: rules with >= 2 "
          "violating examples)")
    for book, r in results.items():
        print(f"clean corpus, {book}: the {r['kept']} kept detectors together fire {r['total_hits_per_10k']:.1f} times "
              f"per 10k lines ({r['zero_hit_detectors']} of them never); mean {r['mean_hits_per_10k']:.2f} per detector")
    for book, r in results.items():
        if "no_corpus" in r:
            sweep = ", ".join(f">={t}: {k} kept/{n} noisy" for t, (k, n) in r["no_corpus"]["sweep"].items())
            print(f"no corpus, {book}: {r['no_corpus']['kept']} kept at min_bits {bare.min_bits:g}, "
                  f"{r['no_corpus']['above_limit_on_corpus']} of them above {options.max_hits_per_10k:g}/10k on the "
                  f"corpus; first candidate by threshold: {sweep}")
        if "heldout" in r and r["heldout"].get("other_rule_fires") is not None:
            h = r["heldout"]
            print(f"held out, {book}: the fold detectors fire on {h['other_rule_fires']} of {h['other_rule_runs']} "
                  "violating examples of other rules (not counted as errors: such code may break both rules)")
    if "dev" in results:
        p = results["dev"]["p3c"]
        print(f"dev, p3c cases: {p.get('violation_fired', 0)} of {p.get('violation_rows', 0)} violation cases caught "
              f"({p.get('violation_with_detector', 0)} of their rules have a mined detector); "
              f"{p.get('clean_fired', 0)} of {p.get('clean_rows', 0)} clean cases flagged "
              f"({p.get('clean_with_detector', 0)} with a detector)")
    if pairs:
        for name, v in pairs.items():
            print(f"bug pairs (40 dev, offline detectors), {name}: bug {v['bug']:.2f} / fix {v['fix']:.2f}, "
                  f"discrimination {v['discrimination']:+.2f}; {v['mined_findings']} mined findings")

    print("\nfloors")
    floors = []
    if precision is not None:
        floors.append((f"held-out precision over all books {precision:.2f} >= 0.90", precision >= 0.90))
    floors.append((f"kept detectors cover {coverage:.0%} of the rules with examples (>= 30%)", coverage >= 0.30))
    worst = max((r["max_hits_per_10k"] for r in results.values()), default=0.0)
    floors.append((f"noisiest kept detector {worst:.2f} clean-corpus hits per 10k lines (<= 1)", worst <= 1.0))
    if "dev" in results:
        secs = results["dev"]["mining_seconds_with_corpus_read"]
        floors.append((f"mining the dev guideline adds {secs:.1f}s, corpus read included (< 20 s)", secs < 20))
    if pairs and "bundled+dev mined" in pairs:
        a, b = pairs["bundled"]["discrimination"], pairs["bundled+dev mined"]["discrimination"]
        floors.append(((f"40 dev bug pairs: offline discrimination {a:+.2f} -> {b:+.2f} with the dev guideline's "
                        "mined detectors (does not drop)"), b >= a))
    for text, ok in floors:
        print(f"  {'PASS' if ok else 'FAIL'}  {text}")
    if args.json:
        Path(args.json).write_text(json.dumps({"corpus": {"folder": args.corpus, "lines": corpus.lines,
                                                          "seconds": corpus_seconds},
                                               "books": results, "pairs": pairs,
                                               "all": {"precision": precision, "recall": recall, "coverage": coverage,
                                                       **tot}}, indent=2, default=str), encoding="utf-8")
    return 0 if all(ok for _, ok in floors) else 1


if __name__ == "__main__":
    raise SystemExit(main())
