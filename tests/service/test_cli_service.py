"""`dualrag serve`, `serve status` and `worker`: exit 2 with one line when something the user
must provide is missing (a secret, a token, a reachable Redis, the `service` extra)."""

from __future__ import annotations

import builtins

import pytest
from service_support import write_config

from dualrag.testing.redis import free_port
from tests.cli_run import run_cli as run


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("DUALRAG_GITLAB_WEBHOOK_SECRET", "DUALRAG_GITHUB_WEBHOOK_SECRET", "DUALRAG_GITLAB_TOKEN",
                 "DUALRAG_GITHUB_TOKEN", "DUALRAG_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_serve_without_a_webhook_secret(clean_env, redis_url, tmp_path, capsys):
    config = write_config(tmp_path / "s.toml", redis_url)
    code, _, err = run(["serve", "--config", str(config)], capsys)
    assert code == 2 and err.count("\n") == 1 and "DUALRAG_GITLAB_WEBHOOK_SECRET" in err, err


def test_serve_and_status_with_redis_unreachable(clean_env, tmp_path, capsys):
    clean_env.setenv("DUALRAG_GITHUB_WEBHOOK_SECRET", "s3cret-value")
    config = write_config(tmp_path / "s.toml", f"redis://127.0.0.1:{free_port()}/0")
    for args in (["serve", "--config", str(config)], ["serve", "status", "--config", str(config)]):
        code, _, err = run(args, capsys)
        assert code == 2 and err.count("\n") == 1 and "Redis unreachable" in err, err
        assert "s3cret-value" not in err


def test_worker_without_an_api_token(clean_env, redis_url, tmp_path, capsys):
    config = write_config(tmp_path / "s.toml", redis_url)
    code, _, err = run(["worker", "--config", str(config), "--burst"], capsys)
    assert code == 2 and err.count("\n") == 1 and "DUALRAG_GITLAB_TOKEN" in err, err


def test_without_the_service_extra(clean_env, monkeypatch, capsys):
    real_import = builtins.__import__

    def no_uvicorn(name, *args, **kw):
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    code, _, err = run(["serve"], capsys)
    assert code == 2 and "pip install 'dualrag[service]'" in err and err.count("\n") == 1, err


def test_status_json(clean_env, redis_url, tmp_path, capsys):
    import json

    config = write_config(tmp_path / "s.toml", redis_url)
    code, out, _ = run(["serve", "status", "--config", str(config), "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["queue"] == "reviews" and data["waiting"] == 0 and data["dead"] == []


# ------------------------------------------------------------------ start-up checks (service/preflight.py)


@pytest.fixture
def gitlab_api():
    from dualrag.testing.gitlab_api import GitLabDouble

    with GitLabDouble() as gl:
        gl.add_project(42, "acme/shop", members={"dualrag-bot": 30})
        yield gl


@pytest.mark.parametrize(("scopes", "url", "token", "says"), [
    (("read_api",), None, "good", "has scope(s) read_api: posting comments and approving need scope api"),
    (("api",), None, "wrong-token", "DUALRAG_GITLAB_TOKEN is invalid, expired or revoked"),
    (("api",), "unreachable", "good", "GitLab unreachable at [service] gitlab_url"),
    (("api",), "with-api-v4", "good", "without /api/v4"),
])
def test_worker_refuses_to_start_on_a_gitlab_configuration_every_job_would_fail_on(
        clean_env, redis_url, tmp_path, capsys, gitlab_api, scopes, url, token, says):
    gitlab_api.add_token("glpat-good-0123456789", "dualrag-bot", scopes=scopes)
    clean_env.setenv("DUALRAG_GITLAB_TOKEN", "glpat-good-0123456789" if token == "good" else "glpat-wrong")
    base = {None: gitlab_api.url, "unreachable": f"http://127.0.0.1:{free_port()}",
            "with-api-v4": gitlab_api.url + "/api/v4"}[url]
    config = write_config(tmp_path / "s.toml", redis_url, gitlab_url=base)
    code, _, err = run(["worker", "--config", str(config), "--burst"], capsys)
    assert code == 2 and err.count("\n") == 1 and says in err and "Traceback" not in err, err
    assert "glpat-good-0123456789" not in err


def test_serve_refuses_to_start_on_a_read_only_gitlab_token(clean_env, redis_url, tmp_path, capsys, gitlab_api):
    gitlab_api.add_token("glpat-read-0123456789", "dualrag-bot", scopes=("read_api",))
    clean_env.setenv("DUALRAG_GITLAB_WEBHOOK_SECRET", "hook-secret")
    clean_env.setenv("DUALRAG_GITLAB_TOKEN", "glpat-read-0123456789")
    config = write_config(tmp_path / "s.toml", redis_url, gitlab_url=gitlab_api.url)
    code, _, err = run(["serve", "--config", str(config)], capsys)
    assert code == 2 and err.count("\n") == 1 and "need scope api" in err, err


def test_what_the_checks_cannot_be_sure_of_is_a_warning(clean_env, redis_url, tmp_path):
    from dualrag.config.service import ServiceConfig
    from dualrag.service.preflight import check
    from dualrag.testing.github_api import GitHubDouble

    with GitHubDouble() as gh:
        gh.add_token("github_pat_fine_0123", "dualrag[bot]", pull_requests="write", contents="read")
        gh.add_token("ghp_classic_0123", "dualrag[bot]", scopes=("read:org",))
        service = ServiceConfig(github_api_url=gh.url)
        clean_env.setenv("DUALRAG_GITHUB_TOKEN", "github_pat_fine_0123")
        [fine] = check(service, {"github"}, token_required=True)
        assert fine.level == "warning" and "Pull requests: read and write" in fine.message
        clean_env.setenv("DUALRAG_GITHUB_TOKEN", "ghp_classic_0123")
        [classic] = check(service, {"github"}, token_required=True)
        assert classic.level == "error" and "need scope repo" in classic.message
    clean_env.delenv("DUALRAG_GITHUB_TOKEN")
    [absent] = check(service, {"github"}, token_required=False)  # serve: the workers may hold the token
    assert absent.level == "warning" and "DUALRAG_GITHUB_TOKEN is not set here" in absent.message
    [absent] = check(service, {"github"}, token_required=True)  # a worker: every GitHub job would fail
    assert absent.level == "error"


def test_a_worker_with_a_good_token_starts(clean_env, redis_url, tmp_path, capsys, gitlab_api):
    gitlab_api.add_token("glpat-good-0123456789", "dualrag-bot", scopes=("api",))
    clean_env.setenv("DUALRAG_GITLAB_TOKEN", "glpat-good-0123456789")
    config = write_config(tmp_path / "s.toml", redis_url, gitlab_url=gitlab_api.url)
    code, _, err = run(["worker", "--config", str(config), "--burst"], capsys)
    assert code == 0 and "0 job(s) done" in err and "warning" not in err, err
    assert gitlab_api.calls("GET", "/personal_access_tokens/self$") == [
        ("GET", "/api/v4/personal_access_tokens/self", 200)]
