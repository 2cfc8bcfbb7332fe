"""`dualrag gitlab review` / `dualrag github review` end to end against the loopback servers."""

from __future__ import annotations

import json

import pytest
from vcs_fakes import FakeGitHub, FakeGitLab
from vcs_support import CTX, DIFF, GH_TOKEN, PW, TOKEN, FixedReviewer

import dualrag.cli.vcs as cli_vcs
from dualrag.cli import main
from dualrag.review.model import Decision


def run(args, capsys):
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return info.value.code, out, err


@pytest.fixture
def gitlab_env(monkeypatch):
    server = FakeGitLab(TOKEN, diff=DIFF)
    for k, v in {"CI_SERVER_URL": server.url, "CI_PROJECT_ID": server.project, "CI_MERGE_REQUEST_IID": "7",
                 "DUALRAG_GITLAB_TOKEN": TOKEN}.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("CI_PROJECT_DIR", raising=False)
    yield server
    server.close()


def fixed(monkeypatch, findings, decision):
    monkeypatch.setattr(cli_vcs, "_review_fn", lambda *a: FixedReviewer(DIFF, findings, decision))


def test_gitlab_fail_on_exits_3_and_writes_reports(gitlab_env, monkeypatch, capsys, tmp_path):
    fixed(monkeypatch, [PW, CTX], Decision.SIGNIFICANT_CONCERNS)
    sarif, cq = tmp_path / "r.sarif", tmp_path / "cq.json"
    code, out, err = run(["gitlab", "review", "--fail-on", "significant_concerns", "--sarif", str(sarif),
                          "--codequality", str(cq), "--retry-budget", "1"], capsys)
    assert code == 3 and "fails the job" in err and "posted 2" in out, err
    assert json.loads(sarif.read_text())["version"] == "2.1.0" and len(json.loads(cq.read_text())) == 2
    code, out, _ = run(["gitlab", "review"], capsys)
    assert code == 0 and "posted 0" in out and "summary unchanged" in out


def test_gitlab_real_pipeline_with_detectors_on_api_diff(gitlab_env, capsys):
    code, out, err = run(["gitlab", "review", "--fail-on", "significant_concerns"], capsys)
    assert code == 0, err
    assert "decision no_verdict" in out and len(gitlab_env.summary_notes()) == 1


def test_mr_stage_takes_the_fail_on_scale_of_review(gitlab_env, monkeypatch, capsys):
    """DUALRAG_FAIL_ON=no_verdict is one setting for `review` and the MR stage alike."""
    monkeypatch.setenv("DUALRAG_FAIL_ON", "no_verdict")
    code, out, err = run(["gitlab", "review"], capsys)  # offline: detectors only, no verdict
    assert code == 3 and "decision no_verdict" in out and "fails the job (--fail-on no_verdict)" in err


def test_gitlab_auth_error_is_one_line_without_token(gitlab_env, monkeypatch, capsys):
    monkeypatch.setenv("DUALRAG_GITLAB_TOKEN", "wrong-" + TOKEN)
    code, out, err = run(["gitlab", "review"], capsys)
    assert code == 2 and err.count("\n") == 1 and "DUALRAG_GITLAB_TOKEN" in err
    assert TOKEN not in out + err


def test_gitlab_missing_env_and_token(monkeypatch, capsys):
    for k in ("CI_SERVER_URL", "DUALRAG_GITLAB_TOKEN"):
        monkeypatch.delenv(k, raising=False)
    code, _, err = run(["gitlab", "review"], capsys)
    assert code == 2 and "CI_SERVER_URL" in err
    code, _, err = run(["gitlab", "review", "--server-url", "http://127.0.0.1:9", "--project-id", "1",
                        "--mr-iid", "1"], capsys)
    assert code == 2 and "DUALRAG_GITLAB_TOKEN" in err


def test_github_review_from_actions_env(monkeypatch, capsys, tmp_path):
    server = FakeGitHub(GH_TOKEN, diff=DIFF)
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": server.number}}))
    for k, v in {"GITHUB_API_URL": server.url, "GITHUB_REPOSITORY": server.repo, "GITHUB_EVENT_PATH": str(event),
                 "GITHUB_TOKEN": GH_TOKEN}.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    fixed(monkeypatch, [PW], Decision.SIGNIFICANT_CONCERNS)
    try:
        code, out, err = run(["github", "review", "--fail-on", "minor_issues"], capsys)
        assert code == 3 and "request_changes" in out and GH_TOKEN not in out + err
    finally:
        server.close()


def test_gitlab_review_from_checkout(monkeypatch, capsys, repo):
    old = "class App {\n  int a;\n  void run() {\n    call();\n  }\n"
    new = "class App {\n  int b;\n  String pw = \"secret\";\n  void run() {\n    call();\n  }\n"
    base = repo.commit("base", {"src/App.java": old})
    head = repo.commit("head", {"src/App.java": new, "src/Util.java": "class Util {\n  static int x = 1;\n}\n"})
    server = FakeGitLab(TOKEN, diff=DIFF, base_sha=base, start_sha=base, head_sha=head)
    for k, v in {"CI_SERVER_URL": server.url, "CI_PROJECT_ID": server.project, "CI_MERGE_REQUEST_IID": "7",
                 "DUALRAG_GITLAB_TOKEN": TOKEN, "CI_PROJECT_DIR": str(repo.root),
                 "CI_MERGE_REQUEST_DIFF_BASE_SHA": base}.items():
        monkeypatch.setenv(k, v)
    seen = []
    monkeypatch.setattr(cli_vcs, "_review_fn", lambda *a: lambda diff, priors: (
        seen.append(diff), FixedReviewer(DIFF, [PW], Decision.APPROVED)(diff, priors))[1])
    try:
        code, out, err = run(["gitlab", "review"], capsys)
        assert code == 0, err
        assert b'+  String pw = "secret";' in seen[0] and not any(p.endswith("/diffs") for _, p in server.log)
        assert "posted 1" in out and server.bot_threads()[0]["notes"][0]["position"]["head_sha"] == head
    finally:
        server.close()
