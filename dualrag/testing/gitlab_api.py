"""A loopback GitLab written from GitLab's REST API documentation (doc/api/ of gitlab-org/gitlab), not
from what dualrag calls: projects found by id or URL-encoded path, merge requests with their diff
versions, diffs (paginated, `unidiff`), the deprecated `changes`, commits, discussions and notes,
approvals, members, repository files, the token's own record, and webhook payloads to deliver.

    gl = GitLabDouble()
    bot = gl.add_token("glpat-...", "dualrag-bot", scopes=("api",))
    project = gl.add_project(42, "acme/shop", members={"dualrag-bot": 30, "dev": 30})
    mr = gl.open_merge_request(project, 7, author="dev", diff=DIFF, head="a1" * 20)
    payload = gl.merge_request_hook(mr, "open")       # POST it with X-Gitlab-Token

What it answers as the documentation says (the file and section are named where it happens):
required attributes missing -> 400 `{"error": "<name> is missing"}`; a bad or revoked token -> 401;
a token without the scope a call needs -> 403 `insufficient_scope`; a project the token's user is
not a member of, or an MR, discussion, note or file that is not there -> 404; an approval with a
`sha` that is not the head -> 409; a diff position that does not name a line of the MR's diff the
way the discussions page says -> 400 with GitLab's `line_code` message; lists paginated by `page`
and `per_page` (default 20, at most 100) with `x-*` and `Link` headers. Faults and rate limiting
(`throttle`: 429 with `Retry-After` and `RateLimit-*`) are queued per route."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dualrag.testing.api_double import Answer, ApiDouble, ApiError, FileChange, Request, iso, parse_change, with_headers

# doc/api/rest/troubleshooting.md ("Status codes"), doc/api/discussions.md (invalid position)
BAD_LINE = {"message": "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}"}
NOT_FOUND = {"message": "404 Not found"}
READ_SCOPES = {"api", "read_api"}
REPORTER, DEVELOPER = 20, 30


@dataclass
class User:
    id: int
    username: str

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.username, "name": self.username.title(), "state": "active",
                "avatar_url": None, "web_url": f"https://gitlab.example.com/{self.username}"}


@dataclass
class Token:
    id: int
    value: str
    user: User
    scopes: tuple[str, ...]
    active: bool = True
    revoked: bool = False


@dataclass
class Version:
    """One push: doc/api/merge_requests.md, "Get merge request diff versions"."""

    id: int
    head: str
    base: str
    start: str
    created_at: datetime
    files: list[FileChange]

    def json(self, mr_id: int) -> dict[str, Any]:
        return {"id": self.id, "head_commit_sha": self.head, "base_commit_sha": self.base,
                "start_commit_sha": self.start, "created_at": iso(self.created_at), "merge_request_id": mr_id,
                "state": "collected", "real_size": str(len(self.files))}


@dataclass
class Project:
    id: int
    path: str
    members: dict[int, int] = field(default_factory=dict)            # user id -> access level
    files: dict[tuple[str, str], bytes] = field(default_factory=dict)  # (commit sha, path) -> bytes
    mrs: dict[int, MergeRequest] = field(default_factory=dict)
    author_may_approve: bool = False  # merge_request_approvals.md: merge_requests_author_approval


@dataclass
class MergeRequest:
    project: Project
    id: int
    iid: int
    author: User
    title: str
    description: str
    created_at: datetime
    versions: list[Version] = field(default_factory=list)   # newest first, as the API lists them
    commits: list[dict] = field(default_factory=list)       # newest first
    discussions: list[dict] = field(default_factory=list)
    approved_by: list[User] = field(default_factory=list)
    state: str = "opened"
    updated_at: datetime | None = None

    @property
    def head(self) -> str:
        return self.versions[0].head

    def notes(self) -> list[dict]:
        return [n for d in self.discussions for n in d["notes"]]

    def diff_notes(self) -> list[dict]:
        return [n for n in self.notes() if n.get("position")]


class GitLabDouble(ApiDouble):
    """`unified_diffs`: the `diff` field of every file under `--- a/`/`+++ b/` lines, as the
    examples of merge_requests.md show it through GitLab 16.x (and as `unidiff=true` asks for since
    16.5); else from the first `@@`, as the examples show it since."""

    def __init__(self, *, unified_diffs: bool = False) -> None:
        super().__init__()
        self.unified_diffs = unified_diffs
        self.users: dict[str, User] = {}
        self.tokens: dict[str, Token] = {}
        self.projects: dict[int, Project] = {}

    # ------------------------------------------------------------------ the world
    def user(self, username: str) -> User:
        with self.lock:
            if username not in self.users:
                self.users[username] = User(len(self.users) + 1, username)
            return self.users[username]

    def add_token(self, value: str, username: str, scopes: tuple[str, ...] = ("api",)) -> User:
        self.tokens[value] = Token(self.new_id(), value, self.user(username), tuple(scopes))
        return self.tokens[value].user

    def add_project(self, project_id: int, path: str, members: dict[str, int] | None = None) -> Project:
        project = Project(project_id, path)
        for name, level in (members or {}).items():
            project.members[self.user(name).id] = level
        self.projects[project_id] = project
        return project

    def open_merge_request(self, project: Project, iid: int, *, author: str, diff: str, head: str,
                           base: str = "b" * 40, title: str = "Add Util", description: str = "Adds a Util class.",
                           commit_message: str = "Add Util\n\nA class for shared helpers.") -> MergeRequest:
        mr = MergeRequest(project, self.new_id(), iid, self.user(author), title, description, self.now())
        project.mrs[iid] = mr
        self.push(mr, diff, head, base=base, message=commit_message)
        return mr

    def push(self, mr: MergeRequest, diff: str, head: str, *, base: str | None = None, message: str = "Update") -> None:
        """A push to the source branch: a new diff version and a commit, newest first."""
        with self.lock:
            base = base or mr.versions[0].base
            at = self.now()
            mr.versions.insert(0, Version(self.new_id(), head, base, base, at, parse_change(diff)))
            mr.commits.insert(0, {"id": head, "short_id": head[:11], "title": message.split("\n")[0],
                                  "message": message, "author_name": mr.author.username,
                                  "author_email": f"{mr.author.username}@example.com", "created_at": iso(at)})
            mr.updated_at = at

    def human_note(self, mr: MergeRequest, body: str, author: str) -> dict:
        """A comment a person writes on the MR (a discussion of its own), as POST .../notes makes it."""
        with self.lock:
            return self._new_discussion(mr, self.user(author), body, None, individual=True)["notes"][0]

    def throttle(self, method: str, pattern: str, *, times: int = 1, retry_after: int = 60) -> None:
        """The next `times` matching requests are rate limited, with the headers of
        doc/administration/settings/user_and_ip_rate_limits.md ("Response headers")."""
        reset = int(self.clock.timestamp()) + retry_after
        self.fault(method, pattern, 429, times=times, payload="Retry later\n", headers={
            "Retry-After": str(retry_after), "RateLimit-Name": "throttle_authenticated_api",
            "RateLimit-Limit": "60", "RateLimit-Observed": "61", "RateLimit-Remaining": "0",
            "RateLimit-Reset": str(reset), "RateLimit-ResetTime": self.clock.strftime("%a, %d %b %Y %H:%M:%S GMT")})

    # ------------------------------------------------------------------ webhooks (webhook_events.md)
    def merge_request_hook(self, mr: MergeRequest, action: str, *, oldrev: str | None = None) -> dict[str, Any]:
        """The "Merge request events" payload; `oldrev` is set on an update that pushed commits."""
        attrs = {"id": mr.id, "iid": mr.iid, "target_branch": "main", "source_branch": "feature",
                 "source_project_id": mr.project.id, "target_project_id": mr.project.id, "author_id": mr.author.id,
                 "title": mr.title, "description": mr.description, "state": mr.state, "action": action,
                 "created_at": iso(mr.created_at), "updated_at": iso(mr.updated_at or mr.created_at),
                 "merge_status": "unchecked", "detailed_merge_status": "checking",
                 "url": f"https://gitlab.example.com/{mr.project.path}/-/merge_requests/{mr.iid}",
                 "last_commit": {"id": mr.head, "message": mr.commits[0]["message"], "title": mr.commits[0]["title"],
                                 "timestamp": mr.commits[0]["created_at"]}}
        if oldrev:
            attrs["oldrev"] = oldrev
        return {"object_kind": "merge_request", "event_type": "merge_request", "user": mr.author.json(),
                "project": self._project_json(mr.project), "object_attributes": attrs, "labels": [], "changes": {},
                "repository": {"name": mr.project.path.rsplit("/", 1)[-1],
                               "homepage": f"https://gitlab.example.com/{mr.project.path}"}}

    def note_hook(self, mr: MergeRequest, note: dict) -> dict[str, Any]:
        """The "Comment events" payload for a note on a merge request."""
        author = self.users[note["author"]["username"]]
        discussion = next(d for d in mr.discussions if note in d["notes"])
        return {"object_kind": "note", "event_type": "note", "user": author.json(), "project_id": mr.project.id,
                "project": self._project_json(mr.project),
                "object_attributes": {"id": note["id"], "note": note["body"], "noteable_type": "MergeRequest",
                                      "author_id": author.id, "created_at": note["created_at"], "system": False,
                                      "discussion_id": discussion["id"], "noteable_id": mr.id, "action": "create",
                                      "type": note["type"]},
                "merge_request": {"id": mr.id, "iid": mr.iid, "title": mr.title, "state": mr.state,
                                  "target_project_id": mr.project.id, "last_commit": {"id": mr.head}}}

    @staticmethod
    def _project_json(p: Project) -> dict[str, Any]:
        return {"id": p.id, "name": p.path.rsplit("/", 1)[-1], "path_with_namespace": p.path,
                "web_url": f"https://gitlab.example.com/{p.path}", "visibility": "private"}

    # ------------------------------------------------------------------ authentication
    def _token(self, req: Request) -> Token:
        """rest/authentication.md: PRIVATE-TOKEN, or an OAuth-compliant `Authorization: Bearer`."""
        value = req.headers.get("private-token") or req.headers.get("authorization", "").removeprefix("Bearer ")
        token = self.tokens.get(value)
        if token is None:
            raise ApiError(401, {"message": "401 Unauthorized"})
        if token.revoked or not token.active:
            raise ApiError(401, {"error": "invalid_token", "error_description": "Token was revoked. You have to "
                                                                                 "re-authorize from the user."})
        return token

    def authenticate(self, req: Request) -> None:
        if req.segments[:2] != ["api", "v4"]:
            raise ApiError(404, {"error": "404 Not Found"})
        token = self._token(req)
        if req.segments[2:] == ["personal_access_tokens", "self"]:
            return
        allowed = READ_SCOPES | ({"read_user"} if req.segments[2:] == ["user"] else set())
        if not (set(token.scopes) & (allowed if req.method == "GET" else {"api"})):
            # rest/authentication.md: the answer to a token without the scope an endpoint needs
            raise ApiError(403, {"error": "insufficient_scope", "error_description": "The request requires higher "
                                 "privileges than provided by the access token.",
                                 "scope": "api read_api" if req.method == "GET" else "api"})
        req.token = token  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ routes
    def route(self, req: Request) -> Answer:
        s = req.segments[2:]
        token: Token = getattr(req, "token", None) or self._token(req)
        if s == ["user"] and req.method == "GET":
            return Answer(200, token.user.json())
        if s == ["personal_access_tokens", "self"] and req.method == "GET":  # personal_access_tokens.md
            return Answer(200, {"id": token.id, "name": "dualrag", "revoked": token.revoked, "active": token.active,
                                "scopes": list(token.scopes), "user_id": token.user.id, "expires_at": None,
                                "created_at": iso(self.clock), "last_used_at": iso(self.clock)})
        if len(s) < 2 or s[0] != "projects":
            raise ApiError(404, {"error": "404 Not Found"})
        project = self._project(s[1], token.user)
        rest = s[2:]
        if rest == [] and req.method == "GET":
            return Answer(200, self._project_json(project))
        if rest[:2] == ["members", "all"] and len(rest) == 3 and req.method == "GET":  # members.md
            user = next((u for u in self.users.values() if str(u.id) == rest[2]), None)
            if user is None or user.id not in project.members:
                raise ApiError(404, NOT_FOUND)
            return Answer(200, {**user.json(), "access_level": project.members[user.id], "expires_at": None})
        if rest[:2] == ["repository", "files"] and len(rest) == 4 and rest[3] == "raw" and req.method == "GET":
            return self._raw_file(project, rest[2], req)                                   # repository_files.md
        if rest[:1] == ["merge_requests"] and len(rest) >= 2:
            mr = project.mrs.get(int(rest[1])) if rest[1].isdigit() else None
            if mr is None:
                raise ApiError(404, {"message": "404 Merge Request Not Found"})
            return self._merge_request(mr, rest[2:], req, token.user)
        raise ApiError(404, {"error": "404 Not Found"})

    def _project(self, ref: str, user: User) -> Project:
        """rest/index.md, "Namespaced paths": a project by id or by URL-encoded path; a private
        project its user cannot see is 404, not 403."""
        project = self.projects.get(int(ref)) if ref.isdigit() else next(
            (p for p in self.projects.values() if p.path == ref), None)
        if project is None or project.members.get(user.id, 0) < REPORTER:
            raise ApiError(404, {"message": "404 Project Not Found"})
        return project

    @staticmethod
    def _raw_file(project: Project, path: str, req: Request) -> Answer:
        ref = req.query.get("ref")
        if not ref:
            raise ApiError(400, {"error": "ref is missing"})
        data = project.files.get((ref, path))
        if data is None:
            raise ApiError(404, {"message": "404 File Not Found"})
        return Answer(200, data)

    def _merge_request(self, mr: MergeRequest, rest: list[str], req: Request, user: User) -> Answer:
        m, p = req.method, req.params()
        if rest == [] and m == "GET":
            return Answer(200, self._mr_json(mr))
        if rest == ["commits"] and m == "GET":
            return self.page(list(mr.commits), req, gitlab=True)
        if rest == ["versions"] and m == "GET":
            return self.page([v.json(mr.id) for v in mr.versions], req, gitlab=True)
        if rest[:1] == ["versions"] and len(rest) == 2 and m == "GET":
            v = next((v for v in mr.versions if str(v.id) == rest[1]), None)
            if v is None:
                raise ApiError(404, NOT_FOUND)
            return Answer(200, {**v.json(mr.id), "commits": list(mr.commits),
                                "diffs": [self._diff_json(f, _flag(p.get("unidiff"))) for f in v.files]})
        if rest == ["diffs"] and m == "GET":  # merge_requests.md, "List merge request diffs"
            unified = _flag(p.get("unidiff"))
            return self.page([self._diff_json(f, unified) for f in mr.versions[0].files], req, gitlab=True)
        if rest == ["changes"] and m == "GET":  # deprecated in 15.7 for /diffs; still answered
            return Answer(200, {**self._mr_json(mr), "overflow": False, "changes": [
                self._diff_json(f, _flag(p.get("unidiff"))) for f in mr.versions[0].files]})
        if rest == ["discussions"]:
            if m == "GET":
                return self.page(mr.discussions, req, gitlab=True)
            if m == "POST":
                return Answer(201, self._create_discussion(mr, user, p))
        if rest[:1] == ["discussions"] and len(rest) >= 2:
            return self._discussion(mr, rest[1], rest[2:], req, user)
        if rest == ["notes"]:
            if m == "GET":  # notes.md: sorted by created_at, newest first unless asked
                notes = sorted(mr.notes(), key=lambda n: (n["created_at"], n["id"]),
                               reverse=p.get("sort", "desc") != "asc")
                return self.page(notes, req, gitlab=True)
            if m == "POST":
                body = _required(p, "body")
                self._wrote(mr, body)
                return Answer(201, self._new_discussion(mr, user, body, None, individual=True)["notes"][0])
        if rest[:1] == ["notes"] and len(rest) == 2:
            note = self._note(mr, rest[1])
            if m == "GET":
                return Answer(200, note)
            if m == "PUT":
                self._own(note, user)
                note["body"], note["updated_at"] = _required(p, "body"), iso(self.now())
                self._wrote(mr, note["body"])
                return Answer(200, note)
        if rest == ["approvals"] and m == "GET":
            return Answer(200, self._approvals_json(mr))
        if rest == ["approve"] and m == "POST":
            return self._approve(mr, user, p, req)
        if rest == ["unapprove"] and m == "POST":
            if user not in mr.approved_by:
                raise ApiError(404, NOT_FOUND)
            mr.approved_by.remove(user)
            self._wrote(mr, "")
            return Answer(201, self._approvals_json(mr))
        raise ApiError(404, {"error": "404 Not Found"})

    def _mr_json(self, mr: MergeRequest) -> dict[str, Any]:
        v = mr.versions[0]
        return {"id": mr.id, "iid": mr.iid, "project_id": mr.project.id, "title": mr.title,
                "description": mr.description, "state": mr.state, "created_at": iso(mr.created_at),
                "updated_at": iso(mr.updated_at or mr.created_at), "target_branch": "main",
                "source_branch": "feature", "author": mr.author.json(), "source_project_id": mr.project.id,
                "target_project_id": mr.project.id, "draft": False, "work_in_progress": False,
                "merge_status": "can_be_merged", "detailed_merge_status": "mergeable", "sha": v.head,
                "user_notes_count": len(mr.notes()), "changes_count": str(len(v.files)),
                "diff_refs": {"base_sha": v.base, "head_sha": v.head, "start_sha": v.start},
                "references": {"short": f"!{mr.iid}", "full": f"{mr.project.path}!{mr.iid}"},
                "web_url": f"https://gitlab.example.com/{mr.project.path}/-/merge_requests/{mr.iid}"}

    def _diff_json(self, f: FileChange, unified: bool) -> dict[str, Any]:
        """merge_requests.md, "List merge request diffs": the hunks, under `---`/`+++` with `unidiff`."""
        unified = unified or self.unified_diffs
        return {"old_path": f.old_path, "new_path": f.new_path, "a_mode": "0" if f.new_file else "100644",
                "b_mode": "0" if f.deleted_file else "100644", "new_file": f.new_file,
                "renamed_file": f.renamed_file, "deleted_file": f.deleted_file, "generated_file": False,
                "diff": with_headers(f) if unified else f.hunks}

    def _approvals_json(self, mr: MergeRequest) -> dict[str, Any]:
        return {"id": mr.id, "iid": mr.iid, "project_id": mr.project.id, "title": mr.title, "state": mr.state,
                "approvals_required": 0, "approvals_left": 0, "approved": bool(mr.approved_by),
                "approved_by": [{"user": u.json()} for u in mr.approved_by]}

    def _approve(self, mr: MergeRequest, user: User, p: dict, req: Request) -> Answer:
        """merge_request_approvals.md, "Approve merge request": `sha`, when given, must be the head
        (else 409). One who may not approve (below Developer, the author when authors may not, or
        one who already approved) is refused with 401, as GitLab's approve endpoint answers."""
        sha = p.get("sha")
        if sha and sha != mr.head:
            raise ApiError(409, {"message": f"SHA does not match HEAD of source branch: {sha}"})
        if (mr.project.members.get(user.id, 0) < DEVELOPER or user in mr.approved_by
                or (user == mr.author and not mr.project.author_may_approve)):
            raise ApiError(401, {"message": "401 Unauthorized"})
        mr.approved_by.append(user)
        self._wrote(mr, "")
        return Answer(201, self._approvals_json(mr))

    # ------------------------------------------------------------------ discussions (discussions.md)
    def _create_discussion(self, mr: MergeRequest, user: User, p: dict) -> dict:
        body = _required(p, "body")
        position = p.get("position")
        if position is not None:
            position = self._check_position(mr, position)
        d = self._new_discussion(mr, user, body, position, individual=False)
        self._wrote(mr, body)
        return d

    def _new_discussion(self, mr: MergeRequest, user: User, body: str, position: dict | None, *,
                        individual: bool) -> dict:
        did = hashlib.sha1(f"{mr.id}:{self.new_id()}".encode()).hexdigest()
        note = self._note_json(mr, user, body, position, "DiffNote" if position else
                               (None if individual else "DiscussionNote"))
        d = {"id": did, "individual_note": individual, "notes": [note]}
        mr.discussions.append(d)
        return d

    def _note_json(self, mr: MergeRequest, user: User, body: str, position: dict | None, kind: str | None) -> dict:
        at = iso(self.now())
        note = {"id": self.new_id(), "type": kind, "body": body, "attachment": None, "author": user.json(),
                "created_at": at, "updated_at": at, "system": False, "noteable_id": mr.id,
                "noteable_type": "MergeRequest", "project_id": mr.project.id, "noteable_iid": mr.iid,
                "resolvable": True, "resolved": False, "resolved_by": None, "resolved_at": None,
                "confidential": False, "internal": False, "commands_changes": {}}
        if position:
            note["position"] = position
        return note

    def _check_position(self, mr: MergeRequest, pos: Any) -> dict:
        """"Create a new thread in the merge request diff": base/start/head sha and the position
        type always; old and new path for a text position; an added line by `new_line` alone, a
        removed line by `old_line` alone, an unchanged line by both. A position GitLab cannot map
        to a line of that diff version is refused with its `line_code` message."""
        if not isinstance(pos, dict):
            raise ApiError(400, {"error": "position is invalid"})
        for key in ("base_sha", "head_sha", "start_sha", "position_type"):
            _required(pos, key, f"position[{key}]")
        if pos["position_type"] not in ("text", "image", "file"):
            raise ApiError(400, {"error": "position[position_type] does not have a valid value"})
        if pos["position_type"] == "text":
            for key in ("old_path", "new_path"):
                _required(pos, key, f"position[{key}]")
        version = next((v for v in mr.versions if (v.base, v.start, v.head) ==
                        (pos["base_sha"], pos["start_sha"], pos["head_sha"])), None)
        f = version and next((f for f in version.files
                              if (f.old_path, f.new_path) == (pos["old_path"], pos["new_path"])), None)
        try:
            new = int(pos["new_line"]) if pos.get("new_line") not in (None, "") else None
            old = int(pos["old_line"]) if pos.get("old_line") not in (None, "") else None
        except (TypeError, ValueError):
            raise ApiError(400, {"error": "position[new_line] is invalid"}) from None
        if f is None or not _maps(f, new, old):
            raise ApiError(400, BAD_LINE)
        return {"base_sha": pos["base_sha"], "start_sha": pos["start_sha"], "head_sha": pos["head_sha"],
                "old_path": pos["old_path"], "new_path": pos["new_path"], "position_type": "text",
                "old_line": old, "new_line": new, "line_range": None}

    def _discussion(self, mr: MergeRequest, did: str, rest: list[str], req: Request, user: User) -> Answer:
        d = next((d for d in mr.discussions if d["id"] == did), None)
        if d is None:
            raise ApiError(404, NOT_FOUND)
        p = req.params()
        if rest == [] and req.method == "GET":
            return Answer(200, d)
        if rest == [] and req.method == "PUT":  # "Resolve a merge request thread"
            if "resolved" not in p:
                raise ApiError(400, {"error": "resolved is missing"})
            if mr.project.members.get(user.id, 0) < DEVELOPER and user != mr.author:
                raise ApiError(403, {"message": "403 Forbidden"})
            resolved = _flag(p["resolved"])
            for n in d["notes"]:
                n["resolved"] = resolved
                n["resolved_by"] = user.json() if resolved else None
                n["resolved_at"] = iso(self.now()) if resolved else None
            self._wrote(mr, "")
            return Answer(200, d)
        if rest == ["notes"] and req.method == "POST":  # "Add note to existing merge request thread"
            note = self._note_json(mr, user, _required(p, "body"), None,
                                   "DiscussionNote" if not d["individual_note"] else None)
            d["notes"].append(note)
            d["individual_note"] = False  # a reply makes a single comment a thread
            self._wrote(mr, note["body"])
            return Answer(201, note)
        raise ApiError(404, {"error": "404 Not Found"})

    @staticmethod
    def _note(mr: MergeRequest, note_id: str) -> dict:
        note = next((n for n in mr.notes() if str(n["id"]) == note_id), None)
        if note is None:
            raise ApiError(404, {"message": "404 Note Not Found"})
        return note

    @staticmethod
    def _own(note: dict, user: User) -> None:
        if note["author"]["id"] != user.id:
            raise ApiError(403, {"message": "403 Forbidden"})

    def _wrote(self, mr: MergeRequest, body: str) -> None:
        self.wrote((mr.project.id, mr.iid), mr.head, body)


def _maps(f: FileChange, new: int | None, old: int | None) -> bool:
    if new is not None and old is None:
        return f.new_lines.get(new, 0) is None                        # an added line
    if new is None and old is not None:
        return f.old_lines.get(old) == "-"                            # a removed line
    return new is not None and new in f.new_lines and f.new_lines[new] == old  # an unchanged line


def _required(p: dict, key: str, name: str | None = None) -> Any:
    """rest/troubleshooting.md: a required attribute missing is 400."""
    value = p.get(key)
    if value is None or value == "":
        raise ApiError(400, {"error": f"{name or key} is missing"})
    return value


def _flag(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1")
