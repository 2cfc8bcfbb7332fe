"""The review service under load: the floors of issue 29, measured on real processes.

    .venv/bin/python -m scripts.bench.service_load [--mrs 50] [--deliveries 300] [--seconds 10]
                                                   [--drain-jobs 20] [--latency 1.0] [--unified-diffs]

Started here, all on 127.0.0.1: a real redis-server (Debian's package), `dualrag serve` (uvicorn)
and `dualrag worker` processes, the loopback GitLab and GitHub doubles written from the platforms' API
documentation (dualrag/testing/gitlab_api.py, github_api.py) and an LLM double answering after a fixed latency.
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
import hashlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import redis

from dualrag.service.status import queue_status
from dualrag.service.verify import github_signature
from dualrag.testing.github_api import GitHubDouble
from dualrag.testing.gitlab_api import GitLabDouble
from dualrag.testing.redis import RedisServer, free_port
from dualrag.testing.timed_llm import TimedLLM

GL_SECRET, GH_SECRET = "load-gitlab-secret", "load-github-secret"
QUEUE = "load"


# ------------------------------------------------------------------------------ platform doubles

# one finding to keep per MR: the LLM double reports the password line
DIFF = ("diff --git a/src/App.java b/src/App.java\n--- a/src/App.java\n+++ b/src/App.java\n@@ -1,5 +1,6 @@\n"
        " class App {\n-  int a;\n+  int b;\n+  String pw = \"secret\";\n   void run() {\n     call();\n   }\n")
TOKEN, GH_TOKEN, BOT = "glpat-load-0123456789", "github_pat_load_0123456789", "github-actions[bot]"


class Platforms:
    """The documented-API doubles (dualrag/testing/gitlab_api.py, github_api.py), one merge request
    per GitLab project / GitHub repository, opened by its first push."""

    def __init__(self, mrs: int, unified_diffs: bool = False) -> None:
        self.gitlab, self.github = GitLabDouble(unified_diffs=unified_diffs), GitHubDouble()
        self.gitlab.add_token(TOKEN, "dualrag-bot", scopes=("api",))
        self.github.add_token(GH_TOKEN, BOT, pull_requests="write", contents="read")
        self.targets: list[tuple[str, str, int]] = []
        self.mrs: dict[str, object] = {}
        self.heads: dict[str, set[str]] = {}  # every head each MR has had
        for i in range(mrs):
            if i % 2 == 0:
                self.gitlab.add_project(100 + i, f"group/project-{100 + i}", members={"dualrag-bot": 30, "dev": 30})
                self.targets.append(("gitlab", str(100 + i), 1))
            else:
                self.github.add_repository(f"acme/r{i}", collaborators={"dev": "write"})
                self.targets.append(("github", f"acme/r{i}", 1))

    def push(self, platform: str, repo: str, head: str) -> None:
        self.heads.setdefault(repo, set()).add(head)
        mr = self.mrs.get(repo)
        double = self.gitlab if platform == "gitlab" else self.github
        if mr is not None:
            double.push(mr, DIFF, head)
        elif platform == "gitlab":
            self.mrs[repo] = double.open_merge_request(double.projects[int(repo)], 1, author="dev", diff=DIFF, head=head)
        else:
            self.mrs[repo] = double.open_pull_request(double.repos[repo], 1, author="dev", diff=DIFF, head=head)

    def stale_writes(self) -> list[str]:
        """Writes whose text names a head of their MR other than its head at that moment."""
        out = []
        for double in (self.gitlab, self.github):
            for w in double.write_log:
                repo = str(w["mr"][0])
                out += [f"{repo} {h[:12]} (head {w['head'][:12]})" for h in self.heads[repo] - {w["head"]}
                        if h[:12] in w["body"]]
        return out

    def duplicates(self) -> tuple[int, int]:
        """(finding comments posted twice, summaries beyond one per MR)."""
        duplicates = summaries = 0
        for mr in self.mrs.values():
            if hasattr(mr, "diff_notes"):
                bodies, notes = [n["body"] for n in mr.diff_notes()], mr.notes()
            else:
                bodies, notes = [c["body"] for c in mr.roots()], mr.issue_comments
            summaries += max(0, sum("dualrag:summary" in n["body"] for n in notes) - 1)
            fps = [m.group(1) for b in bodies for m in [re.search(r"dualrag:finding fp=(\S+)", b)] if m]
            duplicates += len(fps) - len(set(fps))
        return duplicates, summaries

    def close(self) -> None:
        self.gitlab.close()
        self.github.close()


# ------------------------------------------------------------------------------ deliveries


def sha(n: int) -> str:
    return hashlib.sha1(str(n).encode()).hexdigest()


def stamp(platform: str, seconds: int) -> str:
    t = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1_780_000_000 + seconds))
    return t.replace("T", " ") + " UTC" if platform == "gitlab" else t + "Z"


def payload(platform: str, repo: str, mr: int, head: str, at: int) -> dict:
    if platform == "gitlab":
        return {"object_kind": "merge_request", "project": {"id": int(repo)},
                "object_attributes": {"iid": mr, "action": "update", "oldrev": "0" * 40, "state": "opened",
                                      "updated_at": stamp(platform, at), "last_commit": {"id": head}}}
    return {"action": "synchronize", "repository": {"full_name": repo},
            "pull_request": {"number": mr, "state": "open", "updated_at": stamp(platform, at),
                             "head": {"sha": head}, "base": {"sha": "b" * 40}}}


def request(platform: str, body: dict, *, bad: bool = False, event: str | None = None) -> tuple[str, bytes, dict]:
    data = json.dumps(body).encode()
    if platform == "gitlab":
        headers = {"X-Gitlab-Event": event or "Merge Request Hook",
                   "X-Gitlab-Token": "not-the-secret" if bad else GL_SECRET}
    else:
        headers = {"X-GitHub-Event": event or "pull_request",
                   "X-Hub-Signature-256": github_signature(data, "not-the-secret" if bad else GH_SECRET)}
    return f"/webhooks/{platform}", data, {**headers, "Content-Type": "application/json"}


def plan(targets: list[tuple[str, str, int]], total: int, seconds: float, rng: random.Random):
    """(time, kind, platform, repo, mr, head, push?) deliveries: each MR opens with its first head;
    later pushes (a new head on the platform, then its delivery); redeliveries of a delivery
    already sent; older pushes delivered late (after the newer one); bad signatures."""
    events, serial = [], 0
    bursts = [i * seconds / 5 for i in range(5)]
    heads: dict[str, list[tuple[str, int]]] = {}
    for platform, repo, mr in targets:
        serial += 1
        h = sha(serial)
        heads[repo] = [(h, 0)]
        events.append([bursts[0] + rng.random() * 0.5, "push", platform, repo, mr, h, 0])
    for burst in bursts[1:]:
        for platform, repo, mr in rng.sample(targets, k=len(targets) // 3):
            serial += 1
            h = sha(serial)
            at = len(heads[repo]) * 60
            heads[repo].append((h, at))
            events.append([burst + rng.random() * 0.5, "push", platform, repo, mr, h, at])
    sent = [e for e in events]
    while len(events) < total:
        roll = rng.random()
        t = rng.random() * seconds
        platform, repo, mr = rng.choice(targets)
        if roll < 0.55:  # a redelivery of something already announced
            e = rng.choice(sent)
            events.append([max(t, e[0] + 0.05), "redeliver", *e[2:]])
        elif roll < 0.85 and len(heads[repo]) > 1:  # an older push delivered late
            h, at = rng.choice(heads[repo][:-1])
            last = max(e[0] for e in sent if e[3] == repo)
            events.append([last + 0.1 + rng.random() * 0.5, "late", platform, repo, mr, h, at])
        else:
            events.append([t, "bad", platform, repo, mr, sha(10_000 + len(events)), 0])
    events.sort(key=lambda e: e[0])
    return events, heads


# ------------------------------------------------------------------------------ processes


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


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


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
          f"max {max(lat):.1f} ms  (floor p99 < 100 ms)")
    print(f"  bad signatures: {sum(1 for c in load['bad_codes'] if c == 401)}/{len(load['bad_codes'])} answered 401, "
          f"{load['bad_jobs']} job(s) from them  (floor: all 401, 0 jobs)")
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
    print(f"  (MR, head) published more than once: {len(load['twice'])}  ·  MRs whose last head was never published "
          f"(lost): {len(load['lost'])}  ·  writes for a head that was no longer the MR's head: "
          f"{load['stale_writes']}  "
          f"·  duplicate comments: {load['duplicate_comments']}  ·  extra summaries: {load['extra_summaries']}  "
          "(floor: 0 each)")
    print(f"drain of {args.drain_jobs} jobs, LLM double at {args.latency:.1f} s a request: 1 worker (baseline) "
          f"{one:.1f} s · 2 workers {two:.1f} s · ratio {one / two:.2f}x  (floor >= 1.8x)")
    print(f"  LLM requests served {llm.served}, most in flight at once {llm.peak} (cap [service] llm_in_flight = 4)")
    print(f"command below the access level: webhook {command['answer']}; {command['writes']} write(s) on the MR; "
          f"service log: {command['line'].strip()}")
    families = sorted({m.group(1) for m in re.finditer(r"^# TYPE (\S+)", metrics, re.MULTILINE)})
    print(f"/metrics families: {', '.join(families)}")
    print(f"logs: {work / 'logs'}")


if __name__ == "__main__":
    sys.exit(main())
