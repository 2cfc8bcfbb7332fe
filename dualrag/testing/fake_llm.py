"""Loopback HTTP servers that behave like the OpenAI Chat Completions and Anthropic Messages APIs.

Stdlib only (`http.server` in a daemon thread, 127.0.0.1, ephemeral port). Each server is
scriptable per test and reusable by scripts (e.g. a benchmark with a scripted local model):

- a queue of `Scripted` replies (status, JSON body, headers, delay), consumed in order;
- when the queue is empty, an optional `responder(recorded_request) -> Scripted`;
- otherwise a 500 "nothing scripted" error, so a test notices an unexpected call;
- every received request is recorded (`path`, lower-cased `headers`, parsed `json`).

A request with `"stream": true` gets its successful reply as server-sent events, the way each
API streams (OpenAI: `chat.completion.chunk`s, usage last when `stream_options.include_usage`
asks, then `data: [DONE]`; Anthropic: `message_start` … `message_stop`). The reply's `delay`
is then the wait before the first event (a server reading the prompt), `chunk_delay` the gap
between events, and `stall_after`/`stall_s` a silence in mid-answer; `ping_s` sends SSE
keep-alive comments while waiting, as llama.cpp's server does; `cut_after` ends the stream
early, as llama.cpp's server does to a request when another one arrives. `FakeOpenAI(stream_usage=False)`
streams no usage at all, like llama-cpp-python's server. `closed_early` counts streams the
client hung up on.

Delays wait on an event that `stop()` sets, so shutting down never waits for a slow reply.

    with FakeOpenAI() as srv:
        srv.enqueue(srv.error(429, "slow down", retry_after=1), srv.chat("{\"ok\": true}"))
        client = openai.OpenAI(base_url=srv.base_url, api_key="test", max_retries=0)
"""

from __future__ import annotations

import itertools
import json
import threading
from abc import ABC, abstractmethod
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
    delay: float = 0.0  # before the reply (streamed: before the first event)
    chunk_delay: float = 0.0  # streamed: between events
    stall_after: int | None = None  # streamed: go silent after this many events ...
    stall_s: float = 0.0  # ... for this long
    ping_s: float = 0.0  # streamed: an SSE keep-alive comment this often while waiting (0 = none)
    cut_after: int | None = None  # streamed: end the stream after this many events (a dropped request)


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    json: Any


Responder = Callable[[RecordedRequest], Scripted]


class _FakeServer(ABC):
    """Shared machinery; subclasses define the routes and the reply builders."""

    routes: tuple[str, ...] = ()
    base_path = ""

    def __init__(self, responder: Responder | None = None) -> None:
        self.requests: list[RecordedRequest] = []
        self.closed_early = 0  # streams the client hung up on before the last event
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

    @abstractmethod
    def stream_events(self, body: dict[str, Any], request: Any) -> list[str]:
        """The SSE events (`event:`/`data:` lines, blank-line terminated) that stream `body`
        in the provider's own wire format."""

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
                if (isinstance(body, dict) and body.get("stream") and reply.status == 200
                        and isinstance(reply.body, dict)):
                    self._stream(reply, server.stream_events(reply.body, body))
                    return
                if reply.delay and server._stopping.wait(reply.delay):
                    return
                self._send(reply)

            def _stream(self, reply: Scripted, events: list[str]) -> None:
                try:
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("cache-control", "no-cache")
                    self.send_header("transfer-encoding", "chunked")
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    if not self._wait(reply.delay, reply.ping_s):
                        return
                    for n, event in enumerate(events[:reply.cut_after]):
                        if n and not self._wait(reply.chunk_delay, reply.ping_s):
                            return
                        if reply.stall_after is not None and n == reply.stall_after \
                                and not self._wait(reply.stall_s, reply.ping_s):
                            return
                        self._chunk(event.encode())
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    with server._lock:
                        server.closed_early += 1

            def _chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _wait(self, seconds: float, ping_s: float) -> bool:
                """Wait (sending keep-alive comments every `ping_s`); False when the server stops."""
                if server._stopping.is_set():
                    return False
                left = seconds
                while left > 0:
                    step = min(left, ping_s) if ping_s > 0 else left
                    if server._stopping.wait(step):
                        return False
                    left -= step
                    if ping_s > 0 and left > 0:
                        self._chunk(b": ping\n\n")
                return True

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

    def __init__(self, responder: Responder | None = None, *, stream_usage: bool = True) -> None:
        super().__init__(responder)
        self.stream_usage = stream_usage  # False: no usage in streams even when asked (llama-cpp-python)

    def stream_events(self, body: dict[str, Any], request: Any) -> list[str]:
        """A completion as `chat.completion.chunk`s: the role, the content a few characters at a
        time (a token each), the finish reason, the usage when asked for, `[DONE]`."""
        choice = body["choices"][0]
        head = {k: body[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            data = head | {"choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}
            return f"data: {json.dumps(data)}\n\n"

        content = choice["message"].get("content") or ""
        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": content[i:i + 4]}) for i in range(0, len(content), 4)]
        events.append(chunk({}, choice["finish_reason"]))
        wants_usage = bool(((request or {}).get("stream_options") or {}).get("include_usage"))
        if wants_usage and self.stream_usage:
            events.append(f"data: {json.dumps(head | {'choices': [], 'usage': body['usage']})}\n\n")
        return [*events, "data: [DONE]\n\n"]

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
        **streaming: Any,
    ) -> Scripted:
        """A completion; `streaming` sets how it is streamed when asked to (`chunk_delay`,
        `stall_after`, `stall_s`, `ping_s` of `Scripted`)."""
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
        return Scripted(200, body, dict(headers or {}), delay, **streaming)

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

    def stream_events(self, body: dict[str, Any], request: Any) -> list[str]:
        """A message as Messages-API stream events: `message_start` (input usage), per content
        block a start, its text or tool-input JSON in pieces and a stop, `message_delta` (stop
        reason, output usage), `message_stop`."""

        def event(name: str, data: dict[str, Any]) -> str:
            return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"

        usage = dict(body["usage"])
        start = {k: v for k, v in body.items() if k != "content"} | {
            "content": [], "stop_reason": None, "usage": usage | {"output_tokens": 1}}
        events = [event("message_start", {"message": start}), event("ping", {})]
        for index, block in enumerate(body["content"]):
            if block["type"] == "tool_use":
                opening = {**block, "input": {}}
                text, delta = json.dumps(block["input"]), "input_json_delta"
            else:
                opening = {"type": "text", "text": ""}
                text, delta = block["text"], "text_delta"
            events.append(event("content_block_start", {"index": index, "content_block": opening}))
            key = "partial_json" if delta == "input_json_delta" else "text"
            events += [event("content_block_delta", {"index": index, "delta": {"type": delta, key: text[i:i + 4]}})
                       for i in range(0, len(text), 4)]
            events.append(event("content_block_stop", {"index": index}))
        events.append(event("message_delta", {"delta": {"stop_reason": body["stop_reason"], "stop_sequence": None},
                                              "usage": {"output_tokens": usage["output_tokens"]}}))
        return [*events, event("message_stop", {})]

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
        **streaming: Any,
    ) -> Scripted:
        """A message; `streaming` as for `FakeOpenAI.chat`."""
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
        return Scripted(200, body, {}, delay, **streaming)

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
