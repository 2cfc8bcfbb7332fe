"""Why a job failed, in a form an operator can act on: a reason from a small fixed set (the label of
`dualrag_dead_lettered_total{reason}`), the platform call that failed and its HTTP status when
there was one, and one line of message. Recorded beside the job in Redis; `dualrag serve status`,
the worker's log line and `/metrics` read it from there.

    auth          the platform refused the token (401, 403): missing, expired, or without the scope
    not_found     the merge request, project or note is not there for this token (404)
    rate_limited  the platform's rate limit outlasted the retries
    unreachable   no answer from the platform: wrong URL, host down, DNS, TLS
    platform      any other refusal or failure of the platform (400, 409, 422, 5xx)
    config        the service's or the repository's configuration (no token, a bad .dualrag.toml)
    input         the change itself cannot be read (a malformed diff)
    model         the LLM provider failed
    internal      anything else: a bug of ours

A failure that retrying cannot mend (auth, not_found, config, input) is permanent: the job goes to
the dead letters at once instead of after `max_retries`."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


class PermanentFailure(Exception):
    """Retrying will not help (a broken repository configuration, a refused token): dead-letter now."""


REASONS = ("auth", "not_found", "rate_limited", "unreachable", "platform", "config", "input", "model", "internal")
PERMANENT = frozenset({"auth", "not_found", "config", "input"})


@dataclass(frozen=True, slots=True)
class Failure:
    reason: str                 # one of REASONS
    message: str                # one line
    endpoint: str | None = None  # "POST /api/v4/projects/42/merge_requests/7/discussions"
    status: int | None = None    # the HTTP status the platform answered

    @property
    def permanent(self) -> bool:
        return self.reason in PERMANENT

    def line(self) -> str:
        """`auth · POST /api/v4/... · HTTP 403 · <message>`, for the log and `serve status`."""
        call = " · ".join(p for p in (self.endpoint, f"HTTP {self.status}" if self.status else None) if p)
        return f"{self.reason} · {call + ' · ' if call else ''}{self.message}"

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Failure:
        try:
            data = json.loads(text)
            return cls(**{k: data.get(k) for k in ("reason", "message", "endpoint", "status")})
        except (ValueError, TypeError):  # a record written before reasons were kept: its text as the message
            return cls("internal", text)


def classify(exc: BaseException) -> Failure:
    """The reason, call and status of an exception a job raised."""
    from dualrag.errors import ConfigError, DiffError
    from dualrag.llm.errors import LLMError
    from dualrag.vcs.http import VcsAuthError, VcsError, VcsNotFound, VcsRateLimited, VcsUnreachable

    cause = exc.__cause__ if isinstance(exc, PermanentFailure) and exc.__cause__ is not None else exc
    message = _one_line(str(cause) or type(cause).__name__)
    if isinstance(cause, VcsError):
        reason = ("auth" if isinstance(cause, VcsAuthError) else "not_found" if isinstance(cause, VcsNotFound)
                  else "rate_limited" if isinstance(cause, VcsRateLimited)
                  else "unreachable" if isinstance(cause, VcsUnreachable) else "platform")
        if cause.endpoint and message.startswith(cause.endpoint):  # the call and status are shown on their own
            message = message[len(cause.endpoint):].lstrip(": ").removeprefix(f"HTTP {cause.status} - ")
        return Failure(reason, message, cause.endpoint, cause.status)
    if isinstance(cause, ConfigError | PermanentFailure):  # before LLMError: a missing SDK extra is both
        return Failure("config", message)
    if isinstance(cause, LLMError):
        return Failure("model", message)
    if isinstance(cause, DiffError):
        return Failure("input", message)
    return Failure("internal", f"{type(cause).__name__}: {message}")


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
