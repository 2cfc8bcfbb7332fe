"""The webhook service (ASGI, Starlette): verify, classify, queue, answer — never review here.

    POST /webhooks/gitlab   X-Gitlab-Token must equal the webhook's secret token
    POST /webhooks/github   X-Hub-Signature-256 must be the HMAC-SHA256 of the raw body
    GET  /healthz           Redis reachable
    GET  /metrics           Prometheus text (the whole service's counts, read from Redis)

Answers: 202 queued / duplicate / stale / ignored (with a reason), 401 bad signature (nothing
queued), 413 body above `[service] max_body_bytes`, 400 not JSON, 404 a platform without a
secret configured, 503 Redis unreachable."""

from __future__ import annotations

import json
import os
from typing import Any

import redis
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dualrag.config import Settings
from dualrag.service import verify
from dualrag.service.events import Ignored, NoteEvent, ReviewRequest, github_event, gitlab_event
from dualrag.service.jobs import Job, JobKeys
from dualrag.service.metrics import ServiceCollector, Stats
from dualrag.service.queue import make_broker, redis_client


class _TooLarge(Exception):
    pass


def webhook_secrets(settings: Settings) -> dict[str, str]:
    """The platforms whose webhook secret is set in the environment, with it."""
    cfg = settings.service
    found = {p: os.environ.get(name, "") for p, name in (("gitlab", cfg.gitlab_secret_env),
                                                         ("github", cfg.github_secret_env))}
    return {p: s for p, s in found.items() if s}


async def _body(request: Request, cap: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > cap:
        raise _TooLarge
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > cap:
            raise _TooLarge
    return bytes(data)


class WebhookService:
    def __init__(self, settings: Settings, secrets: dict[str, str], client: redis.Redis | None = None) -> None:
        self.cfg = settings.service
        self.secrets = secrets
        self.client = client or redis_client(self.cfg)
        self.broker, self.actor = make_broker(self.cfg)
        self.keys = JobKeys(self.client, self.cfg.queue, self.cfg.job_key_ttl_s)
        self.stats = Stats(self.client, self.cfg.queue)
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(ServiceCollector(self.client, self.cfg.queue, self.cfg.queue))

    def answer(self, status: str, code: int = 202, **extra: Any) -> JSONResponse:
        return JSONResponse({"status": status, **extra}, status_code=code)

    async def gitlab(self, request: Request) -> Response:
        return await self._webhook(request, "gitlab")

    async def github(self, request: Request) -> Response:
        return await self._webhook(request, "github")

    async def _webhook(self, request: Request, platform: str) -> Response:
        secret = self.secrets.get(platform)
        if not secret:
            env = self.cfg.gitlab_secret_env if platform == "gitlab" else self.cfg.github_secret_env
            return self.answer("not_configured", 404, reason=f"{platform} webhooks are off: {env} is not set")
        try:
            body = await _body(request, self.cfg.max_body_bytes)
        except _TooLarge:
            return self.answer("too_large", 413, reason=f"body above {self.cfg.max_body_bytes} bytes")
        try:
            if platform == "gitlab":
                verify.check_gitlab(request.headers, secret)
            else:
                verify.check_github(request.headers, body, secret)
        except verify.BadSignature as exc:
            await run_in_threadpool(self._count, "rejected")
            return self.answer("unauthorized", 401, reason=str(exc))
        try:
            payload = json.loads(body)
        except ValueError:
            return self.answer("bad_request", 400, reason="the body is not JSON")
        if not isinstance(payload, dict):
            return self.answer("bad_request", 400, reason="the body is not a JSON object")
        if platform == "gitlab":
            event = gitlab_event(request.headers.get("x-gitlab-event", ""), payload)
        else:
            event = github_event(request.headers.get("x-github-event", ""), payload)
        try:
            return await run_in_threadpool(self._accept, event)
        except redis.RedisError as exc:
            return self.answer("unavailable", 503, reason=f"queue unreachable: {type(exc).__name__}")

    def _count(self, outcome: str) -> None:
        try:
            self.stats.outcome(outcome)
        except redis.RedisError:
            pass

    def _accept(self, event: ReviewRequest | NoteEvent | Ignored) -> JSONResponse:
        if isinstance(event, Ignored):
            self.stats.outcome("ignored")
            return self.answer("ignored", reason=event.reason)
        job = Job.review(event) if isinstance(event, ReviewRequest) else Job.command(event)
        if job.kind == "review" and not self.keys.record_head(job):
            self.stats.outcome("stale")
            return self.answer("stale", reason="a newer push of this merge request is already known", job=job.key)
        if not self.keys.claim(job):
            self.stats.outcome("duplicate")
            return self.answer("duplicate", reason="this job was already queued", job=job.key)
        try:
            self.actor.send(job.to_dict())
        except Exception:
            self.keys.unclaim(job)  # a redelivery must be able to queue it
            raise
        self.stats.outcome("queued")
        return self.answer("queued", job=job.key)

    async def healthz(self, request: Request) -> Response:
        try:
            await run_in_threadpool(self.client.ping)
        except redis.RedisError as exc:
            return self.answer("unavailable", 503, reason=f"redis: {type(exc).__name__}")
        return self.answer("ok", 200)

    async def metrics(self, request: Request) -> Response:
        try:
            text = await run_in_threadpool(generate_latest, self.registry)
        except redis.RedisError as exc:
            return self.answer("unavailable", 503, reason=f"redis: {type(exc).__name__}")
        return Response(text, media_type=CONTENT_TYPE_LATEST)


def create_app(settings: Settings, secrets: dict[str, str] | None = None,
               client: redis.Redis | None = None) -> Starlette:
    service = WebhookService(settings, webhook_secrets(settings) if secrets is None else secrets, client)
    app = Starlette(routes=[
        Route("/webhooks/gitlab", service.gitlab, methods=["POST"]),
        Route("/webhooks/github", service.github, methods=["POST"]),
        Route("/healthz", service.healthz, methods=["GET"]),
        Route("/metrics", service.metrics, methods=["GET"]),
    ])
    app.state.service = service
    return app
