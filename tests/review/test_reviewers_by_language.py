"""A change's languages choose its specialists, through the language packs: a Java + MyBatis change
gets the SQL reviewer and the SQL rules, an EDI change keeps its EDI type and reviewer over Java, a
plain Java change gets no specialist; each specialist's prompt follows the shared part."""

from __future__ import annotations

import json

import pytest

from dualrag import languages
from dualrag.checks.detectors import bundled_rules, run_detectors
from dualrag.config import Settings
from dualrag.diff import ChangeSet, ingest
from dualrag.pipeline import run_review
from dualrag.review.coordinator import normalise_category
from dualrag.review.prompt import stable_block, template
from dualrag.review.reader import readers_for
from dualrag.review.reviewers import REVIEWERS, reviewer_named, select_reviewers, specialists

from .conftest import answer

JAVA = b"""diff --git a/src/main/java/com/acme/orders/OrderMapper.java b/src/main/java/com/acme/orders/OrderMapper.java
index 1111111..2222222 100644
--- a/src/main/java/com/acme/orders/OrderMapper.java
+++ b/src/main/java/com/acme/orders/OrderMapper.java
@@ -3,3 +3,5 @@ package com.acme.orders;
 public interface OrderMapper {
     Order findById(long id);
+    List<Order> findByStatus(String status);
+    int reopenAll();
 }
"""
MAPPER = b"""diff --git a/src/main/resources/mapper/OrderMapper.xml b/src/main/resources/mapper/OrderMapper.xml
index 1111111..2222222 100644
--- a/src/main/resources/mapper/OrderMapper.xml
+++ b/src/main/resources/mapper/OrderMapper.xml
@@ -3,5 +3,11 @@
 <mapper namespace="com.acme.orders.OrderMapper">
   <select id="findById" resultType="Order">
     SELECT id, status FROM orders WHERE id = #{id}
   </select>
+  <select id="findByStatus" resultType="Order">
+    SELECT id, status FROM orders WHERE status = '${status}'
+  </select>
+  <update id="reopenAll">
+    UPDATE orders SET status = 'OPEN'
+  </update>
 </mapper>
"""
FLOW = b"""diff --git a/flows/orders-in.flow b/flows/orders-in.flow
index 1111111..2222222 100644
--- a/flows/orders-in.flow
+++ b/flows/orders-in.flow
@@ -1,4 +1,5 @@
 <flow id="orders-in">
   <receive partner="ACME" standard="X12" message="850"/>
+  <transform ref="maps/po-850.dt"/>
   <send queue="orders"/>
 </flow>
"""


def _changes(diff: bytes) -> ChangeSet:
    return ingest(diff, Settings())


def _names(changes: ChangeSet, tier: str | None = None) -> list[str]:
    langs = [f.language for f in changes.files if f.reviewable]
    return [r.name for r in select_reviewers(tier or str(changes.risk_tier), str(changes.project_type), languages=langs)]


def test_a_java_and_mybatis_change_gets_the_sql_reviewer_and_the_sql_rules():
    changes = _changes(JAVA + MAPPER)
    assert {f.language for f in changes.files} == {"java", "mybatis"}
    assert str(changes.project_type) == "java"  # the mapper gives no type; Java does
    assert _names(changes, "lite") == ["quality", "rules", "sql"]
    assert _names(changes, "full") == ["quality", "security", "performance", "rules", "sql", "docs"]
    found = {(f.path.rsplit("/", 1)[-1], f.rule_id) for f in run_detectors(changes, bundled_rules().detectors)}
    assert {("OrderMapper.xml", "SQL-INJ-001"), ("OrderMapper.xml", "SQL-DML-002")} <= found


def test_a_plain_java_change_gets_no_specialist_and_a_trivial_change_only_the_general_reviewer():
    assert _names(_changes(JAVA), "full") == ["quality", "security", "performance", "rules", "docs"]
    assert _names(_changes(JAVA + MAPPER), "trivial") == ["general"]


def test_an_edi_change_keeps_winning_over_java_and_gets_the_edi_reviewer():
    changes = _changes(JAVA + FLOW)
    assert str(changes.project_type) == "edi"
    assert _names(changes, "lite") == ["quality", "rules", "edi"]
    assert _names(_changes(FLOW + MAPPER), "lite") == ["quality", "rules", "edi", "sql"]


def test_without_languages_the_project_type_brings_its_packs_specialists():
    assert [r.name for r in select_reviewers("lite", "edi")] == ["quality", "rules", "edi"]
    assert [r.name for r in select_reviewers("lite", "java")] == ["quality", "rules"]  # no SQL without a mapper


def test_only_names_a_specialist_and_it_still_needs_its_language():
    assert [r.name for r in select_reviewers("full", "java", only=["sql"], languages=["java", "mybatis"])] == ["sql"]
    assert [r.name for r in select_reviewers("full", "java", only=["quality", "sql"], languages=["java"])] == ["quality"]
    with pytest.raises(ValueError, match="known: .*sql"):
        select_reviewers("full", "java", only=["sqll"])


def test_the_specialists_come_from_the_packs_and_their_prompts_follow_the_shared_part():
    brought = {name: r.languages for name, r in specialists().items()}
    assert brought == {"edi": ("edi-flow", "edi-dt", "edi-message"), "sql": ("sql", "mybatis")}
    assert "edi" not in REVIEWERS and reviewer_named("edi").project_types == ("edi",)
    for name in brought:
        block = stable_block(name)
        assert block.startswith(template("shared").rstrip())
        assert f"# Your specialty: {reviewer_named(name).title}" in block
    assert normalise_category("nonsense", "sql") == "correctness"  # its first category
    assert normalise_category("nonsense", "edi") == "edi"
    assert {p.name for p in languages.packs() if p.reviewers} == {"edi-flow", "edi-dt", "edi-message", "sql", "mybatis"}


def _lite(settings: Settings) -> Settings:
    """The same settings with no trivial tier: the small diffs here are reviewed at least as `lite`."""
    return settings.model_copy(update={"tier": settings.tier.model_copy(update={"trivial_max_lines": 0})})


def test_readers_for_a_change_pass_its_languages(oai, llm_settings):
    settings = _lite(llm_settings())
    changes = ingest(JAVA + MAPPER, settings)
    assert str(changes.risk_tier) == "lite"
    assert [r.name for r in readers_for(changes, settings).reviewers] == ["quality", "rules", "sql"]


def test_a_java_and_mybatis_review_asks_the_sql_reviewer_with_its_prompt(oai, llm_settings):
    oai.responder = lambda req: oai.chat(answer())
    review = run_review(JAVA + MAPPER, _lite(llm_settings()))
    asked = {r.json["messages"][0]["content"] for r in oai.requests}
    assert any("# Your specialty: SQL and data-access reviewer" in s for s in asked)
    runs = {run.reviewer for run in review.reviewers}
    assert "sql" in runs and "edi" not in runs
    assert json.loads(review.model_dump_json())["project_type"] == "java"
