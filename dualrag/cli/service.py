"""`dualrag serve`, `dualrag serve status` and `dualrag worker`: the review service (docs/service.md).

The service reads its settings from `--config FILE` / `$DUALRAG_CONFIG` and `DUALRAG_*` only (a
repository's `.dualrag.toml` is read per merge request by the worker, from its target side);
secrets only from the environment. Redis unreachable, no webhook secret or no API token, or a
token the platform refuses or that lacks the scope to post (dualrag/service/preflight.py): exit 2.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from datetime import UTC, datetime

import click

from dualrag.cli.options import config_option, debug_option, load_cli_settings, store_option
from dualrag.config import Settings
from dualrag.errors import UserError

EXTRA = "pip install 'dualrag[service]'"


def _require_extra() -> None:
    try:
        import dramatiq  # noqa: F401
        import prometheus_client  # noqa: F401
        import redis  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise UserError(f"the review service needs its extra ({exc.name} is missing): {EXTRA}") from None


def _settings(config_file: str | None, store: str | None = None) -> Settings:
    return load_cli_settings(config_file, None, store=store, ci=True)


def _preflight(settings: Settings, platforms: set[str], *, token_required: bool, who: str) -> None:
    """The start-up checks (dualrag/service/preflight.py): the first error exits 2, warnings are printed."""
    from dualrag.service.preflight import check

    findings = check(settings.service, platforms, token_required=token_required)
    for f in findings:
        if f.level == "warning":
            click.echo(f"{who}: warning: {f.platform}: {f.message}", err=True)
    errors = [f for f in findings if f.level == "error"]
    if errors:
        raise UserError(f"{errors[0].platform}: {errors[0].message}")


def _redis(settings: Settings):
    import redis

    from dualrag.service.queue import redis_client

    client = redis_client(settings.service)
    try:
        client.ping()
    except redis.RedisError as exc:
        raise UserError(f"Redis unreachable at [service] redis_url ({type(exc).__name__}): start it or set "
                        "DUALRAG_SERVICE__REDIS_URL") from None
    return client


@click.group(invoke_without_command=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True, help="Port to listen on.")
@config_option
@debug_option
@click.pass_context
def serve(ctx, host: str, port: int, config_file: str | None) -> None:
    """Run the webhook service: verify, queue, answer at once (workers review: `dualrag worker`)."""
    if ctx.invoked_subcommand is not None:
        return
    _require_extra()
    import uvicorn

    from dualrag.service.app import create_app, webhook_secrets

    settings = _settings(config_file)
    cfg = settings.service
    secrets = webhook_secrets(settings)
    if not secrets:
        raise UserError(f"no webhook secret: set {cfg.gitlab_secret_env} and/or {cfg.github_secret_env}")
    client = _redis(settings)
    _preflight(settings, set(secrets), token_required=False, who="dualrag serve")
    click.echo(f"dualrag serve: http://{host}:{port} · webhooks for {', '.join(sorted(secrets))} · queue {cfg.queue}",
               err=True)
    uvicorn.run(create_app(settings, secrets, client), host=host, port=port, log_level="warning", access_log=False)


@serve.command("status")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--dead", type=click.IntRange(0, 1000), default=20, show_default=True,
              help="Dead letters to list, newest first.")
@config_option
@debug_option
def status(fmt: str, dead: int, config_file: str | None) -> None:
    """Queue depth, jobs in flight, live workers, and dead letters with the reason each failed."""
    _require_extra()
    from dualrag.service.status import queue_status

    settings = _settings(config_file)
    cfg = settings.service
    st = queue_status(_redis(settings), cfg.queue, heartbeat_s=cfg.worker_heartbeat_s, dead_limit=dead)
    if fmt == "json":
        click.echo(json.dumps(asdict(st), indent=2))
        return
    click.echo(f"queue {st.queue}: {st.waiting} waiting · {st.delayed} delayed · {st.in_flight} in flight · "
               f"{st.workers} worker(s) alive · {st.dead_total} dead letter(s)")
    for d in st.dead:
        at = datetime.fromtimestamp(d.failed_at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"  dead {at} UTC  {d.job}: {d.line()} ({d.attempts} failed attempt(s); message {d.message_id})")


@click.command()
@config_option
@store_option
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Jobs this process runs at once.")
@click.option("--burst", is_flag=True, help="Exit once the queue is empty (batch runs, tests).")
@debug_option
def worker(config_file: str | None, store: str | None, threads: int, burst: bool) -> None:
    """Take review and command jobs off the queue (run any number, on any machine, on one Redis)."""
    _require_extra()
    from dualrag.service.worker import work

    settings = _settings(config_file, store)
    cfg = settings.service
    tokens = {p for p, name in (("gitlab", cfg.gitlab_token_env), ("github", cfg.github_token_env))
              if os.environ.get(name, "").strip()}
    if not tokens:
        raise UserError(f"no API token: set {cfg.gitlab_token_env} and/or {cfg.github_token_env}")
    client = _redis(settings)
    _preflight(settings, tokens, token_required=True, who="dualrag worker")
    finished = work(settings, client, threads=threads, burst=burst)
    click.echo(f"dualrag worker: {finished} job(s) done", err=True)
