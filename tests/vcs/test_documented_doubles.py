"""The VCS stage against the doubles written from GitLab's and GitHub's documentation
(dualrag/testing/gitlab_api.py, github_api.py): their pagination defaults, namespaced project
paths and position rules, read and answered by the real adapters."""

from __future__ import annotations

import httpx
from vcs_support import DIFF, FAR, PW, FixedReviewer

from dualrag.testing.github_api import GitHubDouble
from dualrag.testing.gitlab_api import GitLabDouble
from dualrag.vcs.github import GitHubAdapter, GitHubTarget
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget
from dualrag.vcs.stage import run_stage

GL, GH, HEAD = "glpat-doc-0123456789", "github_pat_doc_0123456789", "c3" * 20


def test_gitlab_by_namespaced_path_with_threads_over_several_pages(settings):
    with GitLabDouble() as gl:
        gl.add_token(GL, "dualrag-bot")
        project = gl.add_project(42, "acme/shop", members={"dualrag-bot": 30, "dev": 30})
        mr = gl.open_merge_request(project, 7, author="dev", diff=DIFF, head=HEAD)
        for i in range(130):  # more than one page of 100, the most a page holds
            gl.human_note(mr, f"comment {i}", author="dev")
        adapter = GitLabAdapter(GitLabTarget(gl.url, "acme/shop", 7), GL)
        _, result = run_stage(adapter, FixedReviewer(DIFF, [PW, FAR]), settings)
        assert len(gl.calls("GET", r"/merge_requests/7/discussions$")) == 2  # page 1 (100), page 2 (31)
        assert gl.log[0][1] == "/api/v4/projects/acme/shop/merge_requests/7"  # %2F kept one segment
        # PW is on an added line: posted as one (new_line alone); FAR is outside the diff: in the summary
        assert result.posted == 1 and result.unanchored == ["src/App.java:40"]
        assert [(n["position"]["new_line"], n["position"]["old_line"]) for n in mr.diff_notes()] == [(3, None)]
        # discussions.md: an added line is named by new_line alone; with an old_line GitLab cannot map it
        position = {**mr.diff_notes()[0]["position"], "old_line": 2}
        refused = httpx.post(f"{gl.url}/api/v4/projects/42/merge_requests/7/discussions", headers={"PRIVATE-TOKEN": GL},
                             json={"body": "x", "position": position})
        assert refused.status_code == 400 and "line_code" in refused.json()["message"]


def test_github_files_past_the_default_page(settings):
    files = "".join(f"diff --git a/f{i}.txt b/f{i}.txt\nnew file mode 100644\n--- /dev/null\n+++ b/f{i}.txt\n"
                    f"@@ -0,0 +1 @@\n+line {i}\n" for i in range(130))
    with GitHubDouble() as gh:
        gh.add_token(GH, "github-actions[bot]", pull_requests="write", contents="read")
        repo = gh.add_repository("acme/shop")
        gh.open_pull_request(repo, 5, author="dev", diff=files, head=HEAD)
        adapter = GitHubAdapter(GitHubTarget(gh.url, "acme/shop", 5), GH, bot="github-actions[bot]")
        diff = adapter.diff().decode()
        assert diff.count("diff --git ") == 130 and "+line 129\n" in diff
        assert len(gh.calls("GET", r"/pulls/5/files$")) == 2  # Link rel="next" followed once


def test_github_review_with_comments_and_its_own_author():
    """pulls/reviews.md: a review's `comments` land on the diff or the review is refused; nobody
    approves their own pull request."""
    with GitHubDouble() as gh:
        gh.add_token(GH, "dev", pull_requests="write")
        repo = gh.add_repository("acme/shop")
        pr = gh.open_pull_request(repo, 5, author="dev", diff=DIFF, head=HEAD)
        post = lambda body: httpx.post(f"{gh.url}/repos/acme/shop/pulls/5/reviews", json=body,
                                       headers={"Authorization": f"Bearer {GH}"})
        off_diff = post({"event": "COMMENT", "body": "b", "comments": [{"path": "src/App.java", "line": 40, "body": "x"}]})
        own = post({"event": "APPROVE"})
        ok = post({"event": "COMMENT", "body": "b", "comments": [{"path": "src/App.java", "line": 3, "body": "x"}]})
        assert (off_diff.status_code, own.status_code, ok.status_code) == (422, 422, 200)
        assert own.json()["errors"] == ["Can not approve your own pull request"]
        assert [(c["line"], c["pull_request_review_id"]) for c in pr.review_comments] == [(3, ok.json()["id"])]
