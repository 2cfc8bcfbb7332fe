"""A small REST client for the VCS adapters: retries within a budget, pagination, clear errors,
call counting, and a token that never appears in a message.

- 401/403: VcsAuthError, one line saying which token variable and which permission to check;
- 404: VcsNotFound (a vanished merge request, a deleted note);
- 400/422: VcsRejected, returned to the adapter (a position outside the diff falls back);
- 409/429/5xx and connection errors: retried with backoff (Retry-After honoured) while the
  attempt count and the time budget last, then VcsError.
"""

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

    def __init__(self, message: str, status: int | None = None, body: Any = None):
        super().__init__(message)
        self.status = status
        self.body = body


class VcsAuthError(VcsError):
    pass


class VcsNotFound(VcsError):
    pass


class VcsRejected(VcsError):
    """400/422: the platform validated the request and said no."""


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
                    raise VcsError(f"{method} {self._where(path)} failed: {reason}") from None
                continue
            self.elapsed_s += time.perf_counter() - start
            status = resp.status_code
            if status < 400 or status in allow:
                return resp
            if status in RETRY_STATUSES and self._may_retry(attempt, resp):
                continue
            raise self._error(method, path, resp)

    def _may_retry(self, attempt: int, resp: httpx.Response | None) -> bool:
        if attempt >= self.retry.attempts:
            return False
        delay = min(self.retry.base_delay_s * 2 ** (attempt - 1), self.retry.max_delay_s)
        if resp is not None:
            after = resp.headers.get("Retry-After")
            if after and after.strip().isdigit():
                delay = float(after)
        if self.waited_s + delay > self.retry.budget_s:
            return False
        self.waited_s += delay
        self._sleep(delay)
        return True

    def _where(self, path: str) -> str:
        return self.redact(path.split("?")[0])

    def _error(self, method: str, path: str, resp: httpx.Response) -> VcsError:
        status = resp.status_code
        detail = self.redact(_detail(resp))
        where = f"{method} {self._where(path)}"
        if status in (401, 403):
            what = "is missing, invalid or expired" if status == 401 else "lacks the permission for this call"
            return VcsAuthError(f"{where}: HTTP {status} - the token in {self.token_hint} {what} ({detail})",
                                status)
        if status == 404:
            return VcsNotFound(f"{where}: HTTP 404 - not found ({detail})", status)
        if status in (400, 422):
            return VcsRejected(f"{where}: HTTP {status} - {detail}", status, _json(resp))
        return VcsError(f"{where}: HTTP {status} after retries - {detail}", status)

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


def _json(resp: httpx.Response) -> Any:
    if not resp.content:
        return None
    try:
        return resp.json()
    except ValueError:
        return None


def _detail(resp: httpx.Response) -> str:
    body = _json(resp)
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
    return url[len(base):] if url.startswith(base) else url
