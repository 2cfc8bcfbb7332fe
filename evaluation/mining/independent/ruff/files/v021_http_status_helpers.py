"""Helpers around HTTP responses from the partner API."""

import json


class ApiError(RuntimeError):
    pass


def ensure_ok(response) -> None:
    status = getattr(response, "status_code")
    if status >= 400:
        raise ApiError(f"partner API answered {status}: {response.text[:200]}")


def payload(response) -> dict:
    ensure_ok(response)
    if not response.content:
        return {}
    return json.loads(response.content)


def retry_after(response, default: int = 30) -> int:
    value = response.headers.get("Retry-After")
    return int(value) if value and value.isdigit() else default
