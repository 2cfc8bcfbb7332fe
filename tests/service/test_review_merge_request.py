"""`pipeline.review_merge_request`, the one call the CI stage and the service's worker share."""

from __future__ import annotations

from vcs_fakes import FakeGitLab
from vcs_support import DIFF, PW, TOKEN, FixedReviewer

from dualrag.config import load_settings
from dualrag.pipeline import review_merge_request
from dualrag.review.model import Decision
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget


def adapter(server: FakeGitLab) -> GitLabAdapter:
    return GitLabAdapter(GitLabTarget(server.url, server.project, server.iid), TOKEN)


def test_publishes_and_returns_what_it_reviewed():
    server = FakeGitLab(TOKEN, diff=DIFF)
    try:
        a = adapter(server)
        run = review_merge_request(a, load_settings(None), review_fn=FixedReviewer(DIFF, [PW], Decision.MINOR_ISSUES))
        assert not run.superseded and run.result.posted == 1 and run.result.summary == "created"
        assert run.changes is not None and [f.path for f in run.changes.files] == ["src/App.java", "src/Util.java"]
        again = review_merge_request(adapter(server), load_settings(None),
                                     review_fn=FixedReviewer(DIFF, [PW], Decision.MINOR_ISSUES))
        assert again.result.posted == 0 and again.result.kept == 1
    finally:
        server.close()


def test_a_superseded_head_is_reviewed_but_nothing_is_published():
    server = FakeGitLab(TOKEN, diff=DIFF)
    try:
        asked = []
        run = review_merge_request(adapter(server), load_settings(None),
                                   review_fn=FixedReviewer(DIFF, [PW], Decision.MINOR_ISSUES),
                                   still_current=lambda: asked.append(1) or False)
        assert run.superseded and run.result is None and run.review.findings and asked == [1]
        assert server.writes() == 0 and "superseded" in run.notes[-1]
    finally:
        server.close()
