"""`dualrag review --llm --explain --telemetry --fail-on` against the loopback OpenAI fake."""

from __future__ import annotations

import json

import pytest

from dualrag.cli import main

from .conftest import answer, finding


def _run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        main(args)
    return exc.value.code


def test_cli_review_with_llm_explain_telemetry_and_fail_on(oai, java_diff, tmp_path, monkeypatch, in_tmp, capsys):
    monkeypatch.setenv("OPENAI_BASE_URL", oai.base_url)
    monkeypatch.setenv("DUALRAG_RETRIEVAL__ENABLED", "false")
    monkeypatch.setenv("DUALRAG_LLM__RESILIENCE__MAX_ATTEMPTS", "1")
    monkeypatch.setenv("DUALRAG_REVIEW__REVERSE_CHECK", "false")  # its own test: test_reverse_check.py
    oai.responder = lambda req: oai.chat(answer(finding(5, "critical", title="Sum is a difference",
                                                             message="sum is a - b: the total is wrong for every b > 0")))
    diff = tmp_path / "c.diff"
    diff.write_bytes(java_diff)
    out, events, explain = tmp_path / "r.json", tmp_path / "ev.jsonl", tmp_path / "explain"
    code = _run(["review", "--diff-file", str(diff), "--llm", "openai:gpt-4.1-mini", "--format", "json",
                 "--output", str(out), "--telemetry", str(events), "--explain", str(explain),
                 "--fail-on", "minor_issues", "--title", "fix"])
    assert code == 3
    review = json.loads(out.read_text())
    assert review["decision"] == "significant_concerns"
    # the reviewer only: a one-file change keeps the deterministic walkthrough ([review] walkthrough_min_files)
    assert review["findings"][0]["source"] == "llm" and review["usage"]["calls"] == 1
    assert review["walkthrough"]["source"] == "deterministic"
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    llm = [e for e in lines if e["event"] == "llm_request"]
    assert sum(e["input_tokens"] for e in llm) == review["usage"]["input_tokens"]
    assert lines[-1]["event"] == "run_end"
    assert (explain / "c1.general.prompt.md").is_file()
    assert "at or above --fail-on" in capsys.readouterr().err


def test_cli_offline_and_bad_llm(java_diff, tmp_path, monkeypatch, in_tmp, capsys):
    monkeypatch.setenv("DUALRAG_RETRIEVAL__ENABLED", "false")
    diff = tmp_path / "c.diff"
    diff.write_bytes(java_diff)
    assert _run(["review", "--diff-file", str(diff), "--fail-on", "minor_issues"]) == 0
    assert "offline review" in capsys.readouterr().out
    assert _run(["review", "--diff-file", str(diff), "--llm", "nonsense"]) == 2
    assert "--llm" in capsys.readouterr().err
