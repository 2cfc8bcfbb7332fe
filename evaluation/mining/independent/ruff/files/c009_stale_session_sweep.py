"""Remove expired sessions from the in-memory store."""

import time


def sweep(sessions: dict[str, float], ttl: float, now: float | None = None) -> int:
    now = time.time() if now is None else now
    removed = 0
    for token in list(sessions.keys()):
        if now - sessions[token] > ttl:
            del sessions[token]
            removed += 1
    return removed


def active_users(tokens: list[str], owners: dict[str, str]) -> set[str]:
    users = set()
    for token in tokens:
        owner = owners.get(token)
        if owner is not None:
            users.add(owner)
    return users


if __name__ == "__main__":
    store = {"a": 0.0, "b": time.time()}
    print(sweep(store, ttl=60))
