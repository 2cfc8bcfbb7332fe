"""Wiring of the online stages: diff bytes in, a Review out (ARCHITECTURE.md, "One direction")."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dualrag.checks.detectors import bundled_rules, review_rules, run_detectors
from dualrag.checks.edi import merge_findings, refused_files, validate_changes
from dualrag.checks.injection import INSTRUCTION_FILES, find_injection, instruction_file_changes
from dualrag.checks.steering import steering_files, steering_findings
from dualrag.chunking import ChunkPlan, chunk_changes
from dualrag.chunking.caps import cap_plan
from dualrag.config import Settings
from dualrag.diff import ChangeSet, ingest
from dualrag.feedback import FeedbackScope
from dualrag.llm import OFFLINE_REASON, EventSink, LLMFactory
from dualrag.priors import BreakGlass, PriorFinding
from dualrag.retrieval.context import Context
from dualrag.retrieval.stage import retrieve_contexts
from dualrag.review.coordinator import coordinate
from dualrag.review.decision import Coverage, nothing_to_review
from dualrag.review.feedback import load_memory
from dualrag.review.model import ChunkReport, FileReport, Review
from dualrag.review.prompt import ChangeInfo
from dualrag.review.reader import ReaderModel, fitted, reader_for
from dualrag.review.reviewers import select_reviewers
from dualrag.review.rule_query import RuleQueryWriter
from dualrag.review.stage import ReviewStage, StageResult
from dualrag.review.usage import UsageTally
from dualrag.review.walkthrough import Walkthrough, deterministic_walkthrough
from dualrag.review.walkthrough_llm import llm_walkthrough
from dualrag.rulebook import load_bundled_cached
from dualrag.source.review_source import Reader, ReviewSource
from dualrag.tokens import TokenizerUnavailable, get_estimator

__all__ = ["Conversation", "RunHooks", "review_changes", "run_chunking", "run_review"]


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
    changes = ingest(source.diff, settings, base_has=source.base_has)
    return review_changes(changes, source, settings, conversation=conversation, hooks=hooks,
                          ingest_ms=round((time.perf_counter() - start) * 1000, 2))


def review_changes(changes: ChangeSet, source: ReviewSource, settings: Settings, *,
                   conversation: Conversation = Conversation(), hooks: RunHooks = RunHooks(),
                   ingest_ms: float | None = None) -> Review:
    """Review a change already ingested (the merge-request stage ingests once and publishes from the
    same ChangeSet)."""
    tally = UsageTally(hooks.telemetry, run_id=uuid.uuid4().hex[:12])
    llm_factory = hooks.llm_factory
    tally({"event": "run_start", "llm": (llm_factory.config if llm_factory else settings.llm).model})
    timings: dict[str, float] = {}
    if ingest_ms is not None:
        timings["ingest"] = ingest_ms
        tally({"event": "stage", "stage": "ingest", "ms": ingest_ms})
    read_file = source.read_file
    llm_cfg = llm_factory.config if llm_factory is not None else settings.llm
    selected = select_reviewers(str(changes.risk_tier), str(changes.project_type), only=hooks.reviewers)
    reader = reader_for(llm_cfg, selected)  # the model's window and output cap size chunks and context
    settings = fitted(settings, reader)
    factory, clients = None, None
    if reader is not None and changes.reviewable:  # a model that cannot work stops here, before any work
        factory = llm_factory or LLMFactory(llm_cfg, sink=tally, on_heartbeat=hooks.on_heartbeat)
        factory.sink = tally  # a shared factory reports to this run's tally (pass your sink as `telemetry`)
        clients = {r.name: factory.for_reviewer(r.name)[0] for r in selected}
    notes = list(changes.notes)  # what ingest capped or sampled
    with _timed(timings, "detect", tally):  # detectors of every indexed rule set on changed lines, no LLM
        rules = review_rules(settings, notes) if changes.reviewable else bundled_rules()
        findings = run_detectors(changes, rules.detectors) if changes.reviewable else []
    with _timed(timings, "validate", tally):  # EDI .flow/.dt validators (dualrag/edi), findings on changed lines
        edi_findings, edi_notes = validate_changes(changes, load_bundled_cached(), read_file=read_file,
                                                   max_depth=settings.limits.max_xml_depth,
                                                   max_elements=settings.limits.max_xml_elements)
        findings = merge_findings(findings, edi_findings) if edi_findings else findings
    notes.extend(edi_notes)
    with _timed(timings, "chunk", tally):
        plan, estimator_note = run_chunking(changes, settings, read_file=read_file, reader=reader)
    if estimator_note:
        notes.append(estimator_note)
    # The chunks a review may spend on; the rest stay in `plan`, unreviewed, so it is not complete.
    price = llm_cfg.capability(reader.model).input_price if reader else None
    # A chunk costs one request per reviewer, and one more for the model's rule query when that is on.
    rule_query = int(settings.retrieval.enabled and settings.retrieval.channels.model_query)
    spent, cap_note = cap_plan(plan, settings.limits, calls_per_chunk=len(selected) + rule_query if reader else 0,
                               usd_per_prompt_token=price / 1e6 if price else None,
                               overhead_tokens=settings.retrieval.context_tokens)
    notes.extend([cap_note] if cap_note else [])
    contexts: dict[str, Context] = {}
    if settings.retrieval.enabled and spent.chunks:
        with _timed(timings, "retrieve", tally):
            writer = _rule_query_writer(settings, selected, clients)
            contexts = retrieve_contexts(spent, changes, settings, source, notes=notes,
                                         token_model=_token_model(settings, reader), rule_language=writer)
            if writer is not None and writer.failures:
                notes.append(f"model rule query failed {len(writer.failures)} time(s) (the code alone was searched): "
                             f"{writer.failures[0]}")
    info = _with_instructions(conversation.info, source.read_base)
    with _timed(timings, "injection", tally):
        injection_findings, injection = find_injection(changes, [
            ("the title", info.title), ("the description", info.description),
            ("the commit messages", "\n".join(info.commit_messages)),
            ("the repository instructions", info.instructions)])
    injection_findings.extend(instruction_file_changes(changes))
    if injection_findings and "the diff" not in injection:
        injection.append("the diff")
    findings = [*findings, *injection_findings, *steering_findings(changes)]
    llm_configured = reader is not None
    stage = StageResult()
    if factory is not None and clients is not None and plan.chunks:
        with _timed(timings, "review", tally):
            stage = _run_reviewers(changes, info, spent, contexts, findings, selected, factory, clients, tally,
                                   explain_dir=hooks.explain_dir, max_workers=hooks.max_workers, notes=notes,
                                   compact=bool(reader and reader.compact), settings=settings)
    elif changes.reviewable and plan.chunks:
        notes.append(f"{OFFLINE_REASON}; detectors and validators only ({len(findings)} finding(s))")
    known = set(rules.known_ids)
    if nothing := nothing_to_review(len(changes.files), changes.reviewable):
        notes.append(nothing)
    context_ids = {cid: {r.rule_id for r in ctx.rules} for cid, ctx in contexts.items()}
    memory = load_memory(settings, conversation.feedback, notes) if changes.reviewable else None
    with _timed(timings, "coordinate", tally):
        outcome = coordinate(
            changes, stage.findings, detector_findings=findings, checked_findings=stage.checked,
            context_rule_ids=context_ids, known_rule_ids=known,
            coverage=Coverage(llm_configured=llm_configured, llm_ran=bool(stage.chunks_reviewed),
                              complete=stage.complete([c.id for c in plan.chunks]), injection=tuple(injection),
                              sampled=tuple(f.path for f in changes.reviewable if f.sampled_lines),
                              unread=tuple(f.path for f in changes.files if f.unread) + refused_files(edi_findings),
                              steering=tuple(f.path for f in steering_files(changes)),
                              nothing=nothing),
            prior_findings=conversation.prior_findings, break_glass=conversation.break_glass, read_file=read_file,
            feedback=memory, model_warnings=settings.review.model_warnings,
        )
    decision, reasons = outcome.decision, outcome.reasons
    notes.extend(outcome.notes)
    dropped = {k: v for k, v in outcome.dropped.items() if v}
    if any(k != "snapped (kept)" for k in dropped):
        notes.append("coordinator dropped: " + ", ".join(f"{v} {k}" for k, v in sorted(dropped.items())
                                                           if k != "snapped (kept)"))
    for f in outcome.findings:
        tally({"event": "finding", **f.model_dump(include={"path", "line", "severity", "category", "rule_id",
                                                             "source", "reviewer", "counted"})})
    tally({"event": "decision", "decision": str(decision), "reasons": reasons, "dropped": dropped,
           "break_glass": outcome.break_glass})
    chunks = [ChunkReport.of(c, context=contexts.get(c.id)) for c in plan.chunks]
    walkthrough = None
    if settings.review.walkthrough and clients and stage.chunks_reviewed \
            and len(changes.files) >= settings.review.walkthrough_min_files:
        with _timed(timings, "walkthrough", tally):
            walkthrough = _walkthrough(changes, chunks, plan, info, selected, clients, reader, notes,
                                       injection=bool(injection), explain_dir=hooks.explain_dir)
        tally({"event": "walkthrough", "source": walkthrough.source})
    usage = tally.usage()
    tally({"event": "run_end", "usage": usage.model_dump(), "timings": timings})
    return Review.of_changes(changes, decision=decision, chunks=chunks, findings=outcome.findings, notes=notes,
                             timings=timings, usage=usage, reviewers=stage.runs, decision_reasons=reasons,
                             break_glass=outcome.break_glass, dropped=dropped, walkthrough=walkthrough)


def _rule_query_writer(settings: Settings, selected: Sequence[Any], clients: dict[str, Any] | None
                       ) -> RuleQueryWriter | None:
    """The model query of rule retrieval, on the first reviewer's client, when that channel is on."""
    if not settings.retrieval.channels.model_query or not clients:
        return None
    client = next((clients[r.name] for r in selected if clients.get(r.name) is not None), None)
    return RuleQueryWriter(client) if client is not None else None


def _walkthrough(changes: ChangeSet, chunks: list[ChunkReport], plan: ChunkPlan, info: ChangeInfo,
                 selected: Sequence[Any], clients: dict[str, Any], reader: ReaderModel | None, notes: list[str], *,
                 injection: bool, explain_dir: str | Path | None) -> Walkthrough:
    """The deterministic walkthrough, written over by the model when it answers usably (one request
    after the reviewers', on the first reviewer's client and prefix: the same cached bytes)."""
    walkthrough = deterministic_walkthrough([FileReport.of(f) for f in changes.files], chunks,
                                            project_type=str(changes.project_type), risk_tier=str(changes.risk_tier),
                                            tier_reasons=changes.tier_reasons)
    if injection:  # the author's text addresses the model: its summary of the change is not to be trusted
        notes.append("walkthrough: the change holds text addressed to the reviewers; kept the deterministic one")
        return walkthrough
    reviewer = next((r for r in selected if clients.get(r.name) is not None), None)
    if reviewer is None:
        return walkthrough
    folder = Path(explain_dir) if explain_dir else None

    def write(name: str, text: str) -> None:
        try:
            if folder is not None:
                (folder / name).write_text(text, encoding="utf-8")
        except OSError:
            pass

    walkthrough, note = llm_walkthrough(
        walkthrough, [h for c in plan.chunks for h in c.hunks], info, clients[reviewer.name], reviewer=reviewer.name,
        compact=bool(reader and reader.compact), window=reader.window if reader else None,
        max_output_tokens=reader.max_output if reader else None, write=write)
    notes.extend([note] if note else [])
    return walkthrough


def _run_reviewers(changes: ChangeSet, info: ChangeInfo, plan: ChunkPlan, contexts: dict[str, Context],
                   findings: list, selected: Sequence[Any], factory: LLMFactory, clients: dict[str, Any],
                   tally: UsageTally, *, explain_dir: str | Path | None, max_workers: int, notes: list[str],
                   compact: bool, settings: Settings) -> StageResult:
    """Every selected specialist and the rule checks on every chunk, through one factory (shared breakers)."""
    stage = ReviewStage(changes, info, detector_findings=findings, explain_dir=explain_dir, sink=tally,
                        max_output_tokens=factory.config.max_output_tokens, compact=compact,
                        reverse_check=settings.review.reverse_check, rule_checks=settings.review.rule_checks,
                        rule_check_batch=settings.review.rule_check_batch, rule_check_mode=settings.review.rule_check_mode,
                        bundled_kb=settings.retrieval.bundled_kb).run(
        plan.chunks, contexts, clients, selected, max_workers=max_workers)
    notes.append(f"reviewers: {', '.join(r.name for r in selected if clients.get(r.name))} "
                 f"on {len(plan.chunks)} chunk(s)")
    notes.extend(stage.notes)
    return stage


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
                 estimator: str | None = None, reader: ReaderModel | None = None) -> tuple[ChunkPlan, str | None]:
    """Chunk a ChangeSet with the configured estimator; an `exact` estimator whose tokenizer is
    not installed degrades to `fast` with a note rather than failing the review. The window is
    the reader's (the reviewers' model; `reader_for` of the configured ones when not given),
    else, offline, the chunking section's."""
    cfg = settings.chunking
    if reader is None:
        reader = reader_for(settings.llm, select_reviewers(str(changes.risk_tier), str(changes.project_type)))
    kind, note, model = estimator or cfg.estimator, None, _token_model(settings, reader)
    try:
        est = get_estimator(kind, model=model)
    except (TokenizerUnavailable, ValueError, ImportError, OSError) as exc:
        est, note = get_estimator("fast", model=model), f"token estimator '{kind}' unavailable ({exc}); used 'fast'"
    window = reader.window if reader is not None else None
    return chunk_changes(changes, estimator=est, config=cfg, read_file=read_file, window=window,
                         limits=settings.limits), note


def _token_model(settings: Settings, reader: ReaderModel | None) -> str | None:
    """Whose tokenizer counts: the reviewers' model (its name without the provider), else, offline,
    the chunking section's."""
    return reader.name if reader is not None else settings.chunking.model


@contextmanager
def _timed(timings: dict[str, float], stage: str, sink: EventSink | None = None) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = round((time.perf_counter() - start) * 1000, 2)
        if sink is not None:
            sink({"event": "stage", "stage": stage, "ms": timings[stage]})
