"""The rule retriever: for a piece of changed code, the few rules it concerns.

Hybrid search over every configured knowledge base. Two plain channels per knowledge base are
always there at full weight: the dense embedder reads the code, BM25 reads the code as written
(identifiers split). Further channels (query.py: construct names, code words, the grammar's
names, a model's rule-language query; the code once more, read from the mean of ordinary code
in its language, embedding/centroid.py; the rules whose own counter-examples show the same
constructs) are added only where `RuleChannels` switches them on. The candidates are ordered by
weights fitted on rule books nobody tuned for (learned_fusion.py: each channel's rank and margin,
chosen leaving one book out) where every channel those weights read was searched, else by
reciprocal-rank fusion, which needs no score scale to be comparable with another; by default
(`fusion = "auto"`) a query carrying the model's answer is fused by reciprocal ranks too: the
weights were fitted without it, and with it reciprocal ranks did better on every book.

Ranks say nothing about whether the best rule is any good, though: every query has a first
hit. Each candidate therefore also gets a `relevance` that is comparable across queries (see
`relevance`), which the context step holds against a floor when no cross-encoder is there to
judge (context.py, RetrievalConfig.rule_floor).

A team's knowledge bases are ranked on their own; the bundled rules only fill what is left
(`retrieve(..., fill=...)`): rules we wrote for everyone must not push a team's own rule out.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

import numpy as np

from dualrag.config.retrieval import RuleChannels
from dualrag.embedding import Bm25Encoder, Embedder
from dualrag.embedding.centroid import centred, code_centroid
from dualrag.embedding.precomputed import identity
from dualrag.retrieval import learned_fusion
from dualrag.retrieval.concepts import matching_terms
from dualrag.retrieval.fusion import rrf
from dualrag.retrieval.learned_fusion import LearnedFusion
from dualrag.retrieval.query import RuleQuery
from dualrag.store import RuleFilter, RuleHit, RuleStore
from dualrag.units import RuleUnit

Mode = Literal["hybrid", "dense", "sparse"]
DEPTH = 30  # candidates per channel before fusion; the score at this depth is the channel's tail
# One BM25 point weighs a hundredth of a cosine: a matched rare code word (IDF ~5, term part ~1-2)
# then counts about as much as a cosine 0.05-0.1 above the tail, where relevant rules sit.
BM25_SCALE = 100.0


@dataclass(frozen=True)
class RetrievedRule:
    unit: RuleUnit
    score: float  # fused score (RRF + relevance_weight x relevance): orders one result list
    rank: int  # 1-based
    relevance: float = 0.0  # comparable across queries (see `relevance`); what the floor is held against


@dataclass(frozen=True)
class Channel:
    """One ranking of one knowledge base: keys best first with their raw scores, and its tail."""

    kind: Literal["dense", "sparse", "examples", "centred"]
    scores: dict[str, float]  # insertion order = rank order
    tail: float  # the score a rule at the channel's depth gets: the level "any rule" reaches
    reading: str = "code"  # what was searched: code, words, constructs, grammar, model

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.reading}"

    def margin(self, key: str) -> float:
        """How far above the tail the rule scores here; 0 when the channel did not find it."""
        return max(0.0, self.scores[key] - self.tail) if key in self.scores else 0.0


def relevance(key: str, channels: Iterable[Channel]) -> float:
    """Evidence that a rule concerns the code, on one scale for every query.

    A raw cosine is not comparable across queries (e5 puts some queries near 0.85 with every
    rule, others near 0.75), nor is a raw BM25 score (a long query scores every rule higher).
    Both are measured from the channel's own tail instead: the best dense margin (construct
    names or code) plus the BM25 margin scaled by `BM25_SCALE`. The examples and centred channels
    only reorder: they add nothing here, so the floor calibrated on this relevance keeps its meaning
    (a centred query's cosines sit on another scale)."""
    dense = sparse = 0.0
    for channel in channels:
        if channel.kind == "dense":
            dense = max(dense, channel.margin(key))
        elif channel.kind == "sparse":
            sparse = max(sparse, channel.margin(key))
    return dense + sparse / BM25_SCALE


class RuleRetriever:
    def __init__(self, store: RuleStore, embedder: Embedder, sparse: Bm25Encoder, kbs: Sequence[str],
                 channels: RuleChannels | None = None, *, fill: Sequence[str] = (),
                 kb_channels: Mapping[str, RuleChannels] | None = None, fusion: LearnedFusion | None = None):
        """`kbs` are ranked together; `fill` knowledge bases (the bundled rules next to a team's)
        are ranked on their own and only fill the places the others leave. `kb_channels`: a
        knowledge base's own setting (self_check.py); `channels` for the others. `fusion`: learned
        weights to use where a setting asks for them (default: the shipped ones for this embedder)."""
        self.store = store
        self.embedder = embedder
        self.sparse = sparse
        self.kbs = [kb for kb in kbs if kb not in fill] or list(kbs)
        self.fill = [kb for kb in fill if kb in kbs] if len(self.kbs) < len(kbs) else []
        self.channels = channels or RuleChannels()
        self.kb_channels = dict(kb_channels or {})
        self.fusion = fusion  # None: the shipped one, looked up when a setting asks for it
        self._vectors: dict[str, np.ndarray] = {}

    def _vector(self, text: str) -> np.ndarray:
        """A query text's embedding, kept for the next searches: every base, and the plain and
        centred readings of the code, take the same vector (embedding is most of a search's time)."""
        vector = self._vectors.get(text)
        if vector is None:
            if len(self._vectors) >= 64:
                self._vectors.clear()
            vector = self._vectors[text] = self.embedder.embed_query(text)
        return vector

    def setting(self, kbs: Sequence[str]) -> RuleChannels:
        """The one setting knowledge bases ranked together are searched with: fused by rank, a base
        searched by more channels would collect more of the fused score. Their own when they agree,
        else that of the first listed base that has one of its own."""
        own = [self.kb_channels[kb] for kb in kbs if kb in self.kb_channels]
        return own[0] if own else self.channels

    def retrieve(self, query: RuleQuery, *, top_k: int = 10, mode: Mode = "hybrid") -> list[RetrievedRule]:
        """The best `top_k` of the ranked knowledge bases, then (with `fill`) the best `top_k` of
        the fill ones, scored below every ranked rule: they take only the places that the ranked
        rules leave once the floor and the caps have had their say."""
        ranked = self._ranked(self.kbs, query, top_k, mode)
        if self.fill:
            extra = self._ranked(self.fill, query, top_k, mode)
            if ranked and extra:
                ceiling, top = min(h.score for h in ranked), max(h.score for h in extra)
                extra = [replace(h, score=0.99 * ceiling * h.score / top) for h in extra]
            ranked += extra
        return [replace(hit, rank=rank) for rank, hit in enumerate(ranked, start=1)]

    def _ranked(self, kbs: list[str], query: RuleQuery, top_k: int, mode: Mode) -> list[RetrievedRule]:
        if not kbs:
            return []
        rule_filter = _filter(query)
        units: dict[str, RuleUnit] = {}
        on = self.setting(kbs)
        per_kb = {kb: self._channels(kb, query, mode, rule_filter, units, on) for kb in kbs}
        extra = []
        if mode == "hybrid" and on.examples and query.concepts:  # over every base's candidates
            extra.append(example_channel(query, units))
        channels = [c for c in [*(c for cs in per_kb.values() for c in cs), *extra] if c.scores]
        fusion = self._fusion() if mode == "hybrid" and on.learned_for(bool(query.model)) else None
        if fusion is not None and all(fusion.covers(c.name for c in cs) for cs in per_kb.values()):
            fused = self._learned(fusion, per_kb, [c for c in channels if c.name not in fusion.channels])
            weight = 0.0  # the margins are among its inputs
        else:
            fused = rrf([list(c.scores) for c in channels])
            weight = on.relevance_weight
        scored = [(key, score + weight * rel, rel) for key, score in fused for rel in [relevance(key, channels)]]
        scored.sort(key=lambda item: -item[1])
        return [RetrievedRule(units[key], score, rank, rel)
                for rank, (key, score, rel) in enumerate(scored[:top_k], start=1)]

    def _fusion(self) -> LearnedFusion | None:
        if self.fusion is None:
            self.fusion = learned_fusion.shipped(identity(self.embedder), self.sparse.name)
        return self.fusion

    @staticmethod
    def _learned(fusion: LearnedFusion, per_kb: Mapping[str, list[Channel]], rest: list[Channel]
                 ) -> list[tuple[str, float]]:
        """The learned order of every base's candidates (one model: their scores compare), then the
        channels it was not fitted on by reciprocal rank, the learned order counting as many channels
        as it reads."""
        learned = sorted((pair for cs in per_kb.values() for pair in fusion.order(cs)), key=lambda pair: -pair[1])
        return rrf([[key for key, _ in learned], *(list(c.scores) for c in rest)],
                   weights=[float(len(fusion.channels))] + [1.0] * len(rest))

    def candidates(self, query: RuleQuery) -> tuple[dict[str, list[Channel]], dict[str, RuleUnit]]:
        """Every ranked base's channels for the query (before fusion) and the units they found:
        what evaluation/tools/train_fusion.py fits the learned fusion on."""
        rule_filter = _filter(query)
        units: dict[str, RuleUnit] = {}
        on = self.setting(self.kbs)
        return {kb: self._channels(kb, query, "hybrid", rule_filter, units, on) for kb in self.kbs}, units

    def _channels(self, kb: str, query: RuleQuery, mode: Mode, rule_filter: RuleFilter,
                  units: dict[str, RuleUnit], on: RuleChannels) -> list[Channel]:
        dense_texts: dict[str, list[str]] = {"code": list(query.code)}  # the plain dense channel first
        sparse_texts = {"code": query.raw or "\n".join(query.code)}  # the plain BM25 channel first
        if on.constructs and query.concept_text:
            dense_texts["constructs"] = [query.concept_text]
            sparse_texts["constructs"] = query.concept_text.replace(";", " ")
        if on.code_words:
            sparse_texts["words"] = query.code_words
        if on.grammar and query.grammar:
            dense_texts["grammar"] = [query.grammar]
            sparse_texts["grammar"] = query.grammar.replace(";", " ")
        if on.model_query and query.model:
            dense_texts["model"] = [query.model]
            sparse_texts["model"] = query.model
        channels = []
        if mode in ("hybrid", "dense"):
            channels += [self._dense(kb, texts, rule_filter, units, reading=reading)
                         for reading, texts in dense_texts.items() if any(texts)]
            centroid = code_centroid(self.embedder, query.language) if on.centred and mode == "hybrid" else None
            if centroid is not None and any(query.code):
                channels.append(self._dense(kb, list(query.code), rule_filter, units, centroid=centroid))
        if mode in ("hybrid", "sparse"):
            for reading, text in sparse_texts.items():
                # a searched reading with no words is an empty channel, not a missing one: the
                # learned fusion reads "not found by it" the same either way
                hits = self.store.search_sparse(kb, self.sparse.encode_query(text), rule_filter, DEPTH) \
                    if text.strip() else []
                scores = _collect(hits, units)
                channels.append(Channel("sparse", scores, _tail(scores, fewer=0.0), reading))
        return channels

    def _dense(self, kb: str, texts: list[str], rule_filter: RuleFilter, units: dict[str, RuleUnit],
               centroid: np.ndarray | None = None, reading: str = "code") -> Channel:
        """One dense channel of several texts (the windows of a long change): a rule's score is
        its best cosine with any of them. With `centroid`, each text is read from there (centred)."""
        best: dict[str, float] = {}
        for text in texts:
            if not text:
                continue
            vector = self._vector(text)
            if centroid is not None:
                vector = centred(vector, centroid)
            for key, score in _collect(self.store.search_dense(kb, vector, rule_filter, DEPTH), units).items():
                best[key] = max(score, best.get(key, score))
        scores = dict(sorted(best.items(), key=lambda pair: -pair[1]))
        return Channel("centred" if centroid is not None else "dense", scores,
                       _tail(scores, fewer=min(scores.values(), default=0.0)), reading)


def _filter(query: RuleQuery) -> RuleFilter:
    return RuleFilter(project_type=query.project_type, languages=list(query.languages), domains=list(query.domains))


def _collect(hits: Iterable[RuleHit], units: dict[str, RuleUnit]) -> dict[str, float]:
    scores: dict[str, float] = {}
    for hit in hits:
        key = hit.unit.point_id  # kb, document and id: two documents may share a rule id
        units.setdefault(key, hit.unit)
        scores.setdefault(key, float(hit.score))
    return scores


def _tail(scores: dict[str, float], *, fewer: float) -> float:
    """The score at DEPTH; `fewer` when the channel returned fewer rules than that (BM25: 0,
    the rules it did not return share no word; dense: the lowest cosine, the whole base was read)."""
    values = list(scores.values())
    return values[DEPTH - 1] if len(values) >= DEPTH else fewer


def example_channel(query: RuleQuery, units: dict[str, RuleUnit]) -> Channel:
    """The candidates whose own counter-examples show the constructs the code shows.

    The document's examples are read with the same construct detectors as the code (concepts.py),
    so a rule is linked to a construct by what its own counter-example does, not by a table
    written for it. Scored by a weighted overlap of the two construct sets, each construct
    weighed by its rarity among the candidates' counter-examples (a loop shown by half of them
    says little); a ranking for the fusion only: it adds no relevance, so the calibrated floor
    means what it meant."""
    language = query.languages[0] if query.languages else "java"
    shown = set(query.concepts)
    found = {key: example_constructs(unit, language) for key, unit in units.items()}
    frequency = Counter(name for names in found.values() for name in names)
    weight = {name: math.log(1 + len(found) / count) for name, count in frequency.items()}
    scores = {}
    for key, names in found.items():
        shared = shown & names
        if shared:
            scores[key] = sum(weight[n] for n in shared) / sum(weight.get(n, 1.0) for n in shown | names)
    return Channel("examples", dict(sorted(scores.items(), key=lambda pair: -pair[1])), 0.0, "constructs")


def example_constructs(unit: RuleUnit, language: str) -> frozenset[str]:
    """Names of the constructs the rule's counter-examples show."""
    return _constructs(tuple(unit.counter_examples), language)


@lru_cache(maxsize=8192)
def _constructs(examples: tuple[str, ...], language: str) -> frozenset[str]:
    return frozenset(name for example in examples for name, _ in matching_terms(example, language))
