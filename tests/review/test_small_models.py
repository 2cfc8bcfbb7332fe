"""A small local model: its window and output cap size chunks and context, and it gets the
compact prompts; a reviewer with nothing to check is not called."""

from __future__ import annotations

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.llm import LLMConfig
from dualrag.pipeline import run_chunking, run_review
from dualrag.retrieval.context import Context, ContextRule
from dualrag.review.model import Decision
from dualrag.review.prompt import ChangeInfo, RawFinding, build_request, template
from dualrag.review.reader import COMPACT_WINDOW, resolve_for
from dualrag.review.reviewers import REVIEWERS, select_reviewers

from .conftest import PATH, answer

LOCAL = {"openai:local": {"context_window": 16_384, "max_output_tokens": 1_024}}


def test_the_reviewers_model_sizes_chunks_and_context():
    llm = LLMConfig.model_validate({"model": "openai:local", "models": LOCAL,
                                    "reviewers": {"security": "openai:gpt-4.1"}})
    settings = load_settings(None, llm=llm.model_dump())
    model = resolve_for(settings, select_reviewers("full", "java"))
    assert (model.reader, model.window, model.max_output, model.compact) == ("openai:local", 16_384, 1_024, True)
    assert model.context_tokens == 16_384 // 16 and model.token_model == "local"
    assert settings.retrieval.context_tokens == 12_000  # the settings are not rewritten to carry the model
    kept = resolve_for(load_settings(None, retrieval={"context_tokens": 5_000}, llm=llm.model_dump()),
                       select_reviewers("full", "java"))
    assert kept.context_tokens == 5_000  # what the user set stays
    big = resolve_for(load_settings(None, llm={"model": "openai:gpt-4.1"}), select_reviewers("trivial", "java"))
    assert not big.compact and big.window > COMPACT_WINDOW
    offline = resolve_for(load_settings(None), select_reviewers("trivial", "java"))
    assert not offline.online and offline.reader is None and offline.window == 128_000  # chunking.window_tokens


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


def test_rule_reviewer_is_not_called_without_a_rule(oai, llm_settings, make_git_file):
    lines = "".join(f"    int f{i} = {i};\n" for i in range(20))
    diff = make_git_file(PATH, b"class A {\n}\n", f"class A {{\n{lines}}}\n".encode())  # lite tier
    oai.responder = lambda r: oai.chat(answer())
    review = run_review(diff, llm_settings())
    assert review.risk_tier == "lite"
    assert {r.reviewer: r.outcome for r in review.reviewers} == {"quality": "ok", "rules": "skipped"}
    assert len(oai.requests) == 1 and review.decision is Decision.APPROVED
