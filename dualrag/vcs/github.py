"""GitHub pull requests: REST v3 for comments and reviews, GraphQL for review threads (REST has
no thread resolution). Plain HTTP; PyGithub is not needed.

REST: GET /repos/{o}/{r}/pulls/{n}, GET .../issues/{n}/comments (Link pagination),
GET .../pulls/{n}/reviews, POST .../pulls/{n}/comments (line + side), POST .../comments/{id}/replies,
POST/PATCH issue comments (the summary), POST .../pulls/{n}/reviews (APPROVE / COMMENT /
REQUEST_CHANGES), PUT .../reviews/{id}/dismissals, GET .../pulls/{n}/files (no checkout),
GET .../pulls/{n}/commits (the author's commit messages), and only when someone wrote the
break-glass phrase: GET /repos/{o}/{r}/collaborators/{user}/permission. For the review service's
commands: that permission, GET /repos/{o}/{r}/contents/{path}?ref= (a file at a commit: the target
side's .dualrag.toml), and a reply: POST .../pulls/{n}/comments/{id}/replies under a review comment,
a new issue comment under a conversation comment (those have no threads).
GraphQL: pullRequest.reviewThreads (paginated), resolveReviewThread, unresolveReviewThread.

Break glass and commits: a review carries the commit it was submitted on (`commit_id`), a review
comment the commit it was written on (`originalCommit`); a conversation comment carries none, and
GitHub records no time a head was pushed (commit dates are the author's own), so a conversation
comment breaks the glass only when it names the head commit.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx

from dualrag.config import VcsConfig
from dualrag.config.vcs import GITHUB_ROLES
from dualrag.errors import UserError
from dualrag.vcs import markers
from dualrag.vcs.anchoring import Placed
from dualrag.vcs.http import RestClient, RetryPolicy, VcsAuthError, VcsError, VcsNotFound, VcsRejected
from dualrag.vcs.render import has_suggestion, parse_message, parse_title
from dualrag.vcs.state import HumanNote, MRState
from dualrag.vcs.sync import BotThread, Reply

TOKEN_ENV = "GITHUB_TOKEN"
DEFAULT_BOT = "github-actions[bot]"
DECISION = "<!-- dualrag:decision -->"
_THREADS = """query($owner:String!,$name:String!,$number:Int!,$after:String){repository(owner:$owner,name:$name){
pullRequest(number:$number){reviewThreads(first:100,after:$after){pageInfo{hasNextPage endCursor}
nodes{id isResolved resolvedBy{login} path line originalLine
comments(first:100){nodes{databaseId body createdAt author{login} originalCommit{oid}}}}}}}}"""
_RESOLVE = "mutation($id:ID!){resolveReviewThread(input:{threadId:$id}){thread{id isResolved}}}"
_UNRESOLVE = "mutation($id:ID!){unresolveReviewThread(input:{threadId:$id}){thread{id isResolved}}}"


@dataclass(frozen=True, slots=True)
class GitHubTarget:
    api_url: str      # GITHUB_API_URL
    repository: str   # GITHUB_REPOSITORY, owner/name
    number: int       # pull request number, from GITHUB_EVENT_PATH


def pr_number_from_event(path: str | None) -> int:
    """The pull request number in the Actions event payload."""
    if not path:
        raise UserError("GITHUB_EVENT_PATH is not set: run in a pull_request workflow or pass --pr N")
    try:
        event = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read the GitHub event payload {path}: {exc}") from None
    number = (event.get("pull_request") or {}).get("number") or (
        (event.get("issue") or {}).get("pull_request") and event["issue"].get("number"))
    if not isinstance(number, int):
        raise UserError(f"the event in {path} is not about a pull request: pass --pr N")
    return number


def _login(name: str | None) -> str:
    return (name or "").removesuffix("[bot]")


class GitHubAdapter:
    platform = "github"

    def __init__(self, target: GitHubTarget, token: str, *, bot: str = DEFAULT_BOT, retry: RetryPolicy | None = None,
                 timeout_s: float = 30.0, transport: httpx.BaseTransport | None = None, sleep=None):
        owner, _, name = target.repository.partition("/")
        if not owner or not name:
            raise UserError(f"GITHUB_REPOSITORY must be owner/name, not {target.repository!r}")
        kw = {"sleep": sleep} if sleep else {}
        self.client = RestClient(target.api_url, headers={
            "Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28"}, secret=token,
            token_hint=f"{TOKEN_ENV} (permissions: pull-requests: write, contents: read)",
            retry=retry, timeout_s=timeout_s, transport=transport, **kw)
        api = target.api_url.rstrip("/")
        self.graphql = api[: -len("/v3")] + "/graphql" if api.endswith("/api/v3") else api + "/graphql"
        self.owner, self.name, self.number = owner, name, int(target.number)
        self.repo = f"/repos/{owner}/{name}"
        self.pr = f"{self.repo}/pulls/{self.number}"
        self.bot = bot
        self._roles: dict[str, str] = {}

    def _gql(self, query: str, **variables) -> dict:
        mutation = query.lstrip().startswith("mutation")  # a query reads: not a write in the job log
        resp = self.client.post(self.graphql, {"query": query, "variables": variables}, write=mutation) or {}
        if resp.get("errors"):
            message = "; ".join(str(e.get("message")) for e in resp["errors"])
            raise VcsError(f"GitHub GraphQL: {self.client.redact(message)[:300]}")
        return resp.get("data") or {}

    # ------------------------------------------------------------------ read
    def load(self) -> MRState:
        pr = self.client.get(self.pr) or {}
        state = MRState(head_sha=(pr.get("head") or {}).get("sha", ""), base_sha=(pr.get("base") or {}).get("sha", ""),
                        start_sha=(pr.get("base") or {}).get("sha", ""), bot=self.bot,
                        author=_login((pr.get("user") or {}).get("login")) or None, title=pr.get("title") or "",
                        description=pr.get("body") or "")
        state.commit_messages = [(c.get("commit") or {}).get("message") or ""
                                 for c in self.client.paginate(f"{self.pr}/commits")]
        bot = _login(self.bot)
        after = None
        while True:
            data = self._gql(_THREADS, owner=self.owner, name=self.name, number=self.number, after=after)
            threads = (((data.get("repository") or {}).get("pullRequest") or {}).get("reviewThreads") or {})
            for t in threads.get("nodes") or []:
                self._thread(state, t, bot)
            page = threads.get("pageInfo") or {}
            if not page.get("hasNextPage"):
                break
            after = page.get("endCursor")
        for c in self.client.paginate(f"{self.repo}/issues/{self.number}/comments"):
            who, body = _login((c.get("user") or {}).get("login")), c.get("body") or ""
            if who == bot and markers.is_summary(body):
                if state.summary_id is None:
                    state.summary_id, state.summary_body = str(c["id"]), body
            elif who != bot and not markers.has_marker(body):
                state.human_notes.append(HumanNote(str(c["id"]), who, body, created_at=c.get("created_at")))
        for r in self.client.paginate(f"{self.pr}/reviews"):
            who, body = _login((r.get("user") or {}).get("login")), r.get("body") or ""
            if who == bot and DECISION in body:
                state.last_event, state.blocking_id = r.get("state"), str(r.get("id"))
            elif who != bot and body and not markers.has_marker(body):
                state.human_notes.append(HumanNote(f"review-{r.get('id')}", who, body,
                                                   created_at=r.get("submitted_at"), commit=r.get("commit_id")))
        state.approved = state.last_event == "APPROVED"
        state.blocking_open = state.last_event == "CHANGES_REQUESTED"
        return state

    def _thread(self, state: MRState, t: dict, bot: str) -> None:
        comments = (t.get("comments") or {}).get("nodes") or []
        if not comments:
            return
        first = comments[0]
        ours = _login((first.get("author") or {}).get("login")) == bot
        meta = markers.parse_finding(first.get("body")) if ours else None
        replies = [Reply(str(c.get("databaseId")), _login((c.get("author") or {}).get("login")) or "?",
                         c.get("body") or "", _login((c.get("author") or {}).get("login")) == bot) for c in comments[1:]]
        humans = [HumanNote(str(c.get("databaseId")), _login((c.get("author") or {}).get("login")) or "?",
                            c.get("body") or "", created_at=c.get("createdAt"),
                            commit=(c.get("originalCommit") or {}).get("oid"))
                  for c in comments[0 if not ours else 1:]
                  if _login((c.get("author") or {}).get("login")) != bot]
        if not meta:
            state.human_notes.extend(humans)
            return
        state.threads.append(BotThread(
            thread_id=str(t["id"]), fingerprint=meta.get("fp", ""), key=meta.get("key", ""),
            severity=meta.get("sev", "info"), path=t.get("path") or "", line=t.get("line") or t.get("originalLine"),
            title=parse_title(first.get("body") or ""), category=meta.get("cat", ""), rule_id=meta.get("rule"),
            resolved=bool(t.get("isResolved")),
            resolved_by_bot=_login((t.get("resolvedBy") or {}).get("login")) == bot,
            commit=None if meta.get("commit") in (None, "-") else meta["commit"], replies=replies,
            platform={"comment_id": first.get("databaseId")},
            message=parse_message(first.get("body") or ""), suggested=has_suggestion(first.get("body") or ""),
            code=meta.get("code", ""),
        ))
        state.human_notes.extend(humans)

    def may_break_glass(self, note: HumanNote, policy: VcsConfig) -> tuple[bool, str]:
        """The author's role on the repository (`role_name`; custom roles by their base `permission`)."""
        return self.has_role(note.author, policy.github_break_glass_role)

    def has_role(self, login: str, need: str) -> tuple[bool, str]:
        """Whether the user has at least the repository role `need`, and what they have (in words)."""
        role = self.role(login)
        ok = role != "none" and GITHUB_ROLES.index(role) >= GITHUB_ROLES.index(need)
        return ok, f"role {role}" + ("" if ok else f" (needs {need})")

    def role(self, login: str) -> str:
        """The user's role on the repository (`role_name`; custom roles by their base `permission`), or "none"."""
        if login not in self._roles:
            try:
                got = self.client.get(f"{self.repo}/collaborators/{login}/permission") or {}
                role = got.get("role_name") if got.get("role_name") in GITHUB_ROLES else got.get("permission")
            except (VcsNotFound, VcsAuthError):  # no collaborator, or a token that may not ask: no role
                role = None
            self._roles[login] = role if role in GITHUB_ROLES else "none"
        return self._roles[login]

    def read_file(self, path: str, ref: str, max_bytes: int) -> bytes | None:
        """The file at commit `ref` (None: no such file there, or a folder). Above `max_bytes`: VcsRejected.
        The contents API sends files up to 1 MB inline, base64; above that `content` is empty."""
        resp = self.client.request("GET", f"{self.repo}/contents/{quote(path)}", params={"ref": ref}, allow=(404,))
        got = resp.json() if resp.status_code != 404 and resp.content else None
        if not isinstance(got, dict) or got.get("type") != "file":
            return None
        size = int(got.get("size") or 0)
        if size > max_bytes:
            raise VcsRejected(f"{path} at {ref[:12]}: {size:,} bytes, above the {max_bytes:,} read")
        try:
            data = base64.b64decode(got.get("content") or "", validate=False)
        except (binascii.Error, ValueError):
            raise VcsError(f"GET {self.repo}/contents/{path}: the content is not base64") from None
        if len(data) != size:
            raise VcsError(f"GET {self.repo}/contents/{path}: {len(data)} bytes sent of {size}")
        return data

    def head_pushed_at(self, state: MRState) -> str | None:
        return None  # not recorded: see the module's docstring

    def diff(self) -> bytes:
        parts: list[str] = []
        for f in self.client.paginate(f"{self.pr}/files"):
            new, status = f.get("filename"), f.get("status")
            old = f.get("previous_filename") or new
            head = [f"diff --git a/{old} b/{new}"]
            if status == "added":
                head.append("new file mode 100644")
            elif status == "removed":
                head.append("deleted file mode 100644")
            elif status == "renamed":
                head += [f"rename from {old}", f"rename to {new}"]
            patch = f.get("patch") or ""
            if patch:
                head.append("--- /dev/null" if status == "added" else f"--- a/{old}")
                head.append("+++ /dev/null" if status == "removed" else f"+++ b/{new}")
            parts.append("\n".join(head) + "\n" + patch + ("" if not patch or patch.endswith("\n") else "\n"))
        return "".join(parts).encode("utf-8")

    # ------------------------------------------------------------------ write
    def post_finding(self, state: MRState, placed: Placed, body: str) -> bool:
        a = placed.anchor
        assert a is not None
        payload = {"body": body, "commit_id": state.head_sha, "path": a.path if a.new_line else a.old_path,
                   "line": a.new_line or a.old_line, "side": "RIGHT" if a.new_line else "LEFT"}
        if placed.span is not None and placed.span[1] > placed.span[0]:  # a suggestion replaces the lines commented on
            payload.update(start_line=placed.span[0], start_side="RIGHT", line=placed.span[1])
        resp = self.client.request("POST", f"{self.pr}/comments", json=payload, allow=(400, 422))
        return resp.status_code < 400

    def reply(self, thread: BotThread, body: str, *, resolve: bool | None) -> None:
        self.client.post(f"{self.pr}/comments/{thread.platform['comment_id']}/replies", {"body": body})
        if resolve is not None and resolve != thread.resolved:
            self._gql(_RESOLVE if resolve else _UNRESOLVE, id=thread.thread_id)

    def answered(self, thread_id: str | None, note_id: str, bot: str) -> bool:
        """Whether `bot` already replied to the comment (a reply marker naming it): under the review
        comment `thread_id`, else among the conversation comments. Someone else's copy does not count."""
        if thread_id:
            comments = [c for c in self.client.paginate(f"{self.pr}/comments")
                        if str(c.get("in_reply_to_id") or c.get("id")) == str(thread_id)]
        else:
            comments = list(self.client.paginate(f"{self.repo}/issues/{self.number}/comments"))
        return any(markers.replied_to(c.get("body"), note_id) for c in comments
                   if _login((c.get("user") or {}).get("login")) == _login(bot))

    def comment_in_thread(self, thread_id: str | None, body: str) -> None:
        """A reply under the review comment `thread_id` (its id), else a new conversation comment."""
        if thread_id:
            self.client.post(f"{self.pr}/comments/{int(thread_id)}/replies", {"body": body})
        else:
            self.client.post(f"{self.repo}/issues/{self.number}/comments", {"body": body})

    def upsert_summary(self, state: MRState, body: str) -> str:
        if state.summary_id is not None:
            if state.summary_body == body:
                return "unchanged"
            try:
                self.client.patch(f"{self.repo}/issues/comments/{state.summary_id}", {"body": body})
                return "updated"
            except VcsNotFound:
                pass
        note = self.client.post(f"{self.repo}/issues/{self.number}/comments", {"body": body}) or {}
        state.summary_id, state.summary_body = str(note.get("id")), body
        return "created"

    def set_decision(self, state: MRState, decision: str, blocking_body: str) -> str:
        event = {"approved": "APPROVE", "approved_with_comments": "APPROVE",
                 "significant_concerns": "REQUEST_CHANGES", "minor_issues": "COMMENT"}.get(decision)
        want = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}.get(event or "")
        if state.last_event == want or (event is None and state.last_event in (None, "DISMISSED", "COMMENTED")):
            return "unchanged"
        done = []
        if state.last_event in ("APPROVED", "CHANGES_REQUESTED") and state.blocking_id:
            self.client.put(f"{self.pr}/reviews/{state.blocking_id}/dismissals",
                            {"message": f"dualrag: decision is now {decision}", "event": "DISMISS"})
            done.append("dismissed")
        if event is None:
            return ", ".join(done) or "unchanged"
        body = DECISION + "\n" + (blocking_body if event == "REQUEST_CHANGES" else
                                  f"dualrag: **{decision}** — see the summary comment.")
        try:
            self.client.post(f"{self.pr}/reviews", {"commit_id": state.head_sha, "event": event, "body": body})
        except VcsRejected as exc:  # e.g. Actions may not approve in this repository
            done.append(f"{event.lower()} refused: {exc}")
            return ", ".join(done)
        done.append(event.lower())
        return ", ".join(done)
