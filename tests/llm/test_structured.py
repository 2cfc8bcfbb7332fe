"""Tolerant JSON parse with repair, always validated by pydantic."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from dualrag.llm import EmptyOutput, InvalidOutput, parse_json_tolerant, parse_structured, schema_instructions


class Finding(BaseModel):
    line: int
    message: str


class Answer(BaseModel):
    findings: list[Finding] = []


@pytest.mark.parametrize(
    ("text", "value", "repaired"),
    [
        ('{"a": 1}', {"a": 1}, False),
        ("  [1, 2]\n", [1, 2], False),
        ('```json\n{"a": 1}\n```', {"a": 1}, True),
        ('```\n{"a": [1, 2,],}\n```', {"a": [1, 2]}, True),
        ('Sure! Here is the answer: {"a": {"b": "}"}} Hope it helps.', {"a": {"b": "}"}}, True),
        ('{"a": [1, 2], "b": "x",}', {"a": [1, 2], "b": "x"}, True),
        # truncated: closed at the latest complete value
        ('{"a": [1, 2], "b": [3, "fo', {"a": [1, 2], "b": [3]}, True),
        ("{'a': 1, b: 2}", {"a": 1, "b": 2}, True),  # json_repair for the rest
    ],
)
def test_parse_and_repair(text, value, repaired):
    assert parse_json_tolerant(text) == (value, repaired)


def test_unrepairable_raises_typed_error_with_raw_text():
    with pytest.raises(InvalidOutput) as exc:
        parse_json_tolerant("The change looks good to me.")
    assert exc.value.raw == "The change looks good to me."


def test_cut_answer_keeps_complete_members_and_drops_the_partial_one():
    text = '{"findings": [{"line": 1, "message": "a"}, {"line": 2, "mess'
    model, repaired = parse_structured(text, Answer)
    assert model == Answer(findings=[Finding(line=1, message="a")]) and repaired


@pytest.mark.parametrize("text", ['{"findings": [', '{"findings": [{"line": 4, "message": "unfinished'])
def test_cut_answer_never_becomes_an_empty_answer(text):
    # completing these would give {"findings": []} or a guessed finding: refuse instead
    with pytest.raises(InvalidOutput):
        parse_structured(text, Answer)


def test_validation_against_the_schema():
    model, repaired = parse_structured('```json\n{"findings": [{"line": 2, "message": "m"}]}\n```', Answer)
    assert model == Answer(findings=[Finding(line=2, message="m")]) and repaired
    with pytest.raises(InvalidOutput, match="findings.0.line"):
        parse_structured('{"findings": [{"line": "two", "message": "m"}]}', Answer)


@pytest.mark.parametrize("text", ["", "  \n "])
def test_empty(text):
    with pytest.raises(EmptyOutput):
        parse_structured(text, Answer)


def test_schema_instructions_are_deterministic():
    assert schema_instructions(Answer) == schema_instructions(Answer)
    assert '"findings"' in schema_instructions(Answer) and "JSON" in schema_instructions(Answer)
