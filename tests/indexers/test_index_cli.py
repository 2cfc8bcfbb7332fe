"""`dualrag index rules` and `dualrag rules inspect` end to end on a real embedded store:
documents never overwrite each other, re-indexing prunes only the document's own rules, a bad
document writes nothing, and team rule-set files' detectors run in reviews (issue #13)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from dualrag._bundled import knowledge_dir
from dualrag.cli import main
from dualrag.rulebook import load_bundled
from dualrag.units import RuleSource, RuleUnit, document_key
from indexers.rules import dedupe_ids, segment, segment_with_report

from .conftest import make_pdf

MD = """# 1 Team rules

## 1.1 Concurrency

1. 【强制】线程池不允许使用 Executors 创建，必须通过 ThreadPoolExecutor 指定有界队列。
2. 【推荐】SimpleDateFormat 是线程不安全的类，不要定义为 static 变量。
3. 【强制】ThreadLocal 用完必须在 finally 中 remove。

## 1.2 Money

1. 【强制】禁止使用 BigDecimal(double) 构造方法，使用 BigDecimal.valueOf。
2. 【推荐】金额比较使用 compareTo，不使用 equals。
"""

TEAM_RULE_SET = """# Team security

---
id: TEAM-SEC-001
title: Never call System.exit in service code
level: mandatory
severity: critical
project_types: [java]
languages: [java]
detect:
  kind: regex
  pattern: 'System\\.exit\\('
  message: System.exit stops the whole service.
---
A service must not stop the JVM; throw an exception and let the container decide.

### Bad
```java
System.exit(1);
```

### Good
```java
throw new IllegalStateException("cannot start");
```
"""


def make_docx(path: Path, *, drop: str | None = None) -> Path:
    """Word's own numbering restarts per section: rules 1.1.1, 1.1.2, 1.2.1, 1.2.2 (as in MD)."""
    import docx

    d = docx.Document()
    d.add_heading("1 Coding rules", level=1)
    d.add_heading("1.1 Naming", level=2)
    items = [
        ("1.1", "1.【强制】类名使用 UpperCamelCase 风格，DO / DTO 等除外。"),
        ("1.1", "2.【推荐】方法名、参数名、成员变量统一使用 lowerCamelCase 风格。"),
        ("1.1", "3.【强制】常量命名全部大写，单词间用下划线隔开。"),
        ("1.2", "1.【强制】不允许任何魔法值直接出现在代码中。"),
        ("1.2", "2.【推荐】long 型赋值时数值后使用大写的 L。"),
    ]
    section = "1.1"
    for where, text in items:
        if where != section:
            d.add_heading("1.2 Constants", level=2)
            section = where
        if drop and drop in text:
            continue
        d.add_paragraph(text)
    d.save(str(path))
    return path


def run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def index(capsys, *paths, kb="team", extra=()):
    return run(["index", "rules", *map(str, paths), "--kb", kb, "--store", "st", *extra], capsys)


def stored(kb="team") -> dict[str, tuple[str, str, str]]:
    """point id -> (document, rule id, hash of the whole payload)."""
    from dualrag.store import StoreConfig, open_store

    with open_store("st", StoreConfig(lock_timeout=0)) as db:
        if not db.exists(kb):
            return {}
        records, _ = db.client.scroll(db.collection(kb), limit=10_000, with_payload=True)
    # document_hash (the bytes of the whole document) changes with any rule of it: not the rule's own
    return {str(r.id): (r.payload["document"], r.payload["rule_id"], hashlib.sha256(json.dumps(
                {k: v for k, v in r.payload.items() if k != "document_hash"}, sort_keys=True).encode()).hexdigest())
            for r in records}


def expected(*paths, kb="team") -> set[tuple[str, str]]:
    return {(u.source.document, u.rule_id) for p in paths for u in segment(p, kb)}


def rules_of(state) -> set[tuple[str, str]]:
    return {(doc, rid) for doc, rid, _ in state.values()}


@pytest.fixture
def docs(in_tmp):
    make_docx(in_tmp / "guideline.docx")
    (in_tmp / "team-rules.md").write_text(MD, encoding="utf-8")
    return in_tmp


# ------------------------------------------------------------------ the README's two-document example


def test_both_documents_use_the_same_numbering(docs):
    for name in ("guideline.docx", "team-rules.md"):
        units = segment(name, "team")
        numbering = {u.rule_id.split(":")[-1] for u in units}
        assert {"1.1.1", "1.1.2", "1.2.1"} <= numbering, (name, sorted(numbering))
        assert len(units) >= 5


def test_two_documents_indexed_together_are_all_kept(docs, capsys):
    code, out, err = index(capsys, "guideline.docx", "team-rules.md")
    assert code == 0, err
    want = expected("guideline.docx", "team-rules.md")
    state = stored()
    assert rules_of(state) == want and len(state) == len(want) == 10
    assert out.startswith(f"team: {len(want)} rules from 2 document(s) ({len(want)} added")
    # one report line per document, naming it
    assert [line.split(":")[0] for line in err.splitlines() if "->" in line] == ["guideline.docx", "team-rules.md"]


def test_two_documents_indexed_one_after_the_other_are_all_kept(docs, capsys):
    assert index(capsys, "guideline.docx")[0] == 0
    first = stored()
    code, out, err = index(capsys, "team-rules.md")
    assert code == 0, err
    assert "5 added, 0 updated, 0 unchanged)" in out and "pruned" not in out
    state = stored()
    assert rules_of(state) == expected("guideline.docx", "team-rules.md") and len(state) == 10
    assert {pid: state[pid] for pid in first} == first  # the first document's rules untouched


def test_reindexing_a_document_prunes_only_its_own_rules(docs, capsys):
    assert index(capsys, "guideline.docx", "team-rules.md")[0] == 0
    before = stored()
    make_docx(docs / "guideline.docx", drop="常量命名")  # the last of its section: nothing is renumbered
    [gone] = {(d, r) for d, r, _ in before.values() if d == document_key("guideline.docx")} - expected("guideline.docx")
    code, out, err = index(capsys, "guideline.docx")
    assert code == 0, err
    assert "0 added, 0 updated, 4 unchanged, 1 pruned)" in out
    after = stored()
    assert after == {pid: v for pid, v in before.items() if v[:2] != gone}  # only that rule, nothing else changed


@pytest.mark.parametrize("bad", ["corrupt.docx", "empty.md", "broken.pdf", "notes.odt"])
def test_a_bad_second_document_writes_nothing(docs, capsys, bad):
    assert index(capsys, "guideline.docx")[0] == 0
    before = stored()
    data = {"corrupt.docx": b"not a zip at all", "empty.md": b"", "broken.pdf": b"%PDF-1.4 truncated",
            "notes.odt": b"whatever"}[bad]
    (docs / bad).write_bytes(data)
    (docs / "team-rules.md").write_text(MD + "\n3. 【强制】新规则。\n", encoding="utf-8")
    code, out, err = index(capsys, "team-rules.md", bad, "guideline.docx")
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2 and bad in lines[0] and lines[0].startswith("dualrag: error: ")
    assert lines[1] == "dualrag: error: nothing was indexed: 1 of 3 document(s) could not be read"
    assert "Traceback" not in err
    assert stored() == before  # point ids and payloads as they were


def test_debug_shows_the_traceback_of_a_bad_document(docs, capsys):
    (docs / "corrupt.docx").write_bytes(b"not a zip")
    code, _, err = index(capsys, "corrupt.docx", extra=("--debug",))
    assert code == 2 and "Traceback" in err and "corrupt.docx" in err


def test_missing_file_and_empty_folder(docs, capsys):
    code, _, err = index(capsys, "guideline.docx", "nope.pdf")
    assert code == 2 and "nope.pdf: no such file" in err and not Path("st").exists()
    (docs / "empty").mkdir()
    code, _, err = index(capsys, "empty")
    assert code == 2 and "no rule documents found in empty" in err


# ------------------------------------------------------------------ ids and duplicates


def test_a_real_duplicate_is_reported_and_both_kept(docs, capsys):
    """Same slug, same numbering: `rules.docx` and `rules.md` give the same rule ids."""
    make_docx(docs / "rules.docx")
    (docs / "rules.md").write_text(MD, encoding="utf-8")
    shared = {r for _, r in expected("rules.docx")} & {r for _, r in expected("rules.md")}
    assert shared
    code, out, err = index(capsys, "rules.docx", "rules.md")
    assert code == 0, err
    some = min(shared)
    assert f"duplicate rule id {some} in rules.docx and rules.md: both kept" in err.splitlines()
    assert rules_of(stored()) == expected("rules.docx", "rules.md")
    # one after the other: the stored duplicate is reported too, from the other side
    code, _, err = index(capsys, "rules.md")
    assert code == 0 and f"duplicate rule id {some} in rules.md and rules.docx: both kept" in err.splitlines()
    # search hits still come back, one per rule
    code, out, _ = run(["search", "rules", "--text", "线程池 Executors", "--kb", "team", "--store", "st",
                        "--format", "json"], capsys)
    assert code == 0 and json.loads(out)


def test_the_same_document_by_another_path_is_the_same_document(docs, capsys):
    assert index(capsys, "team-rules.md")[0] == 0
    code, out, _ = index(capsys, "./team-rules.md", str(docs / "team-rules.md"))
    assert code == 0 and "0 added, 0 updated, 5 unchanged)" in out and "duplicate" not in out
    assert {d for d, _, _ in stored().values()} == {document_key("team-rules.md")}


def test_document_key_is_the_same_from_any_working_directory(tmp_path, monkeypatch):
    repo = tmp_path / "handbook"
    (repo / ".git").mkdir(parents=True)
    (repo / "docs").mkdir()
    monkeypatch.chdir(repo)
    assert document_key("docs/a.pdf") == document_key("./docs/../docs/a.pdf") == "handbook/docs/a.pdf"
    assert document_key(repo / "docs" / "a.pdf") == "handbook/docs/a.pdf"
    assert document_key("a.pdf", cwd=repo / "docs") == "handbook/docs/a.pdf"
    assert document_key("handbook/docs/a.pdf", cwd=tmp_path) == "handbook/docs/a.pdf"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "link.pdf").symlink_to(repo / "docs" / "a.pdf")
    assert document_key(tmp_path / "docs" / "link.pdf") == "handbook/docs/a.pdf"  # resolved
    outside = tmp_path / "elsewhere" / "b.docx"
    assert document_key(outside) == outside.resolve().as_posix()


def test_dedupe_ids_is_per_document_and_idempotent():
    def unit(rule_id, doc):
        return RuleUnit(rule_id=rule_id, title="t", text="t", source=RuleSource(kb="k", file=doc))

    units = [unit("R-1", "a"), unit("R-1", "a"), unit("R-1~2", "a"), unit("R-1", "b"), unit("R-1", "a")]
    ids = [(u.source.document, u.rule_id) for u in dedupe_ids(units)]
    assert ids == [("a", "R-1"), ("a", "R-1~3"), ("a", "R-1~2"), ("b", "R-1"), ("a", "R-1~4")]
    assert dedupe_ids(dedupe_ids(units)) == dedupe_ids(units)
    assert len({u.point_id for u in dedupe_ids(units)}) == 5


def test_bundled_point_ids_do_not_depend_on_the_install_location(tmp_path):
    copy = tmp_path / "site-packages" / "knowledge"
    shutil.copytree(knowledge_dir(), copy)
    here = {u.rule_id: u.point_id for u in load_bundled()}
    there = {u.rule_id: u.point_id for u in load_bundled(copy)}
    assert here == there and len(set(here.values())) == len(here)
    assert all(u.source.document == u.source.file and not u.source.document.startswith("/")
               for u in load_bundled())


# ------------------------------------------------------------------ telling the user what was understood


def test_dry_run_prints_the_units_and_opens_no_store(docs, capsys):
    code, out, err = index(capsys, "guideline.docx", "team-rules.md", extra=("--dry-run",))
    assert code == 0, err
    assert not Path("st").exists()
    for _, rule_id in expected("guideline.docx", "team-rules.md"):
        assert f"  {rule_id} [" in out
    assert "Executors" in out and "1 Team rules > 1.1 Concurrency" in out
    assert [line.split(":")[0] for line in err.splitlines() if "->" in line] == ["guideline.docx", "team-rules.md"]


def test_rules_inspect_text_and_json(docs, capsys):
    (docs / "team").mkdir()
    (docs / "team" / "security.md").write_text(TEAM_RULE_SET, encoding="utf-8")
    (docs / "team" / "README.md").write_text("# How we write rules\n\nNot a rule.\n", encoding="utf-8")
    code, out, _ = run(["rules", "inspect", "team-rules.md", "team"], capsys)
    assert code == 0
    assert out.startswith("team-rules.md: ") and "-> 5 rules (mandatory 3, recommended 2)" in out
    assert "team/security.md: rule set -> 1 rule (mandatory 1); 1 with a detector" in out
    assert "TEAM-SEC-001 [mandatory] Never call System.exit in service code" in out
    assert "README" not in out  # a rule folder's README documents the format, it holds no rules
    code, out, _ = run(["rules", "inspect", "team-rules.md", "--format", "json", "--kb", "other"], capsys)
    [doc] = json.loads(out)
    units, report = doc["units"], doc["report"]
    assert doc["document"] == document_key("team-rules.md") and report["units"] == len(units) == 5
    want = {u.point_id for u in segment("team-rules.md", "other")}
    assert {u["point_id"] for u in units} == want
    assert all(u["source"]["kb"] == "other" and u["tokens"] > 0 and u["text"] for u in units)


def test_report_lines():
    from indexers.rules import DocumentReport

    report = DocumentReport(file="rules-word.docx", headings=172, rule_headings=170, split=3)
    report.summarise([RuleUnit(rule_id="ABC07-J", title="t", text="x" * 1833, level="mandatory",
                               source=RuleSource(kb="k", file="rules-word.docx"))], lambda text: len(text) // 3)
    assert report.lines()[0] == ("rules-word.docx: 172 headings (170 rule headings) -> 1 rule (mandatory 1); "
                                 "largest ABC07-J 612 tokens; 3 split by the size cap")
    assert report.lines()[1].startswith("warning: rules-word.docx: 170 rule headings but only 1 units")


def test_segment_with_report_reads_rule_sets_as_written(docs):
    path = docs / "security.md"
    path.write_text(TEAM_RULE_SET, encoding="utf-8")
    units, report = segment_with_report(path, "team")
    assert [u.rule_id for u in units] == ["TEAM-SEC-001"] and units[0].detect is not None
    assert units[0].source.document == document_key(path) and report.rule_set and report.detectors == 1


# ------------------------------------------------------------------ team detectors run in reviews

DIFF = (
    "diff --git a/src/Boot.java b/src/Boot.java\n--- a/src/Boot.java\n+++ b/src/Boot.java\n"
    "@@ -1,3 +1,3 @@\n class Boot {\n-  void stop() { }\n+  void stop() { System.exit(1); }\n }\n"
)


def test_team_rule_set_detectors_run_in_a_review(docs, capsys):
    (docs / "security.md").write_text(TEAM_RULE_SET, encoding="utf-8")
    assert index(capsys, "security.md", "team-rules.md")[0] == 0
    (docs / "c.diff").write_text(DIFF)
    code, out, err = run(["review", "--diff-file", "c.diff", "--store", "st", "--offline", "--format", "json"],
                         capsys)
    assert code == 0, err
    review = json.loads(out)
    [finding] = [f for f in review["findings"] if f["rule_id"] == "TEAM-SEC-001"]
    assert finding["source"] == "detector" and finding["line"] == 2 and finding["severity"] == "critical"
    assert finding["message"] == "System.exit stops the whole service."
    assert review["decision"] == "significant_concerns"


def test_review_rules_know_team_ids_and_fall_back_to_bundled(docs, capsys):
    from dualrag.checks.detectors import bundled_rules, review_rules
    from dualrag.config import Settings

    (docs / "security.md").write_text(TEAM_RULE_SET, encoding="utf-8")
    assert index(capsys, "security.md", "team-rules.md")[0] == 0
    bundled = {r.rule_id for r in load_bundled()}
    rules = review_rules(Settings(store="st"))
    assert not rules.notes
    assert rules.known_ids == bundled | {r for _, r in expected("team-rules.md")} | {"TEAM-SEC-001"}
    assert "TEAM-SEC-001" in {r.rule_id for r in rules.detectors}
    assert {r.rule_id for r in review_rules(Settings(store="st").model_copy(
        update={"retrieval": Settings().retrieval.model_copy(update={"kbs": ["other"]})})).detectors} \
        == {r.rule_id for r in load_bundled() if r.detect}

    nowhere = review_rules(Settings(store="nowhere"))
    assert nowhere.known_ids == bundled and not nowhere.notes
    assert not Path("nowhere").exists()  # no store there: nothing to read, and none is created

    from dualrag.store import StoreConfig, open_store

    with open_store("st", StoreConfig(lock_timeout=0)):  # another process holds the embedded store
        locked = review_rules(Settings(store="st", qdrant=StoreConfig(lock_timeout=0)))
    assert locked.known_ids == bundled and locked.detectors == bundled_rules().detectors
    notes = locked.notes
    assert len(notes) == 1 and notes[0].startswith("team rule detectors skipped: store st is in use")


def test_kb_drop(docs, capsys):
    assert index(capsys, "team-rules.md")[0] == 0
    code, out, _ = run(["kb", "drop", "team", "--store", "st"], capsys)
    assert code == 0 and "dropped knowledge base 'team'" in out and stored() == {}
    code, _, err = run(["kb", "drop", "team", "--store", "st"], capsys)
    assert code == 2 and "no knowledge base 'team'" in err


def test_pdf_and_docx_with_the_same_numbering(in_tmp, capsys):
    """The README example with a PDF: `guideline.pdf team-rules.docx --kb team`."""
    make_pdf(in_tmp / "guideline.pdf", [MD.replace("## ", "").replace("# ", "").splitlines()])
    make_docx(in_tmp / "team-rules.docx")
    code, _, err = index(capsys, "guideline.pdf", "team-rules.docx")
    assert code == 0, err
    want = expected("guideline.pdf", "team-rules.docx")
    assert rules_of(stored()) == want and len(want) == len(segment("guideline.pdf", "team")) + 5


def test_a_document_indexed_from_another_directory_or_copied_is_stored_once(docs, capsys, monkeypatch):
    assert index(capsys, "team-rules.md")[0] == 0
    (docs / "sub").mkdir()
    monkeypatch.chdir(docs / "sub")
    code, out, _ = index(capsys, "../team-rules.md", extra=("--store", "../st"))
    assert code == 0 and "(0 added," in out and "pruned" not in out  # the same points (the path shown is updated)
    monkeypatch.chdir(docs)
    assert len(stored()) == 5
    (docs / "moved").mkdir()
    (docs / "moved" / "team-rules.md").write_text(MD, encoding="utf-8")  # the same bytes under another path
    code, out, _ = index(capsys, "moved/team-rules.md")
    assert code == 0 and "5 pruned" in out
    assert {d for d, _, _ in stored().values()} == {document_key("moved/team-rules.md")}


def test_a_knowledge_base_is_marked_incomplete_until_its_write_ends(docs, capsys):
    from dualrag.store import StoreConfig, open_store

    assert index(capsys, "team-rules.md")[0] == 0
    with open_store("st", StoreConfig(lock_timeout=0)) as db:
        assert db.incomplete("team") is None
        db.mark_writing("team", "index rules of 1 document(s)")  # what a killed run leaves
    code, out, _ = run(["kb", "stats", "--store", "st"], capsys)
    assert code == 0 and "INCOMPLETE" in out
    assert index(capsys, "team-rules.md")[0] == 0  # a finished write clears it
    code, out, _ = run(["kb", "stats", "--store", "st", "--format", "json"], capsys)
    assert json.loads(out)[0]["incomplete"] is None
