"""The books rule retrieval is scored on, as documents and cases: a *book* is a rule document and code
that breaks its rules, each case one violating snippet with the anchor of its rule's text.

- `dev_book`: the dev guideline's PDF (`evaluation.core.data.guideline`) and its p3c violation rows;
- `own_book`: one of the public rule books (evaluation/books), its prose rendered as PDF, Word and
  Markdown, each rule's first violating example a query; `<book>-examples` is its examples edition.

`index` segments and indexes a document as `dualrag index rules` does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from dualrag.units import RuleUnit
from evaluation.books import anchors, load_book, render
from evaluation.core import datasets
from evaluation.core.heldout import spread
from indexers.rules import segment

KB = "guideline"
EXAMPLES_EDITION = "-examples"


@dataclass
class Case:
    id: str
    rule: str
    code: str
    anchor: str  # whitespace-free text that only this case's rule unit holds


@dataclass
class Book:
    name: str
    documents: dict[str, Path]  # structure -> document
    cases: list[Case]
    model_examples: dict[str, str] | None = None  # rule id -> the model's counter-example (--model-examples)
    anchors: dict[str, str] | None = None  # rule id -> the start of its prose (own books)


def dev_book(structures: list[str], max_cases: int = 0) -> Book:
    """The dev guideline with its p3c violation rows (its PDF only: `pdf` must be among `structures`)."""
    rows = spread(datasets.p3c(label="violation"), max_cases)
    cases = [Case(r["id"], r["rule"], r["code"], r["anchor"]) for r in rows]
    return Book("dev", {"pdf": datasets.guideline()} if "pdf" in structures else {}, cases)


def source_book(name: str) -> str:
    """The rule book a book is made from: `pmd-examples` is an edition of `pmd`."""
    return name.removesuffix(EXAMPLES_EDITION)


def own_book(name: str, structures: list[str], out: Path, max_cases: int = 0) -> Book:
    """One of our books. `<book>-examples` is its examples edition (evaluation/books/render.py):
    the shape of a standard that shows code under each rule, every example but each rule's first
    violating one in the document; the cases are those first ones of the rules that show another.
    `max_cases`: a fixed, spread sample of them."""
    examples = name.endswith(EXAMPLES_EDITION)
    rules = load_book(source_book(name))
    prose = anchors(rules)
    cases = [Case(f"{r['id']}#{i}", r["id"], code, prose[r["id"]])
             for r in rules if r["id"] in prose and (len(r["violating"]) > 1 or not examples)
             for i, code in enumerate(r["violating"][:1])]
    documents = {s: render(source_book(name), s, out, examples=examples) for s in structures}
    return Book(name, documents, spread(cases, max_cases))


def index(store, document: str | Path, embedder, sparse, kb: str = KB) -> tuple[list[RuleUnit], float, float]:
    """Segment and index a document as `dualrag index rules` does: (units, segment s, total s)."""
    start = time.perf_counter()
    units = segment(document, kb)
    t_segment = time.perf_counter() - start
    store.upsert(kb, units, embedder, sparse)
    return units, t_segment, time.perf_counter() - start
