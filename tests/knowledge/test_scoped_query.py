"""Scoped queries: a tree-sitter query plus what a query cannot say (inside a node at any depth, a
receiver declared with a type), run the same way by reviews (`checks/detectors.py`), by rule files
and by mining (`rulebook.detector_rows`), on real grammar parses."""

from __future__ import annotations

import pytest

from dualrag.checks.detectors import detect_hunks
from dualrag.diff.hunks import DiffLine, Hunk
from dualrag.rulebook import RuleBookError, detector_rows, load_rule_file
from dualrag.scoped_query import declared_types, type_name
from dualrag.units import Detector, QueryScope, RuleSource, RuleUnit

FORMAT_CALL = ('((method_invocation object: (identifier) @receiver name: (identifier) @n) @violation '
               '(#eq? @n "format"))')


def scoped(pattern: str, language: str = "java", **scope) -> Detector:
    return Detector(kind="scoped-query", pattern=pattern, languages=[language], scope=QueryScope(**scope))


def test_a_receiver_of_the_type_is_a_variable_field_or_parameter_declared_with_it_or_the_type_itself():
    det = scoped(FORMAT_CALL, receiver_types=["SimpleDateFormat"])
    code = "\n".join([  # noqa: FLY002 - a line a row, each with what it tests
        "class A {",
        "  private static final SimpleDateFormat FIELD = new SimpleDateFormat(\"y\");",
        "  String a(Date d, java.text.SimpleDateFormat param) {",
        "    String s = FIELD.format(d);",  # 3: a field of the type
        "    s += param.format(d);",  # 4: a parameter of a qualified type
        "    s += String.format(\"%s\", d);",  # 5: another type's static call
        "    s += other.format(d);",  # 6: undeclared: its type is unknown
        "    return s + SimpleDateFormat.format(d);",  # 7: the type's own name
        "  }",
        "}"])
    assert detector_rows(det, "java", code) == [3, 4, 7]


def test_inside_means_at_any_depth_and_only_there():
    det = scoped("(return_statement) @violation", inside=["finally_clause"])
    code = "try {\n  return 1;\n} finally {\n  if (x) {\n    while (y) {\n      return 2;\n    }\n  }\n}\nreturn 3;"
    assert detector_rows(det, "java", code) == [5]


def test_absent_means_no_such_word_in_the_function_around_it_outside_comments_and_strings():
    det = scoped("((method_invocation name: (identifier) @n) @violation (#eq? @n \"console\"))", absent=["null"])
    code = "\n".join([  # noqa: FLY002 - a line a row, each with what it tests
        "class A {",
        "  void guarded() {",
        "    Console c = System.console();",  # 2: the function checks for null
        "    if (c == null) return;",
        "  }",
        "  void bare() {",
        "    Console c = System.console();",  # 6: nothing guards it
        "    log(\"null?\"); // null",  # a message and a comment guard nothing
        "  }",
        "}"])
    assert detector_rows(det, "java", code) == [6]
    assert detector_rows(det, "java", "Console c = System.console();\nif (c == null) return;") == []  # no function: the fragment
    py = scoped("((call function: (attribute attribute: (identifier) @n)) @violation (#eq? @n \"batched\"))", "python",
                absent=["strict"])
    assert detector_rows(py, "python", "def f(xs):\n    return itertools.batched(xs, 2, strict=True)\n\ndef g(xs):\n"
                                       "    return itertools.batched(xs, 2)\n") == [4]


def test_declared_types_reads_the_packs_declarations_in_each_language():
    from dualrag import languages

    def types(language: str, code: str) -> dict[str, set[str]]:
        return declared_types(language, languages.parser(language).parse(code.encode()).root_node)

    assert types("java", "List<String> a = x, b; for (Map.Entry<K, V> e : m) {}") == \
        {"a": {"List"}, "b": {"List"}, "e": {"Entry"}}
    assert types("kotlin", "fun f(p: Foo?) { val q: Bar = Bar() }") == {"p": {"Foo"}, "q": {"Bar"}}
    assert types("python", "def f(p: Foo):\n    q = Bar()\n    n = make()\n") == {"p": {"Foo"}, "q": {"Bar"}}
    assert types("sql", "SELECT a FROM t") == {}  # no typed declarations in the pack: no receivers
    assert type_name("java.util.List<String>[]") == "List" and type_name("Foo?") == "Foo"


def test_a_review_runs_a_scoped_query_on_the_added_lines_of_a_hunk():
    rule = RuleUnit(rule_id="R-1", title="Do not share a SimpleDateFormat", text="x",
                    source=RuleSource(kb="team", file="r.md"), detect=scoped(FORMAT_CALL, receiver_types=["SimpleDateFormat"]))
    lines = ["SimpleDateFormat f = make();", "String s = f.format(d);", "String t = g.format(d);"]
    hunk = Hunk(1, 0, 1, 3, "", tuple(DiffLine("+" if i else " ", None if i else 1, i + 1, text)
                                     for i, text in enumerate(lines)))
    assert [f.line for f in detect_hunks("A.java", "java", [hunk], [rule])] == [2]


def test_a_scoped_query_has_a_scope_and_only_it_does():
    with pytest.raises(ValueError, match="scoped-query"):
        Detector(kind="scoped-query", pattern="(x) @violation")
    with pytest.raises(ValueError, match="scoped-query"):
        Detector(kind="tree-sitter", pattern="(x) @violation", scope=QueryScope(inside=["block"]))
    assert "scope" not in Detector(kind="tree-sitter", pattern="(x) @violation").model_dump()


RULE_FILE = """---
id: TEAM-DATE-001
title: Do not share a date format between threads
level: mandatory
severity: major
project_types: [java]
languages: [java]
detect:
  kind: scoped-query
  pattern: '((method_invocation object: (identifier) @receiver name: (identifier) @n) @violation (#eq? @n "format"))'
  scope:
    receiver_types: [SimpleDateFormat]
---
A shared SimpleDateFormat is not thread-safe.
"""


def test_a_rule_file_may_write_a_scoped_query(tmp_path):
    path = tmp_path / "dates.md"
    path.write_text(RULE_FILE, encoding="utf-8")
    [rule] = load_rule_file(path)
    assert rule.detect.kind == "scoped-query" and rule.detect.scope.receiver_types == ["SimpleDateFormat"]
    path.write_text(RULE_FILE.replace("    receiver_types: [SimpleDateFormat]\n",
                                      "    receiver_types: [SimpleDateFormat]\n    absent: [synchronized]\n"), encoding="utf-8")
    [rule] = load_rule_file(path)
    assert rule.detect.scope.absent == ["synchronized"]
    path.write_text(RULE_FILE.replace("  scope:\n    receiver_types: [SimpleDateFormat]\n", ""), encoding="utf-8")
    with pytest.raises(RuleBookError, match="detect.scope goes with kind scoped-query"):
        load_rule_file(path)
