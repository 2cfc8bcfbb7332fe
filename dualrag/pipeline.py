"""Wiring of the online stages: diff bytes in, a Review out (ARCHITECTURE.md, "One direction")."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from dualrag.chunking import ChunkPlan, chunk_changes
from dualrag.config import Settings
from dualrag.diff import ChangeSet, ingest
from dualrag.edi import merge_findings, validate_changes
from dualrag.rerank import load_reranker
from dualrag.retrieval.context import Context
from dualrag.retrieval.stage import build_contexts, open_rule_retriever
from dualrag.review.detectors import run_detectors
from dualrag.review.model import ChunkReport, Decision, Review
from dualrag.rulebook import load_bundled_cached
from dualrag.tokens import TokenizerUnavailable, get_estimator

NOTHING_TO_REVIEW = "nothing to review"
Reader = Callable[[str], "bytes | None"]


def run_review(diff: bytes, settings: Settings, *, read_file: Reader | None = None,
               budget: int | None = None, reranker_dir: str | None = None) -> Review:
    """`read_file(path) -> bytes | None` gives new files (from --repo); `budget` is --budget;
    `reranker_dir` is --reranker."""
    timings: dict[str, float] = {}
    with _timed(timings, "ingest"):
        changes = ingest(diff, settings)
    notes = []
    with _timed(timings, "detect"):  # deterministic rule detectors on changed lines, no LLM
        findings = run_detectors(changes, load_bundled_cached()) if changes.reviewable else []
    with _timed(timings, "validate"):  # EDI .flow/.dt validators (dualrag/edi), findings on changed lines
        edi_findings, edi_notes = validate_changes(changes, load_bundled_cached(), read_file=read_file)
        findings = merge_findings(findings, edi_findings) if edi_findings else findings
    notes.extend(edi_notes)
    with _timed(timings, "chunk"):
        plan, estimator_note = run_chunking(changes, settings, read_file=read_file, budget=budget)
    if estimator_note:
        notes.append(estimator_note)
    contexts: dict[str, Context] = {}
    if settings.retrieval.enabled and plan.chunks:
        with _timed(timings, "retrieve"):
            contexts = retrieve_contexts(plan, changes, settings, notes=notes, reranker_dir=reranker_dir)
    if not changes.files:
        notes.append(NOTHING_TO_REVIEW)
    elif not changes.reviewable:
        notes.append(f"{NOTHING_TO_REVIEW}: all {len(changes.files)} files were skipped")
    else:
        notes.append(f"no reviewers ran yet: decision is no_verdict ({len(findings)} detector finding(s))")
    chunks = [ChunkReport.of(c, context=contexts.get(c.id)) for c in plan.chunks]
    return Review.of_changes(changes, decision=Decision.NO_VERDICT, chunks=chunks, findings=findings, notes=notes, timings=timings)


def retrieve_contexts(plan: ChunkPlan, changes: ChangeSet, settings: Settings, *, notes: list[str],
                      reranker_dir: str | None = None) -> dict[str, Context]:
    """Rules (and code) for every chunk, reranked and packed; failures become notes."""
    reranker = load_reranker(settings.rerank, model_dir=reranker_dir)
    if not reranker.available:
        notes.append(reranker.reason)
    count = get_estimator("fast", model=settings.chunking.model).count
    with open_rule_retriever(settings, notes) as retriever:
        contexts = build_contexts(plan, changes, settings, retriever=retriever, reranker=reranker, count_tokens=count)
    return {c.chunk_id: c for c in contexts}


def run_chunking(changes: ChangeSet, settings: Settings, *, read_file: Reader | None = None,
                 budget: int | None = None, estimator: str | None = None) -> tuple[ChunkPlan, str | None]:
    """Chunk a ChangeSet with the configured estimator; an `exact` estimator whose tokenizer is
    not installed degrades to `fast` with a note rather than failing the review."""
    cfg = settings.chunking
    kind, note = estimator or cfg.estimator, None
    try:
        est = get_estimator(kind, model=cfg.model)
    except (TokenizerUnavailable, ValueError, ImportError, OSError) as exc:
        est, note = get_estimator("fast", model=cfg.model), f"token estimator '{kind}' unavailable ({exc}); used 'fast'"
    return chunk_changes(changes, estimator=est, config=cfg, budget=budget, read_file=read_file), note


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    timings[stage] = round((time.perf_counter() - start) * 1000, 2)
