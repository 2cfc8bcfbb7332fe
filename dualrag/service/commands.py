"""Commands written in a merge request's comments (issue 29, item 4): `/dualrag review`,
`/dualrag ask <question>`, `/dualrag help`.

The worker hands over the comment's webhook payload as delivered (GitLab "Note Hook" on a merge
request; GitHub `issue_comment` on a pull request, `pull_request_review_comment`) and the MR's
adapter. In order, each step cheaper than the next:

1. the payload: a new comment on a merge request, else ignored (edits and deletions run nothing);
2. the author: the bot's own comments (its account, or a dualrag marker) are ignored;
3. the text: the first `/dualrag ...` line outside quotes and code (`command_text.py`); none: ignored;
4. the author's access, asked of the platform (GitLab: the member's access level, inherited
   memberships included; GitHub: the collaborator's role). Below `min_access`: nothing is written
   on the MR, and the service log says who was ignored and why;
5. a comment already answered (a redelivery) is not answered again;
6. the command: `help` lists the commands; `review` queues a forced review of the MR's head and
   says so; `ask` answers from the review's own retrieval (`review/ask.py`) in the comment's thread.

Every step ends in one line for the service log, which `handle_note` also returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dualrag.config import Settings
from dualrag.config.vcs import GITHUB_ROLES
from dualrag.diff import ingest_source
from dualrag.llm import LLMFactory
from dualrag.review.ask import answer_question
from dualrag.review.prompt import ChangeInfo
from dualrag.service import command_replies as replies
from dualrag.service.command_text import Command, parse_command
from dualrag.source.review_source import ReviewSource
from dualrag.source.text import one_line
from dualrag.vcs.gitlab import ACCESS
from dualrag.vcs.markers import has_marker
from dualrag.vcs.state import Adapter, MRState

MAX_FILE_BYTES = 2_000_000  # a file read through the API for the ask's chunking and code context


@dataclass(frozen=True, slots=True)
class CommandContext:
    adapter: Adapter                          # the MR's adapter (GitLabAdapter / GitHubAdapter), built by the worker
    settings: Settings                        # service defaults + the repository's .dualrag.toml
    min_access: int                           # GitLab access level (30 Developer); on GitHub see `github_role`
    bot_username: str                         # the account the service posts as
    enqueue_review: Callable[[str], None]     # head sha -> queue a forced review of that head
    log: Callable[[str], None]                # one line to the service log
    # GitHub role a command needs; None: from min_access (<= 10 read, 20 triage, 30 write, 40 maintain, 50 admin)
    github_role: str | None = None
    # head state -> the change with a checkout behind it (code context); None: read through the API
    review_source: Callable[[MRState], ReviewSource | None] | None = None
    llm_factory: LLMFactory | None = None     # shared by a worker's jobs (breakers, the local model's slot)


@dataclass(frozen=True, slots=True)
class Note:
    """One comment, platform-neutral."""

    where: str             # "group/project!7", "owner/repo#5": for the log
    note_id: str
    author: str            # username / login
    author_id: str | None  # GitLab's user id (the members API takes it)
    body: str
    thread_id: str | None  # where a reply goes: GitLab discussion id, GitHub review comment id; None: a new comment


def handle_note(platform: str, payload: dict, ctx: CommandContext) -> str:
    """Act on one comment webhook; returns the line it logged."""
    note = _gitlab_note(payload) if platform == "gitlab" else _github_note(payload) if platform == "github" else None
    if isinstance(note, str) or note is None:
        return _log(ctx, f"{platform}: {note or 'unknown platform'}: ignored")
    where = f"{platform} {note.where} note {note.note_id}"
    if _bot(note.author) == _bot(ctx.bot_username) or has_marker(note.body):
        return _log(ctx, f"{where}: the bot's own comment: ignored")
    command = parse_command(note.body)
    if command is None:
        return _log(ctx, f"{where}: no command")
    said = f"/dualrag {command.name}"
    allowed, have = _access(platform, note, ctx)
    if not allowed:
        return _log(ctx, f"{where}: ignored {said} from @{note.author}: {have}")
    adapter = ctx.adapter
    if adapter.answered(note.thread_id, note.note_id, ctx.bot_username):
        return _log(ctx, f"{where}: {said} from @{note.author} was answered before (a redelivery): nothing to do")
    if command.name == "help":
        adapter.comment_in_thread(note.thread_id, replies.help_body(note.note_id, _who_may(platform, ctx)))
        return _log(ctx, f"{where}: {said} from @{note.author}: listed the commands")
    if command.name == "review":
        state = adapter.load()
        ctx.enqueue_review(state.head_sha)
        adapter.comment_in_thread(note.thread_id, replies.review_body(note.note_id, state.head_sha))
        return _log(ctx, f"{where}: {said} from @{note.author}: queued a review of {state.head_sha[:12]}")
    if command.name == "ask":
        return _log(ctx, f"{where}: {said} from @{note.author}: {_ask(note, command, ctx)}")
    adapter.comment_in_thread(note.thread_id, replies.help_body(note.note_id, _who_may(platform, ctx),
                                                                unknown=command.name))
    return _log(ctx, f"{where}: unknown command {said} from @{note.author}: listed the commands")


def _ask(note: Note, command: Command, ctx: CommandContext) -> str:
    adapter = ctx.adapter
    if not command.argument:
        adapter.comment_in_thread(note.thread_id, replies.ask_usage_body(note.note_id))
        return "no question: said how to ask"
    state = adapter.load()
    source = (ctx.review_source(state) if ctx.review_source else None) or _api_source(adapter, state)
    changes = ingest_source(source, ctx.settings)
    info = ChangeInfo(title=state.title, description=state.description,
                      commit_messages=tuple(state.commit_messages))
    answer = answer_question(command.argument, changes, source, ctx.settings, info=info,
                             llm_factory=ctx.llm_factory)
    adapter.comment_in_thread(note.thread_id, replies.answer_body(note.note_id, answer))
    why = f"{answer.reason}: {answer.error}" if answer.error else answer.reason
    how = f"answered by {answer.model}" if answer.text is not None else f"answered without a model ({why})"
    return f"{how}, citing {len(answer.rules)} rule(s) and {len(answer.code)} code location(s)"


def _api_source(adapter: Adapter, state: MRState) -> ReviewSource:
    """The change as the platform serves it: the MR diff, new files at the head, old ones at the base."""

    def at(ref: str):
        def read(path: str) -> bytes | None:
            try:
                return adapter.read_file(path, ref, MAX_FILE_BYTES)
            except Exception:  # noqa: BLE001 - a file the API will not give is a file without context
                return None
        return read

    return ReviewSource(adapter.diff(), read_file=at(state.head_sha) if state.head_sha else None,
                        read_base=at(state.base_sha) if state.base_sha else None, head=state.head_sha or None)


# ------------------------------------------------------------------------------ access


def github_role_for(level: int) -> str:
    """The GitHub role that stands for a GitLab access level."""
    for upto, role in ((10, "read"), (20, "triage"), (30, "write"), (40, "maintain")):
        if level <= upto:
            return role
    return "admin"


def _access(platform: str, note: Note, ctx: CommandContext) -> tuple[bool, str]:
    if platform == "gitlab":
        if note.author_id is None:
            return False, "the payload names no user id"
        return ctx.adapter.has_access(note.author_id, ctx.min_access)
    role = ctx.github_role or github_role_for(ctx.min_access)
    return ctx.adapter.has_role(note.author, role if role in GITHUB_ROLES else "write")


def _who_may(platform: str, ctx: CommandContext) -> str:
    if platform == "gitlab":
        return f"members with at least {ACCESS.get(ctx.min_access, 'access')} ({ctx.min_access}) access"
    return f"collaborators with at least the {ctx.github_role or github_role_for(ctx.min_access)} role"


def _bot(name: str | None) -> str:
    return (name or "").removesuffix("[bot]").lower()


def _log(ctx: CommandContext, line: str) -> str:
    line = one_line(line)  # names and ids come from the payload: one line, escapes shown
    ctx.log(line)
    return line


# ------------------------------------------------------------------------------ payloads


def _gitlab_note(payload: dict) -> Note | str:
    attrs = payload.get("object_attributes") or {}
    if payload.get("object_kind") != "note" or attrs.get("noteable_type") != "MergeRequest":
        return "not a comment on a merge request"
    if attrs.get("action") not in (None, "create") or attrs.get("system"):
        return f"a note {attrs.get('action') or 'written by the system'}"
    mr = payload.get("merge_request") or {}
    project = (payload.get("project") or {}).get("path_with_namespace") or str(payload.get("project_id") or "?")
    user = payload.get("user") or {}
    author_id = attrs.get("author_id", user.get("id"))
    return Note(where=f"{project}!{mr.get('iid', '?')}", note_id=str(attrs.get("id")),
                author=user.get("username") or "?", author_id=None if author_id is None else str(author_id),
                body=attrs.get("note") or "", thread_id=attrs.get("discussion_id") or None)


def _github_note(payload: dict) -> Note | str:
    comment = payload.get("comment") or {}
    if payload.get("action") != "created" or not comment:
        return f"a comment {payload.get('action') or 'event'} (only new comments run commands)"
    repo = (payload.get("repository") or {}).get("full_name") or "?"
    if "issue" in payload:  # issue_comment: a conversation comment, on a pull request or an issue
        issue = payload.get("issue") or {}
        if not issue.get("pull_request"):
            return "a comment on an issue, not a pull request"
        number, thread = issue.get("number"), None  # conversation comments have no threads
    elif "pull_request" in payload:  # pull_request_review_comment: replies go under the thread's first comment
        number = (payload.get("pull_request") or {}).get("number")
        thread = str(comment.get("in_reply_to_id") or comment.get("id"))
    else:
        return "not a comment on a pull request"
    return Note(where=f"{repo}#{number}", note_id=str(comment.get("id")),
                author=(comment.get("user") or {}).get("login") or "?", author_id=None,
                body=comment.get("body") or "", thread_id=thread)
