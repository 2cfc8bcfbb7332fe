"""The settings of rule retrieval evaluation/retrieval/rules.py scores side by side, and what makes
scoring many of them cheap: every configuration reads the same code windows and searches the same
channels, so each distinct embedding and search is done once (`CachedEmbedder`, `CachedSearch`)."""

from __future__ import annotations

from functools import lru_cache

from dualrag.config.retrieval import RuleChannels
from dualrag.retrieval.query import RuleQuery
from dualrag.retrieval.rules import Mode, RuleRetriever
from dualrag.retrieval.self_check import channel_grid
from evaluation.core.baselines import CHANNELS
from evaluation.core.baselines import PLAIN as PLAIN_CHANNELS
from evaluation.core.scoring import first_hit, squash
from evaluation.retrieval.cases import Case

# the rows a run scores besides the grid (names of results keys)
PLAIN = "plain"
PER_KB = "per-kb"
PLAIN_MX = "plain+model-examples"
PER_KB_MX = "per-kb+model-examples"
DEFAULT_MX = "default+model-examples"
DEFAULT_MX_FIT = "default+model-examples, fitted with examples"
DEFAULT_MX_BOTH = "default+model-examples, fitted on both"
DEFAULT_BOTH = "default, fitted on both"  # the prose base, weights fitted on the others' prose and examples bases
Config = tuple[str, RuleChannels]


def grid(full: bool) -> list[Config]:
    """The plain hybrid and the settings of the further channels. --grid tries every combination;
    without it, plain, each channel alone on top of plain, and all of them together."""
    if full:  # the grid a knowledge base's self-check scores too
        return channel_grid()

    def on(**switches) -> RuleChannels:
        return PLAIN_CHANNELS.model_copy(update=switches)

    configs: list[Config] = [(PLAIN, PLAIN_CHANNELS)]
    configs += [(f, on(**{f: True})) for f in CHANNELS]
    configs.append(("rel0.5", on(relevance_weight=0.5)))
    configs.append(("code_words+rel0.5", on(code_words=True, relevance_weight=0.5)))
    configs.append(("code_words+rel0.5+centred", on(code_words=True, relevance_weight=0.5, centred=True)))
    configs.append(("all", on(**dict.fromkeys(CHANNELS, True), relevance_weight=0.5)))
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
    """Each case's first hit among the top 10 the retriever returns for its query."""
    return [first_hit(case.anchor, (squash(h.unit.full_text()) for h in retriever.retrieve(query, top_k=10, mode=mode)))
            for query, case in zip(queries, cases, strict=True)]
