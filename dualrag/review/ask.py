"""`/dualrag ask <question>`: a question about a merge request, answered from the review's own
retrieval (issue 29, item 4).

The change is chunked and retrieved exactly as a review does (`chunk_changes`, `cap_plan`,
`retrieve_contexts`): the same rules and code context a reviewer would get. Those are the answer's
sources, cited by rule id and document (page) and by `path:line`; with a model, one request
(`prompts/ask.md`) writes the answer from them. Without a model, or when the question reads as
instructions to the bot (`checks/injection.py`, the same check the author's words get), the
sources alone are the answer and a note says why.

The question is the commenter's text: it goes inside `<user_question>` tags, sanitised like every
other author-controlled text (`review/sanitize.py`). The model's answer is returned as plain text;
whoever posts it escapes it (the VCS publishers' `prose` + `neutralise`). Nothing here can approve,
block or resolve anything: the answer is words, never a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dualrag.checks.injection import find_injection
from dualrag.chunking import ChunkPlan, chunk_changes
from dualrag.chunking.caps import cap_plan
from dualrag.config import Settings
from dualrag.config.resolved import ResolvedModel, resolve_model
from dualrag.diff import ChangeSet
from dualrag.diff.model import ProjectType, RiskTier
from dualrag.llm import LLMFactory
from dualrag.llm.types import LLMRequest, Message
from dualrag.retrieval.context import Context
from dualrag.retrieval.stage import retrieve
from dualrag.review.prompt import (
    MAX_DESCRIPTION_CHARS,
    ChangeInfo,
    numbered_diff,
    render_code,
    repository_block,
    template,
)
from dualrag.review.sanitize import sanitize
from dualrag.source.review_source import ReviewSource
from dualrag.source.text import CONTROL
from dualrag.store.session import StoreSession
from dualrag.tokens import get_estimator

_NO_INFO = ChangeInfo()
MAX_QUESTION_CHARS = 2_000
MAX_DIFF_CHARS = 24_000        # the numbered change shown to the model (~8k tokens)
MAX_ANSWER_CHARS = 4_000       # what is posted of the model's answer
MAX_OUTPUT_TOKENS = 700
MAX_WORDS = 250
MAX_RULES = 8                  # rules cited, best first, across the change's chunks
MAX_CODE = 8                   # code context items cited
ASKER = "ask"                  # `[llm.reviewers] ask = "..."` picks the model that answers


@dataclass(frozen=True, slots=True)
class RuleCitation:
    rule_id: str
    title: str
    source: str   # document (and page) the rule comes from
    kb: str
    score: float


@dataclass(frozen=True, slots=True)
class CodeCitation:
    path: str
    start_line: int
    end_line: int
    what: str     # "changed lines", or the relation and symbol of retrieved code ("caller: Orders.total")

    @property
    def where(self) -> str:
        end = f"-{self.end_line}" if self.end_line > self.start_line else ""
        return f"{self.path}:{self.start_line}{end}"


@dataclass(frozen=True, slots=True)
class Answer:
    question: str                      # as asked (capped), never rewritten
    text: str | None                   # the model's answer, plain text; None: the sources alone answer
    rules: tuple[RuleCitation, ...]
    code: tuple[CodeCitation, ...]     # retrieved code context first, then the changed lines
    model: str | None = None           # who answered
    reason: str | None = None          # why there is no model answer (offline, injection, failure): shown
    error: str | None = None           # the failure itself, for the operator's log only (it may name hosts)
    notes: tuple[str, ...] = ()        # what retrieval said (skipped parts, caps)


def answer_question(question: str, changes: ChangeSet, source: ReviewSource, settings: Settings, *,
                    info: ChangeInfo = _NO_INFO, llm_factory: LLMFactory | None = None,
                    store: StoreSession | None = None,
                    injection: Callable[[str], str | None] | None = None) -> Answer:
    """Answer `question` about the change from what a review of it retrieves. `store`: the caller's
    store session (else one is opened and closed here); `injection`: question -> where an
    instruction to the bot was found (None: clean), default `question_injection`."""
    question = question.strip()[:MAX_QUESTION_CHARS]
    factory = llm_factory or LLMFactory(settings.llm)
    spec = factory.config.model_for(ASKER)
    model = resolve_model(settings, [spec] if spec else [], factory.config)
    plan = _plan(changes, settings, source, model)
    contexts: dict[str, Context] = {}
    notes: tuple[str, ...] = ()
    if settings.retrieval.enabled and plan.chunks:
        own = store is None
        session = StoreSession.of(settings) if own else store
        try:
            got = retrieve(plan, changes, settings, source, store=session, model=model)
        finally:
            if own:
                session.close()
        contexts, notes = got.contexts, got.notes
    rules, code = cite_rules(contexts.values()), cite_code(contexts.values(), plan)
    base = {"question": question, "rules": rules, "code": code, "notes": notes}
    client, _ = factory.for_reviewer(ASKER)
    if client is None:
        return Answer(text=None, reason="no model is configured", **base)
    hit = (injection or question_injection)(question)
    if hit is not None:
        return Answer(text=None, reason=f"the question reads as instructions to the bot ({hit}): it was not sent "
                                        "to the model", **base)
    request = build_ask_request(question, plan, contexts, info, instructions=info.instructions)
    try:
        response = client.complete(request)
    except Exception as exc:  # noqa: BLE001 - a failed model leaves the sources as the answer
        why = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        return Answer(text=None, reason="the model's request failed", error=why, **base)
    text = clean_answer(response.text or "")
    if not text:
        return Answer(text=None, reason="the model's answer was empty", model=response.model, **base)
    return Answer(text=text, model=response.model, **base)


def question_injection(question: str) -> str | None:
    """Where the question addresses the bot rather than asking about the change, or None. The same
    check (phrases, decoded layers, meaning) the author's title and description get."""
    _, where = find_injection(_NO_FILES, [("the question", question)])
    return where[0] if where else None


def _plan(changes: ChangeSet, settings: Settings, source: ReviewSource, model: ResolvedModel) -> ChunkPlan:
    """The review's chunks of the change, sized for the answering model and capped as a review caps
    them (no reviewer calls: the chunk cap alone)."""
    plan = chunk_changes(changes, estimator=get_estimator("fast", model=model.token_model), config=settings.chunking,
                         read_file=source.read_file, window=model.window, limits=settings.limits)
    return cap_plan(plan, settings.limits)[0]


def cite_rules(contexts) -> tuple[RuleCitation, ...]:
    best: dict[tuple[str, str], RuleCitation] = {}
    for ctx in contexts:
        for r in ctx.rules:
            key = (r.kb, r.rule_id)
            if key not in best or r.score > best[key].score:
                best[key] = RuleCitation(r.rule_id, r.title, r.source, r.kb, r.score)
    return tuple(sorted(best.values(), key=lambda c: -c.score)[:MAX_RULES])


def cite_code(contexts, plan: ChunkPlan) -> tuple[CodeCitation, ...]:
    """Retrieved code (definitions, callers, configuration), then each run of added lines."""
    seen: set[tuple[str, int, int]] = set()
    out: list[CodeCitation] = []
    for ctx in contexts:
        for c in ctx.code:
            if (c.path, c.start_line, c.end_line) not in seen and len(out) < MAX_CODE:
                seen.add((c.path, c.start_line, c.end_line))
                out.append(CodeCitation(c.path, c.start_line, c.end_line, f"{c.relation}: {c.symbol}"))
    for chunk in plan.chunks:
        for hunk in chunk.hunks:
            run: list[int] = []
            for line in (*hunk.lines, None):
                if line is not None and line.kind == "+" and line.new_no is not None:
                    run.append(line.new_no)
                    continue
                if run and (hunk.path, run[0], run[-1]) not in seen:
                    seen.add((hunk.path, run[0], run[-1]))
                    out.append(CodeCitation(hunk.path, run[0], run[-1], "changed lines"))
                run = []
    return tuple(out)


def render_sources(contexts: dict[str, Context]) -> str:
    """Every retrieved rule once, with where its document says it (the model cites these ids)."""
    parts, seen = [], set()
    for ctx in contexts.values():
        for r in ctx.rules:
            if (r.kb, r.rule_id) in seen:
                continue
            seen.add((r.kb, r.rule_id))
            parts.append(f"<retrieved_rule id=\"{sanitize(r.rule_id)}\" source=\"{sanitize(r.source)}\">\n"
                         f"{sanitize(r.text)}\n</retrieved_rule>")
    return "\n".join(parts) or "(no team rule was retrieved for this change)"


def build_ask_request(question: str, plan: ChunkPlan, contexts: dict[str, Context], info: ChangeInfo, *,
                      instructions: str | None = None) -> LLMRequest:
    """The stable instructions first (the same bytes for every question), then the change, its
    sources and, last, the question inside its boundary tags."""
    prefix = tuple(p for p in (template("ask").replace("{max_words}", str(MAX_WORDS)).strip() + "\n",
                               repository_block(instructions)) if p)
    diff = numbered_diff([h for c in plan.chunks for h in c.hunks])
    if len(diff) > MAX_DIFF_CHARS:
        diff = diff[:MAX_DIFF_CHARS].rsplit("\n", 1)[0] + "\n[… cut]"
    code = "\n\n".join(render_code(ctx) for ctx in contexts.values() if ctx.code) or "(none)"
    sections = [
        f"<mr_title>\n{sanitize(info.title, limit=300)}\n</mr_title>",
        f"<mr_description>\n{sanitize(info.description, limit=MAX_DESCRIPTION_CHARS)}\n</mr_description>",
        f"<diff_chunk>\n{diff or '(no reviewable change)'}\n</diff_chunk>",
        f"<retrieved_rules>\n{render_sources(contexts)}\n</retrieved_rules>",
        f"<code_context>\n{code}\n</code_context>",
        f"<user_question>\n{sanitize(question, limit=MAX_QUESTION_CHARS)}\n</user_question>",
        "Answer the question in <user_question> as described in your instructions.",
    ]
    return LLMRequest(prefix=prefix, messages=(Message("user", "\n\n".join(sections) + "\n"),),
                      max_output_tokens=MAX_OUTPUT_TOKENS, tag=ASKER)


def clean_answer(text: str) -> str:
    """The model's text without control characters or boundary tags, capped at a line end."""
    out = CONTROL.sub("", sanitize(text)).strip()
    if len(out) > MAX_ANSWER_CHARS:
        out = out[:MAX_ANSWER_CHARS].rsplit("\n", 1)[0].rstrip() + "\n[… cut]"
    return out


# A change with no files: the injection check then reads the question alone.
_NO_FILES = ChangeSet(files=(), project_type=ProjectType.GENERIC, risk_tier=RiskTier.TRIVIAL)
