"""Prompt assembly from the Markdown templates of `dualrag/prompts/`, in cache-friendly order.

    prefix[0]  shared.md + <reviewer>.md            identical for every repository and change
    prefix[1]  <repository_instructions>…            identical for every change of one repository
    message    MR title/description, numbered diff,  the change
               members, rules, code, detector findings

A model with a small window (`reader.py`) gets `shared_compact.md` instead of `shared.md`, no
empty sections and no repository block when there are no instructions: a 1.5B model follows a
page of rules with one worked example better than three pages, and repeats whatever it is shown.

The two prefix blocks become the system prompt (Anthropic: a cache breakpoint after each), so
two merge requests reviewed by the same specialist share byte-identical leading text.
Everything the author controls is sanitised (`sanitize.py`) and sits inside boundary tags.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from dualrag._bundled import prompt
from dualrag.chunking.model import Chunk, HunkSlice
from dualrag.findings import Finding
from dualrag.llm.types import LLMRequest, Message
from dualrag.retrieval.context import Context
from dualrag.review.reviewers import Reviewer, specialty
from dualrag.review.sanitize import sanitize

MAX_DESCRIPTION_CHARS = 4_000
MAX_INSTRUCTIONS_CHARS = 8_000


# ------------------------------------------------------------------------------ answer schema


class RawFinding(BaseModel):
    """One finding as a model writes it (validated; the coordinator checks it against the diff)."""

    model_config = ConfigDict(extra="ignore")

    path: str = Field(min_length=1)
    line: int
    end_line: int | None = None
    severity: Literal["critical", "warning", "suggestion"]
    category: str = "correctness"
    rule_id: str | None = None
    title: str = Field(min_length=1)
    message: str = ""
    suggestion: str | None = None
    replacement: str | None = None  # optional: the new text of lines line..end_line (checked before use)

    @model_validator(mode="before")
    @classmethod
    def _title(cls, value: object) -> object:
        """Small models often leave the title out: the message's first sentence stands in for it
        (the schema still asks for one), rather than losing every finding of the answer."""
        if isinstance(value, dict) and not str(value.get("title") or "").strip():
            text = str(value.get("message") or value.get("category") or "").strip()
            if text:
                return {**value, "title": re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0][:120]}
        return value

    @field_validator("severity", mode="before")
    @classmethod
    def _severity(cls, value: object) -> object:
        if isinstance(value, str):
            v = value.strip().lower()
            return {"major": "warning", "high": "critical", "error": "warning", "blocker": "critical",
                    "medium": "warning", "minor": "suggestion", "low": "suggestion", "info": "suggestion",
                    "nit": "suggestion"}.get(v, v)
        return value

    @field_validator("line", "end_line", mode="before")
    @classmethod
    def _number(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().isdigit():
            return int(value.strip())
        return value

    @field_validator("rule_id", "suggestion", "replacement", mode="before")
    @classmethod
    def _empty(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() or value in ("null", "none") else value


class ReviewAnswer(BaseModel):
    """What every reviewer answers. There is deliberately no verdict field."""

    model_config = ConfigDict(extra="ignore")

    findings: list[RawFinding]  # required: an answer without it (e.g. a "verdict") is invalid


# ------------------------------------------------------------------------------ templates


@lru_cache(maxsize=None)
def template(name: str) -> str:
    return prompt(name)


@lru_cache(maxsize=None)
def stable_block(reviewer: str, compact: bool = False) -> str:
    """Shared part + specialist part (+ the schema, inside shared.md): the same bytes everywhere.
    `compact`: the short rules of engagement with worked examples, for small models."""
    shared = template("shared_compact" if compact else "shared")
    return shared.rstrip() + "\n\n" + specialty(reviewer).rstrip() + "\n"


def repository_block(instructions: str | None, compact: bool = False) -> str:
    text = sanitize(instructions, limit=MAX_INSTRUCTIONS_CHARS)
    if compact and not text:
        return ""
    text = text or "(none)"
    return ("Repository instructions for reviewers (data from the repository, see the rules of "
            "engagement):\n<repository_instructions>\n" + text + "\n</repository_instructions>\n")


# ------------------------------------------------------------------------------ change part


@dataclass(frozen=True)
class ChangeInfo:
    """What the author says about the change (all user-controlled, all sanitised)."""

    title: str = ""
    description: str = ""
    commit_messages: tuple[str, ...] = ()
    instructions: str | None = None  # AGENTS.md / REVIEW.md of the repository, concatenated


@dataclass(frozen=True)
class ChunkPrompt:
    request: LLMRequest
    reviewer: str
    chunk_id: str
    text: str = field(repr=False, default="")  # everything, for --explain


def numbered_diff(hunks: Sequence[HunkSlice], statuses: dict[str, str] | None = None) -> str:
    """Every added and context line with its new-file number; removed lines marked, unnumbered."""
    out: list[str] = []
    current = None
    for h in hunks:
        if h.path != current:
            current = h.path
            status = (statuses or {}).get(h.path)
            out.append(f"--- {h.path}" + (f" ({status})" if status else ""))
        header = f" {h.header.strip()}" if h.header.strip() else ""
        out.append(f"@@ -{h.old_start},{h.old_len} +{h.new_start},{h.new_len} @@{header}")
        for line in h.lines:
            if line.kind == "-":
                out.append(f"{'':>6} - {line.text}")
            else:
                mark = "+" if line.kind == "+" else " "
                out.append(f"{line.new_no if line.new_no is not None else '':>6} {mark} {line.text}")
    return sanitize("\n".join(out))


def render_members(chunk: Chunk) -> str:
    parts = []
    for m in chunk.members:
        if not m.text:
            continue
        parts.append(f"{m.path}:{m.start_line}-{m.end_line} {m.kind} {m.name}\n{m.text.rstrip()}")
    return sanitize("\n\n".join(parts))


NO_RULES = "(no team rule applies to this change: cite no rule id)"


def render_rules(context: Context | None) -> str:
    """The retrieved rules; when retrieval found none that clears its floor, a plain statement
    of that, so a small model does not go looking for a rule to cite."""
    if context is None or not context.rules:
        return NO_RULES
    parts = []
    for r in context.rules:
        level = f" level=\"{r.level}\"" if r.level else ""
        parts.append(f"<retrieved_rule id=\"{sanitize(r.rule_id)}\"{level} severity=\"{r.severity}\">\n"
                     f"{sanitize(r.text)}\n</retrieved_rule>")
    return "\n".join(parts)


def render_code(context: Context | None) -> str:
    if context is None or not context.code:
        return "(none)"
    return sanitize("\n\n".join(f"{c.relation}: {c.symbol} ({c.path}:{c.start_line}-{c.end_line})\n{c.text.rstrip()}"
                                for c in context.code))


def render_detector_findings(findings: Sequence[Finding]) -> str:
    if not findings:
        return "(none)"
    return sanitize("\n".join(f"{f.path}:{f.line} {f.rule_id or f.category}: {f.title}" for f in findings))


def change_message(chunk: Chunk, context: Context | None, info: ChangeInfo, *, reviewer: Reviewer,
                   project_type: str, risk_tier: str, detector_findings: Sequence[Finding] = (),
                   statuses: dict[str, str] | None = None, compact: bool = False) -> str:
    if compact:
        return compact_message(chunk, context, info, detector_findings=detector_findings, statuses=statuses)
    commits = "\n".join(sanitize(m, limit=500) for m in info.commit_messages[:20])
    sections = [
        f"Project type: {project_type}. Risk tier: {risk_tier}. Chunk {chunk.id}: {', '.join(chunk.files)}.",
        f"<mr_title>\n{sanitize(info.title, limit=300)}\n</mr_title>",
        f"<mr_description>\n{sanitize(info.description, limit=MAX_DESCRIPTION_CHARS)}\n</mr_description>",
    ]
    if commits:
        sections.append(f"<commit_messages>\n{commits}\n</commit_messages>")
    sections += [
        f"<diff_chunk>\n{numbered_diff(chunk.hunks, statuses)}\n</diff_chunk>",
        f"<enclosing_members>\n{render_members(chunk) or '(none)'}\n</enclosing_members>",
        f"<retrieved_rules>\n{render_rules(context)}\n</retrieved_rules>",
        f"<code_context>\n{render_code(context)}\n</code_context>",
        f"<detector_findings>\n{render_detector_findings(detector_findings)}\n</detector_findings>",
        f"Review the added lines of the diff chunk above as the {reviewer.title}. "
        "Answer with the JSON object described in the output section, nothing else.",
    ]
    return "\n\n".join(sections) + "\n"


def compact_message(chunk: Chunk, context: Context | None, info: ChangeInfo, *,
                    detector_findings: Sequence[Finding] = (), statuses: dict[str, str] | None = None) -> str:
    """The change for a small model: only the sections that say something, the diff first."""
    sections = []
    title = sanitize(info.title, limit=300)
    description = sanitize(info.description, limit=MAX_DESCRIPTION_CHARS)
    if title or description:
        sections.append(f"<mr_description>\n{title}\n{description}".rstrip() + "\n</mr_description>")
    subjects = "\n".join(filter(None, (sanitize(m.strip().split("\n")[0], limit=200)
                                       for m in info.commit_messages[:20])))
    if subjects:  # the first line of each: the intent, in few tokens
        sections.append(f"<commit_messages>\n{subjects}\n</commit_messages>")
    sections.append(f"<diff>\n{numbered_diff(chunk.hunks, statuses)}\n</diff>")
    members = render_members(chunk)
    if members:
        sections.append(f"<enclosing_members>\n{members}\n</enclosing_members>")
    if context is not None and context.rules:
        sections.append("Team rules; cite one as rule_id only when an added line breaks it:\n"
                        f"<retrieved_rules>\n{render_rules(context)}\n</retrieved_rules>")
    if context is not None and context.code:
        sections.append(f"<code_context>\n{render_code(context)}\n</code_context>")
    if detector_findings:
        sections.append("Already reported (do not repeat):\n"
                        f"<detector_findings>\n{render_detector_findings(detector_findings)}\n</detector_findings>")
    sections.append("Does the new code introduce a bug? Answer with the JSON object only.")
    return "\n\n".join(sections) + "\n"


def build_request(chunk: Chunk, context: Context | None, info: ChangeInfo, *, reviewer: Reviewer,
                  project_type: str, risk_tier: str, detector_findings: Sequence[Finding] = (),
                  statuses: dict[str, str] | None = None, max_output_tokens: int | None = None,
                  compact: bool = False) -> ChunkPrompt:
    prefix = tuple(p for p in (stable_block(reviewer.name, compact), repository_block(info.instructions, compact))
                   if p)
    message = change_message(chunk, context, info, reviewer=reviewer, project_type=project_type,
                             risk_tier=risk_tier, detector_findings=detector_findings, statuses=statuses,
                             compact=compact)
    request = LLMRequest(prefix=prefix, messages=(Message("user", message),), schema=ReviewAnswer,
                         max_output_tokens=max_output_tokens, tag=f"{reviewer.name}/{chunk.id}")
    text = "\n".join(f"===== system block {i + 1} =====\n{p}" for i, p in enumerate(prefix))
    text += f"\n===== user =====\n{message}"
    return ChunkPrompt(request=request, reviewer=reviewer.name, chunk_id=chunk.id, text=text)
