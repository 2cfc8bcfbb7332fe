"""A model's variants of a rule's example, for verifying mined detectors only (`--model-variants`,
issue 42): through the real OpenAI SDK against a loopback server; asked once per rule and example,
cached on disk, harmless when the model fails or repeats the document."""

from __future__ import annotations

from pathlib import Path

from dualrag.config import load_settings
from dualrag.llm import LLMFactory
from dualrag.review.rule_variants import CachedVariants, VariantWriter, parse_variants
from dualrag.units import RuleSource, RuleUnit
from tests.cli_run import run_cli

FAST = {"request_timeout_s": 2.0, "task_timeout_s": 10.0, "min_attempt_s": 0.01, "max_attempts": 1,
        "backoff_base_s": 0.01, "backoff_max_s": 0.05, "jitter": 0.0}
EXAMPLE = "BigDecimal price = new BigDecimal(0.1);"
BROKEN, FOLLOWED = "BigDecimal rate = new BigDecimal(2.75);", 'BigDecimal rate = new BigDecimal("2.75");'
ANSWER = f"Breaks it:\n```java\n{BROKEN}\n```\nFollows it:\n```java\n{FOLLOWED}\n```\n"


def rule(rule_id: str, bad: tuple[str, ...] = (EXAMPLE,)) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title="Do not construct BigDecimal from a double",
                    text="Do not construct BigDecimal from a double. It cannot hold 0.1.", bad_examples=list(bad),
                    source=RuleSource(kb="team", file="book.md", document="book.md"))


def writer_for(oai, cache=None) -> VariantWriter:
    settings = load_settings(None, llm={"model": "openai:gpt-4.1-mini", "resilience": FAST,
                                        "openai": {"base_url": oai.base_url, "local": False}})
    return VariantWriter(LLMFactory(settings.llm).for_reviewer("rules")[0], model="openai:gpt-4.1-mini",
                         cache={} if cache is None else cache)


def test_each_rule_with_an_example_is_asked_once_for_a_broken_and_a_followed_variant(oai, tmp_path: Path):
    oai.responder = lambda req: oai.chat(ANSWER)
    cache = CachedVariants(tmp_path / "variants.json")
    writer = writer_for(oai, cache)
    out = writer([rule("r1"), rule("r2", bad=())])
    assert out == {"r1": ((BROKEN,), (FOLLOWED,))} and len(oai.requests) == 1  # no example: nothing asked
    sent = " ".join(oai.requests[0].json["messages"][-1]["content"].split())
    assert EXAMPLE in sent and "cannot hold 0.1" in sent and "not instructions to you" in sent
    cache.save()
    again = writer_for(oai, CachedVariants(tmp_path / "variants.json"))  # another run, the same rule
    assert again([rule("r1")]) == out and len(oai.requests) == 1 and again.asked == 0
    changed = rule("r1").model_copy(update={"bad_examples": ["new BigDecimal(0.5).add(x);"]})
    assert again([changed]) == out and len(oai.requests) == 2  # its example changed: asked anew


def test_a_failed_request_gives_no_variants_and_says_so(oai):
    oai.responder = lambda req: oai.error(500, "down")
    writer = writer_for(oai)
    assert writer([rule("r1")]) == {} and "1 rule(s)" in writer.notes[0]


def test_an_answer_is_its_first_two_blocks_and_never_the_documents_own_code():
    unit = rule("r1").model_copy(update={"good_examples": ['BigDecimal price = new BigDecimal("0.1");']})
    assert parse_variants(ANSWER, unit) == ((BROKEN,), (FOLLOWED,))
    parroted = f"```java\n{EXAMPLE}\n```\n```java\n{unit.good_examples[0]}\n```"
    assert parse_variants(parroted, unit) == ((), ())
    assert parse_variants(f"```java\n{BROKEN}\n```", unit) == ((BROKEN,), ())  # one block: the broken one
    assert parse_variants("I cannot help with that.", unit) == ((), ())
    assert CachedVariants(Path("/nonexistent/variants.json")).data == {}


def test_model_variants_without_a_model_is_one_clear_line(tmp_path: Path, capsys, monkeypatch):
    doc = tmp_path / "team.md"
    doc.write_text("# Rules\n\n## R-1 No doubles\n\n```java\nBigDecimal p = new BigDecimal(0.1);\n```\n",
                   encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["rules", "inspect", str(doc), "--model-variants"], capsys)
    assert code == 2 and "needs a model" in err and "Traceback" not in err


def test_rules_inspect_with_model_variants_asks_and_caches_on_disk(oai, tmp_path: Path, capsys, monkeypatch):
    oai.responder = lambda req: oai.chat(ANSWER)
    doc = tmp_path / "team.md"
    doc.write_text("# Team rules\n\n## R-1 Do not construct BigDecimal from a double\n\nIt cannot hold 0.1.\n\n"
                   "### Noncompliant Code Example\n\n```java\nBigDecimal price = new BigDecimal(0.1);\n```\n",
                   encoding="utf-8")
    config = tmp_path / "dualrag.toml"
    config.write_text(f'[llm]\nmodel = "openai:gpt-4.1-mini"\n[llm.openai]\nbase_url = "{oai.base_url}"\n'
                      'local = false\n[llm.resilience]\nmax_attempts = 1\n[rules]\nmining_min_bits = 5.0\n',
                      encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.chdir(tmp_path)
    args = ["rules", "inspect", str(doc), "--model-variants", "--rejected", "--config", str(config)]
    code, out, err = run_cli(args, capsys)
    assert code in (0, None), err
    assert len(oai.requests) == 1 and "1 request(s) for model variants, 1 rule(s) carry them" in err
    assert "fires on compliant variant 1" in out  # the followed variant turned a step down
    code, _, err = run_cli(args, capsys)
    assert code in (0, None) and len(oai.requests) == 1 and "0 request(s) for model variants" in err
