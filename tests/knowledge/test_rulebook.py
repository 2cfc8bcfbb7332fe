"""The bundled rule sets load, and malformed rule files fail with one clear line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from dualrag._bundled import knowledge_dir
from dualrag.errors import UserError
from dualrag.rulebook import RuleBookError, load_bundled, load_rule_file


def test_bundled_rules_load_with_counts_and_unique_ids():
    rules = load_bundled()
    by_top = Counter(r.source.file.split("/")[0] for r in rules)
    assert by_top["java"] >= 40
    assert by_top["edi"] >= 15
    ids = [r.rule_id for r in rules]
    assert len(ids) == len(set(ids))
    for r in rules:
        assert r.bad_examples and r.good_examples, r.rule_id
        assert r.source.kb == "bundled" and r.source.anchor == r.rule_id
        assert (knowledge_dir() / r.source.file).is_file()
        assert r.text and "### Bad" not in r.text
        assert r.bad_examples[0].startswith("```")


def test_detector_counts():
    rules = load_bundled()
    detected = Counter(r.source.file.split("/")[0] for r in rules if r.detect)
    assert detected["java"] >= 15 and detected["edi"] >= 5


def _write(tmp_path: Path, text: str, name: str = "set.md") -> Path:
    path = tmp_path / "knowledge" / "java" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


RULE = """---
id: JAVA-T-001
title: A title
level: mandatory
severity: major
project_types: [java]
languages: [java]
{extra}---
Why it matters.

### Bad
```java
int a = (int) Math.random();
```

### Good
```java
int a = 0;
```
"""


def test_minimal_rule_file(tmp_path):
    path = _write(tmp_path, "# My set\n\nIntro.\n\n" + RULE.format(extra="detect:\n  kind: regex\n  on: removed\n  pattern: 'x'\n"))
    [rule] = load_rule_file(path)
    assert rule.source.file == "java/set.md"
    assert rule.section == ["java", "My set"]
    assert rule.detect.on == "removed" and rule.detect.languages == ["java"]
    assert rule.text == "Why it matters."
    assert rule.bad_examples == ["```java\nint a = (int) Math.random();\n```"]


@pytest.mark.parametrize(("extra", "expected"), [
    ("sevrity: major\n", "unknown key(s) sevrity"),
    ("level: must\n", None),  # duplicate key in YAML: later wins -> bad level
    ("detect:\n  kind: regex\n  pattern: '('\n", "invalid detect regex"),
    ("detect:\n  kind: tree-sitter\n  pattern: '(no_such_node) @violation'\n", "invalid tree-sitter query"),
    ("detect:\n  kind: tree-sitter\n  pattern: '(return_statement) @x'\n", "no @violation capture"),
    ("detect:\n  kind: regex\n  pattern: 'x'\n  window: hunk\n", "unknown detect key(s) window"),
    ("detect:\n  kind: regex\n  pattern: 'x'\n  scope: hunk\n", "detect.scope goes with kind scoped-query"),
    ("detect:\n  kind: scoped-query\n  pattern: '(return_statement) @violation'\n  scope: {near: x}\n",
     "detect.scope is a mapping of 'inside', 'receiver_types' and 'absent'"),
    ("tags: [a, 997]\n", "'tags' must be a list of strings"),
])
def test_bad_rules_are_named(tmp_path, extra, expected):
    path = _write(tmp_path, RULE.format(extra=extra))
    with pytest.raises(RuleBookError) as info:
        load_rule_file(path)
    message = str(info.value)
    assert message.startswith("java/set.md:1: rule JAVA-T-001:")
    assert expected is None or expected in message
    assert isinstance(info.value, UserError)


def test_bad_level_and_missing_key(tmp_path):
    bad_level = RULE.format(extra="").replace("level: mandatory", "level: must")
    with pytest.raises(RuleBookError, match=r"bad level 'must' \(expected mandatory\|recommended\|reference\)"):
        load_rule_file(_write(tmp_path, bad_level))
    missing = RULE.format(extra="").replace("severity: major\n", "")
    with pytest.raises(RuleBookError, match="missing key.*severity"):
        load_rule_file(_write(tmp_path, missing))


def test_duplicate_ids_in_file_and_across_files(tmp_path):
    one = RULE.format(extra="")
    with pytest.raises(RuleBookError, match="duplicate id"):
        load_rule_file(_write(tmp_path, one + "\n" + one))
    _write(tmp_path, one, "a.md")
    _write(tmp_path, one, "b.md")
    (tmp_path / "knowledge" / "java" / "set.md").unlink(missing_ok=True)
    with pytest.raises(RuleBookError, match=r"java/b.md: rule JAVA-T-001: duplicate id, already defined in java/a.md"):
        load_bundled(tmp_path / "knowledge")


def test_yaml_error_points_at_line(tmp_path):
    path = _write(tmp_path, RULE.format(extra="tags: [unclosed\n"))
    with pytest.raises(RuleBookError, match=r"java/set.md:\d+: invalid YAML front matter"):
        load_rule_file(path)


def test_text_outside_code_in_example_section(tmp_path):
    text = RULE.format(extra="").replace("### Good\n", "### Good\nloose words\n")
    with pytest.raises(RuleBookError, match="text outside a code block"):
        load_rule_file(_write(tmp_path, text))


def test_dashes_inside_code_block_do_not_start_a_rule(tmp_path):
    text = RULE.format(extra="").replace("int a = 0;", "int a = 0;\n---\nint b = 1;")
    [rule] = load_rule_file(_write(tmp_path, text))
    assert "---" in rule.good_examples[0]


def test_bundled_titles_are_whole():
    """A title is a phrase, never a lone verb cut off by YAML (JAVA-SQL-003 once read "Use")."""
    rules = load_bundled()
    bare = {"use", "avoid", "prefer", "do", "not", "never", "always", "keep", "make", "bind", "build",
            "compare", "give", "validate"}  # where a title cut off by YAML ends
    for r in rules:
        words = r.title.split()
        assert len(words) >= 3, (r.rule_id, r.title)
        assert words[-1].strip(".,;:").lower() not in bare, (r.rule_id, r.title)
    sql = next(r for r in rules if r.rule_id == "JAVA-SQL-003")
    assert sql.title == "Use #{} in MyBatis mappers, not ${}"


@pytest.mark.parametrize(("line", "title"), [
    ("title: Use #{} in mappers, not ${}", "Use #{} in mappers, not ${}"),  # `#` then a non-blank is text
    ("title: Use #{} in mappers   # a comment", "Use #{} in mappers"),
    ("title: A plain title # a comment", "A plain title"),
    ("title: 'Quoted #{} title'", "Quoted #{} title"),
    ("title: Ticket #42 must be linked", "Ticket #42 must be linked"),
])
def test_title_keeps_inline_hashes(tmp_path, line, title):
    [rule] = load_rule_file(_write(tmp_path, RULE.format(extra="").replace("title: A title", line)))
    assert rule.title == title
