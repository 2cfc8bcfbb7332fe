#!/usr/bin/env python3
"""Detectors mined from rule books' own examples (issues 27 and 42): per book, coverage of the
rules, held-out recall and precision, clean-corpus hits per 10k lines, mining time, and recall on
independent files the book never showed — for the miner that climbs the lattice, with every choice
made leaving the book out, and beside it the least general miner before the lattice (the baseline),
in the same run. Then the dev bug pairs, and the issue's floors.

    .venv/bin/dualrag corpus build --language java,python   # the clean corpora, once (~10 s)
    nice -n 10 .venv/bin/python -m evaluation.mining.detectors [--books dev,pmd,...] [--folds 5]
        [--corpus DIR] [--json OUT] [--show N] [--skip pairs,p3c]

Books (`evaluation/mining/books.py`): `dev` (the guideline PDF, segmented as `index rules` does) and every
`evaluation/books/<book>/rules.jsonl` (its `language` per rule). Clean corpora: each language's
folder of the `dualrag corpus build` in ~/.cache/dualrag/corpus, as `index rules` reads it (or
`--corpus` for Java, `DUALRAG_<LANGUAGE>_SOURCES`); a book in a language without one is mined without
the corpus check (its `min_bits` then decides).

Choices (`evaluation/mining/choices.py`): the lattice order and where the climb starts; for each book
the setting the other books' held-out figures choose. Held out (`evaluation/mining/heldout.py`): rules
with two or more violating examples, up to `--folds` folds each. Independent files
(`mining/scoring.py`): scored when `evaluation/mining/independent/<book>/cases.jsonl` exists.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from evaluation.mining import books as bk
from evaluation.mining.choices import BASELINE, DEFAULT, DEVELOPED_ON, GRID, choose
from evaluation.mining.dev_checks import bug_pairs, p3c_cases
from evaluation.mining.full import full
from evaluation.mining.heldout import held_out
from evaluation.mining.scoring import compliant_code, score
from indexers.mining import MiningOptions, load_corpus

RECALL_FLOOR, PRECISION_FLOOR, NOISE_FLOOR, PAIRS_FLOOR, INDEPENDENT_RATIO = 0.50, 0.90, 1.0, 0.40, 3.0


def _f(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--books", default=",".join(bk.book_names()))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--corpus", help="folder of clean Java sources (default: the `dualrag corpus build` one)")
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--show", type=int, default=0, help="print N kept detectors per book (chosen setting)")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: pairs, p3c, full (held out only), independent")
    args = ap.parse_args()
    names = [b for b in args.books.split(",") if b]
    skip = set(filter(None, args.skip.split(",")))
    corpora_dirs = {**bk.CORPORA, **({"java": Path(args.corpus)} if args.corpus else {})}

    t0 = time.perf_counter()
    books = {name: bk.load(name) for name in names}
    corpora = {}
    for language in sorted({b.language for b in books.values()}):
        folder = corpora_dirs.get(language)
        if folder is not None and folder.is_dir():
            start = time.perf_counter()
            corpora[language] = load_corpus(folder, language)
            corpora[language].roots()  # parsed and indexed once, before any timing
            print(f"clean corpus ({language}): {folder}: {len(corpora[language].files)} files, "
                  f"{corpora[language].lines:,} lines (read, parsed and indexed in {time.perf_counter() - start:.1f}s)")
        else:
            print(f"clean corpus ({language}): none; its books are mined without the corpus check")

    def options(book: str, setting) -> MiningOptions:
        language = books[book].language
        return setting.options(MiningOptions(corpus=corpora.get(language), language=language))

    scored = "independent" not in skip
    negatives = {name: compliant_code(name) if scored else {} for name in names}
    heldout: dict[str, dict] = {s.name: {} for s in (BASELINE, *GRID)}
    # the books choices are made on first, under every setting; a newer book only under the
    # baseline and the setting they choose for it
    voting = [n for n in names if n in DEVELOPED_ON]
    for name in voting + [n for n in names if n not in voting]:
        settings = (BASELINE, *GRID) if name in voting else (BASELINE, choose(heldout, voting + [name])[name][0])
        for setting in settings:
            heldout[setting.name][name] = held_out(books[name], options(name, setting), args.folds, negatives[name])
        print(f"{name}: held out under {len(settings)} settings, {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    chosen = choose(heldout, names)

    rows = {}
    for name in names if "full" not in skip else ():
        setting, voters = chosen[name]
        base = full(books[name], options(name, BASELINE))
        new = full(books[name], options(name, setting))
        rows[name] = {"setting": setting.name, "voters": voters, "base": base, "new": new,
                      "base_ho": heldout[BASELINE.name][name], "new_ho": heldout[setting.name][name],
                      "base_ind": score(name, base.detectors()) if scored else None,
                      "new_ind": score(name, new.detectors()) if scored else None}
        if DEFAULT is not None and setting != DEFAULT:  # what `index rules` ships, where the book chose otherwise
            default = full(books[name], options(name, DEFAULT))
            rows[name].update({"default_setting": DEFAULT.name, "default": default,
                               "default_ho": heldout[DEFAULT.name].get(name),
                               "default_ind": score(name, default.detectors()) if scored else None})
        if name == "dev" and "p3c" not in skip:
            rows[name]["p3c"] = (p3c_cases(base.units), p3c_cases(new.units))
        for u in new.units[: args.show]:
            d = u.detect
            print(f"  {name} {u.rule_id} [{'+'.join(d.mined.level) or 'least general'}]: {d.kind} {d.pattern[:150]}"
                  f"{' ' + str(d.scope) if d.scope else ''}")
        print(f"{name}: mined, {time.perf_counter() - t0:.0f}s", file=sys.stderr)

    pairs = {}
    if "pairs" not in skip and "dev" in rows:
        pairs = bug_pairs({"bundled+dev mined (baseline)": rows["dev"]["base"].units,
                           "bundled+dev mined": rows["dev"]["new"].units,
                           "bundled+all books mined": [u for r in rows.values() for u in r["new"].units]})

    # ------------------------------------------------------------------------------------ report
    print("\nchoices, each made leaving the book out (score: held-out recall where precision >= 0.90):")
    print(f"{'setting':<26}" + "".join(f"{n:>22}" for n in names))
    for s in (BASELINE, *GRID):
        print(f"{s.name:<26}" + "".join(
            f"{_f(h.recall):>9} @ {_f(h.precision):>4} ({h.rules:>3})" if h else f"{'not run':>22}"
            for h in (heldout[s.name].get(n) for n in names)))
    for name in names:
        setting, voters = chosen[name]
        print(f"  {name}: {setting.name}, chosen by {', '.join(voters) or 'no book with held-out rules'}"
              f"{'' if name in DEVELOPED_ON else ' (frozen before this book was scored)'}")

    print(f"\n{'book':<12}{'miner':<10}{'w/ ex':>6}{'kept':>6}{'cover':>7}{'ho rules':>9}{'folds':>6}{'prec':>6}"
          f"{'recall':>7}{'TP/FN/FP/TN':>16}{'max/10k':>8}{'all/10k':>8}{'mine s':>7}{'indep. recall @ prec':>22}")
    for name, r in rows.items():
        for label, f, h, ind in (("baseline", r["base"], r["base_ho"], r["base_ind"]),
                                 ("lattice", r["new"], r["new_ho"], r["new_ind"])):
            indep = ("not scored" if not scored else "no independent files") if ind is None else f"{ind.recall:.2f} @ {_f(ind.precision)}"
            print(f"{name:<12}{label:<10}{f.with_examples:>6}{f.kept:>6}{f.coverage:>7.2f}{h.rules:>9}{h.folds:>6}"
                  f"{_f(h.precision):>6}{_f(h.recall):>7}{f'{h.tp}/{h.fn}/{h.fp}/{h.tn}':>16}"
                  f"{_f(f.noisiest if f.checked else None):>8}{_f(f.together if f.checked else None, 1):>8}"
                  f"{f.seconds:>7.1f}{indep:>22}")
    print("  (w/ ex: rules with violating examples; held out: rules with >= 2; max/10k: the noisiest kept detector's "
          "clean-corpus hits per 10k lines; all/10k: every kept detector together; -: no clean corpus for the book's "
          "language, mined without the corpus check)")
    for name, r in rows.items():
        steps = ", ".join(f"{k} {v}" for k, v in r["new"].levels.most_common())
        h = r["new_ho"]
        print(f"{name}: lattice steps of the kept detectors: {steps or '-'}; held-out fold detectors fire on "
              f"{h.other_fires} of {h.other_runs} other rules' violating examples (baseline {r['base_ho'].other_fires})"
              + (f"; held-out precision on the book's own examples {_f(h.precision_own)}, its negatives' independent "
                 f"compliant files fired on {h.fp_independent} of {h.fp_independent + h.tn_independent}"
                 if h.fp_independent + h.tn_independent else ""))
        if h.failures:
            print(f"{name}: what the held-out failures on the book's own examples come to: "
                  + "; ".join(f"{k} {v}" for k, v in h.blocks().most_common(6)))
        for ind, label in ((r["base_ind"], "baseline"), (r["new_ind"], "lattice")):
            if ind is not None:
                print(f"{name}, independent files, {label}: {ind.tp} of {ind.violating} violating files caught, "
                      f"{ind.fp} false positives ({ind.fp - ind.fp_away} of {ind.compliant} compliant files, "
                      f"{ind.fp_away} violating files hit only away from their lines), {ind.cross} cross-fires")
        if "default" in r:
            dho, dind = r["default_ho"], r["default_ind"]
            print(f"{name}: index rules' defaults ({r['default_setting']}) instead of its choice: "
                  f"{r['default'].kept} kept, held out "
                  + (f"{_f(dho.recall)} @ {_f(dho.precision)}" if dho is not None else "not run")
                  + (f", independent files {dind.recall:.2f} @ {_f(dind.precision)}" if dind is not None else ""))
        if "p3c" in r:
            for p, label in zip(r["p3c"], ("baseline", "lattice"), strict=True):
                print(f"dev, p3c cases, {label}: {p.get('violation_fired', 0)} of {p.get('violation_rows', 0)} "
                      f"violation cases caught, {p.get('clean_fired', 0)} of {p.get('clean_rows', 0)} clean flagged")
    for pname, v in pairs.items():
        print(f"bug pairs (40 dev, offline detectors), {pname}: bug {v['bug']:.2f} / fix {v['fix']:.2f}, "
              f"discrimination {v['discrimination']:+.2f}; {v['mined_findings']} mined findings")

    print("\nfloors")
    floors = []
    for name, r in rows.items():
        h = r["new_ho"]
        if not h.rules:
            print(f"  n/a   {name}: no rule with >= 2 violating examples, held-out recall not measurable")
            continue
        ok = (h.recall or 0) >= RECALL_FLOOR and (h.precision or 1.0) >= PRECISION_FLOOR
        floors.append(((f"{name}: held-out recall {_f(h.recall)} >= {RECALL_FLOOR} at precision {_f(h.precision)} >= "
                       f"{PRECISION_FLOOR} (baseline {_f(r['base_ho'].recall)} @ {_f(r['base_ho'].precision)})"), ok))
    for name, r in rows.items():
        new, base = r["new_ind"], r["base_ind"]
        if new is None:
            print(f"  n/a   {name}: {'independent files not scored' if not scored else 'no independent files'}")
            continue
        ok = new.recall >= INDEPENDENT_RATIO * base.recall and (new.precision or 1.0) >= PRECISION_FLOOR and new.tp > 0
        floors.append(((f"{name}: independent-file recall {new.recall:.2f} >= {INDEPENDENT_RATIO:g}x baseline "
                       f"{base.recall:.2f} at precision {_f(new.precision)} >= {PRECISION_FLOOR}"), ok))
    worst = max((r["new"].noisiest for r in rows.values() if r["new"].checked), default=0.0)
    unchecked = [n for n, r in rows.items() if not r["new"].checked]
    floors.append((f"noisiest kept detector {worst:.2f} clean-corpus hits per 10k lines (<= {NOISE_FLOOR:g})"
                   + (f"; not checked: {', '.join(unchecked)} (no clean corpus)" if unchecked else ""),
                   worst <= NOISE_FLOOR))
    if "bundled+dev mined" in pairs:
        d = pairs["bundled+dev mined"]["discrimination"]
        floors.append(((f"40 dev bug pairs, offline detectors with the dev guideline's mined ones: {d:+.2f} >= "
                       f"+{PAIRS_FLOOR:.2f} (bundled alone {pairs['bundled']['discrimination']:+.2f})"), d >= PAIRS_FLOOR))
    for text, ok in floors:
        print(f"  {'PASS' if ok else 'FAIL'}  {text}")
    print("  (indexing a 200-page book with mining: evaluation/bench/index_rules_mined.py)")
    if args.json:
        def dump(r: dict) -> dict:
            return {k: (asdict(v) if hasattr(v, "__dataclass_fields__") and k.endswith(("_ho", "_ind")) else
                        {"kept": v.kept, "with_examples": v.with_examples, "coverage": v.coverage,
                         "noisiest": v.noisiest, "together": v.together, "seconds": v.seconds,
                         "levels": dict(v.levels)} if k in ("base", "new", "default") else v) for k, v in r.items()}
        Path(args.json).write_text(json.dumps({"books": {n: dump(r) for n, r in rows.items()}, "pairs": pairs,
                                               "heldout": {s: {b: asdict(h) for b, h in v.items()}
                                                           for s, v in heldout.items()}},
                                              indent=2, default=str), encoding="utf-8")
    return 0 if all(ok for _, ok in floors) else 1


if __name__ == "__main__":
    raise SystemExit(main())
