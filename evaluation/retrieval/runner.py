"""One run of evaluation/retrieval/rules.py: every book's documents indexed, each knowledge base's
self-check, the learned fusion's inputs collected, then every configuration searched on every book,
with weights fitted on the other books only (fusion_folds), and with `--model-examples` the same
bases again with the counter-examples the model wrote (`index_with_examples`)."""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from dualrag.config.retrieval import RuleChannels
from dualrag.retrieval.query import RuleQuery, build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.retrieval.self_check import KbChoice, resolve, self_check
from dualrag.store import open_store
from dualrag.units import RuleUnit
from evaluation.core.scoring import squash
from evaluation.retrieval import fusion_folds
from evaluation.retrieval.cases import EXAMPLES_EDITION, Book, index, source_book
from evaluation.retrieval.configs import (
    DEFAULT_BOTH,
    DEFAULT_MX,
    DEFAULT_MX_BOTH,
    DEFAULT_MX_FIT,
    PER_KB,
    PER_KB_MX,
    PLAIN,
    PLAIN_MX,
    CachedSearch,
    Config,
    first_hits,
)

Results = dict[tuple[str, str, str], list[int | None]]


@dataclass
class Scored:
    results: Results = field(default_factory=dict)  # first-hit ranks per (book, structure, config)
    latency: dict[tuple[str, str], float] = field(default_factory=dict)  # plain search ms/query per (book, structure)
    choices: dict[tuple, KbChoice] = field(default_factory=dict)  # each base's self-check: (book, structure[, "mx"])


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
        default_channels: RuleChannels | None = None, indexer=index) -> Scored:
    """first-hit ranks per (book, structure, config), and per-query search milliseconds of plain.
    Also PER_KB: each document searched with the setting its own self-check chose on its units'
    counter-examples (dualrag/retrieval/self_check.py, the book's cases never seen), over
    `default_channels` as a search would resolve it; the choices go to `choices`. `indexer`: how a
    document is indexed (`cases.index`, or a wrapper that times it).

    Two passes: every document is indexed and the learned fusion's inputs collected first, so that
    each book is then searched with weights fitted on the other books only (fusion_folds), by every
    configuration that asks for the learned fusion, the default and per-KB ones included."""
    scored = Scored()
    results, latency = scored.results, scored.latency
    samples: dict[tuple[str, str], list[fusion_folds.Sample]] = {}  # the learned fusion's inputs, per base
    samples_mx: dict[tuple[str, str], list[fusion_folds.Sample]] = {}  # the same over the bases with model examples
    configured = default_channels or RuleChannels(model_query=False)
    with open_store(store_dir) as store:
        indexed, indexed_mx = {}, {}
        for book in books:
            queries = [replace(build_rule_query(c.code, language="java"), model=model.get(c.id, ""))
                       for c in book.cases]
            for structure, document in book.documents.items():
                kb = f"{book.name}-{structure}"
                units, _, seconds = indexer(store, document, embedder.inner, sparse, kb)
                found = sum(1 for c in book.cases if any(c.anchor in squash(u.full_text()) for u in units))
                print(f"{book.name:>10} {structure:>4}: {len(units)} units, {len(book.cases)} cases "
                      f"({found} with their rule's unit found), indexed in {seconds:.1f} s", flush=True)
                choice = self_check(store, kb, embedder.inner, sparse, units=units)
                scored.choices[(book.name, structure)] = choice
                print(f"{'':>10} {'':>4}  self-check: {choice.summary()}; {choice.seconds:.1f} s", flush=True)
                cached = CachedSearch(store)
                samples[(book.name, structure)] = fusion_folds.collect(
                    RuleRetriever(cached, embedder, sparse, [kb], fusion_folds.READ), queries,
                    [c.anchor for c in book.cases], squash)
                indexed[(book.name, structure)] = (kb, units, queries, cached)
                if book.model_examples is not None:
                    kb_mx, augmented = index_with_examples(store, book, kb, units, embedder, sparse)
                    cached_mx = CachedSearch(store)
                    samples_mx[(book.name, structure)] = fusion_folds.collect(
                        RuleRetriever(cached_mx, embedder, sparse, [kb_mx], fusion_folds.READ), queries,
                        [c.anchor for c in book.cases], squash)
                    indexed_mx[(book.name, structure)] = (kb_mx, augmented, cached_mx)
        voters = {b.name for b in books if b.name != "dev" and not b.name.endswith(EXAMPLES_EDITION)}
        folds = fusion_folds.fold_results(samples, source_book, voters)
        results.update({k: v for k, v in folds.items() if fusion_folds.NESTED in k[2]})  # for choosing only
        fitted = fusion_folds.fits_without(samples, source_book, voters)
        fitted_mx = fusion_folds.fits_without(samples_mx, source_book, voters)  # on the others' bases with examples
        both = samples | {(book, f"{structure}+mx"): rows for (book, structure), rows in samples_mx.items()}
        fitted_both = fusion_folds.fits_without(both, source_book, voters) if samples_mx else {}
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
                choice = scored.choices[(book.name, structure)]
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
                                  book_configs, book_configured, queries, scored, fusion,
                                  fitted_mx.get(source_book(book.name)), fusion_both)
    return scored


def index_with_examples(store, book: Book, kb: str, units: list[RuleUnit], embedder, sparse
                        ) -> tuple[str, list[RuleUnit]]:
    """The same document indexed with the counter-examples the model wrote from each rule's text
    (evaluation/retrieval/model_examples.py, the book's examples never read), as base `<kb>-mx`."""
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
                  sparse, configs: list[Config], configured: RuleChannels, queries: list[RuleQuery], scored: Scored,
                  fusion=None, fusion_mx=None, fusion_both=None) -> None:
    """Scores the base with the model's examples (index_with_examples): PLAIN_MX is the plain two
    channels over it, DEFAULT_MX the configured setting, PER_KB_MX the setting its self-check chose on
    those model examples; DEFAULT_MX_FIT the configured setting with the learned fusion fitted on the
    other books' bases with model examples (`fusion_mx`) instead of their prose alone, DEFAULT_MX_BOTH
    fitted on both (`fusion_both`)."""
    kb_mx, augmented, cached = indexed
    results = scored.results
    choice = self_check(store, kb_mx, embedder.inner, sparse, units=augmented)
    scored.choices[(book.name, structure, "mx")] = choice
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
