"""`dualrag index rules`, `search rules`, `kb stats`, and contexts in the review JSON — end to end
through the CLI on a real embedded Qdrant store (the test embedder is the word-hashing one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dualrag.cli import main

GUIDE = """# Team Java rules

## Concurrency

1. 【强制】线程池不允许使用 Executors 创建，必须通过 ThreadPoolExecutor 指定有界队列。
   反例：ExecutorService pool = Executors.newFixedThreadPool(4);

2. 【推荐】SimpleDateFormat 是线程不安全的类，不要定义为 static 变量。

## Money

3. 【强制】禁止使用 BigDecimal(double) 构造方法，使用 BigDecimal.valueOf 或字符串构造。
"""


def run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.fixture
def indexed(in_tmp, capsys):
    (in_tmp / "guide.md").write_text(GUIDE, encoding="utf-8")
    code, out, err = run(["index", "rules", "guide.md", "--kb", "team", "--store", "st"], capsys)
    assert code == 0, err
    assert out.startswith("team: 3 rules from 1 document(s) (3 added")
    return in_tmp


def test_search_returns_one_hit_per_rule_with_the_contract_fields(indexed, capsys):
    (indexed / "Pool.java").write_text("class Pool { ExecutorService p = Executors.newFixedThreadPool(4); }\n")
    code, out, _ = run(["search", "rules", "--code-file", "Pool.java", "--kb", "team", "--store", "st",
                        "--format", "json", "--top-k", "3"], capsys)
    assert code == 0
    hits = json.loads(out)
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert len({h["rule_id"] for h in hits}) == len(hits)
    assert set(hits[0]) >= {"rule_id", "title", "text", "level", "section", "source", "page", "score", "rank"}
    assert "Executors" in hits[0]["text"] and hits[0]["level"] == "mandatory"


def test_reindexing_the_same_document_changes_nothing(indexed, capsys):
    code, out, _ = run(["index", "rules", "guide.md", "--kb", "team", "--store", "st"], capsys)
    assert code == 0 and "0 added, 0 updated, 3 unchanged" in out


def test_reindexing_prunes_rules_that_left_the_document(indexed, capsys):
    shorter = GUIDE.split("## Money")[0]
    (indexed / "guide.md").write_text(shorter, encoding="utf-8")
    code, out, _ = run(["index", "rules", "guide.md", "--kb", "team", "--store", "st", "--no-prune"], capsys)
    assert code == 0 and "pruned" not in out
    code, out, _ = run(["kb", "stats", "--store", "st", "--format", "json"], capsys)
    assert {s["kb"]: s for s in json.loads(out)}["team"]["rules"] == 3  # --no-prune keeps it
    code, out, _ = run(["index", "rules", "guide.md", "--kb", "team", "--store", "st"], capsys)  # prunes by default
    assert code == 0 and "1 pruned" in out
    code, out, _ = run(["kb", "stats", "--store", "st", "--format", "json"], capsys)
    stats = {s["kb"]: s for s in json.loads(out)}
    assert stats["team"]["rules"] == 2
    code, out, _ = run(["index", "rules", "guide.md", "--kb", "team", "--store", "st", "--prune"], capsys)
    assert code == 0 and "0 added, 0 updated, 2 unchanged)" in out  # --prune is still accepted


def test_a_bad_document_stops_the_batch_and_writes_nothing(indexed, capsys):
    (indexed / "other.md").write_text(GUIDE.replace("Team Java rules", "Other rules"), encoding="utf-8")
    (indexed / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    code, out, err = run(["index", "rules", "other.md", "broken.pdf", "--kb", "team", "--store", "st"], capsys)
    assert code == 2 and not out
    assert err.splitlines() == [
        next(line for line in err.splitlines() if "broken.pdf" in line),
        "dualrag: error: nothing was indexed: 1 of 2 document(s) could not be read",
    ]
    assert "Traceback" not in err
    code, out, _ = run(["kb", "stats", "--store", "st", "--format", "json"], capsys)
    sources = json.loads(out)[0]["sources"]  # keyed by resolved path (no repository here: absolute)
    assert list(sources.values()) == [3] and Path(next(iter(sources))).name == "guide.md"  # not other.md


def test_search_needs_exactly_one_query(indexed, capsys):
    code, _, err = run(["search", "rules", "--store", "st"], capsys)
    assert code == 2 and err.count("\n") == 1


def test_review_json_carries_each_chunks_context(indexed, capsys):
    diff = (
        "diff --git a/src/Pool.java b/src/Pool.java\n--- a/src/Pool.java\n+++ b/src/Pool.java\n"
        "@@ -1,2 +1,2 @@\n class Pool {\n-  ExecutorService p = null;\n"
        "+  ExecutorService p = Executors.newFixedThreadPool(4);\n"
    )
    (indexed / "c.diff").write_text(diff)
    code, out, err = run(["review", "--diff-file", "c.diff", "--store", "st", "--format", "json"], capsys)
    assert code == 0, err
    review = json.loads(out)
    context = review["chunks"][0]["context"]
    ids = [r["rule_id"] for r in context["rules"]]
    assert ids, review["notes"]
    assert any(r["kb"] == "team" for r in context["rules"])  # the team's own rules come in
    assert context["used"] == sum(r["tokens"] for r in context["rules"]) <= context["budget"]
    assert not context["reranked"] and "reranking skipped: no model folder configured" in review["notes"]
    assert "retrieve" in review["timings"]


def test_review_with_a_store_held_by_another_run_still_reviews(in_tmp, capsys, monkeypatch):
    """A store in use is a passing condition, not a configuration error: the review goes on
    without rules and says so (a --store that is a file stops instead: tests/test_config_stops.py)."""
    from qdrant_client import QdrantClient

    monkeypatch.setenv("DUALRAG_QDRANT__LOCK_TIMEOUT", "0")
    (in_tmp / "c.diff").write_text("--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n")
    holder = QdrantClient(path=str(in_tmp / "st"))
    try:
        code, out, _ = run(["review", "--diff-file", "c.diff", "--store", "st", "--format", "json"], capsys)
    finally:
        holder.close()
    review = json.loads(out)
    assert code == 0
    assert any(n.startswith("rule retrieval skipped") and "in use" in n for n in review["notes"])


def test_lang_is_a_language_pack_or_a_project_type_its_packs_give(in_tmp, capsys):
    def ids(lang: str) -> list[str]:
        code, out, err = run(["search", "rules", "--text", "SELECT * FROM orders WHERE status = '${status}'",
                              "--lang", lang, "--kb", "bundled", "--store", "st", "--format", "json",
                              "--top-k", "50"], capsys)
        assert code == 0, err
        return [h["rule_id"] for h in json.loads(out)]

    mapper = ids("mybatis")  # the MyBatis pack's rules are the SQL rules
    assert "SQL-INJ-001" in mapper and all(i.startswith("SQL-") for i in mapper)
    edi = ids("edi")  # every EDI pack's language: flow-only and transform-only rules alike
    assert all(i.startswith("EDI-") for i in edi) and {"EDI-FLOW-001", "EDI-CTRL-001"} <= set(edi)
    code, _, err = run(["search", "rules", "--text", "x", "--lang", "cobol", "--store", "st"], capsys)
    assert code == 2 and "no language pack or project type by that name" in err and "Traceback" not in err


TOPICS = ["线程池", "日期格式", "金额计算", "日志输出", "字符串比较", "异常处理", "集合遍历", "锁的释放", "随机数",
          "文件关闭", "分支默认", "哈希相等"]
APIS = ["Executors.newFixedThreadPool(4)", "new SimpleDateFormat(pattern)", "new BigDecimal(0.1)",
        "log.info(name + value)", "name == other", "catch (Exception e) {}", "list.remove(item)", "lock.lock()",
        "new Random().nextInt()", "new FileInputStream(path)", "switch (kind) { case 1: }", "equals(Object o)"]


def test_a_book_with_its_own_counter_examples_chooses_its_channels_and_says_so(in_tmp, capsys):
    rules = "\n\n".join(f"{i}. 【强制】{topic}必须按团队规范处理。\n   反例：Object v{i} = {api};"
                        for i, (topic, api) in enumerate(zip(TOPICS, APIS, strict=True), start=1))
    (in_tmp / "book.md").write_text(f"# Team rules\n\n## Java\n\n{rules}\n", encoding="utf-8")
    code, out, err = run(["index", "rules", "book.md", "--kb", "book", "--store", "st"], capsys)
    assert code == 0, err
    assert "book: rule channels" in err and "by self-check on 12 counter-examples" in err
    code, out, _ = run(["kb", "stats", "--store", "st", "--format", "json"], capsys)
    channels = {s["kb"]: s for s in json.loads(out)}["book"]["channels"]
    assert channels["cases"] == 12 and channels["chosen"] in channels["figures"]
    (in_tmp / "Pool.java").write_text("class Pool { Object p = Executors.newFixedThreadPool(4); }\n")
    code, out, _ = run(["search", "rules", "--code-file", "Pool.java", "--kb", "book", "--store", "st",
                        "--format", "json"], capsys)
    hits = json.loads(out)
    assert code == 0 and hits
    searched = hits[0]["channels"]
    assert searched["self_check"].startswith(channels["chosen"])
    assert searched["setting"] == channels["setting"]  # nothing set by the user: the book's choice


def test_a_book_with_few_counter_examples_keeps_the_configured_channels(indexed, capsys):
    code, out, _ = run(["kb", "stats", "--store", "st", "--format", "json"], capsys)
    channels = {s["kb"]: s for s in json.loads(out)}["team"]["channels"]
    assert code == 0 and channels["chosen"] is None and channels["cases"] == 1
