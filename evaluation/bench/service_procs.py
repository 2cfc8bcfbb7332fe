"""The processes of a service load run: the configuration they read, `dualrag serve` and `dualrag
worker` started and stopped (a worker killed with SIGKILL), and what the queue on Redis says."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis

from dualrag.service.status import queue_status
from evaluation.bench.service_doubles import BOT, GH_SECRET, GH_TOKEN, GL_SECRET, QUEUE, TOKEN


def write_config(path: Path, redis_url: str, gitlab_url: str, github_url: str, llm_url: str, *, heartbeat_s: float,
                 llm_in_flight: int) -> Path:
    path.write_text(f"""
[retrieval]
enabled = false
[review]
walkthrough = false
reverse_check = false
[feedback]
enabled = false
[llm]
model = "openai:gpt-4.1-mini"
[llm.openai]
base_url = "{llm_url}"
[service]
redis_url = "{redis_url}"
queue = "{QUEUE}"
gitlab_url = "{gitlab_url}"
github_api_url = "{github_url}"
github_bot = "{BOT}"
worker_heartbeat_s = {heartbeat_s}
slot_ttl_s = 10.0
llm_in_flight = {llm_in_flight}
project_concurrency = 2
max_retries = 3
""", encoding="utf-8")
    return path


class Procs:
    def __init__(self, config: Path, store: Path, logs: Path) -> None:
        self.config, self.store, self.logs = config, store, logs
        self.env = {**os.environ, "DUALRAG_GITLAB_TOKEN": TOKEN, "DUALRAG_GITHUB_TOKEN": GH_TOKEN,
                    "OPENAI_API_KEY": "load", "DUALRAG_GITLAB_WEBHOOK_SECRET": GL_SECRET,
                    "DUALRAG_GITHUB_WEBHOOK_SECRET": GH_SECRET, "PYTHONUNBUFFERED": "1"}
        self.all: list[subprocess.Popen] = []
        self.n = 0

    def start(self, *args: str, nice: int = 0) -> subprocess.Popen:
        self.n += 1
        log = open(self.logs / f"{args[0]}-{self.n}.log", "w", encoding="utf-8")  # noqa: SIM115
        prefix = ["nice", "-n", str(nice)] if nice else []
        proc = subprocess.Popen([*prefix, sys.executable, "-m", "dualrag", *args, "--config", str(self.config)],
                                env=self.env, stdout=log, stderr=subprocess.STDOUT)
        proc.log_path = log.name  # type: ignore[attr-defined]
        self.all.append(proc)
        return proc

    def worker(self) -> subprocess.Popen:
        # reviews are background work: on a shared machine the webhook answers first (docs/service.md)
        return self.start("worker", "--store", str(self.store), nice=10)

    def ready(self, procs: list[subprocess.Popen], timeout_s: float = 180) -> None:
        """Wait until each worker has warmed up and listens on the queue (its log says so)."""
        wait_for(lambda: all(" on queue " in Path(p.log_path).read_text(encoding="utf-8") for p in procs),
                 timeout_s, "the workers to be ready")

    def stop(self, proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def close(self) -> None:
        for proc in self.all:
            self.stop(proc)

    def log_lines(self) -> list[str]:
        return [line for p in self.logs.glob("worker-*.log") for line in p.read_text(encoding="utf-8").splitlines()]


def wait_for(check, timeout_s: float, what: str, step: float = 0.2) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(step)
    raise SystemExit(f"service_load: timed out waiting for {what}")


def drained(client: redis.Redis) -> bool:
    st = queue_status(client, QUEUE, dead_limit=0)
    return st.waiting + st.delayed + st.in_flight == 0


def held_jobs(client: redis.Redis, acks: str) -> list[str]:
    """The jobs in a worker's Dramatiq ack set: fetched, not acknowledged."""
    from dualrag.service.jobs import Job

    labels = []
    for message_id in client.smembers(acks):
        raw = client.hget(f"dualrag:{QUEUE}.msgs", message_id)
        if raw:
            labels.append(Job.from_dict(json.loads(raw)["args"][0]).label())
    return labels


def stats(client: redis.Redis) -> dict[str, float]:
    return {k.decode(): float(v) for k, v in client.hgetall(f"{QUEUE}:stats").items()}
