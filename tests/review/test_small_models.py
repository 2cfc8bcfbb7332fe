"""A small local model: its window and output cap size chunks and context, it gets the compact
prompts, and its findings are checked by a second call (verify.py) before they count."""

from __future__ import annotations

import json

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.llm import LLMConfig
from dualrag.pipeline import run_chunking, run_review
from dualrag.retrieval.context import Context, ContextRule
from dualrag.review.model import Decision
from dualrag.review.prompt import ChangeInfo, RawFinding, build_request, template
from dualrag.review.reader import COMPACT_WINDOW, fitted, reader_for
from dualrag.review.reviewers import REVIEWERS, select_reviewers

from .conftest import PATH, answer, finding

LOCAL = {"openai:local": {"context_window": 16_384, "max_output_tokens": 1_024}}


def test_the_reviewers_model_sizes_chunks_and_context():
    llm = LLMConfig.model_validate({"model": "openai:local", "models": LOCAL,
                                    "reviewers": {"security": "openai:gpt-4.1"}})
    reader = reader_for(llm, select_reviewers("full", "java"))
    assert (reader.model, reader.window, reader.max_output, reader.compact) == ("openai:local", 16_384, 1_024, True)
    settings = fitted(load_settings(None, llm=llm.model_dump()), reader)
    assert settings.retrieval.context_tokens == 16_384 // 16 and settings.retrieval.output_tokens == 1_024
    kept = fitted(load_settings(None, retrieval={"context_tokens": 5_000}), reader)
    assert kept.retrieval.context_tokens == 5_000  # what the user set stays
    big = reader_for(LLMConfig(model="openai:gpt-4.1"), select_reviewers("trivial", "java"))
    assert not big.compact and big.window > COMPACT_WINDOW
    assert reader_for(LLMConfig(), select_reviewers("trivial", "java")) is None  # offline


def test_chunk_budget_comes_from_the_model_window(make_git_file):
    diff = make_git_file(PATH, b"class A {\n}\n", b"class A {\n  int x;\n}\n")
    local = load_settings(None, llm={"model": "openai:local", "models": LOCAL})
    plan, _ = run_chunking(ingest(diff, local), local)
    assert plan.budget.window == 16_384 and plan.budget.chunk_tokens == int(16_384 * 0.8 * 0.6)
    offline = load_settings(None)
    assert run_chunking(ingest(diff, offline), offline)[0].budget.window == 128_000  # chunking.window_tokens


def test_compact_prompt_keeps_only_what_says_something(make_git_file):
    settings = load_settings(None)
    changes = ingest(make_git_file(PATH, b"class A {\n}\n", b"class A {\n  int x;\n}\n"), settings)
    chunk = run_chunking(changes, settings)[0].chunks[0]
    general = REVIEWERS["general"]
    small = build_request(chunk, None, ChangeInfo(), reviewer=general, project_type="java", risk_tier="trivial",
                          compact=True).request
    full = build_request(chunk, None, ChangeInfo(), reviewer=general, project_type="java", risk_tier="trivial").request
    assert small.prefix == (template("shared_compact").rstrip() + "\n\n" + template("general").rstrip() + "\n",)
    text = small.messages[0].content
    assert "<diff>" in text and "     2 +   int x;" in text
    for empty in ("<mr_description>", "<retrieved_rules>", "<code_context>", "<detector_findings>"):
        assert empty not in text
    assert len("".join(small.prefix) + text) < len("".join(full.prefix) + full.messages[0].content) / 2
    ctx = Context("c1", rules=(ContextRule("JAVA-X-1", "t", "rule text", "mandatory", "major", "bundled", "f", 0.9, 5),))
    with_rule = build_request(chunk, ctx, ChangeInfo(title="T"), reviewer=general, project_type="java",
                              risk_tier="trivial", compact=True).request.messages[0].content
    assert '<retrieved_rule id="JAVA-X-1"' in with_rule and "<mr_description>\nT" in with_rule
    assert '{"findings": []}' in template("shared_compact")  # the empty answer, shown


def test_a_finding_without_title_is_kept():
    f = RawFinding.model_validate({"path": PATH, "line": 5, "severity": "warning",
                                   "message": "Subtracts instead of adding. Totals are wrong."})
    assert f.title == "Subtracts instead of adding."


def _local_settings(llm_settings, **review):
    return llm_settings("openai:local", models=LOCAL).model_copy(
        update={"review": load_settings(None, review=review).review} if review else {})


def test_each_finding_is_checked_and_unsupported_ones_dropped(oai, llm_settings, java_diff):
    oai.enqueue(oai.chat(answer(finding(5, title="Subtraction instead of addition"),
                                finding(10, title="Trim may throw", severity="warning"),
                                finding(6, severity="suggestion", category="maintainability", title="Name it total"))),
                oai.chat(json.dumps({"reason": "a - b where a + b was", "verdict": "supported"})),
                oai.chat(json.dumps({"reason": "s is never null here", "verdict": "unsupported"})))
    review = run_review(java_diff, _local_settings(llm_settings))
    assert [f.line for f in review.findings] == [5, 6]
    assert review.dropped["refuted_by_verification"] == 1 and review.reviewers[0].refuted == 1
    checks = [r.json for r in oai.requests[1:]]
    assert len(checks) == 2  # the suggestion is not checked
    assert checks[0]["messages"][0]["content"].startswith(template("verify").rstrip())
    assert "Subtraction instead of addition" in checks[0]["messages"][1]["content"]
    assert "-         return a + b;" in checks[0]["messages"][1]["content"]
    assert review.usage.calls == 3


def test_a_failed_check_keeps_the_finding_and_verification_can_be_off(oai, llm_settings, java_diff):
    oai.enqueue(oai.chat(answer(finding(5))), oai.chat("no idea"))
    review = run_review(java_diff, _local_settings(llm_settings))
    assert [f.line for f in review.findings] == [5] and review.decision is not Decision.APPROVED
    oai.enqueue(oai.chat(answer(finding(5))))
    assert len(run_review(java_diff, _local_settings(llm_settings, verify="off")).findings) == 1
    assert len(oai.requests) == 3


def test_rule_reviewer_is_not_called_without_a_rule(oai, llm_settings, make_git_file):
    lines = "".join(f"    int f{i} = {i};\n" for i in range(20))
    diff = make_git_file(PATH, b"class A {\n}\n", f"class A {{\n{lines}}}\n".encode())  # lite tier
    oai.responder = lambda r: oai.chat(answer())
    review = run_review(diff, llm_settings())
    assert review.risk_tier == "lite"
    assert {r.reviewer: r.outcome for r in review.reviewers} == {"quality": "ok", "rules": "skipped"}
    assert len(oai.requests) == 1 and review.decision is Decision.APPROVED
