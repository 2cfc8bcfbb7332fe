"""The review service under load: the floors of issue 29, measured on real processes.

    .venv/bin/python -m evaluation.bench.service_load [--mrs 50] [--deliveries 300] [--seconds 10]
                                                   [--drain-jobs 20] [--latency 1.0] [--unified-diffs]

Started here, all on 127.0.0.1: a real redis-server (Debian's package), `dualrag serve` (uvicorn)
and `dualrag worker` processes, the loopback GitLab and GitHub doubles written from the platforms' API
documentation (dualrag/testing/gitlab_api.py, github_api.py) and an LLM double answering after a fixed latency.
The doubles and deliveries are service_doubles.py, the processes service_procs.py.
Reviews run the real pipeline on the API diff with one reviewer request each (the double answers
one finding, so each MR gets one comment to keep); retrieval, the reverse check and the model
walkthrough are off: what is measured is the queue, not the review.

1. load: `--deliveries` webhook deliveries in `--seconds` s, in bursts, over `--mrs` merge requests
   (half GitLab, half GitHub): opens, redeliveries, newer pushes, older pushes delivered late, and
   deliveries with a bad signature; two workers, one killed with SIGKILL mid-review and replaced.
   Then: each (MR, head) published at most once and every MR's last head exactly once, no write
   for a head that was no longer the MR's head, nothing lost, no duplicate comment, webhook
   latency, bad signatures answered 401 with no job.
2. drain: `--drain-jobs` new heads queued at once, drained by 1 worker, then again by 2 (the
   baseline and the ratio, in the same run).
3. command: a `/dualrag review` comment by a user below the access level: no write, one log line.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import redis

from dualrag.service.status import queue_status
from dualrag.testing.redis import RedisServer, free_port
from dualrag.testing.timed_llm import TimedLLM
from evaluation.bench.service_doubles import QUEUE, Platforms, payload, plan, request, sha
from evaluation.bench.service_procs import Procs, drained, held_jobs, stats, wait_for, write_config
from evaluation.core.report import percentile as pct
from evaluation.core.report import verdict

# ------------------------------------------------------------------------------ phases


def load_phase(args, http: httpx.Client, client: redis.Redis, procs: Procs, platforms: Platforms,
               rng: random.Random) -> dict:
    events, heads = plan(platforms.targets, args.deliveries, args.seconds, rng)
    workers = [procs.worker(), procs.worker()]
    procs.ready(workers)
    latencies: list[float] = []
    answers: dict[str, int] = {}
    bad_codes: list[int] = []
    lock = threading.Lock()
    start = time.monotonic()
    killed: dict = {}

    def send(e):
        at, kind, platform, repo, mr, head, when = e
        time.sleep(max(0.0, start + at - time.monotonic()))
        if kind == "push":
            platforms.push(platform, repo, head)
        path, body, headers = request(platform, payload(platform, repo, mr, head, when), bad=kind == "bad")
        t0 = time.perf_counter()
        r = http.post(path, content=body, headers=headers)
        dt = time.perf_counter() - t0
        with lock:
            latencies.append(dt)
            status = r.json().get("status", "?") if r.headers.get("content-type", "").startswith("application/json") \
                else str(r.status_code)
            answers[status] = answers.get(status, 0) + 1
            if kind == "bad":
                bad_codes.append(r.status_code)

    victim_id = re.search(r"\(broker ([0-9a-f-]+)\)", Path(workers[0].log_path).read_text(encoding="utf-8")).group(1)
    acks = f"dualrag:__acks__.{victim_id}.{QUEUE}"

    def killer():
        time.sleep(args.seconds / 2)  # mid-load, and then the moment the victim holds a job: mid-review
        wait_for(lambda: client.scard(acks) > 0, 60, "the victim to hold a job", step=0.01)
        killed["in_flight"] = queue_status(client, QUEUE, dead_limit=0).in_flight
        workers[0].send_signal(signal.SIGKILL)
        workers[0].wait()
        killed["at"] = time.monotonic() - start
        killed["orphans"] = held_jobs(client, acks)  # what it held when it died, still unacknowledged
        workers.append(procs.worker())  # the replacement

    kill = threading.Thread(target=killer)
    kill.start()
    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(send, events))
    sent_s = time.monotonic() - start
    kill.join()
    wait_for(lambda: drained(client), 600, "the queue to drain")
    drain_s = time.monotonic() - start
    for w in workers[1:]:
        procs.stop(w)

    # what the platforms and the worker logs say
    published: dict[tuple[str, str], int] = {}
    for line in procs.log_lines():
        m = re.search(r"dualrag worker: (gitlab|github) (\S+)!(\d+) head ([0-9a-f]{12}): decision", line)
        if m:
            published[(m.group(2), m.group(4))] = published.get((m.group(2), m.group(4)), 0) + 1
    final = {repo: hs[-1][0] for repo, hs in heads.items()}
    lost = [repo for repo, h in final.items() if published.get((repo, h[:12]), 0) == 0]
    twice = {k: n for k, n in published.items() if n > 1}
    duplicates, summaries = platforms.duplicates()
    bad_jobs = [k for k in client.scan_iter(match=f"{QUEUE}:job:*")
                if any(k.decode().endswith(sha(n)) for n in range(10_000, 10_000 + len(events)))]
    killed_log = workers[0].log_path
    retried = [label for label in killed.get("orphans", [])
               if any(label in line and ("decision" in line or "superseded" in line or "head is now" in line)
                      for p in procs.logs.glob("worker-*.log") if str(p) != killed_log
                      for line in p.read_text(encoding="utf-8").splitlines())]
    killed["retried"] = retried
    return {"events": events, "answers": answers, "latencies": latencies, "bad_codes": bad_codes,
            "bad_jobs": len(bad_jobs), "sent_s": sent_s, "drain_s": drain_s, "killed": killed,
            "published": published, "final": final, "lost": lost, "twice": twice,
            "stale_writes": len(platforms.stale_writes()),
            "duplicate_comments": duplicates, "extra_summaries": summaries, "stats": stats(client)}


def drain_phase(n_workers: int, jobs: int, http: httpx.Client, client: redis.Redis, procs: Procs,
                platforms: Platforms, serial: int) -> tuple[float, int]:
    """Seconds from queueing `jobs` new heads (workers idle and warm) to all of them reviewed."""
    workers = [procs.worker() for _ in range(n_workers)]
    procs.ready(workers)
    before = stats(client).get("jobs:reviewed", 0)
    t0 = time.monotonic()
    for i, (platform, repo, mr) in enumerate(platforms.targets[:jobs]):
        head = sha(serial + i)
        platforms.push(platform, repo, head)
        path, body, headers = request(platform, payload(platform, repo, mr, head, 100_000 + serial + i))
        assert http.post(path, content=body, headers=headers).json()["status"] == "queued"
    wait_for(lambda: stats(client).get("jobs:reviewed", 0) - before >= jobs, 900, "the drain", step=0.05)
    seconds = time.monotonic() - t0
    for w in workers:
        procs.stop(w)
    return seconds, serial + jobs


def command_phase(http: httpx.Client, client: redis.Redis, procs: Procs, platforms: Platforms) -> dict:
    """A `/dualrag review` comment by a GitLab user without the access level (not a member: 404)."""
    gl = platforms.gitlab
    mr = next(m for m in platforms.mrs.values() if hasattr(m, "diff_notes"))
    comment = gl.human_note(mr, "/dualrag review", author="visitor")  # written on the MR, then delivered
    writes = gl.writes()
    worker = procs.worker()
    procs.ready([worker])
    before = len(procs.log_lines())
    path, body, headers = request("gitlab", gl.note_hook(mr, comment), event="Note Hook")
    answer = http.post(path, content=body, headers=headers).json()
    mark = f"note {comment['id']}"
    wait_for(lambda: any(mark in line for line in procs.log_lines()[before:]), 120, "the command's log line")
    wait_for(lambda: drained(client), 120, "the queue to drain")
    procs.stop(worker)
    line = next(line for line in procs.log_lines()[before:] if mark in line and "dualrag worker:" in line)
    return {"answer": answer.get("status"), "writes": gl.writes() - writes, "line": line}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mrs", type=int, default=50)
    parser.add_argument("--deliveries", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--drain-jobs", type=int, default=20)
    parser.add_argument("--latency", type=float, default=1.0, help="LLM double's seconds per request")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--keep", help="keep the logs in this folder")
    parser.add_argument("--unified-diffs", action="store_true",
                        help="GitLab sends each file's diff under ---/+++ lines (unidiff=true, the documented examples)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(args.keep or tempfile.mkdtemp(prefix="dualrag-service-load-"))
    (work / "logs").mkdir(parents=True, exist_ok=True)
    redis_srv = RedisServer().start()
    # every reviewer answers one finding on the hard-coded password line: one comment per MR to keep
    llm = TimedLLM(args.latency, answer={"findings": [{
        "path": "src/App.java", "line": 3, "severity": "warning", "category": "security",
        "title": "Hard-coded password", "message": "A password literal sits in the code."}]}).start()
    platforms = Platforms(args.mrs, args.unified_diffs)
    config = write_config(work / "service.toml", redis_srv.url, platforms.gitlab.url, platforms.github.url,
                          llm.base_url, heartbeat_s=5.0, llm_in_flight=4)
    procs = Procs(config, work / "store", work / "logs")
    client = redis.Redis.from_url(redis_srv.url)
    port = free_port()
    try:
        procs.start("serve", "--port", str(port))
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        wait_for(lambda: _up(http), 60, "dualrag serve")
        load = load_phase(args, http, client, procs, platforms, rng)
        one, serial = drain_phase(1, args.drain_jobs, http, client, procs, platforms, 50_000)
        two, serial = drain_phase(2, args.drain_jobs, http, client, procs, platforms, serial)
        command = command_phase(http, client, procs, platforms)
        metrics = http.get("/metrics").text
    finally:
        procs.close()
        llm.stop()
        platforms.close()
        redis_srv.stop()
    report(args, load, one, two, command, llm, metrics, work)
    return 0


def _up(http: httpx.Client) -> bool:
    try:
        return http.get("/healthz").status_code == 200
    except httpx.HTTPError:
        return False


def report(args, load, one, two, command, llm, metrics, work) -> None:
    kinds: dict[str, int] = {}
    for e in load["events"]:
        kinds[e[1]] = kinds.get(e[1], 0) + 1
    lat = [x * 1000 for x in load["latencies"]]
    s = load["stats"]
    print(f"service load: {len(load['events'])} deliveries in {load['sent_s']:.1f} s over {args.mrs} MRs "
          f"({args.mrs // 2 + args.mrs % 2} GitLab, {args.mrs // 2} GitHub): " + ", ".join(f"{v} {k}" for k, v in
                                                                                         sorted(kinds.items())))
    print("  answers: " + ", ".join(f"{v} {k}" for k, v in sorted(load["answers"].items())))
    print(f"  webhook response: p50 {statistics.median(lat):.1f} ms · p99 {pct(lat, 0.99):.1f} ms · "
          f"max {max(lat):.1f} ms  (floor p99 < 100 ms: {verdict(pct(lat, 0.99) < 100)})")
    print(f"  bad signatures: {sum(1 for c in load['bad_codes'] if c == 401)}/{len(load['bad_codes'])} answered 401, "
          f"{load['bad_jobs']} job(s) from them  (floor: all 401, 0 jobs: "
          f"{verdict(all(c == 401 for c in load['bad_codes']) and load['bad_jobs'] == 0)})")
    k = load["killed"]
    print(f"  SIGKILL of a worker at {k.get('at', 0):.1f} s with {k.get('in_flight', '?')} job(s) in flight; "
          f"replaced; queue drained {load['drain_s']:.1f} s after the first delivery")
    orphans = k.get("orphans", [])
    print(f"  jobs the killed worker held: {len(orphans)} ({'; '.join(orphans) or '-'}); finished by another worker: "
          f"{len(k.get('retried', []))}  (floor: 0 lost)")
    reviewed, superseded = int(s.get("jobs:reviewed", 0)), int(s.get("jobs:superseded", 0))
    print(f"  jobs: {reviewed} reviewed and published, {superseded} superseded (skipped or not published), "
          f"{int(s.get('jobs:failed', 0))} failed attempt(s), "
          f"{int(s.get('jobs:dead_lettered', 0))} dead-lettered")
    zero = not (load["twice"] or load["lost"] or load["stale_writes"] or load["duplicate_comments"]
                or load["extra_summaries"])
    print(f"  (MR, head) published more than once: {len(load['twice'])}  ·  MRs whose last head was never published "
          f"(lost): {len(load['lost'])}  ·  writes for a head that was no longer the MR's head: "
          f"{load['stale_writes']}  "
          f"·  duplicate comments: {load['duplicate_comments']}  ·  extra summaries: {load['extra_summaries']}  "
          f"(floor: 0 each: {verdict(zero)})")
    print(f"drain of {args.drain_jobs} jobs, LLM double at {args.latency:.1f} s a request: 1 worker (baseline) "
          f"{one:.1f} s · 2 workers {two:.1f} s · ratio {one / two:.2f}x  (floor >= 1.8x: {verdict(one / two >= 1.8)})")
    print(f"  LLM requests served {llm.served}, most in flight at once {llm.peak} (cap [service] llm_in_flight = 4)")
    print(f"command below the access level: webhook {command['answer']}; {command['writes']} write(s) on the MR; "
          f"service log: {command['line'].strip()}")
    families = sorted({m.group(1) for m in re.finditer(r"^# TYPE (\S+)", metrics, re.MULTILINE)})
    print(f"/metrics families: {', '.join(families)}")
    print(f"logs: {work / 'logs'}")


if __name__ == "__main__":
    sys.exit(main())
