"""The job queue: Dramatiq on Redis (README, "Review service", says why Dramatiq).

What it gives the service: a message is acknowledged only after its job returns, so a worker
killed mid-review leaves it in its ack set, and any worker's broker puts it back on the queue once
the dead worker's heartbeat is `worker_heartbeat_s` old; failed jobs are retried with backoff
(`max_retries`), then moved to the dead-letter queue with their traceback; a job running past
`job_time_limit_s` is interrupted and retried."""

from __future__ import annotations

from collections.abc import Callable

import dramatiq
import redis
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import AgeLimit, Callbacks, Pipelines, Retries, ShutdownNotifications, TimeLimit

from dualrag.config.service import ServiceConfig
from dualrag.service.failures import PermanentFailure
from dualrag.service.status import NAMESPACE

ACTOR = "dualrag_job"
# Out of a million broker commands, how many also requeue dead workers' messages (Dramatiq's
# default, 1,000, takes minutes at our few commands a second).
MAINTENANCE_CHANCE = 100_000


def redis_client(cfg: ServiceConfig) -> redis.Redis:
    return redis.Redis.from_url(cfg.redis_url, socket_connect_timeout=5, health_check_interval=30)


def _not_here(job: dict) -> None:
    raise RuntimeError("this process only queues jobs: run them with `dualrag worker`")


def make_broker(cfg: ServiceConfig, run: Callable[[dict], None] = _not_here, *,
                maintenance_chance: int = MAINTENANCE_CHANCE) -> tuple[RedisBroker, dramatiq.Actor]:
    """The broker and the one actor of the service's queue; `run` is the job's body (the worker's)."""
    middleware = [AgeLimit(), TimeLimit(time_limit=cfg.job_time_limit_s * 1000), ShutdownNotifications(),
                  Callbacks(), Pipelines(), Retries(max_retries=cfg.max_retries, min_backoff=1000, max_backoff=60_000)]
    broker = RedisBroker(url=cfg.redis_url, namespace=NAMESPACE, middleware=middleware,
                         heartbeat_timeout=int(cfg.worker_heartbeat_s * 1000), maintenance_chance=maintenance_chance,
                         socket_connect_timeout=5)
    actor = dramatiq.Actor(run, broker=broker, actor_name=ACTOR, queue_name=cfg.queue, priority=0,
                           options={"throws": (PermanentFailure,)})
    return broker, actor
