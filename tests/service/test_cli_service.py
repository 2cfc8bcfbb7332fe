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
