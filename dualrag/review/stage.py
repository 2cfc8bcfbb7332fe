"""The review stage: every chunk × every selected reviewer, concurrently, resiliently.

Resilience is the LLM layer's (timeouts, retries, breakers, failback chains); this stage turns
each outcome into a `ReviewerRun`:

- `ok`: the answer validated (its findings go to the coordinator);
- truncated output (`Truncated`) or a prompt that does not fit (`ContextOverflow`): the chunk is
  split in two (by hunks, else by lines) and each half reviewed, at most twice deep; a part that
  still cannot be reviewed is marked `truncated`;
- `invalid_output`, `empty_output`, `unavailable`, `cancelled`, provider errors: `failed` —
  the chunk counts as reviewed only when at least one of its reviewers answered;
- `skipped`: a reviewer whose findings must cite a retrieved rule, on a chunk with none (the
  coordinator would drop everything it could say), is not called; nor is it on a chunk whose
  team rules the rule checks (`rule_check.py`) ask about one by one.

Rule checks run in the same pool, on the rules reviewer's client (else the first reviewer's); their
verified findings come back apart (`StageResult.checked`): they are already placed and cited.

Nothing raises out of here: an unexpected exception becomes a failed run with its message.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dualrag.chunking.model import Chunk, ChunkPlan, HunkSlice
from dualrag.config import Settings
from dualrag.config.resolved import ResolvedModel
from dualrag.diff.model import ChangeSet
from dualrag.errors import UserError
from dualrag.findings import Finding
from dualrag.llm import OFFLINE_REASON
from dualrag.llm.errors import ContextOverflow, LLMError, OutputError, ProviderError, Truncated, Unavailable
from dualrag.llm.telemetry import EventSink
from dualrag.retrieval.context import Context
from dualrag.review.coordinator import TaggedFinding
from dualrag.review.model import ReviewerRun
from dualrag.review.prompt import ChangeInfo, ReviewAnswer, build_request
from dualrag.review.reverse import echoed, raised, reversed_chunk
from dualrag.review.reviewers import Reviewer
from dualrag.review.rule_check import REVIEWER as RULE_CHECK
from dualrag.review.rule_check import (
    RuleCheck,
    RuleCheckAnswer,
    plan_checks,
    recheck,
    rules_to_check,
    salvage,
    verify,
    with_fixes,
)

MAX_SPLIT_DEPTH = 2
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass
class StageResult:
    findings: list[TaggedFinding] = field(default_factory=list)
    runs: list[ReviewerRun] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    chunks_reviewed: set[str] = field(default_factory=set)  # chunks with >= 1 complete answer
    checked: list[Finding] = field(default_factory=list)  # verified rule-check findings
    check_drops: Counter = field(default_factory=Counter)  # rule-check answers that did not hold, by reason

    def complete(self, chunk_ids: Sequence[str]) -> bool:
        return all(c in self.chunks_reviewed for c in chunk_ids)


@dataclass
class _Job:
    chunk: Chunk
    reviewer: Reviewer
    client: Any
    context: Context | None


@dataclass
class _CheckJob:
    check: RuleCheck
    client: Any


def review_chunks(changes: ChangeSet, info: ChangeInfo, plan: ChunkPlan, contexts: Mapping[str, Context],
                  findings: Sequence[Finding], reviewers: Sequence[Reviewer], clients: Mapping[str, Any] | None, *,
                  settings: Settings, model: ResolvedModel, sink: EventSink | None = None,
                  explain_dir: str | Path | None = None, max_workers: int = 4) -> StageResult:
    """Every selected specialist and the rule checks on every chunk of `plan` (the chunks the
    review may spend on). Without clients (offline) nobody is called and a note says so."""
    if not clients:
        return StageResult(notes=[f"{OFFLINE_REASON}; detectors and validators only ({len(findings)} finding(s))"])
    review = settings.review
    result = ReviewStage(changes, info, detector_findings=findings, explain_dir=explain_dir, sink=sink,
                         max_output_tokens=model.max_output, compact=model.compact, reverse_check=review.reverse_check,
                         rule_checks=review.rule_checks, rule_check_batch=review.rule_check_batch,
                         rule_check_mode=review.rule_check_mode, bundled_kb=settings.retrieval.bundled_kb).run(
        plan.chunks, contexts, clients, reviewers, max_workers=max_workers)
    ran = f"reviewers: {', '.join(r.name for r in reviewers if clients.get(r.name))} on {len(plan.chunks)} chunk(s)"
    return replace(result, notes=[ran, *result.notes])


def explain_folder(path: str | Path) -> Path:
    """The --explain folder, created; a path that is a file or cannot be created is the user's to fix."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(f"--explain {path}: not a folder (a file of that name exists)") from None
    except OSError as exc:
        raise UserError(f"--explain {path}: cannot create the folder ({exc.strerror or exc})") from None
    return folder


class ReviewStage:
    def __init__(self, changes: ChangeSet, info: ChangeInfo, *, detector_findings: Sequence[Finding] = (),
                 explain_dir: str | Path | None = None, sink: EventSink | None = None,
                 max_output_tokens: int | None = None, compact: bool = False, reverse_check: bool = False,
                 rule_checks: int = 0, rule_check_batch: bool = True, rule_check_mode: str = "plain",
                 bundled_kb: str = "bundled") -> None:
        self.changes = changes
        self.info = info
        self.detector_findings = list(detector_findings)
        self.explain = Path(explain_dir) if explain_dir else None
        self.sink = sink
        self.max_output_tokens = max_output_tokens
        self.compact = compact  # small-model prompts (reader.py)
        self.reverse_check = reverse_check  # reverse.py: drop warnings the change undone draws too
        self.echoes_dropped = 0
        self.rule_checks = rule_checks  # rules asked about per chunk (0: no rule checks)
        self.rule_check_batch = rule_check_batch
        self.rule_check_mode = rule_check_mode  # plain | fix | recheck (config/review.py)
        self.check_drops: Counter = Counter()
        self.bundled_kb = bundled_kb
        self.statuses = {f.path: str(f.status) for f in changes.files}
        undone = {"added": "deleted", "deleted": "added"}
        self._reversed_statuses = {path: undone.get(status, status) for path, status in self.statuses.items()}
        self._lock = threading.Lock()
        if self.explain is not None:
            explain_folder(self.explain)

    # ------------------------------------------------------------------ run
    def run(self, chunks: Sequence[Chunk], contexts: Mapping[str, Context], clients: Mapping[str, Any],
            reviewers: Sequence[Reviewer], *, max_workers: int = 4) -> StageResult:
        """`clients[reviewer.name]` is a ResilientClient (reviewers without one are skipped)."""
        result = StageResult()
        jobs: list[_Job | _CheckJob] = []
        check_client = clients.get("rules") or next((clients[r.name] for r in reviewers if clients.get(r.name)), None)
        for c in chunks:
            context = contexts.get(c.id)
            checked = rules_to_check(context.rules if context else (), limit=self.rule_checks,
                                     bundled_kb=self.bundled_kb) if check_client is not None else ()
            if checked:
                jobs += [_CheckJob(check, check_client) for check in plan_checks(
                    c, checked, batch=self.rule_check_batch, statuses=self.statuses,
                    max_output_tokens=self.max_output_tokens, fix=self.rule_check_mode != "plain")]
            for r in reviewers:
                if clients.get(r.name) is None:
                    continue
                why = ("no retrieved rule" if r.cites_rules and not (context is not None and context.rules)
                       else "the rule checks ask about this chunk's rules" if r.cites_rules and checked else None)
                if why:  # its findings must cite a retrieved rule: a call could only be dropped or repeat the checks
                    run = ReviewerRun(reviewer=r.name, chunk=c.id, outcome="skipped", error=why)
                    result.runs.append(run)
                    self._event(run)
                    continue
                # bug hunting and rule enforcement are separate questions: where the checks ask about the
                # rules, the reviewers hunt bugs without them (and a small model is not led to cite one)
                shown = replace(context, rules=()) if checked and context is not None else context
                jobs.append(_Job(c, r, clients[r.name], shown))
        for c in chunks:
            self._write_context(c, contexts.get(c.id))
        if not jobs:
            return result
        with ThreadPoolExecutor(max_workers=max(1, min(max_workers, len(jobs))), thread_name_prefix="review") as pool:
            outcomes = list(pool.map(self._safe_job, jobs))
        for job, (found, runs, complete) in zip(jobs, outcomes):
            if isinstance(job, _CheckJob):
                result.checked.extend(found)
            else:
                result.findings.extend(found)
            result.runs.extend(runs)
            if complete:
                result.chunks_reviewed.add(job.check.chunk.id if isinstance(job, _CheckJob) else job.chunk.id)
        result.check_drops = self.check_drops
        if self.check_drops:
            result.notes.append("rule checks: answers that did not hold were dropped ("
                                + ", ".join(f"{n} {why.removeprefix('rule_check_').replace('_', ' ')}"
                                            for why, n in sorted(self.check_drops.items())) + ")")
        failed = [r for r in result.runs if r.outcome not in ("ok", "skipped")]
        if failed:
            kinds = sorted({r.outcome for r in failed})
            result.notes.append(f"{len(failed)} of {len(result.runs)} reviewer run(s) did not answer usably "
                                f"({', '.join(kinds)})")
        if self.echoes_dropped:
            result.notes.append(f"reverse check: {self.echoes_dropped} finding(s) dropped, raised as well against "
                                "the change undone")
        return result

    def _safe_job(self, job: _Job | _CheckJob) -> tuple[list[Any], list[ReviewerRun], bool]:
        try:
            if isinstance(job, _CheckJob):
                return self._rule_check(job)
            return self._review(job, job.chunk, depth=0)
        except Exception as exc:  # noqa: BLE001 - a reviewer must never crash the review
            name, chunk_id = ((RULE_CHECK, job.check.chunk.id) if isinstance(job, _CheckJob)
                              else (job.reviewer.name, job.chunk.id))
            run = ReviewerRun(reviewer=name, chunk=chunk_id, outcome="failed",
                              error=f"{type(exc).__name__}: {exc}"[:300])
            self._event(run)
            return [], [run], False

    def _review(self, job: _Job, chunk: Chunk, depth: int) -> tuple[list[TaggedFinding], list[ReviewerRun], bool]:
        reviewer = job.reviewer
        prompt = build_request(
            chunk, job.context, self.info, reviewer=reviewer, project_type=str(self.changes.project_type),
            risk_tier=str(self.changes.risk_tier), detector_findings=self._detector_findings_of(chunk),
            statuses=self.statuses, max_output_tokens=self.max_output_tokens, compact=self.compact,
        )
        self._write(f"{chunk.id}.{reviewer.name}.prompt.md", prompt.text)
        base = {"reviewer": reviewer.name, "chunk": chunk.id, "model": getattr(job.client, "model", None)}
        try:
            response = job.client.complete(prompt.request)
        except (Truncated, ContextOverflow) as exc:
            self._write(f"{chunk.id}.{reviewer.name}.error.txt", str(exc))
            parts = split_chunk(chunk) if depth < MAX_SPLIT_DEPTH else None
            if parts is None:
                run = ReviewerRun(**base, outcome="truncated", error=str(exc)[:300])
                self._event(run)
                return [], [run], False
            self._event(ReviewerRun(**base, outcome="split", error=str(exc)[:300]))
            found: list[TaggedFinding] = []
            runs: list[ReviewerRun] = []
            complete = True
            for part in parts:
                f, r, ok = self._review(job, part, depth + 1)
                found += f
                runs += r
                complete = complete and ok
            return found, runs, complete
        except (OutputError, ProviderError, Unavailable, LLMError) as exc:
            self._write(f"{chunk.id}.{reviewer.name}.error.txt", str(exc))
            run = ReviewerRun(**base, outcome=_outcome(exc), error=str(exc)[:300])
            self._event(run)
            return [], [run], False
        answer = response.parsed
        self._write(f"{chunk.id}.{reviewer.name}.response.txt", response.text or "")
        if not isinstance(answer, ReviewAnswer):
            run = ReviewerRun(**base, outcome="invalid_output", error="answer did not validate")
            self._event(run)
            return [], [run], False
        kept = self._reverse_checked(job, chunk, answer.findings) if self.reverse_check else answer.findings
        found = [TaggedFinding(raw=f, reviewer=reviewer.name, chunk_id=_root_id(chunk.id)) for f in kept]
        run = ReviewerRun(**{**base, "model": response.model}, outcome="ok", findings=len(found))
        self._event(run)
        return found, [run], True

    def _rule_check(self, job: _CheckJob) -> tuple[list[Finding], list[ReviewerRun], bool]:
        """One rule-check request; its verified findings (a quote not on an added line is dropped)."""
        check = job.check
        name = f"{check.chunk.id}.{RULE_CHECK}.{'-'.join(check.label(r) for r in check.rules)}"
        self._write(f"{name}.prompt.md", check.text)
        base = {"reviewer": RULE_CHECK, "chunk": check.chunk.id, "model": getattr(job.client, "model", None)}
        try:
            response = job.client.complete(check.request)
            answer = response.parsed
            model = response.model
        except Truncated as exc:  # a model repeating itself ran to the cap: its complete entries count
            self._write(f"{name}.response.txt", exc.response.text if exc.response else "")
            answer = salvage(exc.response.text if exc.response else "")
            model = exc.response.model if exc.response else base["model"]
        except LLMError as exc:
            self._write(f"{name}.error.txt", str(exc))
            run = ReviewerRun(**base, outcome=_outcome(exc), error=str(exc)[:300])
            self._event(run)
            return [], [run], False
        else:
            self._write(f"{name}.response.txt", response.text or "")
        if not isinstance(answer, RuleCheckAnswer):
            run = ReviewerRun(**base, outcome="invalid_output", error="answer did not validate")
            self._event(run)
            return [], [run], False
        drops: Counter = Counter()
        found = verify(check, answer, drops)
        again = with_fixes(check, answer, found) if self.rule_check_mode == "recheck" and found else None
        if again is not None:
            self._write(f"{name}.recheck.prompt.md", again.text)
            try:
                second = job.client.complete(again.request)
            except LLMError as exc:  # the recheck could not run: the findings stand
                self._write(f"{name}.recheck.error.txt", str(exc))
            else:
                self._write(f"{name}.recheck.response.txt", second.text or "")
                if isinstance(second.parsed, RuleCheckAnswer):
                    kept = recheck(found, verify(again, second.parsed))
                    drops["rule_check_flagged_again_once_fixed"] += len(found) - len(kept)
                    found = kept
        with self._lock:
            self.check_drops.update(+drops)
        run = ReviewerRun(**{**base, "model": model}, outcome="ok", findings=len(found))
        self._event(run)
        return found, [run], True

    def _reverse_checked(self, job: _Job, chunk: Chunk, findings: Sequence[Any]) -> list[Any]:
        """`findings` less the warnings the same reviewer raises on the chunk undone (reverse.py)."""
        if not raised(findings):
            return list(findings)
        undone = reversed_chunk(chunk)
        prompt = build_request(
            undone, job.context, self.info, reviewer=job.reviewer, project_type=str(self.changes.project_type),
            risk_tier=str(self.changes.risk_tier), statuses=self._reversed_statuses, max_output_tokens=self.max_output_tokens,
            compact=self.compact)
        self._write(f"{chunk.id}.{job.reviewer.name}.reverse.prompt.md", prompt.text)
        try:
            response = job.client.complete(prompt.request)
        except LLMError as exc:  # the check could not run: the findings stand
            self._write(f"{chunk.id}.{job.reviewer.name}.reverse.error.txt", str(exc))
            return list(findings)
        self._write(f"{chunk.id}.{job.reviewer.name}.reverse.response.txt", response.text or "")
        if not isinstance(response.parsed, ReviewAnswer):
            return list(findings)
        drop = {id(f) for f in echoed(findings, chunk, response.parsed.findings)}
        with self._lock:
            self.echoes_dropped += len(drop)
        return [f for f in findings if id(f) not in drop]

    # ------------------------------------------------------------------ helpers
    def _detector_findings_of(self, chunk: Chunk) -> list[Finding]:
        ranges = [(h.path, h.new_range) for h in chunk.hunks]
        return [f for f in self.detector_findings
                if any(p == f.path and lo - 1 <= f.line <= hi + 1 for p, (lo, hi) in ranges)]

    def _event(self, run: ReviewerRun) -> None:
        if self.sink is not None:
            try:
                self.sink({"event": "reviewer", **run.model_dump()})
            except Exception:  # noqa: BLE001 - telemetry never breaks a review
                pass

    def _write(self, name: str, text: str) -> None:
        if self.explain is None:
            return
        try:
            (self.explain / _SAFE.sub("_", name)).write_text(text, encoding="utf-8")
        except OSError:
            pass

    def _write_context(self, chunk: Chunk, context: Context | None) -> None:
        if self.explain is None:
            return
        doc: dict[str, Any] = {
            "chunk": chunk.id, "files": list(chunk.files),
            "hunks": [{"path": h.path, "new_start": h.new_range[0], "new_end": h.new_range[1]} for h in chunk.hunks],
            "members": [{"path": m.path, "kind": m.kind, "name": m.name, "start_line": m.start_line,
                         "end_line": m.end_line} for m in chunk.members],
            "rules": [], "code": [],
        }
        if context is not None:
            doc["rules"] = [{"rule_id": r.rule_id, "title": r.title, "score": r.score, "tokens": r.tokens,
                             "source": r.source} for r in context.rules]
            doc["code"] = [{"relation": c.relation, "symbol": c.symbol, "path": c.path, "start_line": c.start_line,
                            "end_line": c.end_line, "score": c.score} for c in context.code]
            doc["notes"] = list(context.notes)
        self._write(f"{chunk.id}.context.json", json.dumps(doc, indent=2, ensure_ascii=False))


def _root_id(chunk_id: str) -> str:
    return chunk_id.split(".", 1)[0]


def _outcome(exc: LLMError) -> str:
    name = type(exc).__name__
    return {"InvalidOutput": "invalid_output", "EmptyOutput": "empty_output", "Unavailable": "unavailable",
            "Cancelled": "cancelled"}.get(name, getattr(getattr(exc, "kind", None), "value", "failed"))


# ------------------------------------------------------------------------------ splitting


def split_chunk(chunk: Chunk) -> tuple[Chunk, Chunk] | None:
    """Two halves of a chunk (by hunks; one hunk by lines), or None when it cannot be cut."""
    hunks = list(chunk.hunks)
    if len(hunks) >= 2:
        mid = len(hunks) // 2
        parts = (hunks[:mid], hunks[mid:])
    elif hunks:
        lines = hunks[0].lines
        changed = [i for i, ln in enumerate(lines) if ln.kind != " "]
        if len(changed) < 2:
            return None
        cut = changed[len(changed) // 2]
        if cut == 0:
            return None
        parts = ([_slice(hunks[0], lines[:cut])], [_slice(hunks[0], lines[cut:])])
    else:
        return None

    def make(suffix: str, part: list[HunkSlice]) -> Chunk:
        spans = [(h.path, h.new_range) for h in part]
        members = tuple(m for m in chunk.members
                        if any(p == m.path and m.start_line <= hi and m.end_line >= lo for p, (lo, hi) in spans))
        files = tuple(dict.fromkeys(h.path for h in part))
        return replace(chunk, id=f"{chunk.id}.{suffix}", files=files, hunks=tuple(part), members=members,
                       estimated_tokens=max(1, chunk.estimated_tokens // 2), text="")

    return make("1", parts[0]), make("2", parts[1])


def _slice(h: HunkSlice, lines: Sequence[Any]) -> HunkSlice:
    return HunkSlice.of_lines(h.path, h.header, tuple(lines))
