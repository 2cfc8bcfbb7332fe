"""A worker process: takes jobs off the queue and runs them, one at a time per thread.

    review job   newer head recorded?  -> skip (superseded)
                 project slot free?    -> else back on the queue in a moment
                 adapter.load()        -> the platform's head moved on? skip (superseded)
                 settings              =  service defaults + the repository's .dualrag.toml (target side)
                 review_merge_request(still_current=...)  -> asked again right before publishing
    command job  the comment's author, access and command are read by `commands.handle_note`

Every LLM request of the process holds a slot of the service-wide cap (`dualrag.llm.gate`).
Publishing is idempotent (fingerprints; a rerun on the same commit writes nothing), so a job
retried after its worker was killed mid-review posts nothing twice."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property

import dramatiq
import redis

from dualrag.config import Settings
from dualrag.config.service import ServiceConfig
from dualrag.errors import ConfigError
from dualrag.llm import gate
from dualrag.service.failures import PermanentFailure, classify
from dualrag.service.jobs import Job, JobKeys
from dualrag.service.limits import RedisSemaphore
from dualrag.service.metrics import Stats
from dualrag.service.replica import StoreReplica

GITHUB_ROLE_LEVEL = {"triage": 20, "write": 30, "maintain": 40, "admin": 50}
DEFER_MS = 2_000  # a project at its concurrency limit: the job comes back this much later


@dataclass
class Runtime:
    """What jobs of this process share; installed once by `dualrag worker` (or a test)."""

    settings: Settings                    # the service-wide defaults (--config, environment)
    client: redis.Redis
    actor: dramatiq.Actor
    replica: StoreReplica | None = None
    log: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr, flush=True))
    llm_slots: RedisSemaphore | None = None
    _projects: dict[str, RedisSemaphore] = field(default_factory=dict)
    _active: int = 0
    _guard: threading.Lock = field(default_factory=threading.Lock)

    @contextmanager
    def reviewing(self) -> Iterator[None]:
        """A review runs; the store replica is refreshed first when no other review of this
        process has it open (with `--threads`, a copy must not change under a running review)."""
        with self._guard:
            if self._active == 0 and self.replica is not None and self.replica.refresh():
                self.log(f"dualrag worker: store replica refreshed from {self.replica.source}")
            self._active += 1
        try:
            yield
        finally:
            with self._guard:
                self._active -= 1

    @property
    def cfg(self) -> ServiceConfig:
        return self.settings.service

    @cached_property
    def keys(self) -> JobKeys:
        return JobKeys(self.client, self.cfg.queue, self.cfg.job_key_ttl_s)

    @cached_property
    def stats(self) -> Stats:
        return Stats(self.client, self.cfg.queue)

    def project_slots(self, job: Job) -> RedisSemaphore:
        key = f"{job.platform}:{job.repository}"
        if key not in self._projects:
            self._projects[key] = RedisSemaphore(self.client, f"{self.cfg.queue}:project:{key}",
                                                 self.cfg.project_concurrency, self.cfg.slot_ttl_s)
        return self._projects[key]


_runtime: Runtime | None = None


def install(runtime: Runtime) -> None:
    """Make this process a worker of `runtime`'s service: its jobs, and its cap on LLM requests."""
    global _runtime
    _runtime = runtime
    cfg = runtime.cfg
    runtime.llm_slots = RedisSemaphore(runtime.client, f"{cfg.queue}:llm", cfg.llm_in_flight, cfg.slot_ttl_s)
    gate.install(lambda model: runtime.llm_slots.slot())
    if runtime.replica is not None:
        runtime.replica.refresh()


def run_job(data: dict) -> None:
    rt = _runtime
    if rt is None:
        raise RuntimeError("no worker runtime installed in this process")
    job = Job.from_dict(data)
    try:
        if job.kind == "command":
            _command(rt, job)
        else:
            _review(rt, job)
    except Exception as exc:
        rt.stats.outcome("failed")
        failure = classify(exc)
        rt.keys.record_failure(job, failure)  # `serve status` shows it beside the dead letter
        rt.log(f"dualrag worker: {job.label()}: failed: {failure.line()}"
               + (" (permanent: not retried)" if failure.permanent else ""))
        if failure.permanent and not isinstance(exc, PermanentFailure):
            raise PermanentFailure(failure.message) from exc  # retrying cannot mend it: dead-letter now
        raise


# ------------------------------------------------------------------------------ adapters


def token(cfg: ServiceConfig, platform: str) -> str:
    name = cfg.gitlab_token_env if platform == "gitlab" else cfg.github_token_env
    value = os.environ.get(name, "").strip()
    if not value:
        raise PermanentFailure(f"no API token: set {name}")
    return value


def build_adapter(cfg: ServiceConfig, job: Job):
    """The job's MR on its platform; the host is the configured one, never a payload's."""
    if job.platform == "gitlab":
        from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget

        return GitLabAdapter(GitLabTarget(cfg.gitlab_url, job.repository, job.mr), token(cfg, "gitlab"))
    from dualrag.vcs.github import GitHubAdapter, GitHubTarget

    return GitHubAdapter(GitHubTarget(cfg.github_api_url, job.repository, job.mr), token(cfg, "github"),
                         bot=cfg.github_bot)


def current_head(adapter) -> str:
    """The MR's head on the platform now (one GET)."""
    if adapter.platform == "gitlab":
        mr = adapter.client.get(adapter.mr) or {}
        return str((mr.get("diff_refs") or {}).get("head_sha") or mr.get("sha") or "").lower()
    pr = adapter.client.get(f"{adapter.repo}/pulls/{adapter.number}") or {}
    return str((pr.get("head") or {}).get("sha") or "").lower()


def repository_settings(adapter, state, defaults: Settings) -> Settings:
    """Service defaults + the repository's `.dualrag.toml` from the target side; the `[service]`
    section always stays the service's own."""
    from dualrag.service.repo_config import repository_settings as layered

    try:
        settings = layered(adapter, state, defaults)
    except ConfigError as exc:
        raise PermanentFailure(str(exc)) from None
    return settings.model_copy(update={"service": defaults.service})


# ------------------------------------------------------------------------------ jobs


def _review(rt: Runtime, job: Job) -> None:
    keys, stats = rt.keys, rt.stats
    if keys.superseded(job):
        stats.outcome("superseded")
        rt.log(f"dualrag worker: {job.label()}: superseded by a newer push, skipped")
        return
    slots = rt.project_slots(job)
    held = slots.try_acquire()
    if held is None:  # the project is at its limit: another project's job may run meanwhile
        rt.actor.send_with_options(args=(job.to_dict(),), delay=DEFER_MS)
        return
    started = time.perf_counter()
    try:
        with rt.reviewing():
            outcome = _review_held(rt, job)
    finally:
        slots.release(held)
    if outcome is None:
        return
    run, writes = outcome
    seconds = time.perf_counter() - started
    usage = run.review.usage
    stats.review(seconds, usage.input_tokens, usage.output_tokens, float(usage.cost_usd or 0.0))
    if run.superseded:
        stats.outcome("superseded")
        rt.log(f"dualrag worker: {job.label()}: reviewed in {seconds:.1f} s, superseded before publishing: "
               "nothing published")
        return
    stats.outcome("reviewed")
    r = run.result
    rt.log(f"dualrag worker: {job.label()}: decision {r.decision} · posted {r.posted} · kept {r.kept} · "
           f"summary {r.summary} · {writes} writes · {seconds:.1f} s")


def _review_held(rt: Runtime, job: Job):
    """The review of a job whose project slot is held: None when the platform's head moved on."""
    from dualrag.feedback import FeedbackScope, repository_key
    from dualrag.pipeline import review_merge_request

    keys = rt.keys
    adapter = build_adapter(rt.cfg, job)
    try:
        state = adapter.load()
        if state.head_sha and state.head_sha.lower() != job.head_sha:
            rt.stats.outcome("superseded")
            rt.log(f"dualrag worker: {job.label()}: the head is now {state.head_sha[:12]}, skipped")
            return None
        settings = repository_settings(adapter, state, rt.settings)
        if rt.replica is not None:
            settings = rt.replica.settings(settings)
        # Feedback is written to the store: with per-worker replicas it would stay on one worker.
        feedback = None
        if settings.feedback.enabled and settings.qdrant.url:
            key = repository_key(settings.feedback.repository or job.repository)
            feedback = FeedbackScope(key, ("!" if job.platform == "gitlab" else "#") + str(job.mr)) if key else None
        run = review_merge_request(
            adapter, settings, state=state, feedback=feedback,
            still_current=lambda: not keys.superseded(job) and current_head(adapter) in ("", job.head_sha))
        return run, adapter.client.writes
    finally:
        adapter.client.close()


def enqueue_forced_review(rt: Runtime, job: Job, head_sha: str) -> bool:
    """Queue a review of `head_sha` asked for by the comment of `job`: not a duplicate of the
    push's review of that head, but a duplicate of another one for the same comment."""
    keys = rt.keys
    # The platform's stamp of the newest push known, not this machine's clock: a push after the
    # comment must still count as newer. The worker checks the head on the platform anyway.
    _, stamp = keys.newest_head(Job("review", job.platform, job.repository, job.mr))
    forced = Job("review", job.platform, job.repository, job.mr, head_sha.lower(), None, stamp or "",
                 forced_by=job.note_id or "?")
    if not keys.claim(forced):
        return False
    rt.actor.send(forced.to_dict())
    rt.stats.outcome("queued")
    return True


def _command(rt: Runtime, job: Job) -> None:
    adapter = build_adapter(rt.cfg, job)
    try:
        with rt.reviewing():  # `ask` retrieves from the store, like a review
            _command_held(rt, job, adapter)  # the commands module logs its one line itself
    finally:
        adapter.client.close()
    rt.stats.outcome("command")


def _command_held(rt: Runtime, job: Job, adapter) -> str:
    """The commands module's answer to one comment, with the MR's adapter and settings."""
    from dualrag.service.commands import CommandContext, handle_note

    cfg = rt.cfg
    state = adapter.load()
    settings = repository_settings(adapter, state, rt.settings)
    if rt.replica is not None:
        settings = rt.replica.settings(settings)
    min_access = cfg.command_access if job.platform == "gitlab" else GITHUB_ROLE_LEVEL[cfg.github_command_role]
    bot = state.bot or (cfg.gitlab_bot if job.platform == "gitlab" else cfg.github_bot)
    ctx = CommandContext(adapter=adapter, settings=settings, min_access=min_access, bot_username=bot,
                         enqueue_review=lambda head: enqueue_forced_review(rt, job, head),
                         log=lambda line: rt.log(f"dualrag worker: {line}"),
                         github_role=cfg.github_command_role if job.platform == "github" else None)
    return handle_note(job.platform, job.payload or {}, ctx)


class DeadLetterCount(dramatiq.Middleware):
    """Counts jobs moved to the dead-letter queue, by reason (`dualrag_dead_lettered_total{reason}`,
    `dualrag_jobs_total{outcome="dead_lettered"}`), and says which and why in the log."""

    def __init__(self, keys: JobKeys, stats: Stats, log: Callable[[str], None]) -> None:
        self.keys, self.stats, self.log = keys, stats, log

    def after_nack(self, broker, message) -> None:
        args = message.args or ()
        job = Job.from_dict(args[0]) if args and isinstance(args[0], dict) else None
        failure = self.keys.failure(job)[0] if job is not None else None
        self.stats.dead_lettered(failure.reason if failure else "internal")
        what = job.label() if job is not None else f"message {message.message_id}"
        self.log(f"dualrag worker: {what}: dead-lettered: {failure.line() if failure else 'no reason recorded'}")


# ------------------------------------------------------------------------------ the process


def work(settings: Settings, client: redis.Redis, *, threads: int = 1, burst: bool = False,
         log: Callable[[str], None] | None = None, poll_s: float = 0.5) -> int:
    """Run a worker until SIGTERM/SIGINT (or, with `burst`, until the queue is drained); returns
    how many jobs this process finished."""
    import signal
    import threading

    from dualrag.service.queue import make_broker
    from dualrag.service.status import queue_status

    cfg = settings.service
    _warm_up(settings, log or (lambda line: print(line, file=sys.stderr, flush=True)))
    broker, actor = make_broker(cfg, run_job)
    replica = StoreReplica(settings)
    runtime = Runtime(settings, client, actor, replica=replica if replica.needed else None)
    if log is not None:
        runtime.log = log
    done = _Finished()
    broker.add_middleware(DeadLetterCount(runtime.keys, runtime.stats, runtime.log))
    broker.add_middleware(done)
    install(runtime)
    worker = dramatiq.Worker(broker, worker_threads=threads, worker_timeout=200)
    worker.queue_prefetch = threads  # a busy worker holds no extra job another worker could take
    stop = threading.Event()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGTERM, signal.SIGINT)}
    worker.start()
    runtime.log(f"dualrag worker: pid {os.getpid()} (broker {broker.broker_id}) on queue {cfg.queue} "
                f"({threads} thread(s))" + (", until the queue is empty" if burst else ""))
    try:
        idle = 0
        while not stop.wait(poll_s):
            if burst:
                st = queue_status(client, cfg.queue, dead_limit=0)
                idle = idle + 1 if st.waiting + st.delayed + st.in_flight == 0 else 0
                if idle >= 2:
                    break
    finally:
        worker.stop(timeout=10_000)
        broker.close()
        gate.install(None)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if runtime.replica is not None:
            runtime.replica.remove()
    return done.count


WARM_UP_DIFF = (b"diff --git a/Warm.java b/Warm.java\nnew file mode 100644\n--- /dev/null\n+++ b/Warm.java\n"
                b"@@ -0,0 +1,4 @@\n+class Warm {\n+  // a comment, read by the injection check\n"
                b"+  String s = \"a literal\";\n+}\n")


def _warm_up(settings: Settings, log: Callable[[str], None]) -> None:
    """Load what a review needs (the pipeline's modules, grammars, tokenizers, the injection
    check's embedder, the model's SDK: seconds) before taking the first job: one offline review
    of a four-line diff and the model's client built, no request sent, no platform called."""
    from dualrag.llm import LLMFactory
    from dualrag.pipeline import run_review

    started = time.perf_counter()
    offline = settings.model_copy(update={"llm": settings.llm.model_copy(update={"model": None, "reviewers": {}}),
                                          "retrieval": settings.retrieval.model_copy(update={"enabled": False})})
    try:
        run_review(WARM_UP_DIFF, offline)
        LLMFactory(settings.llm).for_reviewer(None)
    except Exception as exc:  # noqa: BLE001 - a warm-up that fails costs the first job the time, nothing more
        log(f"dualrag worker: warm-up failed ({type(exc).__name__}: {exc}); the first job loads what it needs")
        return
    log(f"dualrag worker: warmed up in {time.perf_counter() - started:.1f} s")


class _Finished(dramatiq.Middleware):
    def __init__(self) -> None:
        self.count = 0

    def after_process_message(self, broker, message, *, result=None, exception=None) -> None:
        if exception is None:
            self.count += 1
