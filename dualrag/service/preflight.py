"""Start-up checks of `dualrag serve` and `dualrag worker`: what would make every job of a platform
fail for a configuration reason is found before the first webhook, not in the dead letters.

    GitLab  GET {gitlab_url}/api/v4/personal_access_tokens/self  (personal_access_tokens.md: the
            token's own record, for personal, project and group tokens): the URL answers as a
            GitLab API, the token is valid and active, and its scopes hold `api` (reading the diff
            needs `read_api`; comments, thread replies and approvals need `api`).
    GitHub  GET {github_api_url}/rate_limit (rate-limit.md: any token, not counted): the URL answers
            as the GitHub API and the token is valid; a classic token's scopes come back in
            `X-OAuth-Scopes` (`repo` needed). A fine-grained or app token's permissions are not
            told to the token itself: a warning says which are needed.

An `error` is certain (exit 2, one line); a `warning` is printed and the process starts: the
check could not tell (a token in another machine's environment, permissions GitHub does not show,
an old GitLab without the endpoint)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import httpx

from dualrag.config.service import ServiceConfig
from dualrag.vcs.http import redactor


@dataclass(frozen=True, slots=True)
class Finding:
    level: str      # "error" | "warning"
    platform: str
    message: str    # one line


def check(cfg: ServiceConfig, platforms: set[str], *, token_required: bool,
          transport: httpx.BaseTransport | None = None, timeout_s: float = 10.0) -> list[Finding]:
    """Every platform in `platforms`: its token (from the environment) against its configured API.
    `token_required`: a missing token is an error (a worker) rather than a warning (`serve`, whose
    workers may run elsewhere with their own environment)."""
    out: list[Finding] = []
    for platform in sorted(platforms):
        env = cfg.gitlab_token_env if platform == "gitlab" else cfg.github_token_env
        token = os.environ.get(env, "").strip()
        if not token:
            level = "error" if token_required else "warning"
            out.append(Finding(level, platform, f"{env} is not set here: {platform} jobs fail (config) on any "
                                                f"worker without it"))
            continue
        with httpx.Client(timeout=timeout_s, transport=transport, follow_redirects=False) as http:
            probe = _gitlab if platform == "gitlab" else _github
            out += [Finding(level, platform, redactor(token)(text)) for level, text in probe(http, cfg, token, env)]
    return out


def _get(http: httpx.Client, url: str, headers: dict[str, str]) -> httpx.Response | str:
    try:
        return http.get(url, headers=headers)
    except httpx.HTTPError as exc:
        return f"{type(exc).__name__}: {exc}"


def _json(resp: httpx.Response) -> dict | None:
    try:
        data = resp.json()
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _gitlab(http: httpx.Client, cfg: ServiceConfig, token: str, env: str) -> list[tuple[str, str]]:
    root = cfg.gitlab_url.rstrip("/")
    where = f"[service] gitlab_url = {root}"
    if root.endswith("/api/v4"):
        return [("error", f"{where}: give GitLab's root URL, without /api/v4")]
    resp = _get(http, f"{root}/api/v4/personal_access_tokens/self", {"PRIVATE-TOKEN": token})
    if isinstance(resp, str):
        return [("error", f"GitLab unreachable at {where} ({resp})")]
    if resp.status_code == 401:
        return [("error", (f"the token in {env} is invalid, expired or revoked "
                          f"(GET /api/v4/personal_access_tokens/self: HTTP 401)"))]
    data = _json(resp)
    if resp.status_code == 404 or data is None:
        user = _get(http, f"{root}/api/v4/user", {"PRIVATE-TOKEN": token})
        if isinstance(user, httpx.Response) and user.status_code == 200 and _json(user) is not None:
            return [("warning", (f"GitLab at {root} does not tell the token's scopes (no "
                                f"/personal_access_tokens/self): {env} needs scope api"))]
        return [("error", (f"no GitLab API at {where} (GET /api/v4/personal_access_tokens/self: HTTP "
                          f"{resp.status_code}{'' if data is not None else ', not JSON'})"))]
    if resp.status_code != 200:
        return [("warning", f"GitLab at {root} answered HTTP {resp.status_code} to the token check: not verified")]
    scopes = [str(s) for s in data.get("scopes") or []]
    if data.get("revoked") or data.get("active") is False:
        return [("error", f"the token in {env} is revoked or inactive")]
    if "api" not in scopes:
        have = ", ".join(scopes) or "none"
        return [("error", f"the token in {env} has scope(s) {have}: posting comments and approving need scope api"
                          + (" (read_api reads only)" if "read_api" in scopes else ""))]
    return []


def _github(http: httpx.Client, cfg: ServiceConfig, token: str, env: str) -> list[tuple[str, str]]:
    root = cfg.github_api_url.rstrip("/")
    where = f"[service] github_api_url = {root}"
    resp = _get(http, f"{root}/rate_limit", {"Authorization": f"Bearer {token}",
                                             "Accept": "application/vnd.github+json"})
    if isinstance(resp, str):
        return [("error", f"GitHub unreachable at {where} ({resp})")]
    if resp.status_code == 401:
        return [("error", f"the token in {env} is invalid or expired (GET /rate_limit: HTTP 401 Bad credentials)")]
    if resp.status_code != 200 or _json(resp) is None:
        return [("error", f"no GitHub API at {where} (GET /rate_limit: HTTP {resp.status_code})")]
    scopes = resp.headers.get("x-oauth-scopes")
    if scopes is None:
        return [("warning", (f"GitHub does not show a fine-grained or app token's permissions: {env} needs "
                            "Pull requests: read and write, Contents: read (Issues: write for comments "
                            "without Pull requests: write)"))]
    have = {s.strip() for s in scopes.split(",") if s.strip()}
    if "repo" not in have:
        return [("error" if "public_repo" not in have else "warning",
                 (f"the classic token in {env} has scope(s) {', '.join(sorted(have)) or 'none'}: private "
                 "repositories need scope repo"))]
    return []
