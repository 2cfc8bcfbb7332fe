"""What the loopback platform doubles share (`gitlab_api.GitLabDouble`, `github_api.GitHubDouble`):
a stdlib HTTP server on 127.0.0.1, a request log, faults queued per route, offset pagination, and
the parsed change of a merge request (old/new line numbers from `unidiff`).

A double is written from the platform's API documentation, not from what dualrag calls: each
route answers as the documentation says, including its errors, and a route the documentation does
not have answers 404."""

from __future__ import annotations

import json
import re
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

from unidiff import PatchSet


class ApiError(Exception):
    """An answer other than success: raised anywhere in a route, sent as it is."""

    def __init__(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        super().__init__(status)
        self.status, self.payload, self.headers = status, payload, headers or {}


@dataclass
class Request:
    method: str
    segments: list[str]           # the path split at '/', each part decoded (%2F inside a part stays one part)
    query: dict[str, str]
    body: Any                     # parsed JSON, or a dict of form fields
    headers: dict[str, str]       # lower-case names
    raw_path: str

    @property
    def path(self) -> str:
        return "/" + "/".join(self.segments)

    def params(self) -> dict[str, Any]:
        """Query string and body together (GitLab reads both, the body wins)."""
        body = self.body if isinstance(self.body, dict) else {}
        return {**self.query, **body}


@dataclass
class Fault:
    method: str
    pattern: re.Pattern
    status: int
    times: int
    headers: dict[str, str]
    payload: Any


@dataclass
class Answer:
    status: int
    payload: Any = None
    headers: dict[str, str] = field(default_factory=dict)


# ------------------------------------------------------------------------------ the change


@dataclass
class FileChange:
    """One file of a merge request's change, as both platforms describe it."""

    old_path: str
    new_path: str
    new_file: bool
    deleted_file: bool
    renamed_file: bool
    hunks: str                                                      # from the first '@@', '' for a binary file
    new_lines: dict[int, int | None] = field(default_factory=dict)  # new line -> old line (None: added)
    old_lines: dict[int, str] = field(default_factory=dict)         # old line -> '-' removed, ' ' context
    additions: int = 0
    deletions: int = 0


def parse_change(diff: str) -> list[FileChange]:
    """A git diff as the files a platform lists for a merge request."""
    files = []
    for pf in PatchSet(diff):
        old = pf.source_file[2:] if pf.source_file.startswith("a/") else pf.path
        new = pf.target_file[2:] if pf.target_file.startswith("b/") else pf.path
        fc = FileChange(old_path=old if not pf.is_added_file else new, new_path=new if not pf.is_removed_file else old,
                        new_file=pf.is_added_file, deleted_file=pf.is_removed_file, renamed_file=pf.is_rename,
                        hunks="".join(str(h) for h in pf), additions=pf.added, deletions=pf.removed)
        for hunk in pf:
            for line in hunk:
                if line.is_added:
                    fc.new_lines[line.target_line_no] = None
                elif line.is_removed:
                    fc.old_lines[line.source_line_no] = "-"
                elif line.is_context:
                    fc.new_lines[line.target_line_no] = line.source_line_no
                    fc.old_lines[line.source_line_no] = " "
        files.append(fc)
    return files


def with_headers(f: FileChange) -> str:
    """The file's hunks under unified-diff `---`/`+++` lines."""
    if not f.hunks:
        return ""
    old = "/dev/null" if f.new_file else f"a/{f.old_path}"
    new = "/dev/null" if f.deleted_file else f"b/{f.new_path}"
    return f"--- {old}\n+++ {new}\n{f.hunks}"


# ------------------------------------------------------------------------------ the server


class ApiDouble(ABC):
    """Routes, faults and a log; a subclass adds authentication and the API."""

    per_page_default = 20
    per_page_max = 100

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.faults: list[Fault] = []
        self.log: list[tuple[str, str, int]] = []  # method, path, status answered
        self.write_log: list[dict[str, Any]] = []
        self.next_id = 1000
        self.clock = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _do(self) -> None:
                double._handle(self)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _do

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address) -> None:
                pass  # a client that hung up (a killed worker) is not the double's failure

        self.httpd = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ helpers for tests
    def new_id(self) -> int:
        with self.lock:
            self.next_id += 1
            return self.next_id

    def now(self) -> datetime:
        """The platform's clock: one second later at every call, so events keep their order."""
        with self.lock:
            self.clock += timedelta(seconds=1)
            return self.clock

    def fault(self, method: str, pattern: str, status: int, *, times: int = 1, headers: dict[str, str] | None = None,
              payload: Any = None) -> None:
        """The next `times` requests matching `method` and `pattern` (a regex on the path) get this answer."""
        self.faults.append(Fault(method, re.compile(pattern), status, times, headers or {},
                                 payload if payload is not None else {"message": f"{status} injected"}))

    def calls(self, method: str | None = None, pattern: str = "") -> list[tuple[str, str, int]]:
        rx = re.compile(pattern)
        return [c for c in self.log if (method is None or c[0] == method) and rx.search(c[1])]

    def writes(self) -> int:
        """Writes the API accepted from a token (a person's comment made by a helper is not one)."""
        return len(self.write_log)

    def wrote(self, mr: tuple, head: str, body: str) -> None:
        """Kept for every accepted write: which merge request, its head at that moment, the text."""
        self.write_log.append({"mr": mr, "head": head, "body": body})

    # ------------------------------------------------------------------ pagination
    def page(self, items: list, req: Request, *, gitlab: bool) -> Answer:
        """Offset pagination: `page` (from 1) and `per_page` (default, capped at the maximum); a
        `Link` header with first/prev/next/last, and GitLab's `x-*` headers."""
        try:
            per = min(max(int(req.query.get("per_page", self.per_page_default)), 1), self.per_page_max)
            page = max(int(req.query.get("page", 1)), 1)
        except ValueError:
            raise ApiError(400, {"error": "page or per_page is invalid"}) from None
        pages = max(1, -(-len(items) // per))
        chunk = items[(page - 1) * per: page * per]

        def link(n: int) -> str:
            return f"<{self.url}{req.raw_path.split('?')[0]}?{urlencode({**req.query, 'page': n, 'per_page': per})}>"

        rels = [(1, "first"), (pages, "last")]
        if page > 1:
            rels.insert(0, (page - 1, "prev"))
        if page < pages:
            rels.insert(0, (page + 1, "next"))
        headers = {"Link": ", ".join(f'{link(n)}; rel="{rel}"' for n, rel in rels)}
        if gitlab:
            headers.update({"X-Page": str(page), "X-Per-Page": str(per), "X-Total": str(len(items)),
                            "X-Total-Pages": str(pages), "X-Next-Page": str(page + 1) if page < pages else "",
                            "X-Prev-Page": str(page - 1) if page > 1 else ""})
        return Answer(200, chunk, headers)

    # ------------------------------------------------------------------ plumbing
    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        split = urlsplit(h.path)
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in h.headers.items()}
        try:
            body = _body(raw, headers.get("content-type", ""))
        except ValueError:
            return self._send(h, Answer(400, {"message": "400 Bad request - the body is not valid JSON"}))
        req = Request(h.command, [unquote(s) for s in split.path.strip("/").split("/")],
                      dict(parse_qsl(split.query, keep_blank_values=True)), body, headers, h.path)
        with self.lock:
            answer = self._answer(req)
            self.log.append((req.method, req.path, answer.status))
        self._send(h, answer)

    def _answer(self, req: Request) -> Answer:
        for f in self.faults:
            if f.times > 0 and f.method == req.method and f.pattern.search(req.path):
                f.times -= 1
                return Answer(f.status, f.payload, dict(f.headers))
        try:
            self.authenticate(req)
            return self.route(req)
        except ApiError as exc:
            return Answer(exc.status, exc.payload, exc.headers)

    @abstractmethod
    def authenticate(self, req: Request) -> None:
        """Raise ApiError (401, 403) as the platform does for a missing, bad or insufficient token."""

    @abstractmethod
    def route(self, req: Request) -> Answer:
        """The answer to one request; ApiError for every error the documentation lists."""

    def _send(self, h: BaseHTTPRequestHandler, answer: Answer) -> None:
        payload = answer.payload
        if isinstance(payload, bytes | str):
            data = payload.encode() if isinstance(payload, str) else payload
            kind = "text/plain; charset=utf-8"
        else:
            data = b"" if payload is None else json.dumps(payload).encode()
            kind = "application/json"
        h.send_response(answer.status)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Length", str(len(data)))
        for k, v in answer.headers.items():
            h.send_header(k, str(v))
        h.end_headers()
        h.wfile.write(data)


def _body(raw: bytes, content_type: str) -> Any:
    if not raw:
        return {}
    if "application/x-www-form-urlencoded" in content_type:
        return _nested(parse_qsl(raw.decode(), keep_blank_values=True))
    return json.loads(raw)


def _nested(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Form fields `position[new_line]=3` as `{"position": {"new_line": "3"}}` (GitLab's hash params)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        parts = re.findall(r"[^\[\]]+", key)
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


def iso(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
