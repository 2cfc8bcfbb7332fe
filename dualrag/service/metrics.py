"""Prometheus metrics of the whole service, read from Redis at each scrape: workers on other
machines write their counts there, so any `dualrag serve` instance reports them all.

    dualrag_queue_depth, dualrag_jobs_in_flight, dualrag_dead_letters      gauges
    dualrag_jobs_total{outcome}           reviewed, superseded, command, failed, dead_lettered,
                                          and at the door: queued, duplicate, stale, ignored, rejected
    dualrag_dead_lettered_total{reason}   jobs dead-lettered, by why (dualrag.service.failures.REASONS)
    dualrag_review_seconds                histogram of one review, queue wait excluded
    dualrag_llm_tokens_total{direction}   input / output
    dualrag_llm_cost_usd_total"""

from __future__ import annotations

from collections.abc import Iterator

import redis
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

from dualrag.service.failures import REASONS
from dualrag.service.status import queue_status

BUCKETS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)


class Stats:
    """Counters in one Redis hash, written by the web process and every worker."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.client, self.key = client, f"{prefix}:stats"

    def outcome(self, name: str, n: int = 1) -> None:
        self.client.hincrby(self.key, f"jobs:{name}", n)

    def dead_lettered(self, reason: str) -> None:
        pipe = self.client.pipeline()
        pipe.hincrby(self.key, "jobs:dead_lettered", 1)
        pipe.hincrby(self.key, f"dead:{reason if reason in REASONS else 'internal'}", 1)
        pipe.execute()

    def review(self, seconds: float, input_tokens: int, output_tokens: int, cost_usd: float) -> None:
        pipe = self.client.pipeline()
        for le in BUCKETS:
            if seconds <= le:
                pipe.hincrby(self.key, f"review_bucket:{le}", 1)
        pipe.hincrby(self.key, "review_count", 1)
        pipe.hincrbyfloat(self.key, "review_sum", seconds)
        pipe.hincrby(self.key, "tokens:input", input_tokens)
        pipe.hincrby(self.key, "tokens:output", output_tokens)
        pipe.hincrbyfloat(self.key, "cost_usd", cost_usd)
        pipe.execute()

    def read(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self.client.hgetall(self.key).items()}


class ServiceCollector(Collector):
    def __init__(self, client: redis.Redis, prefix: str, queue: str) -> None:
        self.client, self.stats, self.queue = client, Stats(client, prefix), queue

    def collect(self) -> Iterator:
        status = queue_status(self.client, self.queue, dead_limit=0)
        values = self.stats.read()
        yield GaugeMetricFamily("dualrag_queue_depth", "Jobs waiting (delayed retries included)", value=status.depth)
        yield GaugeMetricFamily("dualrag_jobs_in_flight", "Jobs fetched by a worker and not yet done",
                                value=status.in_flight)
        yield GaugeMetricFamily("dualrag_dead_letters", "Jobs in the dead-letter queue",
                                value=int(self.client.zcard(f"dualrag:{self.queue}.XQ")))
        jobs = CounterMetricFamily("dualrag_jobs", "Jobs and deliveries by outcome", labels=["outcome"])
        for key, value in sorted(values.items()):
            if key.startswith("jobs:"):
                jobs.add_metric([key[5:]], float(value))
        yield jobs
        dead = CounterMetricFamily("dualrag_dead_lettered", "Jobs moved to the dead letters, by reason",
                                   labels=["reason"])
        for reason in REASONS:
            dead.add_metric([reason], float(values.get(f"dead:{reason}", 0)))
        yield dead
        count = int(values.get("review_count", 0))
        buckets = [(str(le), float(values.get(f"review_bucket:{le}", 0))) for le in BUCKETS] + [("+Inf", float(count))]
        yield HistogramMetricFamily("dualrag_review_seconds", "Seconds one review took, queue wait excluded",
                                    buckets=buckets, sum_value=float(values.get("review_sum", 0.0)))
        tokens = CounterMetricFamily("dualrag_llm_tokens", "LLM tokens of the reviews", labels=["direction"])
        tokens.add_metric(["input"], float(values.get("tokens:input", 0)))
        tokens.add_metric(["output"], float(values.get("tokens:output", 0)))
        yield tokens
        yield CounterMetricFamily("dualrag_llm_cost_usd", "LLM cost of the reviews in USD",
                                  value=float(values.get("cost_usd", 0.0)))
