"""Fit the learned fusion's shipped weights (dualrag/retrieval/fusion_weights.json) on our rule books.

    .venv/bin/python -m evaluation.tools.train_fusion [--books pmd,errorprone,androidlint] [--structures pdf,docx,md]

Each book's rule prose is rendered and indexed as evaluation/retrieval/rules.py does, each rule's first
violating example is a query, and the channels the fusion reads are searched once per query
(evaluation/retrieval/fusion_folds.collect); the weights are fitted on all of them (never the dev guideline:
parts of dualrag were built on it) and written for the default embedder and BM25 scheme. How well
such weights do on a book they were not fitted on is what evaluation/retrieval/rules.py reports (each book
scored with weights fitted on the others only): that is the figure to quote, not this fit's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.embedding.precomputed import identity
from dualrag.retrieval import learned_fusion
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.store import open_store
from evaluation.core.scoring import squash
from evaluation.retrieval import fusion_folds
from evaluation.retrieval.cases import index, own_book


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--books", default="pmd,errorprone,androidlint")
    ap.add_argument("--structures", default="pdf,docx,md")
    ap.add_argument("--out", type=Path, default=learned_fusion.FILE)
    args = ap.parse_args()
    embedder, sparse = get_embedder(), Bm25Encoder()
    out = Path(tempfile.mkdtemp(prefix="dualrag-books-"))
    samples = []
    start = time.perf_counter()
    with open_store(tempfile.mkdtemp(prefix="dualrag-fusion-")) as store:
        for name in args.books.split(","):
            book = own_book(name, args.structures.split(","), out, 0)
            queries = [build_rule_query(c.code, language="java") for c in book.cases]
            for structure, document in book.documents.items():
                kb = f"{name}-{structure}"
                index(store, document, embedder, sparse, kb)
                retriever = RuleRetriever(store, embedder, sparse, [kb], fusion_folds.READ)
                rows = fusion_folds.collect(retriever, queries, [c.anchor for c in book.cases], squash)
                usable = sum(1 for s in rows if True in s.hits)
                print(f"{name:>12} {structure:>4}: {len(rows)} queries, {usable} with their rule among the "
                      f"candidates", flush=True)
                samples += rows
    trained_on = f"{args.books} ({args.structures}), {len(samples)} queries"
    fusion = fusion_folds.fit_on(samples, trained_on=trained_on)
    learned_fusion.write(fusion, identity(embedder), sparse.name, args.out)
    weights = ", ".join(f"{c} {fusion.weights[2 * i]:+.2f}/{fusion.weights[2 * i + 1]:+.2f}"
                        for i, c in enumerate(fusion.channels))
    print(f"{args.out}: weights (rank/margin) {weights}; fitted on {trained_on} in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
