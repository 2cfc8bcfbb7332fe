"""The MR summary says what the change does (the walkthrough) and links the HTML report CI keeps;
a re-run of the same commit still writes nothing, however the model worded it this time."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt
from vcs_fakes import FakeGitHub, FakeGitLab
from vcs_support import DIFF, DIFF2, GH_TOKEN, PW, TOKEN, FixedReviewer

from dualrag.cli import main
from dualrag.review.model import Decision
from dualrag.vcs import markers
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget
from dualrag.vcs.http import RetryPolicy
from dualrag.vcs.render import same_summary, summary_body
from dualrag.vcs.report import report_url
from dualrag.vcs.stage import run_stage

FAST = RetryPolicy(attempts=4, budget_s=2.0, base_delay_s=0.001, max_delay_s=0.01)


class WordyReviewer(FixedReviewer):
    """A model-written walkthrough worded differently on every run, as a model does."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.runs = 0

    def __call__(self, changes, source, priors, break_glass, info=None):
        review = super().__call__(changes, source, priors, break_glass, info)
        self.runs += 1
        w = review.walkthrough
        files = [f.model_copy(update={"summary": f"Run {self.runs}: adds a [field](http://x) to {f.path}."})
                 for f in w.files]
        return review.model_copy(update={"walkthrough": w.model_copy(update={
            "source": "llm", "overview": f"Run {self.runs} says **what** it does.", "files": files})})


@pytest.fixture
def gl():
    server = FakeGitLab(TOKEN, diff=DIFF)
    yield server
    server.close()


def run(server, reviewer, settings, **kw):
    return run_stage(GitLabAdapter(GitLabTarget(server.url, server.project, server.iid), TOKEN, retry=FAST),
                     reviewer, settings, **kw)


def writes(server, since=0):
    return [(m, p) for m, p in server.log[since:] if m != "GET"]


def section(body: str) -> str:
    return body.split(markers.WALKTHROUGH, 1)[1].split(markers.WALKTHROUGH_END, 1)[0]


def test_the_summary_says_what_the_change_does(gl, settings):
    run(gl, FixedReviewer(DIFF, [PW]), settings)
    body = gl.summary_notes()[0]["body"]
    text = section(body)
    assert "### What this change does" in text and "2 files reviewed (1 added, 1 modified)" in text
    assert "- `src/App.java` (modified, +2 -1)" in text and "- `src/Util.java` (added, +3 -0)" in text
    tokens = MarkdownIt("commonmark").parse(body)
    assert "What this change does" in [t.content for t in tokens if t.type == "inline"]
    assert [t.type for t in tokens].count("bullet_list_open") == 1  # the walkthrough's list, closed before the rest
    assert not any(t.type in ("fence", "code_block") for t in tokens)


def test_a_rerun_of_the_commit_keeps_the_models_first_wording(gl, settings):
    reviewer = WordyReviewer(DIFF, [PW])
    run(gl, reviewer, settings, report_url="https://gitlab.example/acme/shop/-/jobs/1/artifacts/file/r.html")
    first = gl.summary_notes()[0]["body"]
    assert "Run 1 says" in first and "jobs/1/artifacts/file/r.html" in first
    tokens = [t for b in MarkdownIt("commonmark").parse(first) for t in (b.children or [])]
    links = [t.attrGet("href") for t in tokens if t.type == "link_open"]
    assert links == ["https://gitlab.example/acme/shop/-/jobs/1/artifacts/file/r.html"]  # ours; the model's is text
    inline = [t for b in MarkdownIt("commonmark").parse(section(first)) for t in (b.children or [])]
    assert not {t.type for t in inline} & {"strong_open", "link_open", "html_inline"}
    assert "Run 1 says **what** it does." in "".join(t.content for t in inline if t.type == "text")
    mark = len(gl.log)
    _, r = run(gl, reviewer, settings, report_url="https://gitlab.example/acme/shop/-/jobs/2/artifacts/file/r.html")
    assert writes(gl, mark) == [] and r.summary == "unchanged" and gl.summary_notes()[0]["body"] == first
    gl.set_diff(DIFF2, head_sha="e" * 40)  # a new push: the new wording is written
    run(gl, reviewer, settings)
    assert "Run 3:" in gl.summary_notes()[0]["body"] and "jobs/" not in gl.summary_notes()[0]["body"]


def test_same_summary_leaves_out_only_the_run_specific_parts(settings):
    from vcs_support import make_review

    review = make_review(DIFF, [PW])
    a = summary_body(review, head_sha="h" * 40, open_threads=1, unanchored=[], break_glass=None,
                     decision="approved", report_url="https://x/-/jobs/1/artifacts/file/r.html")
    b = summary_body(review, head_sha="h" * 40, open_threads=1, unanchored=[], break_glass=None, decision="approved")
    assert same_summary(a, b)
    assert not same_summary(a, summary_body(review, head_sha="e" * 40, open_threads=1, unanchored=[],
                                            break_glass=None, decision="approved"))
    assert not same_summary(a, summary_body(review, head_sha="h" * 40, open_threads=2, unanchored=[],
                                            break_glass=None, decision="approved"))


def test_report_links(tmp_path):
    project = tmp_path / "project"
    (project / "out").mkdir(parents=True)
    env = {"CI_JOB_URL": "https://gitlab.example/acme/shop/-/jobs/99", "CI_PROJECT_DIR": str(project)}
    assert report_url("gitlab", str(project / "out" / "dualrag report.html"), env) == (
        "https://gitlab.example/acme/shop/-/jobs/99/artifacts/file/out/dualrag%20report.html")
    assert report_url("gitlab", str(tmp_path / "elsewhere.html"), env) is None  # not an artifact of the project
    assert report_url("gitlab", "r.html", {}) is None and report_url("gitlab", None, env) is None
    gh = {"GITHUB_SERVER_URL": "https://github.example", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_RUN_ID": "123"}
    assert report_url("github", "r.html", gh) == "https://github.example/acme/shop/actions/runs/123"
    assert report_url("github", "r.html", {**gh, "GITHUB_RUN_ID": ""}) is None


def _main(args, capsys):
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def test_gitlab_review_writes_the_html_report_and_links_it(monkeypatch, capsys, tmp_path):
    server = FakeGitLab(TOKEN, diff=DIFF)
    try:
        monkeypatch.chdir(tmp_path)
        for k, v in {"CI_SERVER_URL": server.url, "CI_PROJECT_ID": server.project, "CI_MERGE_REQUEST_IID": "7",
                     "DUALRAG_GITLAB_TOKEN": TOKEN, "CI_PROJECT_DIR": str(tmp_path),
                     "CI_JOB_URL": f"{server.url}/acme/shop/-/jobs/5"}.items():
            monkeypatch.setenv(k, v)
        code, _out, err = _main(["gitlab", "review", "--html", "dualrag-report.html"], capsys)
        assert code == 0, err
        html = (tmp_path / "dualrag-report.html").read_text()
        assert "<html" in html and "src/Util.java" in html and "static int x = 1;" in html  # with the diff lines
        body = server.summary_notes()[0]["body"]
        assert f"[HTML report]({server.url}/acme/shop/-/jobs/5/artifacts/file/dualrag-report.html)" in body
    finally:
        server.close()


def test_github_review_links_the_workflow_run(monkeypatch, capsys, tmp_path):
    server = FakeGitHub(GH_TOKEN, diff=DIFF)
    try:
        for k, v in {"GITHUB_API_URL": server.url, "GITHUB_REPOSITORY": server.repo, "GITHUB_TOKEN": GH_TOKEN,
                     "GITHUB_SERVER_URL": "https://github.example", "GITHUB_RUN_ID": "77"}.items():
            monkeypatch.setenv(k, v)
        monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
        code, _out, err = _main(["github", "review", "--pr", str(server.number), "--html",
                                str(tmp_path / "r.html")], capsys)
        assert code == 0, err
        body = server.summary_comments()[0]["body"]
        assert f"[HTML report](https://github.example/{server.repo}/actions/runs/77)" in body
        assert (tmp_path / "r.html").is_file()
    finally:
        server.close()


def test_decision_is_unaffected(gl, settings):
    review, _ = run(gl, WordyReviewer(DIFF, [], Decision.APPROVED), settings)
    assert review.decision is Decision.APPROVED
