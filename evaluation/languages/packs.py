#!/usr/bin/env python
"""The new language packs (Kotlin, Python, MyBatis, Spring) on real public code (issue 26, item 4).

    .venv/bin/python -m evaluation.languages.packs [--snapshot NAME=GITDIR@COMMIT ...]
        [--cache .dualrag/lang-corpus] [--sample 150] [--budgets 1500,4000] [--seed 7]

Fetches the packages of lang_corpus/packages.txt (PyPI sdists with `pip download`, npm tarballs
with `npm pack`; provenance and licences in lang_corpus/SOURCE.md) into the cache (corpus.py),
plus the git snapshots given with --snapshot (MyBatis and Spring Boot projects: no registry ships
them). Per language it prints:

- chunk cuts: the real diffs (each package's old -> new version; the last commits of a snapshot's
  history that touch the language) are chunked at each --budget with the new files at hand; every
  place where one file's added lines continue in another chunk is a cut (removal-only slices and
  context lines are left out: they belong to old-side members), and it is on a member boundary
  when no member the pack groups by (function, method, statement, key...; from the whole new file)
  holds the added lines on both sides. Cuts inside a member that alone exceeds the budget
  (`split`) are counted apart: the budget did not allow.
- code context: call sites sampled from the new trees whose callee is declared exactly once in the
  tree (a method/function name, not a common library name: the oracle) each become a one-line
  change; the code retriever, on the tree's code index, is asked for that line's context, and it is
  a hit when a `definition` item is that declaration. Kotlin calling Java and Java calling Kotlin
  are counted apart. Mapper XML <-> interface: a change inside each statement whose namespace is a
  mapper interface declaring a method of the statement's id must bring that method (`mapper`), and a
  change of the method the statement. Spring: a change of each `@Value("${k}")` line whose key is
  set in an application*.yml/properties of the tree (read with PyYAML, not our reader) must bring
  the key's definition, and a change of the key the code reading it.
- detectors: the bundled detectors of each pack run on every file of the corpus (the whole file as
  added lines): crashes (must be 0) and hits per 10,000 lines, by rule.

The parts: corpus.py, cuts.py, context.py, detectors.py.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from evaluation import ROOT
from evaluation.core.report import share
from evaluation.languages.context import code_context
from evaluation.languages.corpus import registry_trees, snapshot_trees
from evaluation.languages.cuts import chunk_cuts
from evaluation.languages.detectors import detectors, reader_crashes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=ROOT / ".dualrag" / "lang-corpus")
    ap.add_argument("--snapshot", action="append", default=[], metavar="NAME=GITDIR@COMMIT")
    ap.add_argument("--commits", type=int, default=30, help="snapshot commits used as real diffs")
    ap.add_argument("--sample", type=int, default=150)
    ap.add_argument("--budgets", default="1500,4000")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", default="", help="comma list of parts: cuts,context,detectors")
    args = ap.parse_args()
    parts = set(args.only.split(",")) if args.only else {"cuts", "context", "detectors"}
    args.cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    trees = registry_trees(args.cache) + snapshot_trees(args.snapshot, args.cache, args.commits)
    print("corpus: " + "; ".join(t.source for t in trees))
    if "detectors" in parts:
        print("\n== detectors on every corpus file (the whole file as added lines)")
        for lang, c in sorted(detectors(trees).items()):
            rate = c["hits"] / c["lines"] * 10_000 if c["lines"] else 0
            rules = ", ".join(f"{k[4:]} {v}" for k, v in sorted(c.items()) if k.startswith("hit "))
            print(f"  {lang:18} {c['files']:5} files {c['lines']:8,} lines  crashes {c['crashes']}  "
                  f"hits {c['hits']} = {rate:.1f} per 10k lines  {rules}")
        rc = reader_crashes(trees)
        print("  symbol readers: crashes " + str(rc["crashes"]) + "; " + ", ".join(
            f"{k} {v}" for k, v in sorted(rc.items()) if k != "crashes"))
    if "cuts" in parts:
        budgets = [int(b) for b in args.budgets.split(",")]
        print(f"\n== chunk cuts on real diffs (budgets {budgets} tokens)")
        for lang, c in sorted(chunk_cuts(trees, budgets).items()):
            if lang.endswith(":examples"):
                for ex in c:
                    print(f"      inside: {ex}")
                continue
            allowed = c["on member boundary"] + c["inside a member"]
            print(f"  {lang:18} {c['files']} changed files; cuts on member boundaries when the budget allows: "
                  f"{c['on member boundary']}/{allowed} = "
                  f"{(c['on member boundary'] / allowed) if allowed else 1:.1%}; "
                  f"inside a member above the budget: {c['in a member above the budget']}")
    if "context" in parts:
        print(f"\n== code context (sample up to {args.sample} per kind, seed {args.seed}; code index per tree)")
        with tempfile.TemporaryDirectory() as tmp:
            found = code_context(trees, Path(tmp) / "store", args.sample, args.seed)
            for kind, c in sorted(found.items()):
                if kind.endswith(":misses"):
                    continue
                left = c["left out: another class named as receiver"]
                print(f"  {kind:34} {share(c['found'], c['cases'])}" + (f"  ({left} sampled calls left out: `Other.{{name}}(`)" if left else ""))
                for ex in found.get(kind + ":misses", ()):
                    print(f"      missed: {ex}")
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
