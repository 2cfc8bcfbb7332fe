"""Rule checks: a narrow question per chunk about its team rules, answered through the real OpenAI
SDK against a loopback server, and kept only when the quote is on an added line."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from dualrag.chunking.model import Chunk, HunkSlice
from dualrag.cli import main
from dualrag.config import load_settings
from dualrag.diff.hunks import DiffLine
from dualrag.diff.ingest import ingest
from dualrag.llm import LLMFactory
from dualrag.pipeline import Conversation, RunHooks, run_review
from dualrag.retrieval.context import Context, ContextRule
from dualrag.review.prompt import ChangeInfo
from dualrag.review.reviewers import REVIEWERS
from dualrag.review.rule_check import RuleCheckAnswer, build_check, plan_checks, rules_to_check, verify
from dualrag.review.stage import ReviewStage

from .conftest import answer

PATH = "src/main/java/com/acme/Money.java"
NEW_FILE = ["package com.acme;", "", "class Money {", "    BigDecimal price = new BigDecimal(0.1);",
            "    // new BigDecimal(0.2) in a comment", "}"]


def new_file_diff(lines: list[str] = NEW_FILE) -> str:
    return "\n".join([f"diff --git a/{PATH} b/{PATH}", "new file mode 100644", "--- /dev/null", f"+++ b/{PATH}",
                      f"@@ -0,0 +1,{len(lines)} @@", *(f"+{line}" for line in lines)]) + "\n"


def chunk_of(lines: list[str], *, context_line: str | None = None) -> Chunk:
    """A chunk adding `lines` as lines 1..n (and one unchanged line after them, when given)."""
    diff = [DiffLine("+", None, n, text) for n, text in enumerate(lines, 1)]
    if context_line is not None:
        diff.append(DiffLine(" ", 1, len(lines) + 1, context_line))
    hunk = HunkSlice.of_lines(PATH, "", tuple(diff))
    return Chunk(id="c1", files=(PATH,), hunks=(hunk,), members=(), estimated_tokens=50, text="")


def rule(rule_id: str, text: str, *, kb: str = "team", severity: str = "major") -> ContextRule:
    return ContextRule(rule_id=rule_id, title=text.split(".")[0], text=text, level=None, severity=severity, kb=kb,
                       source="guide.pdf p.7 (Money)", score=0.5, tokens=30)


MONEY = rule("team:3.1", "Do not build a BigDecimal from a double. Use BigDecimal.valueOf or a string.")
POOL = rule("team:2.4", "Create thread pools with ThreadPoolExecutor and a bounded queue.")
BUNDLED = rule("JAVA-001", "Close streams in try-with-resources.", kb="bundled")


def answer_of(*violations: dict) -> RuleCheckAnswer:
    return RuleCheckAnswer.model_validate({"violations": list(violations)})


def test_a_quote_on_the_named_added_line_becomes_a_cited_finding_at_the_rules_severity():
    check = build_check(chunk_of(NEW_FILE), (POOL, MONEY))
    found = verify(check, answer_of({"rule": "R2", "line": 4, "quote": "`new BigDecimal(0.1)`"}))
    assert len(found) == 1
    f = found[0]
    assert (f.path, f.line, f.rule_id, f.severity, f.category) == (PATH, 4, "team:3.1", "major", "rule")
    assert "guide.pdf p.7 (Money)" in f.message and "new BigDecimal(0.1)" in f.message  # cites the document
    assert f.reviewer == "rule_check"


@pytest.mark.parametrize(("violation", "reason"), [
    ({"rule": "R9", "line": 4, "quote": "new BigDecimal(0.1)"}, "rule_check_unknown_rule"),
    ({"rule": "R2", "line": 4, "quote": ""}, "rule_check_no_quote"),
    ({"rule": "R2", "line": 4, "quote": "Executors.newFixedThreadPool(4)"}, "rule_check_quote_not_on_an_added_line"),
    ({"rule": "R2", "line": 1, "quote": "new BigDecimal(0.1)"}, "rule_check_quote_not_on_an_added_line"),  # 3 away
    ({"rule": "R2", "line": 7, "quote": "finally"}, "rule_check_quote_not_on_an_added_line"),  # unchanged line
])
def test_an_answer_that_does_not_hold_against_the_added_lines_is_dropped_and_counted(violation, reason):
    check = build_check(chunk_of(NEW_FILE, context_line="finally {}"), (POOL, MONEY))
    dropped: Counter = Counter()
    assert verify(check, answer_of(violation), dropped) == []
    assert dropped == {reason: 1}


def test_a_line_number_slightly_off_is_placed_on_the_line_holding_the_quote():
    check = build_check(chunk_of(NEW_FILE), (MONEY,))
    found = verify(check, answer_of({"rule": "r1", "line": 5, "quote": "new   BigDecimal(0.1)"},
                                    {"rule": "R1", "line": 4, "quote": "new BigDecimal(0.1)"}))
    assert [(f.line, f.rule_id) for f in found] == [(4, "team:3.1")]  # one finding per rule and line


def test_checks_ask_only_when_a_team_rule_was_retrieved_and_at_most_the_configured_number():
    assert rules_to_check((BUNDLED,), limit=3) == ()
    assert rules_to_check((MONEY, POOL, BUNDLED), limit=2) == (MONEY, POOL)
    assert rules_to_check((BUNDLED, POOL), limit=2) == (POOL, BUNDLED)  # the team's first, the bundled fill
    assert rules_to_check((MONEY,), limit=0) == ()


def test_the_code_comes_before_the_rules_so_one_rule_per_request_shares_a_prefix():
    checks = plan_checks(chunk_of(NEW_FILE), (MONEY, POOL), batch=False)
    first, second = (c.request.messages[-1].content for c in checks)
    code_end = first.index("</code>")
    assert first[:code_end] == second[:code_end] and first.index("<rule") > code_end
    assert "4 + " in first[:code_end] and "Do not build a BigDecimal" in first[code_end:]
    assert len(plan_checks(chunk_of(NEW_FILE), (MONEY, POOL), batch=True)) == 1


def is_check(req) -> bool:
    return "<rule label=" in req.json["messages"][-1]["content"]


def test_the_stage_runs_checks_instead_of_the_rules_reviewer_and_returns_them_apart(oai, llm_settings):
    oai.responder = lambda req: oai.chat(json.dumps({"violations": [
        {"rule": "R1", "line": 4, "quote": "new BigDecimal(0.1)"}]}) if is_check(req) else answer())
    settings = llm_settings()
    factory = LLMFactory(settings.llm)
    reviewers = [REVIEWERS["quality"], REVIEWERS["rules"]]
    clients = {r.name: factory.for_reviewer(r.name)[0] for r in reviewers}
    changes = ingest(new_file_diff().encode(), settings)
    chunk = chunk_of(NEW_FILE)
    contexts = {"c1": Context(chunk_id="c1", rules=(MONEY, BUNDLED))}
    stage = ReviewStage(changes, ChangeInfo(), rule_checks=3).run([chunk], contexts, clients, reviewers)
    assert [(f.rule_id, f.line) for f in stage.checked] == [("team:3.1", 4)]
    runs = {r.reviewer: r for r in stage.runs}
    assert runs["rules"].outcome == "skipped" and runs["rule_check"].outcome == "ok"
    asked = [r for r in oai.requests if is_check(r)]
    assert len(asked) == 1 and "Close streams" in asked[0].json["messages"][-1]["content"]  # R2, after the team's
    assert len(oai.requests) == 2  # quality + one rule check; no rules reviewer
    hunt = next(r for r in oai.requests if not is_check(r)).json["messages"][-1]["content"]
    assert "BigDecimal from a double" not in hunt  # the bug hunt goes without the rules the checks ask about
    off = ReviewStage(changes, ChangeInfo(), rule_checks=0).run([chunk], contexts, clients, reviewers)
    assert off.checked == [] and {r.reviewer: r.outcome for r in off.runs}["rules"] == "ok"


EXIT_FILE = ["package com.acme;", "", "class Shutdown {", "    void stop() { System.exit(1); }", "}"]
GUIDE = """# Team Java rules

## Lifecycle

1. Library code never ends the process: no System.exit or Runtime.halt outside the main class.

## Threads

2. 【推荐】Name every thread pool's threads after what they do.
"""


def run_cli(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    return exc.value.code, capsys.readouterr()


def test_a_review_of_a_new_file_cites_the_team_rule_it_breaks_at_the_default_severity(
        in_tmp, capsys, oai, llm_settings):
    (in_tmp / "guide.md").write_text(GUIDE, encoding="utf-8")
    code, out = run_cli(["index", "rules", "guide.md", "--kb", "team", "--store", "st"], capsys)
    assert code == 0, out.err

    def respond(req):
        if not is_check(req):
            return oai.chat(answer())
        sent = req.json["messages"][-1]["content"]
        label = next(part.split('"')[1] for part in sent.split("<rule label=")[1:] if "System.exit" in part)
        return oai.chat(json.dumps({"violations": [{"rule": label, "line": 4, "quote": "System.exit(1);"}]}),
                        prompt_tokens=400)
    oai.responder = respond
    base = llm_settings()
    settings = load_settings(None, store=str(in_tmp / "st"), llm=base.llm.model_dump(),
                             review={"walkthrough": False, "reverse_check": False},
                             retrieval={"channels": {"model_query": False}, "bundled_fill": False})
    review = run_review(new_file_diff(EXIT_FILE).encode(), settings, conversation=Conversation(), hooks=RunHooks())
    cited = [f for f in review.findings if f.reviewer == "rule_check"]
    assert len(cited) == 1 and cited[0].line == 4 and "Lifecycle" in cited[0].message  # the rule's section
    assert cited[0].severity == "major"  # the document gave no level: the team default, though the file is new
    assert str(review.decision) != "approved"
    assert review.usage.by_kind["rule_check"].calls == 1
    assert review.usage.by_kind["rule_check"].input_tokens == 400
    assert sum(k.calls for k in review.usage.by_kind.values()) == review.usage.calls



def test_a_fix_that_changes_nothing_clears_the_line():
    check = build_check(chunk_of(NEW_FILE), (MONEY,), fix=True)
    same = {"rule": "R1", "line": 4, "quote": "new BigDecimal(0.1)", "fixed": "BigDecimal price = new BigDecimal(0.1)"}
    dropped: Counter = Counter()
    assert verify(check, answer_of(same), dropped) == [] and dropped == {"rule_check_fix_changes_nothing": 1}
    real = {**same, "fixed": "    BigDecimal price = BigDecimal.valueOf(0.1);"}
    (found,) = verify(check, answer_of(real))
    assert found.line == 4 and found.replacement == real["fixed"]  # the rewrite: a one-click fix once checked
    assert "fixed" in check.request.prefix[0]  # the prompt asks for the rewrite
    plain = build_check(chunk_of(NEW_FILE), (MONEY,))  # `plain` asks for no rewrite and keeps none
    assert [f.replacement for f in verify(plain, answer_of(real))] == [None]


def test_a_rule_flagged_again_on_the_fixed_line_is_dropped():
    from dualrag.review.rule_check import recheck, with_fixes
    check = build_check(chunk_of(NEW_FILE), (MONEY,), fix=True)
    first = answer_of({"rule": "R1", "line": 4, "quote": "new BigDecimal(0.1)",
                       "fixed": "    BigDecimal price = BigDecimal.valueOf(0.1);"})
    found = verify(check, first)
    again = with_fixes(check, first, found)
    code = again.request.messages[-1].content
    assert "BigDecimal.valueOf(0.1)" in code and "new BigDecimal(0.1);" not in code
    flagged_again = verify(again, answer_of({"rule": "R1", "line": 4, "quote": "BigDecimal.valueOf(0.1)"}))
    assert recheck(found, flagged_again) == []  # the complaint fits the repair too: not about the rule
    assert recheck(found, []) == found
    assert with_fixes(check, answer_of(), []) is None


def test_recheck_mode_asks_again_on_the_fixed_code_and_drops_what_is_flagged_again(oai, llm_settings):
    def respond(req):
        sent = req.json["messages"][-1]["content"]
        if not is_check(req):
            return oai.chat(answer())
        quote = "BigDecimal.valueOf(0.1)" if "BigDecimal.valueOf(0.1)" in sent else "new BigDecimal(0.1)"
        return oai.chat(json.dumps({"violations": [{"rule": "R1", "line": 4, "quote": quote,
                                                    "fixed": "    BigDecimal price = BigDecimal.valueOf(0.1);"}]}))
    oai.responder = respond
    settings = llm_settings()
    factory = LLMFactory(settings.llm)
    clients = {"rules": factory.for_reviewer("rules")[0]}
    changes = ingest(new_file_diff().encode(), settings)
    contexts = {"c1": Context(chunk_id="c1", rules=(MONEY,))}
    stage = ReviewStage(changes, ChangeInfo(), rule_checks=3, rule_check_mode="recheck").run(
        [chunk_of(NEW_FILE)], contexts, clients, [REVIEWERS["rules"]])
    assert stage.checked == [] and stage.check_drops == {"rule_check_flagged_again_once_fixed": 1}
    asked = [r.json["messages"][-1]["content"] for r in oai.requests if is_check(r)]
    assert len(asked) == 2 and "BigDecimal.valueOf(0.1)" in asked[1].split("</code>")[0]


def test_an_answer_cut_at_its_short_cap_keeps_its_complete_entries_without_a_second_try(oai, llm_settings):
    entry = {"rule": "R1", "line": 4, "quote": "new BigDecimal(0.1)"}
    looping = '{"violations": [' + ", ".join([json.dumps(entry)] * 5) + ', {"rule": "R1", "li'
    oai.responder = lambda req: oai.chat(looping, finish_reason="length") if is_check(req) else oai.chat(answer())
    settings = llm_settings()
    clients = {"rules": LLMFactory(settings.llm).for_reviewer("rules")[0]}
    changes = ingest(new_file_diff().encode(), settings)
    stage = ReviewStage(changes, ChangeInfo(), rule_checks=3).run(
        [chunk_of(NEW_FILE)], {"c1": Context(chunk_id="c1", rules=(MONEY,))}, clients, [REVIEWERS["rules"]])
    assert [(f.rule_id, f.line) for f in stage.checked] == [("team:3.1", 4)]
    assert {r.reviewer: r.outcome for r in stage.runs}["rule_check"] == "ok"
    checks = [r for r in oai.requests if is_check(r)]
    assert len(checks) == 1 and checks[0].json["max_tokens"] <= 200  # one rule: a short cap, never grown
