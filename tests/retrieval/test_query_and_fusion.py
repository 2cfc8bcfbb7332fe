"""Deterministic rule queries and reciprocal-rank fusion."""

from __future__ import annotations

from dualrag.retrieval.concepts import EDI_CONCEPTS, JAVA_CONCEPTS, matching_terms
from dualrag.retrieval.fusion import RRF_K, rrf
from dualrag.retrieval.query import MAX_WINDOWS, WINDOW_CHARS, build_rule_query

CODE = """
private static final SimpleDateFormat FMT = new SimpleDateFormat("YYYY-MM-dd");
ExecutorService pool = Executors.newFixedThreadPool(4);
"""


def test_same_code_gives_the_same_query():
    assert build_rule_query(CODE) == build_rule_query(CODE)


def test_code_words_hold_calls_types_and_identifier_words_and_constructs_are_named():
    query = build_rule_query(CODE)
    words = query.code_words.split()
    assert "Executors.newFixedThreadPool" in words
    assert "SimpleDateFormat" in words
    assert {"fixed", "thread", "pool"} <= set(words)  # identifiers split into words
    assert {"thread-pool", "date-pattern"} <= set(query.concepts)
    assert "线程池" in query.concept_text  # the construct's common name in both languages


def test_the_code_itself_is_always_queried_raw_and_as_words():
    known = build_rule_query(CODE)
    assert "thread pool" in known.concept_text
    assert known.raw == CODE  # BM25 reads the code as written (its tokenizer splits identifiers)
    assert "executors.new fixed thread pool(4);" in known.code[0]  # the dense side: identifiers as words
    unknown = build_rule_query("  zzz qqq  ")
    assert unknown.concept_text == "" and unknown.code == ("zzz qqq",)


def test_the_grammar_names_constructs_and_where_they_sit():
    query = build_rule_query("try { work(); } finally { return 1; }")
    assert "finally clause" in query.grammar
    assert "return statement in finally clause" in query.grammar
    assert build_rule_query("int x = 1;").grammar == ""  # everyday shapes say nothing
    assert build_rule_query("x", language="xml").grammar == ""


def test_without_the_vocabulary_only_the_code_speaks():
    query = build_rule_query(CODE, concepts=False)
    assert query.concepts == () and query.concept_text == ""
    assert "线程池" not in query.concept_text and "SimpleDateFormat" in query.code_words


def test_construct_names_are_generic_not_a_guideline_verdict():
    """The vocabulary names what the code shows; the remedy is the rule's business."""
    names = dict(matching_terms("for (int i = 0; i < n; i++) { s += \"x\"; }", "java"))
    assert "loop" in names and "string-concat" in names
    everything = " ".join(c.terms for c in JAVA_CONCEPTS)
    for remedy in ("StringBuilder", "ThreadPoolExecutor", "currentTimeMillis", "compareTo", "valueOf"):
        assert remedy not in everything


def test_a_long_change_is_searched_in_windows_the_embedder_reads_whole():
    code = "\n".join(f"    int value{i} = compute({i});" for i in range(400))
    windows = build_rule_query(code).code
    assert 1 < len(windows) <= MAX_WINDOWS
    assert all(len(w) <= WINDOW_CHARS for w in windows)
    assert windows[0].startswith("int value 0 = compute(0);")


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


def names_in(code: str) -> set[str]:
    return {name for name, _ in matching_terms(code, "java")}


def test_layout_and_comment_constructs_are_recognised():
    assert "statements-per-line" in names_in("int w = img.width(), h = img.height();")
    assert "statements-per-line" in names_in("    total += a; count++;")
    for one_each in ("for (int i = 0; i < n; i++) {", "String s = String.format(\"%s\", x);", "x++; // note",
                     "Map<String, String> m = new HashMap<>();", "if (hit) { hits++; } else { misses++; }"):
        assert "statements-per-line" not in names_in(one_each), one_each
    assert "commented-out-code" in names_in("    // audit.record(line);")
    assert "commented-out-code" in names_in("/*\nheaders.put(\"X\", \"1\");\n*/")
    assert "commented-out-code" not in names_in("// retries are cheap here")
    assert "trailing-comment" in names_in("int pending = queue.size(); // not sent yet")
    assert "trailing-comment" not in names_in("// not sent yet\nint pending = queue.size();")


def test_a_missing_header_comment_is_a_construct_but_only_when_the_snippet_shows_the_line_before():
    assert "undocumented-type" in names_in("import java.util.List;\n\n@Service\npublic class Planner {\n}")
    assert "undocumented-type" not in names_in("import java.util.List;\n\n/** Plans shifts. */\npublic class Planner {")
    assert "undocumented-type" not in names_in("public class Planner {\n}")  # what came before is not shown


def test_literals_compared_or_passed_bare_are_recognised():
    assert "reference-compare" in names_in('if (country != "DE") {')
    assert "magic-number" in names_in("return Duration.ofSeconds(1800);")
    assert "magic-number" in names_in("if (attempts > 15) {")
    assert "magic-number" not in names_in("ps.setString(1, email);")
