"""A loopback GitHub written from GitHub's REST documentation (github/docs, content/rest/), not from
what dualrag calls: pull requests, their files and commits (paginated with `Link`, 30 a page by
default, at most 100), review comments and replies, reviews and dismissals, issue comments,
repository contents, collaborator permissions, the review threads dualrag reads and resolves over
GraphQL, the token's permissions, rate limits, and webhook payloads to deliver.

    gh = GitHubDouble()
    gh.add_token("github_pat_...", "dualrag[bot]", pull_requests="write", contents="read", issues="write")
    repo = gh.add_repository("acme/shop", collaborators={"dev": "write"})
    pr = gh.open_pull_request(repo, 5, author="dev", diff=DIFF, head="a1" * 20)
    payload = gh.pull_request_event(pr, "opened")      # POST it with X-Hub-Signature-256

Errors as the documentation gives them: a bad token 401 `Bad credentials`; a fine-grained token or
an app without the permission an endpoint lists 403 `Resource not accessible by ...`; a repository
the token cannot see 404; a review comment whose line is not in the pull request's diff (or a body,
commit or path missing) 422 `Validation Failed`; approving or requesting changes on one's own pull
request 422; rate limits (`primary_rate_limit`, `secondary_rate_limit`) 403 with the headers
rate-limits-for-the-rest-api.md describes."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dualrag.testing.api_double import Answer, ApiDouble, ApiError, FileChange, Request, iso, parse_change

DOCS = "https://docs.github.com/rest"
LEVELS = {"none": 0, "read": 1, "write": 2}
ROLES = ("read", "triage", "write", "maintain", "admin")


@dataclass
class Token:
    login: str
    permissions: dict[str, str]   # fine-grained: "pull_requests", "issues", "contents", "metadata" -> read|write
    kind: str = "personal access token"   # or "integration" (a GitHub App's installation token)
    scopes: tuple[str, ...] | None = None  # a classic token's OAuth scopes (sent back in X-OAuth-Scopes)


@dataclass
class Push:
    head: str
    files: list[FileChange]


@dataclass
class PullRequest:
    repo: Repository
    number: int
    id: int
    author: str
    title: str
    body: str
    base: str
    created_at: datetime
    pushes: list[Push] = field(default_factory=list)        # oldest first
    commits: list[dict] = field(default_factory=list)       # oldest first, as the API lists them
    review_comments: list[dict] = field(default_factory=list)
    issue_comments: list[dict] = field(default_factory=list)
    reviews: list[dict] = field(default_factory=list)
    resolved: dict[int, str] = field(default_factory=dict)  # root review comment id -> who resolved its thread
    state: str = "open"
    updated_at: datetime | None = None

    @property
    def head(self) -> str:
        return self.pushes[-1].head

    def roots(self) -> list[dict]:
        return [c for c in self.review_comments if "in_reply_to_id" not in c]


@dataclass
class Repository:
    full_name: str
    collaborators: dict[str, str] = field(default_factory=dict)  # login -> role
    files: dict[tuple[str, str], bytes] = field(default_factory=dict)
    pulls: dict[int, PullRequest] = field(default_factory=dict)


class GitHubDouble(ApiDouble):
    per_page_default = 30  # using-pagination-in-the-rest-api.md

    def __init__(self, *, actions_may_approve: bool = True) -> None:
        super().__init__()
        self.tokens: dict[str, Token] = {}
        self.repos: dict[str, Repository] = {}
        self.actions_may_approve = actions_may_approve

    # ------------------------------------------------------------------ the world
    def add_token(self, value: str, login: str, *, kind: str = "personal access token",
                  scopes: tuple[str, ...] | None = None, **permissions: str) -> None:
        """A fine-grained token (or an app's) with `permissions`; with `scopes`, a classic token."""
        if scopes is not None and "repo" in scopes:
            permissions = {"pull_requests": "write", "issues": "write", "contents": "write"}
        self.tokens[value] = Token(login, {"metadata": "read", **permissions}, kind, scopes)

    def add_repository(self, full_name: str, collaborators: dict[str, str] | None = None) -> Repository:
        repo = Repository(full_name, dict(collaborators or {}))
        self.repos[full_name] = repo
        return repo

    def open_pull_request(self, repo: Repository, number: int, *, author: str, diff: str, head: str,
                          base: str = "b" * 40, title: str = "Add Util", body: str = "Adds a Util class.",
                          commit_message: str = "Add Util\n\nA class for shared helpers.") -> PullRequest:
        pr = PullRequest(repo, number, self.new_id(), author, title, body, base, self.now())
        repo.pulls[number] = pr
        self.push(pr, diff, head, message=commit_message)
        return pr

    def push(self, pr: PullRequest, diff: str, head: str, *, message: str = "Update") -> None:
        with self.lock:
            at = self.now()
            pr.pushes.append(Push(head, parse_change(diff)))
            pr.commits.append({"sha": head, "commit": {"message": message, "author": {
                "name": pr.author, "email": f"{pr.author}@example.com", "date": iso(at)}}, "author": {"login": pr.author}})
            pr.updated_at = at

    def human_comment(self, pr: PullRequest, body: str, author: str) -> dict:
        """A conversation comment a person writes (an issue comment on the pull request)."""
        with self.lock:
            return self._issue_comment(pr, author, body)

    def primary_rate_limit(self, method: str, pattern: str, *, times: int = 1, reset_in: int = 60) -> None:
        """rate-limits-for-the-rest-api.md, "Exceeding the rate limit": 403 with `x-ratelimit-remaining: 0`."""
        self.fault(method, pattern, 403, times=times, payload={
            "message": "API rate limit exceeded for user.", "documentation_url": f"{DOCS}/rate-limit"},
            headers={"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-used": "5000",
                     "x-ratelimit-resource": "core", "x-ratelimit-reset": str(int(self.clock.timestamp()) + reset_in)})

    def secondary_rate_limit(self, method: str, pattern: str, *, times: int = 1, retry_after: int = 60) -> None:
        """The same page: a secondary limit is 403 (or 429) with a message saying so and, maybe, `retry-after`."""
        self.fault(method, pattern, 403, times=times, headers={"retry-after": str(retry_after)}, payload={
            "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            "documentation_url": f"{DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"})

    # ------------------------------------------------------------------ webhooks
    def pull_request_event(self, pr: PullRequest, action: str) -> dict[str, Any]:
        """webhook-events-and-payloads.md, `pull_request`."""
        event = {"action": action, "number": pr.number, "pull_request": self._pull_json(pr),
                 "repository": self._repo_json(pr.repo), "sender": {"login": pr.author, "type": "User"}}
        if action == "synchronize" and len(pr.pushes) > 1:
            event.update(before=pr.pushes[-2].head, after=pr.head)
        return event

    def issue_comment_event(self, pr: PullRequest, comment: dict) -> dict[str, Any]:
        return {"action": "created", "comment": comment, "sender": comment["user"],
                "issue": {"number": pr.number, "title": pr.title, "state": pr.state, "user": {"login": pr.author},
                          "pull_request": {"url": f"{self.url}/repos/{pr.repo.full_name}/pulls/{pr.number}"}},
                "repository": self._repo_json(pr.repo)}

    @staticmethod
    def _repo_json(repo: Repository) -> dict[str, Any]:
        return {"full_name": repo.full_name, "name": repo.full_name.split("/")[1], "private": True,
                "owner": {"login": repo.full_name.split("/")[0]}}

    # ------------------------------------------------------------------ authentication
    def authenticate(self, req: Request) -> None:
        """authenticating-to-the-rest-api.md: `Authorization: Bearer` (or `token`)."""
        auth = req.headers.get("authorization", "")
        token = self.tokens.get(auth.removeprefix("Bearer ").removeprefix("token "))
        if token is None:
            raise ApiError(401, {"message": "Bad credentials", "documentation_url": DOCS, "status": "401"})
        req.token = token  # type: ignore[attr-defined]

    @staticmethod
    def _need(req: Request, permission: str, level: str) -> None:
        """Each endpoint's "Fine-grained access tokens" section names the permission it needs."""
        token: Token = req.token  # type: ignore[attr-defined]
        have = LEVELS.get(token.permissions.get(permission, "none"), 0)
        if permission == "issues":  # issue comments on a pull request: "Issues" or "Pull requests"
            have = max(have, LEVELS.get(token.permissions.get("pull_requests", "none"), 0))
        if have < LEVELS[level]:
            raise ApiError(403, {"message": f"Resource not accessible by {token.kind}",
                                 "documentation_url": DOCS, "status": "403"})

    # ------------------------------------------------------------------ routes
    def route(self, req: Request) -> Answer:
        answer = self._route(req)
        scopes = req.token.scopes  # type: ignore[attr-defined]
        if scopes is not None:  # scopes-for-oauth-apps.md: a classic token's scopes on every answer
            answer.headers["X-OAuth-Scopes"] = ", ".join(scopes)
        return answer

    def _route(self, req: Request) -> Answer:
        s, m = req.segments, req.method
        if s == ["graphql"] and m == "POST":
            return self._graphql(req)
        if s == ["rate_limit"] and m == "GET":  # rate-limit.md: does not count against the limit
            return Answer(200, {"resources": {"core": {"limit": 5000, "remaining": 4999, "used": 1}}})
        if len(s) < 3 or s[0] != "repos":
            raise _not_found()
        repo = self.repos.get(f"{s[1]}/{s[2]}")
        if repo is None:
            raise _not_found()
        rest = s[3:]
        if rest[:1] == ["contents"] and m == "GET":
            self._need(req, "contents", "read")
            return self._contents(repo, "/".join(rest[1:]), req)
        if rest[:1] == ["collaborators"] and len(rest) == 3 and rest[2] == "permission" and m == "GET":
            self._need(req, "metadata", "read")
            role = repo.collaborators.get(rest[1], "none")
            legacy = {"maintain": "write", "triage": "read"}.get(role, role)
            return Answer(200, {"permission": legacy, "role_name": role, "user": {"login": rest[1]}})
        if rest[:1] == ["issues"] and len(rest) == 3 and rest[2] == "comments":
            pr = self._pull(repo, rest[1])
            if m == "GET":
                self._need(req, "issues", "read")
                return self.page(pr.issue_comments, req, gitlab=False)
            if m == "POST":
                self._need(req, "issues", "write")
                comment = self._issue_comment(pr, req.token.login, _field(req, "body"))  # type: ignore[attr-defined]
                self._wrote(pr, comment["body"])
                return Answer(201, comment)
        if rest[:2] == ["issues", "comments"] and len(rest) == 3 and m == "PATCH":
            self._need(req, "issues", "write")
            found = next(((p, c) for p in repo.pulls.values() for c in p.issue_comments if str(c["id"]) == rest[2]),
                         None)
            if found is None:
                raise _not_found()
            pr, comment = found
            comment["body"], comment["updated_at"] = _field(req, "body"), iso(self.now())
            self._wrote(pr, comment["body"])
            return Answer(200, comment)
        if rest[:1] == ["pulls"] and len(rest) >= 2:
            return self._pulls(self._pull(repo, rest[1]), rest[2:], req)
        raise _not_found()

    @staticmethod
    def _pull(repo: Repository, number: str) -> PullRequest:
        pr = repo.pulls.get(int(number)) if number.isdigit() else None
        if pr is None:
            raise _not_found()
        return pr

    def _contents(self, repo: Repository, path: str, req: Request) -> Answer:
        """repos/contents.md: a file's content base64 up to 1 MB; above that `content` is empty."""
        data = repo.files.get((req.query.get("ref", ""), path))
        if data is None:
            raise _not_found()
        inline = len(data) <= 1_000_000
        encoded = base64.b64encode(data).decode() if inline else ""
        return Answer(200, {"type": "file", "name": path.rsplit("/", 1)[-1], "path": path, "size": len(data),
                            "encoding": "base64" if inline else "none", "sha": "f" * 40,
                            "content": "\n".join(encoded[i:i + 60] for i in range(0, len(encoded), 60))})

    def _pulls(self, pr: PullRequest, rest: list[str], req: Request) -> Answer:
        m = req.method
        if rest == [] and m == "GET":
            self._need(req, "pull_requests", "read")
            return Answer(200, self._pull_json(pr))
        if rest == ["files"] and m == "GET":  # pulls.md, "List pull requests files": at most 3000
            self._need(req, "pull_requests", "read")
            return self.page([self._file_json(pr, f) for f in pr.pushes[-1].files][:3000], req, gitlab=False)
        if rest == ["commits"] and m == "GET":  # at most 250
            self._need(req, "pull_requests", "read")
            return self.page(pr.commits[:250], req, gitlab=False)
        if rest == ["comments"]:
            if m == "GET":
                self._need(req, "pull_requests", "read")
                return self.page(pr.review_comments, req, gitlab=False)
            if m == "POST":
                self._need(req, "pull_requests", "write")
                return Answer(201, self._review_comment(pr, req))
        if rest[:1] == ["comments"] and len(rest) == 3 and rest[2] == "replies" and m == "POST":
            self._need(req, "pull_requests", "write")
            root = next((c for c in pr.roots() if str(c["id"]) == rest[1]), None)
            if root is None:  # a reply to a reply is not supported: 404
                raise _not_found()
            reply = self._comment_json(pr, req.token.login, _field(req, "body"), root["path"], root["line"],  # type: ignore[attr-defined]
                                       root["side"], root["commit_id"], in_reply_to=root["id"])
            pr.review_comments.append(reply)
            return Answer(201, reply)
        if rest == ["reviews"]:
            if m == "GET":
                self._need(req, "pull_requests", "read")
                return self.page(pr.reviews, req, gitlab=False)
            if m == "POST":
                self._need(req, "pull_requests", "write")
                return Answer(200, self._review(pr, req))
        if rest[:1] == ["reviews"] and len(rest) == 3 and rest[2] == "dismissals" and m == "PUT":
            self._need(req, "pull_requests", "write")
            review = next((r for r in pr.reviews if str(r["id"]) == rest[1]), None)
            if review is None:
                raise _not_found()
            _field(req, "message")
            if review["state"] not in ("APPROVED", "CHANGES_REQUESTED"):
                raise _invalid("Can not dismiss a commented pull request review")
            review["state"] = "DISMISSED"
            self._wrote(pr, "")
            return Answer(200, review)
        raise _not_found()

    def _pull_json(self, pr: PullRequest) -> dict[str, Any]:
        repo = self._repo_json(pr.repo)
        return {"id": pr.id, "number": pr.number, "state": pr.state, "title": pr.title, "body": pr.body,
                "user": {"login": pr.author, "type": "User"}, "draft": False, "merged": False,
                "created_at": iso(pr.created_at), "updated_at": iso(pr.updated_at or pr.created_at),
                "head": {"sha": pr.head, "ref": "feature", "repo": repo},
                "base": {"sha": pr.base, "ref": "main", "repo": repo},
                "commits": len(pr.commits), "changed_files": len(pr.pushes[-1].files),
                "html_url": f"https://github.com/{pr.repo.full_name}/pull/{pr.number}"}

    @staticmethod
    def _file_json(pr: PullRequest, f: FileChange) -> dict[str, Any]:
        status = "added" if f.new_file else "removed" if f.deleted_file else "renamed" if f.renamed_file else "modified"
        out = {"sha": "c" * 40, "filename": f.new_path, "status": status, "additions": f.additions,
               "deletions": f.deletions, "changes": f.additions + f.deletions,
               "raw_url": f"https://github.com/{pr.repo.full_name}/raw/{pr.head}/{f.new_path}"}
        if f.hunks:  # no `patch` for a binary file
            out["patch"] = f.hunks.rstrip("\n")
        if f.renamed_file:
            out["previous_filename"] = f.old_path
        return out

    def _review_comment(self, pr: PullRequest, req: Request) -> dict:
        """pulls/comments.md, "Create a review comment for a pull request": `body`, `commit_id`,
        `path` and `line` (the line of the diff; `side` LEFT for the old file), `start_line` for a
        range; a line the diff of that commit does not show cannot be resolved: 422."""
        body, commit, path = _field(req, "body"), _field(req, "commit_id"), _field(req, "path")
        if all(x.head != commit for x in pr.pushes):
            raise _invalid("commit_id is not part of the pull request", field="commit_id")
        p = req.body if isinstance(req.body, dict) else {}
        if not self._on_diff(pr, commit, path, p.get("line"), p.get("side", "RIGHT"), p.get("start_line")):
            raise ApiError(422, {"message": "Validation Failed", "errors": [
                {"resource": "PullRequestReviewComment", "code": "custom", "field": "pull_request_review_thread.line",
                 "message": "could not be resolved"}], "documentation_url": DOCS, "status": "422"})
        c = self._comment_json(pr, req.token.login, body, path, p["line"], p.get("side", "RIGHT"), commit,  # type: ignore[attr-defined]
                               start=p.get("start_line"))
        pr.review_comments.append(c)
        return c

    @staticmethod
    def _on_diff(pr: PullRequest, commit: str, path: Any, line: Any, side: str, start: Any) -> bool:
        """Whether `line` (and `start_line`) of `path` are lines the diff of that push shows on `side`."""
        push = next((x for x in pr.pushes if x.head == commit), None)
        f = push and next((f for f in push.files if path in (f.new_path, f.old_path)), None)
        shown = (f.new_lines if side == "RIGHT" else f.old_lines) if f else {}
        return isinstance(line, int) and line in shown and (
            start is None or (isinstance(start, int) and start < line and start in shown))

    def _comment_json(self, pr: PullRequest, login: str, body: str, path: str, line: int, side: str, commit: str, *,
                      in_reply_to: int | None = None, start: int | None = None) -> dict:
        at = iso(self.now())
        c = {"id": self.new_id(), "pull_request_review_id": self.new_id(), "path": path, "line": line,
             "original_line": line, "side": side, "start_line": start, "start_side": side if start else None,
             "commit_id": commit, "original_commit_id": commit, "user": {"login": login, "type": "Bot"},
             "body": body, "created_at": at, "updated_at": at, "subject_type": "line",
             "html_url": f"https://github.com/{pr.repo.full_name}/pull/{pr.number}#discussion_r{self.next_id}"}
        if in_reply_to is not None:
            c["in_reply_to_id"] = in_reply_to
        self._wrote(pr, body)
        return c

    def _issue_comment(self, pr: PullRequest, login: str, body: str) -> dict:
        at = iso(self.now())
        c = {"id": self.new_id(), "body": body, "user": {"login": login, "type": "User"}, "created_at": at,
             "updated_at": at}
        pr.issue_comments.append(c)
        return c

    def _review(self, pr: PullRequest, req: Request) -> dict:
        """pulls/reviews.md, "Create a review for a pull request": `body` required for
        REQUEST_CHANGES and COMMENT; not on one's own pull request; an Actions token approves
        only where the repository allows it; `comments` (path, line, side, body) become review
        comments of the review, each on a line of the diff."""
        p = req.body if isinstance(req.body, dict) else {}
        event, body = p.get("event"), p.get("body") or ""
        login = req.token.login  # type: ignore[attr-defined]
        if event not in (None, "APPROVE", "REQUEST_CHANGES", "COMMENT"):
            raise _invalid(f"{event} is not a valid event")
        if event in ("REQUEST_CHANGES", "COMMENT") and not body:
            raise _invalid(f"Body is required when the event is {event}")
        if event in ("APPROVE", "REQUEST_CHANGES") and login == pr.author:
            raise _invalid("Can not approve your own pull request" if event == "APPROVE" else
                           "Can not request changes on your own pull request")
        if event == "APPROVE" and not self.actions_may_approve:
            raise _invalid("GitHub Actions is not permitted to approve pull requests.")
        commit = p.get("commit_id") or pr.head
        if all(x.head != commit for x in pr.pushes):
            raise _invalid("commit_id is not part of the pull request")
        comments = p.get("comments") or []  # draft comments submitted with the review: all on the diff, or none
        if any(not isinstance(c, dict) or not c.get("body") or not self._on_diff(
                pr, commit, c.get("path"), c.get("line"), c.get("side", "RIGHT"), c.get("start_line")) for c in comments):
            raise _invalid("Pull request review thread line must be part of the diff")
        state = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}.get(
            event, "PENDING")
        review = {"id": self.new_id(), "user": {"login": login, "type": "Bot"}, "body": body, "state": state,
                  "commit_id": commit, "submitted_at": iso(self.now())}
        pr.reviews.append(review)
        for c in comments:
            comment = self._comment_json(pr, login, c["body"], c["path"], c["line"], c.get("side", "RIGHT"), commit,
                                         start=c.get("start_line"))
            comment["pull_request_review_id"] = review["id"]
            pr.review_comments.append(comment)
        self._wrote(pr, body)
        return review

    # ------------------------------------------------------------------ GraphQL: review threads
    def _graphql(self, req: Request) -> Answer:
        """graphql/reference: `repository.pullRequest.reviewThreads` (cursor pages of at most 100),
        `resolveReviewThread` / `unresolveReviewThread` (Pull requests: write)."""
        q, v = str(_field(req, "query")), req.body.get("variables") or {}
        if "reviewThreads" in q:
            self._need(req, "pull_requests", "read")
            pr = self._pull(self.repos.get(f"{v.get('owner')}/{v.get('name')}") or Repository(""), str(v.get("number")))
            roots = pr.roots()
            start = int(v.get("after") or 0)
            chunk = roots[start:start + 100]
            nodes = [self._thread_json(pr, r) for r in chunk]
            return Answer(200, {"data": {"repository": {"pullRequest": {"reviewThreads": {
                "pageInfo": {"hasNextPage": start + len(chunk) < len(roots), "endCursor": str(start + len(chunk))},
                "nodes": nodes}}}}})
        if "resolveReviewThread" in q or "unresolveReviewThread" in q:
            self._need(req, "pull_requests", "write")
            rid = str(v.get("id", "")).removeprefix("PRRT_")
            pr = next((p for r in self.repos.values() for p in r.pulls.values()
                       if any(str(c["id"]) == rid for c in p.roots())), None)
            if pr is None:
                return Answer(200, {"errors": [{"type": "NOT_FOUND", "message": f"Could not resolve to a node "
                                                                                 f"with the global id of '{v.get('id')}'"}]})
            if "unresolveReviewThread" in q:
                pr.resolved.pop(int(rid), None)
            else:
                pr.resolved[int(rid)] = req.token.login  # type: ignore[attr-defined]
            self._wrote(pr, "")
            return Answer(200, {"data": {"thread": {"thread": {"id": v["id"]}}}})
        return Answer(200, {"errors": [{"message": "this double answers the review-thread query and mutations"}]})

    @staticmethod
    def _thread_json(pr: PullRequest, root: dict) -> dict[str, Any]:
        thread = [root] + [c for c in pr.review_comments if c.get("in_reply_to_id") == root["id"]]
        resolver = pr.resolved.get(root["id"])
        return {"id": f"PRRT_{root['id']}", "isResolved": resolver is not None,
                "resolvedBy": {"login": resolver.removesuffix("[bot]")} if resolver else None,
                "path": root["path"], "line": root["line"], "originalLine": root["original_line"],
                "comments": {"nodes": [{"databaseId": c["id"], "body": c["body"], "createdAt": c["created_at"],
                                        "originalCommit": {"oid": c["original_commit_id"]},
                                        "author": {"login": c["user"]["login"].removesuffix("[bot]")}}
                                       for c in thread]}}

    def _wrote(self, pr: PullRequest, body: str) -> None:
        self.wrote((pr.repo.full_name, pr.number), pr.head, body)


def _not_found() -> ApiError:
    return ApiError(404, {"message": "Not Found", "documentation_url": DOCS, "status": "404"})


def _field(req: Request, name: str) -> Any:
    """A required field missing: 422 "Invalid request" (the REST API's validation answer)."""
    value = req.body.get(name) if isinstance(req.body, dict) else None
    if value is None or value == "":
        raise ApiError(422, {"message": f"Invalid request.\n\n\"{name}\" wasn't supplied.",
                             "documentation_url": DOCS, "status": "422"})
    return value


def _invalid(message: str, field: str | None = None) -> ApiError:
    error: Any = {"resource": "PullRequestReview", "code": "custom", "field": field, "message": message} \
        if field else message
    return ApiError(422, {"message": "Unprocessable Entity", "errors": [error], "documentation_url": DOCS,
                          "status": "422"})
