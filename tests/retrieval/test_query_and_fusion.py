"""Deterministic rule queries and reciprocal-rank fusion."""

from __future__ import annotations

from dualrag.retrieval.concepts import EDI_CONCEPTS, JAVA_CONCEPTS, matching_terms
from dualrag.retrieval.fusion import RRF_K, rrf
from dualrag.retrieval.query import build_rule_query

CODE = """
private static final SimpleDateFormat FMT = new SimpleDateFormat("YYYY-MM-dd");
ExecutorService pool = Executors.newFixedThreadPool(4);
"""


def test_same_code_gives_the_same_query():
    assert build_rule_query(CODE) == build_rule_query(CODE)


def test_sparse_query_holds_calls_types_words_and_guideline_vocabulary():
    query = build_rule_query(CODE)
    words = query.sparse.split()
    assert "Executors.newFixedThreadPool" in words
    assert "SimpleDateFormat" in words
    assert {"fixed", "thread", "pool"} <= set(words)  # identifiers split into words
    assert {"simpledateformat", "executors"} & set(query.concepts) or "executors" in query.concepts
    assert "线程池" in query.sparse  # the construct's name in the guideline's own language


def test_dense_reads_vocabulary_when_a_construct_is_known_and_code_otherwise():
    known = build_rule_query(CODE)
    assert len(known.dense) == 1 and "thread pool" in known.dense[0]
    plain = build_rule_query("int total = a + b;")
    assert plain.concepts == () or plain.dense[0] != "int total = a + b;"
    unknown = build_rule_query("zzz qqq")
    assert unknown.dense == ("zzz qqq",)


def test_query_carries_filters():
    query = build_rule_query(CODE, language="java", project_type="java", domains=("wms",))
    assert (query.project_type, query.languages, query.domains) == ("java", ("java",), ("wms",))


def test_every_concept_pattern_matches_something_it_names():
    """Each concept's regex must compile and be selective: not match an empty file."""
    for concept in JAVA_CONCEPTS + EDI_CONCEPTS:
        assert not concept.pattern.search(""), concept.name


def test_edi_files_use_edi_vocabulary():
    names = [name for name, _ in matching_terms('<map to="order.currency" expr="lookup(x)"/>', "edi-dt")]
    assert "edi-expression" in names
    assert all(not name.startswith("java") for name in names)


def test_rrf_rewards_agreement_between_rankings():
    fused = dict(rrf([["a", "b", "c"], ["b", "a", "d"], ["b", "x"]]))
    assert max(fused, key=fused.get) == "b"
    assert fused["b"] == 1 / (RRF_K + 2) + 1 / (RRF_K + 1) + 1 / (RRF_K + 1)
    assert fused["d"] < fused["c"] or fused["d"] == 1 / (RRF_K + 3)


def test_rrf_weights_scale_a_ranking():
    plain = dict(rrf([["a"], ["b"]]))
    weighted = dict(rrf([["a"], ["b"]], weights=[1.0, 2.0]))
    assert plain["a"] == plain["b"]
    assert weighted["b"] == 2 * weighted["a"]
