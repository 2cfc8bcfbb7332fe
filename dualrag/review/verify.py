"""A second look at each finding: one short call that checks the claim against the code.

A small model asked for findings finds something in almost every change, fixes included; asked
to check one concrete claim against the lines it names, it is right more often. So each finding
of warning severity or worse gets one cheap request (`prompts/verify.md` + the hunk the finding
sits in + the claim) and is dropped when the answer is `unsupported`. Suggestions are not
checked: they never block. A check that fails (timeout, unusable answer) keeps the finding: the
claim was not refuted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from dualrag.chunking.model import Chunk, HunkSlice
from dualrag.llm.errors import LLMError
from dualrag.llm.types import LLMRequest, Message
from dualrag.review.prompt import RawFinding, numbered_diff, template
from dualrag.review.sanitize import sanitize

CHECKED = frozenset({"critical", "warning"})
MAX_OUTPUT_TOKENS = 120

_SUPPORTED = {"supported", "yes", "true", "confirmed", "valid", "correct", "bug"}


class Verdict(BaseModel):
    model_config = ConfigDict(extra="ignore")

    reason: str = ""
    verdict: Literal["supported", "unsupported"]

    @field_validator("verdict", mode="before")
    @classmethod
    def _verdict(cls, value: object) -> object:
        if isinstance(value, bool):
            return "supported" if value else "unsupported"
        if isinstance(value, str):
            return "supported" if value.strip().lower() in _SUPPORTED else "unsupported"
        return value


@dataclass(frozen=True)
class Checked:
    kept: list[RawFinding]
    refuted: list[RawFinding]
    errors: int = 0


def verify_request(finding: RawFinding, chunk: Chunk, statuses: dict[str, str] | None = None) -> LLMRequest:
    hunks = _hunks_of(finding, chunk.hunks)
    claim = sanitize(f"{finding.title}. {finding.message}".strip(), limit=600)
    message = (f"<diff>\n{numbered_diff(hunks, statuses)}\n</diff>\n\n"
               f"The claim, about line {finding.line} of {sanitize(finding.path, limit=200)}:\n"
               f"<claim>\n{claim}\n</claim>\n\n"
               "Is the claim supported by the code? Answer with the JSON object only.")
    return LLMRequest(prefix=(template("verify"),), messages=(Message("user", message),), schema=Verdict,
                      max_output_tokens=MAX_OUTPUT_TOKENS, tag=f"verify/{chunk.id}:{finding.line}")


def check(findings: Sequence[RawFinding], chunk: Chunk, client: Any,
          statuses: dict[str, str] | None = None) -> Checked:
    """The findings the code supports (and those it does not), one request per checked finding."""
    kept: list[RawFinding] = []
    refuted: list[RawFinding] = []
    errors = 0
    for finding in findings:
        if finding.severity not in CHECKED:
            kept.append(finding)
            continue
        try:
            verdict = client.complete(verify_request(finding, chunk, statuses)).parsed
        except LLMError:
            errors += 1
            kept.append(finding)
            continue
        if isinstance(verdict, Verdict) and verdict.verdict == "unsupported":
            refuted.append(finding)
        else:
            kept.append(finding)
    return Checked(kept, refuted, errors)


def _hunks_of(finding: RawFinding, hunks: Sequence[HunkSlice]) -> list[HunkSlice]:
    """The hunk the finding is in (or the nearest one of its file): the code the claim is about."""
    same_file = [h for h in hunks if h.path == finding.path or h.path.endswith("/" + finding.path.lstrip("/"))]
    pool = same_file or list(hunks)
    if not pool:
        return []

    def distance(h: HunkSlice) -> int:
        lo, hi = h.new_range
        return 0 if lo <= finding.line <= hi else min(abs(finding.line - lo), abs(finding.line - hi))

    return [min(pool, key=distance)]
