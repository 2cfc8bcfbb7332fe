"""Wiring of the online stages: diff bytes in, a Review out (ARCHITECTURE.md, "One direction")."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from dualrag.checks.detectors import bundled_rules, review_rules, run_detectors
from dualrag.checks.edi import merge_findings, validate_changes
from dualrag.chunking import ChunkPlan, chunk_changes
from dualrag.config import Settings
from dualrag.diff import ChangeSet, ingest
from dualrag.llm import OFFLINE_REASON, EventSink, LLMFactory
from dualrag.rerank import load_reranker
from dualrag.rerank.calibration import pruning_threshold
from dualrag.retrieval.context import Context
from dualrag.retrieval.stage import build_contexts, code_source, open_rule_retriever
from dualrag.review.coordinator import coordinate
from dualrag.review.decision import Coverage
from dualrag.review.model import ChunkReport, Decision, Review
from dualrag.review.prompt import INSTRUCTION_FILES, ChangeInfo
from dualrag.review.reader import ReaderModel, fitted, reader_for
from dualrag.review.reviewers import select_reviewers
from dualrag.review.sanitize import find_injection
from dualrag.review.stage import ReviewStage, StageResult
from dualrag.review.usage import UsageTally
from dualrag.rulebook import load_bundled_cached
from dualrag.tokens import TokenizerUnavailable, get_estimator

NOTHING_TO_REVIEW = "nothing to review"
Reader = Callable[[str], "bytes | None"]


def run_review(diff: bytes, settings: Settings, *, read_file: Reader | None = None,
               budget: int | None = None, reranker_dir: str | None = None, repo_root: Path | None = None,
               info: ChangeInfo | None = None, prior_findings: Sequence[Any] = (), break_glass: Any = None,
               telemetry: EventSink | None = None, explain_dir: str | Path | None = None,
               llm_factory: LLMFactory | None = None, on_heartbeat: Callable[[dict[str, Any]], None] | None = None,
               reviewers: Sequence[str] | None = None, max_workers: int = 4) -> Review:
    """`read_file(path) -> bytes | None` gives new files (from --repo); `budget` is --budget;
    `reranker_dir` is --reranker. `info`: MR title/description/instructions (sanitised later);
    `prior_findings`/`break_glass`: from the VCS stage; `telemetry`: a JSONL sink;
    `explain_dir`: write every prompt sent; `llm_factory`: share one (tests, benchmarks)."""
    tally = UsageTally(telemetry, run_id=uuid.uuid4().hex[:12])
    tally({"event": "run_start", "llm": (llm_factory.config if llm_factory else settings.llm).model})
    timings: dict[str, float] = {}
    with _timed(timings, "ingest", tally):
        changes = ingest(diff, settings)
    llm_cfg = llm_factory.config if llm_factory is not None else settings.llm
    selected = select_reviewers(str(changes.risk_tier), str(changes.project_type), only=reviewers)
    reader = reader_for(llm_cfg, selected)  # the model's window and output cap size chunks and context
    settings = fitted(settings, reader)
    notes = []
    with _timed(timings, "detect", tally):  # detectors of every indexed rule set on changed lines, no LLM
        rules = review_rules(settings, notes) if changes.reviewable else bundled_rules()
        findings = run_detectors(changes, rules.detectors) if changes.reviewable else []
    with _timed(timings, "validate", tally):  # EDI .flow/.dt validators (dualrag/edi), findings on changed lines
        edi_findings, edi_notes = validate_changes(changes, load_bundled_cached(), read_file=read_file)
        findings = merge_findings(findings, edi_findings) if edi_findings else findings
    notes.extend(edi_notes)
    with _timed(timings, "chunk", tally):
        plan, estimator_note = run_chunking(changes, settings, read_file=read_file, budget=budget, reader=reader)
    if estimator_note:
        notes.append(estimator_note)
    contexts: dict[str, Context] = {}
    if settings.retrieval.enabled and plan.chunks:
        with _timed(timings, "retrieve", tally):
            contexts = retrieve_contexts(plan, changes, settings, notes=notes, reranker_dir=reranker_dir,
                                         read_file=read_file, repo_root=repo_root)
    info = _with_instructions(info or ChangeInfo(), read_file)
    injection_findings, injection = find_injection(changes, info)
    findings = [*findings, *injection_findings]
    llm_configured = reader is not None
    stage = StageResult()
    if changes.reviewable and plan.chunks and llm_configured:
        factory = llm_factory or LLMFactory(llm_cfg, sink=tally, on_heartbeat=on_heartbeat)
        with _timed(timings, "review", tally):
            stage = _run_reviewers(changes, info, plan, contexts, findings, selected, factory, tally,
                                   explain_dir=explain_dir, max_workers=max_workers, notes=notes,
                                   compact=bool(reader and reader.compact))
    elif changes.reviewable and plan.chunks:
        notes.append(f"{OFFLINE_REASON}; detectors and validators only ({len(findings)} finding(s))")
    known = set(rules.known_ids)
    context_ids = {cid: {r.rule_id for r in ctx.rules} for cid, ctx in contexts.items()}
    with _timed(timings, "coordinate", tally):
        outcome = coordinate(
            changes, stage.findings, detector_findings=findings, context_rule_ids=context_ids, known_rule_ids=known,
            coverage=Coverage(llm_configured=llm_configured, llm_ran=bool(stage.chunks_reviewed),
                              complete=stage.complete([c.id for c in plan.chunks]), injection=tuple(injection)),
            prior_findings=prior_findings, break_glass=break_glass,
        )
    decision, reasons = outcome.decision, outcome.reasons
    if not changes.files:
        notes.append(NOTHING_TO_REVIEW)
        decision, reasons = Decision.NO_VERDICT, [NOTHING_TO_REVIEW]
    elif not changes.reviewable:
        notes.append(f"{NOTHING_TO_REVIEW}: all {len(changes.files)} files were skipped")
        decision, reasons = Decision.NO_VERDICT, [NOTHING_TO_REVIEW]
    if outcome.break_glass is not None:
        decision = Decision.APPROVED
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
    usage = tally.usage()
    tally({"event": "run_end", "usage": usage.model_dump(), "timings": timings})
    return Review.of_changes(changes, decision=decision, chunks=chunks, findings=outcome.findings, notes=notes,
                             timings=timings, usage=usage, reviewers=stage.runs, decision_reasons=reasons,
                             break_glass=outcome.break_glass, dropped=dropped)


def _run_reviewers(changes: ChangeSet, info: ChangeInfo, plan: ChunkPlan, contexts: dict[str, Context],
                   findings: list, selected: Sequence[Any], factory: LLMFactory, tally: UsageTally, *,
                   explain_dir: str | Path | None, max_workers: int, notes: list[str],
                   compact: bool = False) -> StageResult:
    """Every selected specialist on every chunk, through one factory (shared breakers)."""
    factory.sink = tally  # a shared factory reports to this run's tally (pass your sink as `telemetry`)
    clients: dict[str, Any] = {r.name: factory.for_reviewer(r.name)[0] for r in selected}
    stage = ReviewStage(changes, info, detector_findings=findings, explain_dir=explain_dir, sink=tally,
                        max_output_tokens=factory.config.max_output_tokens, compact=compact).run(
        plan.chunks, contexts, clients, selected, max_workers=max_workers)
    notes.append(f"reviewers: {', '.join(r.name for r in selected if clients.get(r.name))} "
                 f"on {len(plan.chunks)} chunk(s)")
    notes.extend(stage.notes)
    return stage


def _with_instructions(info: ChangeInfo, read_file: Reader | None) -> ChangeInfo:
    """The repository's AGENTS.md / REVIEW.md (when a repository is at hand and none were given)."""
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


def retrieve_contexts(plan: ChunkPlan, changes: ChangeSet, settings: Settings, *, notes: list[str],
                      reranker_dir: str | None = None, read_file: Reader | None = None,
                      repo_root: Path | None = None) -> dict[str, Context]:
    """Rules and code for every chunk, reranked and packed; failures become notes."""
    reranker = load_reranker(settings.rerank, model_dir=reranker_dir)
    if not reranker.available:
        notes.append(reranker.reason)
    elif pruning_threshold(settings.rerank.threshold, reranker) is None:
        notes.append(f"reranked by {reranker.name} without a pruning threshold: only the token budget and caps "
                     f"prune (calibrate one: dualrag models calibrate DIR)")
    count = get_estimator("fast", model=settings.chunking.model).count
    with open_rule_retriever(settings, notes) as retriever:
        code = code_source(retriever.store if retriever else None, repo_root, read_file, notes)
        contexts = build_contexts(plan, changes, settings, retriever=retriever, reranker=reranker,
                                  count_tokens=count, code_source=code)
    return {c.chunk_id: c for c in contexts}


def run_chunking(changes: ChangeSet, settings: Settings, *, read_file: Reader | None = None,
                 budget: int | None = None, estimator: str | None = None,
                 reader: ReaderModel | None = None) -> tuple[ChunkPlan, str | None]:
    """Chunk a ChangeSet with the configured estimator; an `exact` estimator whose tokenizer is
    not installed degrades to `fast` with a note rather than failing the review. The window is
    the reader's (the reviewers' model; `reader_for` of the configured ones when not given),
    else, offline, the chunking section's."""
    cfg = settings.chunking
    if reader is None:
        reader = reader_for(settings.llm, select_reviewers(str(changes.risk_tier), str(changes.project_type)))
    kind, note = estimator or cfg.estimator, None
    try:
        est = get_estimator(kind, model=cfg.model)
    except (TokenizerUnavailable, ValueError, ImportError, OSError) as exc:
        est, note = get_estimator("fast", model=cfg.model), f"token estimator '{kind}' unavailable ({exc}); used 'fast'"
    window = reader.window if reader is not None else None
    return chunk_changes(changes, estimator=est, config=cfg, budget=budget, read_file=read_file, window=window), note


@contextmanager
def _timed(timings: dict[str, float], stage: str, sink: EventSink | None = None) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = round((time.perf_counter() - start) * 1000, 2)
        if sink is not None:
            sink({"event": "stage", "stage": stage, "ms": timings[stage]})
