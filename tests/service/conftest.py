"""The review service's tests run on a real redis-server (Debian's package) on a free loopback
port, started once per session and emptied before each test; the platforms and the LLM are the
loopback doubles (tests/vcs/vcs_fakes.py, dualrag/testing/)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vcs"))  # vcs_fakes, vcs_support


@pytest.fixture(scope="session")
def redis_server():
    from dualrag.testing.redis import RedisMissing, RedisServer

    try:
        server = RedisServer().start()
    except RedisMissing as exc:  # a missing server is a broken set-up, not a reason to skip
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server):
    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    client.close()
    return redis_server.url
