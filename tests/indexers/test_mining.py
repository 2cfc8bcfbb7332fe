"""Detectors mined from a rule book's own examples, verified before use (issue 27): real
tree-sitter, a real clean corpus folder, the real embedded store and CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dualrag.cli import main
from dualrag.rulebook import detector_rows
from dualrag.units import Detector, MinedCheck, RuleSource, RuleUnit
from indexers.mining import MiningOptions, load_corpus, mine_book, mine_rule
from indexers.mining.examples import code_of
from indexers.mining.tree import rule_words
from indexers.rules import read_rule_documents

LOOSE = MiningOptions(min_bits=8.0)  # a three-rule book has little background: its bits run low


def rule(rule_id: str, title: str, bad: list[str], good: list[str] = (), text: str = "", **kw) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=title, text=text or title, bad_examples=list(bad),
                    good_examples=list(good), source=RuleSource(kb="team", file="book.md", page=7), **kw)


BIGDECIMAL = rule("R-1", "Do not construct a BigDecimal from a double",
                  ["BigDecimal price = new BigDecimal(0.1);"], ['BigDecimal price = new BigDecimal("0.1");'])
FINALLY = rule("R-2", "Never return from a finally block",
               ["try {\n    work();\n} finally {\n    return;\n}"],
               ["try {\n    work();\n} finally {\n    cleanup();\n}"])
SWITCH = rule("R-3", "Every switch has a default branch",
              ["switch (kind) {\n    case 1:\n        run();\n        break;\n}"],
              ["switch (kind) {\n    case 1:\n        run();\n        break;\n    default:\n        skip();\n}"])


def fires(det: Detector, code: str) -> bool:
    return bool(detector_rows(det, "java", code))


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    """Clean code: 10,000 lines, with `new BigDecimal("...")`, `list.get(0)` and String fields, no double."""
    folder = tmp_path / "clean"
    (folder / "src").mkdir(parents=True)
    body = "\n".join(f"    int f{i}(java.util.List<Integer> list) {{ return list.get({i % 3}); }}" for i in range(4998))
    (folder / "src" / "Clean.java").write_text(
        f"class Clean {{\n{body}\n    java.math.BigDecimal a = new java.math.BigDecimal(\"1.5\");\n}}\n")
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "Dirty.java").write_text("class D { BigDecimal b = new BigDecimal(0.5); }\n")
    (folder / "src" / "Other.java").write_text("class Other {\n" + "    { String x = null; }\n" * 4997 + "}\n")
    return folder


# ------------------------------------------------------------------ examples as code


def test_code_of_keeps_code_and_drops_prose():
    assert code_of("在 main 参数中，使用 String args[] 来定义。") == "String args[]"
    assert code_of("接口方法定义 public abstract void commit();") == "public abstract void commit();"
    assert code_of("使用 if(!(x >= 628)) 来表达 x 小于 628。") == "if(!(x >= 628))"
    assert code_of("if (删除元素的条件) {\n  iterator.remove();\n}") == "if (删除元素的条件) {\n  iterator.remove();\n}"
    assert code_of("某业务的 DO 的 createTime 默认值为空，导致创建时间被修改。") == ""
    assert code_of("UserDo / HTMLDto / XMLService") == ""  # names, not code
    assert code_of("```java\nint a = b / c;\n```") == "int a = b / c;"


# ------------------------------------------------------------------ candidates and verification


def test_a_constructor_with_a_double_literal_is_mined_and_verified(corpus_dir):
    units, report = mine_book([BIGDECIMAL, FINALLY, SWITCH], MiningOptions(corpus=load_corpus(corpus_dir)))
    det = units[0].detect
    assert det is not None and det.kind == "tree-sitter" and det.languages == ["java"]
    assert det.pattern.startswith("((object_creation_expression ") and det.pattern.endswith(
        'arguments: (argument_list (decimal_floating_point_literal))) @violation (#eq? @c0 "BigDecimal"))')
    assert det.mined.model_dump(include={"violating", "compliant", "corpus_lines", "corpus_hits", "other_violating"}) \
        == {"violating": 1, "compliant": 3, "corpus_lines": 10_000, "corpus_hits": 0, "other_violating": 2}
    # the default climb starts from the most general verified candidate, which is already this one
    assert det.mined.level == []
    # from the most specific one it climbs from the declaration the example assigned it to; without the
    # literal's kind it fires on "0.1", so the sibling structure is dropped but that kind is added back
    specific, _ = mine_book([BIGDECIMAL, FINALLY, SWITCH], MiningOptions(corpus=load_corpus(corpus_dir), start="specific"))
    assert specific[0].detect.mined.level == ["descend", "siblings+contrast"]
    assert specific[0].detect.pattern == det.pattern
    assert det.pattern == ('((object_creation_expression type: (type_identifier) @c0 arguments: (argument_list '
                           '(decimal_floating_point_literal))) @violation (#eq? @c0 "BigDecimal"))')
    assert fires(det, "total = total.add(new BigDecimal(2.5));")  # not the example's own line
    assert not fires(det, 'BigDecimal p = new BigDecimal("0.1");') and not fires(det, "BigDecimal.valueOf(0.1);")
    assert report.kept == 3 and report.with_examples == 3


def test_without_a_corpus_the_most_specific_candidate_is_kept():
    units, report = mine_book([BIGDECIMAL, FINALLY, SWITCH], LOOSE)
    det = units[0].detect
    assert det.kind == "tree-sitter" and det.mined.corpus_lines is None and det.mined.corpus_hits is None
    assert fires(det, BIGDECIMAL.bad_examples[0]) and not fires(det, BIGDECIMAL.good_examples[0])
    assert "no clean corpus: that check was not run" in report.summary()


def test_finally_return_and_a_missing_default_are_told_from_their_compliant_examples():
    units, _ = mine_book([BIGDECIMAL, FINALLY, SWITCH], LOOSE)
    finally_det, switch_det = units[1].detect, units[2].detect
    assert "finally_clause" in finally_det.pattern + str(finally_det.scope) and "return_statement" in finally_det.pattern
    assert fires(finally_det, FINALLY.bad_examples[0]) and not fires(finally_det, FINALLY.good_examples[0])
    assert fires(switch_det, SWITCH.bad_examples[0]) and not fires(switch_det, SWITCH.good_examples[0])


def test_two_violating_examples_generalise_past_their_made_up_names():
    r = rule("R-4", "Do not call Executors.newFixedThreadPool; build a ThreadPoolExecutor",
             ["ExecutorService pool = Executors.newFixedThreadPool(4);",
              "this.workers = Executors.newFixedThreadPool(size);"],
             ["ExecutorService pool = new ThreadPoolExecutor(4, 4, 0L, TimeUnit.SECONDS, queue);"])
    [unit], _ = mine_book([r], LOOSE)
    det = unit.detect
    assert det.kind == "scoped-query" and det.scope.receiver_types == ["Executors"] and \
        '"newFixedThreadPool"' in det.pattern
    assert "pool" not in det.pattern and "workers" not in det.pattern and "size" not in det.pattern
    assert fires(det, "return Executors.newFixedThreadPool(threads);")
    assert fires(det, "Executors ex = factory();\nex.newFixedThreadPool(2);")  # any receiver of the type
    assert not fires(det, "pools.newFixedThreadPool(2);")


def test_a_candidate_matching_another_rules_compliant_example_is_rejected_with_the_reason():
    other = rule("R-9", "Compare strings with equals", ["if (a == b) { }"], ["if (name.equals(\"x\")) { }"])
    r = rule("R-5", "Call equals on the constant", ['if (name.equals("x")) { }'], ['if ("x".equals(name)) { }'])
    units, report = mine_book([other, r], LOOSE)
    result = report.by_id()["R-5"]
    assert any(rj.reason == "fires on a compliant example of R-9" for rj in result.rejected)
    assert units[1].detect is None or not fires(units[1].detect, 'if (name.equals("x")) { }')


def test_a_candidate_most_of_the_book_shares_is_rejected():
    """(d): every example of this book logs through Timber; a Timber detector says nothing."""
    others = [rule(f"R-{i}", f"Rule {i}", [f"Timber.log(value);\nHelper{i}.call{i}(value);"]) for i in range(30)]
    target = rule("R-T", "Do not log with Timber in release builds", ["Timber.log(value);"])
    units, report = mine_book([*others, target], LOOSE)
    result = report.by_id()["R-T"]
    assert units[-1].detect is None
    assert any(rj.reason.startswith("fires on more than 2 violating examples of other rules of the book")
               for rj in result.rejected)
    assert all(u.detect is not None and "Timber" not in u.detect.pattern for u in units[:-1])


def test_a_rule_whose_candidates_its_own_compliant_examples_share_says_they_were_tried():
    """A violating and a compliant example the syntax cannot tell apart (the difference is a
    type): candidates were made and dropped, and the note must not say none was."""
    r = rule("R-8", "Do not cast a list to a list before iterating",
             ["for (String s : List.copyOf(items)) { use(s); }"], ["for (String s : List.copyOf(items)) { use(s); }"])
    [unit], report = mine_book([r], LOOSE)
    result = report.by_id()["R-8"]
    assert unit.detect is None and result.status == "none"
    assert any(rj.reason.startswith("cannot be told from") for rj in result.rejected)
    assert result.note == "no candidate passed verification"


def test_without_a_corpus_a_weak_candidate_is_not_kept(tmp_path):
    r = rule("R-6", "Use get carefully", ["x = list.get(0);"])
    [unit], report = mine_book([r], MiningOptions(min_bits=40.0))
    assert unit.detect is None and report.by_id()["R-6"].status == "none"
    assert any("below the 40 a candidate needs without a clean corpus" in rj.reason
               for rj in report.by_id()["R-6"].rejected)


def test_the_clean_corpus_rejects_noisy_candidates_and_records_the_hits(corpus_dir):
    corpus = load_corpus(corpus_dir, "java")
    assert corpus.lines == 10_000 and len(corpus.files) == 2  # the hidden folder is not read
    noisy = rule("R-7", "Do not call List.get with a constant index", ["int first = list.get(0);"])
    units, report = mine_book([noisy, BIGDECIMAL], MiningOptions(corpus=corpus))
    result = report.by_id()["R-7"]
    assert any("clean-corpus hits in 10,000 lines (limit 1 per 10k = 1)" in rj.reason for rj in result.rejected)
    assert units[0].detect is None or units[0].detect.mined.corpus_hits <= 1
    det = units[1].detect
    assert det.mined.corpus_lines == 10_000 and det.mined.corpus_hits == 0
    assert f"(clean corpus: {corpus_dir} (java 10,000 lines))" in report.summary()


def test_a_c_style_array_is_a_tree_query(corpus_dir):
    r = rule("R-8", "Write the brackets of an array after its type, as in String[] args",
             ["在 main 参数中，使用 String args[] 来定义。", "声明 String names[] = null; 是 C 的写法。"],
             ["定义整形数组 int[] arrayDemo。"])
    [unit], report = mine_book([r], MiningOptions(corpus=load_corpus(corpus_dir)))
    det = unit.detect
    assert det.kind == "tree-sitter" and "dimensions" in det.pattern, report.by_id()["R-8"]
    assert fires(det, "String argv[] = null;") and not fires(det, "String[] argv = null;")


def test_regex_candidates_when_the_syntax_tree_says_nothing(corpus_dir):
    r = rule("R-12", "With a range condition, ORDER BY cannot use the index order",
             ["索引如果存在范围查询，如：WHERE a > 10 ORDER BY b；索引 a_b 无法排序。",
              "SELECT * FROM t WHERE id > 5 ORDER BY name"],
             ["where a = ? and b = ? order by c；索引：a_b_c"])
    [unit], report = mine_book([r], MiningOptions(corpus=load_corpus(corpus_dir)))
    det = unit.detect
    assert det is not None and det.kind == "regex", report.by_id()["R-12"]
    assert fires(det, 'String sql = "SELECT x FROM orders WHERE total > 100 ORDER BY created";')
    assert not fires(det, 'String sql = "SELECT x FROM orders WHERE total = ? ORDER BY created";')


def test_hand_written_detectors_win_and_disabled_rules_are_not_mined():
    written = BIGDECIMAL.model_copy(update={"detect": Detector(kind="regex", pattern=r"BigDecimal\(\d", languages=["java"])})
    units, report = mine_book([written, FINALLY], MiningOptions(disabled=lambda rid: rid == "R-2"))
    assert units[0].detect == written.detect and units[1].detect is None
    assert report.by_id()["R-1"].status == "written" and report.by_id()["R-2"].status == "disabled"


def test_mine_rule_on_held_out_folds_uses_only_what_it_is_given(corpus_dir):
    from indexers.mining import Backgrounds

    result = mine_rule("R-1", rule_words(BIGDECIMAL.title), "java", ["x = new BigDecimal(0.5);"], [],
                       [("R-2", 'y = new BigDecimal("1");')], Backgrounds(), MiningOptions(corpus=load_corpus(corpus_dir)))
    assert result.status == "kept" and fires(result.detector, "BigDecimal y = new BigDecimal(3.25);")
    assert result.detector.mined.compliant == 1 and not fires(result.detector, 'y = new BigDecimal("1");')


def test_detectors_without_mined_serialise_as_before():
    det = Detector(kind="regex", pattern="x", languages=["java"])
    assert "mined" not in det.model_dump(mode="json")
    mined = det.model_copy(update={"mined": MinedCheck(violating=2, compliant=3)})
    assert Detector.model_validate(mined.model_dump(mode="json")) == mined


# ------------------------------------------------------------------ documents, store, reviews, CLI

DOC = """# Team rules

## R-10 Do not construct BigDecimal from a double

A double cannot hold 0.1 exactly.

### Noncompliant Code Example

```java
BigDecimal price = new BigDecimal(0.1);
```

### Compliant Solution

```java
BigDecimal price = new BigDecimal("0.1");
```

## R-11 Never return from a finally block

A return in finally swallows the exception.

### Noncompliant Code Example

```java
try {
    work();
} finally {
    return;
}
```

### Compliant Solution

```java
try {
    work();
} finally {
    cleanup();
}
```
"""

DIFF = (
    "diff --git a/src/Price.java b/src/Price.java\n--- a/src/Price.java\n+++ b/src/Price.java\n"
    "@@ -1,3 +1,4 @@\n class Price {\n   void set() {\n+    total = total.add(new BigDecimal(2.5));\n   }\n"
)


def run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_read_rule_documents_mines_each_document(in_tmp):
    (in_tmp / "rules.md").write_text(DOC, encoding="utf-8")
    [doc], failures = read_rule_documents(["rules.md"], "team", mining=LOOSE)
    assert not failures and doc.mining is not None and doc.mining.kept == 2
    assert {u.rule_id: bool(u.detect and u.detect.mined) for u in doc.units} == {"R-10": True, "R-11": True}
    assert doc.report.detectors == 2
    [plain], _ = read_rule_documents(["rules.md"], "team")
    assert plain.mining is None and all(u.detect is None for u in plain.units)


def test_index_inspect_review_and_disable(in_tmp, capsys, corpus_dir):
    (in_tmp / "rules.md").write_text(DOC, encoding="utf-8")
    (in_tmp / "cfg.toml").write_text(f'[rules]\nmining_corpus = "{corpus_dir.as_posix()}"\n', encoding="utf-8")
    code, out, err = run(["rules", "inspect", "rules.md", "--config", "cfg.toml", "--rejected"], capsys)
    assert code == 0, err
    assert ("rules.md: mined 2 detector(s) for 2 rule(s) with violating examples "
            f"(clean corpus: {corpus_dir} (java 10,000 lines))") in out
    assert "mined tree-sitter: " in out and "clean corpus: 0 hit(s) in 10,000 lines (0.00 per 10k)" in out
    assert "verified on: line 1: BigDecimal price = new BigDecimal(0.1);" in out
    assert "mined scoped-query: " in out and "@violation inside finally_clause" in out  # a return anywhere in it
    levels = re.findall(r"generalised: level (\d+) \(([^)]*)\)", out)
    assert len(levels) == 2 and all(int(n) == len(steps.split(", ")) for n, steps in levels if int(n))
    assert any(int(n) > 0 for n, _ in levels)  # a step past the example's shape held on the examples and the corpus
    turned = re.findall(r"turned down, more general \((\w[\w+]*)\): (.+) -- (.+)", out)
    assert turned and all(why.strip() for *_, why in turned)  # each more general pattern with why it lost
    code, out, _ = run(["rules", "inspect", "rules.md", "--rejected"], capsys)  # no corpus: specific only
    assert "rejected tree-sitter" in out and "below the 20 a candidate needs without a clean corpus" in out
    code, out, _ = run(["rules", "inspect", "rules.md", "--format", "json"], capsys)
    [doc] = json.loads(out)
    assert doc["mining"]["corpus_lines"] is None and [r["status"] for r in doc["mining"]["rules"]] == ["kept", "none"]
    assert doc["units"][0]["detect"]["mined"]["corpus_lines"] is None and doc["units"][1]["detect"] is None
    assert any("below the 20 a candidate needs without a clean corpus" in r["reason"]
               for r in doc["mining"]["rules"][1]["rejected"])

    code, _, err = run(["index", "rules", "rules.md", "--store", "st", "--no-mine"], capsys)
    assert code == 0, err and "mined" not in err
    from dualrag.checks.detectors import review_rules, run_detectors
    from dualrag.config import Settings
    from dualrag.diff import ingest

    assert not {"R-10", "R-11"} & {r.rule_id for r in review_rules(Settings(store="st")).detectors}
    code, _, err = run(["index", "rules", "rules.md", "--store", "st", "--config", "cfg.toml"], capsys)
    assert code == 0 and "rules.md: mined 2 detector(s)" in err
    rules = review_rules(Settings(store="st"))
    mined = {r.rule_id: r for r in rules.detectors if r.detect.mined}
    assert set(mined) == {"R-10", "R-11"} and mined["R-10"].detect.mined.corpus_lines == 10_000

    [finding] = [f for f in run_detectors(ingest(DIFF.encode(), Settings()), rules.detectors) if f.rule_id == "R-10"]
    assert finding.line == 3 and finding.source == "detector" and finding.severity == "major"
    assert "[mined check: a pattern found in the examples of R-10 (rules.md) and verified on them]" in finding.message

    settings = Settings(store="st").model_copy(update={"rules": Settings().rules.model_copy(
        update={"disable": ["R-1?"]})})
    assert not {"R-10", "R-11"} & {r.rule_id for r in review_rules(settings).detectors}
    assert "R-10" in review_rules(settings).known_ids  # still a rule a finding may cite


def test_a_missing_mining_corpus_is_a_configuration_error(in_tmp, capsys):
    (in_tmp / "rules.md").write_text(DOC, encoding="utf-8")
    (in_tmp / "cfg.toml").write_text('[rules]\nmining_corpus = "no/such/folder"\n', encoding="utf-8")
    code, _, err = run(["rules", "inspect", "rules.md", "--config", "cfg.toml"], capsys)
    assert code == 2 and "mining_corpus" in err and "not a folder" in err
    code, _, err = run(["rules", "inspect", "rules.md", "--config", "cfg.toml", "--no-mine"], capsys)
    assert code == 0, err


# ------------------------------------------------------------------ issue 42: variants, counting, held-out views


def test_variants_only_verify_a_candidate_never_make_one():
    from indexers.mining import Variants

    plain, _ = mine_book([BIGDECIMAL], LOOSE)
    assert plain[0].detect is not None
    # a violating variant the example's pattern misses: no candidate of the example may pass without it
    missed = Variants(violating=("BigDecimal.valueOf(0.1).add(x);",))
    units, report = mine_book([BIGDECIMAL], LOOSE, variants={"R-1": missed})
    result = report.by_id()["R-1"]
    assert units[0].detect is None or fires(units[0].detect, missed.violating[0])
    assert any(r.reason == "misses violating variant 1" for r in result.rejected)
    # a compliant variant the plain detector fires on turns it down; the kept one says it was checked
    hit = Variants(compliant=("BigDecimal price = new BigDecimal(0.5, MathContext.DECIMAL64);",))
    assert fires(plain[0].detect, hit.compliant[0])
    units, report = mine_book([BIGDECIMAL], LOOSE, variants={"R-1": hit})
    det = units[0].detect
    assert det is None or (not fires(det, hit.compliant[0]) and det.mined.variants == 1)
    assert any("compliant variant 1" in r.reason for r in report.by_id()["R-1"].rejected) or \
        any("compliant variant 1" in c.outcome for c in report.by_id()["R-1"].climb)


def test_the_corpus_index_counts_what_running_every_detector_everywhere_counts(corpus_dir):
    from dualrag.units import QueryScope

    corpus = load_corpus(corpus_dir, "java")
    detectors = [
        Detector(kind="tree-sitter", pattern='((method_invocation name: (identifier) @n) @violation (#eq? @n "get"))'),
        Detector(kind="tree-sitter", pattern="(object_creation_expression arguments: (argument_list (string_literal))) "
                                             "@violation"),
        Detector(kind="scoped-query", pattern="(return_statement) @violation", scope=QueryScope(inside=["method_declaration"])),
        Detector(kind="scoped-query", pattern="((method_invocation object: (identifier) @receiver) @violation)",
                 scope=QueryScope(receiver_types=["List"])),
        Detector(kind="regex", pattern=r"String x = null"),
    ]
    everywhere = [sum(len(detector_rows(d, "java", text)) for text in corpus.fragments().texts) for d in detectors]
    assert corpus.count(detectors, [()] * len(detectors)) == everywhere
    assert everywhere[0] == 4998 and everywhere[2] == 4998 and everywhere[3] == 4998 and everywhere[4] == 4997
    assert 10 < corpus.hits(detectors[0], stop_after=10) <= 10 + 40  # counting stops in the fragment past the limit


def test_a_held_out_fold_mines_with_the_books_counts_less_its_own_examples():
    from indexers.mining import Backgrounds

    codes = [BIGDECIMAL.bad_examples[0], FINALLY.bad_examples[0], SWITCH.bad_examples[0]]
    every, rest = Backgrounds(), Backgrounds()
    for code in codes:
        every.add(code, "java")
    for code in codes[1:]:
        rest.add(code, "java")
    view = every.without([(codes[0], "java")])
    step = ("c", "arguments", "argument_list", None)
    for node_type in ("object_creation_expression", "return_statement", "block"):
        assert view.trees["java"].type_bits(node_type) == rest.trees["java"].type_bits(node_type)
        assert view.trees["java"].step_bits(node_type, step) == rest.trees["java"].step_bits(node_type, step)
    assert view.tokens.bits("BigDecimal", frozenset()) == rest.tokens.bits("BigDecimal", frozenset())


# ------------------------------------------------------------------ issue 42: a model's variants gate the climb

DOUBLE = RuleUnit(rule_id="R-1", title="Do not construct BigDecimal from a double",
                  text="Do not construct BigDecimal from a double. A double cannot hold 0.1 exactly.",
                  bad_examples=["BigDecimal price = new BigDecimal(0.1);"],
                  source=RuleSource(kb="team", file="book.md"), languages=["java"])
FROM_DOUBLE, FROM_TEXT = "x = new BigDecimal(2.5);", 'x = new BigDecimal("2.5");'


def _mined_with(variants: tuple[tuple[str, ...], tuple[str, ...]] | None):
    asked = []

    def variants_for(units):
        asked.append([u.rule_id for u in units])
        return {"R-1": variants} if variants else {}

    [unit], report = mine_book([DOUBLE], MiningOptions(min_bits=5.0, variants_for=variants_for))
    assert asked == [["R-1"]]  # once per book
    return unit.detect, report.by_id()["R-1"]


def test_a_compliant_near_miss_from_the_model_stops_the_climb_where_it_would_fire():
    plain, _ = _mined_with(None)  # no contrast anywhere: any `new BigDecimal(...)`
    assert detector_rows(plain, "java", FROM_DOUBLE) and detector_rows(plain, "java", FROM_TEXT)
    near, result = _mined_with(((), ('BigDecimal price = new BigDecimal("0.10");',)))
    assert detector_rows(near, "java", FROM_DOUBLE) and not detector_rows(near, "java", FROM_TEXT)
    assert any(c.outcome == "fires on compliant variant 1" for c in result.climb)
    assert near.mined.variants == 1


def test_a_wrong_variant_costs_generality_never_the_detector_the_examples_verified():
    wrong, result = _mined_with(((), ("BigDecimal price = new BigDecimal(0.3);",)))  # it breaks the rule too
    assert wrong is not None and detector_rows(wrong, "java", DOUBLE.bad_examples[0])
    assert result.status == "kept" and not result.rejected
