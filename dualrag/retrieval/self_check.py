"""A knowledge base that carries its own violating examples chooses its rule channels on them.

The further channels (`RuleChannels`) ship in the setting that held on rule books nobody tuned
for; a book whose rules carry counter-examples can say for itself which setting finds its rules.
The self-check queries the knowledge base with each rule's first counter-example and scores
recall@1 / @5 of that rule under every setting of the grid (the one evaluation/retrieval/rules.py --grid
scores), then keeps the best recall@5 that loses no recall@1 against the plain two channels
(ties: the shipped default, then fewer channels). Fewer than `MIN_CASES` such rules: no choice,
the configured setting. The grid never reads the code centred (embedding/centroid.py): that reading
disfavours rules whose text holds code, which in such a base the right rule does too (on our books'
examples editions it cost recall), and leaving an example out would flatter it here.

Strictly leave-one-out: a rule's counter-example sits in its own indexed text (BM25 reads the
whole unit, the dense embedder its first ~192 tokens, which hold it for 60 of the dev
guideline's 66), so a self-check that could see it would find every rule by its own example.
For each case, the units holding that example (the rule, and the same rule in another edition
of the document) are searched as if the example had never been written: the stored search runs
without them, and each is scored on its text with the example removed — its dense vector
embedded again, its BM25 score computed against the base's own IDF (Qdrant's formula) — and put
back where that score ranks it; the examples channel sees them without it too.

The choice is kept in the knowledge base's collection metadata with the figures and a
fingerprint of the units it was made on; `dualrag index rules` makes it after every write, a
search makes it once when a base has none. What a user set in `[retrieval.channels]` always
wins over it (`resolve`).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from dualrag.config.retrieval import RuleChannels
from dualrag.embedding import Bm25Encoder, Embedder
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.store import RuleFilter, RuleHit, RuleStore
from dualrag.store.qdrant import dense_text, document_text
from dualrag.units import RuleUnit

MIN_CASES = 12  # rules with a counter-example a base needs before its own figures choose
MAX_CASES = 60  # a spread sample past this: bounds the time at index time (~0.25 s a case on 2 cores)
MIN_EXAMPLE_CHARS = 12  # shorter "examples" are names, not code
METADATA_KEY = "dualrag_channels"
GRID_VERSION = 3  # bump when the grid or the rule changes: stored choices are made again
FLAGS = ("constructs", "code_words", "grammar", "examples")
WEIGHTS = (0.0, 0.5)
PLAIN = "plain"
_WS = re.compile(r"\s+")


class KbChoice(BaseModel):
    """What a knowledge base's self-check chose, and on what figures."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    kb: str
    setting: dict[str, Any] | None = None  # grid keys -> values; None: the configured setting applies
    name: str = ""  # the grid name ("code_words+rel0.5"); "" without a choice
    cases: int = 0  # counter-examples queried
    figures: dict[str, list[float]] = {}  # grid name -> [recall@1, recall@5] on the self-check
    seconds: float = 0.0
    reason: str = ""
    fingerprint: str = ""
    version: int = GRID_VERSION

    def summary(self) -> str:
        if self.setting is None:
            return f"configured setting ({self.reason})"
        plain, ours = self.figures.get(PLAIN, [0, 0]), self.figures.get(self.name, [0, 0])
        return (f"{self.name} by self-check on {self.cases} counter-examples: recall@5 {ours[1]:.2f} "
                f"(plain {plain[1]:.2f}), recall@1 {ours[0]:.2f} (plain {plain[0]:.2f})")


def channel_grid() -> list[tuple[str, RuleChannels]]:
    """Plain, then every combination of the further channels and the tie-break weight (no model:
    the self-check asks none)."""
    # never the centred reading: it favours rules whose text holds no code, and leaving the example out
    # of its own rule leaves that rule the only one without, so its figure would be inflated here. A
    # base that carries examples is searched without it (its right rule holds code too:
    # docs/evaluation/rule-retrieval.md), and so by reciprocal ranks (the learned fusion reads the
    # centred channel: learned_fusion.py)
    off = dict.fromkeys(FLAGS, False) | {"relevance_weight": 0.0, "model_query": False, "centred": False,
                                         "fusion": "rrf"}
    grid = [(PLAIN, RuleChannels(**off))]
    for values in itertools.product((False, True), repeat=len(FLAGS)):
        for weight in WEIGHTS:
            on = [f for f, v in zip(FLAGS, values, strict=True) if v]
            if not on and not weight:
                continue
            name = "+".join(on + ([f"rel{weight}"] if weight else []))
            grid.append((name, RuleChannels(**off | dict(zip(FLAGS, values, strict=True)) | {"relevance_weight": weight})))
    return grid


def size(channels: RuleChannels) -> int:
    """How many further channels a setting switches on (the tie-break counts as one)."""
    return sum(bool(getattr(channels, f)) for f in FLAGS) + (channels.relevance_weight > 0)


def setting_of(channels: RuleChannels) -> dict[str, Any]:
    return {f: getattr(channels, f) for f in (*FLAGS, "centred", "relevance_weight")}


def resolve(configured: RuleChannels, choice: KbChoice | None) -> RuleChannels:
    """The setting a knowledge base is searched with: its self-check's choice, except every key the
    user set in `[retrieval.channels]`, which wins."""
    if choice is None or choice.setting is None:
        return configured
    chosen = {k: v for k, v in choice.setting.items() if k not in configured.model_fields_set}
    return configured.model_copy(update=chosen)


# ------------------------------------------------------------------------------------ storage

def read_choice(store: RuleStore, kb: str) -> KbChoice | None:
    """The choice stored with the knowledge base, or None (none made, or by another grid)."""
    try:
        raw = (store.client.get_collection(store.collection(kb)).config.metadata or {}).get(METADATA_KEY)
        choice = KbChoice.model_validate(raw) if raw else None
    except ValidationError:  # a foreign or damaged value: make the choice again
        return None
    return choice if choice is not None and choice.version == GRID_VERSION else None


def write_choice(store: RuleStore, choice: KbChoice) -> None:
    store.client.update_collection(store.collection(choice.kb), metadata={METADATA_KEY: choice.model_dump()})


def fingerprint(units: Sequence[RuleUnit], embedder: Embedder, sparse: Bm25Encoder) -> str:
    digest = hashlib.sha256(f"{GRID_VERSION}:{embedder.name}:{sparse.name}".encode())
    for content in sorted(u.content_hash for u in units):
        digest.update(content.encode())
    return digest.hexdigest()


def ensure_choice(store: RuleStore, kb: str, embedder: Embedder, sparse: Bm25Encoder) -> KbChoice:
    """The stored choice when it was made on these units, else a new self-check, stored."""
    units = store.units(kb)
    mark = fingerprint(units, embedder, sparse)
    stored = read_choice(store, kb)
    if stored is not None and stored.fingerprint == mark:
        return stored
    choice = self_check(store, kb, embedder, sparse, units=units).model_copy(update={"fingerprint": mark})
    write_choice(store, choice)
    return choice


# ---------------------------------------------------------------------------------- self-check

def squash(text: str) -> str:
    return _WS.sub("", text)


def cases_of(units: Sequence[RuleUnit]) -> list[tuple[str, str, frozenset[str]]]:
    """(example, language, point ids of every unit holding it): each rule's first counter-example
    once, however many editions of the rule the base holds."""
    holders: dict[str, set[str]] = {}
    first: dict[str, tuple[str, str]] = {}
    for unit in units:
        # the document's examples only: a model's example, written from the rule's own words, finds
        # its rule more easily than code does and chose worse settings (docs/evaluation/rule-retrieval.md,
        # model examples)
        for example in unit.bad_examples:
            if len(example.strip()) >= MIN_EXAMPLE_CHARS:
                holders.setdefault(squash(example), set()).add(unit.point_id)
        examples = [e for e in unit.bad_examples if len(e.strip()) >= MIN_EXAMPLE_CHARS]
        if examples and squash(examples[0]) not in first:
            first[squash(examples[0])] = (examples[0], unit.languages[0] if unit.languages else "java")
    return [(example, language, frozenset(holders[key])) for key, (example, language) in first.items()]


def spread(items: list, limit: int) -> list:
    if len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


def self_check(store: RuleStore, kb: str, embedder: Embedder, sparse: Bm25Encoder, *,
               units: Sequence[RuleUnit] | None = None, grid: list[tuple[str, RuleChannels]] | None = None
               ) -> KbChoice:
    """Score every setting of `grid` on the base's own counter-examples, leave-one-out; choose."""
    start = time.perf_counter()
    units = list(store.units(kb) if units is None else units)
    cases = spread(cases_of(units), MAX_CASES)
    if len(cases) < MIN_CASES:
        return KbChoice(kb=kb, cases=len(cases), seconds=time.perf_counter() - start,
                        reason=f"{len(cases)} rules with a counter-example, fewer than {MIN_CASES}")
    grid = grid or channel_grid()
    by_id = {u.point_id: u for u in units}
    idf = _idf(units, sparse)
    query_embedder = _CachedEmbedder(embedder)
    firsts: dict[str, list[int | None]] = {name: [] for name, _ in grid}
    for example, language, owners in cases:
        held = _stripped([by_id[p] for p in owners if p in by_id], example, embedder, sparse,
                         lambda ids: store.dense_vectors(kb, ids))
        view = HeldOut(store, held, idf)
        # read as `language`, searched over the whole base (a language filter scans every payload)
        query = replace(build_rule_query(example, language=language), languages=())
        for name, channels in grid:
            hits = RuleRetriever(view, query_embedder, sparse, [kb], channels).retrieve(query, top_k=5)
            firsts[name].append(next((i + 1 for i, h in enumerate(hits) if h.unit.point_id in owners), None))
    recall = {name: [round(_recall(f, 1), 4), round(_recall(f, 5), 4)] for name, f in firsts.items()}
    best = choose(recall, grid)
    return KbChoice(kb=kb, setting=setting_of(dict(grid)[best]), name=best, cases=len(cases), figures=recall,
                    seconds=round(time.perf_counter() - start, 2), reason="self-check")


def choose(recall: dict[str, list[float]], grid: list[tuple[str, RuleChannels]]) -> str:
    """The best recall@5 among the settings that keep plain's recall@1; ties: the shipped default
    (it held on books nobody tuned for, a base's own sample of 12-60 examples ties often), then fewer
    channels, then the earlier in the grid."""
    order = {name: i for i, (name, _) in enumerate(grid)}
    shipped = setting_of(RuleChannels(centred=False))  # as the grid reads it
    eligible = [(name, c) for name, c in grid if recall[name][0] >= recall[PLAIN][0] - 1e-9]
    return max(eligible, key=lambda nc: (round(recall[nc[0]][1], 9), setting_of(nc[1]) == shipped, -size(nc[1]),
                                         -order[nc[0]]))[0]


def _recall(firsts: list[int | None], k: int) -> float:
    return sum(1 for f in firsts if f and f <= k) / max(1, len(firsts))


class _Held:
    """A unit as it reads with the query's example taken out: its dense vector and BM25 weights."""

    def __init__(self, unit: RuleUnit, vector: np.ndarray, weights: dict[int, float]):
        self.unit, self.vector, self.weights = unit, vector, weights


def strip_example(unit: RuleUnit, example: str) -> RuleUnit:
    """The unit without `example` anywhere: out of its counter-examples and out of its text."""
    key = squash(example)
    text = unit.text
    if key and key in squash(text):  # a document that left the code in the prose
        text = _remove_squashed(text, key)
    return unit.model_copy(update={"bad_examples": [e for e in unit.bad_examples if squash(e) != key], "text": text})


def _remove_squashed(text: str, key: str) -> str:
    """`text` without the span whose whitespace-free form is `key`."""
    pattern = r"\s*".join(re.escape(ch) for ch in key)
    return re.sub(pattern, " ", text, count=1)


def _stripped(units: list[RuleUnit], example: str, embedder: Embedder, sparse: Bm25Encoder,
              stored: Callable[[list[str]], dict[str, np.ndarray]]) -> dict[str, _Held]:
    """The held units' vectors and weights without `example`. A unit whose dense text does not
    change without it (the example lay past the dense cut: 28 of 60 on the 200-page examples
    book) keeps its stored vector, `stored(point ids)`: the same text, so the same vector."""
    stripped = [strip_example(u, example) for u in units]
    if not stripped:
        return {}
    texts = [dense_text(u) for u in stripped]
    same = [s.point_id for s, u, text in zip(stripped, units, texts, strict=True) if text == dense_text(u)]
    kept = stored(same) if same else {}
    fresh = [i for i, s in enumerate(stripped) if s.point_id not in kept]
    embedded = np.asarray(embedder.embed_documents([texts[i] for i in fresh]), dtype=np.float32) if fresh else []
    vectors = [kept.get(s.point_id) for s in stripped]
    for i, vector in zip(fresh, embedded, strict=True):
        vectors[i] = vector
    out = {}
    for unit, vector in zip(stripped, vectors, strict=True):
        doc = sparse.encode_document(document_text(unit))
        out[unit.point_id] = _Held(unit, _unit_length(vector), dict(zip(doc.indices, doc.values, strict=True)))
    return out


def _idf(units: Sequence[RuleUnit], sparse: Bm25Encoder) -> dict[int, float]:
    """Qdrant's IDF (`modifier=IDF`) over the base: ln((N - df + 0.5) / (df + 0.5) + 1)."""
    df = Counter(i for u in units for i in set(sparse.encode_document(document_text(u)).indices))
    n = len(units)
    return {i: math.log((n - d + 0.5) / (d + 0.5) + 1) for i, d in df.items()}


def _unit_length(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


class HeldOut:
    """The store as one case's searches see it: the units holding the query's example are taken
    out of every stored ranking and put back scored on their text without it. Searches are
    remembered, so the grid's settings share them."""

    def __init__(self, store: RuleStore, held: dict[str, _Held], idf: dict[int, float]):
        self.store, self.held, self.idf = store, held, idf
        self.memo: dict[tuple, list[RuleHit]] = {}

    def search_dense(self, kb: str, vector, rule_filter: RuleFilter | None = None, limit: int = 10) -> list[RuleHit]:
        query = np.asarray(vector, dtype=np.float32)
        key = ("d", kb, query.tobytes(), limit)
        if key not in self.memo:
            hits = self.store.search_dense(kb, query, rule_filter, limit + len(self.held))
            put_back = [(h.unit, float(np.dot(_unit_length(query), h.vector))) for h in self.held.values()]
            self.memo[key] = self._merge(hits, put_back, limit)
        return self.memo[key]

    def search_sparse(self, kb: str, vector, rule_filter: RuleFilter | None = None, limit: int = 10) -> list[RuleHit]:
        key = ("s", kb, tuple(vector.indices), tuple(vector.values), limit)
        if key not in self.memo:
            hits = self.store.search_sparse(kb, vector, rule_filter, limit + len(self.held))
            query = dict(zip(vector.indices, vector.values, strict=True))
            put_back = [(h.unit, sum(w * self.idf.get(i, 0.0) * h.weights[i] for i, w in query.items()
                                     if i in h.weights)) for h in self.held.values()]
            self.memo[key] = self._merge(hits, [(u, s) for u, s in put_back if s > 0], limit)
        return self.memo[key]

    def _merge(self, hits: list[RuleHit], put_back: list[tuple[RuleUnit, float]], limit: int) -> list[RuleHit]:
        scored = [(h.unit, float(h.score), h.point_id) for h in hits if h.point_id not in self.held]
        scored += [(unit, score, unit.point_id) for unit, score in put_back]
        scored.sort(key=lambda item: -item[1])
        return [RuleHit(unit=u, score=s, rank=r, point_id=p) for r, (u, s, p) in enumerate(scored[:limit], start=1)]

    def __getattr__(self, item):
        return getattr(self.store, item)


class _CachedEmbedder:
    """The embedder with a memory of its queries: every setting searches the same texts."""

    def __init__(self, inner: Embedder):
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.embed_query = lru_cache(maxsize=4096)(inner.embed_query)

    def embed_documents(self, texts):
        return self.inner.embed_documents(texts)
