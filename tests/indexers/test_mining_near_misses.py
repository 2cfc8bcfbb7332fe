"""Near misses a climbed detector must not fire on (issue 42): it keeps what a call was given
(the count and kind of its arguments, anchored, unless the rule's examples disagree) and a literal
the rule writes as code; where the book's compliant code differs only by a guard the rule names,
it asks for that guard's absence. Real tree-sitter, a real clean corpus folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualrag.rulebook import detector_rows
from dualrag.units import Detector, RuleSource, RuleUnit
from indexers.mining import MiningOptions, lattice, load_corpus, mine_book, tree
from indexers.mining.words import rule_words


def rule(rule_id: str, title: str, bad: list[str], good: list[str] = ()) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=title, text=title, bad_examples=list(bad), good_examples=list(good),
                    source=RuleSource(kb="team", file="book.md", page=3))


def fires(det: Detector, code: str) -> bool:
    return bool(detector_rows(det, "java", code))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """10,000 clean lines that never call `interval`, and sleep once."""
    folder: Path = tmp_path_factory.mktemp("clean")
    body = "\n".join(f"    int f{i}(java.util.List<Integer> list) {{ return list.get({i % 3}); }}" for i in range(9997))
    body += "\n    void nap(long delay) throws InterruptedException { Thread.sleep(delay); }"
    (folder / "Clean.java").write_text(f"class Clean {{\n{body}\n}}\n", encoding="utf-8")
    return load_corpus(folder, "java")


INTERVAL = "ticks = Observable.interval(15, TimeUnit.SECONDS);"
WITH_SCHEDULER = "ticks = Observable.interval(15, TimeUnit.SECONDS, scheduler);"


def mined(corpus, bad: list[str], shape: str) -> Detector:
    r = rule("R-1", "Pass a scheduler to Observable.interval", bad)
    [unit], report = mine_book([r], MiningOptions(corpus=corpus, shape=shape))
    assert unit.detect is not None, report.rules[0].note
    return unit.detect


@pytest.mark.parametrize("shape", ["kinds", "count"])
def test_a_call_keeps_how_many_arguments_it_was_given(corpus, shape):
    det = mined(corpus, [INTERVAL], shape)
    assert det.mined.level  # it climbed past its example's declaration...
    assert fires(det, "return Observable.interval(15, TimeUnit.SECONDS).map(t -> t + 1);")  # ...to code it never saw
    assert not fires(det, WITH_SCHEDULER)  # the near miss: one more argument
    assert not fires(det, "Observable.interval(15);")


def test_without_a_shape_the_climb_drops_the_arguments_and_fires_on_the_near_miss(corpus):
    det = mined(corpus, [INTERVAL], "")
    assert fires(det, INTERVAL) and fires(det, WITH_SCHEDULER)


def test_examples_that_vary_the_count_keep_no_count(corpus):
    det = mined(corpus, [INTERVAL, "ticks = Observable.interval(1, 5, TimeUnit.SECONDS);"], "count")
    assert fires(det, WITH_SCHEDULER) and fires(det, "Observable.interval(2, TimeUnit.MINUTES);")


def test_kinds_are_kept_where_the_examples_agree_and_any_where_they_differ(corpus):
    agree = mined(corpus, [INTERVAL, "ticks = Observable.interval(30, TimeUnit.MINUTES);"], "kinds")
    assert fires(agree, "Observable.interval(2, TimeUnit.HOURS);")
    assert not fires(agree, "Observable.interval(period, TimeUnit.HOURS);")  # a name where both had a literal
    assert fires(mined(corpus, [INTERVAL], "count"), "Observable.interval(period, TimeUnit.HOURS);")
    differ = mined(corpus, [INTERVAL, "ticks = Observable.interval(period, TimeUnit.MINUTES);"],
                   "kinds")
    assert fires(differ, "Observable.interval(p, TimeUnit.HOURS);") and \
        fires(differ, "Observable.interval(9, TimeUnit.DAYS);")
    assert not fires(differ, WITH_SCHEDULER)


def test_no_argument_at_all_is_a_shape_too(corpus):
    r = rule("R-2", "Do not call System.runFinalization", ["System.runFinalization();"])
    [unit], _ = mine_book([r], MiningOptions(corpus=corpus, shape="count"))
    assert unit.detect is not None and fires(unit.detect, "if (low) {\n  System.runFinalization();\n}")
    assert not fires(unit.detect, "System.runFinalization(now);")


def _literal_candidate(words) -> tree.TreeCandidate:
    call = ("c", "value", "method_invocation", None)
    paths = {(call,): 0, (call, ("c", "name", "identifier", "chmod")): 1,
             (call, ("c", "arguments", "argument_list", None)): 2,
             (call, ("c", "arguments", "argument_list", None), ("c", "", "octal_integer_literal", "0777")): 3}
    return tree.candidate("variable_declarator", paths, dict(paths), tree.Background(), words)


def test_the_values_step_keeps_a_literal_the_rule_writes_as_code():
    as_code = rule_words("Never call `chmod(path, 0777)`", language="java")
    in_prose = rule_words("Never make a file writable by all, as 0777 does", language="java")
    assert lattice.values(_literal_candidate(as_code), as_code) is None  # nothing to drop
    step = lattice.values(_literal_candidate(in_prose), in_prose)
    assert step is not None and not any(s[0] == "c" and s[3] == "0777" for p in step[1] for s in p)


CONSOLE_BAD = "Console console = System.console();\nString name = console.readLine();"
CONSOLE_GOOD = ("Console console = System.console();\nif (console == null) {\n  throw new IllegalStateException();\n}\n"
                "String name = console.readLine();")


def test_a_guard_the_rule_names_must_be_absent_when_nothing_else_tells_the_examples_apart(corpus):
    r = rule("R-3", "Check what System.console() returns for null", [CONSOLE_BAD], [CONSOLE_GOOD])
    [plain], report = mine_book([r], MiningOptions(corpus=corpus, absence=False))
    assert plain.detect is None and "cannot be told from compliant example 1" in str(report.rules[0].rejected)
    [unit], _ = mine_book([r], MiningOptions(corpus=corpus))  # the default asks for the guard's absence
    det = unit.detect
    assert det is not None and det.kind == "scoped-query" and det.scope.absent == ["null"]
    assert fires(det, "void greet() {\n  Console in = System.console();\n  in.printf(\"hi\");\n}")
    assert not fires(det, "void greet() {\n  Console in = System.console();\n  if (in != null) in.printf(\"hi\");\n}")
    # a guard in another method does not guard this one; a comment or a message guards nothing
    assert fires(det, "void a() {\n  Console in = System.console();\n}\nvoid b(Object o) {\n  if (o == null) return;\n}")
    assert fires(det, "void a() {\n  // never null here\n  Console in = System.console();\n  log(\"null\");\n}")


def test_a_pattern_of_names_only_may_be_held_to_a_stricter_corpus_bar(corpus):
    r = rule("R-4", "Do not busy-wait on a flag with Thread.sleep", ["while (!done) {\n    Thread.sleep(100);\n}"])
    # a book with other calls: that a call has an argument list is then worth nothing
    other = rule("R-5", "Log through the team's logger", ["System.out.println(a);\nout.print(b);\nerr.write(c);"])
    # climbing from the loop the example sat in (the default climb starts above it, at the call)
    [loose, _], _ = mine_book([r, other], MiningOptions(corpus=corpus, start="specific"))
    assert fires(loose.detect, "Thread.sleep(delay);")  # a name, whatever the code does with it: one clean hit allowed
    [strict, _], report = mine_book([r, other], MiningOptions(corpus=corpus, start="specific",
                                                              names_max_hits_per_10k=0.25))
    assert not fires(strict.detect, "Thread.sleep(delay);")
    assert fires(strict.detect, "while (!ready) {\n    Thread.sleep(50);\n}")
    assert any("limit for a pattern of names only 0.25 per 10k" in s.outcome for s in report.rules[0].climb)
