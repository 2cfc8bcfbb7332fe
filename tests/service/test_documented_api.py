"""The real service (webhook app, Redis queue, worker, pipeline, adapters) against the GitLab and
GitHub doubles written from the platforms' API documentation (dualrag/testing/gitlab_api.py,
github_api.py), not from what dualrag calls."""

from __future__ import annotations

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families
from service_support import SECRETS, deliver, service_values, write_config
from starlette.testclient import TestClient
from vcs_support import DIFF

from dualrag.config import load_settings
from dualrag.service.app import create_app
from dualrag.service.worker import work
from tests.cli_run import run_cli
from dualrag.testing.github_api import GitHubDouble
from dualrag.testing.gitlab_api import GitLabDouble
from dualrag.testing.timed_llm import TimedLLM

HEAD = "a1" * 20
GL_TOKEN, GH_TOKEN = "glpat-documented-0123456789", "github_pat_documented_0123456789"
FINDING = {"findings": [{"path": "src/App.java", "line": 3, "severity": "warning", "category": "security",
                         "title": "Hard-coded password", "message": "A password literal sits in the code."}]}


@pytest.fixture
def llm():
    with TimedLLM(0.05, answer=FINDING) as server:
        yield server


@pytest.fixture(params=["hunks", "unified"])
def gitlab(monkeypatch, request):
    monkeypatch.setenv("DUALRAG_GITLAB_TOKEN", GL_TOKEN)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with GitLabDouble(unified_diffs=request.param == "unified") as gl:
        gl.add_token(GL_TOKEN, "dualrag-bot", scopes=("api",))
        project = gl.add_project(42, "acme/shop", members={"dualrag-bot": 30, "dev": 30})
        gl.mr = gl.open_merge_request(project, 7, author="dev", diff=DIFF, head=HEAD)
        yield gl


@pytest.fixture
def github(monkeypatch):
    monkeypatch.setenv("DUALRAG_GITHUB_TOKEN", GH_TOKEN)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with GitHubDouble() as gh:
        gh.add_token(GH_TOKEN, "github-actions[bot]", pull_requests="write", contents="read")
        repo = gh.add_repository("acme/shop", collaborators={"dev": "write"})
        gh.pr = gh.open_pull_request(repo, 5, author="dev", diff=DIFF, head=HEAD)
        yield gh


def run_service(redis_url, tmp_path, llm, deliveries, **urls):
    client = redis.Redis.from_url(redis_url)
    values = service_values(redis_url, llm_url=llm.base_url, **urls)
    values["review"]["reverse_check"] = False  # the LLM double answers findings, not the reverse check's verdict
    settings = load_settings(None, store=tmp_path / "store", **values)
    logged: list[str] = []
    with TestClient(create_app(settings, SECRETS, client)) as http:
        answers = [deliver(http, platform, payload).json()["status"] for platform, payload in deliveries]
        done = work(settings, client, burst=True, poll_s=0.1, log=logged.append)
        run_service.metrics = http.get("/metrics").text
    return answers, done, logged


def dead_lettered(metrics: str) -> dict[str, float]:
    family = next(f for f in text_string_to_metric_families(metrics) if f.name == "dualrag_dead_lettered")
    return {s.labels["reason"]: s.value for s in family.samples if s.name.endswith("_total")}


def status_lines(redis_url, tmp_path, capsys) -> list[str]:
    code, out, err = run_cli(["serve", "status", "--config", str(write_config(tmp_path / "s.toml", redis_url))],
                             capsys)
    assert code == 0, err
    return [line for line in out.splitlines() if " dead 20" in line]


def test_gitlab_merge_request_delivered_twice_gets_one_summary_and_its_inline_comment(redis_url, tmp_path, llm, gitlab):
    hook = gitlab.merge_request_hook(gitlab.mr, "open")
    answers, done, logged = run_service(redis_url, tmp_path, llm, [("gitlab", hook), ("gitlab", hook)],
                                        gitlab_url=gitlab.url)
    assert answers == ["queued", "duplicate"], answers
    summaries = [n for n in gitlab.mr.notes() if "dualrag:summary" in n["body"]]
    inline = gitlab.mr.diff_notes()
    assert done == 1 and len(summaries) == 1, logged
    assert [(n["position"]["new_path"], n["position"]["new_line"]) for n in inline] == [("src/App.java", 3)], logged



def test_github_pull_request_delivered_twice_gets_one_summary_and_its_inline_comment(redis_url, tmp_path, llm, github):
    event = github.pull_request_event(github.pr, "opened")
    answers, done, logged = run_service(redis_url, tmp_path, llm, [("github", event), ("github", event)],
                                        github_url=github.url)
    assert answers == ["queued", "duplicate"], answers
    summaries = [c for c in github.pr.issue_comments if "dualrag:summary" in c["body"]]
    assert done == 1 and len(summaries) == 1, logged
    assert [(c["path"], c["line"], c["side"]) for c in github.pr.review_comments] == [("src/App.java", 3, "RIGHT")]


def test_a_token_without_the_write_scope_is_dead_lettered_with_its_reason(redis_url, tmp_path, llm, gitlab, capsys):
    """A `read_api` token reads the MR; GitLab refuses the first write with 403 insufficient_scope
    (rest/authentication.md). The job is not retried (a token does not grow a scope), and the
    operator sees why in `serve status`, the worker's log and /metrics."""
    gitlab.tokens[GL_TOKEN].scopes = ("read_api",)
    hook = gitlab.merge_request_hook(gitlab.mr, "open")
    _, done, logged = run_service(redis_url, tmp_path, llm, [("gitlab", hook)], gitlab_url=gitlab.url)
    assert done == 0 and gitlab.writes() == 0
    call = "POST /api/v4/projects/42/merge_requests/7/discussions · HTTP 403"
    [line] = status_lines(redis_url, tmp_path, capsys)
    assert f"gitlab 42!7 head {HEAD[:12]}: auth · {call} · the token in DUALRAG_GITLAB_TOKEN" in line, line
    assert "insufficient_scope" in line and "1 failed attempt(s)" in line, line
    assert any(f"failed: auth · {call}" in x for x in logged) and any("dead-lettered: auth" in x for x in logged), logged
    counts = dead_lettered(run_service.metrics)
    assert counts["auth"] == 1 and sum(counts.values()) == 1 and set(counts) >= {"not_found", "rate_limited", "config"}


def test_github_without_write_permission_is_dead_lettered_with_its_reason(redis_url, tmp_path, llm, github, capsys):
    github.tokens[GH_TOKEN].permissions["pull_requests"] = "read"
    event = github.pull_request_event(github.pr, "opened")
    run_service(redis_url, tmp_path, llm, [("github", event)], github_url=github.url)
    [line] = status_lines(redis_url, tmp_path, capsys)
    assert "auth · POST /repos/acme/shop/pulls/5/comments · HTTP 403" in line, line
    assert "Resource not accessible by personal access token" in line, line


def test_a_github_secondary_rate_limit_is_waited_out_not_failed(redis_url, tmp_path, llm, github):
    github.secondary_rate_limit("POST", r"/pulls/5/comments$", retry_after=1)
    event = github.pull_request_event(github.pr, "opened")
    _, done, logged = run_service(redis_url, tmp_path, llm, [("github", event)], github_url=github.url)
    assert done == 1 and len(github.pr.review_comments) == 1, logged
    assert github.calls("POST", r"/pulls/5/comments$") == [
        ("POST", "/repos/acme/shop/pulls/5/comments", 403), ("POST", "/repos/acme/shop/pulls/5/comments", 201)]


def test_a_rate_limit_longer_than_the_retry_budget_is_reported_as_such(redis_url, tmp_path, llm, gitlab, capsys):
    gitlab.throttle("GET", r"/merge_requests/7$", times=10, retry_after=3600)
    hook = gitlab.merge_request_hook(gitlab.mr, "open")
    _, done, logged = run_service(redis_url, tmp_path, llm, [("gitlab", hook)], gitlab_url=gitlab.url)
    assert done == 0
    [line] = status_lines(redis_url, tmp_path, capsys)
    assert "rate_limited · GET /api/v4/projects/42/merge_requests/7 · HTTP 429 · rate limited, retry in 3600 s" in line
    assert not any("permanent" in x for x in logged), logged  # a rate limit passes: retried (max_retries here: 0)


def test_a_gitlab_token_that_may_not_approve_still_publishes_the_review(redis_url, tmp_path, llm, gitlab, capsys):
    """merge_request_approvals.md: approving needs an eligible approver; GitLab answers 401 to
    others. The comments stand and the job is done: no dead letter for a refused approval."""
    gitlab.mr.project.members[gitlab.users["dualrag-bot"].id] = 20  # Reporter: comments, cannot approve
    llm.answer = '{"findings": []}'  # nothing found: the decision asks for an approval
    hook = gitlab.merge_request_hook(gitlab.mr, "open")
    _, done, logged = run_service(redis_url, tmp_path, llm, [("gitlab", hook)], gitlab_url=gitlab.url)
    assert done == 1 and gitlab.mr.approved_by == [], logged
    assert gitlab.calls("POST", "/approve$") == [("POST", "/api/v4/projects/42/merge_requests/7/approve", 401)]
    assert len([n for n in gitlab.mr.notes() if "dualrag:summary" in n["body"]]) == 1
    assert status_lines(redis_url, tmp_path, capsys) == []
