"""Counting semaphores in Redis, shared by every worker on every machine: reviews of one project at
once, LLM requests in flight. A slot is a member of a sorted set scored by its expiry (Redis's own
clock, so machines need not agree on time); a holder renews its slots while it holds them, and
the slot of a worker killed with SIGKILL expires after `ttl_s` instead of leaking."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import redis

# KEYS[1] the semaphore; ARGV: limit, ttl seconds, token. 1 = acquired.
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
  return 1
end
return 0
"""
# KEYS[1] the semaphore; ARGV: ttl seconds, tokens... Renews the slots still held.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i])
end
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1])) + 1)
return 1
"""


class RedisSemaphore:
    """At most `limit` holders of `key` at once across processes; `ttl_s` frees a dead holder's slot."""

    def __init__(self, client: redis.Redis, key: str, limit: int, ttl_s: float = 60.0, poll_s: float = 0.02) -> None:
        self.client, self.key, self.limit, self.ttl_s, self.poll_s = client, key, limit, ttl_s, poll_s
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._held: set[str] = set()
        self._lock = threading.Lock()
        self._keeper: threading.Thread | None = None
        self._stop = threading.Event()

    def try_acquire(self) -> str | None:
        """A token when a slot was free, else None (never waits)."""
        token = uuid.uuid4().hex
        if not self._acquire(keys=[self.key], args=[self.limit, self.ttl_s, token]):
            return None
        with self._lock:
            self._held.add(token)
            self._start_keeper()
        return token

    def acquire(self, timeout_s: float | None = None) -> str | None:
        """Wait for a slot (None after `timeout_s`)."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            token = self.try_acquire()
            if token is not None:
                return token
            if deadline is not None and time.monotonic() >= deadline:
                return None
            time.sleep(self.poll_s)

    def release(self, token: str) -> None:
        with self._lock:
            self._held.discard(token)
        self.client.zrem(self.key, token)

    @contextmanager
    def slot(self) -> Iterator[str]:
        token = self.acquire()
        assert token is not None
        try:
            yield token
        finally:
            self.release(token)

    def holders(self) -> int:
        """Slots held now (expired ones not counted)."""
        now = self.client.time()
        return int(self.client.zcount(self.key, now[0] + now[1] / 1e6, "+inf"))

    def close(self) -> None:
        self._stop.set()

    # -- renewal: one thread per semaphore while anything is held
    def _start_keeper(self) -> None:
        if self._keeper is None or not self._keeper.is_alive():
            self._keeper = threading.Thread(target=self._keep, name=f"slots:{self.key}", daemon=True)
            self._keeper.start()

    def _keep(self) -> None:
        while not self._stop.wait(self.ttl_s / 3):
            with self._lock:
                tokens = list(self._held)
            if tokens:
                try:
                    self._renew(keys=[self.key], args=[self.ttl_s, *tokens])
                except redis.RedisError:
                    pass  # Redis away for a moment: the next round renews, or the slot expires as designed
