"""What the queue holds, read from Dramatiq's Redis keys (`dualrag serve status`, `/metrics`):
waiting, delayed (retries waiting out their backoff), in flight (fetched by a worker and not yet
acknowledged: a killed worker's jobs stay here until its heartbeat times out), and dead letters
with why each failed (`dualrag.service.failures`: reason, platform call, HTTP status, message)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import redis

NAMESPACE = "dualrag"  # Dramatiq's key namespace for the service's queues


@dataclass(frozen=True, slots=True)
class DeadLetter:
    message_id: str
    job: str               # the job's label (platform, repository, MR, head)
    reason: str            # one of dualrag.service.failures.REASONS
    message: str           # one line
    failed_at: float       # Unix time (the dead-letter queue's score)
    attempts: int          # failed attempts recorded
    endpoint: str | None = None  # the platform call that failed
    status: int | None = None    # its HTTP status

    def line(self) -> str:
        from dualrag.service.failures import Failure

        return Failure(self.reason, self.message, self.endpoint, self.status).line()


@dataclass(frozen=True, slots=True)
class QueueStatus:
    queue: str
    waiting: int
    delayed: int
    in_flight: int
    workers: int                     # workers whose heartbeat is recent
    dead_total: int = 0
    dead: list[DeadLetter] = field(default_factory=list)  # the newest ones

    @property
    def depth(self) -> int:
        return self.waiting + self.delayed


def _dead_letter(client: redis.Redis, queue: str, message_id: bytes, score: float) -> DeadLetter:
    from dualrag.service.jobs import Job, JobKeys

    raw = client.hget(f"{NAMESPACE}:{queue}.XQ.msgs", message_id)
    try:
        data = json.loads(raw) if raw else {}
        args = data.get("args") or []
        job = Job.from_dict(args[0]) if args and isinstance(args[0], dict) else None
    except (ValueError, TypeError):
        job = None
    if job is None:
        return DeadLetter(message_id.decode(), "?", "internal", "not a dualrag job", score / 1000, 0)
    failure, attempts = JobKeys(client, queue).failure(job)
    if failure is None:
        return DeadLetter(message_id.decode(), job.label(), "internal", "failed (no reason recorded)", score / 1000,
                          attempts)
    return DeadLetter(message_id.decode(), job.label(), failure.reason, failure.message, score / 1000, attempts,
                      failure.endpoint, failure.status)


def queue_status(client: redis.Redis, queue: str, *, heartbeat_s: float = 60.0, dead_limit: int = 50) -> QueueStatus:
    ns = f"{NAMESPACE}:{queue}"
    waiting = int(client.llen(ns))
    delayed = int(client.llen(f"{ns}.DQ"))
    in_flight = 0
    for key in client.scan_iter(match=f"{NAMESPACE}:__acks__.*.{queue}", count=500):
        in_flight += int(client.scard(key))
    for key in client.scan_iter(match=f"{NAMESPACE}:__acks__.*.{queue}.DQ", count=500):
        in_flight += int(client.scard(key))
    now_ms = client.time()[0] * 1000
    workers = int(client.zcount(f"{NAMESPACE}:__heartbeats__", now_ms - heartbeat_s * 1000, "+inf"))
    newest = client.zrevrange(f"{ns}.XQ", 0, dead_limit - 1, withscores=True) if dead_limit > 0 else []
    dead = [_dead_letter(client, queue, message_id, score) for message_id, score in newest]
    return QueueStatus(queue, waiting, delayed, in_flight, workers, int(client.zcard(f"{ns}.XQ")), dead)


def dead_letter_count(client: redis.Redis, queue: str) -> int:
    return int(client.zcard(f"{NAMESPACE}:{queue}.XQ"))
