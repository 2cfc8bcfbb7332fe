"""Language packs: recognition, members from the real grammars, the stages consulting the registry,
an offline review of a small diff per pack finding its violations, and a third-party pack (Go,
built in a temporary folder) picked up through the registry API and through an entry point."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from dualrag import languages
from dualrag.cli import main
from dualrag.languages.outline import outline
from dualrag.source.language import language_of

DIFFS = Path(__file__).parent / "diffs"


def _review(diff: Path, tmp_path: Path, monkeypatch) -> dict:
    monkeypatch.setenv("DUALRAG_RETRIEVAL__ENABLED", "false")
    out = tmp_path / "review.json"
    with pytest.raises(SystemExit) as exc:
        main(["review", "--offline", "--diff-file", str(diff), "--format", "json", "--output", str(out)])
    assert exc.value.code == 0
    return json.loads(out.read_text())


def _found(review: dict) -> set[tuple[str, int, str]]:
    return {(f["path"].rsplit("/", 1)[-1], f["line"], f["rule_id"]) for f in review["findings"]}


def _members(review: dict) -> set[tuple[str, str]]:
    return {(m["kind"], m["name"]) for c in review["chunks"] for m in c["members"]}


# ----------------------------------------------------------------------------- recognition


@pytest.mark.parametrize(("path", "text", "expected"), [
    ("src/A.java", None, "java"),
    ("flows/in.flow", None, "edi-flow"),
    ("maps/x.DT", None, "edi-dt"),
    ("msg/po.x12", None, "edi-message"),
    ("pom.xml", None, "maven-pom"),
    ("src/main/resources/beans.xml", "<beans/>", "xml"),
    ("src/main/resources/mapper/OrderMapper.xml", '<mapper namespace="a.B">', "mybatis"),
    ("src/x/Orders.xml", '<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "x">', "mybatis"),
    ("src/main/resources/mapper/OrderMapper.xml", '<select id="a">SELECT 1</select>', "mybatis"),
    ("src/x/Orders.xml", '<select id="a">SELECT 1</select>', "xml"),  # no mapper path, no DOCTYPE
    ("tools/export.py", None, "python"),
    ("bin/export", "#!/usr/bin/env python3\nprint(1)\n", "python"),
    ("bin/export", "#!/bin/sh\necho\n", "other"),
    ("db/V1__init.sql", None, "sql"),
    ("src/A.kt", None, "kotlin"),
    ("build.gradle.kts", None, "kotlin"),
    ("src/main/resources/application.yml", None, "spring-yaml"),
    ("src/main/resources/application-prod.yaml", None, "spring-yaml"),
    ("src/main/resources/bootstrap.properties", None, "spring-properties"),
    (".gitlab-ci.yml", None, "yaml"),  # YAML that is not Spring configuration has no pack
    ("README.md", None, "markdown"),
])
def test_language_of(path, text, expected):
    assert language_of(path, text) == expected


def test_a_diff_with_a_mapper_header_is_mybatis_and_python_shebang_is_python(settings):
    from dualrag.diff import ingest

    diff = (b"diff --git a/bin/export b/bin/export\nnew file mode 100755\nindex 0000000..1111111\n"
            b"--- /dev/null\n+++ b/bin/export\n@@ -0,0 +1,2 @@\n+#!/usr/bin/env python3\n+eval(input())\n")
    (f,) = ingest(diff, settings).files
    assert f.language == "python"


def test_every_builtin_pack_is_registered_and_its_grammar_loads():
    names = [p.name for p in languages.packs()]
    for name in ("java", "edi-flow", "edi-dt", "edi-message", "xml", "maven-pom", "python", "sql", "mybatis",
                 "kotlin", "spring-yaml", "spring-properties"):
        assert name in names
    for pack in languages.packs():
        if pack.grammar is not None:
            assert languages.parser(pack.name).parse(b"x").root_node is not None


def test_project_type_follows_the_packs():
    assert languages.project_type(["java", "edi-dt"]) == "edi"  # EDI wins over Java
    assert languages.project_type(["java", "mybatis", "sql"]) == "java"
    assert languages.project_type(["python", "kotlin"]) == "generic"
    assert languages.project_type(["edi-message"]) == "edi"  # one EDI set for classify and detectors


# ----------------------------------------------------------------------------- members


def _outline(language: str, text: str, stem: str = "f"):
    out = outline(language, textwrap.dedent(text), fallback_type=stem)
    assert out.error is None, out.error
    return [(m.kind, m.name, m.start, m.end) for m in out.members]


def test_python_members():
    got = _outline("python", """\
        import os

        @cached
        def load(path):
            return open(path).read()

        class Exporter:
            def run(self):
                x = 1
                return x
        """, "export")
    assert got == [("function", "export.load", 3, 5), ("class", "export.Exporter", 7, 10),
                   ("method", "export.Exporter.run", 8, 10)]


def test_kotlin_members():
    got = _outline("kotlin", """\
        package com.acme

        class Quotes(private val repo: Repo) {
            fun quote(id: Long): Int {
                return repo.find(id).map { it.amount }.sum()
            }
        }

        object Registry {
            fun all() = listOf(1)
        }
        """, "Quotes")
    assert ("class", "com.acme.Quotes", 3, 7) in got
    assert ("method", "com.acme.Quotes.quote", 4, 6) in got
    assert ("lambda", "com.acme.Quotes.quote.lambda@5", 5, 5) in got
    assert ("object", "com.acme.Registry", 9, 11) in got
    assert ("method", "com.acme.Registry.all", 10, 10) in got


def test_sql_statements_are_members_even_where_the_grammar_gives_up():
    text = """\
        -- comments are no statement
        CREATE TABLE orders (
          id bigint,
          note text DEFAULT 'a;b'
        );
        CREATE FUNCTION f() RETURNS int AS $$ BEGIN RETURN 1; END; $$ LANGUAGE plpgsql;
        DELETE FROM orders
         WHERE id = 1;
        """
    got = _outline("sql", text, "V1__init")
    assert got == [("statement", "V1__init:CREATE TABLE orders@2", 2, 5),
                   ("statement", "V1__init:CREATE FUNCTION f@6", 6, 6),
                   ("statement", "V1__init:DELETE FROM orders@7", 7, 8)]


def test_mybatis_statements_are_named_namespace_dot_id():
    got = _outline("mybatis", """\
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
        <mapper namespace="com.acme.OrderMapper">
          <sql id="columns">id, status</sql>
          <select id="findById" resultType="Order">
            SELECT <include refid="columns"/> FROM orders WHERE id = #{id}
          </select>
        </mapper>
        """)
    assert got == [("sql", "com.acme.OrderMapper.columns", 4, 4), ("select", "com.acme.OrderMapper.findById", 5, 7)]


def test_spring_keys_are_members():
    got = _outline("spring-yaml", """\
        spring:
          datasource:
            password: ${DB_PASSWORD}
        """)
    assert got == [("section", "spring", 1, 3), ("section", "spring.datasource", 2, 3),
                   ("key", "spring.datasource.password", 3, 3)]
    got = _outline("spring-properties", "a.b=1\n# note\nc.d: 2 \\\n  3\n")
    assert got == [("key", "a.b", 1, 1), ("key", "c.d", 3, 4)]


# ----------------------------------------------------------------------------- offline reviews


def test_python_diff_offline(tmp_path, monkeypatch, in_tmp):
    review = _review(DIFFS / "python.diff", tmp_path, monkeypatch)
    assert _found(review) == {
        ("export_labels.py", 6, "PY-SEC-005"),   # hard-coded password
        ("export_labels.py", 14, "PY-SEC-001"),  # eval
        ("export_labels.py", 17, "PY-SEC-004"),  # yaml.load without SafeLoader (tree-sitter)
        ("export_labels.py", 18, "PY-SEC-003"),  # shell=True
        ("export_labels.py", 19, "PY-SEC-002"),  # pickle.loads
    }
    assert ("method", "export_labels.LabelExporter.load") in _members(review)


def test_sql_and_mybatis_diff_offline(tmp_path, monkeypatch, in_tmp):
    review = _review(DIFFS / "sql-mybatis.diff", tmp_path, monkeypatch)
    assert {(f["path"].rsplit("/", 1)[-1], f["language"]) for f in review["files"]} == {
        ("V7__cleanup.sql", "sql"), ("OrderMapper.xml", "mybatis")}
    assert _found(review) == {
        ("V7__cleanup.sql", 3, "SQL-SEL-001"), ("V7__cleanup.sql", 5, "SQL-DML-001"),
        ("V7__cleanup.sql", 9, "SQL-MIG-001"),
        ("OrderMapper.xml", 8, "SQL-INJ-001"), ("OrderMapper.xml", 8, "SQL-SEL-001"),
        ("OrderMapper.xml", 10, "SQL-DML-002"),
    }
    members = _members(review)
    assert ("select", "com.acme.orders.OrderMapper.findByStatus") in members
    assert ("update", "com.acme.orders.OrderMapper.reopenAll") in members
    assert ("statement", "V7__cleanup:DELETE FROM stock_reservation@5") in members


def test_kotlin_diff_offline(tmp_path, monkeypatch, in_tmp):
    review = _review(DIFFS / "kotlin.diff", tmp_path, monkeypatch)
    assert _found(review) == {("QuoteService.kt", 8, "KT-CORO-001"), ("QuoteService.kt", 9, "KT-NULL-001"),
                              ("QuoteService.kt", 14, "KT-CORO-002")}
    assert ("method", "com.acme.QuoteService.audit") in _members(review)


def test_spring_diff_offline(tmp_path, monkeypatch, in_tmp):
    review = _review(DIFFS / "spring.diff", tmp_path, monkeypatch)
    # ddl-auto=update in application.properties (no production profile) and ${...} values stay silent
    assert _found(review) == {
        ("application-prod.yml", 5, "SPRING-CFG-001"), ("application-prod.yml", 8, "SPRING-CFG-002"),
        ("application-prod.yml", 13, "SPRING-CFG-003"),
        ("application.properties", 3, "SPRING-CFG-003"), ("application.properties", 4, "SPRING-CFG-001"),
    }
    assert ("key", "spring.jpa.hibernate.ddl-auto") in _members(review)


# ----------------------------------------------------------------------------- a third-party pack

GO_PACK = '''
"""A throw-away Go pack: nothing in dualrag names it."""
from pathlib import Path

from dualrag.languages import Grammar, LanguagePack, Specialist

_QUERY = "[(function_declaration) (method_declaration)] @member (type_declaration) @type"


def go_members(text, *, fallback_type=""):
    from tree_sitter import Query, QueryCursor

    from dualrag import languages
    from dualrag.parsing import Member

    root = languages.parser("go").parse(text.encode()).root_node
    captures = QueryCursor(Query(languages.language("go"), _QUERY)).captures(root)
    package = next((c.named_children[0].text.decode() for c in root.named_children if c.type == "package_clause"), "")
    out = []
    for kind, nodes in (("function", captures.get("member", [])), ("type", captures.get("type", []))):
        for node in nodes:
            name = node.child_by_field_name("name")
            if name is None and node.named_children:
                name = node.named_children[0].child_by_field_name("name")
            out.append(Member(kind=kind, name=f"{package}.{name.text.decode()}", signature=node.text.decode().split("{")[0].strip(),
                              start=node.start_point.row + 1, end=node.end_point.row + 1, groups=kind == "function"))
    return tuple(sorted(out, key=lambda m: (m.start, -m.end))), [], root


# its own specialist, whose prompt ships beside it; every tier, so even a small change gets it
REVIEWER = Specialist("go", "Go reviewer", ("correctness", "reliability"),
                      prompt=str(Path(__file__).parent / "go_reviewer.md"), tiers=("trivial", "lite", "full"))

PACK = LanguagePack(name="go", extensions=(".go",), grammar=Grammar("go", "tree_sitter_go"), members=go_members,
                    rules=str(Path(__file__).parent / "rules"), fence="go", member_kinds=("function", "type"),
                    containers=("type",), reviewers=(REVIEWER,))
'''

GO_REVIEWER = """# Your specialty: Go reviewer

Check the added Go code for errors that are dropped or turned into panics, goroutines that
never end, and deferred calls inside loops. Category `reliability` for a crash, else `correctness`.
"""

GO_RULES = '''# Go

---
id: GO-ERR-001
title: Return errors instead of panicking in service code
level: mandatory
severity: major
project_types: []
languages: [go]
domains: []
tags: [errors]
detect:
  kind: regex
  pattern: '\\bpanic\\('
---
A panic in a request handler takes the whole service down; return the error to the caller.

### Bad
```go
panic(err)
```

### Good
```go
return fmt.Errorf("load order: %w", err)
```
'''

GO_DIFF = b'''diff --git a/orders/quote.go b/orders/quote.go
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/orders/quote.go
@@ -0,0 +1,14 @@
+package orders
+
+type Quote struct {
+\tAmount int
+}
+
+func Load(id int) Quote {
+\tq, err := fetch(id)
+\tif err != nil {
+\t\tpanic(err)
+\t}
+\treturn q
+}
+
'''


def _write_go_pack(root: Path) -> None:
    pack = root / "dualrag_go_pack"
    (pack / "rules" / "go").mkdir(parents=True)
    (pack / "__init__.py").write_text(GO_PACK)
    (pack / "rules" / "go" / "errors.md").write_text(GO_RULES)
    (pack / "go_reviewer.md").write_text(GO_REVIEWER)


@pytest.fixture
def clean_registry(monkeypatch):
    yield
    sys.modules.pop("dualrag_go_pack", None)
    languages.reload()


def test_a_go_pack_registered_at_run_time_is_reviewed_with_member_chunks(tmp_path, monkeypatch, in_tmp,
                                                                         clean_registry):
    pytest.importorskip("tree_sitter_go")
    _write_go_pack(tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    import dualrag_go_pack

    languages.register(dualrag_go_pack.PACK)
    assert language_of("orders/quote.go") == "go"
    diff = tmp_path / "go.diff"
    diff.write_bytes(GO_DIFF)
    review = _review(diff, tmp_path, monkeypatch)
    assert {(m["kind"], m["name"]) for c in review["chunks"] for m in c["members"]} == {
        ("type", "orders.Quote"), ("function", "orders.Load")}
    assert _found(review) == {("quote.go", 10, "GO-ERR-001")}  # the pack's own rules and detectors
    # named as the pack says: a type is a container (its last name part), a function keeps its package
    assert review["walkthrough"]["files"][0]["members"] == ["type Quote", "function orders.Load"]


def test_a_go_change_gets_the_go_packs_reviewer_with_the_prompt_it_ships(tmp_path, monkeypatch, oai,
                                                                         clean_registry):
    pytest.importorskip("tree_sitter_go")
    from dualrag.config import load_settings
    from dualrag.pipeline import run_review
    from dualrag.review.reviewers import select_reviewers

    _write_go_pack(tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    import dualrag_go_pack

    languages.register(dualrag_go_pack.PACK)
    assert [r.name for r in select_reviewers("lite", "generic", languages=["go"])] == ["quality", "rules", "go"]
    assert "go" not in [r.name for r in select_reviewers("lite", "generic", languages=["java"])]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    oai.responder = lambda req: oai.chat(json.dumps({"findings": [
        {"path": "orders/quote.go", "line": 10, "severity": "warning", "category": "reliability",
         "title": "panic in service code", "message": "return the error instead"}]}))
    settings = load_settings(None, retrieval={"enabled": False},
                             review={"walkthrough": False, "reverse_check": False, "rule_checks": 0},
                             llm={"model": "openai:gpt-4.1-mini", "openai": {"base_url": oai.base_url, "local": False}})
    review = run_review(GO_DIFF, settings)
    systems = {r.json["messages"][0]["content"] for r in oai.requests}
    assert any("Your specialty: Go reviewer" in s for s in systems)  # the pack's own prompt file, after shared.md
    assert "go" in {run.reviewer for run in review.reviewers}
    assert any(f.reviewer and "go" in f.reviewer.split(",") for f in review.findings)


def test_a_pack_declared_by_an_entry_point_is_loaded(tmp_path, monkeypatch, clean_registry):
    pytest.importorskip("tree_sitter_go")
    site = tmp_path / "site"
    _write_go_pack(site)
    info = site / "dualrag_go_pack-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dualrag-go-pack\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[dualrag.languages]\ngo = dualrag_go_pack:PACK\n")
    monkeypatch.syspath_prepend(str(site))
    assert languages.pack_for("go") is None
    languages.reload()
    pack = languages.pack_for("go")
    assert pack is not None and language_of("cmd/main.go") == "go"
    assert [m.name for m in outline("go", "package main\n\nfunc main() {\n}\n").members] == ["main.main"]


def test_a_broken_entry_point_is_reported_and_skipped(tmp_path, monkeypatch, capsys, clean_registry):
    site = tmp_path / "site"
    info = site / "broken_pack-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-pack\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[dualrag.languages]\nbroken = no_such_module:PACK\n")
    monkeypatch.syspath_prepend(str(site))
    languages.reload()
    assert languages.pack_for("java") is not None
    assert "language pack 'broken'" in capsys.readouterr().err
