"""Loopback HTTP servers that behave like the OpenAI Chat Completions and Anthropic Messages APIs.

Stdlib only (`http.server` in a daemon thread, 127.0.0.1, ephemeral port). Each server is
scriptable per test and reusable by scripts (e.g. a benchmark with a scripted local model):

- a queue of `Scripted` replies (status, JSON body, headers, delay), consumed in order;
- when the queue is empty, an optional `responder(recorded_request) -> Scripted`;
- otherwise a 500 "nothing scripted" error, so a test notices an unexpected call;
- every received request is recorded (`path`, lower-cased `headers`, parsed `json`).

Delays wait on an event that `stop()` sets, so shutting down never waits for a slow reply.

    with FakeOpenAI() as srv:
        srv.enqueue(srv.error(429, "slow down", retry_after=1), srv.chat("{\"ok\": true}"))
        client = openai.OpenAI(base_url=srv.base_url, api_key="test", max_retries=0)
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Scripted:
    """One reply: HTTP status, body (dict → JSON, str → raw text), headers, delay before replying."""

    status: int = 200
    body: dict[str, Any] | str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    json: Any


Responder = Callable[[RecordedRequest], Scripted]


class _FakeServer:
    """Shared machinery; subclasses define the routes and the reply builders."""

    routes: tuple[str, ...] = ()
    base_path = ""

    def __init__(self, responder: Responder | None = None) -> None:
        self.requests: list[RecordedRequest] = []
        self.responder = responder
        self._queue: deque[Scripted] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def base_url(self) -> str:
        """What to give the SDK as `base_url`."""
        return self.url + self.base_path

    def start(self) -> "_FakeServer":
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread:
            self._thread.join(timeout=2)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ scripting
    def enqueue(self, *replies: Scripted) -> None:
        with self._lock:
            self._queue.extend(replies)

    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def _next_reply(self, req: RecordedRequest) -> Scripted:
        with self._lock:
            self.requests.append(req)
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(req)
        return self.server_error(500, "nothing scripted for this request")

    def next_id(self) -> int:
        return next(self._ids)

    def server_error(self, status: int, message: str) -> Scripted:  # overridden
        return Scripted(status=status, body={"error": message})

    # ------------------------------------------------------------------ HTTP
    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                path = self.path.split("?", 1)[0]
                headers = {k.lower(): v for k, v in self.headers.items()}
                if path not in server.routes:
                    self._send(server.server_error(404, f"unknown path {path}"))
                    return
                reply = server._next_reply(RecordedRequest("POST", path, headers, body))
                if reply.delay and server._stopping.wait(reply.delay):
                    return
                self._send(reply)

            def _send(self, reply: Scripted) -> None:
                if isinstance(reply.body, (dict, list)):
                    data = json.dumps(reply.body).encode()
                    ctype = "application/json"
                else:
                    data = (reply.body or "").encode()
                    ctype = "text/plain"
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", ctype)
                    self.send_header("content-length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): nothing to do

        return Handler


class FakeOpenAI(_FakeServer):
    """`POST /v1/chat/completions` as documented for the OpenAI Chat Completions API."""

    routes = ("/v1/chat/completions",)
    base_path = "/v1"

    def chat(
        self,
        content: str | None,
        *,
        finish_reason: str = "stop",
        prompt_tokens: int = 100,
        completion_tokens: int = 20,
        cached_tokens: int = 0,
        model: str = "fake-model",
        delay: float = 0.0,
        headers: dict[str, str] | None = None,
    ) -> Scripted:
        body = {
            "id": f"chatcmpl-{self.next_id()}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
                "prompt_tokens_details": {"cached_tokens": cached_tokens, "audio_tokens": 0},
                "completion_tokens_details": {"reasoning_tokens": 0},
            },
        }
        return Scripted(200, body, dict(headers or {}), delay)

    def error(
        self,
        status: int,
        message: str = "error",
        *,
        type: str | None = None,
        code: str | None = None,
        retry_after: float | str | None = None,
        delay: float = 0.0,
    ) -> Scripted:
        default_type = {401: "invalid_request_error", 429: "rate_limit_exceeded", 400: "invalid_request_error"}
        body = {
            "error": {
                "message": message,
                "type": type or default_type.get(status, "server_error"),
                "param": None,
                "code": code,
            }
        }
        headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
        return Scripted(status, body, headers, delay)

    def server_error(self, status: int, message: str) -> Scripted:
        return self.error(status, message)


class FakeAnthropic(_FakeServer):
    """`POST /v1/messages` as documented for the Anthropic Messages API."""

    routes = ("/v1/messages",)
    base_path = ""

    def message(
        self,
        text: str | None = None,
        *,
        tool_input: dict[str, Any] | None = None,
        tool_name: str = "answer",
        stop_reason: str | None = None,
        input_tokens: int = 100,
        output_tokens: int = 20,
        cache_read_input_tokens: int = 0,
        cache_creation_input_tokens: int = 0,
        model: str = "claude-fake",
        delay: float = 0.0,
    ) -> Scripted:
        content: list[dict[str, Any]] = []
        if text is not None:
            content.append({"type": "text", "text": text})
        if tool_input is not None:
            content.append({"type": "tool_use", "id": f"toolu_{self.next_id()}", "name": tool_name, "input": tool_input})
        if stop_reason is None:
            stop_reason = "tool_use" if tool_input is not None else "end_turn"
        body = {
            "id": f"msg_{self.next_id()}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {
                "input_tokens": input_tokens,
                "output_tokens": output_tokens,
                "cache_read_input_tokens": cache_read_input_tokens,
                "cache_creation_input_tokens": cache_creation_input_tokens,
            },
        }
        return Scripted(200, body, {}, delay)

    def error(
        self,
        status: int,
        type: str = "api_error",
        message: str = "error",
        *,
        retry_after: float | str | None = None,
        delay: float = 0.0,
    ) -> Scripted:
        body = {"type": "error", "error": {"type": type, "message": message}, "request_id": f"req_{self.next_id()}"}
        headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
        return Scripted(status, body, headers, delay)

    def server_error(self, status: int, message: str) -> Scripted:
        return self.error(status, "api_error", message)
