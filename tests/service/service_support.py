"""Shared by the service tests: settings and a config file for a service on the loopback doubles,
webhook payloads as GitLab and GitHub send them, and a delivery helper."""

from __future__ import annotations

import json
from pathlib import Path

from dualrag.config import Settings, load_settings
from dualrag.service.verify import github_signature

GITLAB_SECRET = "gl-webhook-secret-0123"
GITHUB_SECRET = "gh-webhook-secret-4567"
SECRETS = {"gitlab": GITLAB_SECRET, "github": GITHUB_SECRET}


def service_values(redis_url: str, *, gitlab_url: str = "http://127.0.0.1:9", github_url: str = "http://127.0.0.1:9",
                   llm_url: str | None = None, **service) -> dict:
    """Settings values: reviews without retrieval or walkthrough (one reviewer request per review:
    what these tests measure is the queue, not the review)."""
    values = {
        "retrieval": {"enabled": False},
        "review": {"walkthrough": False},
        "feedback": {"enabled": False},
        "service": {"redis_url": redis_url, "queue": "reviews", "gitlab_url": gitlab_url,
                    "github_api_url": github_url, "github_bot": "github-actions[bot]", "worker_heartbeat_s": 2.0,
                    "slot_ttl_s": 5.0, "max_retries": 0, **service},
    }
    if llm_url:
        values["llm"] = {"model": "openai:gpt-4.1-mini", "openai": {"base_url": llm_url}}
    return values


def service_settings(redis_url: str, store: Path, **kw) -> Settings:
    return load_settings(None, store=store, **service_values(redis_url, **kw))


def write_config(path: Path, redis_url: str, **kw) -> Path:
    """The same values as a TOML file, for `dualrag serve|worker --config`."""
    def toml(table: dict, prefix: str = "") -> list[str]:
        lines = [f"{k} = {json.dumps(v)}" for k, v in table.items() if not isinstance(v, dict)]
        for k, v in table.items():
            if isinstance(v, dict):
                lines += ["", f"[{prefix}{k}]", *toml(v, f"{prefix}{k}.")]
        return lines

    path.write_text("\n".join(toml(service_values(redis_url, **kw))) + "\n", encoding="utf-8")
    return path


def gitlab_mr_hook(head: str, *, project: int = 42, iid: int = 7, updated_at: str = "2026-12-01 10:00:00 UTC",
                   action: str = "update", oldrev: str | None = "0" * 40) -> dict:
    attrs = {"iid": iid, "action": action, "state": "opened", "updated_at": updated_at, "title": "Add Util",
             "target_project_id": project, "last_commit": {"id": head, "message": "Add Util"}}
    if oldrev and action == "update":
        attrs["oldrev"] = oldrev
    return {"object_kind": "merge_request", "event_type": "merge_request", "project": {"id": project,
            "path_with_namespace": "acme/shop"}, "object_attributes": attrs}


def github_pr_event(head: str, *, repo: str = "acme/shop", number: int = 5, action: str = "synchronize",
                    updated_at: str = "2026-12-01T10:00:00Z") -> dict:
    return {"action": action, "number": number, "repository": {"full_name": repo},
            "pull_request": {"number": number, "state": "open", "updated_at": updated_at, "title": "Add Util",
                             "head": {"sha": head}, "base": {"sha": "b" * 40}}}


def deliver(client, platform: str, payload: dict, *, event: str | None = None, secret: str | None = None,
            raw: bytes | None = None):
    """POST a delivery the way the platform does (TestClient or httpx.Client)."""
    body = raw if raw is not None else json.dumps(payload).encode()
    if platform == "gitlab":
        headers = {"X-Gitlab-Event": event or "Merge Request Hook", "Content-Type": "application/json"}
        if secret is not False:
            headers["X-Gitlab-Token"] = GITLAB_SECRET if secret is None else secret
    else:
        headers = {"X-GitHub-Event": event or "pull_request", "Content-Type": "application/json"}
        if secret is not False:
            headers["X-Hub-Signature-256"] = github_signature(body, GITHUB_SECRET if secret is None else secret)
    return client.post(f"/webhooks/{platform}", content=body, headers=headers)
