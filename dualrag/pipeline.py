"""Wiring of the online stages: diff bytes in, a Review out (ARCHITECTURE.md, "One direction")."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dualrag.checks.detectors import detect
from dualrag.checks.edi import validate_edi
from dualrag.checks.injection import INSTRUCTION_FILES
from dualrag.checks.screen import screen
from dualrag.chunking import ChunkPlan
from dualrag.chunking.stage import chunk, spend
from dualrag.config import Settings
from dualrag.config.resolved import ResolvedModel
from dualrag.diff import ChangeSet, ingest_source
from dualrag.feedback import FeedbackScope
from dualrag.llm import EventSink, LLMFactory
from dualrag.priors import BreakGlass, PriorFinding
from dualrag.retrieval.stage import Retrieval, retrieve
from dualrag.review.feedback import Memory, load_memory
from dualrag.review.model import ChunkReport, Review
from dualrag.review.prompt import ChangeInfo
from dualrag.review.reader import Readers, readers_for, resolve_for
from dualrag.review.reviewers import select_reviewers
from dualrag.review.rule_query import RuleQueryWriter
from dualrag.review.stage import StageResult, review_chunks
from dualrag.review.usage import UsageTally
from dualrag.review.verdict import Verdict, judge
from dualrag.review.walkthrough_llm import Walk, walk_through
from dualrag.source.review_source import Reader, ReviewSource
from dualrag.store.session import StoreSession

__all__ = ["Conversation", "MRRun", "RunHooks", "checkout_source", "mr_review_fn", "review_changes",
           "review_merge_request", "run_chunking", "run_review"]


@dataclass(frozen=True)
class Conversation:
    """What people said around the change: the author's words (sanitised later), the findings of
    earlier pushes and what became of them, a break glass by someone allowed to pull it, and whose
    reviewers' feedback on other merge requests applies (the repository; None: none)."""

    info: ChangeInfo = field(default_factory=ChangeInfo)
    prior_findings: Sequence[PriorFinding] = ()
    break_glass: BreakGlass | None = None
    feedback: FeedbackScope | None = None


@dataclass(frozen=True)
class RunHooks:
    """How a run is observed and driven, not what it reviews: a telemetry sink, a folder for every
    prompt sent (--explain), a heartbeat while a model is slow, a shared LLM factory (tests,
    benchmarks), a subset of reviewers, and how many reviewer calls run at once."""

    telemetry: EventSink | None = None
    explain_dir: str | Path | None = None
    on_heartbeat: Callable[[dict[str, Any]], None] | None = None
    llm_factory: LLMFactory | None = None
    reviewers: Sequence[str] | None = None
    max_workers: int = 4


def run_review(source: ReviewSource | bytes, settings: Settings, *, conversation: Conversation = Conversation(),
               hooks: RunHooks = RunHooks()) -> Review:
    """Review a change: `source` is the diff (bytes) or a ReviewSource with the repository at hand."""
    source = source if isinstance(source, ReviewSource) else ReviewSource(source)
    start = time.perf_counter()
    changes = ingest_source(source, settings)
    return review_changes(changes, source, settings, conversation=conversation, hooks=hooks,
                          ingest_ms=round((time.perf_counter() - start) * 1000, 2))


def review_changes(changes: ChangeSet, source: ReviewSource, settings: Settings, *,
                   conversation: Conversation = Conversation(), hooks: RunHooks = RunHooks(),
                   ingest_ms: float | None = None, store: StoreSession | None = None) -> Review:
    """Review a change already ingested (the merge-request stage ingests once and publishes from the
    same ChangeSet). `store`: a store session the caller keeps open (a worker, the MR stage that
    records feedback after); else one is opened for this run, once, and closed after the last
    stage that reads knowledge."""
    run = _Run(hooks, settings, ingest_ms)
    readers = readers_for(changes, settings, only=hooks.reviewers, factory=hooks.llm_factory, sink=run.tally,
                          on_heartbeat=hooks.on_heartbeat)  # a model that cannot work stops here, before any work
    model, read_file = readers.model, source.read_file
    with _store_session(settings, store) as knowledge:
        detection = run("detect", detect, changes, settings, knowledge)
        validation = run("validate", validate_edi, changes, settings.limits, read_file)
        chunking = run("chunk", chunk, changes, settings, model, read_file=read_file)
        spent = spend(chunking.plan, settings, model, reviewers=len(readers.reviewers))
        writer = RuleQueryWriter.for_run(settings.retrieval.channels.model_query, readers.reviewers, readers.clients)
        retrieval = run("retrieve", retrieve, spent.plan, changes, settings, source, store=knowledge, model=model,
                        rule_language=writer) if settings.retrieval.enabled and spent.plan.chunks else Retrieval()
        memory = load_memory(settings, conversation.feedback, knowledge) if changes.reviewable else Memory()
    info = _with_instructions(conversation.info, source.read_base)
    screening = run("injection", screen, changes, _fields(info))
    findings = [*validation.joined(detection.findings), *screening.findings]
    reviewed = run("review", review_chunks, changes, info, spent.plan, retrieval.contexts, findings, readers.reviewers,
                   readers.clients, settings=settings, model=model, sink=run.tally, explain_dir=hooks.explain_dir,
                   max_workers=hooks.max_workers, timed=bool(readers.clients)) \
        if chunking.plan.chunks and changes.reviewable else StageResult()
    verdict = run.decided(run("coordinate", judge, changes, reviewed, findings=findings, contexts=retrieval.contexts,
                              known_ids=detection.rules.known_ids, chunk_ids=[c.id for c in chunking.plan.chunks],
                              llm_configured=model.online, injection=screening.injection, steering=screening.steering,
                              refused=validation.refused, prior_findings=conversation.prior_findings,
                              break_glass=conversation.break_glass, read_file=read_file, feedback=memory.memory,
                              model_warnings=settings.review.model_warnings))
    chunks = [ChunkReport.of(c, context=retrieval.contexts.get(c.id)) for c in chunking.plan.chunks]
    walk = _walkthrough(run, changes, chunks, chunking.plan, info, readers, reviewed, settings,
                        injection=bool(screening.injection), explain_dir=hooks.explain_dir)
    notes = [*changes.notes, *detection.notes, *validation.notes, *chunking.notes, *spent.notes, *retrieval.notes,
             *(writer.notes if writer else ()), *reviewed.notes, *filter(None, [verdict.nothing]), *memory.notes,
             *verdict.notes, *walk.notes]
    return run.report(changes, chunks, verdict, reviewed, walk, notes)


class _Run:
    """One run's telemetry: the usage tally every event goes through (the caller's sink behind
    it), and each stage's time."""

    def __init__(self, hooks: RunHooks, settings: Settings, ingest_ms: float | None) -> None:
        self.tally = UsageTally(hooks.telemetry, run_id=uuid.uuid4().hex[:12])
        self.timings: dict[str, float] = {}
        self.tally({"event": "run_start", "llm": (hooks.llm_factory.config if hooks.llm_factory else settings.llm).model})
        if ingest_ms is not None:
            self.timings["ingest"] = ingest_ms
            self.tally({"event": "stage", "stage": "ingest", "ms": ingest_ms})

    def __call__(self, stage: str, fn: Callable[..., Any], *args: Any, timed: bool = True, **kw: Any) -> Any:
        """`fn(*args, **kw)`, timed as `stage` (`timed=False`: a stage that does not run for real)."""
        if not timed:
            return fn(*args, **kw)
        with _timed(self.timings, stage, self.tally):
            return fn(*args, **kw)

    def decided(self, verdict: Verdict) -> Verdict:
        outcome = verdict.outcome
        for f in outcome.findings:
            self.tally({"event": "finding", **f.model_dump(include={"path", "line", "severity", "category", "rule_id",
                                                                    "source", "reviewer", "counted"})})
        self.tally({"event": "decision", "decision": str(outcome.decision), "reasons": outcome.reasons,
                    "dropped": verdict.dropped, "break_glass": outcome.break_glass})
        return verdict

    def report(self, changes: ChangeSet, chunks: list[ChunkReport], verdict: Verdict, reviewed: StageResult,
               walk: Walk, notes: list[str]) -> Review:
        usage = self.tally.usage()
        self.tally({"event": "run_end", "usage": usage.model_dump(), "timings": self.timings})
        outcome = verdict.outcome
        return Review.of_changes(changes, decision=outcome.decision, chunks=chunks, findings=outcome.findings,
                                 notes=notes, timings=self.timings, usage=usage, reviewers=reviewed.runs,
                                 decision_reasons=outcome.reasons, break_glass=outcome.break_glass,
                                 dropped=verdict.dropped, walkthrough=walk.walkthrough)


@contextmanager
def _store_session(settings: Settings, given: StoreSession | None) -> Iterator[StoreSession]:
    """The caller's session (left open), else one for this run (closed on leaving)."""
    if given is not None:
        yield given
        return
    with StoreSession.of(settings) as own:
        yield own


def _fields(info: ChangeInfo) -> list[tuple[str, str | None]]:
    """The words around the change that the injection check reads."""
    return [("the title", info.title), ("the description", info.description),
            ("the commit messages", "\n".join(info.commit_messages)),
            ("the repository instructions", info.instructions)]


def _walkthrough(run: _Run, changes: ChangeSet, chunks: list[ChunkReport], plan: ChunkPlan, info: ChangeInfo,
                 readers: Readers, reviewed: StageResult, settings: Settings, *, injection: bool,
                 explain_dir: str | Path | None) -> Walk:
    """The walkthrough stage, when a model reviewed and the change has enough files to summarise."""
    if not (settings.review.walkthrough and readers.clients and reviewed.chunks_reviewed
            and len(changes.files) >= settings.review.walkthrough_min_files):
        return Walk()
    walk = run("walkthrough", walk_through, changes, chunks, plan, info, readers.reviewers, readers.clients,
               model=readers.model, injection=injection, explain_dir=explain_dir)
    run.tally({"event": "walkthrough", "source": walk.source})
    return walk


def _with_instructions(info: ChangeInfo, read_file: Reader | None) -> ChangeInfo:
    """The repository's AGENTS.md / REVIEW.md, read from the target side of the change (when a
    repository is at hand and none were given): never from the change under review."""
    if info.instructions is not None or read_file is None:
        return info
    parts = []
    for name in INSTRUCTION_FILES:
        try:
            data = read_file(name)
        except Exception:  # noqa: BLE001 - a missing or unreadable file is no instruction
            data = None
        if data:
            parts.append(f"# {name}\n" + data.decode("utf-8", "replace"))
    return replace(info, instructions="\n\n".join(parts) if parts else None)


def run_chunking(changes: ChangeSet, settings: Settings, *, read_file: Reader | None = None,
                 estimator: str | None = None, reader: ResolvedModel | None = None) -> tuple[ChunkPlan, str | None]:
    """Chunk a ChangeSet with the configured estimator (the chunk stage on its own: `dualrag chunk`).
    `reader`: the resolved model whose window and tokenizer apply; not given, the one the
    configured reviewers of the change would get (offline: the chunking section's)."""
    if reader is None:
        reader = resolve_for(settings, select_reviewers(str(changes.risk_tier), str(changes.project_type),
                                                        languages=[f.language for f in changes.files if f.reviewable]))
    result = chunk(changes, settings, reader, read_file=read_file, estimator=estimator)
    return result.plan, result.note


@contextmanager
def _timed(timings: dict[str, float], stage: str, sink: EventSink | None = None) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = round((time.perf_counter() - start) * 1000, 2)
        if sink is not None:
            sink({"event": "stage", "stage": stage, "ms": timings[stage]})


# ------------------------------------------------------------------------------ a merge request, end to end
# The CI stage (`dualrag gitlab|github review`) and the review service's worker both call
# `review_merge_request`: read the MR, review it, publish to it. Printing and report files stay
# with the caller, and so does the adapter (the caller closes its client).


@dataclass(frozen=True)
class MRRun:
    """One merge-request review: the Review, what publishing did (None when a newer push superseded
    the head before it was published), the ChangeSet reviewed (None when the stage stopped before
    ingesting), and notes for the operator's log (where the diff came from), never for the MR."""

    review: Any  # dualrag.review.model.Review
    result: Any | None  # dualrag.vcs.model.PublishResult
    changes: ChangeSet | None
    notes: tuple[str, ...] = ()
    superseded: bool = False


class _Superseded(Exception):
    def __init__(self, review: Any) -> None:
        super().__init__("superseded by a newer head")
        self.review = review


def mr_review_fn(settings: Settings, *, hooks: RunHooks = RunHooks(), feedback: FeedbackScope | None = None):
    """The merge-request stage's review function (`dualrag.vcs.stage.ReviewFn`): the pipeline on
    the ingested change, with the MR's conversation (author's words, earlier findings, break glass)."""

    def review(changes, source, priors, break_glass, info):
        return review_changes(changes, source, settings, hooks=hooks,
                              conversation=Conversation(info=info, prior_findings=tuple(priors),
                                                        break_glass=break_glass, feedback=feedback))

    return review


def checkout_source(settings: Settings, git: Any, base_sha: str | None, notes: list[str]):
    """The MR's change from a CI checkout (`dualrag.source.git.GitRepo`), at the MR head; None
    from the returned function means the platform's API diff. Never another commit: a fork's head
    missing from the checkout means the API diff, not HEAD."""
    from dualrag.diff.ingest import max_diff_bytes
    from dualrag.errors import SourceError
    from dualrag.source.review_source import ReviewSource

    def source(state):
        if git is None:
            return None
        if not state.head_sha:
            notes.append("the platform named no head commit; used the API diff")
            return None
        base = base_sha or state.base_sha
        try:
            head = git.verify_ref(state.head_sha)
        except SourceError:
            notes.append(f"MR head {state.head_sha[:12]} is not in the checkout (a fork?); used the API diff")
            return None
        try:
            diff = git.diff_range(base, head, max_diff_bytes(settings))
        except SourceError as exc:  # shallow clone without the base: the API has the diff
            notes.append(f"checkout diff unavailable ({exc}); used the API diff")
            return None
        return ReviewSource.from_git(git, diff, ref=head, base=base, max_file_bytes=settings.chunking.max_file_bytes,
                                     head=head)

    return source


def review_merge_request(adapter: Any, settings: Settings, *, git: Any = None, base_sha: str | None = None,
                         state: Any = None, break_glass: str | None = None, dry_run: bool = False,
                         sink: EventSink | None = None, feedback: FeedbackScope | None = None,
                         report_url: str | None = None, review_fn: Callable[..., Any] | None = None,
                         hooks: RunHooks | None = None, still_current: Callable[[], bool] | None = None) -> MRRun:
    """Review a merge request and publish to it (`dualrag.vcs.stage.run_stage`).

    `adapter`: a GitLab/GitHub adapter; `git`: a CI checkout to take the diff from (None: the API
    diff, as the service does); `state`: the MR as already loaded; `break_glass`: the phrase (None:
    the default, '' disables); `review_fn`: another review function (tests); `hooks`: how the run
    is observed (its telemetry defaults to `sink`); `still_current`: asked after the review and
    right before publishing — False means a newer push superseded this head, and nothing is
    published (`MRRun.superseded`)."""
    from dataclasses import replace

    from dualrag.vcs.stage import DEFAULT_BREAK_GLASS, run_stage

    notes: list[str] = []
    seen: list[ChangeSet] = []
    run_hooks = hooks or RunHooks(telemetry=sink)
    if run_hooks.telemetry is None and sink is not None:
        run_hooks = replace(run_hooks, telemetry=sink)
    inner = review_fn or mr_review_fn(settings, hooks=run_hooks, feedback=feedback)

    def review(changes, source, priors, glass, info):
        seen.append(changes)
        result = inner(changes, source, priors, glass, info)
        if still_current is not None and not still_current():
            raise _Superseded(result)
        return result

    try:
        reviewed, result = run_stage(
            adapter, review, settings, source=checkout_source(settings, git, base_sha, notes),
            break_glass_phrase=DEFAULT_BREAK_GLASS if break_glass is None else break_glass, dry_run=dry_run,
            sink=sink, feedback=feedback, report_url=report_url, state=state)
    except _Superseded as stop:
        notes.append("a newer push superseded this head: nothing published")
        return MRRun(stop.review, None, seen[0] if seen else None, tuple(notes), superseded=True)
    return MRRun(reviewed, result, seen[0] if seen else None, tuple(notes))
