"""Workers on a real Redis against the loopback GitLab, GitHub and LLM: one review per head,
superseded heads never published, a worker killed mid-review leaves its job to another, failed
jobs in the dead-letter list, the cap on LLM requests in flight, the metrics."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families
from service_support import SECRETS, deliver, github_pr_event, gitlab_mr_hook, service_settings, write_config
from starlette.testclient import TestClient
from vcs_fakes import FakeGitHub, FakeGitLab
from vcs_support import DIFF, DIFF2, GH_TOKEN, TOKEN

from dualrag.service.app import create_app
from dualrag.service.status import queue_status
from dualrag.service.worker import work
from dualrag.testing.timed_llm import TimedLLM

HEAD1, HEAD2 = "a1" * 20, "b2" * 20


@pytest.fixture
def world(redis_url, tmp_path, monkeypatch):
    """A GitLab MR and a GitHub PR at HEAD1, an LLM double, tokens in the environment."""
    for name, value in {"DUALRAG_GITLAB_TOKEN": TOKEN, "DUALRAG_GITHUB_TOKEN": GH_TOKEN,
                        "OPENAI_API_KEY": "test-key"}.items():
        monkeypatch.setenv(name, value)
    gl = FakeGitLab(TOKEN, diff=DIFF, head_sha=HEAD1)
    gh = FakeGitHub(GH_TOKEN, diff=DIFF, head_sha=HEAD1)
    llm = TimedLLM(0.3).start()
    kw = {"gitlab_url": gl.url, "github_url": gh.url, "llm_url": llm.base_url}
    yield World(redis_url, tmp_path, gl, gh, llm, kw)
    llm.stop()
    gl.close()
    gh.close()


class World:
    def __init__(self, redis_url, tmp_path, gl, gh, llm, kw):
        self.redis_url, self.tmp, self.gl, self.gh, self.llm, self.kw = redis_url, tmp_path, gl, gh, llm, kw
        self.client = redis.Redis.from_url(redis_url)

    def settings(self, **service):
        return service_settings(self.redis_url, self.tmp / "store", **self.kw, **service)

    def http(self, **service):
        return TestClient(create_app(self.settings(**service), SECRETS, self.client))

    def work(self, threads: int = 1, **service) -> int:
        return work(self.settings(**service), self.client, threads=threads, burst=True, poll_s=0.1,
                    log=lambda line: None)

    def stats(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self.client.hgetall("reviews:stats").items()}


def heads_written(gl: FakeGitLab) -> set[str]:
    """Head commits named in what dualrag wrote on the MR (comments and summary carry it)."""
    bodies = [n["body"] for d in gl.discussions for n in d["notes"]]
    return {h for h in (HEAD1, HEAD2) if any(h[:12] in b or h in b for b in bodies)}


def test_a_review_job_publishes_once_and_a_redelivery_writes_nothing(world):
    with world.http() as http:
        assert deliver(http, "gitlab", gitlab_mr_hook(HEAD1)).json()["status"] == "queued"
        assert world.work() == 1
        assert len(world.gl.summary_notes()) == 1 and heads_written(world.gl) == {HEAD1}
        writes = world.gl.writes()
        assert deliver(http, "gitlab", gitlab_mr_hook(HEAD1)).json()["status"] == "duplicate"
        assert world.work() == 0 and world.gl.writes() == writes
        metrics = {m.name: m for m in text_string_to_metric_families(http.get("/metrics").text)}
    jobs = {s.labels["outcome"]: s.value for s in metrics["dualrag_jobs"].samples if s.name.endswith("_total")}
    assert jobs["queued"] == 1 and jobs["duplicate"] == 1 and jobs["reviewed"] == 1
    count = next(s.value for s in metrics["dualrag_review_seconds"].samples if s.name.endswith("_count"))
    tokens = {s.labels["direction"]: s.value for s in metrics["dualrag_llm_tokens"].samples}
    assert count == 1 and tokens["input"] == 1000 * world.llm.served and tokens["output"] == 20 * world.llm.served
    gauges = {"dualrag_queue_depth", "dualrag_jobs_in_flight", "dualrag_dead_letters", "dualrag_llm_cost_usd"}
    assert gauges <= set(metrics)


def test_a_newer_push_supersedes_before_and_during_the_review(world):
    world.llm.latency_s = 1.5
    with world.http() as http:
        # before: HEAD1 queued, HEAD2 pushed before any worker ran -> HEAD1 never reaches the model
        deliver(http, "github", github_pr_event(HEAD1, updated_at="2026-12-01T10:00:00Z"))
        world.gh.set_diff(DIFF2, HEAD2)
        deliver(http, "github", github_pr_event(HEAD2, updated_at="2026-12-01T10:01:00Z"))
        # during: HEAD1 is being reviewed when HEAD2 is pushed -> reviewed, not published
        deliver(http, "gitlab", gitlab_mr_hook(HEAD1, updated_at="2026-12-01 10:00:00 UTC"))

        def push_mid_review():
            assert world.llm.started.wait(60)
            world.gl.set_diff(DIFF2, HEAD2)
            deliver(http, "gitlab", gitlab_mr_hook(HEAD2, updated_at="2026-12-01 10:02:00 UTC"))

        pusher = threading.Thread(target=push_mid_review)
        pusher.start()
        world.work()
        pusher.join()
    assert heads_written(world.gl) == {HEAD2} and len(world.gl.summary_notes()) == 1
    github_bodies = [c["body"] for c in world.gh.issue_comments + world.gh.comments]
    github_bodies += [r["body"] for r in world.gh.reviews]
    assert github_bodies and not any(HEAD1[:12] in b for b in github_bodies)
    stats = world.stats()
    assert stats["jobs:superseded"] == "2" and stats["jobs:reviewed"] == "2", stats


@pytest.mark.parametrize("cap", [1, 2])
def test_llm_requests_in_flight_never_exceed_the_cap(world, cap):
    world.llm.latency_s = 1.0
    with world.http() as http:
        deliver(http, "gitlab", gitlab_mr_hook(HEAD1))
        deliver(http, "github", github_pr_event(HEAD1))
    assert world.work(threads=2, llm_in_flight=cap) == 2
    assert world.llm.served >= 2 and world.llm.peak == cap  # with 2 the two reviews do overlap


def test_failed_jobs_land_in_the_dead_letter_list_shown_by_status(world, tmp_path, capsys):
    from dualrag.cli import main

    world.gl.mr_exists = False  # 404: dead-lettered at once, no retry
    world.gh.fault("GET", r"/pulls/5$", 400, times=5)  # a refusal: retried max_retries (0) times, then dead
    with world.http() as http:
        deliver(http, "gitlab", gitlab_mr_hook(HEAD1))
        deliver(http, "github", github_pr_event(HEAD1))
    world.work()
    config = write_config(tmp_path / "service.toml", world.redis_url, **world.kw)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "status", "--config", str(config)])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert "0 waiting" in out and "2 dead letter(s)" in out, out
    lines = {line.split(": ", 1)[0].split("UTC  ")[-1]: line for line in out.splitlines() if "dead 20" in line}
    gitlab_line = lines["gitlab 42!7 head a1a1a1a1a1a1"]
    assert "not_found · GET /api/v4/projects/42/merge_requests/7 · HTTP 404" in gitlab_line, out
    github_line = lines["github acme/shop!5 head a1a1a1a1a1a1"]
    assert "platform · GET /repos/acme/shop/pulls/5 · HTTP 400" in github_line, out
    assert "1 failed attempt(s)" in github_line, out
    stats = world.stats()
    assert stats["jobs:dead_lettered"] == "2" and stats["dead:not_found"] == "1" and stats["dead:platform"] == "1"


def test_a_worker_killed_mid_review_leaves_the_job_to_another(world, tmp_path):
    world.llm.latency_s = 30.0  # the first worker is still waiting for the model when it is killed
    with world.http() as http:
        deliver(http, "gitlab", gitlab_mr_hook(HEAD1))
    config = write_config(tmp_path / "service.toml", world.redis_url, **world.kw)
    env = {k: v for k, v in os.environ.items() if k != "DUALRAG_GITHUB_TOKEN"}  # a GitLab job: its token only
    env["PYTHONUNBUFFERED"] = "1"
    first = subprocess.Popen([sys.executable, "-m", "dualrag", "worker", "--config", str(config),
                              "--store", str(tmp_path / "store")], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert world.llm.started.wait(90), first.stderr.read1().decode() if first.poll() is not None else "no request"
        assert queue_status(world.client, "reviews").in_flight == 1
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    world.llm.latency_s = 0.2
    assert world.gl.writes() == 0  # killed before publishing anything
    started = time.monotonic()
    assert world.work() == 1  # the job comes back once the dead worker's heartbeat is 2 s old
    assert time.monotonic() - started < 30
    assert len(world.gl.summary_notes()) == 1 and heads_written(world.gl) == {HEAD1}
    st = queue_status(world.client, "reviews")
    assert (st.waiting, st.in_flight, st.dead_total) == (0, 0, 0)
    assert world.stats()["jobs:reviewed"] == "1"


def gitlab_note(server: FakeGitLab, author: str, body: str) -> dict:
    """A comment written on the fake MR, and the Note Hook GitLab sends for it."""
    note = server.human_note(body, author=author)
    discussion = next(d for d in server.discussions if d["notes"][0] is note)
    return {"object_kind": "note", "event_type": "note", "user": note["author"],
            "project": {"id": 42, "path_with_namespace": "acme/shop"}, "merge_request": {"iid": 7},
            "object_attributes": {"id": note["id"], "note": body, "noteable_type": "MergeRequest", "action": "create",
                                  "author_id": note["author"]["id"], "discussion_id": discussion["id"]}}


def test_a_review_command_from_a_developer_reruns_the_head_and_a_visitor_is_ignored(world):
    logged: list[str] = []
    world.gl.access["dana"] = 30  # Developer
    with world.http() as http:
        assert deliver(http, "gitlab", gitlab_mr_hook(HEAD1)).json()["status"] == "queued"
        work(world.settings(), world.client, burst=True, poll_s=0.1, log=logged.append)
        served = world.llm.served
        note = gitlab_note(world.gl, "visitor", "/dualrag review")
        writes = world.gl.writes()
        assert deliver(http, "gitlab", note, event="Note Hook").json()["status"] == "queued"
        work(world.settings(), world.client, burst=True, poll_s=0.1, log=logged.append)
        assert world.gl.writes() == writes and world.llm.served == served  # ignored: nothing written, no review
        visitor = note["object_attributes"]["id"]
        assert any(f"note {visitor}" in line and "visitor" in line and "ignored" in line for line in logged), logged
        note = gitlab_note(world.gl, "dana", "/dualrag review")
        assert deliver(http, "gitlab", note, event="Note Hook").json()["status"] == "queued"
        assert deliver(http, "gitlab", note, event="Note Hook").json()["status"] == "duplicate"
        work(world.settings(), world.client, burst=True, poll_s=0.1, log=logged.append)
    assert world.llm.served == served + 1  # the forced review of the same head ran, once
    assert any(f"head {HEAD1[:12]} (forced)" in line and "decision" in line for line in logged), logged
    assert len(world.gl.summary_notes()) == 1
