"""What an adapter reads from a merge request before publishing, and the adapter protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from dualrag.vcs.anchoring import Placed
from dualrag.vcs.http import RestClient
from dualrag.vcs.sync import BotThread


@dataclass(frozen=True, slots=True)
class HumanNote:
    note_id: str
    author: str
    body: str


@dataclass(slots=True)
class MRState:
    head_sha: str
    base_sha: str
    start_sha: str
    bot: str | None                      # the token's user (None when the platform won't say)
    threads: list[BotThread] = field(default_factory=list)
    summary_id: str | None = None
    summary_body: str | None = None
    blocking_id: str | None = None       # the blocking thread (GitLab) or review (GitHub)
    blocking_open: bool = False
    approved: bool = False               # dualrag's approval is in force
    last_event: str | None = None        # GitHub: state of dualrag's latest review
    human_notes: list[HumanNote] = field(default_factory=list)


class Adapter(Protocol):
    client: RestClient
    platform: str

    def load(self) -> MRState: ...
    def diff(self) -> bytes: ...
    def post_finding(self, state: MRState, placed: Placed, body: str) -> bool: ...
    def reply(self, thread: BotThread, body: str, *, resolve: bool | None) -> None: ...
    def upsert_summary(self, state: MRState, body: str) -> str: ...
    def set_decision(self, state: MRState, decision: str, blocking_body: str) -> str: ...
