"""The `codeql` (Java) and `ruff` (Python) rule books: each rule has two or more violating examples,
every example parses with its language's grammar, and the builders cut and label examples the way
SOURCE.md says (marker comments, `.expected` rows, snapshot diagnostics)."""

from __future__ import annotations

import re

import pytest

from dualrag import languages
from evaluation.books import BOOK_DIR, load_book
from evaluation.books.builder import run
from evaluation.books.codeql.build import split_sample
from evaluation.books.codeql.query_tests import (
    compliant_snippets,
    expected_rows,
    java_source,
    violating_snippets,
)
from evaluation.books.ruff.fixtures import fixture_examples, flagged
from evaluation.books.snapshot import Snapshot
from evaluation.books.snippets import MAX_EXAMPLES, MAX_LINES, Examples, normalised

NEW_BOOKS = {"codeql": "java", "ruff": "python"}
FIELDS = {"id", "title", "prose", "level", "category", "violating", "compliant", "source", "language"}


@pytest.mark.parametrize(("book", "language"), NEW_BOOKS.items())
def test_every_rule_has_two_violating_examples_that_parse(book, language):
    rules = load_book(book)
    assert 80 <= len(rules) <= 200
    assert len({r["id"] for r in rules}) == len(rules)
    parser = languages.parser(language)
    for rule in rules:
        assert FIELDS <= set(rule), rule["id"]
        assert rule["language"] == language and rule["title"] and rule["category"]
        assert 2 <= len(rule["violating"]) <= MAX_EXAMPLES and len(rule["compliant"]) <= MAX_EXAMPLES, rule["id"]
        assert rule["prose"].strip() and "```" not in rule["prose"] and "<sample" not in rule["prose"]
        for code in rule["violating"] + rule["compliant"]:
            assert code.count("\n") < MAX_LINES, rule["id"]
            assert not parser.parse(code.encode("utf-8")).root_node.has_error, (rule["id"], code[:120])
        assert not {normalised(c) for c in rule["violating"]} & {normalised(c) for c in rule["compliant"]}


@pytest.mark.parametrize("book", NEW_BOOKS)
def test_source_notes_name_the_commit_and_the_licence(book):
    text = (BOOK_DIR / book / "SOURCE.md").read_text(encoding="utf-8")
    assert re.search(r"Commit: `[0-9a-f]{40}`", text) and "MIT License" in text
    assert f"Violating examples: {sum(len(r['violating']) for r in load_book(book))};" in text


# ------------------------------------------------------------------------------------ codeql


def test_a_help_sample_splits_at_its_bad_and_good_markers():
    sample = "{\n    // BAD: built by concatenation\n    run(\"a\" + x);\n}\n\n{\n    // GOOD: bound\n    run(x);\n}\n"
    assert [label for label, _ in split_sample(sample)] == ["bad", "good"]
    in_class = ("class Cache {\n  // BAD\n  Object get() { return lock; }\n  // GOOD\n"
                "  synchronized Object put() { return lock; }\n}\n")
    parts = split_sample(in_class)
    assert [label for label, _ in parts] == ["bad", "good"]
    assert parts[1][1].startswith("class Cache {") and parts[1][1].rstrip().endswith("}")
    assert "put()" in parts[1][1] and "get()" not in parts[1][1]
    assert split_sample("class A { void f() {} }\n") == [(None, "class A { void f() {} }\n")]


def test_expected_rows_alert_the_first_column_of_select_rows_only():
    text = ("edges\n| T.java:3:5:3:9 | a | T.java:8:1:8:4 | b |\n#select\n"
            "| T.java:8:1:8:4 | b | T.java:3:5:3:9 | a | T.java:8:1:8:4 | b | msg |\n")
    alerts, involved = expected_rows(text)
    assert alerts == {"T.java": {7}} and involved["T.java"] == {2, 7}
    assert expected_rows("| U.java:4:2:4:9 | x | message |\n")[0] == {"U.java": {3}}


def test_test_snippets_cut_the_alerted_member_and_keep_quiet_near_misses():
    body = "\n".join(f"  int pad{i} = {i};" for i in range(20))
    code = ("import java.sql.Statement;\nimport java.util.List;\n\npublic class Dao {\n" + body + "\n"
            "  void find(Statement st, String name) throws Exception {\n"
            "    st.executeQuery(\"SELECT * FROM t WHERE n='\" + name + \"'\");\n  }\n\n"
            "  void count(Statement st) throws Exception {\n"
            "    st.executeQuery(\"SELECT COUNT(*) FROM t\");\n  }\n}\n")
    f = java_source("Dao.java", code)
    alerted = code.splitlines().index("    st.executeQuery(\"SELECT * FROM t WHERE n='\" + name + \"'\");")
    [snippet] = violating_snippets(f, {alerted}, __import__("collections").Counter())
    assert snippet.startswith("import java.sql.Statement;\n\npublic class Dao {") and "count(" not in snippet
    assert "List" not in snippet and "find(" in snippet
    quiet = compliant_snippets(f, {alerted}, {"executeQuery"})
    assert len(quiet) == 1 and "count(" in quiet[0] and "find(" not in quiet[0]
    assert compliant_snippets(f, {alerted}, {"somethingElse"}) == []


# -------------------------------------------------------------------------------------- ruff


def test_snapshot_diagnostics_flag_fixture_lines(tmp_path):
    snaps = tmp_path / "crates/ruff_linter/src/rules/flake8_bugbear/snapshots"
    snaps.mkdir(parents=True)
    (snaps / "ruff_linter__rules__flake8_bugbear__tests__B003_B003.py.snap").write_text(
        "---\nsource: x\n---\nB003 Assigning to `os.environ` doesn't clear the environment\n --> B003.py:4:1\n"
        "  |\n4 | os.environ = {}\n  |\n", encoding="utf-8")
    (snaps / "ruff_linter__rules__flake8_bugbear__tests__B004_B004.py.snap").write_text("---\n---\n", encoding="utf-8")
    assert flagged(Snapshot(tmp_path), "flake8_bugbear") == {("B003", "B003.py"): {3}, ("B004", "B004.py"): set()}


def test_fixture_chunks_split_into_violating_and_near_miss_examples():
    from collections import Counter

    code = ('"""Should emit B003."""\nimport os\nimport sys\n\nos.environ = {}\n\n'
            "def reset():\n    os.environ.clear()\n    return os.environ\n\n"
            "def unrelated():\n    return sys.argv\n")
    stats: Counter = Counter()
    bad, good = Examples("python", stats), Examples("python", stats)
    fixture_examples("B003.py", code, {4}, bad, good, stats)
    assert bad.taken() == ["import os\n\nos.environ = {}"]
    assert good.taken() == ["import os\n\ndef reset():\n    os.environ.clear()\n    return os.environ"]


def test_a_builder_given_no_snapshot_fails_with_one_line(tmp_path, capsys):
    from evaluation.books.ruff.build import BOOK, LANGUAGE, NOTES, build

    assert run([str(tmp_path)], BOOK, LANGUAGE, build, NOTES) == 2
    assert run([], BOOK, LANGUAGE, build, NOTES) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert errors[0].startswith(f"error: {tmp_path} is not a readable snapshot of astral-sh/ruff")
    assert errors[1].startswith("usage:") and len(errors) == 2
