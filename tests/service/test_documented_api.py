"""The real service (webhook app, Redis queue, worker, pipeline, adapters) against the GitLab and
GitHub doubles written from the platforms' API documentation (dualrag/testing/gitlab_api.py,
github_api.py), not from what dualrag calls."""

from __future__ import annotations

import pytest
import redis
from service_support import SECRETS, deliver, service_values
from starlette.testclient import TestClient

from dualrag.config import load_settings
from dualrag.service.app import create_app
from dualrag.service.worker import work
from dualrag.testing.github_api import GitHubDouble
from dualrag.testing.gitlab_api import GitLabDouble
from dualrag.testing.timed_llm import TimedLLM

DIFF = (
    "diff --git a/src/App.java b/src/App.java\nindex 1111111..2222222 100644\n--- a/src/App.java\n+++ b/src/App.java\n"
    "@@ -1,5 +1,6 @@\n class App {\n-  int a;\n+  int b;\n+  String pw = \"secret\";\n   void run() {\n"
    "     call();\n   }\n"
    "diff --git a/src/Util.java b/src/Util.java\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n"
    "+++ b/src/Util.java\n@@ -0,0 +1,3 @@\n+class Util {\n+  static int x = 1;\n+}\n"
)
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
    return answers, done, logged


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
