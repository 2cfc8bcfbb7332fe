"""What an adapter reads from a merge request before publishing, and the adapter protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from dualrag.config import VcsConfig
from dualrag.vcs.anchoring import Placed
from dualrag.vcs.http import RestClient
from dualrag.vcs.sync import BotThread


@dataclass(frozen=True, slots=True)
class HumanNote:
    note_id: str
    author: str
    body: str
    author_id: str | None = None    # GitLab: the user id the members API takes
    created_at: str | None = None   # ISO 8601, the platform's clock
    commit: str | None = None       # the commit the platform recorded it on (GitHub reviews, review comments)


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
    # The author's words: given to the reviewers (sanitised, checked for injection there).
    author: str | None = None            # who opened the MR: never breaks the glass on it
    title: str = ""
    description: str = ""
    commit_messages: list[str] = field(default_factory=list)


class Adapter(Protocol):
    client: RestClient
    platform: str

    def load(self) -> MRState: ...
    def diff(self) -> bytes: ...
    def post_finding(self, state: MRState, placed: Placed, body: str) -> bool: ...
    def reply(self, thread: BotThread, body: str, *, resolve: bool | None) -> None: ...
    def upsert_summary(self, state: MRState, body: str) -> str: ...
    def set_decision(self, state: MRState, decision: str, blocking_body: str) -> str: ...

    def may_break_glass(self, note: HumanNote, policy: VcsConfig) -> tuple[bool, str]:
        """Whether the note's author has the access `policy` asks for, and what they have."""
        ...

    def head_pushed_at(self, state: MRState) -> str | None:
        """When the head commit became the MR's head, on the platform's clock (None: not recorded)."""
        ...

    # For the review service (dualrag/service/): commands in comments, the target side's configuration.
    def read_file(self, path: str, ref: str, max_bytes: int) -> bytes | None:
        """A file at a commit (None: not there); above `max_bytes`: VcsRejected."""
        ...

    def comment_in_thread(self, thread_id: str | None, body: str) -> None:
        """A reply in a comment's thread (None: a new comment on the MR)."""
        ...

    def answered(self, thread_id: str | None, note_id: str, bot: str) -> bool:
        """Whether the account `bot` already replied to that comment."""
        ...
