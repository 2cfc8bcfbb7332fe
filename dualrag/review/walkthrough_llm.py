"""The model-written walkthrough: one more request per review that says what the change does, per
file or group of files, in a few lines (issue 18, item 1).

    prefix    the reviewers' own prefix blocks (shared rules + one specialist, repository block):
              byte-identical, so a provider that caches by leading text (Anthropic system blocks
              with JSON in text, llama.cpp/vLLM/Ollama prompt caches, OpenAI-compatible gateways)
              reads them from the cache the reviewers wrote a moment before
    message   the author's words (sanitised, inside boundary tags), the files of the change with
              their members, a capped numbered diff, then `prompts/walkthrough.md`

Providers that put the schema in front of the system prompt (OpenAI `json_schema`, Anthropic's
forced tool) cache the schema with it: there the walkthrough's own schema starts a new prefix.

The answer (`WalkthroughAnswer`) is validated before it is used: paths must be files of the
change, text is stripped of control characters and boundary tags, whitespace collapsed and
capped; publishers show it as plain text. A failed request, an answer that does not validate or
names no file of the change leaves the deterministic walkthrough, with a note. Nothing raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dualrag.chunking.model import ChunkPlan, HunkSlice
from dualrag.config.resolved import ResolvedModel
from dualrag.diff.model import ChangeSet
from dualrag.llm.errors import OutputError
from dualrag.llm.types import LLMRequest, Message
from dualrag.review.model import ChunkReport, FileReport
from dualrag.review.prompt import (
    MAX_DESCRIPTION_CHARS,
    ChangeInfo,
    numbered_diff,
    repository_block,
    stable_block,
    template,
)
from dualrag.review.reviewers import Reviewer
from dualrag.review.sanitize import sanitize
from dualrag.review.walkthrough import Walkthrough, deterministic_walkthrough
from dualrag.source.text import CONTROL

OVERVIEW_CHARS = 400
SUMMARY_CHARS = 300
MAX_OUTPUT_TOKENS = 1_024  # a few lines per group: more is a model that rambles
MAX_FILES_LISTED = 60
MAX_MEMBERS_LISTED = 8


@dataclass(frozen=True)
class Budget:
    """How much of the change the request shows: a small model gets a short request."""

    diff_chars: int
    max_groups: int
    description_chars: int

    @classmethod
    def of(cls, compact: bool, window: int | None = None) -> Budget:
        base = cls(6_000, 6, 600) if compact else cls(24_000, 12, MAX_DESCRIPTION_CHARS)
        if window:  # at most a quarter of the window for the diff (~3 characters a token)
            base = cls(max(1_000, min(base.diff_chars, window * 3 // 4)), base.max_groups, base.description_chars)
        return base


# ------------------------------------------------------------------------------ answer schema


class WalkthroughGroup(BaseModel):
    model_config = ConfigDict(extra="ignore")

    paths: list[str] = Field(min_length=1)
    summary: str = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _one_path(cls, value: object) -> object:
        """`{"path": "a.java", ...}` (one file, as small models write it) is a group of one."""
        if isinstance(value, dict) and "paths" not in value and isinstance(value.get("path"), str):
            return {**value, "paths": [value["path"]]}
        if isinstance(value, dict) and isinstance(value.get("paths"), str):
            return {**value, "paths": [value["paths"]]}
        return value


class WalkthroughAnswer(BaseModel):
    """What the walkthrough request answers."""

    model_config = ConfigDict(extra="ignore")

    overview: str = ""
    groups: list[WalkthroughGroup] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _files(cls, value: object) -> object:
        if isinstance(value, dict) and "groups" not in value and isinstance(value.get("files"), list):
            return {**value, "groups": value["files"]}
        return value


# ------------------------------------------------------------------------------ request


def _files_block(walkthrough: Walkthrough) -> tuple[str, list[str]]:
    listed = [f for f in walkthrough.files if f.skipped is None][:MAX_FILES_LISTED]
    lines = []
    for f in listed:
        members = f.members[:MAX_MEMBERS_LISTED]
        more = f" (+{len(f.members) - len(members)} more)" if len(f.members) > len(members) else ""
        lines.append(f"{f.path} ({f.status}, {f.change})" + (f": {', '.join(members)}{more}" if members else ""))
    hidden = sum(1 for f in walkthrough.files if f.skipped is None) - len(listed)
    if hidden > 0:
        lines.append(f"(and {hidden} more files, not listed)")
    return sanitize("\n".join(lines)), [f.path for f in listed]


def _diff_excerpt(hunks: Sequence[HunkSlice], paths: Sequence[str], statuses: dict[str, str], budget: int) -> str:
    """The numbered diff of each listed file, each cut to its share of the budget."""
    by_path: dict[str, list[HunkSlice]] = {}
    for h in hunks:
        by_path.setdefault(h.path, []).append(h)
    shown = [p for p in paths if p in by_path]
    if not shown:
        return "(no diff text)"
    share = max(400, budget // len(shown))
    parts, used = [], 0
    for p in shown:
        if used >= budget:
            parts.append(f"--- {p} (diff not shown: over the length of this request)")
            continue
        text = numbered_diff(by_path[p], statuses)
        if len(text) > share:
            text = text[:share].rsplit("\n", 1)[0] + "\n[… cut]"
        parts.append(text)
        used += len(text)
    return "\n".join(parts)


def build_walkthrough_request(walkthrough: Walkthrough, hunks: Sequence[HunkSlice], info: ChangeInfo, *,
                              reviewer: str, compact: bool = False, window: int | None = None,
                              max_output_tokens: int | None = None) -> tuple[LLMRequest, list[str]]:
    """(the request, the paths the answer may name)."""
    budget = Budget.of(compact, window)
    prefix = tuple(p for p in (stable_block(reviewer, compact), repository_block(info.instructions, compact)) if p)
    files, paths = _files_block(walkthrough)
    statuses = {f.path: f.status for f in walkthrough.files}
    sections = []
    title, description = sanitize(info.title, limit=300), sanitize(info.description, limit=budget.description_chars)
    if title or description or not compact:
        sections += [f"<mr_title>\n{title}\n</mr_title>", f"<mr_description>\n{description}\n</mr_description>"]
    subjects = "\n".join(filter(None, (sanitize(m.strip().split("\n")[0], limit=200) for m in info.commit_messages[:20])))
    if subjects:
        sections.append(f"<commit_messages>\n{subjects}\n</commit_messages>")
    sections.append(f"<changed_files>\n{files}\n</changed_files>")
    sections.append(f"<diff_chunk>\n{_diff_excerpt(hunks, paths, statuses, budget.diff_chars)}\n</diff_chunk>")
    instructions = template("walkthrough").strip()
    for name, value in (("overview_chars", OVERVIEW_CHARS), ("summary_chars", SUMMARY_CHARS),
                        ("max_groups", budget.max_groups)):
        instructions = instructions.replace("{" + name + "}", str(value))
    sections.append(instructions)
    cap = min(MAX_OUTPUT_TOKENS, max_output_tokens) if max_output_tokens else MAX_OUTPUT_TOKENS
    request = LLMRequest(prefix=prefix, messages=(Message("user", "\n\n".join(sections) + "\n"),),
                         schema=WalkthroughAnswer, max_output_tokens=cap, tag="walkthrough")
    return request, paths


# ------------------------------------------------------------------------------ answer


_SPACE = re.compile(r"\s+")


def clean_text(text: str, limit: int) -> str:
    """One line of plain text: no control or bidirectional characters, no boundary tags, whitespace
    collapsed, at most `limit` characters (cut at a word)."""
    out = _SPACE.sub(" ", CONTROL.sub(" ", sanitize(text))).strip()
    if len(out) > limit:
        out = out[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"
    return out


def _known(path: str, paths: set[str]) -> str | None:
    p = path.strip().strip("`")
    for candidate in (p, p.removeprefix("./"), p[2:] if p[:2] in ("a/", "b/") else p):
        if candidate in paths:
            return candidate
    return None


def apply_answer(walkthrough: Walkthrough, answer: WalkthroughAnswer, paths: Sequence[str]) -> tuple[Walkthrough | None, int]:
    """(the walkthrough with the model's overview and summaries, or None when the answer says
    nothing usable about this change; how many named paths were not files of it)."""
    allowed = set(paths)
    summaries: dict[str, str] = {}
    unknown = 0
    for g in answer.groups:
        text = clean_text(g.summary, SUMMARY_CHARS)
        known = [k for p in g.paths if (k := _known(p, allowed))]
        unknown += len(g.paths) - len(known)
        for k in known:
            if text and k not in summaries:
                summaries[k] = text
    overview = clean_text(answer.overview, OVERVIEW_CHARS)
    if not summaries:
        return None, unknown
    files = [f.model_copy(update={"summary": summaries[f.path]}) if f.path in summaries else f
             for f in walkthrough.files]
    return walkthrough.model_copy(update={"source": "llm", "overview": overview or walkthrough.overview,
                                          "files": files}), unknown


def llm_walkthrough(walkthrough: Walkthrough, hunks: Sequence[HunkSlice], info: ChangeInfo, client: Any, *,
                    reviewer: str, compact: bool = False, window: int | None = None,
                    max_output_tokens: int | None = None,
                    write: Callable[[str, str], None] | None = None) -> tuple[Walkthrough, str | None]:
    """(the walkthrough to publish, a note when the deterministic one stays or something was left
    out). `client` is a ResilientClient (the first reviewer's: same model, same cache)."""
    try:
        request, paths = build_walkthrough_request(walkthrough, hunks, info, reviewer=reviewer, compact=compact,
                                                   window=window, max_output_tokens=max_output_tokens)
        if not paths:
            return walkthrough, None
        if write is not None:
            write("walkthrough.prompt.md", "\n".join(f"===== system block {i + 1} =====\n{p}"
                                                      for i, p in enumerate(request.prefix))
                  + f"\n===== user =====\n{request.messages[0].content}")
        response = client.complete(request)
        if write is not None:
            write("walkthrough.response.txt", response.text or "")
        answer = response.parsed
        if not isinstance(answer, WalkthroughAnswer):
            return walkthrough, "walkthrough: the model's answer did not validate; kept the deterministic one"
        result, unknown = apply_answer(walkthrough, answer, paths)
    except OutputError as exc:
        reason = str(exc).splitlines()[0][:200]
        return walkthrough, f"walkthrough: the model's answer did not validate ({reason}); kept the deterministic one"
    except Exception as exc:  # noqa: BLE001 - the walkthrough never costs the review
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        return walkthrough, f"walkthrough: the model's request failed ({reason}); kept the deterministic one"
    if result is None:
        return walkthrough, "walkthrough: the model named no file of the change; kept the deterministic one"
    if unknown:
        return result, f"walkthrough: {unknown} path(s) the model named are not files of the change (left out)"
    return result, None


@dataclass(frozen=True)
class Walk:
    """The walkthrough stage: what to publish as the walkthrough (None: not asked for), and notes."""

    walkthrough: Walkthrough | None = None
    notes: tuple[str, ...] = ()

    @property
    def source(self) -> str | None:
        return self.walkthrough.source if self.walkthrough is not None else None


def walk_through(changes: ChangeSet, chunks: Sequence[ChunkReport], plan: ChunkPlan, info: ChangeInfo,
                 reviewers: Sequence[Reviewer], clients: Mapping[str, Any], *, model: ResolvedModel, injection: bool,
                 explain_dir: str | Path | None = None) -> Walk:
    """The deterministic walkthrough (`chunks`: the review's ChunkReports), written over by the
    model when it answers usably: one request after the reviewers', on the first reviewer's client
    and prefix (the same cached bytes)."""
    walkthrough = deterministic_walkthrough([FileReport.of(f) for f in changes.files], chunks,
                                            project_type=str(changes.project_type), risk_tier=str(changes.risk_tier),
                                            tier_reasons=changes.tier_reasons)
    if injection:  # the author's text addresses the model: its summary of the change is not to be trusted
        return Walk(walkthrough, (("walkthrough: the change holds text addressed to the reviewers; kept the "
                                   "deterministic one"),))
    reviewer = next((r for r in reviewers if clients.get(r.name) is not None), None)
    if reviewer is None:
        return Walk(walkthrough)
    folder = Path(explain_dir) if explain_dir else None

    def write(name: str, text: str) -> None:
        try:
            if folder is not None:
                (folder / name).write_text(text, encoding="utf-8")
        except OSError:
            pass

    walkthrough, note = llm_walkthrough(
        walkthrough, [h for c in plan.chunks for h in c.hunks], info, clients[reviewer.name], reviewer=reviewer.name,
        compact=model.compact, window=model.window, max_output_tokens=model.max_output, write=write)
    return Walk(walkthrough, (note,) if note else ())
