"""Job identity in Redis: one review per (platform, repository, merge request, head commit), the
newest head of each merge request, and the keys every process of one service shares.

- dedup: `SET NX` on the job's key when a delivery is accepted, so a duplicate or a redelivery of
  the same head is dropped at the door; a forced review (`/dualrag review`) has its own key per
  comment, so it is not a duplicate of the push's review, but a redelivered comment is;
- supersede: each accepted push records (stamp, head) for its MR when its stamp is not older than
  the one recorded (one Lua script, atomic); a job whose head is no longer the newest is
  superseded: the worker skips it, before reviewing and again right before publishing. A delivery
  for an older head arriving late (out of order) is dropped at the door the same way."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import redis

from dualrag.service.events import NoteEvent, ReviewRequest
from dualrag.service.failures import Failure

# KEYS[1] the MR's newest-head hash; ARGV: head, stamp. Returns 1 when `head` is (now) the newest.
_RECORD_HEAD = """
local stamp = redis.call('HGET', KEYS[1], 'stamp')
local head = redis.call('HGET', KEYS[1], 'head')
if head and head ~= ARGV[1] and stamp and stamp > ARGV[2] then return 0 end
if head ~= ARGV[1] or not stamp or ARGV[2] > stamp then
  redis.call('HSET', KEYS[1], 'head', ARGV[1], 'stamp', ARGV[2])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


@dataclass(frozen=True, slots=True)
class Job:
    """What a worker gets: a review of one head, or a comment to read for commands. Plain data
    (it travels as JSON through the queue)."""

    kind: str            # "review" | "command"
    platform: str
    repository: str
    mr: int
    head_sha: str = ""
    base_sha: str | None = None
    stamp: str = ""
    forced_by: str = ""  # a forced review: the comment that asked for it
    note_id: str = ""
    payload: dict[str, Any] | None = None

    @property
    def mr_key(self) -> str:
        return f"{self.platform}:{self.repository}:{self.mr}"

    @property
    def key(self) -> str:
        """The job's identity: its dedup key."""
        if self.kind == "command":
            return f"{self.mr_key}:note:{self.note_id}"
        return f"{self.mr_key}:{self.head_sha}" + (f":forced:{self.forced_by}" if self.forced_by else "")

    def label(self) -> str:
        what = f"head {self.head_sha[:12]}" if self.kind == "review" else f"note {self.note_id}"
        return f"{self.platform} {self.repository}!{self.mr} {what}" + (" (forced)" if self.forced_by else "")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        return cls(**{k: data.get(k) for k in cls.__dataclass_fields__ if k in data})

    @classmethod
    def review(cls, req: ReviewRequest) -> Job:
        return cls("review", req.platform, req.repository, req.mr, req.head_sha, req.base_sha, req.stamp)

    @classmethod
    def command(cls, note: NoteEvent) -> Job:
        return cls("command", note.platform, note.repository, note.mr, note_id=note.note_id, payload=note.payload)


class JobKeys:
    """The service's shared state beside the queue, under one prefix."""

    def __init__(self, client: redis.Redis, prefix: str, ttl_s: int = 7 * 86_400) -> None:
        self.client, self.prefix, self.ttl_s = client, prefix, ttl_s
        self._record = client.register_script(_RECORD_HEAD)

    def _job(self, job: Job) -> str:
        return f"{self.prefix}:job:{job.key}"

    def _head(self, job: Job) -> str:
        return f"{self.prefix}:head:{job.mr_key}"

    def claim(self, job: Job) -> bool:
        """True for the first delivery of this job; False for a duplicate or redelivery."""
        return bool(self.client.set(self._job(job), "queued", nx=True, ex=self.ttl_s))

    def unclaim(self, job: Job) -> None:
        """The job could not be queued: a redelivery must be able to queue it."""
        self.client.delete(self._job(job))

    def record_head(self, job: Job) -> bool:
        """Record the job's head as its MR's newest; False when a newer push is already recorded."""
        return bool(self._record(keys=[self._head(job)], args=[job.head_sha, job.stamp, self.ttl_s]))

    def newest_head(self, job: Job) -> tuple[str | None, str | None]:
        head, stamp = self.client.hmget(self._head(job), "head", "stamp")
        return (head.decode() if head else None), (stamp.decode() if stamp else None)

    def record_failure(self, job: Job, failure: Failure) -> None:
        """The last failure of a job (reason, call, status, message) and how many attempts failed
        (Dramatiq's dead letter keeps the message as it was queued, not why it failed)."""
        pipe = self.client.pipeline()
        pipe.hset(f"{self.prefix}:failures", job.key, failure.to_json())
        pipe.hincrby(f"{self.prefix}:failed_attempts", job.key, 1)
        pipe.execute()

    def failure(self, job: Job) -> tuple[Failure | None, int]:
        text, attempts = self.client.hget(f"{self.prefix}:failures", job.key), \
            self.client.hget(f"{self.prefix}:failed_attempts", job.key)
        return (Failure.from_json(text.decode()) if text else None), int(attempts or 0)

    def superseded(self, job: Job) -> bool:
        """A newer push of the same MR was recorded after this job's head."""
        head, stamp = self.newest_head(job)
        return bool(head and head != job.head_sha and stamp is not None and stamp > job.stamp)
