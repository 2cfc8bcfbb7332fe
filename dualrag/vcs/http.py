"""A small REST client for the VCS adapters: retries within a budget, pagination, clear errors,
call counting, and a token that never appears in a message.

- 401/403: VcsAuthError, one line saying which token variable and which permission to check;
- 404: VcsNotFound (a vanished merge request, a deleted note);
- 400/422: VcsRejected, returned to the adapter (a position outside the diff falls back);
- rate limits: 429, and GitHub's 403 that says so (`retry-after`, or `x-ratelimit-remaining: 0`
  with `x-ratelimit-reset`, or a message naming a rate limit: rate-limits-for-the-rest-api.md):
  retried after the time the platform names while the budget lasts, then VcsRateLimited;
- 409/5xx and connection errors: retried with backoff while the attempt count and the time budget
  last, then VcsError (VcsUnreachable when no answer came at all).

Every error carries the call (`endpoint`: method and path) and the HTTP status, for the job log
and the service's dead letters."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from dualrag.errors import UserError

RETRY_STATUSES = frozenset({409, 429, 500, 502, 503, 504})


class VcsError(UserError):
    """The VCS platform refused or failed; the message is one line without secrets."""

    def __init__(self, message: str, status: int | None = None, body: Any = None, endpoint: str | None = None):
        super().__init__(message)
        self.status = status
        self.body = body
        self.endpoint = endpoint  # "POST /api/v4/projects/42/merge_requests/7/discussions"


class VcsAuthError(VcsError):
    pass


class VcsNotFound(VcsError):
    pass


class VcsRejected(VcsError):
    """400/422: the platform validated the request and said no."""


class VcsRateLimited(VcsError):
    """The platform's rate limit held longer than the retry budget."""


class VcsUnreachable(VcsError):
    """No answer at all: a wrong URL, a host down, DNS, TLS."""


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = 4           # tries per request, the first included
    budget_s: float = 30.0      # total time all retries of one run may spend waiting
    base_delay_s: float = 0.5   # doubled on each retry, capped by max_delay_s
    max_delay_s: float = 8.0


def redactor(*secrets: str | None) -> Callable[[str], str]:
    found = [s for s in secrets if s and len(s) >= 4]
    pattern = re.compile("|".join(re.escape(s) for s in sorted(found, key=len, reverse=True))) if found else None

    def redact(text: str) -> str:
        return pattern.sub("[REDACTED]", text) if pattern else text

    return redact


class RestClient:
    def __init__(self, base_url: str, *, headers: dict[str, str], secret: str, token_hint: str,
                 retry: RetryPolicy | None = None, timeout_s: float = 30.0,
                 transport: httpx.BaseTransport | None = None, sleep: Callable[[float], None] = time.sleep):
        self.base_url = base_url.rstrip("/")
        self.redact = redactor(secret)
        self.token_hint = token_hint
        self.retry = retry or RetryPolicy()
        self.calls = 0
        self.writes = 0
        self.elapsed_s = 0.0
        self.waited_s = 0.0
        self._sleep = sleep
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout_s,
                                  transport=transport, follow_redirects=False)

    def close(self) -> None:
        self._http.close()

    # ------------------------------------------------------------------ requests
    def request(self, method: str, path: str, *, params: dict | None = None, json: Any = None,
                allow: tuple[int, ...] = (), write: bool | None = None) -> httpx.Response:
        """One call with retries. `allow` lists statuses handed back instead of raised. `write`: whether
        the call changes anything (default: any method but GET; a GraphQL query is a POST that reads)."""
        attempt = 0
        while True:
            attempt += 1
            start = time.perf_counter()
            self.calls += 1
            if (method != "GET") if write is None else write:
                self.writes += 1
            try:
                resp = self._http.request(method, path, params=params, json=json)
            except httpx.HTTPError as exc:
                self.elapsed_s += time.perf_counter() - start
                reason = self.redact(f"{type(exc).__name__}: {exc}")
                if not self._may_retry(attempt, None):
                    raise VcsUnreachable(f"{self._endpoint(method, path)} failed: {reason}",
                                         endpoint=self._endpoint(method, path)) from None
                continue
            self.elapsed_s += time.perf_counter() - start
            status = resp.status_code
            if status < 400 or status in allow:
                return resp
            limited = rate_limited(resp)
            if (limited or status in RETRY_STATUSES) and self._may_retry(attempt, resp, limited):
                continue
            raise self._error(method, path, resp, limited)

    def _may_retry(self, attempt: int, resp: httpx.Response | None, wait_s: float | None = None) -> bool:
        if attempt >= self.retry.attempts:
            return False
        delay = min(self.retry.base_delay_s * 2 ** (attempt - 1), self.retry.max_delay_s)
        if wait_s is not None:  # a rate limit: the platform said how long (no sooner)
            delay = max(wait_s, delay)
        if self.waited_s + delay > self.retry.budget_s:
            return False
        self.waited_s += delay
        self._sleep(delay)
        return True

    def _where(self, path: str) -> str:
        return self.redact(path.split("?")[0])

    def _endpoint(self, method: str, path: str) -> str:
        """The call as the platform's documentation names it: method and the full path."""
        where = self._where(path)
        return f"{method} {where if where.startswith('http') else self.redact(self.base_path) + where}"

    @property
    def base_path(self) -> str:
        return httpx.URL(self.base_url).path.rstrip("/")

    def _error(self, method: str, path: str, resp: httpx.Response, limited: float | None = None) -> VcsError:
        status = resp.status_code
        detail = self.redact(_detail(resp))
        where = self._endpoint(method, path)
        kw = {"endpoint": where}
        if limited is not None:
            return VcsRateLimited(f"{where}: HTTP {status} - rate limited, retry in {limited:.0f} s ({detail})",
                                  status, **kw)
        if status in (401, 403):
            what = "is missing, invalid or expired" if status == 401 else "lacks the permission for this call"
            return VcsAuthError(f"{where}: HTTP {status} - the token in {self.token_hint} {what} ({detail})",
                                status, **kw)
        if status == 404:
            return VcsNotFound(f"{where}: HTTP 404 - not found ({detail})", status, **kw)
        if status in (400, 422):
            return VcsRejected(f"{where}: HTTP {status} - {detail}", status, _json(resp), **kw)
        return VcsError(f"{where}: HTTP {status} after retries - {detail}", status, **kw)

    def get(self, path: str, **params: Any) -> Any:
        return _json(self.request("GET", path, params=params or None))

    def post(self, path: str, json: Any = None, **kw: Any) -> Any:
        return _json(self.request("POST", path, json=json, **kw))

    def put(self, path: str, json: Any = None) -> Any:
        return _json(self.request("PUT", path, json=json))

    def patch(self, path: str, json: Any = None) -> Any:
        return _json(self.request("PATCH", path, json=json))

    # ------------------------------------------------------------------ pagination
    def paginate(self, path: str, *, per_page: int = 100, **params: Any) -> Iterator[Any]:
        """Items of every page: GitLab's X-Next-Page, else an RFC 5988 Link rel="next"."""
        query: dict[str, Any] | None = {**params, "per_page": per_page}
        url = path
        pages = 0
        while url:
            resp = self.request("GET", url, params=query)
            pages += 1
            yield from (_json(resp) or [])
            nxt = resp.headers.get("X-Next-Page", "").strip()
            link = _next_link(resp.headers.get("Link", ""))
            if nxt:
                query = {**params, "per_page": per_page, "page": nxt}
            elif link:
                url, query = _relative(link, self.base_url), None
            else:
                break
            if pages > 1000:
                raise VcsError(f"GET {self._where(path)}: more than 1000 pages")


def rate_limited(resp: httpx.Response, now: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait when the answer is a rate limit, else None. 429 always is one; a 403 is
    one when it says so (GitHub: `retry-after`, `x-ratelimit-remaining: 0`, or a message naming a
    secondary rate limit), otherwise a 403 is a permission."""
    status, h = resp.status_code, resp.headers
    if status not in (403, 429):
        return None
    after = (h.get("retry-after") or "").strip()
    if after.isdigit():
        return float(after)
    reset = (h.get("x-ratelimit-reset") or h.get("ratelimit-reset") or "").strip()
    if h.get("x-ratelimit-remaining") == "0" and reset.isdigit():
        return max(0.0, float(reset) - now())
    if status == 429 or "rate limit" in _detail(resp).lower():
        return 60.0  # "otherwise, wait for at least one minute before retrying"
    return None


def _json(resp: httpx.Response) -> Any:
    if not resp.content:
        return None
    try:
        return resp.json()
    except ValueError:
        return None


def _detail(resp: httpx.Response) -> str:
    body = _json(resp)
    if isinstance(body, dict) and body.get("error_description"):  # OAuth style: GitLab's insufficient_scope
        scope = f" (needs scope: {body['scope']})" if body.get("scope") else ""
        return f"{body.get('error')}: {body['error_description']}{scope}"[:300].replace("\n", " ")
    if isinstance(body, dict):
        for key in ("message", "error", "errors", "error_description"):
            if key in body:
                return str(body[key])[:300].replace("\n", " ")
    text = resp.text.strip().replace("\n", " ")
    return text[:300] or resp.reason_phrase


_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


def _next_link(header: str) -> str | None:
    m = _LINK.search(header or "")
    return m.group(1) if m else None


def _relative(url: str, base: str) -> str:
    return url.removeprefix(base)
