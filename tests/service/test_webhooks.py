"""The webhook door: every delivery verified before anything is queued, answered at once."""

from __future__ import annotations

import json

import pytest
import redis
from service_support import (
    GITHUB_SECRET,
    SECRETS,
    deliver,
    github_pr_event,
    gitlab_mr_hook,
    service_settings,
)
from starlette.testclient import TestClient

from dualrag.service import verify
from dualrag.service.app import create_app
from dualrag.service.status import queue_status

HEAD1, HEAD2 = "1" * 40, "2" * 40


@pytest.fixture
def service(redis_url, tmp_path):
    settings = service_settings(redis_url, tmp_path / "store", max_body_bytes=4_000)
    client = redis.Redis.from_url(redis_url)
    with TestClient(create_app(settings, SECRETS, client)) as http:
        yield http, client
    client.close()


def waiting(client) -> int:
    return queue_status(client, "reviews").waiting


def test_github_signature_is_hmac_sha256_of_the_raw_body():
    body = b'{"zen": "Design for failure."}'
    sig = verify.github_signature(body, GITHUB_SECRET)
    verify.check_github({"x-hub-signature-256": sig}, body, GITHUB_SECRET)
    for headers, data in (({"x-hub-signature-256": sig}, body + b" "), ({}, body),
                          ({"x-hub-signature-256": sig.replace("sha256=", "sha1=")}, body)):
        with pytest.raises(verify.BadSignature):
            verify.check_github(headers, data, GITHUB_SECRET)


def test_good_deliveries_are_queued_once_each(service):
    http, client = service
    r = deliver(http, "gitlab", gitlab_mr_hook(HEAD1))
    assert r.status_code == 202 and r.json()["status"] == "queued", r.text
    r = deliver(http, "github", github_pr_event(HEAD1))
    assert r.status_code == 202 and r.json()["status"] == "queued", r.text
    assert waiting(client) == 2


@pytest.mark.parametrize("platform", ["gitlab", "github"])
def test_bad_or_missing_signature_is_401_and_nothing_queued(service, platform):
    http, client = service
    payload = gitlab_mr_hook(HEAD1) if platform == "gitlab" else github_pr_event(HEAD1)
    for secret in ("wrong-secret", False, ""):
        r = deliver(http, platform, payload, secret=secret)
        assert r.status_code == 401, (secret, r.text)
    # a body changed after signing (GitHub) / a valid token on a forged body is still a GitLab delivery
    if platform == "github":
        body = json.dumps(payload).encode()
        sig = verify.github_signature(body, GITHUB_SECRET)
        r = http.post("/webhooks/github", content=body.replace(b"acme", b"evil"),
                      headers={"X-GitHub-Event": "pull_request", "X-Hub-Signature-256": sig})
        assert r.status_code == 401
    assert waiting(client) == 0 and client.keys("reviews:job:*") == []


def test_body_above_the_cap_is_413_before_verification(service):
    http, client = service
    payload = gitlab_mr_hook(HEAD1)
    payload["padding"] = "x" * 5_000
    r = deliver(http, "gitlab", payload)
    assert r.status_code == 413 and waiting(client) == 0
    # no Content-Length (chunked): counted while read
    r = http.post("/webhooks/gitlab", content=iter([b"{" + b" " * 3_000, b" " * 3_000 + b"}"]),
                  headers={"X-Gitlab-Token": SECRETS["gitlab"], "X-Gitlab-Event": "Merge Request Hook"})
    assert r.status_code == 413


@pytest.mark.parametrize(("platform", "event", "payload", "why"), [
    ("gitlab", "Push Hook", {"object_kind": "push"}, "Push Hook"),
    ("gitlab", "Merge Request Hook", gitlab_mr_hook(HEAD1, oldrev=None), "without new commits"),
    ("gitlab", "Merge Request Hook", gitlab_mr_hook(HEAD1, action="close"), "close"),
    ("gitlab", "Note Hook", {"object_kind": "note", "project": {"id": 42},
                             "object_attributes": {"noteable_type": "MergeRequest", "note": "looks good"},
                             "merge_request": {"iid": 7}}, "no /dualrag"),
    ("github", "ping", {"zen": "Keep it logically awesome."}, "ping"),
    ("github", "pull_request", github_pr_event(HEAD1, action="labeled"), "labeled"),
    ("github", "issue_comment", {"action": "created", "repository": {"full_name": "acme/shop"},
                                 "issue": {"number": 5}, "comment": {"id": 1, "body": "/dualrag review"}},
     "not a pull request"),
])
def test_unhandled_events_get_202_with_a_reason(service, platform, event, payload, why):
    http, client = service
    r = deliver(http, platform, payload, event=event)
    assert r.status_code == 202 and r.json()["status"] == "ignored" and why in r.json()["reason"], r.text
    assert waiting(client) == 0


def test_redeliveries_and_duplicates_are_dropped(service):
    http, client = service
    statuses = [deliver(http, "gitlab", gitlab_mr_hook(HEAD1)).json()["status"] for _ in range(3)]
    assert statuses == ["queued", "duplicate", "duplicate"]
    # the same head announced again with a later stamp (a title edit with commits) is still one job
    assert deliver(http, "gitlab", gitlab_mr_hook(HEAD1, updated_at="2026-12-01 10:05:00 UTC")).json()["status"] \
        == "duplicate"
    assert waiting(client) == 1


def test_an_older_push_delivered_late_is_stale(service):
    http, client = service
    newer = deliver(http, "github", github_pr_event(HEAD2, updated_at="2026-12-01T10:01:00Z")).json()
    older = deliver(http, "github", github_pr_event(HEAD1, updated_at="2026-12-01T10:00:00Z")).json()
    assert newer["status"] == "queued" and older["status"] == "stale"
    assert waiting(client) == 1


def test_comment_commands_are_queued_once_per_comment(service):
    http, client = service
    note = {"object_kind": "note", "project": {"id": 42}, "merge_request": {"iid": 7},
            "object_attributes": {"id": 555, "noteable_type": "MergeRequest", "note": "/dualrag review"}}
    assert deliver(http, "gitlab", note, event="Note Hook").json()["status"] == "queued"
    assert deliver(http, "gitlab", note, event="Note Hook").json()["status"] == "duplicate"
    assert waiting(client) == 1


def test_platform_without_a_secret_is_off(redis_url, tmp_path):
    settings = service_settings(redis_url, tmp_path / "store")
    with TestClient(create_app(settings, {"github": GITHUB_SECRET}, redis.Redis.from_url(redis_url))) as http:
        r = deliver(http, "gitlab", gitlab_mr_hook(HEAD1))
        assert r.status_code == 404 and "DUALRAG_GITLAB_WEBHOOK_SECRET" in r.json()["reason"]


def test_healthz_and_unreachable_redis(redis_url, tmp_path, free_port=None):
    from dualrag.testing.redis import free_port

    settings = service_settings(redis_url, tmp_path / "store")
    with TestClient(create_app(settings, SECRETS, redis.Redis.from_url(redis_url))) as http:
        assert http.get("/healthz").json() == {"status": "ok"}
    dead = f"redis://127.0.0.1:{free_port()}/0"
    settings = service_settings(dead, tmp_path / "store")
    with TestClient(create_app(settings, SECRETS)) as http:
        assert http.get("/healthz").status_code == 503
        r = deliver(http, "gitlab", gitlab_mr_hook(HEAD1))
        assert r.status_code == 503 and "unreachable" in r.json()["reason"]
