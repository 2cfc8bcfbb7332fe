"""SARIF 2.1.0: one run, one rule per rule id (or category), one result per finding.

Validated in tests against the official OASIS schema (tests/publish/sarif-schema-2.1.0.json).
Each result carries `partialFingerprints["dualrag/v1"]` (the review fingerprint) so code-scanning
services track a finding across pushes the way the merge-request threads do.
"""

from __future__ import annotations

import json

from dualrag import __version__
from dualrag.findings import Finding
from dualrag.review.fingerprint import finding_rule, fingerprint
from dualrag.review.model import Review

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVEL = {"critical": "error", "major": "error", "minor": "warning", "info": "note"}
SECURITY_SEVERITY = {"critical": "9.0", "major": "7.0", "minor": "4.0", "info": "1.0"}


def _rule(rule_id: str, f: Finding) -> dict:
    return {
        "id": rule_id, "name": f.rule_id or f.category,
        "shortDescription": {"text": f.title or rule_id},
        "defaultConfiguration": {"level": LEVEL.get(f.severity, "warning")},
        "properties": {"category": f.category, "tags": [f.category]},
    }


def _result(f: Finding, rule_index: int, rule_id: str) -> dict:
    text = f.message.strip() or f.title
    if f.suggestion:
        text += f"\n\nSuggestion: {f.suggestion.strip()}"
    region = {"startLine": max(f.line, 1)}
    if f.end_line and f.end_line >= f.line:
        region["endLine"] = f.end_line
    result = {
        "ruleId": rule_id, "ruleIndex": rule_index, "level": LEVEL.get(f.severity, "warning"),
        "message": {"text": text},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"},
                                            "region": region}}],
        "partialFingerprints": {"dualrag/v1": fingerprint(f)},
        "properties": {"severity": f.severity, "source": f.source, "title": f.title,
                       "security-severity": SECURITY_SEVERITY.get(f.severity, "1.0")},
    }
    if f.replacement is not None:
        result["fixes"] = [_fix(f)]
    return result


def _fix(f: Finding) -> dict:
    """The checked replacement (dualrag/review/suggestions.py) as a SARIF fix: whole lines
    line..end_line deleted (a region without columns spans the lines' text, not their line
    breaks) and the new text inserted."""
    deleted = {"startLine": f.line, "endLine": max(f.end_line or f.line, f.line)}
    return {
        "description": {"text": f.title},
        "artifactChanges": [{
            "artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"},
            "replacements": [{"deletedRegion": deleted, "insertedContent": {"text": f.replacement}}],
        }],
    }


def to_sarif(review: Review) -> dict:
    rules: list[dict] = []
    index: dict[str, int] = {}
    results = []
    for f in review.findings:
        rid = finding_rule(f)
        if rid not in index:
            index[rid] = len(rules)
            rules.append(_rule(rid, f))
        results.append(_result(f, index[rid], rid))
    return {
        "$schema": SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "dualrag", "version": __version__, "semanticVersion": __version__,
                                "informationUri": "https://pypi.org/project/dualrag/", "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "repository root"}}},
            "results": results,
            "properties": {"decision": str(review.decision), "risk_tier": review.risk_tier,
                           "project_type": review.project_type},
        }],
    }


def render_sarif(review: Review) -> str:
    return json.dumps(to_sarif(review), indent=2, ensure_ascii=False) + "\n"
