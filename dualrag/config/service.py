"""The review service (section `[service]`): where its queue lives, how much it takes at once, who
may command it. Read from the service's own `--config` file and the environment only: the worker
never takes this section from a repository's `.dualrag.toml` (a repository must not raise its own
concurrency or lower the access level its commands need). Secrets are never values here: only
the names of the environment variables that hold them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dualrag.config.section import Section

GITLAB_SECRET_ENV = "DUALRAG_GITLAB_WEBHOOK_SECRET"
GITHUB_SECRET_ENV = "DUALRAG_GITHUB_WEBHOOK_SECRET"


class ServiceConfig(Section):
    redis_url: str = Field("redis://127.0.0.1:6379/0", description="the Redis the queue, job keys and limits share")
    queue: str = Field("dualrag-reviews", pattern=r"^[A-Za-z0-9_.-]+$",
                       description="queue name; also the prefix of every key the service writes")
    max_body_bytes: int = Field(5_000_000, ge=1_000, le=50_000_000,
                                description="a webhook delivery above this is refused with 413 before it is read")
    gitlab_secret_env: str = Field(GITLAB_SECRET_ENV, description="variable holding the GitLab webhook secret token")
    github_secret_env: str = Field(GITHUB_SECRET_ENV, description="variable holding the GitHub webhook secret")
    gitlab_url: str = Field("https://gitlab.com", description="the GitLab the API token is sent to (never the "
                                                              "host a payload names)")
    github_api_url: str = Field("https://api.github.com", description="the GitHub API the token is sent to")
    gitlab_token_env: str = Field("DUALRAG_GITLAB_TOKEN", description="variable holding the GitLab API token")
    github_token_env: str = Field("DUALRAG_GITHUB_TOKEN", description="variable holding the GitHub API token")
    gitlab_bot: str = Field("dualrag-bot", description="the GitLab user the token posts as (its notes are ignored)")
    github_bot: str = Field("dualrag[bot]", description="the GitHub login the token posts as")
    command_access: int = Field(30, ge=10, le=50,
                                description="GitLab access level a command needs: 30 Developer, 40 Maintainer")
    github_command_role: Literal["triage", "write", "maintain", "admin"] = Field(
        "write", description="GitHub repository role a command needs")
    project_concurrency: int = Field(2, ge=1, le=64, description="reviews of one repository at once, all workers")
    llm_in_flight: int = Field(4, ge=1, le=256, description="LLM requests in flight across all workers (1 for a "
                                                            "local llama.cpp server)")
    job_time_limit_s: int = Field(1800, ge=10, le=86_400, description="a review running longer is stopped and retried")
    max_retries: int = Field(3, ge=0, le=20, description="retries of a failed job before it is dead-lettered")
    worker_heartbeat_s: float = Field(60.0, ge=1.0, le=3600.0,
                                      description="a worker silent this long is dead: its jobs go to another")
    slot_ttl_s: float = Field(60.0, ge=1.0, le=3600.0,
                              description="a limit slot a killed worker held is free again after this")
    job_key_ttl_s: int = Field(7 * 86_400, ge=60, description="how long a (MR, head) stays known as queued")
