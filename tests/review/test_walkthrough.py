"""The deterministic walkthrough: files, the members their changed lines sit in, tier and type."""

from __future__ import annotations

from dualrag.review.model import ChunkMemberReport, ChunkReport, FileReport
from dualrag.review.walkthrough import deterministic_walkthrough


def file(path, status="modified", added=3, removed=1, skipped=None, old_path=None) -> FileReport:
    return FileReport(path=path, old_path=old_path, status=status, language="java", binary=False, similarity=None,
                      encoding="utf-8", newline="lf", added=added, removed=removed, skipped_reason=skipped)


def member(kind, name, start, end, path="src/a/Order.java") -> ChunkMemberReport:
    return ChunkMemberReport(path=path, kind=kind, name=name, signature="", start_line=start, end_line=end)


def test_members_are_the_innermost_and_the_overview_counts_what_was_reviewed():
    chunks = [ChunkReport(id="c1", files=["src/a/Order.java"], estimated_tokens=10, members=[
        member("class", "com.acme.Order", 1, 80), member("method", "com.acme.Order.total(List<Line>)", 10, 20)]),
        ChunkReport(id="c2", files=["src/a/Order.java", "src/b/Old.java"], estimated_tokens=10, members=[
            member("method", "com.acme.Order.total(List<Line>)", 10, 20),  # the same member in two chunks: once
            member("class", "com.acme.Old", 1, 9, path="src/b/New.java")])]
    files = [file("src/a/Order.java"), file("src/b/New.java", "renamed", old_path="src/b/Old.java"),
             file("package-lock.json", skipped="lock file")]
    w = deterministic_walkthrough(files, chunks, project_type="java", risk_tier="full", tier_reasons=["auth/ path"])
    assert w.source == "deterministic"
    assert w.files[0].members == ["method Order.total(List<Line>)"]  # the class holding it is not repeated
    assert w.files[1].members == ["class Old"] and w.files[1].status == "renamed from src/b/Old.java"
    assert w.files[2].skipped == "lock file"
    assert w.overview == ("2 files reviewed (1 modified, 1 renamed), 1 skipped; 2 members changed; "
                          "java project, risk tier full (auth/ path).")


def test_each_language_pack_names_its_own_members_and_containers():
    def f(path, language):
        return FileReport(path=path, old_path=None, status="modified", language=language, binary=False, similarity=None,
                          encoding="utf-8", newline="lf", added=2, removed=0, skipped_reason=None)

    yml, kt, sql, py = ("src/main/resources/application-prod.yml", "src/main/kotlin/Quotes.kt", "db/V7__x.sql",
                        "tools/export.py")
    chunks = [ChunkReport(id="c1", files=[yml, kt, sql, py], estimated_tokens=10, members=[
        member("section", "spring.datasource", 1, 6, path=yml),
        member("key", "spring.datasource.password", 4, 4, path=yml),  # a key is named whole
        member("object", "com.acme.Quotes", 1, 20, path=kt),  # a Kotlin object holds members
        member("method", "com.acme.Quotes.price(Int)", 3, 8, path=kt),
        member("statement", "V7__x:DELETE FROM sales.orders@5", 5, 5, path=sql),  # not a dotted path
        member("class", "export.LabelExporter", 1, 30, path=py),  # a Python class holding nothing changed
    ])]
    files = [f(yml, "spring-yaml"), f(kt, "kotlin"), f(sql, "sql"), f(py, "python")]
    w = deterministic_walkthrough(files, chunks, project_type="generic", risk_tier="lite")
    assert [e.members for e in w.files] == [
        ["key spring.datasource.password"],
        ["method Quotes.price(Int)"],
        ["statement V7__x:DELETE FROM sales.orders@5"],
        ["class LabelExporter"],
    ]
