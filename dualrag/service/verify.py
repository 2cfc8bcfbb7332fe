"""Is a delivery from the platform? GitLab sends the webhook's secret token as it is
(`X-Gitlab-Token`); GitHub signs the raw body with HMAC-SHA256 (`X-Hub-Signature-256:
sha256=<hex>`). Both are compared in constant time; a missing header is a bad signature."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping


class BadSignature(Exception):
    """The delivery does not prove it came from the platform (401, nothing queued)."""


def check_gitlab(headers: Mapping[str, str], secret: str) -> None:
    given = headers.get("x-gitlab-token")
    if not given or not hmac.compare_digest(given.encode(), secret.encode()):
        raise BadSignature("X-Gitlab-Token does not match the webhook's secret token")


def github_signature(body: bytes, secret: str) -> str:
    """The `X-Hub-Signature-256` value GitHub sends for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def check_github(headers: Mapping[str, str], body: bytes, secret: str) -> None:
    given = headers.get("x-hub-signature-256")
    if not given or not hmac.compare_digest(given.encode(), github_signature(body, secret).encode()):
        raise BadSignature("X-Hub-Signature-256 does not match the HMAC of the body")
