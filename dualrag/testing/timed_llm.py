"""An LLM double with a fixed latency that counts what it serves: requests, and the most that were
ever in flight at once (what a cap on LLM requests must keep down). The loopback FakeOpenAI
underneath answers every reviewer `{"findings": []}` through the real openai SDK."""

from __future__ import annotations

import json
import threading

from dualrag.testing.fake_llm import FakeOpenAI, RecordedRequest, Scripted


class TimedLLM:
    def __init__(self, latency_s: float = 1.0, answer: dict | None = None) -> None:
        self.latency_s = latency_s
        self.answer = json.dumps(answer if answer is not None else {"findings": []})
        self.server = FakeOpenAI(self._respond)
        self.lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0
        self.served = 0
        self.started = threading.Event()  # set by the first request (a test waits for "mid-review")

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def _respond(self, request: RecordedRequest) -> Scripted:
        with self.lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        self.started.set()
        try:
            self.server._stopping.wait(self.latency_s)
        finally:
            with self.lock:
                self.in_flight -= 1
                self.served += 1
        return self.server.chat(self.answer, prompt_tokens=1000, completion_tokens=20)

    def start(self) -> TimedLLM:
        self.server.start()
        return self

    def stop(self) -> None:
        self.server.stop()

    def __enter__(self) -> TimedLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
