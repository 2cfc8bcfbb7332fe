"""Loopback GitLab and GitHub servers (stdlib http.server on 127.0.0.1, ephemeral port) that
behave like the documented REST APIs for the calls dualrag makes, including their validation:
positions outside the diff are refused (GitLab 400, GitHub 422), bad tokens get 401, a vanished
MR 404; faults (409/429/5xx...) can be queued per route; lists are paginated (X-Next-Page for
GitLab, Link for GitHub, cursors for GitHub GraphQL). Used by tests and evaluation/bench/publish.py.

Both keep a clock (one second a step, the platform's ISO 8601 stamps) so that notes, reviews and
pushes are ordered as on the real platforms; a push (`set_diff` with a new head) adds a GitLab MR
diff version. People: the MR's author, and members with an access level (GitLab) or a role
(GitHub) that the members / collaborator-permission endpoints report (404 for anyone else).
Repository files by commit (`files[(sha, path)]`): GitLab's raw file endpoint, GitHub's contents
API (base64 up to 1 MB, `content` empty above), both 404 for a path or commit they do not have.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from abc import ABC, abstractmethod
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlparse


def diff_lines(diff: str) -> dict[str, dict]:
    """Per new path: old path, the new lines (added/context) and old lines (context/removed) shown."""
    files: dict[str, dict] = {}
    cur = None
    old = new = 0
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            m = re.match(r"diff --git a/(\S+) b/(\S+)", line)
            cur = {"old_path": m.group(1), "new": {}, "old": {}, "text": {}}
            files[m.group(2)] = cur
        elif line.startswith("@@"):
            m = re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)", line)
            old, new = int(m.group(1)), int(m.group(2))
        elif cur is None or line.startswith(("---", "+++", "index ", "new file", "deleted file", "\\")):
            continue
        elif line.startswith("+"):
            cur["new"][new] = None
            cur["text"][new] = line[1:]
            new += 1
        elif line.startswith("-"):
            cur["old"][old] = "-"
            old += 1
        elif line.startswith(" "):
            cur["new"][new] = old
            cur["old"][old] = " "
            cur["text"][new] = line[1:]
            old += 1
            new += 1
    return files


def file_sections(diff: str) -> list[tuple[str, str, str]]:
    """(old path, new path, hunks text) per file of a git diff."""
    out = []
    for part in re.split(r"(?m)^(?=diff --git )", diff):
        if not part.strip():
            continue
        m = re.match(r"diff --git a/(\S+) b/(\S+)", part)
        body = part[part.index("@@"):] if "@@" in part else ""
        out.append((m.group(1), m.group(2), body))
    return out


_SUGGESTION = re.compile(r"^(`{3,})suggestion(?::-(\d+)\+(\d+))?\n(.*?)\n?\1$", re.MULTILINE | re.DOTALL)


def check_suggestions(body: str, file: dict | None, line: int, start_line: int | None = None) -> list[dict]:
    """Every ```suggestion block of a posted comment, checked the way the platform applies it: the
    lines it replaces (GitLab: `-N+M` around the commented line; GitHub: the lines the comment
    spans) all exist on the new side of the diff, and the replacement differs from them."""
    out = []
    for m in _SUGGESTION.finditer(body):
        above, below = int(m.group(2) or 0), int(m.group(3) or 0)
        first, last = (line - above, line + below) if m.group(2) is not None else (start_line or line, line)
        lines = range(first, last + 1)
        exists = file is not None and all(n in file["text"] for n in lines)
        old = [file["text"][n] for n in lines] if exists else []
        new = m.group(4).split("\n")
        out.append({"first": first, "last": last, "exists": exists, "differs": exists and new != old,
                    "applies": exists and new != old, "new": new, "old": old})
    return out


class FakeServer(ABC):
    """Routes, auth, fault injection and a request log; subclasses add the API."""

    auth_header = ""

    def __init__(self, token: str, per_page_max: int = 100):
        self.token = token
        self.per_page_max = per_page_max
        self.faults: list[dict] = []
        self.suggestions: list[dict] = []  # every posted suggestion block, with whether it applies
        self.log: list[tuple[str, str]] = []
        self.forbidden = False
        self.lock = threading.RLock()
        self.next_id = 1000
        self.clock = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _do(self):
                fake._handle(self)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _do

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def new_id(self) -> int:
        with self.lock:
            self.next_id += 1
            return self.next_id

    def now(self) -> str:
        """The platform's time of an event: one second later at every call."""
        with self.lock:
            self.clock += timedelta(seconds=1)
            return self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def fault(self, method: str, pattern: str, status: int, times: int = 1, headers: dict | None = None,
              body: dict | None = None):
        self.faults.append({"method": method, "rx": re.compile(pattern), "status": status, "times": times,
                            "headers": headers or {}, "body": body or {"message": f"{status} injected"}})

    def writes(self) -> int:
        return sum(1 for m, _ in self.log if m != "GET" and not (m == "POST" and "graphql" in _ and False))

    @abstractmethod
    def authorized(self, h) -> bool:
        """Whether the request carries the token this fake expects."""

    def _handle(self, h):
        url = urlparse(h.path)
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else {}
        with self.lock:
            self.log.append((h.command, url.path))
            for f in self.faults:
                if f["times"] > 0 and f["method"] == h.command and f["rx"].search(url.path):
                    f["times"] -= 1
                    return self._send(h, f["status"], f["body"], f["headers"])
            if not self.authorized(h):
                # like the real APIs, say nothing about the token; some proxies echo headers: we do too
                return self._send(h, 401, {"message": "401 Unauthorized",
                                           "echo": h.headers.get(self.auth_header, "")})
            if self.forbidden:
                return self._send(h, 403, {"message": "403 Forbidden"})
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            try:
                status, payload, headers = self.route(h.command, url.path, query, body)
            except KeyError:
                status, payload, headers = 404, {"message": "404 Not found"}, {}
            return self._send(h, status, payload, headers)

    @abstractmethod
    def route(self, method, path, query, body):
        """(status, payload, headers) for one request, as the real API answers it."""

    def _send(self, h, status, payload, headers=None):
        raw = isinstance(payload, bytes)  # a file's bytes, as a raw endpoint sends them
        data = payload if raw else b"" if payload is None else json.dumps(payload).encode()
        h.send_response(status)
        h.send_header("Content-Type", "text/plain; charset=utf-8" if raw else "application/json")
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, str(v))
        h.end_headers()
        h.wfile.write(data)

    def page(self, items: list, query: dict, link_base: str | None = None):
        per = min(int(query.get("per_page", 20)), self.per_page_max)
        page = int(query.get("page", 1))
        chunk = items[(page - 1) * per: page * per]
        more = page * per < len(items)
        headers = {}
        if link_base is None:
            headers["X-Next-Page"] = str(page + 1) if more else ""
            headers["X-Page"] = str(page)
        elif more:
            headers["Link"] = f'<{self.url}{link_base}?per_page={per}&page={page + 1}>; rel="next"'
        return 200, chunk, headers


class FakeGitLab(FakeServer):
    auth_header = "PRIVATE-TOKEN"

    def __init__(self, token: str, *, project: str = "42", iid: int = 7, diff: str = "", bot: str = "dualrag-bot",
                 base_sha: str = "b" * 40, start_sha: str = "s" * 40, head_sha: str = "h" * 40,
                 require_line_code: bool = True, per_page_max: int = 100, author: str = "dev",
                 title: str = "Add Util", description: str = "Adds a Util class.",
                 commits: tuple[str, ...] = ("Add Util\n\nA class for shared helpers.",)):
        super().__init__(token, per_page_max)
        self.project, self.iid, self.bot = project, iid, bot
        self.refs = {"base_sha": base_sha, "start_sha": start_sha, "head_sha": head_sha}
        self.require_line_code = require_line_code
        self.discussions: list[dict] = []
        self.approved_by: set[str] = set()
        self.mr_exists = True
        self.author, self.title, self.description = author, title, description
        self.commits = [{"id": f"{i:040x}", "message": m, "title": m.split("\n")[0], "created_at": self.now()}
                        for i, m in enumerate(commits, 1)]  # oldest first here; the API lists newest first
        self.users: dict[str, int] = {bot: 1}
        self.access: dict[str, int] = {}  # username -> access level (project or inherited membership)
        self.versions: list[dict] = []    # one per push, newest first, as the API lists them
        self.files: dict[tuple[str, str], bytes] = {}  # (commit sha, path) -> the file's bytes
        self.set_diff(diff, head_sha)

    def set_diff(self, diff: str, head_sha: str | None = None):
        self.diff = diff
        self.lines = diff_lines(diff)
        if head_sha:
            self.refs["head_sha"] = head_sha
            if not self.versions or self.versions[0]["head_commit_sha"] != head_sha:  # a push: a new version
                self.versions.insert(0, {"id": self.new_id(), "head_commit_sha": head_sha,
                                         "base_commit_sha": self.refs["base_sha"],
                                         "start_commit_sha": self.refs["start_sha"], "created_at": self.now(),
                                         "merge_request_id": 1, "state": "collected", "real_size": "2"})

    def user(self, username: str) -> dict:
        with self.lock:
            uid = self.users.setdefault(username, 100 + len(self.users))
        return {"id": uid, "username": username}

    def authorized(self, h):
        return h.headers.get("PRIVATE-TOKEN") == self.token

    # helpers for tests: humans acting on the MR
    def human_note(self, body: str, author: str = "alice", discussion: dict | None = None) -> dict:
        note = {"id": self.new_id(), "body": body, "author": self.user(author), "system": False,
                "resolvable": discussion is not None, "resolved": False, "created_at": self.now()}
        if discussion is None:
            discussion = {"id": f"d{self.new_id()}", "individual_note": True, "notes": [note]}
            self.discussions.append(discussion)
        else:
            discussion["notes"].append(note)
        note["discussion_id"] = discussion["id"]
        return note

    def note_hook(self, note: dict, *, action: str = "create") -> dict:
        """The "Note Hook" webhook payload GitLab delivers for a note on this merge request."""
        author = note["author"]
        return {"object_kind": "note", "event_type": "note", "user": {**author, "name": author["username"]},
                "project_id": int(self.project) if self.project.isdigit() else self.project,
                "project": {"id": self.project, "path_with_namespace": "acme/shop"},
                "object_attributes": {"id": note["id"], "note": note["body"], "noteable_type": "MergeRequest",
                                      "author_id": author["id"], "discussion_id": note.get("discussion_id"),
                                      "system": False, "action": action, "created_at": note["created_at"]},
                "merge_request": {"iid": self.iid, "last_commit": {"id": self.refs["head_sha"]}}}

    def bot_threads(self) -> list[dict]:
        return [d for d in self.discussions if d["notes"][0].get("position")]

    def resolve(self, d: dict, by: str = "alice", resolved: bool = True):
        for n in d["notes"]:
            if n.get("resolvable"):
                n["resolved"] = resolved
                n["resolved_by"] = {"username": by} if resolved else None

    def summary_notes(self) -> list[dict]:
        return [d["notes"][0] for d in self.discussions if "dualrag:summary" in d["notes"][0]["body"]]

    def route(self, method, path, query, body):
        base = f"/api/v4/projects/{self.project}/merge_requests/{self.iid}"
        if path == "/api/v4/user" and method == "GET":
            return 200, self.user(self.bot), {}
        m = re.fullmatch(rf"/api/v4/projects/{self.project}/repository/files/([^/]+)/raw", path)
        if m and method == "GET":  # GitLab: 404 "File Not Found" for a path or ref it does not have
            data = self.files.get((query.get("ref", ""), unquote(m.group(1))))
            if data is None:
                return 404, {"message": "404 File Not Found"}, {}
            return 200, data, {}
        m = re.fullmatch(rf"/api/v4/projects/{self.project}/members/all/(\d+)", path)
        if m and method == "GET":  # 404 for anyone without a (project or inherited) membership
            names = [u for u, i in self.users.items() if i == int(m.group(1)) and u in self.access]
            if not names:
                raise KeyError(path)
            name = names[0]
            return 200, {**self.user(name), "access_level": self.access[name], "state": "active"}, {}
        if not path.startswith(base) or not self.mr_exists:
            raise KeyError(path)
        rest = path[len(base):]
        if rest == "" and method == "GET":
            return 200, {"iid": self.iid, "sha": self.refs["head_sha"], "diff_refs": dict(self.refs),
                         "state": "opened", "title": self.title, "description": self.description,
                         "author": self.user(self.author)}, {}
        if rest == "/commits" and method == "GET":
            return self.page(self.commits[::-1], query)
        if rest == "/versions" and method == "GET":
            return self.page(list(self.versions), query)
        if rest == "/diffs" and method == "GET":
            items = [{"old_path": o, "new_path": n, "diff": d, "new_file": False, "deleted_file": False,
                      "renamed_file": o != n} for o, n, d in file_sections(self.diff)]
            return self.page(items, query)
        if rest == "/discussions" and method == "GET":
            return self.page(json.loads(json.dumps(self.discussions)), query)
        if rest == "/discussions" and method == "POST":
            return self._new_discussion(body)
        if rest == "/notes" and method == "GET":
            return self.page([n for d in self.discussions for n in d["notes"]][::-1], query)
        m = re.fullmatch(r"/discussions/([\w-]+)(/notes)?", rest)
        if m:
            d = next(d for d in self.discussions if d["id"] == m.group(1))
            if not m.group(2) and method == "GET":
                return 200, json.loads(json.dumps(d)), {}
            if m.group(2) and method == "POST":
                note = {"id": self.new_id(), "body": body["body"], "author": self.user(self.bot),
                        "system": False, "resolvable": d["notes"][0]["resolvable"], "resolved": d["notes"][0]["resolved"],
                        "created_at": self.now()}
                d["notes"].append(note)
                return 201, note, {}
            if method == "PUT":
                self.resolve(d, by=self.bot, resolved=bool(body.get("resolved")))
                return 200, d, {}
        if rest == "/notes" and method == "POST":
            note = {"id": self.new_id(), "body": body["body"], "author": self.user(self.bot), "system": False,
                    "resolvable": False, "resolved": False, "created_at": self.now()}
            self.discussions.append({"id": f"d{self.new_id()}", "individual_note": True, "notes": [note]})
            return 201, note, {}
        m = re.fullmatch(r"/notes/(\d+)", rest)
        if m and method == "PUT":
            for d in self.discussions:
                for n in d["notes"]:
                    if n["id"] == int(m.group(1)):
                        n["body"] = body["body"]
                        return 200, n, {}
            raise KeyError(rest)
        if rest == "/approvals" and method == "GET":
            return 200, {"approved_by": [{"user": {"username": u}} for u in sorted(self.approved_by)]}, {}
        if rest == "/approve" and method == "POST":
            if self.bot in self.approved_by:
                return 401, {"message": "401 Unauthorized"}, {}
            self.approved_by.add(self.bot)
            return 201, {}, {}
        if rest == "/unapprove" and method == "POST":
            if self.bot not in self.approved_by:
                raise KeyError(rest)
            self.approved_by.discard(self.bot)
            return 201, {}, {}
        raise KeyError(rest)

    def _new_discussion(self, body):
        pos = body.get("position")
        note = {"id": self.new_id(), "body": body["body"], "author": self.user(self.bot), "system": False,
                "resolvable": True, "resolved": False, "created_at": self.now()}
        if pos:
            error = self._check_position(pos)
            if error:
                return 400, {"message": f"400 Bad request - Note {{:line_code=>[\"{error}\"]}}"}, {}
            note["position"] = pos
            self.suggestions += check_suggestions(body["body"], self.lines.get(pos.get("new_path")),
                                                  pos.get("new_line") or 0)
        d = {"id": f"{self.new_id():x}" * 2, "individual_note": False, "notes": [note]}
        self.discussions.append(d)
        return 201, d, {}

    def _check_position(self, pos) -> str | None:
        for k in ("base_sha", "start_sha", "head_sha"):
            if pos.get(k) != self.refs[k]:
                return f"{k} does not match the merge request diff"
        f = self.lines.get(pos.get("new_path"))
        if f is None or f["old_path"] != pos.get("old_path"):
            return "can't be blank"
        new, old = pos.get("new_line"), pos.get("old_line")
        if new is not None:
            if new not in f["new"]:
                return "must be a valid line code"
            if f["new"][new] is not None and old != f["new"][new]:  # context line: both sides needed
                return "must be a valid line code"
        elif old is None or f["old"].get(old) != "-":
            return "must be a valid line code"
        if self.require_line_code:
            sha = hashlib.sha1(pos["new_path"].encode()).hexdigest()
            if pos.get("line_code") != f"{sha}_{old or 0}_{new or 0}":
                return "must be a valid line code"
        return None


class FakeGitHub(FakeServer):
    auth_header = "Authorization"

    def __init__(self, token: str, *, repo: str = "acme/shop", number: int = 5, diff: str = "",
                 bot: str = "github-actions[bot]", head_sha: str = "h" * 40, base_sha: str = "b" * 40,
                 per_page_max: int = 100, thread_page: int = 100, allow_approve: bool = True, author: str = "dev",
                 title: str = "Add Util", body: str = "Adds a Util class.",
                 commits: tuple[str, ...] = ("Add Util\n\nA class for shared helpers.",)):
        super().__init__(token, per_page_max)
        self.repo, self.number, self.bot = repo, number, bot
        self.author, self.title, self.body = author, title, body
        self.commits = [{"sha": f"{i:040x}", "commit": {"message": m, "committer": {"date": self.now()}}}
                        for i, m in enumerate(commits, 1)]  # oldest first, as the API lists them
        self.roles: dict[str, str] = {}  # login -> role_name (read, triage, write, maintain, admin)
        self.head_sha, self.base_sha = head_sha, base_sha
        self.comments: list[dict] = []        # review comments
        self.issue_comments: list[dict] = []
        self.reviews: list[dict] = []
        self.resolved: dict[int, str | None] = {}  # root comment id -> resolver login
        self.mutation_at: list[int] = []  # log positions of GraphQL mutations
        self.thread_page = thread_page
        self.allow_approve = allow_approve
        self.pr_exists = True
        self.files: dict[tuple[str, str], bytes] = {}  # (commit sha, path) -> the file's bytes
        self.set_diff(diff)

    def set_diff(self, diff: str, head_sha: str | None = None):
        self.diff = diff
        self.lines = diff_lines(diff)
        if head_sha:
            self.head_sha = head_sha

    def authorized(self, h):
        return h.headers.get("Authorization") == f"Bearer {self.token}"

    def human_comment(self, body: str, author: str = "alice") -> dict:
        c = {"id": self.new_id(), "body": body, "user": {"login": author}, "created_at": self.now()}
        self.issue_comments.append(c)
        return c

    def human_reply(self, root: dict, body: str, author: str = "alice") -> dict:
        c = {"id": self.new_id(), "body": body, "user": {"login": author}, "in_reply_to_id": root["id"],
             "path": root["path"], "line": root["line"], "created_at": self.now(),
             "original_commit_id": self.head_sha}
        self.comments.append(c)
        return c

    def human_review_comment(self, body: str, path: str, line: int, author: str = "alice") -> dict:
        """A review comment a person starts a thread with, on a line of the diff."""
        c = {"id": self.new_id(), "body": body, "user": {"login": author}, "path": path, "line": line,
             "side": "RIGHT", "commit_id": self.head_sha, "original_commit_id": self.head_sha,
             "created_at": self.now()}
        self.comments.append(c)
        return c

    def comment_event(self, comment: dict, *, review: bool = False, action: str = "created") -> dict:
        """The `issue_comment` (or, `review`, `pull_request_review_comment`) webhook payload."""
        body = {"action": action, "comment": {**comment, "user": {**comment["user"], "type": "User"}},
                "repository": {"full_name": self.repo}, "sender": comment["user"]}
        if review:
            return {**body, "pull_request": {"number": self.number, "head": {"sha": self.head_sha}}}
        return {**body, "issue": {"number": self.number, "pull_request": {"url": f"{self.url}/repos/{self.repo}"
                                                                                f"/pulls/{self.number}"}}}

    def human_review(self, body: str, author: str = "alice", state: str = "COMMENTED") -> dict:
        """A review submitted on the current head (GitHub records its `commit_id`)."""
        r = {"id": self.new_id(), "state": state, "body": body, "user": {"login": author},
             "commit_id": self.head_sha, "submitted_at": self.now()}
        self.reviews.append(r)
        return r

    def roots(self) -> list[dict]:
        return [c for c in self.comments if "in_reply_to_id" not in c]

    def summary_comments(self) -> list[dict]:
        return [c for c in self.issue_comments if "dualrag:summary" in c["body"]]

    def route(self, method, path, query, body):
        if path == "/graphql" and method == "POST":
            return self._graphql(body)
        base = f"/repos/{self.repo}"
        pr = f"{base}/pulls/{self.number}"
        if not self.pr_exists and path.startswith(pr):
            raise KeyError(path)
        if path == pr and method == "GET":
            return 200, {"number": self.number, "head": {"sha": self.head_sha}, "base": {"sha": self.base_sha},
                         "title": self.title, "body": self.body, "user": {"login": self.author}}, {}
        if path == f"{pr}/commits" and method == "GET":
            return self.page(list(self.commits), query, link_base=path)
        m = re.fullmatch(rf"{base}/collaborators/([\w.\-\[\]]+)/permission", path)
        if m and method == "GET":  # 404 for a user who is no collaborator
            role = self.roles[m.group(1)]
            legacy = {"maintain": "write", "triage": "read"}.get(role, role)
            return 200, {"permission": legacy, "role_name": role, "user": {"login": m.group(1)}}, {}
        m = re.fullmatch(rf"{base}/contents/(.+)", path)
        if m and method == "GET":  # files up to 1 MB inline (base64, lines of 60), above that content ""
            name = unquote(m.group(1))
            data = self.files.get((query.get("ref", ""), name))
            if data is None:
                return 404, {"message": "Not Found", "status": "404"}, {}
            inline = len(data) <= 1_000_000
            encoded = base64.b64encode(data).decode() if inline else ""
            return 200, {"type": "file", "name": name.rsplit("/", 1)[-1], "path": name, "size": len(data),
                         "encoding": "base64" if inline else "none",
                         "content": "\n".join(encoded[i:i + 60] for i in range(0, len(encoded), 60))}, {}
        if path == f"{pr}/comments" and method == "GET":
            return self.page(list(self.comments), query, link_base=path)
        if path == f"{pr}/files" and method == "GET":
            items = [{"filename": n, "previous_filename": o, "status": "modified", "patch": d}
                     for o, n, d in file_sections(self.diff)]
            return self.page(items, query, link_base=path)
        if path == f"{pr}/comments" and method == "POST":
            f = self.lines.get(body.get("path"))
            side, line, start = body.get("side", "RIGHT"), body.get("line"), body.get("start_line")
            ok = f is not None and body.get("commit_id") == self.head_sha and (
                line in f["new"] if side == "RIGHT" else line in f["old"]) and (
                start is None or (side == "RIGHT" and start < line and all(n in f["new"] for n in range(start, line))))
            if not ok:
                return 422, {"message": "Validation Failed", "errors": [
                    {"resource": "PullRequestReviewComment", "code": "custom", "field": "pull_request_review_thread.line",
                     "message": "could not be resolved"}]}, {}
            c = {"id": self.new_id(), "body": body["body"], "user": {"login": self.bot}, "path": body["path"],
                 "line": line, "side": side, "commit_id": body["commit_id"], "original_commit_id": body["commit_id"],
                 "created_at": self.now()}
            self.comments.append(c)
            self.suggestions += check_suggestions(body["body"], f, line, start)
            return 201, c, {}
        m = re.fullmatch(rf"{pr}/comments/(\d+)/replies", path)
        if m and method == "POST":
            root = next(c for c in self.comments if c["id"] == int(m.group(1)))
            c = {"id": self.new_id(), "body": body["body"], "user": {"login": self.bot},
                 "in_reply_to_id": root["id"], "path": root["path"], "line": root["line"], "created_at": self.now(),
                 "original_commit_id": self.head_sha}
            self.comments.append(c)
            return 201, c, {}
        if path == f"{base}/issues/{self.number}/comments":
            if method == "GET":
                return self.page(list(self.issue_comments), query, link_base=path)
            c = {"id": self.new_id(), "body": body["body"], "user": {"login": self.bot}, "created_at": self.now()}
            self.issue_comments.append(c)
            return 201, c, {}
        m = re.fullmatch(rf"{base}/issues/comments/(\d+)", path)
        if m and method == "PATCH":
            c = next(c for c in self.issue_comments if c["id"] == int(m.group(1)))
            c["body"] = body["body"]
            return 200, c, {}
        if path == f"{pr}/reviews":
            if method == "GET":
                return self.page(list(self.reviews), query, link_base=path)
            event = body.get("event")
            if event == "APPROVE" and not self.allow_approve:
                return 422, {"message": "Unprocessable Entity",
                             "errors": ["GitHub Actions is not permitted to approve pull requests."]}, {}
            state = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}[event]
            r = {"id": self.new_id(), "state": state, "body": body.get("body", ""), "user": {"login": self.bot},
                 "commit_id": body.get("commit_id"), "submitted_at": self.now()}
            self.reviews.append(r)
            return 200, r, {}
        m = re.fullmatch(rf"{pr}/reviews/(\d+)/dismissals", path)
        if m and method == "PUT":
            r = next(r for r in self.reviews if r["id"] == int(m.group(1)))
            r["state"] = "DISMISSED"
            return 200, r, {}
        raise KeyError(path)

    def mutations(self, since: int = 0) -> list[int]:
        return [i for i in self.mutation_at if i >= since]

    def _graphql(self, body):
        q, v = body.get("query", ""), body.get("variables") or {}
        if "reviewThreads" in q:
            roots = self.roots()
            start = int(v.get("after") or 0)
            chunk = roots[start: start + self.thread_page]
            nodes = []
            for r in chunk:
                thread = [r] + [c for c in self.comments if c.get("in_reply_to_id") == r["id"]]
                resolver = self.resolved.get(r["id"])
                nodes.append({"id": f"T_{r['id']}", "isResolved": r["id"] in self.resolved,
                              "resolvedBy": {"login": resolver.removesuffix("[bot]")} if resolver else None,
                              "path": r["path"], "line": r["line"], "originalLine": r["line"],
                              "comments": {"nodes": [{"databaseId": c["id"], "body": c["body"],
                                                      "createdAt": c.get("created_at"),
                                                      "originalCommit": {"oid": c.get("original_commit_id")},
                                                      "author": {"login": c["user"]["login"].removesuffix("[bot]")}}
                                                     for c in thread]}})
            end = start + len(chunk)
            return 200, {"data": {"repository": {"pullRequest": {"reviewThreads": {
                "pageInfo": {"hasNextPage": end < len(roots), "endCursor": str(end)}, "nodes": nodes}}}}}, {}
        if "resolveReviewThread" in q or "unresolveReviewThread" in q:
            self.mutation_at.append(len(self.log))
            rid = int(v["id"].removeprefix("T_"))
            if q.lstrip().startswith("mutation") and "unresolveReviewThread" in q:
                self.resolved.pop(rid, None)
            else:
                self.resolved[rid] = self.bot
            return 200, {"data": {"x": {"thread": {"id": v["id"]}}}}, {}
        return 200, {"errors": [{"message": "unknown query"}]}, {}
