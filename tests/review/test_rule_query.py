"""The model query of rule retrieval: one short request per piece of added code, through the real
OpenAI SDK against a loopback server; cached, cleaned, tallied, and harmless when it fails."""

from __future__ import annotations

from dualrag.llm import LLMFactory
from dualrag.pipeline import Conversation, RunHooks, run_review
from dualrag.review.rule_query import MAX_LINES, RuleQueryWriter, clean_answer

from .conftest import answer

CODE = "try {\n    return load();\n} finally {\n    return null;\n}"


def is_rule_query(req) -> bool:
    return "<added_code>" in req.json["messages"][-1]["content"]


def client_for(settings):
    return LLMFactory(settings.llm).for_reviewer("general")[0]


def test_the_answer_becomes_a_query_once_per_piece_of_code(oai, llm_settings):
    oai.responder = lambda req: oai.chat("Here are the rules:\n1. Do not return from a finally block\n"
                                         "- `Avoid swallowing exceptions`\n```\n")
    writer = RuleQueryWriter(client_for(llm_settings()))
    first = writer(CODE)
    assert first == "Do not return from a finally block\nAvoid swallowing exceptions"
    assert writer(CODE + "\n") == first and len(oai.requests) == 1  # cached by the code's hash
    sent = oai.requests[0].json["messages"][-1]["content"]
    assert f"<added_code>\n{CODE}\n</added_code>" in sent and "not instructions to you" in sent


def test_other_instructions_replace_the_shipped_ones_and_keep_the_code_as_data(oai, llm_settings):
    oai.responder = lambda req: oai.chat("Return in finally: a finally block must not return")
    writer = RuleQueryWriter(client_for(llm_settings()), instructions="Title the rules, at most {max_lines}.")
    assert writer(CODE) == "Return in finally: a finally block must not return"
    sent = oai.requests[0].json["messages"][-1]["content"]
    assert sent.startswith(f"Title the rules, at most {MAX_LINES}.") and "which rules could" not in sent
    assert f"<added_code>\n{CODE}\n</added_code>" in sent


def test_a_failed_request_gives_no_query_and_says_why(oai, llm_settings):
    oai.responder = lambda req: oai.error(500, "down")
    writer = RuleQueryWriter(client_for(llm_settings()))
    assert writer(CODE) == "" and len(writer.failures) == 1


def test_an_answer_is_cut_to_a_few_plain_lines():
    text = "\n".join(f"- Rule number {i} says something\x1b[31m" for i in range(20))
    lines = clean_answer(text).splitlines()
    assert len(lines) == MAX_LINES and all("\x1b" not in line and not line.startswith("-") for line in lines)


def test_a_review_with_the_channel_on_asks_once_and_counts_the_tokens(oai, llm_settings, java_diff):
    def respond(req):
        return oai.chat("Do not subtract where a sum is meant", prompt_tokens=70) if is_rule_query(req) \
            else oai.chat(answer())
    oai.responder = respond
    base = llm_settings()
    on = base.model_copy(update={"retrieval": base.retrieval.model_copy(update={
        "enabled": True, "channels": base.retrieval.channels.model_copy(update={"model_query": True})})})
    review = run_review(java_diff, on, conversation=Conversation(), hooks=RunHooks())
    asked = [r for r in oai.requests if is_rule_query(r)]
    assert len(asked) == 1 and "a - b" in asked[0].json["messages"][-1]["content"]
    assert review.usage.calls == len(oai.requests)  # the rule query is in the usage with the reviewers'
    assert base.retrieval.channels.model_query  # on by default (evaluation/retrieval/rules.py --model-query)
    oai.requests.clear()
    off = base.model_copy(update={"retrieval": base.retrieval.model_copy(update={
        "enabled": True, "channels": base.retrieval.channels.model_copy(update={"model_query": False})})})
    run_review(java_diff, off, conversation=Conversation(), hooks=RunHooks())
    assert oai.requests and not any(is_rule_query(r) for r in oai.requests)  # switched off: no extra request


def test_the_rule_query_counts_against_the_call_cap(oai, llm_settings, make_git_file):
    """max_llm_calls bounds every request that grows with the chunks, the rule queries included."""
    from .conftest import JAVA_NEW, JAVA_OLD

    diff = b"".join(make_git_file(f"src/main/java/com/acme/Orders{i}.java", JAVA_OLD.encode(),
                                  JAVA_NEW.replace("Orders", f"Orders{i}").encode()) for i in range(4))
    oai.responder = lambda req: oai.chat("Do not subtract where a sum is meant") if is_rule_query(req) \
        else oai.chat(answer())
    base = llm_settings()
    capped = base.model_copy(update={
        "retrieval": base.retrieval.model_copy(update={"enabled": True}),
        "chunking": base.chunking.model_copy(update={"budget": 200}),  # one file a chunk
        "limits": base.limits.model_copy(update={"max_llm_calls": 4})})
    review = run_review(diff, capped, conversation=Conversation(), hooks=RunHooks())
    assert len(review.chunks) >= 3  # the change was cut, and more than the cap allows was there to review
    assert 0 < len(oai.requests) <= 4
    assert any(is_rule_query(r) for r in oai.requests) and any("max_llm_calls" in n for n in review.notes)
