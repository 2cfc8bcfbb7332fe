"""Redis semaphores shared by all workers, and forced reviews from a `/dualrag review` comment."""

from __future__ import annotations

import time

import redis

from dualrag.service.jobs import Job, JobKeys
from dualrag.service.limits import RedisSemaphore
from dualrag.service.queue import make_broker
from dualrag.service.status import queue_status
from dualrag.service.worker import Runtime, enqueue_forced_review


def test_a_slot_is_shared_and_a_dead_holders_slot_expires(redis_url):
    client = redis.Redis.from_url(redis_url)
    a = RedisSemaphore(client, "t:llm", limit=2, ttl_s=1.0)
    b = RedisSemaphore(client, "t:llm", limit=2, ttl_s=1.0)
    held = [a.try_acquire(), b.try_acquire()]
    assert all(held) and a.try_acquire() is None and b.holders() == 2
    a.close()  # `a` dies: it renews nothing any more
    time.sleep(1.3)
    assert b.holders() == 1  # b renewed its slot; a's expired
    token = b.try_acquire()
    assert token is not None and b.try_acquire() is None
    b.release(token)
    b.release(held[1])
    assert b.holders() == 0


def test_forced_reviews_are_not_duplicates_of_the_push_but_of_each_other(redis_url, tmp_path):
    from service_support import service_settings

    settings = service_settings(redis_url, tmp_path / "store")
    client = redis.Redis.from_url(redis_url)
    _, actor = make_broker(settings.service)
    rt = Runtime(settings, client, actor)
    head = "c3" * 20
    push = Job("review", "gitlab", "42", 7, head, None, "2026-12-01T10:00:00.000000")
    keys = JobKeys(client, "reviews")
    assert keys.claim(push) and not keys.claim(push)
    note = Job("command", "gitlab", "42", 7, note_id="901")
    assert enqueue_forced_review(rt, note, head) is True      # the push's review does not stop it
    assert enqueue_forced_review(rt, note, head) is False     # a redelivered comment does
    other = Job("command", "gitlab", "42", 7, note_id="902")
    assert enqueue_forced_review(rt, other, head) is True     # another comment asks again
    assert queue_status(client, "reviews").waiting == 2
    assert not keys.superseded(Job("review", "gitlab", "42", 7, head, None, "2026-12-01T10:00:00.000000"))
