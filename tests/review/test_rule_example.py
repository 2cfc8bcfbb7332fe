"""Model-written counter-examples for rules whose document shows none (`index rules
--model-examples`): through the real OpenAI SDK against a loopback server; asked once per rule
text, kept apart from the document's own examples, searched like them, and harmless when the
model fails."""

from __future__ import annotations

import json
from pathlib import Path

from dualrag.config import load_settings
from dualrag.llm import LLMFactory
from dualrag.retrieval.self_check import cases_of
from dualrag.review.rule_example import ExampleWriter, clean_example
from dualrag.units import RuleSource, RuleUnit
from tests.cli_run import run_cli

FAST = {"request_timeout_s": 2.0, "task_timeout_s": 10.0, "min_attempt_s": 0.01, "max_attempts": 1,
        "backoff_base_s": 0.01, "backoff_max_s": 0.05, "jitter": 0.0}
EXAMPLE = "try {\n  return load();\n} finally {\n  return null;\n}"


def rule(rule_id: str, text: str, bad: tuple[str, ...] = ()) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=text.split(".")[0], text=text, bad_examples=list(bad),
                    source=RuleSource(kb="team", file="book.md", document="book.md"))


def writer_for(oai) -> ExampleWriter:
    settings = load_settings(None, llm={"model": "openai:gpt-4.1-mini", "resilience": FAST,
                                        "openai": {"base_url": oai.base_url, "local": False}})
    return ExampleWriter(LLMFactory(settings.llm).for_reviewer("rules")[0], model="openai:gpt-4.1-mini")


def test_each_rule_without_an_example_is_asked_once_from_its_text_alone(oai):
    oai.responder = lambda req: oai.chat(f"Here you go:\n```java\n{EXAMPLE}\n```\nThis returns from finally.")
    writer = writer_for(oai)
    units = [rule("r1", "A finally block must not return. It swallows the exception."),
             rule("r2", "Close streams. Use try-with-resources.", bad=("InputStream in = open();",))]
    out = writer(units)
    assert out[0].model_examples == [EXAMPLE] and out[0].bad_examples == []  # the model's, kept apart
    assert out[1] == units[1]  # the document shows an example: nothing asked
    assert len(oai.requests) == 1
    sent = oai.requests[0].json["messages"][-1]["content"]
    assert "A finally block must not return" in sent and "not instructions to you" in " ".join(sent.split())
    again = writer([units[0].model_copy(update={"source": units[0].source.model_copy(update={"document": "b.pdf"})})])
    assert again[0].model_examples == [EXAMPLE] and len(oai.requests) == 1  # same text, another edition: cached


def test_a_failed_request_leaves_the_rule_as_the_document_gave_it(oai):
    oai.responder = lambda req: oai.error(500, "down")
    writer = writer_for(oai)
    unit = rule("r1", "A finally block must not return.")
    assert writer([unit]) == [unit]
    assert writer.failures and "1 rule(s)" in writer.notes[0]


def test_an_answer_cut_at_its_token_cap_keeps_its_first_lines(oai):
    rambling = "```java\n" + "\n".join(f"call{i}();" for i in range(60))
    oai.responder = lambda req: oai.chat(rambling, finish_reason="length")
    writer = writer_for(oai)
    out = writer([rule("r1", "Do not call things in a loop.")])
    assert out[0].model_examples == ["\n".join(f"call{i}();" for i in range(12))]
    assert len(oai.requests) == 1 and not writer.failures  # no second try with more room


def test_an_answer_is_its_first_code_block_cut_to_a_few_lines():
    long = "\n".join(f"int x{i} = {i};" for i in range(40))
    assert clean_example(f"Sure!\n```java\n{long}\n```\n```java\nother();\n```") == "\n".join(long.splitlines()[:12])
    assert clean_example("int a = 1;\n\n\nint b = 2;") == "int a = 1;\nint b = 2;"  # no fence: the answer


def test_a_unit_without_model_examples_hashes_as_before_and_prompts_say_whose_example_it_is():
    unit = rule("r1", "A finally block must not return.")
    assert "model_examples" not in json.loads(unit.model_dump_json())  # stored bases are not rewritten
    written = unit.model_copy(update={"model_examples": [EXAMPLE]})
    assert written.content_hash != unit.content_hash
    assert "written by a model, not the document" in written.full_text() and EXAMPLE in written.full_text()
    assert written.counter_examples == [EXAMPLE]


def test_the_self_check_chooses_on_the_documents_examples_only():
    units = [rule(f"r{i}", f"Rule number {i}.").model_copy(update={"model_examples": [f"call{i}(); // example {i}"]})
             for i in range(3)]
    assert cases_of(units) == []  # the model's own examples find their rules too easily to choose by
    with_document = units[0].model_copy(update={"bad_examples": ["documented(); // from the book"]})
    assert [c[0] for c in cases_of([with_document, *units[1:]])] == ["documented(); // from the book"]


def test_index_rules_with_a_model_asks_once_per_rule_and_reindexing_asks_nothing(oai, tmp_path: Path, capsys,
                                                                              monkeypatch):
    oai.responder = lambda req: oai.chat(f"```java\n{EXAMPLE}\n```")
    doc = tmp_path / "team.md"
    doc.write_text("# Team rules\n\n## 1 Errors\n\n1. A finally block must not return a value.\n\n"
                   "2. Never catch Throwable in service code.\n", encoding="utf-8")
    config = tmp_path / "dualrag.toml"
    config.write_text(f'[llm]\nmodel = "openai:gpt-4.1-mini"\n[llm.openai]\nbase_url = "{oai.base_url}"\n'
                      'local = false\n[llm.resilience]\nmax_attempts = 1\n', encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.chdir(tmp_path)
    args = ["index", "rules", str(doc), "--kb", "mx", "--no-mine", "--config", str(config)]  # on by default
    code, _, err = run_cli(args, capsys)
    assert code in (0, None), err
    asked = len(oai.requests)
    assert asked == 2 and "2 rule(s) carry one" in err
    from dualrag.store import open_store

    with open_store(load_settings(config).store) as db:
        assert all(u.model_examples == [EXAMPLE] for u in db.units("mx"))
    code, _, err = run_cli(args, capsys)
    assert code in (0, None) and len(oai.requests) == asked  # unchanged rules keep their examples
    assert "0 request(s)" in err
    code, _, err = run_cli(["index", "rules", str(doc), "--kb", "mx-off", "--no-mine", "--no-model-examples",
                            "--config", str(config)], capsys)
    assert code in (0, None) and len(oai.requests) == asked and "model examples" not in err

def test_model_examples_without_a_model_is_one_clear_line(tmp_path: Path, capsys, monkeypatch):
    doc = tmp_path / "team.md"
    doc.write_text("# Rules\n\n1. A finally block must not return a value.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["index", "rules", str(doc), "--model-examples"], capsys)
    assert code == 2 and "needs a model" in err and "Traceback" not in err


def test_the_dense_window_reads_a_model_example_right_after_the_title():
    from dualrag.store.qdrant import dense_text

    prose = "A finally block must not return. " + "It hides the exception the try block threw. " * 40
    unit = rule("r1", prose)
    assert EXAMPLE not in dense_text(unit.model_copy(update={"bad_examples": [EXAMPLE]}))  # the document's: where it put it
    written = dense_text(unit.model_copy(update={"model_examples": [EXAMPLE]}))
    assert EXAMPLE in written and len(written) <= len(dense_text(unit)) + 4  # same window, the example inside it


def test_a_document_that_shows_its_own_examples_gets_none_from_the_model(oai):
    oai.responder = lambda req: oai.chat(f"```java\n{EXAMPLE}\n```")
    writer = writer_for(oai)
    shown = [rule(f"g{i}", f"Guideline rule {i}.", bad=(f"bad{i}(); // the book's own",)) for i in range(12)]
    bare = rule("g99", "Guideline rule without an example.")
    prose_only = rule("p1", "A rule of another document.").model_copy(update={
        "source": RuleSource(kb="team", file="other.md", document="other.md")})
    out = writer([*shown, bare, prose_only])
    assert out[12] == bare and out[13].model_examples == [EXAMPLE]  # 12 shown: that document chooses on its own
    assert len(oai.requests) == 1 and "book.md" in writer.notes[0]
    fewer = writer([*shown[:11], bare])
    assert fewer[11].model_examples == [EXAMPLE]  # 11 are too few to choose by: the model writes for the rest
