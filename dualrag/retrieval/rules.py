"""The rule retriever: for a piece of changed code, the few rules it concerns.

Hybrid search over every configured knowledge base: the dense embedder reads the code and
the guideline vocabulary of its constructs; BM25 reads identifiers, called APIs and the
same vocabulary. Each (query, side, knowledge base) gives one ranking; reciprocal-rank
fusion merges them, so no score scale has to be comparable with another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from dualrag.embedding import Bm25Encoder, Embedder
from dualrag.retrieval.fusion import rrf
from dualrag.retrieval.query import RuleQuery
from dualrag.store import RuleFilter, RuleStore
from dualrag.units import RuleUnit

Mode = Literal["hybrid", "dense", "sparse"]
_DEPTH = 30  # candidates per ranking before fusion


@dataclass(frozen=True)
class RetrievedRule:
    unit: RuleUnit
    score: float  # fused score (RRF) — comparable only within one result list
    rank: int  # 1-based


class RuleRetriever:
    def __init__(self, store: RuleStore, embedder: Embedder, sparse: Bm25Encoder, kbs: Sequence[str]):
        self.store = store
        self.embedder = embedder
        self.sparse = sparse
        self.kbs = list(kbs)

    def retrieve(self, query: RuleQuery, *, top_k: int = 10, mode: Mode = "hybrid") -> list[RetrievedRule]:
        if not self.kbs:
            return []
        rule_filter = RuleFilter(
            project_type=query.project_type, languages=list(query.languages), domains=list(query.domains)
        )
        rankings: list[list[str]] = []
        units: dict[str, RuleUnit] = {}
        if mode in ("hybrid", "dense"):
            vectors = [self.embedder.embed_query(text) for text in query.dense if text.strip()]
            for kb in self.kbs:
                for vector in vectors:
                    rankings.append(self._collect(self.store.search_dense(kb, vector, rule_filter, _DEPTH), units))
        if mode in ("hybrid", "sparse") and query.sparse.strip():
            sparse_vector = self.sparse.encode_query(query.sparse)
            for kb in self.kbs:
                rankings.append(self._collect(self.store.search_sparse(kb, sparse_vector, rule_filter, _DEPTH), units))
        fused = rrf(rankings)[:top_k]
        return [RetrievedRule(units[key], score, rank) for rank, (key, score) in enumerate(fused, start=1)]

    @staticmethod
    def _collect(hits, units: dict[str, RuleUnit]) -> list[str]:
        keys = []
        for hit in hits:
            key = f"{hit.unit.source.kb}:{hit.unit.rule_id}"
            units.setdefault(key, hit.unit)
            keys.append(key)
        return keys
