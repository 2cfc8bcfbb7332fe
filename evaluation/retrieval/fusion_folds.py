"""The learned fusion (dualrag/retrieval/learned_fusion.py) scored leave one book out.

For every case of every book and structure, the channels the learned fusion reads are searched once
(`collect`: candidates, their features, which of them is the case's rule). A book is then scored with
weights fitted on the *other* books' cases only (never the dev guideline's, never another edition of
the same book): `fold_results`. For choosing between configurations without the book being scored,
each book is also scored with weights fitted without it *and* without the book a choice is made for
(`NESTED`), so that a choice for book X never rests on weights fitted on X.
evaluation/tools/train_fusion.py fits the shipped weights on all the books with the same `collect`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from dualrag.config.retrieval import RuleChannels
from dualrag.retrieval.learned_fusion import CHANNELS, LearnedFusion, feature_matrix, fit
from dualrag.retrieval.query import RuleQuery
from dualrag.retrieval.rules import RuleRetriever

LEARNED = "code_words+centred+learned"
# the channels the fit reads, searched as the retriever searches them when the fusion is on
# (the shipped default without a model: its `fusion = "auto"` is the learned fusion then)
READ = RuleChannels(code_words=True, centred=True, model_query=False)
NESTED = "|without:"  # results key suffix: fitted without the scored book and this one


@dataclass(frozen=True)
class Sample:
    matrix: np.ndarray  # candidates x features (learned_fusion.feature_matrix)
    hits: tuple[bool, ...]  # per candidate: is it the case's rule


def collect(retriever: RuleRetriever, queries: Sequence[RuleQuery], anchors: Sequence[str],
            squash) -> list[Sample]:
    """One sample per case: the candidates of the fitted channels over the retriever's one base."""
    samples = []
    for query, anchor in zip(queries, anchors, strict=True):
        per_kb, units = retriever.candidates(query)
        channels = [c for cs in per_kb.values() for c in cs]
        keys, matrix = feature_matrix(channels, CHANNELS)
        samples.append(Sample(matrix, tuple(anchor in squash(units[k].full_text()) for k in keys)))
    return samples


def fit_on(samples: Iterable[Sample], trained_on: str = "") -> LearnedFusion:
    """Fitted on the samples whose rule some channel returned (the first such candidate the target)."""
    usable = [(s.matrix, s.hits.index(True)) for s in samples if True in s.hits]
    return fit(usable, trained_on=trained_on)


def first_hits(fusion: LearnedFusion, samples: Sequence[Sample], depth: int = 10) -> list[int | None]:
    out = []
    for sample in samples:
        order = np.argsort(-fusion.scores(sample.matrix), kind="stable")[:depth]
        out.append(next((rank for rank, i in enumerate(order, start=1) if sample.hits[i]), None))
    return out


def _fitted(samples: dict[tuple[str, str], list[Sample]], source_of, voters: set[str],
            excluded: frozenset[str]) -> LearnedFusion | None:
    chosen = [s for (book, _), rows in samples.items()
              if book in voters and source_of(book) not in excluded for s in rows]
    return fit_on(chosen) if any(True in s.hits for s in chosen) else None


def fits_without(samples: dict[tuple[str, str], list[Sample]], source_of, voters: set[str]
                 ) -> dict[str, LearnedFusion]:
    """Per source book: weights fitted on the `voters` books other than it (all their structures)."""
    sources = {source_of(book) for book, _ in samples}
    fits = {source: _fitted(samples, source_of, voters, frozenset({source})) for source in sources}
    return {source: fusion for source, fusion in fits.items() if fusion is not None}


def fold_results(samples: dict[tuple[str, str], list[Sample]], source_of, voters: set[str]
                 ) -> dict[tuple[str, str, str], list[int | None]]:
    """First-hit ranks of LEARNED per (book, structure) fitted without that book and without each
    other book X in turn (key LEARNED + NESTED + X): what a choice made for X may look at."""
    results: dict[tuple[str, str, str], list[int | None]] = {}
    books = {book for book, _ in samples}
    fits: dict[frozenset[str], LearnedFusion | None] = {}
    for (book, structure), rows in samples.items():
        for other in books - {book}:
            excluded = frozenset({source_of(book), source_of(other)})
            if excluded not in fits:
                fits[excluded] = _fitted(samples, source_of, voters, excluded)
            if fits[excluded] is not None:
                results[(book, structure, LEARNED + NESTED + other)] = first_hits(fits[excluded], rows)
    return results
