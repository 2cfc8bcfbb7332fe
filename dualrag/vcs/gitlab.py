"""GitLab merge requests over the REST API v4 (plain HTTP; python-gitlab is not needed).

Calls used: GET /user, GET /projects/:id/merge_requests/:iid (diff_refs), GET .../discussions
(paginated, X-Next-Page), POST .../discussions (inline: position with base/start/head sha,
old/new path, new_line and/or old_line, line_code), POST .../discussions/:id/notes,
PUT .../discussions/:id (resolved), PUT .../notes/:id, POST .../notes, GET .../approvals,
POST .../approve, POST .../unapprove, GET .../diffs (when there is no checkout),
GET .../commits (the author's commit messages), and only when someone wrote the break-glass phrase:
GET /projects/:id/members/all/:user_id (access level), GET .../versions (when the head was pushed).
For the review service's commands: the member's access level, GET /projects/:id/repository/files/
:path/raw?ref= (a file at a commit: the target side's .dualrag.toml) and POST .../discussions/:id/notes
(a reply in the thread of a command).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

import httpx

from dualrag.config import VcsConfig
from dualrag.vcs import markers
from dualrag.vcs.anchoring import Placed
from dualrag.vcs.http import RestClient, RetryPolicy, VcsAuthError, VcsNotFound, VcsRejected
from dualrag.vcs.render import has_suggestion, parse_message, parse_title
from dualrag.vcs.state import HumanNote, MRState
from dualrag.vcs.sync import BotThread, Reply

TOKEN_ENV = "DUALRAG_GITLAB_TOKEN"
ACCESS = {10: "Guest", 15: "Planner", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner"}


@dataclass(frozen=True, slots=True)
class GitLabTarget:
    server_url: str   # CI_SERVER_URL
    project_id: str   # CI_PROJECT_ID (a number, or a "group/project" path)
    mr_iid: int       # CI_MERGE_REQUEST_IID


class GitLabAdapter:
    platform = "gitlab"

    def __init__(self, target: GitLabTarget, token: str, *, retry: RetryPolicy | None = None,
                 timeout_s: float = 30.0, transport: httpx.BaseTransport | None = None, sleep=None):
        kw = {"sleep": sleep} if sleep else {}
        self.client = RestClient(f"{target.server_url.rstrip('/')}/api/v4", headers={"PRIVATE-TOKEN": token},
                                 secret=token, token_hint=f"{TOKEN_ENV} (scope: api)", retry=retry,
                                 timeout_s=timeout_s, transport=transport, **kw)
        self.project = f"/projects/{quote(str(target.project_id), safe='')}"
        self.mr = f"{self.project}/merge_requests/{int(target.mr_iid)}"
        self._access: dict[str, int] = {}

    # ------------------------------------------------------------------ read
    def load(self) -> MRState:
        mr = self.client.get(self.mr)
        if not isinstance(mr, dict):
            raise VcsNotFound(f"GET {self.mr}: not a merge request")
        refs = mr.get("diff_refs") or {}
        head = refs.get("head_sha") or mr.get("sha") or ""
        me = self.client.get("/user") or {}
        bot = me.get("username")
        state = MRState(head_sha=head, base_sha=refs.get("base_sha") or "", start_sha=refs.get("start_sha") or "",
                        bot=bot, author=(mr.get("author") or {}).get("username"), title=mr.get("title") or "",
                        description=mr.get("description") or "")
        # newest first on the API; oldest first here, as the author wrote them
        state.commit_messages = [c.get("message") or c.get("title") or ""
                                 for c in self.client.paginate(f"{self.mr}/commits")][::-1]
        for d in self.client.paginate(f"{self.mr}/discussions"):
            notes = [n for n in d.get("notes") or [] if not n.get("system")]
            if not notes:
                continue
            first = notes[0]
            author = (first.get("author") or {}).get("username")
            body = first.get("body") or ""
            ours = author == bot
            if ours and markers.is_summary(body):
                if state.summary_id is None:
                    state.summary_id, state.summary_body = str(first["id"]), body
                continue
            if ours and markers.is_blocking(body):
                state.blocking_id, state.blocking_open = str(d["id"]), not first.get("resolved", False)
                continue
            meta = markers.parse_finding(body) if ours else None
            if meta:
                state.threads.append(self._thread(d, notes, meta, bot))
                continue
            for n in notes:  # human comments anywhere: break glass is read from these
                who = (n.get("author") or {}).get("username") or "?"
                if who != bot and not markers.has_marker(n.get("body")):
                    state.human_notes.append(_human(n))
        for t in state.threads:
            state.human_notes.extend(_human(n) for n in t.platform.get("human_notes", ()))
        approvals = self.client.get(f"{self.mr}/approvals") or {}
        state.approved = any((a.get("user") or {}).get("username") == bot for a in approvals.get("approved_by") or [])
        return state

    @staticmethod
    def _thread(d: dict, notes: list[dict], meta: dict[str, str], bot: str | None) -> BotThread:
        first = notes[0]
        pos = first.get("position") or {}
        resolver = (first.get("resolved_by") or {}).get("username")
        title = parse_title(first.get("body") or "")
        replies = [Reply(str(n["id"]), (n.get("author") or {}).get("username") or "?", n.get("body") or "",
                         (n.get("author") or {}).get("username") == bot) for n in notes[1:]]
        return BotThread(
            thread_id=str(d["id"]), fingerprint=meta.get("fp", ""), key=meta.get("key", ""),
            severity=meta.get("sev", "info"), path=pos.get("new_path") or pos.get("old_path") or "",
            line=pos.get("new_line") or pos.get("old_line"), title=title, category=meta.get("cat", ""),
            rule_id=meta.get("rule"),
            resolved=bool(first.get("resolved")), resolved_by_bot=resolver == bot,
            commit=None if meta.get("commit") in (None, "-") else meta["commit"], replies=replies,
            platform={"human_notes": [n for n in notes[1:] if (n.get("author") or {}).get("username") != bot]},
            message=parse_message(first.get("body") or ""), suggested=has_suggestion(first.get("body") or ""),
            code=meta.get("code", ""),
        )

    def may_break_glass(self, note: HumanNote, policy: VcsConfig) -> tuple[bool, str]:
        """The author's access level on the project, inherited memberships included (404: none)."""
        need = policy.gitlab_break_glass_access
        if note.author_id is None:
            return False, f"an unknown access level (needs {_level(need)})"
        return self.has_access(note.author_id, need)

    def has_access(self, user_id: str, need: int) -> tuple[bool, str]:
        """Whether the user has at least access level `need`, and what they have (in words)."""
        level = self.access_level(user_id)
        have = _level(level) if level else "no membership"
        return level >= need, have if level >= need else f"{have} (needs {_level(need)})"

    def access_level(self, user_id: str) -> int:
        """The user's access level on the project, inherited memberships included (0: none)."""
        if user_id not in self._access:
            try:
                member = self.client.get(f"{self.project}/members/all/{quote(user_id, safe='')}") or {}
                self._access[user_id] = int(member.get("access_level") or 0)
            except (VcsNotFound, VcsAuthError):  # no member, or a token that may not see members: no access
                self._access[user_id] = 0
        return self._access[user_id]

    def read_file(self, path: str, ref: str, max_bytes: int) -> bytes | None:
        """The file at commit `ref` (None: no such file there). Above `max_bytes`: VcsRejected."""
        resp = self.client.request("GET", f"{self.project}/repository/files/{quote(path, safe='')}/raw",
                                   params={"ref": ref}, allow=(404,))
        if resp.status_code == 404:
            return None
        if len(resp.content) > max_bytes:
            raise VcsRejected(f"{path} at {ref[:12]}: {len(resp.content):,} bytes, above the {max_bytes:,} read")
        return resp.content

    def head_pushed_at(self, state: MRState) -> str | None:
        """The MR's latest diff version (one per push, newest first) is the head's: its creation time."""
        try:
            versions = self.client.get(f"{self.mr}/versions", per_page=1) or []
        except (VcsNotFound, VcsAuthError):
            return None
        latest = versions[0] if isinstance(versions, list) and versions else {}
        return latest.get("created_at") if latest.get("head_commit_sha") == state.head_sha else None

    def diff(self) -> bytes:
        """The merge request's diff from the API, as a git diff (for jobs without a checkout).

        A file's `diff` comes in two shapes: from its first `@@` (GitLab's default), or under its
        own `---`/`+++` lines (`unidiff=true`, asked for here, GitLab 16.5+; and the shape the API
        documentation's examples showed before). The `---`/`+++` lines are written only when absent:
        twice, they make the diff unreadable."""
        parts: list[str] = []
        for f in self.client.paginate(f"{self.mr}/diffs", unidiff="true"):
            old, new = f.get("old_path") or f.get("new_path"), f.get("new_path") or f.get("old_path")
            head = [f"diff --git a/{old} b/{new}"]
            if f.get("new_file"):
                head.append(f"new file mode {f.get('b_mode') or '100644'}")
            elif f.get("deleted_file"):
                head.append(f"deleted file mode {f.get('a_mode') or '100644'}")
            elif f.get("renamed_file"):
                head += [f"rename from {old}", f"rename to {new}"]
            body = f.get("diff") or ""
            if body and not body.startswith(("--- ", "+++ ")):
                head.append("--- /dev/null" if f.get("new_file") else f"--- a/{old}")
                head.append("+++ /dev/null" if f.get("deleted_file") else f"+++ b/{new}")
            parts.append("\n".join(head) + "\n" + body + ("" if not body or body.endswith("\n") else "\n"))
        return "".join(parts).encode("utf-8")

    # ------------------------------------------------------------------ write
    def post_finding(self, state: MRState, placed: Placed, body: str) -> bool:
        a = placed.anchor
        assert a is not None
        position = {"position_type": "text", "base_sha": state.base_sha, "start_sha": state.start_sha,
                    "head_sha": state.head_sha, "old_path": a.old_path, "new_path": a.path,
                    "line_code": a.line_code()}
        if a.new_line is not None:
            position["new_line"] = a.new_line
        if a.old_line is not None:
            position["old_line"] = a.old_line
        resp = self.client.request("POST", f"{self.mr}/discussions", json={"body": body, "position": position},
                                   allow=(400,))
        return resp.status_code < 400

    def reply(self, thread: BotThread, body: str, *, resolve: bool | None) -> None:
        path = f"{self.mr}/discussions/{thread.thread_id}"
        self.client.post(f"{path}/notes", {"body": body})
        if resolve is not None and resolve != thread.resolved:
            self.client.put(path, {"resolved": resolve})

    def answered(self, thread_id: str | None, note_id: str, bot: str) -> bool:
        """Whether `bot` already replied to the note (a reply marker naming it) in its discussion: a
        marker someone else copied into a comment does not count."""
        if thread_id:
            try:
                notes = (self.client.get(f"{self.mr}/discussions/{quote(thread_id, safe='')}") or {}).get("notes") or []
            except VcsNotFound:
                return False
        else:
            notes = list(self.client.paginate(f"{self.mr}/notes"))
        return any(markers.replied_to(n.get("body"), note_id) for n in notes
                   if (n.get("author") or {}).get("username") == bot)

    def comment_in_thread(self, thread_id: str | None, body: str) -> None:
        """A note in the discussion `thread_id` (a comment on its own is a discussion too), else a new note."""
        if thread_id:
            self.client.post(f"{self.mr}/discussions/{quote(thread_id, safe='')}/notes", {"body": body})
        else:
            self.client.post(f"{self.mr}/notes", {"body": body})

    def upsert_summary(self, state: MRState, body: str) -> str:
        if state.summary_id is not None:
            if state.summary_body == body:
                return "unchanged"
            try:
                self.client.put(f"{self.mr}/notes/{state.summary_id}", {"body": body})
                return "updated"
            except VcsNotFound:  # deleted by a human between our read and write
                pass
        note = self.client.post(f"{self.mr}/notes", {"body": body}) or {}
        state.summary_id, state.summary_body = str(note.get("id")), body
        return "created"

    def set_decision(self, state: MRState, decision: str, blocking_body: str) -> str:
        approve = decision in ("approved", "approved_with_comments")
        done = "unchanged"
        if decision == "significant_concerns":
            if state.blocking_id is None:
                self.client.post(f"{self.mr}/discussions", {"body": blocking_body})
                done = "blocked"
            elif not state.blocking_open:
                self.client.post(f"{self.mr}/discussions/{state.blocking_id}/notes", {"body": blocking_body})
                self.client.put(f"{self.mr}/discussions/{state.blocking_id}", {"resolved": False})
                done = "blocked"
        elif state.blocking_id is not None and state.blocking_open:
            self.client.put(f"{self.mr}/discussions/{state.blocking_id}", {"resolved": True})
            done = "unblocked"
        if approve and not state.approved:
            try:
                self.client.post(f"{self.mr}/approve", {"sha": state.head_sha})
            except (VcsRejected, VcsAuthError) as exc:  # GitLab answers 401 to one who may not approve this MR
                return f"approval refused: {exc}"  # (below Developer, its author, approvals off): the review stands
            return "approved"
        if not approve and state.approved:
            self.client.post(f"{self.mr}/unapprove")
            return "unapproved" if done == "unchanged" else f"unapproved, {done}"
        return done


def _human(n: dict) -> HumanNote:
    author = n.get("author") or {}
    return HumanNote(str(n["id"]), author.get("username") or "?", n.get("body") or "",
                     author_id=str(author["id"]) if author.get("id") is not None else None,
                     created_at=n.get("created_at"))


def _level(level: int) -> str:
    return f"{ACCESS.get(level, 'access')} ({level})"
